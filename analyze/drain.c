/*
 * drain.c - what `kubectl drain` of each node would do (findings.md
 * "drain"), with a time estimate for the VMIs that migrate.
 *
 * Estimate: the VMIs that migrate leave in parallel lanes (min of the
 * per-node and per-cluster limits); each takes its memory over the
 * per-migration bandwidth (the configured one, or an assumed 10 Gbit/s
 * link shared by the lanes when the setting is unlimited) plus a fixed
 * 10 s to start the target pod.  Longest-first onto the least loaded lane.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define SETUP_SECONDS 10.0

static int
mem_desc(const void *x, const void *y)
{
	int64_t p = *(const int64_t *)x, q = *(const int64_t *)y;

	return p > q ? -1 : p < q;
}

static int64_t
estimate(const kv_config *cfg, int64_t *mem, size_t n)
{
	int64_t lanes = cfg->parallel_node < cfg->parallel_cluster ?
	    cfg->parallel_node : cfg->parallel_cluster;

	/* DVP syncs one migration at a time per source node */
	if (cfg->sync_per_node > 0 && cfg->sync_per_node < lanes)
		lanes = cfg->sync_per_node;
	double link = (double)cfg->assumed_mibps, rate, *load, worst = 0;

	if (n == 0)
		return 0;
	if (lanes < 1)
		lanes = 1;
	rate = link / (double)lanes;
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
kv_drain_analyze(kv_analysis *a)
{
	const kv_model *m = a->m;
	size_t *first = xcalloc(m->nnodes + 1, sizeof(size_t));
	size_t *count = xcalloc(m->nnodes + 1, sizeof(size_t));
	size_t *order = xcalloc(a->nvmis + 1, sizeof(size_t));
	int64_t *mem = xcalloc(a->nvmis + 1, sizeof(int64_t));

	/* VMIs by node: counting sort keeps them in name order */
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_node *n = kv_model_node(m, a->vmis[i].vmi->node);

		if (n != NULL && a->vmis[i].verdict != V_NOT_RUNNING)
			count[n - m->nodes]++;
	}
	for (size_t i = 1; i <= m->nnodes; i++)
		first[i] = first[i - 1] + count[i - 1];
	memset(count, 0, (m->nnodes + 1) * sizeof(size_t));
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_node *n = kv_model_node(m, a->vmis[i].vmi->node);
		size_t ni;

		if (n == NULL || a->vmis[i].verdict == V_NOT_RUNNING)
			continue;
		ni = (size_t)(n - m->nodes);
		order[first[ni] + count[ni]++] = i;
	}
	a->drain = xcalloc(m->nnodes + 1, sizeof(kv_drain));
	for (size_t ni = 0; ni < m->nnodes; ni++) {
		kv_drain *d;
		size_t nmem = 0;

		if (count[ni] == 0)
			continue;
		d = &a->drain[a->ndrain++];
		d->node = ni;
		d->blocking = xcalloc(count[ni] + 1, sizeof(char *));
		for (size_t k = 0; k < count[ni]; k++) {
			const kv_vmires *r = &a->vmis[order[first[ni] + k]];

			d->vmis++;
			if (r->on_drain == DRAIN_MIGRATE) {
				d->migrate++;
				d->memory += r->memory;
				mem[nmem++] = r->memory;
			} else if (r->on_drain == DRAIN_BLOCK) {
				d->block++;
				d->blocking[d->nblocking++] = r->vmi->fullname;
			} else if (r->on_drain == DRAIN_SHUTDOWN)
				d->shutdown++;
			else
				d->external++;
		}
		d->seconds = estimate(&a->cfg, mem, nmem);
	}
	free(first);
	free(count);
	free(order);
	free(mem);
}
