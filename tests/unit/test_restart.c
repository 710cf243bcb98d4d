/*
 * test_restart.c - the VirtualMachine behind a VMI that a drain stops
 * (findings "vmis[].restarts", "drain[].restart", "summary.drainRestart"):
 * one VM per runStrategy value, spec.running, and none; a VM that would
 * start again but whose VMI no node can run; where a fresh launcher pod
 * lands (not the migration target's search); --allow-restart against
 * --allow-shutdown; DVP's runPolicy.
 */
#include "kvtest.h"
#include "kvsnap.h"

#include "analyze/change/fixproof.h"
#include "analyze/decide/drain.h"
#include "analyze/dvp/dvp.h"
#include "analyze/decide/groups.h"
#include "render/view.h"

#define VMIS "virtualmachineinstances", "kubevirt.io"
#define VMS "virtualmachines", "kubevirt.io"

#define FEAT "abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr " \
	"lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 " \
	"syscall xsave"

static void
node(kvsnap *s, const char *name)
{
	const kvcpu cpu = { "Intel", "Skylake-Client-IBRS", FEAT " vmx",
	    "vmx", "Nehalem Haswell-noTSX",
	    "Nehalem Haswell-noTSX Skylake-Client-IBRS" };

	kvj_label(kvsnap_kvnode(s, name, &cpu), "pool", name);
}

/* A running VMI on w1 that a drain shuts down (evictionStrategy None);
 * pool: a nodeSelector pool=<pool>, or NULL. */
static void
stopper(kvsnap *s, const char *name, const char *pool)
{
	char *v = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachineInstance\", \"metadata\": {\"name\": \"%s\", "
	    "\"namespace\": \"prod\", \"uid\": \"uid-%s\"}, \"spec\": {"
	    "\"evictionStrategy\": \"None\", \"domain\": {\"cpu\": "
	    "{\"model\": \"host-model\"}, \"resources\": {\"requests\": "
	    "{\"memory\": \"2Gi\"}}}}, \"status\": {\"phase\": \"Running\", "
	    "\"nodeName\": \"w1\", \"migrationMethod\": \"LiveMigration\", "
	    "\"conditions\": [{\"type\": \"LiveMigratable\", \"status\": "
	    "\"True\"}]}}", name, name);
	json_t *o = kvsnap_addj(s, VMIS, v);

	if (pool != NULL)
		kvj_key(o, "spec.nodeSelector", "pool", pool);
	free(v);
}

/* Its VirtualMachine: spec is the JSON of spec's members. */
static void
vm(kvsnap *s, const char *name, const char *spec, const char *status)
{
	char *v = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachine\", \"metadata\": {\"name\": \"%s\", "
	    "\"namespace\": \"prod\"}, \"spec\": {%s}, \"status\": {%s}}",
	    name, spec, status);

	kvsnap_addj(s, VMS, v);
	free(v);
}

static kvres
cluster(void)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	node(s, "w1");
	node(s, "w2");
	node(s, "w3");
	stopper(s, "always", NULL);
	vm(s, "always", "\"runStrategy\": \"Always\"", "");
	stopper(s, "rerun", NULL);
	vm(s, "rerun", "\"runStrategy\": \"RerunOnFailure\"", "");
	stopper(s, "once", NULL);
	vm(s, "once", "\"runStrategy\": \"Once\"", "");
	stopper(s, "manual", NULL);
	vm(s, "manual", "\"runStrategy\": \"Manual\"", "");
	stopper(s, "halted", NULL);
	vm(s, "halted", "\"runStrategy\": \"Halted\"", "");
	stopper(s, "running", NULL);
	vm(s, "running", "\"running\": true", "\"conditions\": [{\"type\": "
	    "\"RestartRequired\", \"status\": \"True\", \"message\": "
	    "\"a volume changed\"}]");
	stopper(s, "bare", NULL);
	/* only w1 (being drained) can run it */
	stopper(s, "pinned", "w1");
	vm(s, "pinned", "\"runStrategy\": \"Always\"", "");
	r = kvsnap_run(s);
	kvsnap_free(s);
	return r;
}

