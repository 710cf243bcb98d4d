/*
 * test_jsonitems.c - the streaming item scanner (jsonitems.c): Lists and
 * JSON Lines, whitespace, strings that look like structure, every chunk
 * boundary, truncation, NUL bytes, the depth, item and string limits,
 * items that are not objects and data after the List.  Errors are one line
 * that starts with the file name.
 */
#include "kvtest.h"

#include "analyze/read/jsonitems.h"

#define FILE_NAME "resources/nodes.json"

struct got {
	kv_buf log;		/* each item, compact, then '\n'; what it
				 * set aside after "aside: " on a line */
	size_t n;
	size_t fail_at;		/* the callback fails on this item (1-based) */
};

static int
collect(void *arg, json_t *item, const json_aside *aside, size_t index,
    kv_err *err)
{
	struct got *g = arg;
	char *s;

	if (index != g->n)
		return kv_seterr(err, "index %zu, expected %zu", index, g->n);
	g->n++;
	if (g->fail_at == g->n)
		return kv_seterr(err, "item %zu (w%zu): metadata.labels: "
		    "expected an object, got a list", index, index);
	s = json_dumps(item, JSON_COMPACT | JSON_SORT_KEYS);
	kv_buf_printf(&g->log, "%s\n", s);
	free(s);
	if (aside != NULL)
		kv_buf_printf(&g->log, "aside: %.*s\n", (int)aside->len,
		    aside->text);
	return KV_OK;
}

static kv_limits
limits(void)
{
	kv_limits lim;
	kv_err err = {0};

	if (kv_limits_init(&lim, &err) != KV_OK)
		kv_fatal("%s", err.msg);
	return lim;
}

/*
 * Scan doc (len bytes) fed in pieces cut at the offsets in cuts[] (sorted,
 * ncuts of them); returns the status, the items in *g and the error in
 * *err.
 */
static int
scan_cuts(const kv_limits *lim, const char *doc, size_t len,
    const size_t *cuts, size_t ncuts, struct got *g, kv_err *err)
{
	json_items *s = json_items_new(FILE_NAME, lim, collect, g);
	size_t at = 0;
	int rc = KV_OK;

	for (size_t i = 0; i <= ncuts && rc == KV_OK; i++) {
		size_t end = i < ncuts ? cuts[i] : len;

		rc = json_items_feed(s, doc + at, end - at, err);
		at = end;
	}
	if (rc == KV_OK)
		rc = json_items_finish(s, err);
	if (rc == KV_OK && json_items_count(s) != g->n)
		rc = kv_seterr(err, "count %zu, callback saw %zu",
		    json_items_count(s), g->n);
	json_items_free(s);
	return rc;
}

static int
scan(const kv_limits *lim, const char *doc, struct got *g, kv_err *err)
{
	return scan_cuts(lim, doc, strlen(doc), NULL, 0, g, err);
}

/* doc gives exactly the items want ("{...}\n" each), however it is cut:
 * in one piece, at every single offset, and byte by byte. */
static void
assert_items(const char *doc, const char *want)
{
	kv_limits lim = limits();
	size_t len = strlen(doc);
	size_t *every = xcalloc(len + 1, sizeof(size_t));

	for (size_t k = 0; k <= len; k++) {
		struct got g = {0};
		kv_err err = {0};
		int rc = k == 0 ? scan(&lim, doc, &g, &err) :
		    scan_cuts(&lim, doc, len, &k, 1, &g, &err);

		if (rc != KV_OK || strcmp(g.log.data ? g.log.data : "",
		    want) != 0) {
			free(every);
			fail_msg("cut at %zu of \"%s\": %s\ngot:  %s\nwant: %s",
			    k, doc, err.msg, g.log.data ? g.log.data : "",
			    want);
		}
		kv_buf_free(&g.log);
	}
	for (size_t k = 0; k < len; k++)
		every[k] = k;
	{
		struct got g = {0};
		kv_err err = {0};
		int rc = scan_cuts(&lim, doc, len, every, len, &g, &err);

		free(every);
		if (rc != KV_OK)
			fail_msg("byte by byte: %s", err.msg);
		assert_string_equal(g.log.data ? g.log.data : "", want);
		kv_buf_free(&g.log);
	}
}

/* doc is refused with one line "resources/nodes.json: ...<want>...", the
 * same whether fed whole or byte by byte. */
static void
assert_refused_lim(const kv_limits *lim, const char *doc, size_t len,
    const char *want)
{
	struct got g = {0}, g1 = {0};
	kv_err err = {0}, err1 = {0};
	size_t *every = xcalloc(len + 1, sizeof(size_t));
	int rc, rc1;

	for (size_t k = 0; k < len; k++)
		every[k] = k;
	rc = scan_cuts(lim, doc, len, NULL, 0, &g, &err);
	rc1 = scan_cuts(lim, doc, len, every, len, &g1, &err1);
	free(every);
	kv_buf_free(&g.log);
	kv_buf_free(&g1.log);
	if (rc != KV_ERR)
		fail_msg("\"%.60s\": accepted", doc);
	assert_int_equal(rc1, KV_ERR);
	assert_string_equal(err.msg, err1.msg);
	assert_null(strchr(err.msg, '\n'));
	if (!kv_startswith(err.msg, FILE_NAME ": "))
		fail_msg("error does not name the file: %s", err.msg);
	if (strstr(err.msg, want) == NULL)
		fail_msg("\"%.60s\": error \"%s\" lacks \"%s\"", doc, err.msg,
		    want);
}

static void
assert_refused(const char *doc, const char *want)
{
	kv_limits lim = limits();

	assert_refused_lim(&lim, doc, strlen(doc), want);
}

/* --- the two shapes ---------------------------------------------------- */

static void
test_list(void **state)
{
	assert_items("{\"apiVersion\":\"v1\",\"items\":[{\"a\":1},"
	    "{\"b\":[1,2,{\"c\":null}]}],\"kind\":\"List\","
	    "\"metadata\":{\"resourceVersion\":\"\"}}",
	    "{\"a\":1}\n{\"b\":[1,2,{\"c\":null}]}\n");
	/* kubectl's own layout */
	assert_items("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"
	    "        {\n            \"kind\": \"Node\"\n        },\n"
	    "        {\n            \"kind\": \"Node\"\n        }\n    ],\n"
	    "    \"kind\": \"List\"\n}\n",
	    "{\"kind\":\"Node\"}\n{\"kind\":\"Node\"}\n");
	assert_items("{\"items\":[]}", "");
	assert_items("{\"kind\":\"List\",\"items\":[ ]}\n", "");
}

