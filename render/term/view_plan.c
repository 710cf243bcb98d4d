/*
 * view_plan.c - the `plan` view (view.h): the order to drain a pool in,
 * its totals first, as lines for a person or as one JSON/YAML document
 * built from findings.json's drain entries; the drain lines are
 * view_drain.c's (drain_int.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"
#include "analyze/decide/groups.h"
#include "render/render.h"
#include "render/report.h"
#include "render/view.h"
#include "render/term/drain_int.h"

static char *
rule_text(const kv_plan *p)
{
	char *batch = p->batch == 1 ? xstrdup("Each node is drained alone "
	    "and returns to service before the next") : xasprintf("The %zu "
	    "nodes of a batch are drained together and are no targets for "
	    "each other; the batch returns to service before the next",
	    p->batch);
	char *s = xasprintf("%s nodes whose VMs have the most alternatives go "
	    "first (the fewest targets of any VM on the node that migrates, "
	    "most first), then by name; a node whose drain would leave a VM "
	    "without a target at its turn waits for a later place (up to %zu "
	    "nodes are tried per place, then the first is taken as it is). "
	    "%s, and VMs stay where they moved: a VM that migrates goes to a "
	    "node drained before and back in service when one can take it, "
	    "so it does not move again.", !p->allow_block ? "Nodes with a VM "
	    "that blocks the drain are no steps: fix their groups first "
	    "(their drain waits forever; --allow-block drains them last); the "
	    "others:" : "Nodes with a VM that blocks the drain go last (fix "
	    "their groups first: their drain waits forever); before them,",
	    p->ntries, batch);

	free(batch);
	return s;
}

static const kv_drain_row *
first_block(const kv_drain *d)
{
	for (size_t k = 0; k < d->nplan; k++)
		if (d->plan[k].action == DRAIN_BLOCK)
			return &d->plan[k];
	return NULL;
}

static json_t *
cannot_json(const kv_analysis *a, const kv_plan *p)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < p->nsteps; i++)
		for (size_t k = 0; k < p->steps[i].nnodes; k++) {
			const kv_drain *d = &p->steps[i].drains[k];
			const kv_drain_row *r = first_block(d);

			if (r == NULL)
				continue;
			json_array_append_new(arr, json_pack("{s:s, s:I, s:s, "
			    "s:s}", "node", a->m->nodes[d->node].name,
			    "step", (json_int_t)i + 1, "vmi",
			    a->vmis[r->vmi].vmi->fullname, "reason",
			    r->reason ? r->reason : "eviction-blocks-drain"));
		}
	return arr;
}

static json_t *
step_json(const kv_analysis *a, const kv_plan_step *st, size_t i)
{
	json_t *o = json_object(), *nodes = json_array();

	for (size_t k = 0; k < st->nnodes; k++)
		json_array_append_new(nodes,
		    json_string(a->m->nodes[st->nodes[k]].name));
	json_object_set_new(o, "step", json_integer((json_int_t)i + 1));
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "deferred",
	    json_integer((json_int_t)st->deferred));
	json_object_set_new(o, "estimatedSeconds",
	    json_integer((json_int_t)st->seconds));
	json_object_set_new(o, "seconds", kv_json_range(st->secs));
	json_object_set_new(o, "drain", kv_tdrain_json(a, st->drains,
	    st->nnodes));
	return o;
}

/* The VMIs on node that block its drain and the ids of their groups
 * (other than drain-*), as JSON arrays or comma lists. */
static void
fixfirst_of(const kv_analysis *a, size_t node, json_t *vmis, json_t *ids)
{
	const char *name = a->m->nodes[node].name;
	bool *in = xcalloc(a->ngroups + 1, sizeof(bool));

	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];

		if (r->on_drain != DRAIN_BLOCK || r->vmi->node == NULL ||
		    strcmp(r->vmi->node, name) != 0)
			continue;
		json_array_append_new(vmis, json_string(r->vmi->fullname));
		for (size_t k = 0; k < r->ngroups; k++)
			in[r->groups[k]] = true;
	}
	for (size_t g = 0; g < a->ngroups; g++)
		if (in[g] && strncmp(a->groups[g].code, "drain-", 6) != 0)
			json_array_append_new(ids,
			    json_string(a->groups[g].id));
	free(in);
}

