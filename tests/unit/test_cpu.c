/*
 * test_cpu.c - the CPU engine (findings.md: nodes' CPU fields, cpuClasses,
 * hostModelPairs, namedModels, tradeoff; rules-kubevirt.md §1-§2), one
 * subtlety per test, on small snapshots written by kvsnap.h.
 *
 * Where levels and feature counts matter, the snapshot brings its own
 * libvirt/cpu_map with made-up models, so the expectations follow from
 * the test's own data and not from libvirt's.
 */
#include "kvtest.h"

#include "kvsnap.h"

#include "render/view.h"

#define DOM "node.kubevirt.io"
#define VMIS "virtualmachineinstances", "kubevirt.io"

/* psABI levels in libvirt spellings (cpu-models-and-labels.md §2) */
#define V1 "cmov cx8 fpu fxsr mmx syscall sse sse2 lm"
#define V2 V1 " cx16 lahf_lm popcnt pni sse4.1 sse4.2 ssse3"
#define V3 V2 " avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"
#define V4 V3 " avx512f avx512bw avx512cd avx512dq avx512vl"
/* AVX2 without MOVBE: level 2 */
#define V2_AVX2 V2 " avx avx2 bmi1 bmi2 f16c fma abm xsave"

/* ---- helpers ---------------------------------------------------------------- */

static json_t *
cnode(kvsnap *s, const char *name, const char *vendor, const char *hm,
    const char *features, const char *required, const char *models,
    const char *migration)
{
	const kvcpu cpu = { vendor, hm, features, required, models,
	    migration };

	return kvsnap_kvnode(s, name, &cpu);
}

/* A running VMI with the given CPU model on node; no pod network. */
static json_t *
cvmi(kvsnap *s, const char *name, const char *node, const char *model)
{
	json_t *v = kvj("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachineInstance\", \"metadata\": {\"namespace\": "
	    "\"prod\", \"labels\": {\"app\": \"x\"}}, \"spec\": {\"domain\": "
	    "{\"cpu\": {}, \"memory\": {\"guest\": \"1Gi\"}, \"devices\": "
	    "{\"autoattachPodInterface\": false}}}, \"status\": {\"phase\": "
	    "\"Running\", \"conditions\": [{\"type\": \"LiveMigratable\", "
	    "\"status\": \"True\"}]}}");
	const char *res = strcmp(s->flavor, "deckhouse") == 0 ?
	    "internalvirtualizationvirtualmachineinstances" :
	    "virtualmachineinstances";
	const char *group = strcmp(s->flavor, "deckhouse") == 0 ?
	    "internal.virtualization.deckhouse.io" : "kubevirt.io";
	char *uid = xasprintf("uid-%s", name);

	kvj_sets(v, "metadata.name", name);
	kvj_sets(v, "metadata.uid", uid);
	kvj_sets(v, "spec.domain.cpu.model", model);
	kvj_sets(v, "status.nodeName", node);
	free(uid);
	return kvsnap_add(s, res, group, v);
}

/* libvirt/cpu_map/x86_<name>.xml defining one model. */
static void
cpumap_model(kvsnap *s, const char *name, const char *vendor,
    const char *features)
{
	kv_buf b = {0};
	char *copy = xstrdup(features), *save = NULL, *path;

	kv_buf_printf(&b, "<cpus>\n  <model name='%s'>\n    <decode host='on' "
	    "guest='on'/>\n", name);
	if (vendor != NULL)
		kv_buf_printf(&b, "    <vendor name='%s'/>\n", vendor);
	for (char *t = strtok_r(copy, " ", &save); t != NULL;
	    t = strtok_r(NULL, " ", &save))
		kv_buf_printf(&b, "    <feature name='%s'/>\n", t);
	kv_buf_printf(&b, "  </model>\n</cpus>\n");
	path = xasprintf("libvirt/cpu_map/x86_%s.xml", name);
	kvsnap_raw(s, path, b.data);
	free(path);
	free(copy);
	kv_buf_free(&b);
}

static json_t *
get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL)
		fail_msg("no key %s", key);
	return v;
}