static void
test_json_lines(void **state)
{
	assert_items("{\"a\":1}\n{\"b\":2}\n", "{\"a\":1}\n{\"b\":2}\n");
	assert_items("{\"a\":1}", "{\"a\":1}\n");
	assert_items("", "");
	assert_items("\n\n", "");
	/* an object whose nested "items" is not the List's */
	assert_items("{\"spec\":{\"items\":[1,2]}}\n",
	    "{\"spec\":{\"items\":[1,2]}}\n");
	assert_items("{\"x\":\"items\",\"y\":[{\"a\":1}]}\n",
	    "{\"x\":\"items\",\"y\":[{\"a\":1}]}\n");
}

static void
test_whitespace(void **state)
{
	assert_items(" \t\r\n{ \"a\" :\t1 }\r\n\r\n\t{\"b\":2}   ",
	    "{\"a\":1}\n{\"b\":2}\n");
	assert_items("\r\n{\r\n\"items\"\t:\n[\r\n{\"a\":1}\t,\n\r{\"b\":2}"
	    "\n]\r\n}\r\n", "{\"a\":1}\n{\"b\":2}\n");
}

/* Brackets, braces, quotes and escapes inside strings are not structure. */
static void
test_strings(void **state)
{
	assert_items("{\"s\":\"}{][,:\"}\n{\"t\":\"\\\"}\\\\\"}\n",
	    "{\"s\":\"}{][,:\"}\n{\"t\":\"\\\"}\\\\\"}\n");
	assert_items("{\"items\":[{\"k\":\"\\\"items\\\": [\"}]}",
	    "{\"k\":\"\\\"items\\\": [\"}\n");
	assert_items("{\"\\u007b\":\"\\u005d\\ud83d\\ude00\"}",
	    "{\"{\":\"]\xf0\x9f\x98\x80\"}\n");
	assert_items("{\"items\":[{\"\xc3\xa9\":\"\xe2\x82\xac\"}]}",
	    "{\"\xc3\xa9\":\"\xe2\x82\xac\"}\n");
}

/* --- broken documents ---------------------------------------------------- */

static void
test_truncated(void **state)
{
	const char *docs[] = {
		"{\"items\":[{\"a\":\"x\"},{\"b\":[1,{\"c\":2}]}]}",
		"{\"a\":\"x\\\"y\"}\n{\"b\":{\"c\":[]}}\n",
	};
	kv_limits lim = limits();

	/* every prefix that ends inside a value is refused at finish */
	for (size_t d = 0; d < sizeof(docs) / sizeof(docs[0]); d++) {
		size_t len = strlen(docs[d]);

		for (size_t k = 1; k < len; k++) {
			struct got g = {0};
			kv_err err = {0};
			int rc = scan_cuts(&lim, docs[d], k, NULL, 0, &g, &err);
			bool boundary = d == 1 && (docs[d][k - 1] == '}' ||
			    docs[d][k - 1] == '\n') && (k == len ||
			    docs[d][k] != '}');

			kv_buf_free(&g.log);
			if (boundary && k != 1)
				continue;
			if (rc != KV_ERR)
				fail_msg("prefix %zu of \"%s\" accepted", k,
				    docs[d]);
			if (!kv_startswith(err.msg, FILE_NAME ": "))
				fail_msg("error does not name the file: %s",
				    err.msg);
		}
	}
	assert_refused("{\"items\":[{\"a\":1}", "ends in the middle of a "
	    "JSON value (truncated?)");
	assert_refused("{\"a\":\"abc", "ends in the middle of a JSON value");
}

static void
test_nul_byte(void **state)
{
	kv_limits lim = limits();

	assert_refused_lim(&lim, "{\"a\":\"x\0y\"}", 11, "byte 7: NUL byte");
	assert_refused_lim(&lim, "{\"a\":1}\0", 8, "byte 7: NUL byte");
	assert_refused_lim(&lim, "\0", 1, "byte 0: NUL byte");
	/* the escaped form is jansson's to refuse */
	assert_refused("{\"a\":\"x\\u0000y\"}", "item 0 (byte ");
	assert_refused("{\"a\":\"x\\u0000y\"}", "not valid JSON");
}

static void
test_not_json(void **state)
{
	assert_refused("{\"a\":}", "item 0 (byte 6): not valid JSON");
	assert_refused("{\"a\":1}\n{\"b\":tru}\n", "item 1 (byte ");
	assert_refused("{\"a\":1,\"a\":2}", "duplicate object key");
	assert_refused("{\"a\":\"\xff\"}", "not valid JSON");
	assert_refused("{\"items\":[{\"a\":1 2}]}", "item 0 (byte ");
	assert_refused("}", "byte 0: unbalanced brackets");
	assert_refused("{\"a\":1}}", "byte 7: unbalanced brackets");
}

/* What neither jansson nor the item callback sees: the List around the
 * items, the commas between them, the bracket closing them, and what lies
 * between top-level values. */
