/*
 * harvester/flavor.c - Harvester's row of the flavor table (flavor.h): a
 * distribution of plain KubeVirt (base), told from it by the
 * harvesterhci.io settings the collector fetches.  Labels, keys and
 * condition reasons are KubeVirt's; the words name Harvester where its
 * own actions act (the migrate action, maintenance mode).
 */
#include "analyze/harvester/harvester.h"

#include "analyze/rules/analysis.h"

static const kv_vocab harvester_vocab = {
	.vm = "VMI",
	.vms = "VMIs",
	.condition = "LiveMigratable",
	.migration = "VirtualMachineInstanceMigration",
	.policy = "MigrationPolicy",
	.cpu = "CPU model",
	.config = "KubeVirt CR",
	.product = "Harvester",
	.drain_by = "Harvester's maintenance mode (a node drain through "
	    "KubeVirt's eviction webhook and evacuation controller)",
	.drain_by_pdb = "Harvester's maintenance mode and KubeVirt's "
	    "PodDisruptionBudgets (kubevirt-disruption-budget-*, up to "
	    "KubeVirt v1.5)",
	.strategy = "evictionStrategy",
	.target_wait = "a migration whose target pod does not schedule fails "
	    "after the unschedulable timeout and the evacuation tries again",
};

static const kv_lack_note harvester_lack_notes[] = {
	{ NULL, NULL, NULL },
};

static const char *const none[] = { NULL };

bool
kv_harvester_detect(const kv_model *m)
{
	return m->harvester_present || m->harvester_version != NULL;
}

const kv_flavor kv_flavor_harvester = {
	.id = KV_FLAVOR_HARVESTER,
	.name = "harvester",
	.short_name = "Harvester",
	.api_suffix = NULL,
	.foreign_groups = none,
	.served_group = NULL,
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
	.vocab = &harvester_vocab,
	.no_config = "no KubeVirt CR in the snapshot; KubeVirt defaults "
	    "assumed",
	.rwo_note = "",
	.migvol_why = "volume migration",
	.lack_notes = harvester_lack_notes,
	.fix = &kv_fixrow_kubevirt,	/* its VMs are KubeVirt's */
	.restarts = kv_restart_kubevirt,
	.base = &kv_flavor_kubevirt,
	.detect = kv_harvester_detect,
};
