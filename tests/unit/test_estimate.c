/*
 * test_estimate.c - the migration estimate (analyze/estimate): KubeVirt's
 * deadline in started decimal GB, the measured 1 GiB migration rebuilt
 * from its history, the 16 GiB guest that dirties 30 MB/s at 64 MiB/s
 * under OpenShift Virtualization 4.23's 20 s per GB and under
 * KubeVirt's 150, a MigrationPolicy over the KubeVirt CR, an unknown
 * dirty rate, each flavor's defaults, the parallel limits in time, the
 * pre-copy model and the rates a user states.
 */
#include <math.h>

#include "kvtest.h"
#include "kvsnap.h"

#include "analyze/decide/groups.h"
#include "analyze/pipeline.h"
#include "analyze/estimate/estimate.h"
#include "render/view.h"

#define VMIS "virtualmachineinstances", "kubevirt.io"
#define VMIMS "virtualmachineinstancemigrations", "kubevirt.io"
#define METRICS "vmimetrics", "kvscope.io"
#define DVP_INTERNAL "internal.virtualization.deckhouse.io"

#define FEAT "abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr " \
	"lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 " \
	"syscall xsave"

static void
nodes(kvsnap *s)
{
	const kvcpu cpu = { "Intel", "Skylake-Client-IBRS", FEAT, "",
	    "Nehalem Haswell-noTSX", "Nehalem Haswell-noTSX "
	    "Skylake-Client-IBRS" };

	kvsnap_kvnode(s, "w1", &cpu);
	kvsnap_kvnode(s, "w2", &cpu);
	kvsnap_list(s, "pods", "");
	kvsnap_list(s, "persistentvolumeclaims", "");
}

/* A running masquerade VMI of mem on w1, named model, LiveMigrate. */
static json_t *
vmi(kvsnap *s, const char *name, const char *mem)
{
	char *v = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachineInstance\", \"metadata\": {\"name\": \"%s\", "
	    "\"namespace\": \"prod\", \"uid\": \"uid-%s\", \"labels\": "
	    "{\"app\": \"%s\"}}, \"spec\": {\"evictionStrategy\": "
	    "\"LiveMigrate\", \"domain\": {\"cpu\": {\"model\": \"Nehalem\"}, "
	    "\"memory\": {\"guest\": \"%s\"}, \"resources\": {\"requests\": "
	    "{\"memory\": \"%s\"}}, \"devices\": {\"interfaces\": [{\"name\": "
	    "\"default\", \"masquerade\": {}}]}}, \"networks\": [{\"name\": "
	    "\"default\", \"pod\": {}}]}, \"status\": {\"phase\": "
	    "\"Running\", \"nodeName\": \"w1\", \"migrationMethod\": "
	    "\"LiveMigration\", \"conditions\": [{\"type\": "
	    "\"LiveMigratable\", \"status\": \"True\"}]}}", name, name, name,
	    mem, mem);
	bool dvp = strcmp(s->flavor, "deckhouse") == 0;
	json_t *o = dvp ? kvsnap_addj(s, "internalvirtualization"
	    "virtualmachineinstances", DVP_INTERNAL, v) :
	    kvsnap_addj(s, VMIS, v);

	free(v);
	return o;
}

static void
kubevirt(kvsnap *s, const char *migrations)
{
	char *k = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"KubeVirt\", \"metadata\": {\"name\": \"kubevirt\", "
	    "\"namespace\": \"kubevirt\"}, \"spec\": {\"configuration\": "
	    "{\"migrations\": %s}}, \"status\": {\"phase\": \"Deployed\", "
	    "\"observedKubeVirtVersion\": \"v1.9.0\"}}", migrations);

	kvsnap_addj(s, "kubevirts", "kubevirt.io", k);
	free(k);
}

/* A KubeVirt CR (the Deckhouse one on deckhouse) of that version,
 * migrations as given. */
