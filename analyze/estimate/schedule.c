/*
 * schedule.c - migrations in time under KubeVirt's parallel limits
 * (estimate.h): at most parallelMigrationsPerCluster at once (kubevirt
 * v1.9.0 pkg/virt-controller/watch/migration/migration.go, the
 * "ParallelMigrationsPerCluster" check before a target pod is created),
 * at most parallelOutboundMigrationsPerNode from one source node, and a
 * flavor's inbound limit per target node.  Jobs start in the order
 * given, each as soon as the limits allow (list scheduling).
 */
#include <math.h>
#include <stdlib.h>

#include "analyze/estimate/estimate.h"
#include "analyze/util/util.h"

/* The busy count of each node id used, grown on demand. */
typedef struct counts {
	size_t n, *v;
} counts;

static size_t *
count_at(counts *c, size_t id)
{
	if (id >= c->n) {
		size_t n = id + 1 > 2 * c->n ? id + 1 : 2 * c->n;

		c->v = xreallocarray(c->v, n, sizeof(size_t));
		for (size_t i = c->n; i < n; i++)
			c->v[i] = 0;
		c->n = n;
	}
	return &c->v[id];
}

typedef struct run {
	const kv_mig_job *jobs;
	const kv_mig_limits *lim;
	size_t nsrc;
	size_t *order;			/* job ids by source, then id */
	size_t *head, *tail;		/* per source: its range in order */
	size_t *running;		/* job ids, at most the lanes */
	double *run_end;		/* when each of them ends */
	double *lane_free;		/* per lane: when it is free */
	counts src, tgt;
} run;

static int
by_source(const void *x, const void *y, void *arg)
{
	const kv_mig_job *jobs = arg;
	size_t p = *(const size_t *)x, q = *(const size_t *)y;

	if (jobs[p].source != jobs[q].source)
		return jobs[p].source < jobs[q].source ? -1 : 1;
	return p < q ? -1 : p > q;
}

/* Group the jobs by source, each source's in the order given. */
static void
run_init(run *r, size_t n)
{
	size_t lanes = r->lim->cluster > 0 ? r->lim->cluster : 1;

	r->order = xcalloc(n + 1, sizeof(size_t));
	r->head = xcalloc(n + 1, sizeof(size_t));
	r->tail = xcalloc(n + 1, sizeof(size_t));
	r->running = xcalloc(lanes, sizeof(size_t));
	r->run_end = xcalloc(lanes, sizeof(double));
	r->lane_free = xcalloc(lanes, sizeof(double));
	for (size_t j = 0; j < n; j++)
		r->order[j] = j;
	qsort_r(r->order, n, sizeof(size_t), by_source, (void *)r->jobs);
	r->nsrc = 0;
	for (size_t k = 0; k < n; k++)
		if (k == 0 || r->jobs[r->order[k]].source !=
		    r->jobs[r->order[k - 1]].source) {
			r->head[r->nsrc] = k;
			r->tail[r->nsrc++] = k + 1;
		} else
			r->tail[r->nsrc - 1] = k + 1;
}

static void
take(counts *c, size_t id, int d)
{
	if (id != SIZE_MAX)
		*count_at(c, id) += (size_t)d;
}

/* Start what the limits allow at now, each source's next job in turn. */
static void
start_ready(run *r, size_t *head, size_t *busy, double now, int k,
    kv_slot *slots)
{
	size_t lanes = r->lim->cluster > 0 ? r->lim->cluster : 1;

	for (size_t s = 0; s < r->nsrc && *busy < lanes; s++) {
		while (head[s] < r->tail[s] && *busy < lanes) {
			size_t j = r->order[head[s]], l = 0;
			const kv_mig_job *x = &r->jobs[j];

			if ((r->lim->per_source > 0 && *count_at(&r->src,
			    x->source) >= r->lim->per_source) ||
			    (r->lim->per_target > 0 && x->target != SIZE_MAX &&
			    *count_at(&r->tgt, x->target) >=
			    r->lim->per_target))
				break;
			while (r->lane_free[l] > now)
				l++;
			head[s]++;
			r->lane_free[l] = now + x->dur[k];
			r->running[(*busy)++] = j;
			r->run_end[*busy - 1] = now + x->dur[k];
			take(&r->src, x->source, 1);
			take(&r->tgt, x->target, 1);
			if (slots != NULL) {
				slots[j].job = j;
				slots[j].start[k] = now;
				slots[j].end[k] = now + x->dur[k];
				if (k == 1)
					slots[j].lane = l;
			}
		}
	}
}

/* The time the first running job ends; every job ending then is done. */
static double
advance(run *r, size_t *busy)
{
	double now = INFINITY;

	for (size_t b = 0; b < *busy; b++)
		if (r->run_end[b] < now)
			now = r->run_end[b];
	for (size_t b = 0; b < *busy;) {
		size_t j = r->running[b];

		if (r->run_end[b] <= now) {
			take(&r->src, r->jobs[j].source, -1);
			take(&r->tgt, r->jobs[j].target, -1);
			--*busy;
			r->running[b] = r->running[*busy];
			r->run_end[b] = r->run_end[*busy];
		} else
			b++;
	}
	return now;
}

static double
run_once(run *r, int k, kv_slot *slots)
{
	size_t lanes = r->lim->cluster > 0 ? r->lim->cluster : 1;
	size_t busy = 0, *head = xcalloc(r->nsrc + 1, sizeof(size_t));
	double now = 0;

	for (size_t l = 0; l < lanes; l++)
		r->lane_free[l] = 0;
	for (size_t s = 0; s < r->nsrc; s++)
		head[s] = r->head[s];
	for (;;) {
		start_ready(r, head, &busy, now, k, slots);
		if (busy == 0)
			break;
		now = advance(r, &busy);
	}
	free(head);
	return now;
}

void
kv_schedule_run(const kv_mig_job *jobs, size_t n, const kv_mig_limits *lim,
    kv_slot *slots, double span[2])
{
	run r = { .jobs = jobs, .lim = lim };

	run_init(&r, n);
	for (int k = 0; k < 2; k++)
		span[k] = n > 0 ? run_once(&r, k, slots) : 0;
	free(r.order);
	free(r.head);
	free(r.tail);
	free(r.running);
	free(r.run_end);
	free(r.lane_free);
	free(r.src.v);
	free(r.tgt.v);
}

void
kv_schedule_limits(const kv_analysis *a, kv_mig_limits *lim)
{
	const kv_config *c = &a->cfg;
	int64_t per = c->parallel_node;

	if (c->sync_per_node > 0 && c->sync_per_node < per)
		per = c->sync_per_node;
	lim->cluster = c->parallel_cluster > 0 ?
	    (size_t)c->parallel_cluster : 1;
	lim->per_source = per > 0 ? (size_t)per : 1;
	lim->per_target = c->inbound_per_node > 0 ?
	    (size_t)c->inbound_per_node : 0;
}
