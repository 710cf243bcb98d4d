/*
 * view.h - the terminal views of the CLI (check, explain, models, pairs)
 * and their writers: text, wide, JSON, YAML.
 *
 * A view draws only from a kv_analysis and writes one document to t->f.
 * In JSON and YAML it is one object with stable keys built from the
 * objects findings.json uses (render.h, kv_json_*); in text and wide it
 * is lines for a person, every snapshot string through kv_term_puts,
 * colour only when t->color, long lists wrapped to t->width and cut
 * after a few lines unless t->all.  Views return KV_OK, or KV_ERR with
 * a message in err (a write error); nothing they return needs freeing.
 */
#ifndef KV_VIEW_H
#define KV_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "analyze/rules/analysis.h"
#include "analyze/util/bitset.h"
#include "analyze/decide/drain.h"

typedef enum kv_outfmt {
	KV_OUT_TEXT, KV_OUT_WIDE, KV_OUT_JSON, KV_OUT_YAML, KV_OUT_JUNIT,
	KV_OUT_PROM, KV_OUT_SARIF, KV_OUT_COUNT
} kv_outfmt;
extern const char *const kv_outfmt_names[KV_OUT_COUNT];

enum kv_color {
	KV_C_NONE, KV_C_RED, KV_C_GREEN, KV_C_YELLOW, KV_C_BOLD, KV_C_DIM
};

/* Where and how a view writes. */
typedef struct kv_term {
	FILE *f;
	kv_outfmt fmt;
	bool color;		/* ANSI colours */
	bool all;		/* print long lists whole */
	bool tty;		/* stdout is a terminal: a screenful */
	int width;		/* columns, >= 40 */
} kv_term;

/* s with every list of more than keep + 1 names ("w1, w2, w3, ...") cut
 * after keep of them with " and N more"; the caller frees it. */
char *kv_term_cut_lists(const char *s, size_t keep);

/* Terminal width: COLUMNS, else the tty's (ioctl on fd), else 80. */
int kv_term_columns(int fd);
/* s through kv_term_puts in colour c (when t->color). */
void kv_term_paint(const kv_term *t, enum kv_color c, const char *s);
/* Columns kv_term_puts(s) takes. */
size_t kv_term_strwidth(const char *s);
/* The colour of a verdict. */
enum kv_color kv_verdict_color(enum kv_verdict v);
/* A VMI's (or group's): its verdict's, but red when a drain waits on it
 * forever and yellow at least when a drain stops it: never green. */
enum kv_color kv_vmi_color(enum kv_verdict v, enum kv_on_drain d);
/* Node `node` as a place a VMI goes to (a migration's target, where a
 * stopped VM starts again): its name, then ", room not checked" when the
 * input has no room data.  check --drain and explain say it alike. */
void kv_term_place(FILE *f, const kv_analysis *a, size_t node);

/* s written from column col, wrapped at spaces to t->width with
 * `indent` spaces on continuation lines (a word wider than the line
 * stands alone); no newline at the end (wrap.c). */
void kv_term_wrap(const kv_term *t, size_t col, size_t indent,
    const char *s);

/* Every line a view writes, wrapped (wrap.c): kv_wrap_open returns the
 * stream to give the view (t->f); kv_wrap_close writes its lines to
 * `to`, each wider than width broken at spaces, continuation lines 4
 * columns under the line's own indent, and returns 0, or -1 when `to`
 * has a write error.  The kv_wrapout holds what the view wrote until
 * then. */
typedef struct kv_wrapout {
	FILE *mem, *to;
	char *buf;
	size_t len, width;
} kv_wrapout;
FILE *kv_wrap_open(kv_wrapout *w, FILE *to, int width);
int kv_wrap_close(kv_wrapout *w);

/* A list of names written after a label, wrapped at t->width with
 * `indent` spaces on continuation lines, and cut after `lines` lines
 * with "... and N more" (unless t->all). */
typedef struct kv_tlist {
	const kv_term *t;
	size_t indent, col, lines, maxlines, total, shown;
	bool cut;
} kv_tlist;
void kv_tlist_begin(kv_tlist *l, const kv_term *t, size_t col,
    size_t indent, size_t total, size_t maxlines);
void kv_tlist_add(kv_tlist *l, const char *s);
/* Ends the list (and the line). */
void kv_tlist_end(kv_tlist *l);

/* Write doc as one JSON (indented, keys in insertion order) or YAML
 * document; doc stays the caller's. */
int kv_doc_write(const json_t *doc, kv_outfmt fmt, FILE *f, kv_err *err);
/* YAML through libyaml's emitter (yaml.c). */
int kv_yaml_write(const json_t *doc, FILE *f, kv_err *err);

/* -o junit (junit.c): one test case per VMI, in the order given. */
enum { KV_JCASE_PASSED, KV_JCASE_FAILED, KV_JCASE_SKIPPED };
typedef struct kv_jcase {
	size_t vmi;			/* index into a->vmis */
	int state;			/* KV_JCASE_* */
	const char *type;		/* failure: "blocked", "drain-block" */
	const char *message;		/* failure, skipped: one line */
} kv_jcase;
int kv_view_junit(const kv_analysis *a, const char *suite,
    const kv_jcase *c, size_t n, const kv_term *t, kv_err *err);

