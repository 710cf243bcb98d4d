/*
 * figures.c - the report's figures as shape lists (report.h), and the
 * cairo backend that draws a shape list into the PDF.
 *
 * A figure is built once from the analysis: rectangles, lines and one-line
 * texts in points, each with an optional title (tooltip, accessible name).
 * svg.c turns the same list into SVG for the standalone files and the
 * HTML, fig_cairo() into PDF vectors, so every format shows one drawing.
 * Labels are measured with text.c and shortened with an ellipsis where
 * they would not fit; the full text is always in the title.  Colour is
 * never the only signal: cells carry a symbol or a number, bars a count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "render/render.h"
#include "render/report.h"

#define W(w) kv_word(a, KV_WORD_##w)

#define PAD		6.0
#define TITLE_SIZE	9.5
#define BODY_SIZE	8.0
#define SMALL_SIZE	7.0
#define ROW_H		17.0

/* --- the shape list --------------------------------------------------- */

/* title and desc are taken over */
static kv_fig *
fig_new(const char *name, char *title, char *desc)
{
	kv_fig *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(name);
	f->title = title;
	f->desc = desc;
	return f;
}

void
fig_free(kv_fig *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->s[i].text);
		free(f->s[i].title);
	}
	free(f->s);
	free(f->name);
	free(f->title);
	free(f->desc);
	free(f);
}

kv_shape *
fig_add(kv_fig *f, enum kv_shape_kind kind, double x, double y, double w,
    double h)
{
	kv_shape *s;

	KV_GROW(f->s, f->cap, f->n + 1);
	s = &f->s[f->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->x = x;
	s->y = y;
	s->w = w;
	s->h = h;
	s->fill = s->stroke = COL_NONE;
	return s;
}

/* title is taken over (may be NULL) */
static void
rect(kv_fig *f, double x, double y, double w, double h, uint32_t fill,
    uint32_t stroke, char *title)
{
	kv_shape *s = fig_add(f, SHAPE_RECT, x, y, w, h);

	s->fill = fill;
	s->stroke = stroke;
	s->stroke_w = stroke != COL_NONE ? 0.6 : 0;
	s->title = title;
}

/* text is copied, title taken over */
static kv_shape *
text(kv_fig *f, double x, double y, const char *str, enum kv_font font,
    double size, enum kv_anchor anchor, uint32_t col, char *title)
{
	kv_shape *s = fig_add(f, SHAPE_TEXT, x, y, 0, 0);

	s->text = xstrdup(str);
	s->font = font;
	s->size = size;
	s->anchor = anchor;
	s->fill = col;
	s->title = title;
	return s;
}

/* text shortened to max_w; the full string becomes the title unless one
 * is given */
static void
text_max(kv_fig *f, kv_text *t, double x, double y, const char *str,
    enum kv_font font, double size, enum kv_anchor anchor, uint32_t col,
    double max_w, char *title)
{
	char *fit = text_fit(t, str, font, size, max_w);

	if (title == NULL && strcmp(fit, str) != 0)
		title = xstrdup(str);
	text(f, x, y, fit, font, size, anchor, col, title);
	free(fit);
}

static double
width_of(kv_text *t, const char *s, enum kv_font font, double size)
{
	double w;

	text_size(t, s, font, size, &w, NULL);
	return w;
}

/* The legend: swatches with a symbol and a word, left to right. */
typedef struct swatch {
	uint32_t bg, ink;
	const char *sym, *word;
} swatch;

static double
legend(kv_fig *f, kv_text *t, double x, double y, const swatch *sw,
    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rect(f, x, y - 9, 12, 12, sw[i].bg, COL_RULE, NULL);
		if (sw[i].sym != NULL)
			text(f, x + 6, y, sw[i].sym, FONT_BOLD, SMALL_SIZE,
			    ANCHOR_MIDDLE, sw[i].ink, NULL);
		text(f, x + 16, y, sw[i].word, FONT_REGULAR, SMALL_SIZE,
		    ANCHOR_START, COL_INK, NULL);
		x += 16 + width_of(t, sw[i].word, FONT_REGULAR, SMALL_SIZE) +
		    12;
	}
	return x;
}

/* --- verdicts ----------------------------------------------------------- */

