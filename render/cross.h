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

#endif
