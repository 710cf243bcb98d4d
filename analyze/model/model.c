/*
 * model.c - lookups over the loaded model and its release.
 */
#include "analyze/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/model/cpudb.h"
#include "analyze/util/util.h"

const char *
kv_labels_get(const kv_labels *l, const char *key)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(l->v[mid].key, key);

		if (c == 0)
			return l->v[mid].value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool
kv_labels_same_prefixed(const kv_labels *x, const kv_labels *y,
    const char *prefix, bool values)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < x->n && !kv_startswith(x->v[i].key, prefix))
			i++;
		while (j < y->n && !kv_startswith(y->v[j].key, prefix))
			j++;
		if (i == x->n || j == y->n)
			return i == x->n && j == y->n;
		if (strcmp(x->v[i].key, y->v[j].key) != 0 || (values &&
		    strcmp(x->v[i].value, y->v[j].value) != 0))
			return false;
		i++;
		j++;
	}
}

const char *
kv_flavor_label(const kv_labels *l, enum kv_key k)
{
	const char *v = NULL;

	for (size_t i = 0; v == NULL && i < KV_NFLAVORS; i++)
		v = kv_labels_get(l, kv_flavors[i]->keys[k]);
	return v;
}

/* rules §0: explicitly enabled > explicitly disabled > Beta-on > off. */
bool
kv_gate_on(const kv_cluster *k, const char *gate)
{
	for (size_t i = 0; i < k->ngates; i++)
		if (strcmp(k->gates[i], gate) == 0)
			return true;
	/* explicitly disabled, or not named: the gates we read are Alpha,
	 * off by default */
	return false;
}

/* Names are interned, so most equal ones are the same pointer (a
 * binary search's last steps stay in one namespace): no strcmp then. */
int
kv_nscmp(const char *ans, const char *an, const char *bns, const char *bn)
{
	int c = ans == bns ? 0 : strcmp(ans, bns);

	return c != 0 ? c : an == bn ? 0 : strcmp(an, bn);
}