/* The element of findings[section] whose field equals value. */
static json_t *
find_in(json_t *arr, const char *field, const char *value)
{
	json_t *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (json_is_string(json_object_get(e, field)) &&
		    strcmp(json_string_value(json_object_get(e, field)),
		    value) == 0)
			return e;
	fail_msg("no element with %s = %s", field, value);
	return NULL;
}

static json_t *
node_of(const kvres *r, const char *name)
{
	return find_in(get(r->findings, "nodes"), "name", name);
}

static json_t *
class_of(const kvres *r, const char *id)
{
	return find_in(get(r->findings, "cpuClasses"), "id", id);
}

static json_t *
pair(const kvres *r, const char *src, const char *tgt)
{
	json_t *arr = get(r->findings, "hostModelPairs"), *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (strcmp(json_string_value(get(e, "source")), src) == 0 &&
		    strcmp(json_string_value(get(e, "target")), tgt) == 0)
			return e;
	fail_msg("no pair %s -> %s", src, tgt);
	return NULL;
}

static json_t *
model(const kvres *r, const char *name)
{
	return find_in(kvj_at(r->findings, "namedModels.models"), "model",
	    name);
}

static json_t *
scope(const kvres *r, const char *name)
{
	return find_in(kvj_at(r->findings, "namedModels.scopes"), "scope",
	    name);
}

static json_t *
tier(const kvres *r, const char *scope_name, const char *tier_name)
{
	json_t *arr = get(r->findings, "tradeoff"), *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (strcmp(json_string_value(get(e, "scope")),
		    scope_name) == 0 &&
		    strcmp(json_string_value(get(e, "tier")), tier_name) == 0)
			return e;
	fail_msg("no tradeoff row %s/%s", scope_name, tier_name);
	return NULL;
}

static bool
in_list(json_t *arr, const char *s)
{
	json_t *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (strcmp(json_string_value(e), s) == 0)
			return true;
	return false;
}

/* ---- host-model pairs ----------------------------------------------------- */

/* Same host-model name, different required features: one direction is
 * refused and the missing labels are named. */
static void
test_same_host_model_other_features(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	json_t *p, *v;

	cnode(s, "n1", "Intel", "Skylake-Client-IBRS",
	    V3 " md-clear spec-ctrl ssbd", "md-clear spec-ctrl ssbd", NULL,
	    "Skylake-Client-IBRS");
	cnode(s, "n2", "Intel", "Skylake-Client-IBRS", V3 " spec-ctrl",
	    "spec-ctrl", NULL, "Skylake-Client-IBRS");
	cvmi(s, "on-n1", "n1", "host-model");
	cvmi(s, "on-n2", "n2", "host-model");
	r = kvsnap_run(s);

	assert_jstr(class_of(&r, "C1"), "hostModel", "Skylake-Client-IBRS");
	assert_list(class_of(&r, "C1"), "requiredFeatures",
	    "md-clear,spec-ctrl,ssbd");
	assert_list(class_of(&r, "C2"), "requiredFeatures", "spec-ctrl");
	p = pair(&r, "C1", "C2");
	assert_jbool(p, "ok", false);
	assert_list(p, "missing", "cpu-feature." DOM "/md-clear,"
	    "cpu-feature." DOM "/ssbd");
	p = pair(&r, "C2", "C1");
	assert_jbool(p, "ok", true);
	assert_list(p, "missing", "");
	/* a class of one node is paired with itself */
	assert_jbool(pair(&r, "C1", "C1"), "ok", true);
	assert_int_equal(json_array_size(get(r.findings, "hostModelPairs")),
	    4);

	/* and the VMIs say the same */
	v = kvres_vmi(&r, "prod/on-n1");
	assert_list(v, "cpuTargets", "");
	assert_jstr(v, "verdict", "no-target");
	assert_non_null(strstr(json_string_value(kvj_at(v,
	    "blockers[0].message")), "cpu-feature." DOM "/md-clear"));
	assert_list(kvres_vmi(&r, "prod/on-n2"), "cpuTargets", "n1");
	kvres_free(&r);
	kvsnap_free(s);
}