static void
kubevirt_at(kvsnap *s, const char *version, const char *migrations)
{
	bool dvp = strcmp(s->flavor, "deckhouse") == 0;
	char *k = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"KubeVirt\", \"metadata\": {\"name\": \"kubevirt\", "
	    "\"namespace\": \"kubevirt\"}, \"spec\": {\"configuration\": "
	    "{\"migrations\": %s}}, \"status\": {\"phase\": \"Deployed\", "
	    "\"observedKubeVirtVersion\": \"%s\"}}", migrations, version);

	if (dvp)
		kvsnap_addj(s, "internalvirtualizationkubevirts", DVP_INTERNAL,
		    k);
	else
		kvsnap_addj(s, "kubevirts", "kubevirt.io", k);
	free(k);
}

static const kv_migest *
est(const kvres *r, const char *name)
{
	const kv_vmires *v = kvres_vmires(r, name);

	assert_non_null(r->a->est);
	return &r->a->est[v - r->a->vmis];
}

static void
test_deadline_units(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	(void)state;
	nodes(s);
	kubevirt(s, "{\"completionTimeoutPerGiB\": 20}");
	vmi(s, "one", "1Gi");
	vmi(s, "sixteen", "16Gi");
	vmi(s, "thousand", "1000M");
	r = kvsnap_run(s);
	/* 1 GiB is 1.07 GB: two started GB; 16 GiB: 17.2 GB, 18 */
	assert_int_equal(est(&r, "prod/one")->deadline, 40);
	assert_int_equal(est(&r, "prod/sixteen")->deadline, 360);
	assert_int_equal(est(&r, "prod/thousand")->deadline, 20);
	assert_int_equal(est(&r, "prod/sixteen")->per_gib, 20);
	kvres_free(&r);
	kvsnap_free(s);
}

/* issue 41: a VMI whose input states no memory (neither memory.guest
 * nor a memory request) has no "completion timeout 0 s": the timeout is
 * unknown (findings null), explain says which per-GB setting applies and
 * why, and the estimate's copy, deadline and outcome are unknown. */
static void
test_no_memory(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	const kv_vmires *v;
	const kv_migest *e;
	json_t *j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	kv_term t = { .fmt = KV_OUT_TEXT, .width = 200 };
	kv_err err = {0};
	kvres r;

	(void)state;
	nodes(s);
	j = vmi(s, "bare", "1Gi");
	kvj_del(j, "spec.domain.memory");
	kvj_del(j, "spec.domain.resources");
	vmi(s, "one", "1Gi");
	r = kvsnap_run(s);
	v = kvres_vmires(&r, "prod/bare");
	assert_int_equal(v->completion_timeout, -1);
	assert_int_equal(v->completion_per_gib, 150);
	assert_true(json_is_null(kvj_at(kvres_vmi(&r, "prod/bare"),
	    "completionTimeoutSeconds")));
	assert_jint(kvres_vmi(&r, "prod/one"), "completionTimeoutSeconds",
	    300);
	e = est(&r, "prod/bare");
	assert_true(e->no_memory);
	assert_int_equal(e->outcome, MIG_UNKNOWN);
	assert_true(json_is_null(kvj_at(kvres_vmi(&r, "prod/bare"),
	    "migration.deadlineSeconds")));
	f = open_memstream(&buf, &len);
	t.f = f;
	assert_int_equal(kv_view_explain(r.a, (size_t)(v - r.a->vmis), &t,
	    &err), KV_OK);
	fclose(f);
	assert_non_null(strstr(buf, "LiveMigration, completion timeout "
	    "unknown (150 s per GB, the KubeVirt default as the KubeVirt CR "
	    "sets none, times the guest memory, which the VMI does not "
	    "state), eviction LiveMigrate"));
	assert_non_null(strstr(buf, "memory not stated in the VMI, at "));
	assert_non_null(strstr(buf, "copy and deadline unknown: unknown: "
	    "its memory decides"));
	assert_null(strstr(buf, "timeout 0 s"));
	assert_null(strstr(buf, "no deadline"));
	free(buf);
	kvres_free(&r);
	kvsnap_free(s);
}

