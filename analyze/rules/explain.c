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
	kv_nsterm only = { 0, NULL, 0 };
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
    const kv_node *node, kv_fail *f, kv_buf *out)
{
	const kv_vmi *v = r->vmi;
	const kv_pod *const *pods;
	size_t npods;

	if (v->node != NULL && strcmp(node->name, v->node) == 0) {
		f->kind = FAIL_SOURCE;
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
			f->kind = FAIL_OWN_POD;
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
			f->kind = FAIL_RESERVATION;
			kv_buf_printf(out, "runs pod %s/%s, which holds a "
			    "persistent reservation on a LUN this VMI reserves "
			    "too (pod anti-affinity)", pod->ns, pod->name);
			return true;
		}
	}
	return false;
}

/* Where selector K=V of r comes from. */
static enum kv_fail_origin
selector_origin(const kv_vmires *r, const char *key, const char *value)
{
	const char *own = kv_labels_get(&r->vmi->node_selector, key);
	const char *added = r->added_selector ? kv_labels_get(
	    r->added_selector, key) : NULL;

	if (own != NULL && strcmp(own, value) == 0)
		return ORIGIN_VMI;
	if (added != NULL && strcmp(added, value) == 0)
		return ORIGIN_MIGRATION;
	return ORIGIN_OTHER;
}

/* Whether q is a requirement of the VMI's own required node affinity. */
static bool
own_req(const kv_vmires *r, const kv_nsreq *q)
{
	const kv_affinity *f = &r->vmi->affinity;

	if (r->affinity != f)
		return false;
	for (size_t t = 0; t < f->nterms; t++)
		if (q >= f->terms[t].reqs && q < f->terms[t].reqs +
		    f->terms[t].nreqs)
			return true;
	return false;
}

/* A node selector label or a required node affinity term. */
static bool
explain_labels(const kv_vmires *r, const kv_node *node, kv_fail *f,
    kv_buf *out)
{
	const kv_nsreq *q;

	for (size_t i = 0; i < r->selectors.n; i++) {
		const char *have = kv_labels_get(&node->labels,
		    r->selectors.v[i].key);

		if (have == NULL || strcmp(have, r->selectors.v[i].value)) {
			const char *added = r->added_selector ?
			    kv_labels_get(r->added_selector,
			    r->selectors.v[i].key) : NULL;

			f->kind = FAIL_SELECTOR;
			f->key = r->selectors.v[i].key;
			f->value = r->selectors.v[i].value;
			f->origin = selector_origin(r, f->key, f->value);
			f->by = f->origin == ORIGIN_MIGRATION ? r->added_by :
			    NULL;
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
	f->kind = q == &empty_term ? FAIL_EMPTY_TERM : FAIL_AFFINITY;
	f->origin = r->affinity == &r->vmi->affinity && (q == &empty_term ||
	    own_req(r, q)) ? ORIGIN_VMI : ORIGIN_OTHER;
	f->key = q->key;
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

/* The room check of node n for r. */
static bool
explain_room(const kv_analysis *a, const kv_vmires *r, size_t n,
    kv_fail *f, kv_buf *out)
{
	kv_res need = kv_room_need(a, r), have = kv_room_free(a, n);

	if (kv_res_fits(&have, &need))
		return false;
	f->kind = FAIL_ROOM;
	f->need = need;
	f->have = have;
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

static bool
first_fail(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    size_t n, kv_fail *f, kv_buf *out)
{
	const kv_node *node = &a->m->nodes[n];
	const kv_vmi *v = r->vmi;

	memset(f, 0, sizeof(*f));
	if (explain_pods(a, p, r, node, f, out) ||
	    explain_labels(r, node, f, out))
		return true;
	for (size_t i = 0; i < p->ntaints; i++)
		if (kv_bits_test(&p->taints[i].nodes, n) &&
		    !kv_tolerates(v, &p->taints[i])) {
			f->kind = FAIL_TAINT;
			f->key = p->taints[i].key;
			f->value = p->taints[i].value;
			f->effect = p->taints[i].effect;
			f->cordon = strcmp(f->key,
			    "node.kubernetes.io/unschedulable") == 0;
			kv_buf_printf(out, "%staint %s%s%s:%s not tolerated",
			    strcmp(p->taints[i].key,
			    "node.kubernetes.io/unschedulable") == 0 ?
			    "cordoned: " : "", p->taints[i].key,
			    *p->taints[i].value ? "=" : "",
			    p->taints[i].value, p->taints[i].effect);
			return true;
		}
	if (kv_podaff_explain(a, p, r, n, out)) {
		f->kind = FAIL_POD_TERM;
		f->pod = kv_podaff_fail(a, p, r, n);
		return true;
	}
	return explain_room(a, r, n, f, out);
}

bool
kv_target_explain(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_buf *out)
{
	kv_fail f;

	return first_fail(a, p, r, n, &f, out);
}

bool
kv_target_fail(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_fail *f)
{
	kv_buf b = {0};
	bool failed = first_fail(a, p, r, n, f, &b);

	kv_buf_free(&b);
	return failed;
}
