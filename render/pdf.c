/*
 * pdf.c - the typeset PDF report (kv_write_pdf, render.h).
 *
 * cairo PDF surface, pango text (plain text and attribute lists, never
 * markup), A4 portrait.  The document: a title page with the snapshot's
 * facts and the headline, a table of contents, then one section per page
 * group in the HTML's order, each with a running header (cluster, section)
 * and footer (snapshot date, "page n of N").  Tables break across pages
 * and repeat their header row; figures are the shape lists of figures.c,
 * drawn as vectors (the class matrix in tiles when it is wider or taller
 * than a page).
 *
 * Two passes: the first lays out the body without drawing, to learn the
 * page of every heading and the page count; the second draws the title
 * page, the contents (now with page numbers) and the body.  The body
 * starts on a fresh page after the contents, so its layout does not depend
 * on them.  Row heights measured in the first pass are reused in the
 * second.  Dates come from report_date(), so the same snapshot gives the
 * same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "render.h"
#include "report.h"

#define PAGE_W		595.28
#define PAGE_H		841.89
#define MX		56.0		/* left and right margin */
#define TOP		70.0		/* body starts here */
#define BOTTOM		(PAGE_H - 62.0)	/* and ends here */
#define CW		(PAGE_W - 2 * MX)

#define W(w)		kv_word(a, KV_WORD_##w)

#define BODY		9.0
#define PDF_MODELS	12		/* models listed in a cell; the HTML
					 * and findings.json list them all */
#define SMALL		7.5
#define CELL_PAD	3.0

typedef struct tocent {
	char *title;
	int level;
	int page;		/* body-relative in pass 1, absolute after */
} tocent;

typedef struct pdoc {
	const kv_analysis *a;
	kv_text *t;
	cairo_surface_t *surf;	/* NULL while measuring */
	cairo_t *cr;
	int page;		/* current page, 1-based */
	int offset;		/* pages before the body */
	int npages;		/* all pages (second pass) */
	double y;
	const char *section;	/* running header */
	int outline;		/* current level-1 outline id */
	kv_mview mv;
	char date[21];		/* the document's date */
	char snapdate[21];	/* the snapshot's */
	char *title;		/* report_title() */
	char *sections[SEC_COUNT];	/* section_title() */
	/* first pass results */
	size_t ntoc, captoc, itoc;
	tocent *toc;
	size_t nh, caph, ih;
	double *heights;	/* body table row heights, in emission order */
	bool replay;		/* second pass over the body: reuse them */
	const char *pending;	/* a level-2 heading waiting for content */
} pdoc;

/* --- colour and text --------------------------------------------------- */

