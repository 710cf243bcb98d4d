/*
 * fig_window.c - the maintenance-window timeline (report.h, fig_window):
 * the slowest node's drain (the a->drain[] entry with the largest
 * secs[1]) scheduled by kv_drain_schedule(), one lane per migration slot,
 * each migration a bar from its start to its end in the slow (high) run
 * with a tick where the fast (low) estimate would end it, at-risk
 * migrations in the warn colour, those that will be aborted in the fail
 * colour, unknown ones neutral, and the completion deadline of an at-risk
 * or aborted one marked.  The same shape list as figures.c: svg.c draws
 * it into the HTML, fig_cairo() into the PDF.  The figure is the
 * caller's (fig_free).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"
#include "render/render.h"
#include "render/report.h"

#define PAD		6.0
#define TITLE_SIZE	9.5
#define BODY_SIZE	8.0
#define SMALL_SIZE	7.0
#define LANE_H		17.0
#define LABEL_W		46.0
#define BAR_W		420.0

static kv_shape *
add(kv_fig *f, enum kv_shape_kind kind, double x, double y, double w,
    double h, uint32_t fill, char *title)
{
	kv_shape *s = fig_add(f, kind, x, y, w, h);

	s->fill = fill;
	s->title = title;
	return s;
}

static void
box(kv_fig *f, double x, double y, double w, double h, uint32_t fill,
    uint32_t stroke, char *title)
{
	kv_shape *s = add(f, SHAPE_RECT, x, y, w, h, fill, title);

	s->stroke = stroke;
	s->stroke_w = stroke != COL_NONE ? 0.6 : 0;
}

static void
label(kv_fig *f, double x, double y, const char *str, enum kv_font font,
    double size, enum kv_anchor anchor, uint32_t ink)
{
	kv_shape *s = add(f, SHAPE_TEXT, x, y, 0, 0, ink, NULL);

	s->text = xstrdup(str);
	s->font = font;
	s->size = size;
	s->anchor = anchor;
}

size_t
window_slowest(const kv_analysis *a)
{
	size_t best = SIZE_MAX;

	if (a->est == NULL)
		return SIZE_MAX;
	for (size_t i = 0; i < a->ndrain; i++)
		if (a->drain[i].migrate > 0 && (best == SIZE_MAX ||
		    a->drain[i].secs[1] > a->drain[best].secs[1]))
			best = i;
	return best;
}

static double
fin_s(double s)
{
	return isfinite(s) && s < 9e15 ? s : 0;
}

/* The tick step in seconds: at most 8 ticks over span. */
static double
tick_step(double span)
{
	static const double steps[] = { 15, 30, 60, 120, 300, 600, 900,
	    1800, 3600, 7200, 14400, 28800, 86400 };
	size_t k = 0;

	while (k + 1 < sizeof(steps) / sizeof(steps[0]) &&
	    span / steps[k] > 8)
		k++;
	return steps[k];
}

static void
axis(kv_fig *f, double y, double scale, double span, double bottom)
{
	double step = tick_step(span);

	for (double s = 0; s <= span + 1e-9; s += step) {
		double x = PAD + LABEL_W + s * scale;
		char *m = xasprintf("%g min", s / 60);

		box(f, x, y + 3, 0.5, bottom - y - 3, COL_RULE, COL_NONE,
		    NULL);
		label(f, x, y, m, FONT_REGULAR, SMALL_SIZE, ANCHOR_MIDDLE,
		    COL_MUTED);
		free(m);
	}
}

static uint32_t
outcome_fill(enum kv_mig_outcome o)
{
	return o == MIG_AT_RISK ? COL_WARN_BG : o == MIG_WILL_ABORT ?
	    COL_FAIL_BG : o == MIG_CONVERGES ? COL_OK_BG : COL_SHADE;
}

static uint32_t
outcome_ink(enum kv_mig_outcome o)
{
	return o == MIG_AT_RISK ? COL_WARN : o == MIG_WILL_ABORT ?
	    COL_FAIL : o == MIG_CONVERGES ? COL_OK : COL_MUTED;
}

/* When the deadline of a migration starting at start falls. */
static double
deadline_at(const kv_migest *e, double start)
{
	return start + fin_s(e->setup[1]) + (double)e->deadline;
}

/* The deadline mark of an at-risk or aborted migration at x (beyond the
 * axis: at its right edge, with the time written). */
