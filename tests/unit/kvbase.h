/*
 * kvbase.h - the base cluster of the rule, group and not-judged tests
 * (test_rules_*.c, test_groups.c, test_notjudged.c): Intel twins w1 and
 * w2 (one CPU class), an AMD node a1, a control-plane node cp1 without KubeVirt labels, a KubeVirt CR with
 * evictionStrategy LiveMigrate, and the VMI prod/web on w1 (host-model, an
 * RWX PVC, a multus bridge, 2Gi, LiveMigratable=True) that migrates to w2;
 * the helpers that find and edit its objects (pod network, cordon).
 * Static inline functions, for any test program (it includes kvsnap.h).
 */
#ifndef KV_TEST_BASE_H
#define KV_TEST_BASE_H

#include "kvsnap.h"

#define DOM "node.kubevirt.io"
#define VMIS "virtualmachineinstances", "kubevirt.io"
#define VMIMS "virtualmachineinstancemigrations", "kubevirt.io"
#define KVS "kubevirts", "kubevirt.io"
#define POLICIES "migrationpolicies", "migrations.kubevirt.io"
#define WEB "prod/web"
#define POD_NAME "virt-launcher-web-abcde"

/* x86-64-v3: every feature of levels 1..3 (cpu-models-and-labels.md §2) */
#define FEAT_V3 "abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr " \
	"lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 " \
	"syscall xsave"
#define MODELS_X86 "Penryn Nehalem Westmere SandyBridge IvyBridge"
#define MODELS_INTEL MODELS_X86 " Haswell-noTSX Haswell-noTSX-IBRS " \
	"Skylake-Client-noTSX-IBRS"

static kvsnap *base;

/* ---- the base cluster ----------------------------------------------------- */

static inline json_t *
kvnode(kvsnap *s, const char *name, const char *vendor, const char *hm,
    const char *features, const char *required, const char *models,
    const char *migration)
{
	const kvcpu cpu = { vendor, hm, features, required, models,
	    migration };
	json_t *n = kvsnap_kvnode(s, name, &cpu);

	kvj_annotate(n, "kubevirt.io/heartbeat", "2026-10-31T09:12:00Z");
	return n;
}

static inline void
intel_twin(kvsnap *s, const char *name)
{
	kvnode(s, name, "Intel", "Skylake-Client-IBRS",
	    FEAT_V3 " aes md-clear pcid pdpe1gb rdrand spec-ctrl ssbd vmx "
	    "xsaveopt", "md-clear pcid spec-ctrl ssbd", MODELS_INTEL,
	    MODELS_INTEL " Skylake-Client Skylake-Client-IBRS");
}

/* Another Intel class: no md-clear, AVX-512, its own host model. */
static inline json_t *
add_w3(kvsnap *s)
{
	return kvnode(s, "w3", "Intel", "Cascadelake-Server",
	    FEAT_V3 " aes avx512bw avx512cd avx512dq avx512f avx512vl pcid "
	    "pdpe1gb rdrand spec-ctrl ssbd vmx xsaveopt",
	    "pcid spec-ctrl ssbd", MODELS_INTEL " Cascadelake-Server",
	    MODELS_INTEL " Skylake-Client Skylake-Client-IBRS "
	    "Cascadelake-Server");
}