static void
test_list_not_json(void **state)
{
	assert_refused("{\"a\":1},{\"b\":2}", "byte 7: expected a List "
	    "object or JSON Lines");
	assert_refused("{\"a\":1}:", "byte 7: expected a List object");
	assert_refused("{\"items\":[{\"a\":1}] garbage}",
	    "the List around the items is not valid JSON");
	assert_refused("{\"items\" [{\"a\":1}]}",
	    "the List around the items is not valid JSON");
	assert_refused("{\"kind\":\"List\" \"items\":[]}", "not valid JSON");
	assert_refused("{\"items\":[{\"a\":1}],}",
	    "the List around the items is not valid JSON");
	assert_refused("{\"items\":[],\"items\":[]}",
	    "the List around the items is not valid JSON");
	assert_refused("{\"items\":[{\"a\":1} {\"b\":2}]}",
	    "byte 18: expected ',' or ']' after an item of the List");
	assert_refused("{\"items\":[{\"a\":1},]}",
	    "byte 18: ',' before ']' in the List");
	assert_refused("{\"items\":[,{\"a\":1}]}",
	    "byte 10: ',' without an item before it in the List");
	assert_refused("{\"items\":[{\"a\":1},,{\"b\":2}]}",
	    "',' without an item before it");
	assert_refused("{\"items\":[{\"a\":1}}}",
	    "byte 17: the items of the List end with '}'");
	assert_refused("{\"a\":1}\n{\"items\":[]}",
	    "a List after JSON Lines objects");
	/* well-formed neighbours of the above */
	assert_items("{\"kind\":\"List\",\"items\":[{\"a\":1},{\"b\":2}],"
	    "\"metadata\":{\"x\":[1,{\"y\":\"]}\"}]}}",
	    "{\"a\":1}\n{\"b\":2}\n");
}

static void
test_not_objects(void **state)
{
	assert_refused("[1,2]", "byte 1: an item of the List is not an "
	    "object");
	assert_refused("\"x\"", "expected a List object or JSON Lines");
	assert_refused("42", "expected a List object or JSON Lines");
	assert_refused("null", "expected a List object or JSON Lines");
	assert_refused("{\"items\":[1]}", "byte 10: an item of the List is "
	    "not an object");
	assert_refused("{\"items\":[\"x\"]}", "an item of the List is not "
	    "an object");
	assert_refused("{\"items\":[{\"a\":1},null]}", "an item of the List "
	    "is not an object");
	assert_refused("{\"items\":[[1]]}", "item 0: expected an object");
}

static void
test_after_list(void **state)
{
	assert_refused("{\"items\":[]}\n{\"a\":1}\n", "data after the List");
	assert_refused("{\"items\":[{\"a\":1}]}{\"items\":[]}",
	    "data after the List");
	assert_refused("{\"items\":[]}[]", "data after the List");
	assert_refused("{\"items\":[]} x", "byte 13: expected a List object "
	    "or JSON Lines");
}

/* --- limits ------------------------------------------------------------------ */

static char *
nested(size_t depth)
{
	char *s = xmalloc(2 * depth + 16);
	size_t n = 0;

	s[n++] = '{';
	memcpy(s + n, "\"a\":", 4);
	n += 4;
	for (size_t i = 1; i < depth; i++)
		s[n++] = '[';
	for (size_t i = 1; i < depth; i++)
		s[n++] = ']';
	s[n++] = '}';
	s[n] = '\0';
	return s;
}

static void
test_depth(void **state)
{
	kv_limits lim = limits();
	struct got g = {0};
	kv_err err = {0};
	char *doc;

	assert_int_equal(lim.depth, 64);
	doc = nested(64);
	assert_int_equal(scan(&lim, doc, &g, &err), KV_OK);
	assert_int_equal(g.n, 1);
	free(doc);
	kv_buf_free(&g.log);

	doc = nested(65);
	assert_refused(doc, "byte 68: nesting too deep (KVSCOPE_MAX_DEPTH)");
	free(doc);

	/* 100,000 deep: refused at the 65th level, no recursion */
	doc = nested(100000);
	assert_refused(doc, "nesting too deep (KVSCOPE_MAX_DEPTH)");
	free(doc);

	lim.depth = 3;
	assert_refused_lim(&lim, "{\"items\":[{\"a\":[]}]}", 20,
	    "byte 15: nesting too deep");
}

/* Inside containers whose keys are not tracked the scanner takes strings
 * and brackets in a loop of its own (untracked_run): escapes, NUL bytes
 * and the limits are found there at the same byte as by the state
 * machine, which sees every byte when the item comes byte by byte. */
static void
test_untracked(void **state)
{
	kv_limits lim = limits();

	assert_items("{\"a\":{\"b\":[\"x\\\"}]\",{\"c\":\"\\\\\"}],\"d\":1},"
	    "\"e\":2}\n", "{\"a\":{\"b\":[\"x\\\"}]\",{\"c\":\"\\\\\"}],"
	    "\"d\":1},\"e\":2}\n");
	assert_refused_lim(&lim, "{\"a\":{\"b\":{\"c\":\"x\0y\"}}}", 23,
	    "byte 17: NUL byte");
	assert_refused_lim(&lim, "{\"a\":{\"b\":\"x\\\0y\"}}", 18,
	    "byte 13: NUL byte");
	lim.string_bytes = 10;
	assert_refused_lim(&lim, "{\"a\":{\"b\":{\"c\":\"1234567890\"}}}", 30,
	    "byte 26: string longer than the limit");
	lim = limits();
	lim.depth = 4;
	assert_refused_lim(&lim, "{\"a\":{\"b\":[[[1]]]}}", 19,
	    "byte 12: nesting too deep");
}

static void
test_item_count(void **state)
{
	kv_limits lim = limits();

	lim.items = 2;
	assert_refused_lim(&lim, "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", 24,
	    FILE_NAME ": more than 2 objects (KVSCOPE_MAX_ITEMS)");
	assert_refused_lim(&lim, "{\"items\":[{},{},{}]}", 20,
	    "more than 2 objects (KVSCOPE_MAX_ITEMS)");
	{
		struct got g = {0};
		kv_err err = {0};

		assert_int_equal(scan(&lim, "{\"items\":[{},{}]}", &g, &err),
		    KV_OK);
		assert_int_equal(g.n, 2);
		kv_buf_free(&g.log);
	}
}

