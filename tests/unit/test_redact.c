/*
 * test_redact.c - the collector's redaction as kvscope convert applies it
 * (redact.c): a canary planted in every place the list names is gone or
 * replaced by "<redacted: N bytes, sha256:...>", what the analysis reads
 * stays, and each removal is counted.
 */
#include "kvtest.h"

#include "analyze/read/redact.h"

#define CANARY "CANARY-s3cr3t"

static json_t *
parse(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, 0, &e);

	if (v == NULL)
		fail_msg("bad test JSON: %s", e.text);
	return v;
}

/* The group of plural, as resources.def has it. */
static const char *
group_of(const char *plural)
{
	static const char *const groups[][2] = {
		{ "virtualmachines", "kubevirt.io" },
		{ "virtualmachineinstances", "kubevirt.io" },
		{ "datavolumes", "cdi.kubevirt.io" },
		{ "virtualdisks", "virtualization.deckhouse.io" },
		{ "storageclasses", "storage.k8s.io" },
		{ "settings", "harvesterhci.io" },
	};

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (strcmp(groups[i][0], plural) == 0)
			return groups[i][1];
	return "";
}

static char *
redacted(const char *text, const char *plural, json_t *counts)
{
	json_t *o = parse(text);
	char *s;

	kv_redact_object(o, plural, group_of(plural), counts);
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	return s;
}

static long long
count(json_t *counts, const char *field)
{
	return json_integer_value(json_object_get(counts, field));
}

static void
test_pod(void **state)
{
	json_t *counts = json_object();
	char *s = redacted("{\"metadata\":{\"name\":\"virt-launcher-a\","
	    "\"labels\":{\"kubevirt.io\":\"virt-launcher\",\"api-token\":\""
	    CANARY "\",\"app\":\"db\"},\"annotations\":{\"kubevirt.io/domain\":"
	    "\"a\",\"kubectl.kubernetes.io/last-applied-configuration\":\""
	    CANARY "\",\"vendor.example/creds\":\"" CANARY "\"},"
	    "\"managedFields\":[{\"manager\":\"" CANARY "\"}]},"
	    "\"spec\":{\"containers\":[{\"name\":\"compute\",\"args\":[\"--uuid\"],"
	    "\"env\":[{\"name\":\"P\",\"value\":\"" CANARY "\"}]},"
	    "{\"name\":\"sidecar\",\"args\":[\"--password=" CANARY "\"],"
	    "\"command\":[\"sh\"]}],\"initContainers\":[{\"name\":\"i\","
	    "\"args\":[\"" CANARY "\"]}]}}", "pods", counts);

	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "\"kubevirt.io/domain\":\"a\""));
	assert_non_null(strstr(s, "\"app\":\"db\""));
	assert_non_null(strstr(s, "\"args\":[\"--uuid\"]"));
	assert_non_null(strstr(s, "\"api-token\":\"<redacted: 13 bytes, "
	    "sha256:"));
	assert_int_equal(count(counts, "metadata.managedFields"), 1);
	assert_int_equal(count(counts, "metadata.annotations[\"kubectl."
	    "kubernetes.io/last-applied-configuration\"]"), 1);
	assert_int_equal(count(counts, "metadata.annotations[*]"), 1);
	assert_int_equal(count(counts, "metadata.labels[*]"), 1);
	assert_int_equal(count(counts, "spec.containers[].env[].value"), 1);
	assert_int_equal(count(counts, "spec.containers[].args"), 1);
	assert_int_equal(count(counts, "spec.initContainers[].args"), 1);
	assert_int_equal(count(counts, "spec.containers[].command"), 1);
	free(s);
	json_decref(counts);
}

