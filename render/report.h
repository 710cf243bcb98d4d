/*
 * report.h - the private interface of the report writers (HTML, SVG, PDF).
 *
 * The three writers share four pieces, so that what they say and draw is
 * the same:
 *
 *   prose.c    the sentences of every section, built once from a
 *              kv_analysis (answer first, then the detail);
 *   format.c   numbers, dates, verdict words, name lists and facts;
 *   mview.c    the class-matrix view (aggregated beyond KV_MATRIX_MAX);
 *   figures.c  the figures as a small shape list (kv_fig), drawn by
 *              svg.c into an SVG tree (standalone files and inline HTML)
 *              and by fig_cairo() into a cairo context (the PDF);
 *   text.c     the fonts and the pango measuring context, 72 dpi with
 *              metric hinting off, so that figures and PDF measure alike;
 *   layout.c   pure pagination and column-banding arithmetic.
 *
 * Ownership: every char * returned here is the caller's (free()); a
 * kv_fig is released with fig_free(); strings inside a kv_fig belong to
 * it.  Nothing here holds on to the analysis after returning.
 */
#ifndef KV_REPORT_H
#define KV_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* cairo's, libxml2's and pango's types, by pointer: the header needs no
 * more of them (the files that draw, build or measure include theirs).
 * C11 allows these typedefs again beside the libraries' own. */
typedef struct _cairo cairo_t;
typedef struct _PangoLayout PangoLayout;
typedef struct _xmlNode xmlNode;
typedef xmlNode *xmlNodePtr;
typedef struct _xmlDoc xmlDoc;
typedef xmlDoc *xmlDocPtr;

#include "analyze/rules/analysis.h"

/* templates/ compiled into the binary by the Makefile (build/gen/). */
extern const char kv_report_css[];
extern const char kv_report_js[];

/* --- text.c: fonts and measurement ----------------------------------- */

enum kv_font { FONT_REGULAR, FONT_BOLD, FONT_MONO, FONT_MONO_BOLD,
	FONT_COUNT };

/* The families, as written into SVG and CSS. */
#define KV_FAMILY_SANS	"DejaVu Sans"
#define KV_FAMILY_MONO	"DejaVu Sans Mono"

typedef struct kv_text kv_text;

/* A private font map and a 72 dpi context without metric hinting. */
kv_text *text_new(void);
void text_free(kv_text *t);
/* The longest word (run without white space) and text laid out, in
 * characters; longer ones are shortened with an ellipsis.  A DNS name
 * (253) fits in a word. */
#define KV_WORD_MAX	256
#define KV_TEXT_MAX	6000
/* text_fit() searches the first KV_FIT_MAX characters only. */
#define KV_FIT_MAX	400
/* s as the PDF and the SVG show it (a copy): bidi controls, zero-width
 * characters and control characters other than \n as "<U+202E>",
 * malformed UTF-8 as U+FFFD, words beyond KV_WORD_MAX and texts beyond
 * KV_TEXT_MAX characters shortened with an ellipsis.  Linear time; the
 * result cleans to itself. */
char *text_clean(const char *s);
/* s with only the first of those: NULL when s has nothing to show
 * visibly (so the caller keeps s), else a copy. */
char *text_visible(const char *s);
/* Whether text_clean() shows c (a code point: GLib's gunichar) as
 * "<U+XXXX>". */
bool text_invisible(uint32_t c);
/* A layout of s (plain text, never markup) in font at size points;
 * wrap_w > 0 wraps at that width (words, then characters). */
PangoLayout *text_layout(kv_text *t, const char *s, enum kv_font font,
    double size, double wrap_w);
/* After l's text was shortened: its attributes end with the text. */
void text_clip_attrs(PangoLayout *l);
/* Cut the text of l (laid out in font at size, wrapped at wrap_w) to at
 * most lines lines, the last one ending in an ellipsis, in the text
 * itself (the ellipsis is extracted with it); attributes of the part
 * kept stay valid.  Returns whether it cut. */
