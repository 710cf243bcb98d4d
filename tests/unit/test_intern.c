/*
 * test_intern.c - the intern table (analyze/model/intern.c) with its
 * front of the strings found last: equal strings give one pointer and
 * different ones different pointers whatever the front holds, when many
 * strings share a slot, when two have the same hash (found by search,
 * so a front that trusted the hash alone fails), for prefixes of each
 * other, for kv_intern_strn's unterminated slices and long strings, and
 * from two threads at once while the table is shared.
 */
#include "kvtest.h"

#include <pthread.h>
#include <stdio.h>

#include <glib.h>

#include "analyze/model/intern.h"

#define MANY 60000		/* several strings a slot of the front */

static char *
nth(unsigned i)
{
	char *s = xasprintf("k%08u", i);

	return s;
}

static void
test_many_share_slots(void **state)
{
	kv_intern *t = kv_intern_new();
	const char **first = xcalloc(MANY, sizeof(*first));
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);

	(void)state;
	for (unsigned i = 0; i < MANY; i++) {
		char *s = nth(i);

		first[i] = kv_intern_str(t, s);
		assert_string_equal(first[i], s);
		assert_ptr_not_equal(first[i], s);
		g_hash_table_add(seen, (gpointer)first[i]);
		free(s);
	}
	assert_int_equal(g_hash_table_size(seen), MANY);
	assert_int_equal(kv_intern_count(t), MANY);
	for (unsigned i = MANY; i-- > 0;) {	/* the other way round */
		char *s = nth(i);

		assert_ptr_equal(kv_intern_str(t, s), first[i]);
		assert_ptr_equal(kv_intern_lookup(t, s), first[i]);
		free(s);
	}
	assert_int_equal(kv_intern_count(t), MANY);
	g_hash_table_destroy(seen);
	free(first);
	kv_intern_free(t);
}

/* Two strings of one length with the same kv_hash_bytes, one after the
 * other: the second must not be answered with the first. */
static void
test_same_hash(void **state)
{
	GHashTable *by_hash = g_hash_table_new_full(g_direct_hash,
	    g_direct_equal, NULL, free);
	char *a = NULL, *b = NULL;
	kv_intern *t = kv_intern_new();

	(void)state;
	for (unsigned i = 0; a == NULL && i < 4000000; i++) {
		char *s = nth(i);
		gpointer h = GUINT_TO_POINTER(kv_hash_bytes(s, strlen(s)));
		char *was = g_hash_table_lookup(by_hash, h);

		if (was != NULL) {
			a = xstrdup(was);
			b = s;
		} else
			g_hash_table_insert(by_hash, h, s);
	}
	assert_non_null(a);
	assert_string_not_equal(a, b);
	assert_int_equal(kv_hash_bytes(a, strlen(a)),
	    kv_hash_bytes(b, strlen(b)));
	assert_string_equal(kv_intern_str(t, a), a);
	assert_string_equal(kv_intern_str(t, b), b);
	assert_string_equal(kv_intern_str(t, a), a);
	assert_ptr_not_equal(kv_intern_str(t, a), kv_intern_str(t, b));
	assert_int_equal(kv_intern_count(t), 2);
	free(a);
	free(b);
	g_hash_table_destroy(by_hash);
	kv_intern_free(t);
}

static void
test_prefixes_and_slices(void **state)
{
	kv_intern *t = kv_intern_new();
	const char *text = "cpu-feature.node.kubevirt.io/avx512f";
	const char *whole = kv_intern_str(t, text);
	const char *part = kv_intern_strn(t, text, 11);	/* "cpu-feature" */
	char *big = xcalloc(1, 1000);

	(void)state;
	assert_string_equal(part, "cpu-feature");
	assert_ptr_equal(kv_intern_str(t, "cpu-feature"), part);
	assert_ptr_not_equal(part, whole);
	assert_ptr_equal(kv_intern_strn(t, text, strlen(text)), whole);
	assert_string_equal(kv_intern_str(t, ""), "");
	assert_ptr_equal(kv_intern_strn(t, text, 0), kv_intern_str(t, ""));
	memset(big, 'x', 999);
	assert_ptr_equal(kv_intern_strn(t, big, 999), kv_intern_str(t, big));
	assert_ptr_not_equal(kv_intern_strn(t, big, 998),
	    kv_intern_str(t, big));
	assert_null(kv_intern_lookup(t, "cpu-feat"));
	free(big);
	kv_intern_free(t);
}

typedef struct shared_run {
	kv_intern *t;
	const char **got;
} shared_run;

static void *
intern_all(void *arg)
{
	shared_run *r = arg;

	for (unsigned i = 0; i < MANY / 4; i++) {
		char *s = nth(i % 5000);

		r->got[i] = kv_intern_str(r->t, s);
		free(s);
	}
	return NULL;
}

static void
test_shared_threads(void **state)
{
	kv_intern *t = kv_intern_new();
	shared_run r[2];
	pthread_t th;

	(void)state;
	kv_intern_share(t, true);
	for (int k = 0; k < 2; k++)
		r[k] = (shared_run){ t, xcalloc(MANY / 4, sizeof(char *)) };
	assert_int_equal(pthread_create(&th, NULL, intern_all, &r[1]), 0);
	intern_all(&r[0]);
	assert_int_equal(pthread_join(th, NULL), 0);
	kv_intern_share(t, false);
	for (unsigned i = 0; i < MANY / 4; i++) {
		char *s = nth(i % 5000);

		assert_ptr_equal(r[0].got[i], r[1].got[i]);
		assert_ptr_equal(r[0].got[i], kv_intern_lookup(t, s));
		free(s);
	}
	assert_int_equal(kv_intern_count(t), 5000);
	free(r[0].got);
	free(r[1].got);
	kv_intern_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_share_slots),
		cmocka_unit_test(test_same_hash),
		cmocka_unit_test(test_prefixes_and_slices),
		cmocka_unit_test(test_shared_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