static void
rgb(cairo_t *cr, uint32_t c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
	    ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

static void
fill_rect(pdoc *d, double x, double y, double w, double h, uint32_t c)
{
	if (d->cr == NULL)
		return;
	rgb(d->cr, c);
	cairo_rectangle(d->cr, x, y, w, h);
	cairo_fill(d->cr);
}

static void
hrule(pdoc *d, double x, double y, double w, double width, uint32_t c)
{
	if (d->cr == NULL)
		return;
	rgb(d->cr, c);
	cairo_set_line_width(d->cr, width);
	cairo_move_to(d->cr, x, y);
	cairo_rel_line_to(d->cr, w, 0);
	cairo_stroke(d->cr);
}

/* One line of text at (x, y) top, anchored left or right; returns width. */
static double
label(pdoc *d, double x, double y, const char *s, enum kv_font font,
    double size, uint32_t ink, bool right)
{
	PangoLayout *l = text_layout(d->t, s, font, size, 0);
	int w, h;

	pango_layout_get_size(l, &w, &h);
	if (d->cr != NULL)
		text_draw(d->t, d->cr, l, right ? x - (double)w / PANGO_SCALE :
		    x, y, ink);
	g_object_unref(l);
	return (double)w / PANGO_SCALE;
}

/* --- pages ---------------------------------------------------------------- */

static void
page_furniture(pdoc *d)
{
	const snap_manifest *mf = &d->a->m->manifest;
	char *left, *right;

	if (d->cr == NULL)
		return;
	if (d->page > 1) {
		double sw = d->section == NULL ? 0 : label(d, PAGE_W - MX, 34,
		    d->section, FONT_BOLD, SMALL, COL_MUTED, true);
		char *full = xasprintf("%s \u00b7 %s", d->title,
		    mf->context ? mf->context : "(unnamed cluster)");

		/* a long cluster name yields to the section title */
		left = text_fit(d->t, full, FONT_REGULAR, SMALL, CW - sw - 16);
		label(d, MX, 34, left, FONT_REGULAR, SMALL, COL_MUTED, false);
		hrule(d, MX, 47, CW, 0.5, COL_RULE);
		free(full);
		free(left);
	}
	hrule(d, MX, BOTTOM + 22, CW, 0.5, COL_RULE);
	left = xasprintf("Snapshot taken %s", d->snapdate);
	right = xasprintf("Page %d of %d", d->page, d->npages);
	label(d, MX, BOTTOM + 28, left, FONT_REGULAR, SMALL, COL_MUTED, false);
	label(d, PAGE_W - MX, BOTTOM + 28, right, FONT_REGULAR, SMALL,
	    COL_MUTED, true);
	free(left);
	free(right);
}

static void
new_page(pdoc *d)
{
	if (d->cr != NULL)
		cairo_show_page(d->cr);
	d->page++;
	d->y = TOP;
	page_furniture(d);
}

static double
room(const pdoc *d)
{
	return BOTTOM - d->y;
}

static void
need(pdoc *d, double h)
{
	if (h > room(d) && d->y > TOP)
		new_page(d);
}

static void keep(pdoc *, double);

/* --- paragraphs ------------------------------------------------------------ */

/* Text wrapped to width w at x, line by line across pages. */
static void
para_at(pdoc *d, double x, double w, const char *s, enum kv_font font,
    double size, uint32_t ink, double after)
{
	PangoLayout *l = text_layout(d->t, s, font, size, w);
	PangoLayoutIter *it = pango_layout_get_iter(l);

	do {
		PangoRectangle r;
		double lh, base;

		pango_layout_iter_get_line_extents(it, NULL, &r);
		lh = (double)r.height / PANGO_SCALE;
		base = (double)(pango_layout_iter_get_baseline(it) - r.y) /
		    PANGO_SCALE;
		keep(d, lh);
		if (lh > room(d))
			new_page(d);
		if (d->cr != NULL) {
			cairo_save(d->cr);
			rgb(d->cr, ink);
			cairo_move_to(d->cr, x, d->y + base);
			pango_cairo_show_layout_line(d->cr,
			    pango_layout_iter_get_line_readonly(it));
			cairo_restore(d->cr);
		}
		d->y += lh;
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
	g_object_unref(l);
	d->y += after;
}

static void
para(pdoc *d, const char *s, enum kv_font font, double size, uint32_t ink)
{
	para_at(d, MX, CW, s, font, size, ink, size * 0.6);
}

static void
para_own(pdoc *d, char *s, enum kv_font font, double size, uint32_t ink)
{
	para(d, s, font, size, ink);
	free(s);
}

/* The answer of a section: larger, bold. */
static void
answer(pdoc *d, char *s)
{
	para_at(d, MX, CW, s, FONT_BOLD, 10.5, COL_INK, 6);
	free(s);
}

/* A shaded box with an accent bar: the vendor rule and similar notes. */
static void
boxed(pdoc *d, const char *s)
{
	PangoLayout *l = text_layout(d->t, s, FONT_REGULAR, 8, CW - 18);
	int w, h;
	double hh;

	pango_layout_get_size(l, &w, &h);
	g_object_unref(l);
	hh = (double)h / PANGO_SCALE + 10;
	keep(d, hh);
	need(d, hh);
	fill_rect(d, MX, d->y, CW, hh, COL_SHADE);
	fill_rect(d, MX, d->y, 3, hh, COL_ACCENT);
	d->y += 5;
	para_at(d, MX + 12, CW - 18, s, FONT_REGULAR, 8, COL_INK, 0);
	d->y += 5 + 8;
}

/* --- headings and contents ------------------------------------------------ */

static void
toc_add(pdoc *d, const char *title, int level)
{
	if (d->cr != NULL) {
		d->itoc++;
		return;
	}
	KV_GROW(d->toc, d->captoc, d->ntoc + 1);
	d->toc[d->ntoc].title = xstrdup(title);
	d->toc[d->ntoc].level = level;
	d->toc[d->ntoc].page = d->page;
	d->ntoc++;
}

static void
dest_begin(pdoc *d, size_t n)
{
	char attr[32];

	snprintf(attr, sizeof(attr), "name='s%zu'", n);
	cairo_tag_begin(d->cr, CAIRO_TAG_DEST, attr);
}

/* A numbered section: always on a new page. */
static void
heading1(pdoc *d, const char *title)
{
	size_t n;

	keep(d, 0);
	n = d->cr != NULL ? d->itoc : d->ntoc;
	d->section = title;
	new_page(d);
	if (d->cr != NULL) {
		char attr[32];

		snprintf(attr, sizeof(attr), "dest='s%zu'", n);
		d->outline = cairo_pdf_surface_add_outline(d->surf,
		    CAIRO_PDF_OUTLINE_ROOT, title, attr,
		    CAIRO_PDF_OUTLINE_FLAG_OPEN);
		dest_begin(d, n);
	}
	label(d, MX, d->y, title, FONT_BOLD, 17, COL_ACCENT, false);
	if (d->cr != NULL)
		cairo_tag_end(d->cr, CAIRO_TAG_DEST);
	d->y += 24;
	hrule(d, MX, d->y, CW, 0.8, COL_ACCENT);
	d->y += 10;
	toc_add(d, title, 1);
}

/* A subsection heading.  It is drawn by keep(), called by whatever
 * comes next with the height of its first line or row, so a heading never
 * ends a page on its own. */
static void
heading2(pdoc *d, const char *title)
{
	d->pending = title;
}

#define H2_HEIGHT 24.0

static void
keep(pdoc *d, double next)
{
	const char *title = d->pending;
	size_t n = d->cr != NULL ? d->itoc : d->ntoc;

	if (title == NULL)
		return;
	d->pending = NULL;
	need(d, H2_HEIGHT + next);
	d->y += 6;
	if (d->cr != NULL) {
		char attr[32];

		snprintf(attr, sizeof(attr), "dest='s%zu'", n);
		cairo_pdf_surface_add_outline(d->surf, d->outline, title, attr,
		    0);
		dest_begin(d, n);
	}
	label(d, MX, d->y, title, FONT_BOLD, 11, COL_INK, false);
	if (d->cr != NULL)
		cairo_tag_end(d->cr, CAIRO_TAG_DEST);
	d->y += H2_HEIGHT - 6;
	toc_add(d, title, 2);
}

#define TOC_ROW 16.0

/* Pages the contents take for the first pass's entries. */
static int
toc_pages(const pdoc *d)
{
	double first = BOTTOM - TOP - 40, h;
	size_t per;

	if (d->ntoc == 0)
		return 1;
	h = first / TOC_ROW;
	per = (size_t)h;
	if (d->ntoc <= per)
		return 1;
	return 1 + (int)kv_chunks(d->ntoc - per,
	    (size_t)((BOTTOM - TOP) / TOC_ROW));
}

static void
contents(pdoc *d)
{
	d->section = "Contents";
	new_page(d);
	label(d, MX, d->y, "Contents", FONT_BOLD, 17, COL_ACCENT, false);
	d->y += 40;
	for (size_t i = 0; i < d->ntoc; i++) {
		const tocent *e = &d->toc[i];
		double x = MX + (e->level == 1 ? 0 : 18), w;
		char num[16], attr[32];

		if (d->y + TOC_ROW > BOTTOM)
			new_page(d);
		snprintf(attr, sizeof(attr), "dest='s%zu'", i);
		snprintf(num, sizeof(num), "%d", e->page);
		cairo_tag_begin(d->cr, CAIRO_TAG_LINK, attr);
		w = label(d, x, d->y, e->title, e->level == 1 ? FONT_BOLD :
		    FONT_REGULAR, e->level == 1 ? 10 : 9, COL_INK, false);
		label(d, PAGE_W - MX, d->y, num, e->level == 1 ? FONT_BOLD :
		    FONT_REGULAR, e->level == 1 ? 10 : 9, COL_INK, true);
		cairo_tag_end(d->cr, CAIRO_TAG_LINK);
		/* dotted leader */
		cairo_save(d->cr);
		rgb(d->cr, COL_RULE);
		cairo_set_line_width(d->cr, 0.8);
		cairo_set_dash(d->cr, (double[]){ 0.8, 3 }, 2, 0);
		cairo_move_to(d->cr, x + w + 6, d->y + 9);
		cairo_line_to(d->cr, PAGE_W - MX - 22, d->y + 9);
		cairo_stroke(d->cr);
		cairo_restore(d->cr);
		d->y += TOC_ROW;
	}
}

/* --- tables --------------------------------------------------------------- */

typedef struct pcol {
	const char *head;
	double w;		/* share of the content width */
	bool right;
} pcol;

typedef struct pcell {
	char *text;
	enum kv_font font;
	uint32_t ink, bg;
	PangoAttrList *attrs;	/* or NULL */
} pcell;

typedef struct ptable {
	const pcol *cols;
	size_t ncols;
	bool noheader;
	double size;
	size_t nrows, cap;
	pcell *cells;		/* nrows * ncols */
	bool *group;		/* spans the row, keeps with the next */
} ptable;

static void
tbl_init(ptable *t, const pcol *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->size = SMALL;
}

/* A new row; cells default to regular ink, no text. */
static pcell *
tbl_row(ptable *t)
{
	pcell *row;

	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = xreallocarray(t->cells, t->cap * t->ncols,
		    sizeof(pcell));
		t->group = xreallocarray(t->group, t->cap, sizeof(bool));
	}
	row = &t->cells[t->nrows * t->ncols];
	memset(row, 0, t->ncols * sizeof(pcell));
	for (size_t i = 0; i < t->ncols; i++) {
		row[i].ink = COL_INK;
		row[i].bg = COL_NONE;
	}
	t->group[t->nrows] = false;
	t->nrows++;
	return row;
}

static void
cell(pcell *c, char *text, enum kv_font font, uint32_t ink)
{
	c->text = text;
	c->font = font;
	c->ink = ink;
}

static void
cellc(pcell *c, const char *text)
{
	cell(c, xstrdup(text), FONT_REGULAR, COL_INK);
}

static void
tbl_group(ptable *t, char *text)
{
	pcell *row = tbl_row(t);

	cell(&row[0], text, FONT_BOLD, COL_INK);
	row[0].bg = 0xe4ebf2u;
	t->group[t->nrows - 1] = true;
}

static void
tbl_free(ptable *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++) {
		free(t->cells[i].text);
		if (t->cells[i].attrs != NULL)
			pango_attr_list_unref(t->cells[i].attrs);
	}
	free(t->cells);
	free(t->group);
}

