/*
 * fleet.h - the writers of the fleet index (analyze/fleet/fleet.h) and
 * of the Prometheus exposition: fleet.json (docs/fleet.md), fleet.html
 * and history.html (the index, a trend figure, new / still / fixed per
 * cluster), the text view of `kvscope fleet`, and the text exposition
 * node_exporter's textfile collector reads (docs/metrics.md).
 *
 * Each draws only from a built kv_fleet (kv_fleet_build) and writes one
 * document to f; the kv_writer_fn ones take the fleet as arg (a is
 * unused, NULL) so kv_output stages them atomically.  The JSON document
 * is the caller's (json_decref).  Output is deterministic.
 */
#ifndef KV_RENDER_FLEET_H
#define KV_RENDER_FLEET_H

#include <jansson.h>
#include <stdio.h>

#include "analyze/fleet/fleet.h"
#include "render/view.h"

/* fleet.json's version (docs/fleet.md). */
#define KV_FLEET_JSON_VERSION 1
/* The clusters the trend figure draws, the newest. */
#define KV_FLEET_TREND_MAX 20

json_t *kv_fleet_json(const kv_fleet *f);
/* fleet.json, fleet.html, history.html: arg is the const kv_fleet *. */
int kv_write_fleet_json(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
int kv_write_fleet_html(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
int kv_write_fleet_history(const kv_analysis *a, FILE *f, void *arg,
    kv_err *err);
/* The trend figure: would-not-migrate per snapshot over time, one line
 * per cluster (the KV_FLEET_TREND_MAX with the newest snapshots). */
void kv_fleet_trend_svg(const kv_fleet *fl, FILE *f);
/* s as HTML/XML text or attribute value, escaped by libxml2
 * (xmlEncodeSpecialChars: &, <, >, ", CR); render/words/format.c. */
void kv_fleet_esc(FILE *f, const char *s);
/* One line per cluster, worst first, then the unreadable inputs. */
int kv_view_fleet(const kv_fleet *fl, const kv_term *t, kv_err *err);
/* The Prometheus text exposition of every cluster's newest snapshot
 * (docs/metrics.md); arg is the const kv_fleet *. */
int kv_write_prom(const kv_analysis *a, FILE *f, void *arg, kv_err *err);

#endif