bool text_max_lines(kv_text *t, PangoLayout *l, enum kv_font font,
    double size, double wrap_w, int lines);
/* Breaking a long word inserts no hyphen (also after
 * pango_layout_set_attributes, which replaces the list). */
void text_no_hyphens(PangoLayout *l);
/* Width and height in points of s on one line. */
void text_size(kv_text *t, const char *s, enum kv_font font, double size,
    double *w, double *h);
/* s shortened with an ellipsis to fit max_w on one line (a copy). */
char *text_fit(kv_text *t, const char *s, enum kv_font font, double size,
    double max_w);
/* Draw l with its top left corner at (x, y) in colour rgb. */
void text_draw(kv_text *t, cairo_t *cr, PangoLayout *l, double x, double y,
    uint32_t rgb);

/* --- layout.c: pagination and banding --------------------------------- */

/* Split rows of heights h[0..n) into pages.  The first page has room
 * first, every later one room page; each page also carries a repeated
 * header of height header.  Page k holds rows [starts[k], starts[k+1])
 * (starts must hold n entries); returns the number of pages.  A row
 * taller than a page gets a page of its own.  When not even the first
 * row fits on the first page (and a fresh page would be larger),
 * *skip_first is set: the caller starts a new page before page 0, which
 * then has room page. */
size_t kv_paginate(const double *h, size_t n, double first, double page,
    double header, size_t *starts, bool *skip_first);

/* Split columns of widths w[0..n) into bands that fit avail beside a
 * repeated label column of width fixed.  starts as for kv_paginate;
 * returns the number of bands (at least one column per band). */
size_t kv_band(const double *w, size_t n, double fixed, double avail,
    size_t *starts);

/* Split n equal items into chunks of at most per items: the number of
 * chunks (0 when n is 0). */
size_t kv_chunks(size_t n, size_t per);

/* --- format.c, prose.c, mview.c: words shared by the writers ---------- */

/* The largest matrix drawn cell by cell; beyond it the classes from
 * KV_MATRIX_MAX on are shown as one aggregated row and column. */
#define KV_MATRIX_MAX	200

/* Symbols that go with colours, so colour is never the only signal. */
#define SYM_OK		"\u2713"	/* check mark */
#define SYM_FAIL	"\u2717"	/* ballot x */
#define SYM_WARN	"\u26a0"	/* warning sign */
#define SYM_NONE	"\u2013"	/* en dash */

/* Palette (0xRRGGBB). */
#define COL_INK		0x1f2933u
#define COL_MUTED	0x616e7cu
#define COL_RULE	0xcbd2d9u
#define COL_SHADE	0xf3f5f7u
#define COL_OK		0x2e7d32u
#define COL_OK_BG	0xd7ecd9u
#define COL_WARN	0x9a5b00u
#define COL_WARN_BG	0xfbe3b0u
#define COL_FAIL	0xb3261eu
#define COL_FAIL_BG	0xf6d2cfu
/* a refused class pair, graded by the labels the target lacks (1: the
 * fail background; 2-3; 4 or more) */
#define REFUSE2_BG	0xe8908au
#define REFUSE2_INK	0x5c0f0au
#define REFUSE4_BG	0xb3261eu
#define COL_ACCENT	0x2b5d8cu
#define COL_NONE	0xffffffffu

/* Document date: SOURCE_DATE_EPOCH when set and valid, else the
 * snapshot's createdAt, else 0 (the epoch, never "now"). */
time_t report_date(const kv_analysis *a);
/* The snapshot's createdAt as "2026-10-31T09:12:44Z" (UTC), whatever
 * SOURCE_DATE_EPOCH says, or "(unknown)"; buf holds 21 bytes. */
void snapshot_date(const kv_analysis *a, char buf[21]);
/* "2026-10-31T09:12:44Z" for t (UTC), into buf of 21 bytes. */
void report_isodate(time_t t, char buf[21]);

