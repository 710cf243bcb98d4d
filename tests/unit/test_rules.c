/*
 * test_rules.c - the migration rules, verdicts and outcomes of
 * docs/findings.md, judged on small snapshots written by the
 * in-test builder (kvsnap.h) and read back through kvscope's own
 * loader, analysis and findings.json writer.
 *
 * The base cluster: Intel twins w1 and w2 (one CPU class), an AMD node a1,
 * a control-plane node cp1 without KubeVirt labels, and a KubeVirt CR with
 * evictionStrategy LiveMigrate.  The base VMI prod/web runs on w1 with
 * host-model, an RWX PVC, a multus bridge (no pod network), 2Gi of guest
 * memory and LiveMigratable=True; it migrates to w2 (verdict ok).
 *
 * The rule table is table-driven: for every blocker and warning code one
 * PASS case (the code is absent) and one FAIL case (the code is present,
 * with the verdict and the complete blocker and warning lists), each a
 * small mutation of the base.  The rest are the subtleties of the rules:
 * precedence, KubeVirt's first-failing condition, stored conditions,
 * outcomes and timeouts, MigrationPolicy matching, drains, placement and
 * the pod network.  References are to rules-kubevirt.md.
 */
#include "kvtest.h"

#include <unistd.h>

#include "kvsnap.h"
#include "analyze/rules/rule.h"
#include "analyze/rules/target.h"

#include "kvbase.h"

static json_t *
kubevirt(kvsnap *s)
{
	return kvsnap_find(s, KVS, "kubevirt");
}

/* Set the stored LiveMigratable condition: status "True", "False", or NULL
 * to remove it. */
static void
set_cond(kvsnap *s, const char *status, const char *reason, const char *msg)
{
	json_t *conds = kvj_at(vmi(s), "status.conditions"), *c;
	size_t i;

	json_array_foreach(conds, i, c)
		if (strcmp(json_string_value(json_object_get(c, "type")),
		    "LiveMigratable") == 0) {
			json_array_remove(conds, i);
			break;
		}
	if (status == NULL)
		return;
	c = json_pack("{s:s, s:s}", "type", "LiveMigratable", "status",
	    status);
	if (reason)
		json_object_set_new(c, "reason", json_string(reason));
	if (msg)
		json_object_set_new(c, "message", json_string(msg));
	json_array_append_new(conds, c);
}

static void
taint(kvsnap *s, const char *name, const char *taint_json)
{
	kvj_pushj(node(s, name), "spec.taints", taint_json);
}

static void
tolerate(kvsnap *s, const char *toleration_json)
{
	kvj_pushj(vmi(s), "spec.tolerations", toleration_json);
}

static void
add_vmim(kvsnap *s, const char *name, const char *ns, const char *vmi_name,
    const char *created, const char *unsched, const char *pending)
{
	json_t *m = kvsnap_add(s, VMIMS, json_pack("{s:s, s:s, "
	    "s:{s:s, s:s, s:s}, s:{s:s}, s:{s:s}}", "apiVersion",
	    "kubevirt.io/v1", "kind", "VirtualMachineInstanceMigration",
	    "metadata", "name", name, "namespace", ns, "creationTimestamp",
	    created, "spec", "vmiName", vmi_name, "status", "phase",
	    "Pending"));

	if (unsched)
		kvj_annotate(m, "kubevirt.io/"
		    "migrationUnschedulablePodTimeoutSeconds", unsched);
	if (pending)
		kvj_annotate(m, "kubevirt.io/migrationPendingPodTimeoutSeconds",
		    pending);
}

static void
add_policy(kvsnap *s, const char *name, const char *spec_json)
{
	char *o = xasprintf("{\"apiVersion\": "
	    "\"migrations.kubevirt.io/v1alpha1\", \"kind\": "
	    "\"MigrationPolicy\", \"metadata\": {\"name\": \"%s\"}, "
	    "\"spec\": %s}", name, spec_json);

	kvsnap_addj(s, POLICIES, o);
	free(o);
}

/* ---- running and asserting ------------------------------------------------ */

typedef void (*mutation)(kvsnap *s);

static kvres
run(mutation mut)
{
	kvsnap *s = kvsnap_copy(base);
	kvres r;

	if (mut != NULL)
		mut(s);
	r = kvsnap_run(s);
	kvsnap_free(s);
	return r;
}

/* The codes of a VMI's blockers or warnings, comma-separated. */
static char *
codes(json_t *v, const char *which)
{
	json_t *arr = json_object_get(v, which), *e;
	kv_buf b = {0};
	size_t i;

	json_array_foreach(arr, i, e)
		kv_buf_printf(&b, "%s%s", i ? "," : "",
		    json_string_value(json_object_get(e, "code")));
	return b.data ? b.data : xstrdup("");
}

#define assert_codes(v, which, want)                                        \
	do {                                                                \
		char *got_ = codes((v), (which));                           \
		if (strcmp(got_, (want)) != 0)                              \
			fail_msg("%s: got [%s], want [%s]", (which), got_,  \
			    (want));                                        \
		free(got_);                                                 \
	} while (0)

static bool
has_code(json_t *v, const char *which, const char *code)
{
	json_t *arr = json_object_get(v, which), *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (strcmp(json_string_value(json_object_get(e, "code")),
		    code) == 0)
			return true;
	return false;
}

/* The message of the first issue with code (blockers, then warnings). */
static const char *
message(json_t *v, const char *code)
{
	const char *lists[] = { "blockers", "warnings" };

	for (size_t l = 0; l < 2; l++) {
		json_t *arr = json_object_get(v, lists[l]), *e;
		size_t i;

		json_array_foreach(arr, i, e)
			if (strcmp(json_string_value(json_object_get(e,
			    "code")), code) == 0)
				return json_string_value(json_object_get(e,
				    "message"));
	}
	fail_msg("no issue %s", code);
	return NULL;
}

#define assert_message_has(v, code, needle)                                 \
	do {                                                                \
		const char *msg_ = message((v), (code));                    \
		if (strstr(msg_, (needle)) == NULL)                         \
			fail_msg("%s: message \"%s\" lacks \"%s\"", (code), \
			    msg_, (needle));                                \
	} while (0)

/* Outcome of each verdict (findings.md); after -1 = null, -2 = whatever
 * the cluster says (checked by the caller). */
static const struct {
	const char *verdict, *kind;
	long long after;
} outcomes[] = {
	{ "ok", "migrates", -1 }, { "not-running", "none", -1 },
	{ "blocked", "rejected", 0 }, { "no-target", "unschedulable", 300 },
	{ "will-fail", "pending-timeout", 900 },
	{ "stuck", "pending-forever", -1 },
};

static void
assert_verdict(json_t *v, const char *verdict)
{
	assert_jstr(v, "verdict", verdict);
	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++)
		if (strcmp(outcomes[i].verdict, verdict) == 0) {
			assert_jstr(v, "outcome.kind", outcomes[i].kind);
			assert_jint(v, "outcome.afterSeconds",
			    outcomes[i].after);
			return;
		}
	fail_msg("unknown verdict %s", verdict);
}

static void
assert_selector(json_t *v, const char *key, const char *value)
{
	json_t *got = json_object_get(json_object_get(v, "targetSelectors"),
	    key);

	if (value == NULL) {
		if (got != NULL)
			fail_msg("targetSelectors has %s", key);
	} else if (!json_is_string(got) ||
	    strcmp(json_string_value(got), value) != 0)
		fail_msg("targetSelectors[%s]: want %s", key, value);
}

/* ---- the base ------------------------------------------------------------- */

static void
test_base_migrates(void **state)
{
	kvres r = run(NULL);
	json_t *v = kvres_vmi(&r, WEB), *sel, *d;
	char *keys;
	kv_buf b = {0};
	const char *k;
	json_t *val;

	assert_verdict(v, "ok");
	assert_codes(v, "blockers", "");
	assert_codes(v, "warnings", "");
	assert_jstr(v, "phase", "Running");
	assert_jstr(v, "node", "w1");
	assert_jstr(v, "cpu.mode", "host-model");
	assert_jstr(v, "cpu.model", "host-model");
	assert_jstr(v, "condition.status", "True");
	assert_jbool(v, "conditionMismatch", false);
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "w2");
	assert_jstr(v, "migrationMethod", "LiveMigration");
	assert_jint(v, "completionTimeoutSeconds", 450);
	assert_jstr(v, "evictionStrategy", "LiveMigrate");
	assert_jstr(v, "onDrain", "migrate");

	/* §2.2 + §2.3 for a first migration of host-model, keys sorted */
	sel = json_object_get(v, "targetSelectors");
	json_object_foreach(sel, k, val)
		kv_buf_printf(&b, "%s=%s\n", k, json_string_value(val));
	keys = b.data;
	assert_string_equal(keys,
	    "cpu-feature.node.kubevirt.io/md-clear=true\n"
	    "cpu-feature.node.kubevirt.io/pcid=true\n"
	    "cpu-feature.node.kubevirt.io/spec-ctrl=true\n"
	    "cpu-feature.node.kubevirt.io/ssbd=true\n"
	    "cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS=true\n"
	    "cpu-vendor.node.kubevirt.io/Intel=true\n"
	    "kubernetes.io/arch=amd64\n"
	    "kubevirt.io/schedulable=true\n"
	    "machine-type.node.kubevirt.io/pc-q35-rhel9.6.0=true\n");
	free(keys);

	/* the nodes, the twins' class, the drain of w1 */
	assert_int_equal(json_array_size(json_object_get(r.findings,
	    "nodes")), 4);
	assert_jbool(json_array_get(json_object_get(r.findings, "nodes"), 1),
	    "kubevirt", false);	/* cp1 */
	assert_list(json_array_get(json_object_get(r.findings, "cpuClasses"),
	    0), "nodes", "w1,w2");
	d = json_array_get(json_object_get(r.findings, "drain"), 0);
	assert_jstr(d, "node", "w1");
	assert_jint(d, "migrate", 1);
	assert_jint(d, "memoryBytesToMove", 2147483648LL);
	assert_jint(r.findings, "summary.ok", 1);
	kvres_free(&r);
}

/* ---- one PASS and one FAIL per code ----------------------------------------- */

static void
m_bridge(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"bridge\": {}}");
}

static void
m_bridge_allowed(kvsnap *s)
{
	m_bridge(s);
	kvj_annotate(vmi(s), "kubevirt.io/"
	    "allow-pod-bridge-network-live-migration", "");
}

static void
m_plugin(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"binding\": {\"name\": "
	    "\"managedtap\"}}");
}

static void
m_plugin_migratable(kvsnap *s)
{
	m_plugin(s);
	kvj_setj(kubevirt(s), "spec.configuration.network.binding",
	    "{\"managedtap\": {\"domainAttachmentType\": \"managedTap\", "
	    "\"migration\": {}}}");
}

static void
m_rwo(kvsnap *s)
{
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadWriteOnce\"]");
	kvj_setj(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "spec.accessModes", "[\"ReadWriteOnce\"]");
}

static void
m_claim_unknown(kvsnap *s)
{
	add_disk(s, "data", "{\"name\": \"data\", \"dataVolume\": "
	    "{\"name\": \"web-data\"}}");
}

/* No volumeStatus entry, but the PVC object says RWX. */
static void
m_claim_from_pvc(kvsnap *s)
{
	m_claim_unknown(s);
	kvsnap_addj(s, "persistentvolumeclaims", "", "{\"metadata\": "
	    "{\"name\": \"web-data\", \"namespace\": \"prod\"}, \"spec\": "
	    "{\"accessModes\": [\"ReadWriteMany\"]}}");
}

static void
m_hostdisk(kvsnap *s)
{
	add_disk(s, "scratch", "{\"name\": \"scratch\", \"hostDisk\": "
	    "{\"path\": \"/data/scratch.img\", \"type\": \"DiskOrCreate\", "
	    "\"capacity\": \"1Gi\"}}");
}

static void
m_hostdisk_shared(kvsnap *s)
{
	add_disk(s, "scratch", "{\"name\": \"scratch\", \"hostDisk\": "
	    "{\"path\": \"/nfs/scratch.img\", \"type\": \"Disk\", "
	    "\"shared\": true}}");
}

static void
m_hostdev(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.devices.hostDevices",
	    "[{\"name\": \"qat\", \"deviceName\": \"intel.com/qat\"}]");
}

static void
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

static void
m_sev(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.launchSecurity", "{\"sev\": {}}");
	kvj_label(node(s, "w1"), "kubevirt.io/sev", "true");
	kvj_label(node(s, "w2"), "kubevirt.io/sev", "true");
}

static void
m_reenlightenment(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.features.hyperv", "{\"relaxed\": {}, "
	    "\"reenlightenment\": {\"enabled\": true}}");
}

static void
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

static void
m_hvpass(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.features.hypervPassthrough",
	    "{\"enabled\": true}");
}

static void
m_hvpass_off(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.features.hypervPassthrough",
	    "{\"enabled\": false}");
}

static void
m_cpumode(kvsnap *s)
{
	set_cond(s, "False", "CPUModeLiveMigratable", "the node \"w1\" does "
	    "not allow migration with host-model");
}

/* w2's microcode lacks md-clear, which w1's host model requires. */
static void
m_no_cpu_target(kvsnap *s)
{
	kvj_label(node(s, "w2"), "cpu-feature." DOM "/md-clear", NULL);
	kvj_label(node(s, "w2"), "host-model-required-features." DOM
	    "/md-clear", NULL);
}

static void
m_cordon(kvsnap *s)
{
	cordon(s, "w2");
}

static void
m_taint_tolerated(kvsnap *s)
{
	taint(s, "w2", "{\"key\": \"dedicated\", \"value\": \"db\", "
	    "\"effect\": \"NoSchedule\"}");
	tolerate(s, "{\"key\": \"dedicated\", \"operator\": \"Equal\", "
	    "\"value\": \"db\", \"effect\": \"NoSchedule\"}");
}

static void
m_no_hm_label(kvsnap *s)
{
	kvj_label(node(s, "w1"), "host-model-cpu." DOM "/Skylake-Client-IBRS",
	    NULL);
	kvj_annotate(node(s, "w1"), "node-labeller.kubevirt.io/skip-node",
	    "true");
}

static void
m_no_hm_label_named(kvsnap *s)
{
	m_no_hm_label(s);
	set_cpu(s, "Haswell-noTSX");
}

static void
m_cdisk_config(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
}

static void
m_cdisk_repo(kvsnap *s)
{
	add_containerdisk(s, "tools", "registry.local/tools/tools@sha256:"
	    HEX64);
}

static void
m_cdisk_none(kvsnap *s)
{
	add_containerdisk(s, "tools", HEX64);
}

/* The reference KubeVirt renders drops a :tag after the last '/' (not a
 * registry port) and an @sha256 pin (§3.4). */
