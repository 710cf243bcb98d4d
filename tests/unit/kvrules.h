/*
 * kvrules.h - what the test_rules_*.c binaries share: the running and
 * asserting helpers (run a mutation of the base, the codes, messages and
 * verdict of a VMI), small cluster edits (the KubeVirt CR, taints,
 * migrations, policies, pods and their requests), the two capacity
 * mutations of the rule table, and the cmocka group setup and teardown
 * that build and free the base.  Static inline functions (it includes
 * kvbase.h).
 */
#ifndef KV_TEST_RULES_H
#define KV_TEST_RULES_H

#include "kvbase.h"
#include "analyze/rules/target.h"

static inline json_t *
kubevirt(kvsnap *s)
{
	return kvsnap_find(s, KVS, "kubevirt");
}

/* Set the stored LiveMigratable condition: status "True", "False", or NULL
 * to remove it. */
static inline void
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

static inline void
taint(kvsnap *s, const char *name, const char *taint_json)
{
	kvj_pushj(node(s, name), "spec.taints", taint_json);
}

static inline void
tolerate(kvsnap *s, const char *toleration_json)
{
	kvj_pushj(vmi(s), "spec.tolerations", toleration_json);
}

static inline void
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

static inline void
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

static inline kvres
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
static inline char *
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

static inline bool
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

/* What explain says of node w2 for prod/web: the first constraint it
 * fails, "" when it takes the pod (caller frees). */
static inline char *
explain_w2(const kvres *r)
{
	const kv_vmires *vr = kvres_vmires(r, WEB);
	kv_buf b = {0};

	for (size_t n = 0; n < r->m->nnodes; n++)
		if (strcmp(r->m->nodes[n].name, "w2") == 0)
			kv_target_explain(r->a, r->a->place, vr, n, &b);
	return b.data ? b.data : xstrdup("");
}

/* The message of the first issue with code (blockers, then warnings). */
static inline const char *
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

static inline void
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

static inline void
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


/* The manifest says the snapshot holds every pod. */
static inline void
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
static inline void
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
static inline void
m_capacity_room(kvsnap *s)
{
	pods_all(s);
	add_pod(s, "half", "w2", "Running", "\"containers\": [" REQ("8", "32Gi")
	    "]");
}

/* w2 runs 63Gi: the only CPU-compatible node has no room. */
static inline void
m_capacity_full(kvsnap *s)
{
	pods_all(s);
	add_pod(s, "big", "w2", "Running", "\"containers\": [" REQ("1", "63Gi")
	    "]");
}


static inline int
group_setup(void **state)
{
	base = build_base();
	return 0;
}


static inline int
group_teardown(void **state)
{
	kvsnap_free(base);
	return 0;
}


/* A pod of this VMI already on w2 (an unfinished migration's target). */
static inline void
m_w2_runs_own_pod(kvsnap *s)
{
	json_t *p = kvj(base_pod);

	kvj_sets(p, "metadata.name", "virt-launcher-web-target");
	kvj_sets(p, "spec.nodeName", "w2");
	kvj_sets(p, "status.phase", "Pending");
	kvj_label(p, "kubevirt.io/migrationJobUID", "uid-mig");
	kvsnap_add(s, "pods", "", p);
	add_vmim(s, "mig", "prod", "web", "2026-10-31T09:00:00Z", NULL, NULL);
	kvj_sets(kvsnap_find(s, VMIMS, "mig"), "metadata.uid", "uid-mig");
}

#endif