const kv_node *
kv_model_node(const kv_model *m, const char *name)
{
	size_t lo = 0, hi = m->nnodes;

	if (name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(m->nodes[mid].name, name);

		if (c == 0)
			return &m->nodes[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool
kv_model_node_key_prefix(const kv_model *m, const char *prefix)
{
	for (size_t i = 0; i < m->nnodes; i++)
		for (size_t k = 0; k < m->nodes[i].labels.n; k++)
			if (kv_startswith(m->nodes[i].labels.v[k].key, prefix))
				return true;
	return false;
}

const void *
kv_find_nsname(const void *arr, size_t n, size_t size, size_t ns_at,
    size_t name_at, const char *ns, const char *name)
{
	const char *base = arr;
	size_t lo = 0, hi = n;

	if (ns == NULL || name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *e = base + mid * size;
		int c = kv_nscmp(*(const char *const *)(e + ns_at),
		    *(const char *const *)(e + name_at), ns, name);

		if (c == 0)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const kv_pvc *
kv_model_pvc(const kv_model *m, const char *ns, const char *name)
{
	return KV_FIND_NSNAME(m->pvcs, m->npvcs, kv_pvc, ns, name);
}

const kv_vm *
kv_model_vm(const kv_model *m, const char *ns, const char *name)
{
	return KV_FIND_NSNAME(m->vms, m->nvms, kv_vm, ns, name);
}

/* Both arrays are sorted by name (load.c); names may repeat, and the
 * first one wins, as a scan from the start would have it. */
const kv_namespace *
kv_model_namespace(const kv_model *m, const char *name)
{
	size_t lo = 0, hi = m->nnamespaces;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(m->namespaces[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nnamespaces && strcmp(m->namespaces[lo].name,
	    name) == 0 ? &m->namespaces[lo] : NULL;
}

const kv_storageclass *
kv_model_sc(const kv_model *m, const char *name)
{
	size_t lo = 0, hi = m->nscs;

	if (name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(m->scs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nscs && strcmp(m->scs[lo].name, name) == 0 ?
	    &m->scs[lo] : NULL;
}

const kv_pv *
kv_model_pv(const kv_model *m, const char *name)
{
	size_t lo = 0, hi = m->npvs;

	if (name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(m->pvs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->npvs && strcmp(m->pvs[lo].name, name) == 0 ?
	    &m->pvs[lo] : NULL;
}

/* volume_zone.go topologyLabels (docs/rules.md "Volumes") */
static const char *const zone_keys[] = {
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
};

bool
kv_zone_key(const char *key)
{
	for (size_t i = 0; i < sizeof(zone_keys) / sizeof(zone_keys[0]); i++)
		if (strcmp(key, zone_keys[i]) == 0)
			return true;
	return false;
}

const kv_sprofile *
kv_model_profile(const kv_model *m, const char *name)
{
	size_t lo = 0, hi = m->nprofiles;

	if (name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(m->profiles[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nprofiles && strcmp(m->profiles[lo].name, name) == 0 ?
	    &m->profiles[lo] : NULL;
}

bool
kv_model_has(const kv_model *m, const char *resource, const char *group)
{
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];

		if (strcmp(r->resource, resource) == 0 &&
		    strcmp(r->group, group) == 0)
			return strcmp(r->status, "ok") == 0;
	}
	return false;
}

static void
affinity_free(kv_affinity *a)
{
	for (size_t i = 0; i < a->nterms + a->ndropped; i++) {
		for (size_t j = 0; j < a->terms[i].nreqs +
		    a->terms[i].ndropped; j++)
			free(a->terms[i].reqs[j].values);
		free(a->terms[i].reqs);
	}
	free(a->terms);
}

const kv_nad *
kv_model_nad(const kv_model *m, const char *ns, const char *network_name)
{
	const char *slash = strchr(network_name, '/');
	size_t nslen = slash ? (size_t)(slash - network_name) : strlen(ns);
	const char *nsp = slash ? network_name : ns;
	const char *name = slash ? slash + 1 : network_name;

	for (size_t i = 0; i < m->nnads; i++)
		if (strlen(m->nads[i].ns) == nslen &&
		    strncmp(m->nads[i].ns, nsp, nslen) == 0 &&
		    strcmp(m->nads[i].name, name) == 0)
			return &m->nads[i];
	return NULL;
}

void
kv_vmi_release(kv_vmi *v)
{
	free(v->labels.v);
	free(v->features);
	free(v->ifaces);
	free(v->volumes);
	free(v->disks);
	free(v->filesystems);
	free(v->volstatus);
	free(v->migrated);
	free(v->node_selector.v);
	affinity_free(&v->affinity);
	kv_podplace_free(&v->pod_place);
	free(v->tolerations);
	free(v->devnames);
	free(v->multus);
}

void
kv_model_free(kv_model *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->nnodes; i++) {
		free(m->nodes[i].labels.v);
		free(m->nodes[i].taints);
		free(m->nodes[i].alloc_ext);
	}
	free(m->nodes);
	for (size_t i = 0; i < m->nvmis; i++)
		kv_vmi_release(&m->vmis[i]);
	free(m->vmis);
	for (size_t i = 0; i < m->npods; i++) {
		free(m->pods[i].node_selector.v);
		free(m->pods[i].imageids);
		free(m->pods[i].imagerefs);
		free(m->pods[i].res_ext);
		free(m->pods[i].pr);
		free(m->pods[i].labels.v);
		kv_podplace_free(&m->pods[i].place);
	}
	free(m->pods);
	free(m->pvcs);
	for (size_t i = 0; i < m->npvs; i++) {
		affinity_free(&m->pvs[i].affinity);
		free(m->pvs[i].zones.v);
	}
	free(m->pvs);
	free(m->scs);
	free(m->profiles);
	for (size_t i = 0; i < m->nnamespaces; i++)
		free(m->namespaces[i].labels.v);
	free(m->namespaces);
	for (size_t i = 0; i < m->npolicies; i++) {
		free(m->policies[i].ns_selector.v);
		free(m->policies[i].vmi_selector.v);
	}
	free(m->policies);
	for (size_t i = 0; i < m->nvmims; i++)
		free(m->vmims[i].added_selector.v);
	free(m->vmims);
	free(m->metrics);
	free(m->nads);
	for (size_t i = 0; i < m->nvms; i++) {
		if (m->vms[i].after != NULL) {
			kv_vmi_release(m->vms[i].after);
			free(m->vms[i].after);
		}
		if (m->vms[i].stopped != NULL) {
			kv_vmi_release(m->vms[i].stopped);
			free(m->vms[i].stopped);
		}
	}
	free(m->vms);
	free(m->cluster.obsolete);
	free(m->cluster.gates);
	free(m->cluster.disabled_gates);
	free(m->cluster.node_selectors.v);
	free(m->cluster.migratable_bindings);
	free(m->cluster.mdev_resources);
	for (size_t i = 0; i < KV_NFLAVORS; i++)
		if (kv_flavors[i]->model_free != NULL)
			kv_flavors[i]->model_free(m);
	free(m->missing);
	if (m->cpumap != NULL)
		cpudb_free(m->cpumap);
	snap_manifest_free(&m->manifest);
	if (!m->strs_borrowed)
		kv_intern_free(m->strs);
	free(m);
}
