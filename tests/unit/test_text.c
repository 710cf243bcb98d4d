/*
 * test_text.c - what the PDF and SVG make of snapshot strings
 * (render/svg/text.c): bidi controls, zero-width and control characters
 * shown as "<U+XXXX>", malformed UTF-8 as U+FFFD, over-long words and
 * texts shortened with an ellipsis (so pango's work is bounded), and the
 * line limit of a wrapped layout cutting the text itself.
 */
#include "kvtest.h"

#include <glib.h>
#include <pango/pangocairo.h>

#include "render/report.h"

/* fontconfig keeps a few bytes for the life of the process (as
 * tests/lsan.supp says for the e2e runs) */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static void
expect_clean(const char *in, const char *want)
{
	char *got = text_clean(in), *again = text_clean(got);

	assert_string_equal(got, want);
	assert_string_equal(again, got);	/* cleans to itself */
	free(got);
	free(again);
}

static void
test_clean_visible(void **state)
{
	(void)state;
	expect_clean("plain name-1", "plain name-1");
	expect_clean("w1adm\u202eexe.fdp", "w1adm<U+202E>exe.fdp");
	expect_clean("a\u2066b\u2069c\u200ed\u200f\u061c",
	    "a<U+2066>b<U+2069>c<U+200E>d<U+200F><U+061C>");
	expect_clean("zw\u200b\u200c\u200d\u2060\ufeff.",
	    "zw<U+200B><U+200C><U+200D><U+2060><U+FEFF>.");
	expect_clean("bell\x07 del\x7f", "bell<U+0007> del<U+007F>");
	expect_clean("two\nlines", "two\nlines");
	expect_clean("bad\xff" "byte", "bad\ufffd" "byte");
	expect_clean("ünïcødé 数据库", "ünïcødé 数据库");
	/* noncharacters: valid UTF-8 that cairo refuses, shown as codes */
	expect_clean("nc\ufffe\uffff\ufdd0\ufdef.", "nc<U+FFFE><U+FFFF>"
	    "<U+FDD0><U+FDEF>.");
	expect_clean("p\U0001fffe\U0010ffff", "p<U+1FFFE><U+10FFFF>");
	expect_clean("\ufdcf\ufdf0\ufffd", "\ufdcf\ufdf0\ufffd");
}

static void
test_visible_only_when_needed(void **state)
{
	char *v;

	(void)state;
	assert_null(text_visible("prod-east \u00fc"));
	v = text_visible("prod-\u202eeast");
	assert_string_equal(v, "prod-<U+202E>east");
	free(v);
	v = text_visible("ctx\uffff");
	assert_string_equal(v, "ctx<U+FFFF>");
	free(v);
}

static void
test_clean_long_word(void **state)
{
	char *in = xmalloc(100001), *out;

	(void)state;
	memset(in, 'a', 100000);
	in[100000] = '\0';
	out = text_clean(in);
	assert_int_equal(g_utf8_strlen(out, -1), KV_WORD_MAX);
	assert_true(g_str_has_suffix(out, "\u2026"));
	assert_int_equal(strspn(out, "a"), KV_WORD_MAX - 1);
	free(out);
	/* the word ends, the next one is kept */
	memcpy(in + 1000, " tail", 6);
	out = text_clean(in);
	assert_true(g_str_has_suffix(out, "\u2026 tail"));
	free(out);
	free(in);
}

static void
test_clean_long_text(void **state)
{
	size_t n = 1000000;
	char *in = xmalloc(n + 1), *out;

	(void)state;
	for (size_t i = 0; i < n; i++)
		in[i] = i % 8 == 7 ? ' ' : 'w';
	in[n] = '\0';
	out = text_clean(in);
	assert_int_equal(g_utf8_strlen(out, -1), KV_TEXT_MAX + 1);
	assert_true(g_str_has_suffix(out, "\u2026"));
	free(out);
	free(in);
}

static void
test_fit_long(void **state)
{
	kv_text *t = text_new();
	char *in = xmalloc(1000001), *out;

	(void)state;
	memset(in, 'x', 1000000);
	in[1000000] = '\0';
	out = text_fit(t, in, FONT_REGULAR, 8, 100);
	assert_true(g_utf8_strlen(out, -1) < 60);
	assert_true(g_str_has_suffix(out, "\u2026"));
	free(out);
	out = text_fit(t, "short", FONT_REGULAR, 8, 100);
	assert_string_equal(out, "short");
	free(out);
	free(in);
	text_free(t);
}

static void
test_max_lines(void **state)
{
	kv_text *t = text_new();
	kv_buf b = {0};
	PangoLayout *l;
	const char *s;

	(void)state;
	for (int i = 0; i < 200; i++)
		kv_buf_printf(&b, "word%d ", i);
	l = text_layout(t, b.data, FONT_REGULAR, 8, 100);
	assert_true(pango_layout_get_line_count(l) > 3);
	assert_true(text_max_lines(t, l, FONT_REGULAR, 8, 100, 3));
	assert_int_equal(pango_layout_get_line_count(l), 3);
	s = pango_layout_get_text(l);
	assert_true(g_str_has_prefix(s, "word0 word1 "));
	assert_true(g_str_has_suffix(s, "\u2026"));
	/* within the limit: unchanged */
	assert_false(text_max_lines(t, l, FONT_REGULAR, 8, 100, 3));
	g_object_unref(l);
	kv_buf_free(&b);
	text_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_visible),
		cmocka_unit_test(test_visible_only_when_needed),
		cmocka_unit_test(test_clean_long_word),
		cmocka_unit_test(test_clean_long_text),
		cmocka_unit_test(test_fit_long),
		cmocka_unit_test(test_max_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