kv_fig *
fig_verdicts(const kv_analysis *a, kv_text *t)
{
	const kv_summary *s = &a->summary;
	kv_fig *f = fig_new("verdicts", xasprintf("Live-migration verdicts of "
	    "all %s", W(VMS)), xasprintf("One bar per verdict: how many %s "
	    "get it.", W(VMS)));
	double label_w = 0, bar_w = 300, y, max = 1;

	for (int v = 0; v < V_COUNT; v++) {
		double w = width_of(t, kv_verdict_names[v], FONT_BOLD,
		    BODY_SIZE);

		if (w > label_w)
			label_w = w;
		if ((double)s->verdicts[v] > max)
			max = (double)s->verdicts[v];
	}
	label_w += 18;
	text(f, PAD, PAD + 10, f->title, FONT_BOLD, TITLE_SIZE, ANCHOR_START,
	    COL_INK, NULL);
	y = PAD + 22;
	for (int v = 0; v < V_COUNT; v++) {
		enum kv_tone tone = verdict_tone((enum kv_verdict)v);
		double w = bar_w * (double)s->verdicts[v] / max;
		char *n = xasprintf("%zu", s->verdicts[v]);
		char *tip = xasprintf("%s: %zu %s. %s", kv_verdict_names[v],
		    s->verdicts[v], W(VMS),
		    verdict_meaning((enum kv_verdict)v));

		text(f, PAD, y + 12, verdict_symbol((enum kv_verdict)v),
		    FONT_BOLD, BODY_SIZE, ANCHOR_START, tone_ink(tone), NULL);
		text(f, PAD + 14, y + 12, kv_verdict_names[v], FONT_BOLD,
		    BODY_SIZE, ANCHOR_START, COL_INK, NULL);
		rect(f, PAD + label_w, y + 2, bar_w, ROW_H - 4, COL_SHADE,
		    COL_NONE, NULL);
		if (w > 0)
			rect(f, PAD + label_w, y + 2, w < 1.5 ? 1.5 : w,
			    ROW_H - 4, tone_bg(tone), tone_ink(tone), tip);
		else
			free(tip);
		text(f, PAD + label_w + (w < 1.5 ? 1.5 : w) + 4, y + 12, n,
		    FONT_BOLD, BODY_SIZE, ANCHOR_START, s->verdicts[v] ?
		    tone_ink(tone) : COL_MUTED, NULL);
		free(n);
		y += ROW_H;
	}
	if (s->mismatch > 0) {
		char *m = xasprintf("%s %zu of the %s that would not migrate "
		    "report %s=True", SYM_WARN, s->mismatch, W(VMS),
		    W(CONDITION));

		text(f, PAD, y + 12, m, FONT_REGULAR, SMALL_SIZE, ANCHOR_START,
		    COL_WARN, NULL);
		free(m);
		y += ROW_H;
	}
	f->w = PAD * 2 + label_w + bar_w + 40;
	f->h = y + PAD;
	return f;
}

/* --- the host-model class matrix ----------------------------------------- */

#define CELL		16.0
#define MLABEL_MAX	210.0
#define MHEAD_MAX	90.0

/* The class at entry i's first position, and whether the entry is it
 * alone. */
static const kv_class *
entry_class(const kv_maxis *ax, const kv_analysis *a, size_t i, bool *one)
{
	size_t first, last;

	mview_range(ax, i, &first, &last);
	*one = last - first == 1;
	return &a->classes[mview_class(ax, first)];
}

static char *
row_label(const kv_maxis *ax, const kv_analysis *a, size_t i)
{
	bool one;
	const kv_class *c = entry_class(ax, a, i, &one);
	char *head = mview_label(ax, a, i), *nodes, *s;

	if (!one)
		return head;
	nodes = node_list(a, c->nodes, c->nnodes, 3);
	s = xasprintf("%s \u00b7 %s", head, nodes);
	free(head);
	free(nodes);
	return s;
}

