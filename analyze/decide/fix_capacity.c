/*
 * fix_capacity.c - the grouping of no-capacity (groups.h): VMIs whose
 * target pod would be placed on some node but finds no room there.  The
 * subject is those nodes (the ones kvscope explain answers "no room" for);
 * the fix frees room on one of them, or adds a node like them.
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/capacity.h"
#include "analyze/rules/target.h"

/* Nodes named in a group's subject before "and N more". */
#define ROOM_NAMES 5

/* The CPU-compatible nodes that pass every constraint but room. */
static void
key_capacity(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	kv_buf name = {0};
	size_t n = 0;

	(void)rule;
	KV_NODESET_FOREACH(&r->cpu_targets, node) {
		kv_buf why = {0};

		if (kv_target_explain(a, a->place, r, node, &why) &&
		    strncmp(why.data, "no room", 7) == 0 && n++ < ROOM_NAMES)
			kv_buf_printf(&name, "%s%s", n > 1 ? ", " : "",
			    a->m->nodes[node].name);
		kv_buf_free(&why);
	}
	if (n > ROOM_NAMES)
		kv_buf_printf(&name, " and %zu more", n - ROOM_NAMES);
	kv_gkey_kind(k, SUBJ_NODE);
	kv_gkey_add(k, name.data ? name.data : "no node has room");
	kv_buf_free(&name);
}

/* The largest need of the group's VMIs (what one free node must hold). */
static kv_res
largest_need(const kv_analysis *a, const kv_group *g)
{
	kv_res most = { .cpu_millis = 0 };

	for (size_t i = 0; i < g->nvmis; i++) {
		const kv_res *n = a->vmis[g->vmis[i]].need;

		if (n->cpu_millis > most.cpu_millis)
			most.cpu_millis = n->cpu_millis;
		if (n->memory > most.memory)
			most.memory = n->memory;
		if (n->pods > most.pods)
			most.pods = n->pods;
		for (int k = 0; k < KV_MAX_RESNAMES; k++)
			if (n->ext[k] > most.ext[k])
				most.ext[k] = n->ext[k];
	}
	return most;
}

/* g's plan (kv_relax_plan) but its room: the one node to free. */
static const kv_step *
room_step(const kv_analysis *a, kv_group *g)
{
	size_t k = 0;

	kv_relax_plan(a, g);
	for (size_t i = 0; i < g->fix.nsteps; i++)
		if (g->fix.steps[i].kind == STEP_FREE_ROOM)
			g->fix.steps[k++] = g->fix.steps[i];
	g->fix.nsteps = k;
	free(g->fix.stuck);
	g->fix.stuck = NULL;
	return k > 0 ? &g->fix.steps[0] : NULL;
}

static void
resolve_capacity(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);
	kv_res need = largest_need(a, g);
	char *needs = kv_res_fmt(&need);
	const kv_step *st = room_step(a, g);
	char *like = st ? xstrdup(a->m->nodes[st->node].name) :
	    xasprintf("%.*s", (int)strcspn(g->name, ", "), g->name);
	char *words = kv_relax_words(a, g);

	g->summary = xasprintf("%s would be placed on %s but %s no room for "
	    "the target pod there", who, g->name, g->nvmis == 1 ? "finds" :
	    "find");
	g->fix.action = FIX_FREE_CAPACITY;
	g->fix.value = NULL;
	g->fix.path = NULL;
	g->fix.restart = false;
	g->fix.fixes = 0;
	g->fix.text = xasprintf("Make room for the target pod of %s (it "
	    "requests up to %s; kvscope explain shows what each node has "
	    "free): %s%s; or add a node like %s (kvscope what-if SNAPSHOT "
	    "--add-node-like %s shows the result), or lower the VMs' "
	    "requests", ex, needs, words ? words : "on ", words ? "" :
	    g->name, like, like);
	free(words);
	free(like);
	free(needs);
	free(ex);
	free(who);
}

const kv_grouping kv_grp_capacity = {
	SUBJ_NODE, key_capacity, resolve_capacity,
};