static double
col_w(const ptable *t, size_t i)
{
	return t->cols[i].w * CW;
}

static PangoLayout *
cell_layout(pdoc *d, const ptable *t, const pcell *c, double w, bool head,
    bool right)
{
	PangoLayout *l = text_layout(d->t, c->text ? c->text : "",
	    head ? FONT_BOLD : c->font, t->size, w - 2 * CELL_PAD);

	if (c->attrs != NULL) {
		PangoAttrList *al = pango_attr_list_copy(c->attrs);

		pango_layout_set_attributes(l, al);
		pango_attr_list_unref(al);
		text_no_hyphens(l);
	}
	if (right)
		pango_layout_set_alignment(l, PANGO_ALIGN_RIGHT);
	return l;
}

static double
layout_h(PangoLayout *l)
{
	int w, h;

	pango_layout_get_size(l, &w, &h);
	return (double)h / PANGO_SCALE;
}

/* Height of row r (measured, or from the first pass). */
static double
row_height(pdoc *d, const ptable *t, size_t r)
{
	const pcell *row = &t->cells[r * t->ncols];
	double h = 0;

	if (d->replay && d->ih < d->nh)
		return d->heights[d->ih++];
	for (size_t i = 0; i < (t->group[r] ? 1 : t->ncols); i++) {
		PangoLayout *l = cell_layout(d, t, &row[i], t->group[r] ? CW :
		    col_w(t, i), false, false);
		double ch = layout_h(l);

		g_object_unref(l);
		if (ch > h)
			h = ch;
	}
	h += 2 * CELL_PAD;
	if (d->cr == NULL) {	/* measuring the body */
		KV_GROW(d->heights, d->caph, d->nh + 1);
		d->heights[d->nh++] = h;
	}
	return h;
}

static double
header_h(pdoc *d, const ptable *t)
{
	double h = 0;

	if (t->noheader)
		return 0;
	for (size_t i = 0; i < t->ncols; i++) {
		pcell c = { .text = (char *)t->cols[i].head };
		PangoLayout *l = cell_layout(d, t, &c, col_w(t, i), true,
		    false);
		double ch = layout_h(l);

		g_object_unref(l);
		if (ch > h)
			h = ch;
	}
	return h + 2 * CELL_PAD;
}

static void
draw_cell(pdoc *d, const ptable *t, const pcell *c, double x, double w,
    double y, double h, bool head, bool right)
{
	PangoLayout *l;

	if (c->bg != COL_NONE)
		fill_rect(d, x, y, w, h, c->bg);
	if (c->text == NULL || d->cr == NULL)
		return;
	l = cell_layout(d, t, c, w, head, right);
	text_draw(d->t, d->cr, l, x + CELL_PAD, y + CELL_PAD, head ? COL_INK :
	    c->ink);
	g_object_unref(l);
}

static void
draw_header(pdoc *d, const ptable *t, double hh)
{
	double x = MX;

	if (t->noheader)
		return;
	fill_rect(d, MX, d->y, CW, hh, COL_SHADE);
	for (size_t i = 0; i < t->ncols; i++) {
		pcell c = { .text = (char *)t->cols[i].head, .bg = COL_NONE };

		draw_cell(d, t, &c, x, col_w(t, i), d->y, hh, true,
		    t->cols[i].right);
		x += col_w(t, i);
	}
	hrule(d, MX, d->y + hh, CW, 0.8, COL_MUTED);
	d->y += hh;
}

