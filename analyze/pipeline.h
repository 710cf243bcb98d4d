/*
 * pipeline.h - the analysis of a loaded model, phase after phase.
 *
 * kv_analyze() applies the rules to a loaded model and fills a
 * kv_analysis (analyze/rules/analysis.h), the single source every writer
 * draws from.  The analysis borrows the model (which must outlive it) and
 * owns everything else; kv_analysis_free() releases it (NULL is fine).
 * On failure (a limit exceeded) *out is NULL and err says why.
 *
 * kv_analyze_verdicts() is kv_analyze() without its last phase, the
 * groups and their fixes: every VMI's verdict, blockers, estimate and
 * drain, for an analysis read VMI by VMI (the fix proof,
 * change/fixproof.h; a VMI's codes are then kv_vmires_in_code's,
 * decide/groups.h).  Its drains are only those of the nodes whose VMIs a
 * drain stops, which give those VMIs' restarts (kv_drain_stops): what a
 * VMI's drain answer reads; a->drain is not every node's.  With
 * nodes_of, an analysis of a model with the same nodes, pods,
 * configuration and CPU map, its node phases are borrowed, not run
 * again (kv_cpu_borrow, rules/analysis.h): nodes_of must outlive *out.
 */
#ifndef KV_PIPELINE_H
#define KV_PIPELINE_H

#include "analyze/rules/analysis.h"

int kv_analyze(const kv_model *m, kv_analysis **out, kv_err *err);
int kv_analyze_verdicts(const kv_model *m, const kv_analysis *nodes_of,
    kv_analysis **out, kv_err *err);
/* Only the phases up to every VMI's verdict, blockers and targets: no
 * migration estimate, no drains, no summary, no groups (crosscheck,
 * which asks nothing else). */
int kv_analyze_targets(const kv_model *m, kv_analysis **out,
    kv_err *err);
void kv_analysis_free(kv_analysis *a);

#endif