/* Since v1.8 the target needs the source's vendor label. */
static void
test_vendor_mismatch(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	/* a1 knows the Intel host model and has every feature */
	cnode(s, "a1", "AMD", "EPYC-Rome", V3 " md-clear svm", "svm",
	    "Westmere", "EPYC-Rome Skylake-Client-IBRS");
	cnode(s, "w1", "Intel", "Skylake-Client-IBRS", V3 " md-clear",
	    "md-clear", "Westmere", "Skylake-Client-IBRS");
	cvmi(s, "named", "w1", "Westmere");
	r = kvsnap_run(s);

	/* one node each: C1 = a1, C2 = w1 (by name) */
	assert_list(class_of(&r, "C1"), "nodes", "a1");
	assert_jbool(pair(&r, "C2", "C1"), "ok", false);
	assert_list(pair(&r, "C2", "C1"), "missing", "cpu-vendor." DOM
	    "/Intel");
	assert_list(pair(&r, "C1", "C2"), "missing", "cpu-feature." DOM
	    "/svm,cpu-model-migration." DOM "/EPYC-Rome,cpu-vendor." DOM
	    "/AMD");
	/* named models too: Westmere runs on a1, the vendor keeps it out */
	assert_list(model(&r, "Westmere"), "nodes", "a1,w1");
	assert_list(kvres_vmi(&r, "prod/named"), "cpuTargets", "");
	kvres_free(&r);
	kvsnap_free(s);
}

/* host-model targets need cpu-model-migration (known), named models need
 * cpu-model (usable). */
static void
test_migration_vs_usable_labels(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	cnode(s, "n1", "Intel", "Haswell-noTSX", V3, "", "Haswell-noTSX",
	    "Haswell-noTSX");
	cnode(s, "n2", "Intel", "Broadwell-noTSX", V3, "", NULL,
	    "Haswell-noTSX");	/* knows it, cannot run it as named */
	cnode(s, "n3", "Intel", "Cooperlake", V3, "", "Haswell-noTSX",
	    NULL);		/* runs it as named, does not know it */
	cvmi(s, "hm", "n1", "host-model");
	cvmi(s, "named", "n1", "Haswell-noTSX");
	r = kvsnap_run(s);

	assert_list(kvres_vmi(&r, "prod/hm"), "cpuTargets", "n2");
	assert_list(kvres_vmi(&r, "prod/named"), "cpuTargets", "n3");
	assert_list(model(&r, "Haswell-noTSX"), "nodes", "n1,n3");
	/* C1 = n1, C2 = n2, C3 = n3 */
	assert_jbool(pair(&r, "C1", "C2"), "ok", true);
	assert_list(pair(&r, "C1", "C3"), "missing", "cpu-model-migration."
	    DOM "/Haswell-noTSX");
	kvres_free(&r);
	kvsnap_free(s);
}

/* ---- named models ----------------------------------------------------------- */

static kvsnap *
obsolete_cluster(void)
{
	kvsnap *s = kvsnap_new("kubevirt");

	cnode(s, "n1", "Intel", "Nehalem", V2, "", "Nehalem Penryn qemu64",
	    NULL);
	cnode(s, "n2", "Intel", "Nehalem", V2, "", "Nehalem Penryn qemu64",
	    NULL);
	return s;
}

/* Obsolete models are listed but never common, best or in a tier: the
 * default list, then a configured list that replaces it. */
static void
test_obsolete_models(void **state)
{
	kvsnap *s = obsolete_cluster();
	kvres r = kvsnap_run(s);
	json_t *cfg;

	cfg = kvj_at(r.findings, "config.obsoleteCPUModels");
	assert_int_equal(json_array_size(cfg), 34);
	assert_true(in_list(cfg, "qemu64"));
	assert_false(in_list(cfg, "Penryn"));
	assert_list(model(&r, "qemu64"), "nodes", "n1,n2");
	assert_list(scope(&r, "all"), "common", "Nehalem,Penryn");
	assert_list(scope(&r, "all"), "best", "Nehalem");
	assert_list(tier(&r, "all", "any"), "models", "Nehalem,Penryn");
	kvres_free(&r);

	/* a configured list replaces the default (a false value counts) */
	kvsnap_addj(s, "kubevirts", "kubevirt.io", "{\"metadata\": {\"name\": "
	    "\"kubevirt\", \"namespace\": \"kubevirt\"}, \"spec\": "
	    "{\"configuration\": {\"obsoleteCPUModels\": {\"Nehalem\": false, "
	    "\"486\": true}}}, \"status\": {\"phase\": \"Deployed\"}}");
	r = kvsnap_run(s);
	assert_list(r.findings, "config.obsoleteCPUModels", "486,Nehalem");
	assert_list(scope(&r, "all"), "common", "Penryn,qemu64");
	assert_false(in_list(kvj_at(scope(&r, "all"), "best"), "Nehalem"));
	assert_list(tier(&r, "all", "any"), "models", "Penryn,qemu64");
	assert_jint(tier(&r, "all", "x86-64-v2"), "nodes", 0);
	assert_list(tier(&r, "all", "x86-64-v2"), "models", "");
	kvres_free(&r);
	kvsnap_free(s);
}

