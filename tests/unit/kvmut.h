/*
 * kvmut.h - the mutations of the base cluster (kvbase.h) that the rule
 * table of test_rules_table.c names, one or two per blocker and warning
 * code, shared with the test_rules_*.c binaries that reuse them.  Static
 * inline functions (it includes kvrules.h).
 */
#ifndef KV_TEST_MUT_H
#define KV_TEST_MUT_H

#include "kvrules.h"

/* ---- one PASS and one FAIL per code ----------------------------------------- */

static inline void
m_bridge(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"bridge\": {}}");
}

static inline void
m_bridge_allowed(kvsnap *s)
{
	m_bridge(s);
	kvj_annotate(vmi(s), "kubevirt.io/"
	    "allow-pod-bridge-network-live-migration", "");
}

static inline void
m_plugin(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"binding\": {\"name\": "
	    "\"managedtap\"}}");
}

static inline void
m_plugin_migratable(kvsnap *s)
{
	m_plugin(s);
	kvj_setj(kubevirt(s), "spec.configuration.network.binding",
	    "{\"managedtap\": {\"domainAttachmentType\": \"managedTap\", "
	    "\"migration\": {}}}");
}

static inline void
m_rwo(kvsnap *s)
{
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadWriteOnce\"]");
	kvj_setj(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "spec.accessModes", "[\"ReadWriteOnce\"]");
}

static inline void
m_claim_unknown(kvsnap *s)
{
	add_disk(s, "data", "{\"name\": \"data\", \"dataVolume\": "
	    "{\"name\": \"web-data\"}}");
}

/* No volumeStatus entry, but the PVC object says RWX. */
static inline void
m_claim_from_pvc(kvsnap *s)
{
	m_claim_unknown(s);
	kvsnap_addj(s, "persistentvolumeclaims", "", "{\"metadata\": "
	    "{\"name\": \"web-data\", \"namespace\": \"prod\"}, \"spec\": "
	    "{\"accessModes\": [\"ReadWriteMany\"]}}");
}

static inline void
m_hostdisk(kvsnap *s)
{
	add_disk(s, "scratch", "{\"name\": \"scratch\", \"hostDisk\": "
	    "{\"path\": \"/data/scratch.img\", \"type\": \"DiskOrCreate\", "
	    "\"capacity\": \"1Gi\"}}");
}

static inline void
m_hostdisk_shared(kvsnap *s)
{
	add_disk(s, "scratch", "{\"name\": \"scratch\", \"hostDisk\": "
	    "{\"path\": \"/nfs/scratch.img\", \"type\": \"Disk\", "
	    "\"shared\": true}}");
}

static inline void
m_hostdev(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.devices.hostDevices",
	    "[{\"name\": \"qat\", \"deviceName\": \"intel.com/qat\"}]");
}

static inline void
m_gpu_permitted(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.devices.gpus", "[{\"name\": \"gpu1\", "
	    "\"deviceName\": \"nvidia.com/GRID_T4-1Q\"}]");
	kvj_setj(kubevirt(s), "spec.configuration.developerConfiguration."
	    "featureGates", "[\"VGPULiveMigration\"]");
	kvj_setj(kubevirt(s), "spec.configuration.permittedHostDevices",
	    "{\"mediatedDevices\": [{\"mdevNameSelector\": \"GRID T4-1Q\", "
	    "\"resourceName\": \"nvidia.com/GRID_T4-1Q\"}]}");
}

static inline void
m_sev(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.launchSecurity", "{\"sev\": {}}");
	kvj_label(node(s, "w1"), "kubevirt.io/sev", "true");
	kvj_label(node(s, "w2"), "kubevirt.io/sev", "true");
}

static inline void
m_reenlightenment(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.features.hyperv", "{\"relaxed\": {}, "
	    "\"reenlightenment\": {\"enabled\": true}}");
}

static inline void
m_reenlightenment_hint(kvsnap *s)
{
	m_reenlightenment(s);
	kvj_set(vmi(s), "status.topologyHints.tscFrequency",
	    json_integer(2400000000LL));
	kvj_label(node(s, "w1"), "scheduling." DOM "/tsc-frequency-2400000000",
	    "true");
	kvj_label(node(s, "w2"), "scheduling." DOM "/tsc-frequency-2400000000",
	    "true");
}

static inline void
m_hvpass(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.features.hypervPassthrough",
	    "{\"enabled\": true}");
}

