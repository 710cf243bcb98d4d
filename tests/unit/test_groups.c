/*
 * test_groups.c - the groups of docs/findings.md ("groups") and
 * their fixes, on small snapshots written by the in-test builder
 * (kvsnap.h): for every fix kind a FAIL fixture (the group and its
 * fix, with the value it names) and a PASS fixture (no such group), and
 * the proof: each set-cpu-model, recreate-claim-rwx, change-binding and
 * set-eviction-strategy fix is applied to the snapshot and the snapshot
 * analysed again, and the group's VMIs then have a target (and the code
 * is gone).
 *
 * The base cluster is the one of test_rules_*.c: Intel twins w1 and w2, an
 * AMD node a1, a control-plane node cp1; prod/web on w1 migrates to w2.
 */
#include "kvtest.h"

#include <unistd.h>

#include "kvsnap.h"
#include <glib.h>

#include "analyze/decide/groups.h"
#include "analyze/rules/place.h"
#include "analyze/rules/rule.h"

#include "kvrules.h"

/* ---- running and asserting ------------------------------------------------ */

/* findings.json's group with code (and subject name, unless NULL), or
 * NULL. */
static json_t *
find_group(const kvres *r, const char *code, const char *name)
{
	json_t *arr = json_object_get(r->findings, "groups"), *g;
	size_t i;

	json_array_foreach(arr, i, g)
		if (strcmp(json_string_value(json_object_get(g, "code")),
		    code) == 0 && (name == NULL || strcmp(json_string_value(
		    kvj_at(g, "subject.name")), name) == 0))
			return g;
	return NULL;
}

static json_t *
need_group(const kvres *r, const char *code, const char *name)
{
	json_t *g = find_group(r, code, name);

	if (g == NULL)
		fail_msg("no group %s %s", code, name ? name : "");
	return g;
}

static void
assert_text_has(json_t *g, const char *needle)
{
	const char *t = json_string_value(kvj_at(g, "fix.text"));

	if (t == NULL || strstr(t, needle) == NULL)
		fail_msg("fix.text \"%s\" lacks \"%s\"", t ? t : "(null)",
		    needle);
}

static void
assert_text_lacks(json_t *g, const char *needle)
{
	const char *t = json_string_value(kvj_at(g, "fix.text"));

	if (t != NULL && strstr(t, needle) != NULL)
		fail_msg("fix.text \"%s\" has \"%s\"", t, needle);
}

static void
move_to(kvsnap *s, const char *node_name)
{
	kvj_sets(vmi(s), "status.nodeName", node_name);
	kvj_key(vmi(s), "metadata.labels", "kubevirt.io/nodeName", node_name);
	kvj_sets(pod(s), "spec.nodeName", node_name);
}

/* ---- the base has no group ------------------------------------------------ */

static void
test_base_no_groups(void **state)
{
	kvres r = run(NULL);

	(void)state;
	assert_int_equal(json_array_size(json_object_get(r.findings,
	    "groups")), 0);
	assert_jint(r.findings, "summary.groups", 0);
	assert_list(kvres_vmi(&r, WEB), "groups", "");
	kvres_free(&r);
}

/* ---- set-cpu-model --------------------------------------------------------- */

/* prod/web runs host-model on w3, whose host model no other node knows. */
static void
on_w3(kvsnap *s)
{
	add_w3(s);
	move_to(s, "w3");
}

/* The placement problems the CPU-model trials made that are still in the
 * analysis's table (kv_place_scratch drops them as each trial ends). */
static size_t
scratch_left(const kv_analysis *a)
{
	GHashTableIter it;
	gpointer key;
	size_t n = 0;

	g_hash_table_iter_init(&it, a->place->problems);
	while (g_hash_table_iter_next(&it, &key, NULL))
		n += ((const problem *)key)->scratch;
	return n;
}

/* Apply g's set-cpu-model fix to a copy of the mutated base and check
 * that every VMI it claims to fix now has a target. */
