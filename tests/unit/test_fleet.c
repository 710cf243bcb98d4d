/*
 * test_fleet.c - the fleet index's grouping and comparison
 * (analyze/fleet/fleet.h) on summaries built by hand: problems matched
 * by VMI uid and code first (a VMI renamed keeps its problems), then by
 * namespace/name and code (a VMI restarted under a new uid keeps them),
 * the rest new or fixed; snapshots ordered by capture time whatever the
 * order read; only the two newest of a cluster keep their problems
 * (kv_fleet_trim); clusters worst first; an unreadable input in no
 * cluster.
 */
#include "kvtest.h"

#include "analyze/fleet/fleet.h"

typedef struct { const char *uid, *vmi, *code; } prob;

/* A summary of cluster key, taken at t (Unix seconds), with problems
 * p[0..n) (sorted by vmi, code, as kv_fleet_summarize leaves them) and
 * nm VMIs that would not migrate. */
static void
add(kv_fleet *f, const char *path, const char *key, int64_t t,
    const prob *p, size_t n, size_t nm)
{
	kv_fleet_snap *s = kv_fleet_add(f, path);

	s->cluster = xstrdup(key);
	s->context = xstrdup(path);
	s->flavor = xstrdup("kubevirt");
	s->rules = xstrdup("v1.9.0");
	s->taken = t;
	s->not_migrate = nm;
	s->problems = xcalloc(n + 1, sizeof(*s->problems));
	for (size_t i = 0; i < n; i++)
		s->problems[i] = (kv_fleet_problem){ p[i].uid, p[i].vmi,
		    p[i].code, SEV_BLOCKER };
	s->nproblems = n;
	kv_fleet_trim(f);
}

static const kv_fleet_cluster *
cluster(const kv_fleet *f, const char *key)
{
	for (size_t i = 0; i < f->nclusters; i++)
		if (strcmp(f->snaps[f->clusters[i].newest].cluster, key) == 0)
			return &f->clusters[i];
	fail_msg("no cluster %s", key);
	return NULL;
}

static const prob before[] = {
	{ "u1", "ns/a", "disk-not-shared" },
	{ "u1", "ns/a", "no-cpu-target" },
	{ "u2", "ns/b", "host-device" },
	{ "u3", "ns/c", "virtiofs" },
	{ "u4", "ns/gone", "tsc-frequency" },
};
static const prob after[] = {
	{ "u1", "ns/a", "no-cpu-target" },	/* still */
	{ "u9", "ns/b", "host-device" },	/* restarted: still by name */
	{ "u3", "ns/c-renamed", "virtiofs" },	/* renamed: still by uid */
	{ "u5", "ns/d", "no-capacity" },	/* new */
	{ NULL, "ns/e", "no-capacity" },	/* new, no uid */
};

static void
test_new_still_fixed(void **state)
{
	kv_fleet f;
	const kv_fleet_cluster *c;

	(void)state;
	kv_fleet_init(&f);
	add(&f, "after", "K", 2000, after, 5, 3);	/* read first */
	add(&f, "before", "K", 1000, before, 5, 2);
	kv_fleet_build(&f);
	assert_int_equal(f.nclusters, 1);
	c = cluster(&f, "K");
	assert_string_equal(f.snaps[c->newest].path, "after");
	assert_string_equal(f.snaps[c->prev].path, "before");
	assert_int_equal(c->nnew, 2);
	assert_int_equal(c->nstill, 3);
	assert_int_equal(c->nfixed, 2);
	assert_string_equal(c->newp[0]->vmi, "ns/d");
	assert_string_equal(c->newp[1]->vmi, "ns/e");
	assert_string_equal(c->fixedp[0]->code, "disk-not-shared");
	assert_string_equal(c->fixedp[1]->vmi, "ns/gone");
	assert_true(f.snaps[c->newest].has_prev);
	assert_int_equal(f.snaps[c->newest].nnew, 2);
	assert_false(f.snaps[c->prev].has_prev);
	kv_fleet_free(&f);
}

/* A name taken over by another VMI (another uid) whose old owner still
 * runs renamed: the uid match wins, the name does not match twice. */
static void
test_uid_before_name(void **state)
{
	static const prob b[] = { { "u1", "ns/x", "virtiofs" } };
	static const prob a[] = {
		{ "u2", "ns/x", "virtiofs" },
		{ "u1", "ns/y", "virtiofs" },
	};
	kv_fleet f;
	const kv_fleet_cluster *c;

	(void)state;
	kv_fleet_init(&f);
	add(&f, "b", "K", 1, b, 1, 0);
	add(&f, "a", "K", 2, a, 2, 0);
	kv_fleet_build(&f);
	c = cluster(&f, "K");
	assert_int_equal(c->nstill, 1);
	assert_string_equal(c->stillp[0]->vmi, "ns/y");
	assert_int_equal(c->nnew, 1);
	assert_string_equal(c->newp[0]->uid, "u2");
	assert_int_equal(c->nfixed, 0);
	kv_fleet_free(&f);
}

static void
test_trim_and_order(void **state)
{
	kv_fleet f;

	(void)state;
	kv_fleet_init(&f);
	add(&f, "k-3", "K", 3000, after, 5, 1);
	add(&f, "k-1", "K", 1000, before, 5, 9);
	assert_false(f.snaps[1].trimmed);
	add(&f, "k-2", "K", 2000, before, 5, 4);
	/* three of K: the oldest (k-1) lost its problems */
	assert_true(f.snaps[1].trimmed);
	assert_null(f.snaps[1].problems);
	assert_false(f.snaps[0].trimmed);
	assert_false(f.snaps[2].trimmed);
	add(&f, "l-1", "L", 500, before, 5, 2);
	kv_fleet_unreadable(kv_fleet_add(&f, "bad"), "bad: not a snapshot");
	kv_fleet_build(&f);
	assert_int_equal(f.nread, 4);
	assert_int_equal(f.nclusters, 2);
	/* worst first: K's newest has 1 that would not migrate, L's 2 */
	assert_string_equal(f.snaps[f.clusters[0].newest].path, "l-1");
	assert_int_equal(f.clusters[1].nsnaps, 3);
	assert_string_equal(f.snaps[f.clusters[1].snaps[0]].path, "k-1");
	assert_string_equal(f.snaps[f.clusters[1].prev].path, "k-2");
	assert_int_equal(f.clusters[1].nstill, 3);
	assert_true(kv_fleet_fails(&f));
	kv_fleet_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_still_fixed),
		cmocka_unit_test(test_uid_before_name),
		cmocka_unit_test(test_trim_and_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