static const kv_drain_row *
row_of(const kv_analysis *a, const char *vmi)
{
	for (size_t i = 0; i < a->ndrain; i++)
		for (size_t k = 0; k < a->drain[i].nplan; k++) {
			const kv_drain_row *row = &a->drain[i].plan[k];

			if (strcmp(a->vmis[row->vmi].vmi->fullname, vmi) == 0)
				return row;
		}
	fail_msg("no plan row for %s", vmi);
	return NULL;
}

static void
assert_restart(const kvres *r, const char *vmi, bool yes, const char *why)
{
	const kv_drain_row *row = row_of(r->a, vmi);
	json_t *v = kvres_vmi(r, vmi);

	assert_string_equal(kv_on_drain_names[row->action], "shutdown");
	assert_int_equal(row->restart, yes);
	assert_string_equal(row->restart_why, why);
	assert_jbool(v, "restarts", yes);
	if (yes)
		assert_string_equal(r->m->nodes[row->restart_node].name, "w2");
	else
		assert_true(row->restart_node == SIZE_MAX);
}

/* kv_drain_stops (the proof's copies) gives every VMI the drain stops the
 * restart every node's drain gives it: answer, node and reason, with
 * VMs that start theirs again on w2 and one that only w1 could run. */
static void
test_stops_same_restarts(void **state)
{
	kvres r = cluster();
	kv_vmires *was = xcalloc(r.a->nvmis, sizeof(*was));
	size_t placed = 0;

	(void)state;
	memcpy(was, r.a->vmis, r.a->nvmis * sizeof(*was));
	for (size_t i = 0; i < r.a->nvmis; i++)
		if (r.a->vmis[i].on_drain == DRAIN_SHUTDOWN) {
			r.a->vmis[i].restarts = -2;
			r.a->vmis[i].restart_node = SIZE_MAX - 1;
			r.a->vmis[i].restart_why = NULL;
		}
	kv_drain_stops(r.a);
	assert_int_equal(r.a->ndrain, 1);
	for (size_t i = 0; i < r.a->nvmis; i++) {
		const kv_vmires *x = &was[i], *y = &r.a->vmis[i];

		assert_int_equal(y->restarts, x->restarts);
		assert_true(y->restart_node == x->restart_node);
		assert_ptr_equal(y->restart_why, x->restart_why);
		placed += x->restart_node != SIZE_MAX;
	}
	assert_int_equal(placed, 2);	/* always and running, on w2 */
	free(was);
	kvres_free(&r);
}

/* KubeVirt v1.9.0 pkg/virt-controller/watch/vm/vm.go syncRunStrategy:
 * only Always starts a VMI again that ended Succeeded after its pod was
 * evicted (restart.c). */
static void
test_run_strategies(void **state)
{
	kvres r = cluster();
	const kv_drain_row *row;

	(void)state;
	assert_restart(&r, "prod/always", true, "runStrategy Always");
	assert_restart(&r, "prod/running", true, "runStrategy Always");
	assert_restart(&r, "prod/rerun", false, "runStrategy RerunOnFailure");
	assert_restart(&r, "prod/once", false, "runStrategy Once");
	assert_restart(&r, "prod/manual", false, "runStrategy Manual");
	assert_restart(&r, "prod/halted", false, "runStrategy Halted");
	assert_restart(&r, "prod/bare", false, "no VirtualMachine");
	/* the VM would start it, but only the drained node can run it */
	assert_restart(&r, "prod/pinned", false, "runStrategy Always");
	row = row_of(r.a, "prod/pinned");
	assert_true(row->no_node);
	assert_false(row_of(r.a, "prod/manual")->no_node);
	assert_true(kvres_vmires(&r, "prod/running")->vm->restart_required);
	assert_false(kvres_vmires(&r, "prod/always")->vm->restart_required);
	assert_null(kvres_vmires(&r, "prod/bare")->vm);
	assert_jint(json_array_get(json_object_get(r.findings, "drain"), 0),
	    "restart", 2);
	assert_jint(json_array_get(json_object_get(r.findings, "drain"), 0),
	    "shutdown", 8);
	assert_jint(r.findings, "summary.drainRestart", 2);
	assert_jint(r.findings, "summary.drainShutdown", 8);
	kvres_free(&r);
}

/* --allow-shutdown accepts every stop, --allow-restart only those that
 * come back by themselves. */