static void
m_cdisk_port_pinned(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
	kvj_sets(vmi(s), "spec.volumes[1].containerDisk.image",
	    "registry.local:5000/tools@sha256:1111");
}

static void
m_cdisk_port_untagged(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
	kvj_sets(vmi(s), "spec.volumes[1].containerDisk.image",
	    "registry.local:5000/tools");
}

static void
test_containerdisk_reference(void **state)
{
	kvres r = run(m_cdisk_port_pinned);

	assert_message_has(kvres_vmi(&r, WEB), "containerdisk-config-digest",
	    "would pull registry.local:5000/tools@sha256:" HEX64 ",");
	kvres_free(&r);
	r = run(m_cdisk_port_untagged);
	assert_message_has(kvres_vmi(&r, WEB), "containerdisk-config-digest",
	    "would pull registry.local:5000/tools@sha256:" HEX64 ",");
	kvres_free(&r);
}

/* ImageVolume mode: no container status, the pod's image volume carries
 * the digest reference. */
static void
m_cdisk_imagevolume(kvsnap *s)
{
	add_containerdisk(s, "tools", NULL);
	kvj_pushj(pod(s), "spec.volumes", "{\"name\": \"tools\", \"image\": "
	    "{\"reference\": \"registry.local/tools/tools@sha256:" HEX64
	    "\"}}");
}

static void
m_passthrough(kvsnap *s)
{
	set_cpu(s, "host-passthrough");
}

static void
m_passthrough_w3(kvsnap *s)
{
	m_passthrough(s);
	add_w3(s);
}

static void
m_cloudinit(kvsnap *s)
{
	add_disk(s, "cloudinit", "{\"name\": \"cloudinit\", "
	    "\"cloudInitNoCloud\": {\"userData\": \"<redacted>\"}}");
}

/* The same volume as a read-only CD-ROM is not copied (§3.3). */
static void
m_cloudinit_cdrom(kvsnap *s)
{
	json_t *v = vmi(s);

	kvj_pushj(v, "spec.domain.devices.disks", "{\"name\": \"cloudinit\", "
	    "\"cdrom\": {\"bus\": \"sata\"}}");
	kvj_pushj(v, "spec.volumes", "{\"name\": \"cloudinit\", "
	    "\"cloudInitNoCloud\": {\"userData\": \"<redacted>\"}}");
}

static void
m_masquerade(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"masquerade\": {}}");
}

static void
m_stale_vendor(kvsnap *s)
{
	kvj_label(node(s, "w1"), "cpu-vendor." DOM "/AMD", "true");
	kvj_label(node(s, "w2"), "cpu-vendor." DOM "/AMD", "true");
}

static void
m_ifpossible_unmigratable(kvsnap *s)
{
	m_hostdev(s);
	kvj_sets(vmi(s), "spec.evictionStrategy", "LiveMigrateIfPossible");
	set_cond(s, "False", "HostDeviceNotLiveMigratable",
	    "VMI specifies non-migratable generic PCI host device");
}

static void
m_evict_none(kvsnap *s)
{
	kvj_sets(vmi(s), "spec.evictionStrategy", "None");
}

static void
set_kernel(kvsnap *s, const char *name, const char *kernel)
{
	kvj_sets(node(s, name), "status.nodeInfo.kernelVersion", kernel);
	kvj_sets(node(s, name), "status.nodeInfo.osImage", "Ubuntu 24.04 LTS");
}

static void
m_kernel_same(kvsnap *s)
{
	set_kernel(s, "w1", "6.8.0-85-generic");
	set_kernel(s, "w2", "6.8.0-85-generic");
}

static void
m_kernel_w2(kvsnap *s)
{
	set_kernel(s, "w1", "6.8.0-85-generic");
	set_kernel(s, "w2", "6.8.0-90-generic");
}

/* ---- capacity (findings.md "nodes" requested, no-capacity) ---------------- */

/* The manifest says the snapshot holds every pod. */
static void
pods_all(kvsnap *s)
{
	char *f = kvsnap_file("pods", "");

	kvsnap_list(s, "pods", "");
	json_object_set_new(json_object_get(s->res, f), "scope",
	    json_string("all"));
	free(f);
}

/* A pod that is not a launcher on node, with the spec fragment given
 * (containers, initContainers, overhead) and phase. */
static void
add_pod(kvsnap *s, const char *name, const char *node, const char *phase,
    const char *spec)
{
	char *j = xasprintf("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
	    "\"metadata\": {\"name\": \"%s\", \"namespace\": \"db\"}, "
	    "\"spec\": {\"nodeName\": \"%s\", %s}, \"status\": {\"phase\": "
	    "\"%s\"}}", name, node, spec, phase);

	kvsnap_addj(s, "pods", "", j);
	free(j);
}

#define REQ(cpu, mem) "{\"name\": \"c\", \"resources\": {\"requests\": " \
	"{\"cpu\": \"" cpu "\", \"memory\": \"" mem "\"}}}"

/* w2 (64Gi) runs 32Gi: room for the 2300Mi launcher pod. */
static void
m_capacity_room(kvsnap *s)
{
	pods_all(s);
	add_pod(s, "half", "w2", "Running", "\"containers\": [" REQ("8", "32Gi")
	    "]");
}

/* w2 runs 63Gi: the only CPU-compatible node has no room. */
static void
m_capacity_full(kvsnap *s)
{
	pods_all(s);
	add_pod(s, "big", "w2", "Running", "\"containers\": [" REQ("1", "63Gi")
	    "]");
}

/* A node's requested: per pod max(sum of containers, largest init
 * container) + overhead, one pod each; Succeeded and Failed pods hold
 * nothing. */
static void
m_capacity_formula(kvsnap *s)
{
	pods_all(s);
	add_pod(s, "init-big", "w2", "Running", "\"containers\": ["
	    REQ("1", "1Gi") ", " REQ("500m", "1Gi") "], \"initContainers\": ["
	    REQ("3", "512Mi") ", " REQ("2", "256Mi") "], \"overhead\": "
	    "{\"cpu\": \"250m\", \"memory\": \"100Mi\"}");
	add_pod(s, "done", "w2", "Succeeded", "\"containers\": ["
	    REQ("30", "60Gi") "]");
	add_pod(s, "failed", "w2", "Failed", "\"containers\": ["
	    REQ("30", "60Gi") "]");
}

static json_t *
node_json(const kvres *r, const char *name)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(r->findings, "nodes"), i, v)
		if (strcmp(json_string_value(json_object_get(v, "name")),
		    name) == 0)
			return v;
	fail_msg("no node %s", name);
	return NULL;
}

static void
test_capacity_formula(void **state)
{
	kvres r = run(m_capacity_formula);
	json_t *w2 = node_json(&r, "w2"), *w1 = node_json(&r, "w1");
	const kv_vmires *vr = kvres_vmires(&r, WEB);

	(void)state;
	assert_true(r.a->capacity_known);
	assert_jint(w2, "allocatable.cpuMillis", 32000);
	assert_jint(w2, "allocatable.memoryBytes", 64LL << 30);
	assert_jint(w2, "allocatable.pods", 110);
	/* max(1500m, 3000m) + 250m; max(2Gi, 512Mi) + 100Mi; 1 pod */
	assert_jint(w2, "requested.cpuMillis", 3250);
	assert_jint(w2, "requested.memoryBytes", (2LL << 30) + (100LL << 20));
	assert_jint(w2, "requested.pods", 1);
	/* w1 runs the launcher pod: 2300Mi, no CPU request */
	assert_jint(w1, "requested.memoryBytes", 2300LL << 20);
	assert_jint(w1, "requested.cpuMillis", 0);
	assert_jint(w1, "requested.pods", 1);
	/* the target pod needs what the source launcher pod requests */
	assert_int_equal(vr->need.memory, 2300LL << 20);
	assert_int_equal(vr->need.cpu_millis, 0);
	assert_int_equal(vr->need.pods, 1);
	assert_jstr(kvres_vmi(&r, WEB), "verdict", "ok");
	assert_list(kvres_vmi(&r, WEB), "targets", "w2");
	kvres_free(&r);
}

/* One pod slot left on w2, then none: the pod count is room too. */
static void
m_capacity_pod_slots(kvsnap *s)
{
	pods_all(s);
	kvj_sets(node(s, "w2"), "status.allocatable.pods", "1");
	add_pod(s, "tiny", "w2", "Pending", "\"containers\": [" REQ("10m",
	    "1Mi") "]");
}

static void
m_capacity_init_full(kvsnap *s)
{
	/* the init container, not the sum, decides: 62Gi + 1.5Gi */
	pods_all(s);
	add_pod(s, "init", "w2", "Running", "\"containers\": ["
	    REQ("1", "1Gi") "], \"initContainers\": [" REQ("1", "62Gi")
	    "], \"overhead\": {\"memory\": \"1536Mi\"}");
}

static void
test_capacity_no_room(void **state)
{
	kvres r = run(m_capacity_pod_slots);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_codes(v, "blockers", "no-capacity");
	assert_message_has(v, "no-capacity", "0 pods free");
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_jint(v, "targetCount", 0);
	assert_jint(v, "cpuTargetCount", 1);
	kvres_free(&r);
	r = run(m_capacity_init_full);
	v = kvres_vmi(&r, WEB);
	assert_codes(v, "blockers", "no-capacity");
	assert_message_has(v, "no-capacity", "w2: 31 CPU, 512.0 MiB");
	kvres_free(&r);
}

/* Capacity unknown (no scope all): the other pods do not count, the old
 * memory check still does, requested is null and the snapshot warns. */
static void
m_capacity_unknown(kvsnap *s)
{
	add_pod(s, "big", "w2", "Running", "\"containers\": [" REQ("1", "63Gi")
	    "]");
}

static void
m_capacity_unknown_memory(kvsnap *s)
{
	m_capacity_unknown(s);
	kvj_sets(node(s, "w2"), "status.allocatable.memory", "2Gi");
}

static void
test_capacity_unknown(void **state)
{
	kvres r = run(m_capacity_unknown);
	json_t *v = kvres_vmi(&r, WEB), *w;

	(void)state;
	assert_false(r.a->capacity_known);
	assert_jstr(v, "verdict", "ok");
	assert_list(v, "targets", "w2");
	assert_jint(node_json(&r, "w2"), "requested", -1);
	assert_jint(node_json(&r, "w2"), "allocatable.memoryBytes", 64LL << 30);
	w = json_object_get(json_object_get(r.findings, "snapshot"),
	    "warnings");
	assert_int_equal(json_array_size(w), 1);
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
	    "room on the nodes was not checked"));
	kvres_free(&r);
	r = run(m_capacity_unknown_memory);
	v = kvres_vmi(&r, WEB);
	assert_codes(v, "blockers", "no-placement-target");
	assert_message_has(v, "no-placement-target",
	    "w2: not enough memory: 2.0 GiB free, needs 2.2 GiB");
	kvres_free(&r);
}

/* findings.json version 2 as written: references into nodeSets. */
static void
test_node_set_refs(void **state)
{
	kvres r = run(m_capacity_room);
	json_t *v = NULL, *e, *sets = json_object_get(r.raw, "nodeSets");
	size_t i;

	(void)state;
	assert_jint(r.raw, "formatVersion", 2);
	json_array_foreach(json_object_get(r.raw, "vmis"), i, e)
		if (strcmp(json_string_value(json_object_get(e, "name")),
		    WEB) == 0)
			v = e;
	assert_non_null(v);
	assert_jstr(v, "cpuTargets.set", "N1");
	assert_list(v, "cpuTargets.minus", "w1");
	assert_jstr(v, "targets.set", "N1");
	assert_list(v, "targets.minus", "w1");
	assert_int_equal(json_array_size(sets), 1);
	assert_jstr(json_array_get(sets, 0), "id", "N1");
	assert_list(json_array_get(sets, 0), "nodes", "w1,w2");
	kvres_free(&r);
}

/* ---- pod (anti-)affinity and topology spread (podaffinity.h) -------------- */

/* A pod with labels (JSON object text) in ns on node; spec_json is the
 * rest of its spec ("" for none). */
static void
add_lpod(kvsnap *s, const char *name, const char *ns, const char *node,
    const char *labels, const char *spec_json)
{
	char *j = xasprintf("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
	    "\"metadata\": {\"name\": \"%s\", \"namespace\": \"%s\", "
	    "\"labels\": %s}, \"spec\": {\"nodeName\": \"%s\"%s%s}, "
	    "\"status\": {\"phase\": \"Running\"}}", name, ns, labels, node,
	    *spec_json ? ", " : "", spec_json);

	kvsnap_addj(s, "pods", "", j);
	free(j);
}

static void
add_ns(kvsnap *s, const char *name, const char *labels)
{
	char *j = xasprintf("{\"apiVersion\": \"v1\", \"kind\": "
	    "\"Namespace\", \"metadata\": {\"name\": \"%s\", \"labels\": "
	    "%s}}", name, labels);

	kvsnap_addj(s, "namespaces", "", j);
	free(j);
}

#define ANTI(term) "\"affinity\": {\"podAntiAffinity\": {" \
	"\"requiredDuringSchedulingIgnoredDuringExecution\": [" term "]}}"
#define AFF(term) "\"affinity\": {\"podAffinity\": {" \
	"\"requiredDuringSchedulingIgnoredDuringExecution\": [" term "]}}"
#define HOST "\"topologyKey\": \"kubernetes.io/hostname\""
#define DB_TERM "{\"labelSelector\": {\"matchLabels\": {\"app\": \"db\"}}, " \
	"\"namespaces\": [\"db\"], " HOST "}"

/* The VMI's spec.affinity (JSON text of one podAffinity or podAntiAffinity
 * block, as ANTI or AFF give it). */
static void
vmi_affinity(kvsnap *s, const char *frag)
{
	char *j = xasprintf("{%s}", frag);
	json_t *o = kvj(j);

	kvj_set(vmi(s), "spec.affinity", json_incref(json_object_get(o,
	    "affinity")));
	json_decref(o);
	free(j);
}

static void
m_anti_elsewhere(kvsnap *s)
{
	pods_all(s);
	vmi_affinity(s, ANTI(DB_TERM));
	add_lpod(s, "postgres-0", "db", "a1", "{\"app\": \"db\"}", "");
}

static void
m_anti_db(kvsnap *s)
{
	pods_all(s);
	vmi_affinity(s, ANTI(DB_TERM));
	add_lpod(s, "postgres-0", "db", "w2", "{\"app\": \"db\"}", "");
}

/* Without namespaces the term means the VMI's own namespace (prod). */
static void
m_anti_own_ns(kvsnap *s)
{
	pods_all(s);
	vmi_affinity(s, ANTI("{\"labelSelector\": {\"matchLabels\": "
	    "{\"app\": \"db\"}}, " HOST "}"));
	add_lpod(s, "postgres-0", "db", "w2", "{\"app\": \"db\"}", "");
}

