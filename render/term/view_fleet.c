/*
 * view_fleet.c - the text of `kvscope fleet` (render/fleet.h): one line
 * per cluster, worst first, then one per unreadable input.
 */
#include <stdio.h>

#include "render/fleet.h"
#include "render/render.h"

int
kv_view_fleet(const kv_fleet *fl, const kv_term *t, kv_err *err)
{
	FILE *f = t->f;

	fprintf(f, "%-32s %-20s %7s %7s %9s %5s %5s %5s\n", "CLUSTER",
	    "TAKEN", "RUNNING", "FAILING", "NOTJUDGED", "NEW", "STILL",
	    "FIXED");
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
			fprintf(f, " %5zu %5zu %5zu\n", s->nnew, s->nstill,
			    s->nfixed);
		else
			fprintf(f, " %5s %5s %5s\n", "-", "-", "-");
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
