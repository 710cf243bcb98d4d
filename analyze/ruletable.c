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
		.flags = RULE_VOLUME_MIGRATION,
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
	{
		.code = "host-model-unsupported", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
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
	/* Harvester's migrate action (harvester/checks.c cites it) */
	{
		.code = "harvester-hostname-selector", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Pinned to one host (Harvester)",
				"Remove the kubernetes.io/hostname node "
				    "selector (Edit Config > Node Scheduling "
				    "> Run VM on any available node, or a "
				    "node affinity naming several hosts) "
				    "and restart the VM before "
				    "maintenance." },
		},
		.check = kv_harvester_check_hostname,
		.only = KV_ONLY(KV_FLAVOR_HARVESTER),
	},
	{
		.code = "harvester-device", .severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"PCIe, USB or vGPU device (Harvester)",
				"Detach the PCI, USB or vGPU devices (Edit "
				    "Config > PCI Devices, USB Devices, "
				    "vGPU Devices) and restart the VM, or "
				    "stop it for the maintenance." },
		},
		.check = kv_harvester_check_device,
		.only = KV_ONLY(KV_FLAVOR_HARVESTER),
	},
	{
		.code = "harvester-cdrom-containerdisk",
		.severity = SEV_BLOCKER,
		.verdict = V_BLOCKED, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"CD-ROM or containerDisk (Harvester "
				    "v1.4.2-v1.7)",
				"Eject the CD-ROM (the VM's Eject CD-ROM "
				    "action), replace containerDisk volumes "
				    "by volumes, or upgrade to Harvester "
				    "v1.8, whose migrate action takes them; "
				    "else stop the VM for the "
				    "maintenance." },
		},
		.check = kv_harvester_check_cdrom,
		.only = KV_ONLY(KV_FLAVOR_HARVESTER),
	},
	{
		.code = "passthrough-cpu-differs", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_NODES) |
		    KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_VMCLASSES] = WHEN_FLAVOR },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"host-passthrough across different CPUs",
				"Keep host-passthrough VMIs on identical "
				    "hardware (a node selector on the CPU "
				    "class), or use host-model or a named "
				    "model." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Keep VMs of a HostPassthrough class on "
				    "identical hardware (a nodeSelector on "
				    "the class), or use a Host, Model or "
				    "Discovery class." },
		},
		.check = check_passthrough,
	},
	{
		.code = "block-migration", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Local disks copied during migration",
				"Expect a longer migration; move local "
				    "disks to RWX PVCs if the copy is too "
				    "slow." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Expect a longer migration; move the "
				    "disks to ReadWriteMany storage if the "
				    "copy is too slow." },
		},
		.check = check_block_migration,
	},
	{
		.code = "pod-network-reconnect", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.flags = RULE_ONCE_PER_CLUSTER,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Pod network connections reset",
				"Established connections drop and new "
				    "ones fail for a few seconds after the "
				    "switch-over; schedule accordingly." },
		},
		.check = check_reconnect,
	},
	{
		.code = "stale-vendor-label", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_NODES),
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"More than one CPU vendor label",
				"Delete the stale cpu-vendor label from "
				    "the node: KubeVirt never removes it." },
		},
		.check = check_stale_vendor,
	},
	{
		.code = "kernel-differs", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_NODES),
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Targets run another kernel",
				"Keep the nodes on one kernel (and "
				    "QEMU/libvirt) version, or keep the VMI "
				    "on nodes of the source's version with a "
				    "node selector until the upgrade is "
				    "done." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Upgrade the nodes to one kernel version "
				    "before migrating: DVP requires the same "
				    "Linux kernel on every node, as "
				    "differences break the migration." },
		},
		.check = check_kernel_differs,
	},
	{
		.code = "guest-cpu-floor", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.needs = KV_NEED_BIT(NEED_NODES) |
		    KV_NEED_BIT(NEED_VMCLASSES),
		.when = { [NEED_VMCLASSES] = WHEN_FLAVOR },
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Guest OS needs a higher x86-64 level",
				"Give the VM a CPU model of at least the "
				    "level its OS needs (RHEL 10 and its "
				    "rebuilds: x86-64-v3, e.g. "
				    "Haswell-noTSX-IBRS or later; RHEL 9: "
				    "x86-64-v2) in "
				    "spec.template.spec.domain.cpu.model, or "
				    "keep it on host-model; the guest does "
				    "not boot below its level." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Give the VM a VirtualMachineClass whose "
				    "CPU reaches the level its OS needs "
				    "(RHEL 10 and its rebuilds: x86-64-v3; "
				    "RHEL 9: x86-64-v2), e.g. type Model "
				    "with a newer model or type Discovery on "
				    "nodes of that level; a class change "
				    "needs a restart of the VM." },
		},
		.check = check_guest_cpu_floor,
	},
	{
		.code = "disks-should-be-migrating", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Local VirtualDisks are copied with the "
				    "VM",
				"Expect a longer migration; make sure "
				    "the disk's storage class can provision "
				    "a volume on the target node, or move "
				    "the VirtualDisk to a ReadWriteMany "
				    "storage class." },
		},
		.check = kv_dvp_check_disks_should_migrate,
		.needs = KV_NEED_BIT(NEED_VDISKS),
		.when = { [NEED_VDISKS] = WHEN_FLAVOR },
	},
	{
		.code = "block-device-attachment-pending",
		.severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_TARGETS,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Disk attachment in progress",
				"Let the "
				    "VirtualMachineBlockDeviceAttachment "
				    "reach Attached (or delete it) before "
				    "migrating: a migration waits for it at "
				    "most 5 minutes." },
		},
		.check = kv_dvp_check_bda_pending,
		.needs = KV_NEED_BIT(NEED_VMBDAS),
		.when = { [NEED_VMBDAS] = WHEN_FLAVOR },
	},
	{
		.code = "eviction-blocks-drain", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_DRAIN,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Drain waits forever",
				"Fix the blockers, or set "
				    "evictionStrategy LiveMigrateIfPossible "
				    "or None for this VMI before the drain." },
			[KV_FLAVOR_DECKHOUSE] = {
				NULL,
				"Fix the blockers, or stop the "
				    "VirtualMachine before the drain: DVP "
				    "evacuates VMs by live migration only." },
		},
		.check = check_eviction_blocks,
	},
	{
		.code = "eviction-shutdown", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_DRAIN,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Drain stops the VM",
				"Set evictionStrategy LiveMigrate on the "
				    "VMI (or cluster-wide) if the VM must "
				    "survive maintenance." },
		},
		.check = check_eviction_shutdown,
	},
	{
		.code = "migration-will-abort", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_ESTIMATE,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Migration aborted at its deadline",
				"Let the migration finish: a "
				    "MigrationPolicy for these VMIs with "
				    "allowPostCopy true (not for VMIs with "
				    "host devices or GPUs), else a "
				    "completionTimeoutPerGiB that covers the "
				    "copy, else more bandwidthPerMigration; "
				    "`check --groups` names the one that "
				    "helps." },
		},
		.check = kv_check_migration_will_abort,
		.grouping = &kv_grp_migration,
	},
	{
		.code = "migration-at-risk", .severity = SEV_WARNING,
		.verdict = 0, .phase = PHASE_ESTIMATE,
		.words = {
			[KV_FLAVOR_KUBEVIRT] = {
				"Migration may be aborted at its deadline",
				"Measure the guest's dirty rate (the "
				    "collector's Prometheus extract) or give "
				    "these VMIs a MigrationPolicy with "
				    "allowPostCopy true, a larger "
				    "completionTimeoutPerGiB or more "
				    "bandwidthPerMigration; `check --groups` "
				    "names the one that helps." },
		},
		.check = kv_check_migration_at_risk,
		.grouping = &kv_grp_migration,
	},
};

const size_t kv_nrules = sizeof(kv_rules) / sizeof(kv_rules[0]);
