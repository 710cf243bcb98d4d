/*
 * test_relax.c - the edits of a relax-placement fix (analyze/decide/
 * relax.c), named in its text and applied by what-if (analyze/change/
 * whatif_place.c): prod/web on w1 has one CPU-compatible node, w2, and
 * each case makes w2 fail one placement constraint.  The fix must name
 * the edit that removes it, be proven by the proof (fixes 1), and the
 * same changes applied to the whole snapshot must give web a target; a
 * constraint no edit removes leaves the fix unproven with the reason.
 */
#include "kvtest.h"

#include "kvsnap.h"
#include "analyze/change/fixapply.h"
#include "analyze/change/fixproof.h"
#include "analyze/decide/groups.h"
#include "analyze/pipeline.h"
#include "analyze/read/limits.h"

#include "kvbase.h"

static const kv_group *
placement_group(const kv_analysis *a)
{
	for (size_t i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i].code, "no-placement-target") == 0)
			return &a->groups[i];
	for (size_t i = 0; i < a->ngroups; i++)
		print_message("group %s %s\n", a->groups[i].code,
		    a->groups[i].name);
	print_message("web: verdict %d, %zu targets of %zu CPU targets\n",
	    a->vmis[0].verdict, a->vmis[0].ntargets, a->vmis[0].ncpu_targets);
	fail_msg("no no-placement-target group");
	return NULL;
}

/* g's changes applied to the snapshot at dir loaded again: web's
 * targets afterwards, and the restarts. */
static size_t
applied_targets(const char *dir, const kv_analysis *a, const kv_group *g,
    size_t *restarts)
{
	bool *pick = xcalloc(a->nvmis + 1, sizeof(bool));
	const char *why;
	size_t n, targets;
	kv_change *chs = kv_fix_changes(a, g, pick, &n, &why);
	kv_model *m = NULL;	/* clang: fail_msg() may return */
	kv_analysis *b = NULL;
	kv_whatif w = {0};
	kv_err err = {0};
	kv_limits lim;

	assert_non_null(chs);
	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(dir, &lim, &m, &err) != KV_OK ||
	    kv_whatif_apply(m, chs, n, &w, &err) != KV_OK ||
	    kv_analyze(m, &b, &err) != KV_OK)
		fail_msg("%s: %s", dir, err.msg);
	targets = b->vmis[0].ntargets;
	*restarts = w.restarts;
	kv_whatif_free(&w);
	kv_analysis_free(b);
	kv_model_free(m);
	free(chs);
	free(pick);
	return targets;
}

/* s analysed and proven: the placement group's fix has text, restart
 * and (when proven) fixes web and gives it w2 once applied. */
static void
expect_fix(kvsnap *s, const char *text, bool restart, bool proven)
{
	char *dir = kvsnap_write(s);
	kv_model *m;
	kv_analysis *a;
	const kv_group *g;
	size_t restarts;

	kvsnap_load_dir(dir, &m, &a);
	kv_fix_prove(a);
	g = placement_group(a);
	if (strstr(g->fix.text, text) == NULL)
		fail_msg("fix text \"%s\" lacks \"%s\"", g->fix.text, text);
	assert_int_equal(g->fix.restart, restart);
	assert_int_equal(g->fix.proven, proven);
	if (proven) {
		assert_int_equal(g->fix.action, FIX_RELAX_PLACEMENT);
		assert_int_equal(g->fix.fixes, 1);
		assert_int_equal(g->fix.worse, 0);
		assert_int_equal(applied_targets(dir, a, g, &restarts), 1);
		assert_int_equal(restarts, restart ? 1 : 0);
	}
	kv_analysis_free(a);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	kvsnap_free(s);
}

static void
test_taint_tolerated(void **state)
{
	kvsnap *s = kvsnap_copy(base);

	(void)state;
	kvj_pushj(node(s, "w2"), "spec.taints", "{\"key\": \"dedicated\", "
	    "\"value\": \"db\", \"effect\": \"NoSchedule\"}");
	expect_fix(s, "add {key: dedicated, operator: Exists, effect: "
	    "NoSchedule} to spec.template.spec.tolerations, then restart "
	    "them", true, true);
}

static void
test_cordon_uncordoned(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	json_t *w2 = node(s, "w2");

	(void)state;
	kvj_setj(w2, "spec.unschedulable", "true");
	kvj_pushj(w2, "spec.taints", "{\"key\": "
	    "\"node.kubernetes.io/unschedulable\", \"effect\": "
	    "\"NoSchedule\"}");
	expect_fix(s, "uncordon w2 (kubectl uncordon w2)", false, true);
}

static void
test_empty_term_removed(void **state)
{
	kvsnap *s = kvsnap_copy(base);

	(void)state;
	/* a named model: KubeVirt appends nothing to the term (host-model
	 * would append the obsolete label's DoesNotExist to it) */
	kvj_sets(vmi(s), "spec.domain.cpu.model", "Haswell-noTSX");
	kvj_setj(vmi(s), "spec.affinity", "{\"nodeAffinity\": {"
	    "\"requiredDuringSchedulingIgnoredDuringExecution\": "
	    "{\"nodeSelectorTerms\": [{}]}}}");
	expect_fix(s, "so that w2 takes them: remove the required node "
	    "affinity from spec.template.spec.affinity: its only "
	    "nodeSelectorTerms are empty", true, true);
}

/* Two ORed terms that both ask for zone=a: dropping the requirement
 * empties them, so the required affinity goes. */