static void
m_aff_cache(kvsnap *s, const char *node)
{
	pods_all(s);
	vmi_affinity(s, AFF("{\"labelSelector\": {\"matchExpressions\": [{"
	    "\"key\": \"app\", \"operator\": \"In\", \"values\": [\"cache\", "
	    "\"memcached\"]}]}, \"namespaces\": [\"db\"], " HOST "}"));
	add_lpod(s, "cache-0", "db", node, "{\"app\": \"cache\"}", "");
}

static void
m_aff_w2(kvsnap *s)
{
	m_aff_cache(s, "w2");
}

static void
m_aff_a1(kvsnap *s)
{
	m_aff_cache(s, "a1");
}

/* Affine to its own kind: the source pod is the only match, on w1. */
static void
m_aff_self(kvsnap *s)
{
	pods_all(s);
	vmi_affinity(s, AFF("{\"labelSelector\": {\"matchLabels\": "
	    "{\"app\": \"web\"}}, " HOST "}"));
}

/* ...and with no pod matching anywhere, the first of the series lands. */
static void
m_aff_self_first(kvsnap *s)
{
	m_aff_self(s);
	assert_true(kvsnap_remove(s, "pods", "", POD_NAME));
}

/* A running pod whose required anti-affinity matches the target pod. */
static void
m_sym(kvsnap *s, const char *app)
{
	char *spec = xasprintf(ANTI("{\"labelSelector\": {\"matchLabels\": "
	    "{\"app\": \"%s\"}}, \"namespaces\": [\"prod\"], " HOST "}"), app);

	pods_all(s);
	add_lpod(s, "postgres-0", "db", "w2", "{\"app\": \"db\"}", spec);
	free(spec);
}

static void
m_sym_web(kvsnap *s)
{
	m_sym(s, "web");
}

static void
m_sym_other(kvsnap *s)
{
	m_sym(s, "api");
}

static void
m_spread(kvsnap *s, size_t on_w2, const char *extra)
{
	char *c = xasprintf("[{\"maxSkew\": 1, \"topologyKey\": "
	    "\"kubernetes.io/hostname\", \"whenUnsatisfiable\": "
	    "\"DoNotSchedule\", \"labelSelector\": {\"matchLabels\": "
	    "{\"app\": \"web\"}}%s}]", extra);

	pods_all(s);
	kvj_setj(vmi(s), "spec.topologySpreadConstraints", c);
	for (size_t i = 0; i < on_w2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "web-worker-%zu", i);
		add_lpod(s, name, "prod", "w2", "{\"app\": \"web\"}", "");
	}
	free(c);
}

/* w1 1 (the source pod counts), w2 1: the target makes w2 2, skew 1. */
static void
m_spread_even(kvsnap *s)
{
	m_spread(s, 1, "");
}

/* w2 2: the target makes 3 against w1's 1, skew 2. */
static void
m_spread_skew(kvsnap *s)
{
	m_spread(s, 2, "");
}

/* Pods being deleted (metadata.deletionTimestamp) are no spread's
 * (kube-scheduler podtopologyspread countPodsMatchSelector): the two on
 * w2 of m_spread_skew leave w2 at 0 + 1 against w1's 1. */
static void
m_spread_terminating(kvsnap *s)
{
	m_spread(s, 2, "");
	for (size_t i = 0; i < 2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "web-worker-%zu", i);
		kvj_sets(kvsnap_find(s, "pods", "", name),
		    "metadata.deletionTimestamp", "2026-10-31T09:00:00Z");
	}
}

/* ... but they still count for pod anti-affinity (InterPodAffinity reads
 * every pod of the node). */
static void
m_anti_db_terminating(kvsnap *s)
{
	m_anti_db(s);
	kvj_sets(kvsnap_find(s, "pods", "", "postgres-0"),
	    "metadata.deletionTimestamp", "2026-10-31T09:00:00Z");
}

/* Fewer eligible domains (w1, w2) than minDomains: the fewest counts 0. */
static void
m_spread_min_domains(kvsnap *s)
{
	m_spread(s, 1, ", \"minDomains\": 3");
}

/* ScheduleAnyway only scores. */
static void
m_spread_anyway(kvsnap *s)
{
	m_spread(s, 2, "");
	kvj_sets(vmi(s), "spec.topologySpreadConstraints[0]."
	    "whenUnsatisfiable", "ScheduleAnyway");
}

static void
m_nssel(kvsnap *s, const char *team, const char *selector)
{
	char *term = xasprintf(ANTI("{\"labelSelector\": {\"matchLabels\": "
	    "{\"app\": \"db\"}}, \"namespaceSelector\": %s, " HOST "}"),
	    selector);
	char *labels = xasprintf("{\"team\": \"%s\"}", team);

	pods_all(s);
	add_ns(s, "db", labels);
	vmi_affinity(s, term);
	add_lpod(s, "postgres-0", "db", "w2", "{\"app\": \"db\"}", "");
	free(term);
	free(labels);
}

static void
m_nssel_match(kvsnap *s)
{
	m_nssel(s, "data", "{\"matchLabels\": {\"team\": \"data\"}}");
}

static void
m_nssel_other(kvsnap *s)
{
	m_nssel(s, "web", "{\"matchLabels\": {\"team\": \"data\"}}");
}

/* An empty namespaceSelector selects every namespace. */
static void
m_nssel_all(kvsnap *s)
{
	m_nssel(s, "web", "{}");
}

/* Pods scope launchers: a selector any pod could match is not judged. */
static void
m_launchers_unjudged(kvsnap *s)
{
	vmi_affinity(s, ANTI(DB_TERM));
	add_lpod(s, "postgres-0", "db", "w2", "{\"app\": \"db\"}", "");
}

/* ...but one kept to launcher pods is: the snapshot has all of them. */
static void
m_launchers_judged(kvsnap *s)
{
	vmi_affinity(s, ANTI("{\"labelSelector\": {\"matchLabels\": {"
	    "\"kubevirt.io\": \"virt-launcher\", \"app\": \"db\"}}, "
	    "\"namespaces\": [\"db\"], " HOST "}"));
	add_lpod(s, "virt-launcher-dbvm-xyz", "db", "w2", "{\"app\": \"db\", "
	    "\"kubevirt.io\": \"virt-launcher\", \"kubevirt.io/created-by\": "
	    "\"uid-dbvm\"}", "");
}

/* The first constraint node w2 fails for prod/web. */
static char *
explain_w2(const kvres *r)
{
	const kv_vmires *vr = kvres_vmires(r, WEB);
	kv_buf b = {0};

	for (size_t n = 0; n < r->m->nnodes; n++)
		if (strcmp(r->m->nodes[n].name, "w2") == 0)
			kv_target_explain(r->a, r->a->place, vr, n, &b);
	return b.data ? b.data : xstrdup("");
}

static void
test_pod_affinity(void **state)
{
	const struct {
		mutation mut;
		const char *blockers, *targets, *needle;
	} cases[] = {
		{ m_anti_elsewhere, "", "w2", NULL },
		{ m_anti_db, "no-placement-target", "", "w2: pod anti-affinity "
		  "app=db in namespaces db on kubernetes.io/hostname: pod "
		  "db/postgres-0 runs in kubernetes.io/hostname=w2 (node(s) "
		  "didn't match pod anti-affinity rules)" },
		{ m_anti_own_ns, "", "w2", NULL },
		{ m_aff_w2, "", "w2", NULL },
		{ m_aff_a1, "no-placement-target", "", "w2: pod affinity app In "
		  "(cache,memcached) in namespaces db on kubernetes.io/hostname: "
		  "no running pod that matches every affinity term is in "
		  "kubernetes.io/hostname=w2 (node(s) didn't match pod affinity "
		  "rules)" },
		{ m_aff_self, "no-placement-target", "", "didn't match pod "
		  "affinity rules" },
		{ m_aff_self_first, "", "w2", NULL },
		{ m_sym_other, "", "w2", NULL },
		{ m_sym_web, "no-placement-target", "", "w2: pod db/postgres-0 "
		  "has pod anti-affinity app=web in namespaces prod on "
		  "kubernetes.io/hostname, which matches the target pod, and "
		  "runs in kubernetes.io/hostname=w2 (node(s) didn't satisfy "
		  "existing pods anti-affinity rules)" },
		{ m_spread_even, "", "w2", NULL },
		{ m_spread_skew, "no-placement-target", "", "w2: topology "
		  "spread app=web on kubernetes.io/hostname, maxSkew 1: "
		  "kubernetes.io/hostname=w2 has 2 matching pods and the "
		  "target pod would add one, the fewest in a domain 1 (node(s) "
		  "didn't match pod topology spread constraints)" },
		{ m_spread_terminating, "", "w2", NULL },
		{ m_anti_db_terminating, "no-placement-target", "", "pod "
		  "db/postgres-0 runs in kubernetes.io/hostname=w2" },
		{ m_spread_min_domains, "no-placement-target", "",
		  "minDomains 3: kubernetes.io/hostname=w2 has 1 matching pod "
		  "and the target pod would add one, the fewest in a domain 0" },
		{ m_spread_anyway, "", "w2", NULL },
		{ m_nssel_other, "", "w2", NULL },
		{ m_nssel_match, "no-placement-target", "", "w2: pod "
		  "anti-affinity app=db in namespaces selected by team=data on "
		  "kubernetes.io/hostname: pod db/postgres-0" },
		{ m_nssel_all, "no-placement-target", "", "selected by every "
		  "pod on kubernetes.io/hostname" },
		{ m_launchers_unjudged, "", "w2", NULL },
		{ m_launchers_judged, "no-placement-target", "", "pod "
		  "db/virt-launcher-dbvm-xyz runs in kubernetes.io/hostname=w2" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		print_message("pod affinity case %zu\n", i);
		assert_codes(v, "blockers", cases[i].blockers);
		assert_list(v, "targets", cases[i].targets);
		assert_list(v, "cpuTargets", "w2");
		assert_verdict(v, *cases[i].blockers ? "no-target" : "ok");
		if (cases[i].needle)
			assert_message_has(v, cases[i].blockers,
			    cases[i].needle);
		kvres_free(&r);
	}
}

/* explain names the term; the launchers scope says "not judged" there
 * and in one snapshot warning. */
static void
test_pod_affinity_unjudged(void **state)
{
	kvres r = run(m_launchers_unjudged);
	json_t *w = json_object_get(json_object_get(r.findings, "snapshot"),
	    "warnings");
	kv_buf b = {0};
	char *why;

	(void)state;
	assert_int_equal(kv_podaff_unjudged(r.a, kvres_vmires(&r, WEB), &b),
	    1);
	assert_string_equal(b.data, "pod anti-affinity app=db in namespaces "
	    "db on kubernetes.io/hostname: not judged\n");
	assert_int_equal(json_array_size(w), 2);
	assert_string_equal(json_string_value(json_array_get(w, 1)),
	    "pods: launcher pods only (scope launchers); the pod "
	    "(anti-)affinity or topology spread terms of 1 VMI select pods "
	    "that need not be launchers and were not judged");
	why = explain_w2(&r);
	assert_string_equal(why, "");
	free(why);
	kv_buf_free(&b);
	kvres_free(&r);
	r = run(m_launchers_judged);
	w = json_object_get(json_object_get(r.findings, "snapshot"),
	    "warnings");
	assert_int_equal(json_array_size(w), 1);
	assert_int_equal(kv_podaff_unjudged(r.a, kvres_vmires(&r, WEB), NULL),
	    0);
	kvres_free(&r);
	r = run(m_anti_db);
	why = explain_w2(&r);
	assert_non_null(strstr(why, "didn't match pod anti-affinity rules"));
	free(why);
	kvres_free(&r);
}

/* A bad term is refused naming the field. */
static void
m_bad_operator(kvsnap *s)
{
	vmi_affinity(s, ANTI("{\"labelSelector\": {\"matchExpressions\": [{"
	    "\"key\": \"app\", \"operator\": \"Gt\", \"values\": [\"1\"]}]}, "
	    HOST "}"));
}

static void
test_pod_affinity_bad_input(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	char *msg;

	(void)state;
	m_bad_operator(s);
	msg = kvsnap_load_error(s);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "spec.affinity.podAntiAffinity."
	    "requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector."
	    "matchExpressions[0].operator: unknown operator \"Gt\""));
	free(msg);
	kvsnap_free(s);
}

/* guest-cpu-floor: a RHEL 10 guest (common templates' annotation) on an
 * x86-64-v2 model (Nehalem) and on an x86-64-v3 one (Haswell-noTSX-IBRS:
 * v3 with QEMU's abm and f16c). */
static void
m_rhel10_v3(kvsnap *s)
{
	kvj_annotate(vmi(s), "vm.kubevirt.io/os", "rhel10");
	set_cpu(s, "Haswell-noTSX-IBRS");
}

static void
m_rhel10_v2(kvsnap *s)
{
	kvj_annotate(vmi(s), "vm.kubevirt.io/os", "rhel10");
	set_cpu(s, "Nehalem");
}

typedef struct rule_case {
	const char *code;
	mutation pass;			/* NULL: the base itself */
	const char *pass_verdict;	/* NULL: ok */
	mutation fail;
	const char *verdict;
	const char *blockers, *warnings;	/* complete lists, FAIL */
	const char *needle;		/* in the FAIL message, or NULL */
} rule_case;

#define DRAIN "eviction-blocks-drain"