static void
draw_row(pdoc *d, const ptable *t, size_t r, double h)
{
	const pcell *row = &t->cells[r * t->ncols];
	double x = MX;

	if (t->group[r]) {
		draw_cell(d, t, &row[0], MX, CW, d->y, h, false, false);
		hrule(d, MX, d->y, CW, 0.8, COL_ACCENT);
	} else
		for (size_t i = 0; i < t->ncols; i++) {
			draw_cell(d, t, &row[i], x, col_w(t, i), d->y, h,
			    false, t->cols[i].right);
			x += col_w(t, i);
		}
	hrule(d, MX, d->y + h, CW, 0.3, COL_RULE);
	d->y += h;
}

/* Lay out and draw t: rows break across pages, the header repeats, a
 * group row stays with the row after it. */
static void
tbl_emit(pdoc *d, ptable *t)
{
	double hh = header_h(d, t);
	double *rh = xcalloc(t->nrows + 1, sizeof(double));
	double *uh = xcalloc(t->nrows + 1, sizeof(double));
	size_t *ufirst = xcalloc(t->nrows + 1, sizeof(size_t));
	size_t *starts = xcalloc(t->nrows + 1, sizeof(size_t));
	size_t nunits = 0, npages;
	bool skip;

	/* units: a group row with the row after it */
	for (size_t r = 0; r < t->nrows; r++) {
		rh[r] = row_height(d, t, r);
		if (r > 0 && t->group[r - 1])
			uh[nunits - 1] += rh[r];
		else {
			ufirst[nunits] = r;
			uh[nunits++] = rh[r];
		}
	}
	ufirst[nunits] = t->nrows;
	keep(d, hh + (nunits ? uh[0] : 0));
	npages = kv_paginate(uh, nunits, room(d), BOTTOM - TOP, hh, starts,
	    &skip);
	if (skip)
		new_page(d);
	for (size_t p = 0; p < npages; p++) {
		size_t u1 = p + 1 < npages ? starts[p + 1] : nunits;

		if (p > 0)
			new_page(d);
		draw_header(d, t, hh);
		for (size_t u = starts[p]; u < u1; u++)
			for (size_t r = ufirst[u]; r < ufirst[u + 1]; r++)
				draw_row(d, t, r, rh[r]);
	}
	d->y += 10;
	free(rh);
	free(uh);
	free(ufirst);
	free(starts);
	tbl_free(t);
}

/* --- figures ---------------------------------------------------------------- */

/* f at most max times its size, never wider than the text; the figure's
 * own padding sits in the margin, so its content lines up with the text */
static void
figure_scaled(pdoc *d, kv_fig *f, bool caption, double max)
{
	double s = (CW + 12) / f->w;

	if (s > max)
		s = max;
	keep(d, f->h * s + 6);
	need(d, f->h * s + 6);
	if (d->cr != NULL) {
		cairo_save(d->cr);
		cairo_translate(d->cr, MX - 6 * s, d->y);
		cairo_scale(d->cr, s, s);
		fig_cairo(f, d->t, d->cr, 0, 0);
		cairo_restore(d->cr);
	}
	d->y += f->h * s + 4;
	if (caption)
		para(d, f->desc, FONT_REGULAR, SMALL, COL_MUTED);
	d->y += 6;
	fig_free(f);
}

static void
figure(pdoc *d, kv_fig *f, bool caption)
{
	figure_scaled(d, f, caption, 1.0);
}

/* The class matrix in tiles: column bands that fit the width, row chunks
 * that fit the page. */
static void
matrix(pdoc *d)
{
	const kv_analysis *a = d->a;
	double lw, hh, cell, over;
	double *w = xcalloc(d->mv.n + 1, sizeof(double));
	size_t *bands = xcalloc(d->mv.n + 1, sizeof(size_t));
	size_t *rows = xcalloc(d->mv.n + 1, sizeof(size_t));
	size_t nb, nr;
	bool skip;

	fig_matrix_metrics(a, d->t, &d->mv, &lw, &hh, &cell);
	for (size_t i = 0; i < d->mv.n; i++)
		w[i] = cell;
	/* 6 pt of figure padding on each side */
	nb = kv_band(w, d->mv.n, lw + 12, CW, bands);
	/* title, axis, column heads, legend and notes around the cells: the
	 * height of a tile without rows, and the figure's own spacing */
	{
		kv_fig *empty = fig_matrix(a, d->t, &d->mv, 0, 0, 0, 0);

		over = empty->h + 10;
		fig_free(empty);
	}
	nr = kv_paginate(w, d->mv.n, room(d) - over, BOTTOM - TOP - over, 0,
	    rows, &skip);
	if (skip)
		new_page(d);
	for (size_t b = 0; b < nb; b++)
		for (size_t r = 0; r < nr; r++) {
			size_t c0 = bands[b], c1 = b + 1 < nb ? bands[b + 1] :
			    d->mv.n;
			size_t r0 = rows[r], r1 = r + 1 < nr ? rows[r + 1] :
			    d->mv.n;

			if (b + r > 0)
				new_page(d);
			figure_scaled(d, fig_matrix(a, d->t, &d->mv, r0, r1,
			    c0, c1), b + 1 == nb && r + 1 == nr,
			    nb == 1 && nr == 1 ? 1.4 : 1.0);
		}
	free(w);
	free(bands);
	free(rows);
}

/* --- the title page ------------------------------------------------------------ */

/* A two-column table of facts, without a header; takes v over. */
static void
facts(pdoc *d, kv_fact *v, size_t n, double size)
{
	static const pcol cols[] = {
		{ "Fact", 0.38, false }, { "Value", 0.62, false },
	};
	ptable t;

	tbl_init(&t, cols, 2);
	t.noheader = true;
	t.size = size;
	for (size_t i = 0; i < n; i++) {
		pcell *row = tbl_row(&t);

		cell(&row[0], xstrdup(v[i].key), FONT_REGULAR, COL_MUTED);
		cell(&row[1], v[i].value, FONT_REGULAR, COL_INK);
		v[i].value = NULL;
	}
	tbl_emit(d, &t);
	facts_free(v, n);
}