static void
test_vmi_pv_sc(void **state)
{
	json_t *counts = json_object();
	char *s = redacted("{\"spec\":{\"volumes\":[{\"name\":\"c\","
	    "\"cloudInitNoCloud\":{\"userData\":\"" CANARY "\","
	    "\"networkDataBase64\":\"" CANARY "\"}}]}}",
	    "virtualmachineinstances", counts);

	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "\"userData\":\"<redacted: 13 bytes, "
	    "sha256:"));
	assert_int_equal(count(counts,
	    "spec.volumes[].cloudInitNoCloud.userData"), 1);
	free(s);
	s = redacted("{\"spec\":{\"template\":{\"spec\":{\"volumes\":[{"
	    "\"cloudInitConfigDrive\":{\"userDataBase64\":\"" CANARY "\"}}]}}}}",
	    "virtualmachines", counts);
	assert_null(strstr(s, CANARY));
	free(s);
	s = redacted("{\"spec\":{\"csi\":{\"driver\":\"x\",\"volumeAttributes\":"
	    "{\"password\":\"" CANARY "\"},\"nodePublishSecretRef\":{\"name\":"
	    "\"keep\"}}}}", "persistentvolumes", counts);
	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "\"name\":\"keep\""));
	free(s);
	s = redacted("{\"provisioner\":\"p\",\"parameters\":{\"key\":\"" CANARY
	    "\",\"local.csi.storage.deckhouse.io/lvm-volume-groups\":\"vg\"}}",
	    "storageclasses", counts);
	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "\"local.csi.storage.deckhouse.io/"
	    "lvm-volume-groups\":\"vg\""));
	free(s);
	s = redacted("{\"metadata\":{\"labels\":{\"ssh-key\":\"k\","
	    "\"monkey\":\"m\",\"a\":\"Bearer x\",\"b\":\"eyJhbGci.eyJzdWIi.c\"}}}",
	    "nodes", counts);
	assert_non_null(strstr(s, "\"monkey\":\"m\""));
	assert_non_null(strstr(s, "\"ssh-key\":\"<redacted: 1 bytes"));
	assert_non_null(strstr(s, "\"a\":\"<redacted: 8 bytes"));
	assert_non_null(strstr(s, "\"b\":\"<redacted: 19 bytes"));
	free(s);
	/* equal values stay equal, for selectors */
	s = redacted("{\"metadata\":{\"labels\":{\"token\":\"abc\"}}}", "nodes",
	    counts);
	{
		char *t = redacted("{\"metadata\":{\"labels\":{\"token\":"
		    "\"abc\"}}}", "nodes", counts);

		assert_string_equal(s, t);
		free(t);
	}
	free(s);
	json_decref(counts);
}

/* Disk image imports: a password in a URL, an Authorization header and
 * a signed query, in a VM's dataVolumeTemplates, a DataVolume's
 * condition, a DVP VirtualDisk and CDI's PVC annotations; a URL without
 * a credential stays. */
static void
test_imports(void **state)
{
	json_t *counts = json_object();
	char *s = redacted("{\"spec\":{\"dataVolumeTemplates\":[{\"spec\":"
	    "{\"source\":{\"http\":{\"url\":\"https://u:" CANARY
	    "@img.example/a.qcow2\",\"extraHeaders\":[\"Authorization: "
	    "Basic " CANARY "\"]}}}}],\"template\":{\"spec\":{}}}}",
	    "virtualmachines", counts);

	assert_null(strstr(s, CANARY));
	assert_int_equal(count(counts,
	    "spec.dataVolumeTemplates[].spec.source.http.url"), 1);
	assert_int_equal(count(counts, "spec.dataVolumeTemplates[].spec."
	    "source.http.extraHeaders[]"), 1);
	free(s);
	s = redacted("{\"spec\":{\"source\":{\"registry\":{\"url\":"
	    "\"docker://quay.io/containerdisks/fedora:41\"}}},\"status\":"
	    "{\"conditions\":[{\"message\":\"fetching https://b.example/"
	    "x.img?se=1&sig=" CANARY "\"}]}}", "datavolumes", counts);
	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "\"url\":\"docker://quay.io/"
	    "containerdisks/fedora:41\""));
	assert_int_equal(count(counts, "status.conditions[].message"), 1);
	free(s);
	s = redacted("{\"metadata\":{\"annotations\":{"
	    "\"cdi.kubevirt.io/storage.import.endpoint\":\"https://u:" CANARY
	    "@img.example/b\",\"cdi.kubevirt.io/storage.import.extraHeaders\":"
	    "\"X-Auth: " CANARY "\",\"cdi.kubevirt.io/storage.import.source\":"
	    "\"http\"}}}", "persistentvolumeclaims", counts);
	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "\"cdi.kubevirt.io/storage.import.source\":"
	    "\"http\""));
	assert_int_equal(count(counts, "metadata.annotations[*]"), 2);
	free(s);
	s = redacted("{\"spec\":{\"dataSource\":{\"http\":{\"url\":"
	    "\"https://s3.example/r.img?X-Amz-Signature=" CANARY "\"}}}}",
	    "virtualdisks", counts);
	assert_null(strstr(s, CANARY));
	free(s);
	json_decref(counts);
}