static inline void
m_hvpass_off(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.features.hypervPassthrough",
	    "{\"enabled\": false}");
}

static inline void
m_cpumode(kvsnap *s)
{
	set_cond(s, "False", "CPUModeLiveMigratable", "the node \"w1\" does "
	    "not allow migration with host-model");
}

/* w2's microcode lacks md-clear, which w1's host model requires. */
static inline void
m_no_cpu_target(kvsnap *s)
{
	kvj_label(node(s, "w2"), "cpu-feature." DOM "/md-clear", NULL);
	kvj_label(node(s, "w2"), "host-model-required-features." DOM
	    "/md-clear", NULL);
}

static inline void
m_cordon(kvsnap *s)
{
	cordon(s, "w2");
}

static inline void
m_taint_tolerated(kvsnap *s)
{
	taint(s, "w2", "{\"key\": \"dedicated\", \"value\": \"db\", "
	    "\"effect\": \"NoSchedule\"}");
	tolerate(s, "{\"key\": \"dedicated\", \"operator\": \"Equal\", "
	    "\"value\": \"db\", \"effect\": \"NoSchedule\"}");
}

static inline void
m_no_hm_label(kvsnap *s)
{
	kvj_label(node(s, "w1"), "host-model-cpu." DOM "/Skylake-Client-IBRS",
	    NULL);
	kvj_annotate(node(s, "w1"), "node-labeller.kubevirt.io/skip-node",
	    "true");
}

static inline void
m_no_hm_label_named(kvsnap *s)
{
	m_no_hm_label(s);
	set_cpu(s, "Haswell-noTSX");
}

static inline void
m_cdisk_config(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
}

static inline void
m_cdisk_repo(kvsnap *s)
{
	add_containerdisk(s, "tools", "registry.local/tools/tools@sha256:"
	    HEX64);
}

static inline void
m_cdisk_none(kvsnap *s)
{
	add_containerdisk(s, "tools", HEX64);
}

/* The reference KubeVirt renders drops a :tag after the last '/' (not a
 * registry port) and an @sha256 pin (§3.4). */
static inline void
m_cdisk_port_pinned(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
	kvj_sets(vmi(s), "spec.volumes[1].containerDisk.image",
	    "registry.local:5000/tools@sha256:1111");
}

static inline void
m_cdisk_port_untagged(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
	kvj_sets(vmi(s), "spec.volumes[1].containerDisk.image",
	    "registry.local:5000/tools");
}
/* ImageVolume mode: no container status, the pod's image volume carries
 * the digest reference. */
static inline void
m_cdisk_imagevolume(kvsnap *s)
{
	add_containerdisk(s, "tools", NULL);
	kvj_pushj(pod(s), "spec.volumes", "{\"name\": \"tools\", \"image\": "
	    "{\"reference\": \"registry.local/tools/tools@sha256:" HEX64
	    "\"}}");
}

static inline void
m_passthrough(kvsnap *s)
{
	set_cpu(s, "host-passthrough");
}

static inline void
m_passthrough_w3(kvsnap *s)
{
	m_passthrough(s);
	add_w3(s);
}

static inline void
m_cloudinit(kvsnap *s)
{
	add_disk(s, "cloudinit", "{\"name\": \"cloudinit\", "
	    "\"cloudInitNoCloud\": {\"userData\": \"<redacted>\"}}");
}

/* The same volume as a read-only CD-ROM is not copied (§3.3). */
static inline void
m_cloudinit_cdrom(kvsnap *s)
{
	json_t *v = vmi(s);

	kvj_pushj(v, "spec.domain.devices.disks", "{\"name\": \"cloudinit\", "
	    "\"cdrom\": {\"bus\": \"sata\"}}");
	kvj_pushj(v, "spec.volumes", "{\"name\": \"cloudinit\", "
	    "\"cloudInitNoCloud\": {\"userData\": \"<redacted>\"}}");
}

static inline void
m_masquerade(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"masquerade\": {}}");
}

static inline void
m_stale_vendor(kvsnap *s)
{
	kvj_label(node(s, "w1"), "cpu-vendor." DOM "/AMD", "true");
	kvj_label(node(s, "w2"), "cpu-vendor." DOM "/AMD", "true");
}

static inline void
m_ifpossible_unmigratable(kvsnap *s)
{
	m_hostdev(s);
	kvj_sets(vmi(s), "spec.evictionStrategy", "LiveMigrateIfPossible");
	set_cond(s, "False", "HostDeviceNotLiveMigratable",
	    "VMI specifies non-migratable generic PCI host device");
}

