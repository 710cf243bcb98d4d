/*
 * test_yamlitems.c - YAML documents as jansson values (yamlitems.c): the
 * core schema's scalars, multi-document streams with and without "---",
 * anchors and aliases (copied, and bounded: a billion laughs is refused),
 * tags ignored, and every refusal naming the file and the line.
 */
#include "kvtest.h"

#include "analyze/read/yamlitems.h"

static int
collect(void *arg, json_t *doc, size_t line, kv_err *err)
{
	kv_buf *log = arg;
	char *s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENCODE_ANY);

	kv_buf_printf(log, "%zu:%s\n", line, s);
	free(s);
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

static void
assert_docs_lim(const kv_limits *lim, const char *text, const char *want)
{
	kv_buf log = {0};
	kv_err err = {0};

	if (yaml_documents("f.yaml", text, strlen(text), lim, collect, NULL,
	    &log, &err) != KV_OK)
		fail_msg("\"%s\": %s", text, err.msg);
	assert_string_equal(log.data ? log.data : "", want);
	kv_buf_free(&log);
}

static void
assert_docs(const char *text, const char *want)
{
	kv_limits lim = limits();

	assert_docs_lim(&lim, text, want);
}

static void
assert_refused_lim(const kv_limits *lim, const char *text, const char *want)
{
	kv_buf log = {0};
	kv_err err = {0};

	if (yaml_documents("f.yaml", text, strlen(text), lim, collect, NULL,
	    &log, &err) != KV_ERR)
		fail_msg("\"%.60s\": accepted", text);
	kv_buf_free(&log);
	assert_null(strchr(err.msg, '\n'));
	if (!kv_startswith(err.msg, "f.yaml: line "))
		fail_msg("error does not name file and line: %s", err.msg);
	if (strstr(err.msg, want) == NULL)
		fail_msg("\"%.60s\": error \"%s\" lacks \"%s\"", text, err.msg,
		    want);
}

static void
assert_refused(const char *text, const char *want)
{
	kv_limits lim = limits();

	assert_refused_lim(&lim, text, want);
}

static void
test_scalars(void **state)
{
	assert_docs("a: 1\nb: -7\nc: 1.5\nd: true\ne: False\nf: null\ng: ~\n"
	    "h:\ni: '1'\nj: \"true\"\nk: 4Gi\nl: 2026-10-31T09:12:44Z\n"
	    "m: 1e3\nn: .5\no: 0x1F\np: yes\nq: 123456789012345678901234\n"
	    "r: |\n  two\n  lines\n",
	    "1:{\"a\":1,\"b\":-7,\"c\":1.5,\"d\":true,\"e\":false,\"f\":null,"
	    "\"g\":null,\"h\":null,\"i\":\"1\",\"j\":\"true\",\"k\":\"4Gi\","
	    "\"l\":\"2026-10-31T09:12:44Z\",\"m\":1000.0,\"n\":0.5,"
	    "\"o\":\"0x1F\",\"p\":\"yes\",\"q\":1.2345678901234569e23,"
	    "\"r\":\"two\\nlines\\n\"}\n");
	/* JSON is YAML */
	assert_docs("{\"a\": [1, {\"b\": \"c\"}]}", "1:{\"a\":[1,{\"b\":\"c\"}]}\n");
	/* tags are ignored */
	assert_docs("a: !!str 12\nb: !custom {x: 1}\n",
	    "1:{\"a\":12,\"b\":{\"x\":1}}\n");
}

static void
test_documents(void **state)
{
	assert_docs("a: 1\n---\nb: 2\n", "1:{\"a\":1}\n2:{\"b\":2}\n");
	assert_docs("---\na: 1\n---\nb: 2\n...\n", "1:{\"a\":1}\n3:{\"b\":2}\n");
	assert_docs("", "");
	assert_docs("# only a comment\n", "");
	assert_docs("---\n", "1:null\n");
	assert_docs("\xef\xbb\xbf" "a: 1\n", "1:{\"a\":1}\n");
}