/* A model neither the snapshot's map nor the built-in table knows. */
static void
test_unknown_model(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	json_t *m;

	cnode(s, "n1", "Intel", "Nehalem", V2, "", "Nehalem MadeUp-v9", NULL);
	r = kvsnap_run(s);
	assert_jstr(r.findings, "cpuModelSource", "builtin");
	m = model(&r, "MadeUp-v9");
	assert_true(json_is_null(get(m, "level")));
	assert_true(json_is_null(get(m, "vendor")));
	assert_true(json_is_null(get(m, "avx2")));
	assert_true(json_is_null(get(m, "avx512f")));
	assert_list(m, "nodes", "n1");
	/* usable everywhere, so common; never best, never in a tier */
	assert_list(scope(&r, "all"), "common", "MadeUp-v9,Nehalem");
	assert_list(scope(&r, "all"), "best", "Nehalem");
	assert_list(tier(&r, "all", "any"), "models", "Nehalem");
	kvres_free(&r);
	kvsnap_free(s);
}

/* The snapshot's libvirt/cpu_map comes first, the built-in table fills
 * in what it lacks. */
static void
test_snapshot_cpu_map(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	cnode(s, "n1", "Intel", "Nehalem", V3, "", "Custom-v1 Nehalem Penryn",
	    NULL);
	cpumap_model(s, "Custom-v1", "Intel", V3 " aes");
	cpumap_model(s, "Nehalem", "Intel", V1);	/* differs from libvirt */
	r = kvsnap_run(s);
	assert_jstr(r.findings, "cpuModelSource", "snapshot");
	assert_jint(model(&r, "Custom-v1"), "level", 3);
	assert_jbool(model(&r, "Custom-v1"), "avx2", true);
	assert_jstr(model(&r, "Custom-v1"), "vendor", "Intel");
	assert_jint(model(&r, "Nehalem"), "level", 1);	/* not 2 */
	assert_jint(model(&r, "Penryn"), "level", 1);	/* built-in */
	assert_list(scope(&r, "all"), "best", "Custom-v1");
	kvres_free(&r);
	kvsnap_free(s);

	/* without the map Custom-v1 is unknown and Nehalem is level 2 */
	s = kvsnap_new("kubevirt");
	cnode(s, "n1", "Intel", "Nehalem", V3, "", "Custom-v1 Nehalem Penryn",
	    NULL);
	r = kvsnap_run(s);
	assert_true(json_is_null(kvj_at(model(&r, "Custom-v1"), "level")));
	assert_jint(model(&r, "Nehalem"), "level", 2);
	kvres_free(&r);
	kvsnap_free(s);
}

/* ---- classes and node facts ------------------------------------------------ */