static void
title_page(pdoc *d)
{
	const kv_analysis *a = d->a;
	const snap_manifest *mf = &a->m->manifest;
	const kv_summary *s = &a->summary;
	bool bad = s->verdicts[V_BLOCKED] + s->verdicts[V_NO_TARGET] +
	    s->verdicts[V_WILL_FAIL] + s->verdicts[V_STUCK] > 0;
	char *head, *sub;
	PangoLayout *l;
	double bh;
	kv_fact *fv;
	size_t nf;

	d->section = NULL;
	d->page = 1;
	d->y = TOP;
	page_furniture(d);
	fill_rect(d, 0, 0, PAGE_W, 10, COL_ACCENT);
	d->y = 110;
	para_at(d, MX, CW, d->title, FONT_BOLD,
	    strlen(kv_word(d->a, KV_WORD_PRODUCT)) > 20 ? 17 : 24, COL_INK, 10);
	para_at(d, MX, CW, mf->context ? mf->context : "(unnamed cluster)",
	    FONT_REGULAR, 16, COL_ACCENT, 6);
	sub = xasprintf("Snapshot taken %s", d->snapdate);
	para_at(d, MX, CW, sub, FONT_REGULAR, 10, COL_MUTED, 24);
	free(sub);

	head = prose_headline(a);
	l = text_layout(d->t, head, FONT_BOLD, 12.5, CW - 28);
	bh = layout_h(l) + 40;
	g_object_unref(l);
	fill_rect(d, MX, d->y, CW, bh, bad ? COL_FAIL_BG : COL_OK_BG);
	fill_rect(d, MX, d->y, 4, bh, bad ? COL_FAIL : COL_OK);
	d->y += 10;
	para_at(d, MX + 14, CW - 28, head, FONT_BOLD, 12.5, COL_INK, 4);
	free(head);
	sub = prose_verdicts(a);
	para_at(d, MX + 14, CW - 28, sub, FONT_REGULAR, 9, COL_INK, 0);
	free(sub);
	d->y += 22;

	fv = snapshot_facts(a, &nf);
	facts(d, fv, nf, 8.5);
	d->y += 8;
	figure(d, fig_verdicts(a, d->t), false);

	sub = xasprintf("Generated by kvscope %s. Document date %s. The same "
	    "conclusions are in findings.json, written with this report.",
	    KV_VERSION, d->date);
	d->y = BOTTOM - 24;
	para(d, sub, FONT_REGULAR, SMALL, COL_MUTED);
	free(sub);
}

/* --- the sections -------------------------------------------------------------- */

static void
sec_summary(pdoc *d)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ "Verdict", 0.16, false }, { "VMs", 0.08, true },
		{ "Meaning", 0.76, false },
	};
	ptable t;
	char *note;

	heading1(d, d->sections[SEC_SUMMARY]);
	answer(d, prose_headline(a));
	para_own(d, drain_headline(a), FONT_REGULAR, BODY, COL_INK);
	para_own(d, prose_verdicts(a), FONT_REGULAR, BODY, COL_INK);
	d->y += 4;
	figure(d, fig_verdicts(a, d->t), true);
	tbl_init(&t, cols, 3);
	for (int v = 0; v < V_COUNT; v++) {
		pcell *row = tbl_row(&t);
		enum kv_tone tone = verdict_tone((enum kv_verdict)v);

		cell(&row[0], xasprintf("%s %s", verdict_symbol(
		    (enum kv_verdict)v), kv_verdict_names[v]), FONT_BOLD,
		    tone_ink(tone));
		cell(&row[1], xasprintf("%zu", a->summary.verdicts[v]),
		    FONT_REGULAR, COL_INK);
		cellc(&row[2], verdict_meaning((enum kv_verdict)v));
	}
	tbl_emit(d, &t);
	if ((note = prose_mismatch(a)) != NULL)
		para_own(d, note, FONT_REGULAR, BODY, COL_WARN);
}

static void
sec_cluster(pdoc *d)
{
	const kv_analysis *a = d->a;
	const kv_model *m = a->m;
	const pcol ncols[] = {
		{ "Node", 0.22, false }, { "Class", 0.07, false },
		{ "Vendor", 0.08, false }, { "Host model", 0.19, false },
		{ "Level", 0.07, true }, { "AVX2", 0.07, false },
		{ "AVX-512", 0.09, false }, { "Schedulable", 0.13, false },
		{ "VMs", 0.08, true },
	};
	ptable t;
	char *absent;
	kv_fact *fv;
	size_t nf;

	heading1(d, d->sections[SEC_CLUSTER]);
	answer(d, prose_cluster(a));

	heading2(d, "What the snapshot lacked");
	para_own(d, prose_lacked(a), FONT_REGULAR, BODY, COL_INK);
	for (size_t i = 0; i < a->nwarnings; i++) {
		char *s = xasprintf("\u2022 %s", a->warnings[i]);

		para_at(d, MX + 10, CW - 10, s, FONT_REGULAR, BODY, COL_INK, 2);
		free(s);
	}
	if ((absent = prose_absent(a)) != NULL)
		para_own(d, absent, FONT_REGULAR, SMALL, COL_MUTED);

	heading2(d, "Effective migration settings");
	fv = settings_facts(a, &nf);
	facts(d, fv, nf, SMALL);

	heading2(d, "Nodes");
	tbl_init(&t, ncols, 9);
	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_nodeinfo *ni = &a->nodes[i];
		pcell *row = tbl_row(&t);

		cellc(&row[0], m->nodes[i].name);
		cellc(&row[1], node_class(a, i));
		cellc(&row[2], ni->vendor ? ni->vendor : SYM_NONE);
		cellc(&row[3], ni->host_model ? ni->host_model : SYM_NONE);
		cell(&row[4], ni->level >= 0 ? xasprintf("v%d", ni->level) :
		    xstrdup(SYM_NONE), FONT_REGULAR, COL_INK);
		cellc(&row[5], ni->avx2 ? "yes" : "no");
		cellc(&row[6], ni->avx512f ? "yes" : "no");
		if (!ni->kubevirt)
			cell(&row[7], xstrdup("no CPU labels"), FONT_REGULAR,
			    COL_MUTED);
		else if (ni->schedulable)
			cell(&row[7], xstrdup(SYM_OK " yes"), FONT_BOLD,
			    COL_OK);
		else
			cell(&row[7], xstrdup(SYM_WARN " no"), FONT_BOLD,
			    COL_WARN);
		cell(&row[8], xasprintf("%zu", ni->nvmis), FONT_REGULAR,
		    COL_INK);
	}
	tbl_emit(d, &t);
}

