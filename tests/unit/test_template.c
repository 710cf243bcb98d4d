/*
 * test_template.c - a VirtualMachine whose template already differs from
 * its running VMI (RestartRequired): every answer after a restart is
 * judged from the template (kv_vm.after, template.c): what-if's
 * (whatif.c from_template) with the template's CPU model, eviction
 * strategy and placement, the set-cpu-model fix's re-analysis (fix_cpu.c
 * through kv_vmi_after_restart), and explain says what the template
 * brings, in text and JSON.  Without the condition the running VMI's
 * spec stays.
 *
 * Cluster: Intel twins w1, w2 and an AMD node a1; prod/web runs
 * host-model on w1 and migrates to w2.  Its template asks for EPYC-Rome,
 * which only a1 offers, and the restart keeps the source's vendor
 * selector (Intel), so after the restart it has no CPU target.
 */
#include "kvtest.h"
#include "kvsnap.h"

#include "analyze/change/whatif.h"
#include "analyze/decide/groups.h"
#include "render/view.h"

#define VMIS "virtualmachineinstances", "kubevirt.io"
#define VMS "virtualmachines", "kubevirt.io"

#define FEAT "abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr " \
	"lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 " \
	"syscall xsave"

/* tmpl_extra: more of the template's spec (JSON members after its
 * networks), "" for none. */
static kvsnap *
cluster_with(bool restart_required, const char *tmpl_model,
    const char *tmpl_extra, bool w2_older)
{
	const kvcpu intel = { "Intel", "Skylake-Client-IBRS", FEAT " vmx",
	    "vmx", "Nehalem Haswell-noTSX",
	    "Nehalem Haswell-noTSX Skylake-Client-IBRS" };
	const kvcpu older = { "Intel", "Haswell-noTSX", FEAT " vmx", "vmx",
	    "Nehalem Haswell-noTSX", "Nehalem Haswell-noTSX" };
	const kvcpu amd = { "AMD", "EPYC-Rome", FEAT " svm", "svm",
	    "Nehalem EPYC-Rome", "Nehalem EPYC-Rome" };
	kvsnap *s = kvsnap_new("kubevirt");
	char *vm;

	kvsnap_kvnode(s, "w1", &intel);
	kvsnap_kvnode(s, "w2", w2_older ? &older : &intel);
	kvsnap_kvnode(s, "a1", &amd);
	kvsnap_list(s, "pods", "");	/* none: room is judged */
	kvsnap_addj(s, VMIS, "{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachineInstance\", \"metadata\": {\"name\": \"web\", "
	    "\"namespace\": \"prod\", \"uid\": \"uid-web\"}, \"spec\": {"
	    "\"evictionStrategy\": \"LiveMigrate\", \"domain\": {\"cpu\": "
	    "{\"model\": \"host-model\"}, \"resources\": {\"requests\": "
	    "{\"memory\": \"2Gi\"}}, \"devices\": {\"interfaces\": "
	    "[{\"name\": \"default\", \"masquerade\": {}}]}}, "
	    "\"networks\": [{\"name\": \"default\", \"pod\": {}}]}, "
	    "\"status\": {\"phase\": \"Running\", "
	    "\"nodeName\": \"w1\", \"migrationMethod\": \"LiveMigration\", "
	    "\"conditions\": [{\"type\": \"LiveMigratable\", \"status\": "
	    "\"True\"}]}}");
	vm = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachine\", \"metadata\": {\"name\": \"web\", "
	    "\"namespace\": \"prod\"}, \"spec\": {\"runStrategy\": "
	    "\"Always\", \"template\": {\"spec\": {\"evictionStrategy\": "
	    "\"LiveMigrate\", \"domain\": {\"cpu\": {\"model\": "
	    "\"%s\"}, \"resources\": {\"requests\": "
	    "{\"memory\": \"2Gi\"}}, \"devices\": {\"interfaces\": "
	    "[{\"name\": \"default\", \"masquerade\": {}}]}}, "
	    "\"networks\": [{\"name\": \"default\", \"pod\": {}}]%s}}}, "
	    "\"status\": {%s}}", tmpl_model, tmpl_extra, restart_required ?
	    "\"conditions\": [{\"type\": \"RestartRequired\", \"status\": "
	    "\"True\", \"message\": \"the CPU model changed\"}]" : "");
	kvsnap_addj(s, VMS, vm);
	free(vm);
	return s;
}

