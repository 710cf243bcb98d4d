/*
 * test_layout.c - the report's pure layout arithmetic (render/pdf/layout.c):
 * pagination with a repeated header, column banding, chunking; and the
 * locale-free helpers of render/words/format.c and render/svg/mview.c that decide
 * what the report prints: number and date formatting, the document date
 * (createdAt, SOURCE_DATE_EPOCH), and the class-matrix view that
 * aggregates beyond KV_MATRIX_MAX classes.  No cairo, no pango, no files.
 */
#include "kvtest.h"

#include "render/report.h"

/* ---- kv_paginate ---------------------------------------------------------- */

static void
test_paginate_one_page(void **state)
{
	const double h[] = { 10, 10, 10 };
	size_t starts[3];
	bool skip;

	(void)state;
	assert_int_equal(kv_paginate(h, 3, 100, 100, 10, starts, &skip), 1);
	assert_false(skip);
	assert_int_equal(starts[0], 0);
}

static void
test_paginate_header_repeats(void **state)
{
	/* 10 rows of 10 on pages of 50 with a header of 10: 4 rows a page */
	double h[10];
	size_t starts[10];
	bool skip;

	(void)state;
	for (int i = 0; i < 10; i++)
		h[i] = 10;
	assert_int_equal(kv_paginate(h, 10, 50, 50, 10, starts, &skip), 3);
	assert_false(skip);
	assert_int_equal(starts[0], 0);
	assert_int_equal(starts[1], 4);
	assert_int_equal(starts[2], 8);
}

static void
test_paginate_first_page_shorter(void **state)
{
	/* 25 left on the first page: header + 1 row; then 4 a page */
	double h[6] = { 10, 10, 10, 10, 10, 10 };
	size_t starts[6];
	bool skip;

	(void)state;
	assert_int_equal(kv_paginate(h, 6, 25, 50, 10, starts, &skip), 3);
	assert_false(skip);
	assert_int_equal(starts[1], 1);
	assert_int_equal(starts[2], 5);
}

static void
test_paginate_skip_first(void **state)
{
	/* not even the header and the first row fit: start on a new page */
	double h[3] = { 20, 20, 20 };
	size_t starts[3];
	bool skip;

	(void)state;
	assert_int_equal(kv_paginate(h, 3, 15, 100, 10, starts, &skip), 1);
	assert_true(skip);
	assert_int_equal(starts[0], 0);
}

static void
test_paginate_tall_row(void **state)
{
	/* a row taller than a page gets a page of its own, and no empty
	 * page comes before it */
	double h[3] = { 10, 500, 10 };
	size_t starts[3];
	bool skip;

	(void)state;
	assert_int_equal(kv_paginate(h, 3, 100, 100, 10, starts, &skip), 3);
	assert_false(skip);
	assert_int_equal(starts[1], 1);
	assert_int_equal(starts[2], 2);
}

static void
test_paginate_exact_fit_and_empty(void **state)
{
	double h[4] = { 20, 20, 20, 20 };
	size_t starts[4];
	bool skip;

	(void)state;
	/* header 20 + 4 rows of 20 = 100: exactly one page */
	assert_int_equal(kv_paginate(h, 4, 100, 100, 20, starts, &skip), 1);
	assert_int_equal(kv_paginate(h, 0, 100, 100, 20, starts, &skip), 0);
}

static void
test_paginate_large(void **state)
{
	/* 10,000 rows: every page but the last is full, rows in order */
	enum { N = 10000 };
	double *h = xcalloc(N, sizeof(double));
	size_t *starts = xcalloc(N, sizeof(size_t));
	size_t n;
	bool skip;

	(void)state;
	for (size_t i = 0; i < N; i++)
		h[i] = 10 + (double)(i % 3);	/* 10, 11, 12 */
	n = kv_paginate(h, N, 700, 700, 20, starts, &skip);
	assert_false(skip);
	for (size_t p = 0; p < n; p++) {
		size_t end = p + 1 < n ? starts[p + 1] : N;
		double sum = 20;

		assert_true(end > starts[p]);
		for (size_t i = starts[p]; i < end; i++)
			sum += h[i];
		assert_true(sum <= 700);
		if (p + 1 < n)
			assert_true(sum + h[end] > 700);
	}
	free(h);
	free(starts);
}

/* ---- kv_band, kv_chunks ------------------------------------------------------ */

