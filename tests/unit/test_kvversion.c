/*
 * test_kvversion.c - the KubeVirt version a snapshot is judged by: lenient
 * parsing of upstream, Harvester, DVP and git-describe strings, the order
 * of the sources (CR observed, operator, manifest, launcher image tag,
 * default), the distribution table, and versions outside the rows.
 */
#include "kvtest.h"

#include "analyze/versions/kvversion.h"
#include "analyze/model/model.h"

static void
assert_parse(const char *s, int major, int minor, int patch)
{
	kv_ver v = { -1, -1, -1 };

	if (!kv_ver_parse(s, &v))
		fail_msg("\"%s\": not parsed", s);
	if (v.major != major || v.minor != minor || v.patch != patch)
		fail_msg("\"%s\": got %d.%d.%d, want %d.%d.%d", s, v.major,
		    v.minor, v.patch, major, minor, patch);
}

static void
test_parse_lenient(void **state)
{
	kv_ver v;

	(void)state;
	assert_parse("v1.9.0", 1, 9, 0);
	assert_parse("v1.6.2-v12n.61", 1, 6, 2);
	assert_parse("1.5.2-150700.3.5.2", 1, 5, 2);
	assert_parse("v1.9.0-123-gabc", 1, 9, 0);
	assert_parse("v0.58.2", 0, 58, 2);
	assert_parse("v1.4", 1, 4, 0);
	assert_false(kv_ver_parse("latest", &v));
	assert_false(kv_ver_parse("v1", &v));
	assert_false(kv_ver_parse("", &v));
	assert_false(kv_ver_parse(NULL, &v));
}

static void
find(kv_model *m, kv_rules_version *rv, char *vbuf, char *desc)
{
	kv_rules_version_find(m, rv);
	kv_ver_format(rv->v, vbuf, 32);
	kv_rules_version_describe(rv, desc, 128);
}

static void
test_basis_order(void **state)
{
	kv_model m = {0};
	kv_pod pods[2] = {0};
	kv_rules_version rv;
	char v[32], d[128];

	(void)state;
	find(&m, &rv, v, d);
	assert_int_equal(rv.basis, VBASIS_DEFAULT);
	assert_int_equal(rv.range, VRANGE_UNREADABLE);
	assert_string_equal(v, "v1.9.0");
	assert_string_equal(kv_ver_basis_names[rv.basis], "default");

	pods[0].launcher = pods[1].launcher = true;
	pods[0].image = "quay.io/kubevirt/virt-launcher:v1.3.1";
	pods[1].image = "quay.io/kubevirt/virt-launcher:v1.4.0@sha256:ab";
	m.pods = pods;
	m.npods = 2;
	find(&m, &rv, v, d);
	assert_string_equal(kv_ver_basis_names[rv.basis],
	    "launcher image tag");
	assert_string_equal(v, "v1.4.0");	/* the newest launcher */

	m.manifest.kubevirt_version = "v1.2.2";
	find(&m, &rv, v, d);
	assert_string_equal(kv_ver_basis_names[rv.basis], "manifest");
	assert_string_equal(v, "v1.2.2");

	m.cluster.operator_version = "v1.1.0";
	find(&m, &rv, v, d);
	assert_int_equal(rv.basis, VBASIS_CR_OPERATOR);
	assert_string_equal(v, "v1.1.0");

	m.cluster.version = "v1.1.1";
	find(&m, &rv, v, d);
	assert_string_equal(kv_ver_basis_names[rv.basis],
	    "KubeVirt CR status.observedKubeVirtVersion");
	assert_string_equal(v, "v1.1.1");
	assert_int_equal(rv.range, VRANGE_KNOWN);
	assert_string_equal(d, "rules of KubeVirt v1.1");
}