/* seed's completed migration: VMIM created at :00, target ready at
 * :03, copy :03 to :10 (w2 to w1). */
static void
seed_history(kvsnap *s)
{
	kvsnap_addj(s, VMIMS, "{\"apiVersion\": \"kubevirt.io/v1\", "
	    "\"kind\": \"VirtualMachineInstanceMigration\", \"metadata\": "
	    "{\"name\": \"m1\", \"namespace\": \"prod\", \"uid\": \"mig-1\", "
	    "\"creationTimestamp\": \"2026-10-31T09:00:00Z\"}, \"spec\": "
	    "{\"vmiName\": \"seed\"}, \"status\": {\"phase\": \"Succeeded\", "
	    "\"phaseTransitionTimestamps\": [{\"phase\": \"Scheduling\", "
	    "\"phaseTransitionTimestamp\": \"2026-10-31T09:00:00Z\"}, "
	    "{\"phase\": \"TargetReady\", \"phaseTransitionTimestamp\": "
	    "\"2026-10-31T09:00:03Z\"}], \"migrationState\": {"
	    "\"startTimestamp\": \"2026-10-31T09:00:03Z\", \"endTimestamp\": "
	    "\"2026-10-31T09:00:10Z\", \"sourceNode\": \"w2\", "
	    "\"targetNode\": \"w1\", \"completed\": true}}}");
}

/* The measured migration: 1 GiB, idle, masquerade, VMIM created at :00,
 * target ready at :03, copy :03 to :10. */
static void
test_seed_history(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	const kv_migest *e;
	kvres r;

	(void)state;
	nodes(s);
	vmi(s, "seed", "1Gi");
	seed_history(s);
	r = kvsnap_run(s);
	e = est(&r, "prod/seed");
	assert_true(e->present);
	assert_int_equal(e->outcome, MIG_CONVERGES);
	assert_int_equal(e->basis, BASIS_HISTORY);
	assert_true(e->seconds[0] >= 6 && e->seconds[1] <= 12);
	assert_true(e->seconds[0] < e->seconds[1]);
	assert_true(e->connections_drop);
	assert_int_equal(e->deadline, 300);
	/* the cluster's link from it: 1 GiB over 6-8 s */
	assert_int_equal(r.a->window->observed, 1);
	assert_true(fabs(r.a->window->link_bps[0] - 1073741824.0 / 8) < 1);
	kvres_free(&r);
	kvsnap_free(s);
}

static void
dirty_metrics(kvsnap *s, const char *name, long long bps)
{
	char *x = xasprintf("{\"apiVersion\": \"kvscope.io/v1\", \"kind\": "
	    "\"VMIMetrics\", \"metadata\": {\"namespace\": \"prod\", "
	    "\"name\": \"%s\"}, \"window\": {\"start\": "
	    "\"2026-10-31T08:00:00Z\", \"end\": \"2026-10-31T09:00:00Z\", "
	    "\"source\": \"prometheus\"}, \"dirtyRateBytesPerSecond\": "
	    "{\"avg\": %lld, \"max\": %lld}}", name, bps, bps);

	kvsnap_addj(s, METRICS, x);
	free(x);
}

/* 16 GiB dirtying 30 MB/s at 64 MiB/s: 20 s per GB aborts it, 150 s per
 * GB lets it finish. */
