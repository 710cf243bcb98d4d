/*
 * test_dvp.c - the Deckhouse Virtualization Platform rules: the class CPU
 * mapping, VMOP and policy helpers, flavor detection and DVP defaults, and
 * every DVP code on small snapshots built in a temporary directory (one
 * running VM on three nodes, varied per test), each once firing and once
 * not (docs/rules.md).
 */
#include "kvtest.h"

#include <glib.h>
#include <jansson.h>
#include <sys/stat.h>

#include "analyze/pipeline.h"
#include "analyze/rules/analysis.h"
#include "analyze/dvp/dvp.h"

#define DVP "virtualization.deckhouse.io"
#define INTERNAL "internal." DVP
#define KVI "kubevirt.internal." DVP "/"
#define DOM ".node." DVP "/"

/* ---- a snapshot under construction ---------------------------------------- */

typedef struct fx {
	const char *flavor;		/* NULL: no cluster.flavor */
	json_t *nodes, *kvvmis, *vms, *classes, *disks, *vmops, *vmbdas;
	json_t *pvcs, *kubevirt;	/* kubevirt: NULL = none */
	json_t *kvvms;			/* NULL: no KVVM file */
	bool no_classes;		/* no VirtualMachineClasses file */
	kv_model *m;
	kv_analysis *a;
	char *dir;
} fx;

static json_t *
node(const char *name)
{
	return json_pack("{s:s,s:{s:s,s:{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}}}",
	    "kind", "Node", "metadata", "name", name, "labels",
	    "kubernetes.io/hostname", name,
	    KVI "schedulable", "true",
	    "cpu-model" DOM "Nehalem", "true",
	    "cpu-feature" DOM "sse4.2", "true",
	    "cpu-feature" DOM "avx2", "true",
	    "host-model-cpu" DOM "Skylake-Server", "true",
	    "cpu-model-migration" DOM "Skylake-Server", "true",
	    "cpu-vendor" DOM "Intel", "true");
}

/* A running KVVMI ns/vm on w1 with one RWX VirtualDisk. */
static json_t *
kvvmi(void)
{
	return json_pack("{s:s,s:{s:s,s:s,s:s,s:{s:s}},"
	    "s:{s:{s:{s:s},s:{s:[{s:s,s:{}}]},s:{s:{s:s}}},"
	    "s:[{s:s,s:{}}],s:[{s:s,s:{s:s}}]},"
	    "s:{s:s,s:s,s:[{s:s,s:s}],"
	    "s:[{s:s,s:{s:s,s:[s]}}]}}",
	    "kind", "InternalVirtualizationVirtualMachineInstance",
	    "metadata", "name", "vm", "namespace", "ns", "uid", "u-1",
	    "annotations", KVI "allow-pod-bridge-network-live-migration", "",
	    "spec", "domain", "cpu", "model", "Nehalem",
	    "devices", "interfaces", "name", "default", "bridge",
	    "resources", "requests", "memory", "4Gi",
	    "networks", "name", "default", "pod",
	    "volumes", "name", "vd-root", "persistentVolumeClaim",
	    "claimName", "vd-root-pvc",
	    "status", "phase", "Running", "nodeName", "w1",
	    "conditions", "type", "LiveMigratable", "status", "True",
	    "volumeStatus", "name", "vd-root", "persistentVolumeClaimInfo",
	    "claimName", "vd-root-pvc", "accessModes", "ReadWriteMany");
}

static json_t *
dvm(void)
{
	return json_pack("{s:s,s:{s:s,s:s},s:{s:s,s:[{s:s,s:s}]},"
	    "s:{s:s,s:s,s:[{s:s,s:s,s:s}]}}",
	    "kind", "VirtualMachine", "metadata", "name", "vm", "namespace",
	    "ns", "spec", "virtualMachineClassName", "generic",
	    "blockDeviceRefs", "kind", "VirtualDisk", "name", "root",
	    "status", "phase", "Running", "nodeName", "w1", "conditions",
	    "type", "Migratable", "status", "True", "reason",
	    "VirtualMachineMigratable");
}