static void
test_distributions(void **state)
{
	kv_model m = {0};
	kv_rules_version rv;
	char v[32], d[128];

	(void)state;
	m.cluster.version = "v1.1.1";
	m.cluster.ns = "openshift-cnv";
	find(&m, &rv, v, d);
	assert_string_equal(d,
	    "rules of KubeVirt v1.1 (OpenShift Virtualization 4.15)");
	m.cluster.version = "v4.18.3";	/* a CNV-style version */
	find(&m, &rv, v, d);
	assert_string_equal(v, "v1.4.1");
	/* judged by the minor's pin, and said (z-streams) */
	assert_true(rv.by_minor);
	assert_int_equal(rv.openshift_minor, 18);
	assert_string_equal(d,
	    "rules of KubeVirt v1.4 (OpenShift Virtualization 4.18, by its "
	    "minor: a z-stream may carry a later KubeVirt patch release)");
	m.cluster.version = "v4.10.2";	/* before v1.0 (HCO release-1.6) */
	find(&m, &rv, v, d);
	assert_string_equal(v, "v0.49.0");
	assert_int_equal(rv.openshift_minor, 10);
	m.cluster.version = "v2.6.5";	/* OpenShift Virtualization 2.6 */
	find(&m, &rv, v, d);
	assert_string_equal(v, "v0.36.0");
	assert_int_equal(rv.range, VRANGE_KNOWN);
	assert_true(rv.by_minor);
	assert_string_equal(rv.product, "OpenShift Virtualization 2.6");
	m.cluster.version = "v0.34.0";	/* 2.5's pin, older than the rows */
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_OLDER);
	assert_string_equal(rv.product, "OpenShift Virtualization 2.5");
	m.cluster.ns = "harvester-system";
	m.cluster.version = "1.5.2-150700.3.5.2";
	find(&m, &rv, v, d);
	assert_string_equal(v, "v1.5.2");
	assert_string_equal(d,
	    "rules of KubeVirt v1.5 (Harvester 1.6.0/1.6.1)");
	m.cluster.version = "0.49.0-2";	/* Harvester 1.0.1-1.0.3 */
	find(&m, &rv, v, d);
	assert_string_equal(d,
	    "rules of KubeVirt v0.49 (Harvester 1.0.1-1.0.3)");
	m.cluster.ns = "kubevirt-hyperconverged";
	m.cluster.version = "v1.4.1";
	m.hco_present = true;
	m.hco_version = "1.14.0";	/* community HCO release-1.14 */
	find(&m, &rv, v, d);
	assert_false(rv.by_minor);	/* an exact KubeVirt version */
	assert_int_equal(rv.openshift_minor, 18);
	assert_string_equal(d,
	    "rules of KubeVirt v1.4 (OpenShift Virtualization 4.18)");
	m.hco_version = NULL;
	m.cluster.version = "v1.2.2";
	find(&m, &rv, v, d);
	assert_string_equal(d,
	    "rules of KubeVirt v1.2 (OpenShift Virtualization 4.16)");
	m.hco_present = false;
	m.harvester_version = "v1.7.1";
	m.cluster.version = "1.6.3-150700.3.13.1";
	find(&m, &rv, v, d);
	assert_string_equal(d, "rules of KubeVirt v1.6 (Harvester v1.7.1)");
	m.harvester_version = NULL;
	m.cluster.version = "v1.6.2-v12n.61";
	find(&m, &rv, v, d);
	assert_string_equal(d, "rules of KubeVirt v1.6 "
	    "(Deckhouse Virtualization, fork v1.6.2-v12n.61)");
}

static void
test_outside_rows(void **state)
{
	kv_model m = {0};
	kv_rules_version rv;
	char v[32], d[128];

	(void)state;
	m.cluster.version = "v1.14.0";
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_NEWER);
	assert_string_equal(v, "v1.9.0");
	assert_int_equal(rv.stated.minor, 14);
	m.cluster.version = "v1.9.3";
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_KNOWN);
	assert_string_equal(v, "v1.9.3");
	m.cluster.version = "v2.0.0";
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_NEWER);
	m.cluster.version = "v0.59.2";
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_KNOWN);
	m.cluster.version = "v0.36.0";
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_KNOWN);
	m.cluster.version = "v0.35.2";
	find(&m, &rv, v, d);
	assert_int_equal(rv.range, VRANGE_OLDER);
	assert_string_equal(v, "v0.35.2");
	m.cluster.version = "garbage";
	m.manifest.kubevirt_version = "v1.8.1";
	find(&m, &rv, v, d);
	assert_int_equal(rv.basis, VBASIS_MANIFEST);
	assert_string_equal(v, "v1.8.1");
}

static bool
has(enum kv_since_id id, int major, int minor, int patch)
{
	return kv_since_has(&kv_since_rows[id], (kv_ver){ major, minor,
	    patch });
}