static void
prove_cpu_model(mutation mut, json_t *g, const char *name)
{
	kvsnap *s = kvsnap_copy(base);
	kvres r;

	mut(s);
	set_cpu(s, json_string_value(kvj_at(g, "fix.value")));
	r = kvsnap_run(s);
	kvsnap_free(s);
	assert_true(kvres_vmires(&r, name)->ntargets > 0);
	assert_jstr(kvres_vmi(&r, name), "verdict", "ok");
	assert_null(find_group(&r, "no-cpu-target", NULL));
	kvres_free(&r);
}

static void
test_set_cpu_model(void **state)
{
	kvres r = run(on_w3);
	json_t *g = need_group(&r, "no-cpu-target", NULL);
	const cpudb_model *m;

	(void)state;
	assert_jstr(g, "subject.kind", "cpuClass");
	assert_jstr(g, "verdict", "no-target");
	assert_jint(g, "vmis", 1);
	assert_list(g, "nodes", "w3");
	assert_list(g, "examples", WEB);
	/* the trials ran, and their problems went with them */
	assert_non_null(r.a->place->scratch_made);
	assert_int_equal(r.a->place->scratch_made->len, 0);
	assert_int_equal(scratch_left(r.a), 0);
	assert_jstr(g, "fix.action", "set-cpu-model");
	assert_jstr(g, "fix.path", "spec.template.spec.domain.cpu.model");
	assert_jbool(g, "fix.restart", true);
	assert_jint(g, "fix.fixes", 1);
	/* usable on w1, w2 and w3: every Intel node */
	assert_jint(g, "fix.effect.nodes", 3);
	assert_jint(g, "fix.effect.of", 3);
	m = kv_cpu_lookup(r.a, json_string_value(kvj_at(g, "fix.value")));
	assert_non_null(m);
	assert_string_equal(m->vendor, "Intel");
	/* the count is fix.fixes (the proof's), not a second one in the
	 * text */
	assert_text_has(g, "gives the guest x86-64-v3, with AVX2 and without "
	    "AVX-512");
	assert_null(strstr(json_string_value(kvj_at(g, "fix.text")),
	    "checked by re-analysis"));
	prove_cpu_model(on_w3, g, WEB);
	kvres_free(&r);
}

/* The only AMD node: no model helps, and no Intel model is named. */
static void
on_a1(kvsnap *s)
{
	move_to(s, "a1");
}

/* A second AMD node of another kind: prod/web runs on it. */
static void
on_a2(kvsnap *s)
{
	kvnode(s, "a2", "AMD", "EPYC-Milan",
	    FEAT_V3 " clzero ibpb sha-ni svm virt-ssbd pku",
	    "clzero ibpb virt-ssbd pku", MODELS_X86 " EPYC EPYC-Rome "
	    "EPYC-Milan", MODELS_X86 " EPYC EPYC-Rome EPYC-Milan");
	move_to(s, "a2");
}

static void
test_set_cpu_model_amd(void **state)
{
	kvres r = run(on_a1);
	json_t *g = need_group(&r, "no-cpu-target", NULL);
	const cpudb_model *m;

	(void)state;
	assert_jstr(g, "fix.action", "none");
	assert_jstr(g, "fix.value", NULL);
	assert_text_has(g, "only schedulable KubeVirt node of vendor AMD");
	kvres_free(&r);

	r = run(on_a2);
	g = need_group(&r, "no-cpu-target", NULL);
	assert_jstr(g, "fix.action", "set-cpu-model");
	m = kv_cpu_lookup(r.a, json_string_value(kvj_at(g, "fix.value")));
	assert_non_null(m);
	assert_string_equal(m->vendor, "AMD");
	assert_jint(g, "fix.effect.of", 2);
	prove_cpu_model(on_a2, g, WEB);
	kvres_free(&r);
}

/* ---- recreate-claim-rwx ---------------------------------------------------- */

