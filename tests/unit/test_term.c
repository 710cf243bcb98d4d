/*
 * test_term.c - terminal safety and terminal layout (render/term/term.c) and
 * the YAML writer (render/json/yaml.c): control, bidi and zero-width
 * characters shown visibly, wrapped and cut lists, YAML that quotes only
 * what would not read back as a string.
 */
#include "kvtest.h"

#include "analyze/decide/groups.h"
#include "render/render.h"
#include "render/report.h"
#include "render/view.h"

/* What kv_term_puts writes for s (caller frees). */
static char *
shown(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	kv_term_puts(f, s);
	fclose(f);
	return buf;
}

static void
expect_shown(const char *in, const char *want)
{
	char *got = shown(in);

	assert_string_equal(got, want);
	free(got);
}

static void
test_term_controls(void **state)
{
	(void)state;
	expect_shown("plain-name", "plain-name");
	expect_shown("\033[2J\033]0;pwned\007", "?[2J?]0;pwned?");
	expect_shown("a\x7f" "b", "a?b");
	expect_shown("bad\xff" "byte", "bad?byte");
	expect_shown("c1\xc2\x9b" "x", "c1<U+009B>x");
	/* ordinary UTF-8 stays */
	expect_shown("caf\xc3\xa9", "caf\xc3\xa9");
}

static void
test_term_bidi_zero_width(void **state)
{
	(void)state;
	expect_shown("evil\xe2\x80\xaetxt.exe", "evil<U+202E>txt.exe");
	expect_shown("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
	    "<U+202A><U+202B><U+202C><U+202D>");
	expect_shown("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
	    "<U+2066><U+2067><U+2068><U+2069>");
	expect_shown("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c",
	    "<U+200E><U+200F><U+061C>");
	expect_shown("w\xe2\x80\x8b" "1\xe2\x80\x8c\xe2\x80\x8d",
	    "w<U+200B>1<U+200C><U+200D>");
	expect_shown("\xe2\x81\xa0\xef\xbb\xbfn", "<U+2060><U+FEFF>n");
	assert_int_equal(kv_term_strwidth("\xe2\x80\xae"), 8);
	assert_int_equal(kv_term_strwidth("caf\xc3\xa9"), 4);
}

static char *
list_of(size_t n, int width, bool all, size_t maxlines)
{
	char *buf = NULL;
	size_t len = 0;
	kv_term t = { .width = width, .all = all };
	kv_tlist l;

	t.f = open_memstream(&buf, &len);
	assert_non_null(t.f);
	fputs("nodes:", t.f);
	kv_tlist_begin(&l, &t, 6, 2, n, maxlines);
	for (size_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "node-%02zu", i);
		kv_tlist_add(&l, name);
	}
	kv_tlist_end(&l);
	fclose(t.f);
	return buf;
}

static void
test_tlist_wraps_and_cuts(void **state)
{
	char *s;

	(void)state;
	s = list_of(3, 80, false, 2);
	assert_string_equal(s, "nodes: node-00 node-01 node-02\n");
	free(s);
	/* 40 columns: 4 names a line; two lines, then the count */
	s = list_of(20, 40, false, 2);
	assert_string_equal(s, "nodes: node-00 node-01 node-02 node-03\n"
	    "   node-04 node-05 ... and 14 more\n");
	free(s);
	s = list_of(9, 40, true, 2);
	assert_string_equal(s, "nodes: node-00 node-01 node-02 node-03\n"
	    "   node-04 node-05 node-06 node-07\n   node-08\n");
	free(s);
}

static void
test_yaml_writer(void **state)
{
	json_t *doc = json_pack("{s:s, s:s, s:s, s:i, s:b, s:n, s:[s,s], "
	    "s:s, s:{}}", "kind", "kvscope-check", "yes", "true", "num", "007",
	    "n", 3, "ok", 1, "none", "list", "a: b", "#c", "line", "x\ny",
	    "empty");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	kv_err err = {0};

	(void)state;
	assert_int_equal(kv_yaml_write(doc, f, &err), KV_OK);
	fclose(f);
	/* YAML 1.1 reads yes and n as booleans: quoted, keys too */
	assert_string_equal(buf, "---\nkind: kvscope-check\n'yes': 'true'\n"
	    "num: '007'\n'n': 3\nok: true\nnone: null\nlist:\n- 'a: b'\n"
	    "- '#c'\nline: 'x\n\n  y'\nempty: {}\n");
	free(buf);
	json_decref(doc);
}

/* Colour follows consequence: a drain that stops a VMI is warn (yellow)
 * at least, one that waits on it forever fail (red), whatever the
 * verdict; the HTML, SVG, PDF and terminal take their colours from
 * these. */
static void
test_tones_stop_and_block(void **state)
{
	kv_group shut = { .verdict = V_OK, .drain = DRAIN_SHUTDOWN };
	kv_group block = { .verdict = V_OK, .drain = DRAIN_BLOCK };
	kv_group cpu = { .verdict = V_NO_TARGET, .drain = DRAIN_NONE };

	(void)state;
	assert_int_equal(vmi_tone(V_OK, DRAIN_MIGRATE), TONE_OK);
	assert_int_equal(vmi_tone(V_OK, DRAIN_SHUTDOWN), TONE_WARN);
	assert_int_equal(vmi_tone(V_OK, DRAIN_BLOCK), TONE_FAIL);
	assert_int_equal(vmi_tone(V_BLOCKED, DRAIN_SHUTDOWN), TONE_FAIL);
	assert_int_equal(vmi_tone(V_NOT_RUNNING, DRAIN_NONE), TONE_NONE);
	assert_int_equal(group_tone(&shut), TONE_WARN);
	assert_int_equal(group_tone(&block), TONE_FAIL);
	assert_int_equal(group_tone(&cpu), TONE_FAIL);
	/* the PDF's inks */
	assert_int_equal(tone_ink(group_tone(&shut)), COL_WARN);
	assert_int_equal(tone_ink(group_tone(&block)), COL_FAIL);
	assert_int_equal(drain_tone(DRAIN_SHUTDOWN), TONE_WARN);
	/* the terminal */
	assert_int_equal(kv_vmi_color(V_OK, DRAIN_MIGRATE), KV_C_GREEN);
	assert_int_equal(kv_vmi_color(V_OK, DRAIN_SHUTDOWN), KV_C_YELLOW);
	assert_int_equal(kv_vmi_color(V_OK, DRAIN_BLOCK), KV_C_RED);
	assert_int_equal(kv_vmi_color(V_NO_TARGET, DRAIN_BLOCK), KV_C_RED);
	assert_int_equal(kv_vmi_color(V_NO_TARGET, DRAIN_MIGRATE),
	    KV_C_YELLOW);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_term_controls),
		cmocka_unit_test(test_term_bidi_zero_width),
		cmocka_unit_test(test_tlist_wraps_and_cuts),
		cmocka_unit_test(test_yaml_writer),
		cmocka_unit_test(test_tones_stop_and_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