static void
sec_classes(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Class", 0.07, false }, { "Vendor", 0.08, false },
		{ "Host model", 0.18, false }, { "Level", 0.07, true },
		{ "Required features", 0.38, false }, { "Nodes", 0.22, false },
	};
	ptable t;
	char *note;

	heading1(d, d->sections[SEC_CLASSES]);
	answer(d, prose_matrix(a));
	para(d, prose_matrix_howto(), FONT_REGULAR, BODY, COL_INK);
	if (a->nclasses == 0)
		return;
	if ((note = prose_aggregated(a)) != NULL)
		para_own(d, note, FONT_REGULAR, BODY, COL_WARN);
	matrix(d);
	heading2(d, "The classes and their nodes");
	tbl_init(&t, cols, 6);
	for (size_t i = 0; i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];
		pcell *row = tbl_row(&t);
		char *names = node_list(a, c->nodes, c->nnodes, 30);

		cellc(&row[0], c->id);
		cellc(&row[1], c->vendor ? c->vendor : SYM_NONE);
		cellc(&row[2], c->host_model ? c->host_model :
		    "(no host model)");
		cell(&row[3], c->level >= 0 ? xasprintf("v%d", c->level) :
		    xstrdup(SYM_NONE), FONT_REGULAR, COL_INK);
		cell(&row[4], c->nreq ? str_list(c->req, c->nreq, c->nreq) :
		    xstrdup(SYM_NONE), FONT_MONO, COL_INK);
		cell(&row[5], xasprintf("%zu: %s", c->nnodes, names),
		    FONT_REGULAR, COL_INK);
		free(names);
	}
	tbl_emit(d, &t);
}

static void
sec_models(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol scols[] = {
		{ "Scope", 0.14, false }, { "Nodes", 0.08, true },
		{ "Best common models", 0.24, false },
		{ "All common models", 0.54, false },
	};
	static const pcol mcols[] = {
		{ "Model", 0.25, false }, { "Vendor", 0.08, false },
		{ "Level", 0.07, true }, { "AVX2", 0.07, false },
		{ "AVX-512", 0.09, false }, { "Nodes", 0.07, true },
		{ "Runs on", 0.37, false },
	};
	const char *rule = prose_vendor_rule(a);
	ptable t;

	heading1(d, d->sections[SEC_MODELS]);
	answer(d, prose_named(a));
	if (rule != NULL)
		boxed(d, rule);
	tbl_init(&t, scols, 4);
	for (size_t i = 0; i < a->nscopes; i++) {
		const kv_scope *sc = &a->scopes[i];
		pcell *row = tbl_row(&t);

		cellc(&row[0], sc->name);
		cell(&row[1], xasprintf("%zu", sc->nnodes), FONT_REGULAR,
		    COL_INK);
		cell(&row[2], sc->nbest ? str_list(sc->best, sc->nbest,
		    sc->nbest) : xstrdup("none"), FONT_MONO, COL_INK);
		cell(&row[3], sc->ncommon ? str_list(sc->common, sc->ncommon,
		    PDF_MODELS) : xstrdup("none"), FONT_MONO, COL_INK);
	}
	tbl_emit(d, &t);
	heading2(d, "Every usable named model");
	tbl_init(&t, mcols, 7);
	for (size_t i = 0; i < a->nnamed; i++) {
		const kv_named *nm = &a->named[i];
		const cpudb_model *cm = nm->info;
		pcell *row = tbl_row(&t);

		cell(&row[0], xstrdup(nm->model), FONT_MONO, COL_INK);
		cellc(&row[1], cm ? cm->vendor ? cm->vendor : SYM_NONE : "unknown");
		cell(&row[2], cm ? xasprintf("v%d", cm->level) :
		    xstrdup(SYM_NONE), FONT_REGULAR, COL_INK);
		cellc(&row[3], cm ? cm->avx2 ? "yes" : "no" : SYM_NONE);
		cellc(&row[4], cm ? cm->avx512f ? "yes" : "no" : SYM_NONE);
		cell(&row[5], xasprintf("%zu", nm->nnodes), FONT_REGULAR,
		    COL_INK);
		cell(&row[6], node_list(a, nm->nodes, nm->nnodes, 12),
		    FONT_REGULAR, COL_INK);
	}
	tbl_emit(d, &t);
}

static void
sec_tradeoff(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Scope", 0.14, false }, { "Tier", 0.1, false },
		{ "Nodes", 0.09, true }, { "Models reaching them", 0.45, false },
		{ "Nodes left out", 0.22, false },
	};
	const char *rule = prose_vendor_rule(a);
	ptable t;

	heading1(d, d->sections[SEC_TRADEOFF]);
	answer(d, prose_tradeoff(a));
	para(d, prose_tradeoff_howto(), FONT_REGULAR, BODY, COL_INK);
	if (rule != NULL)
		boxed(d, rule);
	figure(d, fig_tradeoff(a, d->t), true);
	tbl_init(&t, cols, 5);
	for (size_t i = 0; i < a->ntradeoff; i++) {
		const kv_tradeoff *tr = &a->tradeoff[i];
		pcell *row = tbl_row(&t);

		cellc(&row[0], a->scopes[tr->scope].name);
		cellc(&row[1], tr->tier);
		cell(&row[2], xasprintf("%zu of %zu", tr->nodes, tr->of),
		    FONT_REGULAR, COL_INK);
		cell(&row[3], tr->nmodels ? str_list(tr->models, tr->nmodels,
		    PDF_MODELS) : xstrdup("none"), FONT_MONO, COL_INK);
		cell(&row[4], tr->nexcluded ? node_list(a, tr->excluded,
		    tr->nexcluded, 12) : xstrdup(SYM_NONE), FONT_REGULAR,
		    COL_INK);
	}
	tbl_emit(d, &t);
}

