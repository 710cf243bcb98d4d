/*
 * test_rules_placement.c - the target search: taints, cordons, node affinity,
 * placement (persistent reservations, node selectors).
 *
 * One of the test_rules_*.c binaries (split by rule family): each judges
 * small mutations of the base cluster of kvbase.h, written by the in-test
 * builder (kvsnap.h) and read back through kvscope's own loader,
 * analysis and findings.json writer; the running and asserting helpers
 * are kvrules.h's.  References are to rules-kubevirt.md.
 */
#include "kvtest.h"

#include <unistd.h>

#include "kvsnap.h"
#include "analyze/rules/rule.h"
#include "analyze/rules/target.h"

#include "kvbase.h"
#include "kvrules.h"
#include "kvmut.h"

/* ---- targets and cpuTargets ------------------------------------------------ */

static const char *place_json;	/* for m_place_* */

static void
m_taint_w2(kvsnap *s)
{
	taint(s, "w2", place_json);
}

static void
m_tolerate_dedicated(kvsnap *s)
{
	taint(s, "w2", "{\"key\": \"dedicated\", \"value\": \"db\", "
	    "\"effect\": \"NoSchedule\"}");
	tolerate(s, place_json);
}

static void
test_taints(void **state)
{
	const struct {
		const char *taint;
		bool ok;
	} taints[] = {
		{ "{\"key\": \"dedicated\", \"value\": \"db\", \"effect\": "
		  "\"NoSchedule\"}", false },
		{ "{\"key\": \"dedicated\", \"effect\": \"NoExecute\"}", false },
		{ "{\"key\": \"dedicated\", \"effect\": \"PreferNoSchedule\"}",
		  true },
	};
	const struct {
		const char *toleration;
		bool ok;
	} tols[] = {
		{ "{\"key\": \"dedicated\", \"value\": \"db\"}", true },
		{ "{\"key\": \"dedicated\", \"operator\": \"Exists\"}", true },
		{ "{\"operator\": \"Exists\"}", true },
		{ "{\"key\": \"dedicated\", \"operator\": \"Exists\", "
		  "\"effect\": \"NoSchedule\"}", true },
		{ "{\"key\": \"dedicated\", \"value\": \"web\"}", false },
		{ "{\"key\": \"dedicated\", \"operator\": \"Exists\", "
		  "\"effect\": \"NoExecute\"}", false },
		{ "{\"key\": \"other\", \"operator\": \"Exists\"}", false },
	};

	for (size_t i = 0; i < sizeof(taints) / sizeof(taints[0]); i++) {
		kvres r;
		json_t *v;

		place_json = taints[i].taint;
		r = run(m_taint_w2);
		v = kvres_vmi(&r, WEB);
		print_message("taint %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", taints[i].ok ? "w2" : "");
		if (!taints[i].ok) {
			assert_verdict(v, "no-target");
			assert_message_has(v, "no-placement-target",
			    "not tolerated");
		}
		kvres_free(&r);
	}
	for (size_t i = 0; i < sizeof(tols) / sizeof(tols[0]); i++) {
		kvres r;

		place_json = tols[i].toleration;
		r = run(m_tolerate_dedicated);
		print_message("toleration %zu\n", i);
		assert_list(kvres_vmi(&r, WEB), "targets", tols[i].ok ? "w2" :
		    "");
		kvres_free(&r);
	}
}

static void
m_cordon_tolerated(kvsnap *s)
{
	cordon(s, "w2");
	tolerate(s, "{\"key\": \"node.kubernetes.io/unschedulable\", "
	    "\"operator\": \"Exists\", \"effect\": \"NoSchedule\"}");
}

static void
m_unschedulable_label(kvsnap *s)
{
	kvj_label(node(s, "w2"), "kubevirt.io/schedulable", "false");
}

static void
m_third_twin_cordon(kvsnap *s)
{
	intel_twin(s, "w4");
	cordon(s, "w2");
}