static void
deadline_mark(kv_fig *f, const kv_migest *e, const char *name, double dl,
    double scale, double y)
{
	double x = PAD + LABEL_W + dl * scale, edge = PAD + LABEL_W + BAR_W;
	char *m;

	if (x <= edge + 0.5) {
		box(f, x - 1, y, 2, LANE_H - 1, COL_FAIL, COL_NONE,
		    xasprintf("%s: deadline %lld s after the copy starts",
		    name, (long long)e->deadline));
		return;
	}
	m = xasprintf("deadline %g min \u203a", round(dl / 6) / 10);
	box(f, edge - 2, y, 2, LANE_H - 1, COL_FAIL, COL_NONE,
	    xasprintf("%s: deadline %lld s after the copy starts, beyond "
	    "the axis", name, (long long)e->deadline));
	label(f, edge - 5, y + 11, m, FONT_BOLD, SMALL_SIZE, ANCHOR_END,
	    COL_FAIL);
	free(m);
}

/* One migration's bar in its lane, its low end and its deadline. */
static void
mig_bar(kv_fig *f, kv_text *t, const kv_analysis *a, size_t vmi,
    const kv_slot *sl, double scale, double y)
{
	const kv_migest *e = &a->est[vmi];
	double x0 = PAD + LABEL_W + sl->start[1] * scale;
	/* one that never ends (no deadline, never converges): to the edge */
	double w = fin_s(sl->end[1]) > 0 ? (sl->end[1] - sl->start[1]) *
	    scale : BAR_W - sl->start[1] * scale;
	double lo = sl->start[1] + fin_s(sl->end[0] - sl->start[0]);
	char *range = fmt_range(e->seconds);
	const char *name = a->vmis[vmi].vmi->fullname;
	char *tip = xasprintf("%s: %s, %s", name, range,
	    kv_mig_outcome_names[e->outcome]);

	box(f, x0, y + 2, w < 1 ? 1 : w, LANE_H - 5, outcome_fill(e->outcome),
	    outcome_ink(e->outcome), tip);
	box(f, PAD + LABEL_W + lo * scale - 0.5, y + 2, 1.2, LANE_H - 5,
	    COL_INK, COL_NONE, xasprintf("%s: ends at %s at the fast end",
	    name, range));
	if (w > 24) {
		char *fit = text_fit(t, name, FONT_REGULAR, SMALL_SIZE, w - 6);

		label(f, x0 + 3, y + 11, fit, FONT_REGULAR, SMALL_SIZE,
		    ANCHOR_START, COL_INK);
		free(fit);
	}
	if ((e->outcome == MIG_AT_RISK || e->outcome == MIG_WILL_ABORT) &&
	    e->deadline > 0)
		deadline_mark(f, e, name, deadline_at(e, sl->start[1]), scale,
		    y);
	free(range);
}

/* The figure's span: the slow ends, and the deadlines that fall within
 * twice that (a later one is drawn at the right edge with its time). */
static double
span_of(const kv_analysis *a, const kv_drain *d, const kv_slot *sl,
    const size_t *idx, size_t nj)
{
	double end = 1, span;

	for (size_t j = 0; j < nj; j++)
		if (fin_s(sl[j].end[1]) > end)
			end = fin_s(sl[j].end[1]);
	span = end;
	for (size_t j = 0; j < nj; j++) {
		const kv_migest *e = &a->est[d->plan[idx[j]].vmi];
		double dl = deadline_at(e, sl[j].start[1]);

		if ((e->outcome == MIG_AT_RISK ||
		    e->outcome == MIG_WILL_ABORT) && e->deadline > 0 &&
		    dl > span && dl <= 2 * end)
			span = dl;
	}
	return span;
}

