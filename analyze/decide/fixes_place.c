/*
 * fixes_place.c - the groupings of placement, operations and conditions
 * (groups.h), and the groups without a rule row: drain-shutdown,
 * and condition-false (drain-block: fix_drain.c).
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/target.h"

/* CPU-compatible nodes asked for their failing constraint per VMI: the
 * name of a placement group is what they say. */
#define PLACE_SAMPLE 64

/* The constraint in kvscope explain's words, without what is particular
 * to one node or pod (free memory, pod names). */
static void
normalize(const char *why, kv_buf *out)
{
	if (strncmp(why, "not enough memory", 17) == 0)
		kv_buf_printf(out, "not enough free memory");
	else if (strncmp(why, "cordoned", 8) == 0)
		kv_buf_printf(out, "cordoned");
	else if (strstr(why, "persistent reservation") != NULL)
		kv_buf_printf(out, "a LUN reservation held on the node");
	else if (strncmp(why, "runs pod ", 9) == 0)
		kv_buf_printf(out, "runs a pod of this VMI");
	else if (strncmp(why, "no room: no ", 12) == 0 ||
	    strncmp(why, "no room: not enough ", 20) == 0)
		/* the resource, not the node's figures */
		kv_buf_printf(out, "%.*s", (int)strcspn(why + 9, ":") + 9,
		    why);
	else
		kv_buf_printf(out, "%s", why);
}

static int
str_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void
key_placement(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	char *why[PLACE_SAMPLE];
	size_t n = 0, seen = 0;
	kv_buf name = {0};

	(void)rule;
	KV_NODESET_FOREACH(&r->cpu_targets, node) {
		kv_buf b = {0}, norm = {0};
		size_t j;

		if (seen++ == PLACE_SAMPLE)
			break;
		if (!kv_target_explain(a, a->place, r, node, &b)) {
			kv_buf_free(&b);
			continue;
		}
		normalize(b.data, &norm);
		kv_buf_free(&b);
		for (j = 0; j < n && strcmp(why[j], norm.data) != 0; j++)
			;
		if (j < n || n == PLACE_SAMPLE)
			kv_buf_free(&norm);
		else
			why[n++] = norm.data;
	}
	qsort(why, n, sizeof(char *), str_cmp);
	for (size_t j = 0; j < n; j++) {
		kv_buf_printf(&name, "%s%s", j ? "; " : "", why[j]);
		free(why[j]);
	}
	kv_gkey_add(k, name.data ? name.data : "no node passes");
	kv_buf_free(&name);
}

/* The CPU-compatible nodes of g's VMIs, up to five, for the text. */
static char *
cpu_nodes(const kv_analysis *a, const kv_group *g)
{
	bool *in = xcalloc(a->m->nnodes + 1, sizeof(bool));
	kv_buf b = {0};
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++)
		KV_NODESET_FOREACH(&a->vmis[g->vmis[k]].cpu_targets, node)
			in[node] = true;
	for (size_t i = 0; i < a->m->nnodes; i++)
		if (in[i] && n++ < 5)
			kv_buf_printf(&b, "%s%s", n > 1 ? ", " : "",
			    a->m->nodes[i].name);
	if (n > 5)
		kv_buf_printf(&b, ", ... (%zu in all)", n);
	free(in);
	return b.data ? b.data : xstrdup("-");
}

/* Whether step st edits the VMs (a restart brings it) and its path. */
static bool
vm_step(const kv_step *st, enum kv_vm_path *path)
{
	switch (st->kind) {
	case STEP_DROP_SELECTOR:
		*path = VMPATH_NODE_SELECTOR;
		return true;
	case STEP_TOLERATE:
		*path = VMPATH_TOLERATIONS;
		return true;
	case STEP_DROP_AFFINITY:
	case STEP_DROP_EMPTY:
	case STEP_POD_AFFINITY:
	case STEP_POD_ANTI:
		*path = VMPATH_AFFINITY;
		return true;
	case STEP_SPREAD:
		*path = VMPATH_POD;
		return true;
	default:
		return false;
	}
}

/* g's fix from its plan (kv_relax_plan): the edits, the restart they
 * need, what they cannot change. */
