/*
 * relax.c - the edits of a relax-placement or free-capacity fix
 * (groups.h kv_relax_plan): what the group's VMIs fail on their
 * CPU-compatible nodes (kv_target_fails: every selector label and taint,
 * the affinity, pod terms, room), turned into the changes that remove it
 * on the VMs' side (their nodeSelector, affinity, tolerations, pod terms)
 * or the node's (uncordon, room).  Per node the edits that let every VMI
 * of the group go there are priced (a VM edit needs the owner and often
 * a restart: it costs more than a node's); the cheapest node that takes
 * the most VMIs is chosen, then another for the VMIs left, so the fix
 * text names the exact change and `what-if --fix` applies the same one.
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/capacity.h"
#include "analyze/util/bitset.h"
#include "analyze/rules/target.h"

/* CPU-compatible nodes asked per VMI, and failures kept per node. */
#define RELAX_SAMPLE 256
#define RELAX_FAILS 16
/* A VM edit's price against a node edit's. */
#define VM_COST 10

/* What one node needs to take some of the group's VMIs. */
typedef struct nodeplan {
	size_t nsteps;
	kv_step *steps;			/* at most RELAX_FAILS, grown as
					   needed (a plan per node of
					   thousands, most with none) */
	const char *stuck;		/* why a VMI cannot go there */
	size_t nvmis;			/* the VMIs it takes once edited */
	kv_bits takes;			/* per VMI of the group (a bit each:
					   thousands of nodes may hold one) */
} nodeplan;

static bool
same_step(const kv_step *x, const kv_step *y)
{
	return x->kind == y->kind && x->key == y->key &&
	    x->value == y->value && x->effect == y->effect &&
	    x->by == y->by && (x->node == y->node ||
	    (x->kind != STEP_UNCORDON && x->kind != STEP_FREE_ROOM));
}

/* st into *steps (n of them, at most max): a free-room step keeps the
 * larger amount of each resource. */
static bool
put_step(kv_step **steps, size_t *n, size_t max, const kv_step *st)
{
	for (size_t i = 0; i < *n; i++)
		if (same_step(&(*steps)[i], st)) {
			kv_res *x = &(*steps)[i].amount;
			const kv_res *y = &st->amount;

			if (y->cpu_millis > x->cpu_millis)
				x->cpu_millis = y->cpu_millis;
			if (y->memory > x->memory)
				x->memory = y->memory;
			if (y->pods > x->pods)
				x->pods = y->pods;
			for (int k = 0; k < KV_MAX_RESNAMES; k++)
				if (y->ext[k] > x->ext[k])
					x->ext[k] = y->ext[k];
			return true;
		}
	if (*n == max)
		return false;
	*steps = xreallocarray(*steps, *n + 1, sizeof(kv_step));
	(*steps)[(*n)++] = *st;
	return true;
}

static int64_t
lack(int64_t need, int64_t have)
{
	if (need <= 0 || have == KV_RES_UNLIMITED || have >= need)
		return 0;
	return kv_sat_addmul(need, have, -1);	/* have < 0: overcommitted */
}

static kv_res
shortfall(const kv_fail *f)
{
	kv_res s = { .cpu_millis = lack(f->need.cpu_millis,
	    f->have.cpu_millis), .memory = lack(f->need.memory,
	    f->have.memory), .pods = lack(f->need.pods, f->have.pods) };

	for (int k = 0; k < KV_MAX_RESNAMES; k++)
		s.ext[k] = lack(f->need.ext[k], f->have.ext[k]);
	return s;
}

/* A taint of a node condition, set by the node controller: the node is
 * not ready or under pressure, and no toleration makes it a good target. */
static bool
condition_taint(const char *key)
{
	return (kv_startswith(key, "node.kubernetes.io/") &&
	    strcmp(key, "node.kubernetes.io/unschedulable") != 0) ||
	    kv_startswith(key, "node.cloudprovider.kubernetes.io/");
}

static bool
dropped(const kv_step *steps, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (steps[i].kind == STEP_DROP_AFFINITY &&
		    strcmp(steps[i].key, key) == 0)
			return true;
	return false;
}

