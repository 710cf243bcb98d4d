/*
 * index.h - label -> node bitset index.
 *
 * Built once per analysis from every node's labels, so that a node
 * selector is a handful of bitset ANDs instead of a scan of every node's
 * labels for every VMI.  Keys and values are looked up by content; the
 * returned bitsets belong to the index and live as long as it does.
 */
#ifndef KV_INDEX_H
#define KV_INDEX_H

#include "analyze/util/bitset.h"
#include "analyze/model/model.h"

typedef struct kv_index kv_index;

kv_index *kv_index_build(const kv_model *m);
void kv_index_free(kv_index *ix);

/* Nodes whose label key has exactly value; NULL when none. */
const kv_bits *kv_index_eq(const kv_index *ix, const char *key,
    const char *value);
/* Nodes that carry key with any value; NULL when none. */
const kv_bits *kv_index_has(const kv_index *ix, const char *key);
/* The distinct values of key (interned, unsorted) and their node sets.
 * Returns the count; *values and *bits point into the index. */
size_t kv_index_values(const kv_index *ix, const char *key,
    const char *const **values, kv_bits *const **bits);

#endif
