/*
 * test_notjudged.c - the verdict not-judged (docs/findings.md): the rule
 * rows' needs column, and a VMI whose checks need a resource the input
 * lacks is not judged, naming it, instead of a verdict built on an empty
 * list.  On the base cluster of test_rules_*.c (kvbase.h): prod/web on w1,
 * an RWX PVC described in its volumeStatus, verdict ok.
 */
#include <string.h>

#include "kvtest.h"

#include "kvsnap.h"
#include "analyze/rules/rule.h"

#include "kvrules.h"

/* The coded warning messages, one per line. */
static char *
warnings(const kvres *r)
{
	kv_buf b = {0};

	for (size_t i = 0; i < r->a->ncoded; i++)
		kv_buf_printf(&b, "%s\n", r->a->coded[i].message);
	return b.data ? b.data : xstrdup("");
}

static void
assert_not_judged(json_t *v, const char *resources)
{
	json_t *nj = json_object_get(v, "notJudged"), *e;
	kv_buf b = {0};
	size_t i;

	assert_jstr(v, "verdict", "not-judged");
	assert_jstr(v, "outcome.kind", "none");
	assert_jint(v, "outcome.afterSeconds", -1);
	assert_jstr(v, "onDrain", NULL);
	assert_int_equal(json_array_size(json_object_get(v, "blockers")), 0);
	assert_false(json_is_true(json_object_get(v, "conditionMismatch")));
	json_array_foreach(nj, i, e)
		kv_buf_printf(&b, "%s%s", i ? "," : "",
		    json_string_value(json_object_get(e, "resource")));
	assert_string_equal(b.data ? b.data : "", resources);
	kv_buf_free(&b);
}

/* The column: what each check reads, and the drain rules (which read
 * the verdict) need nothing. */
static void
test_needs_column(void **state)
{
	(void)state;
	assert_int_equal(kv_rule_find("no-cpu-target")->needs,
	    KV_NEED_BIT(NEED_NODES) | KV_NEED_BIT(NEED_VMCLASSES));
	assert_int_equal(kv_rule_find("no-cpu-target")->when[NEED_VMCLASSES],
	    WHEN_FLAVOR);
	assert_int_equal(kv_rule_find("no-placement-target")->needs,
	    KV_NEED_BIT(NEED_NODES) | KV_NEED_BIT(NEED_PODS) |
	    KV_NEED_BIT(NEED_VDISKS) | KV_NEED_BIT(NEED_VMCLASSES));
	/* placement reads pods for pod affinity only; room always */
	assert_int_equal(kv_rule_find("no-placement-target")->when[NEED_PODS],
	    WHEN_POD_PLACEMENT);
	assert_int_equal(kv_rule_find("no-capacity")->when[NEED_PODS],
	    WHEN_ALWAYS);
	assert_int_equal(kv_rule_find("containerdisk-no-digest")->when[
	    NEED_PODS], WHEN_CONTAINERDISK);
	assert_string_equal(kv_need_rows[NEED_VMCLASSES].resource,
	    "virtualmachineclasses");
	/* DVP's own: a VM's operations, attachments and VirtualDisks */
	assert_int_equal(kv_rule_find("vmop-in-progress")->needs,
	    KV_NEED_BIT(NEED_VMOPS));
	assert_int_equal(kv_rule_find("live-migration-policy-force")->needs,
	    KV_NEED_BIT(NEED_VMOPS));
	assert_int_equal(kv_rule_find("block-device-attachment-pending")->needs,
	    KV_NEED_BIT(NEED_VMBDAS));
	assert_int_equal(kv_rule_find("disk-not-shared")->needs,
	    KV_NEED_BIT(NEED_PVCS) | KV_NEED_BIT(NEED_VDISKS));
	/* VirtualDisks are DVP's own: needed there, foreign to KubeVirt */
	assert_true(kv_flavor_foreign_group(&kv_flavor_kubevirt,
	    kv_need_rows[NEED_VDISKS].group));
	assert_false(kv_flavor_foreign_group(&kv_flavor_deckhouse,
	    kv_need_rows[NEED_VDISKS].group));
	assert_false(kv_flavor_foreign_group(&kv_flavor_kubevirt,
	    kv_need_rows[NEED_PODS].group));
	assert_int_equal(kv_rule_find("containerdisk-no-digest")->needs,
	    KV_NEED_BIT(NEED_PODS));
	assert_int_equal(kv_rule_find("disk-claim-unknown")->needs,
	    KV_NEED_BIT(NEED_PVCS));
	assert_int_equal(kv_rule_find("network-pod-bridge")->needs, 0);
	for (size_t i = 0; i < kv_nrules; i++) {
		if (kv_rules[i].phase == PHASE_DRAIN)
			assert_int_equal(kv_rules[i].needs, 0);
		assert_int_equal(kv_rules[i].needs &
		    ~(KV_NEED_BIT(NEED_COUNT) - 1), 0);
	}
	assert_string_equal(kv_need_rows[NEED_STORAGECLASSES].group,
	    "storage.k8s.io");
}

