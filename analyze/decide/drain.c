/*
 * drain.c - what `kubectl drain` of each node would do (findings.md
 * "drain"), what draining a set of nodes together does (`check --drain`),
 * with a time estimate for the VMIs that migrate (drain.h).
 *
 * Time: the VMIs that migrate are scheduled under KubeVirt's parallel
 * limits (analyze/estimate kv_schedule_run), each taking the range its
 * migration estimate gives (a->est: target pod start plus the copy).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"
#include "analyze/util/runs.h"

void
kv_drain_schedule(const kv_analysis *a, const kv_drain_row *rows, size_t n,
    kv_slot *slots, size_t *idx, double span[2])
{
	kv_mig_job *jobs = xcalloc(n + 1, sizeof(kv_mig_job));
	kv_mig_limits lim;
	size_t nj = 0;

	kv_schedule_limits(a, &lim);
	for (size_t k = 0; k < n; k++) {
		const kv_migest *e = &a->est[rows[k].vmi];

		if (rows[k].action != DRAIN_MIGRATE || !e->present)
			continue;
		jobs[nj].source = rows[k].source;
		jobs[nj].target = rows[k].target;
		jobs[nj].dur[0] = e->seconds[0];
		jobs[nj].dur[1] = e->seconds[1];
		if (idx != NULL)
			idx[nj] = k;
		nj++;
	}
	kv_schedule_run(jobs, nj, &lim, slots, span);
	free(jobs);
}

/* The time the rows' migrations take and how they end. */
static void
drain_time(const kv_analysis *a, kv_drain *d, const kv_drain_row *rows,
    size_t n)
{
	kv_drain_schedule(a, rows, n, NULL, NULL, d->secs);
	d->seconds = (int64_t)ceil(d->secs[1]);
	for (size_t k = 0; k < n; k++) {
		const kv_migest *e = &a->est[rows[k].vmi];

		if (rows[k].action != DRAIN_MIGRATE || !e->present)
			continue;
		d->at_risk += e->outcome == MIG_AT_RISK;
		d->will_abort += e->outcome == MIG_WILL_ABORT;
		d->unknown += e->outcome == MIG_UNKNOWN;
	}
}

void
kv_drain_fill(const kv_analysis *a, kv_drain *d, kv_drain_row *rows,
    size_t n)
{
	kv_drain_rows_sort(a, rows, n);
	d->plan = rows;
	d->nplan = n;
	d->blocking = xcalloc(n + 1, sizeof(char *));
	for (size_t k = 0; k < n; k++) {
		const kv_vmires *r = &a->vmis[rows[k].vmi];

		d->vmis++;
		if (rows[k].action == DRAIN_MIGRATE) {
			d->migrate++;
			d->memory = kv_sat_addmul(d->memory, r->memory, 1);
		} else if (rows[k].action == DRAIN_BLOCK) {
			d->block++;
			d->blocking[d->nblocking++] = r->vmi->fullname;
			if (rows[k].reason != NULL &&
			    strcmp(rows[k].reason, "no-capacity") == 0)
				d->no_capacity++;
		} else if (rows[k].action == DRAIN_SHUTDOWN) {
			d->shutdown++;
			d->restart += rows[k].restart;
			d->restart_unknown += rows[k].restart_unknown;
		} else
			d->external++;
	}
	drain_time(a, d, rows, n);
}

void
kv_drain_by_node(const kv_analysis *a, size_t **firstp, size_t **orderp)
{
	const kv_model *m = a->m;
	size_t *first = xcalloc(m->nnodes + 2, sizeof(size_t));
	size_t *fill = xcalloc(m->nnodes + 1, sizeof(size_t));
	size_t *order = xcalloc(a->nvmis + 1, sizeof(size_t));
	size_t *node = xcalloc(a->nvmis + 1, sizeof(size_t));

	/* counting sort keeps each node's VMIs in name order */
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_node *n = kv_model_node(m, a->vmis[i].vmi->node);

		node[i] = n != NULL && a->vmis[i].verdict != V_NOT_RUNNING &&
		    a->vmis[i].on_drain != DRAIN_NONE ?
		    (size_t)(n - m->nodes) : SIZE_MAX;
		if (node[i] != SIZE_MAX)
			first[node[i] + 1]++;
	}
	for (size_t i = 1; i <= m->nnodes; i++)
		first[i] += first[i - 1];
	first[m->nnodes + 1] = first[m->nnodes];
	for (size_t i = 0; i < a->nvmis; i++)
		if (node[i] != SIZE_MAX)
			order[first[node[i]] + fill[node[i]]++] = i;
	free(fill);
	free(node);
	*firstp = first;
	*orderp = order;
}

static void
drain_free(kv_drain *d)
{
	free(d->blocking);
	free(d->plan);
}

/* findings "vmis[].restarts": what the drain of its node alone does. */
static void
vmi_restarts(kv_analysis *a, const kv_drain *d)
{
	for (size_t k = 0; k < d->nplan; k++) {
		const kv_drain_row *row = &d->plan[k];
		kv_vmires *r = &a->vmis[row->vmi];

		if (row->action != DRAIN_SHUTDOWN)
			continue;
		r->restarts = row->restart_unknown ? -1 : row->restart;
		r->restart_node = row->restart_node;
		r->restart_why = row->restart_why;
	}
}

#define DRAIN_RUN 32		/* nodes in a row one thread drains */