static void
test_string_length(void **state)
{
	kv_limits lim = limits();
	struct got g = {0};
	kv_err err = {0};

	lim.string_bytes = 10;
	/* the closing quote counts: 9 characters fit */
	assert_int_equal(scan(&lim, "{\"a\":\"123456789\"}", &g, &err),
	    KV_OK);
	kv_buf_free(&g.log);
	assert_refused_lim(&lim, "{\"a\":\"1234567890\"}", 18,
	    "byte 16: string longer than the limit "
	    "(KVSCOPE_MAX_STRING_BYTES)");
	/* keys too */
	assert_refused_lim(&lim, "{\"abcdefghijkl\":1}", 18,
	    "string longer than the limit");
	/* a megabyte of string under the default limit is fine, one byte
	 * more is not */
	{
		kv_limits def = limits();
		size_t n = def.string_bytes;
		char *doc = xmalloc(n + 16);

		memcpy(doc, "{\"a\":\"", 6);
		memset(doc + 6, 'x', n - 1);
		memcpy(doc + 6 + n - 1, "\"}", 3);
		memset(&g, 0, sizeof(g));
		if (scan(&def, doc, &g, &err) != KV_OK)
			fail_msg("%s", err.msg);
		kv_buf_free(&g.log);
		memset(doc + 6, 'x', n);
		memcpy(doc + 6 + n, "\"}", 3);
		assert_refused_lim(&def, doc, strlen(doc),
		    "(KVSCOPE_MAX_STRING_BYTES)");
		free(doc);
	}
}

/* One object is held in memory while it is parsed: its size is bounded,
 * and so is the List around the items. */