static void
m_nodes_missing(kvsnap *s)
{
	kvsnap_status(s, "nodes", "", "missing");
}

static void
m_nodes_forbidden(kvsnap *s)
{
	kvsnap_status(s, "nodes", "", "forbidden");
}

/* Without nodes no VMI is judged: no no-cpu-target, no stuck. */
static void
test_no_nodes(void **state)
{
	kvres r = run(m_nodes_missing);
	json_t *v = kvres_vmi(&r, WEB);
	char *w = warnings(&r);

	(void)state;
	assert_not_judged(v, "nodes");
	assert_jstr(v, "notJudged[0].message", "nodes: not in the input; "
	    "no source or target node can be judged");
	assert_jint(r.findings, "summary.notJudged", 1);
	assert_jint(r.findings, "summary.not-judged", 1);
	assert_jint(r.findings, "summary.no-target", 0);
	assert_jint(r.findings, "summary.stuck", 0);
	assert_int_equal(json_array_size(json_object_get(r.findings,
	    "groups")), 0);
	assert_non_null(strstr(w, "the input has no nodes: no VMI is "
	    "judged\n"));
	free(w);
	kvres_free(&r);
	r = run(m_nodes_forbidden);
	v = kvres_vmi(&r, WEB);
	w = warnings(&r);
	assert_not_judged(v, "nodes");
	assert_jstr(v, "notJudged[0].message", "nodes: forbidden; no source "
	    "or target node can be judged");
	assert_non_null(strstr(w, "the input has no nodes (nodes: "
	    "forbidden): no VMI is judged\n"));
	free(w);
	kvres_free(&r);
}

static void
m_pods_missing(kvsnap *s)
{
	kvsnap_status(s, "pods", "", "missing");
}

static void
m_containerdisk_pods_missing(kvsnap *s)
{
	add_containerdisk(s, "tools", NULL);
	kvsnap_status(s, "pods", "", "missing");
}

/* The codes notJudged[0].checks (or, for a judged VMI, unchecked[0]
 * .checks) lists, comma-joined. */
static void
assert_skipped(json_t *v, const char *want)
{
	const char *key = strcmp(json_string_value(json_object_get(v,
	    "verdict")), "not-judged") == 0 ? "notJudged" : "unchecked";
	json_t *a = json_object_get(json_array_get(json_object_get(v,
	    key), 0), "checks");
	kv_buf b = {0};
	size_t k;
	json_t *c;

	json_array_foreach(a, k, c)
		kv_buf_printf(&b, "%s%s", k ? "," : "", json_string_value(c));
	assert_string_equal(b.data ? b.data : "", want);
	kv_buf_free(&b);
}

/* Pods: read for room on the nodes (no-capacity), a containerDisk's
 * digest, pod affinity.  A VMI no check that ran fails is not judged:
 * room alone could make it no-target. */