static void
test_aliases(void **state)
{
	kv_limits lim = limits();
	kv_buf laughs = {0};

	assert_docs("a: &x {k: [1, 2]}\nb: *x\nc: &s str\nd: *s\n",
	    "1:{\"a\":{\"k\":[1,2]},\"b\":{\"k\":[1,2]},\"c\":\"str\","
	    "\"d\":\"str\"}\n");
	/* anchors do not cross documents */
	assert_refused("a: &x 1\n---\nb: *x\n", "line 3: alias to an unknown "
	    "anchor \"x\"");
	assert_refused("a: &x [*x]\n", "alias inside its own anchor \"x\"");
	assert_refused("? *x\n: 1\n", "alias");
	/* ten levels of nine: refused long before a billion nodes */
	kv_buf_printf(&laughs, "a0: &a0 [l, l, l, l, l, l, l, l, l]\n");
	for (int i = 1; i < 10; i++) {
		kv_buf_printf(&laughs, "a%d: &a%d [", i, i);
		for (int k = 0; k < 9; k++)
			kv_buf_printf(&laughs, "%s*a%d", k ? ", " : "", i - 1);
		kv_buf_printf(&laughs, "]\n");
	}
	assert_refused(laughs.data, "aliases expand to more than the limit "
	    "of nodes (KVSCOPE_MAX_ALIAS_NODES)");
	lim.alias_nodes = 20;
	assert_docs_lim(&lim, "a: &x [1, 2, 3]\nb: [*x, *x, *x, *x, *x]\n",
	    "1:{\"a\":[1,2,3],\"b\":[[1,2,3],[1,2,3],[1,2,3],[1,2,3],"
	    "[1,2,3]]}\n");
	assert_refused_lim(&lim, "a: &x [1, 2, 3]\nb: [*x, *x, *x, *x, *x, *x]"
	    "\n", "line 2: aliases expand");
	kv_buf_free(&laughs);
}

static void
test_refused(void **state)
{
	kv_limits lim = limits();
	kv_buf deep = {0};

	assert_refused("a: 1\na: 2\n", "line 2: duplicate key \"a\"");
	assert_refused("[1, 2]: x\n", "a mapping key that is not a scalar");
	assert_refused("a: [1\n", "not valid YAML");
	assert_refused("a: b\n c: d\n", "line 2: not valid YAML");
	assert_refused("a: \"x\\0y\"\n", "NUL character");
	kv_buf_printf(&deep, "a: ");
	for (int i = 0; i < 100; i++)
		kv_buf_printf(&deep, "[");
	assert_refused(deep.data, "nesting too deep (KVSCOPE_MAX_DEPTH)");
	kv_buf_free(&deep);
	lim.string_bytes = 4;
	assert_refused_lim(&lim, "a: abcde\n", "string longer than the limit");
	assert_docs_lim(&lim, "a: abcd\n", "1:{\"a\":\"abcd\"}\n");
	lim = limits();
	lim.items = 2;
	assert_refused_lim(&lim, "a\n---\nb\n---\nc\n", "line 4: more "
	    "documents than the limit (KVSCOPE_MAX_ITEMS)");
}

static bool
no_secrets(void *arg, const char *api, const char *kind)
{
	return strcmp(kind, "Secret") != 0;
}

/* A document the caller does not want is dropped once apiVersion and
 * kind are read: not built, its aliases not looked at, but its nesting
 * still bounded. */
static void
test_peek(void **state)
{
	kv_limits lim = limits();
	kv_buf log = {0}, deep = {0};
	kv_err err = {0};
	const char *text = "kind: Secret\napiVersion: v1\ndata: *nowhere\n"
	    "---\napiVersion: v1\nkind: Node\nx: 1\n";

	assert_int_equal(yaml_documents("f.yaml", text, strlen(text), &lim,
	    collect, no_secrets, &log, &err), KV_OK);
	assert_string_equal(log.data, "4:{\"apiVersion\":\"v1\","
	    "\"kind\":\"Node\",\"x\":1}\n");
	kv_buf_free(&log);
	kv_buf_printf(&deep, "apiVersion: v1\nkind: Secret\nx: ");
	for (int i = 0; i < 100; i++)
		kv_buf_printf(&deep, "[");
	assert_int_equal(yaml_documents("f.yaml", deep.data, deep.len, &lim,
	    collect, no_secrets, &log, &err), KV_ERR);
	assert_non_null(strstr(err.msg, "nesting too deep"));
	kv_buf_free(&deep);
	kv_buf_free(&log);
}

/* The line of a field: its key's, in the document asked for, through
 * sequences; the deepest line of the path where the rest is missing. */
static void
test_field_line(void **state)
{
	static const char text[] =
	    "apiVersion: v1\n"			/* 1 */
	    "kind: List\n"
	    "items:\n"
	    "- metadata:\n"
	    "    name: a\n"			/* 5 */
	    "- metadata:\n"
	    "    name: b\n"
	    "    labels: 7\n"			/* 8 */
	    "  spec: {c: [x, {d: 1}]}\n"
	    "---\n"				/* 10 */
	    "kind: Node\n"
	    "metadata:\n"
	    "  labels: [x]\n";			/* 13 */
	size_t n = sizeof(text) - 1;

	assert_int_equal(yaml_field_line(text, n, 1,
	    "items[1].metadata.labels"), 8);
	assert_int_equal(yaml_field_line(text, n, 1,
	    "items[0].metadata.name"), 5);
	assert_int_equal(yaml_field_line(text, n, 1,
	    "items[1].spec.c[1].d"), 9);
	assert_int_equal(yaml_field_line(text, n, 1,
	    "items[1].metadata.nosuch"), 6);
	assert_int_equal(yaml_field_line(text, n, 10, "metadata.labels"),
	    13);
	assert_int_equal(yaml_field_line(text, n, 4, "metadata"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_documents),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_field_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
