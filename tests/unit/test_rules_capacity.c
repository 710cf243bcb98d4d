/*
 * test_rules_capacity.c - capacity on the target nodes (requested,
 * no-capacity) and pod (anti-)affinity and topology spread
 * (podaffinity.h).
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

/* ---- capacity (findings.md "nodes" requested, no-capacity) ---------------- */

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
	assert_int_equal(vr->need->memory, 2300LL << 20);
	assert_int_equal(vr->need->cpu_millis, 0);
	assert_int_equal(vr->need->pods, 1);
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
		{ m_nssel_all, "no-placement-target", "", "anti-affinity "
		  "app=db in every namespace on kubernetes.io/hostname" },
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_formula),
		cmocka_unit_test(test_capacity_no_room),
		cmocka_unit_test(test_pod_affinity),
		cmocka_unit_test(test_pod_affinity_unjudged),
		cmocka_unit_test(test_pod_affinity_bad_input),
		cmocka_unit_test(test_capacity_unknown),
		cmocka_unit_test(test_node_set_refs),
	};

	return cmocka_run_group_tests_name("rules/capacity", tests, group_setup,
	    group_teardown);
}
