/*
 * container.h - walking the regular files of a directory or an archive
 * (tar in any compression libarchive reads, or zip) under the hostile-input
 * rules of docs/snapshot-format.md.
 *
 * kv_walk() streams each regular file to the callbacks as it is read;
 * nothing is written to disk.  It refuses links, devices, FIFOs, absolute
 * paths, "." and ".." components, names that are not clean UTF-8, and
 * enforces the kv_limits on members, bytes and compression ratio.  With
 * strip_top, every member must lie under one top directory, whose name is
 * dropped from the paths given to the callbacks.  A path of "-" is
 * standard input (an archive or one plain file).  Errors are
 * "<path>: <member>: <what>", one line.
 */
#ifndef KV_CONTAINER_H
#define KV_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/limits.h"
#include "analyze/util/util.h"

typedef struct kv_walk_ops {
	/* A member starts (its size as declared, 0 when unknown). */
	int (*begin)(void *arg, const char *path, uint64_t declared,
	    kv_err *err);
	int (*data)(void *arg, const char *buf, size_t len, kv_err *err);
	int (*end)(void *arg, kv_err *err);
	/* The read stops between begin() and end(). */
	void (*abort)(void *arg);
	/* The input is one plain file (no directory, no archive), given as
	 * one member named as the file ("stdin" for "-"); called before its
	 * begin().  NULL: such an input is refused (KV_NOT_AN_INPUT). */
	void (*lone)(void *arg);
	/* The read is about to stop inside a member on an error of its own
	 * (a limit, a damaged archive): an error in the member's bytes
	 * before that point, still being parsed, is set in err and returned
	 * first, so the same input always gives the same error.  NULL:
	 * nothing is pending. */
	int (*settle)(void *arg, kv_err *err);
} kv_walk_ops;

/* What a file kvscope cannot read is told ("<path>: " before it). */
#define KV_NOT_AN_INPUT "not a snapshot, tarball, zip, must-gather or " \
	"kubectl output"

/* "-": standard input, read whole once (bounded by
 * KVSCOPE_MAX_TOTAL_BYTES) and kept for every later read of "-". */
bool kv_is_stdin(const char *path);

int kv_walk(const char *path, const kv_limits *lim, bool strip_top,
    const kv_walk_ops *ops, void *arg, kv_err *err);

/* What lies at path: a directory holding manifest.json, an archive whose
 * top directory holds one (looked for among the first headers), or
 * neither (a foreign input: must-gather, support bundle, plain files). */
bool kv_is_snapshot(const char *path, const kv_limits *lim);

#endif
