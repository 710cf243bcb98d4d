/*
 * pipeline.c - kv_analyze() and kv_analysis_free() (pipeline.h): the
 * phases in their order, in one place.  Each phase lives in its layer:
 * configuration, warnings and summary in analyze/rules/analysis.c, the
 * CPU engine (rules/cpu.c), capacity (rules/capacity.c), the verdicts
 * (rules/vmi.c), the drains (decide/drain.c), the groups and their fixes
 * (decide/groups.c).  This file calls down into all of them; none of
 * them calls up into it.
 */
#include "analyze/pipeline.h"

#include <stdlib.h>

#include <glib.h>

#include "analyze/decide/groups.h"
#include "analyze/estimate/estimate.h"
#include "analyze/model/index.h"
#include "analyze/rules/capacity.h"
#include "analyze/rules/place.h"
#include "analyze/rules/podaffinity.h"
#include "analyze/rules/target.h"

/* How far analyze_upto goes. */
enum upto {
	UPTO_TARGETS,	/* the VMIs' verdicts (kv_analyze_targets) */
	UPTO_STOPS,	/* the estimates, the drains of the nodes whose VMIs a
			 * drain stops, the summary (kv_analyze_verdicts) */
	UPTO_DRAINS	/* the estimates, every node's drain, the summary
			 * (kv_analyze) */
};

/* The phases up to upto. */
static int
analyze_upto(const kv_model *m, const kv_analysis *nodes_of,
    enum upto upto, kv_analysis **out, kv_err *err)
{
	kv_analysis *a = xcalloc(1, sizeof(*a));

	a->m = m;
	a->messages = g_string_chunk_new(64 * 1024);
	a->db = m->cpumap != NULL ? m->cpumap : cpudb_builtin();
	a->cpu_model_source = m->cpumap != NULL ? "snapshot" : "builtin";
	kv_effective_config(a);
	kv_lacking_analyze(a);
	kv_snapshot_warnings(a);
	kv_version_warnings(a);
	kv_podaff_warnings(a);
	a->nodes = xcalloc(m->nnodes + 1, sizeof(kv_nodeinfo));
	if (nodes_of != NULL)
		kv_cpu_borrow(a, nodes_of);	/* a->lender */
	else {
		a->index = kv_index_build(m);
		kv_timing("index");
		if (kv_cpu_analyze(a, err) != KV_OK) {
			kv_analysis_free(a);
			*out = NULL;
			return KV_ERR;
		}
		kv_capacity_build(a);
	}
	kv_timing("cpu");
	kv_vmis_analyze(a);
	kv_timing("vmis");
	*out = a;
	if (upto == UPTO_TARGETS)
		return KV_OK;
	kv_estimate_analyze(a);
	kv_estimate_warnings(a);
	kv_timing("estimate");
	if (upto == UPTO_DRAINS)
		kv_drain_analyze(a);
	else
		kv_drain_stops(a);
	kv_summarize(a);
	kv_timing("drain");
	return KV_OK;
}

int
kv_analyze_verdicts(const kv_model *m, const kv_analysis *nodes_of,
    kv_analysis **out, kv_err *err)
{
	return analyze_upto(m, nodes_of, UPTO_STOPS, out, err);
}

int
kv_analyze_targets(const kv_model *m, kv_analysis **out, kv_err *err)
{
	return analyze_upto(m, NULL, UPTO_TARGETS, out, err);
}

int
kv_analyze(const kv_model *m, kv_analysis **out, kv_err *err)
{
	kv_analysis *a;

	if (analyze_upto(m, NULL, UPTO_DRAINS, &a, err) != KV_OK) {
		*out = NULL;
		return KV_ERR;
	}
	kv_groups_analyze(a);
	a->summary.groups = a->ngroups;
	kv_timing("groups");
	*out = a;
	return KV_OK;
}

static void
free_facts(kv_vmifacts *f)
{
	free(f->ops);
	for (size_t k = 0; k < f->nnotes; k++)
		free(f->notes[k]);
	free(f->notes);
}

/* What the node phases made (kv_cpu_borrow lends it). */
static void
free_nodes(kv_analysis *a)
{
	for (size_t i = 0; i < a->nclasses; i++) {
		free(a->classes[i].nodes);
		free(a->classes[i].req);
	}
	free(a->classes);
	for (size_t i = 0; i < a->npairs; i++)
		free(a->pairs[i].missing);
	free(a->pairs);
	for (size_t i = 0; i < a->nnamed; i++)
		free(a->named[i].nodes);
	free(a->named);
	for (size_t i = 0; i < a->nscopes; i++) {
		free(a->scopes[i].name);
		kv_bits_free(&a->scopes[i].nodes);
		free(a->scopes[i].common);
		free(a->scopes[i].best);
	}
	free(a->scopes);
	for (size_t i = 0; i < a->ntradeoff; i++) {
		free(a->tradeoff[i].excluded);
		free(a->tradeoff[i].models);
	}
	free(a->tradeoff);
	kv_index_free(a->index);
}

void
kv_analysis_free(kv_analysis *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; i < a->nwarnings; i++)
		free(a->warnings[i]);
	free(a->warnings);
	for (size_t i = 0; i < a->ncoded; i++)
		free(a->coded[i].message);
	free(a->coded);
	if (a->messages != NULL)
		g_string_chunk_free(a->messages);
	for (size_t i = 0; i < NEED_COUNT; i++)
		free(a->lack_msg[i]);
	free(a->cfg.obsolete);
	free(a->nodes);
	if (!a->borrowed)
		free_nodes(a);
	kv_groups_free(a);
	for (size_t i = 0; i < a->nvmis; i++) {
		kv_vmires *r = &a->vmis[i];

		free(r->blockers);	/* messages: a->messages' */
		free(r->warnings);
		for (size_t t = 0; t < r->extra_affinity.nterms; t++)
			free(r->extra_affinity.terms[t].reqs);
		free(r->extra_affinity.terms);
		free(r->cpu_targets.excl);
		free(r->targets.excl);
		free(r->start_targets.excl);
		free(r->migvols);
		free_facts(&r->facts);
		for (size_t f = 0; f < KV_NFLAVORS; f++)
			if (kv_flavors[f]->result_free != NULL)
				kv_flavors[f]->result_free(r);
	}
	free(a->vmis);
	kv_estimate_free(a);
	for (size_t i = 0; i < a->ndrain; i++) {
		free(a->drain[i].blocking);
		free(a->drain[i].plan);
	}
	free(a->drain);
	if (a->place != NULL)
		kv_podaff_free_all(a->place);
	kv_place_free(a->place);
	free(a);
}