static void
test_pods_missing(void **state)
{
	kvres r = run(m_pods_missing);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_not_judged(v, "pods");
	assert_jstr(v, "notJudged[0].message", "pods: not in the input; "
	    "room on the nodes, containerDisk digests, pod affinity and the "
	    "VMI's other launcher pods cannot be judged");
	assert_skipped(v, "no-capacity,multiple-launcher-pods");
	assert_jint(r.findings, "summary.notJudged", 1);
	kvres_free(&r);
	r = run(m_containerdisk_pods_missing);
	v = kvres_vmi(&r, WEB);
	assert_not_judged(v, "pods");
	assert_skipped(v, "no-capacity,containerdisk-config-digest,"
	    "containerdisk-no-digest,multiple-launcher-pods");
	assert_jint(r.findings, "summary.stuck", 0);
	kvres_free(&r);
}

static void
m_bridge_containerdisk_pods_missing(kvsnap *s)
{
	m_containerdisk_pods_missing(s);
	set_podnet(s, "{\"name\": \"default\", \"bridge\": {}}");
}

static void
m_cordoned_containerdisk_pods_missing(kvsnap *s)
{
	m_containerdisk_pods_missing(s);
	cordon(s, "w2");
}

/* A check that ran fails it: its verdict stands whatever the skipped
 * ones say (they could only make the failure an earlier one), and
 * unchecked names what was skipped (notJudged stays []).  The pod
 * network (blocked, needs nothing); the only target cordoned
 * (no-placement-target, which reads pods only for pod affinity, so it
 * runs for a containerDisk VMI). */
static void
test_verdict_stands(void **state)
{
	kvres r = run(m_bridge_containerdisk_pods_missing);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_jstr(v, "verdict", "blocked");
	assert_jstr(v, "blockers[0].code", "network-pod-bridge");
	assert_jstr(v, "unchecked[0].resource", "pods");
	assert_int_equal(json_array_size(json_object_get(v, "notJudged")),
	    0);
	assert_skipped(v, "no-capacity,containerdisk-config-digest,"
	    "containerdisk-no-digest,multiple-launcher-pods");
	assert_jint(r.findings, "summary.notJudged", 0);
	kvres_free(&r);
	r = run(m_cordoned_containerdisk_pods_missing);
	v = kvres_vmi(&r, WEB);
	assert_jstr(v, "verdict", "no-target");
	assert_jstr(v, "blockers[0].code", "no-placement-target");
	assert_jstr(v, "outcome.kind", "unschedulable");
	assert_jstr(v, "unchecked[0].resource", "pods");
	assert_jint(r.findings, "summary.no-target", 1);
	assert_jint(r.findings, "summary.notJudged", 0);
	kvres_free(&r);
}

static void
m_pvcs_missing(kvsnap *s)
{
	kvsnap_status(s, "persistentvolumeclaims", "", "missing");
}

static void
m_undescribed_pvcs_missing(kvsnap *s)
{
	kvj_setj(vmi(s), "status.volumeStatus", "[]");
	kvsnap_status(s, "persistentvolumeclaims", "", "missing");
}

/* PVCs: read for a claim the volumeStatus does not describe (KubeVirt
 * reads the access modes there); before, disk-claim-unknown blocked. */
static void
test_pvcs_missing(void **state)
{
	kvres r = run(m_pvcs_missing);

	(void)state;
	assert_jstr(kvres_vmi(&r, WEB), "verdict", "ok");
	kvres_free(&r);
	r = run(m_undescribed_pvcs_missing);
	assert_not_judged(kvres_vmi(&r, WEB), "persistentvolumeclaims");
	assert_jint(r.findings, "summary.blocked", 0);
	kvres_free(&r);
}

/* The base itself: notJudged [] and the count 0. */
static void
test_judged(void **state)
{
	kvres r = run(NULL);

	(void)state;
	assert_jstr(kvres_vmi(&r, WEB), "verdict", "ok");
	assert_int_equal(json_array_size(json_object_get(kvres_vmi(&r, WEB),
	    "notJudged")), 0);
	assert_jint(r.findings, "summary.notJudged", 0);
	kvres_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_needs_column),
		cmocka_unit_test(test_no_nodes),
		cmocka_unit_test(test_pods_missing),
		cmocka_unit_test(test_verdict_stands),
		cmocka_unit_test(test_pvcs_missing),
		cmocka_unit_test(test_judged),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
