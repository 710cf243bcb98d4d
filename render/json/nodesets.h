/*
 * nodesets.h - findings.json's "nodeSets" (findings.md version 2): the
 * distinct node lists the VMIs' cpuTargets and targets refer to, with ids
 * N1, N2, ... in order of first use reading the VMIs from the top
 * (cpuTargets before targets).  Identical lists share one set whether or
 * not they came from the same placement problem.  The sets borrow the
 * analysis' bitsets; kv_nodesets_free() releases only the index.
 */
#ifndef KV_NODESETS_H
#define KV_NODESETS_H

/* GLib's hash table, by pointer: the header needs no more of GLib
 * (its users include <glib.h>). */
typedef struct _GHashTable GHashTable;

#include "analyze/rules/analysis.h"

typedef struct kv_nodesets {
	size_t n;
	const kv_bits **sets;		/* set i is "N<i+1>" */
	GHashTable *by_ptr;		/* const kv_bits * -> index + 1 */
	GHashTable *by_content;		/* const kv_bits * -> index + 1 */
} kv_nodesets;

/* Whether VMI result r refers to sets (a judged target search), or has
 * null cpuTargets and targets. */
bool kv_nodesets_refers(const kv_vmires *r);
/* The sets of the VMIs in pick (NULL: every VMI). */
kv_nodesets *kv_nodesets_build(const kv_analysis *a, const kv_bits *pick);
/* The index of the set equal to b (b must be one the build saw). */
size_t kv_nodesets_id(const kv_nodesets *s, const kv_bits *b);
void kv_nodesets_free(kv_nodesets *s);

#endif