static void
test_sixteen_gib(void **state)
{
	const char *per[] = { "20", "150" };
	const enum kv_mig_outcome want[] = { MIG_WILL_ABORT, MIG_CONVERGES };

	(void)state;
	for (int k = 0; k < 2; k++) {
		kvsnap *s = kvsnap_new("kubevirt");
		char *mig = xasprintf("{\"completionTimeoutPerGiB\": %s, "
		    "\"bandwidthPerMigration\": \"64Mi\"}", per[k]);
		const kv_migest *e;
		kvres r;

		nodes(s);
		kubevirt(s, mig);
		vmi(s, "db-0", "16Gi");
		dirty_metrics(s, "db-0", 30000000);
		r = kvsnap_run(s);
		e = est(&r, "prod/db-0");
		assert_int_equal(e->outcome, want[k]);
		assert_int_equal(e->basis, BASIS_METRICS);
		assert_true(e->rate[1] == 64.0 * 1048576);
		assert_true(e->assume & (1u << AS_BANDWIDTH));
		if (k == 0) {
			assert_int_equal(e->deadline, 360);
			assert_int_equal(e->end, END_ABORT);
			/* it converges, too slowly: the deadline ends it */
			assert_false(e->stalls);
		} else
			assert_true(e->seconds[1] < 2700 &&
			    e->seconds[0] > 256);
		kvres_free(&r);
		kvsnap_free(s);
		free(mig);
	}
}

/* No metrics, no history, no --dirty-rate: unknown, never converges,
 * with the rate that decides. */
static void
test_unknown_dirty(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	const kv_migest *e;
	kvres r;

	(void)state;
	nodes(s);
	kubevirt(s, "{\"completionTimeoutPerGiB\": 20, "
	    "\"bandwidthPerMigration\": \"64Mi\"}");
	vmi(s, "db-0", "16Gi");
	vmi(s, "tiny", "1Gi");
	r = kvsnap_run(s);
	e = est(&r, "prod/db-0");
	/* even an idle 16 GiB guest needs 256 s of its 360 */
	assert_int_equal(e->outcome, MIG_UNKNOWN);
	assert_true(e->assume & (1u << AS_DIRTY_UNKNOWN));
	assert_true(e->assume & (1u << AS_LINK_ASSUMED));
	assert_true(e->max_dirty > 0 && e->max_dirty < 30e6);
	assert_int_equal(e->basis, BASIS_ASSUMED);
	assert_int_equal(est(&r, "prod/tiny")->outcome, MIG_UNKNOWN);
	assert_int_equal(r.a->window->unknown, 2);
	kvres_free(&r);
	kvsnap_free(s);
}

/* A MigrationPolicy's non-nil fields over the KubeVirt CR's. */
static void
test_policy_precedence(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	const kv_migest *e;
	kvres r;

	(void)state;
	nodes(s);
	kubevirt(s, "{\"completionTimeoutPerGiB\": 20, "
	    "\"bandwidthPerMigration\": \"64Mi\"}");
	vmi(s, "db-0", "16Gi");
	vmi(s, "other", "16Gi");
	dirty_metrics(s, "db-0", 30000000);
	dirty_metrics(s, "other", 30000000);
	kvsnap_addj(s, "migrationpolicies", "migrations.kubevirt.io",
	    "{\"apiVersion\": \"migrations.kubevirt.io/v1alpha1\", \"kind\": "
	    "\"MigrationPolicy\", \"metadata\": {\"name\": \"db\"}, \"spec\": "
	    "{\"selectors\": {\"virtualMachineInstanceSelector\": {\"app\": "
	    "\"db-0\"}}, \"allowPostCopy\": true}}");
	r = kvsnap_run(s);
	e = est(&r, "prod/db-0");
	assert_string_equal(e->settings, "db");
	assert_true(e->postcopy && e->disruption);
	/* past the 360 s deadline post-copy finishes it */
	assert_int_equal(e->end, END_POSTCOPY);
	assert_int_equal(e->outcome, MIG_CONVERGES);
	assert_int_equal(e->deadline, 360);
	e = est(&r, "prod/other");
	assert_null(e->settings);
	assert_int_equal(e->outcome, MIG_WILL_ABORT);
	kvres_free(&r);
	kvsnap_free(s);
}

/* The 16 GiB guest aborted at 20 s per GB: a migration-will-abort
 * warning (the verdict stays ok), its group under the cluster's
 * settings, and the fix allowPostCopy checked by estimating it again;
 * a larger completionTimeoutPerGiB helps too, 21 s per GB does not. */
