/*
 * volumes.c - the scheduler's volume filters in the target search
 * (place.h): a pod that mounts a bound PersistentVolumeClaim runs only
 * on a node its PersistentVolume allows.
 *
 * VolumeBinding (kubernetes pkg/scheduler/framework/plugins/
 * volumebinding/binder.go checkBoundClaims) rejects a node whose labels
 * fail the PV's spec.nodeAffinity.required (component-helpers
 * storage/volume CheckNodeAffinity: corev1.MatchNodeSelectorTerms on a
 * node that has the labels and no name, so a matchFields term matches
 * nothing) with ErrReasonNodeConflict, "node(s) had volume node affinity
 * conflict".  VolumeZone (volumezone/volume_zone.go Filter) rejects, when
 * the node has any of the four zone/region labels, a node whose value of
 * each such label the PV carries (or of its GA key, for a failure-domain
 * beta key) is not one of the PV's values ("__"-separated,
 * LabelZonesToSet): "node(s) had no available volume zone".  A claim
 * without volumeName, or whose PV the snapshot lacks, adds nothing here.
 * Reads the model only; kv_vmi_pvs's array is the caller's.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/place.h"

/* Whether v is the volume of a migrated (DVP volume migration) disk. */
static bool
migrates(const kv_vmires *r, const kv_volume *v)
{
	for (size_t i = 0; i < r->nmigvols; i++)
		if (r->migvols[i] == v)
			return true;
	return false;
}

kv_volpv *
kv_vmi_pvs(const kv_model *m, const kv_vmires *r, bool start, size_t *n)
{
	const kv_vmi *v = r->vmi;
	kv_volpv *out = NULL;

	*n = 0;
	for (size_t i = 0; i < v->nvolumes; i++) {
		const kv_volume *vol = &v->volumes[i];
		const kv_pvc *pvc;
		const kv_pv *pv;
		size_t k;

		if (vol->claim == NULL || (!start && migrates(r, vol)) ||
		    (pvc = kv_model_pvc(m, v->ns, vol->claim)) == NULL ||
		    (pv = kv_model_pv(m, pvc->volume)) == NULL ||
		    (pv->affinity.nterms == 0 && pv->zones.n == 0))
			continue;
		for (k = 0; k < *n && out[k].pv != pv; k++)
			;
		if (k < *n)
			continue;
		out = xreallocarray(out, *n + 2, sizeof(*out));
		out[(*n)++] = (kv_volpv){ vol->name, vol->claim, pv };
		memset(&out[*n], 0, sizeof(*out));
	}
	return out;
}

/* The first failing requirement of each term, or NULL when a term
 * matches (an empty term matches nothing: &empty). */
static const kv_nsreq empty = { .key = "" };

static const kv_nsreq *
affinity_fail(const kv_pv *pv, const kv_node *node)
{
	const kv_nsreq *first = NULL;

	if (pv->affinity.nterms == 0)
		return NULL;
	for (size_t t = 0; t < pv->affinity.nterms; t++) {
		const kv_nsterm *term = &pv->affinity.terms[t];
		const kv_nsreq *bad = term->nreqs == 0 ? &empty : NULL;

		for (size_t q = 0; q < term->nreqs && bad == NULL; q++)
			if (!kv_req_match(&term->reqs[q], &node->labels, NULL))
				bad = &term->reqs[q];
		if (bad == NULL)
			return NULL;
		if (first == NULL)
			first = bad;
	}
	return first;
}

/* The GA key of a failure-domain beta key (translateToGALabel). */
static const char *
ga_key(const char *key)
{
	if (strcmp(key, "failure-domain.beta.kubernetes.io/zone") == 0)
		return "topology.kubernetes.io/zone";
	if (strcmp(key, "failure-domain.beta.kubernetes.io/region") == 0)
		return "topology.kubernetes.io/region";
	return key;
}