/* Whether dropping the requirements on the keys of the drop-affinity
 * steps empties a term of f (its terms ORed: the required affinity then
 * asks for nothing). */
static bool
empties_term(const kv_affinity *f, const kv_step *steps, size_t n)
{
	for (size_t t = 0; t < f->nterms; t++) {
		size_t left = 0;

		for (size_t q = 0; q < f->terms[t].nreqs; q++)
			left += !dropped(steps, n, f->terms[t].reqs[q].key);
		if (left == 0 && f->terms[t].nreqs > 0)
			return true;
	}
	return false;
}

static bool
all_empty(const kv_affinity *f)
{
	for (size_t t = 0; t < f->nterms; t++)
		if (f->terms[t].nreqs > 0)
			return false;
	return true;
}

/* Whether the model has the migration `by` of r's VMI (a flavor's own
 * operation is another object). */
static bool
is_vmim(const kv_model *m, const kv_vmires *r, const char *by)
{
	for (size_t i = 0; by != NULL && i < m->nvmims; i++)
		if (strcmp(m->vmims[i].name, by) == 0 &&
		    strcmp(m->vmims[i].ns, r->vmi->ns) == 0 &&
		    strcmp(m->vmims[i].vmi, r->vmi->name) == 0)
			return true;
	return false;
}

/* The edit that removes failure f of r on node n into *st; NULL, or why
 * no edit of kvscope's removes it. */
static const char *
fail_step(const kv_analysis *a, const kv_vmires *r, size_t n,
    const kv_fail *f, kv_step *st)
{
	static const enum kv_step_kind pods[] = {
		[PODF_AFFINITY] = STEP_POD_AFFINITY,
		[PODF_ANTI] = STEP_POD_ANTI, [PODF_SPREAD] = STEP_SPREAD,
	};
	const char *owner;

	*st = (kv_step){ .node = n, .key = f->key, .value = f->value };
	switch (f->kind) {
	case FAIL_SOURCE:
		return "it is the source node";
	case FAIL_OWN_POD:
		return "a pod of the VMI already runs on the node (a migration "
		    "under way): wait for it to end";
	case FAIL_RESERVATION:
		return "a pod holding the same LUN reservation runs there";
	case FAIL_SELECTOR:
		if (f->origin == ORIGIN_VMI &&
		    a->m->flavor->fix->selector_owner != NULL &&
		    (owner = a->m->flavor->fix->selector_owner(a->m, r->vmi,
		    f->key, f->value)) != NULL)
			return owner;
		if (f->origin == ORIGIN_OTHER)
			return "the label comes from the KubeVirt CR "
			    "(developerConfiguration.nodeSelectors), the "
			    "architecture or a VM class, not from the VM";
		if (f->origin == ORIGIN_MIGRATION && !is_vmim(a->m, r, f->by))
			return "the label comes from an operation of the "
			    "flavor's: delete it and create it again without "
			    "its nodeSelector";
		st->kind = f->origin == ORIGIN_MIGRATION ? STEP_DROP_ADDED :
		    STEP_DROP_SELECTOR;
		st->by = f->by;
		return NULL;
	case FAIL_AFFINITY:
	case FAIL_EMPTY_TERM:
		if (f->origin == ORIGIN_OTHER)
			return "the node affinity is a VM class's or "
			    "KubeVirt's, not the VM's own";
		st->kind = f->kind == FAIL_EMPTY_TERM ? STEP_DROP_EMPTY :
		    STEP_DROP_AFFINITY;
		st->value = NULL;
		st->whole = st->kind == STEP_DROP_EMPTY &&
		    all_empty(&r->vmi->affinity);
		return NULL;
	case FAIL_TAINT:
		if (!f->cordon && condition_taint(f->key))
			return "the node is tainted by its condition (not "
			    "ready, unreachable or under pressure): fix the "
			    "node, do not tolerate it";
		st->kind = f->cordon ? STEP_UNCORDON : STEP_TOLERATE;
		st->value = NULL;
		st->effect = f->cordon ? NULL : f->effect;
		if (f->cordon)
			st->key = NULL;
		return NULL;
	case FAIL_VOLUME:
		return "the disk's PersistentVolume is bound to other nodes "
		    "(its node affinity or zone): move the data to storage "
		    "the node reaches";
	case FAIL_POD_TERM:
		if (f->pod == PODF_OTHER_POD || f->pod == PODF_NONE)
			return "a running pod's anti-affinity rules out the "
			    "target pod: that pod's owner must relax it";
		*st = (kv_step){ .kind = pods[f->pod], .node = n };
		return NULL;
	case FAIL_ROOM:
		*st = (kv_step){ .kind = STEP_FREE_ROOM, .node = n,
		    .amount = shortfall(f) };
		return NULL;
	}
	return "no edit kvscope knows";
}

