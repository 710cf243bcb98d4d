/*
 * flavor.c - the flavor table (flavor.h) and the plain KubeVirt row.
 *
 * The Deckhouse row lives with the rest of Deckhouse in dvp/flavor.c,
 * Harvester's in harvester/flavor.c, OpenShift Virtualization's in
 * openshift/flavor.c.
 */
#include "analyze/model/flavor.h"
#include "analyze/model/need.h"

#include <string.h>


static const kv_vocab kubevirt_vocab = {
	KV_KUBEVIRT_WORDS,
	.product = "KubeVirt",
	.drain_by = "KubeVirt's pod eviction webhook and evacuation "
	    "controller",
	.drain_by_pdb = "KubeVirt's PodDisruptionBudgets "
	    "(kubevirt-disruption-budget-*, one per migratable VMI up to "
	    "v1.5) and evacuation controller",
};

static const kv_lack_note kubevirt_lack_notes[] = {
	{ "pods", "", "room on the nodes, containerDisk digests and "
	  "host-model history not judged" },
	{ "persistentvolumeclaims", "", "PVC access modes taken from VMI "
	  "status only" },
	{ "storageclasses", "storage.k8s.io", "no storage class can be "
	  "named for a fix" },
	{ "namespaces", "", "MigrationPolicy namespace selectors not judged" },
	{ "kubevirts", "kubevirt.io", "KubeVirt defaults assumed" },
	{ "migrationpolicies", "migrations.kubevirt.io", "MigrationPolicies "
	  "not applied" },
	{ "virtualmachineinstancemigrations", "kubevirt.io", "per-migration "
	  "timeout overrides not applied" },
	{ "virtualmachines", "kubevirt.io", KV_VMS_LACK_WORDS },
	{ "virtualmachineinstances", "kubevirt.io", "no VMI can be judged" },
	/* target.c and explain.c read a claim's PV (kv_vmi_pvs): its node
	 * affinity pins the VMI's targets; rwx-node-local reads it too */
	{ "persistentvolumes", "", "a disk's PersistentVolume node affinity "
	  "(local or zonal storage) does not limit its VMI's targets, and "
	  "rwx-node-local is not judged" },
	{ "datavolumes", "cdi.kubevirt.io", "DataVolumes are only counted, "
	  "so nothing is left unjudged" },
	{ "storageprofiles", "cdi.kubevirt.io", "CDI storage profiles' "
	  "access modes not used to name a storage class for a fix" },
	{ "vmimetrics", "kvscope.io", "migration estimates take the dirty "
	  "rate as unknown (idle to busy) instead of measured" },
	{ "network-attachment-definitions", "k8s.cni.cncf.io", "the device "
	  "a Multus network's NetworkAttachmentDefinition requests is not "
	  "counted in the target pod's requests" },
	{ NULL, NULL, NULL },
};

static const char *const no_models[] = { NULL };

/* KubeVirt v1.6 api/core/v1/types.go: VirtualMachineSpec.Template is
 * the VMI template, whose spec holds the pod's placement, the eviction
 * strategy and domain.cpu.model. */
const kv_fixrow kv_fixrow_kubevirt = {
	.paths = {
		[VMPATH_POD] = "spec.template.spec",
		[VMPATH_NODE_SELECTOR] = "spec.template.spec.nodeSelector",
		[VMPATH_AFFINITY] = "spec.template.spec.affinity",
		[VMPATH_TOLERATIONS] = "spec.template.spec.tolerations",
		[VMPATH_EVICTION] = "spec.template.spec.evictionStrategy",
		[VMPATH_CPU_MODEL] = "spec.template.spec.domain.cpu.model",
	},
	.migrate_cli = "virtctl migrate",
	.patch_cli = "kubectl patch vm %s -n %s --type merge -p '%s'",
	.restart_cli = "virtctl restart %s -n %s",
	.kernel_note = "",
	.rwx_copy = ", or copy the disks with volume migration",
	.rwx_clone = "DataVolume",
	.rwx_after = "restart the VMs, or let volume migration "
	    "(spec.updateVolumesStrategy: Migration) copy them live",
	.cpu_object = NULL,
	.cpu_fix = NULL,
	.model_class = NULL,
	.class_patch = NULL,
	.drain_block_fix = NULL,
	.cpu_by_class = NULL,
	.class_cpu = NULL,
	.cpu_by_class_note = NULL,
	.class_cpu_missing = "no VirtualMachineClass %s in the snapshot (a "
	    "Deckhouse one)",
};

const kv_flavor kv_flavor_kubevirt = {
	.id = KV_FLAVOR_KUBEVIRT,
	.name = "kubevirt",
	.short_name = "KubeVirt",
	.api_suffix = NULL,
	.foreign_groups = no_models,
	.served_group = NULL,
	KV_KUBEVIRT_LABELS,
	/* the vendor rule: KubeVirt v1.8.0, backported to v1.6.4 and v1.7.1
	 * (versions.c SINCE_VENDOR decides by version) */
	.vendor_selector = true,
	.unlabelled_models = no_models,
	.vocab = &kubevirt_vocab,
	KV_KUBEVIRT_NOTES,
	.lack_notes = kubevirt_lack_notes,
	.fix = &kv_fixrow_kubevirt,
	.restarts = kv_restart_kubevirt,
};

const kv_flavor *const kv_flavors[KV_NFLAVORS] = {
	[KV_FLAVOR_KUBEVIRT] = &kv_flavor_kubevirt,
	[KV_FLAVOR_DECKHOUSE] = &kv_flavor_deckhouse,
	[KV_FLAVOR_HARVESTER] = &kv_flavor_harvester,
	[KV_FLAVOR_OPENSHIFT] = &kv_flavor_openshift,
};

const kv_flavor *const kv_flavor_default = &kv_flavor_kubevirt;

const kv_flavor *
kv_flavor_find(const char *name)
{
	for (size_t i = 0; name != NULL && i < KV_NFLAVORS; i++)
		if (strcmp(kv_flavors[i]->name, name) == 0)
			return kv_flavors[i];
	return NULL;
}

bool
kv_flavor_owns_group(const kv_flavor *f, const char *group)
{
	return f->api_suffix != NULL && kv_endswith(group, f->api_suffix);
}

bool
kv_flavor_foreign_group(const kv_flavor *f, const char *group)
{
	for (size_t i = 0; f->foreign_groups[i] != NULL; i++)
		if (strcmp(f->foreign_groups[i], group) == 0)
			return true;
	for (size_t i = 0; i < KV_NFLAVORS; i++)
		if (kv_flavors[i] != f &&
		    kv_flavor_owns_group(kv_flavors[i], group))
			return true;
	return false;
}

bool
kv_flavor_unlabelled_model(const kv_flavor *f, const char *model)
{
	for (size_t i = 0; f->unlabelled_models[i] != NULL; i++)
		if (strcmp(f->unlabelled_models[i], model) == 0)
			return true;
	return false;
}
