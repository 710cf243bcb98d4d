/*
 * fixcopy.c - the proof's model copy of one batch (fixcopy.h).
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/change/fixcopy.h"
#include "analyze/model/flavor.h"
#include "analyze/util/util.h"

static void *
dup_array(const void *p, size_t n, size_t size)
{
	void *q;

	if (p == NULL)
		return NULL;
	q = xcalloc(n + 1, size);
	memcpy(q, p, n * size);
	return q;
}

/* The arrays of a required node affinity, its own (values shared). */
static void
affinity_copy(kv_affinity *f)
{
	size_t nt = f->nterms + f->ndropped;

	f->terms = dup_array(f->terms, nt, sizeof(kv_nsterm));
	for (size_t t = 0; t < nt; t++)
		f->terms[t].reqs = dup_array(f->terms[t].reqs,
		    f->terms[t].nreqs + f->terms[t].ndropped,
		    sizeof(kv_nsreq));
}

/* VMI v's copy: the arrays a change frees or writes into, its own (with
 * relax, the placement arrays too). */
static void
vmi_copy(kv_vmi *d, const kv_vmi *v, bool relax)
{
	*d = *v;
	d->labels.v = dup_array(v->labels.v, v->labels.n, sizeof(kv_label));
	d->features = dup_array(v->features, v->nfeatures,
	    sizeof(*v->features));
	d->ifaces = dup_array(v->ifaces, v->nifaces, sizeof(*v->ifaces));
	d->volstatus = dup_array(v->volstatus, v->nvolstatus,
	    sizeof(*v->volstatus));
	if (!relax)
		return;
	d->node_selector.v = dup_array(v->node_selector.v,
	    v->node_selector.n, sizeof(kv_label));
	affinity_copy(&d->affinity);
	d->tolerations = dup_array(v->tolerations, v->ntolerations,
	    sizeof(kv_toleration));
	d->pod_place.terms = dup_array(v->pod_place.terms,
	    v->pod_place.nterms + v->pod_place.ndropped, sizeof(kv_podterm));
	d->pod_place.spreads = dup_array(v->pod_place.spreads,
	    v->pod_place.nspreads, sizeof(kv_spread));
}

static void
vmi_copy_free(kv_vmi *v, bool relax)
{
	free(v->labels.v);
	free(v->features);
	free(v->ifaces);
	free(v->volstatus);
	if (!relax)
		return;
	free(v->node_selector.v);
	for (size_t t = 0; t < v->affinity.nterms + v->affinity.ndropped; t++)
		free(v->affinity.terms[t].reqs);
	free(v->affinity.terms);
	free(v->tolerations);
	free(v->pod_place.terms);
	free(v->pod_place.spreads);
}

/* The VirtualMachines of the copy's VMIs with a template a restart
 * swaps in (kv_vm_take_after): their own copy of it, as the VMIs'.  The
 * other VirtualMachines keep the model's (no change of the copy reaches
 * them, and its analysis reads only its own VMIs' templates). */
static void
vms_copy(const kv_model *m, kv_subset *s)
{
	bool any = false;

	for (size_t i = 0; i < s->m.nvmis && !any; i++) {
		const kv_vm *vm = kv_model_vm(m, s->m.vmis[i].ns,
		    s->m.vmis[i].name);

		any = vm != NULL && vm->after != NULL;
	}
	if (!any)
		return;
	s->m.vms = dup_array(m->vms, m->nvms, sizeof(kv_vm));
	s->after = xcalloc(s->m.nvmis + 1, sizeof(kv_vmi *));
	for (size_t i = 0; i < s->m.nvmis; i++) {
		kv_vm *vm = (kv_vm *)kv_model_vm(&s->m, s->m.vmis[i].ns,
		    s->m.vmis[i].name);

		if (vm == NULL || vm->after == NULL ||
		    vm->after != m->vms[vm - s->m.vms].after)
			continue;	/* none, or copied already */
		s->after[s->nafter] = xcalloc(1, sizeof(kv_vmi));
		vmi_copy(s->after[s->nafter], vm->after, s->relax);
		vm->after = s->after[s->nafter++];
	}
}

/* The nodes' arrays a node change writes into, the copy's own. */
static void
nodes_copy(const kv_model *m, kv_subset *s)
{
	s->m.nodes = dup_array(m->nodes, m->nnodes, sizeof(kv_node));
	for (size_t i = 0; i < m->nnodes; i++) {
		kv_node *n = &s->m.nodes[i];

		n->labels.v = dup_array(n->labels.v, n->labels.n,
		    sizeof(kv_label));
		n->taints = dup_array(n->taints, n->ntaints,
		    sizeof(kv_taint));
		n->alloc_ext = dup_array(n->alloc_ext, n->nalloc_ext,
		    sizeof(kv_qty));
	}
}

/* The image IDs of the pods of s's VMIs (the launchers, by UID), the
 * only ones an image-digest change writes (whatif_fix.c repull_pods):
 * the copy shares the model's pods and owns those arrays while it
 * lives; subset_free gives the model's back.  Copying all pods instead
 * would cost 26 MB at 100,000. */