static void
fx_init(fx *f)
{
	memset(f, 0, sizeof(*f));
	f->flavor = "deckhouse";
	f->nodes = json_pack("[o,o,o]", node("w1"), node("w2"), node("w3"));
	f->kvvmis = json_pack("[o]", kvvmi());
	f->vms = json_pack("[o]", dvm());
	f->classes = json_pack("[{s:{s:s},s:{s:{s:s,s:s}}}]", "metadata",
	    "name", "generic", "spec", "cpu", "type", "Model", "model",
	    "Nehalem");
	f->disks = json_pack("[{s:{s:s,s:s},s:{s:{s:s}}}]", "metadata",
	    "name", "root", "namespace", "ns", "status", "target",
	    "persistentVolumeClaimName", "vd-root-pvc");
	f->vmops = json_array();
	f->vmbdas = json_array();
	f->pvcs = json_pack("[{s:{s:s,s:s},s:{s:[s]}}]", "metadata", "name",
	    "vd-root-pvc", "namespace", "ns", "spec", "accessModes",
	    "ReadWriteMany");
	f->kubevirt = json_pack("{s:{s:s,s:s},s:{s:{}},s:{s:s}}", "metadata",
	    "name", "config", "namespace", "d8-virtualization", "spec",
	    "configuration", "status", "phase", "Deployed");
}

static json_t *
vmi_of(fx *f)
{
	return json_array_get(f->kvvmis, 0);
}

static json_t *
vm_of(fx *f)
{
	return json_array_get(f->vms, 0);
}

static void
put_file(fx *f, json_t *files, json_t *res, const char *plural,
    const char *group, json_t *items)
{
	char *rel = *group ? xasprintf("resources/%s.%s.json", plural, group) :
	    xasprintf("resources/%s.json", plural);
	char *path = xasprintf("%s/%s", f->dir, rel);
	json_t *list = json_pack("{s:s,s:O}", "kind", "List", "items", items);
	char *text = json_dumps(list, JSON_SORT_KEYS);
	gchar *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	json_array_append_new(files, json_pack("{s:s,s:I,s:s}", "path", rel,
	    "bytes", (json_int_t)strlen(text), "sha256", sum));
	json_array_append_new(res, json_pack("{s:s,s:s,s:s,s:s,s:I}",
	    "resource", plural, "group", group, "file", rel, "status", "ok",
	    "count", (json_int_t)json_array_size(items)));
	g_free(sum);
	free(text);
	json_decref(list);
	free(path);
	free(rel);
}

/* Write the snapshot into f->dir. */
static void
fx_write_only(fx *f)
{
	json_t *files = json_array(), *res = json_array(), *man;
	char *sub, *path;
	json_t *pods = json_array();

	f->dir = kvtest_tmpdir();
	sub = xasprintf("%s/resources", f->dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	free(sub);
	put_file(f, files, res, "nodes", "", f->nodes);
	/* the pods, none: room is judged (no-capacity reads them) */
	put_file(f, files, res, "pods", "", pods);
	json_decref(pods);
	put_file(f, files, res, "persistentvolumeclaims", "", f->pvcs);
	put_file(f, files, res, "internalvirtualizationvirtualmachineinstances",
	    INTERNAL, f->kvvmis);
	put_file(f, files, res, "virtualmachines", DVP, f->vms);
	if (!f->no_classes)
		put_file(f, files, res, "virtualmachineclasses", DVP,
		    f->classes);
	put_file(f, files, res, "virtualdisks", DVP, f->disks);
	put_file(f, files, res, "virtualmachineoperations", DVP, f->vmops);
	put_file(f, files, res, "virtualmachineblockdeviceattachments", DVP,
	    f->vmbdas);
	if (f->kvvms != NULL)
		put_file(f, files, res, "internalvirtualizationvirtualmachines",
		    INTERNAL, f->kvvms);
	if (f->kubevirt != NULL) {
		json_t *one = json_pack("[O]", f->kubevirt);

		put_file(f, files, res, "internalvirtualizationkubevirts",
		    INTERNAL, one);
		json_decref(one);
	}
	man = json_pack("{s:s,s:i,s:s,s:{s:s},s:o,s:o}", "kind",
	    "kvscope-snapshot", "formatVersion", 1, "createdAt",
	    "2026-10-31T09:12:44Z", "cluster", "context", "t", "resources", res,
	    "files", files);
	if (f->flavor != NULL)
		json_object_set_new(json_object_get(man, "cluster"), "flavor",
		    json_string(f->flavor));
	path = xasprintf("%s/manifest.json", f->dir);
	assert_int_equal(json_dump_file(man, path, 0), 0);
	free(path);
	json_decref(man);
}

/* Write the snapshot and analyse it; the VMI ns/vm's result. */
static const kv_vmires *
fx_run(fx *f)
{
	kv_err err = {0};
	kv_limits lim;

	fx_write_only(f);
	assert_int_equal(kv_limits_init(&lim, &err), KV_OK);
	if (kv_model_load(f->dir, &lim, &f->m, &err) != KV_OK)
		fail_msg("load: %s", err.msg);
	assert_int_equal(kv_analyze(f->m, &f->a, &err), KV_OK);
	for (size_t i = 0; i < f->a->nvmis; i++)
		if (strcmp(f->a->vmis[i].vmi->fullname, "ns/vm") == 0)
			return &f->a->vmis[i];
	fail_msg("no VMI ns/vm");
	return NULL;
}

static void
fx_free(fx *f)
{
	char *cmd = xasprintf("rm -rf '%s'", f->dir);

	kv_analysis_free(f->a);
	kv_model_free(f->m);
	json_decref(f->nodes);
	json_decref(f->kvvmis);
	json_decref(f->vms);
	json_decref(f->classes);
	json_decref(f->disks);
	json_decref(f->vmops);
	json_decref(f->vmbdas);
	json_decref(f->pvcs);
	json_decref(f->kubevirt);
	json_decref(f->kvvms);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f->dir);
}

