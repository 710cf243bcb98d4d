/*
 * trend.c - the fleet's trend figure (render/fleet.h): VMIs that would
 * not migrate per snapshot over time, one line per cluster, for the
 * KV_FLEET_TREND_MAX clusters with the newest snapshots; inline SVG for
 * fleet.html.  Snapshots without a capture time are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/util/util.h"
#include "render/fleet.h"

#define W 760
#define H 300
#define L 56	/* left margin: the count axis */
#define R 200	/* right margin: the legend */
#define T 16
#define B 40	/* bottom margin: the date axis */

/* Newest snapshot first, then the order of f->clusters (arg: the
 * fleet). */
static int
newest_cmp(const void *x, const void *y, void *arg)
{
	const kv_fleet *fl = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int64_t ta = fl->snaps[fl->clusters[a].newest].taken;
	int64_t tb = fl->snaps[fl->clusters[b].newest].taken;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	return a < b ? -1 : a > b;
}

static const char *
name_of(const kv_fleet *fl, const kv_fleet_cluster *c)
{
	const kv_fleet_snap *s = &fl->snaps[c->newest];

	return s->context != NULL ? s->context : s->cluster;
}

/* The time and count ranges of the chosen clusters. */
static void
ranges(const kv_fleet *fl, const size_t *pick, size_t n, int64_t *t0,
    int64_t *t1, size_t *ymax)
{
	*t0 = INT64_MAX;
	*t1 = INT64_MIN;
	*ymax = 1;
	for (size_t i = 0; i < n; i++) {
		const kv_fleet_cluster *c = &fl->clusters[pick[i]];

		for (size_t k = 0; k < c->nsnaps; k++) {
			const kv_fleet_snap *s = &fl->snaps[c->snaps[k]];

			if (s->taken < 0)
				continue;
			*t0 = s->taken < *t0 ? s->taken : *t0;
			*t1 = s->taken > *t1 ? s->taken : *t1;
			*ymax = s->not_migrate > *ymax ? s->not_migrate :
			    *ymax;
		}
	}
	if (*t0 > *t1)
		*t0 = *t1 = 0;
	if (*t1 == *t0)
		*t1 = *t0 + 86400;
}

static void
axes(FILE *f, int64_t t0, int64_t t1, size_t ymax)
{
	char d0[16], d1[16];
	time_t a = (time_t)t0, b = (time_t)t1;
	struct tm tm;

	strftime(d0, sizeof(d0), "%Y-%m-%d", gmtime_r(&a, &tm));
	strftime(d1, sizeof(d1), "%Y-%m-%d", gmtime_r(&b, &tm));
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#444\"/>\n", L, H - B, W - R, H - B);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#444\"/>\n", L, T, L, H - B);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n",
	    L, H - B + 16, d0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
	    "text-anchor=\"end\">%s</text>\n", W - R, H - B + 16, d1);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
	    "text-anchor=\"end\">%zu</text>\n", L - 6, T + 4, ymax);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
	    "text-anchor=\"end\">0</text>\n", L - 6, H - B + 4);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">would not "
	    "migrate, per snapshot</text>\n", L, H - 6);
}

static void
line(FILE *f, const kv_fleet *fl, size_t ci, size_t nth, int64_t t0,
    int64_t t1, size_t ymax)
{
	const kv_fleet_cluster *c = &fl->clusters[ci];
	int hue = (int)((nth * 137) % 360);

	fprintf(f, "<g class=\"cluster\" stroke=\"hsl(%d,70%%,40%%)\" "
	    "fill=\"hsl(%d,70%%,40%%)\"><title>", hue, hue);
	kv_fleet_esc(f, name_of(fl, c));
	fprintf(f, "</title>\n<polyline fill=\"none\" stroke-width=\"2\" "
	    "points=\"");
	for (size_t k = 0; k < c->nsnaps; k++) {
		const kv_fleet_snap *s = &fl->snaps[c->snaps[k]];

		if (s->taken >= 0)
			fprintf(f, "%s%.1f,%.1f", k ? " " : "",
			    L + (double)(s->taken - t0) * (W - R - L) /
			    (double)(t1 - t0), H - B - (double)s->not_migrate *
			    (H - B - T) / (double)ymax);
	}
	fprintf(f, "\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"%zu\" font-size=\"11\" stroke=\"none\">",
	    W - R + 10, (size_t)T + 8 + nth * 13);
	kv_fleet_esc(f, name_of(fl, c));
	fprintf(f, " (%zu)</text></g>\n", fl->snaps[c->newest].not_migrate);
}

void
kv_fleet_trend_svg(const kv_fleet *fl, FILE *f)
{
	size_t *pick = xcalloc(fl->nclusters + 1, sizeof(size_t));
	size_t n = fl->nclusters, ymax;
	int64_t t0, t1;

	for (size_t i = 0; i < n; i++)
		pick[i] = i;
	kv_qsort_r(pick, n, sizeof(size_t), newest_cmp, (void *)fl);
	if (n > KV_FLEET_TREND_MAX)
		n = KV_FLEET_TREND_MAX;
	ranges(fl, pick, n, &t0, &t1, &ymax);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "class=\"trend\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
	    "%d\" role=\"img\" aria-label=\"VMIs that would not migrate per "
	    "snapshot over time, %zu clusters\">\n", W, H, W, H, n);
	axes(f, t0, t1, ymax);
	for (size_t i = 0; i < n; i++)
		line(f, fl, pick[i], i, t0, t1, ymax);
	fprintf(f, "</svg>\n");
	free(pick);
}
