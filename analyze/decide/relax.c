/*
 * relax.c - the edits of a relax-placement or free-capacity fix
 * (groups.h kv_relax_plan): what each VMI of the group fails first on its
 * CPU-compatible nodes (kv_target_fail), turned into the change that
 * removes it on the VMs' side (their nodeSelector, affinity, tolerations,
 * pod terms) or the node's (uncordon, room), so that the fix text names
 * the exact change and `what-if --fix` applies the same one.
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/capacity.h"
#include "analyze/rules/target.h"

/* CPU-compatible nodes asked per VMI (as the placement grouping does). */
#define RELAX_SAMPLE 64

typedef struct plan {
	const kv_analysis *a;
	kv_fix *fix;
	size_t *room_vmis;		/* per node: VMIs short of room */
	kv_res *room_short;		/* per node: the most any lacks */
	bool *cordoned;			/* per node: a VMI fails its cordon */
} plan;

static bool
same_step(const kv_step *x, const kv_step *y)
{
	return x->kind == y->kind && x->key == y->key &&
	    x->value == y->value && x->effect == y->effect && x->by == y->by;
}

static void
add_step(kv_fix *f, const kv_step *st)
{
	for (size_t i = 0; i < f->nsteps; i++)
		if (same_step(&f->steps[i], st))
			return;
	f->steps = xreallocarray(f->steps, f->nsteps + 1, sizeof(kv_step));
	f->steps[f->nsteps++] = *st;
}

static void
set_stuck(kv_fix *f, const char *why)
{
	if (f->stuck == NULL)
		f->stuck = xstrdup(why);
}

static int64_t
lack(int64_t need, int64_t have)
{
	return need > 0 && have != KV_RES_UNLIMITED && have < need ?
	    need - (have > 0 ? have : 0) : 0;
}

/* What node n lacks of f's need, kept as the most any VMI lacks. */
static void
room(plan *p, size_t n, const kv_fail *f)
{
	kv_res *s = &p->room_short[n];
	int64_t v;

	p->room_vmis[n]++;
	if ((v = lack(f->need.cpu_millis, f->have.cpu_millis)) > s->cpu_millis)
		s->cpu_millis = v;
	if ((v = lack(f->need.memory, f->have.memory)) > s->memory)
		s->memory = v;
	if ((v = lack(f->need.pods, f->have.pods)) > s->pods)
		s->pods = v;
	for (int k = 0; k < KV_MAX_RESNAMES; k++)
		if ((v = lack(f->need.ext[k], f->have.ext[k])) > s->ext[k])
			s->ext[k] = v;
}

/* The step for a selector or affinity requirement. */
static void
label_step(plan *p, const kv_fail *f)
{
	kv_step st = { .key = f->key, .value = f->value, .by = f->by };

	if (f->origin == ORIGIN_OTHER) {
		set_stuck(p->fix, f->kind == FAIL_SELECTOR ? "the label comes "
		    "from the KubeVirt CR (developerConfiguration."
		    "nodeSelectors), the architecture or a VM class, not from "
		    "the VM" : "the node affinity is a VM class's or "
		    "KubeVirt's, not the VM's own");
		return;
	}
	st.kind = f->kind == FAIL_EMPTY_TERM ? STEP_DROP_EMPTY :
	    f->kind == FAIL_AFFINITY ? STEP_DROP_AFFINITY :
	    f->origin == ORIGIN_MIGRATION ? STEP_DROP_ADDED :
	    STEP_DROP_SELECTOR;
	if (st.kind == STEP_DROP_EMPTY || st.kind == STEP_DROP_AFFINITY)
		st.value = NULL;
	add_step(p->fix, &st);
}

