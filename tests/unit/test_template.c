/*
 * test_template.c - a VirtualMachine whose template already differs from
 * its running VMI (RestartRequired): what-if's answer after a restart is
 * judged from the template (whatif.c from_template), and explain says
 * so.  Without the condition the running VMI's spec stays.
 *
 * Cluster: Intel twins w1, w2 and an AMD node a1; prod/web runs
 * host-model on w1 and migrates to w2.  Its template asks for EPYC-Rome,
 * which only a1 offers, and the restart keeps the source's vendor
 * selector (Intel), so after the restart it has no CPU target.
 */
#include "kvtest.h"
#include "kvsnap.h"

#include "analyze/change/whatif.h"
#include "render/view.h"

#define VMIS "virtualmachineinstances", "kubevirt.io"
#define VMS "virtualmachines", "kubevirt.io"

#define FEAT "abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr " \
	"lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 " \
	"syscall xsave"

static kvsnap *
cluster(bool restart_required)
{
	const kvcpu intel = { "Intel", "Skylake-Client-IBRS", FEAT " vmx",
	    "vmx", "Nehalem Haswell-noTSX",
	    "Nehalem Haswell-noTSX Skylake-Client-IBRS" };
	const kvcpu amd = { "AMD", "EPYC-Rome", FEAT " svm", "svm",
	    "Nehalem EPYC-Rome", "Nehalem EPYC-Rome" };
	kvsnap *s = kvsnap_new("kubevirt");
	char *vm;

	kvsnap_kvnode(s, "w1", &intel);
	kvsnap_kvnode(s, "w2", &intel);
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
	    "\"EPYC-Rome\"}}}}}, \"status\": {%s}}", restart_required ?
	    "\"conditions\": [{\"type\": \"RestartRequired\", \"status\": "
	    "\"True\", \"message\": \"the CPU model changed\"}]" : "");
	kvsnap_addj(s, VMS, vm);
	free(vm);
	return s;
}

/* The verdict of prod/web after --eviction-strategy value --vmi
 * prod/web (a restart); *note gets the what-if's notes. */
static const char *
after(bool restart_required, const char *value, char **notes)
{
	kvsnap *s = cluster(restart_required);
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
	    "EPYC-Rome, evictionStrategy LiveMigrate"));
	free(notes);
	/* without it the template is what runs: host-model stays */
	assert_string_equal(after(false, "LiveMigrateIfPossible", &notes),
	    "ok");
	assert_null(strstr(notes, "template"));
	free(notes);
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
	assert_non_null(strstr(out, "the verdict is this VMI's; what-if's "
	    "answers after a restart use the template (CPU model EPYC-Rome, "
	    "evictionStrategy LiveMigrate)"));
	free(out);
	kvres_free(&r);
	kvsnap_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_after_restart),
		cmocka_unit_test(test_explain_template),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
