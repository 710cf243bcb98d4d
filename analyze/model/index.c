/*
 * index.c - see index.h.  Keys and values are interned strings, so the
 * hash tables compare pointers; a key that was never interned cannot be
 * on any node.
 */
#include "analyze/model/index.h"

#include <glib.h>

typedef struct ix_key {
	kv_bits any;
	GHashTable *vals;	/* interned value -> index in values[] */
	size_t n, cap;
	const char **values;
	kv_bits **bits;
} ix_key;

struct kv_index {
	const kv_model *m;
	GHashTable *keys;	/* interned key -> ix_key */
};

static void
ix_key_free(gpointer p)
{
	ix_key *k = p;

	kv_bits_free(&k->any);
	g_hash_table_destroy(k->vals);
	for (size_t i = 0; i < k->n; i++) {
		kv_bits_free(k->bits[i]);
		free(k->bits[i]);
	}
	free(k->bits);
	free(k->values);
	free(k);
}

kv_index *
kv_index_build(const kv_model *m)
{
	kv_index *ix = xcalloc(1, sizeof(*ix));

	ix->m = m;
	ix->keys = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	    ix_key_free);
	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_labels *l = &m->nodes[i].labels;

		for (size_t j = 0; j < l->n; j++) {
			ix_key *k = g_hash_table_lookup(ix->keys, l->v[j].key);
			gpointer slot;
			size_t vi;

			if (k == NULL) {
				k = xcalloc(1, sizeof(*k));
				kv_bits_init(&k->any, m->nnodes);
				k->vals = g_hash_table_new(g_direct_hash,
				    g_direct_equal);
				g_hash_table_insert(ix->keys,
				    (gpointer)l->v[j].key, k);
			}
			kv_bits_set(&k->any, i);
			if (g_hash_table_lookup_extended(k->vals,
			    l->v[j].value, NULL, &slot))
				vi = (size_t)GPOINTER_TO_SIZE(slot);
			else {
				vi = k->n;
				KV_GROW(k->values, k->cap, k->n + 1);
				k->bits = xreallocarray(k->bits, k->cap,
				    sizeof(*k->bits));
				k->values[vi] = l->v[j].value;
				k->bits[vi] = xcalloc(1, sizeof(kv_bits));
				kv_bits_init(k->bits[vi], m->nnodes);
				k->n++;
				g_hash_table_insert(k->vals,
				    (gpointer)l->v[j].value,
				    GSIZE_TO_POINTER(vi));
			}
			kv_bits_set(k->bits[vi], i);
		}
	}
	return ix;
}

void
kv_index_free(kv_index *ix)
{
	if (ix == NULL)
		return;
	g_hash_table_destroy(ix->keys);
	free(ix);
}

static ix_key *
find_key(const kv_index *ix, const char *key)
{
	const char *k = kv_intern_lookup(ix->m->strs, key);

	return k != NULL ? g_hash_table_lookup(ix->keys, k) : NULL;
}

const kv_bits *
kv_index_has(const kv_index *ix, const char *key)
{
	ix_key *k = find_key(ix, key);

	return k != NULL ? &k->any : NULL;
}

const kv_bits *
kv_index_eq(const kv_index *ix, const char *key, const char *value)
{
	ix_key *k = find_key(ix, key);
	const char *v;
	gpointer slot;

	if (k == NULL || (v = kv_intern_lookup(ix->m->strs, value)) == NULL)
		return NULL;
	if (!g_hash_table_lookup_extended(k->vals, v, NULL, &slot))
		return NULL;
	return k->bits[GPOINTER_TO_SIZE(slot)];
}

size_t
kv_index_values(const kv_index *ix, const char *key,
    const char *const **values, kv_bits *const **bits)
{
	ix_key *k = find_key(ix, key);

	if (k == NULL) {
		*values = NULL;
		*bits = NULL;
		return 0;
	}
	*values = k->values;
	*bits = k->bits;
	return k->n;
}