static void
placement_fix(const kv_analysis *a, kv_group *g, const char *nodes,
    const char *ex)
{
	const kv_fixrow *fr = a->m->flavor->fix;
	char *words = kv_relax_words(a, g);
	bool rooms = g->fix.nsteps > 0;
	enum kv_vm_path path = VMPATH_COUNT;

	g->fix.restart = false;
	for (size_t i = 0; i < g->fix.nsteps; i++) {
		enum kv_vm_path p;

		rooms &= g->fix.steps[i].kind == STEP_FREE_ROOM;
		if (vm_step(&g->fix.steps[i], &p)) {
			g->fix.restart = true;
			/* edits of several paths: the pod part holds them */
			path = path == VMPATH_COUNT || path == p ? p :
			    VMPATH_POD;
		}
	}
	g->fix.action = rooms ? FIX_FREE_CAPACITY : FIX_RELAX_PLACEMENT;
	g->fix.path = path == VMPATH_COUNT ? NULL : fr->paths[path];
	if (words == NULL)
		g->fix.text = xasprintf("The CPU-compatible nodes (%s) fail %s "
		    "for the VMs (%s), and kvscope knows no edit that removes "
		    "it: %s", nodes, g->name, ex, g->fix.stuck ? g->fix.stuck :
		    "see kvscope explain");
	else
		g->fix.text = xasprintf("The CPU-compatible nodes (%s) fail %s "
		    "for the VMs (%s): %s%s%s%s", nodes, g->name, ex, words,
		    g->fix.restart ? ", then restart them" : "",
		    g->fix.stuck ? "; kvscope cannot change the rest: " : "",
		    g->fix.stuck ? g->fix.stuck : "");
	free(words);
}

static void
resolve_placement(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *nodes = cpu_nodes(a, g), *ex = kv_group_examples(a, g, 5);

	g->summary = xasprintf("%s %s CPU-compatible nodes, but none "
	    "passes: %s", who, kv_group_verb(g, "have"), g->name);
	g->fix.fixes = 0;
	kv_relax_plan(a, g);
	placement_fix(a, g, nodes, ex);
	free(who);
	free(nodes);
	free(ex);
}

const kv_grouping kv_grp_placement = {
	SUBJ_PLACEMENT, key_placement, resolve_placement,
};

/* --- operations and conditions (Deckhouse) ------------------------------ */

static void
key_operation(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	for (size_t i = 0; i < r->facts.nops; i++)
		kv_gkey_addf(k, "%s %s", r->facts.ops[i].type,
		    *r->facts.ops[i].phase ? r->facts.ops[i].phase :
		    "(no phase)");
}

static char *
group_ops(const kv_analysis *a, const kv_group *g)
{
	kv_buf b = {0};
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];

		for (size_t i = 0; i < r->facts.nops; i++)
			if (n++ < 5)
				kv_buf_printf(&b, "%s%s/%s", n > 1 ? ", " : "",
				    r->facts.ops[i].ns, r->facts.ops[i].name);
	}
	return b.data ? b.data : xstrdup("-");
}

static void
resolve_operation(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g), *ops = group_ops(a, g);

	g->summary = xasprintf("%s %s for an unfinished %s operation",
	    who, kv_group_verb(g, "wait"), g->name);
	g->fix.action = FIX_WAIT_OPERATION;
	g->fix.value = xstrdup(g->name);
	g->fix.fixes = g->nvmis;
	g->fix.text = xasprintf("Wait for the operations (%s) to finish, or "
	    "delete them while Pending or InProgress to cancel them; then "
	    "migrate (%s)", ops, a->m->flavor->fix->migrate_cli);
	free(who);
	free(ops);
}

const kv_grouping kv_grp_operation = {
	SUBJ_OPERATION, key_operation, resolve_operation,
};

static void
key_force(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	kv_gkey_addf(k, "liveMigrationPolicy %s", r->facts.policy ?
	    r->facts.policy : "?");
}

static void
resolve_force(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g), *ops = group_ops(a, g);

	g->summary = xasprintf("%s %s a pending operation whose force "
	    "contradicts %s", who, kv_group_verb(g, "have"), g->name);
	g->fix.action = FIX_NONE;
	g->fix.path = "spec.liveMigrationPolicy";
	g->fix.text = xasprintf("The operations (%s) fail as created: %s",
	    ops, kv_group_remedy(a, g));
	free(who);
	free(ops);
}

const kv_grouping kv_grp_force = { SUBJ_OPERATION, key_force, resolve_force };

static void
key_condition(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	kv_gkey_addf(k, "%s=%s%s%s", r->cond_type, r->cond == 'F' ? "False" :
	    r->cond == 'T' ? "True" : "absent", r->cond_reason ? ": " : "",
	    r->cond_reason ? r->cond_reason : "");
}

static void
resolve_condition(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g), *ex = kv_group_examples(a, g,
	    5);
	const char *title = g->code, *fix = NULL;

	if (g->rule != NULL)
		kv_rule_words_of(g->rule, a->m->flavor, &title, &fix);
	g->summary = xasprintf("%s: %s (%s)", who, title, g->name);
	g->fix.action = FIX_NONE;
	g->fix.text = xasprintf("%s (%s)", fix ? fix : "Read the "
	    "condition's message and remove its cause", ex);
	free(who);
	free(ex);
}