static const rule_case rule_cases[] = {
	{ "network-pod-bridge", m_bridge_allowed, NULL, m_bridge, "blocked",
	  "network-pod-bridge", DRAIN, "interface default" },
	{ "network-binding", m_plugin_migratable, NULL, m_plugin, "blocked",
	  "network-binding", DRAIN, "managedtap" },
	{ "disk-not-shared", NULL, NULL, m_rwo, "blocked",
	  "disk-not-shared", "block-migration," DRAIN, "ReadWriteOnce, storage class ceph-rbd "
	  "(rbd.csi.ceph.com)" },
	{ "disk-claim-unknown", m_claim_from_pvc, NULL, m_claim_unknown,
	  "blocked", "disk-claim-unknown", "block-migration," DRAIN, "web-data" },
	{ "hostdisk-not-shared", m_hostdisk_shared, NULL, m_hostdisk,
	  "blocked", "hostdisk-not-shared", "block-migration," DRAIN, "scratch" },
	{ "host-device", m_gpu_permitted, NULL, m_hostdev, "blocked",
	  "host-device", DRAIN, "generic PCI host device" },
	{ "launch-security", NULL, NULL, m_sev, "blocked", "launch-security",
	  DRAIN, "SEV" },
	{ "tsc-frequency", m_reenlightenment_hint, NULL, m_reenlightenment,
	  "blocked", "tsc-frequency", DRAIN, "reenlightenment" },
	{ "hyperv-passthrough", m_hvpass_off, NULL, m_hvpass, "blocked",
	  "hyperv-passthrough", DRAIN, NULL },
	{ "host-model-unsupported", NULL, NULL, m_cpumode, "blocked",
	  "host-model-unsupported", DRAIN, "does not allow migration" },
	{ "no-cpu-target", NULL, NULL, m_no_cpu_target, "no-target",
	  "no-cpu-target", DRAIN, "cpu-feature.node.kubevirt.io/md-clear" },
	{ "no-placement-target", m_taint_tolerated, NULL, m_cordon,
	  "no-target", "no-placement-target", DRAIN, "w2: cordoned" },
	{ "no-capacity", m_capacity_room, NULL, m_capacity_full, "no-target",
	  "no-capacity", DRAIN, "w2: 31 CPU, 1.0 GiB, 109 pods free" },
	{ "source-host-model-label-missing", m_no_hm_label_named, NULL,
	  m_no_hm_label, "stuck", "source-host-model-label-missing", DRAIN,
	  "skipped by annotation" },
	{ "containerdisk-config-digest", m_cdisk_repo, NULL, m_cdisk_config,
	  "will-fail", "containerdisk-config-digest",
	  "block-migration," DRAIN, "would pull registry.local/tools/tools@sha256:"
	  HEX64 "," },
	{ "containerdisk-no-digest", m_cdisk_imagevolume, NULL, m_cdisk_none,
	  "stuck", "containerdisk-no-digest", "block-migration," DRAIN,
	  "has no sha256 digest" },
	{ "passthrough-cpu-differs", m_passthrough, NULL, m_passthrough_w3,
	  "ok", "", "passthrough-cpu-differs", "w3" },
	{ "block-migration", m_cloudinit_cdrom, NULL, m_cloudinit, "ok", "",
	  "block-migration", "cloudinit (cloudInitNoCloud)" },
	{ "pod-network-reconnect", m_bridge_allowed, NULL, m_masquerade, "ok",
	  "", "pod-network-reconnect", "masquerade" },
	{ "stale-vendor-label", NULL, NULL, m_stale_vendor, "ok", "",
	  "stale-vendor-label", "2 cpu-vendor labels" },
	{ "kernel-differs", m_kernel_same, NULL, m_kernel_w2, "ok", "",
	  "kernel-differs", "1 target runs another kernel than w1 "
	  "(6.8.0-85-generic): w2 (6.8.0-90-generic)" },
	{ "guest-cpu-floor", m_rhel10_v3, NULL, m_rhel10_v2, "ok", "",
	  "guest-cpu-floor", "guest RHEL 10 (vm.kubevirt.io/os rhel10) needs "
	  "x86-64-v3; CPU model Nehalem gives x86-64-v2" },
	{ "eviction-blocks-drain", m_ifpossible_unmigratable, "blocked",
	  m_hostdev, "blocked", "host-device", DRAIN, "LiveMigrate" },
	{ "eviction-shutdown", NULL, NULL, m_evict_none, "ok", "",
	  "eviction-shutdown", "stops the VM" },
};
#define NCASES (sizeof(rule_cases) / sizeof(rule_cases[0]))

static void
test_case_pass(void **state)
{
	const rule_case *c = *state;
	kvres r = run(c->pass);
	json_t *v = kvres_vmi(&r, WEB);

	assert_non_null(kv_rule_find(c->code));
	if (has_code(v, "blockers", c->code) ||
	    has_code(v, "warnings", c->code))
		fail_msg("%s present in its PASS case", c->code);
	assert_verdict(v, c->pass_verdict ? c->pass_verdict : "ok");
	kvres_free(&r);
}

static void
test_case_fail(void **state)
{
	const rule_case *c = *state;
	const kv_rule *rule = kv_rule_find(c->code);
	kvres r = run(c->fail);
	json_t *v = kvres_vmi(&r, WEB);

	assert_non_null(rule);
	assert_true(has_code(v, rule->severity == SEV_BLOCKER ? "blockers" :
	    "warnings", c->code));
	assert_verdict(v, c->verdict);
	assert_codes(v, "blockers", c->blockers);
	assert_codes(v, "warnings", c->warnings);
	if (c->needle != NULL)
		assert_message_has(v, c->code, c->needle);
	if (rule->severity == SEV_BLOCKER) {
		/* a blocker's own verdict, unless a stronger one is listed */
		if (strcmp(c->blockers, c->code) == 0)
			assert_string_equal(c->verdict,
			    kv_verdict_names[rule->verdict]);
	}
	kvres_free(&r);
}

/* Where the guest OS is read (guestos.h), first source first, and what
 * the effective CPU gives. */
static void
m_os_agent(kvsnap *s)
{
	kvj_sets(vmi(s), "status.guestOSInfo.id", "rhel");
	kvj_sets(vmi(s), "status.guestOSInfo.versionId", "10.0");
	kvj_annotate(vmi(s), "vm.kubevirt.io/os", "rhel9");
	set_cpu(s, "Nehalem");
}

static void
m_os_alma_v2_build(kvsnap *s)
{
	kvj_sets(vmi(s), "status.guestOSInfo.id", "almalinux");
	kvj_sets(vmi(s), "status.guestOSInfo.versionId", "10.0");
	kvj_sets(vmi(s), "status.guestOSInfo.kernelRelease",
	    "6.12.0-55.el10.x86_64_v2");
	set_cpu(s, "Nehalem");
}

static void
m_os_template_label(kvsnap *s)
{
	kvj_label(vmi(s), "os.template.kubevirt.io/centos.stream10", "true");
	set_cpu(s, "Nehalem");
}

static void
m_os_preference_rhel9(kvsnap *s)
{
	kvj_annotate(vmi(s), "kubevirt.io/cluster-preference-name", "rhel.9");
	set_cpu(s, "Penryn");
}

static void
m_os_rhel9_v2(kvsnap *s)
{
	kvj_annotate(vmi(s), "vm.kubevirt.io/os", "rhel9");
	set_cpu(s, "Nehalem");
}

static void
m_os_host_model(kvsnap *s)
{
	kvj_annotate(vmi(s), "kubevirt.io/preference-name", "rhel.10");
}

static void
m_os_windows(kvsnap *s)
{
	kvj_annotate(vmi(s), "kubevirt.io/preference-name", "windows.11");
	set_cpu(s, "Penryn");
}

static void
m_os_required_features(kvsnap *s)
{
	m_rhel10_v2(s);
	kvj_setj(vmi(s), "spec.domain.cpu.features", "[{\"name\": \"avx\"}, "
	    "{\"name\": \"avx2\"}, {\"name\": \"bmi1\"}, {\"name\": "
	    "\"bmi2\"}, {\"name\": \"f16c\"}, {\"name\": \"fma\"}, "
	    "{\"name\": \"abm\"}, {\"name\": \"movbe\"}, {\"name\": "
	    "\"xsave\", \"policy\": \"require\"}]");
}

static void
test_guest_floor_sources(void **state)
{
	static const struct {
		mutation mut;
		const char *needle;	/* NULL: no guest-cpu-floor */
	} cases[] = {
		{ m_os_agent, "guest RHEL 10 (status.guestOSInfo 10.0) needs "
		  "x86-64-v3; CPU model Nehalem gives x86-64-v2" },
		{ m_os_alma_v2_build, NULL },
		{ m_os_template_label, "guest CentOS Stream 10 (label "
		  "os.template.kubevirt.io/centos.stream10) needs x86-64-v3" },
		{ m_os_preference_rhel9, "guest RHEL 9 (preference rhel.9) "
		  "needs x86-64-v2; CPU model Penryn gives x86-64-v1" },
		{ m_os_rhel9_v2, NULL },
		{ m_os_host_model, NULL },
		{ m_os_windows, NULL },
		{ m_os_required_features, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		print_message("case %zu\n", i);
		assert_verdict(v, "ok");
		if (cases[i].needle == NULL)
			assert_false(has_code(v, "warnings",
			    "guest-cpu-floor"));
		else
			assert_message_has(v, "guest-cpu-floor",
			    cases[i].needle);
		kvres_free(&r);
	}
}

/* The spec's code tables, the rule table and the case table agree. */
static void
spec_codes(const char *table, char ***out, size_t *n)
{
	const char *shared = getenv("SHARED");
	char *path, *text, *line, *save = NULL;
	bool in = false;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (shared == NULL)
		return;
	path = xasprintf("%s/spec/findings.md", shared);
	text = kvtest_read_file(path, NULL);
	if (text == NULL)
		fail_msg("cannot read %s", path);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, table, strlen(table)) == 0)
			in = true;
		else if (in && strncmp(line, "| `", 3) == 0) {
			char *end = strchr(line + 3, '`');

			KV_GROW(*out, cap, *n + 1);
			(*out)[(*n)++] = xstrndup(line + 3,
			    (size_t)(end - line - 3));
		} else if (in && *n > 0 && line[0] != '|')
			break;
	}
	free(text);
	free(path);
}

static void
test_case_table_covers_every_code(void **state)
{
	const char *tables[] = { "Blocker codes:", "Warning codes:" };
	size_t nspec = 0;

	/* every case names a rule; the Deckhouse-only rows of kv_rules[]
	 * (not in findings.md) are test_dvp.c's */
	for (size_t k = 0; k < NCASES; k++) {
		const kv_rule *r = kv_rule_find(rule_cases[k].code);

		if (r == NULL)
			fail_msg("case %s: no such rule", rule_cases[k].code);
		assert_non_null(r->words[KV_FLAVOR_KUBEVIRT].remediation);
		assert_non_null(r->words[KV_FLAVOR_KUBEVIRT].title);
		for (size_t j = 0; j < k; j++)
			assert_string_not_equal(rule_cases[j].code,
			    rule_cases[k].code);
	}
	{
		const char *sh = getenv("SHARED");
		char *spec = xasprintf("%s/spec/findings.md", sh ? sh : ".");
		bool have = sh != NULL && access(spec, R_OK) == 0;

		free(spec);
		if (!have) {
			print_message("no $SHARED/spec/findings.md: codes not "
			    "compared with the spec\n");
			return;
		}
	}
	/* every code of findings.md has a rule of its kind and a case */
	for (size_t t = 0; t < 2; t++) {
		char **spec;
		size_t n;

		spec_codes(tables[t], &spec, &n);
		assert_true(n > 0);
		for (size_t i = 0; i < n; i++) {
			const kv_rule *r = kv_rule_find(spec[i]);
			size_t k;

			if (r == NULL)
				fail_msg("findings.md code %s is not in "
				    "kv_rules[]", spec[i]);
			assert_int_equal(r->severity, t == 0 ? SEV_BLOCKER :
			    SEV_WARNING);
			for (k = 0; k < NCASES; k++)
				if (strcmp(rule_cases[k].code, spec[i]) == 0)
					break;
			if (k == NCASES)
				fail_msg("findings.md code %s has no PASS/FAIL "
				    "case", spec[i]);
			free(spec[i]);
		}
		nspec += n;
		free(spec);
	}
	assert_int_equal(nspec, NCASES);
}

/* ---- precedence and the list of blockers --------------------------------- */

/* Blockers of four kinds: host device (blocked), containerDisk without
 * digest (stuck), cordoned twin (no-target), containerDisk with a config
 * digest (will-fail). */
static void
m_four(kvsnap *s)
{
	m_hostdev(s);
	add_containerdisk(s, "c1", "c1-" HEX64);
	add_containerdisk(s, "c2", "sha256:" HEX64);
	cordon(s, "w2");
}

static void
m_three(kvsnap *s)
{
	m_four(s);
	kvj_del(vmi(s), "spec.domain.devices.hostDevices");
}

static void
m_two(kvsnap *s)
{
	json_t *v;

	m_three(s);
	v = vmi(s);
	json_array_remove(kvj_at(v, "spec.volumes"), 1);	/* c1 */
}

static void
m_one(kvsnap *s)
{
	m_two(s);
	kvj_del(node(s, "w2"), "spec.unschedulable");
}

static void
test_precedence(void **state)
{
	const struct {
		mutation mut;
		const char *verdict, *blockers;
	} steps[] = {
		{ m_four, "blocked", "containerdisk-config-digest,"
		  "containerdisk-no-digest,host-device,no-placement-target" },
		{ m_three, "stuck", "containerdisk-config-digest,"
		  "containerdisk-no-digest,no-placement-target" },
		{ m_two, "no-target", "containerdisk-config-digest,"
		  "no-placement-target" },
		{ m_one, "will-fail", "containerdisk-config-digest" },
	};

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		kvres r = run(steps[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		assert_verdict(v, steps[i].verdict);
		assert_codes(v, "blockers", steps[i].blockers);
		/* LiveMigratable says True: every one of them is a mismatch */
		assert_jbool(v, "conditionMismatch", true);
		kvres_free(&r);
	}
}

/* Two blockers of one code: both listed, in volume order. */
static void
m_two_rwo(kvsnap *s)
{
	m_rwo(s);
	add_disk(s, "logs", "{\"name\": \"logs\", \"persistentVolumeClaim\": "
	    "{\"claimName\": \"web-logs\"}}");
	kvj_pushj(vmi(s), "status.volumeStatus", "{\"name\": \"logs\", "
	    "\"persistentVolumeClaimInfo\": {\"claimName\": \"web-logs\", "
	    "\"accessModes\": [\"ReadWriteOncePod\"]}}");
}

static void
test_same_code_twice(void **state)
{
	kvres r = run(m_two_rwo);
	json_t *v = kvres_vmi(&r, WEB);
	json_t *b = json_object_get(v, "blockers");

	assert_codes(v, "blockers", "disk-not-shared,disk-not-shared");
	assert_non_null(strstr(json_string_value(kvj_at(json_array_get(b, 0),
	    "message")), "volume rootdisk"));
	assert_non_null(strstr(json_string_value(kvj_at(json_array_get(b, 1),
	    "message")), "volume logs: PVC web-logs is ReadWriteOncePod"));
	kvres_free(&r);
}

/* KubeVirt's condition names only the first failing check (§3.1: the
 * interface comes first); kvscope lists every blocker. */
static void
m_bridge_rwo_gpu(kvsnap *s)
{
	m_bridge(s);
	m_rwo(s);
	kvj_setj(vmi(s), "spec.domain.devices.gpus", "[{\"name\": \"gpu1\", "
	    "\"deviceName\": \"nvidia.com/GRID_T4-1Q\"}]");
	set_cond(s, "False", "InterfaceNotLiveMigratable", "cannot migrate "
	    "VMI which does not use masquerade or a migratable plugin to "
	    "connect to the pod network");
}

static void
test_first_failing_vs_all(void **state)
{
	kvres r = run(m_bridge_rwo_gpu);
	json_t *v = kvres_vmi(&r, WEB);

	assert_verdict(v, "blocked");
	assert_jstr(v, "condition.status", "False");
	assert_jstr(v, "condition.reason", "InterfaceNotLiveMigratable");
	/* the condition's reason adds nothing: our checks found it */
	assert_codes(v, "blockers",
	    "disk-not-shared,host-device,network-pod-bridge");
	assert_message_has(v, "host-device", "VGPULiveMigration");
	assert_jbool(v, "conditionMismatch", false);
	kvres_free(&r);
}

/* ---- the stored condition ------------------------------------------------- */

static void
m_false_hostdev_unseen(kvsnap *s)
{
	set_cond(s, "False", "HostDeviceNotLiveMigratable",
	    "VMI specifies non-migratable generic PCI host device");
}

static void
m_false_disks_unseen(kvsnap *s)
{
	set_cond(s, "False", "DisksNotLiveMigratable", "cannot migrate VMI: "
	    "PVC web-root is not shared, live migration requires that all "
	    "PVCs must be shared (using ReadWriteMany access mode)");
}

static void
m_false_and_cordon(kvsnap *s)
{
	m_false_hostdev_unseen(s);
	cordon(s, "w2");
}

static void
m_false_unknown_reason(kvsnap *s)
{
	set_cond(s, "False", "PersistentReservationNotLiveMigratable",
	    "VMI uses SCSI persistent reservation");
}

static void
test_stored_false_unreproduced(void **state)
{
	kvres r = run(m_false_hostdev_unseen);
	json_t *v = kvres_vmi(&r, WEB);

	/* node-local facts we cannot see: KubeVirt's word is kept */
	assert_verdict(v, "blocked");
	assert_codes(v, "blockers", "host-device");
	assert_message_has(v, "host-device", "KubeVirt reports "
	    "LiveMigratable=False: VMI specifies non-migratable generic PCI");
	assert_jbool(v, "conditionMismatch", false);
	assert_jstr(v, "onDrain", "block");
	kvres_free(&r);

	r = run(m_false_disks_unseen);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "blocked");
	assert_codes(v, "blockers", "disk-not-shared");
	assert_message_has(v, "disk-not-shared", "KubeVirt reports");
	kvres_free(&r);

	/* a blocker of another kind does not hide the stored reason */
	r = run(m_false_and_cordon);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "blocked");
	assert_codes(v, "blockers", "host-device,no-placement-target");
	kvres_free(&r);

	/* a reason no code maps (a v1.8 cluster's): still rejected */
	r = run(m_false_unknown_reason);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "blocked");
	assert_jstr(v, "condition.reason",
	    "PersistentReservationNotLiveMigratable");
	kvres_free(&r);
}

