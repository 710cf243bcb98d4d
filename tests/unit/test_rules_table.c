/*
 * test_rules_table.c - the rule table: one PASS and one FAIL case per
 * blocker and warning code (each a small mutation of the base), checked
 * against the code tables of the spec's findings.md (codes added since:
 * rows of docs/rules.md), and the base that migrates.
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


typedef struct rule_case {
	const char *code;
	mutation pass;			/* NULL: the base itself */
	const char *pass_verdict;	/* NULL: ok */
	mutation fail;
	const char *verdict;
	const char *blockers, *warnings;	/* complete lists, FAIL */
	const char *needle;		/* in the FAIL message, or NULL */
} rule_case;


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
	{ "multiple-launcher-pods", m_stray_pod_failed, NULL, m_stray_pod,
	  "stuck", "multiple-launcher-pods", DRAIN, "2 pods of this VMI are "
	  "active: virt-launcher-web-abcde (Running, on w1, the source node), "
	  "virt-launcher-web-stray (Pending, no node); virt-controller "
	  "creates no target pod while more than one is" },
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
	{ "rwx-node-local", NULL, NULL, m_rwx_local_path, "ok", "",
	  "rwx-node-local", "storage class local-path (rancher.io/local-path)" },
	{ "nested-virt-differs", m_vmx_same, NULL, m_vmx_differs, "ok", "",
	  "nested-virt-differs", "w2 (no vmx-posted-intr)" },
	{ "launcher-version-skew", NULL, NULL, m_launcher_old, "ok", "",
	  "launcher-version-skew", "virt-launcher:v1.8.2, but the KubeVirt "
	  "install is v1.9.0" },
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

/* Whether code is in one of the spec's code tables. */
static bool
spec_has(const char *const tables[2], const char *code)
{
	bool found = false;

	for (size_t t = 0; t < 2; t++) {
		char **spec;
		size_t n;

		spec_codes(tables[t], &spec, &n);
		for (size_t i = 0; i < n; i++) {
			found = found || strcmp(spec[i], code) == 0;
			free(spec[i]);
		}
		free(spec);
	}
	return found;
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
	/* the codes added after the spec: each a row of docs/rules.md */
	if (nspec != NCASES) {
		char *doc = kvtest_read_file("docs/rules.md", NULL);
		size_t extra = 0;

		if (doc == NULL)
			fail_msg("cannot read docs/rules.md (run from the "
			    "repository root)");
		for (size_t k = 0; k < NCASES; k++) {
			char *row = xasprintf("| `%s` |", rule_cases[k].code);

			if (strstr(doc, row) == NULL)
				fail_msg("case %s: no row in docs/rules.md",
				    rule_cases[k].code);
			free(row);
		}
		for (size_t k = 0; k < NCASES; k++)
			extra += !spec_has(tables, rule_cases[k].code);
		free(doc);
		assert_int_equal(nspec + extra, NCASES);
	}
}


#define CASE(i) \
	{ "pass/" #i, test_case_pass, NULL, NULL, (void *)&rule_cases[i] }, \
	{ "fail/" #i, test_case_fail, NULL, NULL, (void *)&rule_cases[i] }

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
		CASE(24), CASE(25), CASE(26), CASE(27),
		cmocka_unit_test(test_containerdisk_reference),
	};

	char *names[2 * NCASES];
	int rc;

	/* every row of the case table is in tests[], named by its code */
	if (NCASES != 28) {
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
	rc = cmocka_run_group_tests_name("rules/table", tests, group_setup,
	    group_teardown);
	for (size_t i = 0; i < 2 * NCASES; i++)
		free(names[i]);
	return rc;
}
