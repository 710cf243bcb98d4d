/*
 * dvp_model.h - the Deckhouse Virtualization Platform's types: its objects
 * in the model (kv_model.dvp) and what it adds to a VMI's result
 * (kv_vmires.dvp).  The core holds both through pointers to these
 * structs, declared but not defined there; only dvp/ (through dvp.h, which
 * includes this header) reads them.
 */
#ifndef KV_DVP_MODEL_H
#define KV_DVP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/model/labels.h"

/*
 * Deckhouse Virtualization Platform objects (rules-deckhouse.md §7), loaded
 * only when the snapshot has them.  The KubeVirt objects of a DVP cluster
 * (InternalVirtualization*) go to the KubeVirt structs above.
 */
typedef struct kv_dvm {		/* VirtualMachine */
	const char *ns, *name;
	const char *class_name;		/* spec.virtualMachineClassName */
	const char *policy;		/* spec.liveMigrationPolicy or NULL */
	const char *run_policy;		/* spec.runPolicy or NULL */
	const char *os_type;		/* spec.osType or NULL */
	const char *phase;		/* status.phase or "" */
	const char *node;		/* status.nodeName or NULL */
	char migratable;		/* 'T', 'F', or 0 when absent */
	const char *migratable_reason, *migratable_message;
	char migrating;			/* Migrating condition, same */
	const char *migrating_reason;
	size_t ndisks;
	const char **disks;		/* VirtualDisk names, blockDeviceRefs */
	int64_t memory;			/* spec.memory.size, bytes; -1 */
	int64_t cores;			/* spec.cpu.cores; -1 */
	kv_labels labels;		/* metadata.labels */
} kv_dvm;

typedef struct kv_dclass {	/* VirtualMachineClass */
	const char *name;
	const char *cpu_type;		/* Host HostPassthrough Discovery Model
					   Features, or NULL */
	const char *model;		/* spec.cpu.model */
	size_t nfeatures;
	const char **features;		/* spec.cpu.features */
	size_t nenabled;
	const char **enabled;		/* status.cpuFeatures.enabled */
	bool enabled_set;		/* status.cpuFeatures.enabled present */
	size_t navailable;
	const char **available;		/* status.availableNodes */
	bool available_set;
	kv_labels node_selector;	/* spec.nodeSelector.matchLabels */
	const char *phase;
} kv_dclass;

typedef struct kv_vdisk {	/* VirtualDisk */
	const char *ns, *name;
	const char *claim;		/* status.target.
					   persistentVolumeClaimName */
	const char *storage_class;	/* status.storageClassName */
	const char *want_class;		/* spec.persistentVolumeClaim.
					   storageClassName */
	const char *phase;
} kv_vdisk;

typedef struct kv_vmop {	/* VirtualMachineOperation */
	const char *ns, *name;
	const char *type;		/* Migrate Evict Restart Start ... */
	const char *vm;			/* spec.virtualMachineName */
	int force;			/* -1 unset, 0 false, 1 true */
	const char *phase;		/* status.phase or "" */
	const char *reason;		/* Completed condition reason or NULL */
	const char *created;		/* creationTimestamp or "" */
	bool deleting;			/* deletionTimestamp set */
	bool target_node;		/* spec.migrate.nodeSelector set */
	kv_labels node_selector;	/* spec.migrate.nodeSelector */
} kv_vmop;

typedef struct kv_vmbda {	/* VirtualMachineBlockDeviceAttachment */
	const char *ns, *name;
	const char *vm;			/* spec.virtualMachineName */
	const char *kind, *ref;		/* spec.blockDeviceRef */
	const char *phase;		/* status.phase or "" */
	const char *reason;		/* Attached condition reason or NULL */
} kv_vmbda;

typedef struct kv_kvvm {	/* InternalVirtualizationVirtualMachine */
	const char *ns, *name;
	bool has_terms;			/* the annotation below is set */
	kv_affinity terms;		/* virtualization.deckhouse.io/
					   migration-node-affinity-terms */
} kv_kvvm;

typedef struct kv_dvp {
	size_t nvms;
	kv_dvm *vms;			/* sorted by namespace, name */
	size_t nclasses;
	kv_dclass *classes;		/* sorted by name */
	size_t ndisks;
	kv_vdisk *disks;		/* sorted by namespace, name */
	size_t nby_claim;
	const kv_vdisk **by_claim;	/* with a PVC, by namespace, claim */
	size_t nvmops;
	kv_vmop *vmops;			/* by namespace, VM, created, name */
	size_t nvmbdas;
	kv_vmbda *vmbdas;		/* by namespace, VM, name */
	size_t nkvvms;
	kv_kvvm *kvvms;			/* sorted by namespace, name */
} kv_dvp;

/* What DVP adds to a VMI's result (flavor deckhouse; zero otherwise).  The
 * report names the VM, its class and CPU type, the Migratable condition
 * (kv_vmires.cond), the operations and attachments in progress. */
typedef struct kv_dvpres {
	bool present;			/* flavor deckhouse */
	const kv_dvm *vm;		/* the VirtualMachine, or NULL */
	const kv_dclass *cls;		/* its VirtualMachineClass, or NULL */
	const char *cpu_type;		/* class spec.cpu.type, or NULL */
	const char *policy;		/* effective liveMigrationPolicy */
	bool policy_default;		/* the VM sets none: PreferSafe */
	bool volume_migration;		/* RWO VirtualDisks move with it */
	size_t nops;
	const kv_vmop **ops;		/* unfinished VMOPs, oldest first */
	size_t nbdas;
	const kv_vmbda **bdas;		/* attachments not Attached/Failed */
	/* the target pod's node affinity when disks migrate (§3.3, §10
	 * step 4): from the KVVM's migration-node-affinity-terms, or the
	 * VMI's without its pins to the source node (owned) */
	const char *pins;		/* "annotation" | "dropped" | NULL */
	kv_affinity affinity;
} kv_dvpres;

#endif
