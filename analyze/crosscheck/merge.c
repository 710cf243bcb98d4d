/*
 * merge.c - the crossing model of crosscheck.h: TARGET's model with
 * SOURCE's chosen VMIs, stopped VMs, VirtualMachines, claims, launcher
 * pods and nodes moved in, so the in-cluster engines answer for the
 * move.  A moved struct is copied and zeroed in SOURCE (its arrays then
 * belong to the crossing model); whole arrays are swapped, so each model
 * still frees what it holds.  SOURCE's nodes keep their labels as
 * SOURCE's flavor spells them, put into TARGET's spelling (relabel).
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/crosscheck/crosscheck.h"
#include "analyze/util/util.h"

#define SOURCE_TAINT "kvscope.io/crosscheck-source"

bool
kv_cross_is_source(const char *node)
{
	return node != NULL && strncmp(node, KV_CROSS_PREFIX,
	    sizeof(KV_CROSS_PREFIX) - 1) == 0;
}

static const char *
source_name(kv_model *m, const char *node)
{
	char *s;
	const char *r;

	if (node == NULL)
		return NULL;
	s = xasprintf("%s%s", KV_CROSS_PREFIX, node);
	r = kv_intern_str(m->strs, s);
	free(s);
	return r;
}

static int
node_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_node *)x)->name, ((const kv_node *)y)->name);
}

static int
vmi_cmp(const void *x, const void *y)
{
	const kv_vmi *a = x, *b = y;

	return kv_nscmp(a->ns, a->name, b->ns, b->name);
}

/* The machine-type labels: whether a target pod selects one follows
 * TARGET's nodes alone (the row's fingerprint, versions.c). */
static void
drop_machine_types(kv_labels *l)
{
	size_t n = 0;

	for (size_t k = 0; k < l->n; k++)
		if (strncmp(l->v[k].key, "machine-type.", 13) != 0)
			l->v[n++] = l->v[k];
	l->n = n;
}

static int
label_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_label *)x)->key, ((const kv_label *)y)->key);
}

/* key in TARGET's spelling: SOURCE's label domain (cpu-feature.
 * node.kubevirt.io/pku) and KubeVirt prefix (kubevirt.io/schedulable)
 * as TARGET's flavor spells them (cpu-feature.node.virtualization.
 * deckhouse.io/pku); NULL when key has neither. */
static char *
respell(const kv_flavor *from, const kv_flavor *to, const char *key)
{
	const char *slash = strchr(key, '/');
	size_t dlen = strlen(from->label_domain), plen;

	if (kv_startswith(key, from->kv_prefix))
		return xasprintf("%s%s", to->kv_prefix, key +
		    strlen(from->kv_prefix));
	if (slash == NULL || (plen = (size_t)(slash - key)) <= dlen ||
	    key[plen - dlen - 1] != '.' ||
	    strncmp(slash - dlen, from->label_domain, dlen) != 0)
		return NULL;
	return xasprintf("%.*s%s%s", (int)(plen - dlen), key,
	    to->label_domain, slash);
}

/* A SOURCE node's labels read by SOURCE's flavor: its CPU labels and
 * KubeVirt keys put in TARGET's spelling, so that the crossing model
 * (TARGET's flavor) reads its host model, features and vendor.  Nothing
 * changes between flavors of one label domain. */
static void
relabel(kv_model *t, const kv_flavor *from, kv_labels *l)
{
	const kv_flavor *to = t->flavor;
	size_t n = 0;

	if (from == NULL || from == to ||
	    (strcmp(from->label_domain, to->label_domain) == 0 &&
	    strcmp(from->kv_prefix, to->kv_prefix) == 0))
		return;
	for (size_t k = 0; k < l->n; k++) {
		char *key = respell(from, to, l->v[k].key);

		if (key != NULL)
			l->v[k].key = kv_intern_str(t->strs, key);
		free(key);
	}
	kv_qsort(l->v, l->n, sizeof(kv_label), label_cmp);
	for (size_t k = 0; k < l->n; k++)	/* keys unique */
		if (n == 0 || strcmp(l->v[n - 1].key, l->v[k].key) != 0)
			l->v[n++] = l->v[k];
	l->n = n;
}

/* SOURCE's nodes, renamed, cordoned and tainted NoExecute with a key no
 * VMI tolerates by name: no target pod lands on them. */
static void
move_nodes(kv_model *t, kv_model *s)
{
	size_t n = t->nnodes;

	t->nodes = xreallocarray(t->nodes, n + s->nnodes + 1,
	    sizeof(kv_node));
	for (size_t i = 0; i < s->nnodes; i++) {
		kv_node *d = &t->nodes[n + i];

		*d = s->nodes[i];
		memset(&s->nodes[i], 0, sizeof(kv_node));
		d->name = source_name(t, d->name);
		d->unschedulable = true;
		for (size_t k = 0; k < d->labels.n; k++)
			if (strcmp(d->labels.v[k].key,
			    "kubernetes.io/hostname") == 0)
				d->labels.v[k].value = d->name;
		relabel(t, s->flavor, &d->labels);
		drop_machine_types(&d->labels);
		d->taints = xreallocarray(d->taints, d->ntaints + 1,
		    sizeof(kv_taint));
		d->taints[d->ntaints++] = (kv_taint){
		    kv_intern_str(t->strs, SOURCE_TAINT), NULL,
		    kv_intern_str(t->strs, "NoExecute") };
	}
	t->nnodes = n + s->nnodes;
	kv_qsort(t->nodes, t->nnodes, sizeof(kv_node), node_cmp);
}

/* The launcher pods of the moved VMIs (by kubevirt.io/created-by),
 * onto the renamed nodes. */
