/*
 * test_rules_misc.c - the pod network, volumes and migration method,
 * devices and features, a pending migration's own selectors,
 * consistency of the analysis, and the rule rows themselves.
 *
 * One of the test_rules_*.c binaries (split by rule family): each judges
 * small mutations of the base cluster of kvbase.h, written by the in-test
 * builder (kvsnap.h) and read back through kvscope's own loader,
 * analysis and findings.json writer; the running and asserting helpers
 * are kvrules.h's.  References are to rules-kubevirt.md.
 */
#include "kvtest.h"

#include <unistd.h>

#include "kvsnap.h"
#include "analyze/rules/rule.h"
#include "analyze/rules/target.h"

#include "kvbase.h"
#include "kvrules.h"
#include "kvmut.h"

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
	/* two active pods, one the target pod of the migration under way:
	 * not the controller's precondition */
	assert_false(has_code(v, "blockers", "multiple-launcher-pods"));
	kv_buf_free(&why);
	kvres_free(&r);
}

static void
m_inflight_and_stray(kvsnap *s)
{
	m_w2_runs_own_pod(s);
	m_stray_pod(s);
}

static void
m_stray_unknown_terminating(kvsnap *s)
{
	json_t *p;

	stray_pod(s, "Unknown");
	p = kvsnap_find(s, "pods", "", "virt-launcher-web-stray");
	kvj_sets(p, "spec.nodeName", "a1");
	kvj_sets(p, "metadata.deletionTimestamp", "2026-10-31T08:00:00Z");
}

static void
m_stray_v040(kvsnap *s)
{
	m_stray_pod(s);
	kvj_sets(kubevirt(s), "status.observedKubeVirtVersion", "v0.40.1");
}

static void
m_stray_v041(kvsnap *s)
{
	m_stray_pod(s);
	kvj_sets(kubevirt(s), "status.observedKubeVirtVersion", "v0.41.0");
}

/* virt-controller's VMIActivePodsCount (controller.c): the migration
 * under way's target pod plus a stray one are too many; a pod in phase
 * Unknown, terminating on a lost node, counts; not before v0.41.0. */
static void
test_active_pods(void **state)
{
	kvres r = run(m_inflight_and_stray);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_verdict(v, "stuck");
	assert_message_has(v, "multiple-launcher-pods", "3 pods of this VMI "
	    "are active: virt-launcher-web-abcde (Running, on w1, the source "
	    "node), virt-launcher-web-stray (Pending, no node), "
	    "virt-launcher-web-target (Pending, on w2); one is the target pod "
	    "of migration mig, still under way; virt-controller creates no "
	    "target pod while more than one is (it waits, with no timeout)");
	kvres_free(&r);
	r = run(m_stray_unknown_terminating);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "stuck");
	assert_message_has(v, "multiple-launcher-pods", "virt-launcher-web-"
	    "stray (Unknown, on a1, terminating)");
	kvres_free(&r);
	r = run(m_stray_v040);
	assert_false(has_code(kvres_vmi(&r, WEB), "blockers",
	    "multiple-launcher-pods"));
	kvres_free(&r);
	r = run(m_stray_v041);
	assert_true(has_code(kvres_vmi(&r, WEB), "blockers",
	    "multiple-launcher-pods"));
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

/* The risk warnings' other paths: KubeVirt's own outdated-launcher label;
 * a forced vmx feature on a named model; a class of
 * kubernetes.io/no-provisioner; none of them moves the verdict. */
static void
m_outdated_label(kvsnap *s)
{
	kvj_label(vmi(s), "kubevirt.io/outdatedLauncherImage", "");
}

static void
m_vmx_forced(kvsnap *s)
{
	m_vmx_differs(s);
	set_cpu(s, "Haswell-noTSX-IBRS");
	kvj_setj(vmi(s), "spec.domain.cpu.features",
	    "[{\"name\": \"vmx\", \"policy\": \"force\"}]");
}

static void
m_vmx_named(kvsnap *s)
{
	m_vmx_differs(s);
	set_cpu(s, "Haswell-noTSX-IBRS");
}

static void
m_no_provisioner(kvsnap *s)
{
	kvj_sets(kvsnap_find(s, "storageclasses", "storage.k8s.io",
	    "ceph-rbd"), "provisioner", "kubernetes.io/no-provisioner");
}

static void
test_risks(void **state)
{
	kvres r = run(m_outdated_label);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_verdict(v, "ok");
	assert_string_equal(message(v, "launcher-version-skew"),
	    "KubeVirt labels the VMI kubevirt.io/outdatedLauncherImage: its "
	    "launcher quay.io/kubevirt/virt-launcher:v1.9.0 is not the "
	    "virt-launcher a target pod gets; an upgrade is under way");
	kvres_free(&r);
	r = run(m_vmx_forced);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "ok");
	assert_string_equal(message(v, "nested-virt-differs"),
	    "the guest CPU has nested virtualization (vmx on w1); 1 target "
	    "lacks VMX capabilities w1 has: w2 (no vmx-posted-intr); QEMU "
	    "refuses the incoming guest (\"guest CPU doesn't match "
	    "specification: missing features\")");
	kvres_free(&r);
	r = run(m_vmx_named);	/* a named model without vmx: no nesting */
	assert_codes(kvres_vmi(&r, WEB), "warnings", "");
	kvres_free(&r);
	r = run(m_no_provisioner);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "ok");
	assert_string_equal(message(v, "rwx-node-local"),
	    "volume rootdisk: PVC web-root is ReadWriteMany, but storage "
	    "class ceph-rbd (kubernetes.io/no-provisioner) keeps its volume "
	    "on one node (local PersistentVolumes, each with a node "
	    "affinity): the target node does not have the data");
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
		    r->phase <= PHASE_ESTIMATE);
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
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pod_network),
		cmocka_unit_test(test_volumes),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_rule_rows),
		cmocka_unit_test(test_migration_selector),
		cmocka_unit_test(test_not_running_never_blocks),
		cmocka_unit_test(test_in_progress_target_pod),
		cmocka_unit_test(test_active_pods),
		cmocka_unit_test(test_shared_selectors),
		cmocka_unit_test(test_kernel_differs_many),
		cmocka_unit_test(test_risks),
	};

	return cmocka_run_group_tests_name("rules/misc", tests, group_setup,
	    group_teardown);
}