/* The edits node n needs for VMI k of g (r), into np. */
static void
plan_vmi(const kv_analysis *a, const kv_vmires *r, size_t n, size_t k,
    nodeplan *np, const char **stuck)
{
	kv_fail f[RELAX_FAILS];
	size_t nf = kv_target_fails(a, a->place, r, n, f, RELAX_FAILS);
	kv_step st[RELAX_FAILS];
	size_t ns = 0;

	for (size_t i = 0; i < nf; i++) {
		const char *why = fail_step(a, r, n, &f[i], &st[ns]);

		if (why != NULL) {
			if (*stuck == NULL)
				*stuck = why;
			np->stuck = why;
			return;
		}
		ns++;
	}
	for (size_t i = 0; i < ns; i++)
		if (!put_step(&np->steps, &np->nsteps, RELAX_FAILS, &st[i]))
			return;
	kv_bits_set(&np->takes, k);
	np->nvmis++;
}

static size_t
cost(const nodeplan *np)
{
	size_t c = 0;

	for (size_t i = 0; i < np->nsteps; i++)
		c += np->steps[i].kind == STEP_UNCORDON ||
		    np->steps[i].kind == STEP_FREE_ROOM ? 1 : VM_COST;
	return c;
}

/* Of the plans, the one that takes the most VMIs left (none taken yet
 * in left), then costs least, then by node name; SIZE_MAX when none
 * takes any. */
static size_t
best_node(const nodeplan *np, size_t nn, const kv_bits *left)
{
	size_t best = SIZE_MAX, most = 0;

	for (size_t n = 0; n < nn; n++) {
		size_t takes = 0;

		for (size_t w = 0; w < np[n].takes.nwords; w++)
			takes += (size_t)__builtin_popcountll(
			    np[n].takes.w[w] & left->w[w]);
		if (takes > most || (takes == most && takes > 0 &&
		    cost(&np[n]) < cost(&np[best]))) {
			best = n;
			most = takes;
		}
	}
	return best;
}

/* Nodes chosen until every VMI is taken or none takes more; how many
 * are left. */
static size_t
choose(kv_group *g, nodeplan *np, size_t nn)
{
	kv_bits left;
	size_t b, nleft = g->nvmis;

	kv_bits_init(&left, g->nvmis);
	kv_bits_fill(&left);
	while (nleft > 0 && (b = best_node(np, nn, &left)) != SIZE_MAX) {
		for (size_t i = 0; i < np[b].nsteps; i++) {
			g->fix.steps = xreallocarray(g->fix.steps,
			    g->fix.nsteps + 1, sizeof(kv_step));
			g->fix.steps[g->fix.nsteps++] = np[b].steps[i];
		}
		for (size_t w = 0; w < left.nwords; w++) {
			uint64_t x = np[b].takes.w[w] & left.w[w];

			nleft -= (size_t)__builtin_popcountll(x);
			left.w[w] &= ~x;
		}
	}
	kv_bits_free(&left);
	return nleft;
}

/* The drop-affinity steps of g: whether, all taken, they empty a term
 * of a VMI's required node affinity (what-if then drops it whole). */
static void
whole_affinity(const kv_analysis *a, const kv_group *g)
{
	bool whole = false;

	for (size_t k = 0; k < g->nvmis && !whole; k++)
		whole = empties_term(&a->vmis[g->vmis[k]].vmi->affinity,
		    g->fix.steps, g->fix.nsteps);
	for (size_t i = 0; i < g->fix.nsteps; i++)
		if (g->fix.steps[i].kind == STEP_DROP_AFFINITY)
			g->fix.steps[i].whole = whole;
}

