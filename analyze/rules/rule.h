/*
 * rule.h - a migration check is one row of the rule table (ruletable.c) plus
 * one check function.
 *
 * Every blocker and warning code of docs/findings.md is one row:
 * its code, whether it blocks, which verdict it leads to, when it runs,
 * its flags, the resources it needs, the condition reasons it explains
 * (per flavor: KubeVirt's LiveMigratable, DVP's Migratable), its title
 * and remediation in each flavor's words, the function that checks one
 * VMI, and how VMIs with the code are grouped and fixed (groups.h).
 * Nothing else lists codes: the verdict step, the glossary, the tests
 * and the writers all walk this table (tmux's command table, git's builtins).
 *
 * Check functions run in three phases: PHASE_TARGETS sees the VMI, its
 * source node and pod, and the targets; PHASE_CONDITION runs after the
 * stored condition has been weighed (a check that explains a condition no
 * other check did); PHASE_DRAIN also sees the verdict (drain rules);
 * PHASE_ESTIMATE runs after the migration estimate, on VMIs of verdict
 * ok, and reads a->est (analyze/estimate/warn.c).  A
 * check reports through rule_emit() (rule_ctx.h); the VMI's result owns
 * the issues.
 */
#ifndef KV_RULE_H
#define KV_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/model/flavor.h"
#include "analyze/model/need.h"

struct kv_rule;
struct rule_ctx;
struct kv_grouping;

typedef void (*rule_check_fn)(struct rule_ctx *ctx, const struct kv_rule *r);

enum kv_severity { SEV_BLOCKER, SEV_WARNING };

enum kv_rule_phase { PHASE_TARGETS = 1, PHASE_CONDITION, PHASE_DRAIN,
	PHASE_ESTIMATE };

enum kv_rule_flag {
	/* a blocker about one operation, not the VM: a drain still moves
	 * the VM once the operation has ended (DVP) */
	RULE_OPERATION_SCOPED = 1u << 0,
	/* the condition reasons it explains are no rejection when the
	 * volumes move by volume migration and the check itself is quiet */
	RULE_VOLUME_MIGRATION = 1u << 1,
	/* a warning every VMI of a kind carries: reports say it once per
	 * cluster, not in every row */
	RULE_ONCE_PER_CLUSTER = 1u << 2,
	/* a blocker of a distribution's own migrate action (Harvester's
	 * Migrate): the verdict is that action's answer, but a drain's
	 * evacuation never asks it, so a drain still moves the VM */
	RULE_ACTION_SCOPED = 1u << 3,
	/* its check, or the targets it judges, follows rows of the version
	 * table (versions.c): a version older than the oldest row leaves it
	 * unjudged (resource kubevirt-version, notjudged.c) */
	RULE_BY_VERSION = 1u << 4,
};

#define KV_RULE_REASONS 3
#define KV_ONLY(flavor) (1u << (flavor))

typedef struct kv_rule_words {
	const char *title, *remediation;	/* NULL: the KubeVirt words */
} kv_rule_words;

typedef struct kv_rule {
	const char *code;
	enum kv_severity severity;
	int verdict;			/* enum kv_verdict, blockers only */
	enum kv_rule_phase phase;
	unsigned flags;			/* enum kv_rule_flag */
	/* the resources its check reads (KV_NEED_BIT of need.h): a VMI
	 * the check applies to is not judged when the input lacks one */
	unsigned needs;
	/* per bit of needs, when the check reads it for a VMI (enum
	 * kv_need_when; WHEN_ALWAYS unless set) */
	unsigned char when[NEED_COUNT];
	/* the flavor's condition reasons this code names, NULL-padded */
	const char *reasons[KV_NFLAVORS][KV_RULE_REASONS];
	kv_rule_words words[KV_NFLAVORS];	/* [KV_FLAVOR_KUBEVIRT] set */
	rule_check_fn check;
	/* the flavors it runs in, KV_ONLY(id) or'ed; 0: every flavor */
	unsigned only;
	/* blockers: the fact a group of this code is about and its fix
	 * (groups.h); NULL groups by code alone */
	const struct kv_grouping *grouping;
} kv_rule;

extern const kv_rule kv_rules[];
extern const size_t kv_nrules;

const kv_rule *kv_rule_find(const char *code);
/* The rule that names condition reason why of flavor f, or NULL. */
const kv_rule *kv_rule_by_reason(enum kv_flavor_id f, const char *why);
/* Whether rule r names reason why of flavor f. */
bool kv_rule_explains(const kv_rule *r, enum kv_flavor_id f,
    const char *why);
/* Whether rule r runs in flavor f (its only field). */
bool kv_rule_applies(const kv_rule *r, enum kv_flavor_id f);
/* The title and remediation in flavor f's words. */
void kv_rule_words_of(const kv_rule *r, const kv_flavor *f,
    const char **title, const char **remediation);

#endif