static void
rwo_claim(kvsnap *s, const char *mode)
{
	json_t *pvc = kvsnap_find(s, "persistentvolumeclaims", "", "web-root");

	kvj_setj(pvc, "spec.accessModes", "[\"ReadWriteOnce\"]");
	kvj_sets(pvc, "spec.volumeMode", mode);
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadWriteOnce\"]");
	kvj_sets(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "volumeMode", mode);
}

static void
rwo_block(kvsnap *s)
{
	rwo_claim(s, "Block");
}

static void
rwo_fs(kvsnap *s)
{
	rwo_claim(s, "Filesystem");
}

static void
add_class(kvsnap *s, const char *name, const char *provisioner)
{
	char *o = xasprintf("{\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": "
	    "\"StorageClass\", \"metadata\": {\"name\": \"%s\"}, "
	    "\"provisioner\": \"%s\"}", name, provisioner);

	kvsnap_addj(s, "storageclasses", "storage.k8s.io", o);
	free(o);
}

static void
rwo_fs_nfs(kvsnap *s)
{
	rwo_fs(s);
	add_class(s, "nfs-csi", "nfs.csi.k8s.io");
}

/* A StorageProfile that says ceph-rbd gives RWX Filesystem: it wins
 * over what the provisioner table says. */
static void
rwo_fs_profile(kvsnap *s)
{
	rwo_fs_nfs(s);
	kvsnap_addj(s, "storageprofiles", "cdi.kubevirt.io", "{\"apiVersion\":"
	    " \"cdi.kubevirt.io/v1beta1\", \"kind\": \"StorageProfile\", "
	    "\"metadata\": {\"name\": \"ceph-rbd\"}, \"status\": "
	    "{\"claimPropertySets\": [{\"accessModes\": [\"ReadWriteMany\"], "
	    "\"volumeMode\": \"Filesystem\"}]}}");
}

/* Apply a recreate-claim-rwx fix: the claim as RWX on class cls. */
static void
prove_claim(mutation mut, const char *cls)
{
	kvsnap *s = kvsnap_copy(base);
	json_t *pvc;
	kvres r;

	mut(s);
	pvc = kvsnap_find(s, "persistentvolumeclaims", "", "web-root");
	kvj_setj(pvc, "spec.accessModes", "[\"ReadWriteMany\"]");
	kvj_sets(pvc, "spec.storageClassName", cls);
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadWriteMany\"]");
	r = kvsnap_run(s);
	kvsnap_free(s);
	assert_null(find_group(&r, "disk-not-shared", NULL));
	assert_jstr(kvres_vmi(&r, WEB), "verdict", "ok");
	kvres_free(&r);
}

static void
test_recreate_claim_rwx(void **state)
{
	kvres r = run(rwo_block);
	json_t *g = need_group(&r, "disk-not-shared", "ceph-rbd");

	(void)state;
	/* RBD gives RWX Block: the claim's own class */
	assert_jstr(g, "subject.kind", "storageClass");
	assert_jstr(g, "fix.action", "recreate-claim-rwx");
	assert_jstr(g, "fix.value", "ceph-rbd");
	assert_jint(g, "fix.fixes", 1);
	assert_text_has(g, "prod/web-root");
	prove_claim(rwo_block, "ceph-rbd");
	kvres_free(&r);

	/* Filesystem: RBD cannot, and nothing else here can */
	r = run(rwo_fs);
	g = need_group(&r, "disk-not-shared", "ceph-rbd");
	assert_jstr(g, "fix.value", NULL);
	assert_jint(g, "fix.fixes", 0);
	assert_text_has(g, "none in this cluster");
	kvres_free(&r);

	r = run(rwo_fs_nfs);
	g = need_group(&r, "disk-not-shared", "ceph-rbd");
	assert_jstr(g, "fix.value", "nfs-csi");
	prove_claim(rwo_fs_nfs, "nfs-csi");
	kvres_free(&r);

	r = run(rwo_fs_profile);
	g = need_group(&r, "disk-not-shared", "ceph-rbd");
	assert_jstr(g, "fix.value", "ceph-rbd");
	assert_text_has(g, "per its StorageProfile");
	kvres_free(&r);
}

