/*
 * test_load.c - the model loader (load.c) on small directory snapshots:
 * wrong JSON types in nodes, VMIs, pods and the KubeVirt CR, duplicate
 * names, a node with a million labels, malformed quantities.  Each error is
 * KV_ERR and one line "<snapshot>: <file>: item N (name): <field>: ...".
 */
#include "kvsnap.h"

#include "analyze/model/load.h"
#include "analyze/model/model.h"

#define NODES "resources/nodes.json"
#define VMIS "resources/virtualmachineinstances.kubevirt.io.json"
#define PODS "resources/pods.json"
#define KV "resources/kubevirts.kubevirt.io.json"
#define HCO_FILE "hyperconvergeds.hco.kubevirt.io.json"
#define HCO "resources/" HCO_FILE
#define DH_VMIS "resources/internalvirtualizationvirtualmachineinstances." \
	"internal.virtualization.deckhouse.io.json"

struct fx {
	char *dir;
	kvsnap s;
	kv_limits lim;
	kv_model *m;
	kv_err err;
	char *path;
};

static int
setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));
	kv_err err = {0};

	f->dir = kvtest_tmpdir();
	kvsnap_init(&f->s);
	if (kv_limits_init(&f->lim, &err) != KV_OK)
		kv_fatal("%s", err.msg);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	kv_model_free(f->m);
	kvsnap_rmtree(f->dir);
	free(f->dir);
	free(f->path);
	kvsnap_clear(&f->s);
	free(f);
	return 0;
}

static int
load(struct fx *f)
{
	kv_model_free(f->m);
	f->m = NULL;
	kv_clearerr(&f->err);
	if (f->path != NULL)
		kvsnap_rmtree(f->path);
	free(f->path);
	f->path = kvsnap_write_dir(&f->s, f->dir);
	return kv_model_load(f->path, &f->lim, &f->m, &f->err);
}

/* Load fails with exactly "<snapshot>: <want>". */
static void
expect_error(struct fx *f, const char *want)
{
	char *full;

	if (load(f) != KV_ERR)
		fail_msg("loaded; expected \"%s\"", want);
	assert_null(f->m);
	assert_null(strchr(f->err.msg, '\n'));
	full = xasprintf("%s: %s", f->path, want);
	if (strcmp(f->err.msg, full) != 0) {
		char got[KV_ERR_MAX];

		snprintf(got, sizeof(got), "%s", f->err.msg);
		free(full);
		fail_msg("\ngot:  %s\nwant: <snapshot>: %s", got, want);
	}
	free(full);
}

static void
expect_loads(struct fx *f)
{
	if (load(f) != KV_OK)
		fail_msg("%s", f->err.msg);
	assert_non_null(f->m);
}

/* One file holding one object (JSON Lines). */
static void
one(struct fx *f, const char *file, const char *obj)
{
	kvsnap_clear(&f->s);
	kvsnap_member_add(&f->s, file, obj);
}

/* --- good input ------------------------------------------------------------ */

static void
test_empty_snapshot(void **state)
{
	struct fx *f = *state;

	expect_loads(f);
	assert_int_equal(f->m->nnodes, 0);
	assert_int_equal(f->m->nvmis, 0);
	kvsnap_member_add(&f->s, NODES, "{\"kind\":\"List\",\"items\":[]}");
	kvsnap_member_add(&f->s, VMIS, "");
	expect_loads(f);
}

static void
test_good_objects(void **state)
{
	struct fx *f = *state;

	kvsnap_member_add(&f->s, NODES,
	    "{\"items\":[{\"metadata\":{\"name\":\"n2\","
	    "\"labels\":{\"b\":\"2\",\"a\":\"1\"}},\"status\":{\"allocatable\":"
	    "{\"memory\":\"64Gi\"}}},{\"metadata\":{\"name\":\"n1\"},"
	    "\"spec\":{\"unschedulable\":true}}]}");
	kvsnap_member_add(&f->s, VMIS,
	    "{\"metadata\":{\"name\":\"v\",\"namespace\":"
	    "\"ns\"},\"spec\":{\"domain\":{\"memory\":{\"guest\":\"1.5Gi\"}}},"
	    "\"status\":{\"nodeName\":\"n1\",\"phase\":\"Running\"}}\n");
	expect_loads(f);
	assert_int_equal(f->m->nnodes, 2);
	/* sorted by name, labels by key */
	assert_string_equal(f->m->nodes[0].name, "n1");
	assert_true(f->m->nodes[0].unschedulable);
	assert_int_equal(f->m->nodes[0].alloc_memory, -1);
	assert_string_equal(f->m->nodes[1].labels.v[0].key, "a");
	assert_int_equal(f->m->nodes[1].alloc_memory, (int64_t)64 << 30);
	assert_int_equal(f->m->nvmis, 1);
	assert_string_equal(f->m->vmis[0].fullname, "ns/v");
	assert_int_equal(f->m->vmis[0].memory, (int64_t)3 << 29);
}