static void
lend_pods(const kv_model *m, kv_subset *s)
{
	GHashTable *uids = g_hash_table_new(g_str_hash, g_str_equal);

	for (size_t i = 0; i < s->m.nvmis; i++)
		if (s->m.vmis[i].uid != NULL)
			g_hash_table_add(uids, (void *)s->m.vmis[i].uid);
	for (size_t i = 0; i < m->npods; i++) {
		kv_pod *pod = (kv_pod *)&m->pods[i];

		if (pod->created_by == NULL || pod->nimageids == 0 ||
		    !g_hash_table_contains(uids, pod->created_by))
			continue;
		s->lent = xreallocarray(s->lent, s->nlent + 1,
		    sizeof(kv_pod *));
		s->kept = xreallocarray(s->kept, s->nlent + 1,
		    sizeof(kv_imageid *));
		s->lent[s->nlent] = pod;
		s->kept[s->nlent++] = pod->imageids;
		pod->imageids = dup_array(pod->imageids, pod->nimageids,
		    sizeof(kv_imageid));
	}
	g_hash_table_destroy(uids);
}

/* The claims of s's VMIs, the only ones a claim change writes
 * (whatif_fix.c kv_wi_claim_rwx writes those of its picked VMIs): the
 * copy shares the model's claims and keeps them as they were, to give
 * back in kv_subset_free.  Copying every claim instead cost 7 MiB at
 * 100,000. */
static void
lend_claims(const kv_model *m, kv_subset *s)
{
	for (size_t i = 0; i < s->m.nvmis; i++) {
		const kv_vmi *v = &s->m.vmis[i];

		for (size_t k = 0; k < v->nvolumes; k++) {
			const kv_pvc *p = v->volumes[k].claim == NULL ? NULL :
			    kv_model_pvc(m, v->ns, v->volumes[k].claim);

			if (p == NULL)
				continue;
			s->claims = xreallocarray(s->claims, s->nclaims + 1,
			    sizeof(*s->claims));
			s->claims[s->nclaims].at = (size_t)(p - m->pvcs);
			s->claims[s->nclaims++].pvc = *p;
		}
	}
}

/* The copy of m holding the VMIs mark marks; the kinds the batch's
 * changes are of (per kv_change_kind) say which other arrays it needs. */
void
kv_subset_make(const kv_model *m, const bool *mark, const bool *kinds,
    kv_subset *s)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nvmis; i++)
		n += mark[i];
	s->m = *m;
	s->m.vmis = xcalloc(n + 1, sizeof(kv_vmi));
	s->m.nvmis = 0;
	s->sub = xcalloc(m->nvmis + 1, sizeof(size_t));
	s->relax = kinds[CH_RELAX];
	s->nafter = 0;
	s->after = NULL;
	s->nlent = 0;
	s->lent = NULL;
	s->kept = NULL;
	for (size_t i = 0; i < m->nvmis; i++)
		if (mark[i]) {
			s->sub[i] = s->m.nvmis;
			vmi_copy(&s->m.vmis[s->m.nvmis++], &m->vmis[i],
			    s->relax);
		}
	vms_copy(m, s);
	if (s->relax)
		s->m.vmims = dup_array(m->vmims, m->nvmims, sizeof(kv_vmim));
	s->nclaims = 0;
	s->claims = NULL;
	if (kinds[CH_CLAIM_RWX])
		lend_claims(m, s);
	s->own_nodes = kinds[CH_NODE_LABEL] || kinds[CH_UNCORDON] ||
	    kinds[CH_FREE_ROOM];
	if (s->own_nodes)
		nodes_copy(m, s);
	s->own_policies = kinds[CH_MIGRATION_POLICY];
	if (s->own_policies) {
		s->m.policies = dup_array(m->policies, m->npolicies,
		    sizeof(kv_policy));
		for (size_t i = 0; i < m->npolicies; i++) {
			kv_policy *p = &s->m.policies[i];

			p->ns_selector.v = dup_array(p->ns_selector.v,
			    p->ns_selector.n, sizeof(kv_label));
			p->vmi_selector.v = dup_array(p->vmi_selector.v,
			    p->vmi_selector.n, sizeof(kv_label));
		}
	}
	if (kinds[CH_IMAGE_DIGEST])
		lend_pods(m, s);
	s->ops = NULL;
	if (kinds[CH_OPERATION_DONE] && m->flavor->fix->own_ops != NULL)
		s->ops = m->flavor->fix->own_ops(&s->m);
}

void
kv_subset_free(const kv_model *m, kv_subset *s)
{
	for (size_t i = 0; i < s->m.nvmis; i++)
		vmi_copy_free(&s->m.vmis[i], s->relax);
	free(s->m.vmis);
	for (size_t i = 0; i < s->nafter; i++) {
		vmi_copy_free(s->after[i], s->relax);
		free(s->after[i]);
	}
	free(s->after);
	if (s->m.vms != m->vms)
		free(s->m.vms);
	if (s->m.vmims != m->vmims)
		free(s->m.vmims);
	/* backwards: a claim kept twice is given back as it first was */
	for (size_t i = s->nclaims; i > 0; i--)
		((kv_model *)m)->pvcs[s->claims[i - 1].at] =
		    s->claims[i - 1].pvc;
	free(s->claims);
	for (size_t i = 0; s->own_nodes && i < s->m.nnodes; i++) {
		free(s->m.nodes[i].labels.v);
		free(s->m.nodes[i].taints);
		free(s->m.nodes[i].alloc_ext);
	}
	if (s->own_nodes)
		free(s->m.nodes);
	for (size_t i = 0; s->own_policies && i < s->m.npolicies; i++) {
		free(s->m.policies[i].ns_selector.v);
		free(s->m.policies[i].vmi_selector.v);
	}
	if (s->own_policies)
		free(s->m.policies);
	for (size_t i = 0; i < s->nlent; i++) {
		free(s->lent[i]->imageids);
		s->lent[i]->imageids = s->kept[i];
	}
	free(s->lent);
	free(s->kept);
	if (s->ops != NULL)
		m->flavor->fix->free_ops(s->ops);
	free(s->sub);
}
