/*
 * fleet.c - fleet.html and history.html (render/fleet.h): the fleet
 * index as a page, one row per cluster worst first with the trend
 * figure above it, and the history page: per cluster its snapshots and
 * the problems new, still open and fixed since the one before.  Plain
 * HTML written as text, every snapshot string escaped; no script.
 */
#include <stdio.h>
#include <stdlib.h>

#include "render/fleet.h"
#include "render/report.h"

#define STYLE \
	"<style>body{font-family:sans-serif;margin:1.5em;color:#222}" \
	"table{border-collapse:collapse;font-size:13px}" \
	"th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;" \
	"vertical-align:top}th{background:#eee}" \
	"td.n{text-align:right}tr.bad td.w,td.w{color:#b00;font-weight:bold}" \
	"tr.unreadable td{color:#b00}ul{margin:0;padding-left:1.2em}" \
	"</style>\n"

static void
page_head(FILE *f, const char *title)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\"><title>%s</title>\n" STYLE
	    "</head><body>\n<h1>%s</h1>\n", title, title);
}

static const char *
name_of(const kv_fleet_snap *s)
{
	return s->context != NULL ? s->context : s->cluster;
}

static void
td(FILE *f, const char *s)
{
	fputs("<td>", f);
	kv_fleet_esc(f, s != NULL ? s : "");
	fputs("</td>", f);
}

static void
tdn(FILE *f, size_t n)
{
	fprintf(f, "<td class=\"n\">%zu</td>", n);
}

static void
drain_cell(FILE *f, const kv_fleet_snap *s)
{
	const kv_fleet_node *n;

	if (s->worst == SIZE_MAX) {
		td(f, "");
		return;
	}
	n = &s->drain[s->worst];
	fputs("<td>", f);
	kv_fleet_esc(f, n->name);
	fprintf(f, ": %zu blocked, %zu stopped of %zu</td>", n->block,
	    n->shutdown, n->vmis);
}

/* The drain window: "1 will abort, 0 at risk; longest: w5, 1 min 7 s
 * - 1 min 18 s". */
static void
window_cell(FILE *f, const kv_fleet_snap *s)
{
	char *r;

	fprintf(f, "<td%s>%zu will abort, %zu at risk", s->will_abort ?
	    " class=\"w\"" : "", s->will_abort, s->at_risk);
	if (s->longest != SIZE_MAX) {
		r = fmt_range(s->drain[s->longest].secs);
		fputs("; longest drain: ", f);
		kv_fleet_esc(f, s->drain[s->longest].name);
		fprintf(f, ", %s", r);
		free(r);
	}
	fputs("</td>", f);
}

static void
groups_cell(FILE *f, const kv_fleet_snap *s)
{
	fputs("<td><ul>", f);
	for (size_t i = 0; i < s->ntop; i++) {
		fputs("<li>", f);
		kv_fleet_esc(f, s->top[i].code);
		fputs(" (", f);
		kv_fleet_esc(f, s->top[i].subject);
		fprintf(f, "): %zu</li>", s->top[i].vmis);
	}
	fputs("</ul></td>", f);
}

static void
row(FILE *f, const kv_fleet *fl, size_t ci)
{
	const kv_fleet_cluster *c = &fl->clusters[ci];
	const kv_fleet_snap *s = &fl->snaps[c->newest];

	fprintf(f, "<tr%s><td><a href=\"history.html#c%zu\">",
	    s->not_migrate ? " class=\"bad\"" : "", ci + 1);
	kv_fleet_esc(f, name_of(s));
	fputs("</a></td><td>", f);
	kv_fleet_esc(f, s->product != NULL ? s->product : s->flavor);
	fputs(" ", f);
	kv_fleet_esc(f, s->version != NULL ? s->version : "");
	fputs("</td>", f);
	td(f, s->rules);
	td(f, s->taken_at);
	tdn(f, s->nodes);
	tdn(f, s->running);
	fprintf(f, "<td class=\"n w\">%zu</td>", s->not_migrate);
	tdn(f, s->verdicts[V_NOT_JUDGED]);
	tdn(f, s->drain_blockers);
	drain_cell(f, s);
	window_cell(f, s);
	groups_cell(f, s);
	if (s->has_prev)
		fprintf(f, "<td>%zu / %zu / %zu</td>", s->nnew, s->nstill,
		    s->nfixed);
	else
		td(f, "first snapshot");
	if (s->report != NULL) {
		fputs("<td><a href=\"", f);
		kv_fleet_esc(f, s->report);
		fputs("/report.html\">report</a></td>", f);
	} else {
		td(f, "");
	}
	fputs("</tr>\n", f);
}