typedef struct draining {
	kv_analysis *a;
	const size_t *first, *order;
	const size_t *slot;		/* node -> its a->drain entry */
	kv_drain_ctx c[2];		/* each part's */
} draining;

/* The drains of a run of nodes (runs.h), each alone: a part's own room
 * (undone after each node), the node's entry and its VMIs' restarts. */
static void
drain_run(void *arg, int part, size_t from, size_t to)
{
	draining *x = arg;
	kv_drain_ctx *c = &x->c[part];

	for (size_t ni = from; ni < to; ni++) {
		size_t n = x->first[ni + 1] - x->first[ni];
		kv_drain_row *rows;
		kv_drain *d;

		if (n == 0 || x->slot[ni] == SIZE_MAX)
			continue;
		d = &x->a->drain[x->slot[ni]];
		d->node = ni;
		rows = xcalloc(n, sizeof(*rows));
		kv_bits_set(&c->out, ni);
		kv_drain_place(c, x->order + x->first[ni], n, rows);
		kv_bits_clear(&c->out, ni);
		if (c->room != NULL)
			kv_drain_undo(c, 0);
		kv_drain_fill(x->a, d, rows, n);
		vmi_restarts(x->a, d);
	}
}

/* Whether node ni's VMIs (order[first[ni] .. first[ni + 1])) include one
 * the drain stops. */
static bool
holds_stop(const kv_analysis *a, const size_t *first, const size_t *order,
    size_t ni)
{
	for (size_t k = first[ni]; k < first[ni + 1]; k++)
		if (a->vmis[order[k]].on_drain == DRAIN_SHUTDOWN)
			return true;
	return false;
}

/* Each node alone, from the snapshot's room, the nodes in
 * kv_analysis_parts parts; with stops, only the nodes holding a VMI the
 * drain stops (a node's drain is its own: the others' change nothing
 * in it). */
static void
drain_each(kv_analysis *a, bool stops)
{
	const kv_model *m = a->m;
	size_t *first, *order, *slot;
	draining x = { .a = a };
	int parts = kv_analysis_parts(a);

	for (size_t i = 0; i < a->ndrain; i++)
		drain_free(&a->drain[i]);
	free(a->drain);
	a->ndrain = 0;
	kv_drain_by_node(a, &first, &order);
	a->drain = xcalloc(m->nnodes + 1, sizeof(kv_drain));
	slot = xcalloc(m->nnodes + 1, sizeof(size_t));
	for (size_t ni = 0; ni < m->nnodes; ni++)
		slot[ni] = first[ni + 1] > first[ni] &&
		    (!stops || holds_stop(a, first, order, ni)) ?
		    a->ndrain++ : SIZE_MAX;
	if (a->ndrain == 0)
		goto done;	/* a copy's VMIs of which none stops */
	x.first = first;
	x.order = order;
	x.slot = slot;
	for (int p = 0; p < parts; p++)
		kv_drain_ctx_init(&x.c[p], a);
	kv_runs(m->nnodes, DRAIN_RUN, parts, drain_run, &x);
	for (int p = 0; p < parts; p++)
		kv_drain_ctx_free(&x.c[p]);
done:
	free(slot);
	free(first);
	free(order);
}

/* What findings.json says: every node's drain. */
void
kv_drain_analyze(kv_analysis *a)
{
	drain_each(a, false);
}

void
kv_drain_stops(kv_analysis *a)
{
	drain_each(a, true);
}

kv_drain *
kv_drain_nodes(const kv_analysis *a, const kv_bits *nodes, size_t *np,
    double secs[2])
{
	size_t *first, *order, nd = 0, nall = 0;
	kv_drain *out = xcalloc(kv_bits_count(nodes) + 1, sizeof(kv_drain));
	kv_drain_row *all = xcalloc(a->nvmis + 1, sizeof(kv_drain_row));
	kv_drain_ctx c;

	kv_drain_by_node(a, &first, &order);
	kv_drain_ctx_init(&c, a);
	kv_bits_copy(&c.out, nodes);
	KV_BITS_FOREACH(nodes, ni) {
		size_t n = first[ni + 1] - first[ni];
		kv_drain_row *rows = xcalloc(n + 1, sizeof(*rows));
		kv_drain *d = &out[nd++];

		d->node = ni;
		kv_drain_place(&c, order + first[ni], n, rows);
		kv_drain_fill(a, d, rows, n);
		memcpy(all + nall, rows, n * sizeof(*rows));
		nall += n;
	}
	kv_drain_schedule(a, all, nall, NULL, NULL, secs);
	*np = nd;
	kv_drain_ctx_free(&c);
	free(all);
	free(first);
	free(order);
	return out;
}

void
kv_drain_list_free(kv_drain *d, size_t n)
{
	for (size_t i = 0; d != NULL && i < n; i++)
		drain_free(&d[i]);
	free(d);
}

bool
kv_window_fails(const kv_drain *d, size_t n, const double secs[2],
    double window)
{
	if (window > 0 && secs[1] > window)
		return true;
	for (size_t i = 0; i < n; i++)
		if (d[i].will_abort > 0)
			return true;
	return false;
}

bool
kv_drain_fails(const kv_drain *d, size_t n, enum kv_allow allow)
{
	for (size_t i = 0; i < n; i++) {
		size_t stops = allow == ALLOW_SHUTDOWN ? 0 :
		    allow == ALLOW_RESTART ? d[i].shutdown - d[i].restart :
		    d[i].shutdown;

		if (d[i].block > 0 || stops > 0)
			return true;
	}
	return false;
}
