/*
 * limits.h - resource limits applied to every snapshot.
 *
 * A snapshot comes from a stranger.  Each limit turns a hostile or broken
 * input into one clear error (exit 2) instead of an exhausted machine.
 * Defaults fit the largest real clusters (5,000 nodes, 100,000 VMIs) with
 * room to spare; each can be raised with an environment variable named in
 * the table in limits.c and in docs/limits.md (KVSCOPE_MAX_*).
 */
#ifndef KV_LIMITS_H
#define KV_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/util/util.h"

typedef struct kv_limits {
	uint64_t member_bytes;	/* one archive member, uncompressed */
	uint64_t total_bytes;	/* all members, uncompressed */
	uint64_t ratio;		/* uncompressed / compressed bytes */
	uint64_t members;	/* archive members */
	uint64_t items;		/* objects in one resource file */
	uint64_t object_bytes;	/* one object, as JSON text */
	uint64_t string_bytes;	/* one JSON string */
	uint64_t depth;		/* JSON nesting depth */
	uint64_t labels;	/* labels (or annotations) of one object */
	uint64_t manifest_bytes;/* manifest.json and each XML file */
	uint64_t cpu_classes;	/* CPU classes (hostModelPairs: squared) */
	uint64_t yaml_bytes;	/* one YAML file of a foreign input */
	uint64_t alias_nodes;	/* YAML nodes made by expanding aliases, per
				 * document */
	/* --strict: a file that cannot be parsed, or a member the manifest
	 * lists that is missing, refuses the whole input (exit 2).  false
	 * (the default): it is skipped with a warning naming it and its
	 * resource, which counts as partial (docs/snapshot-format.md,
	 * "Partial inputs").  kv_limits_init sets false. */
	bool strict;
} kv_limits;

/* Defaults, then KVSCOPE_MAX_* overrides from the environment.  A malformed
 * override is an error. */
int kv_limits_init(kv_limits *lim, kv_err *err);

/* Whether err is a limit's (its message names a KVSCOPE_MAX_ variable):
 * such an input is refused even without --strict. */
bool kv_err_is_limit(const kv_err *err);

#endif
