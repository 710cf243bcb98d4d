/*
 * build.c - kv_fleet_build (fleet.h): snapshots grouped by cluster,
 * ordered by capture time, each compared with the one before it (new /
 * still / fixed), clusters sorted worst first; and kv_fleet_free.
 */
#include "analyze/fleet/fleet.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/util/util.h"

/* Readable snapshots by cluster, then capture time (unknown first),
 * then path (arg: the fleet). */
static int
snap_cmp(const void *x, const void *y, void *arg)
{
	const kv_fleet *f = arg;
	const kv_fleet_snap *a = &f->snaps[*(const size_t *)x];
	const kv_fleet_snap *b = &f->snaps[*(const size_t *)y];
	int c = strcmp(a->cluster, b->cluster);

	if (c != 0)
		return c;
	if (a->taken != b->taken)
		return a->taken < b->taken ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Worst first: more VMIs that would not migrate, more drain blockers,
 * more not judged, more new problems, then by name (context, else the
 * key; arg: the fleet). */
static int
cluster_cmp(const void *x, const void *y, void *arg)
{
	const kv_fleet_cluster *ca = x, *cb = y;
	const kv_fleet *f = arg;
	const kv_fleet_snap *a = &f->snaps[ca->newest];
	const kv_fleet_snap *b = &f->snaps[cb->newest];
	const size_t ka[] = { a->not_migrate, a->drain_blockers,
		a->verdicts[V_NOT_JUDGED], a->nnew };
	const size_t kb[] = { b->not_migrate, b->drain_blockers,
		b->verdicts[V_NOT_JUDGED], b->nnew };

	for (size_t i = 0; i < sizeof(ka) / sizeof(ka[0]); i++)
		if (ka[i] != kb[i])
			return ka[i] > kb[i] ? -1 : 1;
	return strcmp(a->context != NULL ? a->context : a->cluster,
	    b->context != NULL ? b->context : b->cluster);
}

/* The index in p[0..n) (by vmi, code) of vmi/code, or SIZE_MAX. */
static size_t
by_name(const kv_fleet_problem *p, size_t n, const char *vmi,
    const char *code)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p[mid].vmi, vmi);

		if (c == 0)
			c = strcmp(p[mid].code, code);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

static int
uid_key(const kv_fleet_problem *a, const char *uid, const char *code)
{
	int c = strcmp(a->uid, uid);

	return c != 0 ? c : strcmp(a->code, code);
}

/* Indexes of problems by uid, then code (arg: the problems). */
static int
uid_cmp(const void *x, const void *y, void *arg)
{
	const kv_fleet_problem *p = arg;
	const kv_fleet_problem *b = &p[*(const size_t *)y];

	return uid_key(&p[*(const size_t *)x], b->uid, b->code);
}

/* The problem of p with uid and code through idx[0..n) (indexes of p
 * sorted by uid, code), or SIZE_MAX. */