/* Classes by member count, then first member's name; ids C1, C2, ... */
static void
test_class_order(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	json_t *classes, *pairs, *c;

	cnode(s, "b1", "Intel", "IvyBridge", V2, "", "IvyBridge", NULL);
	cnode(s, "c2", "Intel", "Haswell", V3, "f16c", "Haswell", NULL);
	cnode(s, "a3", "AMD", "EPYC", V3, "", "EPYC", NULL);
	cnode(s, "c1", "Intel", "Haswell", V3, "f16c", "Haswell", NULL);
	cnode(s, "a2", "AMD", "EPYC", V3, "", "EPYC", NULL);
	cnode(s, "z1", "Intel", "Icelake-Server", V4, "", "Icelake-Server",
	    NULL);
	/* a CPU label splits a class, any other label does not */
	cnode(s, "c3", "Intel", "Haswell", V3, "f16c", "Haswell",
	    "Haswell-v2");
	kvj_label(kvsnap_find(s, "nodes", "", "c2"), "topology.kubernetes.io/"
	    "zone", "z2");
	kvsnap_node(s, "m0");	/* no KubeVirt labels */
	r = kvsnap_run(s);

	classes = get(r.findings, "cpuClasses");
	assert_int_equal(json_array_size(classes), 5);
	{
		const char *want[][2] = { { "C1", "a2,a3" }, { "C2", "c1,c2" },
		    { "C3", "b1" }, { "C4", "c3" }, { "C5", "z1" } };

		for (size_t i = 0; i < 5; i++) {
			c = json_array_get(classes, i);
			assert_jstr(c, "id", want[i][0]);
			assert_list(c, "nodes", want[i][1]);
		}
	}
	c = class_of(&r, "C1");
	assert_jstr(c, "vendor", "AMD");
	assert_jstr(c, "hostModel", "EPYC");
	assert_jint(c, "level", 3);
	assert_jbool(c, "avx2", true);
	assert_jbool(c, "avx512f", false);
	assert_list(class_of(&r, "C2"), "requiredFeatures", "f16c");
	assert_jint(class_of(&r, "C3"), "level", 2);
	assert_jbool(class_of(&r, "C3"), "avx2", false);
	assert_jint(class_of(&r, "C5"), "level", 4);
	assert_jbool(class_of(&r, "C5"), "avx512f", true);

	assert_jstr(node_of(&r, "c2"), "cpuClass", "C2");
	assert_jstr(node_of(&r, "c3"), "cpuClass", "C4");
	assert_jbool(node_of(&r, "m0"), "kubevirt", false);
	assert_true(json_is_null(get(node_of(&r, "m0"), "cpuClass")));
	assert_true(json_is_null(get(node_of(&r, "m0"), "level")));
	assert_true(json_is_null(get(node_of(&r, "m0"), "vendor")));

	/* every ordered pair, by source then target in class order */
	pairs = get(r.findings, "hostModelPairs");
	assert_int_equal(json_array_size(pairs), 25);
	assert_jstr(json_array_get(pairs, 0), "target", "C1");
	assert_jstr(json_array_get(pairs, 1), "target", "C2");
	assert_jstr(json_array_get(pairs, 5), "source", "C2");
	assert_jstr(json_array_get(pairs, 5), "target", "C1");
	assert_jstr(json_array_get(pairs, 24), "source", "C5");

	assert_jint(r.findings, "summary.nodes", 8);
	assert_jint(r.findings, "summary.kubevirtNodes", 7);
	assert_jint(r.findings, "summary.cpuClasses", 5);
	kvres_free(&r);
	kvsnap_free(s);
}

static void
test_node_facts(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	json_t *n;

	cnode(s, "n1", "Intel", "Skylake-Client", V3 " aes", "", "", NULL);
	cnode(s, "n2", "Intel", "Cascadelake-Server", V4, "", "", NULL);
	n = cnode(s, "n3", "AMD", "EPYC", V2_AVX2, "", "", NULL);
	kvj_set(n, "spec.unschedulable", json_true());
	n = cnode(s, "n4", "AMD", "EPYC", V1, "", "", NULL);
	kvj_label(n, "kubevirt.io/schedulable", "false");
	cvmi(s, "a", "n1", "host-model");
	cvmi(s, "b", "n1", "host-model");
	kvj_sets(cvmi(s, "c", "n1", "host-model"), "status.phase", "Succeeded");
	r = kvsnap_run(s);

	n = node_of(&r, "n1");
	assert_jint(n, "level", 3);
	assert_jbool(n, "avx2", true);
	assert_jbool(n, "avx512f", false);
	assert_jbool(n, "schedulable", true);
	assert_jstr(n, "vendor", "Intel");
	assert_jstr(n, "hostModel", "Skylake-Client");
	assert_jint(n, "vmis", 2);		/* running ones only */
	assert_jint(node_of(&r, "n2"), "level", 4);
	assert_jbool(node_of(&r, "n2"), "avx512f", true);
	n = node_of(&r, "n3");
	assert_jint(n, "level", 2);		/* AVX2 without MOVBE */
	assert_jbool(n, "avx2", true);
	assert_jbool(n, "schedulable", false);	/* cordoned */
	assert_jint(node_of(&r, "n4"), "level", 1);
	assert_jbool(node_of(&r, "n4"), "schedulable", false);
	kvres_free(&r);
	kvsnap_free(s);
}