static void
test_allow(void **state)
{
	kvres r = cluster();
	kv_drain d = r.a->drain[0];

	(void)state;
	assert_true(kv_drain_fails(&d, 1, ALLOW_NONE));
	assert_true(kv_drain_fails(&d, 1, ALLOW_RESTART));
	assert_false(kv_drain_fails(&d, 1, ALLOW_SHUTDOWN));
	d.shutdown = d.restart;
	assert_false(kv_drain_fails(&d, 1, ALLOW_RESTART));
	assert_true(kv_drain_fails(&d, 1, ALLOW_NONE));
	kvres_free(&r);
}

/* explain's text for VMI i, as a string the caller frees. */
static char *
explain_text(const kvres *r, const char *vmi)
{
	const kv_vmires *v = kvres_vmires(r, vmi);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	kv_term t = { .f = f, .fmt = KV_OUT_TEXT, .width = 100 };
	kv_err err = {0};

	assert_non_null(f);
	assert_int_equal(kv_view_explain(r->a, (size_t)(v - r->a->vmis), &t,
	    &err), KV_OK);
	fclose(f);
	return buf;
}

/* explain names the VM, and flags a template that already differs. */
static void
test_explain(void **state)
{
	kvres r = cluster();
	char *s = explain_text(&r, "prod/running");

	(void)state;
	assert_non_null(strstr(s, "a drain stops it, and it starts again on "
	    "w2, room not checked (runStrategy Always)\n"));
	assert_non_null(strstr(s, "VirtualMachine prod/running, runStrategy "
	    "Always; RestartRequired: a volume changed - its template "));
	free(s);
	s = explain_text(&r, "prod/manual");
	assert_non_null(strstr(s, "a drain stops it and it stays down "
	    "(runStrategy Manual)\n"));
	assert_null(strstr(s, "RestartRequired"));
	free(s);
	s = explain_text(&r, "prod/bare");
	assert_non_null(strstr(s, "stays down (no VirtualMachine)\n"));
	assert_null(strstr(s, "  VirtualMachine "));
	free(s);
	kvres_free(&r);
}

/* The fix texts' API: the VirtualMachines of a group's VMIs, and the
 * command that patches the first. */
static void
test_group_vms(void **state)
{
	kvres r = cluster();
	kv_group g = {0};
	size_t ix[3], nvms = 0;
	char *s;

	(void)state;
	ix[0] = (size_t)(kvres_vmires(&r, "prod/always") - r.a->vmis);
	ix[1] = (size_t)(kvres_vmires(&r, "prod/bare") - r.a->vmis);
	ix[2] = (size_t)(kvres_vmires(&r, "prod/manual") - r.a->vmis);
	g.nvmis = 3;
	g.vmis = ix;
	s = kv_group_vms(r.a, &g, 5, &nvms);
	assert_string_equal(s, "prod/always, prod/manual");
	assert_int_equal(nvms, 2);
	free(s);
	s = kv_group_vms(r.a, &g, 1, NULL);
	assert_string_equal(s, "prod/always, ... (1 more)");
	free(s);
	s = kv_group_patch(r.a, &g, "{\"spec\":{}}", true);
	assert_string_equal(s, "for prod/always: kubectl patch vm always -n "
	    "prod --type merge -p '{\"spec\":{}}' && virtctl restart always "
	    "-n prod");
	free(s);
	g.nvmis = 1;
	g.vmis = &ix[1];
	assert_null(kv_group_patch(r.a, &g, "{}", false));
	kvres_free(&r);
}

/* A VMI whose migration to node is under way (VMIM phase): evictionStrategy
 * None would stop it; LiveMigrate waits for the migration. */
static kvres
migrating(const char *phase, const char *strategy)
{
	kvsnap *s = kvsnap_new("kubevirt");
	json_t *v;
	char *mi = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachineInstanceMigration\", \"metadata\": {\"name\": "
	    "\"mig-1\", \"namespace\": \"prod\"}, \"spec\": {\"vmiName\": "
	    "\"moving\"}, \"status\": {\"phase\": \"%s\"}}", phase);
	kvres r;

	node(s, "w1");
	node(s, "w2");
	node(s, "w3");
	stopper(s, "moving", "w1");
	v = kvsnap_find(s, VMIS, "moving");
	kvj_sets(v, "spec.evictionStrategy", strategy);
	kvj_sets(v, "status.migrationState.sourceNode", "w1");
	kvj_sets(v, "status.migrationState.targetNode", "w3");
	kvsnap_addj(s, "virtualmachineinstancemigrations", "kubevirt.io", mi);
	r = kvsnap_run(s);
	kvsnap_free(s);
	free(mi);
	return r;
}

