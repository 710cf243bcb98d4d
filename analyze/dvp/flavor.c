/*
 * dvp/flavor.c - the Deckhouse Virtualization Platform's row of the flavor
 * table (flavor.h): DVP's KubeVirt fork renames the label domain and the
 * kubevirt.io prefixes, has no vendor selector (a fork of v1.6) and gives
 * generic models no model label (patch 030); a DVP operator reads
 * VirtualMachine, Migratable and VirtualMachineOperation where a KubeVirt
 * operator reads VMI, LiveMigratable and VirtualMachineInstanceMigration.
 */
#include "analyze/dvp/dvp.h"

/* DVP's spelling of kubevirt.io in label and annotation keys */
#define DVP_KV "kubevirt.internal.virtualization.deckhouse.io"

static const kv_vocab dvp_vocab = {
	.vm = "VirtualMachine",
	.vms = "VirtualMachines",
	.condition = "Migratable",
	.migration = "VirtualMachineOperation",
	.policy = "liveMigrationPolicy",
	.cpu = "VirtualMachineClass CPU type",
	.config = "InternalVirtualizationKubeVirt config",
	.defaults = "the DVP default as its KubeVirt config sets none",
	.product = "Deckhouse Virtualization Platform",
	.drain_by = "DVP's Evict operations (VirtualMachineOperation type "
	    "Evict, evacuation- prefix)",
	.strategy = "evictionStrategy (LiveMigrate in DVP) and "
	    "liveMigrationPolicy",
	.target_wait = "an Evict operation whose target pod does not "
	    "schedule within 5 minutes fails, and the evacuation creates "
	    "another after a back-off of up to 5 minutes",
	.no_vendor_note = "DVP's KubeVirt (a fork of v1.6) gives a migration "
	    "target no CPU-vendor selector: a VM of a Model, "
	    "Discovery or Features class can move between Intel and "
	    "AMD nodes that both offer its CPU, so the \"all\" scope "
	    "holds for moves too; the vendor scopes show the choice "
	    "within one vendor.",
	.sync_note = " (DVP syncs one migration at a time per source node)",
};

static const kv_lack_note dvp_lack_notes[] = {
	{ "virtualmachines", "virtualization.deckhouse.io", "Migratable "
	  "conditions, classes and liveMigrationPolicy not judged" },
	{ "virtualmachineclasses", "virtualization.deckhouse.io", "class CPU "
	  "types not named" },
	{ "virtualdisks", "virtualization.deckhouse.io", "volume migration of "
	  "RWO VirtualDisks not judged" },
	{ "virtualmachineoperations", "virtualization.deckhouse.io",
	  "operations in progress not judged" },
	{ "virtualmachineblockdeviceattachments", "virtualization.deckhouse.io",
	  "block device attachments in progress not judged" },
	{ "internalvirtualizationkubevirts",
	  "internal.virtualization.deckhouse.io", "DVP defaults assumed" },
	{ "internalvirtualizationvirtualmachineinstances",
	  "internal.virtualization.deckhouse.io", "no VirtualMachine can be "
	  "judged" },
	{ "internalvirtualizationvirtualmachines",
	  "internal.virtualization.deckhouse.io", "the node affinity a "
	  "migrating VirtualMachine keeps (the KVVM's annotation) not read" },
	{ "internalvirtualizationvirtualmachineinstancemigrations",
	  "internal.virtualization.deckhouse.io", "migrations in progress "
	  "not seen" },
	{ "migrationpolicies",
	  "migrations.internal.virtualization.deckhouse.io", "DVP's "
	  "MigrationPolicies not applied" },
	{ NULL, NULL, NULL },
};

static const char *const kubevirt_groups[] = { "kubevirt.io", NULL };
/* kvbuilder: generic models get no cpu-model label (patch 030) */
static const char *const generic_models[] = { "qemu64", "kvm64", NULL };

/* DVP's VirtualMachine holds the placement, the eviction strategy and
 * (through its VirtualMachineClass) the CPU in its own spec. */
