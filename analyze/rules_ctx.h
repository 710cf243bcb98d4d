/*
 * rules_ctx.h - what a rule's check function sees (private to vmi.c and
 * rules.c).
 */
#ifndef KV_RULES_CTX_H
#define KV_RULES_CTX_H

#include "analysis.h"
#include "target.h"

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

/* Whether volume vol is copied by a block migration (rules §3.3). */
bool kv_volume_is_local(const kv_vmi *v, const kv_volume *vol);

/* "BlockMigration" or "LiveMigration", as virt-handler sets it. */
const char *kv_migration_method(const rule_ctx *c);

#endif
