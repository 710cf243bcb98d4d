/*
 * test_quantity.c - Kubernetes resource quantities: the suffixes, rounding
 * up as Quantity.Value() does, and every way a stranger's quantity can be
 * wrong (negative, malformed, out of range) giving one error that quotes
 * it.
 */
#include "kvtest.h"

#include "analyze/read/quantity.h"

static void
assert_value(const char *s, int64_t want)
{
	kv_err err = {0};
	int64_t v = -42;

	if (kv_quantity_parse(s, &v, &err) != KV_OK)
		fail_msg("\"%s\": unexpected error: %s", s, err.msg);
	if (v != want)
		fail_msg("\"%s\": got %lld, want %lld", s, (long long)v,
		    (long long)want);
}

/* s is refused with one line that quotes it and contains want. */
static void
assert_refused(const char *s, const char *want)
{
	kv_err err = {0};
	int64_t v = -42;
	char quoted[256];

	snprintf(quoted, sizeof(quoted), "\"%s\"", s);

	if (kv_quantity_parse(s, &v, &err) != KV_ERR)
		fail_msg("\"%s\": accepted as %lld", s, (long long)v);
	assert_true(err.set);
	assert_null(strchr(err.msg, '\n'));
	if (strstr(err.msg, want) == NULL)
		fail_msg("\"%s\": error \"%s\" lacks \"%s\"", s, err.msg, want);
	if (strstr(err.msg, quoted) == NULL)
		fail_msg("\"%s\": error \"%s\" does not quote it", s, err.msg);
}

static void
test_plain(void **state)
{
	assert_value("0", 0);
	assert_value("1", 1);
	assert_value("100", 100);
	assert_value("+5", 5);
	assert_value("4611686018427387904", KV_QUANTITY_MAX);
	assert_value("000000000000000000000000000000012", 12);
}

static void
test_binary_suffixes(void **state)
{
	assert_value("1Ki", 1024);
	assert_value("4Gi", (int64_t)4 << 30);
	assert_value("2Ti", (int64_t)2 << 40);
	assert_value("1Pi", (int64_t)1 << 50);
	assert_value("4Ei", KV_QUANTITY_MAX);
	assert_value("0.5Gi", (int64_t)1 << 29);
	assert_value("1.5Mi", 1572864);
	/* 0.1Ki = 102.4 bytes: rounded up */
	assert_value("0.1Ki", 103);
}

static void
test_decimal_suffixes(void **state)
{
	assert_value("1k", 1000);
	assert_value("1500M", 1500000000);
	assert_value("2G", 2000000000);
	assert_value("1T", 1000000000000LL);
	assert_value("1P", 1000000000000000LL);
	assert_value("1E", 1000000000000000000LL);
	/* millis and smaller round up to a whole unit */
	assert_value("1500m", 2);
	assert_value("1000m", 1);
	assert_value("1m", 1);
	assert_value("1u", 1);
	assert_value("1n", 1);
	assert_value("0m", 0);
}

static void
test_exponents(void **state)
{
	assert_value("1e3", 1000);
	assert_value("1E3", 1000);
	assert_value("1.5e3", 1500);
	assert_value("1e+3", 1000);
	assert_value("1e-3", 1);
	assert_value("12e0", 12);
	assert_value("1e18", 1000000000000000000LL);
	assert_value("1e-100", 1);
	assert_value("0e-100", 0);
	assert_value("1000000000000000000000000000000000000e-35", 10);
	assert_value("1000000000000000000000000000000000000e-36", 1);
	assert_value("1000000000000000000000000000000000001e-36", 2);
}

static void
test_fractions(void **state)
{
	assert_value(".5", 1);
	assert_value("5.", 5);
	assert_value("2.000000000000000000", 2);
	/* digits past the 18th still count for rounding up */
	assert_value("1.0000000000000000000001", 2);
	assert_value("0.0000000000000000000001", 1);
	assert_value("1.0000000000000000000001Ki", 1025);
	assert_value("1.0000000000000000000001e-100", 1);
	assert_value("0.0000000000000000000002e22", 2);
	assert_value("1.00000000000000000000000000000000000000001", 2);
	assert_value("4.0000000000000000000000000Gi", (int64_t)4 << 30);
}

