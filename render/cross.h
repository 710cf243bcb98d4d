/*
 * cross.h - the writers of `kvscope crosscheck` (analyze/crosscheck/
 * crosscheck.h): the text view (render/term/view_cross.c) and the
 * -o json|yaml document (render/json/cross.c, docs/crosscheck.md).
 *
 * Both draw only from a built kv_cross and write one document; the JSON
 * document is the caller's (json_decref).  Output is deterministic.
 */
#ifndef KV_RENDER_CROSS_H
#define KV_RENDER_CROSS_H

#include <jansson.h>

#include "analyze/crosscheck/crosscheck.h"
#include "render/view.h"

/* The document's version (docs/crosscheck.md). */
#define KV_CROSS_JSON_VERSION 1

json_t *kv_json_cross(const kv_cross *x);
/* The summary line, the two sides, the groups by cause with their fix
 * and VMs, then one line per VM. */
int kv_view_cross(const kv_cross *x, const kv_term *t, kv_err *err);
/* The CPU figure (render/svg/cross_fig.c): the report's host-model
 * matrix with SOURCE's CPU classes as rows (their nodes named
 * source/NAME) and TARGET's as columns, a standalone SVG to f. */
int kv_write_cross_svg(const kv_cross *x, FILE *f, kv_err *err);
/* Its matrix view (report.h): rows the classes of x->a with a SOURCE
 * node, columns those with a TARGET node, into *rows and *cols (the
 * caller's, free()), which the view borrows. */
struct kv_mview;
void kv_cross_mview(const kv_cross *x, struct kv_mview *v, size_t **rows,
    size_t **cols);
/* The figure itself (report.h's kv_fig, fig_free()), measured with t. */
struct kv_fig;
struct kv_text;
struct kv_fig *kv_cross_fig(const kv_cross *x, struct kv_text *t);

/* The words the writers share (render/words/cross_words.c), each the
 * caller's but the last: "9 of 11 VMs could live-migrate to lab-b, 1
 * only cold, 1 not"; "SOURCE: lab-mixed (KubeVirt v1.9.0,
 * DecentralizedLiveMigration on)" for side i; "data to copy: 2.0 TiB
 * (...)"; "rules out live", "rules out live and cold", "said". */
char *kv_cross_summary(const kv_cross *x);
char *kv_cross_side(const kv_cross *x, int i);
char *kv_cross_copy(const kv_cross *x);
const char *kv_cross_rules_out(unsigned blocks);
/* What answer v means, one line (static). */
const char *kv_cross_meaning(enum kv_xanswer v);

/* The crosscheck report (`crosscheck --report DIR`), kv_writer_fn's
 * with arg the const kv_cross * (a unused): report.html
 * (render/html/cross.c), report.pdf (render/pdf/pdf_cross.c) and
 * crosscheck.json (the -o json document).  Each shows the summary line,
 * both sides, the groups by cause with their fixes, the CPU figure
 * (with, in the PDF, every refused class pair and the labels it lacks)
 * and one row per VM.  Deterministic: the same snapshots, the same
 * bytes (the PDF's date is the TARGET snapshot's, or
 * SOURCE_DATE_EPOCH). */
int kv_write_cross_html(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
int kv_write_cross_pdf(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
int kv_write_cross_json(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);

#endif
