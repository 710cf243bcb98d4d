/*
 * podexplain.c - why a node fails a VMI's inter-pod constraints
 * (podaffinity.h kv_podaff_explain, kv_podaff_fail): the constraints
 * kv_podaff_apply() judged and kept, replayed for one node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/podaff_int.h"

/* The first running pod in node n's domain of t.topologyKey that t
 * (a VMI's anti-affinity term) matches, or NULL. */
static const kv_pod *
anti_culprit(const kv_analysis *a, kv_podaff *pa, const kv_vmi *v,
    const kv_labels *pl, const kv_podterm *t, size_t n)
{
	const pa_keydom *kd = kv_pa_keydom(a, pa, t->topology_key);

	for (size_t i = 0; i < pa->npods; i++) {
		const pa_pod *x = &pa->pods[i];

		if (kd->dom[x->node] == kd->dom[n] &&
		    kv_podterm_ns(t, v->ns, x->pod->ns, x->ns_labels) &&
		    kv_podsel_match(&t->sel, pl, &x->pod->labels))
			return x->pod;
	}
	return NULL;
}

static void
explain_con(const kv_analysis *a, kv_podaff *pa, const kv_vmires *r,
    const pa_eval *ev, const pa_con *c, size_t n, kv_buf *out)
{
	const char *key = c->spread ? c->spread->topology_key :
	    c->term->topology_key;
	const char *val = kv_labels_get(&a->m->nodes[n].labels, key);
	const kv_pod *pod;

	if (c->kind == PA_SYMMETRY)
		kv_buf_printf(out, "pod %s/%s has ", c->owner->pod->ns,
		    c->owner->pod->name);
	if (c->kind == PA_SPREAD)
		kv_spread_fmt(out, c->spread);
	else
		kv_podterm_fmt(out, c->term);
	if (val == NULL) {
		kv_buf_printf(out, ": node has no label %s (%s)", key,
		    c->kind == PA_AFFINITY ? "node(s) didn't match pod "
		    "affinity rules" : "node(s) didn't match pod topology "
		    "spread constraints (missing required label)");
		return;
	}
	switch (c->kind) {
	case PA_AFFINITY:
		kv_buf_printf(out, ": no running pod that matches every "
		    "affinity term is in %s=%s (node(s) didn't match pod "
		    "affinity rules)", key, val);
		break;
	case PA_ANTI:
		pod = anti_culprit(a, pa, r->vmi, &ev->labels, c->term, n);
		kv_buf_printf(out, ": pod %s/%s runs in %s=%s (node(s) didn't "
		    "match pod anti-affinity rules)", pod ? pod->ns : "?",
		    pod ? pod->name : "?", key, val);
		break;
	case PA_SYMMETRY:
		kv_buf_printf(out, ", which matches the target pod, and runs "
		    "in %s=%s (node(s) didn't satisfy existing pods "
		    "anti-affinity rules)", key, val);
		break;
	case PA_SPREAD: {
		long d = kv_pa_keydom(a, pa, key)->dom[n];

		kv_buf_printf(out, ": %s=%s has %zu matching pod%s%s, the "
		    "fewest in a domain %zu (node(s) didn't match pod "
		    "topology spread constraints)", key, val,
		    c->entry->counts[d], c->entry->counts[d] == 1 ? "" : "s",
		    kv_podsel_match(&c->spread->sel, &ev->labels, &ev->labels) ?
		    " and the target pod would add one" : "", c->entry->min);
		break;
	}
	}
}

/* r's constraints, kept by p's podaff or by the sibling's that judged r
 * (place.h kept). */
static const pa_eval *
eval_of(const kv_place *p, const kv_vmires *r)
{
	const pa_eval *ev = NULL;

	for (; ev == NULL && p != NULL; p = p->kept)
		ev = g_hash_table_lookup(p->podaff->evals, r);
	return ev;
}

bool
kv_podaff_explain(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_buf *out)
{
	const pa_eval *ev = eval_of(p, r);

	for (size_t i = 0; ev != NULL && i < ev->n; i++)
		if (!kv_bits_test(ev->v[i].ok, n)) {
			explain_con(a, p->podaff, r, ev, &ev->v[i], n, out);
			return true;
		}
	return false;
}

enum kv_pod_fail
kv_podaff_fail(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    size_t n)
{
	const pa_eval *ev = eval_of(p, r);

	(void)a;
	for (size_t i = 0; ev != NULL && i < ev->n; i++)
		if (!kv_bits_test(ev->v[i].ok, n))
			return ev->v[i].kind == PA_AFFINITY ? PODF_AFFINITY :
			    ev->v[i].kind == PA_ANTI ? PODF_ANTI :
			    ev->v[i].kind == PA_SPREAD ? PODF_SPREAD :
			    PODF_OTHER_POD;
	return PODF_NONE;
}
