/*
 * dvp/checks.c - the check functions of the Deckhouse rules
 * (rules-deckhouse.md §3-§4): operations and attachments in progress,
 * liveMigrationPolicy against force, VM state, volume migration, and a
 * Migratable=False condition no other check explained.  Each is the
 * check of one row of the rule table (ruletable.c).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/dvp/dvp.h"
#include "analyze/rules/rule_ctx.h"
#include "analyze/rules/storage.h"

/* The VMI's DVP facts; none when the flavor is another (the rows run for
 * every VMI and find nothing then). */
static const kv_dvpres *
res(const rule_ctx *c)
{
	static const kv_dvpres none;

	return c->r->dvp != NULL ? c->r->dvp : &none;
}

/* "Migrate", or "Evict by the system: node drain or ..." */
static void
describe_vmop(const kv_vmop *op, kv_buf *b)
{
	const kv_vmop_origin *o = kv_vmop_system_origin(op);

	kv_buf_printf(b, "VirtualMachineOperation %s (%s", op->name, op->type);
	if (o != NULL)
		kv_buf_printf(b, ", created by DVP for a %s", o->what);
	kv_buf_printf(b, ", phase %s", *op->phase ? op->phase : "not set");
	if (op->reason != NULL && *op->reason != '\0')
		kv_buf_printf(b, ", reason %s", op->reason);
	kv_buf_printf(b, ")");
}

static bool
policy_conflict(const rule_ctx *c, const kv_vmop *op)
{
	return kv_vmop_is_migration(op) &&
	    kv_dvp_policy_conflict(res(c)->policy, op->force);
}

/* §4.2 step 3, §4.3 step 6: a new Migrate/Evict supersedes nothing. */
void
kv_dvp_check_vmop_in_progress(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < res(c)->nops; i++) {
		const kv_vmop *op = res(c)->ops[i];
		kv_buf b = {0};

		if (policy_conflict(c, op))
			continue;	/* live-migration-policy-force */
		describe_vmop(op, &b);
		rule_emit(c, r, "%s is unfinished: a new Migrate or Evict "
		    "operation for this VirtualMachine is rejected until it "
		    "ends (\"Previously created operation should finish "
		    "first\")", b.data);
		kv_buf_free(&b);
	}
}

/* §4.3 step 9 */
void
kv_dvp_check_policy_force(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < res(c)->nops; i++) {
		const kv_vmop *op = res(c)->ops[i];
		kv_buf b = {0};

		if (!policy_conflict(c, op))
			continue;
		describe_vmop(op, &b);
		rule_emit(c, r, "%s sets force=%s, which liveMigrationPolicy "
		    "%s does not allow: it fails with "
		    "NotApplicableForLiveMigrationPolicy", b.data,
		    op->force == 1 ? "true" : "false", res(c)->policy);
		kv_buf_free(&b);
	}
}

/* §4.3 step 7 */
void
kv_dvp_check_vmop_not_applicable(rule_ctx *c, const kv_rule *r)
{
	const kv_dvm *vm = res(c)->vm;

	if (vm == NULL)
		return;
	if (vm->run_policy != NULL && strcmp(vm->run_policy, "AlwaysOff") == 0)
		rule_emit(c, r, "runPolicy AlwaysOff: DVP fails a Migrate or "
		    "Evict operation with "
		    "NotApplicableForVirtualMachineRunPolicy");
	if (*vm->phase != '\0' && strcmp(vm->phase, "Running") != 0)
		rule_emit(c, r, "the VirtualMachine is in phase %s, not "
		    "Running: DVP fails a Migrate or Evict operation with "
		    "NotApplicableForVirtualMachinePhase%s", vm->phase,
		    strcmp(vm->phase, "Migrating") == 0 ? " until the "
		    "current migration ends" : "");
}

void
kv_dvp_check_disks_should_migrate(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->r->nmigvols; i++) {
		const kv_volume *vol = c->r->migvols[i];
		const char *modes;
		kv_buf b = {0};

		kv_claim_state(c->m, c->v, vol, &modes);
		kv_dvp_describe_volume(c->m, c->v->ns, vol, &b);
		kv_buf_printf(&b, "PVC %s is %s", vol->claim, modes);
		kv_describe_claim(c->m, c->v->ns, vol->claim, &b);
		rule_emit(c, r, "volume %s: %s; DVP copies it to a new volume "
		    "on the target node (volume migration): the storage "
		    "class must provision there, and the completion timeout "
		    "no longer bounds the migration%s", vol->name, b.data,
		    res(c)->pins == NULL ? "" :
		    strcmp(res(c)->pins, "annotation") == 0 ? "; the target "
		    "pod takes the KVVM's migration-node-affinity-terms, "
		    "without the volume's node pin" : "; its pin to the "
		    "source node no longer holds the target");
		kv_buf_free(&b);
	}
}

/* §2 and §4.8 ([IDX]): a migration waits for a sent attach/detach. */
void
kv_dvp_check_bda_pending(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < res(c)->nbdas; i++) {
		const kv_vmbda *b = res(c)->bdas[i];

		rule_emit(c, r, "VirtualMachineBlockDeviceAttachment %s (%s "
		    "%s) is %s%s%s: a migration waits for it "
		    "(WaitingForBlockDeviceAttachment) and fails if it does "
		    "not finish within 5 minutes", b->name, b->kind ? b->kind :
		    "device", b->ref ? b->ref : "?", *b->phase ? b->phase :
		    "not processed yet", b->reason ? ", reason " : "",
		    b->reason ? b->reason : "");
	}
}

/* §3.2: after the stored LiveMigratable condition, a Migratable=False
 * condition of the VirtualMachine that no check of ours explained; the
 * rule whose DVP reasons name it, else this one. */
void
kv_dvp_check_vm_not_migratable(rule_ctx *c, const kv_rule *r)
{
	const char *why = c->r->cond_reason;
	const kv_rule *named;

	if (res(c)->vm == NULL || c->r->cond != 'F' || rule_any_blocked(c))
		return;
	named = kv_rule_by_reason(KV_FLAVOR_DECKHOUSE, why);
	rule_emit(c, named ? named : r, "DVP reports Migratable=False "
	    "(%s)%s%s: a Migrate or Evict operation fails at once (\"Virtual"
	    "Machine is not migratable, cannot be processed\")",
	    why ? why : "no reason", c->r->cond_message ? ": " : "",
	    c->r->cond_message ? c->r->cond_message : "");
}