static char *
row_title(const kv_maxis *ax, const kv_analysis *a, size_t i)
{
	size_t first, last;
	const kv_class *c;
	char *nodes, *s, lv[24] = "x86-64 level unknown";

	mview_range(ax, i, &first, &last);
	c = &a->classes[mview_class(ax, first)];
	if (last - first != 1) {
		size_t n = 0;

		for (size_t k = first; k < last; k++)
			n += a->classes[mview_class(ax, k)].nnodes;
		return xasprintf("classes %s to %s, aggregated: %zu nodes",
		    c->id, a->classes[mview_class(ax, last - 1)].id, n);
	}
	nodes = node_list(a, c->nodes, c->nnodes, 50);
	if (c->level >= 0)	/* -1: the labels cannot say */
		snprintf(lv, sizeof(lv), "x86-64-v%d", c->level);
	s = xasprintf("%s: %s %s, %s, %zu %s: %s", c->id,
	    c->vendor ? c->vendor : "unknown vendor",
	    c->host_model ? c->host_model : "(no host model)", lv, c->nnodes,
	    c->nnodes == 1 ? "node" : "nodes", nodes);
	free(nodes);
	return s;
}

static const char *
col_label(const kv_maxis *ax, const kv_analysis *a, size_t j, char **own)
{
	size_t first, last;

	mview_range(ax, j, &first, &last);
	*own = NULL;
	if (last - first == 1)
		return a->classes[mview_class(ax, first)].id;
	*own = xasprintf("%s\u2013%s", a->classes[mview_class(ax,
	    first)].id, a->classes[mview_class(ax, last - 1)].id);
	return *own;
}

void
fig_matrix_metrics(const kv_analysis *a, kv_text *t, const kv_mview *v,
    double *label_w, double *head_h, double *cell)
{
	double lw = width_of(t, "source class (VM runs here)", FONT_BOLD,
	    SMALL_SIZE), hh = 0;

	for (size_t i = 0; i < v->row.n; i++) {
		char *l = row_label(&v->row, a, i);
		double w = width_of(t, l, FONT_REGULAR, SMALL_SIZE);

		if (w > lw)
			lw = w;
		free(l);
	}
	for (size_t j = 0; j < v->col.n; j++) {
		char *own;
		const char *c = col_label(&v->col, a, j, &own);
		double h = width_of(t, c, FONT_REGULAR, SMALL_SIZE);

		if (h > hh)
			hh = h;
		free(own);
	}
	*label_w = (lw > MLABEL_MAX ? MLABEL_MAX : lw) + 8;
	*head_h = (hh > MHEAD_MAX ? MHEAD_MAX : hh) + 8;
	*cell = CELL;
}

static void
matrix_cell(kv_fig *f, const kv_analysis *a, const kv_mview *v, size_t i,
    size_t j, double x, double y)
{
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs;
	uint32_t bg, ink;
	char *num = NULL;
	const char *sym;

	mview_cell(v, a, i, j, &ok, &missing, &nfail, &npairs, &p);
	if (ok) {
		bg = COL_OK_BG;
		ink = COL_OK;
		sym = SYM_OK;
	} else if (missing == 0) {
		bg = COL_SHADE;
		ink = COL_MUTED;
		sym = SYM_NONE;
	} else {
		num = xasprintf("%zu", missing);
		sym = num;
		/* a refusal whatever the count: reds, darker with more */
		bg = missing == 1 ? COL_FAIL_BG : missing <= 3 ? REFUSE2_BG :
		    REFUSE4_BG;
		ink = missing == 1 ? COL_FAIL : missing <= 3 ? REFUSE2_INK :
		    0xffffffu;
	}
	rect(f, x, y, CELL, CELL, bg, 0xffffffu,
	    mview_cell_title(v, a, i, j));
	text(f, x + CELL / 2, y + CELL / 2 + 2.6, sym, FONT_BOLD,
	    SMALL_SIZE, ANCHOR_MIDDLE, ink, NULL);
	free(num);
}

