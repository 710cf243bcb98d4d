/*
 * input.h - reading whatever the user gives: a kvscope snapshot (it has a
 * manifest.json: snapshot.h, every member checked against it) or a foreign
 * input without one (foreign.h: a must-gather, a support bundle or plain
 * kubectl output, whose objects reach the sink as the members of a
 * virtual snapshot with a synthesized manifest: the input kind,
 * integrity_checked false, the resources the analysis needs marked "not in
 * the input" and a note saying so).  The caller owns m
 * (snap_manifest_free()).
 */
#ifndef KV_INPUT_H
#define KV_INPUT_H

#include "analyze/read/limits.h"
#include "analyze/read/manifest.h"

int kv_input_read(const char *path, const kv_limits *lim,
    const snap_sink *sink, snap_manifest *m, kv_err *err);

#endif
