/*
 * test_jsonitems.c - the item scanner with its parse workers: items reach
 * the callback in file order whatever the chunking, and the error is the
 * first one in the file (an item's, or the scanner's after it), as a
 * serial reader would report it; the callback runs on the workers, one
 * call at a time, while the scanner goes on.  Runs with two workers
 * (KVSCOPE_THREADS=2, set before the first scanner starts the pool).
 */
#include "kvtest.h"

#include <pthread.h>
#include <stdatomic.h>

#include "analyze/read/jsonitems.h"

typedef struct seen {
	kv_buf log;		/* "index:a-value," per item */
} seen;

static pthread_t scanner;		/* the test's thread */
static atomic_int in_cb;		/* callbacks running now */
static atomic_size_t calls, off_scanner, overlaps;

static int
cb(void *arg, json_t *item, const json_aside *aside, size_t index,
    kv_err *err)
{
	seen *s = arg;
	json_t *a = json_object_get(item, "a");

	if (atomic_fetch_add(&in_cb, 1) != 0)
		atomic_fetch_add(&overlaps, 1);
	atomic_fetch_add(&calls, 1);
	if (!pthread_equal(pthread_self(), scanner))
		atomic_fetch_add(&off_scanner, 1);
	atomic_fetch_sub(&in_cb, 1);
	kv_buf_printf(&s->log, "%zu:%lld,", index,
	    json_is_integer(a) ? (long long)json_integer_value(a) : -1LL);
	if (json_object_get(item, "fail") != NULL)
		return kv_seterr(err, "fail asked");
	return KV_OK;
}

/* Feed text in chunks of 1..chunk bytes (0: all at once); return the
 * error message ("" when none) and the callback log. */
static char *
run(const char *text, size_t chunk, uint64_t max_items, char **log)
{
	kv_limits lim;
	kv_err err = {0};
	seen s = {{0}};
	json_items *it;
	size_t len = strlen(text), i = 0;
	int rc = KV_OK;
	unsigned r = 12345;

	assert_int_equal(kv_limits_init(&lim, &err), KV_OK);
	lim.string_bytes = 40;
	lim.items = max_items;
	it = json_items_new("F", &lim, cb, &s);
	while (i < len && rc == KV_OK) {
		size_t n = len - i;

		if (chunk > 0) {
			r = r * 1103515245 + 12345;
			n = 1 + (r >> 16) % chunk;
			if (n > len - i)
				n = len - i;
		}
		rc = json_items_feed(it, text + i, n, &err);
		i += n;
	}
	if (rc == KV_OK)
		rc = json_items_finish(it, &err);
	json_items_free(it);
	kv_buf_append(&s.log, "", 0);
	*log = s.log.data;
	return xstrdup(rc == KV_OK ? "" : err.msg);
}

static void
expect(const char *text, uint64_t max_items, const char *want_err,
    const char *want_log)
{
	static const size_t chunks[] = { 0, 1, 3, 7, 64 };

	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		char *log, *msg = run(text, chunks[c], max_items, &log);

		assert_string_equal(msg, want_err);
		assert_string_equal(log, want_log);
		free(msg);
		free(log);
	}
}

/* 300 items of a List, in order, across many batches. */
static void
test_order(void **state)
{
	kv_buf text = {0}, log = {0};

	(void)state;
	kv_buf_printf(&text, "{\"kind\":\"List\",\"items\":[");
	for (int i = 0; i < 300; i++) {
		kv_buf_printf(&text, "%s{\"a\":%d,\"s\":\"x\\\"y\"}",
		    i ? "," : "", i);
		kv_buf_printf(&log, "%d:%d,", i, i);
	}
	kv_buf_printf(&text, "],\"metadata\":{}}");
	expect(text.data, 1000, "", log.data);
	kv_buf_free(&text);
	kv_buf_free(&log);
}

/* 3,000 items in 94 batches: the workers deliver (most of) them, never
 * two at once; an item's error late in the file, found by a worker
 * while the scanner reads on, is still the one reported. */
static void
test_delivered_by_workers(void **state)
{
	kv_buf text = {0}, flog = {0};
	char *msg, *got;

	(void)state;
	kv_buf_printf(&text, "{\"kind\":\"List\",\"items\":[");
	for (int i = 0; i < 3000; i++) {
		kv_buf_printf(&text, "%s{\"a\":%d%s}", i ? "," : "", i,
		    i == 2500 ? ",\"fail\":1" : "");
		if (i <= 2500)
			kv_buf_printf(&flog, "%d:%d,", i, i);
	}
	kv_buf_printf(&text, "]}");
	atomic_store(&calls, 0);
	atomic_store(&off_scanner, 0);
	atomic_store(&overlaps, 0);
	msg = run(text.data, 0, 10000, &got);
	assert_string_equal(msg, "F: fail asked");
	assert_string_equal(got, flog.data);
	assert_int_equal(atomic_load(&calls), 2501);
	assert_true(atomic_load(&off_scanner) > 0);
	assert_int_equal(atomic_load(&overlaps), 0);
	free(msg);
	free(got);
	kv_buf_free(&text);
	kv_buf_free(&flog);
}

static void
test_jsonl(void **state)
{
	(void)state;
	expect("{\"a\":1}\n{\"a\":2}\n  {\"a\":3}\n", 1000, "",
	    "0:1,1:2,2:3,");
}

/* The callback's error stops the load; later items are not delivered. */
static void
test_callback_error(void **state)
{
	(void)state;
	expect("{\"items\":[{\"a\":1},{\"fail\":1},{\"a\":3}]}", 1000,
	    "F: fail asked", "0:1,1:-1,");
}

/* An item's error comes before a scanner error later in the file. */
static void
test_item_error_first(void **state)
{
	(void)state;
	expect("{\"items\":[{\"a\":1},{\"a\":2},{\"fail\":1},{\"b\":1},"
	    "{\"a\":x},{\"c\":1}]} junk", 1000, "F: fail asked",
	    "0:1,1:2,2:-1,");
	expect("{\"items\":[{\"a\":1},{\"a\":x},{\"b\":\"\\u0000\"}, 7]}",
	    1000, "F: item 1 (byte 24): not valid JSON: invalid token near "
	    "'x'", "0:1,");
	expect("{\"items\":[{\"a\":1},{\"a\":x},{\"b\":1}", 1000,
	    "F: item 1 (byte 24): not valid JSON: invalid token near 'x'",
	    "0:1,");
}

/* Scanner errors after good items: the items are delivered first. */
static void
test_scanner_error(void **state)
{
	(void)state;
	expect("{\"items\":[{\"a\":1},{\"a\":2}]} {\"a\":3}", 1000,
	    "F: byte 28: data after the List", "0:1,1:2,");
	expect("{\"items\":[{\"a\":1},{\"x\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaa\"}]}", 1000, "F: byte 64: string longer than "
	    "the limit (KVSCOPE_MAX_STRING_BYTES)", "0:1,");
	expect("{\"items\":[{\"a\":1},{\"a\":2},{\"a\":3}]}", 2,
	    "F: more than 2 objects (KVSCOPE_MAX_ITEMS)", "0:1,1:2,");
	expect("{\"items\":[{\"a\":1}, 3]}", 1000,
	    "F: byte 19: an item of the List is not an object", "0:1,");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_delivered_by_workers),
		cmocka_unit_test(test_jsonl),
		cmocka_unit_test(test_callback_error),
		cmocka_unit_test(test_item_error_first),
		cmocka_unit_test(test_scanner_error),
	};

	setenv("KVSCOPE_THREADS", "2", 1);
	scanner = pthread_self();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