static inline void
m_evict_none(kvsnap *s)
{
	kvj_sets(vmi(s), "spec.evictionStrategy", "None");
}

static inline void
set_kernel(kvsnap *s, const char *name, const char *kernel)
{
	kvj_sets(node(s, name), "status.nodeInfo.kernelVersion", kernel);
	kvj_sets(node(s, name), "status.nodeInfo.osImage", "Ubuntu 24.04 LTS");
}

static inline void
m_kernel_same(kvsnap *s)
{
	set_kernel(s, "w1", "6.8.0-85-generic");
	set_kernel(s, "w2", "6.8.0-85-generic");
}

static inline void
m_kernel_w2(kvsnap *s)
{
	set_kernel(s, "w1", "6.8.0-85-generic");
	set_kernel(s, "w2", "6.8.0-90-generic");
}

/* guest-cpu-floor: a RHEL 10 guest (common templates' annotation) on an
 * x86-64-v2 model (Nehalem) and on an x86-64-v3 one (Haswell-noTSX-IBRS:
 * v3 with QEMU's abm and f16c). */
static inline void
m_rhel10_v3(kvsnap *s)
{
	kvj_annotate(vmi(s), "vm.kubevirt.io/os", "rhel10");
	set_cpu(s, "Haswell-noTSX-IBRS");
}

static inline void
m_rhel10_v2(kvsnap *s)
{
	kvj_annotate(vmi(s), "vm.kubevirt.io/os", "rhel10");
	set_cpu(s, "Nehalem");
}

/* rwx-node-local: the RWX claim's class provisioned by local-path (a
 * node-local provisioner) or by Ceph RBD (the base). */
static inline void
m_rwx_local_path(kvsnap *s)
{
	kvsnap_addj(s, "storageclasses", "storage.k8s.io", "{\"apiVersion\": "
	    "\"storage.k8s.io/v1\", \"kind\": \"StorageClass\", \"metadata\": "
	    "{\"name\": \"local-path\"}, \"provisioner\": "
	    "\"rancher.io/local-path\"}");
	kvj_sets(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "spec.storageClassName", "local-path");
}

/* nested-virt-differs: w1 and w2 both have vmx; w1 exposes one VMX
 * capability more (kubevirt#12519), or the same ones. */
static inline void
m_vmx_same(kvsnap *s)
{
	kvj_label(node(s, "w1"), "cpu-feature." DOM "/vmx-ept", "true");
	kvj_label(node(s, "w2"), "cpu-feature." DOM "/vmx-ept", "true");
}

static inline void
m_vmx_differs(kvsnap *s)
{
	m_vmx_same(s);
	kvj_label(node(s, "w1"), "cpu-feature." DOM "/vmx-posted-intr",
	    "true");
}

/* launcher-version-skew: the source launcher of v1.8.2 under a v1.9.0
 * install (the base: both v1.9.0). */
static inline void
m_launcher_old(kvsnap *s)
{
	kvj_sets(pod(s), "spec.containers[0].image",
	    "quay.io/kubevirt/virt-launcher:v1.8.2");
}

/* A second launcher pod of prod/web, the target pod of a Failed
 * migration that was never scheduled, left in phase (Pending: active,
 * Failed: not). */
static inline void
stray_pod(kvsnap *s, const char *phase)
{
	json_t *p = kvj(base_pod);

	kvj_sets(p, "metadata.name", "virt-launcher-web-stray");
	kvj_del(p, "spec.nodeName");
	kvj_sets(p, "status.phase", phase);
	kvj_del(p, "status.containerStatuses");
	kvj_label(p, "kubevirt.io/migrationJobUID", "uid-mig-old");
	kvsnap_add(s, "pods", "", p);
	add_vmim(s, "mig-old", "prod", "web", "2026-10-30T08:00:00Z", NULL,
	    NULL);
	kvj_sets(kvsnap_find(s, VMIMS, "mig-old"), "metadata.uid",
	    "uid-mig-old");
	kvj_sets(kvsnap_find(s, VMIMS, "mig-old"), "status.phase", "Failed");
}

static inline void
m_stray_pod(kvsnap *s)
{
	stray_pod(s, "Pending");
}

static inline void
m_stray_pod_failed(kvsnap *s)
{
	stray_pod(s, "Failed");
}

#define DRAIN "eviction-blocks-drain"

#endif
