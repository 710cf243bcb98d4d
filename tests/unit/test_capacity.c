/*
 * test_capacity.c - room for the resources beyond CPU, memory and pods
 * (capacity.h): hugepages-<size> and device-plugin resources (SR-IOV VFs)
 * as the launcher pod requests them, against allocatable less the
 * requests of the node's pods; a node that does not list a resource;
 * the wording of no-capacity and of explain; a malformed quantity.
 * Without the launcher pod in the input the need is derived from the VMI
 * as virt-controller renders it (podreq.c): hugepages, SR-IOV through the
 * NetworkAttachmentDefinition's resourceName, GPUs by deviceName, kvm.
 *
 * The base cluster is the one of test_rules_*.c (kvbase.h): prod/web on w1
 * migrates to w2, its only CPU-compatible other node.
 */
#include "kvtest.h"

#include <unistd.h>

#include "kvsnap.h"
#include "analyze/rules/capacity.h"
#include "analyze/rules/target.h"
#include "render/view.h"

#include "kvrules.h"

#define assert_has(s, needle)                                               \
	do {                                                                \
		const char *s_ = (s);                                       \
		if (strstr(s_, (needle)) == NULL)                           \
			fail_msg("\"%s\" lacks \"%s\"", s_, (needle));      \
	} while (0)

static void
alloc(kvsnap *s, const char *nodename, const char *res, const char *q)
{
	json_t *a = kvj_obj(node(s, nodename), "status.allocatable");

	json_object_set_new(a, res, json_string(q));
}

/* ---- hugepages ------------------------------------------------------ */

/* prod/web backed by 1Gi hugepages: the launcher requests
 * hugepages-1Gi = the guest memory, its memory request is the overhead
 * (renderresources.go WithHugePages). */
static void
hugepages(kvsnap *s, const char *w2_pages, const char *w2_used)
{
	json_t *req = kvj_at(pod(s), "spec.containers");

	pods_all(s);
	kvj_setj(vmi(s), "spec.domain.memory", "{\"guest\": \"4Gi\", "
	    "\"hugepages\": {\"pageSize\": \"1Gi\"}}");
	kvj_setj(json_array_get(req, 0), "resources.requests",
	    "{\"memory\": \"300Mi\", \"hugepages-1Gi\": \"4Gi\"}");
	alloc(s, "w1", "hugepages-1Gi", "8Gi");
	alloc(s, "w2", "hugepages-1Gi", w2_pages);
	if (w2_used != NULL) {
		char *spec = xasprintf("\"containers\": [{\"name\": \"c\", "
		    "\"resources\": {\"requests\": {\"memory\": \"1Gi\", "
		    "\"hugepages-1Gi\": \"%s\"}}}]", w2_used);

		add_pod(s, "db-huge", "w2", "Running", spec);
		free(spec);
	}
}

static void
m_huge_room(kvsnap *s)
{
	hugepages(s, "8Gi", "4Gi");
}

static void
m_huge_full(kvsnap *s)
{
	hugepages(s, "4Gi", "4Gi");
}

static void
m_huge_unlisted(kvsnap *s)
{
	hugepages(s, "8Gi", NULL);
	json_object_del(kvj_obj(node(s, "w2"), "status.allocatable"),
	    "hugepages-1Gi");
}

static void
test_hugepages(void **state)
{
	kvres r = run(m_huge_room);
	json_t *v = kvres_vmi(&r, WEB);
	const kv_vmires *vr = kvres_vmires(&r, WEB);
	int k = kv_resname_index(r.m, "hugepages-1Gi");
	char *why;

	(void)state;
	assert_true(k >= 0);
	assert_int_equal(vr->need->ext[k], 4LL << 30);
	assert_int_equal(vr->need->memory, 300LL << 20);
	assert_jstr(v, "verdict", "ok");
	assert_list(v, "targets", "w2");
	kvres_free(&r);

	r = run(m_huge_full);
	v = kvres_vmi(&r, WEB);
	assert_codes(v, "blockers", "no-capacity");
	assert_has(message(v, "no-capacity"),
	    "no free hugepages-1Gi on w2: 0 of 4 left, needs 4");
	assert_jint(v, "targetCount", 0);
	why = explain_w2(&r);
	assert_string_equal(why, "no room: no free hugepages-1Gi: 0 of 4 left, "
	    "needs 4");
	free(why);
	kvres_free(&r);

	r = run(m_huge_unlisted);
	v = kvres_vmi(&r, WEB);
	assert_codes(v, "blockers", "no-capacity");
	assert_has(message(v, "no-capacity"), "no hugepages-1Gi on w2: the "
	    "node's allocatable does not list it, needs 4");
	kvres_free(&r);
}

/* ---- SR-IOV --------------------------------------------------------- */

#define VF "intel.com/sriov_vf"

