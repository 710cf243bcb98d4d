/*
 * typeset.c - the PDF typesetter (pdf.h): pages with their running header
 * and footer, paragraphs, headings and the contents, tables that break
 * across pages, and figures drawn as vectors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/pdf/pdf.h"

/* --- colour and text --------------------------------------------------- */

void
pdf_rgb(cairo_t *cr, uint32_t c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
	    ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

void
pdf_fill_rect(pdoc *d, double x, double y, double w, double h, uint32_t c)
{
	if (d->cr == NULL)
		return;
	pdf_rgb(d->cr, c);
	cairo_rectangle(d->cr, x, y, w, h);
	cairo_fill(d->cr);
}

void
pdf_hrule(pdoc *d, double x, double y, double w, double width, uint32_t c)
{
	if (d->cr == NULL)
		return;
	pdf_rgb(d->cr, c);
	cairo_set_line_width(d->cr, width);
	cairo_move_to(d->cr, x, y);
	cairo_rel_line_to(d->cr, w, 0);
	cairo_stroke(d->cr);
}

/* One line of text at (x, y) top, anchored left or right; returns width. */
double
pdf_label(pdoc *d, double x, double y, const char *s, enum kv_font font,
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

void
pdf_page_furniture(pdoc *d)
{
	const snap_manifest *mf = &d->a->m->manifest;
	char *left, *right;

	if (d->cr == NULL)
		return;
	if (d->page > 1 || d->header != NULL) {
		double sw = d->section == NULL ? 0 :
		    pdf_label(d, PAGE_W - MX, 34, d->section, FONT_BOLD,
		    SMALL, COL_MUTED, true);
		char *full = d->header != NULL ? xstrdup(d->header) :
		    xasprintf("%s \u00b7 %s", d->title, mf->context ?
		    mf->context : "(unnamed cluster)");

		/* a long cluster name yields to the section title */
		left = text_fit(d->t, full, FONT_REGULAR, SMALL, CW - sw - 16);
		pdf_label(d, MX, 34, left, FONT_REGULAR, SMALL, COL_MUTED,
		    false);
		pdf_hrule(d, MX, 47, CW, 0.5, COL_RULE);
		free(full);
		free(left);
	}
	pdf_hrule(d, MX, BOTTOM + 22, CW, 0.5, COL_RULE);
	left = d->footer != NULL ? xstrdup(d->footer) :
	    xasprintf("Snapshot taken %s", d->snapdate);
	right = xasprintf("Page %d of %d", d->page, d->npages);
	pdf_label(d, MX, BOTTOM + 28, left, FONT_REGULAR, SMALL, COL_MUTED,
	    false);
	pdf_label(d, PAGE_W - MX, BOTTOM + 28, right, FONT_REGULAR, SMALL,
	    COL_MUTED, true);
	free(left);
	free(right);
}

void
pdf_new_page(pdoc *d)
{
	if (d->cr != NULL && d->page > 0)	/* page 1 is the surface's */
		cairo_show_page(d->cr);
	d->page++;
	d->y = TOP;
	pdf_page_furniture(d);
}

double
pdf_room(const pdoc *d)
{
	return BOTTOM - d->y;
}

void
pdf_need(pdoc *d, double h)
{
	if (h > pdf_room(d) && d->y > TOP)
		pdf_new_page(d);
}


/* --- paragraphs --------------------------------------------------------- */

/* Text wrapped to width w at x, line by line across pages. */
void
pdf_para_at(pdoc *d, double x, double w, const char *s, enum kv_font font,
    double size, uint32_t ink, double after)
{
	pdf_para_lines(d, x, w, s, font, size, ink, after, 0);
}

void
pdf_para_lines(pdoc *d, double x, double w, const char *s,
    enum kv_font font, double size, uint32_t ink, double after, int lines)
{
	PangoLayout *l = text_layout(d->t, s, font, size, w);
	PangoLayoutIter *it;

	text_max_lines(d->t, l, font, size, w, lines);
	it = pango_layout_get_iter(l);

	do {
		PangoRectangle r;
		double lh, base;

		pango_layout_iter_get_line_extents(it, NULL, &r);
		lh = (double)r.height / PANGO_SCALE;
		base = (double)(pango_layout_iter_get_baseline(it) - r.y) /
		    PANGO_SCALE;
		pdf_keep(d, lh);
		if (lh > pdf_room(d))
			pdf_new_page(d);
		if (d->cr != NULL) {
			cairo_save(d->cr);
			pdf_rgb(d->cr, ink);
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

void
pdf_para(pdoc *d, const char *s, enum kv_font font, double size, uint32_t ink)
{
	pdf_para_at(d, MX, CW, s, font, size, ink, size * 0.6);
}

void
pdf_para_own(pdoc *d, char *s, enum kv_font font, double size, uint32_t ink)
{
	pdf_para(d, s, font, size, ink);
	free(s);
}

/* The answer of a section: larger, bold. */
void
pdf_answer(pdoc *d, char *s)
{
	pdf_para_at(d, MX, CW, s, FONT_BOLD, 10.5, COL_INK, 6);
	free(s);
}

/* A shaded box with an accent bar: the vendor rule and similar notes. */
void
pdf_boxed(pdoc *d, const char *s)
{
	PangoLayout *l = text_layout(d->t, s, FONT_REGULAR, 8, CW - 18);
	int w, h;
	double hh;

	pango_layout_get_size(l, &w, &h);
	g_object_unref(l);
	hh = (double)h / PANGO_SCALE + 10;
	pdf_keep(d, hh);
	pdf_need(d, hh);
	pdf_fill_rect(d, MX, d->y, CW, hh, COL_SHADE);
	pdf_fill_rect(d, MX, d->y, 3, hh, COL_ACCENT);
	d->y += 5;
	pdf_para_at(d, MX + 12, CW - 18, s, FONT_REGULAR, 8, COL_INK, 0);
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
void
pdf_heading1(pdoc *d, const char *title)
{
	pdf_heading1_room(d, title, H1_ROOM);
}

/* A section starts on the page the one before it ends on when room is
 * left there (issue 31: short sections share pages, none holds a line or
 * two); the first on a page of its own after the contents. */
void
pdf_heading1_room(pdoc *d, const char *title, double room)
{
	size_t n;
	bool first = d->section == NULL;	/* body() starts with NULL */

	pdf_keep(d, 0);
	n = d->cr != NULL ? d->itoc : d->ntoc;
	d->section = title;
	if (first || pdf_room(d) < room)
		pdf_new_page(d);
	else
		d->y += H1_GAP;
	if (d->cr != NULL) {
		char attr[32];

		char *vis = text_visible(title);

		snprintf(attr, sizeof(attr), "dest='s%zu'", n);
		d->outline = cairo_pdf_surface_add_outline(d->surf,
		    CAIRO_PDF_OUTLINE_ROOT, vis ? vis : title, attr,
		    CAIRO_PDF_OUTLINE_FLAG_OPEN);
		free(vis);
		dest_begin(d, n);
	}
	pdf_label(d, MX, d->y, title, FONT_BOLD, 17, COL_ACCENT, false);
	if (d->cr != NULL)
		cairo_tag_end(d->cr, CAIRO_TAG_DEST);
	d->y += 24;
	pdf_hrule(d, MX, d->y, CW, 0.8, COL_ACCENT);
	d->y += 10;
	toc_add(d, title, 1);
}

/* A subsection heading.  It is drawn by pdf_keep(), called by whatever
 * comes next with the height of its first line or row, so a heading never
 * ends a page on its own. */
void
pdf_heading2(pdoc *d, const char *title)
{
	d->pending = title;
}

#define H2_HEIGHT 24.0

void
pdf_keep(pdoc *d, double next)
{
	const char *title = d->pending;
	size_t n = d->cr != NULL ? d->itoc : d->ntoc;

	if (title == NULL)
		return;
	d->pending = NULL;
	pdf_need(d, H2_HEIGHT + next);
	d->y += 6;
	if (d->cr != NULL) {
		char attr[32];

		char *vis = text_visible(title);

		snprintf(attr, sizeof(attr), "dest='s%zu'", n);
		cairo_pdf_surface_add_outline(d->surf, d->outline, vis ? vis :
		    title, attr, 0);
		free(vis);
		dest_begin(d, n);
	}
	pdf_label(d, MX, d->y, title, FONT_BOLD, 11, COL_INK, false);
	if (d->cr != NULL)
		cairo_tag_end(d->cr, CAIRO_TAG_DEST);
	d->y += H2_HEIGHT - 6;
	toc_add(d, title, 2);
}

#define TOC_ROW 16.0

/* Pages the contents take for the first pass's entries. */
int
pdf_toc_pages(const pdoc *d)
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

void
pdf_contents(pdoc *d)
{
	d->section = "Contents";
	pdf_new_page(d);
	pdf_label(d, MX, d->y, "Contents", FONT_BOLD, 17, COL_ACCENT, false);
	d->y += 40;
	for (size_t i = 0; i < d->ntoc; i++) {
		const tocent *e = &d->toc[i];
		double x = MX + (e->level == 1 ? 0 : 18), w;
		char num[16], attr[32];

		if (d->y + TOC_ROW > BOTTOM)
			pdf_new_page(d);
		snprintf(attr, sizeof(attr), "dest='s%zu'", i);
		snprintf(num, sizeof(num), "%d", e->page);
		cairo_tag_begin(d->cr, CAIRO_TAG_LINK, attr);
		w = pdf_label(d, x, d->y, e->title, e->level == 1 ? FONT_BOLD :
		    FONT_REGULAR, e->level == 1 ? 10 : 9, COL_INK, false);
		pdf_label(d, PAGE_W - MX, d->y, num, e->level == 1 ? FONT_BOLD :
		    FONT_REGULAR, e->level == 1 ? 10 : 9, COL_INK, true);
		cairo_tag_end(d->cr, CAIRO_TAG_LINK);
		/* dotted leader */
		cairo_save(d->cr);
		pdf_rgb(d->cr, COL_RULE);
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


void
pdf_tbl_init(ptable *t, const pcol *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->size = SMALL;
	t->max_lines = CELL_LINES;
	t->pad = CELL_PAD;
	t->flow = 1;
	t->x0 = MX;
	t->tw = CW;
}

/* A new row; cells default to regular ink, no text. */
pcell *
pdf_tbl_row(ptable *t)
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

void
pdf_cell(pcell *c, char *text, enum kv_font font, uint32_t ink)
{
	c->text = text;
	c->font = font;
	c->ink = ink;
}

void
pdf_cellc(pcell *c, const char *text)
{
	pdf_cell(c, xstrdup(text), FONT_REGULAR, COL_INK);
}

/* bytes [from, to) of c's text do not break, unless longer than a
 * narrow column holds */
#define NOBREAK_MAX 28
static void
nobreak(pcell *c, size_t from, size_t to)
{
	PangoAttribute *nb;

	if (to - from > NOBREAK_MAX)
		return;
	nb = pango_attr_allow_breaks_new(FALSE);
	if (c->attrs == NULL)
		c->attrs = pango_attr_list_new();
	nb->start_index = (guint)from;
	nb->end_index = (guint)to;
	pango_attr_list_insert(c->attrs, nb);
}

void
pdf_cell_label(pcell *c, const char *text)
{
	pdf_cellc(c, text);
	nobreak(c, 0, strlen(text));
}

void
pdf_cell_names_in(pcell *c, const char *const *v, size_t n, size_t max,
    enum kv_font font, const char *file)
{
	/* "and 1 more" would take the room of the name */
	size_t k = n <= max + 1 ? n : max;
	kv_buf b = {0};

	if (n == 0) {
		pdf_cell(c, xstrdup("none"), font, COL_INK);
		return;
	}
	for (size_t i = 0; i < k; i++) {
		size_t at;

		kv_buf_printf(&b, "%s", i ? ", " : "");
		at = b.len;
		kv_buf_printf(&b, "%s", v[i]);
		nobreak(c, at, b.len);
	}
	if (k < n)
		kv_buf_printf(&b, " and %zu more (all in %s)", n - k, file);
	pdf_cell(c, b.data, font, COL_INK);
}

void
pdf_cell_nodes(pcell *c, const kv_analysis *a, const size_t *idx,
    size_t n, size_t max)
{
	const char **v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = a->m->nodes[idx[i]].name;
	pdf_cell_names(c, v, n, max, FONT_REGULAR);
	free(v);
}

void
pdf_tbl_group(ptable *t, char *text)
{
	pcell *row = pdf_tbl_row(t);

	pdf_cell(&row[0], text, FONT_BOLD, COL_INK);
	row[0].bg = 0xe4ebf2u;
	t->group[t->nrows - 1] = true;
}

void
pdf_tbl_free(ptable *t)
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
	return t->cols[i].w * t->tw;
}

static PangoLayout *
cell_layout(pdoc *d, const ptable *t, const pcell *c, double w, bool head,
    bool right)
{
	PangoLayout *l = text_layout(d->t, c->text ? c->text : "",
	    head ? FONT_BOLD : c->font, t->size, w - 2 * t->pad);

	/* the attributes' byte ranges are of c->text: only while the
	 * layout shows it unchanged (text_clean shows invisible
	 * characters as <U+...>, which moves every byte after them) */
	if (c->attrs != NULL && c->text != NULL &&
	    strcmp(pango_layout_get_text(l), c->text) == 0) {
		PangoAttrList *al = pango_attr_list_copy(c->attrs);

		pango_layout_set_attributes(l, al);
		pango_attr_list_unref(al);
		text_no_hyphens(l);
	}
	if (!head)
		text_max_lines(d->t, l, c->font, t->size, w - 2 * t->pad,
		    t->max_lines);
	if (right)
		pango_layout_set_alignment(l, PANGO_ALIGN_RIGHT);
	return l;
}

double
pdf_layout_h(PangoLayout *l)
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
		PangoLayout *l = cell_layout(d, t, &row[i], t->group[r] ?
		    t->tw : col_w(t, i), false, false);
		double ch = pdf_layout_h(l);

		g_object_unref(l);
		if (ch > h)
			h = ch;
	}
	h += 2 * t->pad;
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
		double ch = pdf_layout_h(l);

		g_object_unref(l);
		if (ch > h)
			h = ch;
	}
	return h + 2 * t->pad;
}

static void
draw_cell(pdoc *d, const ptable *t, const pcell *c, double x, double w,
    double y, double h, bool head, bool right)
{
	PangoLayout *l;

	if (c->bg != COL_NONE)
		pdf_fill_rect(d, x, y, w, h, c->bg);
	if (c->text == NULL || d->cr == NULL)
		return;
	l = cell_layout(d, t, c, w, head, right);
	text_draw(d->t, d->cr, l, x + t->pad, y + t->pad, head ? COL_INK :
	    c->ink);
	g_object_unref(l);
}

static void
draw_header(pdoc *d, const ptable *t, double hh)
{
	double x = t->x0;

	if (t->noheader)
		return;
	pdf_fill_rect(d, t->x0, d->y, t->tw, hh, COL_SHADE);
	for (size_t i = 0; i < t->ncols; i++) {
		pcell c = { .text = (char *)t->cols[i].head, .bg = COL_NONE };

		draw_cell(d, t, &c, x, col_w(t, i), d->y, hh, true,
		    t->cols[i].right);
		x += col_w(t, i);
	}
	pdf_hrule(d, t->x0, d->y + hh, t->tw, 0.8, COL_MUTED);
	d->y += hh;
}

static void
draw_row(pdoc *d, const ptable *t, size_t r, double h)
{
	const pcell *row = &t->cells[r * t->ncols];
	double x = t->x0;

	if (t->group[r]) {
		draw_cell(d, t, &row[0], t->x0, t->tw, d->y, h, false, false);
		pdf_hrule(d, t->x0, d->y, t->tw, 0.8, COL_ACCENT);
	} else
		for (size_t i = 0; i < t->ncols; i++) {
			draw_cell(d, t, &row[i], x, col_w(t, i), d->y, h,
			    false, t->cols[i].right);
			x += col_w(t, i);
		}
	pdf_hrule(d, t->x0, d->y + h, t->tw, 0.3, COL_RULE);
	d->y += h;
}

/* Text column k (0-based) of the t->flow a page has. */
static void
flow_column(ptable *t, int k)
{
	/* flowed lists reach FLOW_OUT into the margins */
	double out = t->flow > 1 ? FLOW_OUT : 0;

	t->tw = (CW + 2 * out - (t->flow - 1) * FLOW_GAP) / t->flow;
	t->x0 = MX - out + k * (t->tw + FLOW_GAP);
}

/* The height text column col may fill: room, or, when the n units left
 * fit in the page's remaining columns, an even share of them, so that the
 * last page's columns end level and the page below them stays free. */
static double
flow_room(const ptable *t, const double *uh, size_t n, double room, int col)
{
	double total = 0, big = 0, share;
	int left = t->flow - col;

	for (size_t i = 0; i < n; i++) {
		total += uh[i];
		if (uh[i] > big)
			big = uh[i];
	}
	if (total > left * (room - big))
		return room;
	share = total / left + big;
	return share < room ? share : room;
}

/* Units of t: a group row with the row after it; their heights in uh,
 * their first rows in ufirst (ufirst[n] = nrows).  Returns n. */
static size_t
tbl_units(pdoc *d, const ptable *t, double *rh, double *uh, size_t *ufirst)
{
	size_t nunits = 0;

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
	return nunits;
}

/* Lay out and draw t: rows break across pages (and, with t->flow > 1,
 * across the text columns of a page), the header repeats, a group row
 * stays with the row after it. */
void
pdf_tbl_emit(pdoc *d, ptable *t)
{
	double *rh = xcalloc(t->nrows + 1, sizeof(double));
	double *uh = xcalloc(t->nrows + 1, sizeof(double));
	size_t *ufirst = xcalloc(t->nrows + 1, sizeof(size_t));
	size_t nunits, u = 0;
	double hh, top, room, colend = 0;
	int col = 0;

	flow_column(t, 0);
	hh = header_h(d, t);
	nunits = tbl_units(d, t, rh, uh, ufirst);
	pdf_keep(d, hh + (nunits ? uh[0] : 0));
	if (nunits > 0 && hh + uh[0] > pdf_room(d) && d->y > TOP)
		pdf_new_page(d);
	top = d->y;
	while (u < nunits) {
		room = BOTTOM - top - hh;
		if (t->flow > 1)
			room = flow_room(t, uh + u, nunits - u, room, col);
		d->y = top;
		draw_header(d, t, hh);
		/* at least one unit a column, as it fits */
		do {
			for (size_t r = ufirst[u]; r < ufirst[u + 1]; r++)
				draw_row(d, t, r, rh[r]);
			room -= uh[u++];
		} while (u < nunits && uh[u] <= room);
		if (u == nunits)
			break;
		colend = d->y > colend ? d->y : colend;
		if (++col < t->flow)
			flow_column(t, col);
		else {
			col = 0;
			flow_column(t, 0);
			pdf_new_page(d);
			top = d->y;
			colend = 0;
		}
	}
	if (t->flow > 1 && col > 0)	/* below the tallest column */
		d->y = d->y > colend ? d->y : colend;
	d->y += 10;
	free(rh);
	free(uh);
	free(ufirst);
	pdf_tbl_free(t);
}

/* --- figures ------------------------------------------------------------ */

/* f at most max times its size, never wider than the text; the figure's
 * own padding sits in the margin, so its content lines up with the text */
void
pdf_figure_scaled(pdoc *d, kv_fig *f, bool caption, double max)
{
	double s = (CW + 12) / f->w;

	if (s > max)
		s = max;
	pdf_keep(d, f->h * s + 6);
	pdf_need(d, f->h * s + 6);
	if (d->cr != NULL) {
		cairo_save(d->cr);
		cairo_translate(d->cr, MX - 6 * s, d->y);
		cairo_scale(d->cr, s, s);
		fig_cairo(f, d->t, d->cr, 0, 0);
		cairo_restore(d->cr);
	}
	d->y += f->h * s + 4;
	if (caption)
		pdf_para(d, f->desc, FONT_REGULAR, SMALL, COL_MUTED);
	d->y += 6;
	fig_free(f);
}

/* At its size, or smaller (down to 60 %) to fit the rest of the page
 * rather than leave it empty. */
void
pdf_figure(pdoc *d, kv_fig *f, bool caption)
{
	double full = (CW + 12) / f->w, fit;

	if (full > 1.0)
		full = 1.0;
	fit = (pdf_room(d) - (caption ? 30 : 6)) / f->h;
	pdf_figure_scaled(d, f, caption, fit < full && fit >= 0.6 * full ?
	    fit : 1.0);
}

/* The class matrix in tiles: column bands that fit the width, row chunks
 * that fit the page. */