/* The matrix's title, axis captions and rotated column heads. */
static kv_fig *
matrix_head(const kv_analysis *a, kv_text *t, const kv_mview *v, size_t r0,
    size_t r1, size_t c0, size_t c1, double gx, double gy, double cell)
{
	const char *base = v->title != NULL ? v->title :
	    "Host-model migration between CPU classes";
	char *title, *desc;
	kv_fig *f;

	if (r0 == 0 && c0 == 0 && r1 == v->row.n && c1 == v->col.n)
		title = xstrdup(base);
	else if (v->row.n == v->col.n)
		title = xasprintf("%s (rows %zu\u2013%zu, columns "
		    "%zu\u2013%zu of %zu)", base, r0 + 1, r1, c0 + 1, c1,
		    v->row.n);
	else
		title = xasprintf("%s (rows %zu\u2013%zu of %zu, columns "
		    "%zu\u2013%zu of %zu)", base, r0 + 1, r1, v->row.n,
		    c0 + 1, c1, v->col.n);
	desc = xasprintf("Rows: the class a host-model VM runs on; columns: "
	    "the class of a candidate target node. A cell is ok, or shows how "
	    "many node labels the target lacks; its title lists them.%s",
	    v->aggregated ? " Classes beyond the first 199 are aggregated "
	    "into one row and column." : "");
	f = fig_new("hostmodel-matrix", title, desc);
	text(f, PAD, PAD + 10, f->title, FONT_BOLD, TITLE_SIZE, ANCHOR_START,
	    COL_INK, NULL);
	text(f, gx, PAD + 26, "target class (candidate node) \u2192",
	    FONT_BOLD, SMALL_SIZE, ANCHOR_START, COL_MUTED, NULL);
	text(f, PAD, gy - 4, "source class (VM runs here)", FONT_BOLD,
	    SMALL_SIZE, ANCHOR_START, COL_MUTED, NULL);
	for (size_t j = c0; j < c1; j++) {
		char *own;
		const char *l = col_label(&v->col, a, j, &own);
		char *fit = text_fit(t, l, FONT_REGULAR, SMALL_SIZE, MHEAD_MAX);
		kv_shape *s = text(f, gx + (double)(j - c0) * cell + cell / 2 +
		    2.5, gy - 4, fit, FONT_REGULAR, SMALL_SIZE, ANCHOR_START,
		    COL_INK, row_title(&v->col, a, j));

		s->rotate = -90;
		free(fit);
		free(own);
	}
	return f;
}

/* Whether row entry i and column entry j are one class (or the same
 * aggregate). */
static bool
same_entry(const kv_mview *v, size_t i, size_t j)
{
	size_t r0, r1, c0, c1;

	mview_range(&v->row, i, &r0, &r1);
	mview_range(&v->col, j, &c0, &c1);
	return r1 - r0 == c1 - c0 && mview_class(&v->row, r0) ==
	    mview_class(&v->col, c0);
}

/* The row labels and cells of rows [r0, r1) and columns [c0, c1). */
static void
matrix_grid(kv_fig *f, const kv_analysis *a, kv_text *t, const kv_mview *v,
    size_t r0, size_t r1, size_t c0, size_t c1, double lw, double gx,
    double gy, double cell)
{
	for (size_t i = r0; i < r1; i++) {
		double ry = gy + (double)(i - r0) * cell;
		char *l = row_label(&v->row, a, i);

		if ((i - r0) % 2 == 1)
			rect(f, PAD, ry, lw - 4, cell, COL_SHADE, COL_NONE,
			    NULL);
		text_max(f, t, PAD + 2, ry + cell / 2 + 2.6, l, FONT_REGULAR,
		    SMALL_SIZE, ANCHOR_START, COL_INK, lw - 8,
		    row_title(&v->row, a, i));
		free(l);
		for (size_t j = c0; j < c1; j++)
			matrix_cell(f, a, v, i, j, gx + (double)(j - c0) * cell,
			    ry);
	}
	/* the diagonal: a class with itself */
	for (size_t i = r0; i < r1; i++)
		for (size_t j = c0; j < c1; j++)
			if (same_entry(v, i, j))
				rect(f, gx + (double)(j - c0) * cell,
				    gy + (double)(i - r0) * cell, cell, cell,
				    COL_NONE, COL_INK, NULL);
}