static const kv_issue *
find(const kv_vmires *r, const char *code)
{
	for (size_t i = 0; i < r->nblockers; i++)
		if (strcmp(r->blockers[i].rule->code, code) == 0)
			return &r->blockers[i];
	for (size_t i = 0; i < r->nwarnings; i++)
		if (strcmp(r->warnings[i].rule->code, code) == 0)
			return &r->warnings[i];
	return NULL;
}

static void
add_vmop(fx *f, const char *name, const char *type, const char *phase,
    int force)
{
	json_t *op = json_pack("{s:{s:s,s:s,s:s},s:{s:s,s:s},s:{s:s}}",
	    "metadata", "name", name, "namespace", "ns", "creationTimestamp",
	    "2026-10-31T09:00:00Z", "spec", "type", type, "virtualMachineName",
	    "vm", "status", "phase", phase);

	if (force >= 0)
		json_object_set_new(json_object_get(op, "spec"), "force",
		    json_boolean(force));
	json_array_append_new(f->vmops, op);
}

/* Make the VM's one disk ReadWriteOnce; KubeVirt then says so. */
static void
rwo_disk(fx *f)
{
	json_t *vs = json_array_get(json_object_get(json_object_get(vmi_of(f),
	    "status"), "volumeStatus"), 0);

	json_object_set_new(json_object_get(vs, "persistentVolumeClaimInfo"),
	    "accessModes", json_pack("[s]", "ReadWriteOnce"));
	json_object_set_new(json_object_get(json_array_get(f->pvcs, 0),
	    "spec"), "accessModes", json_pack("[s]", "ReadWriteOnce"));
	json_array_set_new(json_object_get(json_object_get(vmi_of(f),
	    "status"), "conditions"), 0, json_pack("{s:s,s:s,s:s}", "type",
	    "LiveMigratable", "status", "False", "reason",
	    "DisksNotLiveMigratable"));
}

static void
set_gates(fx *f, const char *gate)
{
	json_object_set_new(json_object_get(json_object_get(f->kubevirt,
	    "spec"), "configuration"), "developerConfiguration",
	    json_pack("{s:[s]}", "featureGates", gate));
}

static void
set_migratable(fx *f, const char *status, const char *reason)
{
	json_object_set_new(json_object_get(vm_of(f), "status"), "conditions",
	    json_pack("[{s:s,s:s,s:s}]", "type", "Migratable", "status",
	    status, "reason", reason));
}

/* ---- pure rules ---------------------------------------------------------------- */