/* The stored condition says DisksNotLiveMigratable while the VMI's one
 * claim is ReadWriteMany: the blocker's group finds no claim (a wanted
 * volume mode of 0, which every class "gives"; the class below has no
 * known abilities, so no evidence either).  Once a NULL strncmp in
 * resolve_claim_rwx. */
static void
cond_disks_no_rwo(kvsnap *s)
{
	json_t *conds = kvj_at(vmi(s), "status.conditions"), *c;
	size_t i;

	json_array_foreach(conds, i, c)
		if (strcmp(json_string_value(json_object_get(c, "type")),
		    "LiveMigratable") == 0) {
			kvj_sets(c, "status", "False");
			kvj_sets(c, "reason", "DisksNotLiveMigratable");
		}
	add_class(s, "a-local", "rancher.io/local-path");
}

static void
test_claim_rwx_condition_only(void **state)
{
	kvres r = run(cond_disks_no_rwo);
	json_t *g = need_group(&r, "disk-not-shared", "disk-not-shared");

	(void)state;
	assert_jstr(g, "subject.kind", "condition");
	assert_jstr(g, "fix.action", "none");
	assert_jstr(g, "fix.value", NULL);
	assert_text_has(g, "LiveMigratable condition's message");
	assert_jstr(kvres_vmi(&r, WEB), "verdict", "blocked");
	kvres_free(&r);
}

/* ---- the coded warnings (findings.json's top-level warnings) ------------- */

static void
pvcs_forbidden(kvsnap *s)
{
	kvsnap_status(s, "persistentvolumeclaims", "", "forbidden");
}

/* The coded warning of code, or NULL. */
static json_t *
find_warning(const kvres *r, const char *code)
{
	json_t *w;
	size_t i;

	json_array_foreach(json_object_get(r->raw, "warnings"), i, w)
		if (strcmp(json_string_value(json_object_get(w, "code")),
		    code) == 0)
			return w;
	return NULL;
}

static void
test_warnings_coded(void **state)
{
	kvres r = run(NULL);
	json_t *w;
	size_t n;

	(void)state;
	/* the base lacks no resource; the list is there all the same */
	assert_true(json_is_array(json_object_get(r.raw, "warnings")));
	assert_null(find_warning(&r, "missing-resource"));
	n = r.a->ncoded;
	kvres_free(&r);

	r = run(pvcs_forbidden);
	w = find_warning(&r, "missing-resource");
	assert_non_null(w);
	assert_non_null(strstr(json_string_value(json_object_get(w,
	    "message")), "persistentvolumeclaims: forbidden"));
	/* snapshot.warnings keeps the same fact as a string */
	assert_string_equal(json_string_value(json_array_get(kvj_at(r.raw,
	    "snapshot.warnings"), 0)), json_string_value(json_object_get(w,
	    "message")));
	assert_int_equal(r.a->ncoded, n + 1);
	assert_true(kv_warning_said[r.a->coded[0].code]);
	kvres_free(&r);
}

/* ---- change-binding -------------------------------------------------------- */

static void
pod_bridge(kvsnap *s)
{
	set_podnet(s, "{\"name\": \"default\", \"bridge\": {}}");
}

static void
test_change_binding(void **state)
{
	kvres r = run(pod_bridge);
	json_t *g = need_group(&r, "network-pod-bridge", "bridge");
	kvsnap *s;

	(void)state;
	assert_jstr(g, "subject.kind", "binding");
	assert_jstr(g, "fix.action", "change-binding");
	assert_jstr(g, "fix.value", "masquerade");
	assert_text_has(g, "allow-pod-bridge-network-live-migration");
	kvres_free(&r);

	/* the proof: the interface bound with the fix's value */
	s = kvsnap_copy(base);
	set_podnet(s, "{\"name\": \"default\", \"masquerade\": {}}");
	r = kvsnap_run(s);
	kvsnap_free(s);
	assert_null(find_group(&r, "network-pod-bridge", NULL));
	assert_jstr(kvres_vmi(&r, WEB), "verdict", "ok");
	kvres_free(&r);
}