static void
test_abort_group(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	const kv_vmires *v;
	const kv_group *g = NULL;
	kv_migtry t = { .bandwidth = -1 };
	size_t i;
	kvres r;

	(void)state;
	nodes(s);
	kubevirt(s, "{\"completionTimeoutPerGiB\": 20, "
	    "\"bandwidthPerMigration\": \"64Mi\"}");
	vmi(s, "db-0", "16Gi");
	dirty_metrics(s, "db-0", 30000000);
	r = kvsnap_run(s);
	v = kvres_vmires(&r, "prod/db-0");
	i = (size_t)(v - r.a->vmis);
	assert_int_equal(v->verdict, V_OK);
	assert_int_equal(r.a->est[i].outcome, MIG_WILL_ABORT);
	assert_true(v->nwarnings >= 1);
	for (size_t k = 0; k < v->nwarnings; k++)
		if (strcmp(v->warnings[k].rule->code,
		    "migration-will-abort") == 0)
			assert_non_null(strstr(v->warnings[k].message,
			    "deadline 360 s"));
	for (size_t k = 0; k < r.a->ngroups; k++)
		if (strcmp(r.a->groups[k].code, "migration-will-abort") == 0)
			g = &r.a->groups[k];
	assert_non_null(g);
	assert_int_equal(g->verdict, V_OK);
	assert_int_equal(g->kind, SUBJ_MIGRATION_POLICY);
	assert_string_equal(g->name, "cluster");
	assert_int_equal(g->fix.action, FIX_SET_MIGRATION_POLICY);
	assert_string_equal(g->fix.value, "allowPostCopy: true");
	assert_int_equal(g->fix.fixes, 1);
	assert_true(g->fix.checked);
	assert_non_null(strstr(g->fix.text, "kind: MigrationPolicy"));
	assert_int_equal(kv_estimate_try(r.a, &i, 1, &t, NULL), 0);
	t.per_gib = 150;
	assert_int_equal(kv_estimate_try(r.a, &i, 1, &t, NULL), 1);
	t.per_gib = 21;
	assert_int_equal(kv_estimate_try(r.a, &i, 1, &t, NULL), 0);
	t = (kv_migtry){ .bandwidth = -1, .postcopy = true };
	assert_int_equal(kv_estimate_try(r.a, &i, 1, &t, NULL), 1);
	/* the analysis's own estimate is untouched */
	assert_int_equal(r.a->est[i].outcome, MIG_WILL_ABORT);
	kvres_free(&r);
	kvsnap_free(s);
}

/* One flavor's snapshot for test_flavor_defaults: a KubeVirt CR that
 * sets no migration setting, the distribution's own objects. */
typedef struct flavor_case {
	const char *flavor;		/* kvsnap flavor */
	const char *kubevirt;		/* observedKubeVirtVersion */
	const char *extra;		/* HyperConverged / Harvester setting */
	const char *extra_res, *extra_group;
	int64_t per_gib, deadline;	/* 16 GiB: 18 started GB */
	size_t per_source, per_target;
	double bandwidth;		/* bytes/s cap; 0: none */
	const char *product;
} flavor_case;

#define HCO(v) "{\"apiVersion\": \"hco.kubevirt.io/v1beta1\", \"kind\": " \
	"\"HyperConverged\", \"metadata\": {\"name\": " \
	"\"kubevirt-hyperconverged\", \"namespace\": \"openshift-cnv\"}, " \
	"\"spec\": {}, \"status\": {\"versions\": [{\"name\": " \
	"\"operator\", \"version\": \"" v "\"}]}}"
#define HARVESTER(v) "{\"apiVersion\": \"harvesterhci.io/v1beta1\", " \
	"\"kind\": \"Setting\", \"metadata\": {\"name\": " \
	"\"server-version\"}, \"value\": \"" v "\"}"