void
kv_relax_plan(const kv_analysis *a, kv_group *g)
{
	size_t nn = a->m->nnodes;
	nodeplan *np = xcalloc(nn + 1, sizeof(nodeplan));
	const char *stuck = NULL;

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];
		size_t seen = 0;

		KV_NODESET_FOREACH(&r->cpu_targets, node) {
			if (seen++ == RELAX_SAMPLE)
				break;
			if (np[node].takes.nwords == 0)
				kv_bits_init(&np[node].takes, g->nvmis);
			plan_vmi(a, r, node, k, &np[node], &stuck);
		}
	}
	if (choose(g, np, nn) > 0 && stuck != NULL)
		g->fix.stuck = xstrdup(stuck);
	whole_affinity(a, g);
	for (size_t n = 0; n < nn; n++) {
		kv_bits_free(&np[n].takes);
		free(np[n].steps);
	}
	free(np);
}

/* bytes rounded up to a tenth of its unit ("1.1 GiB" for 1.04 GiB):
 * an amount to free must not read as less than it is. */
static char *
bytes_up(int64_t bytes)
{
	static const struct {
		int64_t unit;
		const char *name;
	} units[] = { { (int64_t)1 << 40, "TiB" }, { (int64_t)1 << 30, "GiB" },
	    { (int64_t)1 << 20, "MiB" } };

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (bytes >= units[i].unit) {
			unsigned __int128 t = ((unsigned __int128)bytes * 10 +
			    (unsigned __int128)units[i].unit - 1) /
			    (unsigned __int128)units[i].unit;

			return xasprintf("%llu.%llu %s",
			    (unsigned long long)(t / 10),
			    (unsigned long long)(t % 10), units[i].name);
		}
	return xasprintf("%lld B", (long long)bytes);
}

/* The room of amount r node n has some of (freeable) or none of (the
 * node must offer it), in words: "400m CPU, 1.5 GiB of memory". */
static void
amount_words(const kv_analysis *a, size_t n, const kv_res *r, bool offer,
    kv_buf *b)
{
	const kv_model *m = a->m;
	size_t at = b->len;

	if (!offer && r->cpu_millis > 0)
		kv_buf_printf(b, r->cpu_millis % 1000 ? "%lldm CPU" :
		    "%lld CPU", (long long)(r->cpu_millis % 1000 ?
		    r->cpu_millis : r->cpu_millis / 1000));
	if (!offer && r->memory > 0) {
		char *s = bytes_up(r->memory);

		kv_buf_printf(b, "%s%s of memory", b->len > at ? ", " : "", s);
		free(s);
	}
	if (!offer && r->pods > 0)
		kv_buf_printf(b, "%s%lld pod slot%s", b->len > at ? ", " : "",
		    (long long)r->pods, r->pods == 1 ? "" : "s");
	for (size_t k = 0; k < m->nresnames && k < KV_MAX_RESNAMES; k++) {
		bool bytes = kv_startswith(m->resnames[k], "hugepages-") ||
		    strcmp(m->resnames[k], "ephemeral-storage") == 0;
		char *s;

		if (r->ext[k] <= 0 ||
		    (a->nodes[n].allocatable.ext[k] <= 0) != offer)
			continue;
		s = bytes ? bytes_up(r->ext[k]) : xasprintf("%lld",
		    (long long)r->ext[k]);
		kv_buf_printf(b, "%s%s %s", b->len > at ? ", " : "", s,
		    m->resnames[k]);
		free(s);
	}
}

/* A free-room step in words: what to free, and what the node must
 * offer first (a resource it lists none of: a device plugin's). */
static void
room_words(const kv_analysis *a, const kv_step *st, kv_buf *b)
{
	const char *node = a->m->nodes[st->node].name;
	kv_buf f = {0}, o = {0};

	amount_words(a, st->node, &st->amount, false, &f);
	amount_words(a, st->node, &st->amount, true, &o);
	if (f.data != NULL)
		kv_buf_printf(b, "free %s on %s (move or scale down other pods "
		    "there)", f.data, node);
	if (o.data != NULL)
		kv_buf_printf(b, "%s%s must offer %s (it lists none: the "
		    "device plugin must run there)", f.data ? "; " : "", node,
		    o.data);
	kv_buf_free(&f);
	kv_buf_free(&o);
}