/* issue 41: cpu-feature labels that name only some features (a test
 * cluster's, an edited node's) give the level the node's usable
 * cpu-model labels imply, else no level: never "x86-64-v0, AVX-512".
 * A class whose own nodes lack its host model's migration label is
 * refused to itself, and pairs says why. */
static void
test_level_partial_labels(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	kv_term t = { .fmt = KV_OUT_TEXT, .width = 1000 };	/* no wrap */
	kv_err err = {0};
	kvres r;

	(void)state;
	cpumap_model(s, "Big-v4", "Intel", V4);
	cnode(s, "p1", "Intel", "Skylake-Server-IBRS", "avx512f", "",
	    "Big-v4", NULL);
	cnode(s, "p2", "Intel", "Skylake-Server-IBRS", "avx512f", "", "",
	    NULL);
	r = kvsnap_run(s);
	assert_jint(node_of(&r, "p1"), "level", 4);
	assert_jbool(node_of(&r, "p1"), "avx2", true);
	assert_true(json_is_null(get(node_of(&r, "p2"), "level")));
	assert_jbool(node_of(&r, "p2"), "avx512f", true);
	assert_jbool(node_of(&r, "p2"), "avx2", false);
	f = open_memstream(&buf, &len);
	t.f = f;
	assert_int_equal(kv_view_pairs(r.a, &t, &err), KV_OK);
	fclose(f);
	assert_null(strstr(buf, "x86-64-v0"));
	assert_non_null(strstr(buf, "(x86-64-v4, AVX2, AVX-512):"));
	assert_non_null(strstr(buf, "(x86-64 level unknown, AVX-512):"));
	assert_non_null(strstr(buf, "  C1 -> C1: cpu-model-migration."
	    DOM "/Skylake-Server-IBRS\n    within one class: the nodes of C1 "
	    "lack the label their own host model asks of a target, so a "
	    "host-model VMI on C1 finds no target there either; the node "
	    "labeller sets it unless the host model is obsolete (node label "
	    "node-labeller.kubevirt.io/obsolete-host-model) or unknown to "
	    "libvirt, or the labels were edited\n"));
	free(buf);
	kvres_free(&r);
	kvsnap_free(s);
}

/* ---- best and trade-off --------------------------------------------------- */

/* best: the highest level, then the most features not counting vmx-*;
 * ties all listed. */
static void
test_best_models(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	const char *models = "M2 M3a M3b M3c";

	cnode(s, "n1", "Intel", "M3a", V3, "", models, NULL);
	cnode(s, "n2", "Intel", "M3a", V3, "", models, NULL);
	cnode(s, "n3", "Intel", "M3a", V3, "", "M2 M3c", NULL);
	cpumap_model(s, "M3a", "Intel", V3 " aes pcid vmx-ept vmx-vpid");
	cpumap_model(s, "M3b", "Intel", V3 " aes sha-ni");
	cpumap_model(s, "M3c", "Intel", V3 " aes vmx-a vmx-b vmx-c vmx-d "
	    "vmx-e");
	cpumap_model(s, "M2", "Intel", V2 " f01 f02 f03 f04 f05 f06 f07 f08 "
	    "f09 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19 f20");
	r = kvsnap_run(s);
	assert_list(scope(&r, "all"), "nodes", "n1,n2,n3");
	assert_list(scope(&r, "all"), "common", "M2,M3c");
	assert_list(scope(&r, "all"), "best", "M3c");
	/* models: by node count, then name */
	{
		json_t *m = kvj_at(r.findings, "namedModels.models");
		const char *order[] = { "M2", "M3c", "M3a", "M3b" };

		for (size_t i = 0; i < 4; i++)
			assert_jstr(json_array_get(m, i), "model", order[i]);
	}
	kvres_free(&r);

	/* without n3 every model is common: M3a and M3b tie */
	kvsnap_remove(s, "nodes", "", "n3");
	r = kvsnap_run(s);
	assert_list(scope(&r, "all"), "common", "M2,M3a,M3b,M3c");
	assert_list(scope(&r, "all"), "best", "M3a,M3b");
	assert_list(scope(&r, "vendor:Intel"), "best", "M3a,M3b");
	kvres_free(&r);
	kvsnap_free(s);
}