/* prod/web on an SR-IOV network: its launcher requests one VF (the
 * network's resourceName, renderresources.go WithNetworkResources). */
static void
sriov(kvsnap *s, const char *w2_vfs, const char *w2_used)
{
	json_t *req = kvj_at(pod(s), "spec.containers");

	pods_all(s);
	kvj_setj(vmi(s), "spec.domain.devices.interfaces",
	    "[{\"name\": \"vlan\", \"sriov\": {}}]");
	/* ephemeral-storage, which no node here states, never runs out */
	kvj_setj(json_array_get(req, 0), "resources.requests",
	    "{\"memory\": \"2300Mi\", \"" VF "\": \"1\", "
	    "\"ephemeral-storage\": \"50M\"}");
	alloc(s, "w1", VF, "4");
	if (w2_vfs != NULL)
		alloc(s, "w2", VF, w2_vfs);
	if (w2_used != NULL) {
		/* the init container's 2 VFs, not the sum of 1, count */
		char *spec = xasprintf("\"containers\": [{\"name\": \"c\", "
		    "\"resources\": {\"requests\": {\"" VF "\": \"1\"}}}], "
		    "\"initContainers\": [{\"name\": \"i\", \"resources\": "
		    "{\"requests\": {\"" VF "\": \"%s\"}}}]", w2_used);

		add_pod(s, "db-vf", "w2", "Running", spec);
		free(spec);
	}
}

static void
m_vf_room(kvsnap *s)
{
	sriov(s, "3", "2");
}

static void
m_vf_full(kvsnap *s)
{
	sriov(s, "2", "2");
}

static void
m_vf_unlisted(kvsnap *s)
{
	sriov(s, NULL, NULL);
}

/* Launchers only: the other pods are unknown, but a node that does not
 * offer the resource still cannot take the pod. */
static void
m_vf_unlisted_unknown(kvsnap *s)
{
	sriov(s, NULL, NULL);
	json_object_del(json_object_get(s->res, "resources/pods.json"),
	    "scope");
}

static void
test_sriov(void **state)
{
	kvres r = run(m_vf_room);
	json_t *v = kvres_vmi(&r, WEB);
	char *why;

	(void)state;
	assert_jstr(v, "verdict", "ok");
	assert_list(v, "targets", "w2");
	why = explain_w2(&r);
	assert_string_equal(why, "");
	free(why);
	kvres_free(&r);

	r = run(m_vf_full);
	v = kvres_vmi(&r, WEB);
	assert_codes(v, "blockers", "no-capacity");
	assert_has(message(v, "no-capacity"),
	    "no free " VF " on w2: 0 of 2 left, needs 1");
	kvres_free(&r);

	r = run(m_vf_unlisted);
	v = kvres_vmi(&r, WEB);
	assert_codes(v, "blockers", "no-capacity");
	why = explain_w2(&r);
	assert_string_equal(why, "no room: no " VF ": the node's allocatable "
	    "does not list it, needs 1");
	free(why);
	kvres_free(&r);

	r = run(m_vf_unlisted_unknown);
	v = kvres_vmi(&r, WEB);
	assert_false(r.a->capacity_known);
	assert_codes(v, "blockers", "no-placement-target");
	assert_has(message(v, "no-placement-target"),
	    "w2: no room: no " VF ": the node's allocatable");
	kvres_free(&r);
}

/* ---- no launcher pod in the input --------------------------------- */

static void
no_pod(kvsnap *s)
{
	pods_all(s);
	assert_true(kvsnap_remove(s, "pods", "", POD_NAME));
}

/* 4Gi of 1Gi pages, no memory request: hugepages-1Gi = the guest. */
static void
m_nopod_huge(kvsnap *s)
{
	no_pod(s);
	kvj_setj(vmi(s), "spec.domain.memory", "{\"guest\": \"4Gi\", "
	    "\"hugepages\": {\"pageSize\": \"1Gi\"}}");
	kvj_del(vmi(s), "spec.domain.resources");
	alloc(s, "w1", "hugepages-1Gi", "8Gi");
	alloc(s, "w2", "hugepages-1Gi", "2Gi");
}

#define NAD "{\"apiVersion\": \"k8s.cni.cncf.io/v1\", \"kind\": " \
	"\"NetworkAttachmentDefinition\", \"metadata\": {\"name\": " \
	"\"vlan10\", \"namespace\": \"prod\", \"annotations\": " \
	"{\"k8s.v1.cni.cncf.io/resourceName\": \"" VF "\"}}}"

/* the base VMI's network vlan10 as SR-IOV, VFs on w1 only */
static void
m_nopod_vf(kvsnap *s)
{
	no_pod(s);
	kvj_setj(vmi(s), "spec.domain.devices.interfaces",
	    "[{\"name\": \"vlan\", \"sriov\": {}}]");
	alloc(s, "w1", VF, "4");
	kvsnap_addj(s, "network-attachment-definitions", "k8s.cni.cncf.io",
	    NAD);
}