static size_t
by_uid(const kv_fleet_problem *p, const size_t *idx, size_t n,
    const char *uid, const char *code)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = uid_key(&p[idx[mid]], uid, code);

		if (c == 0)
			return idx[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/*
 * Match cur's problems with prev's: by VMI uid and code first (a VMI
 * renamed keeps its uid), then the rest by namespace/name and code (a
 * VM restarted gets a VMI with a new uid and the same name).  match[i]:
 * the index in prev of cur's problem i, or SIZE_MAX (new); used[j]:
 * prev's problem j matched (else fixed).
 */
static void
match(const kv_fleet_snap *prev, const kv_fleet_snap *cur, size_t *m,
    bool *used)
{
	size_t *uidx = xcalloc(prev->nproblems + 1, sizeof(size_t));
	size_t nu = 0;

	for (size_t j = 0; j < prev->nproblems; j++)
		if (prev->problems[j].uid != NULL)
			uidx[nu++] = j;
	kv_qsort_r(uidx, nu, sizeof(size_t), uid_cmp,
	    (void *)prev->problems);
	for (size_t i = 0; i < cur->nproblems; i++) {
		const kv_fleet_problem *p = &cur->problems[i];
		size_t j = SIZE_MAX;

		m[i] = SIZE_MAX;
		if (p->uid != NULL)
			j = by_uid(prev->problems, uidx, nu, p->uid, p->code);
		if (j != SIZE_MAX && !used[j]) {
			m[i] = j;
			used[j] = true;
		}
	}
	for (size_t i = 0; i < cur->nproblems; i++) {
		const kv_fleet_problem *p = &cur->problems[i];
		size_t j;

		if (m[i] != SIZE_MAX)
			continue;
		j = by_name(prev->problems, prev->nproblems, p->vmi, p->code);
		if (j != SIZE_MAX && !used[j]) {
			m[i] = j;
			used[j] = true;
		}
	}
	free(uidx);
}

/* cur (c's newest) against prev: the counts and the lists. */
static void
compare(const kv_fleet_snap *prev, kv_fleet_snap *cur, kv_fleet_cluster *c)
{
	size_t *m = xcalloc(cur->nproblems + 1, sizeof(size_t));
	bool *used = xcalloc(prev->nproblems + 1, sizeof(bool));

	match(prev, cur, m, used);
	cur->has_prev = true;
	c->newp = xcalloc(cur->nproblems + 1, sizeof(void *));
	c->stillp = xcalloc(cur->nproblems + 1, sizeof(void *));
	c->fixedp = xcalloc(prev->nproblems + 1, sizeof(void *));
	for (size_t i = 0; i < cur->nproblems; i++) {
		if (m[i] != SIZE_MAX)
			c->stillp[c->nstill++] = &cur->problems[i];
		else
			c->newp[c->nnew++] = &cur->problems[i];
	}
	for (size_t j = 0; j < prev->nproblems; j++)
		if (!used[j])
			c->fixedp[c->nfixed++] = &prev->problems[j];
	cur->nnew = c->nnew;
	cur->nstill = c->nstill;
	cur->nfixed = c->nfixed;
	free(m);
	free(used);
}

/* The distinct contexts of c's snapshots, newest first. */
static void
contexts(const kv_fleet *f, kv_fleet_cluster *c)
{
	c->contexts = xcalloc(c->nsnaps + 1, sizeof(char *));
	for (size_t k = c->nsnaps; k-- > 0;) {
		const char *x = f->snaps[c->snaps[k]].context;
		bool seen = false;

		if (x == NULL)
			continue;
		for (size_t i = 0; i < c->ncontexts && !seen; i++)
			seen = strcmp(c->contexts[i], x) == 0;
		if (!seen)
			c->contexts[c->ncontexts++] = x;
	}
}

static void
close_cluster(kv_fleet *f, kv_fleet_cluster *c)
{
	c->newest = c->snaps[c->nsnaps - 1];
	c->prev = c->nsnaps > 1 ? c->snaps[c->nsnaps - 2] : SIZE_MAX;
	if (c->prev != SIZE_MAX)
		compare(&f->snaps[c->prev], &f->snaps[c->newest], c);
	contexts(f, c);
}

/* Whether snapshot i is older than j (capture time, then path). */
static bool
older(const kv_fleet *f, size_t i, size_t j)
{
	return snap_cmp(&i, &j, (void *)f) < 0;
}

static void
drop_problems(kv_fleet_snap *s)
{
	free(s->problems);
	free(s->strings);
	s->problems = NULL;
	s->strings = NULL;
	s->nproblems = 0;
	s->trimmed = true;
}

void
kv_fleet_trim(kv_fleet *f)
{
	const kv_fleet_snap *last;
	size_t kept = 0, oldest = SIZE_MAX;

	if (f->nsnaps == 0 || f->snaps[f->nsnaps - 1].unreadable != NULL)
		return;
	last = &f->snaps[f->nsnaps - 1];
	for (size_t i = 0; i < f->nsnaps; i++) {
		const kv_fleet_snap *s = &f->snaps[i];

		if (s->unreadable != NULL || s->trimmed ||
		    strcmp(s->cluster, last->cluster) != 0)
			continue;
		kept++;
		if (oldest == SIZE_MAX || older(f, i, oldest))
			oldest = i;
	}
	if (kept > 2)
		drop_problems(&f->snaps[oldest]);
}

void
kv_fleet_build(kv_fleet *f)
{
	size_t *order = xcalloc(f->nsnaps + 1, sizeof(size_t)), n = 0;

	for (size_t i = 0; i < f->nsnaps; i++)
		if (f->snaps[i].unreadable == NULL)
			order[n++] = i;
	f->nread = n;
	kv_qsort_r(order, n, sizeof(size_t), snap_cmp, f);
	f->clusters = xcalloc(n + 1, sizeof(*f->clusters));
	for (size_t i = 0; i < n;) {
		kv_fleet_cluster *c = &f->clusters[f->nclusters++];
		size_t j = i;

		while (j < n && strcmp(f->snaps[order[j]].cluster,
		    f->snaps[order[i]].cluster) == 0)
			j++;
		c->nsnaps = j - i;
		c->snaps = xcalloc(c->nsnaps, sizeof(size_t));
		memcpy(c->snaps, order + i, c->nsnaps * sizeof(size_t));
		close_cluster(f, c);
		i = j;
	}
	kv_qsort_r(f->clusters, f->nclusters, sizeof(*f->clusters),
	    cluster_cmp, f);
	free(order);
}

bool
kv_fleet_fails(const kv_fleet *f)
{
	for (size_t i = 0; i < f->nclusters; i++)
		if (f->snaps[f->clusters[i].newest].not_migrate > 0)
			return true;
	return false;
}

static void
snap_free(kv_fleet_snap *s)
{
	char **strs[] = { &s->path, &s->unreadable, &s->cluster, &s->context,
		&s->flavor, &s->product, &s->version, &s->rules,
		&s->taken_at, &s->report };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(*strs[i]);
	for (size_t i = 0; i < s->ndrain; i++)
		free(s->drain[i].name);
	free(s->drain);
	for (size_t i = 0; i < s->ntop; i++)
		free(s->top[i].subject);
	free(s->codes);
	free(s->problems);
	free(s->strings);
}

void
kv_fleet_free(kv_fleet *f)
{
	for (size_t i = 0; i < f->nsnaps; i++)
		snap_free(&f->snaps[i]);
	free(f->snaps);
	for (size_t i = 0; i < f->nclusters; i++) {
		kv_fleet_cluster *c = &f->clusters[i];

		free(c->snaps);
		free(c->contexts);
		free(c->newp);
		free(c->stillp);
		free(c->fixedp);
	}
	free(f->clusters);
	memset(f, 0, sizeof(*f));
}