/* Whether have is one of the "__"-separated values of want. */
static bool
zone_in(const char *want, const char *have)
{
	size_t len = strlen(have);

	for (const char *s = want; s != NULL; ) {
		const char *e = strstr(s, "__");
		size_t n = e != NULL ? (size_t)(e - s) : strlen(s);

		if (n == len && strncmp(s, have, n) == 0)
			return true;
		s = e != NULL ? e + 2 : NULL;
	}
	return false;
}

/* The PV's zone label node fails, or NULL. */
static const kv_label *
zone_fail(const kv_pv *pv, const kv_node *node)
{
	bool any = false;

	for (size_t i = 0; i < node->labels.n && !any; i++)
		any = kv_zone_key(node->labels.v[i].key);
	if (!any)
		return NULL;	/* a node without zone labels: no limit */
	for (size_t i = 0; i < pv->zones.n; i++) {
		const kv_label *l = &pv->zones.v[i];
		const char *have = kv_labels_get(&node->labels, l->key);

		if (have == NULL)
			have = kv_labels_get(&node->labels, ga_key(l->key));
		if (have == NULL || !zone_in(l->value, have))
			return l;
	}
	return NULL;
}

void
kv_and_volumes(const kv_model *m, const kv_volpv *vols, size_t nvols,
    kv_bits *dst)
{
	for (size_t i = 0; i < nvols && kv_bits_any(dst); i++)
		KV_BITS_FOREACH(dst, n)
			if (affinity_fail(vols[i].pv, &m->nodes[n]) != NULL ||
			    zone_fail(vols[i].pv, &m->nodes[n]) != NULL)
				kv_bits_clear(dst, n);
}

static const char *const op_names[] = { "In", "NotIn", "Exists",
	"DoesNotExist", "Gt", "Lt" };

/* The one node of the snapshot pv's node affinity allows, or NULL (none
 * or several). */
static const kv_node *
pinned_to(const kv_model *m, const kv_pv *pv)
{
	const kv_node *one = NULL;

	for (size_t i = 0; i < m->nnodes; i++)
		if (affinity_fail(pv, &m->nodes[i]) == NULL) {
			if (one != NULL)
				return NULL;
			one = &m->nodes[i];
		}
	return one;
}

bool
kv_volpv_explain(const kv_model *m, const kv_volpv *vp, const kv_node *node,
    kv_buf *out)
{
	const kv_pv *pv = vp->pv;
	const kv_nsreq *q = affinity_fail(pv, node);
	const kv_label *z = NULL;
	const kv_node *pin;
	const char *have;

	if (q == NULL && (z = zone_fail(pv, node)) == NULL)
		return false;
	kv_buf_printf(out, "PersistentVolume %s (claim %s%s%s) ", pv->name,
	    vp->claim, pv->driver ? ", driver " : "", pv->driver ?
	    pv->driver : "");
	if (q == NULL) {
		have = kv_labels_get(&node->labels, z->key);
		if (have == NULL)
			have = kv_labels_get(&node->labels, ga_key(z->key));
		if (have != NULL)
			kv_buf_printf(out, "is in %s=%s, the node in %s "
			    "(volume zone)", z->key, z->value, have);
		else
			kv_buf_printf(out, "is in %s=%s, the node has no "
			    "such label (volume zone)", z->key, z->value);
		return true;
	}
	if ((pin = pinned_to(m, pv)) != NULL)
		kv_buf_printf(out, "is pinned to %s by its node affinity",
		    pin->name);
	else if (q == &empty)
		kv_buf_printf(out, "has a node affinity term that matches no "
		    "node");
	else {
		kv_buf_printf(out, "has node affinity %s%s %s", q->field ?
		    "field " : "", q->key, op_names[q->op]);
		for (size_t i = 0; i < q->nvalues; i++)
			kv_buf_printf(out, "%s%s", i ? "," : " ", q->values[i]);
		kv_buf_printf(out, ", which the node fails");
	}
	return true;
}