/* Formatting, locale-free: "4.0 GiB", "2 min 5 s", "1,234". */
char *fmt_duration(int64_t seconds);
char *fmt_count(size_t n);
/* one or many after n */
const char *plural(size_t n, const char *one, const char *many);

/* The migration estimate's words (window.c, estimate.h): "6-12 s",
 * "64-1,192 MiB/s", each assumption as a sentence, the line that gives a
 * VMI's arithmetic and its pause.  The caller frees each. */
struct kv_migest;
char *fmt_range(const double s[2]);
char *fmt_rate_range(const double r[2]);
char *window_assumption(const kv_analysis *a, const struct kv_migest *e,
    int k);
char *window_vmi_line(const kv_analysis *a, size_t i);
/* The completion timeout of VMI result r and where its setting came
 * from: "completion timeout 300 s", "no completion timeout
 * (completionTimeoutPerGiB 0, ...)", or, when the VMI states no memory,
 * "completion timeout unknown (150 s per GB, the KubeVirt default as the
 * KubeVirt CR sets none, times the guest memory, which the VMI does not
 * state)"; never a timeout of 0 s. */
char *window_timeout_words(const kv_analysis *a, const kv_vmires *r);
char *window_pause_words(const struct kv_migest *e);

/* Verdict words and the class of colour that goes with them. */
enum kv_tone { TONE_OK, TONE_WARN, TONE_FAIL, TONE_NONE };
enum kv_tone verdict_tone(enum kv_verdict v);
/* What a drain does: migrate ok, shutdown warn, block fail, else none. */
enum kv_tone drain_tone(enum kv_on_drain d);
/* A VMI's tone: its verdict's, but a drain that stops it is warn at
 * least and one that waits on it forever fail: stops and blocks are
 * never ok. */
enum kv_tone vmi_tone(enum kv_verdict v, enum kv_on_drain d);
struct kv_group;
enum kv_tone group_tone(const struct kv_group *g);	/* its VMIs' */
const char *verdict_symbol(enum kv_verdict v);
const char *tone_symbol(enum kv_tone t);	/* ✓ ⚠ ✗ – */
/* One sentence per verdict, for the legend and the glossary. */
const char *verdict_meaning(enum kv_verdict v);
uint32_t tone_ink(enum kv_tone t);
uint32_t tone_bg(enum kv_tone t);

/* The report's sections, in order (HTML and PDF alike). */
/* The groups in the HTML report (sec_groups.c), into their section s. */
void html_sec_groups(xmlNodePtr s, const kv_analysis *a);
void html_vmi_anchor(xmlNodePtr tr, const kv_vmires *r);
/* a group's code in a badge of group_tone() */
void html_group_badge(xmlNodePtr parent, const struct kv_group *g);
/* "node-<name>", or with href "#node-<name, percent-escaped>" */
char *html_node_anchor(const char *name, bool href);
void html_vmi_fix(xmlNodePtr td, const kv_analysis *a, const kv_vmires *r);

/* SEC_CHANGES: only in a what-if's or a diff's report, first. */
enum kv_section {
	SEC_SUMMARY, SEC_CLUSTER, SEC_CLASSES, SEC_MODELS, SEC_TRADEOFF,
	SEC_VMS, SEC_DRAIN, SEC_WINDOW, SEC_GLOSSARY, SEC_CHANGES, SEC_COUNT
};
const char *section_id(enum kv_section sec);	/* "summary" */
/* "1  Summary" */
char *section_title(const kv_analysis *a, enum kv_section sec);
/* "KubeVirt live-migration report" in the flavor's words. */
char *report_title(const kv_analysis *a);

/* sec_diff.c: the words of the Changes section of a what-if's or a
 * diff's report (kv_report_diff, render.h), shared with pdf_diff.c. */
struct kv_report_diff;
struct kv_diff_vmi;
struct kv_diff_group;
bool diff_is_whatif(const struct kv_report_diff *rd);
char *diff_title(const struct kv_report_diff *rd);	/* "What the ..." */
/* The report's title: report_title(), or for a what-if "What if: <the
 * changes>", for a diff "Difference: <old date> → <new date>" (rd may
 * be NULL). */