/* ---- repull-image ---------------------------------------------------------- */

static void
config_digest(kvsnap *s)
{
	add_containerdisk(s, "tools", "sha256:" HEX64);
}

static void
repo_digest(kvsnap *s)
{
	add_containerdisk(s, "tools", "registry.local/tools/tools@sha256:"
	    HEX64);
}

static void
test_repull_image(void **state)
{
	kvres r = run(config_digest);
	json_t *g = need_group(&r, "containerdisk-config-digest", NULL);

	(void)state;
	assert_jstr(g, "subject.kind", "image");
	assert_jstr(g, "subject.name", "registry.local/tools/tools:1.0");
	assert_jstr(g, "fix.action", "repull-image");
	assert_text_has(g, "crictl pull registry.local/tools/tools:1.0");
	assert_text_has(g, "on w1");
	kvres_free(&r);
	r = run(repo_digest);
	assert_null(find_group(&r, "containerdisk-config-digest", NULL));
	kvres_free(&r);
}

/* ---- relabel-node ---------------------------------------------------------- */

static void
no_host_model_label(kvsnap *s)
{
	kvj_key(node(s, "w1"), "metadata.labels",
	    "host-model-cpu." DOM "/Skylake-Client-IBRS", NULL);
}

static void
test_relabel_node(void **state)
{
	kvres r = run(no_host_model_label);
	json_t *g = need_group(&r, "source-host-model-label-missing", "w1");

	(void)state;
	assert_jstr(g, "subject.kind", "node");
	assert_jstr(g, "verdict", "stuck");
	assert_jstr(g, "fix.action", "relabel-node");
	assert_jstr(g, "fix.value", "w1");
	assert_jbool(g, "fix.restart", false);
	kvres_free(&r);
}

/* ---- set-eviction-strategy ------------------------------------------------- */

static void
evict_none(kvsnap *s)
{
	kvj_sets(vmi(s), "spec.evictionStrategy", "None");
}

static void
evict_none_bridge(kvsnap *s)
{
	evict_none(s);
	pod_bridge(s);
}

static void
test_set_eviction_strategy(void **state)
{
	kvres r = run(evict_none);
	json_t *g = need_group(&r, "drain-shutdown", "None");
	kvsnap *s;

	(void)state;
	assert_jstr(g, "subject.kind", "evictionStrategy");
	assert_jstr(g, "verdict", "ok");
	assert_jstr(g, "fix.action", "set-eviction-strategy");
	assert_jstr(g, "fix.value", "LiveMigrate");
	assert_jint(g, "fix.fixes", 1);
	kvres_free(&r);

	/* the proof: LiveMigrate written in, the drain moves it */
	s = kvsnap_copy(base);
	evict_none(s);
	kvj_sets(vmi(s), "spec.evictionStrategy", "LiveMigrate");
	r = kvsnap_run(s);
	kvsnap_free(s);
	assert_int_equal(json_array_size(json_object_get(r.findings,
	    "groups")), 0);
	assert_jstr(kvres_vmi(&r, WEB), "onDrain", "migrate");
	kvres_free(&r);

	/* a VM that cannot migrate will stop whatever the strategy */
	r = run(evict_none_bridge);
	g = need_group(&r, "drain-shutdown", "None");
	assert_jstr(g, "verdict", "blocked");
	assert_jstr(g, "fix.action", "none");
	/* issue 28: no change, so no restart */
	assert_jbool(g, "fix.restart", false);
	assert_text_has(g, "The VMs will stop");
	assert_text_has(g, "with External they keep running but KubeVirt "
	    "refuses the eviction");
	kvres_free(&r);
}

/* LiveMigratable=False under LiveMigrateIfPossible: the drain stops it.
 * External keeps it running (the webhook refuses the eviction and marks
 * the VMI for a controller: pod-eviction-admitter.go), but the drain
 * then waits: the text says that, not "no strategy keeps it running". */