static const char base_vmi[] = "{"
    "\"apiVersion\": \"kubevirt.io/v1\","
    "\"kind\": \"VirtualMachineInstance\","
    "\"metadata\": {\"name\": \"web\", \"namespace\": \"prod\","
    "  \"uid\": \"uid-web\", \"creationTimestamp\": \"2026-10-01T10:00:00Z\","
    "  \"labels\": {\"app\": \"web\", \"kubevirt.io/nodeName\": \"w1\"}},"
    "\"spec\": {"
    "  \"architecture\": \"amd64\","
    "  \"evictionStrategy\": \"LiveMigrate\","
    "  \"domain\": {"
    "    \"cpu\": {\"model\": \"host-model\", \"cores\": 2},"
    "    \"memory\": {\"guest\": \"2Gi\"},"
    "    \"machine\": {\"type\": \"q35\"},"
    "    \"resources\": {\"requests\": {\"memory\": \"2Gi\"}},"
    "    \"devices\": {"
    "      \"disks\": [{\"name\": \"rootdisk\", \"disk\": {\"bus\": \"virtio\"}}],"
    "      \"interfaces\": [{\"name\": \"vlan\", \"bridge\": {}}]}},"
    "  \"networks\": [{\"name\": \"vlan\", \"multus\": {\"networkName\": \"vlan10\"}}],"
    "  \"volumes\": [{\"name\": \"rootdisk\","
    "    \"persistentVolumeClaim\": {\"claimName\": \"web-root\"}}]},"
    "\"status\": {"
    "  \"phase\": \"Running\", \"nodeName\": \"w1\","
    "  \"machine\": {\"type\": \"pc-q35-rhel9.6.0\"},"
    "  \"migrationMethod\": \"LiveMigration\","
    "  \"conditions\": [{\"type\": \"Ready\", \"status\": \"True\"},"
    "    {\"type\": \"LiveMigratable\", \"status\": \"True\"},"
    "    {\"type\": \"StorageLiveMigratable\", \"status\": \"True\"}],"
    "  \"volumeStatus\": [{\"name\": \"rootdisk\", \"target\": \"vda\","
    "    \"persistentVolumeClaimInfo\": {\"claimName\": \"web-root\","
    "      \"accessModes\": [\"ReadWriteMany\"], \"volumeMode\": \"Block\"}}]}}";

static const char base_pod[] = "{"
    "\"apiVersion\": \"v1\", \"kind\": \"Pod\","
    "\"metadata\": {\"name\": \"" POD_NAME "\", \"namespace\": \"prod\","
    "  \"creationTimestamp\": \"2026-10-01T10:00:01Z\","
    "  \"labels\": {\"kubevirt.io\": \"virt-launcher\","
    "    \"kubevirt.io/created-by\": \"uid-web\", \"app\": \"web\","
    "    \"vm.kubevirt.io/name\": \"web\"},"
    "  \"annotations\": {\"kubevirt.io/domain\": \"web\"}},"
    "\"spec\": {\"nodeName\": \"w1\","
    "  \"nodeSelector\": {\"kubevirt.io/schedulable\": \"true\","
    "    \"kubernetes.io/arch\": \"amd64\","
    "    \"machine-type.node.kubevirt.io/q35\": \"true\"},"
    "  \"containers\": [{\"name\": \"compute\","
    "    \"image\": \"quay.io/kubevirt/virt-launcher:v1.9.0\","
    "    \"resources\": {\"requests\": {\"memory\": \"2300Mi\"}}}]},"
    "\"status\": {\"phase\": \"Running\", \"containerStatuses\": [{"
    "  \"name\": \"compute\", \"image\": \"quay.io/kubevirt/virt-launcher:v1.9.0\","
    "  \"imageID\": \"quay.io/kubevirt/virt-launcher@sha256:"
    "1111111111111111111111111111111111111111111111111111111111111111\"}]}}";