static void
test_band_uniform(void **state)
{
	/* 40 cells of 16 beside a 100 label in 500: 25 per band */
	double w[40];
	size_t starts[40];

	(void)state;
	for (int i = 0; i < 40; i++)
		w[i] = 16;
	assert_int_equal(kv_band(w, 40, 100, 500, starts), 2);
	assert_int_equal(starts[0], 0);
	assert_int_equal(starts[1], 25);
}

static void
test_band_wide_column(void **state)
{
	/* a column wider than the room still gets a band */
	const double w[] = { 50, 900, 50, 50 };
	size_t starts[4];

	(void)state;
	assert_int_equal(kv_band(w, 4, 100, 300, starts), 3);
	assert_int_equal(starts[1], 1);
	assert_int_equal(starts[2], 2);
}

static void
test_chunks(void **state)
{
	(void)state;
	assert_int_equal(kv_chunks(0, 10), 0);
	assert_int_equal(kv_chunks(10, 10), 1);
	assert_int_equal(kv_chunks(11, 10), 2);
	assert_int_equal(kv_chunks(5, 0), 5);
}

/* ---- formatting ------------------------------------------------------------------ */

static void
expect_str(char *got, const char *want)
{
	assert_string_equal(got, want);
	free(got);
}

static void
test_fmt_bytes(void **state)
{
	(void)state;
	expect_str(kv_fmt_bytes(-1), "unknown");
	expect_str(kv_fmt_bytes(0), "0 B");
	expect_str(kv_fmt_bytes(1536 * 1024), "1.5 MiB");
	expect_str(kv_fmt_bytes(4LL << 30), "4.0 GiB");
	expect_str(kv_fmt_bytes((64LL << 30) + (1LL << 29)), "64.5 GiB");
	expect_str(kv_fmt_bytes(3LL << 40), "3.0 TiB");
}

static void
test_fmt_duration(void **state)
{
	(void)state;
	expect_str(fmt_duration(0), "0 s");
	expect_str(fmt_duration(59), "59 s");
	expect_str(fmt_duration(120), "2 min 0 s");
	expect_str(fmt_duration(3725), "1 h 2 min");
}

/* ---- the document date --------------------------------------------------------------- */

static time_t
date_of(const char *created_at)
{
	kv_model m;
	kv_analysis a;

	memset(&m, 0, sizeof(m));
	memset(&a, 0, sizeof(a));
	m.manifest.created_at = (char *)created_at;
	a.m = &m;
	return report_date(&a);
}

static void
test_report_date(void **state)
{
	char buf[21];

	(void)state;
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(date_of("2026-10-31T09:12:44Z"), 1793437964);
	assert_int_equal(date_of("2026-10-31T09:12:44.250Z"), 1793437964);
	assert_int_equal(date_of("2026-10-31T11:12:44+02:00"), 1793437964);
	assert_int_equal(date_of("garbage"), 0);
	assert_int_equal(date_of(NULL), 0);
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	assert_int_equal(date_of("2026-10-31T09:12:44Z"), 1700000000);
	/* an invalid override is ignored, not half-parsed */
	setenv("SOURCE_DATE_EPOCH", "17x", 1);
	assert_int_equal(date_of("2026-10-31T09:12:44Z"), 1793437964);
	unsetenv("SOURCE_DATE_EPOCH");
	report_isodate(1793437964, buf);
	assert_string_equal(buf, "2026-10-31T09:12:44Z");
}

/* ---- the class-matrix view ------------------------------------------------------------- */

/* An analysis with n classes whose pair (s, t) is ok when s == t or
 * (s + t) is even, else missing (s + t) % 5 + 1 labels. */
static kv_analysis *
classes(size_t n)
{
	kv_analysis *a = xcalloc(1, sizeof(*a));
	static const char *miss[] = { "a", "b", "c", "d", "e" };

	a->nclasses = n;
	a->classes = xcalloc(n, sizeof(kv_class));
	for (size_t i = 0; i < n; i++)
		snprintf(a->classes[i].id, sizeof(a->classes[i].id), "C%zu",
		    i + 1);
	a->npairs = n * n;
	a->pairs = xcalloc(n * n, sizeof(kv_pair));
	for (size_t s = 0; s < n; s++)
		for (size_t t = 0; t < n; t++) {
			kv_pair *p = &a->pairs[s * n + t];

			p->src = s;
			p->tgt = t;
			p->ok = s == t || (s + t) % 2 == 0;
			p->nmissing = p->ok ? 0 : (s + t) % 5 + 1;
			p->missing = miss;
		}
	return a;
}

