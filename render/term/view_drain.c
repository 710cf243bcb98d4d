/*
 * view_drain.c - the views of drains (view.h): `check --drain` (what a
 * drain of a set of nodes does with each VMI on them) and `plan` (the
 * order to drain a pool in), as lines for a person or as one JSON/YAML
 * document built from findings.json's drain entries.  Words that differ
 * between platforms come from the flavor row's vocabulary.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"
#include "analyze/decide/groups.h"
#include "render/render.h"
#include "render/report.h"
#include "render/view.h"

static const char *
action_word(enum kv_on_drain a)
{
	switch (a) {
	case DRAIN_MIGRATE:
		return "migrates";
	case DRAIN_SHUTDOWN:
		return "stops";
	case DRAIN_BLOCK:
		return "blocks the drain, waits forever";
	case DRAIN_EXTERNAL:
		return "left to its external controller";
	default:
		return "-";
	}
}

static enum kv_color
action_color(enum kv_on_drain a)
{
	return a == DRAIN_MIGRATE ? KV_C_GREEN : a == DRAIN_SHUTDOWN ?
	    KV_C_YELLOW : a == DRAIN_BLOCK ? KV_C_RED : KV_C_NONE;
}

/* After "stops": ", starts again on w3 (runStrategy Always", " and
 * stays down (runStrategy Manual" or "; whether it starts again is
 * unknown (VirtualMachines not in the input", the parenthesis left
 * open. */
static void
restart_words(const kv_analysis *a, const kv_drain_row *row, FILE *f)
{
	if (row->restart_unknown)
		fprintf(f, "; whether it starts again is unknown (%s",
		    row->restart_why);
	else if (row->restart) {
		fputs(", starts again on ", f);
		kv_term_place(f, a, row->restart_node);
		fprintf(f, " (%s", row->restart_why);
	} else
		fprintf(f, " and stays down (%s%s", row->restart_why,
		    row->no_node ? ", but no node can run it" : "");
}

/* Whether row holds a VMI that migrates from its node alone but finds
 * no node left in this drain: its targets are drained too, or full. */
static bool
lost_row(const kv_analysis *a, const kv_drain_row *row)
{
	return a->vmis[row->vmi].verdict == V_OK &&
	    (row->action == DRAIN_BLOCK || (row->action == DRAIN_SHUTDOWN &&
	    row->no_node));
}

/* "  ns/vm: migrates to w4", "  ns/vm: migrates to w4, room not checked"
 * (no room data: the first of its targets), "  ns/vm: stops and stays
 * down (runStrategy Manual; eviction-shutdown)" */
static void
row_line(const kv_analysis *a, const kv_drain_row *row, const kv_term *t)
{
	FILE *f = t->f;
	bool open = row->action == DRAIN_SHUTDOWN && row->restart_why != NULL;

	fputs("    ", f);
	kv_term_puts(f, a->vmis[row->vmi].vmi->fullname);
	fputs(": ", f);
	kv_term_paint(t, action_color(row->action), action_word(row->action));
	if (row->target != SIZE_MAX) {
		fputs(" to ", f);
		kv_term_place(f, a, row->target);
	}
	if (open)
		restart_words(a, row, f);
	if (row->reason != NULL) {
		fputs(open ? "; " : " (", f);
		kv_term_paint(t, KV_C_BOLD, row->reason);
		open = true;
	}
	fputs(open ? ")\n" : "\n", f);
}

/* "w2: 3 VMIs, 2 migrate, 1 stop, 0 block, 0 external; about 42 s" */
static void
drain_line(const kv_analysis *a, const kv_drain *d, const kv_term *t)
{
	char *mem = kv_fmt_bytes(d->memory), *dur = fmt_range(d->secs);

	fputs("  ", t->f);
	kv_term_paint(t, KV_C_BOLD, a->m->nodes[d->node].name);
	fprintf(t->f, ": %zu %s, %zu migrate, %zu stop", d->vmis,
	    kv_word(a, d->vmis == 1 ? KV_WORD_VM : KV_WORD_VMS), d->migrate,
	    d->shutdown);
	if (d->restart > 0 && d->restart_unknown == 0)
		fprintf(t->f, " (%zu %s again)", d->restart, d->restart == 1 ?
		    "starts" : "start");
	else if (d->restart_unknown > 0)
		fprintf(t->f, " (%zu %s again, %zu unknown)", d->restart,
		    d->restart == 1 ? "starts" : "start", d->restart_unknown);
	fprintf(t->f, ", %zu block", d->block);
	if (d->no_capacity > 0)
		fprintf(t->f, " (%zu for want of room)", d->no_capacity);
	if (d->migrate == 0)
		fprintf(t->f, ", %zu external; nothing to move\n",
		    d->external);
	else
		fprintf(t->f, ", %zu external; %s to move %s\n",
		    d->external, dur, mem);
	free(mem);
	free(dur);
}

