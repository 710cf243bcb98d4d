/*
 * test_labelsel.c - Kubernetes label selectors (analyze/model/labelsel.c), the
 * cases of apimachinery's pkg/labels/selector_test.go that kubectl -l
 * users meet: the operators, "in" and "notin" as values, empty values,
 * what is refused and why; and render/term/term.c's cut of long name lists.
 * Also the model's node label-key prefix look-up (analyze/model/model.c).
 */
#include "kvtest.h"

#include "analyze/model/labelsel.h"
#include "analyze/model/model.h"
#include "render/view.h"

/* labels sorted by key, as kv_labels keeps them */
static const kv_label L[] = { { "app", "web" }, { "env", "" },
	{ "node-role.kubernetes.io/worker", "" }, { "tier", "3" } };
static const kv_labels LABELS = { 4, (kv_label *)L };

static bool
matches(const char *s)
{
	kv_selector sel = { 0 };
	kv_err err = { 0 };
	bool m;

	assert_int_equal(kv_selector_parse(s, &sel, &err), KV_OK);
	m = kv_selector_matches(&sel, &LABELS);
	kv_selector_free(&sel);
	return m;
}

static void
refused(const char *s, const char *why)
{
	kv_selector sel = { 0 };
	kv_err err = { 0 };

	assert_int_equal(kv_selector_parse(s, &sel, &err), KV_ERR);
	assert_non_null(strstr(err.msg, why));
	assert_int_equal(sel.n, 0);
}

static void
test_selector_operators(void **state)
{
	(void)state;
	assert_true(matches("app=web"));
	assert_true(matches("app==web"));
	assert_false(matches("app!=web"));
	assert_true(matches("nosuch!=x"));	/* no key: != holds */
	assert_true(matches("app in (db, web)"));
	assert_false(matches("app notin (web)"));
	assert_true(matches("nosuch notin (web)"));
	assert_true(matches("node-role.kubernetes.io/worker"));
	assert_true(matches("!nosuch"));
	assert_false(matches("!app"));
	assert_true(matches("env="));		/* empty value */
	assert_true(matches("env in (,x)"));
	assert_true(matches("tier>2,tier<4"));
	assert_false(matches("tier>3"));
	assert_true(matches("app,app in (in, web),!x"));  /* in as value */
	assert_false(matches("app=web,env=x"));	/* comma: AND */
}

static void
test_selector_refused(void **state)
{
	(void)state;
	refused("app in (web", "expected: ',' or ')'");
	refused("app in web", "expected: '('");
	refused("!app=web", "expected: ',' or 'end of string'");
	refused("app=web,", "identifier after ','");
	refused("=web", "expected: identifier");
	refused("-app=x", "key \"-app\"");
	refused("Example.com/app=x", "DNS subdomain");
	refused("a/b/c", "DNS subdomain");
	refused("app=-web", "value \"-web\"");
	refused("tier>x", "integer");
}

static void
test_cut_lists(void **state)
{
	char *s;

	(void)state;
	s = kv_term_cut_lists("a drain of w1, w2, w3, w4, w5 moves them; "
	    "stop, wait", 3);
	assert_string_equal(s, "a drain of w1, w2, w3 and 2 more moves "
	    "them; stop, wait");
	free(s);
	s = kv_term_cut_lists("(a, b, c, d, e, ... (9 in all))", 3);
	assert_string_equal(s, "(a, b, c, d, e, ... (9 in all))");
	free(s);
	s = kv_term_cut_lists("w1, w2, w3, w4", 3);	/* 1 more: kept */
	assert_string_equal(s, "w1, w2, w3, w4");
	free(s);
	/* a list cut already: one count ("and 7 more and 180 more" was) */
	s = kv_term_cut_lists("a drain of w1, w2, w3, w4, w5 and 180 more "
	    "(all in findings.json) evicts them", 3);
	assert_string_equal(s, "a drain of w1, w2, w3 and 182 more (all in "
	    "findings.json) evicts them");
	free(s);
	s = kv_term_cut_lists("w1, w2, w3, w4, w5 and more", 3);
	assert_string_equal(s, "w1, w2, w3 and 2 more and more");
	free(s);
}

/* kv_model_node_key_prefix: a key of any node, by its start only */
static void
test_node_key_prefix(void **state)
{
	kv_node nodes[2] = { { 0 }, { 0 } };
	kv_model m = { 0 };

	nodes[1].labels = LABELS;
	m.nodes = nodes;
	m.nnodes = 2;
	assert_true(kv_model_node_key_prefix(&m, "node-role.kubernetes.io/"));
	assert_true(kv_model_node_key_prefix(&m, "ti"));
	assert_false(kv_model_node_key_prefix(&m, "role"));
	assert_false(kv_model_node_key_prefix(&m, "tier3"));
	m.nnodes = 1;
	assert_false(kv_model_node_key_prefix(&m, "app"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selector_operators),
		cmocka_unit_test(test_selector_refused),
		cmocka_unit_test(test_cut_lists),
		cmocka_unit_test(test_node_key_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