kv_fig *
fig_matrix(const kv_analysis *a, kv_text *t, const kv_mview *v, size_t r0,
    size_t r1, size_t c0, size_t c1)
{
	double lw, hh, cell, gx, gy, y, w;
	kv_fig *f;
	static const swatch sw[] = {
		{ COL_OK_BG, COL_OK, SYM_OK, "ok: the target takes the VM" },
		{ COL_FAIL_BG, COL_FAIL, "1", "1 label missing" },
		{ REFUSE2_BG, REFUSE2_INK, "3", "2\u20133 missing" },
		{ REFUSE4_BG, 0xffffffu, "4", "4 or more missing" },
		{ COL_SHADE, COL_MUTED, SYM_NONE, "no host-model CPU" },
	};

	fig_matrix_metrics(a, t, v, &lw, &hh, &cell);
	gx = PAD + lw;
	gy = PAD + 30 + hh;
	f = matrix_head(a, t, v, r0, r1, c0, c1, gx, gy, cell);
	matrix_grid(f, a, t, v, r0, r1, c0, c1, lw, gx, gy, cell);
	y = gy + (double)(r1 - r0) * cell + 18;
	w = legend(f, t, PAD, y, sw, sizeof(sw) / sizeof(sw[0]));
	if (v->aggregated) {
		y += 14;
		text(f, PAD, y, "Classes beyond the first 199 are aggregated "
		    "into the last row and column: a cell there shows the "
		    "worst pair.", FONT_REGULAR, SMALL_SIZE, ANCHOR_START,
		    COL_MUTED, NULL);
	}
	f->w = gx + (double)(c1 - c0) * cell + PAD;
	if (f->w < w + PAD)
		f->w = w + PAD;
	if (f->w < PAD * 2 + width_of(t, f->title, FONT_BOLD, TITLE_SIZE))
		f->w = PAD * 2 + width_of(t, f->title, FONT_BOLD, TITLE_SIZE);
	f->h = y + PAD + 4;
	return f;
}

/* --- the AVX2 / AVX-512 trade-off --------------------------------------- */

kv_fig *
fig_tradeoff(const kv_analysis *a, kv_text *t)
{
	kv_fig *f = fig_new("tradeoff", xstrdup("Capability against reach: "
	    "nodes a VM can use per CPU tier"), xstrdup("For each scope and "
	    "tier, the share of the scope's nodes that the best named model "
	    "of that tier runs on, and that model."));
	/* under DVP no vendor selector keeps a VM within its vendor */
	bool vsel = a->m->flavor->vendor_selector;
	const char *all_can = vsel ? "start" : "start and move";
	const char *vendor_can = vsel ? "move" : "stay within the vendor";
	double label_w = 70, bar_w = 200, model_w = 190, y;

	text(f, PAD, PAD + 10, f->title, FONT_BOLD, TITLE_SIZE, ANCHOR_START,
	    COL_INK, NULL);
	y = PAD + 18;
	for (size_t s = 0; s < a->nscopes; s++) {
		const kv_scope *sc = &a->scopes[s];
		char *head = strcmp(sc->name, "all") == 0 ?
		    xasprintf("all virtualization nodes (%zu): where a VM can "
		    "%s", sc->nnodes, all_can) : xasprintf("%s (%zu %s): "
		    "where a VM can %s", sc->name + (kv_startswith(sc->name,
		    "vendor:") ? 7 : 0), sc->nnodes, sc->nnodes == 1 ? "node" :
		    "nodes", vendor_can);

		y += 8;
		text_max(f, t, PAD, y + 10, head, FONT_BOLD, BODY_SIZE,
		    ANCHOR_START, COL_ACCENT, label_w + bar_w + model_w, NULL);
		free(head);
		y += 14;
		for (size_t k = 0; k < a->ntradeoff; k++) {
			const kv_tradeoff *tr = &a->tradeoff[k];
			double w = tr->of ? bar_w * (double)tr->nodes /
			    (double)tr->of : 0;
			char *n, *models, *tip;

			if (tr->scope != s)
				continue;
			n = xasprintf("%zu/%zu", tr->nodes, tr->of);
			models = tr->nmodels > 1 ? xasprintf("%s and %zu "
			    "more", tradeoff_model(a, tr), tr->nmodels - 1) :
			    xstrdup(tr->nmodels ? tr->models[0] : "no model");
			tip = xasprintf("%s, %s: %zu of %zu nodes; models: %s",
			    sc->name, tr->tier, tr->nodes, tr->of,
			    tr->nmodels ? "" : "none");
			if (tr->nmodels) {
				char *all = str_list(tr->models, tr->nmodels,
				    tr->nmodels), *tmp;

				tmp = xasprintf("%s%s", tip, all);
				free(tip);
				free(all);
				tip = tmp;
			}
			text(f, PAD + 8, y + 11, tr->tier, FONT_REGULAR,
			    BODY_SIZE, ANCHOR_START, COL_INK, NULL);
			rect(f, PAD + label_w, y + 2, bar_w, ROW_H - 5,
			    COL_SHADE, COL_RULE, NULL);
			if (w > 0)
				rect(f, PAD + label_w, y + 2, w, ROW_H - 5,
				    COL_ACCENT, COL_NONE, tip);
			else
				free(tip);
			text(f, PAD + label_w + bar_w + 4, y + 11, n,
			    FONT_BOLD, BODY_SIZE, ANCHOR_START, COL_INK, NULL);
			text_max(f, t, PAD + label_w + bar_w + 40, y + 11,
			    models, FONT_REGULAR, SMALL_SIZE, ANCHOR_START,
			    COL_MUTED, model_w - 40, NULL);
			free(n);
			free(models);
			y += ROW_H - 2;
		}
	}
	f->w = PAD * 2 + label_w + bar_w + model_w;
	f->h = y + PAD + 4;
	return f;
}