/* Step st in words into b (keys: the drop-affinity steps' keys). */
static void
step_words(const kv_analysis *a, const kv_step *st, const char *keys,
    kv_buf *b)
{
	const kv_fixrow *fr = a->m->flavor->fix;
	const kv_node *nd = &a->m->nodes[st->node];
	const char *have = st->key ? kv_labels_get(&nd->labels, st->key) :
	    NULL;

	switch (st->kind) {
	case STEP_DROP_SELECTOR:
		kv_buf_printf(b, "remove %s=%s from %s (%s %s)", st->key,
		    st->value, fr->paths[VMPATH_NODE_SELECTOR], nd->name,
		    have ? "has another value" : "lacks the label");
		break;
	case STEP_DROP_ADDED:
		kv_buf_printf(b, "migration %s asks for %s=%s "
		    "(addedNodeSelector), which %s %s: delete it and migrate "
		    "again without it", st->by, st->key, st->value, nd->name,
		    have ? "has another value of" : "lacks");
		break;
	case STEP_DROP_AFFINITY:
		if (st->whole)
			kv_buf_printf(b, "remove the required node affinity "
			    "(%s.nodeAffinity.requiredDuringScheduling"
			    "IgnoredDuringExecution): a term of it asks only "
			    "for %s", fr->paths[VMPATH_AFFINITY], keys);
		else
			kv_buf_printf(b, "drop the requirements on %s from "
			    "each nodeSelectorTerm of the required node "
			    "affinity in %s (or make them preferred)", keys,
			    fr->paths[VMPATH_AFFINITY]);
		break;
	case STEP_DROP_EMPTY:
		kv_buf_printf(b, st->whole ? "remove the required node "
		    "affinity from %s: its only nodeSelectorTerms are empty" :
		    "remove the empty nodeSelectorTerm from %s",
		    fr->paths[VMPATH_AFFINITY]);
		break;
	case STEP_TOLERATE:
		kv_buf_printf(b, "add {key: %s, operator: Exists, effect: %s} "
		    "to %s", st->key, st->effect,
		    fr->paths[VMPATH_TOLERATIONS]);
		break;
	case STEP_POD_AFFINITY:
	case STEP_POD_ANTI:
		kv_buf_printf(b, "make the required pod %s in %s preferred "
		    "(preferredDuringSchedulingIgnoredDuringExecution)",
		    st->kind == STEP_POD_ANTI ? "anti-affinity" : "affinity",
		    fr->paths[VMPATH_AFFINITY]);
		break;
	case STEP_SPREAD:
		kv_buf_printf(b, "set whenUnsatisfiable: ScheduleAnyway in "
		    "%s.topologySpreadConstraints", fr->paths[VMPATH_POD]);
		break;
	case STEP_UNCORDON:
		kv_buf_printf(b, "uncordon %s (kubectl uncordon %s)", nd->name,
		    nd->name);
		break;
	case STEP_FREE_ROOM:
		room_words(a, st, b);
		break;
	case STEP_COUNT:
		break;
	}
}

char *
kv_relax_words(const kv_analysis *a, const kv_group *g)
{
	kv_buf b = {0}, keys = {0};
	size_t node = SIZE_MAX;
	bool said = false;

	for (size_t i = 0; i < g->fix.nsteps; i++)
		if (g->fix.steps[i].kind == STEP_DROP_AFFINITY)
			kv_buf_printf(&keys, "%s%s", keys.len ? ", " : "",
			    g->fix.steps[i].key);
	for (size_t i = 0; i < g->fix.nsteps; i++) {
		const kv_step *st = &g->fix.steps[i];

		if (st->kind == STEP_DROP_AFFINITY && said)
			continue;	/* said once, with every key */
		said |= st->kind == STEP_DROP_AFFINITY;
		if (st->node != node)
			kv_buf_printf(&b, "%sso that %s takes them: ", i > 0 ?
			    "; and " : "", a->m->nodes[st->node].name);
		else
			kv_buf_printf(&b, ", ");
		node = st->node;
		step_words(a, st, keys.data, &b);
	}
	kv_buf_free(&keys);
	return b.data;
}