static void
test_affinity_terms_emptied(void **state)
{
	kvsnap *s = kvsnap_copy(base);

	(void)state;
	kvj_setj(vmi(s), "spec.affinity", "{\"nodeAffinity\": {"
	    "\"requiredDuringSchedulingIgnoredDuringExecution\": "
	    "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": "
	    "\"zone\", \"operator\": \"In\", \"values\": [\"a\"]}]}, "
	    "{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": "
	    "\"In\", \"values\": [\"a\", \"b\"]}]}]}}}");
	expect_fix(s, "remove the required node affinity (spec.template.spec."
	    "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
	    "Execution): a term of it asks only for zone", true, true);
}

/* A term that asks for zone=a and the architecture w2 has: only the
 * zone goes, the term stays. */
static void
test_affinity_requirement_dropped(void **state)
{
	kvsnap *s = kvsnap_copy(base);

	(void)state;
	kvj_setj(vmi(s), "spec.affinity", "{\"nodeAffinity\": {"
	    "\"requiredDuringSchedulingIgnoredDuringExecution\": "
	    "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": "
	    "\"zone\", \"operator\": \"In\", \"values\": [\"a\"]}, "
	    "{\"key\": \"kubernetes.io/arch\", \"operator\": \"In\", "
	    "\"values\": [\"amd64\"]}]}]}}}");
	expect_fix(s, "drop the requirements on zone from each "
	    "nodeSelectorTerm of the required node affinity in "
	    "spec.template.spec.affinity (or make them preferred)", true,
	    true);
}

/* w2 fails a taint and a label, a1's CPU is not the source's: both
 * edits, for the one node that can take the VM. */
static void
test_two_failures_one_node(void **state)
{
	kvsnap *s = kvsnap_copy(base);

	(void)state;
	kvj_pushj(node(s, "w2"), "spec.taints", "{\"key\": \"dedicated\", "
	    "\"value\": \"db\", \"effect\": \"NoSchedule\"}");
	kvj_setj(vmi(s), "spec.nodeSelector", "{\"disk\": \"ssd\"}");
	kvj_label(node(s, "w1"), "disk", "ssd");
	expect_fix(s, "so that w2 takes them: remove disk=ssd from "
	    "spec.template.spec.nodeSelector (w2 lacks the label), add {key: "
	    "dedicated, operator: Exists, effect: NoSchedule} to "
	    "spec.template.spec.tolerations, then restart them", true, true);
}

/* A node-condition taint is not tolerated away: the node must be
 * fixed. */
static void
test_condition_taint_stuck(void **state)
{
	kvsnap *s = kvsnap_copy(base);

	(void)state;
	kvj_pushj(node(s, "w2"), "spec.taints", "{\"key\": "
	    "\"node.kubernetes.io/not-ready\", \"effect\": \"NoSchedule\"}");
	expect_fix(s, "the node is tainted by its condition (not ready, "
	    "unreachable or under pressure): fix the node, do not tolerate "
	    "it", false, false);
}

/* The KubeVirt CR's developerConfiguration.nodeSelectors asks for a
 * label w2 lacks: the VM cannot relax it, and kvscope says so. */
static void
test_cluster_selector_stuck(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	json_t *kv = kvsnap_find(s, KVS, "kubevirt");

	(void)state;
	kvj_setj(kv, "spec.configuration.developerConfiguration.nodeSelectors",
	    "{\"pool\": \"vms\"}");
	kvj_label(node(s, "w1"), "pool", "vms");
	expect_fix(s, "kvscope knows no edit that removes it: the label "
	    "comes from the KubeVirt CR (developerConfiguration.nodeSelectors)"
	    ", the architecture or a VM class, not from the VM", false, false);
}

/* Two nodes of a plan that need the same edit (issue 41: what-if --fix
 * all printed "fix G36 ... relax-placement nodeSelector node-pool" twice,
 * the second applied to no VMI): the edit is one change. */
static void
test_same_edit_once(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	char *dir;
	kv_model *m;
	kv_analysis *a;
	kv_group *g;
	bool *pick;
	const char *why;
	size_t n;
	kv_change *chs;

	(void)state;
	kvj_pushj(node(s, "w2"), "spec.taints", "{\"key\": \"dedicated\", "
	    "\"value\": \"db\", \"effect\": \"NoSchedule\"}");
	dir = kvsnap_write(s);
	kvsnap_load_dir(dir, &m, &a);
	g = (kv_group *)placement_group(a);
	assert_int_equal(g->fix.nsteps, 1);
	/* the same edit so that another node takes them */
	g->fix.steps = xreallocarray(g->fix.steps, 2, sizeof(kv_step));
	g->fix.steps[1] = g->fix.steps[0];
	g->fix.steps[1].node = 0;
	g->fix.nsteps = 2;
	pick = xcalloc(a->nvmis + 1, sizeof(bool));
	chs = kv_fix_changes(a, g, pick, &n, &why);
	assert_non_null(chs);
	assert_int_equal(n, 1);
	free(chs);
	free(pick);
	kv_analysis_free(a);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	kvsnap_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taint_tolerated),
		cmocka_unit_test(test_cordon_uncordoned),
		cmocka_unit_test(test_empty_term_removed),
		cmocka_unit_test(test_affinity_terms_emptied),
		cmocka_unit_test(test_affinity_requirement_dropped),
		cmocka_unit_test(test_two_failures_one_node),
		cmocka_unit_test(test_condition_taint_stuck),
		cmocka_unit_test(test_cluster_selector_stuck),
		cmocka_unit_test(test_same_edit_once),
	};

	base = build_base();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
