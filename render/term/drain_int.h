/*
 * drain_int.h - what the drain view (view_drain.c) lends the plan view
 * (view_plan.c): the lines of a node's drain and of each VMI on it, the
 * notes, and the JSON pieces.  Private to render/term.  Strings and
 * JSON returned are the caller's.
 */
#ifndef KV_DRAIN_INT_H
#define KV_DRAIN_INT_H

#include "render/view.h"

#define NTOTALS 7		/* the keys of kv_tdrain_totals_json */

/* "    ns/vm: migrates to w4" */
void kv_tdrain_row(const kv_analysis *a, const kv_drain_row *row,
    const kv_term *t);
/* "  w2: 3 VMIs, 2 migrate, 1 stop, 0 block, 0 external; about 42 s" */
void kv_tdrain_line(const kv_analysis *a, const kv_drain *d,
    const kv_term *t);
/* The capacity state; how the platform drains. */
void kv_tdrain_room(const kv_analysis *a, const kv_term *t);
void kv_tdrain_words(const kv_analysis *a, const kv_term *t);
/* findings.json's drain entries of d[0..n). */
json_t *kv_tdrain_json(const kv_analysis *a, const kv_drain *d, size_t n);
/* The summary object of the NTOTALS counts c and the time secs. */
json_t *kv_tdrain_totals_json(const size_t *c, const double secs[2]);
void kv_tdrain_allow_json(json_t *doc, enum kv_allow allow);
/* The stops allow accepts, of stops and restarts. */
size_t kv_tdrain_accepted(enum kv_allow allow, size_t stops,
    size_t restarts);
/* The stops of d[0..n) whose restart is unknown; *why the first's
 * reason; and the line --allow-restart says of them. */
size_t kv_tdrain_unknown(const kv_drain *d, size_t n, const char **why);
void kv_tdrain_unknown_note(size_t c, const char *why, enum kv_allow allow,
    const kv_term *t);
/* The VMIs of d[0..n) into pick. */
void kv_tdrain_vmis(const kv_drain *d, size_t n, kv_bits *pick);

#endif