static void
test_object_bytes(void **state)
{
	kv_limits lim = limits();
	size_t n = lim.object_bytes, at;
	char *doc = xmalloc(n + 64);
	struct got g = {0};
	kv_err err = {0};

	assert_int_equal(n, 16 << 20);
	/* {"a":["xx...x","xx...x",...]}: exactly the limit, then one more */
	memcpy(doc, "{\"a\":[", 6);
	for (at = 6; n - 2 - at > 1000; at += 1000) {
		doc[at] = '"';
		memset(doc + at + 1, 'x', 997);
		memcpy(doc + at + 998, "\",", 2);
	}
	doc[at] = '"';
	memset(doc + at + 1, 'x', n - 2 - at - 2);
	memcpy(doc + n - 3, "\"]}", 4);
	assert_int_equal(strlen(doc), n);
	if (scan(&lim, doc, &g, &err) != KV_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(g.n, 1);
	kv_buf_free(&g.log);
	memset(&g, 0, sizeof(g));
	memcpy(doc + n - 3, "x\"]}", 5);
	assert_int_equal(scan(&lim, doc, &g, &err), KV_ERR);
	kv_buf_free(&g.log);
	free(doc);
	assert_string_equal(err.msg, FILE_NAME ": byte 16777216: object "
	    "larger than 16777216 bytes (KVSCOPE_MAX_OBJECT_BYTES)");

	lim.object_bytes = 20;
	assert_refused_lim(&lim, "{\"items\":[{\"a\":\"0123456789abcdef\"}]}",
	    35, "byte 30: object larger than 20 bytes");
	assert_refused_lim(&lim, "{\"kind\":\"List\",\"apiVersion\":\"v1\","
	    "\"items\":[]}", 44, "byte 20: object larger than 20 bytes");
	assert_refused_lim(&lim, "{\"items\":[],\"metadata\":{\"a\":\"b\"}}",
	    35, "object larger than 20 bytes");
}

/* The callback's error comes back prefixed with the file, and stops the
 * scan. */
static void
test_callback_error(void **state)
{
	kv_limits lim = limits();
	struct got g = { .fail_at = 2 };
	kv_err err = {0};

	assert_int_equal(scan(&lim, "{\"items\":[{},{},{}]}", &g, &err),
	    KV_ERR);
	assert_string_equal(err.msg, FILE_NAME ": item 1 (w1): "
	    "metadata.labels: expected an object, got a list");
	assert_int_equal(g.n, 2);
	kv_buf_free(&g.log);
}


/* --- legal forms other tools write --------------------------------------- */

static void
test_bom(void **state)
{
	assert_items("\xef\xbb\xbf{\"items\":[{\"a\":1}]}", "{\"a\":1}\n");
	assert_items("\xef\xbb\xbf{\"a\":1}\n{\"b\":2}\n",
	    "{\"a\":1}\n{\"b\":2}\n");
	assert_items("\xef\xbb\xbf", "");
	/* only at the very start, and only whole */
	assert_refused("\xef\xbb{\"a\":1}", "byte 2: an incomplete UTF-8 "
	    "byte order mark");
	assert_refused("\n\xef\xbb\xbf{\"a\":1}", "byte 1: expected a List "
	    "object or JSON Lines");
	assert_refused("\xef\xbb\xbf\xef\xbb\xbf{}", "byte 3: expected a "
	    "List object");
}

static void
test_bare_array(void **state)
{
	assert_items("[{\"a\":1},{\"b\":[1,{\"c\":2}]}]",
	    "{\"a\":1}\n{\"b\":[1,{\"c\":2}]}\n");
	assert_items(" [\n {\"a\":1} ,\n {\"b\":2}\n]\n",
	    "{\"a\":1}\n{\"b\":2}\n");
	assert_items("[]", "");
	assert_items("\xef\xbb\xbf[{\"a\":1}]", "{\"a\":1}\n");
	/* still malformed */
	assert_refused("[{\"a\":1},]", "byte 9: ',' before ']' in the List");
	assert_refused("[{\"a\":1} {\"b\":2}]", "expected ',' or ']' after");
	assert_refused("[,{\"a\":1}]", "',' without an item before it");
	assert_refused("[{\"a\":1}}", "the items of the List end with '}'");
	assert_refused("[{\"a\":1}][]", "data after the List");
	assert_refused("[{\"a\":1}]{\"b\":2}", "data after the List");
	assert_refused("{\"a\":1}\n[{\"b\":2}]", "an array after JSON Lines");
	assert_refused("[\"x\"]", "an item of the List is not an object");
	assert_refused("[[1]]", "item 0: expected an object");
	assert_refused("[{\"a\":1}", "ends in the middle of a JSON value");
}

/* An integer jansson cannot hold is read as a real: the object is kept
 * (a loader that reads the field as a whole number refuses the real). */
static void
test_big_integers(void **state)
{
	assert_items("{\"items\":[{\"a\":123456789012345678901234567890,"
	    "\"s\":\"99999999999999999999999\",\"b\":-99999999999999999999}]}",
	    "{\"a\":1.2345678901234568e29,\"b\":-1e20,"
	    "\"s\":\"99999999999999999999999\"}\n");
	assert_items("{\"a\":[1,2,18446744073709551616]}",
	    "{\"a\":[1,2,1.8446744073709552e19]}\n");
	/* 400 digits: beyond a double too */
	{
		kv_buf doc = {0};

		kv_buf_printf(&doc, "{\"x\":1,\"n\":");
		for (int k = 0; k < 400; k++)
			kv_buf_append(&doc, "9", 1);
		kv_buf_printf(&doc, "}");
		assert_items(doc.data, "{\"n\":1.0000000000000001e300,"
		    "\"x\":1}\n");
		kv_buf_free(&doc);
	}
	/* malformed stays malformed */
	assert_refused("{\"a\":123456789012345678901234567890,\"b\":}",
	    "not valid JSON: too big integer");
	assert_refused("{\"a\":01}", "not valid JSON");
}

/* Subtrees the loader never reads are cut out before jansson builds
 * them; everything else is kept byte for byte. */
static void
assert_skipped(const char *file, const char *doc, const char *want)
{
	kv_limits lim = limits();
	size_t len = strlen(doc);

	for (size_t k = 0; k <= len; k++) {
		struct got g = {0};
		kv_err err = {0};
		json_items *s = json_items_new(file, &lim, collect, &g);
		int rc = json_items_feed(s, doc, k, &err);

		if (rc == KV_OK)
			rc = json_items_feed(s, doc + k, len - k, &err);
		if (rc == KV_OK)
			rc = json_items_finish(s, &err);
		json_items_free(s);
		if (rc != KV_OK || strcmp(g.log.data ? g.log.data : "",
		    want) != 0)
			fail_msg("%s cut at %zu: %s\ngot:  %s\nwant: %s", file,
			    k, err.msg, g.log.data ? g.log.data : "", want);
		kv_buf_free(&g.log);
	}
}

static void
test_skipped_subtrees(void **state)
{
	const char *node = "{\"items\":[{\"kind\":\"Node\",\"metadata\":"
	    "{\"name\":\"n1\",\"managedFields\":[{\"manager\":\"k\","
	    "\"fieldsV1\":{\"f:a\":{}}}],\"labels\":{\"x\":\"]\"}},"
	    "\"status\":{\"images\":[{\"names\":[\"a\",\"b\"]}],"
	    "\"phase\":\"x\"},\"spec\":{\"images\":[1]}}]}";
	const char *pod = "[{\"metadata\":{\"managedFields\":\"str\\\"x\"},"
	    "\"spec\":{\"containers\":[{\"name\":\"compute\",\"env\":[{\"name\":"
	    "\"P\",\"value\":\"s\"}],\"image\":\"i\",\"args\":[\"--x\"],"
	    "\"resources\":{\"requests\":{\"memory\":\"1Gi\"},\"limits\":"
	    "{\"memory\":\"2Gi\"}},\"ports\":7}],"
	    "\"initContainers\":[{\"command\":[\"sh\"],\"name\":\"i1\","
	    "\"image\":\"b\",\"resources\":{\"limits\":{\"cpu\":\"1\"},"
	    "\"requests\":{\"cpu\":\"1m\"}}}],"
	    "\"volumes\":[{\"name\":\"v\",\"env\":1}]},"
	    "\"status\":{\"images\":[1]}}]";

	assert_skipped("resources/nodes.json", node, "{\"kind\":\"Node\","
	    "\"metadata\":{\"labels\":{\"x\":\"]\"},\"name\":\"n1\"},"
	    "\"spec\":{\"images\":[1]},\"status\":"
	    "{\"images\":null,\"phase\":\"x\"}}\n");
	assert_skipped("resources/pods.json", pod, "{\"metadata\":"
	    "{\"managedFields\":null},\"spec\":{\"containers\":[{\"image\":"
	    "\"i\",\"name\":\"compute\","
	    "\"resources\":{\"requests\":{\"memory\":\"1Gi\"}}}],"
	    "\"initContainers\":[{\"command\":null,\"resources\":"
	    "{\"limits\":null,\"requests\":{\"cpu\":\"1m\"}}}],"
	    "\"volumes\":[{\"name\":\"v\"}]},\"status\":{\"images\":"
	    "null}}\n");
	/* JSON Lines, and nothing skipped in other files but managedFields */
	assert_skipped("resources/persistentvolumes.json",
	    "{\"metadata\":{\"managedFields\":[{}]},\"status\":{\"images\":"
	    "[]}}\n", "{\"metadata\":{\"managedFields\":null},\"status\":"
	    "{\"images\":[]}}\n");
	/* the switch turns it off */
	setenv("KVSCOPE_NO_SKIP", "1", 1);
	assert_skipped("resources/nodes.json", "{\"metadata\":"
	    "{\"managedFields\":[1]}}", "{\"metadata\":{\"managedFields\":"
	    "[1]}}\n");
	unsetenv("KVSCOPE_NO_SKIP");
	/* a skipped subtree still counts for the limits */
	{
		static const char nul[] =
		    "{\"metadata\":{\"managedFields\":\"a\0b\"}}";
		kv_limits lim = limits();

		assert_refused_lim(&lim, nul, sizeof(nul) - 1, "NUL byte");
	}
}

/* Below a VMI's spec and status only what load_vmi reads is built: a
 * toleration's four keys, a disk's name, cdrom and lun, a volume status's
 * name and claim name and modes; no firmware; a cloud-init volume keeps
 * its key without its userData.  (An object's first member keeps its key:
 * a scalar whole, a container as null.)  A DataVolume keeps its name and
 * namespace only. */
static void
test_skipped_vmi_dv(void **state)
{
	const char *vmi = "[{\"metadata\":{\"name\":\"v\"},\"spec\":"
	    "{\"domain\":{\"firmware\":{\"uuid\":\"]{\"},\"devices\":"
	    "{\"disks\":[{\"bootOrder\":1,\"name\":\"d\",\"disk\":{},"
	    "\"cdrom\":{\"readonly\":true},\"lun\":{\"reservation\":true}}]"
	    "}},\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\","
	    "\"tolerationSeconds\":300,\"effect\":\"NoExecute\",\"value\":"
	    "\"x\"}],\"volumes\":[{\"name\":\"c\",\"cloudInitNoCloud\":"
	    "{\"userData\":\"#]{\",\"networkData\":\"n\"}},{\"name\":\"e\","
	    "\"cloudInitConfigDrive\":{\"userData\":\"u\"}}]},"
	    "\"status\":{\"volumeStatus\":[{\"name\":\"r\",\"target\":"
	    "\"vda\",\"persistentVolumeClaimInfo\":{\"capacity\":{},"
	    "\"claimName\":\"p\",\"accessModes\":[\"ReadWriteMany\"],"
	    "\"volumeMode\":\"Block\"},\"size\":1}]}}]";
	const char *dv = "[{\"kind\":\"DataVolume\",\"metadata\":{\"name\":"
	    "\"d\",\"uid\":\"u\",\"namespace\":\"n\"},\"spec\":{\"source\":"
	    "{}},\"status\":{\"phase\":\"Succeeded\"}}]";

	(void)state;
	assert_skipped("resources/virtualmachineinstances.kubevirt.io.json",
	    vmi, "{\"metadata\":{\"name\":\"v\"},\"spec\":{\"domain\":"
	    "{\"devices\":{\"disks\":[{\"bootOrder\":1,\"cdrom\":"
	    "{\"readonly\":true},"
	    "\"lun\":{\"reservation\":true},\"name\":\"d\"}]},\"firmware\":"
	    "null},\"tolerations\":[{\"effect\":\"NoExecute\",\"key\":\"k\","
	    "\"operator\":\"Exists\",\"value\":\"x\"}],\"volumes\":[{"
	    "\"cloudInitNoCloud\":{\"networkData\":\"n\",\"userData\":null},"
	    "\"name\":\"c\"},{\"cloudInitConfigDrive\":{\"userData\":null},"
	    "\"name\":\"e\"}]},\"status\":{\"volumeStatus\":[{\"name\":"
	    "\"r\",\"persistentVolumeClaimInfo\":{\"accessModes\":"
	    "[\"ReadWriteMany\"],\"capacity\":null,\"claimName\":\"p\"}}]}}"
	    "\n");
	assert_skipped("resources/datavolumes.cdi.kubevirt.io.json", dv,
	    "{\"kind\":\"DataVolume\",\"metadata\":{\"name\":\"d\","
	    "\"namespace\":\"n\"}}\n");
}

/* A dropped value goes with its key and the comma before it; the first
 * member of an object has no comma before it and keeps its key and
 * null.  A comma missing, doubled or trailing around a dropped member is
 * still refused, whatever it sits next to. */
static void
test_skip_members(void **state)
{
	(void)state;
	assert_skipped("resources/pvs.json",
	    "[{\"metadata\":{\"managedFields\":[1],\"name\":\"a\"}}]",
	    "{\"metadata\":{\"managedFields\":null,\"name\":\"a\"}}\n");
	assert_skipped("resources/pvs.json",
	    "[{\"metadata\":{\"name\":\"a\" ,\n \"managedFields\" : "
	    "[{\"x\":\",\"}] , \"finalizers\":[\"f\"],\"ownerReferences\":"
	    "[],\"uid\":\"u\"}}]",
	    "{\"metadata\":{\"name\":\"a\",\"uid\":\"u\"}}\n");
	/* dropped values are not built: their keys may repeat */
	assert_skipped("resources/pvs.json",
	    "[{\"metadata\":{\"name\":\"a\",\"finalizers\":[1],"
	    "\"finalizers\":\"x\"}}]", "{\"metadata\":{\"name\":\"a\"}}\n");
	assert_refused("[{\"metadata\":{\"name\":\"a\" \"finalizers\":[1]}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\":[1] "
	    "\"uid\":\"u\"}}]", "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",,\"finalizers\":[1]}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\":[1],}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\", x \"finalizers\":[1]}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",{}\"finalizers\":[1]}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"finalizers\":[1]\"name\":\"a\"}}]",
	    "not valid JSON");
	/* scalars too, but for the first member's */
	assert_skipped("resources/pvs.json",
	    "[{\"metadata\":{\"finalizers\":1,\"name\":\"a\",\"owner"
	    "References\":true,\"managedFields\":-1.5e3}}]",
	    "{\"metadata\":{\"finalizers\":1,\"name\":\"a\"}}\n");
	assert_skipped("resources/pvs.json",
	    "[{\"metadata\":{\"name\":\"a\",\"finalizers\":null\n,"
	    "\"uid\":\"u\"}}]", "{\"metadata\":{\"name\":\"a\",\"uid\":"
	    "\"u\"}}\n");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\":1 2}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\":1"
	    "\"uid\":\"u\"}}]", "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\":tru"
	    "e[]}}]", "not valid JSON");
	/* a comma before the first member, a colon twice, a bracket where
	 * the value should be: the member stays, for jansson to refuse */
	assert_refused("[{\"metadata\":{,\"managedFields\":[1]}}]",
	    "not valid JSON");
	assert_refused("{\"metadata\":{,\"finalizers\":1},\"items\":"
	    "[{\"a\":1}]}", "the List around the items is not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\"::2}}]",
	    "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\"::"
	    "{}}}]", "not valid JSON");
	assert_refused("[{\"metadata\":{\"name\":\"a\",\"finalizers\":}}]",
	    "unexpected token near '}'");
}

