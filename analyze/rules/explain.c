/*
 * explain.c - kv_target_explain() (target.h): the first placement
 * constraint one node fails for a VMI, as text for `kvscope explain` and
 * the no-placement-target and no-capacity messages: the VMI's own pods,
 * node selector and affinity, taints, inter-pod constraints
 * (podaffinity.h), room.
 */
#include "analyze/rules/capacity.h"
#include "analyze/rules/place.h"
#include "analyze/rules/podaffinity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *
op_name(enum kv_selop op)
{
	static const char *const names[] = { "In", "NotIn", "Exists",
	    "DoesNotExist", "Gt", "Lt" };

	return names[op];
}

/* Stands for an empty nodeSelectorTerm, which matches no node. */
static const kv_nsreq empty_term = { .key = "" };

/* The first failing requirement of the first term, or NULL when some
 * term matches. */
static const kv_nsreq *
affinity_fail(const kv_affinity *aff, const kv_nsterm *app,
    const kv_labels *labels, const char *node)
{
	kv_nsterm only = { 0, NULL };
	const kv_nsterm *terms = aff->terms;
	const kv_nsreq *first = NULL;
	size_t nterms = aff->nterms, napp = app != NULL ? app->nreqs : 0;

	if (nterms == 0 && napp == 0)
		return NULL;
	if (nterms == 0) {
		terms = &only;
		nterms = 1;
	}
	/* as and_affinity (target.c): app appended to each term */
	for (size_t t = 0; t < nterms; t++) {
		size_t n = terms[t].nreqs + napp;
		const kv_nsreq *bad = n == 0 ? &empty_term : NULL;

		for (size_t q = 0; q < n && bad == NULL; q++) {
			const kv_nsreq *rq = q < terms[t].nreqs ?
			    &terms[t].reqs[q] : &app->reqs[q - terms[t].nreqs];

			if (!kv_req_match(rq, labels, node))
				bad = rq;
		}
		if (bad == NULL)
			return NULL;
		if (first == NULL)
			first = bad;
	}
	return first;
}


/* The source node, a node running a pod of this VMI, or one holding a
 * reservation this VMI shares (pod anti-affinity). */
static bool
explain_pods(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const kv_node *node, kv_buf *out)
{
	const kv_vmi *v = r->vmi;
	const kv_pod *const *pods;
	size_t npods;

	if (v->node != NULL && strcmp(node->name, v->node) == 0) {
		kv_buf_printf(out, "source node");
		return true;
	}
	npods = kv_place_pods(p, v, &pods);
	for (size_t i = 0; i < npods; i++)
		if (pods[i]->node && strcmp(pods[i]->node, node->name) == 0 &&
		    kv_pod_active(pods[i])) {
			/* §2.3 step 1: the target pod's anti-affinity on
			 * created-by=<VMI uid> matches every pod of the
			 * VMI, an unfinished migration's target too */
			kv_buf_printf(out, "runs pod %s of this VMI%s%s%s "
			    "(pod anti-affinity)", pods[i]->name,
			    pods[i]->migration_job ? ", the target pod of "
			    "migration " : "", pods[i]->migration_job ?
			    pods[i]->migration_job : "",
			    pods[i]->migration_job ? " in progress" : "");
			return true;
		}
	if (kv_has_reservation(v)) {
		const kv_pod *pod = kv_pr_conflict(a, v, node->name);

		if (pod != NULL) {
			kv_buf_printf(out, "runs pod %s/%s, which holds a "
			    "persistent reservation on a LUN this VMI reserves "
			    "too (pod anti-affinity)", pod->ns, pod->name);
			return true;
		}
	}
	return false;
}

/* A node selector label or a required node affinity term. */
static bool
explain_labels(const kv_vmires *r, const kv_node *node, kv_buf *out)
{
	const kv_nsreq *q;

	for (size_t i = 0; i < r->selectors.n; i++) {
		const char *have = kv_labels_get(&node->labels,
		    r->selectors.v[i].key);

		if (have == NULL || strcmp(have, r->selectors.v[i].value)) {
			const char *added = r->added_selector ?
			    kv_labels_get(r->added_selector,
			    r->selectors.v[i].key) : NULL;

			kv_buf_printf(out, "label %s=%s %s",
			    r->selectors.v[i].key, r->selectors.v[i].value,
			    have == NULL ? "missing" : "differs");
			if (added != NULL &&
			    strcmp(added, r->selectors.v[i].value) == 0)
				kv_buf_printf(out, " (added by migration %s)",
				    r->added_by);
			return true;
		}
	}
	if ((q = affinity_fail(r->affinity, kv_appended(r), &node->labels,
	    node->name)) == NULL)
		return false;
	if (q == &empty_term) {
		kv_buf_printf(out, "node affinity: an empty nodeSelectorTerm "
		    "matches no node");
		return true;
	}
	kv_buf_printf(out, "node affinity: %s%s %s", q->field ? "field " : "",
	    q->key, op_name(q->op));
	for (size_t i = 0; i < q->nvalues; i++)
		kv_buf_printf(out, "%s%s", i ? "," : " ", q->values[i]);
	return true;
}

bool
kv_target_explain(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_buf *out)
{
	const kv_node *node = &a->m->nodes[n];
	const kv_vmi *v = r->vmi;
	kv_res need, have;

	if (explain_pods(a, p, r, node, out) || explain_labels(r, node, out))
		return true;
	for (size_t i = 0; i < p->ntaints; i++)
		if (kv_bits_test(&p->taints[i].nodes, n) &&
		    !kv_tolerates(v, &p->taints[i])) {
			kv_buf_printf(out, "%staint %s%s%s:%s not tolerated",
			    strcmp(p->taints[i].key,
			    "node.kubernetes.io/unschedulable") == 0 ?
			    "cordoned: " : "", p->taints[i].key,
			    *p->taints[i].value ? "=" : "",
			    p->taints[i].value, p->taints[i].effect);
			return true;
		}
	if (kv_podaff_explain(a, p, r, n, out))
		return true;
	need = kv_room_need(a, r);
	have = kv_room_free(a, n);
	if (kv_res_fits(&have, &need))
		return false;
	if (kv_res_base_fits(&have, &need)) {
		kv_buf_printf(out, "no room: ");
		return kv_res_short_fmt(a, n, &have, &need, false, out);
	}
	if (a->capacity_known) {
		char *h = kv_res_fmt(&have), *w = kv_res_fmt(&need);

		kv_buf_printf(out, "no room: %s free, needs %s", h, w);
		free(h);
		free(w);
	} else {
		char *h = kv_fmt_bytes(have.memory);
		char *w = kv_fmt_bytes(need.memory);

		kv_buf_printf(out, "not enough memory: %s free, needs %s", h,
		    w);
		free(h);
		free(w);
	}
	return true;
}