int
kv_write_fleet_html(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_fleet *fl = arg;

	(void)a;
	page_head(f, "kvscope fleet");
	fprintf(f, "<p>%zu clusters from %zu snapshots read; %zu unreadable. "
	    "<a href=\"history.html\">History</a></p>\n", fl->nclusters,
	    fl->nread, fl->nsnaps - fl->nread);
	fputs("<figure>", f);
	kv_fleet_trend_svg(fl, f);
	fputs("</figure>\n<table><thead><tr><th>cluster</th><th>product"
	    "</th><th>rules</th><th>taken at</th><th>nodes</th><th>running"
	    "</th><th>would not migrate</th><th>not judged</th><th>drain "
	    "blockers</th><th>worst node to drain</th><th>drain window"
	    "</th><th>top groups</th>"
	    "<th>new / still / fixed</th><th>report</th></tr></thead>"
	    "<tbody>\n", f);
	for (size_t i = 0; i < fl->nclusters; i++)
		row(f, fl, i);
	for (size_t i = 0; i < fl->nsnaps; i++) {
		if (fl->snaps[i].unreadable == NULL)
			continue;
		fputs("<tr class=\"unreadable\">", f);
		td(f, fl->snaps[i].path);
		fputs("<td colspan=\"13\">unreadable: ", f);
		kv_fleet_esc(f, fl->snaps[i].unreadable);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n</body></html>\n", f);
	return ferror(f) ? kv_seterr(err, "fleet.html: cannot write") :
	    KV_OK;
}

static void
plist(FILE *f, const char *what, const kv_fleet_problem *const *p,
    size_t n)
{
	fprintf(f, "<h3>%s: %zu</h3>\n", what, n);
	if (n == 0)
		return;
	fputs("<table><tr><th>VMI</th><th>code</th><th>severity</th>"
	    "</tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", f);
		td(f, p[i]->vmi);
		td(f, p[i]->code);
		td(f, p[i]->severity == SEV_BLOCKER ? "blocker" : "warning");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void
history(FILE *f, const kv_fleet *fl, size_t ci)
{
	const kv_fleet_cluster *c = &fl->clusters[ci];

	fprintf(f, "<section id=\"c%zu\"><h2>", ci + 1);
	kv_fleet_esc(f, name_of(&fl->snaps[c->newest]));
	fputs("</h2>\n<p>cluster ", f);
	kv_fleet_esc(f, fl->snaps[c->newest].cluster);
	fputs("</p>\n<table><tr><th>taken at</th><th>snapshot</th>"
	    "<th>running</th><th>would not migrate</th><th>new</th>"
	    "<th>still</th><th>fixed</th></tr>\n", f);
	for (size_t k = c->nsnaps; k-- > 0;) {
		const kv_fleet_snap *s = &fl->snaps[c->snaps[k]];

		fputs("<tr>", f);
		td(f, s->taken_at);
		td(f, s->path);
		tdn(f, s->running);
		tdn(f, s->not_migrate);
		if (s->has_prev) {
			tdn(f, s->nnew);
			tdn(f, s->nstill);
			tdn(f, s->nfixed);
		} else {
			fputs("<td></td><td></td><td></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (c->prev != SIZE_MAX) {
		plist(f, "new", c->newp, c->nnew);
		plist(f, "still open", c->stillp, c->nstill);
		plist(f, "fixed", c->fixedp, c->nfixed);
	}
	fputs("</section>\n", f);
}

int
kv_write_fleet_history(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err)
{
	const kv_fleet *fl = arg;

	(void)a;
	page_head(f, "kvscope fleet history");
	fputs("<p><a href=\"fleet.html\">Fleet</a>: each cluster's "
	    "snapshots, newest first, and its newest snapshot's problems "
	    "against the one before.</p>\n", f);
	for (size_t i = 0; i < fl->nclusters; i++)
		history(f, fl, i);
	fputs("</body></html>\n", f);
	return ferror(f) ? kv_seterr(err, "history.html: cannot write") :
	    KV_OK;
}