/* The capacity state, once. */
static void
room_note(const kv_analysis *a, const kv_term *t)
{
	if (a->capacity_known)
		fputs("Room checked: every pod's requests against each node's "
		    "allocatable; each placement uses up its target's room.\n",
		    t->f);
	else
		fprintf(t->f, "Room on the targets not checked: %s, so each "
		    "%s goes to the first of its targets (in a plan, of those "
		    "drained before if any).\n", a->lacking &
		    KV_NEED_BIT(NEED_PODS) ? "pods are not in the input" :
		    "the snapshot holds only the launcher pods",
		    kv_word(a, KV_WORD_VM));
}

/* Without room data the targets are nominal: when two or more VMIs of
 * drains d[0..n) go to one node (to migrate or to start again), one
 * line names the node that takes the most, and their memory. */
static void
pile_note(const kv_analysis *a, const kv_drain *d, size_t n,
    const kv_term *t)
{
	size_t *cnt, top = SIZE_MAX, piles = 0;
	int64_t *mem;

	if (a->capacity_known)
		return;
	cnt = xcalloc(a->m->nnodes + 1, sizeof(size_t));
	mem = xcalloc(a->m->nnodes + 1, sizeof(int64_t));
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++) {
			const kv_drain_row *r = &d[i].plan[k];
			size_t to = r->target != SIZE_MAX ? r->target :
			    r->action == DRAIN_SHUTDOWN && r->restart ?
			    r->restart_node : SIZE_MAX;

			if (to == SIZE_MAX)
				continue;
			if (++cnt[to] == 2)
				piles++;
			mem[to] = kv_sat_addmul(mem[to],
			    a->vmis[r->vmi].memory, 1);
			if (top == SIZE_MAX || cnt[to] > cnt[top])
				top = to;
		}
	if (piles > 0) {
		char *gib = kv_fmt_bytes(mem[top]);

		fprintf(t->f, "Placement nominal: %zu %s (%s) go to ",
		    cnt[top], kv_word(a, KV_WORD_VMS), gib);
		kv_term_puts(t->f, a->m->nodes[top].name);
		if (piles > 1)
			fprintf(t->f, " (and %zu more %s take several)",
			    piles - 1, piles == 2 ? "node" : "nodes");
		fputs(", the first target of each; room was not checked, so "
		    "the drain may spread them or find no room.\n", t->f);
		free(gib);
	}
	free(cnt);
	free(mem);
}

/* Drains d[0..n) together that leave VMIs which migrate from their node
 * alone without a node: more nodes than can drain at once; `plan`
 * orders them in batches. */
static void
plan_note(const kv_analysis *a, const kv_drain *d, size_t n,
    const kv_term *t)
{
	size_t lost = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++)
			lost += lost_row(a, &d[i].plan[k]);
	if (n < 2 || lost == 0)
		return;
	fprintf(t->f, "%zu %s that migrate%s when %s node drains alone find "
	    "no node left here: %zu nodes cannot drain at once; `kvscope "
	    "plan SNAPSHOT --drain LIST --max-unavailable N` drains them in "
	    "batches.\n", lost, kv_word(a, lost == 1 ? KV_WORD_VM :
	    KV_WORD_VMS), lost == 1 ? "s" : "", lost == 1 ? "its" : "their",
	    n);
}

static void
words_note(const kv_analysis *a, const kv_term *t)
{
	const kv_vocab *v = a->m->flavor->vocab;

	fprintf(t->f, "As %s handle it (%s decides); %s.\n", kv_drain_by(a),
	    v->strategy, v->target_wait);
}

static json_t *
drains_json(const kv_analysis *a, const kv_drain *d, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, kv_json_drain(a, &d[i]));
	return arr;
}

#define NTOTALS 7		/* the keys of totals_json */

