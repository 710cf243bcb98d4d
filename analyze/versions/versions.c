/*
 * versions.c - the version table (kvversion.h): one row per behaviour
 * that differs between KubeVirt releases, with the versions that have it
 * (backports first) and what applies before.  The checks ask the row
 * (a->cfg.since[]), never compare versions themselves.
 *
 * The "since" of every row was checked at every upstream patch tag
 * (docs/versions.mdthe R numbers below); the
 * source named is the upstream tag and path:line that first has it.
 */
#include "analyze/versions/kvversion.h"

#include <stdio.h>
#include <string.h>

#define V(a, b, c) { a, b, c }

const kv_since kv_since_rows[SINCE_COUNT] = {
	[SINCE_MACHINE_TYPE] = {
		SINCE_MACHINE_TYPE, "machine-type-selector",
		{ V(1, 5, 1), V(1, 6, 0) },
		"the target pod needs machine-type.<domain>/<machine type>",
		"no machine-type selector (never in 1.4.x)", 0, 0,
		"machine-type.",
		/* R9: PR #13690; v1.5.1 pkg/virt-controller/services/
		 * template.go:699 + nodeselectorrenderer.go:130, v1.6.0
		 * nodeselectorrenderer.go:142; absent at v1.5.0, v1.4.1 */
		"kubevirt v1.5.1 pkg/virt-controller/services/"
		    "template.go:699" },
	[SINCE_VENDOR] = {
		SINCE_VENDOR, "cpu-vendor-selector",
		{ V(1, 6, 4), V(1, 7, 1), V(1, 8, 0) },
		"the target pod needs the source node's cpu-vendor label",
		"no vendor constraint: Intel and AMD targets both allowed",
		0, 0, NULL,
		/* R4: PR #16060, backports 2538a3ea7c (v1.6.4),
		 * 7c53616c94 (v1.7.1): the CPUModelVendorLabel copy at
		 * v1.6.4 migration.go:2309, v1.7.1 :2373, v1.8.0 :2572;
		 * absent at v1.6.3 and v1.7.0 */
		"kubevirt v1.6.4 pkg/virt-controller/watch/migration/"
		    "migration.go:2309" },
	[SINCE_SELECTOR_TRUE] = {
		SINCE_SELECTOR_TRUE, "realtime-sev-selector-true",
		{ V(1, 5, 0) },
		"kubevirt.io/realtime, sev, sev-es selectors want \"true\"",
		"the VMI webhook writes them with the value \"\"", 0, 0,
		NULL,
		/* R10: v1.4.1 pkg/virt-api/webhooks/mutating-webhook/
		 * mutators/vmi-mutator.go:91,95 before */
		"kubevirt v1.5.0 pkg/virt-controller/services/"
		    "nodeselectorrenderer.go:68-74" },
	[SINCE_LABEL_TRUE] = {
		SINCE_LABEL_TRUE, "realtime-sev-label-true",
		{ V(1, 5, 3), V(1, 6, 0) },
		"the node labeller writes realtime/sev labels \"true\"",
		"the node labeller writes them \"\" (v1.5.2 "
		    "node_labeller.go:289,293)", 0, 0, NULL,
		/* R10: PR #14941 */
		"kubevirt v1.6.0 pkg/virt-handler/node-labeller/"
		    "node_labeller.go" },
	[SINCE_POD_BRIDGE] = {
		SINCE_POD_BRIDGE, "pod-bridge-annotation",
		{ V(1, 0, 0) },
		"bridge on the pod network migrates with the "
		    "allow-pod-bridge-network-live-migration annotation",
		"only masquerade migrates on the pod network "
		    "(v0.59.2 pkg/virt-handler/vm.go:2284-2291)", 0, 0, NULL,
		/* R12: PR #9193 */
		"kubevirt v1.0.0 pkg/virt-handler/vm.go:2367-2368" },
	[SINCE_BINDING_PLUGINS] = {
		SINCE_BINDING_PLUGINS, "binding-plugin-migration",
		{ V(1, 2, 0) },
		"a binding plugin with a migration setting migrates",
		"no binding plugin migrates", 0, 0, NULL,
		/* R12: PR #11064 */
		"kubevirt v1.2.0 pkg/network/vmispec" },
	[SINCE_PASST] = {
		SINCE_PASST, "passt-binding",
		{ V(1, 8, 0) },
		"passtBinding on the pod network migrates",
		"passt is no migratable pod-network binding", 0, 0, NULL,
		/* R12: PR #16475 */
		"kubevirt v1.8.0 pkg/network/vmispec/interface.go:58-74" },
	[SINCE_COMPLETION_150] = {
		SINCE_COMPLETION_150, "completion-timeout-default",
		{ V(1, 4, 0) },
		"completionTimeoutPerGiB defaults to 150 s",
		"completionTimeoutPerGiB defaults to 800 s "
		    "(v1.3.1 pkg/virt-config/virt-config.go:45)", 150, 800,
		NULL,
		/* R31: PR #12848; v1.3.1 virt-config.go:45 = 800 */
		"kubevirt v1.4.0 pkg/virt-config/virt-config.go:44" },
	[SINCE_NO_PDB] = {
		SINCE_NO_PDB, "drain-without-pdb",
		{ V(1, 6, 0) },
		"drains meet the eviction webhook, no PodDisruptionBudget",
		"virt-controller guards each migratable VMI with a "
		    "kubevirt-disruption-budget-* PodDisruptionBudget "
		    "(v1.5.3 pkg/virt-controller/watch/drain/"
		    "disruptionbudget/disruptionbudget.go:492)", 0, 0, NULL,
		/* R29: PR #13764 */
		"kubevirt v1.6.0 pkg/virt-controller/watch/drain" },
	[SINCE_ADDED_SELECTOR] = {
		SINCE_ADDED_SELECTOR, "vmim-added-node-selector",
		{ V(1, 6, 0) },
		"VMIM spec.addedNodeSelector narrows the targets",
		"the field does not exist", 0, 0, NULL,
		/* R37: PR #12725 */
		"kubevirt v1.6.0 staging/src/kubevirt.io/api/core/v1/"
		    "types.go" },
	[SINCE_VIRTIOFS_OK] = {
		SINCE_VIRTIOFS_OK, "virtiofs-migrates",
		{ V(1, 5, 0) },
		"virtiofs filesystems do not block migration",
		"virtiofs sets VirtIOFSNotLiveMigratable (v1.4.1 "
		    "pkg/virt-handler/vm.go:1642)", 0, 0, NULL,
		/* R15: PR #13756 */
		"kubevirt v1.5.0 pkg/virt-handler/vm.go:2495" },
	[SINCE_DEDICATED_OK] = {
		SINCE_DEDICATED_OK, "dedicated-cpu-emulator-thread-migrates",
		{ V(0, 59, 2), V(1, 1, 0) },
		"dedicated CPUs with isolateEmulatorThread do not block",
		"v0.58.1-v1.0.1 set DedicatedCPUNotLiveMigratable (v1.0.1 "
		    "pkg/virt-handler/vm.go:1481)", 0, 0, NULL,
		/* R16: PR #9722 (65848ff95d), never tagged on release-1.0 */
		"kubevirt v1.1.0 pkg/virt-handler/vm.go" },
	[SINCE_PR_OK] = {
		SINCE_PR_OK, "persistent-reservation-migrates",
		{ V(1, 9, 0) },
		"SCSI persistent reservation no longer sets LiveMigratable",
		"v1.0.0-v1.8.4 set PersistentReservationNotLiveMigratable",
		0, 0, NULL,
		/* R17: PR #17505 (6e459496c5); v1.8.4 vm.go:1222 in the
		 * LiveMigratable calculation, v1.9.0 vm.go:1390 only in
		 * calculateLiveStorageMigrationCondition */
		"kubevirt v1.9.0 pkg/virt-handler/vm.go:1390" },
	[SINCE_VMOP_SELECTOR] = {
		SINCE_VMOP_SELECTOR, "vmop-node-selector",
		{ V(1, 6, 0) },
		"a Migrate/Evict VirtualMachineOperation's spec.migrate."
		    "nodeSelector narrows the targets (DVP copies it into the "
		    "VMIM's addedNodeSelector)",
		"the forks of KubeVirt 1.3.1 (DVP before v1.4.0) have no "
		    "addedNodeSelector and DVP no such field: not applied",
		0, 0, NULL,
		/* deckhouse/virtualization: the field appears in v1.5.0
		 * api/core/v1alpha2/virtual_machine_operation.go:95 (absent
		 * at v1.4.0), copied at v1.5.0 images/virtualization-artifact/
		 * pkg/controller/vmop/migration/internal/service/
		 * migration.go:83; forks by build/components/versions.yml
		 * (v1.3.0: v1.3.1-v12n.25, v1.4.0: v1.6.2-v12n.5.1) */
		"deckhouse/virtualization v1.5.0 images/virtualization-"
		    "artifact/pkg/controller/vmop/migration/internal/service/"
		    "migration.go:83" },
	[SINCE_DISRUPTION] = {
		SINCE_DISRUPTION, "workload-disruption",
		{ V(1, 5, 0) },
		"past the completion deadline, allowWorkloadDisruption "
		    "(following allowPostCopy when unset) lets KubeVirt start "
		    "post-copy or pause the guest instead of aborting",
		"past the deadline only allowPostCopy helps (post-copy); "
		    "otherwise the migration is aborted (v1.4.0 live-"
		    "migration-source.go)", 0, 0, NULL,
		/* v1.5.0 pkg/virt-launcher/virtwrap/live-migration-
		 * source.go:457 shouldAssistMigrationToComplete; v1.9.0
		 * :743-792, and pkg/virt-handler/migration-source.go:
		 * 527-531 (unset follows allowPostCopy); absent at v1.4.0 */
		"kubevirt v1.5.0 pkg/virt-launcher/virtwrap/"
		    "live-migration-source.go:457" },
	[SINCE_CPUMANAGER_KEY] = {
		SINCE_CPUMANAGER_KEY, "cpumanager-label-key",
		{ V(1, 8, 0) },
		"a dedicated-CPU launcher pod selects kubevirt.io/cpumanager="
		    "true (virt-handler writes it and cpumanager)",
		"it selects cpumanager=true, the only key virt-handler "
		    "writes (v1.7.4 staging/src/kubevirt.io/api/core/v1/"
		    "types.go:1221)", 0, 0, NULL,
		/* v1.2.2 types.go:908 and v1.7.0 types.go:1219 CPUManager =
		 * "cpumanager", rendered by nodeselectorrenderer.go (v1.2.2
		 * :46-48, v1.7.0 :56) and written by heartbeat.go (v1.7.0
		 * :110); v1.8.0 types.go:1200-1201 renames it
		 * (DeprecatedCPUManager = "cpumanager") and heartbeat.go
		 * :110-111 writes both; no 1.7.x patch has it (v1.7.4
		 * types.go:1221) */
		"kubevirt v1.8.0 staging/src/kubevirt.io/api/core/v1/"
		    "types.go:1200-1201" },
	[SINCE_ACTIVE_PODS] = {
		SINCE_ACTIVE_PODS, "active-pods-precondition",
		{ V(0, 41, 0) },
		"virt-controller creates no target pod while more than one "
		    "pod of the VMI is active",
		"no such precondition (v0.40.1 pkg/virt-controller/watch/"
		    "migration.go)", 0, 0, NULL,
		/* absent at v0.40.0, v0.40.1; v0.41.0 :476, v1.3.1 :1003,
		 * v1.9.0 watch/migration/migration.go:1354-1357 */
		"kubevirt v0.41.0 pkg/virt-controller/watch/migration.go:476" },
	[SINCE_DECENTRALIZED] = {
		SINCE_DECENTRALIZED, "decentralized-live-migration",
		{ V(1, 6, 0) },
		"a VMI live-migrates to another cluster (VMIM spec.sendTo "
		    "and spec.receive) with the Alpha feature gate "
		    "DecentralizedLiveMigration",
		"no migration between clusters (absent at v1.5.0)", 0, 0,
		NULL,
		/* the gate Alpha at v1.6.0 featuregate/active.go:92,155,
		 * v1.7.0 :106,183, v1.9.0 :123,315; the VMIM fields at
		 * v1.6.0 staging/src/kubevirt.io/api/core/v1/types.go:
		 * 1632-1634; neither at v1.5.0 */
		"kubevirt v1.6.0 pkg/virt-config/featuregate/active.go:"
		    "92,155" },
	/* Before v1.0: read at each tag named (docs/versions.md, "Before
	 * v1.0"); paths are kubevirt/kubevirt's. */
	[SINCE_KUBEVIRT_CPU_LABELS] = {
		SINCE_KUBEVIRT_CPU_LABELS, "kubevirt-cpu-label-keys",
		{ V(0, 40, 0) },
		"named-model selectors are cpu-model.<domain>/<M> and "
		    "cpu-feature.<domain>/<F>",
		"they are node-feature-discovery's feature.node.kubernetes.io/"
		    "cpu-model-<M> and cpu-feature-<F> (v0.39.0 pkg/virt-"
		    "controller/services/template.go:77-78)", 0, 0, NULL,
		"kubevirt v0.40.0 pkg/virt-controller/services/"
		    "template.go:78-79" },
	[SINCE_CPU_UNGATED] = {
		SINCE_CPU_UNGATED, "cpu-selectors-ungated",
		{ V(0, 55, 0) },
		"named-model and feature selectors on every launcher pod",
		"only with the CPUNodeDiscovery feature gate (v0.54.0 pkg/"
		    "virt-controller/services/template.go:1253-1262)", 0, 0,
		NULL,
		"kubevirt v0.55.0 pkg/virt-controller/services/template.go" },
	[SINCE_HOST_MODEL_SELECTOR] = {
		SINCE_HOST_MODEL_SELECTOR, "host-model-target-selector",
		{ V(0, 43, 0) },
		"a host-model VMI's target pod selects on the source node's "
		    "host-model labels",
		"no CPU selector for a host-model VMI's target (v0.42.0 "
		    "pkg/virt-controller/watch/migration.go has none)", 0, 0,
		NULL,
		"kubevirt v0.43.0 pkg/virt-controller/watch/migration.go:"
		    "479-490,1064-1090" },
	[SINCE_CPU_MODEL_MIGRATION] = {
		SINCE_CPU_MODEL_MIGRATION, "cpu-model-migration-selector",
		{ V(0, 54, 0) },
		"the host-model selector is cpu-model-migration.<domain>/<M>, "
		    "copied from the source pod after a first migration",
		"it is host-model-cpu.<domain>/<M> (+ the required features), "
		    "always derived from the source node (v0.49.0 pkg/virt-"
		    "controller/watch/migration.go:1448-1471)", 0, 0, NULL,
		"kubevirt v0.54.0 pkg/virt-controller/watch/migration.go:"
		    "1583-1612" },
	[SINCE_DEFAULT_CPU_MODEL] = {
		SINCE_DEFAULT_CPU_MODEL, "default-cpu-model",
		{ V(0, 48, 0) },
		"a VMI without a CPU model gets host-model in its spec",
		"its spec keeps no model (v0.46.0 pkg/virt-api/webhooks/"
		    "mutating-webhook/mutators/vmi-mutator.go:228-239): the "
		    "guest runs host-model (converter.go:1649-1650) but the "
		    "migration controller adds no CPU selector", 0, 0, NULL,
		"kubevirt v0.48.0 pkg/virt-api/webhooks/mutating-webhook/"
		    "mutators/vmi-mutator.go:234-246" },
	[SINCE_SRIOV_CHECKED] = {
		SINCE_SRIOV_CHECKED, "sriov-checked",
		{ V(0, 39, 0) },
		"LiveMigratable looks at SR-IOV interfaces",
		"it does not (v0.38.0 pkg/virt-handler/vm.go "
		    "checkNetworkInterfacesForMigration): the VMI reads "
		    "migratable, libvirt refuses the assigned PCI device", 0, 0,
		NULL,
		"kubevirt v0.39.0 pkg/virt-handler/vm.go:1935-1941" },
	[SINCE_SRIOV_GATE] = {
		SINCE_SRIOV_GATE, "sriov-gate",
		{ V(0, 40, 0) },
		"SR-IOV interfaces migrate with the SRIOVLiveMigration gate",
		"SR-IOV interfaces never migrate (v0.39.0 pkg/virt-handler/"
		    "vm.go:1935-1941)", 0, 0, NULL,
		"kubevirt v0.40.0 pkg/virt-handler/vm.go:2041-2044" },
	[SINCE_SRIOV_OK] = {
		SINCE_SRIOV_OK, "sriov-migrates",
		{ V(0, 57, 0) },
		"SR-IOV interfaces migrate",
		"only with the SRIOVLiveMigration gate (v0.56.0 pkg/virt-"
		    "handler/vm.go:2237-2240)", 0, 0, NULL,
		/* PR #7990 */
		"kubevirt v0.57.0 pkg/virt-handler/vm.go:2230-2241" },
	[SINCE_CDROM_NOT_COPIED] = {
		SINCE_CDROM_NOT_COPIED, "cdrom-not-copied",
		{ V(0, 36, 3), V(0, 41, 0) },
		"a block migration skips CD-ROM drives",
		"a read-only CD-ROM on a generated volume is in the disks "
		    "libvirt copies, which it refuses (v0.36.0 pkg/virt-"
		    "launcher/virtwrap/manager.go:363-366,395-415)", 0, 0,
		NULL,
		/* commit 51da37c252, backported to v0.36.3 */
		"kubevirt v0.41.0 pkg/virt-launcher/virtwrap/"
		    "live-migration-source.go" },
	[SINCE_CDROM_NO_BLOCK] = {
		SINCE_CDROM_NO_BLOCK, "cdrom-no-block-migration",
		{ V(0, 49, 0) },
		"a volume only a read-only CD-ROM uses makes no block "
		    "migration",
		"every volume but a PVC, DataVolume or shared hostDisk makes "
		    "it a block migration (v0.36.0 pkg/virt-handler/vm.go:"
		    "1919-1949)", 0, 0, NULL,
		/* PR #7004 */
		"kubevirt v0.49.0 pkg/virt-handler/vm.go:2174-2186" },
	[SINCE_CD_SPEC_IMAGE] = {
		SINCE_CD_SPEC_IMAGE, "containerdisk-spec-image",
		{ V(0, 58, 0) },
		"the target's containerDisk image is the VMI spec's image "
		    "with the source's digest",
		"it is the launcher's containerStatuses[].image with the "
		    "digest (v0.57.0 pkg/container-disk/container-disk.go:"
		    "402): a containerd image ID or alias there is no "
		    "pullable reference", 0, 0, NULL,
		/* PR #8474 */
		"kubevirt v0.58.0 pkg/container-disk/container-disk.go:403" },
};

static bool
is_set(kv_ver v)
{
	return v.major != 0 || v.minor != 0 || v.patch != 0;
}

bool
kv_since_has(const kv_since *r, kv_ver v)
{
	size_t last = 0;

	for (size_t i = 0; i < KV_SINCE_MAX && is_set(r->since[i]); i++) {
		last = i;
		if (r->since[i].major == v.major &&
		    r->since[i].minor == v.minor)
			return v.patch >= r->since[i].patch;
	}
	return kv_ver_cmp(v, r->since[last]) >= 0;
}

void
kv_since_format(const kv_since *r, char *buf, size_t size)
{
	size_t n = 0;

	*buf = '\0';
	for (size_t i = 0; i < KV_SINCE_MAX && is_set(r->since[i]) &&
	    n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%sv%d.%d.%d",
		    i ? ", " : "", r->since[i].major, r->since[i].minor,
		    r->since[i].patch);
}
