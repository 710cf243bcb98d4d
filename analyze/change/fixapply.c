/*
 * fixapply.c - a group's fix as what-if changes (fixapply.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/fixapply.h"
#include "analyze/estimate/estimate.h"

/* Why a fix of this action gives no change kvscope can write. */
static const char *
no_change_why(enum kv_fix_action act)
{
	switch (act) {
	case FIX_RELABEL_NODE:
		return "the label's value is the node's own (virt-handler's "
		    "node labeller writes it) and no selector of the group "
		    "names it";
	case FIX_NONE:
		return "the fix is none: no change helps these VMIs";
	default:
		return "no change kvscope can write";
	}
}

/* Why a fix of an action kvscope can write gives no change: it names
 * no value (a recreate-claim-rwx fix when no storage class in the input
 * gives ReadWriteMany for the volume mode).  Never "the fix is none":
 * the group's fix is this action. */
static const char *
no_value_why(enum kv_fix_action act)
{
	switch (act) {
	case FIX_RECREATE_CLAIM_RWX:
		return "it names no storage class (the input holds none "
		    "that gives ReadWriteMany for the volume mode)";
	case FIX_SET_CPU_MODEL:
		return "it names no CPU model that every target runs";
	case FIX_SET_EVICTION:
		return "it names no eviction strategy to set";
	default:
		return "it names no value kvscope can write";
	}
}

/* The label key of labels l with prefix and value "true", or NULL. */
static const char *
key_in_labels(const kv_labels *l, const char *prefix)
{
	for (size_t i = 0; i < l->n; i++)
		if (kv_startswith(l->v[i].key, prefix) &&
		    strcmp(l->v[i].value, "true") == 0)
			return l->v[i].key;
	return NULL;
}

/* The same in a required node affinity: KEY In (true). */
static const char *
key_in_affinity(const kv_affinity *f, const char *prefix)
{
	for (size_t t = 0; t < f->nterms; t++)
		for (size_t k = 0; k < f->terms[t].nreqs; k++) {
			const kv_nsreq *q = &f->terms[t].reqs[k];

			if (!q->field && q->op == OP_IN && q->nvalues == 1 &&
			    kv_startswith(q->key, prefix) &&
			    strcmp(q->values[0], "true") == 0)
				return q->key;
		}
	return NULL;
}

/* The label a relabel-node fix of g (source-host-model-label-missing)
 * gives its node, "host-model-cpu.DOMAIN/MODEL=true", when a VMI of g
 * names it: in its nodeSelector, its required node affinity or its
 * launcher pod's nodeSelector (the target pod of a host-model
 * migration selects host-model-cpu.DOMAIN/MODEL=true of the source's
 * model: KubeVirt's migration controller, pkg/virt-controller/watch/
 * migration.go, the host-model selector of the target pod; seen in a
 * pre-v1.0 tree, the v1.9.0 line not checked); interned in a's model,
 * or NULL. */
static const char *
relabel_value(const kv_analysis *a, const kv_group *g)
{
	char prefix[256], *s;
	const char *key = NULL, *val = NULL;

	kv_cpu_key_text(a, "host-model-cpu", "", prefix, sizeof(prefix));
	for (size_t i = 0; key == NULL && i < g->nvmis; i++) {
		const kv_vmires *r = &a->vmis[g->vmis[i]];

		key = key_in_labels(&r->vmi->node_selector, prefix);
		if (key == NULL)
			key = key_in_affinity(&r->vmi->affinity, prefix);
		if (key == NULL && r->source_pod != NULL)
			key = key_in_labels(&r->source_pod->node_selector,
			    prefix);
	}
	if (key == NULL || g->rule != kv_rule_find(
	    "source-host-model-label-missing"))
		return NULL;
	s = xasprintf("%s=true", key);
	val = kv_intern_str(a->m->strs, s);
	free(s);
	return val;
}

/* The first other node with n's CPU feature labels and a host-model-cpu
 * label: the node labeller would give n what it gave that one. */
