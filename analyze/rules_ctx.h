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
/* Whether a PVC or DataVolume volume's claim is known and not
 * ReadWriteMany (from the VMI's volumeStatus, else the PVC object). */
bool kv_claim_not_shared(const kv_model *m, const kv_vmi *v,
    const kv_volume *vol);
/* DVP: after phase 1, a Migratable=False condition of the VirtualMachine
 * that no check of ours explained (rules.c). */
void kv_dvp_fallback(rule_ctx *c);
/* DVP: a blocker about one operation, not the VM: a drain still moves
 * the VM once the operation has ended (rules.c). */
bool kv_rule_operation_scoped(const kv_rule *r);
/* DVP: whether vol belongs to a VirtualDisk that moves by volume
 * migration (dvp_analysis.c). */
bool kv_dvp_volume_migrates(const kv_vmires *r, const kv_volume *vol);

/* "BlockMigration" or "LiveMigration", as virt-handler sets it. */
const char *kv_migration_method(const rule_ctx *c);

#endif