static void
ifpossible_not_migratable(kvsnap *s)
{
	pod_bridge(s);
	kvj_sets(vmi(s), "spec.evictionStrategy", "LiveMigrateIfPossible");
	kvj_setj(vmi(s), "status.conditions", "[{\"type\": "
	    "\"LiveMigratable\", \"status\": \"False\", \"reason\": "
	    "\"InterfaceNotLiveMigratable\"}]");
}

static void
test_drain_shutdown_ifpossible(void **state)
{
	kvres r = run(ifpossible_not_migratable);
	json_t *g = need_group(&r, "drain-shutdown", "LiveMigrateIfPossible");

	(void)state;
	assert_jstr(g, "fix.action", "none");
	assert_jbool(g, "fix.restart", false);
	assert_text_has(g, "KubeVirt does not report them LiveMigratable");
	assert_text_has(g, "with LiveMigrate the drain waits forever");
	assert_text_has(g, "with External they keep running but KubeVirt "
	    "refuses the eviction, marks the VMIs (status.evacuationNodeName) "
	    "for a controller of yours and migrates nothing, so the drain "
	    "waits until that controller moves or stops them");
	assert_text_lacks(g, "keeps them running");
	kvres_free(&r);
}

/* ---- drain-block: what helps in KubeVirt's terms ------------------------ */

static void
block_tried(kvsnap *s)
{
	cordon(s, "w2");
}

static void
block_tried_ifpossible(kvsnap *s)
{
	cordon(s, "w2");
	kvj_sets(vmi(s), "spec.evictionStrategy", "LiveMigrateIfPossible");
}

static void
block_not_tried(kvsnap *s)
{
	pod_bridge(s);
	kvj_setj(vmi(s), "status.conditions", "[{\"type\": "
	    "\"LiveMigratable\", \"status\": \"False\", \"reason\": "
	    "\"InterfaceNotLiveMigratable\"}]");
}

/* Apply g's value to a copy of the mutated base: the VMI leaves
 * drain-block and its drain does what. */
static void
prove_drain(mutation mut, json_t *g, const char *what)
{
	kvsnap *s = kvsnap_copy(base);
	kvres r;

	mut(s);
	kvj_sets(vmi(s), "spec.evictionStrategy",
	    json_string_value(kvj_at(g, "fix.value")));
	r = kvsnap_run(s);
	kvsnap_free(s);
	assert_null(find_group(&r, "drain-block", NULL));
	assert_jstr(kvres_vmi(&r, WEB), "onDrain", what);
	kvres_free(&r);
}

/* LiveMigratable=True, no target: LiveMigrateIfPossible would still
 * wait, so None (or the blockers, or External); never the VMI's own. */
static void
test_drain_block_tried(void **state)
{
	kvres r = run(block_tried);
	json_t *g = need_group(&r, "drain-block", "LiveMigrate");

	(void)state;
	assert_jstr(g, "fix.action", "set-eviction-strategy");
	assert_jstr(g, "fix.value", "None");
	assert_jint(g, "fix.fixes", 1);
	assert_true(json_is_true(kvj_at(g, "fix.restart")));
	assert_text_has(g, "1 VMI KubeVirt reports LiveMigratable (blockers: "
	    "groups G2)");
	assert_text_has(g, "the drain still waits");
	assert_text_has(g, "or External");
	assert_text_lacks(g, "LiveMigrateIfPossible and restart");
	prove_drain(block_tried, g, "shutdown");
	kvres_free(&r);

	r = run(block_tried_ifpossible);
	g = need_group(&r, "drain-block", "LiveMigrateIfPossible");
	assert_jstr(g, "fix.value", "None");
	assert_jint(g, "fix.fixes", 1);
	assert_text_lacks(g, "LiveMigrateIfPossible and restart");
	prove_drain(block_tried_ifpossible, g, "shutdown");
	kvres_free(&r);
}

