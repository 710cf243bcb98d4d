/*
 * openshift/flavor.c - OpenShift Virtualization's row of the flavor table
 * (flavor.h): a distribution of plain KubeVirt (base), told from it by
 * the HyperConverged CR the collector fetches.  Labels, keys, condition
 * reasons, words and fixes are KubeVirt's (HCO deploys upstream
 * KubeVirt); what differs is the configuration the operator writes
 * (openshift/config.c).
 */
#include "analyze/openshift/openshift.h"

#include "analyze/rules/analysis.h"

static const kv_vocab openshift_vocab = {
	.vm = "VMI",
	.vms = "VMIs",
	.condition = "LiveMigratable",
	.migration = "VirtualMachineInstanceMigration",
	.policy = "MigrationPolicy",
	.cpu = "CPU model",
	.config = "KubeVirt CR",
	.product = "OpenShift Virtualization",
	.drain_by = "KubeVirt's pod eviction webhook and evacuation "
	    "controller",
	.drain_by_pdb = "KubeVirt's PodDisruptionBudgets "
	    "(kubevirt-disruption-budget-*, one per migratable VMI up to "
	    "KubeVirt v1.5, OpenShift Virtualization 4.19) and evacuation "
	    "controller",
	.strategy = "evictionStrategy",
	.target_wait = "a migration whose target pod does not schedule fails "
	    "after the unschedulable timeout and the evacuation tries again",
};

static const kv_lack_note openshift_lack_notes[] = {
	{ NULL, NULL, NULL },
};

static const char *const none[] = { NULL };

bool
kv_openshift_detect(const kv_model *m)
{
	return m->hco_present;
}

const kv_flavor kv_flavor_openshift = {
	.id = KV_FLAVOR_OPENSHIFT,
	.name = "openshift",
	.short_name = "OpenShift Virtualization",
	.api_suffix = NULL,
	.foreign_groups = none,
	.label_domain = "node.kubevirt.io",
	.kv_prefix = "kubevirt.io/",
	.obsolete_key = "node-labeller.kubevirt.io/obsolete-host-model",
	.keys = {
		[KEY_LAUNCHER] = "kubevirt.io",
		[KEY_CREATED_BY] = "kubevirt.io/created-by",
		[KEY_JOB_UID] = "kubevirt.io/migrationJobUID",
		[KEY_SKIP_NODE] = "node-labeller.kubevirt.io/skip-node",
		[KEY_POD_BRIDGE] = "kubevirt.io/"
		    "allow-pod-bridge-network-live-migration",
		[KEY_UNSCHED_TIMEOUT] = "kubevirt.io/"
		    "migrationUnschedulablePodTimeoutSeconds",
		[KEY_PENDING_TIMEOUT] = "kubevirt.io/"
		    "migrationPendingPodTimeoutSeconds",
	},
	.vendor_selector = true,	/* by version, as KubeVirt's */
	.unlabelled_models = none,
	.vocab = &openshift_vocab,
	.no_config = "no KubeVirt CR in the snapshot; the HyperConverged "
	    "operator's settings and defaults assumed",
	.rwo_note = "",
	.migvol_why = "volume migration",
	.lack_notes = openshift_lack_notes,
	.fix = &kv_fixrow_kubevirt,	/* its VMs are KubeVirt's */
	.restarts = kv_restart_kubevirt,
	.config = kv_openshift_config,
	.base = &kv_flavor_kubevirt,
	.detect = kv_openshift_detect,
};
