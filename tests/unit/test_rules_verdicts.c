/*
 * test_rules_verdicts.c - precedence and the list of blockers, the stored
 * LiveMigratable condition, outcomes, the completion timeout with
 * MigrationPolicies, and eviction on drain.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_same_code_twice),
		cmocka_unit_test(test_first_failing_vs_all),
		cmocka_unit_test(test_stored_false_unreproduced),
		cmocka_unit_test(test_condition_mismatch),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_completion_timeout_memory),
		cmocka_unit_test(test_completion_timeout_policy),
		cmocka_unit_test(test_on_drain),
	};

	return cmocka_run_group_tests_name("rules/verdicts", tests, group_setup,
	    group_teardown);
}