/* Probes' guest commands and HTTP headers (VMIs, VM templates, launcher
 * containers), a hook sidecar's arguments, Harvester's registry mirror
 * credentials; server-version stays. */
static void
test_probes_hooks_settings(void **state)
{
	json_t *counts = json_object();
	char *s = redacted("{\"metadata\":{\"annotations\":{"
	    "\"hooks.kubevirt.io/hookSidecars\":\"[{\\\"args\\\":[\\\""
	    CANARY "\\\"]}]\",\"kubevirt.io/latest-observed-api-version\":"
	    "\"v1\"}},\"spec\":{\"readinessProbe\":{\"exec\":{\"command\":"
	    "[\"check\",\"" CANARY "\"]}},\"livenessProbe\":{\"httpGet\":"
	    "{\"httpHeaders\":[{\"name\":\"A\",\"value\":\"" CANARY "\"}]}}}}",
	    "virtualmachineinstances", counts);

	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "latest-observed-api-version"));
	assert_int_equal(count(counts, "spec.readinessProbe.exec.command"), 1);
	assert_int_equal(count(counts,
	    "spec.livenessProbe.httpGet.httpHeaders[].value"), 1);
	free(s);
	s = redacted("{\"spec\":{\"template\":{\"spec\":{\"startupProbe\":"
	    "{\"exec\":{\"command\":[\"" CANARY "\"]}}}}}}", "virtualmachines",
	    counts);
	assert_null(strstr(s, CANARY));
	free(s);
	s = redacted("{\"metadata\":{\"labels\":{\"kubevirt.io\":"
	    "\"virt-launcher\"}},\"spec\":{\"containers\":[{\"name\":"
	    "\"compute\",\"readinessProbe\":{\"exec\":{\"command\":[\""
	    CANARY "\"]}}}]}}", "pods", counts);
	assert_null(strstr(s, CANARY));
	assert_int_equal(count(counts,
	    "spec.containers[].readinessProbe.exec.command"), 1);
	free(s);
	{
		/* another group's settings */
		json_t *o = parse("{\"metadata\":{\"name\":"
		    "\"containerd-registry\"},\"value\":\"" CANARY "\"}");

		kv_redact_object(o, "settings", "example.com", counts);
		assert_string_equal(json_string_value(json_object_get(o,
		    "value")), CANARY);
		json_decref(o);
	}
	{
		json_t *o = parse("{\"metadata\":{\"name\":"
		    "\"containerd-registry\"},\"value\":\"" CANARY "\"}");
		json_t *v = parse("{\"metadata\":{\"name\":"
		    "\"server-version\"},\"value\":\"v1.3.1\"}");

		kv_redact_object(o, "settings", "harvesterhci.io", counts);
		kv_redact_object(v, "settings", "harvesterhci.io", counts);
		assert_true(kv_startswith(json_string_value(json_object_get(o,
		    "value")), "<redacted: "));
		assert_string_equal(json_string_value(json_object_get(v,
		    "value")), "v1.3.1");
		json_decref(o);
		json_decref(v);
	}
	json_decref(counts);
}

/* What the collector does, convert does with the same names: a VM
 * template's metadata, the Multus annotations the analysis reads, label
 * selectors redacted as the labels they match, an import URL counted
 * once, a PersistentVolume's secret references, odd keys quoted. */
