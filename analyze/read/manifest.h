/*
 * manifest.h - what a snapshot says about itself (manifest.json, or what a
 * foreign input's reader synthesizes) and the consumer its members stream
 * to.  The types shared by the snapshot reader (snapshot.c), the foreign
 * input reader (foreign.c) and the loader; neither reader calls the other
 * (input.h chooses).  Ownership: a snap_manifest's strings are its own,
 * released by snap_manifest_free().
 */
#ifndef KV_MANIFEST_H
#define KV_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/util/util.h"

typedef struct snap_resource {
	char *resource;		/* "nodes" */
	char *group;		/* "" for the core group */
	char *file;		/* "resources/nodes.json" or NULL */
	char *status;		/* ok | absent | forbidden | error |
				   missing (not in the input) */
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

/* Where created_at comes from: the manifest's createdAt, a must-gather's
 * own capture time (its timestamp files), or, for a foreign input without
 * one, the newest object's creationTimestamp (or none: 1970). */
typedef enum snap_time {
	SNAP_TIME_MANIFEST,
	SNAP_TIME_CAPTURED,
	SNAP_TIME_NEWEST_OBJECT,
	SNAP_TIME_UNKNOWN
} snap_time;

typedef struct snap_manifest {
	snap_input input;
	snap_time time_source;
	bool integrity_checked;	/* files[] sizes and SHA-256 verified */
	size_t nforeign_dups;	/* foreign: objects seen twice (same uid) */
	long long format_version;
	char *created_at;	/* "2026-10-31T09:12:44Z" */
	char *context;
	char *kubernetes_version;
	char *kubevirt_version;
	char *flavor;		/* a flavor row's name ("kubevirt",
				   "deckhouse", ...; the loader checks) */
	char *collector_name;
	char *collector_version;
	bool redact, anonymize;
	/* options.namespaces: the --namespace ones, sorted as given; none =
	 * every namespace */
	size_t nnamespaces;
	char **namespaces;
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

void snap_manifest_free(snap_manifest *m);

/* For a created_at that is no capture time (SNAP_TIME_NEWEST_OBJECT,
 * SNAP_TIME_UNKNOWN): "capture time unknown (newest object <created_at>)"
 * or "capture time unknown (no object has a creation time)"; NULL for a
 * capture time.  The caller frees it. */
char *snap_time_unknown(const snap_manifest *m);

#endif