static void
m_cond_absent_cordon(kvsnap *s)
{
	set_cond(s, NULL, NULL, NULL);
	cordon(s, "w2");
}

static void
m_cond_absent_hostdev(kvsnap *s)
{
	set_cond(s, NULL, NULL, NULL);
	m_hostdev(s);
}

static void
m_second_vmi_ok(kvsnap *s)
{
	json_t *v = kvj(base_vmi);

	kvj_sets(v, "metadata.name", "api");
	kvj_sets(v, "metadata.uid", "uid-api");
	kvsnap_add(s, VMIS, v);
	cordon(s, "w2");
}

static void
test_condition_mismatch(void **state)
{
	kvres r = run(m_cordon);
	json_t *v = kvres_vmi(&r, WEB);

	assert_jstr(v, "condition.status", "True");
	assert_jbool(v, "conditionMismatch", true);
	assert_jint(r.findings, "summary.conditionMismatch", 1);
	kvres_free(&r);

	r = run(m_cond_absent_cordon);
	v = kvres_vmi(&r, WEB);
	assert_jstr(v, "condition.status", "absent");
	assert_jstr(v, "condition.reason", "");
	assert_verdict(v, "no-target");
	assert_jbool(v, "conditionMismatch", false);
	kvres_free(&r);

	r = run(m_cond_absent_hostdev);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "blocked");
	assert_jbool(v, "conditionMismatch", false);
	kvres_free(&r);

	r = run(m_cpumode);
	v = kvres_vmi(&r, WEB);
	assert_jbool(v, "conditionMismatch", false);
	kvres_free(&r);

	/* two VMIs, both True, both unschedulable: counted twice */
	r = run(m_second_vmi_ok);
	assert_jbool(kvres_vmi(&r, "prod/api"), "conditionMismatch", true);
	assert_jint(r.findings, "summary.conditionMismatch", 2);
	assert_jint(r.findings, "summary.no-target", 2);
	kvres_free(&r);
}

/* ---- outcomes and timeouts ------------------------------------------------ */

static void
m_not_running(kvsnap *s)
{
	m_hostdev(s);
	kvj_sets(vmi(s), "status.phase", "Scheduling");
}

static void
m_unsched_override(kvsnap *s)
{
	cordon(s, "w2");
	add_vmim(s, "mig-1", "prod", "web", "2026-10-31T09:00:00Z", "120",
	    NULL);
}

static void
m_pending_override(kvsnap *s)
{
	m_cdisk_config(s);
	add_vmim(s, "mig-1", "prod", "web", "2026-10-31T09:00:00Z", NULL,
	    "600");
}

/* The newest VMIM wins, whatever the file order. */
static void
m_newest_vmim(kvsnap *s)
{
	cordon(s, "w2");
	add_vmim(s, "mig-new", "prod", "web", "2026-10-31T09:00:00Z", "60",
	    NULL);
	add_vmim(s, "mig-old", "prod", "web", "2026-10-30T09:00:00Z", "120",
	    "30");
}

static void
m_other_vmims(kvsnap *s)
{
	cordon(s, "w2");
	add_vmim(s, "mig-db", "prod", "db", "2026-10-31T09:00:00Z", "60",
	    NULL);
	add_vmim(s, "mig-web", "staging", "web", "2026-10-31T09:00:00Z", "60",
	    NULL);
}

static void
m_blocked_override(kvsnap *s)
{
	m_hostdev(s);
	add_vmim(s, "mig-1", "prod", "web", "2026-10-31T09:00:00Z", "60",
	    "60");
}

static void
test_outcomes(void **state)
{
	kvres r = run(m_not_running);
	json_t *v = kvres_vmi(&r, WEB);

	assert_verdict(v, "not-running");
	assert_codes(v, "blockers", "");	/* nothing judged */
	assert_codes(v, "warnings", "");
	assert_list(v, "targets", "");
	assert_jint(r.findings, "summary.running", 0);
	assert_jint(r.findings, "summary.not-running", 1);
	kvres_free(&r);

	r = run(m_unsched_override);
	v = kvres_vmi(&r, WEB);
	assert_jstr(v, "outcome.kind", "unschedulable");
	assert_jint(v, "outcome.afterSeconds", 120);
	kvres_free(&r);

	r = run(m_pending_override);
	v = kvres_vmi(&r, WEB);
	assert_jstr(v, "outcome.kind", "pending-timeout");
	assert_jint(v, "outcome.afterSeconds", 600);
	/* the cluster defaults themselves are unchanged */
	assert_jint(r.findings, "config.unschedulableTimeoutSeconds", 300);
	assert_jint(r.findings, "config.pendingTimeoutSeconds", 900);
	kvres_free(&r);

	r = run(m_newest_vmim);
	assert_jint(kvres_vmi(&r, WEB), "outcome.afterSeconds", 60);
	kvres_free(&r);

	r = run(m_other_vmims);
	assert_jint(kvres_vmi(&r, WEB), "outcome.afterSeconds", 300);
	kvres_free(&r);

	r = run(m_blocked_override);
	v = kvres_vmi(&r, WEB);
	assert_jstr(v, "outcome.kind", "rejected");
	assert_jint(v, "outcome.afterSeconds", 0);
	kvres_free(&r);
}

/* ---- completion timeout and MigrationPolicies ------------------------------ */

static const char *mem_guest;
static const char *mem_request;

static void
m_memory(kvsnap *s)
{
	json_t *v = vmi(s);

	kvj_sets(v, "spec.domain.memory.guest", mem_guest);
	kvj_sets(v, "spec.domain.resources.requests.memory", mem_request);
	if (mem_guest == NULL)
		kvj_del(v, "spec.domain.memory");
}

static void
test_completion_timeout_memory(void **state)
{
	const struct {
		const char *guest, *request;
		long long want;
	} cases[] = {
		{ "2Gi", "2Gi", 450 },		/* 2.147 GB: 3 units */
		{ "1Gi", "1Gi", 300 },		/* 1.07 GB: 2 units */
		{ "1G", "4Gi", 150 },		/* guest wins over requests */
		{ "1000000001", NULL, 300 },
		{ "512Mi", NULL, 150 },
		{ NULL, "4Gi", 750 },		/* 4.29 GB: 5 units */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r;

		mem_guest = cases[i].guest;
		mem_request = cases[i].request;
		r = run(m_memory);
		assert_jint(kvres_vmi(&r, WEB), "completionTimeoutSeconds",
		    cases[i].want);
		kvres_free(&r);
	}
}

static void
m_cluster_per_gib(kvsnap *s)
{
	kvj_set(kubevirt(s), "spec.configuration.migrations."
	    "completionTimeoutPerGiB", json_integer(100));
}

/* Policies: which one applies decides the per-GiB value (2Gi = 3 units). */
static void
m_pol_simple(kvsnap *s)
{
	m_cluster_per_gib(s);
	add_policy(s, "web", "{\"selectors\": {\"virtualMachineInstanceSelector"
	    "\": {\"app\": \"web\"}}, \"completionTimeoutPerGiB\": 200}");
	add_policy(s, "db", "{\"selectors\": {\"virtualMachineInstanceSelector"
	    "\": {\"app\": \"db\"}}, \"completionTimeoutPerGiB\": 900}");
}

/* Total score ties (1 namespace label vs 1 VMI label): more VMI labels
 * wins, although the namespace policy's name sorts first. */
static void
m_pol_vmi_beats_ns(kvsnap *s)
{
	add_policy(s, "a-ns", "{\"selectors\": {\"namespaceSelector\": "
	    "{\"team\": \"a\"}}, \"completionTimeoutPerGiB\": 100}");
	add_policy(s, "b-vmi", "{\"selectors\": "
	    "{\"virtualMachineInstanceSelector\": {\"app\": \"web\"}}, "
	    "\"completionTimeoutPerGiB\": 200}");
}

/* A higher total wins over more VMI labels. */
static void
m_pol_total_wins(kvsnap *s)
{
	m_pol_vmi_beats_ns(s);
	add_policy(s, "c-both", "{\"selectors\": {\"namespaceSelector\": "
	    "{\"team\": \"a\"}, \"virtualMachineInstanceSelector\": {\"app\": "
	    "\"web\"}}, \"completionTimeoutPerGiB\": 300}");
}

/* Same score, same VMI labels: the lexicographically smallest name. */
static void
m_pol_name_tie(kvsnap *s)
{
	add_policy(s, "zeta", "{\"selectors\": {\"virtualMachineInstanceSelector"
	    "\": {\"app\": \"web\"}}, \"completionTimeoutPerGiB\": 100}");
	add_policy(s, "alpha", "{\"selectors\": "
	    "{\"virtualMachineInstanceSelector\": {\"app\": \"web\"}}, "
	    "\"completionTimeoutPerGiB\": 200}");
}

/* selectors null never matches; an empty selectors object matches all
 * with score 0; a namespace selector on a label the namespace lacks does
 * not match. */
static void
m_pol_null_and_empty(kvsnap *s)
{
	add_policy(s, "a-null", "{\"completionTimeoutPerGiB\": 100}");
	add_policy(s, "b-empty", "{\"selectors\": {}, "
	    "\"completionTimeoutPerGiB\": 200}");
	add_policy(s, "c-other-ns", "{\"selectors\": {\"namespaceSelector\": "
	    "{\"team\": \"b\"}}, \"completionTimeoutPerGiB\": 900}");
}

/* §4.2 quirk: a VMI without labels matches every policy with selectors,
 * with score 0 (then the name decides). */
static void
m_pol_nil_labels(kvsnap *s)
{
	kvj_del(vmi(s), "metadata.labels");
	add_policy(s, "b-db", "{\"selectors\": {\"virtualMachineInstanceSelector"
	    "\": {\"app\": \"db\"}}, \"completionTimeoutPerGiB\": 100}");
	add_policy(s, "c-null", "{\"completionTimeoutPerGiB\": 900}");
}

static void
m_pol_zero(kvsnap *s)
{
	add_policy(s, "no-timeout", "{\"selectors\": {}, "
	    "\"completionTimeoutPerGiB\": 0}");
}

static void
test_completion_timeout_policy(void **state)
{
	const struct {
		mutation mut;
		long long want;
	} cases[] = {
		{ m_cluster_per_gib, 300 },
		{ m_pol_simple, 600 },
		{ m_pol_vmi_beats_ns, 600 },
		{ m_pol_total_wins, 900 },
		{ m_pol_name_tie, 600 },
		{ m_pol_null_and_empty, 600 },
		{ m_pol_nil_labels, 300 },
		{ m_pol_zero, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);

		assert_jint(kvres_vmi(&r, WEB), "completionTimeoutSeconds",
		    cases[i].want);
		kvres_free(&r);
	}
}

/* ---- eviction and drain --------------------------------------------------- */

static void
m_strategy_unset(kvsnap *s)
{
	kvj_del(vmi(s), "spec.evictionStrategy");
	kvj_del(kubevirt(s), "spec.configuration.evictionStrategy");
}

static void
m_strategy_from_cluster(kvsnap *s)
{
	kvj_del(vmi(s), "spec.evictionStrategy");
}

static void
m_ifpossible(kvsnap *s)
{
	kvj_sets(vmi(s), "spec.evictionStrategy", "LiveMigrateIfPossible");
}

static void
m_ifpossible_no_target(kvsnap *s)
{
	m_ifpossible(s);
	cordon(s, "w2");
}

static void
m_external(kvsnap *s)
{
	m_hostdev(s);
	kvj_sets(vmi(s), "spec.evictionStrategy", "External");
}

/* §5: the eviction webhook needs LiveMigratable present and True. */
static void
m_livemigrate_cond_absent(kvsnap *s)
{
	set_cond(s, NULL, NULL, NULL);
}

static void
m_ifpossible_cond_absent(kvsnap *s)
{
	m_ifpossible(s);
	set_cond(s, NULL, NULL, NULL);
}