static void
test_negative(void **state)
{
	assert_refused("-4Gi", "negative quantity");
	assert_refused("-1", "negative quantity");
	assert_refused("+-1", "negative quantity");
	assert_refused("-0.5", "negative quantity");
	assert_refused("-0.000000000000000000000000000000000000000001",
	    "negative quantity");
	assert_refused("--0", "malformed quantity");
	assert_refused("-", "malformed quantity");
	assert_refused("-Gi", "malformed quantity");
	/* a negative zero is zero */
	assert_value("-0", 0);
	assert_value("-0.0", 0);
	assert_value("-00Gi", 0);
	assert_value("+-0", 0);
	assert_value("-0e5", 0);
}

static void
test_malformed(void **state)
{
	assert_refused("1.5Xi", "unknown suffix \"Xi\"");
	assert_refused("", "malformed quantity");
	assert_refused("Gi", "malformed quantity");
	assert_refused(".", "malformed quantity");
	assert_refused(" 1", "malformed quantity");
	assert_refused("1 ", "unknown suffix");
	assert_refused("1gi", "unknown suffix");
	assert_refused("1KiB", "unknown suffix");
	assert_refused("0x10", "unknown suffix");
	assert_refused("1.2.3", "unknown suffix");
	assert_refused("1e", "unknown suffix");
	assert_refused("1e3Gi", "malformed quantity");
	assert_refused("1e-", "malformed quantity");
	assert_refused("Infinity", "malformed quantity");
	assert_refused("NaN", "malformed quantity");
}

static void
test_out_of_range(void **state)
{
	assert_refused("1e400", "out of range");
	assert_refused("1e19", "out of range");
	assert_refused("8Ei", "out of range");
	/* the bound at load (KV_QUANTITY_MAX, 4Ei): the magnitudes that
	 * once reached the arithmetic as int64's edge */
	assert_refused("7Ei", "beyond 4Ei");
	assert_refused("4611686018427387905", "beyond 4Ei");
	assert_refused("9223372036854775807", "beyond 4Ei");
	assert_refused("4611686018427387904001m", "beyond 4Ei");
	assert_refused("9223372036854775808", "out of range");
	assert_refused("99999999999999999999999999999999999999999999",
	    "out of range");
	assert_refused("100000000000000000000Ki", "out of range");
	assert_refused("1e99999999999", "out of range");
	assert_refused("9223372036854775807k", "out of range");
	/* a 37-digit whole part plus 18 fraction digits: the mantissa must
	 * not wrap around 128 bits and come back as a small number */
	assert_refused("9000000000000000000000000000000000000."
	    "999999999999999999", "out of range");
	assert_refused("9000000000000000000000000000000000000."
	    "999999999999999999m", "out of range");
}

/* The one saturating helper (util.h): a + b * c clamped, never UB. */
static void
test_saturating(void **state)
{
	assert_int_equal(kv_sat_addmul(2, 3, 4), 14);
	assert_int_equal(kv_sat_addmul(KV_QUANTITY_MAX, KV_QUANTITY_MAX, 1),
	    INT64_MAX);
	assert_int_equal(kv_sat_addmul(0, INT64_MAX, 4611686019), INT64_MAX);
	assert_int_equal(kv_sat_addmul(0, INT64_MAX, -2), INT64_MIN);
	assert_int_equal(kv_sat_addmul(INT64_MIN, 1, -1), INT64_MIN);
	assert_int_equal(kv_sat_addmul(-5, KV_QUANTITY_MAX, -1),
	    -5 - KV_QUANTITY_MAX);
	assert_int_equal(kv_sat_addmul(INT64_MAX, -1, 1), INT64_MAX - 1);
}

/* The error is about s alone: it does not depend on earlier calls. */
static void
test_first_error_kept(void **state)
{
	kv_err err = {0};
	int64_t v;

	assert_int_equal(kv_quantity_parse("-1", &v, &err), KV_ERR);
	assert_int_equal(kv_quantity_parse("1.5Xi", &v, &err), KV_ERR);
	assert_non_null(strstr(err.msg, "negative"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_binary_suffixes),
		cmocka_unit_test(test_decimal_suffixes),
		cmocka_unit_test(test_exponents),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_saturating),
		cmocka_unit_test(test_first_error_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