static void
test_tradeoff(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	const struct {
		const char *scope, *tier;
		long long nodes, of;
		const char *excluded, *models;
	} want[] = {
		{ "all", "any", 5, 5, "", "L1" },
		{ "all", "x86-64-v2", 3, 5, "a1,n4", "L2,L2x" },
		{ "all", "x86-64-v3", 2, 5, "a1,n3,n4", "L3" },
		{ "all", "avx2", 3, 5, "a1,n4", "L2x" },
		{ "all", "x86-64-v4", 1, 5, "a1,n2,n3,n4", "L4" },
		{ "vendor:AMD", "any", 1, 1, "", "L1" },
		{ "vendor:AMD", "x86-64-v2", 0, 1, "", "" },
		{ "vendor:AMD", "x86-64-v3", 0, 1, "", "" },
		{ "vendor:AMD", "avx2", 0, 1, "", "" },
		{ "vendor:AMD", "x86-64-v4", 0, 1, "", "" },
		{ "vendor:Intel", "any", 4, 4, "", "L1" },
		{ "vendor:Intel", "x86-64-v2", 3, 4, "n4", "L2,L2x" },
		{ "vendor:Intel", "x86-64-v3", 2, 4, "n3,n4", "L3" },
		{ "vendor:Intel", "avx2", 3, 4, "n4", "L2x" },
		{ "vendor:Intel", "x86-64-v4", 1, 4, "n2,n3,n4", "L4" },
	};
	json_t *rows;

	cnode(s, "n1", "Intel", "X", V4, "", "L1 L2 L2x L3 L4", NULL);
	cnode(s, "n2", "Intel", "X", V4, "", "L1 L2 L2x L3", NULL);
	cnode(s, "n3", "Intel", "X", V4, "", "L1 L2 L2x", NULL);
	cnode(s, "n4", "Intel", "X", V4, "", "L1", NULL);
	cnode(s, "a1", "AMD", "Y", V4, "", "L1", NULL);
	/* cordoned or not, a node is hardware of its scope */
	kvj_set(kvsnap_find(s, "nodes", "", "n4"), "spec.unschedulable",
	    json_true());
	cpumap_model(s, "L1", "Intel", V1);
	cpumap_model(s, "L2", "Intel", V2);
	cpumap_model(s, "L2x", "Intel", V2_AVX2);
	cpumap_model(s, "L3", "Intel", V3);
	cpumap_model(s, "L4", "Intel", V4);
	r = kvsnap_run(s);

	assert_list(kvj_at(r.findings, "namedModels"), "scopes[0].nodes",
	    "a1,n1,n2,n3,n4");
	assert_jstr(kvj_at(r.findings, "namedModels.scopes[1]"), "scope",
	    "vendor:AMD");
	rows = get(r.findings, "tradeoff");
	assert_int_equal(json_array_size(rows), sizeof(want) /
	    sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		json_t *t = json_array_get(rows, i);

		print_message("row %zu: %s %s\n", i, want[i].scope,
		    want[i].tier);
		assert_jstr(t, "scope", want[i].scope);
		assert_jstr(t, "tier", want[i].tier);
		assert_jint(t, "nodes", want[i].nodes);
		assert_jint(t, "of", want[i].of);
		assert_list(t, "excluded", want[i].excluded);
		assert_list(t, "models", want[i].models);
	}
	kvres_free(&r);
	kvsnap_free(s);
}

/* ---- Deckhouse ---------------------------------------------------------------- */

#define DH "node.virtualization.deckhouse.io"