static void
pod_step(plan *p, const kv_fail *f)
{
	static const enum kv_step_kind kinds[] = {
		[PODF_AFFINITY] = STEP_POD_AFFINITY,
		[PODF_ANTI] = STEP_POD_ANTI,
		[PODF_SPREAD] = STEP_SPREAD, [PODF_OTHER_POD] = STEP_COUNT,
	};

	if (f->pod == PODF_OTHER_POD) {
		set_stuck(p->fix, "a running pod's anti-affinity rules out "
		    "the target pod: that pod's owner must relax it");
		return;
	}
	add_step(p->fix, &(kv_step){ .kind = kinds[f->pod] });
}

/* The step that removes failure f of node n. */
static void
one_fail(plan *p, size_t n, const kv_fail *f)
{
	kv_step st = { .kind = STEP_TOLERATE };

	switch (f->kind) {
	case FAIL_SOURCE:
		break;
	case FAIL_OWN_POD:
		set_stuck(p->fix, "a pod of the VMI already runs on the node "
		    "(a migration under way): wait for it to end");
		break;
	case FAIL_RESERVATION:
		set_stuck(p->fix, "a pod holding the same LUN reservation "
		    "runs there");
		break;
	case FAIL_SELECTOR:
	case FAIL_AFFINITY:
	case FAIL_EMPTY_TERM:
		label_step(p, f);
		break;
	case FAIL_TAINT:
		if (f->cordon) {
			p->cordoned[n] = true;
			break;
		}
		st.key = f->key;
		st.effect = f->effect;
		add_step(p->fix, &st);
		break;
	case FAIL_POD_TERM:
		pod_step(p, f);
		break;
	case FAIL_ROOM:
		room(p, n, f);
		break;
	}
}

/* How much one node lacks, to compare: resources short, then bytes. */
static int
short_cmp(const kv_res *x, const kv_res *y)
{
	size_t nx = (x->cpu_millis > 0) + (x->memory > 0) + (x->pods > 0);
	size_t ny = (y->cpu_millis > 0) + (y->memory > 0) + (y->pods > 0);

	for (int k = 0; k < KV_MAX_RESNAMES; k++) {
		nx += x->ext[k] > 0;
		ny += y->ext[k] > 0;
	}
	if (nx != ny)
		return nx < ny ? -1 : 1;
	if (x->memory != y->memory)
		return x->memory < y->memory ? -1 : 1;
	if (x->cpu_millis != y->cpu_millis)
		return x->cpu_millis < y->cpu_millis ? -1 : 1;
	return 0;
}

/* One node to uncordon and one to free room on: the first cordoned one
 * by name; of the nodes short of room for the most VMIs, the one that
 * lacks least. */
static void
node_steps(plan *p)
{
	const kv_model *m = p->a->m;
	size_t best = SIZE_MAX;

	for (size_t n = 0; n < m->nnodes; n++)
		if (p->cordoned[n]) {
			add_step(p->fix, &(kv_step){ .kind = STEP_UNCORDON,
			    .node = n });
			break;
		}
	for (size_t n = 0; n < m->nnodes; n++) {
		if (p->room_vmis[n] == 0)
			continue;
		if (best == SIZE_MAX || p->room_vmis[n] > p->room_vmis[best] ||
		    (p->room_vmis[n] == p->room_vmis[best] &&
		    short_cmp(&p->room_short[n], &p->room_short[best]) < 0))
			best = n;
	}
	if (best != SIZE_MAX)
		add_step(p->fix, &(kv_step){ .kind = STEP_FREE_ROOM,
		    .node = best, .amount = p->room_short[best] });
}

void
kv_relax_plan(const kv_analysis *a, kv_group *g)
{
	size_t nn = a->m->nnodes + 1;
	plan p = { .a = a, .fix = &g->fix,
	    .room_vmis = xcalloc(nn, sizeof(size_t)),
	    .room_short = xcalloc(nn, sizeof(kv_res)),
	    .cordoned = xcalloc(nn, sizeof(bool)) };

	for (size_t i = 0; i < g->nvmis; i++) {
		const kv_vmires *r = &a->vmis[g->vmis[i]];
		size_t seen = 0;

		KV_NODESET_FOREACH(&r->cpu_targets, node) {
			kv_fail f;

			if (seen++ == RELAX_SAMPLE)
				break;
			if (kv_target_fail(a, a->place, r, node, &f))
				one_fail(&p, node, &f);
		}
	}
	node_steps(&p);
	free(p.room_vmis);
	free(p.room_short);
	free(p.cordoned);
}