const kv_grouping kv_grp_condition = {
	SUBJ_CONDITION, key_condition, resolve_condition,
};

static void
resolve_condition_false(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g), *ex = kv_group_examples(a, g,
	    5);

	g->summary = xasprintf("%s: KubeVirt reports %s, for a reason no "
	    "check of kvscope explains", who, g->name);
	g->fix.action = FIX_NONE;
	g->fix.text = xasprintf("Nothing kvscope can name: the cause is on "
	    "the node or in the guest. Read the condition's message (kubectl "
	    "get vmi -o yaml) of %s and remove its cause", ex);
	free(who);
	free(ex);
}

const kv_grouping kv_grp_condition_false = {
	SUBJ_CONDITION, NULL, resolve_condition_false,
};

/* --- drain -------------------------------------------------------------- */

/* How many of g's VMIs could migrate (verdict ok). */
static size_t
movable(const kv_analysis *a, const kv_group *g)
{
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++)
		n += a->vmis[g->vmis[k]].verdict == V_OK;
	return n;
}

/* The names of up to five VMIs of g that can migrate. */
static char *
movable_names(const kv_analysis *a, const kv_group *g)
{
	kv_buf b = {0};
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++)
		if (a->vmis[g->vmis[k]].verdict == V_OK && n++ < 5)
			kv_buf_printf(&b, "%s%s", n > 1 ? ", " : "",
			    a->vmis[g->vmis[k]].vmi->fullname);
	if (n > 5)
		kv_buf_printf(&b, ", ... (%zu in all)", n);
	return b.data ? b.data : xstrdup("-");
}

static void
resolve_drain_shutdown(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g), *nodes = kv_group_node_list(a,
	    g), *others = kv_drain_blockers(a, g, NULL);
	size_t ok = movable(a, g);
	bool ifpossible = strcmp(g->name, "LiveMigrateIfPossible") == 0;

	g->summary = xasprintf("%s %s when %s node is drained "
	    "(evictionStrategy %s)", who, kv_group_verb(g, "stop"),
	    g->nvmis == 1 ? "its" : "their", g->name);
	g->fix.path = a->m->flavor->fix->paths[VMPATH_EVICTION];
	if (ok == 0 || ifpossible) {
		/* no change to make: nothing to restart for.  External
		 * keeps them running, but the webhook refuses the eviction
		 * and only marks the VMI (status.evacuationNodeName) for a
		 * controller of the user's: KubeVirt migrates nothing and
		 * the drain waits (v1.9.0 pod-eviction-admitter.go:138-162;
		 * rules-kubevirt.md §5); LiveMigrate makes it wait too */
		g->fix.action = FIX_NONE;
		g->fix.restart = false;
		g->fix.text = xasprintf("The VMs will stop: a drain of %s "
		    "evicts them, and %s (groups %s), so no other eviction "
		    "strategy moves them: with LiveMigrate the drain waits "
		    "forever, and with External they keep running but "
		    "KubeVirt refuses the eviction, marks the VMIs "
		    "(status.evacuationNodeName) for a controller of yours and "
		    "migrates nothing, so the drain waits until that "
		    "controller moves or stops them; plan their downtime or "
		    "fix those groups first", nodes, ifpossible ? "KubeVirt "
		    "does not report them LiveMigratable" : "none of them can "
		    "migrate", others);
	} else {
		g->fix.action = FIX_SET_EVICTION;
		g->fix.restart = true;
		g->fix.value = xstrdup("LiveMigrate");
		g->fix.fixes = ok;
		g->fix.pick = xcalloc(g->nvmis + 1, sizeof(bool));
		for (size_t k = 0; k < g->nvmis; k++)
			g->fix.pick[k] = a->vmis[g->vmis[k]].verdict == V_OK;
		char *mv = movable_names(a, g);

		g->fix.text = xasprintf("Set %s: LiveMigrate in the "
		    "VirtualMachines that can migrate (%s) and restart "
		    "them, so a drain of %s moves them (setting "
		    "spec.configuration.evictionStrategy in the KubeVirt CR "
		    "covers new VMs only)%s%s%s", g->fix.path, mv, nodes,
		    ok < g->nvmis ? "; the other VMs cannot migrate (groups " :
		    "", ok < g->nvmis ? others : "", ok < g->nvmis ? ") and "
		    "will stop whatever the strategy" : "");
		free(mv);
	}
	free(who);
	free(nodes);
	free(others);
}

const kv_grouping kv_grp_drain_shutdown = {
	SUBJ_EVICTION, NULL, resolve_drain_shutdown,
};