/* check: the VMIs in `pick` (over a->vmis) that are running; *bad gets
 * how many of them would not migrate. */
int kv_view_check(const kv_analysis *a, const kv_bits *pick,
    const kv_term *t, size_t *bad, kv_err *err);
/* check's first line, of the VMIs in pick: "4 of 11 running VMIs would
 * not migrate" (and how many are not judged); kv_term_total_line: the
 * same line of counts already made (term.c, shared by check and
 * --groups). */
void kv_term_check_total(const kv_analysis *a, const kv_bits *pick,
    const kv_term *t);
void kv_term_total_line(const kv_analysis *a, size_t judged, size_t bad,
    size_t unjudged, const kv_term *t);
/* The groups with a VMI in `pick` (view_groups.c): after check's lines
 * (vmis false: summary and fix) or alone for --groups (vmis true: with
 * their VMIs). */
int kv_view_groups(const kv_analysis *a, const kv_bits *pick,
    const kv_term *t, bool vmis, kv_err *err);
/* explain: everything about a->vmis[i]. */
int kv_view_explain(const kv_analysis *a, size_t i, const kv_term *t,
    kv_err *err);
/* models: named CPU models common to the nodes in `chosen`. */
int kv_view_models(const kv_analysis *a, const kv_bits *chosen,
    const kv_term *t, kv_err *err);
/* pairs: CPU classes and the host-model migration matrix. */
int kv_view_pairs(const kv_analysis *a, const kv_term *t, kv_err *err);
/* check --drain: d[0..n) from kv_drain_nodes (drain.h), the whole drain
 * taking secs[0..1]; window: --window in seconds (0: none); allow:
 * which stops are accepted. */
int kv_view_drain(const kv_analysis *a, const kv_drain *d, size_t n,
    const double secs[2], double window, enum kv_allow allow,
    const kv_term *t, kv_err *err);
/* The maintenance window of a drain (view_window.c): each migration
 * that will be aborted or is at risk with its arithmetic, the unknown
 * ones summed up (the drain's time against the window is
 * kv_term_window_total, with the totals). */
void kv_term_window(const kv_analysis *a, const kv_drain *d, size_t n,
    const kv_term *t);
/* "Window 2 h 0 min: fits (the drain takes ...)" */
void kv_term_window_total(const kv_analysis *a, const double secs[2],
    double window, bool fails, const kv_term *t);
/* explain: a->vmis[i]'s estimate, its times and every assumption. */
void kv_term_window_vmi(const kv_analysis *a, size_t i,
    const kv_term *t);
/* plan: a rolling plan from kv_plan_build; selector says what the pool
 * is (for the heading). */
struct kv_plan;
int kv_view_plan(const kv_analysis *a, const struct kv_plan *p,
    const char *pool, enum kv_allow allow, double window,
    const kv_term *t, kv_err *err);

/* what-if and diff (view_diff.c): the difference of two analyses
 * (diff.h).  notes NULL: a diff of two snapshots; else the what-if's
 * changes, one line each, and the restarts they need. */
struct kv_diff;
/* A diff's input: what its manifest says of it (NULL: not said), the
 * cluster uid (diff.h kv_cluster_uid: uid_from names its object) and
 * the header line "old: PATH (context C, collected T, collector N V)". */
typedef struct kv_diff_input {
	const char *which;		/* "old", "new" */
	const char *path;
	const char *context, *created_at;
	const char *collector_name, *collector_version;
	const char *cluster_uid, *uid_from;
	char *line;
} kv_diff_input;
typedef struct kv_diff_notes {
	char *const *notes;
	size_t nnotes;
	size_t restarts;
	/* diff: OLD, NEW and the warnings about the pair */
	const kv_diff_input *inputs;
	size_t ninputs;
	char *const *warnings;
	size_t nwarnings;
	const kv_vocab *words;		/* the flavor's (of the snapshot
					 * after), or NULL: KubeVirt's */
	bool fix_all;			/* what-if --fix all: the first line
					 * says "after every fix" */
	const struct kv_fixed *fixed;	/* what-if --fix: the groups */
	size_t nfixed;
} kv_diff_notes;
/* "not judged in new: 3 VMIs (nodes: not in the input)" for side s
 * (0 before, 1 after) in the words of a diff (old, new) or a what-if
 * (before, after), in the flavor's words (NULL: KubeVirt's); NULL when
 * the side judged every running VMI.  The caller's string. */
char *kv_diff_untold(const struct kv_diff *d, int s, bool whatif,
    const kv_vocab *words);
/* A changed group's subject in words, its kind spelled out: "CPU class:
 * C3 (Haswell-noTSX)", "eviction strategy: LiveMigrate" (the caller's). */
struct kv_diff_group;
char *kv_diff_subject(const struct kv_diff_group *g);
int kv_view_diff(const struct kv_diff *d, const kv_diff_notes *n,
    const kv_term *t, kv_err *err);
/* The JSON document of kv_view_diff's -o json (the caller's). */
json_t *kv_json_diff(const struct kv_diff *d, const kv_diff_notes *n);

#endif
