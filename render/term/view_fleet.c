/*
 * view_fleet.c - the text of `kvscope fleet` (render/fleet.h): one line
 * per cluster, worst first, then one per unreadable input.  The last
 * columns are the drain window (docs/window.md): migrations that will
 * be aborted, those at risk, and the node whose drain takes longest
 * with its range.
 */
#include <stdio.h>
#include <stdlib.h>

#include "render/fleet.h"
#include "render/render.h"
#include "render/report.h"

/* ABORT, RISK and LONGEST-DRAIN: "w5 1 min 7 s - 1 min 18 s", or "-". */
static void
window_cols(const kv_term *t, const kv_fleet_snap *s)
{
	FILE *f = t->f;
	char n[16], *r;

	snprintf(n, sizeof(n), " %5zu", s->will_abort);
	kv_term_paint(t, s->will_abort ? KV_C_RED : KV_C_NONE, n);
	snprintf(n, sizeof(n), " %4zu ", s->at_risk);
	kv_term_paint(t, s->at_risk ? KV_C_YELLOW : KV_C_NONE, n);
	if (s->longest == SIZE_MAX) {
		fputs("-\n", f);
		return;
	}
	r = fmt_range(s->drain[s->longest].secs);
	kv_term_puts(f, s->drain[s->longest].name);
	fprintf(f, " %s\n", r);
	free(r);
}

int
kv_view_fleet(const kv_fleet *fl, const kv_term *t, kv_err *err)
{
	FILE *f = t->f;

	fprintf(f, "%-32s %-20s %7s %7s %9s %5s %5s %5s %5s %4s %s\n",
	    "CLUSTER", "TAKEN", "RUNNING", "FAILING", "NOTJUDGED", "NEW",
	    "STILL", "FIXED", "ABORT", "RISK", "LONGEST-DRAIN");
	for (size_t i = 0; i < fl->nclusters; i++) {
		const kv_fleet_snap *s = &fl->snaps[fl->clusters[i].newest];
		char n[32];
		size_t w = kv_term_strwidth(s->context != NULL ? s->context :
		    s->cluster);

		kv_term_puts(f, s->context != NULL ? s->context : s->cluster);
		fprintf(f, "%*s %-20s %7zu ", w < 32 ? (int)(32 - w) : 0, "",
		    s->taken_at != NULL ? s->taken_at : "-", s->running);
		snprintf(n, sizeof(n), "%7zu", s->not_migrate);
		kv_term_paint(t, s->not_migrate ? KV_C_RED : KV_C_NONE, n);
		fprintf(f, " %9zu", s->verdicts[V_NOT_JUDGED]);
		if (s->has_prev)
			fprintf(f, " %5zu %5zu %5zu", s->nnew, s->nstill,
			    s->nfixed);
		else
			fprintf(f, " %5s %5s %5s", "-", "-", "-");
		window_cols(t, s);
	}
	for (size_t i = 0; i < fl->nsnaps; i++)
		if (fl->snaps[i].unreadable != NULL) {
			kv_term_puts(f, fl->snaps[i].path);
			fputs(": unreadable: ", f);
			kv_term_puts(f, fl->snaps[i].unreadable);
			fputc('\n', f);
		}
	return ferror(f) ? kv_seterr(err, "stdout: cannot write") : KV_OK;
}