static void
test_cordon(void **state)
{
	kvres r = run(m_cordon);
	json_t *v = kvres_vmi(&r, WEB);

	/* the cordoned twin still satisfies the CPU part */
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_jbool(json_array_get(json_object_get(r.findings, "nodes"), 3),
	    "schedulable", false);
	kvres_free(&r);

	/* the scheduler lets a pod that tolerates the cordon taint in */
	r = run(m_cordon_tolerated);
	assert_list(kvres_vmi(&r, WEB), "targets", "w2");
	kvres_free(&r);

	r = run(m_unschedulable_label);
	v = kvres_vmi(&r, WEB);
	assert_list(v, "cpuTargets", "w2");
	assert_list(v, "targets", "");
	assert_message_has(v, "no-placement-target",
	    "kubevirt.io/schedulable=true differs");
	kvres_free(&r);

	r = run(m_third_twin_cordon);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "ok");
	assert_list(v, "cpuTargets", "w2,w4");
	assert_list(v, "targets", "w4");
	kvres_free(&r);
}

static const char *aff_exprs;	/* matchExpressions JSON */
static const char *aff_labels[4];	/* key, value pairs for w2 */

static void
m_affinity(kvsnap *s)
{
	char *a = xasprintf("{\"nodeAffinity\": {\"requiredDuringScheduling"
	    "IgnoredDuringExecution\": {\"nodeSelectorTerms\": %s}}}",
	    aff_exprs);

	kvj_setj(vmi(s), "spec.affinity", a);
	free(a);
	for (size_t i = 0; i < 4 && aff_labels[i] != NULL; i += 2)
		kvj_label(node(s, "w2"), aff_labels[i], aff_labels[i + 1]);
}

#define TERM(e) "[{\"matchExpressions\": [" e "]}]"

/* A node affinity, the node's one label and whether w2 passes. */
static const struct {
	const char *terms;
	const char *k1, *v1;
	bool ok;
} affinity_cases[] = {
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z1\", \"z2\"]}"), "zone", "z2", true },
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z9\"]}"), "zone", "z2", false },
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z2\"]}"), NULL, NULL, false },
	{ TERM("{\"key\": \"zone\", \"operator\": \"NotIn\", \"values\": "
	  "[\"z2\"]}"), "zone", "z2", false },
	{ TERM("{\"key\": \"zone\", \"operator\": \"NotIn\", \"values\": "
	  "[\"z9\"]}"), "zone", "z2", true },
	{ TERM("{\"key\": \"zone\", \"operator\": \"NotIn\", \"values\": "
	  "[\"z2\"]}"), NULL, NULL, true },
	{ TERM("{\"key\": \"ssd\", \"operator\": \"Exists\"}"),
	  "ssd", "", true },
	{ TERM("{\"key\": \"ssd\", \"operator\": \"Exists\"}"),
	  NULL, NULL, false },
	{ TERM("{\"key\": \"maintenance\", \"operator\": "
	  "\"DoesNotExist\"}"), "maintenance", "true", false },
	{ TERM("{\"key\": \"maintenance\", \"operator\": "
	  "\"DoesNotExist\"}"), NULL, NULL, true },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), "rack", "7", true },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), "rack", "5", false },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), "rack", "r7", false },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Gt\", \"values\": "
	  "[\"5\"]}"), NULL, NULL, false },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Lt\", \"values\": "
	  "[\"5\"]}"), "rack", "3", true },
	{ TERM("{\"key\": \"rack\", \"operator\": \"Lt\", \"values\": "
	  "[\"5\"]}"), "rack", "7", false },
	/* requirements of a term are ANDed */
	{ TERM("{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z2\"]}, {\"key\": \"ssd\", \"operator\": \"Exists\"}"),
	  "zone", "z2", false },
	/* terms are ORed */
	{ "[{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": "
	  "\"In\", \"values\": [\"z9\"]}]}, {\"matchExpressions\": "
	  "[{\"key\": \"zone\", \"operator\": \"In\", \"values\": "
	  "[\"z2\"]}]}]", "zone", "z2", true },
	/* an empty term matches no node until KubeVirt appends to it:
	 * this host-model VMI's pod carries obsolete-host-model
	 * DoesNotExist in it (template.go modifyNodeAffintyToReject-
	 * Label), so w2 passes; test_empty_term_named for a model */
	{ "[{}]", NULL, NULL, true },
	{ "[{\"matchExpressions\": []}]", NULL, NULL, true },

	/* matchFields test the node's name */
	{ "[{\"matchFields\": [{\"key\": \"metadata.name\", "
	  "\"operator\": \"In\", \"values\": [\"w2\"]}]}]", NULL, NULL,
	  true },
	{ "[{\"matchFields\": [{\"key\": \"metadata.name\", "
	  "\"operator\": \"NotIn\", \"values\": [\"w2\"]}]}]", NULL,
	  NULL, false },
};