static const kv_fixrow dvp_fix = {
	.paths = {
		[VMPATH_POD] = "spec",
		[VMPATH_NODE_SELECTOR] = "spec.nodeSelector",
		[VMPATH_AFFINITY] = "spec.affinity",
		[VMPATH_TOLERATIONS] = "spec.tolerations",
		[VMPATH_EVICTION] = "spec.evictionStrategy",
		[VMPATH_CPU_MODEL] = "spec.cpu.model",
	},
	.migrate_cli = "d8 v migrate",
	/* DVP's VirtualMachine (deckhouse/virtualization
	 * api/core/v1alpha2/virtual_machine.go, VirtualMachineSpec) and
	 * d8's restart (src/cli/README.md "restart": d8 v restart myvm -n
	 * mynamespace) */
	.patch_cli = "kubectl patch "
	    "virtualmachines.virtualization.deckhouse.io %s -n %s "
	    "--type merge -p '%s'",
	.restart_cli = "d8 v restart %s -n %s",
	.kernel_note = "; DVP requires the same kernel on every node",
	.rwx_copy = "",
	.rwx_clone = "VirtualDisk",
	.rwx_after = "restart the VirtualMachines",
	.cpu_object = "VirtualMachineClass",
	.cpu_fix = "Give the VirtualMachines (%s) a VirtualMachineClass of "
	    "type Model with spec.cpu.model %s and restart them",
	.model_class = kv_dvp_model_class,
	.class_patch = "{\"spec\":{\"virtualMachineClassName\":\"%s\"}}",
	.drain_block_fix = "Fix their blockers (groups %s), or stop the "
	    "VirtualMachines before draining %s: DVP evacuates VMs by live "
	    "migration only",
	.cpu_by_class = kv_dvp_cpu_by_class,
	.class_cpu = kv_dvp_set_class_cpu,
	.cpu_by_class_note = "; on Deckhouse the CPU is the "
	    "VirtualMachineClass's: %zu VM%s given a class of type Model with "
	    "spec.cpu.model %s (their old class's CPU features go; --class-cpu "
	    "changes a class for all its VMs)",
	.class_cpu_missing = "no VirtualMachineClass %s in the snapshot (a "
	    "Deckhouse one)",
	.finish_ops = kv_dvp_finish_ops,
	.own_ops = kv_dvp_own_ops,
	.selector_owner = kv_dvp_selector_owner,
	.free_ops = kv_dvp_free_ops,
};

const kv_flavor kv_flavor_deckhouse = {
	.id = KV_FLAVOR_DECKHOUSE,
	.name = "deckhouse",
	.short_name = "Deckhouse",
	.api_suffix = "deckhouse.io",
	.foreign_groups = kubevirt_groups,
	.served_group = "virtualization.deckhouse.io",
	.label_domain = "node.virtualization.deckhouse.io",
	.kv_prefix = DVP_KV "/",
	.obsolete_key = "node-labeller.internal.virtualization.deckhouse.io/"
	    "obsolete-host-model",
	.keys = {
		[KEY_LAUNCHER] = DVP_KV,
		[KEY_CREATED_BY] = DVP_KV "/created-by",
		[KEY_JOB_UID] = DVP_KV "/migrationJobUID",
		[KEY_SKIP_NODE] = "node-labeller.virtualization.deckhouse.io/"
		    "skip-node",
		[KEY_POD_BRIDGE] = DVP_KV "/"
		    "allow-pod-bridge-network-live-migration",
		[KEY_UNSCHED_TIMEOUT] = DVP_KV "/"
		    "migrationUnschedulablePodTimeoutSeconds",
		[KEY_PENDING_TIMEOUT] = DVP_KV "/"
		    "migrationPendingPodTimeoutSeconds",
	},
	.vendor_selector = false,
	.unlabelled_models = generic_models,
	.vocab = &dvp_vocab,
	.no_config = "no InternalVirtualizationKubeVirt config in the "
	    "snapshot; DVP defaults assumed",
	.rwo_note = " (DVP moves RWO VirtualDisks only with volume "
	    "migration, Enterprise Edition)",
	.migvol_why = "VirtualDisk, volume migration",
	.lack_notes = dvp_lack_notes,
	.fix = &dvp_fix,
	.loaders = kv_dvp_loaders,
	.load_finish = kv_dvp_load_finish,
	.model_free = kv_dvp_model_free,
	.config = kv_dvp_config,
	.vmi = kv_dvp_vmi,
	.restarts = kv_dvp_restarts,
	.stopped_vms = kv_dvp_stopped_vms,
	.cross_reasons = kv_dvp_cross_reasons,
	.result_free = kv_dvp_result_free,
	.describe_volume = kv_dvp_describe_volume,
};