static kvsnap *
cluster(bool restart_required)
{
	return cluster_with(restart_required, "EPYC-Rome", "", false);
}

/* The verdict of prod/web after --eviction-strategy value --vmi
 * prod/web (a restart); *note gets the what-if's notes. */
static const char *
after_of(kvsnap *s, const char *value, char **notes)
{
	char *dir = kvsnap_write(s);
	kv_change ch = { .kind = CH_EVICTION, .value = value,
	    .scope = SC_VMI, .scope_value = "prod/web" };
	kv_whatif w = {0};
	kv_limits lim;
	kv_err err = {0};
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_buf b = {0};
	const char *verdict = NULL;

	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(dir, &lim, &m, &err) != KV_OK ||
	    kv_whatif_apply(m, &ch, 1, &w, &err) != KV_OK ||
	    kv_analyze(m, &a, &err) != KV_OK)
		fail_msg("%s", err.msg);
	for (size_t i = 0; i < a->nvmis; i++)
		if (strcmp(a->vmis[i].vmi->fullname, "prod/web") == 0)
			verdict = kv_verdict_names[a->vmis[i].verdict];

	for (size_t i = 0; i < w.nnotes; i++)
		kv_buf_printf(&b, "%s\n", w.notes[i]);
	*notes = b.data ? b.data : xstrdup("");
	kv_whatif_free(&w);
	kv_analysis_free(a);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	kvsnap_free(s);
	return verdict;
}

static const char *
after(bool restart_required, const char *value, char **notes)
{
	return after_of(cluster(restart_required), value, notes);
}

#define ON_W1 ", \"nodeSelector\": {\"kubernetes.io/hostname\": \"w1\"}"

static void
test_after_restart(void **state)
{
	char *notes;

	(void)state;
	/* RestartRequired: the restart brings EPYC-Rome, no Intel node
	 * offers it */
	assert_string_equal(after(true, "LiveMigrateIfPossible", &notes),
	    "no-target");
	assert_non_null(strstr(notes, "prod/web restarts from its "
	    "VirtualMachine's template (RestartRequired): CPU model "
	    "EPYC-Rome, evictionStrategy LiveMigrate; the template differs "
	    "in cpuModel\n"));
	free(notes);
	/* without it the template is what runs: host-model stays */
	assert_string_equal(after(false, "LiveMigrateIfPossible", &notes),
	    "ok");
	assert_null(strstr(notes, "template"));
	free(notes);
}

/* More than the CPU model: the template pins the VM to w1 (its source),
 * so after the restart no node is left to migrate to. */
static void
test_after_restart_placement(void **state)
{
	char *notes;

	(void)state;
	assert_string_equal(after_of(cluster_with(true, "host-model", ON_W1,
	    false), "LiveMigrateIfPossible", &notes), "no-target");
	assert_non_null(strstr(notes, "; the template differs in "
	    "nodeSelector\n"));
	free(notes);
	assert_string_equal(after_of(cluster_with(false, "host-model", ON_W1,
	    false), "LiveMigrateIfPossible", &notes), "ok");
	free(notes);
}

/* The set-cpu-model fix of the no-cpu-target group (w2 has an older
 * host CPU): its re-analysis runs on the template the restart brings.
 * Pinned to w1 there, no model gives the VM a target. */
