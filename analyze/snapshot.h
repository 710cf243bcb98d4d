/*
 * snapshot.h - reading a snapshot container: a tar archive (any compression
 * libarchive reads) or a plain directory, in the layout of
 * ../shared/spec/snapshot-format.md.
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

#include "limits.h"
#include "util.h"

typedef struct snap_resource {
	char *resource;		/* "nodes" */
	char *group;		/* "" for the core group */
	char *file;		/* "resources/nodes.json" or NULL */
	char *status;		/* ok | absent | forbidden | error */
	char *message;		/* or NULL */
	long long count;	/* -1 when not given */
	char *scope;		/* pods: "all" | "launchers" | NULL (absent) */
} snap_resource;

/* What the input was: a kvscope snapshot, or a foreign input read
 * without a manifest (foreign.c). */
typedef enum snap_input {
	SNAP_INPUT_SNAPSHOT,
	SNAP_INPUT_MUST_GATHER,		/* oc adm inspect layout */
	SNAP_INPUT_SUPPORT_BUNDLE,	/* Harvester: yamls/ per resource */
	SNAP_INPUT_PLAIN,		/* kubectl get -o yaml|json files */
	SNAP_INPUT_COUNT
} snap_input;

/* "snapshot", "must-gather", "support-bundle", "plain-files" */
extern const char *const snap_input_names[SNAP_INPUT_COUNT];

typedef struct snap_manifest {
	snap_input input;
	bool integrity_checked;	/* files[] sizes and SHA-256 verified */
	size_t nforeign_dups;	/* foreign: objects seen twice (same uid) */
	long long format_version;
	char *created_at;	/* "2026-10-31T09:12:44Z" */
	char *context;
	char *kubernetes_version;
	char *kubevirt_version;
	char *flavor;		/* "kubevirt" or "deckhouse" */
	char *collector_name;
	char *collector_version;
	bool redact, anonymize;
	size_t nresources;
	snap_resource *resources;
	size_t nnotes;
	char **notes;
} snap_manifest;

/* One consumer per member.  begin() returns an opaque state, or NULL to
 * skip the content (it is still hashed and checked); data() receives the
 * bytes in order; end() is called once after the last byte and releases
 * the state, whether it succeeds or not; abort() releases it instead when
 * the read stops before end().  A KV_ERR from any of them stops the
 * read. */
typedef struct snap_sink {
	void *(*begin)(void *arg, const char *path, uint64_t size,
	    kv_err *err);
	int (*data)(void *state, const char *buf, size_t len, kv_err *err);
	int (*end)(void *state, kv_err *err);
	void (*abort)(void *state);	/* on error after begin() */
	void *arg;
} snap_sink;

/* Read the snapshot at path.  Errors are "<path>: <member>: <what>".
 * An input without manifest.json is read as a foreign one (foreign.h):
 * its objects reach the sink as the members of a virtual snapshot, m is
 * synthesized (input kind, integrity_checked false, the resources the
 * analysis needs marked "not in the input", a note saying so). */
int snapshot_read(const char *path, const kv_limits *lim,
    const snap_sink *sink, snap_manifest *m, kv_err *err);
void snap_manifest_free(snap_manifest *m);

#endif
