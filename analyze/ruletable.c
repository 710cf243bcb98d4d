/*
 * ruletable.c - the rule table (rule.h): one row per blocker and warning code
 * of docs/findings.md, in the order the glossary shows them.
 * The check functions are in checks.c (KubeVirt), dvp/checks.c
 * (Deckhouse) and harvester/checks.c (Harvester), the groupings in
 * groups.h; the rows are the only place that lists codes.
 */
#include "analyze/checks/checks.h"
#include "analyze/dvp/dvp.h"
#include "analyze/harvester/harvester.h"
#include "analyze/decide/groups.h"
#include "analyze/estimate/estimate.h"

const kv_rule kv_rules[] = {
	{
		.code = "network-pod-bridge", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Pod network bound with bridge",
				"Bind the pod network with masquerade "
				    "(or passt), or annotate the VMI with "
				    "kubevirt.io/"
				    "allow-pod-bridge-network-live-migration "
				    "if the guest can take a new address "
				    "after the move." },
		},
		.check = check_pod_bridge,
		.grouping = &kv_grp_pod_bridge,
	},
	{
		.code = "network-binding", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = { "InterfaceNotLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Pod network binding cannot migrate",
				"Use masquerade or passt on the pod "
				    "network, or give the binding plugin a "
				    "migration setting in the KubeVirt CR "
				    "(spec.configuration.network.binding."
				    "<name>.migration)." },
		},
		.check = check_binding,
		.grouping = &kv_grp_binding,
	},
	{
		.code = "disk-not-shared", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_PVCS) | KV_NEED_BIT(NEED_VDISKS),
		.when = { [NEED_PVCS] = WHEN_CLAIM_UNDESCRIBED,
		    [NEED_VDISKS] = WHEN_FLAVOR },
		.flags = RULE_BY_VERSION | RULE_VOLUME_MIGRATION,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = { "DisksNotLiveMigratable" },
			[KV_FLAVOR_DECKHOUSE] = {
				"VirtualMachineDisksNotMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Disk not ReadWriteMany",
				"Move the disk to a ReadWriteMany PVC (a "
				    "storage class or StorageProfile that "
				    "offers RWX), or use volume migration to "
				    "copy it; RWO is refused even when the "
				    "backend is NFS." },
			[KV_FLAVOR_DECKHOUSE] = {
				"VirtualDisk not ReadWriteMany",
				"Move the VirtualDisk to a ReadWriteMany "
				    "storage class, or use the Enterprise "
				    "Edition, whose volume migration copies "
				    "RWO VirtualDisks to the target node." },
		},
		.check = check_disk_not_shared,
		.grouping = &kv_grp_claim_rwx,
	},
	{
		.code = "disk-claim-unknown", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_PVCS),
		.when = { [NEED_PVCS] = WHEN_CLAIM_UNDESCRIBED },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Disk claim cannot be resolved",
				"Check that the PVC exists and is bound; "
				    "collect the snapshot with permission to "
				    "list PVCs." },
		},
		.check = check_claim_unknown,
		.grouping = &kv_grp_claim_unknown,
	},
	{
		.code = "hostdisk-not-shared", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"hostDisk not shared",
				"Set shared: true only if the hostDisk "
				    "path is on storage every node sees; "
				    "otherwise move the disk to an RWX PVC." },
		},
		.check = check_hostdisk,
		.grouping = &kv_grp_hostdisk,
	},
	{
		.code = "host-device", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = {
				"HostDeviceNotLiveMigratable" },
			[KV_FLAVOR_DECKHOUSE] = {
				"VirtualMachineHostDevicesNotMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Host device or GPU",
				"Remove the PCI host device or GPU "
				    "before maintenance, or enable "
				    "VGPULiveMigration with a permitted "
				    "mediated device." },
			[KV_FLAVOR_DECKHOUSE] = {
				"Host device, GPU or USB device",
				"Detach the device from the "
				    "VirtualMachine before maintenance, or "
				    "plan a restart on another node." },
		},
		.check = check_host_device,
		.grouping = &kv_grp_device,
	},
	{
		.code = "launch-security", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = {
				"SEVNotLiveMigratable",
				"TDXNotLiveMigratable",
				"SecureExecutionNotLiveMigratable"
			},
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Confidential computing",
				"SEV, SEV-SNP, TDX and Secure Execution "
				    "guests cannot migrate: plan a shutdown "
				    "and restart on another node." },
		},
		.check = check_launch_security,
		.grouping = &kv_grp_launch_security,
	},
	{
		.code = "tsc-frequency", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = {
				"NoTSCFrequencyNotLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"No TSC frequency for reenlightenment",
				"Make sure nodes carry cpu-timer "
				    "tsc-frequency labels (or set "
				    "minimumClusterTSCFrequency) so the VMI "
				    "gets a TSC hint, or disable Hyper-V "
				    "reenlightenment." },
			[KV_FLAVOR_DECKHOUSE] = {
				"Windows VM without a TSC frequency",
				"DVP enables Hyper-V reenlightenment for "
				    "osType Windows: make sure the nodes "
				    "carry "
				    "cpu-timer.node.virtualization."
				    "deckhouse.io "
				    "tsc-frequency labels so the VM gets a "
				    "TSC hint (restart it)." },
		},
		.check = check_tsc,
		.grouping = &kv_grp_tsc,
	},
	{
		.code = "hyperv-passthrough", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = {
				"HypervPassthroughNotLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Hyper-V passthrough",
				"Replace hypervPassthrough with an "
				    "explicit list of Hyper-V "
				    "enlightenments." },
		},
		.check = check_hyperv_passthrough,
		.grouping = &kv_grp_hyperv,
	},
	/* reasons older versions report (versions.c, checks_old.c) */
	{
		.code = "virtiofs", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = { "VirtIOFSNotLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"virtiofs filesystem (KubeVirt up to v1.4)",
				"Upgrade KubeVirt to v1.5 or later, which "
				    "migrates virtiofs shares, or remove the "
				    "filesystem and use a disk." },
		},
		.check = check_virtiofs,
	},
	{
		.code = "dedicated-cpu-emulator-thread",
		.severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = {
				"DedicatedCPUNotLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Dedicated CPUs with an isolated emulator "
				    "thread (KubeVirt v0.58.1-v1.0.1)",
				"Upgrade KubeVirt to v0.59.2 or v1.1.0 or "
				    "later, or drop isolateEmulatorThread." },
		},
		.check = check_dedicated_emulator,
	},
	{
		.code = "persistent-reservation", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = {
				"PersistentReservationNotLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"SCSI persistent reservation (KubeVirt "
				    "v1.0-v1.8)",
				"Remove reservation: true from the LUN disk, "
				    "or upgrade KubeVirt to v1.9, whose "
				    "LiveMigratable no longer refuses it." },
		},
		.check = check_persistent_reservation,
	},
	{
		.code = "backend-storage-rwo", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Backend storage PVC is not RWX (KubeVirt "
				    "v1.3)",
				"Give the persistent TPM/EFI backend storage "
				    "a ReadWriteMany storage class "
				    "(spec.configuration.vmStateStorageClass), "
				    "or upgrade KubeVirt to v1.4, which copies "
				    "an RWO backend PVC to the target." },
		},
		.check = check_backend_storage,
	},
	/* before v1.0 (versions.c, checks_old.c) */
	{
		.code = "sriov-interface", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"SR-IOV interface (KubeVirt v0.39-v0.56)",
				"Enable the SRIOVLiveMigration feature gate "
				    "(v0.40-v0.56), or upgrade KubeVirt to "
				    "v0.57 or later, which migrates SR-IOV "
				    "interfaces." },
		},
		.check = check_sriov,
	},
	{
		.code = "sriov-unchecked", .severity = SEV_BLOCKER,
		.verdict = V_WILL_FAIL, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"SR-IOV interface (KubeVirt before v0.39)",
				"Detach the SR-IOV interface before "
				    "maintenance, or upgrade KubeVirt to "
				    "v0.57 or later." },
		},
		.check = check_sriov_unchecked,
	},
	{
		.code = "cdrom-readonly-copied", .severity = SEV_BLOCKER,
		.verdict = V_WILL_FAIL, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Read-only CD-ROM copied by the block "
				    "migration (KubeVirt before v0.36.3 / "
				    "v0.41)",
				"Upgrade KubeVirt to v0.36.3, v0.41 or "
				    "later, which skips CD-ROMs, or attach "
				    "the data as a disk." },
		},
		.check = check_cdrom_copied,
	},
	{
		.code = "containerdisk-status-image",
		.severity = SEV_BLOCKER,
		.verdict = V_WILL_FAIL, .phase = PHASE_TARGETS,
		/* reads the pods as the digest checks do, which say when
		 * they are lacking */
		.flags = RULE_BY_VERSION,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"containerDisk image reported without "
				    "repository (KubeVirt before v0.58)",
				"Upgrade KubeVirt to v0.58 or later, which "
				    "takes the image name from the VMI, or use "
				    "a container runtime that reports the "
				    "pulled reference." },
		},
		.check = check_digest_status_image,
	},
	{
		.code = "host-model-unsupported", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_NODES) |
		    KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_VMCLASSES] = WHEN_FLAVOR },
		.reasons = {
			[KV_FLAVOR_KUBEVIRT] = { "CPUModeLiveMigratable" },
		},
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Source node has no host-model CPU",
				"Use a named CPU model or "
				    "host-passthrough for VMIs on this node." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Use a VirtualMachineClass of type "
				    "Model, Discovery or Features for VMs on "
				    "this node." },
		},
		.check = check_host_model_unsupported,
		.grouping = &kv_grp_cpu,
	},
	{
		.code = "no-cpu-target", .severity = SEV_BLOCKER,
		.verdict = V_NO_TARGET, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_NODES) |
		    KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_VMCLASSES] = WHEN_FLAVOR },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"No node satisfies the CPU selectors",
				"Use a named CPU model that the intended "
				    "targets support (the report's table of "
				    "named models and their trade-offs, or "
				    "kvscope models SNAPSHOT, lists them), or "
				    "add a node of the same CPU class." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Use a VirtualMachineClass whose CPU the "
				    "intended targets support (Discovery, "
				    "Model or Features suit mixed nodes; see "
				    "the class's availableNodes), or add a "
				    "node of the same CPU; a class change "
				    "needs a restart of the VM." },
		},
		.check = check_no_cpu_target,
		.grouping = &kv_grp_cpu,
	},
	{
		.code = "no-placement-target", .severity = SEV_BLOCKER,
		.verdict = V_NO_TARGET, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_NODES) | KV_NEED_BIT(NEED_PODS) |
		    KV_NEED_BIT(NEED_VDISKS) | KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_PODS] = WHEN_POD_PLACEMENT,
		    [NEED_VDISKS] = WHEN_FLAVOR,
		    [NEED_VMCLASSES] = WHEN_FLAVOR },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"No node satisfies every placement "
				    "constraint",
				"Uncordon a node, add a toleration, "
				    "relax the node selector or affinity "
				    "(node or pod affinity, topology spread), "
				    "or free memory on a CPU-compatible "
				    "node." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Uncordon a node, relax the "
				    "VirtualMachine's or its class's "
				    "nodeSelector, affinity or tolerations, "
				    "or free memory on a CPU-compatible "
				    "node." },
		},
		.check = check_no_placement,
		.grouping = &kv_grp_placement,
	},
	{
		.code = "no-capacity", .severity = SEV_BLOCKER,
		.verdict = V_NO_TARGET, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_NODES) | KV_NEED_BIT(NEED_PODS) |
		    KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_VMCLASSES] = WHEN_FLAVOR },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"No placeable node has room",
				"Free CPU, memory or pod slots on a node "
				    "that takes the target pod (move or "
				    "scale down other workloads there), "
				    "lower the VMI's resource requests, or "
				    "add a node of the same CPU class." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Free CPU, memory or pod slots on a node "
				    "that takes the VM (move or scale down "
				    "other workloads there), give the "
				    "VirtualMachine smaller cpu or memory "
				    "(a restart applies it), or add a node "
				    "that its VirtualMachineClass allows." },
		},
		.check = check_no_capacity,
		.grouping = &kv_grp_capacity,
	},
	{
		.code = "source-host-model-label-missing",
		.severity = SEV_BLOCKER,
		.verdict = V_STUCK, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_NODES) |
		    KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_VMCLASSES] = WHEN_FLAVOR },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Source node lacks its host-model label",
				"Let the node labeller label the node "
				    "(remove the skip-node annotation, check "
				    "virt-handler), or use a named CPU "
				    "model." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Let virt-handler label the node (remove "
				    "the "
				    "node-labeller.virtualization."
				    "deckhouse.io/skip-node "
				    "annotation), or use a class of type "
				    "Model, Discovery or Features." },
		},
		.check = check_host_model_label,
		.grouping = &kv_grp_host_model_label,
	},
	{
		.code = "containerdisk-config-digest", .severity = SEV_BLOCKER,
		.verdict = V_WILL_FAIL, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_PODS),
		.when = { [NEED_PODS] = WHEN_CONTAINERDISK },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"containerDisk image without repository "
				    "digest",
				"Push the containerDisk image to a "
				    "registry and reference it by digest (or "
				    "pull it on the node from the registry) "
				    "instead of side-loading it." },
		},
		.check = check_digest_config,
		.grouping = &kv_grp_image_config,
	},
	{
		.code = "containerdisk-no-digest", .severity = SEV_BLOCKER,
		.verdict = V_STUCK, .phase = PHASE_TARGETS,
		.flags = RULE_BY_VERSION,
		.needs = KV_NEED_BIT(NEED_PODS),
		.when = { [NEED_PODS] = WHEN_CONTAINERDISK },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"containerDisk image without digest",
				"Use a container runtime that reports "
				    "image digests, or reference the image "
				    "by @sha256 digest." },
		},
		.check = check_digest_none,
		.grouping = &kv_grp_image_none,
	},
	{
		.code = "multiple-launcher-pods", .severity = SEV_BLOCKER,
		.verdict = V_STUCK, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_PODS),
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"More than one active launcher pod",
				"Delete the launcher pods of the VMI that "
				    "are not on its node (status.nodeName): "
				    "a target pod an ended migration left "
				    "behind, or force-delete one stuck "
				    "terminating on a lost node; then "
				    "virt-controller creates the target pod." },
		},
		.check = check_active_pods,
	},
	{
		.code = "vmop-in-progress", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_OPERATION_SCOPED,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Another VirtualMachineOperation is "
				    "unfinished",
				"Wait for the operation to finish, or "
				    "delete it while it is Pending or "
				    "InProgress to cancel it; then create "
				    "the Migrate operation (d8 v migrate)." },
		},
		.check = kv_dvp_check_vmop_in_progress,
		.needs = KV_NEED_BIT(NEED_VMOPS),
		.when = { [NEED_VMOPS] = WHEN_FLAVOR },
		.grouping = &kv_grp_operation,
	},
	{
		.code = "live-migration-policy-force", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.flags = RULE_OPERATION_SCOPED,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"force conflicts with liveMigrationPolicy",
				"Create the operation without force "
				    "(AlwaysSafe) or with force "
				    "(AlwaysForced), or change the VM's "
				    "liveMigrationPolicy to PreferSafe or "
				    "PreferForced." },
		},
		.check = kv_dvp_check_policy_force,
		.needs = KV_NEED_BIT(NEED_VMOPS),
		.when = { [NEED_VMOPS] = WHEN_FLAVOR },
		.grouping = &kv_grp_force,
	},
	{
		.code = "vmop-not-applicable", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"VirtualMachine not in a state to migrate",
				"Migrate only a Running VirtualMachine "
				    "whose runPolicy is not AlwaysOff; wait "
				    "for a migration or start in progress to "
				    "end." },
		},
		.check = kv_dvp_check_vmop_not_applicable,
		.grouping = &kv_grp_condition,
	},
	{
		.code = "vm-not-migratable", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_CONDITION,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"VirtualMachine is not Migratable",
				"Read the Migratable condition's message "
				    "(d8 k get vm -o wide) and remove its "
				    "cause; DVP runs no migration while it "
				    "is False." },
		},
		.check = kv_dvp_check_vm_not_migratable,
		.grouping = &kv_grp_condition,
	},
	/* the later families: Harvester, risks, before v1.0, the
	 * migration estimate */
#include "analyze/ruletable_late.def"
};

const size_t kv_nrules = sizeof(kv_rules) / sizeof(kv_rules[0]);