static void
test_on_drain(void **state)
{
	const struct {
		mutation mut;
		const char *strategy, *on_drain, *warnings;
	} cases[] = {
		{ m_evict_none, "None", "shutdown", "eviction-shutdown" },
		{ m_strategy_unset, "None", "shutdown", "eviction-shutdown" },
		{ m_strategy_from_cluster, "LiveMigrate", "migrate", "" },
		{ NULL, "LiveMigrate", "migrate", "" },
		{ m_hostdev, "LiveMigrate", "block", DRAIN },
		{ m_ifpossible, "LiveMigrateIfPossible", "migrate", "" },
		{ m_ifpossible_unmigratable, "LiveMigrateIfPossible",
		  "shutdown", "" },
		{ m_ifpossible_no_target, "LiveMigrateIfPossible", "block",
		  DRAIN },
		{ m_external, "External", "external", "" },
		{ m_livemigrate_cond_absent, "LiveMigrate", "block", DRAIN },
		{ m_ifpossible_cond_absent, "LiveMigrateIfPossible",
		  "shutdown", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);
		json_t *d = json_array_get(json_object_get(r.findings,
		    "drain"), 0);

		print_message("case %zu: %s\n", i, cases[i].on_drain);
		assert_jstr(v, "evictionStrategy", cases[i].strategy);
		assert_jstr(v, "onDrain", cases[i].on_drain);
		assert_codes(v, "warnings", cases[i].warnings);
		assert_jstr(d, "node", "w1");
		assert_jint(d, cases[i].on_drain, 1);
		if (strcmp(cases[i].on_drain, "block") == 0)
			assert_list(d, "blocking", WEB);
		else
			assert_list(d, "blocking", "");
		assert_jint(d, "memoryBytesToMove", strcmp(cases[i].on_drain,
		    "migrate") == 0 ? 2147483648LL : 0);
		if (cases[i].mut == m_livemigrate_cond_absent) {
			assert_verdict(v, "ok");
			assert_message_has(v, DRAIN, "no LiveMigratable=True "
			    "condition");
		}
		kvres_free(&r);
	}
}

/* ---- targets and cpuTargets ------------------------------------------------ */

static const char *place_json;	/* for m_place_* */

static void
m_taint_w2(kvsnap *s)
{
	taint(s, "w2", place_json);
}

static void
m_tolerate_dedicated(kvsnap *s)
{
	taint(s, "w2", "{\"key\": \"dedicated\", \"value\": \"db\", "
	    "\"effect\": \"NoSchedule\"}");
	tolerate(s, place_json);
}

static void
test_taints(void **state)
{
	const struct {
		const char *taint;
		bool ok;
	} taints[] = {
		{ "{\"key\": \"dedicated\", \"value\": \"db\", \"effect\": "
		  "\"NoSchedule\"}", false },
		{ "{\"key\": \"dedicated\", \"effect\": \"NoExecute\"}", false },
		{ "{\"key\": \"dedicated\", \"effect\": \"PreferNoSchedule\"}",
		  true },
	};
	const struct {
		const char *toleration;
		bool ok;
	} tols[] = {
		{ "{\"key\": \"dedicated\", \"value\": \"db\"}", true },
		{ "{\"key\": \"dedicated\", \"operator\": \"Exists\"}", true },
		{ "{\"operator\": \"Exists\"}", true },
		{ "{\"key\": \"dedicated\", \"operator\": \"Exists\", "
		  "\"effect\": \"NoSchedule\"}", true },
		{ "{\"key\": \"dedicated\", \"value\": \"web\"}", false },
		{ "{\"key\": \"dedicated\", \"operator\": \"Exists\", "
		  "\"effect\": \"NoExecute\"}", false },
		{ "{\"key\": \"other\", \"operator\": \"Exists\"}", false },
	};

	for (size_t i = 0; i < sizeof(taints) / sizeof(taints[0]); i++) {
		kvres r;
		json_t *v;

		place_json = taints[i].taint;
		r = run(m_taint_w2);
		v = kvres_vmi(&r, WEB);
		print_message("taint %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", taints[i].ok ? "w2" : "");
		if (!taints[i].ok) {
			assert_verdict(v, "no-target");
			assert_message_has(v, "no-placement-target",
			    "not tolerated");
		}
		kvres_free(&r);
	}
	for (size_t i = 0; i < sizeof(tols) / sizeof(tols[0]); i++) {
		kvres r;

		place_json = tols[i].toleration;
		r = run(m_tolerate_dedicated);
		print_message("toleration %zu\n", i);
		assert_list(kvres_vmi(&r, WEB), "targets", tols[i].ok ? "w2" :
		    "");
		kvres_free(&r);
	}
}

static void
m_cordon_tolerated(kvsnap *s)
{
	cordon(s, "w2");
	tolerate(s, "{\"key\": \"node.kubernetes.io/unschedulable\", "
	    "\"operator\": \"Exists\", \"effect\": \"NoSchedule\"}");
}

static void
m_unschedulable_label(kvsnap *s)
{
	kvj_label(node(s, "w2"), "kubevirt.io/schedulable", "false");
}

static void
m_third_twin_cordon(kvsnap *s)
{
	intel_twin(s, "w4");
	cordon(s, "w2");
}

static void
test_cordon(void **state)
{
	kvres r = run(m_cordon);
	json_t *v = kvres_vmi(&r, WEB);

	/* the cordoned twin still satisfies the CPU part */
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_jbool(json_array_get(json_object_get(r.findings, "nodes"), 3),
	    "schedulable", false);
	kvres_free(&r);

	/* the scheduler lets a pod that tolerates the cordon taint in */
	r = run(m_cordon_tolerated);
	assert_list(kvres_vmi(&r, WEB), "targets", "w2");
	kvres_free(&r);

	r = run(m_unschedulable_label);
	v = kvres_vmi(&r, WEB);
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_message_has(v, "no-placement-target",
	    "kubevirt.io/schedulable=true differs");
	kvres_free(&r);

	r = run(m_third_twin_cordon);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "ok");
	assert_list(v, "cpuTargets", "w2,w4");
	assert_list(v, "targets", "w4");
	kvres_free(&r);
}

static const char *aff_exprs;	/* matchExpressions JSON */
static const char *aff_labels[4];	/* key, value pairs for w2 */

static void
m_affinity(kvsnap *s)
{
	char *a = xasprintf("{\"nodeAffinity\": {\"requiredDuringScheduling"
	    "IgnoredDuringExecution\": {\"nodeSelectorTerms\": %s}}}",
	    aff_exprs);

	kvj_setj(vmi(s), "spec.affinity", a);
	free(a);
	for (size_t i = 0; i < 4 && aff_labels[i] != NULL; i += 2)
		kvj_label(node(s, "w2"), aff_labels[i], aff_labels[i + 1]);
}

#define TERM(e) "[{\"matchExpressions\": [" e "]}]"

/* A node affinity, the node's one label and whether w2 passes. */
static const struct {
	const char *terms;
	const char *k1, *v1;
	bool ok;
} affinity_cases[] = {
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z1\", \"z2\"]}"), "zone", "z2", true },
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z9\"]}"), "zone", "z2", false },
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z2\"]}"), NULL, NULL, false },
	{ TERM("{\"key\": \"zone\", \"operator\": \"NotIn\", \"values\": "
	  "[\"z2\"]}"), "zone", "z2", false },
	{ TERM("{\"key\": \"zone\", \"operator\": \"NotIn\", \"values\": "
	  "[\"z9\"]}"), "zone", "z2", true },
	{ TERM("{\"key\": \"zone\", \"operator\": \"NotIn\", \"values\": "
	  "[\"z2\"]}"), NULL, NULL, true },
	{ TERM("{\"key\": \"ssd\", \"operator\": \"Exists\"}"),
	  "ssd", "", true },
	{ TERM("{\"key\": \"ssd\", \"operator\": \"Exists\"}"),
	  NULL, NULL, false },
	{ TERM("{\"key\": \"maintenance\", \"operator\": "
	  "\"DoesNotExist\"}"), "maintenance", "true", false },
	{ TERM("{\"key\": \"maintenance\", \"operator\": "
	  "\"DoesNotExist\"}"), NULL, NULL, true },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), "rack", "7", true },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), "rack", "5", false },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), "rack", "r7", false },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), NULL, NULL, false },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Lt\", \"values\": "
	  "[\"5\"]}"), "rack", "3", true },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Lt\", \"values\": "
	  "[\"5\"]}"), "rack", "7", false },
	/* requirements of a term are ANDed */
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z2\"]}, {\"key\": \"ssd\", \"operator\": \"Exists\"}"),
	  "zone", "z2", false },
	/* terms are ORed */
	{ "[{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": "
	  "\"In\", \"values\": [\"z9\"]}]}, {\"matchExpressions\": "
	  "[{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z2\"]}]}]", "zone", "z2", true },
	/* an empty term matches no node until KubeVirt appends to it:
	 * this host-model VMI's pod carries obsolete-host-model
	 * DoesNotExist in it (template.go modifyNodeAffintyToReject-
	 * Label), so w2 passes; test_empty_term_named for a model */
	{ "[{}]", NULL, NULL, true },
	{ "[{\"matchExpressions\": []}]", NULL, NULL, true },

	/* matchFields test the node's name */
	{ "[{\"matchFields\": [{\"key\": \"metadata.name\", "
	  "\"operator\": \"In\", \"values\": [\"w2\"]}]}]", NULL, NULL,
	  true },
	{ "[{\"matchFields\": [{\"key\": \"metadata.name\", "
	  "\"operator\": \"NotIn\", \"values\": [\"w2\"]}]}]", NULL,
	  NULL, false },
};

static void
test_node_affinity(void **state)
{
	for (size_t i = 0; i < sizeof(affinity_cases) /
	    sizeof(affinity_cases[0]); i++) {
		kvres r;
		json_t *v;

		aff_exprs = affinity_cases[i].terms;
		aff_labels[0] = affinity_cases[i].k1;
		aff_labels[1] = affinity_cases[i].v1;
		aff_labels[2] = NULL;
		r = run(m_affinity);
		v = kvres_vmi(&r, WEB);
		print_message("affinity case %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", affinity_cases[i].ok ? "w2" : "");
		if (!affinity_cases[i].ok)
			assert_message_has(v, "no-placement-target",
			    "node affinity");
		kvres_free(&r);
	}
}

/* A named model gets nothing appended: its empty term matches no node. */
static void
m_empty_term_named(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.affinity", "{\"nodeAffinity\": {\"required"
	    "DuringSchedulingIgnoredDuringExecution\": {\"nodeSelectorTerms"
	    "\": [{}]}}}");
	kvj_sets(vmi(s), "spec.domain.cpu.model", "Haswell-noTSX");
}

static void
test_empty_term_named(void **state)
{
	kvres r = run(m_empty_term_named);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_jstr(v, "cpu.mode", "named");
	assert_list(v, "targets", "");
	assert_message_has(v, "no-placement-target", "an empty "
	    "nodeSelectorTerm matches no node");
	kvres_free(&r);
}

static void
m_w2_small(kvsnap *s)
{
	kvj_sets(node(s, "w2"), "status.allocatable.memory", "2Gi");
}

/* Another VMI's launcher pod already takes most of w2. */
static void
m_w2_full(kvsnap *s)
{
	json_t *p = kvj(base_pod);

	kvj_sets(p, "metadata.name", "virt-launcher-db-xyz");
	kvj_label(p, "kubevirt.io/created-by", "uid-db");
	kvj_sets(p, "spec.nodeName", "w2");
	kvj_sets(p, "spec.containers[0].resources.requests.memory", "62Gi");
	kvsnap_add(s, "pods", "", p);
}

/* A pod of this VMI already on w2 (an unfinished migration's target). */
static void
m_w2_runs_own_pod(kvsnap *s)
{
	json_t *p = kvj(base_pod);

	kvj_sets(p, "metadata.name", "virt-launcher-web-target");
	kvj_sets(p, "spec.nodeName", "w2");
	kvj_sets(p, "status.phase", "Pending");
	kvj_label(p, "kubevirt.io/migrationJobUID", "uid-mig");
	kvsnap_add(s, "pods", "", p);
}

/* web's root disk is a LUN with a SCSI persistent reservation; another
 * VMI reserving the same PVC runs on w2 (pr marker set when pr is true). */
static void
pr_setup(kvsnap *s, bool pr)
{
	json_t *p = kvj(base_pod);

	kvj_del(vmi(s), "spec.domain.devices.disks[0].disk");
	kvj_setj(vmi(s), "spec.domain.devices.disks[0].lun",
	    "{\"reservation\": true}");
	kvj_sets(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "metadata.uid", "uid-pvc-web-root");
	kvj_sets(p, "metadata.name", "virt-launcher-db-pr");
	kvj_label(p, "kubevirt.io/created-by", "uid-db");
	kvj_sets(p, "spec.nodeName", "w2");
	kvj_sets(p, "spec.containers[0].resources.requests.memory", "1Gi");
	if (pr)
		kvj_label(p, "pr.kubevirt.io/uid-pvc-web-root", "");
	kvsnap_add(s, "pods", "", p);
}

static void
m_pr_shared_lun(kvsnap *s)
{
	pr_setup(s, true);
}

static void
m_pr_other_pod(kvsnap *s)
{
	pr_setup(s, false);
}

static void
m_vmi_node_selector(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.nodeSelector", "{\"disktype\": \"ssd\"}");
}

static void
m_cluster_node_selector(kvsnap *s)
{
	kvj_setj(kubevirt(s), "spec.configuration.developerConfiguration."
	    "nodeSelectors", "{\"kvm-ready\": \"yes\"}");
	kvj_label(node(s, "w1"), "kvm-ready", "yes");
	kvj_label(node(s, "w2"), "kvm-ready", "yes");
}