/* --- wrong JSON types ------------------------------------------------------- */

static void
test_node_types(void **state)
{
	struct fx *f = *state;

	one(f, NODES, "{\"metadata\":{\"name\":\"n1\",\"labels\":[\"a\"]}}");
	expect_error(f, NODES ": item 0 (n1): metadata.labels: expected an "
	    "object, got a list");
	one(f, NODES, "{\"metadata\":{\"name\":7}}");
	expect_error(f, NODES ": item 0: metadata.name: expected a string, "
	    "got a number");
	one(f, NODES, "{\"metadata\":\"n1\"}");
	expect_error(f, NODES ": item 0: metadata.name: expected an object "
	    "on the way, got a string");
	one(f, NODES, "{\"metadata\":{}}");
	expect_error(f, NODES ": item 0: metadata.name: missing");
	one(f, NODES, "{\"metadata\":{\"name\":\"n1\",\"labels\":{\"a\":1}}}");
	expect_error(f, NODES ": item 0 (n1): metadata.labels: value of "
	    "\"a\": expected a string, got a number");
	one(f, NODES, "{\"metadata\":{\"name\":\"n1\"},\"spec\":"
	    "{\"unschedulable\":\"yes\"}}");
	expect_error(f, NODES ": item 0 (n1): spec.unschedulable: expected "
	    "true or false, got a string");
	one(f, NODES, "{\"metadata\":{\"name\":\"n1\"},\"spec\":{\"taints\":"
	    "[{\"key\":\"a\"},5]}}");
	expect_error(f, NODES ": item 0 (n1): spec.taints[1].: expected an "
	    "object");
	one(f, NODES, "{\"metadata\":{\"name\":\"n1\"},\"spec\":{\"taints\":"
	    "{}}}");
	expect_error(f, NODES ": item 0 (n1): spec.taints: expected a list, "
	    "got an object");
	/* the second item of a List is item 1 */
	one(f, NODES, "{\"items\":[{\"metadata\":{\"name\":\"n1\"}},"
	    "{\"metadata\":{\"name\":\"n2\",\"annotations\":[]}}]}");
	expect_error(f, NODES ": item 1 (n2): metadata.annotations: expected "
	    "an object, got a list");
}

