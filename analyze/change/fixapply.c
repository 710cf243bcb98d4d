/*
 * fixapply.c - a group's fix as what-if changes (fixapply.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/fixapply.h"

/* Why a fix of this action gives no change kvscope can write. */
static const char *
no_change_why(enum kv_fix_action act)
{
	switch (act) {
	case FIX_RELABEL_NODE:
		return "the label's value is the node's own (virt-handler's "
		    "node labeller writes it) and no selector of the group "
		    "names it";
	case FIX_RELAX_PLACEMENT:
		return "which placement rule to relax is the owner's choice";
	case FIX_FREE_CAPACITY:
		return "which pods to move is the owner's choice (--add-node-"
		    "like shows a new node)";
	case FIX_NONE:
		return "the fix is none: no change helps these VMIs";
	default:
		return "no change kvscope can write";
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
	char *prefix = xasprintf("host-model-cpu.%s/", a->cfg.domain);
	const char *key = NULL, *val = NULL;
	char *s;

	for (size_t i = 0; key == NULL && i < g->nvmis; i++) {
		const kv_vmires *r = &a->vmis[g->vmis[i]];

		key = key_in_labels(&r->vmi->node_selector, prefix);
		if (key == NULL)
			key = key_in_affinity(&r->vmi->affinity, prefix);
		if (key == NULL && r->source_pod != NULL)
			key = key_in_labels(&r->source_pod->node_selector,
			    prefix);
	}
	free(prefix);
	if (key == NULL || g->rule != kv_rule_find(
	    "source-host-model-label-missing"))
		return NULL;
	s = xasprintf("%s=true", key);
	val = kv_intern_str(a->m->strs, s);
	free(s);
	return val;
}

bool
kv_fix_change(const kv_analysis *a, const kv_group *g, bool *pick,
    kv_change *ch, const char **why)
{
	static const enum kv_change_kind kinds[FIX_COUNT] = {
		[FIX_SET_CPU_MODEL] = CH_CPU_MODEL,
		[FIX_RECREATE_CLAIM_RWX] = CH_CLAIM_RWX,
		[FIX_CHANGE_BINDING] = CH_BINDING,
		[FIX_SET_EVICTION] = CH_EVICTION,
		[FIX_WAIT_OPERATION] = CH_OPERATION_DONE,
		[FIX_REPULL_IMAGE] = CH_IMAGE_DIGEST,
		[FIX_RELABEL_NODE] = CH_COUNT,
		[FIX_RELAX_PLACEMENT] = CH_COUNT,
		[FIX_FREE_CAPACITY] = CH_COUNT, [FIX_NONE] = CH_COUNT,
	};
	enum kv_change_kind k = kinds[g->fix.action];
	const char *value = g->fix.value;

	*why = NULL;
	if (g->fix.action == FIX_RELABEL_NODE &&
	    (value = relabel_value(a, g)) != NULL)
		k = CH_NODE_LABEL;
	if (k == CH_COUNT || value == NULL) {
		*why = no_change_why(k == CH_COUNT ? g->fix.action : FIX_NONE);
		return false;
	}
	memset(pick, 0, a->nvmis * sizeof(bool));
	for (size_t i = 0; i < g->nvmis; i++)
		pick[g->vmis[i]] = g->fix.pick == NULL || g->fix.pick[i];
	*ch = (kv_change){ .kind = k, .value = value, .count = 1,
	    .scope = SC_PICK, .pick = pick, .subject = g->name };
	return true;
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
	kv_change ch;
	char *scope;

	if (!kv_fix_change(a, g, pick, &ch, &why)) {
		add_note(s, xasprintf("fix %s (%s, %s): nothing to apply: %s",
		    g->id, g->code, g->name, why));
		free(pick);
		return;
	}
	own(s, pick);
	scope = xasprintf("group %s", g->id);
	own(s, scope);
	ch.scope_value = scope;
	s->changes = xreallocarray(s->changes, s->n + 1, sizeof(kv_change));
	s->changes[s->n++] = ch;
	s->applied = xreallocarray(s->applied, s->napplied + 1,
	    sizeof(kv_group *));
	s->applied[s->napplied++] = g;
	add_note(s, xasprintf("fix %s (%s, %s): %s %s, as its fix says",
	    g->id, g->code, g->name, kv_fix_names[g->fix.action], ch.value));
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

char *
kv_fix_proof(const kv_group *g, const kv_analysis *b)
{
	size_t left = 0;

	for (size_t i = 0; i < g->nvmis; i++)
		left += g->vmis[i] < b->nvmis &&
		    !kv_vmi_in_code(b, g->vmis[i], g->code);
	return xasprintf("after fix %s: %zu of its %zu VMI%s in no %s group "
	    "(fix.fixes %zu%s)", g->id, left, g->nvmis, g->nvmis == 1 ? "" :
	    "s", g->code, g->fix.fixes, left == g->fix.fixes ? "" :
	    "; the other changes of this what-if count too");
}
