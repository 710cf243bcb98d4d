/*
 * test_jget.c - jget's memo of the last parent (analyze/model/jget.c):
 * reads in a run under one parent walk down to it once, and the answers
 * and errors are those of a walk from the top: values under the same
 * parent, an absent parent read twice, a parent that is not an object
 * (the error names each read's whole path), the same path in another
 * tree (never the item's memo), a parent path longer than the memo.
 */
#include "kvtest.h"

#include <jansson.h>

#include "analyze/model/intern.h"
#include "analyze/model/jget.h"

typedef struct fx {
	kv_intern *strs;
	kv_err err;
	json_t *item;
	jctx c;
} fx;

static int
setup(void **state)
{
	fx *f = xcalloc(1, sizeof(*f));
	json_error_t je;

	f->strs = kv_intern_new();
	f->item = json_loads("{\"spec\":{\"domain\":{\"cpu\":{\"model\":"
	    "\"host-model\",\"cores\":4},\"machine\":\"q35\"},"
	    "\"bad\":\"text\"},\"metadata\":{\"name\":\"web\"},"
	    "\"a\":{\"very\":{\"long\":{\"path\":{\"that\":{\"does\":{\"not\":"
	    "{\"fit\":{\"into\":{\"the\":{\"memo\":{\"of\":{\"sixty\":{\"four\":"
	    "{\"bytes\":{\"v\":7}}}}}}}}}}}}}}}}", 0, &je);
	assert_non_null(f->item);
	f->c = (jctx){ .strs = f->strs, .err = &f->err, .item = f->item };
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	fx *f = *state;

	json_decref(f->item);
	kv_intern_free(f->strs);
	free(f);
	return 0;
}

static void
test_one_parent(void **state)
{
	fx *f = *state;
	const char *s;
	int64_t n;

	assert_int_equal(jstr(&f->c, f->item, "spec.domain.cpu.model", &s),
	    KV_OK);
	assert_string_equal(s, "host-model");
	assert_int_equal(jint(&f->c, f->item, "spec.domain.cpu.cores", &n),
	    KV_OK);
	assert_int_equal(n, 4);
	assert_int_equal(jstr(&f->c, f->item, "spec.domain.machine", &s),
	    KV_OK);
	assert_string_equal(s, "q35");
	assert_int_equal(jint(&f->c, f->item, "spec.domain.cpu.sockets", &n),
	    KV_OK);
	assert_int_equal(n, -1);
	assert_int_equal(jstr(&f->c, f->item, "metadata.name", &s), KV_OK);
	assert_string_equal(s, "web");
}

static void
test_absent_parent(void **state)
{
	fx *f = *state;
	const char *s = "x";

	assert_int_equal(jstr(&f->c, f->item, "status.phase", &s), KV_OK);
	assert_null(s);
	s = "x";
	assert_int_equal(jstr(&f->c, f->item, "status.nodeName", &s), KV_OK);
	assert_null(s);
	assert_false(f->err.set);
}

static void
test_parent_not_object(void **state)
{
	fx *f = *state;
	const char *s;

	assert_int_equal(jstr(&f->c, f->item, "spec.bad.x", &s), KV_ERR);
	assert_string_equal(f->err.msg, "item 0: spec.bad.x: expected an "
	    "object on the way, got a string");
	kv_clearerr(&f->err);
	assert_int_equal(jstr(&f->c, f->item, "spec.bad.y", &s), KV_ERR);
	assert_string_equal(f->err.msg, "item 0: spec.bad.y: expected an "
	    "object on the way, got a string");
}

static void
test_other_tree(void **state)
{
	fx *f = *state;
	json_t *other = json_pack("{s:{s:s}}", "metadata", "name", "db");
	const char *s;

	assert_int_equal(jstr(&f->c, f->item, "metadata.name", &s), KV_OK);
	assert_string_equal(s, "web");
	assert_int_equal(jstr(&f->c, other, "metadata.name", &s), KV_OK);
	assert_string_equal(s, "db");
	assert_int_equal(jstr(&f->c, f->item, "metadata.name", &s), KV_OK);
	assert_string_equal(s, "web");
	json_decref(other);
}

static void
test_long_path(void **state)
{
	fx *f = *state;
	const char *path = "a.very.long.path.that.does.not.fit.into.the.memo."
	    "of.sixty.four.bytes.v";
	int64_t n;

	assert_true(strlen(path) > 64);
	assert_int_equal(jint(&f->c, f->item, path, &n), KV_OK);
	assert_int_equal(n, 7);
	assert_int_equal(jint(&f->c, f->item, path, &n), KV_OK);
	assert_int_equal(n, 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_parent, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_absent_parent, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_parent_not_object, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_other_tree, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_long_path, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