char *report_heading(const kv_analysis *a,
    const struct kv_report_diff *rd);
/* "Nothing gets worse: 1 VMI better, 0 worse, 1 changed in all; ..." */
char *diff_answer(const kv_analysis *a, const struct kv_report_diff *rd);
/* What the report after it describes, with the snapshots' dates. */
char *diff_intro(const kv_analysis *a, const struct kv_report_diff *rd);
/* "+code −code" of a changed VMI, SYM_NONE when none. */
char *diff_codes(const struct kv_diff_vmi *v);
/* A node's CPU labels other than features that changed: host model,
 * vendor, other labels lost (−) and gained (+); SYM_NONE when none. */
struct kv_diff_node;
char *diff_node_labels(const struct kv_diff_node *n);
const char *diff_group_change(const struct kv_diff_group *g); /* "new" */
char *diff_pair(size_t before, size_t after);	/* "3 → 1", "3" */

/* Section sentences.  Each returns a new string. */
char *prose_headline(const kv_analysis *a);	/* "N of M running ..." */
/* "cluster lab-mixed, 11 running VMIs, 4 would not migrate" (", 2 not
 * judged"): report's one line on the terminal */
char *prose_oneline(const kv_analysis *a);
char *prose_verdicts(const kv_analysis *a);	/* "8 ok, 1 blocked, ..." */
char *prose_cluster(const kv_analysis *a);
char *prose_lacked(const kv_analysis *a);
char *prose_absent(const kv_analysis *a);	/* NULL when none */
char *prose_matrix(const kv_analysis *a);
/* Why class pair p, a class to itself, is refused: "within one class:
 * the nodes of C1 lack the label their own host model asks of a target,
 * ..." (pairs, the matrix cell's title). */
char *prose_self_refused(const kv_analysis *a, const struct kv_pair *p);
char *prose_named(const kv_analysis *a);
char *prose_tradeoff(const kv_analysis *a);
char *prose_vmis(const kv_analysis *a);
char *prose_drain(const kv_analysis *a);
char *prose_drain_assumption(const kv_analysis *a);
/* The model to name for a trade-off tier: the first of the scope's
 * vendor when one reaches the tier's nodes, else the first; NULL when
 * none. */
const char *tradeoff_model(const kv_analysis *a, const kv_tradeoff *t);
/* sec_drain.c: the cluster-wide drain answer; every node's plan rows
 * appended to the HTML section (an xmlNodePtr). */
char *drain_headline(const kv_analysis *a);
struct _xmlNode;
void drain_html_plans(const kv_analysis *a, struct _xmlNode *section);
/* above[l]: the VMIs whose guest OS needs an x86-64 level above l
 * (kv_guests_above, guestos.h), l = 0..4. */
void guest_floor_counts(const kv_analysis *a, size_t above[5]);
/* The trade-off line for tier t: "guests that need x86-64-v3: 2 VMIs"
 * (each level above what every model of the tier gives the guest), or
 * NULL when no guest needs more; caller frees. */
char *tradeoff_guests(const kv_analysis *a, const kv_tradeoff *t,
    const size_t above[5]);
/* The vendor rule, when both the all scope and vendor scopes appear;
 * NULL otherwise. */
const char *prose_vendor_rule(const kv_analysis *a);

/* How many VMIs carry each code: an array parallel to kv_rules (a
 * VMI with the same code twice counts twice); caller frees. */
size_t *code_counts(const kv_analysis *a);

/* Key/value facts for a two-column table; the keys are static, the
 * values the caller's (facts_free). */
typedef struct kv_fact {
	const char *key;
	char *value;			/* NULL when names is set */
	/* a list (the analysis's), which the writers summarise: the first
	 * KV_FACT_NAMES "and N more (all in findings.json)" */
	const char *const *names;
	size_t nnames;
} kv_fact;
#define KV_FACT_NAMES	12
kv_fact *snapshot_facts(const kv_analysis *a, size_t *n);
kv_fact *settings_facts(const kv_analysis *a, size_t *n);	/* effective */
void facts_free(kv_fact *v, size_t n);

