/*
 * explain.c - kv_target_explain() (target.h): the first placement
 * constraint one node fails for a VMI, as text for `kvscope explain` and
 * the no-placement-target and no-capacity messages: the VMI's own pods,
 * node selector and affinity, taints, its PersistentVolumes' node
 * affinity and zone (volumes.c), inter-pod constraints
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


/* The failures found on one node: up to max, the first one's text in
 * out (the others' in scratch, thrown away). */
typedef struct failset {
	kv_fail *v;
	size_t n, max;
	kv_buf *out, scratch;
} failset;

/* The next failure to fill (zeroed) and where its text goes; NULL when
 * the set is full. */
static kv_fail *
fs_add(failset *fs, kv_buf **out)
{
	if (fs->n == fs->max)
		return NULL;
	*out = fs->n == 0 ? fs->out : &fs->scratch;
	memset(&fs->v[fs->n], 0, sizeof(kv_fail));
	return &fs->v[fs->n++];
}

static bool
fs_full(const failset *fs)
{
	return fs->n == fs->max;
}

/* The source node, a node running a pod of this VMI, or one holding a
 * reservation this VMI shares (pod anti-affinity): nothing else on the
 * node matters then. */
static bool
explain_pods(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const kv_node *node, failset *fs)
{
	const kv_vmi *v = r->vmi;
	const kv_pod *const *pods;
	size_t npods;
	kv_fail *f;
	kv_buf *out;

	if (v->node != NULL && strcmp(node->name, v->node) == 0) {
		f = fs_add(fs, &out);
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
			f = fs_add(fs, &out);
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
			f = fs_add(fs, &out);
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

static bool
same_req(const kv_nsreq *x, const kv_nsreq *y)
{
	if (x->field != y->field || x->op != y->op ||
	    x->nvalues != y->nvalues || strcmp(x->key, y->key) != 0)
		return false;
	for (size_t i = 0; i < x->nvalues; i++)
		if (strcmp(x->values[i], y->values[i]) != 0)
			return false;
	return true;
}

/* Whether q is a requirement of the VMI's own required node affinity:
 * one of its terms', or one like it in the copy a flavor's migration
 * affinity made of them (DVP, disks that migrate). */
static bool
own_req(const kv_vmires *r, const kv_nsreq *q)
{
	const kv_affinity *f = &r->vmi->affinity;

	for (size_t t = 0; t < f->nterms; t++)
		for (size_t k = 0; k < f->terms[t].nreqs; k++)
			if (&f->terms[t].reqs[k] == q || (r->affinity != f &&
			    same_req(&f->terms[t].reqs[k], q)))
				return true;
	return false;
}

/* The failing requirements of the term of the required node affinity
 * that fails fewest on node (its terms are ORed: fixing one suffices),
 * the appended ones included, into fs. */
static void
term_fails(const kv_vmires *r, const kv_node *node, failset *fs)
{
	const kv_affinity *aff = r->affinity;
	const kv_nsterm *app = kv_appended(r), only = { 0, NULL, 0 };
	const kv_nsterm *terms = aff->nterms ? aff->terms : &only;
	size_t nterms = aff->nterms ? aff->nterms : 1, best = 0;
	size_t most = SIZE_MAX;
	size_t napp = app != NULL ? app->nreqs : 0;

	for (size_t t = 0; t < nterms; t++) {
		size_t bad = 0;

		for (size_t q = 0; q < terms[t].nreqs; q++)
			bad += !kv_req_match(&terms[t].reqs[q], &node->labels,
			    node->name);
		for (size_t q = 0; q < napp; q++)
			bad += !kv_req_match(&app->reqs[q], &node->labels,
			    node->name);
		if (bad < most && bad + terms[t].nreqs + napp > 0) {
			most = bad;
			best = t;
		}
	}
	for (size_t q = 0; q < terms[best].nreqs + napp; q++) {
		const kv_nsreq *rq = q < terms[best].nreqs ?
		    &terms[best].reqs[q] : &app->reqs[q - terms[best].nreqs];
		kv_fail *f;
		kv_buf *out;

		if (kv_req_match(rq, &node->labels, node->name))
			continue;
		if ((f = fs_add(fs, &out)) == NULL)
			return;
		f->kind = FAIL_AFFINITY;
		f->origin = own_req(r, rq) ? ORIGIN_VMI : ORIGIN_OTHER;
		f->key = rq->key;
		kv_buf_printf(out, "node affinity: %s", rq->key);
	}
}

/* Every node selector label the node fails, then the required node
 * affinity's first failing requirement. */
static void
explain_labels(const kv_vmires *r, const kv_node *node, failset *fs)
{
	const kv_nsreq *q;
	kv_fail *f;
	kv_buf *out;

	for (size_t i = 0; i < r->selectors.n; i++) {
		const kv_label *l = &r->selectors.v[i];
		const char *have = kv_labels_get(&node->labels, l->key);

		if (have != NULL && strcmp(have, l->value) == 0)
			continue;
		if ((f = fs_add(fs, &out)) == NULL)
			return;
		f->kind = FAIL_SELECTOR;
		f->key = l->key;
		f->value = l->value;
		f->origin = selector_origin(r, f->key, f->value);
		f->by = f->origin == ORIGIN_MIGRATION ? r->added_by : NULL;
		kv_buf_printf(out, "label %s=%s %s", l->key, l->value,
		    have == NULL ? "missing" : "differs");
		if (f->origin == ORIGIN_MIGRATION)
			kv_buf_printf(out, " (added by migration %s)",
			    r->added_by);
	}
	if ((q = affinity_fail(r->affinity, kv_appended(r), &node->labels,
	    node->name)) == NULL)
		return;
	if (fs->max > 1 && q != &empty_term) {
		term_fails(r, node, fs);
		return;
	}
	if ((f = fs_add(fs, &out)) == NULL)
		return;
	f->kind = q == &empty_term ? FAIL_EMPTY_TERM : FAIL_AFFINITY;
	f->origin = (q == &empty_term && r->affinity == &r->vmi->affinity) ||
	    (q != &empty_term && own_req(r, q)) ? ORIGIN_VMI : ORIGIN_OTHER;
	f->key = q->key;
	if (q == &empty_term) {
		kv_buf_printf(out, "node affinity: an empty nodeSelectorTerm "
		    "matches no node");
		return;
	}
	kv_buf_printf(out, "node affinity: %s%s %s", q->field ? "field " : "",
	    q->key, op_name(q->op));
	for (size_t i = 0; i < q->nvalues; i++)
		kv_buf_printf(out, "%s%s", i ? "," : " ", q->values[i]);
}

/* Every taint of node n the VMI does not tolerate. */
static void
explain_taints(const kv_place *p, const kv_vmires *r, size_t n,
    failset *fs)
{
	for (size_t i = 0; i < p->ntaints; i++) {
		const ptaint *t = &p->taints[i];
		kv_fail *f;
		kv_buf *out;

		if (!kv_bits_test(&t->nodes, n) || kv_tolerates(r->vmi, t))
			continue;
		if ((f = fs_add(fs, &out)) == NULL)
			return;
		f->kind = FAIL_TAINT;
		f->key = t->key;
		f->value = t->value;
		f->effect = t->effect;
		f->cordon = strcmp(f->key, "node.kubernetes.io/unschedulable")
		    == 0;
		kv_buf_printf(out, "%staint %s%s%s:%s not tolerated",
		    f->cordon ? "cordoned: " : "", t->key, *t->value ? "=" :
		    "", t->value, t->effect);
	}
}

/* Every PersistentVolume of r's claims the node fails (volumes.c). */
static void
explain_volumes(const kv_analysis *a, const kv_vmires *r, size_t n,
    failset *fs)
{
	size_t nvols;
	kv_volpv *vols = kv_vmi_pvs(a->m, r, false, &nvols);

	for (size_t i = 0; i < nvols && !fs_full(fs); i++) {
		kv_buf text = {0};
		kv_fail *f;
		kv_buf *out;

		if (!kv_volpv_explain(a->m, &vols[i], &a->m->nodes[n], &text))
			continue;
		if ((f = fs_add(fs, &out)) != NULL) {
			f->kind = FAIL_VOLUME;
			f->key = vols[i].pv->name;
			kv_buf_printf(out, "%s", text.data);
		}
		kv_buf_free(&text);
	}
	free(vols);
}

/* The room check of node n for r. */
static void
explain_room(const kv_analysis *a, const kv_vmires *r, size_t n,
    failset *fs)
{
	kv_res need = kv_room_need(a, r), have = kv_room_free(a, n);
	kv_fail *f;
	kv_buf *out;

	if (kv_res_fits(&have, &need) || (f = fs_add(fs, &out)) == NULL)
		return;
	f->kind = FAIL_ROOM;
	f->need = need;
	f->have = have;
	if (kv_res_base_fits(&have, &need)) {
		kv_buf_printf(out, "no room: ");
		kv_res_short_fmt(a, n, &have, &need, false, out);
		return;
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
}

/* The constraints node n fails for r, in the order the scheduler's
 * filters and the explanation give them, into fs. */
static void
fails(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    size_t n, failset *fs)
{
	enum kv_pod_fail pod;
	kv_fail *f;
	kv_buf *out;

	if (explain_pods(a, p, r, &a->m->nodes[n], fs))
		return;
	explain_labels(r, &a->m->nodes[n], fs);
	if (!fs_full(fs))
		explain_taints(p, r, n, fs);
	if (!fs_full(fs))
		explain_volumes(a, r, n, fs);
	if (!fs_full(fs) && (pod = kv_podaff_fail(a, p, r, n)) != PODF_NONE &&
	    (f = fs_add(fs, &out)) != NULL) {
		kv_podaff_explain(a, p, r, n, out);
		f->kind = FAIL_POD_TERM;
		f->pod = pod;
	}
	if (!fs_full(fs))
		explain_room(a, r, n, fs);
}

bool
kv_target_explain(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_buf *out)
{
	kv_fail f;
	failset fs = { .v = &f, .max = 1, .out = out };

	fails(a, p, r, n, &fs);
	kv_buf_free(&fs.scratch);
	return fs.n > 0;
}

size_t
kv_target_fails(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_fail *v, size_t max)
{
	kv_buf b = {0};
	failset fs = { .v = v, .max = max, .out = &b };

	fails(a, p, r, n, &fs);
	kv_buf_free(&fs.scratch);
	kv_buf_free(&b);
	return fs.n;
}
