/*
 * rule_ctx.h - what a rule's check function sees and how it reports
 * (private to the verdict step, vmi.c, and the check modules: checks.c,
 * dvp/checks.c).
 */
#ifndef KV_RULE_CTX_H
#define KV_RULE_CTX_H

#include "analyze/rules/analysis.h"
#include "analyze/rules/target.h"

typedef struct rule_ctx {
	const kv_analysis *a;
	const kv_model *m;
	const kv_vmi *v;
	kv_vmires *r;
	const kv_node *src;		/* source node, or NULL */
	const kv_place *place;
	kv_target_info ti;
	size_t cap_blockers, cap_warnings;
} rule_ctx;

/* Record an issue of rule r for the VMI in ctx (rule.c). */
void rule_emit(rule_ctx *ctx, const kv_rule *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Whether the VMI already has a blocker of rule r. */
bool rule_has(const rule_ctx *ctx, const kv_rule *r);
/* Whether one of the VMI's blockers leads to verdict blocked. */
bool rule_any_blocked(const rule_ctx *ctx);

#endif