/* pod-eviction-admitter.go and the evacuation controller: a drain waits
 * for the migration under way, to its target node, even where the
 * VMI's own placement (pinned to w1) finds none. */
static void
test_running_migration(void **state)
{
	kvres r = migrating("Running", "LiveMigrate");
	const kv_drain_row *row = row_of(r.a, "prod/moving");

	(void)state;
	assert_string_equal(kv_on_drain_names[row->action], "migrate");
	assert_string_equal(r.m->nodes[row->target].name, "w3");
	assert_jstr(kvres_vmi(&r, "prod/moving"), "onDrain", "migrate");
	kvres_free(&r);
	/* finished: nothing under way, the pinned VMI blocks the drain */
	r = migrating("Succeeded", "LiveMigrate");
	row = row_of(r.a, "prod/moving");
	assert_string_equal(kv_on_drain_names[row->action], "block");
	kvres_free(&r);
	/* evictionStrategy None: the pod is evicted, the VM stops */
	r = migrating("Running", "None");
	assert_string_equal(kv_on_drain_names[row_of(r.a,
	    "prod/moving")->action], "shutdown");
	kvres_free(&r);
}

/* w1 (Intel, host model Skylake-Client-IBRS) and w2 (AMD, host model
 * EPYC-Rome, no Haswell-noTSX model, no canonical q35 machine type): a VMI of
 * w1 has no migration target, but a fresh launcher pod has no host-model,
 * vendor or status.machine selector (kubevirt v1.9.0 pkg/virt-controller/
 * services/template.go:355, nodeselectorrenderer.go:61; only
 * migration.go:965-1005 adds them). */
static kvres
fresh_cluster(void)
{
	kvsnap *s = kvsnap_new("kubevirt");
	const kvcpu amd = { "AMD", "EPYC-Rome", FEAT, "", "Nehalem",
	    "Nehalem EPYC-Rome" };
	json_t *n;
	kvres r;

	node(s, "w1");
	n = kvsnap_kvnode(s, "w2", &amd);
	kvj_label(n, "pool", "w2");
	json_object_del(kvj_obj(n, "metadata.labels"),
	    "machine-type.node.kubevirt.io/pc-q35-rhel9.6.0");
	stopper(s, "fresh", NULL);
	kvj_sets(kvsnap_find(s, VMIS, "fresh"), "spec.domain.machine.type",
	    "q35");
	kvj_sets(kvsnap_find(s, VMIS, "fresh"), "status.machine.type",
	    "pc-q35-rhel9.6.0");
	vm(s, "fresh", "\"runStrategy\": \"Always\"", "");
	/* a named model only w1 offers: no node can start it */
	stopper(s, "named", NULL);
	kvj_sets(kvsnap_find(s, VMIS, "named"), "spec.domain.cpu.model",
	    "Haswell-noTSX");
	vm(s, "named", "\"runStrategy\": \"Always\"", "");
	r = kvsnap_run(s);
	kvsnap_free(s);
	return r;
}

/* A VM a drain stops starts again where a fresh launcher pod can land,
 * not only on its migration targets. */
static void
test_fresh_start(void **state)
{
	kvres r = fresh_cluster();
	const kv_vmires *v = kvres_vmires(&r, "prod/fresh");
	const kv_drain_row *row = row_of(r.a, "prod/fresh");
	char *s;

	(void)state;
	/* no migration target; a fresh pod fits w2 and its own w1, which
	 * the drain takes out */
	assert_int_equal(v->ntargets, 0);
	assert_int_equal(v->start_targets.n, 2);
	assert_true(row->restart);
	assert_false(row->no_node);
	assert_string_equal(r.m->nodes[row->restart_node].name, "w2");
	assert_jbool(kvres_vmi(&r, "prod/fresh"), "restarts", true);
	s = explain_text(&r, "prod/fresh");
	assert_non_null(strstr(s, "a drain stops it, and it starts again on "
	    "w2, room not checked (runStrategy Always)\n"));
	free(s);
	row = row_of(r.a, "prod/named");
	assert_false(row->restart);
	assert_true(row->no_node);
	assert_int_equal(kvres_vmires(&r, "prod/named")->start_targets.n, 1);
	s = explain_text(&r, "prod/named");
	assert_non_null(strstr(s, "a drain stops it and it stays down "
	    "(runStrategy Always)\n"));
	free(s);
	kvres_free(&r);
}