static void
m_nopod_vf_no_nad(kvsnap *s)
{
	m_nopod_vf(s);
	assert_true(kvsnap_remove(s, "network-attachment-definitions",
	    "k8s.cni.cncf.io", "vlan10"));
}

/* a GPU by device plugin, and kvm listed on w1 alone */
static void
m_nopod_gpu_kvm(kvsnap *s)
{
	no_pod(s);
	kvj_setj(vmi(s), "spec.domain.devices.gpus", "[{\"name\": \"g\", "
	    "\"deviceName\": \"nvidia.com/GA102\"}]");
	alloc(s, "w1", "nvidia.com/GA102", "1");
	alloc(s, "w2", "nvidia.com/GA102", "1");
	alloc(s, "w1", "devices.kubevirt.io/kvm", "110");
}

/* explain's text for prod/web (caller frees). */
static char *
explain_text(const kvres *r)
{
	const kv_vmires *vr = kvres_vmires(r, WEB);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	kv_term t = { .f = f, .fmt = KV_OUT_TEXT, .width = 400 };
	kv_err err = {0};

	assert_non_null(f);
	assert_int_equal(kv_view_explain(r->a, (size_t)(vr - r->a->vmis), &t,
	    &err), KV_OK);
	fclose(f);
	return out;
}

static void
test_no_pod(void **state)
{
	kvres r = run(m_nopod_huge);
	json_t *v = kvres_vmi(&r, WEB);
	const kv_vmires *vr = kvres_vmires(&r, WEB);
	int k = kv_resname_index(r.m, "hugepages-1Gi");
	char *why;

	(void)state;
	assert_true(vr->need_derived);
	assert_true(k >= 0);
	assert_int_equal(vr->need->ext[k], 4LL << 30);
	assert_int_equal(vr->need->memory, 0);
	/* cores 2 / cpuAllocationRatio 10 */
	assert_int_equal(vr->need->cpu_millis, 200);
	assert_codes(v, "blockers", "no-capacity");
	assert_has(message(v, "no-capacity"),
	    "not enough hugepages-1Gi on w2: 2 of 2 left, needs 4");
	kvres_free(&r);

	r = run(m_nopod_vf);
	v = kvres_vmi(&r, WEB);
	vr = kvres_vmires(&r, WEB);
	assert_int_equal(vr->need_unknown_nets, 0);
	assert_codes(v, "blockers", "no-capacity");
	assert_has(message(v, "no-capacity"), "no " VF " on w2: the node's "
	    "allocatable does not list it, needs 1");
	kvres_free(&r);

	/* without the NAD the VF is not known: not counted, and said */
	r = run(m_nopod_vf_no_nad);
	v = kvres_vmi(&r, WEB);
	vr = kvres_vmires(&r, WEB);
	assert_int_equal(vr->need_unknown_nets, 1);
	assert_string_equal(vr->need_unknown_net, "vlan10");
	assert_jstr(v, "verdict", "ok");
	why = explain_text(&r);
	assert_has(why, "target pod requests, derived from the VMI (its "
	    "launcher pod is not in the input): 200m CPU, 2.0 GiB, 1 pod, "
	    "ephemeral-storage ");
	assert_has(why, "; memory without the launcher's overhead: a lower "
	    "bound\n  network vlan10: its NetworkAttachmentDefinition is not "
	    "in the input");
	free(why);
	kvres_free(&r);

	/* a GPU blocks the migration itself; the need still counts it */
	r = run(m_nopod_gpu_kvm);
	v = kvres_vmi(&r, WEB);
	vr = kvres_vmires(&r, WEB);
	k = kv_resname_index(r.m, "nvidia.com/GA102");
	assert_true(k >= 0);
	assert_int_equal(vr->need->ext[k], 1);
	assert_codes(v, "blockers", "host-device,no-capacity");
	assert_has(message(v, "no-capacity"), "no devices.kubevirt.io/kvm on "
	    "w2: the node's allocatable does not list it, needs 1");
	kvres_free(&r);
}

/* A quantity that does not parse names its pod and field. */
static void
test_bad_quantity(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	char *err;

	(void)state;
	kvj_setj(json_array_get(kvj_at(pod(s), "spec.containers"), 0),
	    "resources.requests", "{\"" VF "\": \"lots\"}");
	err = kvsnap_load_error(s);
	assert_non_null(err);
	assert_has(err, "spec.containers[0].resources.requests." VF);
	free(err);
	kvsnap_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hugepages),
		cmocka_unit_test(test_sriov),
		cmocka_unit_test(test_bad_quantity),
		cmocka_unit_test(test_no_pod),
	};

	return cmocka_run_group_tests_name("capacity", tests, group_setup,
	    group_teardown);
}