static void
lanes(kv_fig *f, kv_text *t, const kv_analysis *a, const kv_drain *d,
    size_t nlanes, double y0)
{
	kv_slot *sl = xcalloc(d->nplan + 1, sizeof(kv_slot));
	size_t *idx = xcalloc(d->nplan + 1, sizeof(size_t)), nj = 0;
	double span[2], scale, sp;

	kv_drain_schedule(a, d->plan, d->nplan, sl, idx, span);
	for (size_t k = 0; k < d->nplan; k++)
		nj += d->plan[k].action == DRAIN_MIGRATE &&
		    a->est[d->plan[k].vmi].present;
	sp = span_of(a, d, sl, idx, nj);
	scale = BAR_W / sp;
	axis(f, y0, scale, sp, y0 + 6 + (double)nlanes * LANE_H);
	for (size_t l = 0; l < nlanes; l++) {
		char *n = xasprintf("lane %zu", l + 1);
		double y = y0 + 6 + (double)l * LANE_H;

		box(f, PAD + LABEL_W, y + 1, BAR_W, LANE_H - 3, COL_SHADE,
		    COL_NONE, NULL);
		label(f, PAD + LABEL_W - 6, y + 11, n, FONT_REGULAR,
		    BODY_SIZE, ANCHOR_END, COL_INK);
		free(n);
	}
	for (size_t j = 0; j < nj; j++)
		mig_bar(f, t, a, d->plan[idx[j]].vmi, &sl[j], scale,
		    y0 + 6 + (double)sl[j].lane * LANE_H);
	free(sl);
	free(idx);
}

size_t
window_lanes(const kv_analysis *a, const kv_drain *d)
{
	kv_slot *sl = xcalloc(d->nplan + 1, sizeof(kv_slot));
	size_t nj = 0, n = 0;
	double span[2];

	kv_drain_schedule(a, d->plan, d->nplan, sl, NULL, span);
	for (size_t k = 0; k < d->nplan; k++)
		nj += d->plan[k].action == DRAIN_MIGRATE &&
		    a->est[d->plan[k].vmi].present;
	for (size_t j = 0; j < nj; j++)
		if (sl[j].lane + 1 > n)
			n = sl[j].lane + 1;
	free(sl);
	return n;
}

static void
legend(kv_fig *f, kv_text *t, double y)
{
	static const enum kv_mig_outcome o[] = { MIG_CONVERGES, MIG_AT_RISK,
	    MIG_WILL_ABORT, MIG_UNKNOWN };
	double x = PAD;

	for (size_t i = 0; i < 4; i++) {
		const char *w = kv_mig_outcome_names[o[i]];
		double tw;

		box(f, x, y - 9, 12, 12, outcome_fill(o[i]),
		    outcome_ink(o[i]), NULL);
		label(f, x + 16, y, w, FONT_REGULAR, SMALL_SIZE, ANCHOR_START,
		    COL_INK);
		text_size(t, w, FONT_REGULAR, SMALL_SIZE, &tw, NULL);
		x += 16 + tw + 12;
	}
	box(f, x, y - 9, 2, 12, COL_FAIL, COL_NONE, NULL);
	label(f, x + 6, y, "deadline", FONT_REGULAR, SMALL_SIZE,
	    ANCHOR_START, COL_INK);
	box(f, x + 60, y - 9, 1.2, 12, COL_INK, COL_NONE, NULL);
	label(f, x + 66, y, "fast end", FONT_REGULAR, SMALL_SIZE,
	    ANCHOR_START, COL_INK);
}

kv_fig *
fig_window(const kv_analysis *a, kv_text *t)
{
	size_t i = window_slowest(a), nl;
	const kv_drain *d;
	kv_fig *f;
	double y;

	if (i == SIZE_MAX)
		return NULL;
	d = &a->drain[i];
	nl = window_lanes(a, d);
	f = xcalloc(1, sizeof(*f));
	f->name = xstrdup("window-timeline");
	f->title = xasprintf("The slowest drain in time: %s",
	    a->m->nodes[d->node].name);
	f->desc = xasprintf("The drain of %s, the slowest node to drain, "
	    "under the parallel-migration limits: one lane per migration "
	    "slot (%zu %s), each migration a bar from its start to its slow "
	    "end, the dark tick where its fast end falls, a red mark at the "
	    "deadline of one at risk or aborted; minutes from the drain's "
	    "start.", a->m->nodes[d->node].name, nl, plural(nl, "lane",
	    "lanes"));
	label(f, PAD, PAD + 10, f->title, FONT_BOLD, TITLE_SIZE,
	    ANCHOR_START, COL_INK);
	y = PAD + 30;
	lanes(f, t, a, d, nl, y);
	y += 6 + (double)nl * LANE_H + 16;
	legend(f, t, y);
	f->w = PAD * 2 + LABEL_W + BAR_W + 14;
	f->h = y + PAD + 4;
	return f;
}