static void
flavor_case_run(const flavor_case *c)
{
	kvsnap *s = kvsnap_new(c->flavor);
	kv_mig_limits lim;
	const kv_migest *e;
	kvres r;

	nodes(s);
	kubevirt_at(s, c->kubevirt, "{}");
	if (c->extra != NULL)
		kvsnap_addj(s, c->extra_res, c->extra_group, c->extra);
	if (strcmp(c->flavor, "deckhouse") == 0) {
		/* what a DVP VMI's checks read, none of it in the way */
		static const char *const dvp[] = { "virtualmachines",
		    "virtualmachineclasses", "virtualdisks",
		    "virtualmachineoperations",
		    "virtualmachineblockdeviceattachments" };

		for (size_t k = 0; k < sizeof(dvp) / sizeof(dvp[0]); k++)
			kvsnap_list(s, dvp[k], "virtualization.deckhouse.io");
	}
	vmi(s, "db-0", "16Gi");
	r = kvsnap_run(s);
	assert_string_equal(r.a->m->flavor->name, strcmp(c->flavor,
	    "deckhouse") == 0 ? "deckhouse" : c->product);
	e = est(&r, "prod/db-0");
	if (!e->present)
		fail_msg("%s %s: verdict %s %u", c->product, c->kubevirt,
		    kv_verdict_names[kvres_vmires(&r, "prod/db-0")->verdict],
		    kvres_vmires(&r, "prod/db-0")->not_judged);
	assert_int_equal(e->per_gib, c->per_gib);
	assert_int_equal(e->deadline, c->deadline);
	assert_int_equal(e->progress_timeout, 150);
	if (c->bandwidth > 0) {
		assert_true(e->assume & (1u << AS_BANDWIDTH));
		assert_true(e->rate[1] == c->bandwidth);
	} else
		assert_false(e->assume & (1u << AS_BANDWIDTH));
	kv_schedule_limits(r.a, &lim);
	assert_int_equal(lim.per_source, c->per_source);
	assert_int_equal(lim.per_target, c->per_target);
	kvres_free(&r);
	kvsnap_free(s);
}

/* Each flavor's defaults, through the estimate into the deadline and
 * the parallel limits: KubeVirt's (150 s per GB from v1.4.0, 800
 * before: versions.c SINCE_COMPLETION_150), OpenShift Virtualization's
 * by HCO release (openshift/config.c: 4.18-4.22 150 s and 2 per node,
 * 4.23 20 s and 1 per node), Harvester's (KubeVirt's of the release it
 * ships), Deckhouse's (dvp/analysis.c: 640Mi per migration, 800 s per
 * GB, one syncing out of and one coming into each node). */
