/*
 * pdf.h - the PDF typesetter's private interface (typeset.c), used by the
 * sections of the report (pdf.c).
 *
 * A pdoc is one document being laid out: with cr NULL it only measures
 * (the first pass), with cr set it draws.  Pages are A4 portrait; the
 * typesetter keeps the current position, starts pages with their running
 * header and footer, wraps paragraphs line by line across pages, keeps a
 * subsection heading with what follows it, and breaks tables across pages
 * repeating their header row (a dense list flows through two text
 * columns a page, each with the header).  A ptable owns the strings and
 * attribute lists of its cells; pdf_tbl_emit() draws and frees it.
 */
#ifndef KV_PDF_H
#define KV_PDF_H

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "render/render.h"
#include "render/report.h"

#define PAGE_W		595.28
#define PAGE_H		841.89
#define MX		56.0		/* left and right margin */
#define TOP		70.0		/* body starts here */
#define BOTTOM		(PAGE_H - 62.0)	/* and ends here */
#define CW		(PAGE_W - 2 * MX)

#define BODY		9.0
#define PDF_MODELS	12		/* models listed in a cell; the HTML
					 * and findings.json list them all */
#define SMALL		7.5
#define DENSE		5.7		/* long lists: one line a row */
#define DENSE_PAD	1.0
#define CELL_PAD	3.0
#define FLOW_GAP	10.0		/* between flowed text columns */
#define FLOW_OUT	24.0		/* and how far they reach into the
					 * margins */
#define CELL_LINES	72		/* a cell paragraph's lines at most,
					 * so that a row fits on a page */

/* The PDF's sections, in its order (issue: problems first); PS_CHANGES
 * only in a what-if's or a diff's report. */
enum pdf_sec {
	PS_CHANGES, PS_SUMMARY, PS_GROUPS, PS_DRAIN, PS_WINDOW,
	PS_ATTENTION, PS_CLASSES, PS_MODELS, PS_TRADEOFF, PS_CLUSTER, PS_VMS,
	PS_GLOSSARY, PS_COUNT
};

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
	char *sections[PS_COUNT];	/* numbered in the PDF's order */
	/* first pass results */
	size_t ntoc, captoc, itoc;
	tocent *toc;
	size_t nh, caph, ih;
	double *heights;	/* body table row heights, in emission order */
	bool replay;		/* second pass over the body: reuse them */
	const char *pending;	/* a level-2 heading waiting for content */
	bool all;		/* --pdf-detail all: the full VMI and node
				 * tables too */
	const kv_report_diff *diff;	/* a what-if's or diff's, or NULL */
	/* a document of its own (crosscheck's): the running header's text
	 * (then on every page, the first too) and the footer's, or NULL
	 * for the report's ("title · cluster", "Snapshot taken DATE") */
	const char *header, *footer;
} pdoc;

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
	int max_lines;		/* of a cell's paragraph; 0: no limit */
	double pad;		/* cell padding, CELL_PAD by default */
	int flow;		/* text columns the rows flow through, 1
				 * by default (2: a dense list) */
	double x0, tw;		/* the current text column (emit sets) */
	size_t nrows, cap;
	pcell *cells;		/* nrows * ncols */
	bool *group;		/* spans the row, keeps with the next */
} ptable;

/* colour, rules and one-line labels (nothing drawn while measuring) */
void pdf_rgb(cairo_t *cr, uint32_t c);
void pdf_fill_rect(pdoc *d, double x, double y, double w, double h,
    uint32_t c);
void pdf_hrule(pdoc *d, double x, double y, double w, double width,
    uint32_t c);
/* One line at (x, y) top, anchored left or right; returns its width. */
double pdf_label(pdoc *d, double x, double y, const char *s,
    enum kv_font font, double size, uint32_t ink, bool right);
double pdf_layout_h(PangoLayout *l);

/* pages */
void pdf_page_furniture(pdoc *d);
void pdf_new_page(pdoc *d);
double pdf_room(const pdoc *d);
void pdf_need(pdoc *d, double h);	/* a new page unless h fits */

/* paragraphs: wrapped, line by line across pages */
void pdf_para_at(pdoc *d, double x, double w, const char *s,
    enum kv_font font, double size, uint32_t ink, double after);
void pdf_para(pdoc *d, const char *s, enum kv_font font, double size,
    uint32_t ink);
/* At most lines lines (> 0), the last one ending in an ellipsis. */
void pdf_para_lines(pdoc *d, double x, double w, const char *s,
    enum kv_font font, double size, uint32_t ink, double after, int lines);
