/*
 * dvp.h - the Deckhouse Virtualization Platform layer
 * (docs/rules.md), reached by the core only through
 * its flavor row (kv_flavor_deckhouse, dvp/flavor.c).
 *
 * dvp/load.c turns DVP's own objects (VirtualMachine, VirtualMachineClass,
 * VirtualDisk, VirtualMachineOperation, VirtualMachineBlockDeviceAttachment)
 * into the compact structs of model.h, sorts and indexes them, and fills in
 * the domain CPU of a KVVMI that lacks one from its VM's class (§6.1).  The
 * pure DVP rules that more than one module needs (class CPU mapping, VMOP
 * states and name prefixes, liveMigrationPolicy against force) live here
 * too, so that the analysis, the tests and the writers share one copy.
 */
#ifndef KV_DVP_H
#define KV_DVP_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/model/model.h"
#include "analyze/dvp/dvp_model.h"

struct kv_analysis;
struct kv_vmires;

/* --- the flavor's hooks (dvp/flavor.c names them in its row) ---------- */

/* The loaders of DVP's resources, by their resources.def names. */
extern const kv_loader_ref kv_dvp_loaders[];
/* After the last member: sort, index, and derive the CPU of KVVMIs
 * without spec.domain.cpu.model from their class. */
int kv_dvp_load_finish(kv_model *m, kv_err *err);
void kv_dvp_model_free(kv_model *m);
/* The effective DVP settings (§5), after KubeVirt's defaults. */
void kv_dvp_config(struct kv_analysis *a);
/* One VMI's DVP facts (r->dvp), before its verdict. */
void kv_dvp_vmi(struct kv_analysis *a, struct kv_vmires *r);
/* The flavor's stopped_vms hook (stopped.c): each stopped DVP VM as a
 * Halted kv_vm with the VMI its start would create, for crosscheck. */
void kv_dvp_stopped_vms(kv_model *m);
/* The flavor's cross_reasons hook (cross.c): the VM's
 * VirtualMachineClass on TARGET, with a node for its CPU. */
struct kv_xvm;
void kv_dvp_cross_reasons(const kv_model *src, const kv_model *tgt,
    const kv_vmi *v, struct kv_xvm *vm);
/* The flavor's restarts hook: the VM's runPolicy (policy.c). */
enum kv_restart kv_dvp_restarts(const struct kv_model *m,
    const struct kv_vmires *r, const char **why);
void kv_dvp_result_free(struct kv_vmires *r);
/* The what-if hook: whether VMI ns/name has a VirtualMachine, whose class
 * sets its CPU. */
/* The first VirtualMachineClass (by name) of type Model whose
 * spec.cpu.model is model, or NULL (kv_fixrow.model_class). */
const char *kv_dvp_model_class(const kv_model *m, const char *model);
bool kv_dvp_cpu_by_class(const kv_model *m, const char *ns,
    const char *name);
/* The VirtualMachineClass whose spec.nodeSelector gives VMI v key=value
 * (kv_fixrow.selector_owner). */
const char *kv_dvp_selector_owner(const kv_model *m, const kv_vmi *v,
    const char *key, const char *value);
/* The what-if hook of --class-cpu (kv_fixrow.class_cpu). */
bool kv_dvp_set_class_cpu(kv_model *m, const char *name, const char *model,
    const char **type, bool *hit);
/* The fix operation-done's hooks (kv_fixrow.finish_ops, own_ops,
 * free_ops). */
size_t kv_dvp_finish_ops(kv_model *m, const char *ns, const char *name,
    const char *subject);
void *kv_dvp_own_ops(kv_model *m);
void kv_dvp_free_ops(void *owned);
/* "VirtualDisk x, " for a volume whose claim is a VirtualDisk's. */
void kv_dvp_describe_volume(const kv_model *m, const char *ns,
    const kv_volume *vol, kv_buf *b);

/* --- checks (dvp/checks.c; rows of the rule table) ----------------------- */

struct rule_ctx;
struct kv_rule;
void kv_dvp_check_vmop_in_progress(struct rule_ctx *c,
    const struct kv_rule *r);
void kv_dvp_check_policy_force(struct rule_ctx *c, const struct kv_rule *r);
void kv_dvp_check_vmop_not_applicable(struct rule_ctx *c,
    const struct kv_rule *r);
void kv_dvp_check_vm_not_migratable(struct rule_ctx *c,
    const struct kv_rule *r);
void kv_dvp_check_disks_should_migrate(struct rule_ctx *c,
    const struct kv_rule *r);
void kv_dvp_check_bda_pending(struct rule_ctx *c, const struct kv_rule *r);

/* --- lookups ----------------------------------------------------------- */

const kv_dvm *kv_dvp_vm(const kv_model *m, const char *ns, const char *name);
const kv_dclass *kv_dvp_class(const kv_model *m, const char *name);
/* The VirtualDisk whose PVC is claim in namespace ns, or NULL. */
const kv_vdisk *kv_dvp_disk_by_claim(const kv_model *m, const char *ns,
    const char *claim);
/* The VMOPs of VM ns/vm, oldest first: *first and the count. */
size_t kv_dvp_vmops(const kv_model *m, const char *ns, const char *vm,
    const kv_vmop **first);
size_t kv_dvp_vmbdas(const kv_model *m, const char *ns, const char *vm,
    const kv_vmbda **first);
/* The KVVM ns/name (internalvirtualizationvirtualmachines), or NULL. */
const kv_kvvm *kv_dvp_kvvm(const kv_model *m, const char *ns,
    const char *name);

/* --- rules --------------------------------------------------------------- */

/* §6.1: the domain CPU DVP gives a VM of class c.  *model is interned
 * (host-model, host-passthrough, the class model, or qemu64); *feats is
 * allocated (caller frees) with require/optional policies.  false when
 * the class has no known CPU type (nothing is set). */
bool kv_dvp_class_cpu(kv_intern *strs, const kv_dclass *c,
    const char **model, kv_cpufeat **feats, size_t *nfeats);

/* §4.1: Completed, Failed or Superseded. */
bool kv_vmop_finished(const kv_vmop *op);
/* Migrate or Evict. */
bool kv_vmop_is_migration(const kv_vmop *op);

/* §2, §4.7: who created an Evict VMOP, from its name prefix. */
typedef struct kv_vmop_origin {
	const char *prefix;		/* "evacuation-" */
	const char *what;	/* "node drain or load redistribution" */
} kv_vmop_origin;
/* The system origin of op, or NULL for an operation a user created. */
const kv_vmop_origin *kv_vmop_system_origin(const kv_vmop *op);

/* §4.3 step 9: the effective liveMigrationPolicy (PreferSafe when the VM
 * sets none) and whether force conflicts with it (AlwaysSafe with
 * force=true, AlwaysForced with force=false).  force: -1 unset, 0, 1. */
const char *kv_dvp_policy(const kv_dvm *vm);
bool kv_dvp_policy_conflict(const char *policy, int force);
/* Whether a migration under policy and force uses AutoConverge. */
bool kv_dvp_autoconverge(const char *policy, int force);

#endif