/* Fixed explanations, and notes that are NULL when they do not apply. */
const char *prose_matrix_howto(void);
char *prose_aggregated(const kv_analysis *a);	/* > KV_MATRIX_MAX */
const char *prose_tradeoff_howto(void);
const char *prose_vmis_howto(void);
const char *prose_glossary_intro(void);
char *prose_mismatch(const kv_analysis *a);

/* Names of a node list, ", "-joined, at most max of them ("and N more"). */
char *node_list(const kv_analysis *a, const size_t *idx, size_t n,
    size_t max);
char *nodeset_list(const kv_analysis *a, const kv_nodeset *set,
    size_t max);
char *str_list(const char *const *v, size_t n, size_t max);
/* The class a node belongs to, SYM_NONE when none. */
const char *node_class(const kv_analysis *a, size_t node);

/* VMIs grouped by node: order[] holds VMI indexes sorted by node name
 * (VMIs without a node last), then by name; caller frees. */
size_t *vmis_by_node(const kv_analysis *a);
/* The VMIs from order[k] on that share its node: their number; *head is
 * the node's name (borrowed), *meta " \u00b7 class C1 \u00b7 2 VMIs"
 * (the caller's). */
size_t vmi_group(const kv_analysis *a, const size_t *order, size_t k,
    const char **head, char **meta);
/* "ok" target summary of one VMI: "4 nodes: a, b, c and 1 more". */
char *vmi_targets(const kv_analysis *a, const kv_vmires *r, size_t max);
/* "migrates", "rejected at once", "unschedulable after 300 s" ... */
char *vmi_outcome(const kv_vmires *r);
/* What a drain does with it, in words. */
const char *drain_word(enum kv_on_drain on_drain);

/* Matrix view: the rows and the columns are each an axis, a set of
 * classes (the report's: every class on both; crosscheck's: SOURCE's
 * classes as rows, TARGET's as columns).  An axis shows at most
 * KV_MATRIX_MAX entries, the last one aggregating every class of the
 * axis from KV_MATRIX_MAX - 1 on. */
typedef struct kv_maxis {
	size_t n;		/* entries shown */
	size_t ncls;		/* classes on the axis */
	const size_t *cls;	/* the axis's classes, indexes into
				   a->classes (the caller's), or NULL:
				   every class in order */
	bool aggregated;
} kv_maxis;
typedef struct kv_mview {
	kv_maxis row, col;
	bool aggregated;	/* either axis */
	const char *title;	/* the figure's title, or NULL: the
				   report's (static or the caller's) */
} kv_mview;
/* Every class of a on both axes. */
void mview_init(kv_mview *v, const kv_analysis *a);
/* rows[0..nrows) as rows, cols[0..ncols) as columns (borrowed). */
void mview_init_sets(kv_mview *v, const size_t *rows, size_t nrows,
    const size_t *cols, size_t ncols, const char *title);
/* Axis positions [first, last) of entry i. */
void mview_range(const kv_maxis *ax, size_t i, size_t *first,
    size_t *last);
/* The class (index into a->classes) at axis position k. */
size_t mview_class(const kv_maxis *ax, size_t k);
/* Entry (i, j): ok when every pair in it is; missing = the largest
 * number of missing labels; npairs/nfail count the pairs.  The pair of
 * a single class pair is returned in *pair (else NULL). */
void mview_cell(const kv_mview *v, const kv_analysis *a, size_t i, size_t j,
    bool *ok, size_t *missing, size_t *nfail, size_t *npairs,
    const kv_pair **pair);
char *mview_label(const kv_maxis *ax, const kv_analysis *a, size_t i);
char *mview_cell_title(const kv_mview *v, const kv_analysis *a, size_t i,
    size_t j);

/* --- figures.c: the figure model -------------------------------------- */