/* --- the drain plan ----------------------------------------------------- */

static int
drain_rank(const void *x, const void *y, void *arg)
{
	const kv_analysis *a = arg;
	const kv_drain *p = &a->drain[*(const size_t *)x];
	const kv_drain *q = &a->drain[*(const size_t *)y];

	if (p->block != q->block)
		return p->block > q->block ? -1 : 1;
	if (p->seconds != q->seconds)
		return p->seconds > q->seconds ? -1 : 1;
	return strcmp(a->m->nodes[p->node].name, a->m->nodes[q->node].name);
}

/* One node's bar of the drain figure at y: the parts in the colours of
 * sw (migrate, block, shutdown, external) and what they mean in words. */
static void
drain_bar(kv_fig *f, const kv_analysis *a, kv_text *t, const kv_drain *d,
    const swatch *sw, double label_w, double bar_w, size_t maxv, double y)
{
	const size_t part[4] = { d->migrate, d->block, d->shutdown,
	    d->external };
	double x = PAD + label_w;
	char *dur = fmt_duration(d->seconds), *what, *tip;
	kv_buf b = {0};

	for (int p = 0; p < 4; p++)
		if (part[p] > 0)
			kv_buf_printf(&b, "%s%zu %s", b.len ? ", " : "",
			    part[p], sw[p].word);
	what = xasprintf("%s%s%s", b.data ? b.data : "",
	    d->migrate ? " \u00b7 \u2248 " : "", d->migrate ? dur : "");
	tip = xasprintf("%s: %s", a->m->nodes[d->node].name, what);
	text_max(f, t, PAD + label_w - 6, y + 11, a->m->nodes[d->node].name,
	    FONT_REGULAR, BODY_SIZE, ANCHOR_END, COL_INK, label_w - 12, NULL);
	for (int p = 0; p < 4; p++) {
		double w = bar_w * (double)part[p] / (double)maxv;

		if (part[p] == 0)
			continue;
		rect(f, x, y + 2, w, ROW_H - 5, sw[p].bg, sw[p].ink,
		    xstrdup(tip));
		x += w;
	}
	text_max(f, t, PAD + label_w + bar_w + 6, y + 11, what, FONT_REGULAR,
	    SMALL_SIZE, ANCHOR_START, d->block ? COL_FAIL : d->shutdown ?
	    COL_WARN : COL_INK, 190, NULL);
	free(dur);
	free(what);
	free(tip);
	kv_buf_free(&b);
}