static void
test_class_cpu(void **state)
{
	kv_intern *strs = kv_intern_new();
	const char *enabled[] = { "avx2", "invtsc", "sse4.2" };
	const char *withsvm[] = { "svm", "avx2" };
	kv_dclass c = {0};
	const char *model = NULL;
	kv_cpufeat *f = NULL;
	size_t n = 99;

	(void)state;
	c.cpu_type = "Host";
	assert_true(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	assert_string_equal(model, "host-model");
	assert_int_equal(n, 0);
	c.cpu_type = "HostPassthrough";
	assert_true(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	assert_string_equal(model, "host-passthrough");
	c.cpu_type = "Model";
	assert_false(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	c.model = "IvyBridge";
	assert_true(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	assert_string_equal(model, "IvyBridge");
	assert_int_equal(n, 0);
	/* Discovery and Features: qemu64, enabled required, invtsc
	 * optional, svm appended as optional */
	c.cpu_type = "Discovery";
	c.enabled = enabled;
	c.nenabled = 3;
	assert_true(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	assert_string_equal(model, "qemu64");
	assert_int_equal(n, 4);
	assert_string_equal(f[0].name, "avx2");
	assert_string_equal(f[0].policy, "require");
	assert_string_equal(f[1].name, "invtsc");
	assert_string_equal(f[1].policy, "optional");
	assert_string_equal(f[3].name, "svm");
	assert_string_equal(f[3].policy, "optional");
	free(f);
	c.cpu_type = "Features";
	c.enabled = withsvm;
	c.nenabled = 2;
	assert_true(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	assert_int_equal(n, 2);
	assert_string_equal(f[0].policy, "optional");
	assert_string_equal(f[1].policy, "require");
	free(f);
	c.cpu_type = "Bogus";
	assert_false(kv_dvp_class_cpu(strs, &c, &model, &f, &n));
	kv_intern_free(strs);
}

static void
test_policy_force(void **state)
{
	kv_dvm vm = {0};

	(void)state;
	assert_string_equal(kv_dvp_policy(NULL), "PreferSafe");
	assert_string_equal(kv_dvp_policy(&vm), "PreferSafe");
	vm.policy = "AlwaysForced";
	assert_string_equal(kv_dvp_policy(&vm), "AlwaysForced");
	assert_true(kv_dvp_policy_conflict("AlwaysSafe", 1));
	assert_false(kv_dvp_policy_conflict("AlwaysSafe", 0));
	assert_false(kv_dvp_policy_conflict("AlwaysSafe", -1));
	assert_true(kv_dvp_policy_conflict("AlwaysForced", 0));
	assert_false(kv_dvp_policy_conflict("AlwaysForced", 1));
	assert_false(kv_dvp_policy_conflict("PreferSafe", 1));
	assert_false(kv_dvp_policy_conflict("PreferForced", 0));
	assert_false(kv_dvp_autoconverge("PreferSafe", -1));
	assert_true(kv_dvp_autoconverge("PreferSafe", 1));
	assert_true(kv_dvp_autoconverge("PreferForced", -1));
	assert_false(kv_dvp_autoconverge("PreferForced", 0));
	assert_true(kv_dvp_autoconverge("AlwaysForced", -1));
	assert_false(kv_dvp_autoconverge("AlwaysSafe", 1));
}

static void
test_vmop_origin(void **state)
{
	kv_vmop op = { .name = "evacuation-vm-x2", .type = "Evict",
	    .phase = "Completed" };

	(void)state;
	assert_non_null(kv_vmop_system_origin(&op));
	assert_string_equal(kv_vmop_system_origin(&op)->prefix, "evacuation-");
	assert_true(kv_vmop_finished(&op));
	assert_true(kv_vmop_is_migration(&op));
	op.name = "volume-migration-vm-1";
	assert_string_equal(kv_vmop_system_origin(&op)->prefix,
	    "volume-migration-");
	op.name = "hotplug-resources-vm-1";
	assert_non_null(kv_vmop_system_origin(&op));
	op.name = "vm-abcde";
	assert_null(kv_vmop_system_origin(&op));
	op.type = "Migrate";
	op.name = "evacuation-looks-system";
	assert_null(kv_vmop_system_origin(&op));
	op.phase = "Terminating";
	assert_false(kv_vmop_finished(&op));
	op.type = "Restart";
	assert_false(kv_vmop_is_migration(&op));
}

/* ---- snapshots ---------------------------------------------------------------- */

static void
test_baseline(void **state)
{
	fx f;
	const kv_vmires *r;

	(void)state;
	fx_init(&f);
	r = fx_run(&f);
	assert_string_equal(f.m->flavor->name, "deckhouse");
	assert_int_equal(r->verdict, V_OK);
	assert_int_equal(r->nblockers, 0);
	assert_int_equal(r->nwarnings, 0);
	assert_true(r->dvp->present);
	assert_non_null(r->dvp->vm);
	assert_string_equal(r->dvp->cpu_type, "Model");
	assert_string_equal(r->dvp->policy, "PreferSafe");
	assert_true(r->dvp->policy_default);
	/* what the core reads of it (kv_vmifacts) */
	assert_string_equal(r->facts.cpu_object, "generic");
	assert_string_equal(r->facts.cpu_object_loaded, "generic");
	assert_true(r->facts.cpu_from_object);
	assert_string_equal(r->facts.policy, "PreferSafe");
	assert_int_equal(r->facts.nops, 0);
	assert_int_equal(r->facts.nnotes, 1);
	assert_string_equal(r->facts.notes[0], "class generic (CPU type "
	    "Model), liveMigrationPolicy PreferSafe (default)");
	assert_int_equal(r->cond, 'T');
	assert_string_equal(r->cond_type, "Migratable");
	assert_string_equal(r->cond_reason, "VirtualMachineMigratable");
	/* DVP's fork: no vendor selector (KubeVirt v1.6) */
	for (size_t i = 0; i < r->selectors.n; i++)
		assert_null(strstr(r->selectors.v[i].key, "cpu-vendor"));
	assert_string_equal(kv_labels_get(&r->selectors,
	    "cpu-model" DOM "Nehalem"), "true");
	assert_string_equal(kv_labels_get(&r->selectors, KVI "schedulable"),
	    "true");
	assert_int_equal(r->ntargets, 2);
	/* 800 s per started GB: 4Gi = 4.29 GB -> 5 */
	assert_int_equal(f.a->cfg.completion_per_gib, 800);
	assert_int_equal(r->completion_timeout, 4000);
	fx_free(&f);
}

static void
test_defaults(void **state)
{
	fx f;
	const kv_vmires *r;
	size_t i;

	(void)state;
	fx_init(&f);
	json_decref(f.kubevirt);
	f.kubevirt = NULL;
	r = fx_run(&f);
	assert_int_equal(f.a->cfg.completion_per_gib, 800);
	assert_int_equal(r->completion_timeout, 4000);
	assert_int_equal(f.a->cfg.bandwidth_mibps, 640);
	assert_int_equal(f.a->cfg.parallel_cluster, 3);	/* max(2, 3) */
	assert_string_equal(f.a->cfg.eviction, "LiveMigrate");
	assert_int_equal(f.a->cfg.sync_per_node, 1);
	/* the missing CR is said (the version warnings follow it) */
	for (i = 0; i < f.a->nwarnings; i++)
		if (strstr(f.a->warnings[i], "InternalVirtualizationKubeVirt"))
			break;
	assert_true(i < f.a->nwarnings);
	fx_free(&f);
}

static void
test_flavor_inferred(void **state)
{
	fx f;
	size_t i;

	(void)state;
	fx_init(&f);
	f.flavor = NULL;
	fx_run(&f);
	assert_true(f.m->flavor_inferred);
	assert_string_equal(f.m->flavor->name, "deckhouse");
	/* after the resources the input lacks (storage classes) */
	for (i = 0; i < f.a->nwarnings; i++)
		if (strstr(f.a->warnings[i], "deckhouse inferred") != NULL)
			break;
	assert_true(i < f.a->nwarnings);
	fx_free(&f);
}

static void
test_class_cpu_derived(void **state)
{
	fx f;
	const kv_vmires *r;

	(void)state;
	fx_init(&f);
	json_object_del(json_object_get(json_object_get(json_object_get(
	    vmi_of(&f), "spec"), "domain"), "cpu"), "model");
	json_array_set_new(f.classes, 0, json_pack("{s:{s:s},s:{s:{s:s}},"
	    "s:{s:{s:[s,s]}}}", "metadata", "name", "generic", "spec", "cpu",
	    "type", "Discovery", "status", "cpuFeatures", "enabled", "avx2",
	    "sse4.2"));
	r = fx_run(&f);
	assert_true(r->vmi->cpu_from_class);
	assert_int_equal(r->mode, MODE_NAMED);
	assert_string_equal(r->model, "qemu64");
	assert_string_equal(r->dvp->cpu_type, "Discovery");
	/* required features select, svm (optional) does not; no model */
	assert_string_equal(kv_labels_get(&r->selectors,
	    "cpu-feature" DOM "avx2"), "true");
	assert_null(kv_labels_get(&r->selectors, "cpu-feature" DOM "svm"));
	assert_null(kv_labels_get(&r->selectors, "cpu-model" DOM "qemu64"));
	assert_int_equal(r->verdict, V_OK);
	fx_free(&f);
}

/* Without the VirtualMachineClasses a VM whose KVVMI names no CPU is
 * not judged (its CPU is its class's); one whose KVVMI names it is. */
static void
test_class_missing(void **state)
{
	fx f;
	const kv_vmires *r;

	(void)state;
	fx_init(&f);
	f.no_classes = true;
	r = fx_run(&f);
	assert_int_equal(r->verdict, V_OK);
	assert_int_equal(r->not_judged, 0);
	fx_free(&f);
	fx_init(&f);
	f.no_classes = true;
	json_object_del(json_object_get(json_object_get(json_object_get(
	    vmi_of(&f), "spec"), "domain"), "cpu"), "model");
	r = fx_run(&f);
	assert_false(r->vmi->cpu_from_class);
	assert_int_equal(r->verdict, V_NOT_JUDGED);
	assert_int_equal(r->not_judged, KV_NEED_BIT(NEED_VMCLASSES));
	fx_free(&f);
}

static void
test_vmop_in_progress(void **state)
{
	fx f;
	const kv_vmires *r;
	const kv_issue *is;

	(void)state;
	fx_init(&f);
	add_vmop(&f, "firmware-update-vm-1", "Evict", "Completed", -1);
	r = fx_run(&f);
	assert_null(find(r, "vmop-in-progress"));
	assert_int_equal(r->verdict, V_OK);
	fx_free(&f);

	fx_init(&f);
	add_vmop(&f, "evacuation-vm-1", "Evict", "InProgress", -1);
	r = fx_run(&f);
	assert_non_null(is = find(r, "vmop-in-progress"));
	assert_non_null(strstr(is->message, "node drain"));
	assert_int_equal(r->facts.nops, 1);
	assert_string_equal(r->facts.ops[0].name, "evacuation-vm-1");
	assert_string_equal(r->facts.ops[0].type, "Evict");
	assert_string_equal(r->facts.ops[0].phase, "InProgress");
	assert_int_equal(r->facts.nnotes, 2);
	assert_string_equal(r->facts.notes[1], "operation evacuation-vm-1: "
	    "Evict, phase InProgress, by DVP for a node drain or load "
	    "redistribution");
	assert_int_equal(r->verdict, V_BLOCKED);
	assert_true(r->mismatch);
	assert_int_equal(r->on_drain, DRAIN_MIGRATE);
	assert_null(find(r, "eviction-blocks-drain"));
	fx_free(&f);
}

static void
test_policy_force_rule(void **state)
{
	fx f;
	const kv_vmires *r;

	(void)state;
	fx_init(&f);
	json_object_set_new(json_object_get(vm_of(&f), "spec"),
	    "liveMigrationPolicy", json_string("AlwaysSafe"));
	add_vmop(&f, "vm-x", "Migrate", "Pending", 1);
	r = fx_run(&f);
	assert_non_null(find(r, "live-migration-policy-force"));
	assert_null(find(r, "vmop-in-progress"));
	assert_int_equal(r->verdict, V_BLOCKED);
	fx_free(&f);

	fx_init(&f);
	json_object_set_new(json_object_get(vm_of(&f), "spec"),
	    "liveMigrationPolicy", json_string("AlwaysForced"));
	add_vmop(&f, "vm-x", "Migrate", "Pending", 1);
	r = fx_run(&f);
	assert_null(find(r, "live-migration-policy-force"));
	assert_non_null(find(r, "vmop-in-progress"));
	fx_free(&f);

	fx_init(&f);
	json_object_set_new(json_object_get(vm_of(&f), "spec"),
	    "liveMigrationPolicy", json_string("AlwaysForced"));
	add_vmop(&f, "vm-x", "Evict", "", 0);
	r = fx_run(&f);
	assert_non_null(find(r, "live-migration-policy-force"));
	fx_free(&f);
}

static void
test_vmop_not_applicable(void **state)
{
	fx f;
	const kv_vmires *r;

	(void)state;
	fx_init(&f);
	json_object_set_new(json_object_get(vm_of(&f), "status"), "phase",
	    json_string("Pause"));
	r = fx_run(&f);
	assert_non_null(find(r, "vmop-not-applicable"));
	assert_int_equal(r->verdict, V_BLOCKED);
	assert_int_equal(r->on_drain, DRAIN_BLOCK);
	fx_free(&f);

	fx_init(&f);
	json_object_set_new(json_object_get(vm_of(&f), "spec"), "runPolicy",
	    json_string("AlwaysOff"));
	r = fx_run(&f);
	assert_non_null(find(r, "vmop-not-applicable"));
	fx_free(&f);
}

static void
test_vm_not_migratable(void **state)
{
	fx f;
	const kv_vmires *r;
	const kv_issue *is;

	(void)state;
	fx_init(&f);
	set_migratable(&f, "False", "VirtualMachineNonMigratable");
	r = fx_run(&f);
	assert_non_null(is = find(r, "vm-not-migratable"));
	assert_non_null(strstr(is->message, "VirtualMachineNonMigratable"));
	assert_int_equal(r->verdict, V_BLOCKED);
	assert_false(r->mismatch);
	fx_free(&f);

	fx_init(&f);
	set_migratable(&f, "False", "VirtualMachineHostDevicesNotMigratable");
	r = fx_run(&f);
	assert_null(find(r, "vm-not-migratable"));
	assert_non_null(find(r, "host-device"));
	fx_free(&f);

	/* no VM object: the KVVMI's LiveMigratable is reported */
	fx_init(&f);
	json_array_clear(f.vms);
	r = fx_run(&f);
	assert_null(r->dvp->vm);
	assert_null(r->facts.cpu_object);
	assert_int_equal(r->facts.nnotes, 1);
	assert_string_equal(r->facts.notes[0], "no VirtualMachine object in "
	    "the snapshot");
	assert_string_equal(r->cond_type, "LiveMigratable");
	assert_int_equal(r->cond, 'T');
	assert_int_equal(r->verdict, V_OK);
	fx_free(&f);
}

static void
test_disks_should_be_migrating(void **state)
{
	fx f;
	const kv_vmires *r;
	const kv_issue *is;

	(void)state;
	/* Enterprise Edition: VolumeMigration on */
	fx_init(&f);
	rwo_disk(&f);
	set_gates(&f, "VolumeMigration");
	set_migratable(&f, "True", "VirtualMachineDisksShouldBeMigrating");
	r = fx_run(&f);
	assert_non_null(is = find(r, "disks-should-be-migrating"));
	assert_non_null(strstr(is->message, "VirtualDisk root"));
	assert_null(find(r, "disk-not-shared"));
	assert_int_equal(r->verdict, V_OK);
	assert_string_equal(r->method, "BlockMigration");
	fx_free(&f);

	/* Community Edition: not migratable */
	fx_init(&f);
	rwo_disk(&f);
	set_migratable(&f, "False", "VirtualMachineDisksNotMigratable");
	r = fx_run(&f);
	assert_null(find(r, "disks-should-be-migrating"));
	assert_non_null(is = find(r, "disk-not-shared"));
	assert_non_null(strstr(is->message, "VirtualDisk root"));
	assert_int_equal(r->verdict, V_BLOCKED);
	fx_free(&f);

	/* the VM's own reason beats the gate */
	fx_init(&f);
	rwo_disk(&f);
	set_gates(&f, "VolumeMigration");
	set_migratable(&f, "False", "VirtualMachineDisksNotMigratable");
	r = fx_run(&f);
	assert_non_null(find(r, "disk-not-shared"));
	fx_free(&f);
}

static void
test_bda_pending(void **state)
{
	fx f;
	const kv_vmires *r;

	(void)state;
	fx_init(&f);
	json_array_append_new(f.vmbdas, json_pack("{s:{s:s,s:s},s:{s:s,"
	    "s:{s:s,s:s}},s:{s:s}}", "metadata", "name", "vm-data",
	    "namespace", "ns", "spec", "virtualMachineName", "vm",
	    "blockDeviceRef", "kind", "VirtualDisk", "name", "data", "status",
	    "phase", "InProgress"));
	json_array_append_new(f.vmbdas, json_pack("{s:{s:s,s:s},s:{s:s},"
	    "s:{s:s}}", "metadata", "name", "vm-old", "namespace", "ns",
	    "spec", "virtualMachineName", "vm", "status", "phase",
	    "Attached"));
	r = fx_run(&f);
	assert_int_equal(r->dvp->nbdas, 1);
	assert_int_equal(r->facts.nnotes, 2);
	assert_string_equal(r->facts.notes[1], "attachment vm-data: phase "
	    "InProgress");
	assert_non_null(find(r, "block-device-attachment-pending"));
	assert_int_equal(r->verdict, V_OK);
	fx_free(&f);
}

/* ---- migrating disks and the migration's selector ---------------------- */

static json_t *
kvj_parse(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);

	if (v == NULL)
		fail_msg("bad test JSON: %s", e.text);
	return v;
}

/* The KVVMI pinned to w1 by its local PV (kvbuilder's cross product). */
static void
pin_to_w1(fx *f)
{
	json_object_set_new(json_object_get(vmi_of(f), "spec"), "affinity",
	    kvj_parse("{\"nodeAffinity\": {\"requiredDuringScheduling"
	    "IgnoredDuringExecution\": {\"nodeSelectorTerms\": [{"
	    "\"matchExpressions\": [{\"key\": \"kubernetes.io/hostname\", "
	    "\"operator\": \"In\", \"values\": [\"w1\"]}]}]}}}"));
}

static void
migrating_disk(fx *f)
{
	rwo_disk(f);
	set_gates(f, "VolumeMigration");
	set_migratable(f, "True", "VirtualMachineDisksShouldBeMigrating");
	pin_to_w1(f);
}

static char *
target_names(const kv_model *m, const kv_nodeset *s)
{
	kv_buf b = {0};

	KV_NODESET_FOREACH(s, i)
		kv_buf_printf(&b, "%s%s", b.len ? "," : "", m->nodes[i].name);
	return b.data ? b.data : xstrdup("");
}

#define assert_targets(f, r, want)                                          \
	do {                                                                \
		char *t_ = target_names((f)->m, &(r)->targets);             \
		assert_string_equal(t_, (want));                            \
		free(t_);                                                   \
	} while (0)

static void
test_migrating_disk_pins(void **state)
{
	fx f;
	const kv_vmires *r;
	const kv_issue *is;

	(void)state;
	/* fail: an RWX disk does not migrate, the pin holds: no target */
	fx_init(&f);
	pin_to_w1(&f);
	r = fx_run(&f);
	assert_null(r->dvp->pins);
	assert_targets(&f, r, "");
	assert_non_null(find(r, "no-placement-target"));
	assert_int_equal(r->verdict, V_NO_TARGET);
	fx_free(&f);

	/* pass: the disk migrates, its pin to the source is dropped */
	fx_init(&f);
	migrating_disk(&f);
	r = fx_run(&f);
	assert_string_equal(r->dvp->pins, "dropped");
	assert_int_equal(r->affinity->nterms, 0);
	assert_targets(&f, r, "w2,w3");
	assert_int_equal(r->verdict, V_OK);
	assert_non_null(is = find(r, "disks-should-be-migrating"));
	assert_non_null(strstr(is->message, "pin to the source node"));
	fx_free(&f);

	/* the KVVM's migration-node-affinity-terms win */
	fx_init(&f);
	migrating_disk(&f);
	f.kvvms = kvj_parse("[{\"kind\": "
	    "\"InternalVirtualizationVirtualMachine\", \"metadata\": "
	    "{\"name\": \"vm\", \"namespace\": \"ns\", \"annotations\": "
	    "{\"virtualization.deckhouse.io/migration-node-affinity-terms\": "
	    "\"[{\\\"matchExpressions\\\": [{\\\"key\\\": "
	    "\\\"kubernetes.io/hostname\\\", \\\"operator\\\": \\\"In\\\", "
	    "\\\"values\\\": [\\\"w3\\\"]}]}]\"}}}]");
	r = fx_run(&f);
	assert_string_equal(r->dvp->pins, "annotation");
	assert_targets(&f, r, "w3");
	assert_int_equal(r->verdict, V_OK);
	fx_free(&f);
}

/* A broken annotation is bad input: the load names the field. */
static void
test_kvvm_bad_terms(void **state)
{
	fx f;
	kv_err err = {0};
	kv_limits lim;

	(void)state;
	fx_init(&f);
	f.kvvms = kvj_parse("[{\"metadata\": {\"name\": \"vm\", \"namespace\":"
	    " \"ns\", \"annotations\": {\"virtualization.deckhouse.io/"
	    "migration-node-affinity-terms\": \"{not json\"}}}]");
	f.dir = NULL;
	fx_write_only(&f);
	assert_int_equal(kv_limits_init(&lim, &err), KV_OK);
	assert_int_equal(kv_model_load(f.dir, &lim, &f.m, &err), KV_ERR);
	assert_non_null(strstr(err.msg, "migration-node-affinity-terms: "
	    "not JSON"));
	assert_non_null(strstr(err.msg, "internalvirtualizationvirtualmachines"));
	fx_free(&f);
}

/* §4.4: a Migrate operation's nodeSelector reaches the target pod. */
static void
test_vmop_node_selector(void **state)
{
	const char *want[][2] = { { "w3", "w3" }, { "w9", "" } };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		fx f;
		const kv_vmires *r;

		fx_init(&f);
		add_vmop(&f, "vm-move", "Migrate", "Pending", -1);
		json_object_set_new(json_object_get(json_array_get(f.vmops, 0),
		    "spec"), "migrate", json_pack("{s:{s:s}}", "nodeSelector",
		    "kubernetes.io/hostname", want[i][0]));
		r = fx_run(&f);
		assert_string_equal(r->added_by, "vm-move");
		assert_string_equal(kv_labels_get(&r->selectors,
		    "kubernetes.io/hostname"), want[i][0]);
		assert_targets(&f, r, want[i][1]);
		fx_free(&f);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_cpu),
		cmocka_unit_test(test_policy_force),
		cmocka_unit_test(test_vmop_origin),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_flavor_inferred),
		cmocka_unit_test(test_class_cpu_derived),
		cmocka_unit_test(test_class_missing),
		cmocka_unit_test(test_vmop_in_progress),
		cmocka_unit_test(test_policy_force_rule),
		cmocka_unit_test(test_vmop_not_applicable),
		cmocka_unit_test(test_vm_not_migratable),
		cmocka_unit_test(test_disks_should_be_migrating),
		cmocka_unit_test(test_bda_pending),
		cmocka_unit_test(test_migrating_disk_pins),
		cmocka_unit_test(test_kvvm_bad_terms),
		cmocka_unit_test(test_vmop_node_selector),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