/* A value with no key before it, in an object a keep list prunes: no
 * member to cut, so the item stays whole around it and jansson names
 * the stray colon, as it does with skipping off (an object's first
 * level once took offset 0 for the member's start and cut the item's
 * whole text before it). */
static void
test_keyless_value(void **state)
{
	const char *doc = "[{\"metadata\":{:[1],\"name\":\"a\"}}]";
	kv_limits lim = limits();

	(void)state;
	for (int off = 0; off < 2; off++) {
		struct got g = {0};
		kv_err err = {0};
		json_items *s = json_items_new("resources/pods.json", &lim,
		    collect, &g);
		int rc;

		if (off)
			json_items_keep_all(s);
		rc = json_items_feed(s, doc, strlen(doc), &err);
		if (rc == KV_OK)
			rc = json_items_finish(s, &err);
		assert_int_equal(rc, KV_ERR);
		assert_non_null(strstr(err.msg, "byte 15): not valid JSON: "
		    "string or '}' expected near ':'"));
		json_items_free(s);
		kv_buf_free(&g.log);
	}
}

/* A key written with an escape is no name the scanner knows: a keep
 * list keeps it (jansson reads the name it spells), and "it\"ems" opens
 * no List. */
static void
test_escaped_keys(void **state)
{
	(void)state;
	assert_skipped("resources/pods.json",
	    "[{\"metadata\":{\"name\":\"a\",\"n\\u0061mespace\":\"x\","
	    "\"u\\u0069d\":\"u\",\"generateName\":\"g\"}}]",
	    "{\"metadata\":{\"name\":\"a\",\"namespace\":\"x\",\"uid\":"
	    "\"u\"}}\n");
	assert_items("{\"it\\\"ems\":[{\"a\":1}]}",
	    "{\"it\\\"ems\":[{\"a\":1}]}\n");
}

