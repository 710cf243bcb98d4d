/*
 * test_rules_cpu.c - the CPU side of the rules: where the guest OS is read,
 * TSC and CPU selectors, host-model copied or derived, vendor quirks.
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

/* host-passthrough compares the cpu-feature labels alone: w4, a CPU
 * class of its own (another host model) with w1's features, draws no
 * passthrough-cpu-differs (the classes' features numbers, cpu.c); w3,
 * with other features, does (the rule table's case). */
static void
m_passthrough_other_model(kvsnap *s)
{
	m_passthrough(s);
	kvnode(s, "w4", "Intel", "Cascadelake-Server",
	    FEAT_V3 " aes md-clear pcid pdpe1gb rdrand spec-ctrl ssbd vmx "
	    "xsaveopt", "md-clear pcid spec-ctrl ssbd", MODELS_INTEL,
	    MODELS_INTEL " Skylake-Client Skylake-Client-IBRS");
}

static void
test_passthrough_classes(void **state)
{
	kvres r = run(m_passthrough_other_model);
	json_t *v = kvres_vmi(&r, WEB);
	size_t w1 = (size_t)(kv_model_node(r.m, "w1") - r.m->nodes);
	size_t w4 = (size_t)(kv_model_node(r.m, "w4") - r.m->nodes);
	int c1 = r.a->nodes[w1].cls, c4 = r.a->nodes[w4].cls;

	(void)state;
	assert_true(c1 >= 0 && c4 >= 0 && c1 != c4);
	assert_int_equal(r.a->classes[c1].features,
	    r.a->classes[c4].features);
	assert_list(v, "targets", "w2,w4");
	assert_false(has_code(v, "warnings", "passthrough-cpu-differs"));
	kvres_free(&r);

	r = run(m_passthrough_w3);
	v = kvres_vmi(&r, WEB);
	assert_list(v, "targets", "w2,w3");
	assert_message_has(v, "passthrough-cpu-differs",
	    "1 target with other CPU features than w1: w3");
	kvres_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_floor_sources),
		cmocka_unit_test(test_cpu_selectors),
		cmocka_unit_test(test_passthrough_classes),
		cmocka_unit_test(test_tsc_selector),
		cmocka_unit_test(test_host_model_copy),
		cmocka_unit_test(test_host_model_quirk),
		cmocka_unit_test(test_stale_vendor_source_only),
	};

	return cmocka_run_group_tests_name("rules/cpu", tests, group_setup,
	    group_teardown);
}