static void
move_pods(kv_model *t, kv_model *s)
{
	GHashTable *uids = g_hash_table_new(g_direct_hash, g_direct_equal);
	size_t n = t->npods;

	for (size_t k = 0; k < t->nvmis; k++)
		if (t->vmis[k].uid != NULL)
			g_hash_table_add(uids, (void *)t->vmis[k].uid);
	/* a TARGET pod of a VMI with a moved one's uid (SOURCE and TARGET
	 * one cluster): a pod of another VMI there, not the moved one's */
	for (size_t i = 0; i < n; i++)
		if (t->pods[i].created_by != NULL &&
		    g_hash_table_contains(uids, t->pods[i].created_by))
			t->pods[i].created_by = NULL;
	t->pods = xreallocarray(t->pods, n + s->npods + 1, sizeof(kv_pod));
	for (size_t i = 0; i < s->npods; i++) {
		kv_pod *p = &s->pods[i];

		if (!p->launcher || p->created_by == NULL ||
		    !g_hash_table_contains(uids, p->created_by))
			continue;
		t->pods[n] = *p;
		t->pods[n].node = source_name(t, p->node);
		memset(p, 0, sizeof(*p));
		n++;
	}
	t->npods = n;
	g_hash_table_destroy(uids);
}

/* What a decentralized migration does to the VMI: every PVC and
 * DataVolume volume is a migrated (copied) one (kubevirt v1.9.0
 * pkg/virt-controller/watch/migration/decentralized.go:94-110), and a
 * LiveMigratable False for DisksNotLiveMigratable does not refuse it
 * (pkg/virt-api/webhooks/validating-webhook/admitters/
 * migration-create-admitter.go:60-66). */
static void
cross_vmi(kv_model *t, kv_vmi *v, const kv_cross_opts *o)
{
	char buf[256];

	v->node = source_name(t, v->node);
	free(v->migrated);
	v->migrated = xcalloc(v->nvolumes + 1, sizeof(char *));
	v->nmigrated = 0;
	for (size_t i = 0; i < v->nvolumes; i++)
		if (v->volumes[i].kind == VOL_PVC ||
		    v->volumes[i].kind == VOL_DATAVOLUME)
			v->migrated[v->nmigrated++] = v->volumes[i].name;
	if (v->cond == 'F' && v->cond_reason != NULL &&
	    strcmp(v->cond_reason, "DisksNotLiveMigratable") == 0) {
		v->cond = 'T';
		v->cond_reason = v->cond_message = NULL;
	}
	for (size_t i = 0; i < v->nmultus; i++)
		v->multus[i] = kv_intern_str(t->strs, kv_cross_map(
		    (const char *const *)o->netmap, o->nnetmap, v->multus[i],
		    buf, sizeof(buf)));
	v->migration_source = v->migration_target = NULL;
}

static void
take_vmis(kv_model *t, kv_model *s, const bool *pick, const bool *pickvm,
    const kv_cross_opts *o)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nvmis; i++)
		kv_vmi_release(&t->vmis[i]);
	free(t->vmis);
	t->vmis = xcalloc(s->nvmis + s->nvms + 1, sizeof(kv_vmi));
	for (size_t i = 0; i < s->nvmis; i++)
		if (pick[i]) {
			t->vmis[n] = s->vmis[i];
			memset(&s->vmis[i], 0, sizeof(kv_vmi));
			cross_vmi(t, &t->vmis[n++], o);
		}
	for (size_t i = 0; i < s->nvms; i++)
		if (pickvm[i] && s->vms[i].stopped != NULL) {
			t->vmis[n] = *s->vms[i].stopped;
			free(s->vms[i].stopped);
			s->vms[i].stopped = NULL;
			cross_vmi(t, &t->vmis[n++], o);
		}
	t->nvmis = n;
	kv_qsort(t->vmis, t->nvmis, sizeof(kv_vmi), vmi_cmp);
}

#define SWAP(a, b, type) do { type tmp_ = (a); (a) = (b); (b) = tmp_; } \
	while (0)

/* SOURCE's claims, each of the class the map gives on TARGET and bound
 * to no PersistentVolume (the copy gets a new one there). */
static void
take_claims(kv_model *t, kv_model *s, const kv_cross_opts *o)
{
	char buf[256];

	SWAP(t->pvcs, s->pvcs, kv_pvc *);
	SWAP(t->npvcs, s->npvcs, size_t);
	for (size_t i = 0; i < t->npvcs; i++) {
		kv_pvc *p = &t->pvcs[i];

		p->volume = NULL;
		if (p->storage_class != NULL)
			p->storage_class = kv_intern_str(t->strs,
			    kv_cross_map((const char *const *)o->scmap,
			    o->nscmap, p->storage_class, buf, sizeof(buf)));
	}
}

void
kv_cross_merge(kv_model *tgt, kv_model *src, const bool *pick,
    const bool *pickvm, const kv_cross_opts *o)
{
	take_vmis(tgt, src, pick, pickvm, o);
	move_pods(tgt, src);
	move_nodes(tgt, src);
	take_claims(tgt, src, o);
	/* their VirtualMachines, restart templates and metrics are
	 * SOURCE's; TARGET's migrations name TARGET's VMIs */
	SWAP(tgt->vms, src->vms, kv_vm *);
	SWAP(tgt->nvms, src->nvms, size_t);
	SWAP(tgt->metrics, src->metrics, kv_vmimetrics *);
	SWAP(tgt->nmetrics, src->nmetrics, size_t);
	for (size_t i = 0; i < tgt->nvmims; i++)
		free(tgt->vmims[i].added_selector.v);
	free(tgt->vmims);
	tgt->vmims = NULL;
	tgt->nvmims = 0;
	kv_model_resnames_add(tgt, src);
}