/* The VMIs that block the nodes to fix first, into pick. */
static void
fixfirst_pick(const kv_analysis *a, const kv_plan *p, kv_bits *pick)
{
	for (size_t i = 0; i < a->nvmis; i++)
		for (size_t k = 0; a->vmis[i].on_drain == DRAIN_BLOCK &&
		    a->vmis[i].vmi->node != NULL && k < p->nfixfirst; k++)
			if (strcmp(a->vmis[i].vmi->node,
			    a->m->nodes[p->fixfirst[k]].name) == 0)
				kv_bits_set(pick, i);
}

static json_t *
fixfirst_json(const kv_analysis *a, const kv_plan *p)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < p->nfixfirst; i++) {
		json_t *v = json_array(), *g = json_array();

		fixfirst_of(a, p->fixfirst[i], v, g);
		json_array_append_new(arr, json_pack("{s:s, s:o, s:o}",
		    "node", a->m->nodes[p->fixfirst[i]].name, "vmis", v,
		    "groups", g));
	}
	return arr;
}

/* "a, b, c" of a JSON array of strings, on f. */
static void
put_list(FILE *f, const json_t *arr)
{
	for (size_t i = 0; i < json_array_size(arr); i++) {
		fputs(i ? ", " : "", f);
		kv_term_puts(f, json_string_value(json_array_get(arr, i)));
	}
}

/* The nodes to fix first: each with the VMIs that block it and their
 * groups. */
static void
fixfirst_lines(const kv_analysis *a, const kv_plan *p, const kv_term *t)
{
	if (p->nfixfirst == 0)
		return;
	fputs("Fix first (not drained: a VM blocks the drain; "
	    "--allow-block drains them last):\n", t->f);
	for (size_t i = 0; i < p->nfixfirst; i++) {
		json_t *v = json_array(), *g = json_array();

		fixfirst_of(a, p->fixfirst[i], v, g);
		fputs("  ", t->f);
		kv_term_paint(t, KV_C_RED, a->m->nodes[p->fixfirst[i]].name);
		fputs(": ", t->f);
		put_list(t->f, v);
		fputs(json_array_size(v) == 1 ? " blocks" : " block", t->f);
		fputs(json_array_size(g) ? " (groups " : " (no group", t->f);
		put_list(t->f, g);
		fputs(")\n", t->f);
		json_decref(v);
		json_decref(g);
	}
}

static int
plan_doc(const kv_analysis *a, const kv_plan *p, const char *pool,
    enum kv_allow allow, const kv_term *t, kv_err *err)
{
	json_t *doc = json_object(), *steps = json_array();
	size_t c[NTOTALS] = { 0, p->migrate, p->shutdown, p->block,
	    p->external, p->no_capacity, p->restart };
	kv_bits pick;
	char *rule;
	int rc;