kv_fig *
fig_drain(const kv_analysis *a, kv_text *t)
{
	static const swatch sw[] = {
		{ COL_OK_BG, COL_OK, NULL, "migrating" },
		{ COL_FAIL_BG, COL_FAIL, NULL, "blocking the drain" },
		{ COL_WARN_BG, COL_WARN, NULL, "stopped" },
		{ COL_SHADE, COL_MUTED, NULL, "external" },
	};
	size_t n = a->ndrain < KV_DRAIN_FIG_MAX ? a->ndrain : KV_DRAIN_FIG_MAX;
	size_t *order = xcalloc(a->ndrain + 1, sizeof(size_t)), maxv = 1;
	double label_w = 40, bar_w = 180, y;
	kv_fig *f = fig_new("drain", xasprintf("What a drain of each node does "
	    "with its %s", W(VMS)), xasprintf("One bar per node: its %s by "
	    "what a drain does with them, and the estimated time to move "
	    "those that migrate.", W(VMS)));

	for (size_t i = 0; i < a->ndrain; i++) {
		order[i] = i;
		if (a->drain[i].vmis > maxv)
			maxv = a->drain[i].vmis;
	}
	qsort_r(order, a->ndrain, sizeof(size_t), drain_rank, (void *)a);
	for (size_t k = 0; k < n; k++) {
		double w = width_of(t,
		    a->m->nodes[a->drain[order[k]].node].name,
		    FONT_REGULAR, BODY_SIZE) + 12;

		if (w > label_w)
			label_w = w > 150 ? 150 : w;
	}
	text(f, PAD, PAD + 10, f->title, FONT_BOLD, TITLE_SIZE, ANCHOR_START,
	    COL_INK, NULL);
	y = PAD + 16;
	if (n < a->ndrain) {
		char *m = xasprintf("%zu of %zu nodes shown: those with the "
		    "most blocking %s, then the longest drains.", n,
		    a->ndrain, W(VMS));

		text(f, PAD, y + 10, m, FONT_REGULAR, SMALL_SIZE,
		    ANCHOR_START, COL_MUTED, NULL);
		free(m);
		y += 14;
	}
	y += 4;
	for (size_t k = 0; k < n; k++) {
		drain_bar(f, a, t, &a->drain[order[k]], sw, label_w, bar_w,
		    maxv, y);
		y += ROW_H - 2;
	}
	if (n == 0) {
		char *none = xasprintf("No node runs a %s.", W(VM));

		text(f, PAD, y + 10, none, FONT_REGULAR, BODY_SIZE,
		    ANCHOR_START, COL_MUTED, NULL);
		free(none);
		y += ROW_H;
	}
	y += 14;
	legend(f, t, PAD, y, sw, sizeof(sw) / sizeof(sw[0]));
	f->w = PAD * 2 + label_w + bar_w + 196;
	f->h = y + PAD + 4;
	free(order);
	return f;
}

/* --- cairo backend ------------------------------------------------------ */

static void
set_rgb(cairo_t *cr, uint32_t c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
	    ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

void
fig_cairo(const kv_fig *f, kv_text *t, cairo_t *cr, double x, double y)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	for (size_t i = 0; i < f->n; i++) {
		const kv_shape *s = &f->s[i];

		switch (s->kind) {
		case SHAPE_RECT:
			cairo_rectangle(cr, s->x, s->y, s->w, s->h);
			if (s->fill != COL_NONE) {
				set_rgb(cr, s->fill);
				cairo_fill_preserve(cr);
			}
			if (s->stroke != COL_NONE) {
				set_rgb(cr, s->stroke);
				cairo_set_line_width(cr, s->stroke_w);
				cairo_stroke_preserve(cr);
			}
			cairo_new_path(cr);
			break;
		case SHAPE_TEXT: {
			PangoLayout *l = text_layout(t, s->text, s->font,
			    s->size, 0);
			PangoRectangle r;
			double base, dx = 0;

			pango_layout_get_extents(l, NULL, &r);
			base = (double)pango_layout_get_baseline(l) /
			    PANGO_SCALE;
			if (s->anchor == ANCHOR_MIDDLE)
				dx = -(double)r.width / PANGO_SCALE / 2;
			else if (s->anchor == ANCHOR_END)
				dx = -(double)r.width / PANGO_SCALE;
			cairo_save(cr);
			cairo_translate(cr, s->x, s->y);
			if (s->rotate != 0)
				cairo_rotate(cr, s->rotate * M_PI / 180.0);
			text_draw(t, cr, l, dx, -base, s->fill);
			cairo_restore(cr);
			g_object_unref(l);
			break;
		}
		}
	}
	cairo_restore(cr);
}