static void
test_node_affinity(void **state)
{
	for (size_t i = 0; i < sizeof(affinity_cases) /
	    sizeof(affinity_cases[0]); i++) {
		kvres r;
		json_t *v;

		aff_exprs = affinity_cases[i].terms;
		aff_labels[0] = affinity_cases[i].k1;
		aff_labels[1] = affinity_cases[i].v1;
		aff_labels[2] = NULL;
		r = run(m_affinity);
		v = kvres_vmi(&r, WEB);
		print_message("affinity case %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", affinity_cases[i].ok ? "w2" : "");
		if (!affinity_cases[i].ok)
			assert_message_has(v, "no-placement-target",
			    "node affinity");
		kvres_free(&r);
	}
}

/* A named model gets nothing appended: its empty term matches no node. */
static void
m_empty_term_named(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.affinity", "{\"nodeAffinity\": {\"required"
	    "DuringSchedulingIgnoredDuringExecution\": {\"nodeSelectorTerms"
	    "\": [{}]}}}");
	kvj_sets(vmi(s), "spec.domain.cpu.model", "Haswell-noTSX");
}

static void
test_empty_term_named(void **state)
{
	kvres r = run(m_empty_term_named);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_jstr(v, "cpu.mode", "named");
	assert_list(v, "targets", "");
	assert_message_has(v, "no-placement-target", "an empty "
	    "nodeSelectorTerm matches no node");
	kvres_free(&r);
}

static void
m_w2_small(kvsnap *s)
{
	kvj_sets(node(s, "w2"), "status.allocatable.memory", "2Gi");
}

/* Another VMI's launcher pod already takes most of w2. */
static void
m_w2_full(kvsnap *s)
{
	json_t *p = kvj(base_pod);

	kvj_sets(p, "metadata.name", "virt-launcher-db-xyz");
	kvj_label(p, "kubevirt.io/created-by", "uid-db");
	kvj_sets(p, "spec.nodeName", "w2");
	kvj_sets(p, "spec.containers[0].resources.requests.memory", "62Gi");
	kvsnap_add(s, "pods", "", p);
}

/* web's root disk is a LUN with a SCSI persistent reservation; another
 * VMI reserving the same PVC runs on w2 (pr marker set when pr is true). */
static void
pr_setup(kvsnap *s, bool pr)
{
	json_t *p = kvj(base_pod);

	kvj_del(vmi(s), "spec.domain.devices.disks[0].disk");
	kvj_setj(vmi(s), "spec.domain.devices.disks[0].lun",
	    "{\"reservation\": true}");
	kvj_sets(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "metadata.uid", "uid-pvc-web-root");
	kvj_sets(p, "metadata.name", "virt-launcher-db-pr");
	kvj_label(p, "kubevirt.io/created-by", "uid-db");
	kvj_sets(p, "spec.nodeName", "w2");
	kvj_sets(p, "spec.containers[0].resources.requests.memory", "1Gi");
	if (pr)
		kvj_label(p, "pr.kubevirt.io/uid-pvc-web-root", "");
	kvsnap_add(s, "pods", "", p);
}

static void
m_pr_shared_lun(kvsnap *s)
{
	pr_setup(s, true);
}

static void
m_pr_other_pod(kvsnap *s)
{
	pr_setup(s, false);
}

static void
m_vmi_node_selector(kvsnap *s)
{
	kvj_setj(vmi(s), "spec.nodeSelector", "{\"disktype\": \"ssd\"}");
}

