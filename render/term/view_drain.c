/*
 * view_drain.c - the view of `check --drain` (view.h): what a drain of
 * a set of nodes does with each VMI on them, its totals first, as lines
 * for a person or as one JSON/YAML document built from findings.json's
 * drain entries; the lines and notes view_plan.c shares (drain_int.h).
 * Words that differ between platforms come from the flavor row's
 * vocabulary.
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
#include "render/term/drain_int.h"

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
void
kv_tdrain_row(const kv_analysis *a, const kv_drain_row *row,
    const kv_term *t)
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
void
kv_tdrain_line(const kv_analysis *a, const kv_drain *d, const kv_term *t)
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
void
kv_tdrain_room(const kv_analysis *a, const kv_term *t)
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

void
kv_tdrain_words(const kv_analysis *a, const kv_term *t)
{
	const kv_vocab *v = a->m->flavor->vocab;

	fprintf(t->f, "As %s handle it (%s decides); %s.\n", kv_drain_by(a),
	    v->strategy, v->target_wait);
}

json_t *
kv_tdrain_json(const kv_analysis *a, const kv_drain *d, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, kv_json_drain(a, &d[i]));
	return arr;
}


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

json_t *
kv_tdrain_totals_json(const size_t *c, const double secs[2])
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

void
kv_tdrain_allow_json(json_t *doc, enum kv_allow allow)
{
	json_object_set_new(doc, "allowShutdown",
	    json_boolean(allow == ALLOW_SHUTDOWN));
	json_object_set_new(doc, "allowRestart",
	    json_boolean(allow != ALLOW_NONE));
}

/* The stops allow accepts, of c's. */
size_t
kv_tdrain_accepted(enum kv_allow allow, size_t stops,
    size_t restarts)
{
	return allow == ALLOW_SHUTDOWN ? stops : allow == ALLOW_RESTART ?
	    restarts : 0;
}

/* The stops of drains d[0..n) whose restart is unknown; *why: the
 * first one's reason. */
size_t
kv_tdrain_unknown(const kv_drain *d, size_t n, const char **why)
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
void
kv_tdrain_unknown_note(size_t c, const char *why, enum kv_allow allow,
    const kv_term *t)
{
	if (allow == ALLOW_RESTART && c > 0)
		fprintf(t->f, "--allow-restart: %zu %s whose restart is "
		    "unknown (%s) %s not accepted\n", c, c == 1 ? "stop" :
		    "stops", why ? why : "-", c == 1 ? "is" : "are");
}

/* The VMIs of drains d[0..n) into pick (sized a->nvmis). */
void
kv_tdrain_vmis(const kv_drain *d, size_t n, kv_bits *pick)
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
	kv_tdrain_vmis(d, n, pick);
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
	kv_tdrain_allow_json(doc, allow);
	json_object_set_new(doc, "summary", kv_tdrain_totals_json(c, secs));
	json_object_set_new(doc, "window", kv_json_window_drain(a, d, n,
	    secs, window));
	json_object_set_new(doc, "drain", kv_tdrain_json(a, d, n));
	json_object_set_new(doc, "groups", drain_groups(a, d, n, &pick));
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

/* The first line: "1 of 3 VMIs on the drained node would stop ...". */
static void
drain_total(const kv_analysis *a, const size_t *c, size_t n,
    const double secs[2], enum kv_allow allow, const kv_term *t)
{
	size_t ok = kv_tdrain_accepted(allow, c[2], c[6]);
	size_t bad = c[3] + c[2] - ok;
	char *dur = fmt_range(secs), acc[64] = "";

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
}

int
kv_view_drain(const kv_analysis *a, const kv_drain *d, size_t n,
    const double secs[2], double window, enum kv_allow allow,
    const kv_term *t, kv_err *err)
{
	size_t c[NTOTALS], nunk;
	const char *why = NULL;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return drain_doc(a, d, n, secs, window, allow, t, err);
	totals(d, n, c);	/* the answer first, then each node */
	drain_total(a, c, n, secs, allow, t);
	if (window > 0)
		kv_term_window_total(a, secs, window,
		    kv_window_fails(d, n, secs, window), t);
	nunk = kv_tdrain_unknown(d, n, &why);
	kv_tdrain_unknown_note(nunk, why, allow, t);
	if (n == 1)
		fputs("kubectl drain of 1 node:\n", t->f);
	else
		fprintf(t->f, "kubectl drain of %zu nodes together (none is a "
		    "target for another):\n", n);
	for (size_t i = 0; i < n; i++) {
		kv_tdrain_line(a, &d[i], t);
		for (size_t k = 0; k < d[i].nplan; k++)
			kv_tdrain_row(a, &d[i].plan[k], t);
	}
	kv_tdrain_words(a, t);
	kv_tdrain_room(a, t);
	pile_note(a, d, n, t);
	plan_note(a, d, n, t);
	kv_term_window(a, d, n, t);
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
