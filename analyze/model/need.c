/*
 * need.c - what the input lacks of the resources checks need (need.h).
 */
#include "analyze/model/need.h"

#include <string.h>

const kv_need_row kv_need_rows[NEED_COUNT] = {
	[NEED_NODES] = { "nodes", "" },
	[NEED_PODS] = { "pods", "" },
	[NEED_PVCS] = { "persistentvolumeclaims", "" },
	[NEED_STORAGECLASSES] = { "storageclasses", "storage.k8s.io" },
	[NEED_VMOPS] = { "virtualmachineoperations",
	    "virtualization.deckhouse.io" },
	[NEED_VMBDAS] = { "virtualmachineblockdeviceattachments",
	    "virtualization.deckhouse.io" },
	[NEED_VDISKS] = { "virtualdisks", "virtualization.deckhouse.io" },
	[NEED_VMCLASSES] = { "virtualmachineclasses",
	    "virtualization.deckhouse.io" },
	[NEED_VERSION] = { "kubevirt-version", "" },
	[NEED_VMS] = { "virtualmachines", "kubevirt.io" },
};

/* The manifest's entry of resource (plural) in group, or NULL. */
static const snap_resource *
entry_of(const kv_model *m, const char *resource, const char *group)
{
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];

		if (strcmp(r->resource, resource) == 0 &&
		    strcmp(r->group, group) == 0)
			return r;
	}
	return NULL;
}

static const snap_resource *
entry(const kv_model *m, enum kv_need n)
{
	return entry_of(m, kv_need_rows[n].resource, kv_need_rows[n].group);
}

bool
kv_model_lacks_res(const kv_model *m, const char *resource,
    const char *group)
{
	const snap_resource *r = entry_of(m, resource, group);

	/* NEED_VERSION is no resource: the analysis decides */
	if (strcmp(resource, kv_need_rows[NEED_VERSION].resource) == 0)
		return false;
	/* another flavor's resource (a DVP one on KubeVirt) is never
	 * lacking: this flavor's checks do not read it */
	if (kv_flavor_foreign_group(m->flavor, group))
		return false;
	return r == NULL || (strcmp(r->status, "ok") != 0 &&
	    strcmp(r->status, "absent") != 0);
}

bool
kv_model_lacks(const kv_model *m, enum kv_need n)
{
	return kv_model_lacks_res(m, kv_need_rows[n].resource,
	    kv_need_rows[n].group);
}

unsigned
kv_model_lacking(const kv_model *m, unsigned mask)
{
	unsigned out = 0;

	for (int n = 0; n < NEED_COUNT; n++)
		if ((mask & KV_NEED_BIT(n)) && kv_model_lacks(m, n))
			out |= KV_NEED_BIT(n);
	return out;
}

const char *
kv_model_lack_words(const kv_model *m, enum kv_need n)
{
	const snap_resource *r = entry(m, n);

	if (n == NEED_VERSION)
		return "older than the rules kvscope has";
	if (r == NULL || strcmp(r->status, "missing") == 0)
		return "not in the input";
	if (!kv_model_lacks(m, n))
		return "";
	/* a file skipped (snapshot.c, foreign.c): "partial: PATH skipped:
	 * why" is in the message */
	if (strcmp(r->status, "partial") == 0 && r->message != NULL)
		return r->message;
	return r->status;
}