static void
free_classes(kv_analysis *a)
{
	free(a->classes);
	free(a->pairs);
	free(a);
}

static void
test_mview_small(void **state)
{
	kv_analysis *a = classes(3);
	kv_mview v;
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs;
	char *l;

	(void)state;
	mview_init(&v, a);
	assert_false(v.aggregated);
	assert_int_equal(v.row.n, 3);
	assert_int_equal(v.col.n, 3);
	mview_cell(&v, a, 0, 1, &ok, &missing, &nfail, &npairs, &p);
	assert_false(ok);
	assert_int_equal(missing, 2);
	assert_int_equal(npairs, 1);
	assert_ptr_equal(p, &a->pairs[1]);
	l = mview_cell_title(&v, a, 0, 1);
	assert_string_equal(l, "C1 \u2192 C2: missing 2 labels: a, b");
	free(l);
	free_classes(a);
}

static void
test_mview_aggregates_beyond_max(void **state)
{
	kv_analysis *a = classes(KV_MATRIX_MAX + 41);
	kv_mview v;
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs, first, last;
	char *l;

	(void)state;
	mview_init(&v, a);
	assert_true(v.aggregated);
	assert_int_equal(v.row.n, KV_MATRIX_MAX);
	mview_range(&v.row, KV_MATRIX_MAX - 2, &first, &last);
	assert_int_equal(last - first, 1);
	mview_range(&v.col, KV_MATRIX_MAX - 1, &first, &last);
	assert_int_equal(first, KV_MATRIX_MAX - 1);
	assert_int_equal(last, KV_MATRIX_MAX + 41);
	/* row 0 against the aggregate: 42 target classes, half fail */
	mview_cell(&v, a, 0, KV_MATRIX_MAX - 1, &ok, &missing, &nfail,
	    &npairs, &p);
	assert_false(ok);
	assert_null(p);
	assert_int_equal(npairs, 42);
	assert_int_equal(nfail, 21);
	assert_int_equal(missing, 5);
	l = mview_label(&v.col, a, KV_MATRIX_MAX - 1);
	assert_string_equal(l, "C200\u2013C241 (42 classes)");
	free(l);
	free_classes(a);
}

/* Rows and columns as two sets of classes (crosscheck's figure): entry
 * (i, j) is the pair of rows[i] and cols[j]. */
static void
test_mview_sets(void **state)
{
	kv_analysis *a = classes(4);
	static const size_t rows[] = { 2, 0 }, cols[] = { 1, 3, 0 };
	kv_mview v;
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs;
	char *l;

	(void)state;
	mview_init_sets(&v, rows, 2, cols, 3, "T");
	assert_int_equal(v.row.n, 2);
	assert_int_equal(v.col.n, 3);
	assert_false(v.aggregated);
	assert_int_equal(mview_class(&v.row, 0), 2);
	mview_cell(&v, a, 1, 0, &ok, &missing, &nfail, &npairs, &p);
	assert_ptr_equal(p, &a->pairs[0 * 4 + 1]);
	mview_cell(&v, a, 0, 1, &ok, &missing, &nfail, &npairs, &p);
	assert_ptr_equal(p, &a->pairs[2 * 4 + 3]);
	l = mview_cell_title(&v, a, 1, 0);
	assert_string_equal(l, "C1 \u2192 C2: missing 2 labels: a, b");
	free(l);
	l = mview_label(&v.col, a, 1);
	assert_string_equal(l, "C4 (no host model)");
	free(l);
	free_classes(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paginate_one_page),
		cmocka_unit_test(test_paginate_header_repeats),
		cmocka_unit_test(test_paginate_first_page_shorter),
		cmocka_unit_test(test_paginate_skip_first),
		cmocka_unit_test(test_paginate_tall_row),
		cmocka_unit_test(test_paginate_exact_fit_and_empty),
		cmocka_unit_test(test_paginate_large),
		cmocka_unit_test(test_band_uniform),
		cmocka_unit_test(test_band_wide_column),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_fmt_bytes),
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_report_date),
		cmocka_unit_test(test_mview_small),
		cmocka_unit_test(test_mview_aggregates_beyond_max),
		cmocka_unit_test(test_mview_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