/* The rows of the skip table for VMIs (both files), pods and nodes:
 * whole values, and every key of an element but the ones kept. */
static void
test_skip_table_rows(void **state)
{
	(void)state;
	assert_skipped("resources/virtualmachineinstances.kubevirt.io.json",
	    "[{\"metadata\":{\"ownerReferences\":[{\"kind\":\"VM\"}],"
	    "\"finalizers\":[\"f\"],\"annotations\":{\"a\":\"1\"}},"
	    "\"status\":{\"phaseTransitionTimestamps\":[{\"phase\":\"R\"}],"
	    "\"interfaces\":[{\"ipAddress\":\"10.0.0.1\"}],"
	    "\"launcherContainerImageVersion\":\"q@sha256:1\","
	    "\"conditions\":[{\"type\":\"LiveMigratable\",\"status\":"
	    "\"False\",\"lastTransitionTime\":\"t\",\"reason\":\"R\","
	    "\"message\":\"m\"}],\"nodeName\":\"w1\"}}]",
	    "{\"metadata\":{\"annotations\":{\"a\":\"1\"},"
	    "\"ownerReferences\":null},\"status\":{\"conditions\":"
	    "[{\"message\":\"m\",\"reason\":\"R\",\"status\":\"False\","
	    "\"type\":\"LiveMigratable\"}],\"nodeName\":\"w1\","
	    "\"phaseTransitionTimestamps\":null}}\n");
	assert_skipped("resources/internalvirtualizationvirtualmachine"
	    "instances.internal.virtualization.deckhouse.io.json",
	    "[{\"status\":{\"interfaces\":[1]}}]",
	    "{\"status\":{\"interfaces\":null}}\n");
	assert_skipped("resources/pods.json",
	    "[{\"metadata\":{\"annotations\":{\"a\":\"1\"},\"labels\":"
	    "{\"l\":\"2\"}},\"spec\":{\"securityContext\":{\"x\":1},"
	    "\"volumes\":[{\"name\":\"v\",\"persistentVolumeClaim\":"
	    "{\"claimName\":\"c\"},\"image\":{\"reference\":\"r\"}}]},"
	    "\"status\":{\"conditions\":[{\"type\":\"Ready\"}],"
	    "\"containerStatuses\":[{\"name\":\"compute\",\"imageID\":"
	    "\"d\",\"state\":{\"running\":{}}}]}}]",
	    "{\"metadata\":{\"annotations\":null,\"labels\":{\"l\":\"2\"}},"
	    "\"spec\":{\"securityContext\":null,\"volumes\":[{\"image\":"
	    "{\"reference\":\"r\"},\"name\":\"v\"}]},\"status\":{\"conditions\":"
	    "null,\"containerStatuses\":[{\"imageID\":\"d\",\"name\":\"compute\"}]}}"
	    "\n");
	assert_skipped("resources/nodes.json",
	    "[{\"status\":{\"conditions\":[{\"type\":\"Ready\"}],"
	    "\"addresses\":[{\"address\":\"a\"}],\"nodeInfo\":"
	    "{\"kernelVersion\":\"k\"}}}]",
	    "{\"status\":{\"conditions\":null,"
	    "\"nodeInfo\":{\"kernelVersion\":\"k\"}}}\n");
}

/* The keep lists of pods, VMIs and PVCs: every key of metadata, spec and
 * status a loader does not read goes (the first member keeps its key
 * and null). */
