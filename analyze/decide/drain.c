/*
 * drain.c - what `kubectl drain` of each node would do (findings.md
 * "drain"), what draining a set of nodes together does (`check --drain`),
 * with a time estimate for the VMIs that migrate (drain.h).
 *
 * Estimate: the VMIs that migrate leave in parallel lanes (min of the
 * per-node limit times the nodes drained and the per-cluster limit); each
 * takes its memory over the per-migration bandwidth (the configured one,
 * or an assumed 10 Gbit/s link per node shared by its lanes when the
 * setting is unlimited) plus a fixed 10 s to start the target pod.
 * Longest-first onto the least loaded lane.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"

#define SETUP_SECONDS 10.0

static int
mem_desc(const void *x, const void *y)
{
	int64_t p = *(const int64_t *)x, q = *(const int64_t *)y;

	return p > q ? -1 : p < q;
}

int64_t
kv_drain_estimate(const kv_config *cfg, int64_t *mem, size_t n,
    size_t nsources)
{
	int64_t per = cfg->parallel_node, lanes;
	double link = (double)cfg->assumed_mibps, rate, *load, worst = 0;

	/* DVP syncs one migration at a time per source node */
	if (cfg->sync_per_node > 0 && cfg->sync_per_node < per)
		per = cfg->sync_per_node;
	if (per < 1)
		per = 1;
	if (nsources < 1)
		nsources = 1;
	lanes = per * (int64_t)nsources;
	if (cfg->parallel_cluster < lanes)
		lanes = cfg->parallel_cluster;
	if (n == 0)
		return 0;
	if (lanes < 1)
		lanes = 1;
	rate = link / (double)(lanes < per ? lanes : per);
	if (cfg->bandwidth_mibps > 0 && (double)cfg->bandwidth_mibps < rate)
		rate = (double)cfg->bandwidth_mibps;
	kv_qsort(mem, n, sizeof(int64_t), mem_desc);
	load = xcalloc((size_t)lanes, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		size_t best = 0;

		for (size_t l = 1; l < (size_t)lanes; l++)
			if (load[l] < load[best])
				best = l;
		load[best] += SETUP_SECONDS +
		    (double)mem[i] / (1024.0 * 1024.0) / rate;
	}
	for (size_t l = 0; l < (size_t)lanes; l++)
		if (load[l] > worst)
			worst = load[l];
	free(load);
	return (int64_t)(worst + 0.999999);
}

void
kv_drain_fill(const kv_analysis *a, kv_drain *d, kv_drain_row *rows,
    size_t n)
{
	int64_t *mem = xcalloc(n + 1, sizeof(int64_t));
	size_t nmem = 0;

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
			mem[nmem++] = r->memory;
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
	d->seconds = kv_drain_estimate(&a->cfg, mem, nmem, 1);
	free(mem);
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

/* Each node alone, from the snapshot's room: what findings.json says. */
void
kv_drain_analyze(kv_analysis *a)
{
	const kv_model *m = a->m;
	size_t *first, *order;
	kv_drain_ctx c;

	for (size_t i = 0; i < a->ndrain; i++)
		drain_free(&a->drain[i]);
	free(a->drain);
	a->ndrain = 0;
	kv_drain_by_node(a, &first, &order);
	kv_drain_ctx_init(&c, a);
	a->drain = xcalloc(m->nnodes + 1, sizeof(kv_drain));
	for (size_t ni = 0; ni < m->nnodes; ni++) {
		size_t n = first[ni + 1] - first[ni];
		kv_drain_row *rows;
		kv_drain *d;

		if (n == 0)
			continue;
		d = &a->drain[a->ndrain++];
		d->node = ni;
		rows = xcalloc(n, sizeof(*rows));
		kv_bits_set(&c.out, ni);
		kv_drain_place(&c, order + first[ni], n, rows);
		kv_bits_clear(&c.out, ni);
		if (c.room != NULL)
			kv_drain_undo(&c, 0);
		kv_drain_fill(a, d, rows, n);
		vmi_restarts(a, d);
	}
	kv_drain_ctx_free(&c);
	free(first);
	free(order);
}

kv_drain *
kv_drain_nodes(const kv_analysis *a, const kv_bits *nodes, size_t *np,
    int64_t *seconds)
{
	size_t *first, *order, nd = 0, nmem = 0, nsrc = 0;
	kv_drain *out = xcalloc(kv_bits_count(nodes) + 1, sizeof(kv_drain));
	int64_t *mem = xcalloc(a->nvmis + 1, sizeof(int64_t));
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
		for (size_t k = 0; k < n; k++)
			if (rows[k].action == DRAIN_MIGRATE)
				mem[nmem++] = a->vmis[rows[k].vmi].memory;
		nsrc += d->migrate > 0;
	}
	*seconds = kv_drain_estimate(&a->cfg, mem, nmem, nsrc);
	*np = nd;
	kv_drain_ctx_free(&c);
	free(mem);
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
