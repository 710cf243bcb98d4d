/*
 * input.c - a snapshot or a foreign input, chosen by the presence of
 * manifest.json (input.h).
 */
#include "analyze/read/input.h"

#include "analyze/read/container.h"
#include "analyze/read/foreign.h"
#include "analyze/read/snapshot.h"

int
kv_input_read(const char *path, const kv_limits *lim, const snap_sink *sink,
    snap_manifest *m, kv_err *err)
{
	if (kv_is_snapshot(path, lim))
		return snapshot_read(path, lim, sink, m, err);
	return foreign_read(path, lim, sink, m, err);
}