static void
test_skip_keep_lists(void **state)
{
	(void)state;
	assert_skipped("resources/pods.json",
	    "[{\"metadata\":{\"name\":\"p\",\"generateName\":\"p-\","
	    "\"namespace\":\"n\",\"labels\":{\"a\":\"1\"},\"uid\":\"u\","
	    "\"creationTimestamp\":\"t\",\"deletionTimestamp\":\"d\"},"
	    "\"spec\":{\"dnsPolicy\":\"ClusterFirst\",\"nodeName\":\"w1\","
	    "\"priority\":0,\"affinity\":{\"podAffinity\":{}},"
	    "\"topologySpreadConstraints\":[],\"nodeSelector\":{\"k\":"
	    "\"v\"},\"overhead\":{\"memory\":\"1\"},\"hostname\":\"h\","
	    "\"tolerations\":[{\"key\":\"k\"}]},\"status\":{\"phase\":"
	    "\"Running\",\"podIP\":\"10.0.0.1\",\"qosClass\":\"B\"}}]",
	    "{\"metadata\":{\"creationTimestamp\":\"t\","
	    "\"deletionTimestamp\":\"d\",\"labels\":{\"a\":\"1\"},\"name\":"
	    "\"p\",\"namespace\":\"n\"},\"spec\":{\"affinity\":"
	    "{\"podAffinity\":{}},\"dnsPolicy\":null,\"nodeName\":\"w1\","
	    "\"nodeSelector\":{\"k\":\"v\"},\"overhead\":{\"memory\":\"1\"},"
	    "\"priority\":0,\"topologySpreadConstraints\":[]},\"status\":"
	    "{\"phase\":\"Running\"}}\n");
	assert_skipped("resources/virtualmachineinstances.kubevirt.io.json",
	    "[{\"metadata\":{\"name\":\"v\",\"namespace\":\"n\","
	    "\"generation\":3,\"uid\":\"u\",\"resourceVersion\":\"9\"},"
	    "\"spec\":{\"domain\":{\"firmware\":{\"uuid\":\"x\"}},"
	    "\"terminationGracePeriodSeconds\":180,\"hostname\":\"h\","
	    "\"networks\":[{\"name\":\"default\",\"pod\":{}}]},\"status\":"
	    "{\"phase\":\"Running\",\"interfaces\":[{\"ipAddress\":\"a\"}],"
	    "\"qosClass\":\"B\",\"migrationState\":{\"completed\":true},"
	    "\"activePods\":{\"uid\":\"w1\"}}}]",
	    "{\"metadata\":{\"name\":\"v\",\"namespace\":"
	    "\"n\",\"uid\":\"u\"},\"spec\":{\"domain\":{\"firmware\":"
	    "null},\"networks\":[{\"name\":\"default\",\"pod\":"
	    "{}}]},\"status\":"
	    "{\"migrationState\":{\"completed\":true},\"phase\":"
	    "\"Running\"}}\n");
	assert_skipped("resources/persistentvolumeclaims.json",
	    "[{\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":"
	    "\"u\",\"annotations\":{\"a\":\"b\"},\"labels\":{\"l\":\"1\"}},"
	    "\"spec\":{\"accessModes\":[\"ReadWriteMany\"],\"dataSource\":"
	    "{\"kind\":\"x\"},\"resources\":{\"requests\":{\"storage\":"
	    "\"1Gi\"}},\"storageClassName\":\"s\",\"volumeMode\":\"Block\","
	    "\"volumeName\":\"pv\"},\"status\":{\"phase\":\"Bound\","
	    "\"accessModes\":[\"ReadWriteMany\"],\"capacity\":{\"storage\":"
	    "\"1Gi\"},\"conditions\":[]}}]",
	    "{\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":"
	    "\"u\"},\"spec\":{\"accessModes\":[\"ReadWriteMany\"],"
	    "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}},"
	    "\"storageClassName\":\"s\",\"volumeMode\":\"Block\","
	    "\"volumeName\":\"pv\"},\"status\":{\"capacity\":{\"storage\":"
	    "\"1Gi\"},\"phase\":\"Bound\"}}\n");
}

/* The VirtualMachines' rows: the template set aside whole (K_ASIDE),
 * the rows below it pruning what jansson builds. */
static void
test_skip_vm_template(void **state)
{
	(void)state;
	/* VirtualMachines: annotations, every status key but the
	 * conditions, and of those all but type, status and message; of
	 * the template the CPU model and the eviction strategy (the first
	 * member stays), and the template whole set aside, byte for byte */
	assert_skipped("resources/virtualmachines.kubevirt.io.json",
	    "[{\"metadata\":{\"name\":\"vm\",\"annotations\":{\"k\":"
	    "\"{]\"}},\"spec\":{\"runStrategy\":\"Always\",\"template\":"
	    "{\"metadata\":{\"labels\":{\"a\":\"]}\"}}, \"spec\":"
	    "{\"domain\":{\"cpu\":{\"cores\":2,\"model\":\"host-model\"},"
	    "\"devices\":{\"disks\":[{\"name\":\"d\"}]}},"
	    "\"evictionStrategy\":\"LiveMigrate\",\"volumes\":[{\"name\":"
	    "\"d\\\"}\"}]}}},\"status\":{\"printableStatus\":"
	    "\"Running\",\"volumeSnapshotStatuses\":[{\"name\":\"d\"}],"
	    "\"conditions\":[{\"type\":\"RestartRequired\",\"status\":"
	    "\"True\",\"reason\":\"R\",\"lastTransitionTime\":\"t\","
	    "\"message\":\"m\"}]}}]",
	    "{\"metadata\":{\"name\":\"vm\"},"
	    "\"spec\":{\"runStrategy\":\"Always\",\"template\":{"
	    "\"metadata\":null,\"spec\":{\"domain\":{\"cpu\":{\"cores\":"
	    "2,\"model\":\"host-model\"}},"
	    "\"evictionStrategy\":\"LiveMigrate\"}}},"
	    "\"status\":{\"conditions\":[{\"message\":\"m\",\"status\":\"True\","
	    "\"type\":\"RestartRequired\"}],\"printableStatus\":null}}\n"
	    "aside: {\"metadata\":{\"labels\":{\"a\":\"]}\"}}, \"spec\":"
	    "{\"domain\":{\"cpu\":{\"cores\":2,\"model\":\"host-model\"},"
	    "\"devices\":{\"disks\":[{\"name\":\"d\"}]}},"
	    "\"evictionStrategy\":\"LiveMigrate\",\"volumes\":[{\"name\":"
	    "\"d\\\"}\"}]}}\n");
	/* a template that is no object is kept as it is, nothing aside;
	 * and with skipping off, nothing goes aside */
	assert_skipped("resources/virtualmachines.kubevirt.io.json",
	    "{\"spec\":{\"template\":\"{x}\"}}",
	    "{\"spec\":{\"template\":\"{x}\"}}\n");
	setenv("KVSCOPE_NO_SKIP", "1", 1);
	assert_skipped("resources/virtualmachines.kubevirt.io.json",
	    "{\"spec\":{\"template\":{\"metadata\":{}}}}",
	    "{\"spec\":{\"template\":{\"metadata\":{}}}}\n");
	unsetenv("KVSCOPE_NO_SKIP");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_whitespace),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_not_json),
		cmocka_unit_test(test_list_not_json),
		cmocka_unit_test(test_not_objects),
		cmocka_unit_test(test_after_list),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_untracked),
		cmocka_unit_test(test_item_count),
		cmocka_unit_test(test_string_length),
		cmocka_unit_test(test_object_bytes),
		cmocka_unit_test(test_callback_error),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_bare_array),
		cmocka_unit_test(test_big_integers),
		cmocka_unit_test(test_skipped_subtrees),
		cmocka_unit_test(test_skip_members),
		cmocka_unit_test(test_skipped_vmi_dv),
		cmocka_unit_test(test_escaped_keys),
		cmocka_unit_test(test_keyless_value),
		cmocka_unit_test(test_skip_table_rows),
		cmocka_unit_test(test_skip_keep_lists),
		cmocka_unit_test(test_skip_vm_template),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