static void
m_cluster_node_selector(kvsnap *s)
{
	kvj_setj(kubevirt(s), "spec.configuration.developerConfiguration."
	    "nodeSelectors", "{\"kvm-ready\": \"yes\"}");
	kvj_label(node(s, "w1"), "kvm-ready", "yes");
	kvj_label(node(s, "w2"), "kvm-ready", "yes");
}

static void
test_placement(void **state)
{
	const struct {
		mutation mut;
		const char *targets, *needle;
	} cases[] = {
		{ m_w2_small, "", "not enough memory: 2.0 GiB free, needs "
		  "2.2 GiB" },
		{ m_w2_full, "", "not enough memory" },
		{ m_w2_runs_own_pod, "", "runs pod virt-launcher-web-target" },
		{ m_pr_shared_lun, "", "prod/virt-launcher-db-pr, which holds a "
		  "persistent reservation" },
		{ m_pr_other_pod, "w2", NULL },
		{ m_vmi_node_selector, "", "label disktype=ssd missing" },
		{ m_cluster_node_selector, "w2", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r = run(cases[i].mut);
		json_t *v = kvres_vmi(&r, WEB);

		print_message("placement case %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", cases[i].targets);
		if (cases[i].needle)
			assert_message_has(v, "no-placement-target",
			    cases[i].needle);
		kvres_free(&r);
	}
}

/* ---- PersistentVolumes: VolumeBinding and VolumeZone (volumes.c) ------ */

static const char *pv_spec;	/* the PV's spec.nodeAffinity, or NULL */
static const char *pv_zone;	/* its zone label "key=value", or NULL */
static const char *w1_zone, *w2_zone;	/* the nodes' zone labels */

/* web-root is bound to pv-0042 (rbd.csi.ceph.com), with pv_spec's node
 * affinity and pv_zone's label. */
static void
m_pv(kvsnap *s)
{
	json_t *pv = kvj("{\"apiVersion\": \"v1\", \"kind\": "
	    "\"PersistentVolume\", \"metadata\": {\"name\": \"pv-0042\"}, "
	    "\"spec\": {\"csi\": {\"driver\": \"rbd.csi.ceph.com\"}}}");

	kvj_sets(kvsnap_find(s, "persistentvolumeclaims", "", "web-root"),
	    "spec.volumeName", "pv-0042");
	if (pv_spec != NULL)
		kvj_setj(pv, "spec.nodeAffinity", pv_spec);
	if (pv_zone != NULL) {
		char *k = xstrdup(pv_zone), *eq = strchr(k, '=');

		*eq = '\0';
		kvj_label(pv, k, eq + 1);
		free(k);
	}
	kvsnap_add(s, "persistentvolumes", "", pv);
	for (int i = 0; i < 2; i++) {
		const char *z = i ? w2_zone : w1_zone;
		char *k;

		if (z == NULL)
			continue;
		k = xstrdup(z);
		*strchr(k, '=') = '\0';
		kvj_label(node(s, i ? "w2" : "w1"), k, strchr(z, '=') + 1);
		free(k);
	}
}

#define HOSTS(list) "{\"required\": {\"nodeSelectorTerms\": [{" \
	"\"matchExpressions\": [{\"key\": \"kubernetes.io/hostname\", " \
	"\"operator\": \"In\", \"values\": [" list "]}]}]}}"
#define GA "topology.kubernetes.io/zone="
#define BETA "failure-domain.beta.kubernetes.io/zone="

static void
test_pv_limits(void **state)
{
	const struct {
		const char *spec, *zone, *w1, *w2;
		const char *targets, *needle;
	} cases[] = {
		{ HOSTS("\"w1\""), NULL, NULL, NULL, "",
		  "PersistentVolume pv-0042 (claim web-root, driver "
		  "rbd.csi.ceph.com) is pinned to w1 by its node affinity" },
		{ HOSTS("\"w1\", \"w2\""), NULL, NULL, NULL, "w2", NULL },
		{ HOSTS("\"w1\", \"a1\""), NULL, NULL, NULL, "",
		  "has node affinity kubernetes.io/hostname In w1,a1, which "
		  "the node fails" },
		{ "{\"required\": {\"nodeSelectorTerms\": [{\"matchFields\": "
		  "[{\"key\": \"metadata.name\", \"operator\": \"In\", "
		  "\"values\": [\"w2\"]}]}]}}", NULL, NULL, NULL, "",
		  "has node affinity field metadata.name In w2" },
		{ NULL, GA "a", GA "a", GA "b", "",
		  "is in topology.kubernetes.io/zone=a, the node in b "
		  "(volume zone)" },
		{ NULL, GA "a__b", GA "a", GA "b", "w2", NULL },
		{ NULL, BETA "a", GA "a", GA "b", "",
		  "is in failure-domain.beta.kubernetes.io/zone=a, the node in "
		  "b" },
		{ NULL, GA "a", GA "a", "topology.kubernetes.io/region=r", "",
		  "the node has no such label" },
		{ NULL, GA "a", GA "a", NULL, "w2", NULL },
		{ NULL, NULL, NULL, NULL, "w2", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r;
		json_t *v;

		pv_spec = cases[i].spec;
		pv_zone = cases[i].zone;
		w1_zone = cases[i].w1;
		w2_zone = cases[i].w2;
		r = run(m_pv);
		v = kvres_vmi(&r, WEB);
		print_message("pv case %zu\n", i);
		assert_list(v, "cpuTargets", "w2");
		assert_list(v, "targets", cases[i].targets);
		if (cases[i].needle != NULL)
			assert_message_has(v, "no-placement-target",
			    cases[i].needle);
		kvres_free(&r);
	}
}

/* ---- the CPU manager label key (versions.c cpumanager-label-key) ------- */

static const char *cm_version;	/* the KubeVirt CR's version */
static bool cm_new_label;	/* w2 also has v1.8's kubevirt.io/cpumanager */

/* web has dedicated CPUs; w2 carries cpumanager=true, as virt-handler up
 * to v1.7 writes it, and with cm_new_label kubevirt.io/cpumanager=true,
 * which v1.8.0's heartbeat.go:110-111 writes beside it. */
static void
m_dedicated(kvsnap *s)
{
	kvj_set(vmi(s), "spec.domain.cpu.dedicatedCpuPlacement", json_true());
	kvj_set(vmi(s), "spec.domain.cpu.isolateEmulatorThread",
	    json_true());
	kvj_sets(kubevirt(s), "status.observedKubeVirtVersion", cm_version);
	kvj_label(node(s, "w2"), "cpumanager", "true");
	if (cm_new_label)
		kvj_label(node(s, "w2"), "kubevirt.io/cpumanager", "true");
}

static void
test_cpumanager_key(void **state)
{
	const struct {
		const char *version;
		bool new_label;
		const char *old_sel, *new_sel, *targets;
	} cases[] = {
		{ "v1.2.2", false, "true", NULL, "w2" },
		{ "v1.7.0", false, "true", NULL, "w2" },
		{ "v1.7.4", false, "true", NULL, "w2" },
		{ "v1.8.0", false, NULL, "true", "" },
		{ "v1.8.0", true, NULL, "true", "w2" },
		{ "v1.9.0", true, NULL, "true", "w2" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kvres r;
		json_t *v;

		cm_version = cases[i].version;
		cm_new_label = cases[i].new_label;
		r = run(m_dedicated);
		v = kvres_vmi(&r, WEB);
		print_message("cpumanager case %zu (%s)\n", i,
		    cm_version);
		assert_selector(v, "cpumanager", cases[i].old_sel);
		assert_selector(v, "kubevirt.io/cpumanager", cases[i].new_sel);
		assert_list(v, "targets", cases[i].targets);
		if (*cases[i].targets == '\0')
			assert_message_has(v, "no-placement-target",
			    "label kubevirt.io/cpumanager=true missing");
		kvres_free(&r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taints),
		cmocka_unit_test(test_cordon),
		cmocka_unit_test(test_node_affinity),
		cmocka_unit_test(test_empty_term_named),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_cpumanager_key),
		cmocka_unit_test(test_pv_limits),
	};

	return cmocka_run_group_tests_name("rules/placement", tests, group_setup,
	    group_teardown);
}