/* The blockers and warnings of a VMI: one line each, the symbol coloured
 * and the code bold through an attribute list (no markup).  A VMI that
 * migrates gets its warnings' codes only (the glossary explains them, the
 * HTML and findings.json have the messages), so long tables stay short. */
static void
issues_cell(pcell *c, const kv_vmires *r)
{
	kv_buf b = {0};
	PangoAttrList *al = pango_attr_list_new();

	for (size_t k = 0; k < r->nblockers + r->nwarnings; k++) {
		bool blk = k < r->nblockers;
		const kv_issue *is = blk ? &r->blockers[k] :
		    &r->warnings[k - r->nblockers];
		PangoAttribute *at;
		guint start;

		if (b.len)
			kv_buf_append(&b, "\n", 1);
		start = (guint)b.len;
		kv_buf_printf(&b, "%s ", blk ? SYM_FAIL : SYM_WARN);
		at = pango_attr_foreground_new(blk ? 0xb300 : 0x9a00,
		    blk ? 0x2600 : 0x5b00, blk ? 0x1e00 : 0);
		at->start_index = start;
		at->end_index = (guint)b.len;
		pango_attr_list_insert(al, at);
		start = (guint)b.len;
		kv_buf_printf(&b, "%s", is->rule->code);
		at = pango_attr_weight_new(PANGO_WEIGHT_BOLD);
		at->start_index = start;
		at->end_index = (guint)b.len;
		pango_attr_list_insert(al, at);
		if (r->verdict != V_OK)
			kv_buf_printf(&b, ": %s", is->message);
	}
	if (b.data == NULL) {
		pango_attr_list_unref(al);
		cellc(c, SYM_NONE);
		return;
	}
	cell(c, b.data, FONT_REGULAR, COL_INK);
	c->attrs = al;
}

static void
sec_vmis(pdoc *d)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ W(VM), 0.18, false }, { "Verdict", 0.13, false },
		{ "CPU", 0.13, false }, { "Blockers and warnings", 0.27, false },
		{ "Targets", 0.15, false }, { "Outcome and drain", 0.14, false },
	};
	size_t *order = vmis_by_node(a);
	ptable t;

	heading1(d, d->sections[SEC_VMS]);
	answer(d, prose_vmis(a));
	para(d, prose_vmis_howto(), FONT_REGULAR, BODY, COL_INK);
	tbl_init(&t, cols, 6);
	for (size_t k = 0, left = 0; k < a->nvmis; k++) {
		const kv_vmires *r = &a->vmis[order[k]];
		enum kv_tone tone = verdict_tone(r->verdict);
		pcell *row;

		if (left-- == 0) {	/* a new node: a new group */
			const char *head;
			char *meta;

			left = vmi_group(a, order, k, &head, &meta) - 1;
			tbl_group(&t, xasprintf("%s%s", head, meta));
			free(meta);
		}
		row = tbl_row(&t);
		cellc(&row[0], r->vmi->fullname);
		cell(&row[1], r->mismatch ? xasprintf("%s %s\n%s claims "
		    "migratable", verdict_symbol(r->verdict),
		    kv_verdict_names[r->verdict], SYM_WARN) : xasprintf("%s %s",
		    verdict_symbol(r->verdict), kv_verdict_names[r->verdict]),
		    FONT_BOLD, tone_ink(tone));
		cell(&row[2], xasprintf("%s%s%s%s%s", kv_mode_names[r->mode],
		    r->mode == MODE_NAMED ? "\n" : "",
		    r->mode == MODE_NAMED ? r->model : "",
		    r->dvp.cls ? "\nclass " : "",
		    r->dvp.cls ? r->dvp.cls->name : ""), FONT_REGULAR, COL_INK);
		issues_cell(&row[3], r);
		/* short cells: a long table of VMIs that migrate stays short */
		cell(&row[4], r->ntargets > 3 ? xasprintf("%zu nodes",
		    r->ntargets) : vmi_targets(a, r, 3), FONT_REGULAR, COL_INK);
		if (r->verdict == V_OK && r->on_drain == DRAIN_MIGRATE)
			cellc(&row[5], "migrates, also on drain");
		else {
			char *o = vmi_outcome(r);

			cell(&row[5], xasprintf("%s\non drain: %s", o,
			    drain_word(r->on_drain)), FONT_REGULAR,
			    r->on_drain == DRAIN_BLOCK ? COL_FAIL :
			    COL_INK);
			free(o);
		}
	}
	free(order);
	if (a->nvmis == 0) {
		para_own(d, xasprintf("The snapshot has no %s.", W(VMS)),
		    FONT_REGULAR, BODY, COL_MUTED);
		tbl_free(&t);
		return;
	}
	tbl_emit(d, &t);
}

static void
sec_drain(pdoc *d)
{
	const kv_analysis *a = d->a;
	char *blocking = xasprintf("Blocking %s", W(VMS));
	const pcol cols[] = {
		{ "Node", 0.19, false }, { "VMs", 0.06, true },
		{ "Migrate", 0.09, true }, { "Block", 0.07, true },
		{ "Stop", 0.06, true }, { "Ext.", 0.06, true },
		{ "Memory", 0.1, true }, { "Estimate", 0.1, true },
		{ blocking, 0.27, false },
	};
	ptable t;

	heading1(d, d->sections[SEC_DRAIN]);
	answer(d, drain_headline(a));
	para_own(d, prose_drain(a), FONT_REGULAR, BODY, COL_INK);
	para_own(d, prose_drain_assumption(a), FONT_REGULAR, BODY, COL_MUTED);
	if (a->ndrain == 0) {
		free(blocking);
		return;
	}
	figure(d, fig_drain(a, d->t), true);
	tbl_init(&t, cols, 9);
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *dr = &a->drain[i];
		pcell *row = tbl_row(&t);

		cellc(&row[0], a->m->nodes[dr->node].name);
		cell(&row[1], xasprintf("%zu", dr->vmis), FONT_REGULAR,
		    COL_INK);
		cell(&row[2], xasprintf("%zu", dr->migrate), FONT_REGULAR,
		    COL_INK);
		cell(&row[3], xasprintf("%zu", dr->block), dr->block ?
		    FONT_BOLD : FONT_REGULAR, dr->block ? COL_FAIL : COL_INK);
		cell(&row[4], xasprintf("%zu", dr->shutdown), dr->shutdown ?
		    FONT_BOLD : FONT_REGULAR, dr->shutdown ? COL_WARN :
		    COL_INK);
		cell(&row[5], xasprintf("%zu", dr->external), FONT_REGULAR,
		    COL_INK);
		cell(&row[6], kv_fmt_bytes(dr->memory), FONT_REGULAR, COL_INK);
		cell(&row[7], fmt_duration(dr->seconds), FONT_REGULAR,
		    COL_INK);
		cell(&row[8], dr->nblocking ? str_list(dr->blocking,
		    dr->nblocking, 12) : xstrdup(SYM_NONE), FONT_REGULAR,
		    dr->nblocking ? COL_FAIL : COL_INK);
	}
	tbl_emit(d, &t);
	free(blocking);
}

