/*
 * intern.c - see intern.h.
 */
#include "analyze/model/intern.h"

#include <glib.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "analyze/util/util.h"

/* The front: the string found last in each of FRONT_SLOTS slots, by
 * hash.  A 100,000-VMI load interns 17.6 million strings, nine in ten of
 * them among a few thousand (label keys, common values) that a slot
 * answers without the hash table, whose 840,000 strings miss the
 * processor's cache on most lookups.  The front is kept small (64 KiB)
 * so that it does not push jansson's and the scanner's data out of the
 * cache in turn. */
#define FRONT_SLOTS (1u << 12)

typedef struct front {
	unsigned hash;
	unsigned len;		/* of s; a longer string never goes in */
	const char *s;		/* canonical; NULL: empty slot */
} front;

struct kv_intern {
	front front[FRONT_SLOTS];
	GStringChunk *chunk;
	GHashTable *set;	/* canonical string -> itself */
	bool shared;		/* kv_intern_share: calls take mu (a
				 * pthread mutex: ThreadSanitizer sees it,
				 * not GLib's futex-based GMutex) */
	pthread_mutex_t mu;
};

/* GLib's g_str_hash takes a byte a step; label keys and values are tens
 * of bytes, and a load interns millions of them: a word a step. */
static guint
intern_hash(gconstpointer s)
{
	return kv_hash_bytes(s, strlen(s));
}

kv_intern *
kv_intern_new(void)
{
	kv_intern *t = xcalloc(1, sizeof(*t));

	t->chunk = g_string_chunk_new(1 << 16);
	t->set = g_hash_table_new(intern_hash, g_str_equal);
	pthread_mutex_init(&t->mu, NULL);
	return t;
}

void
kv_intern_free(kv_intern *t)
{
	if (t == NULL)
		return;
	g_hash_table_destroy(t->set);
	g_string_chunk_free(t->chunk);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

const char *
kv_intern_str(kv_intern *t, const char *s)
{
	size_t n = strlen(s);
	unsigned h = kv_hash_bytes(s, n);
	front *f = &t->front[h % FRONT_SLOTS];
	const char *c;

	if (t->shared)
		pthread_mutex_lock(&t->mu);
	if (f->s != NULL && f->hash == h && f->len == n &&
	    memcmp(f->s, s, n) == 0)
		c = f->s;
	else {
		if ((c = g_hash_table_lookup(t->set, s)) == NULL) {
			c = g_string_chunk_insert_len(t->chunk, s, (gssize)n);
			g_hash_table_add(t->set, (gpointer)c);
		}
		if (n <= UINT_MAX)
			*f = (front){ h, (unsigned)n, c };
	}
	if (t->shared)
		pthread_mutex_unlock(&t->mu);
	return c;
}

const char *
kv_intern_strn(kv_intern *t, const char *s, size_t n)
{
	char small[256];
	char *tmp;
	const char *c;

	if (n < sizeof(small)) {
		memcpy(small, s, n);
		small[n] = '\0';
		return kv_intern_str(t, small);
	}
	tmp = xstrndup(s, n);
	c = kv_intern_str(t, tmp);
	free(tmp);
	return c;
}

const char *
kv_intern_lookup(kv_intern *t, const char *s)
{
	const char *c;

	if (t->shared)
		pthread_mutex_lock(&t->mu);
	c = g_hash_table_lookup(t->set, s);
	if (t->shared)
		pthread_mutex_unlock(&t->mu);
	return c;
}

size_t
kv_intern_count(const kv_intern *t)
{
	return g_hash_table_size(t->set);
}

void
kv_intern_share(kv_intern *t, bool on)
{
	t->shared = on;
}