/* LiveMigratable=False: LiveMigrateIfPossible makes the drain evict. */
static void
test_drain_block_not_tried(void **state)
{
	kvres r = run(block_not_tried);
	json_t *g = need_group(&r, "drain-block", "LiveMigrate");

	(void)state;
	assert_jstr(g, "fix.value", "LiveMigrateIfPossible");
	assert_jint(g, "fix.fixes", 1);
	assert_text_has(g, "1 VMI KubeVirt does not report LiveMigratable "
	    "(blockers: groups G2)");
	assert_text_lacks(g, "KubeVirt reports LiveMigratable");
	prove_drain(block_not_tried, g, "shutdown");
	kvres_free(&r);
}

/* ---- relax-placement, none, order ------------------------------------------ */

static void
cordon_w2(kvsnap *s)
{
	cordon(s, "w2");
}

static void
test_relax_placement_and_order(void **state)
{
	kvres r = run(cordon_w2);
	json_t *g = need_group(&r, "no-placement-target", "cordoned");
	json_t *d = need_group(&r, "drain-block", "LiveMigrate");

	(void)state;
	assert_jstr(g, "subject.kind", "placement");
	assert_jstr(g, "fix.action", "relax-placement");
	assert_text_has(g, "kubectl uncordon");
	/* one VMI each: by code, drain-block first */
	assert_jstr(d, "id", "G1");
	assert_jstr(g, "id", "G2");
	assert_list(kvres_vmi(&r, WEB), "groups", "G1,G2");
	assert_jint(r.findings, "summary.groups", 2);
	assert_text_has(d, "groups G2");
	kvres_free(&r);
}

static void
host_device(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.domain.devices.hostDevices", "[{\"name\": "
	    "\"nic\", \"deviceName\": \"intel.com/E810\"}]");
}

static void
test_fix_none(void **state)
{
	kvres r = run(host_device);
	json_t *g = need_group(&r, "host-device", "PCI host device");

	(void)state;
	assert_jstr(g, "subject.kind", "device");
	assert_jstr(g, "fix.action", "none");
	assert_jstr(g, "fix.value", NULL);
	assert_jbool(g, "fix.restart", false);
	assert_text_has(g, "Nothing in the VM's spec makes it migrate");
	kvres_free(&r);
}

static void
host_disk(kvsnap *s)
{
	add_disk(s, "scratch", "{\"name\": \"scratch\", \"hostDisk\": "
	    "{\"path\": \"/data/scratch.img\", \"type\": \"DiskOrCreate\", "
	    "\"capacity\": \"1Gi\"}}");
}

/* issue 28: a fix of action none makes no change, so needs no restart
 * (the text may still say the owner's own change needs one). */
static void
test_fix_none_no_restart(void **state)
{
	kvres r = run(host_disk);
	json_t *g = need_group(&r, "hostdisk-not-shared", NULL), *x;
	size_t i;

	(void)state;
	assert_jstr(g, "fix.action", "none");
	assert_jbool(g, "fix.restart", false);
	assert_text_has(g, "(restart either way)");
	json_array_foreach(json_object_get(r.findings, "groups"), i, x)
		if (strcmp(json_string_value(kvj_at(x, "fix.action")),
		    "none") == 0)
			assert_jbool(x, "fix.restart", false);
	kvres_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_no_groups),
		cmocka_unit_test(test_set_cpu_model),
		cmocka_unit_test(test_set_cpu_model_amd),
		cmocka_unit_test(test_recreate_claim_rwx),
		cmocka_unit_test(test_claim_rwx_condition_only),
		cmocka_unit_test(test_warnings_coded),
		cmocka_unit_test(test_change_binding),
		cmocka_unit_test(test_repull_image),
		cmocka_unit_test(test_relabel_node),
		cmocka_unit_test(test_set_eviction_strategy),
		cmocka_unit_test(test_drain_shutdown_ifpossible),
		cmocka_unit_test(test_drain_block_tried),
		cmocka_unit_test(test_drain_block_not_tried),
		cmocka_unit_test(test_relax_placement_and_order),
		cmocka_unit_test(test_fix_none),
		cmocka_unit_test(test_fix_none_no_restart),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
