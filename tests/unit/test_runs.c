/*
 * test_runs.c - kv_runs (analyze/util/runs.h), the loop the verdicts,
 * estimates and drains spread over two threads: every item is visited
 * once, in runs of the length asked (the last one shorter), run i in
 * part i % 2 whatever the timing; one part (KVSCOPE_THREADS=1, or fewer
 * items than asked for) visits them all in order in the caller's thread.
 * kv_analysis_parts: a proof's copy runs in one part, unless its lender
 * says the copies are made one at a time (copies_alone).
 */
#include "kvtest.h"

#include <pthread.h>

#include "analyze/rules/analysis.h"
#include "analyze/util/runs.h"

#define N 1000

typedef struct seen {
	int visits[N];
	int part[N];
	size_t runs[2];			/* runs each part took */
	size_t last_to[2];		/* a part's runs go up */
	bool backwards;
	pthread_t who[2];
} seen;

static void
visit(void *arg, int part, size_t from, size_t to)
{
	seen *s = arg;

	if (from < s->last_to[part])
		s->backwards = true;
	s->last_to[part] = to;
	s->runs[part]++;
	s->who[part] = pthread_self();
	for (size_t i = from; i < to; i++) {
		s->visits[i]++;
		s->part[i] = part;
	}
}

static void
test_two_parts(void **state)
{
	static seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	kv_runs(N, 64, 2, visit, &s);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(s.visits[i], 1);
		assert_int_equal(s.part[i], (int)((i / 64) % 2));
	}
	/* 1000 items in runs of 64: 16 runs, the last of 40 */
	assert_int_equal(s.runs[0], 8);
	assert_int_equal(s.runs[1], 8);
	assert_int_equal(s.last_to[1], N);
	assert_false(s.backwards);
	assert_true(pthread_equal(s.who[0], pthread_self()));
	assert_false(pthread_equal(s.who[1], pthread_self()));
}

static void
test_one_part(void **state)
{
	static seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	kv_runs(N, 64, 1, visit, &s);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(s.visits[i], 1);
		assert_int_equal(s.part[i], 0);
	}
	assert_int_equal(s.runs[0], 16);
	assert_int_equal(s.runs[1], 0);
	assert_false(s.backwards);
}

static void
test_parts(void **state)
{
	(void)state;
	setenv("KVSCOPE_THREADS", "2", 1);
	assert_int_equal(kv_runs_parts(1024, 1024), 2);
	assert_int_equal(kv_runs_parts(1023, 1024), 1);
	setenv("KVSCOPE_THREADS", "1", 1);
	assert_int_equal(kv_runs_parts(100000, 1024), 1);
	unsetenv("KVSCOPE_THREADS");
}

static void
test_analysis_parts(void **state)
{
	static kv_analysis whole, copy;

	(void)state;
	setenv("KVSCOPE_THREADS", "2", 1);
	whole.nvmis = 100000;
	copy.nvmis = 4096;
	assert_int_equal(kv_analysis_parts(&whole), 2);
	copy.lender = &whole;
	assert_int_equal(kv_analysis_parts(&copy), 1);
	whole.copies_alone = true;
	assert_int_equal(kv_analysis_parts(&copy), 2);
	copy.nvmis = 1000;
	assert_int_equal(kv_analysis_parts(&copy), 1);
	unsetenv("KVSCOPE_THREADS");
}

static void
test_none(void **state)
{
	static seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	kv_runs(0, 64, 2, visit, &s);
	assert_int_equal(s.runs[0] + s.runs[1], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_parts),
		cmocka_unit_test(test_one_part),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_analysis_parts),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