static void
dh_nodes(kvsnap *s)
{
	cnode(s, "d1", "Intel", "Skylake-Client", V3 " md-clear", "md-clear",
	    "Westmere", "Skylake-Client");
	cnode(s, "d2", "Intel", "Skylake-Client", V3 " md-clear", "md-clear",
	    "Westmere", "Skylake-Client");
	cnode(s, "d3", "Intel", "Skylake-Client", V3, "", "Westmere",
	    "Skylake-Client");
}

static void
test_deckhouse_domain(void **state)
{
	kvsnap *s = kvsnap_new("deckhouse");
	kvsnap *k = kvsnap_new("kubevirt");
	kvres r;
	json_t *v, *sel;
	json_t *stray;

	dh_nodes(s);
	/* a leftover node.kubevirt.io label set means nothing here */
	stray = cnode(k, "k1", "AMD", "EPYC", V3, "", "EPYC", NULL);
	kvsnap_add(s, "nodes", "", json_incref(stray));
	cvmi(s, "vm", "d1", "host-model");
	r = kvsnap_run(s);

	assert_jstr(r.findings, "snapshot.flavor", "deckhouse");
	assert_jbool(node_of(&r, "d1"), "kubevirt", true);
	assert_jbool(node_of(&r, "d1"), "schedulable", true);
	assert_jbool(node_of(&r, "k1"), "kubevirt", false);
	assert_list(class_of(&r, "C1"), "nodes", "d1,d2");
	assert_list(pair(&r, "C1", "C2"), "missing", "cpu-feature." DH
	    "/md-clear");
	assert_list(model(&r, "Westmere"), "nodes", "d1,d2,d3");
	assert_list(scope(&r, "vendor:Intel"), "common", "Westmere");

	v = kvres_vmi(&r, "prod/vm");
	sel = get(v, "targetSelectors");
	assert_non_null(json_object_get(sel, "cpu-model-migration." DH
	    "/Skylake-Client"));
	assert_non_null(json_object_get(sel, "cpu-feature." DH "/md-clear"));
	/* DVP's KubeVirt (v1.6) predates the vendor selector */
	assert_null(json_object_get(sel, "cpu-vendor." DH "/Intel"));
	assert_non_null(json_object_get(sel, "kubevirt.internal."
	    "virtualization.deckhouse.io/schedulable"));
	assert_null(json_object_get(sel, "kubevirt.io/schedulable"));
	assert_list(v, "cpuTargets", "d2");
	assert_list(v, "targets", "d2");
	kvres_free(&r);

	/* the obsolete-host-model label has its Deckhouse spelling */
	kvj_label(kvsnap_find(s, "nodes", "", "d2"), "node-labeller.internal."
	    "virtualization.deckhouse.io/obsolete-host-model", "true");
	r = kvsnap_run(s);
	assert_list(kvres_vmi(&r, "prod/vm"), "cpuTargets", "");
	kvres_free(&r);

	/* and the Deckhouse labels mean nothing to a KubeVirt snapshot */
	kvsnap_free(k);
	k = kvsnap_new("kubevirt");
	kvsnap_add(k, "nodes", "", json_deep_copy(kvsnap_find(s, "nodes", "",
	    "d1")));
	r = kvsnap_run(k);
	assert_jbool(node_of(&r, "d1"), "kubevirt", false);
	assert_int_equal(json_array_size(get(r.findings, "cpuClasses")), 0);
	kvres_free(&r);
	kvsnap_free(k);
	kvsnap_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_host_model_other_features),
		cmocka_unit_test(test_vendor_mismatch),
		cmocka_unit_test(test_migration_vs_usable_labels),
		cmocka_unit_test(test_obsolete_models),
		cmocka_unit_test(test_unknown_model),
		cmocka_unit_test(test_snapshot_cpu_map),
		cmocka_unit_test(test_class_order),
		cmocka_unit_test(test_node_facts),
		cmocka_unit_test(test_level_partial_labels),
		cmocka_unit_test(test_best_models),
		cmocka_unit_test(test_tradeoff),
		cmocka_unit_test(test_deckhouse_domain),
	};

	return cmocka_run_group_tests_name("cpu", tests, NULL, NULL);
}