static void
test_placement(void **state)
{
	const struct {
		mutation mut;
		const char *targets, *needle;
	} cases[] = {
		{ m_w2_small, "", "not enough memory: 2.0 GiB free, needs "
		  "2.2 GiB" },
		{ m_w2_full, "", "not enough memory" },
		{ m_w2_runs_own_pod, "", "runs pod virt-launcher-web-target" },
		{ m_pr_shared_lun, "", "prod/virt-launcher-db-pr, which holds a "
		  "persistent reservation" },
		{ m_pr_other_pod, "w2", NULL },
		{ m_vmi_node_selector, "", "label disktype=ssd missing" },
		{ m_cluster_node_selector, "w2", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		print_message("placement case %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", cases[i].targets);
		if (cases[i].needle)
			assert_message_has(v, "no-placement-target",
			    cases[i].needle);
		kvres_free(&r);
	}
}

static void
m_named_westmere(kvsnap *s)
{
	set_cpu(s, "Westmere");
}

static void
m_obsolete_w2(kvsnap *s)
{
	kvj_label(node(s, "w2"), "node-labeller.kubevirt.io/"
	    "obsolete-host-model", "true");
}

static void
m_obsolete_w2_named(kvsnap *s)
{
	m_obsolete_w2(s);
	set_cpu(s, "Haswell-noTSX");
}

static void
m_forbid_aes(kvsnap *s)
{
	set_cpu(s, "Haswell-noTSX");
	kvj_setj(vmi(s), "spec.domain.cpu.features", "[{\"name\": \"aes\", "
	    "\"policy\": \"forbid\"}]");
}

static void
m_require_rdrand_named(kvsnap *s)
{
	set_cpu(s, "Haswell-noTSX");
	kvj_setj(vmi(s), "spec.domain.cpu.features", "[{\"name\": \"rdrand\"},"
	    " {\"name\": \"invpcid\", \"policy\": \"optional\"}]");
}

static void
m_tsc_w2_other(kvsnap *s)
{
	m_reenlightenment_hint(s);
	kvj_label(node(s, "w2"), "scheduling." DOM "/tsc-frequency-2400000000",
	    NULL);
	kvj_label(node(s, "w2"), "scheduling." DOM "/tsc-frequency-2600000000",
	    "true");
}

/* §2.6: a VMI that needs TSC for migration gets the hint's scheduling
 * label (not a cpu-timer label); a node without it cannot take it. */
static void
test_tsc_selector(void **state)
{
	kvres r = run(m_reenlightenment_hint);
	json_t *v = kvres_vmi(&r, WEB);

	assert_selector(v, "scheduling." DOM "/tsc-frequency-2400000000",
	    "true");
	assert_list(v, "targets", "w2");
	kvres_free(&r);

	r = run(m_tsc_w2_other);
	v = kvres_vmi(&r, WEB);
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_codes(v, "blockers", "no-placement-target");
	assert_message_has(v, "no-placement-target",
	    "tsc-frequency-2400000000=true missing");
	kvres_free(&r);
}

static void
test_cpu_selectors(void **state)
{
	kvres r = run(m_passthrough);
	json_t *v = kvres_vmi(&r, WEB);

	/* host-passthrough: only the vendor of the source; AMD a1 out */
	assert_jstr(v, "cpu.mode", "host-passthrough");
	assert_selector(v, "cpu-vendor." DOM "/Intel", "true");
	assert_selector(v, "cpu-model-migration." DOM "/Skylake-Client-IBRS",
	    NULL);
	assert_list(v, "cpuTargets", "w2");
	kvres_free(&r);

	/* a named model a1 also offers: the vendor still keeps it out */
	r = run(m_named_westmere);
	v = kvres_vmi(&r, WEB);
	assert_jstr(v, "cpu.mode", "named");
	assert_jstr(v, "cpu.model", "Westmere");
	assert_selector(v, "cpu-model." DOM "/Westmere", "true");
	assert_selector(v, "cpu-vendor." DOM "/Intel", "true");
	assert_list(v, "cpuTargets", "w2");
	kvres_free(&r);

	/* obsolete-host-model DoesNotExist: host-model only (§2.2) */
	r = run(m_obsolete_w2);
	v = kvres_vmi(&r, WEB);
	assert_list(v, "cpuTargets", "");
	assert_verdict(v, "no-target");
	assert_codes(v, "blockers", "no-cpu-target");
	kvres_free(&r);
	r = run(m_obsolete_w2_named);
	assert_list(kvres_vmi(&r, WEB), "targets", "w2");
	kvres_free(&r);

	/* forbid -> DoesNotExist on the feature */
	r = run(m_forbid_aes);
	v = kvres_vmi(&r, WEB);
	assert_list(v, "cpuTargets", "");
	assert_codes(v, "blockers", "no-cpu-target");
	kvres_free(&r);

	/* require (or no policy) -> selector; optional -> nothing */
	r = run(m_require_rdrand_named);
	v = kvres_vmi(&r, WEB);
	assert_selector(v, "cpu-feature." DOM "/rdrand", "true");
	assert_selector(v, "cpu-feature." DOM "/invpcid", NULL);
	assert_list(v, "targets", "w2");
	kvres_free(&r);
}

/* ---- host-model: copied or derived ------------------------------------------ */

/* The VM first booted on an IvyBridge-class host: its pod carries the
 * selectors of that node, which KubeVirt copies (§2.3 step 4). */
static void
m_copied(kvsnap *s)
{
	json_t *sel = kvj_obj(pod(s), "spec.nodeSelector");

	json_object_set_new(sel, "cpu-model-migration." DOM "/IvyBridge",
	    json_string("true"));
	json_object_set_new(sel, "cpu-feature." DOM "/aes",
	    json_string("true"));
	add_w3(s);
}

static void
m_copied_no_label(kvsnap *s)
{
	m_copied(s);
	m_no_hm_label(s);
}

static void
m_derived_w3(kvsnap *s)
{
	add_w3(s);
}

static void
test_host_model_copy(void **state)
{
	kvres r = run(m_derived_w3);
	json_t *v = kvres_vmi(&r, WEB);

	/* derived from w1: w3 lacks md-clear */
	assert_list(v, "cpuTargets", "w2");
	kvres_free(&r);

	r = run(m_copied);
	v = kvres_vmi(&r, WEB);
	assert_selector(v, "cpu-model-migration." DOM "/IvyBridge", "true");
	assert_selector(v, "cpu-feature." DOM "/aes", "true");
	assert_selector(v, "cpu-model-migration." DOM "/Skylake-Client-IBRS",
	    NULL);
	assert_selector(v, "cpu-feature." DOM "/md-clear", NULL);
	assert_selector(v, "cpu-vendor." DOM "/Intel", "true");
	assert_list(v, "cpuTargets", "w2,w3");
	assert_verdict(v, "ok");
	kvres_free(&r);

	/* copied: the source node's host-model label is never looked at */
	r = run(m_copied_no_label);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "ok");
	assert_codes(v, "blockers", "");
	kvres_free(&r);
}

/* §2.3 quirk: the VMI requires vmx, so its boot pod's selector carries
 * cpu-feature.../vmx and the first migration "copies" only that. */
static void
m_quirk(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.cpu.features", "[{\"name\": \"vmx\", "
	    "\"policy\": \"require\"}]");
	json_object_set_new(kvj_obj(pod(s), "spec.nodeSelector"),
	    "cpu-feature." DOM "/vmx", json_string("true"));
	add_w3(s);
}

/* The same without the launcher pods in the snapshot. */
static void
m_quirk_no_pods(kvsnap *s)
{
	m_quirk(s);
	kvsnap_remove(s, "pods", "", POD_NAME);
	kvsnap_status(s, "pods", "", "forbidden");
}

static void
assert_quirk(json_t *v)
{
	assert_selector(v, "cpu-feature." DOM "/vmx", "true");
	assert_selector(v, "cpu-model-migration." DOM "/Skylake-Client-IBRS",
	    NULL);
	assert_selector(v, "cpu-feature." DOM "/md-clear", NULL);
	assert_selector(v, "cpu-vendor." DOM "/Intel", "true");
	assert_list(v, "cpuTargets", "w2,w3");
}

static void
test_host_model_quirk(void **state)
{
	kvres r = run(m_quirk);

	assert_quirk(kvres_vmi(&r, WEB));
	kvres_free(&r);

	r = run(m_quirk_no_pods);
	assert_quirk(kvres_vmi(&r, WEB));
	kvres_free(&r);
}

/* A stale vendor label on the source only: KubeVirt picks one of the two
 * at random (Go map order), so the target selector is one of them and the
 * warning says so. */
static void
m_stale_vendor_source_only(kvsnap *s)
{
	kvj_label(node(s, "w1"), "cpu-vendor." DOM "/AMD", "true");
}

static void
test_stale_vendor_source_only(void **state)
{
	kvres r = run(m_stale_vendor_source_only);
	json_t *v = kvres_vmi(&r, WEB);
	json_t *sel = json_object_get(v, "targetSelectors");
	size_t n = 0;

	assert_true(has_code(v, "warnings", "stale-vendor-label"));
	assert_message_has(v, "stale-vendor-label", "node w1 carries 2");
	n += json_object_get(sel, "cpu-vendor." DOM "/AMD") != NULL;
	n += json_object_get(sel, "cpu-vendor." DOM "/Intel") != NULL;
	assert_int_equal(n, 1);
	kvres_free(&r);
}

/* ---- the pod network -------------------------------------------------------- */

static void
m_no_iface(kvsnap *s)
{
	kvj_del(vmi(s), "spec.networks");
	kvj_del(vmi(s), "spec.domain.devices.interfaces");
}

static void
m_no_iface_allowed(kvsnap *s)
{
	m_no_iface(s);
	kvj_annotate(vmi(s), "kubevirt.io/"
	    "allow-pod-bridge-network-live-migration", "true");
}

static void
m_no_iface_masquerade_default(kvsnap *s)
{
	m_no_iface(s);
	kvj_sets(kubevirt(s), "spec.configuration.network."
	    "defaultNetworkInterface", "masquerade");
}

static void
m_no_iface_no_autoattach(kvsnap *s)
{
	m_no_iface(s);
	kvj_set(vmi(s), "spec.domain.devices.autoattachPodInterface",
	    json_false());
}

static void
m_passt(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"passtBinding\": {}}");
}

static void
m_sriov_pod(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"sriov\": {}}");
}

static void
m_iface_missing(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"eth0\", \"masquerade\": {}}");
}

static void
m_plugin_other_migratable(kvsnap *s)
{
	m_plugin(s);
	kvj_setj(kubevirt(s), "spec.configuration.network.binding",
	    "{\"passt\": {\"sidecarImage\": \"x\", \"migration\": {}}, "
	    "\"managedtap\": {\"domainAttachmentType\": \"managedTap\"}}");
}

static void
test_pod_network(void **state)
{
	const struct {
		mutation mut;
		const char *blockers, *warnings, *needle;
	} cases[] = {
		{ m_no_iface, "network-pod-bridge", DRAIN,
		  "no network is declared" },
		{ m_no_iface_allowed, "", "", NULL },
		{ m_no_iface_masquerade_default, "", "pod-network-reconnect",
		  "the default interface" },
		{ m_no_iface_no_autoattach, "", "", NULL },
		{ m_bridge, "network-pod-bridge", DRAIN, "interface default" },
		{ m_bridge_allowed, "", "", NULL },
		{ m_masquerade, "", "pod-network-reconnect", "interface "
		  "default binds the pod network with masquerade" },
		{ m_passt, "", "pod-network-reconnect", "passt" },
		{ m_plugin, "network-binding", DRAIN, "no migration setting" },
		{ m_plugin_migratable, "", "", NULL },
		{ m_plugin_other_migratable, "network-binding", DRAIN,
		  "managedtap" },
		{ m_sriov_pod, "network-binding", DRAIN, "sriov" },
		{ m_iface_missing, "network-binding", DRAIN,
		  "no primary interface found for pod network default" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		print_message("pod network case %zu\n", i);
		assert_codes(v, "blockers", cases[i].blockers);
		assert_codes(v, "warnings", cases[i].warnings);
		assert_verdict(v, *cases[i].blockers ? "blocked" : "ok");
		if (cases[i].needle)
			assert_message_has(v, *cases[i].blockers ?
			    cases[i].blockers : cases[i].warnings,
			    cases[i].needle);
		kvres_free(&r);
	}
}

/* ---- volumes and migration method ------------------------------------------ */

/* volumeStatus (what KubeVirt reads) wins over the PVC object. */
static void
m_status_rwx_pvc_rwo(kvsnap *s)
{
	kvj_setj(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "spec.accessModes", "[\"ReadWriteOnce\"]");
}

static void
m_rwo_migrated(kvsnap *s)
{
	m_rwo(s);
	kvj_setj(vmi(s), "status.migratedVolumes", "[{\"volumeName\": "
	    "\"rootdisk\", \"sourcePVCInfo\": {\"claimName\": \"web-root\"}}]");
}

static void
m_rox(kvsnap *s)
{
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadOnlyMany\"]");
}

static void
m_virtiofs_configmap(kvsnap *s)
{
	json_t *v = vmi(s);

	kvj_pushj(v, "spec.domain.devices.filesystems", "{\"name\": \"conf\", "
	    "\"virtiofs\": {}}");
	kvj_pushj(v, "spec.volumes", "{\"name\": \"conf\", \"configMap\": "
	    "{\"name\": \"web-conf\"}}");
}

static void
m_pvcs_forbidden(kvsnap *s)
{
	m_claim_unknown(s);
	kvsnap_status(s, "persistentvolumeclaims", "", "forbidden");
	json_object_del(s->lists, "resources/persistentvolumeclaims.json");
}

static void
test_volumes(void **state)
{
	const struct {
		mutation mut;
		const char *blockers, *method, *needle;
	} cases[] = {
		{ m_status_rwx_pvc_rwo, "", "LiveMigration", NULL },
		{ m_rwo_migrated, "", "BlockMigration", NULL },
		/* a claim that fails the shared check makes virt-handler
		 * report a block migration too */
		{ m_rox, "disk-not-shared", "BlockMigration", "ReadOnlyMany" },
		{ m_virtiofs_configmap, "", "LiveMigration", NULL },
		{ m_cloudinit_cdrom, "", "LiveMigration", NULL },
		{ m_cloudinit, "", "BlockMigration", NULL },
		{ m_hostdisk_shared, "", "LiveMigration", NULL },
		{ m_cdisk_repo, "", "BlockMigration", NULL },
		{ m_claim_from_pvc, "", "LiveMigration", NULL },
	};
	kvres nj;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		print_message("volume case %zu\n", i);
		assert_codes(v, "blockers", cases[i].blockers);
		assert_jstr(v, "migrationMethod", cases[i].method);
		assert_int_equal(has_code(v, "warnings", "block-migration"),
		    strcmp(cases[i].method, "BlockMigration") == 0);
		if (cases[i].needle)
			assert_message_has(v, cases[i].blockers,
			    cases[i].needle);
		kvres_free(&r);
	}
	/* the claim is in neither the volumeStatus nor the input (PVCs
	 * forbidden): not judged, no disk-claim-unknown built on the
	 * missing PVCs (test_notjudged.c) */
	nj = run(m_pvcs_forbidden);
	assert_jstr(kvres_vmi(&nj, WEB), "verdict", "not-judged");
	assert_codes(kvres_vmi(&nj, WEB), "blockers", "");
	assert_jstr(kvres_vmi(&nj, WEB), "notJudged[0].message",
	    "persistentvolumeclaims: forbidden; claims the VMI's "
	    "volumeStatus does not describe cannot be judged");
	kvres_free(&nj);
}

/* ---- devices and features ---------------------------------------------------- */

static void
m_two_gpus(kvsnap *s)
{
	m_gpu_permitted(s);
	kvj_pushj(vmi(s), "spec.domain.devices.gpus", "{\"name\": \"gpu2\", "
	    "\"deviceName\": \"nvidia.com/GRID_T4-1Q\"}");
}

static void
m_gpu_not_permitted(kvsnap *s)
{
	m_gpu_permitted(s);
	kvj_sets(vmi(s), "spec.domain.devices.gpus[0].deviceName",
	    "nvidia.com/GRID_A100-4C");
}

/* Alpha gate, only disabled: off. */
static void
m_gpu_gate_disabled(kvsnap *s)
{
	m_gpu_permitted(s);
	kvj_setj(kubevirt(s), "spec.configuration.developerConfiguration."
	    "featureGates", "[]");
	kvj_setj(kubevirt(s), "spec.configuration.developerConfiguration."
	    "disabledFeatureGates", "[\"VGPULiveMigration\"]");
}