static void
test_flavor_defaults(void **state)
{
	const double mi = 1048576.0;
	const flavor_case cases[] = {
		{ "kubevirt", "v1.9.0", NULL, NULL, NULL, 150, 2700, 2, 0, 0,
		  "kubevirt" },
		{ "kubevirt", "v1.3.1", NULL, NULL, NULL, 800, 14400, 2, 0, 0,
		  "kubevirt" },
		{ "kubevirt", "v1.9.0", HCO("4.23.0"), "hyperconvergeds",
		  "hco.kubevirt.io", 20, 360, 1, 0, 0, "openshift" },
		{ "kubevirt", "v1.5.0", HCO("4.18.3"), "hyperconvergeds",
		  "hco.kubevirt.io", 150, 2700, 2, 0, 0, "openshift" },
		{ "kubevirt", "v1.3.1", HARVESTER("v1.4.3"), "settings",
		  "harvesterhci.io", 800, 14400, 2, 0, 0, "harvester" },
		{ "kubevirt", "v1.6.0", HARVESTER("v1.7.0"), "settings",
		  "harvesterhci.io", 150, 2700, 2, 0, 0, "harvester" },
		{ "deckhouse", "v1.6.0", NULL, NULL, NULL, 800, 14400, 1, 1,
		  640 * mi, "deckhouse" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		flavor_case_run(&cases[i]);
}

/* The fix proof analyses a copy holding some VMIs (change/fixproof.c):
 * its estimate takes the whole snapshot's link (the history of seed,
 * which the copy does not hold) and the other VMIs' outbound migrations
 * of each node (3 on w1: 2 lanes), so it gives the whole's figures. */
static void
test_part_estimate(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kv_analysis *b = NULL;
	const kv_vmires *v;
	kv_model part;
	kv_err err = {0};
	kvres r;

	(void)state;
	nodes(s);
	kubevirt(s, "{\"completionTimeoutPerGiB\": 20}");
	vmi(s, "seed", "1Gi");
	seed_history(s);
	vmi(s, "db-0", "16Gi");
	vmi(s, "db-1", "16Gi");
	dirty_metrics(s, "db-0", 30000000);
	r = kvsnap_run(s);
	v = kvres_vmires(&r, "prod/db-0");
	part = *r.m;
	part.vmis = (kv_vmi *)v->vmi;
	part.nvmis = 1;
	assert_int_equal(kv_analyze_verdicts(&part, r.a, &b, &err), KV_OK);
	{
		const kv_migest *w = &r.a->est[v - r.a->vmis], *e = &b->est[0];

		assert_true(e->present && w->present);
		assert_int_equal(w->lanes, 2);
		assert_true(w->assume & (1u << AS_LINK_HISTORY));
		assert_int_equal(e->lanes, w->lanes);
		assert_int_equal(e->assume, w->assume);
		assert_true(e->rate[0] == w->rate[0] &&
		    e->rate[1] == w->rate[1]);
		assert_true(e->seconds[0] == w->seconds[0] &&
		    e->seconds[1] == w->seconds[1]);
		assert_int_equal(e->outcome, w->outcome);
		assert_int_equal(b->window->observed, 1);
	}
	kv_analysis_free(b);
	kvres_free(&r);
	kvsnap_free(s);
}

/* The MigrationPolicy of a fix (kv_fix_policy): the old one's settings
 * with the field over them, its selectors and the label when every VMI
 * has labels, the label alone when not; its text. */
static void
test_fix_policy(void **state)
{
	kv_label vsel[] = { { "app", "ci" } }, nsel[] = { { "env", "dev" } };
	kv_policy base = { .name = "ci", .has_selectors = true,
	    .ns_selector = { 1, nsel }, .vmi_selector = { 1, vsel },
	    .completion_per_gib = 20, .bandwidth = 64 << 20,
	    .allow_postcopy = -1, .allow_autoconverge = 0,
	    .allow_disruption = -1 };
	kv_policy p;
	char *t;

	(void)state;
	assert_true(kv_fix_policy(&base, "allowPostCopy: true", "kvscope-g4",
	    true, &p));
	t = kv_policy_spec_text(&p);
	assert_string_equal(t, "{allowAutoConverge: false, allowPostCopy: "
	    "true, bandwidthPerMigration: 64Mi, completionTimeoutPerGiB: 20, "
	    "selectors: {namespaceSelector: {env: dev}, "
	    "virtualMachineInstanceSelector: {app: ci, "
	    "kvscope.io/migration-policy: kvscope-g4}}}");
	free(t);
	free(p.ns_selector.v);
	free(p.vmi_selector.v);
	/* a VMI without labels matched ci by the nil-labels quirk */
	assert_true(kv_fix_policy(&base, "completionTimeoutPerGiB: 95",
	    "kvscope-g2", false, &p));
	t = kv_policy_spec_text(&p);
	assert_string_equal(t, "{allowAutoConverge: false, "
	    "bandwidthPerMigration: 64Mi, completionTimeoutPerGiB: 95, "
	    "selectors: {virtualMachineInstanceSelector: "
	    "{kvscope.io/migration-policy: kvscope-g2}}}");
	free(t);
	free(p.ns_selector.v);
	free(p.vmi_selector.v);
	assert_true(kv_fix_policy(NULL, "bandwidthPerMigration: \"0\"",
	    "kvscope-g1", true, &p));
	assert_int_equal(p.bandwidth, 0);
	assert_int_equal(p.completion_per_gib, -1);
	free(p.ns_selector.v);
	free(p.vmi_selector.v);
	assert_false(kv_fix_policy(NULL, "allowPostCopy: maybe", "x", true,
	    &p));
}

/* Ten migrations from two nodes, one outbound each: five rounds. */
static void
test_schedule_rounds(void **state)
{
	kv_mig_job jobs[10];
	kv_slot slots[10];
	kv_mig_limits lim = { 5, 1, 0 };
	double span[2];

	(void)state;
	for (size_t j = 0; j < 10; j++)
		jobs[j] = (kv_mig_job){ j % 2, SIZE_MAX, { 10, 20 } };
	kv_schedule_run(jobs, 10, &lim, slots, span);
	assert_true(span[0] == 50 && span[1] == 100);
	assert_true(slots[9].start[1] == 80);
	/* two per node, a cluster limit of 3: still 2 at once per node */
	lim = (kv_mig_limits){ 3, 2, 0 };
	kv_schedule_run(jobs, 10, &lim, NULL, span);
	assert_true(span[0] == 40);
	/* one inbound per target (DVP), all to one target: one at a time */
	lim = (kv_mig_limits){ 5, 2, 1 };
	for (size_t j = 0; j < 10; j++)
		jobs[j].target = 7;
	kv_schedule_run(jobs, 10, &lim, NULL, span);
	assert_true(span[0] == 100);
}

static void
test_precopy(void **state)
{
	kv_precopy p;

	(void)state;
	/* idle: one round and the pause */
	kv_precopy_run(1e9, 1e8, 0, 0.3, false, &p);
	assert_true(fabs(p.copy - 10) < 1e-9 && p.rounds == 1);
	/* lambda 0.5: 10 + 5 + 2.5 + ... until 0.3 s of data is left */
	kv_precopy_run(1e9, 1e8, 5e7, 0.3, false, &p);
	assert_true(p.copy > 19 && p.copy < 20.5);
	assert_true(p.remaining <= 3e7);
	/* lambda >= 1 never converges without auto-converge */
	kv_precopy_run(1e9, 1e8, 1.2e8, 0.3, false, &p);
	assert_true(isinf(p.copy));
	kv_precopy_run(1e9, 1e8, 1.2e8, 0.3, true, &p);
	assert_false(isinf(p.copy));
}

static void
test_parse_rate(void **state)
{
	double lo, hi;

	(void)state;
	assert_true(kv_parse_rate("25Gbit", &lo, &hi, false));
	assert_true(lo == 25e9 / 8 && hi == lo);
	assert_true(kv_parse_rate("40MB/s", &lo, &hi, true) && lo == 4e7);
	assert_true(kv_parse_rate("10MB/s-60MB/s", &lo, &hi, true));
	assert_true(lo == 1e7 && hi == 6e7);
	assert_true(kv_parse_rate("64MiB/s", &lo, &hi, false) &&
	    lo == 64.0 * 1048576);
	assert_false(kv_parse_rate("10MB/s-60MB/s", &lo, &hi, false));
	assert_false(kv_parse_rate("60MB/s-10MB/s", &lo, &hi, true));
	assert_false(kv_parse_rate("fast", &lo, &hi, false));
	assert_false(kv_parse_rate("10 MB", &lo, &hi, false));
	assert_true(kv_parse_duration("1h30m", &lo) && lo == 5400);
	assert_true(kv_parse_duration("600", &lo) && lo == 600);
	assert_false(kv_parse_duration("5x", &lo));
	assert_false(kv_parse_duration("", &lo));
	assert_false(kv_parse_duration("-1h", &lo));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_units),
		cmocka_unit_test(test_no_memory),
		cmocka_unit_test(test_seed_history),
		cmocka_unit_test(test_sixteen_gib),
		cmocka_unit_test(test_unknown_dirty),
		cmocka_unit_test(test_policy_precedence),
		cmocka_unit_test(test_abort_group),
		cmocka_unit_test(test_flavor_defaults),
		cmocka_unit_test(test_part_estimate),
		cmocka_unit_test(test_fix_policy),
		cmocka_unit_test(test_schedule_rounds),
		cmocka_unit_test(test_precopy),
		cmocka_unit_test(test_parse_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