static void
test_fix_from_template(void **state)
{
	kvsnap *s;
	kvres r;
	const kv_group *g = NULL;

	(void)state;
	for (int rr = 0; rr < 2; rr++) {
		s = cluster_with(rr == 1, "host-model", ON_W1, true);
		r = kvsnap_run(s);
		g = NULL;
		for (size_t i = 0; i < r.a->ngroups; i++)
			if (strcmp(r.a->groups[i].code, "no-cpu-target") == 0)
				g = &r.a->groups[i];
		assert_non_null(g);
		assert_string_equal(kv_fix_names[g->fix.action], rr == 1 ?
		    "none" : "set-cpu-model");
		assert_int_equal(g->fix.fixes, rr == 1 ? 0 : 1);
		if (rr == 1)
			assert_non_null(strstr(g->fix.text, "; the restart "
			    "brings the template of prod/web (RestartRequired; "
			    "it differs from the running VMI in nodeSelector), "
			    "and the re-analysis ran on it"));
		else
			assert_null(strstr(g->fix.text, "brings the "
			    "template"));
		kvres_free(&r);
		kvsnap_free(s);
	}
}

/* explain -o json of prod/web (caller json_decref()s). */
static json_t *
explain_json(kvsnap *s)
{
	kvres r = kvsnap_run(s);
	const kv_vmires *v = kvres_vmires(&r, "prod/web");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	kv_term t = { .f = f, .fmt = KV_OUT_JSON, .width = 400 };
	kv_err err = {0};
	json_t *doc;

	assert_non_null(f);
	assert_int_equal(kv_view_explain(r.a, (size_t)(v - r.a->vmis), &t,
	    &err), KV_OK);
	fclose(f);
	doc = kvj(out);
	free(out);
	kvres_free(&r);
	kvsnap_free(s);
	return doc;
}

/* explain -o json: the VirtualMachine's template object.  A CPU model
 * the template leaves out is the cluster's default (host-model here),
 * which the running VMI has: no difference. */
static void
test_explain_json(void **state)
{
	json_t *doc = explain_json(cluster_with(true, "EPYC-Rome", ON_W1,
	    false)), *tp;

	(void)state;
	tp = kvj_at(doc, "virtualMachine.template");
	assert_non_null(tp);
	assert_string_equal(json_string_value(kvj_at(tp, "cpuModel")),
	    "EPYC-Rome");
	assert_string_equal(json_string_value(kvj_at(tp, "differs[0]")),
	    "cpuModel");
	assert_string_equal(json_string_value(kvj_at(tp, "differs[1]")),
	    "nodeSelector");
	assert_int_equal(json_array_size(kvj_at(tp, "differs")), 2);
	assert_string_equal(json_string_value(json_object_get(kvj_at(tp,
	    "nodeSelector"), "kubernetes.io/hostname")), "w1");
	assert_string_equal(json_string_value(kvj_at(tp,
	    "interfaces[0].binding")), "masquerade");
	assert_int_equal(json_integer_value(kvj_at(tp, "memory")),
	    2147483648LL);
	json_decref(doc);
	doc = explain_json(cluster_with(true, "", ON_W1, false));
	assert_list(doc, "virtualMachine.template.differs", "nodeSelector");
	json_decref(doc);
	doc = explain_json(cluster_with(false, "", ON_W1, false));
	assert_true(json_is_null(kvj_at(doc, "virtualMachine.template")));
	json_decref(doc);
}

/* explain says the verdict is the VMI's and what the template brings. */
static void
test_explain_template(void **state)
{
	kvsnap *s = cluster(true);
	kvres r = kvsnap_run(s);
	const kv_vmires *v = kvres_vmires(&r, "prod/web");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	kv_term t = { .f = f, .fmt = KV_OUT_TEXT, .width = 400 };
	kv_err err = {0};

	(void)state;
	assert_non_null(f);
	assert_int_equal(kv_view_explain(r.a, (size_t)(v - r.a->vmis), &t,
	    &err), KV_OK);
	fclose(f);
	assert_non_null(strstr(out, "the verdict is this VMI's; the fixes "
	    "and what-if's answers after a restart use the template (CPU "
	    "model EPYC-Rome, evictionStrategy LiveMigrate); the template "
	    "differs in cpuModel\n"));
	free(out);
	kvres_free(&r);
	kvsnap_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_after_restart),
		cmocka_unit_test(test_after_restart_placement),
		cmocka_unit_test(test_fix_from_template),
		cmocka_unit_test(test_explain_json),
		cmocka_unit_test(test_explain_template),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
