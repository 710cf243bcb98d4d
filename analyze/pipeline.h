/*
 * pipeline.h - the analysis of a loaded model, phase after phase.
 *
 * kv_analyze() applies the rules to a loaded model and fills a
 * kv_analysis (analyze/rules/analysis.h), the single source every writer
 * draws from.  The analysis borrows the model (which must outlive it) and
 * owns everything else; kv_analysis_free() releases it (NULL is fine).
 * On failure (a limit exceeded) *out is NULL and err says why.
 */
#ifndef KV_PIPELINE_H
#define KV_PIPELINE_H

#include "analyze/rules/analysis.h"

int kv_analyze(const kv_model *m, kv_analysis **out, kv_err *err);
void kv_analysis_free(kv_analysis *a);

#endif