static const kv_node *
peer_node(const kv_analysis *a, const kv_node *n)
{
	char feat[256], hm[256];
	const kv_node *peer = NULL;

	kv_cpu_key_text(a, "cpu-feature", "", feat, sizeof(feat));
	kv_cpu_key_text(a, "host-model-cpu", "", hm, sizeof(hm));

	for (size_t i = 0; peer == NULL && i < a->m->nnodes; i++) {
		const kv_node *o = &a->m->nodes[i];

		if (o != n && key_in_labels(&o->labels, hm) != NULL &&
		    kv_labels_same_prefixed(&o->labels, &n->labels, feat,
		    true))
			peer = o;
	}
	return peer;
}

/* A source-host-model-label-missing fix no selector names the value of:
 * the peer's host-model labels onto g's node, as node-label changes. */
static kv_change *
peer_changes(const kv_analysis *a, const kv_group *g, bool *pick,
    size_t *n, const char **why)
{
	const kv_node *node = kv_model_node(a->m, g->name), *peer;
	char hm[256], req[256], *kv;
	kv_change *chs;

	*n = 0;
	if (node == NULL || g->rule != kv_rule_find(
	    "source-host-model-label-missing") ||
	    (peer = peer_node(a, node)) == NULL)
		return NULL;
	kv_cpu_key_text(a, "host-model-cpu", "", hm, sizeof(hm));
	kv_cpu_key_text(a, "host-model-required-features", "", req,
	    sizeof(req));
	chs = xcalloc(peer->labels.n + 1, sizeof(kv_change));
	for (size_t i = 0; i < peer->labels.n; i++) {
		const kv_label *l = &peer->labels.v[i];

		if (!kv_startswith(l->key, hm) && !kv_startswith(l->key, req))
			continue;
		kv = xasprintf("%s=%s", l->key, l->value);
		chs[(*n)++] = (kv_change){ .kind = CH_NODE_LABEL,
		    .value = kv_intern_str(a->m->strs, kv), .count = 1,
		    .scope = SC_PICK, .pick = pick, .subject = g->name };
		free(kv);
	}
	kv = xasprintf("assuming %s's host model is %s's, %s: the two have "
	    "the same CPU feature labels", g->name, peer->name,
	    key_in_labels(&peer->labels, hm) + strlen(hm));
	*why = kv_intern_str(a->m->strs, kv);
	free(kv);
	return chs;
}

/* The relax change's value: the edit in a few words (interned). */
static const char *
step_value(const kv_analysis *a, const kv_step *st)
{
	static const char *const what[STEP_COUNT] = {
		[STEP_DROP_SELECTOR] = "nodeSelector",
		[STEP_DROP_ADDED] = "addedNodeSelector of migration",
		[STEP_DROP_AFFINITY] = "node affinity on",
		[STEP_DROP_EMPTY] = "empty node affinity term",
		[STEP_TOLERATE] = "toleration of",
		[STEP_POD_AFFINITY] = "pod affinity",
		[STEP_POD_ANTI] = "pod anti-affinity",
		[STEP_SPREAD] = "topology spread",
	};
	const char *arg = st->kind == STEP_DROP_ADDED ? st->by : st->key;
	bool has = arg != NULL && *arg != '\0';
	char *s = xasprintf("%s%s%s%s%s", what[st->kind], has ? " " : "",
	    has ? arg : "", st->effect ? ":" : "", st->effect ? st->effect :
	    "");
	const char *v = kv_intern_str(a->m->strs, s);

	free(s);
	return v;
}

/* A plan's step as a change. */
static kv_change
step_change(const kv_analysis *a, const kv_step *st, bool *pick)
{
	kv_change ch = { .kind = CH_RELAX, .count = 1, .scope = SC_PICK,
	    .pick = pick, .step = st };
	kv_buf b = {0};

	if (st->kind == STEP_UNCORDON || st->kind == STEP_FREE_ROOM) {
		ch.kind = st->kind == STEP_UNCORDON ? CH_UNCORDON :
		    CH_FREE_ROOM;
		ch.value = a->m->nodes[st->node].name;
		if (st->kind == STEP_FREE_ROOM) {
			const kv_res *r = &st->amount;

			if (r->cpu_millis > 0)
				kv_buf_printf(&b, "%lldm CPU",
				    (long long)r->cpu_millis);
			if (r->memory > 0) {
				char *mem = kv_fmt_bytes(r->memory);

				kv_buf_printf(&b, "%s%s", b.len ? ", " : "",
				    mem);
				free(mem);
			}
			if (r->pods > 0)
				kv_buf_printf(&b, "%s%lld pods", b.len ? ", " :
				    "", (long long)r->pods);
			for (size_t k = 0; k < a->m->nresnames &&
			    k < KV_MAX_RESNAMES; k++)
				if (r->ext[k] > 0)
					kv_buf_printf(&b, "%s%lld %s", b.len ?
					    ", " : "", (long long)r->ext[k],
					    a->m->resnames[k]);
			ch.subject = kv_intern_str(a->m->strs, b.data ?
			    b.data : "nothing");
			kv_buf_free(&b);
		}
		return ch;
	}
	ch.value = step_value(a, st);
	return ch;
}