/* The version table: backports within a minor line, the mainline after. */
static void
test_since_rows(void **state)
{
	char buf[64];

	(void)state;
	for (size_t i = 0; i < SINCE_COUNT; i++) {
		assert_int_equal(kv_since_rows[i].id, i);
		assert_non_null(kv_since_rows[i].name);
		assert_non_null(kv_since_rows[i].before);
		assert_non_null(kv_since_rows[i].source);
	}
	/* before v1.0 */
	assert_false(has(SINCE_CDROM_NOT_COPIED, 0, 36, 2));
	assert_true(has(SINCE_CDROM_NOT_COPIED, 0, 36, 3));
	assert_false(has(SINCE_CDROM_NOT_COPIED, 0, 40, 1));
	assert_true(has(SINCE_CDROM_NOT_COPIED, 0, 41, 0));
	assert_false(has(SINCE_HOST_MODEL_SELECTOR, 0, 42, 0));
	assert_true(has(SINCE_HOST_MODEL_SELECTOR, 0, 43, 0));
	assert_false(has(SINCE_CPU_MODEL_MIGRATION, 0, 53, 0));
	assert_true(has(SINCE_CPU_MODEL_MIGRATION, 0, 54, 0));
	assert_false(has(SINCE_SRIOV_GATE, 0, 39, 2));
	assert_true(has(SINCE_SRIOV_OK, 0, 57, 0));
	assert_false(has(SINCE_CD_SPEC_IMAGE, 0, 57, 1));
	assert_true(has(SINCE_CD_SPEC_IMAGE, 0, 58, 0));
	assert_false(has(SINCE_MACHINE_TYPE, 1, 4, 1));	/* never 1.4 */
	assert_false(has(SINCE_MACHINE_TYPE, 1, 5, 0));
	assert_true(has(SINCE_MACHINE_TYPE, 1, 5, 1));
	assert_true(has(SINCE_MACHINE_TYPE, 1, 6, 0));
	assert_false(has(SINCE_MACHINE_TYPE, 1, 1, 0));
	assert_false(has(SINCE_VENDOR, 1, 6, 3));
	assert_true(has(SINCE_VENDOR, 1, 6, 4));
	assert_false(has(SINCE_VENDOR, 1, 7, 0));
	assert_true(has(SINCE_VENDOR, 1, 7, 1));
	assert_true(has(SINCE_VENDOR, 1, 8, 0));
	assert_false(has(SINCE_VENDOR, 1, 5, 3));
	assert_true(has(SINCE_VENDOR, 1, 9, 0));
	assert_false(has(SINCE_LABEL_TRUE, 1, 5, 2));
	assert_true(has(SINCE_LABEL_TRUE, 1, 5, 3));
	assert_false(has(SINCE_SELECTOR_TRUE, 1, 4, 1));
	assert_false(has(SINCE_POD_BRIDGE, 0, 59, 2));
	assert_true(has(SINCE_POD_BRIDGE, 1, 0, 0));
	assert_false(has(SINCE_BINDING_PLUGINS, 1, 1, 1));
	assert_true(has(SINCE_BINDING_PLUGINS, 1, 2, 0));
	assert_false(has(SINCE_PASST, 1, 7, 4));
	assert_false(has(SINCE_COMPLETION_150, 1, 3, 1));
	assert_true(has(SINCE_COMPLETION_150, 1, 4, 0));
	assert_int_equal(kv_since_rows[SINCE_COMPLETION_150].value_before,
	    800);
	assert_false(has(SINCE_NO_PDB, 1, 5, 3));
	assert_true(has(SINCE_NO_PDB, 1, 6, 0));
	/* DVP's forks: v1.3.1-v12n (before DVP v1.4.0), v1.6.2-v12n */
	assert_false(has(SINCE_VMOP_SELECTOR, 1, 3, 1));
	assert_true(has(SINCE_VMOP_SELECTOR, 1, 6, 2));
	assert_false(has(SINCE_CPUMANAGER_KEY, 1, 7, 4));
	assert_true(has(SINCE_CPUMANAGER_KEY, 1, 8, 0));
	assert_false(has(SINCE_ACTIVE_PODS, 0, 40, 1));
	assert_true(has(SINCE_ACTIVE_PODS, 0, 41, 0));
	kv_since_format(&kv_since_rows[SINCE_VENDOR], buf, sizeof(buf));
	assert_string_equal(buf, "v1.6.4, v1.7.1, v1.8.0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lenient),
		cmocka_unit_test(test_basis_order),
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_outside_rows),
		cmocka_unit_test(test_since_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