/* DVP sync_power_state.go: AlwaysOn and AlwaysOnUnlessStoppedManually
 * (the default) start the VM again after its pod was deleted; a VMI
 * without a VM stays down when the input has the VMs, and its restart
 * is unknown when the input lacks them. */
static void
test_dvp_run_policy(void **state)
{
	static const struct { const char *policy; bool yes; } cases[] = {
		{ "AlwaysOn", true }, { "AlwaysOnUnlessStoppedManually", true },
		{ NULL, true }, { "Manual", false }, { "AlwaysOff", false },
	};
	snap_resource vms = { .resource = "virtualmachines",
	    .group = "virtualization.deckhouse.io", .status = "ok" };
	kv_model m = { .flavor = &kv_flavor_deckhouse };
	kv_dvm dvm = {0};
	kv_dvpres dres = {0};
	kv_vmires res = {0};
	const char *why = NULL;

	(void)state;
	assert_int_equal(kv_dvp_restarts(&m, &res, &why), RESTART_UNKNOWN);
	assert_string_equal(why, "VirtualMachines not in the input");
	m.manifest.resources = &vms;
	m.manifest.nresources = 1;
	vms.status = "forbidden";
	assert_int_equal(kv_dvp_restarts(&m, &res, &why), RESTART_UNKNOWN);
	assert_string_equal(why, "VirtualMachines forbidden");
	vms.status = "ok";
	assert_int_equal(kv_dvp_restarts(&m, &res, &why), RESTART_NO);
	assert_string_equal(why, "no VirtualMachine");
	res.dvp = &dres;
	assert_int_equal(kv_dvp_restarts(&m, &res, &why), RESTART_NO);
	assert_string_equal(why, "no VirtualMachine");
	dres.vm = &dvm;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dvm.run_policy = cases[i].policy;
		assert_int_equal(kv_dvp_restarts(&m, &res, &why),
		    cases[i].yes ? RESTART_YES : RESTART_NO);
	}
	dvm.run_policy = "Manual";
	kv_dvp_restarts(&m, &res, &why);
	assert_string_equal(why, "runPolicy Manual");
}

/* A VMI pinned to w1 (nodeSelector pool=w1) with evictionStrategy
 * LiveMigrate: no target, so its drain waits (drain-block); live: its
 * LiveMigratable condition (True: KubeVirt tries, the fix offers None;
 * False: LiveMigrateIfPossible). */
static void
blocker(kvsnap *s, const char *name, bool live)
{
	json_t *v;

	stopper(s, name, "w1");
	v = kvsnap_find(s, VMIS, name);
	kvj_sets(v, "spec.evictionStrategy", "LiveMigrate");
	if (!live)
		kvj_setj(v, "status.conditions", "[{\"type\": "
		    "\"LiveMigratable\", \"status\": \"False\", "
		    "\"reason\": \"DisksNotLiveMigratable\"}]");
}

/* The drain-block fix text of a cluster of blockers: names[i] with VM
 * spec specs[i] (NULL: no VirtualMachine). Caller frees. */
static char *
block_text(size_t n, const char *const *names, const char *const *specs,
    bool live)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	char *t = NULL;

	node(s, "w1");
	node(s, "w2");
	kvsnap_status(s, VMS, "ok");	/* listed, even when none */
	for (size_t i = 0; i < n; i++) {
		blocker(s, names[i], live);
		if (specs[i] != NULL)
			vm(s, names[i], specs[i], "");
	}
	r = kvsnap_run(s);
	kvsnap_free(s);
	for (size_t i = 0; i < r.a->ngroups; i++)
		if (strcmp(r.a->groups[i].code, "drain-block") == 0)
			t = xstrdup(r.a->groups[i].fix.text);
	kvres_free(&r);
	if (t == NULL)
		fail_msg("no drain-block group");
	return t;
}