static inline kvsnap *
build_base(void)
{
	kvsnap *s = kvsnap_new("kubevirt");
	json_t *cp;

	intel_twin(s, "w1");
	intel_twin(s, "w2");
	kvnode(s, "a1", "AMD", "EPYC-Rome",
	    FEAT_V3 " clzero ibpb sha-ni svm virt-ssbd",
	    "clzero ibpb virt-ssbd", MODELS_X86 " EPYC EPYC-Rome",
	    MODELS_X86 " EPYC EPYC-Rome");
	cp = kvsnap_node(s, "cp1");
	kvj_label(cp, "node-role.kubernetes.io/control-plane", "");
	kvj_pushj(cp, "spec.taints", "{\"key\": "
	    "\"node-role.kubernetes.io/control-plane\", \"effect\": "
	    "\"NoSchedule\"}");
	kvsnap_addj(s, "namespaces", "", "{\"apiVersion\": \"v1\", \"kind\": "
	    "\"Namespace\", \"metadata\": {\"name\": \"prod\", \"labels\": "
	    "{\"kubernetes.io/metadata.name\": \"prod\", \"team\": \"a\"}}}");
	kvsnap_addj(s, "storageclasses", "storage.k8s.io", "{\"apiVersion\": "
	    "\"storage.k8s.io/v1\", \"kind\": \"StorageClass\", \"metadata\": "
	    "{\"name\": \"ceph-rbd\"}, \"provisioner\": \"rbd.csi.ceph.com\"}");
	kvsnap_addj(s, "persistentvolumeclaims", "", "{\"apiVersion\": \"v1\","
	    "\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": "
	    "\"web-root\", \"namespace\": \"prod\"}, \"spec\": {\"accessModes\":"
	    " [\"ReadWriteMany\"], \"storageClassName\": \"ceph-rbd\", "
	    "\"volumeMode\": \"Block\"}, \"status\": {\"phase\": \"Bound\"}}");
	kvsnap_addj(s, KVS, "{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"KubeVirt\", \"metadata\": {\"name\": \"kubevirt\", \"namespace\":"
	    " \"kubevirt\"}, \"spec\": {\"configuration\": {\"evictionStrategy\":"
	    " \"LiveMigrate\", \"developerConfiguration\": {\"featureGates\": "
	    "[]}}}, \"status\": {\"phase\": \"Deployed\", "
	    "\"observedKubeVirtVersion\": \"v1.9.0\"}}");
	kvsnap_list(s, POLICIES);
	kvsnap_list(s, VMIMS);
	/* listed, none: as the collector writes it (without the entry a
	 * stop's restart is unknown, decide/restart.c) */
	kvsnap_list(s, "virtualmachines", "kubevirt.io");
	kvsnap_addj(s, VMIS, base_vmi);
	kvsnap_addj(s, "pods", "", base_pod);
	return s;
}

static inline json_t *
vmi(kvsnap *s)
{
	return kvsnap_find(s, VMIS, "web");
}

static inline json_t *
pod(kvsnap *s)
{
	return kvsnap_find(s, "pods", "", POD_NAME);
}

static inline json_t *
node(kvsnap *s, const char *name)
{
	return kvsnap_find(s, "nodes", "", name);
}

/* The pod network bound by iface (JSON of the interface named "default"). */
static inline void
set_podnet(kvsnap *s, const char *iface)
{
	json_t *v = vmi(s);

	kvj_setj(v, "spec.networks", "[{\"name\": \"default\", \"pod\": {}}]");
	kvj_set(v, "spec.domain.devices.interfaces", json_pack("[o]",
	    kvj(iface)));
}

static inline void
add_disk(kvsnap *s, const char *name, const char *volume_json)
{
	json_t *v = vmi(s);
	char *d = xasprintf("{\"name\": \"%s\", \"disk\": {\"bus\": "
	    "\"virtio\"}}", name);

	kvj_pushj(v, "spec.domain.devices.disks", d);
	kvj_pushj(v, "spec.volumes", volume_json);
	free(d);
}

/* A containerDisk volume name whose source pod status records imageID
 * (NULL: no status at all). */
static inline void
add_containerdisk(kvsnap *s, const char *name, const char *image_id)
{
	char *vol = xasprintf("{\"name\": \"%s\", \"containerDisk\": "
	    "{\"image\": \"registry.local/tools/%s:1.0\"}}", name, name);

	add_disk(s, name, vol);
	if (image_id != NULL) {
		char *st = xasprintf("{\"name\": \"volume%s\", \"image\": "
		    "\"registry.local/tools/%s:1.0\", \"imageID\": \"%s\"}",
		    name, name, image_id);

		kvj_pushj(pod(s), "status.containerStatuses", st);
		free(st);
	}
	free(vol);
}

#define HEX64 "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"

static inline void
set_cpu(kvsnap *s, const char *model)
{
	kvj_sets(vmi(s), "spec.domain.cpu.model", model);
}

static inline void
cordon(kvsnap *s, const char *name)
{
	kvj_set(node(s, name), "spec.unschedulable", json_true());
}

#endif
