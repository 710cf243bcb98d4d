/*
 * rules.h - the table of migration checks.
 *
 * Every blocker and warning code of ../shared/spec/findings.md is one row:
 * its code, whether it blocks, which verdict it leads to, a title, the
 * remediation shown in reports and `kvscope explain`, and the function that
 * checks one VMI.  A new check is a new row (tmux's command table, Polaris'
 * checks); the glossary, the tests and the writers all walk this table.
 *
 * Check functions run in two phases: phase 1 sees the VMI, its source node
 * and pod, and the targets; phase 2 also sees the verdict (drain rules).
 * A check reports through rule_emit(); the rule context owns the issues.
 */
#ifndef KV_RULES_H
#define KV_RULES_H

#include <stdbool.h>
#include <stddef.h>

struct kv_rule;
struct rule_ctx;

typedef void (*rule_check_fn)(struct rule_ctx *ctx, const struct kv_rule *r);

enum kv_severity { SEV_BLOCKER, SEV_WARNING };

typedef struct kv_rule {
	const char *code;
	enum kv_severity severity;
	int verdict;			/* enum kv_verdict, blockers only */
	int phase;			/* 1 or 2 */
	const char *title;
	const char *remediation;
	rule_check_fn check;
} kv_rule;

extern const kv_rule kv_rules[];
extern const size_t kv_nrules;

const kv_rule *kv_rule_find(const char *code);

/* Called by a check: record an issue of rule r for the VMI in ctx. */
void rule_emit(struct rule_ctx *ctx, const kv_rule *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
