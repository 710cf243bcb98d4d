/*
 * snapshot.h - reading a snapshot container: a tar archive (any compression
 * libarchive reads) or a plain directory, in the layout of
 * docs/snapshot-format.md.
 *
 * The reader streams every regular member to a consumer (snap_sink) as it
 * is decompressed; nothing is ever written to disk and no member is held in
 * memory except manifest.json.  While streaming it enforces kv_limits,
 * rejects links, devices, absolute paths, ".." components, duplicate
 * members and names that are not clean UTF-8, and computes each member's
 * size and SHA-256.  At the end it checks every member against the
 * manifest's files[] and names all that do not match.
 *
 * Member paths given to the consumer are relative to the top directory
 * ("resources/nodes.json").  Ownership: the snap_manifest filled in by
 * snapshot_read() is owned by the caller (snap_manifest_free()).
 */
#ifndef KV_SNAPSHOT_H
#define KV_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/limits.h"
#include "analyze/read/manifest.h"
#include "analyze/util/util.h"

/* Read the kvscope snapshot at path (it has a manifest.json; input.h
 * reads any input).  Errors are "<path>: <member>: <what>". */
int snapshot_read(const char *path, const kv_limits *lim,
    const snap_sink *sink, snap_manifest *m, kv_err *err);

#endif
