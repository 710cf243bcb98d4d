/*
 * test_mgtime.c - kv_rfc3339_us, by which kvscope diff orders OLD and NEW
 * by their manifests' createdAt: an offset is applied (10:12:44+02:00 is
 * before 09:12:44Z, though it sorts after as a string), a fraction
 * counts, and anything not RFC 3339 with a zone is refused.
 */
#include "kvtest.h"

#include "analyze/read/mgtime.h"

static int64_t
us_of(const char *s)
{
	int64_t us = -42;

	if (!kv_rfc3339_us(s, &us))
		fail_msg("\"%s\": refused", s);
	return us;
}

static void
test_utc(void **state)
{
	(void)state;
	assert_int_equal(us_of("1970-01-01T00:00:00Z"), 0);
	assert_int_equal(us_of("2026-10-31T09:12:44Z"),
	    INT64_C(1793437964) * 1000000);
}

static void
test_offsets(void **state)
{
	(void)state;
	assert_int_equal(us_of("2026-10-31T10:12:44+02:00"),
	    us_of("2026-10-31T08:12:44Z"));
	assert_true(us_of("2026-10-31T10:12:44+02:00") <
	    us_of("2026-10-31T09:12:44Z"));
	assert_int_equal(us_of("2026-10-31T09:00:00-01:00"),
	    us_of("2026-10-31T10:00:00Z"));
	/* across midnight and a month */
	assert_int_equal(us_of("2026-11-01T01:30:00+05:30"),
	    us_of("2026-10-31T20:00:00Z"));
}

static void
test_fraction(void **state)
{
	(void)state;
	assert_int_equal(us_of("2026-10-31T09:12:44.25Z") -
	    us_of("2026-10-31T09:12:44Z"), 250000);
	assert_true(us_of("2026-10-31T09:12:44.5Z") <
	    us_of("2026-10-31T09:12:44.75Z"));
}

static void
test_refused(void **state)
{
	static const char *const bad[] = {
		"", "2026-10-31", "2026-10-31T09:12:44",	/* no zone */
		"2026-10-31 09:12:44Z", "2026-W44-6T09:12:44Z",
		"2026-10-31T09:12:44+0200", "2026-13-01T00:00:00Z",
		"2026-10-31T09:12:44Z trailing", "2026-10-31T25:00:00Z",
	};
	int64_t us = -42;

	(void)state;
	assert_false(kv_rfc3339_us(NULL, &us));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (kv_rfc3339_us(bad[i], &us))
			fail_msg("\"%s\": accepted", bad[i]);
	assert_int_equal(us, -42);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utc),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_fraction),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
