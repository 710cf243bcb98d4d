/*
 * nodesets.c - the node sets of findings.json (nodesets.h).
 */
#include "render/json/nodesets.h"

#include <string.h>

#include <glib.h>

static guint
bits_hash(gconstpointer p)
{
	const kv_bits *b = p;

	return kv_hash_bytes(b->w, b->nwords * sizeof(uint64_t));
}

static gboolean
bits_equal(gconstpointer x, gconstpointer y)
{
	const kv_bits *p = x, *q = y;

	return p->nbits == q->nbits &&
	    memcmp(p->w, q->w, p->nwords * sizeof(uint64_t)) == 0;
}

bool
kv_nodesets_refers(const kv_vmires *r)
{
	return r->verdict != V_NOT_RUNNING && r->searched &&
	    r->cpu_targets.base != NULL && r->targets.base != NULL;
}

static void
add(kv_nodesets *s, const kv_bits *b, size_t *cap)
{
	gpointer id;

	if (g_hash_table_contains(s->by_ptr, b))
		return;
	if ((id = g_hash_table_lookup(s->by_content, b)) == NULL) {
		KV_GROW(s->sets, *cap, s->n + 1);
		s->sets[s->n++] = b;
		id = GSIZE_TO_POINTER(s->n);
		g_hash_table_insert(s->by_content, (gpointer)b, id);
	}
	g_hash_table_insert(s->by_ptr, (gpointer)b, id);
}

kv_nodesets *
kv_nodesets_build(const kv_analysis *a, const kv_bits *pick)
{
	kv_nodesets *s = xcalloc(1, sizeof(*s));
	size_t cap = 0;

	s->by_ptr = g_hash_table_new(g_direct_hash, g_direct_equal);
	s->by_content = g_hash_table_new(bits_hash, bits_equal);
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];

		if ((pick != NULL && !kv_bits_test(pick, i)) ||
		    !kv_nodesets_refers(r))
			continue;
		add(s, r->cpu_targets.base, &cap);
		add(s, r->targets.base, &cap);
	}
	return s;
}

size_t
kv_nodesets_id(const kv_nodesets *s, const kv_bits *b)
{
	gpointer id = g_hash_table_lookup(s->by_ptr, b);

	if (id == NULL)
		kv_fatal("node set not indexed");
	return GPOINTER_TO_SIZE(id) - 1;
}

void
kv_nodesets_free(kv_nodesets *s)
{
	if (s == NULL)
		return;
	g_hash_table_destroy(s->by_ptr);
	g_hash_table_destroy(s->by_content);
	free(s->sets);
	free(s);
}