bool
kv_change_on_node(const kv_change *ch)
{
	return ch->kind == CH_NODE_LABEL || ch->kind == CH_UNCORDON ||
	    ch->kind == CH_FREE_ROOM || ch->kind == CH_RELAX;
}

static bool
same_str(const char *x, const char *y)
{
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

/* Whether two changes of one plan are the same edit. */
static bool
same_change(const kv_change *x, const kv_change *y)
{
	return x->kind == y->kind && same_str(x->value, y->value) &&
	    same_str(x->subject, y->subject);
}

/* A relax-placement or free-capacity fix's plan as changes. */
static kv_change *
plan_changes(const kv_analysis *a, const kv_group *g, bool *pick,
    size_t *n, const char **why)
{
	kv_change *chs;

	*n = 0;
	if (g->fix.nsteps == 0) {
		*why = g->fix.stuck ? g->fix.stuck : "no edit kvscope knows "
		    "removes what these nodes fail";
		return NULL;
	}
	chs = xcalloc(g->fix.nsteps + 1, sizeof(kv_change));
	for (size_t i = 0; i < g->fix.nsteps; i++) {
		kv_change c = step_change(a, &g->fix.steps[i], pick);
		size_t k = 0;

		/* two nodes the plan names may need the same edit (remove
		 * node-pool=gpu so that either takes its VMIs): written once,
		 * or the second applies to none and says it again */
		while (k < *n && !same_change(&chs[k], &c))
			k++;
		if (k == *n)
			chs[(*n)++] = c;
	}
	return chs;
}

kv_change *
kv_fix_changes(const kv_analysis *a, const kv_group *g, bool *pick,
    size_t *n, const char **why)
{
	static const enum kv_change_kind kinds[FIX_COUNT] = {
		[FIX_SET_CPU_MODEL] = CH_CPU_MODEL,
		[FIX_RECREATE_CLAIM_RWX] = CH_CLAIM_RWX,
		[FIX_CHANGE_BINDING] = CH_BINDING,
		[FIX_SET_EVICTION] = CH_EVICTION,
		[FIX_WAIT_OPERATION] = CH_OPERATION_DONE,
		[FIX_REPULL_IMAGE] = CH_IMAGE_DIGEST,
		[FIX_RELABEL_NODE] = CH_COUNT,
		[FIX_RELAX_PLACEMENT] = CH_RELAX,
		[FIX_FREE_CAPACITY] = CH_RELAX, [FIX_NONE] = CH_COUNT,
		[FIX_SET_MIGRATION_POLICY] = CH_MIGRATION_POLICY,
	};
	enum kv_change_kind k = kinds[g->fix.action];
	const char *value = g->fix.value;
	kv_change *ch;

	*why = NULL;
	*n = 0;
	if (g->fix.action == FIX_RELABEL_NODE &&
	    (value = relabel_value(a, g)) != NULL)
		k = CH_NODE_LABEL;
	memset(pick, 0, a->nvmis * sizeof(bool));
	for (size_t i = 0; i < g->nvmis; i++)
		pick[g->vmis[i]] = g->fix.pick == NULL || g->fix.pick[i];
	if (g->fix.action == FIX_RELABEL_NODE && value == NULL &&
	    (ch = peer_changes(a, g, pick, n, why)) != NULL)
		return ch;
	if (k != CH_RELAX && (k == CH_COUNT || value == NULL)) {
		*why = k == CH_COUNT ? no_change_why(g->fix.action) :
		    no_value_why(g->fix.action);
		return NULL;
	}
	if (k == CH_RELAX)
		return plan_changes(a, g, pick, n, why);
	ch = xcalloc(2, sizeof(kv_change));
	*ch = (kv_change){ .kind = k, .value = value, .count = 1,
	    .scope = SC_PICK, .pick = pick, .subject = g->name };
	if (k == CH_MIGRATION_POLICY) {
		char name[40];

		kv_fix_policy_name(g, name, sizeof(name));
		ch->subject = kv_intern_str(a->m->strs, name);
		ch->from = a->est[g->vmis[0]].settings;
	}
	*n = 1;
	return ch;
}

static void
own(kv_fixset *s, void *p)
{
	s->owned = xreallocarray(s->owned, s->nowned + 1, sizeof(void *));
	s->owned[s->nowned++] = p;
}

static void
add_note(kv_fixset *s, char *line)
{
	s->notes = xreallocarray(s->notes, s->nnotes + 1, sizeof(char *));
	s->notes[s->nnotes++] = line;
}

/* Group g's fix into s. */
static void
expand_one(const kv_analysis *a, const kv_group *g, kv_fixset *s)
{
	bool *pick = xcalloc(a->nvmis + 1, sizeof(bool));
	const char *why;
	size_t n;
	kv_change *chs = kv_fix_changes(a, g, pick, &n, &why);
	char *scope;

	if (chs == NULL) {
		add_note(s, xasprintf("fix %s (%s, %s): nothing to apply: %s",
		    g->id, g->code, g->name, why));
		free(pick);
		return;
	}
	own(s, pick);
	own(s, chs);
	scope = xasprintf("group %s", g->id);
	own(s, scope);
	s->changes = xreallocarray(s->changes, s->n + n, sizeof(kv_change));
	for (size_t i = 0; i < n; i++) {
		chs[i].scope_value = scope;
		s->changes[s->n++] = chs[i];
		add_note(s, xasprintf("fix %s (%s, %s): %s %s, as its fix "
		    "says%s%s", g->id, g->code, g->name,
		    kv_fix_names[g->fix.action], chs[i].value,
		    why && i == 0 ? ", " : "", why && i == 0 ? why : ""));
	}
	s->applied = xreallocarray(s->applied, s->napplied + 1,
	    sizeof(kv_group *));
	s->applied[s->napplied++] = g;
}

static int
unknown(const kv_analysis *a, const char *id, kv_err *err)
{
	kv_buf b = {0};
	int rc;

	for (size_t i = 0; i < a->ngroups; i++)
		kv_buf_printf(&b, "%s%s", i ? ", " : "", a->groups[i].id);
	rc = kv_seterr(err, "--fix %s: no such group (the groups: %s)", id,
	    b.data ? b.data : "none");
	kv_buf_free(&b);
	return rc;
}

int
kv_fix_expand(const kv_analysis *a, const char *const *ids, size_t n,
    kv_fixset *s, kv_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const kv_group *g;

		if (strcmp(ids[i], "all") == 0) {
			for (size_t k = 0; k < a->ngroups; k++)
				expand_one(a, &a->groups[k], s);
			continue;
		}
		if ((g = kv_group_by_id(a, ids[i])) == NULL)
			return unknown(a, ids[i], err);
		expand_one(a, g, s);
	}
	return KV_OK;
}

void
kv_fixset_free(kv_fixset *s)
{
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->owned);
	free(s->notes);
	free(s->changes);
	free(s->applied);
	memset(s, 0, sizeof(*s));
}

size_t
kv_fix_left(const kv_group *g, const kv_analysis *b)
{
	size_t left = 0;

	for (size_t i = 0; i < g->nvmis; i++)
		left += g->vmis[i] < b->nvmis &&
		    !kv_vmi_in_code(b, g->vmis[i], g->code);
	return left;
}

char *
kv_fix_proof(const kv_group *g, const kv_analysis *b)
{
	size_t left = kv_fix_left(g, b);

	return xasprintf("after fix %s: %zu of its %zu VMI%s in no %s group "
	    "(fix.fixes %zu%s)", g->id, left, g->nvmis, g->nvmis == 1 ? "" :
	    "s", g->code, g->fix.fixes, left == g->fix.fixes ? "" :
	    "; the other changes of this what-if count too");
}