static void
assert_has(const char *s, const char *needle)
{
	if (strstr(s, needle) == NULL)
		fail_msg("\"%s\" lacks \"%s\"", s, needle);
}

/* issue 28: the drain-block fix that lets the drain stop its VMIs says
 * per VM whether its VirtualMachine starts it again (restart.c: only
 * runStrategy Always), not "depends on the VM's runStrategy". */
static void
test_drain_block_after_stop(void **state)
{
	static const char *const one[] = { "always" };
	static const char *const one_spec[] = { "\"runStrategy\": \"Always\"" };
	static const char *const bare[] = { "bare" };
	static const char *const no_vm[] = { NULL };
	static const char *const two[] = { "manual", "halted" };
	static const char *const two_spec[] = {
		"\"runStrategy\": \"Manual\"", "\"runStrategy\": \"Manual\"",
	};
	static const char *const mix[] = { "always", "rerun", "bare" };
	static const char *const mix_spec[] = {
		"\"runStrategy\": \"Always\"",
		"\"runStrategy\": \"RerunOnFailure\"", NULL,
	};
	char *t;

	(void)state;
	/* LiveMigratable: None, "the drain stops it and ..." */
	t = block_text(1, one, one_spec, true);
	assert_has(t, "set spec.template.spec.evictionStrategy: None and "
	    "restart it, so the drain stops it and its VirtualMachine "
	    "(runStrategy Always) starts it again; or External");
	assert_null(strstr(t, "depends on"));
	free(t);
	t = block_text(1, bare, no_vm, true);
	assert_has(t, "so the drain stops it and nothing starts it again (no "
	    "VirtualMachine)");
	free(t);
	t = block_text(2, two, two_spec, true);
	assert_has(t, "so the drain stops them and their VirtualMachines "
	    "(runStrategy Manual) do not start them again");
	free(t);
	t = block_text(3, mix, mix_spec, true);
	assert_has(t, "so the drain stops them and 1 VMI's VirtualMachine "
	    "(runStrategy Always) starts it again, 1 VMI's VirtualMachine "
	    "(runStrategy RerunOnFailure) does not start it again, nothing "
	    "starts 1 VMI again (no VirtualMachine)");
	free(t);
	/* not LiveMigratable: LiveMigrateIfPossible */
	t = block_text(1, one, one_spec, false);
	assert_has(t, "LiveMigrateIfPossible and restart it, so the drain "
	    "stops it instead of waiting and its VirtualMachine (runStrategy "
	    "Always) starts it again");
	free(t);
}

/* The stoppers of cluster() without any VirtualMachine, the VMs'
 * manifest entry status (NULL: none at all). */
static kvres
no_vms(const char *status)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	node(s, "w1");
	node(s, "w2");
	stopper(s, "cache", NULL);
	stopper(s, "web", NULL);
	if (status != NULL)
		kvsnap_status(s, VMS, status);
	r = kvsnap_run(s);
	kvsnap_free(s);
	return r;
}

/* check --drain w1 of r as text, allow as given.  Caller frees. */
static char *
drain_text(const kvres *r, enum kv_allow allow)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	kv_term t = { .f = f, .fmt = KV_OUT_TEXT, .width = 100 };
	kv_err err = {0};

	assert_non_null(f);
	assert_int_equal(kv_view_drain(r->a, r->a->drain, 1,
	    r->a->drain[0].secs, 0, allow, &t, &err), KV_OK);
	fclose(f);
	return buf;
}

/* Whether one of a's warnings holds text. */
static bool
warned(const kv_analysis *a, const char *text)
{
	for (size_t i = 0; i < a->nwarnings; i++)
		if (strstr(a->warnings[i], text) != NULL)
			return true;
	return false;
}

/* issue 41: without VirtualMachines in the input (no manifest entry, or
 * one forbidden), a VMI without a VM may have one: its restart is
 * unknown (findings restarts null, restartWhy), never "stays down"; a
 * warning says so; --allow-restart does not accept the stop and says
 * so in one line.  With the VMs listed (none), it stays down. */