void pdf_para_own(pdoc *d, char *s, enum kv_font font, double size,
    uint32_t ink);			/* frees s */
void pdf_answer(pdoc *d, char *s);	/* frees s */
void pdf_boxed(pdoc *d, const char *s);

/* headings and the contents */
#define H1_ROOM		200.0	/* a section starts on the current page
					 * when this much room is left */
#define FIG_ROOM	(0.6 * (BOTTOM - TOP))	/* a section whose figure
					 * comes soon after its heading */
#define H1_GAP		22.0	/* above a section on a shared page */
void pdf_heading1(pdoc *d, const char *title);
/* The same, with room for what must follow the heading on its page (a
 * figure) */
void pdf_heading1_room(pdoc *d, const char *title, double room);
void pdf_heading2(pdoc *d, const char *title);
/* Draw a pending level-2 heading, with room for next after it. */
void pdf_keep(pdoc *d, double next);
int pdf_toc_pages(const pdoc *d);
void pdf_contents(pdoc *d);

/* surface.c: the second pass draws on an A4 PDF written to f as it goes,
 * its metadata title (shown as text is), subject and d->date;
 * pdf_finish() ends the last page and the stream: KV_ERR with err set
 * when cairo failed.  The caller destroys d->cr and d->surf. */
void pdf_open(pdoc *d, FILE *f, const char *title, const char *subject);
int pdf_finish(pdoc *d, kv_err *err);

/* tables */
void pdf_tbl_init(ptable *t, const pcol *cols, size_t ncols);
pcell *pdf_tbl_row(ptable *t);
void pdf_cell(pcell *c, char *text, enum kv_font font, uint32_t ink);
/* a label that never breaks (vendor:AMD) */
void pdf_cell_label(pcell *c, const char *text);
/* A list: the first max names, each unbroken, then "and N more (all in
 * FILE)"; "none" when n is 0.  pdf_cell_names: FILE findings.json. */
void pdf_cell_names_in(pcell *c, const char *const *v, size_t n,
    size_t max, enum kv_font font, const char *file);
#define pdf_cell_names(c, v, n, max, font) \
	pdf_cell_names_in(c, v, n, max, font, "findings.json")
void pdf_cell_nodes(pcell *c, const kv_analysis *a, const size_t *idx,
    size_t n, size_t max);	/* pdf_cell_names() of nodes by index */
void pdf_cellc(pcell *c, const char *text);
void pdf_tbl_group(ptable *t, char *text);
void pdf_tbl_free(ptable *t);
void pdf_tbl_emit(pdoc *d, ptable *t);

/* the problem sections (pdf_problems.c); title: the numbered heading */
struct kv_group;
char *pdf_fix_line(const struct kv_group *g);	/* caller frees */
void pdf_sec_groups(pdoc *d, const char *title);
void pdf_sec_drain(pdoc *d, const char *title);
void pdf_sec_attention(pdoc *d, const char *title);
/* pdf_window.c: the maintenance window after the drain */
void pdf_sec_window(pdoc *d, const char *title);
void pdf_sec_vmis(pdoc *d, const char *title);	/* --pdf-detail all */

/* pdf_attention.c: the default attention table, each group's VMIs by
 * node (rows: plan row per VMI; *n: the VMIs listed) */
/* Would not migrate, or its drain row stops or blocks (row: NULL when
 * it has none). */
bool pdf_needs_attention(const kv_vmires *r, const kv_drain_row *row);
void pdf_attention_compact(pdoc *d, ptable *t, const kv_drain_row **rows,
    size_t *n);
/* pdf_diff.c: what a what-if or diff changed (d->diff) */
void pdf_sec_changes(pdoc *d, const char *title);
/* the CPU sections (pdf_cpu.c): classes and matrix, models, trade-off */
void pdf_sec_classes(pdoc *d);
/* The host-model matrix of v in tiles, with its note; the refused pairs
 * of v's rows and columns with the labels they lack (pdf_cpu.c). */
void pdf_matrix(pdoc *d, const kv_mview *v);
void pdf_refused_pairs(pdoc *d, const kv_mview *v);
void pdf_sec_models(pdoc *d);
void pdf_sec_tradeoff(pdoc *d);

/* figures: f is drawn and freed */
void pdf_figure_scaled(pdoc *d, kv_fig *f, bool caption, double max);
void pdf_figure(pdoc *d, kv_fig *f, bool caption);

#endif