static void
totals(const kv_drain *d, size_t n, size_t *c)
{
	memset(c, 0, NTOTALS * sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		c[0] += d[i].vmis;
		c[1] += d[i].migrate;
		c[2] += d[i].shutdown;
		c[3] += d[i].block;
		c[4] += d[i].external;
		c[5] += d[i].no_capacity;
		c[6] += d[i].restart;
	}
}

static json_t *
totals_json(const size_t *c, const double secs[2])
{
	static const char *const keys[NTOTALS] = { "vmis", "migrate",
	    "shutdown", "block", "external", "noCapacity", "restart" };
	json_t *o = json_object();

	for (size_t i = 0; i < NTOTALS; i++)
		json_object_set_new(o, keys[i], json_integer((json_int_t)c[i]));
	json_object_set_new(o, "estimatedSeconds",
	    json_integer((json_int_t)ceil(secs[1])));
	json_object_set_new(o, "seconds", kv_json_range(secs));
	return o;
}

static void
allow_json(json_t *doc, enum kv_allow allow)
{
	json_object_set_new(doc, "allowShutdown",
	    json_boolean(allow == ALLOW_SHUTDOWN));
	json_object_set_new(doc, "allowRestart",
	    json_boolean(allow != ALLOW_NONE));
}

/* The stops allow accepts, of c's. */
static size_t
accepted(enum kv_allow allow, size_t stops, size_t restarts)
{
	return allow == ALLOW_SHUTDOWN ? stops : allow == ALLOW_RESTART ?
	    restarts : 0;
}

/* The stops of drains d[0..n) whose restart is unknown; *why: the
 * first one's reason. */
static size_t
unknown_stops(const kv_drain *d, size_t n, const char **why)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++)
			if (d[i].plan[k].restart_unknown) {
				*why = *why ? *why : d[i].plan[k].restart_why;
				c++;
			}
	return c;
}

/* --allow-restart and c stops whose restart is unknown: one line saying
 * they are not accepted, and why. */
static void
unknown_note(size_t c, const char *why, enum kv_allow allow,
    const kv_term *t)
{
	if (allow == ALLOW_RESTART && c > 0)
		fprintf(t->f, "--allow-restart: %zu %s whose restart is "
		    "unknown (%s) %s not accepted\n", c, c == 1 ? "stop" :
		    "stops", why ? why : "-", c == 1 ? "is" : "are");
}

/* The VMIs of drains d[0..n) into pick (sized a->nvmis). */
static void
drain_vmis(const kv_drain *d, size_t n, kv_bits *pick)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++)
			kv_bits_set(pick, d[i].plan[k].vmi);
}

static json_t *
drain_groups(const kv_analysis *a, const kv_drain *d, size_t n,
    kv_bits *pick)
{
	json_t *g;

	kv_bits_init(pick, a->nvmis);
	drain_vmis(d, n, pick);
	g = kv_json_groups_of(a, pick);
	kv_bits_free(pick);
	return g;
}