static void
sec_glossary(pdoc *d)
{
	static const pcol vcols[] = {
		{ "Verdict", 0.16, false }, { "Meaning", 0.84, false },
	};
	static const pcol cols[] = {
		{ "Code", 0.23, false }, { "Kind", 0.11, false },
		{ "VMs", 0.06, true }, { "Title", 0.2, false },
		{ "Remediation", 0.4, false },
	};
	size_t *count = code_counts(d->a);
	ptable t;

	heading1(d, d->sections[SEC_GLOSSARY]);
	para(d, prose_glossary_intro(), FONT_REGULAR, BODY, COL_INK);
	tbl_init(&t, vcols, 2);
	for (int v = 0; v < V_COUNT; v++) {
		pcell *row = tbl_row(&t);

		cell(&row[0], xasprintf("%s %s", verdict_symbol(
		    (enum kv_verdict)v), kv_verdict_names[v]), FONT_BOLD,
		    tone_ink(verdict_tone((enum kv_verdict)v)));
		cellc(&row[1], verdict_meaning((enum kv_verdict)v));
	}
	tbl_emit(d, &t);
	tbl_init(&t, cols, 5);
	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *r = &kv_rules[i];
		pcell *row = tbl_row(&t);
		bool blk = r->severity == SEV_BLOCKER;
		const char *title, *remedy;

		cell(&row[0], xstrdup(r->code), FONT_MONO, COL_INK);
		cell(&row[1], xstrdup(blk ? SYM_FAIL " blocker" :
		    SYM_WARN " warning"), FONT_BOLD, blk ? COL_FAIL : COL_WARN);
		cell(&row[2], xasprintf("%zu", count[i]), count[i] ? FONT_BOLD :
		    FONT_REGULAR, count[i] ? COL_INK : COL_MUTED);
		kv_rule_text(d->a, r, &title, &remedy);
		cellc(&row[3], title);
		cellc(&row[4], remedy);
	}
	tbl_emit(d, &t);
	free(count);
}

static void
body(pdoc *d)
{
	sec_summary(d);
	sec_cluster(d);
	sec_classes(d);
	sec_models(d);
	sec_tradeoff(d);
	sec_vmis(d);
	sec_drain(d);
	sec_glossary(d);
}

/* --- the document ---------------------------------------------------------------- */

static cairo_status_t
write_fn(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
	    CAIRO_STATUS_WRITE_ERROR;
}

int
kv_write_pdf(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const snap_manifest *mf = &a->m->manifest;
	pdoc d = { .a = a };
	cairo_status_t st;
	char *title;
	int toc, rc = KV_ERR;

	(void)arg;
	d.t = text_new();
	d.title = report_title(a);
	for (int i = 0; i < SEC_COUNT; i++)
		d.sections[i] = section_title(a, i);
	mview_init(&d.mv, a);
	report_isodate(report_date(a), d.date);
	snapshot_date(a, d.snapdate);

	/* first pass: the body alone, measured, pages counted from 1 */
	d.page = 0;
	body(&d);
	toc = toc_pages(&d);
	d.offset = 1 + toc;
	d.npages = d.offset + d.page;
	for (size_t i = 0; i < d.ntoc; i++)
		d.toc[i].page += d.offset;

	/* second pass: draw */
	d.surf = cairo_pdf_surface_create_for_stream(write_fn, f, PAGE_W,
	    PAGE_H);
	d.cr = cairo_create(d.surf);
	title = xasprintf("%s: %s", d.title,
	    mf->context ? mf->context : "cluster");
	cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_TITLE,
	    title);
	free(title);
	cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_AUTHOR,
	    "kvscope");
	cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_SUBJECT,
	    "Which VMs would not live-migrate, and what a drain would do");
	cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_CREATOR,
	    "kvscope " KV_VERSION);
	cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_CREATE_DATE,
	    d.date);
	cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_MOD_DATE,
	    d.date);
	title_page(&d);
	contents(&d);
	if (d.page != d.offset) {
		kv_seterr(err, "report.pdf: contents took %d pages, not %d",
		    d.page - 1, toc);
		goto out;
	}
	d.replay = true;
	body(&d);
	if (d.page != d.npages) {
		kv_seterr(err, "report.pdf: %d pages drawn, %d laid out",
		    d.page, d.npages);
		goto out;
	}
	cairo_show_page(d.cr);
	if ((st = cairo_status(d.cr)) != CAIRO_STATUS_SUCCESS) {
		kv_seterr(err, "report.pdf: %s", cairo_status_to_string(st));
		goto out;
	}
	cairo_surface_finish(d.surf);
	if ((st = cairo_surface_status(d.surf)) != CAIRO_STATUS_SUCCESS) {
		kv_seterr(err, "report.pdf: %s", cairo_status_to_string(st));
		goto out;
	}
	rc = KV_OK;
out:
	if (d.cr != NULL)
		cairo_destroy(d.cr);
	if (d.surf != NULL)
		cairo_surface_destroy(d.surf);
	for (size_t i = 0; i < d.ntoc; i++)
		free(d.toc[i].title);
	free(d.toc);
	free(d.heights);
	free(d.title);
	for (int i = 0; i < SEC_COUNT; i++)
		free(d.sections[i]);
	text_free(d.t);
	return rc;
}