static void
test_vmi_types(void **state)
{
	struct fx *f = *state;

#define VMI(spec) "{\"metadata\":{\"name\":\"v\",\"namespace\":\"ns\"}," spec "}"
	one(f, VMIS, "{\"metadata\":{\"name\":\"v\"}}");
	expect_error(f, VMIS ": item 0 (v): metadata.namespace: missing");
	one(f, VMIS, VMI("\"spec\":{\"domain\":{\"cpu\":{\"model\":4}}}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.domain.cpu.model: "
	    "expected a string, got a number");
	one(f, VMIS, VMI("\"spec\":{\"volumes\":{\"name\":\"x\"}}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.volumes: expected a list, "
	    "got an object");
	one(f, VMIS, VMI("\"spec\":{\"volumes\":[{\"name\":\"a\"},{}]}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.volumes[1].name: "
	    "missing");
	one(f, VMIS, VMI("\"spec\":{\"volumes\":[{\"name\":\"a\",\"hostDisk\":"
	    "{\"shared\":\"true\"}}]}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.volumes[0].hostDisk."
	    "shared: expected true or false, got a string");
	one(f, VMIS, VMI("\"spec\":{\"nodeSelector\":[\"a=b\"]}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.nodeSelector: expected an "
	    "object, got a list");
	one(f, VMIS, VMI("\"spec\":{\"affinity\":{\"nodeAffinity\":{"
	    "\"requiredDuringSchedulingIgnoredDuringExecution\":{"
	    "\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"k\","
	    "\"operator\":\"Near\"}]}]}}}}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.affinity.nodeAffinity."
	    "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
	    "[0].matchExpressions[0].operator: unknown operator \"Near\"");
	one(f, VMIS, VMI("\"spec\":{\"domain\":{\"cpu\":{\"features\":"
	    "[{\"name\":true}]}}}"));
	expect_error(f, VMIS ": item 0 (ns/v): spec.domain.cpu.features[0]."
	    "name: expected a string, got a boolean");
	one(f, VMIS, VMI("\"status\":{\"topologyHints\":{\"tscFrequency\":"
	    "-1}}"));
	expect_error(f, VMIS ": item 0 (ns/v): status.topologyHints."
	    "tscFrequency: expected a non-negative number");
	one(f, VMIS, VMI("\"status\":{\"conditions\":[\"Ready\"]}"));
	expect_error(f, VMIS ": item 0 (ns/v): status.conditions[0].: "
	    "expected an object");
#undef VMI
}

/* An error after jname names the object by its namespace and name, built
 * for the error (load_vmimetrics: it outlived the text it was built in). */
static void
test_metrics_named(void **state)
{
	struct fx *f = *state;

	one(f, "resources/vmimetrics.kvscope.io.json", "{\"metadata\":{"
	    "\"name\":\"v\",\"namespace\":\"ns\"},\"memoryResidentBytes\":"
	    "-5}");
	expect_error(f, "resources/vmimetrics.kvscope.io.json: item 0 (ns/v): "
	    "memoryResidentBytes: expected bytes (0 or more), got -5");
}

static void
test_other_types(void **state)
{
	struct fx *f = *state;

	one(f, PODS, "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\","
	    "\"labels\":{\"kubevirt.io\":\"virt-launcher\"}},\"spec\":"
	    "{\"containers\":[{\"resources\":{\"requests\":{\"memory\":"
	    "[1]}}}]}}");
	expect_error(f, PODS ": item 0 (p): spec.containers[0].resources."
	    "requests.memory: expected a quantity, got a list");
	/* a volume's name is checked when it is not an image volume too */
	one(f, PODS, "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\","
	    "\"labels\":{\"kubevirt.io\":\"virt-launcher\"}},\"spec\":"
	    "{\"volumes\":[{\"name\":\"a\",\"image\":{\"reference\":"
	    "\"r\"}},{\"name\":5,\"emptyDir\":{}}]}}");
	expect_error(f, PODS ": item 0 (p): spec.volumes[1].name: expected a "
	    "string, got a number");
	/* a path whose list element is named only when an error names it
	 * ("%s[%zu]." kept unformatted by jwhere), and a joined one */
	one(f, VMIS, "{\"metadata\":{\"name\":\"v\",\"namespace\":"
	    "\"ns\"},\"spec\":{\"tolerations\":[{\"key\":\"a\"},"
	    "{\"key\":3}]}}");
	expect_error(f, VMIS ": item 0 (ns/v): spec.tolerations[1].key: "
	    "expected a string, got a number");
	one(f, NODES, "{\"metadata\":{\"name\":\"n\"},\"status\":"
	    "{\"allocatable\":{\"example.com/gpu\":true}}}");
	expect_error(f, NODES ": item 0 (n): status.allocatable."
	    "example.com/gpu: expected a quantity, got a boolean");
	one(f, KV, "{\"metadata\":{\"name\":\"kubevirt\"},\"spec\":"
	    "{\"configuration\":{\"developerConfiguration\":{\"featureGates\":"
	    "[\"A\",3]}}}}");
	expect_error(f, KV ": item 0 (kubevirt): spec.configuration."
	    "developerConfiguration.featureGates: element 1: expected a "
	    "string, got a number");
	one(f, "resources/virtualmachineinstancemigrations.kubevirt.io.json",
	    "{\"metadata\":{\"name\":\"m\",\"namespace\":\"ns\",\"annotations\":"
	    "{\"kubevirt.io/migrationPendingPodTimeoutSeconds\":\"soon\"}}}");
	expect_error(f, "resources/virtualmachineinstancemigrations."
	    "kubevirt.io.json: item 0 (m): metadata.annotations: kubevirt.io/"
	    "migrationPendingPodTimeoutSeconds: expected whole seconds, got "
	    "\"soon\"");
}

/* --- duplicates -------------------------------------------------------------- */

static void
test_duplicate_nodes(void **state)
{
	struct fx *f = *state;

	one(f, NODES, "{\"items\":[{\"metadata\":{\"name\":\"n1\"}},"
	    "{\"metadata\":{\"name\":\"n2\"}},{\"metadata\":{\"name\":\"n1\"}}]}");
	expect_error(f, NODES ": item 2 (n1): metadata.name: a second node "
	    "named \"n1\" (the first is item 0)");
}

static void
test_duplicate_vmis(void **state)
{
	struct fx *f = *state;

	one(f, VMIS, "{\"metadata\":{\"name\":\"v\",\"namespace\":\"a\"}}\n"
	    "{\"metadata\":{\"name\":\"v\",\"namespace\":\"b\"}}\n"
	    "{\"metadata\":{\"name\":\"v\",\"namespace\":\"a\"}}\n");
	expect_error(f, VMIS ": item 2 (a/v): metadata.name: a second VMI "
	    "named \"a/v\" (the first is item 0)");
	/* the same VMI in the Deckhouse and the KubeVirt files (read in
	 * name order: the Deckhouse one first) */
	one(f, VMIS, "{\"metadata\":{\"name\":\"v\",\"namespace\":\"b\"}}");
	kvsnap_member_add(&f->s, DH_VMIS, "{\"metadata\":{\"name\":\"w\","
	    "\"namespace\":\"b\"}}\n{\"metadata\":{\"name\":\"v\","
	    "\"namespace\":\"b\"}}");
	expect_error(f, VMIS ": item 0 (b/v): metadata.name: a second VMI "
	    "named \"b/v\" (the first is item 1 of " DH_VMIS ")");
}

#define DVMS "resources/virtualmachines.virtualization.deckhouse.io.json"
#define DCLASSES "resources/virtualmachineclasses.virtualization." \
	"deckhouse.io.json"

static void
test_duplicate_dvp(void **state)
{
	struct fx *f = *state;

	one(f, DVMS, "{\"metadata\":{\"name\":\"vm\",\"namespace\":\"a\"}}\n"
	    "{\"metadata\":{\"name\":\"vm\",\"namespace\":\"b\"}}\n"
	    "{\"metadata\":{\"name\":\"vm\",\"namespace\":\"b\"}}\n");
	expect_error(f, DVMS ": item 2 (vm): metadata.name: a second "
	    "VirtualMachine named \"b/vm\" (the first is item 1)");
	one(f, DCLASSES, "{\"items\":[{\"metadata\":{\"name\":\"generic\"}},"
	    "{\"metadata\":{\"name\":\"generic\"}}]}");
	expect_error(f, DCLASSES ": item 1 (generic): metadata.name: a second "
	    "VirtualMachineClass named \"generic\" (the first is item 0)");
}

/* --- messages ------------------------------------------------------------------ */

/* A message must stay one clear line on a terminal: a hostile name cannot
 * put escape sequences or bytes that are not UTF-8 in it. */
static void
test_message_sanitized(void **state)
{
	struct fx *f = *state;

	one(f, NODES, "{\"metadata\":{\"name\":\"a\\u001b[2J\\u0007b\\r"
	    "\\nc\\u009b31m\",\"labels\":[]}}");
	expect_error(f, NODES ": item 0 (a?[2J?b??c?31m): metadata.labels: "
	    "expected an object, got a list");
	/* jansson quotes the bad byte it met */
	one(f, NODES, "{\"metadata\":{\"name\":\xff}}");
	assert_int_equal(load(f), KV_ERR);
	assert_true(g_utf8_validate(f->err.msg, -1, NULL));
	assert_null(strchr(f->err.msg, '\xff'));
	/* valid UTF-8 is kept as it is */
	one(f, NODES, "{\"metadata\":{\"name\":\"\xc3\xa9t\xc3\xa9\","
	    "\"labels\":7}}");
	expect_error(f, NODES ": item 0 (\xc3\xa9t\xc3\xa9): metadata.labels: "
	    "expected an object, got a number");
}

/* --- limits --------------------------------------------------------------------- */

static void
test_million_labels(void **state)
{
	struct fx *f = *state;
	kv_buf b = {0};

	kv_buf_printf(&b, "{\"metadata\":{\"name\":\"n1\",\"labels\":{");
	for (int i = 0; i < 1000000; i++)
		kv_buf_printf(&b, "%s\"%06d\":\"\"", i ? "," : "", i);
	kv_buf_printf(&b, "}}}\n");
	kvsnap_member_addn(&f->s, NODES, b.data, b.len);
	kv_buf_free(&b);
	expect_error(f, NODES ": item 0 (n1): metadata.labels: 1000000 "
	    "entries, more than the limit of 10000 (KVSCOPE_MAX_LABELS)");
}

static void
test_xml_limit(void **state)
{
	struct fx *f = *state;

	f->lim.manifest_bytes = 20;
	one(f, "libvirt/cpu_map/x86_Big.xml", "<cpus><model name='Big'/>"
	    "</cpus>");
	expect_error(f, "libvirt/cpu_map/x86_Big.xml: larger than 20 bytes "
	    "(KVSCOPE_MAX_MANIFEST_BYTES)");
}

static void
test_labels_limit(void **state)
{
	struct fx *f = *state;

	f->lim.labels = 2;
	one(f, NODES, "{\"metadata\":{\"name\":\"n1\",\"labels\":{\"a\":\"\","
	    "\"b\":\"\"},\"annotations\":{\"a\":\"\",\"b\":\"\",\"c\":\"\"}}}");
	expect_error(f, NODES ": item 0 (n1): metadata.annotations: 3 "
	    "entries, more than the limit of 2 (KVSCOPE_MAX_LABELS)");
}

/* --- quantities ------------------------------------------------------------------ */

static void
test_quantities(void **state)
{
	struct fx *f = *state;
	static const struct {
		const char *json, *want;
	} cases[] = {
		{ "\"1.5Xi\"", "malformed quantity \"1.5Xi\" (unknown suffix "
		  "\"Xi\")" },
		{ "\"-4Gi\"", "negative quantity \"-4Gi\"" },
		{ "\"1e400\"", "quantity \"1e400\" is out of range" },
		{ "\"\"", "malformed quantity \"\"" },
		{ "-4", "negative quantity \"-4\"" },
		{ "1.5", "expected a quantity, got a number" },
		{ "true", "expected a quantity, got a boolean" },
		{ "{}", "expected a quantity, got an object" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *obj = xasprintf("{\"metadata\":{\"name\":\"n1\"},"
		    "\"status\":{\"allocatable\":{\"memory\":%s}}}",
		    cases[i].json);
		char *want = xasprintf(NODES ": item 0 (n1): status."
		    "allocatable.memory: %s", cases[i].want);

		one(f, NODES, obj);
		free(obj);
		if (load(f) != KV_ERR) {
			free(want);
			fail_msg("case %zu loaded", i);
		}
		if (strstr(f->err.msg, want) == NULL) {
			char got[KV_ERR_MAX];

			snprintf(got, sizeof(got), "%s", f->err.msg);
			free(want);
			fail_msg("\ngot:  %s\nwant: ...%s", got,
			    cases[i].want);
		}
		free(want);
	}
	/* a number jansson cannot hold is not JSON at all */
	one(f, NODES, "{\"metadata\":{\"name\":\"n1\"},\"status\":"
	    "{\"allocatable\":{\"memory\":1e400}}}");
	assert_int_equal(load(f), KV_ERR);
	assert_non_null(strstr(f->err.msg, NODES ": item 0 (byte "));
	assert_non_null(strstr(f->err.msg, "not valid JSON"));
	/* and the quantities that are fine */
	one(f, VMIS, "{\"metadata\":{\"name\":\"v\",\"namespace\":\"ns\"},"
	    "\"spec\":{\"domain\":{\"resources\":{\"requests\":{\"memory\":"
	    "2147483648}}}}}");
	expect_loads(f);
	assert_int_equal(f->m->vmis[0].memory, (int64_t)2 << 30);
}

/* Every resources.def row with a loader names one the core or a flavor
 * registers; "none" resolves to nothing; an unknown name is refused. */
static void
test_resource_table_resolves(void **state)
{
	static const struct {
		const char *plural, *group, *loader;
	} rows[] = {
#define KV_RESOURCE(plural, group, scope, anon_prefix, anon_rank, loader, \
    need) { plural, group, #loader },
#include "analyze/read/resources.def"
#undef KV_RESOURCE
	};
	size_t nloaded = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		kv_object_fn fn = kv_load_resolve(rows[i].loader);

		if (strcmp(rows[i].loader, "none") == 0) {
			assert_null(fn);
			continue;
		}
		if (fn == NULL)
			fail_msg("%s.%s: no loader %s", rows[i].plural,
			    rows[i].group, rows[i].loader);
		nloaded++;
	}
	/* with storageprofiles, KVVMs, VMs, HyperConverged, Harvester
	 * settings, NetworkAttachmentDefinitions, VMI metrics,
	 * PersistentVolumes */
	assert_int_equal(nloaded, 27);
	assert_non_null(kv_load_resolve("load_dvm"));	/* a flavor's */
	assert_ptr_not_equal(kv_load_resolve("load_dvm"),
	    kv_load_resolve("load_vmi"));
	assert_null(kv_load_resolve("load_nothing"));
}

/* The flavor rows: looked up by name, label spellings of every flavor,
 * groups that belong to the other flavor. */
static void
test_flavor_rows(void **state)
{
	kv_label kv[] = { { "kubevirt.io/created-by", "uid-kv" } };
	kv_label dh[] = { { "kubevirt.internal.virtualization.deckhouse.io/"
	    "created-by", "uid-dh" } };
	kv_labels lkv = { 1, kv }, ldh = { 1, dh };
	const kv_flavor *k = kv_flavor_find("kubevirt");
	const kv_flavor *d = kv_flavor_find("deckhouse");

	(void)state;
	assert_ptr_equal(k, kv_flavors[KV_FLAVOR_KUBEVIRT]);
	assert_ptr_equal(d, kv_flavors[KV_FLAVOR_DECKHOUSE]);
	assert_ptr_equal(kv_flavor_find("openshift"),
	    kv_flavors[KV_FLAVOR_OPENSHIFT]);
	assert_ptr_equal(kv_flavor_find("harvester"),
	    kv_flavors[KV_FLAVOR_HARVESTER]);
	assert_null(kv_flavor_find("bogus"));
	assert_null(kv_flavor_find(NULL));
	for (size_t i = 0; i < KV_NFLAVORS; i++)
		assert_int_equal(kv_flavors[i]->id, i);
	assert_string_equal(kv_flavor_label(&lkv, KEY_CREATED_BY), "uid-kv");
	assert_string_equal(kv_flavor_label(&ldh, KEY_CREATED_BY), "uid-dh");
	assert_null(kv_flavor_label(&ldh, KEY_JOB_UID));
	assert_true(kv_flavor_foreign_group(k,
	    "internal.virtualization.deckhouse.io"));
	assert_false(kv_flavor_foreign_group(k, "kubevirt.io"));
	assert_true(kv_flavor_foreign_group(d, "kubevirt.io"));
	assert_false(kv_flavor_foreign_group(d, "virtualization.deckhouse.io"));
	assert_false(kv_flavor_foreign_group(d, ""));
	assert_true(kv_flavor_unlabelled_model(d, "qemu64"));
	assert_false(kv_flavor_unlabelled_model(k, "qemu64"));
	assert_true(k->vendor_selector);
	assert_false(d->vendor_selector);
}

/* The manifest's cluster.flavor: every row's name, nothing else. */
static void
test_manifest_flavor(void **state)
{
	struct fx *f = *state;

	for (size_t i = 0; i < KV_NFLAVORS; i++) {
		snprintf(f->s.flavor, sizeof(f->s.flavor), "%s",
		    kv_flavors[i]->name);
		expect_loads(f);
		assert_ptr_equal(f->m->flavor, kv_flavors[i]);
	}
	snprintf(f->s.flavor, sizeof(f->s.flavor), "bogus");
	expect_error(f, "manifest.json: cluster.flavor: expected "
	    "\"kubevirt\", \"deckhouse\", \"harvester\" or \"openshift\", "
	    "got \"bogus\"");
}

/* The HyperConverged CR: its spec.liveMigrationConfig kept raw, and the
 * snapshot read as OpenShift Virtualization's. */
static void
test_hco(void **state)
{
	struct fx *f = *state;

	one(f, HCO, "{\"metadata\":{\"name\":\"kubevirt-hyperconverged\"},"
	    "\"spec\":{\"liveMigrationConfig\":{\"completionTimeoutPerGiB\":"
	    "300,\"bandwidthPerMigration\":\"64Mi\"}},\"status\":"
	    "{\"versions\":[{\"name\":\"operator\",\"version\":"
	    "\"4.18.2\"}]}}");
	expect_loads(f);
	assert_ptr_equal(f->m->flavor, kv_flavors[KV_FLAVOR_OPENSHIFT]);
	assert_string_equal(f->m->hco_version, "4.18.2");
	assert_int_equal(f->m->hco_migrations.completion_per_gib, 300);
	assert_int_equal(f->m->hco_migrations.bandwidth, 64 << 20);
	assert_int_equal(f->m->hco_migrations.parallel_node, -1);
	assert_int_equal(f->m->hco_migrations.progress_timeout, -1);
	one(f, HCO, "{\"metadata\":{\"name\":\"h\"},\"spec\":"
	    "{\"liveMigrationConfig\":{\"progressTimeout\":\"soon\"}}}");
	expect_error(f, HCO ": item 0: "
	    "spec.liveMigrationConfig.progressTimeout: expected a whole "
	    "number, got a string");
}

/* The decision layer's part of each row: every fix path and word is
 * set, and the paths sit where each flavor's VirtualMachine holds them. */
static void
test_flavor_fix_rows(void **state)
{
	const kv_fixrow *k = kv_flavors[KV_FLAVOR_KUBEVIRT]->fix;
	const kv_fixrow *d = kv_flavors[KV_FLAVOR_DECKHOUSE]->fix;

	(void)state;
	for (size_t i = 0; i < KV_NFLAVORS; i++) {
		const kv_fixrow *f = kv_flavors[i]->fix;

		assert_non_null(f);
		for (size_t p = 0; p < VMPATH_COUNT; p++)
			assert_true(kv_startswith(f->paths[p],
			    f->paths[VMPATH_POD]) || p == VMPATH_CPU_MODEL);
		assert_non_null(f->migrate_cli);
		assert_non_null(f->kernel_note);
		assert_non_null(f->rwx_copy);
		assert_non_null(f->rwx_clone);
		assert_non_null(f->rwx_after);
	}
	assert_string_equal(k->paths[VMPATH_NODE_SELECTOR],
	    "spec.template.spec.nodeSelector");
	assert_string_equal(k->paths[VMPATH_CPU_MODEL],
	    "spec.template.spec.domain.cpu.model");
	assert_string_equal(d->paths[VMPATH_TOLERATIONS], "spec.tolerations");
	assert_string_equal(d->paths[VMPATH_CPU_MODEL], "spec.cpu.model");
	assert_string_equal(k->migrate_cli, "virtctl migrate");
	assert_string_equal(d->migrate_cli, "d8 v migrate");
	assert_null(k->cpu_fix);
	assert_null(k->drain_block_fix);
	assert_null(k->cpu_by_class);
	assert_non_null(d->cpu_by_class);
	assert_string_equal(d->cpu_object, "VirtualMachineClass");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_empty_snapshot),
		T(test_good_objects),
		T(test_node_types),
		T(test_vmi_types),
		T(test_other_types),
		T(test_metrics_named),
		T(test_duplicate_nodes),
		T(test_duplicate_vmis),
		T(test_duplicate_dvp),
		T(test_message_sanitized),
		T(test_million_labels),
		T(test_labels_limit),
		T(test_xml_limit),
		T(test_quantities),
		T(test_manifest_flavor),
		T(test_hco),
		cmocka_unit_test(test_resource_table_resolves),
		cmocka_unit_test(test_flavor_rows),
		cmocka_unit_test(test_flavor_fix_rows),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