static void
test_vms_lacking(void **state)
{
	static const struct { const char *status, *why; } cases[] = {
		{ NULL, "VirtualMachines not in the input" },
		{ "forbidden", "VirtualMachines forbidden" },
		{ "error", "VirtualMachines not read" },
	};
	kvres r;
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const kv_drain_row *row;

		r = no_vms(cases[i].status);
		row = row_of(r.a, "prod/cache");
		assert_true(row->restart_unknown);
		assert_false(row->restart);
		assert_string_equal(row->restart_why, cases[i].why);
		assert_int_equal(kvres_vmires(&r, "prod/cache")->restarts, -1);
		assert_jint(kvres_vmi(&r, "prod/cache"), "restarts", -1);
		assert_jstr(kvres_vmi(&r, "prod/cache"), "restartWhy",
		    cases[i].why);
		assert_jint(r.findings, "summary.drainRestartUnknown", 2);
		assert_jint(json_array_get(json_object_get(r.findings,
		    "drain"), 0), "restartUnknown", 2);
		assert_true(warned(r.a, "virtualmachines"));
		assert_true(warned(r.a, "whether a VMI a drain stops starts "
		    "again is unknown"));
		assert_true(kv_drain_fails(r.a->drain, 1, ALLOW_RESTART));
		kvres_free(&r);
	}
	r = no_vms(NULL);
	s = drain_text(&r, ALLOW_RESTART);
	assert_has(s, "prod/cache: stops; whether it starts again is unknown "
	    "(VirtualMachines not in the input; eviction-shutdown)\n");
	assert_has(s, "2 stop (0 start again, 2 unknown)");
	assert_has(s, "\n--allow-restart: 2 stops whose restart is unknown "
	    "(VirtualMachines not in the input) are not accepted\n");
	assert_null(strstr(s, "stays down"));
	free(s);
	s = drain_text(&r, ALLOW_SHUTDOWN);
	assert_null(strstr(s, "--allow-restart:"));
	free(s);
	s = explain_text(&r, "prod/web");
	assert_has(s, "a drain stops it; whether it starts again is unknown "
	    "(VirtualMachines not in the input)\n");
	free(s);
	kvres_free(&r);
	/* the VMs listed, none of them: it stays down */
	r = no_vms("ok");
	assert_false(row_of(r.a, "prod/cache")->restart_unknown);
	assert_string_equal(row_of(r.a, "prod/cache")->restart_why,
	    "no VirtualMachine");
	assert_jbool(kvres_vmi(&r, "prod/cache"), "restarts", false);
	assert_false(warned(r.a, "virtualmachines"));
	kvres_free(&r);
}

/* issue 41: a drain-block fix that makes the drain stop VMIs whose
 * restart is unknown is not proven, and says why. */
static void
test_vms_lacking_proof(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	const kv_group *g = NULL;

	(void)state;
	node(s, "w1");
	node(s, "w2");
	blocker(s, "pinned", false);
	r = kvsnap_run(s);
	kvsnap_free(s);
	for (size_t i = 0; i < r.a->ngroups; i++)
		if (strcmp(r.a->groups[i].code, "drain-block") == 0)
			g = &r.a->groups[i];
	assert_non_null(g);
	kv_fix_prove(r.a);
	assert_int_equal(g->fix.action, FIX_SET_EVICTION);
	assert_int_equal(g->fix.fixes, 1);
	assert_false(g->fix.proven);
	assert_has(g->fix.text, "whether it starts again is unknown "
	    "(VirtualMachines not in the input)");
	assert_has(g->fix.text, "(not proven: a drain then stops 1 VMI, and "
	    "whether it starts again is unknown: VirtualMachines not in the "
	    "input)");
	kvres_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_strategies),
		cmocka_unit_test(test_stops_same_restarts),
		cmocka_unit_test(test_vms_lacking),
		cmocka_unit_test(test_vms_lacking_proof),
		cmocka_unit_test(test_allow),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_group_vms),
		cmocka_unit_test(test_running_migration),
		cmocka_unit_test(test_fresh_start),
		cmocka_unit_test(test_dvp_run_policy),
		cmocka_unit_test(test_drain_block_after_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