enum kv_shape_kind { SHAPE_RECT, SHAPE_TEXT };
enum kv_anchor { ANCHOR_START, ANCHOR_MIDDLE, ANCHOR_END };

typedef struct kv_shape {
	enum kv_shape_kind kind;
	double x, y, w, h;	/* rect: box; text: anchor point on the
				 * baseline */
	uint32_t fill, stroke;	/* COL_NONE = none; text: fill = ink */
	double stroke_w;
	char *text;		/* SHAPE_TEXT, plain */
	enum kv_font font;
	double size;
	enum kv_anchor anchor;
	double rotate;		/* degrees about (x, y), text only */
	char *title;		/* tooltip and accessible name, or NULL */
} kv_shape;

typedef struct kv_fig {
	char *name;		/* file stem: "hostmodel-matrix" */
	char *title;		/* one line, for <title> and captions */
	char *desc;		/* what the figure shows */
	double w, h;		/* points */
	size_t n, cap;
	kv_shape *s;
} kv_fig;

void fig_free(kv_fig *f);
/* A new shape at the end of f (figures.c), zeroed but for what is given,
 * without fill or stroke (COL_NONE). */
kv_shape *fig_add(kv_fig *f, enum kv_shape_kind kind, double x, double y,
    double w, double h);

/* The figures.  t measures text; the matrix takes the entries
 * [r0, r1) x [c0, c1) of the view (the PDF draws it in tiles). */
kv_fig *fig_verdicts(const kv_analysis *a, kv_text *t);
kv_fig *fig_matrix(const kv_analysis *a, kv_text *t, const kv_mview *v,
    size_t r0, size_t r1, size_t c0, size_t c1);
kv_fig *fig_tradeoff(const kv_analysis *a, kv_text *t);
kv_fig *fig_drain(const kv_analysis *a, kv_text *t);
/* fig_window.c: the maintenance-window timeline of the slowest drain
 * (NULL when no drain migrates anything); window_slowest() is its index
 * into a->drain (SIZE_MAX: none), window_lanes() the lanes of d's
 * migrations. */
kv_fig *fig_window(const kv_analysis *a, kv_text *t);
size_t window_slowest(const kv_analysis *a);
size_t window_lanes(const kv_analysis *a, const kv_drain *d);
/* window_words.c: the section's words, shared by HTML and PDF: the
 * answer, the unknown count, the cluster's window facts and the
 * assumptions (NULL when none); the VMIs at risk or aborted (indexes
 * into a->vmis, name order; caller frees, *n of them). */
char *window_answer(const kv_analysis *a);
char *window_unknown(const kv_analysis *a);	/* NULL: none unknown */
char *window_facts(const kv_analysis *a);
char **window_assumptions(const kv_analysis *a, size_t *n);
size_t *window_flagged(const kv_analysis *a, size_t *n);
/* The number of nodes the drain figure shows at most. */
#define KV_DRAIN_FIG_MAX 40

/* Width of the matrix's row-label column and of one cell, for tiling. */
void fig_matrix_metrics(const kv_analysis *a, kv_text *t, const kv_mview *v,
    double *label_w, double *head_h, double *cell);

/* Draw f with its top left corner at (x, y). */
void fig_cairo(const kv_fig *f, kv_text *t, cairo_t *cr, double x,
    double y);

/* --- xmlerr.c: libxml2's messages --------------------------------------- */

/* From begin to end libxml2 prints nothing; end returns its first
 * message as one line (static storage, "unknown error" when none). */
void xml_errors_begin(void);
const char *xml_errors_end(void);

/* --- svg.c ------------------------------------------------------------ */

/* f as an <svg> element of doc (standalone adds the SVG namespace and
 * the XML prologue is the caller's; inline omits the namespace, which an
 * HTML parser supplies).  Every string goes through xmlNewProp or
 * xmlNewTextChild. */
xmlNodePtr fig_svg(const kv_fig *f, xmlDocPtr doc, bool standalone);
/* f as a standalone SVG file written to out. */
int fig_write_svg(const kv_fig *fig, FILE *out, kv_err *err);

#endif