static int
drain_doc(const kv_analysis *a, const kv_drain *d, size_t n,
    const double secs[2], double window, enum kv_allow allow,
    const kv_term *t, kv_err *err)
{
	json_t *doc = json_object(), *nodes = json_array();
	size_t c[NTOTALS];
	kv_bits pick;
	int rc;

	totals(d, n, c);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(nodes,
		    json_string(a->m->nodes[d[i].node].name));
	json_object_set_new(doc, "kind", json_string("kvscope-drain"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(doc, "nodes", nodes);
	json_object_set_new(doc, "capacity",
	    json_string(a->capacity_known ? "known" : "unknown"));
	allow_json(doc, allow);
	json_object_set_new(doc, "summary", totals_json(c, secs));
	json_object_set_new(doc, "window", kv_json_window_drain(a, d, n,
	    secs, window));
	json_object_set_new(doc, "drain", drains_json(a, d, n));
	json_object_set_new(doc, "groups", drain_groups(a, d, n, &pick));
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

int
kv_view_drain(const kv_analysis *a, const kv_drain *d, size_t n,
    const double secs[2], double window, enum kv_allow allow,
    const kv_term *t, kv_err *err)
{
	size_t c[NTOTALS], bad, ok, nunk;
	char *dur, acc[64] = "";
	const char *why;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return drain_doc(a, d, n, secs, window, allow, t, err);
	totals(d, n, c);
	if (n == 1)
		fputs("kubectl drain of 1 node:\n", t->f);
	else
		fprintf(t->f, "kubectl drain of %zu nodes together (none is a "
		    "target for another):\n", n);
	for (size_t i = 0; i < n; i++) {
		drain_line(a, &d[i], t);
		for (size_t k = 0; k < d[i].nplan; k++)
			row_line(a, &d[i].plan[k], t);
	}
	words_note(a, t);
	room_note(a, t);
	pile_note(a, d, n, t);
	plan_note(a, d, n, t);
	kv_term_window(a, d, n, secs, window, t);
	why = NULL;
	nunk = unknown_stops(d, n, &why);
	unknown_note(nunk, why, allow, t);
	dur = fmt_range(secs);
	ok = accepted(allow, c[2], c[6]);
	bad = c[3] + c[2] - ok;
	if (ok > 0)
		snprintf(acc, sizeof(acc), " (%zu %s accepted)", ok,
		    ok == 1 ? "stop" : "stops");
	fprintf(t->f, "%zu of %zu %s on the drained %s would %s the drain%s; "
	    "%zu %s in %s\n", bad, c[0],
	    kv_word(a, c[0] == 1 ? KV_WORD_VM : KV_WORD_VMS),
	    n == 1 ? "node" : "nodes", allow == ALLOW_SHUTDOWN ? "block" :
	    "stop or block", acc, c[1], c[1] == 1 ? "migrates" : "migrate",
	    dur);
	free(dur);
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}

/* --- plan --------------------------------------------------------------- */

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
	json_object_set_new(o, "drain", drains_json(a, st->drains,
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
	allow_json(doc, allow);
	json_object_set_new(doc, "movedTwice",
	    json_integer((json_int_t)p->twice));
	rule = rule_text(p);
	json_object_set_new(doc, "rule", json_string(rule));
	free(rule);
	json_object_set_new(doc, "summary", totals_json(c, p->secs));
	json_object_set_new(doc, "steps", steps);
	json_object_set_new(doc, "cannotDrain", cannot_json(a, p));
	json_object_set_new(doc, "fixFirst", fixfirst_json(a, p));
	kv_bits_init(&pick, a->nvmis);
	for (size_t i = 0; i < p->nsteps; i++)
		drain_vmis(p->steps[i].drains, p->steps[i].nnodes, &pick);
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
		drain_line(a, d, t);
		for (size_t r = 0; r < d->nplan; r++)
			if (t->fmt == KV_OUT_WIDE ||
			    d->plan[r].action == DRAIN_BLOCK ||
			    d->plan[r].action == DRAIN_SHUTDOWN)
				row_line(a, &d->plan[r], t);
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
	size_t ok = accepted(allow, p->shutdown, p->restart), nunk = 0;
	const char *why = NULL;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return plan_doc(a, p, pool, allow, t, err);
	fputs("Rolling drain of the pool ", t->f);
	kv_term_puts(t->f, pool);
	fprintf(t->f, ": %zu %s, %zu at a time, each batch back in service "
	    "before the next.\n", p->npool, p->npool == 1 ? "node" : "nodes",
	    p->batch);
	rule = rule_text(p);
	fprintf(t->f, "Order: %s\n", rule);
	free(rule);
	words_note(a, t);
	room_note(a, t);
	for (size_t i = 0; i < p->nsteps; i++) {
		plan_step(a, &p->steps[i], i, t);
		kv_term_window(a, p->steps[i].drains, p->steps[i].nnodes,
		    p->steps[i].secs, 0, t);
	}
	if (window > 0)
		kv_term_window_total(a, p->secs, window,
		    kv_plan_window_fails(p, window), t);
	dur = fmt_range(p->secs);
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
		nunk += unknown_stops(p->steps[i].drains, p->steps[i].nnodes,
		    &why);
	unknown_note(nunk, why, allow, t);
	if (p->twice > 0)
		fprintf(t->f, "%zu VM%s move%s twice: at %s first move no node "
		    "drained before could take %s, so %s went to a node "
		    "drained later.\n", p->twice, p->twice == 1 ? "" : "s",
		    p->twice == 1 ? "s" : "", p->twice == 1 ? "its" : "their",
		    p->twice == 1 ? "it" : "them", p->twice == 1 ? "it" :
		    "they");
	if (t->fmt == KV_OUT_WIDE)
		moves_lines(a, p, t);
	fixfirst_lines(a, p, t);
	cannot_lines(a, p, t);
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