/* amount in words: "400m CPU, 1.5 GiB, 1 nvidia.com/T4". */
static void
amount_words(const kv_model *m, const kv_res *r, kv_buf *b)
{
	size_t at = b->len;

	if (r->cpu_millis > 0) {
		if (r->cpu_millis % 1000 == 0)
			kv_buf_printf(b, "%lld CPU",
			    (long long)(r->cpu_millis / 1000));
		else
			kv_buf_printf(b, "%lldm CPU",
			    (long long)r->cpu_millis);
	}
	if (r->memory > 0) {
		char *s = kv_fmt_bytes(r->memory);

		kv_buf_printf(b, "%s%s of memory", b->len > at ? ", " : "", s);
		free(s);
	}
	if (r->pods > 0)
		kv_buf_printf(b, "%s%lld pod slot%s", b->len > at ? ", " : "",
		    (long long)r->pods, r->pods == 1 ? "" : "s");
	for (size_t k = 0; k < m->nresnames && k < KV_MAX_RESNAMES; k++)
		if (r->ext[k] > 0) {
			bool bytes = kv_startswith(m->resnames[k],
			    "hugepages-") || strcmp(m->resnames[k],
			    "ephemeral-storage") == 0;
			char *s = bytes ? kv_fmt_bytes(r->ext[k]) :
			    xasprintf("%lld", (long long)r->ext[k]);

			kv_buf_printf(b, "%s%s %s", b->len > at ? ", " : "", s,
			    m->resnames[k]);
			free(s);
		}
}

/* Step st of g in words into b. */
static void
step_words(const kv_analysis *a, const kv_group *g, const kv_step *st,
    kv_buf *b)
{
	const kv_fixrow *fr = a->m->flavor->fix;
	const char *node = st->kind == STEP_UNCORDON ||
	    st->kind == STEP_FREE_ROOM ? a->m->nodes[st->node].name : NULL;

	(void)g;
	switch (st->kind) {
	case STEP_DROP_SELECTOR:
		kv_buf_printf(b, "remove %s=%s from %s (no CPU-compatible node "
		    "has it)", st->key, st->value,
		    fr->paths[VMPATH_NODE_SELECTOR]);
		break;
	case STEP_DROP_ADDED:
		kv_buf_printf(b, "migration %s asks for %s=%s "
		    "(addedNodeSelector), which no CPU-compatible node has: "
		    "delete it and migrate again without it", st->by, st->key,
		    st->value);
		break;
	case STEP_DROP_AFFINITY:
		kv_buf_printf(b, "drop the requirement on %s from the required "
		    "node affinity in %s (or make it preferred)", st->key,
		    fr->paths[VMPATH_AFFINITY]);
		break;
	case STEP_DROP_EMPTY:
		kv_buf_printf(b, "remove the empty nodeSelectorTerm from %s",
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
		kv_buf_printf(b, "uncordon %s (kubectl uncordon %s)", node,
		    node);
		break;
	case STEP_FREE_ROOM:
		kv_buf_printf(b, "free ");
		amount_words(a->m, &st->amount, b);
		kv_buf_printf(b, " on %s (move or scale down other pods there;"
		    " a resource the node does not list needs its device "
		    "plugin)", node);
		break;
	case STEP_COUNT:
		break;
	}
}

char *
kv_relax_words(const kv_analysis *a, const kv_group *g)
{
	kv_buf b = {0};

	for (size_t i = 0; i < g->fix.nsteps; i++) {
		if (i > 0)
			kv_buf_printf(&b, "; ");
		step_words(a, g, &g->fix.steps[i], &b);
	}
	return b.data;
}
