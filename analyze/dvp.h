/*
 * dvp.h - the Deckhouse Virtualization Platform side of the model
 * (../shared/spec/rules-deckhouse.md).
 *
 * load_dvp.c turns DVP's own objects (VirtualMachine, VirtualMachineClass,
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

#include "model.h"

struct jctx;
struct json_t;

/* --- loading (load.c calls these from its loader table) --------------- */

typedef struct dvp_loadcap {
	size_t vms, classes, disks, vmops, vmbdas;
} dvp_loadcap;

int kv_dvp_load_vm(kv_model *m, dvp_loadcap *cap, struct jctx *c,
    struct json_t *o);
int kv_dvp_load_class(kv_model *m, dvp_loadcap *cap, struct jctx *c,
    struct json_t *o);
int kv_dvp_load_disk(kv_model *m, dvp_loadcap *cap, struct jctx *c,
    struct json_t *o);
int kv_dvp_load_vmop(kv_model *m, dvp_loadcap *cap, struct jctx *c,
    struct json_t *o);
int kv_dvp_load_vmbda(kv_model *m, dvp_loadcap *cap, struct jctx *c,
    struct json_t *o);
/* After the last member: sort, index, check duplicate names, and derive
 * the CPU of KVVMIs without spec.domain.cpu.model from their class. */
int kv_dvp_finish(kv_model *m, kv_err *err);
void kv_dvp_free(kv_dvp *d);

/* Metadata reader shared with load.c (name required, namespace when
 * namespaced). */
int kv_load_meta(struct jctx *c, struct json_t *o, const char **name,
    const char **ns, bool namespaced);

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
	const char *what;		/* "node drain or load redistribution" */
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