static void
test_as_collector(void **state)
{
	json_t *counts = json_object();
	char *s = redacted("{\"spec\":{\"template\":{\"metadata\":{"
	    "\"annotations\":{\"hooks.kubevirt.io/hookSidecars\":\"" CANARY
	    "\"}},\"spec\":{\"nodeSelector\":{\"vault.example/token\":\"t1\"},"
	    "\"volumes\":[{\"cloudInitNoCloud\":{\"userData\":\"https://u:"
	    CANARY "@h/x\"}}]}}}}", "virtualmachines", counts);
	char *n;

	assert_null(strstr(s, CANARY));
	assert_int_equal(count(counts,
	    "spec.template.metadata.annotations[*]"), 1);
	assert_int_equal(count(counts,
	    "spec.template.spec.volumes[].cloudInitNoCloud.userData"), 1);
	assert_int_equal(json_object_size(counts), 3);
	n = redacted("{\"metadata\":{\"labels\":{\"vault.example/token\":"
	    "\"t1\"}}}", "nodes", counts);
	{
		/* the selector's marker is the label's */
		const char *m = strstr(n, "<redacted: 2 bytes, sha256:");
		char *mk;

		assert_non_null(m);
		mk = strndup(m, 92);
		assert_int_equal(mk[91], '>');
		assert_non_null(strstr(s, mk));
		free(mk);
	}
	free(n);
	free(s);
	s = redacted("{\"metadata\":{\"annotations\":{"
	    "\"k8s.v1.cni.cncf.io/resourceName\":\"intel.com/sriov\","
	    "\"k8s.v1.cni.cncf.io/networks\":\"a\",\"other/x\":\"y\"}}}",
	    "network-attachment-definitions", counts);
	assert_non_null(strstr(s, "\"k8s.v1.cni.cncf.io/resourceName\":"
	    "\"intel.com/sriov\""));
	assert_non_null(strstr(s, "\"k8s.v1.cni.cncf.io/networks\":\"a\""));
	assert_null(strstr(s, "other/x"));
	free(s);
	s = redacted("{\"spec\":{\"csi\":{\"nodeStageSecretRef\":{\"name\":"
	    "\"keep\",\"extra\":\"" CANARY "\"}}}}", "persistentvolumes",
	    counts);
	assert_null(strstr(s, CANARY));
	assert_int_equal(count(counts, "spec.csi.nodeStageSecretRef[*]"), 1);
	free(s);
	s = redacted("{\"spec\":{\"x\":{\"a/b\":\"https://h/i?sig=" CANARY
	    "\"}}}", "datavolumes", counts);
	assert_null(strstr(s, CANARY));
	assert_int_equal(count(counts, "spec.x[\"a/b\"]"), 1);
	free(s);
	json_decref(counts);
}

/* Hostile shapes: a value that only looks like a marker, a label map
 * with an entry named "key", a DVP launcher, a secret reference in a
 * list, an annotation that names kubevirt.io after another prefix. */
static void
test_odd_shapes(void **state)
{
	json_t *counts = json_object();
	char *s = redacted("{\"spec\":{\"source\":{\"http\":{\"url\":"
	    "\"<redacted: https://u:" CANARY "@h/x\"}}}}", "datavolumes", counts);

	assert_null(strstr(s, CANARY));
	free(s);
	s = redacted("{\"spec\":{\"nodeSelector\":{\"key\":\"Bearer x1\","
	    "\"values\":[\"t1\"]}}}", "virtualmachineinstances", counts);
	assert_null(strstr(s, "Bearer x1"));
	free(s);
	s = redacted("{\"metadata\":{\"labels\":{"
	    "\"kubevirt.internal.virtualization.deckhouse.io\":"
	    "\"virt-launcher\"}},\"spec\":{\"containers\":[{\"name\":"
	    "\"compute\",\"command\":[\"virt-launcher-monitor\"]}]}}",
	    "pods", counts);
	assert_non_null(strstr(s, "virt-launcher-monitor"));
	free(s);
	s = redacted("{\"spec\":{\"list\":[{\"aSecretRef\":{\"name\":"
	    "\"n\",\"pw\":\"" CANARY "\"}}]}}", "persistentvolumes", counts);
	assert_null(strstr(s, CANARY));
	assert_int_equal(count(counts, "spec.list[].aSecretRef[*]"), 1);
	free(s);
	s = redacted("{\"metadata\":{\"annotations\":{"
	    "\"descheduler.alpha.kubernetes.io/kubevirt.io-x\":\"" CANARY
	    "\",\"descheduler.alpha.kubernetes.io/evict\":\"true\"}}}",
	    "pods", counts);
	assert_null(strstr(s, CANARY));
	assert_non_null(strstr(s, "descheduler.alpha.kubernetes.io/evict"));
	free(s);
	json_decref(counts);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pod),
		cmocka_unit_test(test_vmi_pv_sc),
		cmocka_unit_test(test_imports),
		cmocka_unit_test(test_probes_hooks_settings),
		cmocka_unit_test(test_as_collector),
		cmocka_unit_test(test_odd_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
