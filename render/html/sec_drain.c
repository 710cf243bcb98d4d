/*
 * sec_drain.c - the drain section's own parts of the report: the
 * cluster-wide answer (what a drain of each node alone would stop or hold,
 * and which nodes are safe to drain now) and, in HTML, every node's plan
 * rows with targets, estimated time and the capacity state.  The HTML and
 * PDF writers call these with one line each; strings returned are the
 * caller's, nodes added belong to the document.
 */
#include <glib.h>
#include <libxml/tree.h>
#include <stdint.h>
#include <stdlib.h>

#include "render/html/html.h"
#include "render/render.h"
#include "render/report.h"

/* more plan rows than this: each node's plan links to the full list */
#define PLAN_ROWS_MAX 3000

char *
drain_headline(const kv_analysis *a)
{
	size_t safe = 0, stop = 0, hold = 0, nstop = 0, nhold = 0;
	kv_buf b = {0};
	const char *vms = kv_word(a, KV_WORD_VMS);

	if (a->ndrain == 0)
		return xasprintf("No node runs a %s: every node is safe to "
		    "drain.", kv_word(a, KV_WORD_VM));
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *d = &a->drain[i];

		safe += d->block == 0 && d->shutdown == 0;
		stop += d->shutdown;
		hold += d->block;
		nstop += d->shutdown > 0;
		nhold += d->block > 0;
	}
	kv_buf_printf(&b, "Drained one at a time, %zu of the %zu nodes that "
	    "run %s %s safe to drain now", safe, a->ndrain, vms,
	    safe == 1 ? "is" : "are");
	if (safe > 0 && safe <= 8) {
		size_t k = 0;

		for (size_t i = 0; i < a->ndrain; i++)
			if (a->drain[i].block == 0 && a->drain[i].shutdown == 0)
				kv_buf_printf(&b, "%s%s", k++ ? ", " : " (",
				    a->m->nodes[a->drain[i].node].name);
		kv_buf_printf(&b, ")");
	}
	kv_buf_printf(&b, "; a drain would stop %zu %s on %zu %s and hold "
	    "%zu on %zu (the drain waits for them forever)%s.", stop,
	    stop == 1 ? kv_word(a, KV_WORD_VM) : vms, nstop,
	    nstop == 1 ? "node" : "nodes", hold, nhold,
	    a->capacity_known ? "" : "; room on the targets was not checked");
	return b.data;
}

static const char *
action_text(enum kv_on_drain a)
{
	return a == DRAIN_MIGRATE ? "migrates" : a == DRAIN_SHUTDOWN ?
	    "stops" : a == DRAIN_BLOCK ? "blocks the drain" :
	    a == DRAIN_EXTERNAL ? "external controller" : "-";
}

/* "node: 3 migrate, 1 stop, ...; about 2 min; room checked" */
static char *
plan_line(const kv_analysis *a, const kv_drain *d)
{
	char *dur = fmt_duration(d->seconds);
	char *sum = xasprintf("%s: %zu migrate, %zu stop, %zu block (%zu for "
	    "want of room); about %s; room %s", a->m->nodes[d->node].name,
	    d->migrate, d->shutdown, d->block, d->no_capacity, dur,
	    a->capacity_known ? "checked" : "not checked");

	free(dur);
	return sum;
}

/* One node's plan: a collapsed heading line and a table of its rows. */
static void
node_plan(const kv_analysis *a, const kv_drain *d, xmlNodePtr parent)
{
	const char *h[4] = { kv_word(a, KV_WORD_VM), "Drain does", "Target",
	    "Reason" };
	xmlNodePtr det, t, tr;
	char *sum = plan_line(a, d);

	det = h_details(parent, sum, false);
	xmlSetProp(det, BAD_CAST "class", BAD_CAST "more drain-plan");
	free(sum);
	t = h_el(h_table(det, NULL, h, NULL, 4), "tbody", NULL);
	for (size_t k = 0; k < d->nplan; k++) {
		const kv_drain_row *r = &d->plan[k];

		tr = h_el(t, "tr", NULL);
		h_elc(tr, "td", "wrap", a->vmis[r->vmi].vmi->fullname);
		h_elc(tr, "td", r->action == DRAIN_MIGRATE ? "tone-ok" :
		    r->action == DRAIN_BLOCK ? "tone-fail" :
		    r->action == DRAIN_SHUTDOWN ? "tone-warn" : "tone-none",
		    action_text(r->action));
		h_el(tr, "td", r->target != SIZE_MAX ?
		    a->m->nodes[r->target].name : "\u2014");
		h_el(tr, "td", r->reason ? r->reason : "\u2014");
	}
}

void
drain_html_plans(const kv_analysis *a, xmlNodePtr section)
{
	const kv_vocab *v = a->m->flavor->vocab;
	char *note = xasprintf("Each node's plan, drained alone, as %s handle "
	    "it; %s.", kv_drain_by(a), v->target_wait);

	size_t rows = 0;
	xmlNodePtr d, ul;

	h_el_own(section, "p", "note", note);
	for (size_t i = 0; i < a->ndrain; i++)
		rows += a->drain[i].nplan;
	if (rows <= PLAN_ROWS_MAX) {
		for (size_t i = 0; i < a->ndrain; i++)
			node_plan(a, &a->drain[i], section);
		return;
	}
	/* too many rows to write twice: each node's VMIs, with what a drain
	 * does and where to, are the full list filtered by that node */
	d = h_details(section, "Each node's plan", false);
	ul = h_elc(d, "ul", "plain", NULL);
	for (size_t i = 0; i < a->ndrain; i++) {
		char *line = plan_line(a, &a->drain[i]);
		/* the list by node name: a link that lasts across reports */
		char *esc = g_uri_escape_string(
		    a->m->nodes[a->drain[i].node].name, NULL, false);
		char *href = xasprintf("#vms?node=%s", esc);

		g_free(esc);
		h_attr(h_elc(h_el(ul, "li", NULL), "a", "wrap", line), "href",
		    href);
		free(line);
		free(href);
	}
}
