/*
 * input.c - a snapshot or a foreign input, chosen by the presence of
 * manifest.json (input.h).
 */
#include "input.h"

#include "container.h"
#include "foreign.h"
#include "snapshot.h"

int
kv_input_read(const char *path, const kv_limits *lim, const snap_sink *sink,
    snap_manifest *m, kv_err *err)
{
	if (kv_is_snapshot(path, lim))
		return snapshot_read(path, lim, sink, m, err);
	return foreign_read(path, lim, sink, m, err);
}