/* Enabled and disabled: explicitly enabled wins (rules §0). */
static void
m_gpu_gate_both(kvsnap *s)
{
	m_gpu_permitted(s);
	kvj_setj(kubevirt(s), "spec.configuration.developerConfiguration."
	    "disabledFeatureGates", "[\"VGPULiveMigration\"]");
}

static void
m_snp(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.launchSecurity", "{\"snp\": {}}");
}

static void
m_tdx(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.launchSecurity", "{\"tdx\": {}}");
}

static void
test_devices(void **state)
{
	const struct {
		mutation mut;
		const char *code, *needle;
	} cases[] = {
		{ m_two_gpus, "host-device", "too many GPUs (2)" },
		{ m_gpu_not_permitted, "host-device", "not a permitted" },
		{ m_gpu_gate_disabled, "host-device", "VGPULiveMigration" },
		{ m_snp, "launch-security", "SEV-SNP" },
		{ m_tdx, "launch-security", "TDX" },
	};

	kvres r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v;

		r = run(cases[i].mut);
		v = kvres_vmi(&r, WEB);
		print_message("device case %zu\n", i);
		assert_verdict(v, "blocked");
		assert_true(has_code(v, "blockers", cases[i].code));
		assert_message_has(v, cases[i].code, cases[i].needle);
		kvres_free(&r);
	}
	r = run(m_gpu_gate_both);
	assert_codes(kvres_vmi(&r, WEB), "blockers", "");
	kvres_free(&r);
}

/* ---- main ------------------------------------------------------------------ */

static int
group_setup(void **state)
{
	base = build_base();
	return 0;
}


/* ---- a pending migration's own selectors (§2.3 step 2) -------------------- */

static const char *added_json;	/* for m_added */
static const char *added_phase;

static void
m_added(kvsnap *s)
{
	add_vmim(s, "web-move", "prod", "web", "2026-10-31T09:00:00Z", NULL,
	    NULL);
	kvj_setj(kvsnap_find(s, VMIMS, "web-move"), "spec.addedNodeSelector",
	    added_json);
	kvj_sets(kvsnap_find(s, VMIMS, "web-move"), "status.phase",
	    added_phase);
	kvj_label(node(s, "w2"), "zone", "b");
}

static void
test_migration_selector(void **state)
{
	const struct {
		const char *sel, *phase, *verdict, *targets, *key, *value;
	} cases[] = {
		/* pass: w2 is in zone b */
		{ "{\"zone\": \"b\"}", "Pending", "ok", "w2", "zone", "b" },
		/* fail: no node is in zone c; CPU targets remain */
		{ "{\"zone\": \"c\"}", "Scheduling", "no-target", "", "zone",
		  "c" },
		/* a finished migration adds nothing */
		{ "{\"zone\": \"c\"}", "Succeeded", "ok", "w2", "zone", NULL },
		/* the template wins on a key clash (migration.go L957-960) */
		{ "{\"kubernetes.io/arch\": \"arm64\"}", "Pending", "ok", "w2",
		  "kubernetes.io/arch", "amd64" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r;
		json_t *v;
		kv_buf why = {0};

		added_json = cases[i].sel;
		added_phase = cases[i].phase;
		r = run(m_added);
		v = kvres_vmi(&r, WEB);
		print_message("added selector case %zu\n", i);
		assert_verdict(v, cases[i].verdict);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", cases[i].targets);
		assert_selector(v, cases[i].key, cases[i].value);
		if (strcmp(cases[i].verdict, "no-target") == 0) {
			const kv_vmires *vr = kvres_vmires(&r, WEB);

			assert_codes(v, "blockers", "no-placement-target");
			assert_message_has(v, "no-placement-target",
			    "w2: label zone=c differs (added by migration "
			    "web-move)");
			assert_true(kv_target_explain(r.a, r.a->place, vr,
			    (size_t)(kv_model_node(r.m, "w2") - r.m->nodes),
			    &why));
			assert_non_null(strstr(why.data, "web-move"));
			kv_buf_free(&why);
		} else
			assert_codes(v, "blockers", "");
		kvres_free(&r);
	}
}

/* ---- consistency ------------------------------------------------------------ */

static void
m_scheduling(kvsnap *s)
{
	kvj_sets(vmi(s), "status.phase", "Scheduling");
}

/* A VMI that is not Running has no node to drain: onDrain null, no drain
 * warning, even with LiveMigrate (findings.md). */
static void
test_not_running_never_blocks(void **state)
{
	kvres r = run(m_scheduling);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_verdict(v, "not-running");
	assert_jstr(v, "onDrain", NULL);
	assert_codes(v, "warnings", "");
	assert_jstr(v, "evictionStrategy", "LiveMigrate");
	kvres_free(&r);
}

/* An unfinished migration's target pod on w2: w2 satisfies the CPU part
 * (cpuTargets), and the target pod's anti-affinity on created-by rules it
 * out (targets); explain says both. */
static void
test_in_progress_target_pod(void **state)
{
	kvres r = run(m_w2_runs_own_pod);
	json_t *v = kvres_vmi(&r, WEB);
	const kv_vmires *vr = kvres_vmires(&r, WEB);
	size_t w2 = (size_t)(kv_model_node(r.m, "w2") - r.m->nodes);
	kv_buf why = {0};

	(void)state;
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_true(kv_nodeset_has(&vr->cpu_targets, w2));
	assert_false(kv_nodeset_has(&vr->targets, w2));
	assert_true(kv_target_explain(r.a, r.a->place, vr, w2, &why));
	assert_string_equal(why.data, "runs pod virt-launcher-web-target of "
	    "this VMI, the target pod of migration uid-mig in progress (pod "
	    "anti-affinity)");
	kv_buf_free(&why);
	kvres_free(&r);
}

/* Five more twins of w1 and w2 on another kernel than w1, and t3 runs
 * another pod of prod/web: five targets, four named, one more. */
static void
m_kernels_many(kvsnap *s)
{
	char name[16];
	json_t *p;

	set_kernel(s, "w1", "6.8.0-85-generic");
	set_kernel(s, "w2", "6.8.0-90-generic");
	for (int i = 1; i <= 5; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		intel_twin(s, name);
		set_kernel(s, name, "6.8.0-90-generic");
	}
	p = kvsnap_addj(s, "pods", "", base_pod);
	kvj_sets(p, "metadata.name", "virt-launcher-web-old");
	kvj_sets(p, "spec.nodeName", "t3");
}

/* The targets on another kernel, counted and named in node order, the
 * VMI's own nodes left out. */
static void
test_kernel_differs_many(void **state)
{
	kvres r = run(m_kernels_many);

	(void)state;
	assert_string_equal(message(kvres_vmi(&r, WEB), "kernel-differs"),
	    "5 targets run another kernel than w1 (6.8.0-85-generic): "
	    "t1 (6.8.0-90-generic), t2 (6.8.0-90-generic), t4 "
	    "(6.8.0-90-generic), t5 (6.8.0-90-generic) and 1 more");
	kvres_free(&r);
}

/* A twin of prod/web (its own name, uid and pod) and a third VMI that
 * differs only in its node selector. */
static void
m_twins(kvsnap *s)
{
	json_t *v = kvsnap_addj(s, VMIS, base_vmi);
	json_t *p = kvsnap_addj(s, "pods", "", base_pod);
	json_t *w = kvsnap_addj(s, VMIS, base_vmi);

	kvj_sets(v, "metadata.name", "web2");
	kvj_sets(v, "metadata.uid", "uid-web2");
	kvj_sets(p, "metadata.name", "virt-launcher-web2-abcde");
	json_object_set_new(kvj_obj(p, "metadata.labels"),
	    "kubevirt.io/created-by", json_string("uid-web2"));
	kvj_sets(w, "metadata.name", "web3");
	kvj_sets(w, "metadata.uid", "uid-web3");
	kvj_sets(w, "spec.nodeSelector.zone", "a");
}

/* Identical target-pod selector lists are one array, owned by the
 * placement context; another list is another array. */
static void
test_shared_selectors(void **state)
{
	kvres r = run(m_twins);
	const kv_vmires *web = kvres_vmires(&r, WEB);
	const kv_vmires *web2 = kvres_vmires(&r, "prod/web2");
	const kv_vmires *web3 = kvres_vmires(&r, "prod/web3");

	(void)state;
	assert_true(web->selectors.n > 5);
	assert_int_equal(web2->selectors.n, web->selectors.n);
	assert_ptr_equal(web2->selectors.v, web->selectors.v);
	assert_int_equal(web3->selectors.n, web->selectors.n + 1);
	assert_ptr_not_equal(web3->selectors.v, web->selectors.v);
	assert_string_equal(kv_labels_get(&web3->selectors, "zone"), "a");
	assert_null(kv_labels_get(&web->selectors, "zone"));
	kvres_free(&r);
}

static int
group_teardown(void **state)
{
	kvsnap_free(base);
	return 0;
}

#define CASE(i) \
	{ "pass/" #i, test_case_pass, NULL, NULL, (void *)&rule_cases[i] }, \
	{ "fail/" #i, test_case_fail, NULL, NULL, (void *)&rule_cases[i] }

/* The rule rows carry what other code used to list by code: condition
 * reasons per flavor, the operation-scoped flag, each flavor's words. */
static void
test_rule_rows(void **state)
{
	size_t scoped = 0;

	(void)state;
	assert_ptr_equal(kv_rule_by_reason(KV_FLAVOR_KUBEVIRT,
	    "TDXNotLiveMigratable"), kv_rule_find("launch-security"));
	assert_ptr_equal(kv_rule_by_reason(KV_FLAVOR_KUBEVIRT,
	    "DisksNotLiveMigratable"), kv_rule_find("disk-not-shared"));
	assert_ptr_equal(kv_rule_by_reason(KV_FLAVOR_DECKHOUSE,
	    "VirtualMachineHostDevicesNotMigratable"),
	    kv_rule_find("host-device"));
	assert_null(kv_rule_by_reason(KV_FLAVOR_DECKHOUSE,
	    "DisksNotLiveMigratable"));
	assert_null(kv_rule_by_reason(KV_FLAVOR_KUBEVIRT, NULL));
	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *r = &kv_rules[i];

		scoped += (r->flags & RULE_OPERATION_SCOPED) != 0;
		assert_non_null(r->check);
		assert_true(r->phase >= PHASE_TARGETS &&
		    r->phase <= PHASE_DRAIN);
		for (size_t f = 0; f < KV_NFLAVORS; f++) {
			const char *t, *fix;

			kv_rule_words_of(r, kv_flavors[f], &t, &fix);
			assert_non_null(t);
			assert_non_null(fix);
		}
	}
	assert_int_equal(scoped, 2);
	/* Harvester: KubeVirt's condition reasons; its rows only its own */
	assert_ptr_equal(kv_rule_by_reason(KV_FLAVOR_HARVESTER,
	    "HostDeviceNotLiveMigratable"), kv_rule_find("host-device"));
	assert_false(kv_rule_applies(kv_rule_find("harvester-device"),
	    KV_FLAVOR_KUBEVIRT));
	assert_true(kv_rule_applies(kv_rule_find("harvester-device"),
	    KV_FLAVOR_HARVESTER));
	assert_true(kv_rule_applies(kv_rule_find("host-device"),
	    KV_FLAVOR_HARVESTER));
	assert_true(kv_rule_find("vmop-in-progress")->flags &
	    RULE_OPERATION_SCOPED);
	assert_int_equal(kv_rule_find("vm-not-migratable")->phase,
	    PHASE_CONDITION);
	{
		const char *t, *fix;

		kv_rule_words_of(kv_rule_find("disk-not-shared"),
		    kv_flavors[KV_FLAVOR_DECKHOUSE], &t, &fix);
		assert_string_equal(t, "VirtualDisk not ReadWriteMany");
		kv_rule_words_of(kv_rule_find("no-cpu-target"),
		    kv_flavors[KV_FLAVOR_DECKHOUSE], &t, &fix);
		assert_string_equal(t, "No node satisfies the CPU selectors");
		assert_true(kv_startswith(fix, "Use a VirtualMachineClass"));
	}
}

int
main(void)
{
	struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_migrates),
		cmocka_unit_test(test_case_table_covers_every_code),
		CASE(0), CASE(1), CASE(2), CASE(3), CASE(4), CASE(5), CASE(6),
		CASE(7), CASE(8), CASE(9), CASE(10), CASE(11), CASE(12),
		CASE(13), CASE(14), CASE(15), CASE(16), CASE(17), CASE(18),
		CASE(19), CASE(20), CASE(21), CASE(22), CASE(23),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_guest_floor_sources),
		cmocka_unit_test(test_same_code_twice),
		cmocka_unit_test(test_first_failing_vs_all),
		cmocka_unit_test(test_stored_false_unreproduced),
		cmocka_unit_test(test_condition_mismatch),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_completion_timeout_memory),
		cmocka_unit_test(test_completion_timeout_policy),
		cmocka_unit_test(test_on_drain),
		cmocka_unit_test(test_taints),
		cmocka_unit_test(test_cordon),
		cmocka_unit_test(test_node_affinity),
		cmocka_unit_test(test_empty_term_named),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_capacity_formula),
		cmocka_unit_test(test_capacity_no_room),
		cmocka_unit_test(test_pod_affinity),
		cmocka_unit_test(test_pod_affinity_unjudged),
		cmocka_unit_test(test_pod_affinity_bad_input),
		cmocka_unit_test(test_capacity_unknown),
		cmocka_unit_test(test_node_set_refs),
		cmocka_unit_test(test_cpu_selectors),
		cmocka_unit_test(test_tsc_selector),
		cmocka_unit_test(test_host_model_copy),
		cmocka_unit_test(test_host_model_quirk),
		cmocka_unit_test(test_stale_vendor_source_only),
		cmocka_unit_test(test_pod_network),
		cmocka_unit_test(test_volumes),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_containerdisk_reference),
		cmocka_unit_test(test_rule_rows),
		cmocka_unit_test(test_migration_selector),
		cmocka_unit_test(test_not_running_never_blocks),
		cmocka_unit_test(test_in_progress_target_pod),
		cmocka_unit_test(test_shared_selectors),
		cmocka_unit_test(test_kernel_differs_many),
	};

	char *names[2 * NCASES];
	int rc;

	/* every row of the case table is in tests[], named by its code */
	if (NCASES != 24) {
		fprintf(stderr, "rule_cases has %zu rows; update CASE()s\n",
		    (size_t)NCASES);
		return 1;
	}
	for (size_t i = 0; i < 2 * NCASES; i++) {
		struct CMUnitTest *t = &tests[2 + i];

		names[i] = xasprintf("%s/%s", i % 2 ? "fail" : "pass",
		    ((const rule_case *)t->initial_state)->code);
		t->name = names[i];
	}
	rc = cmocka_run_group_tests_name("rules", tests, group_setup,
	    group_teardown);
	for (size_t i = 0; i < 2 * NCASES; i++)
		free(names[i]);
	return rc;
}