	for (size_t i = 0; i < p->nsteps; i++) {
		json_array_append_new(steps, step_json(a, &p->steps[i], i));
		for (size_t k = 0; k < p->steps[i].nnodes; k++)
			c[0] += p->steps[i].drains[k].vmis;
	}
	json_object_set_new(doc, "kind", json_string("kvscope-plan"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(doc, "pool", json_string(pool));
	json_object_set_new(doc, "nodes", json_integer((json_int_t)p->npool));
	json_object_set_new(doc, "maxUnavailable",
	    json_integer((json_int_t)p->batch));
	json_object_set_new(doc, "capacity",
	    json_string(a->capacity_known ? "known" : "unknown"));
	kv_tdrain_allow_json(doc, allow);
	json_object_set_new(doc, "movedTwice",
	    json_integer((json_int_t)p->twice));
	rule = rule_text(p);
	json_object_set_new(doc, "rule", json_string(rule));
	free(rule);
	json_object_set_new(doc, "summary", kv_tdrain_totals_json(c, p->secs));
	json_object_set_new(doc, "steps", steps);
	json_object_set_new(doc, "cannotDrain", cannot_json(a, p));
	json_object_set_new(doc, "fixFirst", fixfirst_json(a, p));
	kv_bits_init(&pick, a->nvmis);
	for (size_t i = 0; i < p->nsteps; i++)
		kv_tdrain_vmis(p->steps[i].drains, p->steps[i].nnodes, &pick);
	fixfirst_pick(a, p, &pick);
	json_object_set_new(doc, "groups", kv_json_groups_of(a, &pick));
	kv_bits_free(&pick);
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

static void
plan_step(const kv_analysis *a, const kv_plan_step *st, size_t i,
    const kv_term *t)
{
	char *dur = fmt_range(st->secs);
	size_t moves = 0;

	fprintf(t->f, "step %zu:", i + 1);
	for (size_t k = 0; k < st->nnodes; k++) {
		fputs(k ? ", " : " ", t->f);
		kv_term_puts(t->f, a->m->nodes[st->nodes[k]].name);
		moves += st->drains[k].migrate;
	}
	if (moves == 0)		/* not "about 0 s" */
		fputs(" (no VM migrates)", t->f);
	else
		fprintf(t->f, " (%s)", dur);
	if (st->deferred > 0)
		fprintf(t->f, "; %zu %s tried first would have left a VM "
		    "without room", st->deferred, st->deferred == 1 ? "node" :
		    "nodes");
	fputs("\n", t->f);
	free(dur);
	for (size_t k = 0; k < st->nnodes; k++) {
		const kv_drain *d = &st->drains[k];

		if (d->block + d->shutdown == 0 && t->fmt != KV_OUT_WIDE)
			continue;
		kv_tdrain_line(a, d, t);
		for (size_t r = 0; r < d->nplan; r++)
			if (t->fmt == KV_OUT_WIDE ||
			    d->plan[r].action == DRAIN_BLOCK ||
			    d->plan[r].action == DRAIN_SHUTDOWN)
				kv_tdrain_row(a, &d->plan[r], t);
	}
}

/* The nodes whose drain cannot succeed, with the first reason. */
static void
cannot_lines(const kv_analysis *a, const kv_plan *p, const kv_term *t)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nsteps; i++)
		for (size_t k = 0; k < p->steps[i].nnodes; k++) {
			const kv_drain *d = &p->steps[i].drains[k];
			const kv_drain_row *r = first_block(d);

			if (r == NULL)
				continue;
			if (n++ == 0)
				fputs("Nodes whose drain cannot succeed:\n",
				    t->f);
			fputs("  ", t->f);
			kv_term_paint(t, KV_C_RED, a->m->nodes[d->node].name);
			fprintf(t->f, " (step %zu): ", i + 1);
			kv_term_puts(t->f, a->vmis[r->vmi].vmi->fullname);
			fprintf(t->f, " waits forever (%s)", r->reason ?
			    r->reason : "eviction-blocks-drain");
			if (d->block > 1)
				fprintf(t->f, ", and %zu more", d->block - 1);
			fputs("\n", t->f);
		}
	if (n == 0 && p->nfixfirst == 0)
		fputs("Every node's drain can finish.\n", t->f);
}

/* -o wide: every VM that moves, with each of its moves across the plan
 * (source -> target and the step), in VMI order. */
static void
moves_lines(const kv_analysis *a, const kv_plan *p, const kv_term *t)
{
	kv_buf *b = xcalloc(a->nvmis + 1, sizeof(kv_buf));
	size_t n = 0;

	for (size_t i = 0; i < p->nsteps; i++)
		for (size_t k = 0; k < p->steps[i].nnodes; k++) {
			const kv_drain *d = &p->steps[i].drains[k];

			for (size_t r = 0; r < d->nplan; r++) {
				const kv_drain_row *w = &d->plan[r];
				bool stop = w->action == DRAIN_SHUTDOWN;
				size_t to = stop ? w->restart_node : w->target;

				if ((!stop && w->action != DRAIN_MIGRATE) ||
				    to == SIZE_MAX)
					continue;
				kv_buf_printf(&b[w->vmi], "%s%s -> %s (step "
				    "%zu%s)", b[w->vmi].data ? ", " : "",
				    a->m->nodes[w->source].name,
				    a->m->nodes[to].name, i + 1, stop ?
				    ", stops and starts again" : "");
			}
		}
	for (size_t i = 0; i < a->nvmis; i++) {
		if (b[i].data == NULL)
			continue;
		if (n++ == 0)
			fputs("Moves of each VM across the plan:\n", t->f);
		fputs("  ", t->f);
		kv_term_puts(t->f, a->vmis[i].vmi->fullname);
		fputs(": ", t->f);
		kv_term_puts(t->f, b[i].data);
		fputs("\n", t->f);
		kv_buf_free(&b[i]);
	}
	free(b);
}

int
kv_view_plan(const kv_analysis *a, const kv_plan *p, const char *pool,
    enum kv_allow allow, double window, const kv_term *t, kv_err *err)
{
	char *rule, *dur, acc[64] = "", unk[48];
	size_t ok = kv_tdrain_accepted(allow, p->shutdown, p->restart);
	size_t nunk = 0;
	const char *why = NULL;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return plan_doc(a, p, pool, allow, t, err);
	fputs("Rolling drain of the pool ", t->f);
	kv_term_puts(t->f, pool);
	fprintf(t->f, ": %zu %s, %zu at a time, each batch back in service "
	    "before the next.\n", p->npool, p->npool == 1 ? "node" : "nodes",
	    p->batch);
	dur = fmt_range(p->secs);	/* the totals first, then the steps */
	if (ok > 0)
		snprintf(acc, sizeof(acc), ok == p->shutdown ? " (accepted)" :
		    " (%zu accepted)", ok);
	snprintf(unk, sizeof(unk), ", %zu unknown", p->restart_unknown);
	fprintf(t->f, "Total: %zu %s, %s; %zu migrate, %zu stop%s "
	    "(%zu %s again%s), %zu block (%zu for want of room), %zu "
	    "external.\n", p->nsteps, p->nsteps == 1 ? "step" : "steps", dur,
	    p->migrate, p->shutdown, acc, p->restart, p->restart == 1 ?
	    "starts" : "start", p->restart_unknown ? unk : "", p->block,
	    p->no_capacity, p->external);
	free(dur);
	for (size_t i = 0; i < p->nsteps; i++)
		nunk += kv_tdrain_unknown(p->steps[i].drains,
		    p->steps[i].nnodes, &why);
	kv_tdrain_unknown_note(nunk, why, allow, t);
	if (p->twice > 0)
		fprintf(t->f, "%zu VM%s move%s twice: at %s first move no node "
		    "drained before could take %s, so %s went to a node "
		    "drained later.\n", p->twice, p->twice == 1 ? "" : "s",
		    p->twice == 1 ? "s" : "", p->twice == 1 ? "its" : "their",
		    p->twice == 1 ? "it" : "them", p->twice == 1 ? "it" :
		    "they");
	if (window > 0)
		kv_term_window_total(a, p->secs, window,
		    kv_plan_window_fails(p, window), t);
	rule = rule_text(p);
	fprintf(t->f, "Order: %s\n", rule);
	free(rule);
	kv_tdrain_words(a, t);
	kv_tdrain_room(a, t);
	for (size_t i = 0; i < p->nsteps; i++) {
		plan_step(a, &p->steps[i], i, t);
		kv_term_window(a, p->steps[i].drains, p->steps[i].nnodes,
		    t);
	}
	if (t->fmt == KV_OUT_WIDE)
		moves_lines(a, p, t);
	fixfirst_lines(a, p, t);
	cannot_lines(a, p, t);
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
