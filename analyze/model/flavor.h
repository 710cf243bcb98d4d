/*
 * flavor.h - what differs between the platforms kvscope reads.
 *
 * A flavor is one row: its name in the manifest, the label domain and key
 * prefixes its KubeVirt uses, the facts of its KubeVirt version that the
 * target search needs, the words a report uses for its objects, and hooks
 * for what it adds: object loaders, the end of loading, its configuration
 * defaults and the facts of one VMI.  The core (loader, analysis, writers)
 * reaches a flavor only through its row; it never asks which flavor it is.
 * kv_flavors lists the rows (flavor.c); the plain KubeVirt row is first and
 * is the default.  A flavor's own code lives in its folder (analyze/dvp/).
 *
 * Adding a flavor: one enum value below, one row (in its folder, named in
 * kv_flavors) with its kv_fixrow (the paths, words and fix rules of the
 * groups, fixes and what-if), and in each rule row whose words or
 * condition reasons differ, its entry of kv_rule.words / kv_rule.reasons
 * (ruletable.c).  What its vmi hook finds for one VMI reaches the core
 * and the writers as kv_vmifacts (analysis.h).
 *
 * Rows are static and never freed.
 */
#ifndef KV_FLAVOR_H
#define KV_FLAVOR_H

#include <stdbool.h>
#include <stddef.h>

struct kv_analysis;
struct kv_buf;
struct kv_err;
struct kv_load;
struct kv_model;
struct kv_vmi;
struct kv_vmires;
struct kv_xvm;
struct kv_volume;
struct jctx;
struct json_t;

enum kv_flavor_id {
	KV_FLAVOR_KUBEVIRT, KV_FLAVOR_DECKHOUSE, KV_FLAVOR_HARVESTER,
	KV_FLAVOR_OPENSHIFT, KV_NFLAVORS
};

/* The flavor's words for its objects (render's kv_word). */
typedef struct kv_vocab {
	const char *vm, *vms;		/* "VMI", "VMIs" */
	const char *condition;		/* "LiveMigratable" */
	const char *migration;		/* "VirtualMachineInstanceMigration" */
	const char *policy;		/* "MigrationPolicy" */
	const char *cpu;		/* "CPU model" */
	const char *config;		/* "KubeVirt CR" */
	const char *defaults;		/* a setting the config leaves
					   unset: "the KubeVirt default as
					   the KubeVirt CR sets none" */
	const char *product;		/* "KubeVirt" */
	/* drains (`check --drain`, `plan`) */
	const char *drain_by;		/* who acts when a node is drained */
	const char *drain_by_pdb;	/* the same before v1.6 (its
					   PodDisruptionBudgets), or NULL */
	const char *strategy;		/* the setting that decides it */
	const char *target_wait;	/* a target pod that never schedules */
	/* the trade-off note of a flavor whose targets need no CPU vendor
	 * (vendor_selector false), or NULL */
	const char *no_vendor_note;
	/* after the lanes of a drain step cut to sync_per_node, or NULL */
	const char *sync_note;
	/* `explain`: what acts on a drain (NULL: "drain"), and after the
	 * verdict whose question it answers, or NULL (Harvester: "the
	 * Migrate action's answer", its drains are kubectl drain's) */
	const char *drain_act;
	const char *verdict_note;
} kv_vocab;

/* What a VMI's VirtualMachine does once a drain stopped the VMI (the
 * restarts hook; findings "vmis[].restarts" false, true, null). */
enum kv_restart {
	RESTART_NO,		/* it stays down */
	RESTART_YES,		/* the VM starts it again */
	RESTART_UNKNOWN,	/* no VM in an input that lacks the VMs */
	RESTART_COUNT
};
extern const char *const kv_restart_names[RESTART_COUNT];

/* What a resource the snapshot lacked leaves unjudged. */
typedef struct kv_lack_note {
	const char *resource, *group, *consequence;
} kv_lack_note;

/* The loader of one object of a resource (resources.def's loader column,
 * bound by name). */
typedef int (*kv_object_fn)(struct kv_load *ld, struct jctx *c,
    struct json_t *o);
typedef struct kv_loader_ref {
	const char *name;		/* "load_dvm" */
	kv_object_fn fn;
} kv_loader_ref;

/* Label and annotation keys the loader reads in every flavor's spelling
 * (kv_flavor_label). */
enum kv_key {
	KEY_LAUNCHER,		/* kubevirt.io=virt-launcher */
	KEY_CREATED_BY,		/* kubevirt.io/created-by */
	KEY_JOB_UID,		/* kubevirt.io/migrationJobUID */
	KEY_SKIP_NODE,		/* node-labeller.kubevirt.io/skip-node */
	KEY_POD_BRIDGE,		/* kubevirt.io/allow-pod-bridge-network-... */
	KEY_UNSCHED_TIMEOUT,	/* kubevirt.io/migrationUnschedulable... */
	KEY_PENDING_TIMEOUT,	/* kubevirt.io/migrationPendingPod... */
	KEY_COUNT
};

/* Where a fix writes in the flavor's VirtualMachine (kv_fixrow.paths). */
enum kv_vm_path {
	VMPATH_POD,		/* the pod part: "spec.template.spec" */
	VMPATH_NODE_SELECTOR,	/* its nodeSelector */
	VMPATH_AFFINITY,	/* its affinity */
	VMPATH_TOLERATIONS,	/* its tolerations */
	VMPATH_EVICTION,	/* its evictionStrategy */
	VMPATH_CPU_MODEL,	/* the guest CPU model */
	VMPATH_COUNT
};

/* The decision layer's part of a row (groups and fixes, what-if): the
 * paths, words and fix rules that differ by flavor.  A NULL text falls
 * back to the KubeVirt rule named beside it. */
typedef struct kv_fixrow {
	const char *paths[VMPATH_COUNT];
	const char *migrate_cli;	/* "virtctl migrate" */
	/* a fix's commands for one VM (kv_group_patch): printf formats of
	 * (name, namespace, merge patch) and of (name, namespace) */
	const char *patch_cli;		/* "kubectl patch vm %s -n %s ..." */
	const char *restart_cli;	/* "virtctl restart %s -n %s" */
	const char *kernel_note;	/* after "targets run another kernel
					   than the source's", or "" */
	/* a disk that is not ReadWriteMany (fix_storage.c) */
	const char *rwx_copy;		/* the live way out when no class
					   gives RWX, or "" */
	const char *rwx_clone;		/* cloned into: "DataVolume" */
	const char *rwx_after;		/* what follows the new claims */
	const char *cpu_object;		/* the object that sets a VM's CPU
					   when the VM names one
					   (kv_vmifacts.cpu_object), or NULL */
	/* the CPU-model fix: printf format of (examples, model), or NULL
	 * for "Set PATH to MODEL in the VirtualMachines" (fix_cpu.c) */
	const char *cpu_fix;
	/* the name of a class of the snapshot that gives a VM the CPU
	 * model, for the merge patch that names it (class_patch, a printf
	 * format of the class), or NULL: none does, or the VM itself sets
	 * its model (VMPATH_CPU_MODEL) */
	const char *(*model_class)(const struct kv_model *m,
	    const char *model);
	const char *class_patch;	/* {"spec":{"...ClassName":"%s"}} */
	/* a drain that waits on VMIs that cannot migrate: printf format of
	 * (blocking groups, nodes), or NULL for the evictionStrategy fix
	 * (fix_drain.c) */
	const char *drain_block_fix;
	/* the what-if --cpu-model of a VMI whose CPU its VM's class sets
	 * (the class is replaced, its features go), or NULL: none does */
	bool (*cpu_by_class)(const struct kv_model *m, const char *ns,
	    const char *name);
	/* the what-if --class-cpu NAME=MODEL: class name's CPU set to model
	 * (*type: its new type, "Model", "Host" or "HostPassthrough", its
	 * features dropped) and every VMI of it given the class's CPU again,
	 * marked in hit (one per VMI of m); false when m holds no such
	 * class; NULL: the flavor has no classes */
	bool (*class_cpu)(struct kv_model *m, const char *name,
	    const char *model, const char **type, bool *hit);
	/* what-if --cpu-model's note on the VMIs cpu_by_class holds for:
	 * printf format of (count, plural "s" or "", model), or NULL */
	const char *cpu_by_class_note;
	/* --class-cpu naming no class: printf format of the name */
	const char *class_cpu_missing;
	/* the fix operation-done: the unfinished operations of VM ns/name
	 * whose "TYPE PHASE" is subject finished (phase Completed), their
	 * count; NULL: the flavor has no operations */
	size_t (*finish_ops)(struct kv_model *m, const char *ns,
	    const char *name, const char *subject);
	/* m, a shallow copy of another model, given its own copy of what
	 * finish_ops writes into; what free_ops takes afterwards */
	void *(*own_ops)(struct kv_model *m);
	void (*free_ops)(void *owned);
	/* the flavor's object that puts node selector key=value on VMI v
	 * (not the VM's own nodeSelector), in words interned in m, or NULL;
	 * NULL: the flavor has none */
	const char *(*selector_owner)(const struct kv_model *m,
	    const struct kv_vmi *v, const char *key, const char *value);
} kv_fixrow;

/* KubeVirt's own (analyze/flavor.c): the row of a distribution that
 * writes KubeVirt's objects (Harvester) names it too. */
extern const kv_fixrow kv_fixrow_kubevirt;

/* KubeVirt's own spellings and words, shared initializers of its row
 * (flavor.c) and of a distribution that runs it unchanged (Harvester,
 * OpenShift Virtualization):
 * the label domain and keys of a kv_flavor, the words of a kv_vocab but
 * product and drain_by*, and the fixed messages of a kv_flavor. */
#define KV_KUBEVIRT_LABELS \
	.label_domain = "node.kubevirt.io", \
	.kv_prefix = "kubevirt.io/", \
	.obsolete_key = "node-labeller.kubevirt.io/obsolete-host-model", \
	.keys = { \
		[KEY_LAUNCHER] = "kubevirt.io", \
		[KEY_CREATED_BY] = "kubevirt.io/created-by", \
		[KEY_JOB_UID] = "kubevirt.io/migrationJobUID", \
		[KEY_SKIP_NODE] = "node-labeller.kubevirt.io/skip-node", \
		[KEY_POD_BRIDGE] = "kubevirt.io/" \
		    "allow-pod-bridge-network-live-migration", \
		[KEY_UNSCHED_TIMEOUT] = "kubevirt.io/" \
		    "migrationUnschedulablePodTimeoutSeconds", \
		[KEY_PENDING_TIMEOUT] = "kubevirt.io/" \
		    "migrationPendingPodTimeoutSeconds", \
	}
#define KV_KUBEVIRT_WORDS \
	.vm = "VMI", \
	.vms = "VMIs", \
	.condition = "LiveMigratable", \
	.migration = "VirtualMachineInstanceMigration", \
	.policy = "MigrationPolicy", \
	.cpu = "CPU model", \
	.config = "KubeVirt CR", \
	.defaults = "the KubeVirt default as the KubeVirt CR sets none", \
	.strategy = "evictionStrategy", \
	.target_wait = "a migration whose target pod does not schedule " \
	    "fails after the unschedulable timeout and the evacuation " \
	    "tries again"
#define KV_KUBEVIRT_NOTES \
	.no_config = "no KubeVirt CR in the snapshot; KubeVirt defaults " \
	    "assumed", \
	.rwo_note = "", \
	.migvol_why = "volume migration"

typedef struct kv_flavor {
	enum kv_flavor_id id;
	const char *name;		/* manifest cluster.flavor */
	const char *short_name;		/* "Deckhouse", for the inference
					   note */
	const char *api_suffix;		/* its own API groups end so, or NULL */
	const char *const *foreign_groups; /* NULL-terminated: groups of the
					   other flavors that it lacks */
	const char *served_group;	/* the API group whose every resource
					   an input of it holds (a foreign
					   archive lacks what it misses), or
					   NULL */

	/* labels and KubeVirt facts */
	const char *label_domain;	/* "node.kubevirt.io" */
	const char *kv_prefix;		/* "kubevirt.io/" */
	const char *obsolete_key;	/* the obsolete-host-model label key */
	const char *keys[KEY_COUNT];	/* its spelling of each enum kv_key */
	bool vendor_selector;		/* targets need the source's vendor */
	const char *const *unlabelled_models; /* NULL-terminated: named
					   models that get no cpu-model label */

	/* words */
	const kv_vocab *vocab;
	const char *no_config;		/* snapshot warning: no config object */
	const char *rwo_note;		/* disk-not-shared message suffix */
	const char *migvol_why;		/* block migration: volume migration */
	const kv_lack_note *lack_notes;	/* its resources; NULL-terminated */
	const kv_fixrow *fix;		/* the decision layer's part */

	/* loading (the loaders of every flavor are registered: the flavor is
	 * known only after the last member) */
	const kv_loader_ref *loaders;	/* NULL-terminated, or NULL */
	int (*load_finish)(struct kv_model *m, struct kv_err *err);
	void (*model_free)(struct kv_model *m);

	/* analysis */
	void (*config)(struct kv_analysis *a);	/* after the defaults */
	void (*vmi)(struct kv_analysis *a, struct kv_vmires *r);
	/* whether the VMI's VirtualMachine starts it again after a drain
	 * evicted its pod; *why: the setting that decides, in words
	 * ("runStrategy Always", "no VirtualMachine"); RESTART_UNKNOWN
	 * when the VMI has no VM and the input lacks the VMs
	 * ("VirtualMachines not in the input") */
	enum kv_restart (*restarts)(const struct kv_model *m,
	    const struct kv_vmires *r, const char **why);
	/* release what vmi added to r (called for every flavor) */
	void (*result_free)(struct kv_vmires *r);
	/* crosscheck (SOURCE): a kv_vm of run Halted with its `stopped`
	 * VMI (the VMI a start would create) added to m->vms, sorted
	 * again, for each of the flavor's own VMs that is stopped and has
	 * no KubeVirt VirtualMachine in m (DVP's); NULL: none */
	void (*stopped_vms)(struct kv_model *m);
	/* crosscheck: the reasons a move of VMI v of src (a SOURCE of this
	 * flavor) to tgt has in the flavor's own objects, each added to
	 * xvm with kv_xvm_add (analyze/crosscheck/crosscheck.h) and a row
	 * of the flavor's (DVP: the VirtualMachineClass on TARGET); NULL:
	 * none */
	void (*cross_reasons)(const struct kv_model *src,
	    const struct kv_model *tgt, const struct kv_vmi *v,
	    struct kv_xvm *xvm);
	/* a volume's own name in messages ("VirtualDisk x, "), or nothing */
	void (*describe_volume)(const struct kv_model *m, const char *ns,
	    const struct kv_volume *vol, struct kv_buf *b);

	/* a distribution of another flavor's KubeVirt (Harvester: plain
	 * KubeVirt's): the manifest names that one (base), its condition
	 * reasons are base's, and detect() tells it from base by its
	 * objects after loading; NULL for a flavor of its own */
	const struct kv_flavor *base;
	bool (*detect)(const struct kv_model *m);
} kv_flavor;

extern const kv_flavor *const kv_flavors[KV_NFLAVORS];
/* The flavor of an input whose manifest names none and that holds no
 * other flavor's own files (flavor.c: plain KubeVirt). */
extern const kv_flavor *const kv_flavor_default;
extern const kv_flavor kv_flavor_kubevirt;	/* flavor.c */
extern const kv_flavor kv_flavor_deckhouse;	/* dvp/flavor.c */
extern const kv_flavor kv_flavor_harvester;	/* harvester/flavor.c */
extern const kv_flavor kv_flavor_openshift;	/* openshift/flavor.c */

/* The row named name, or NULL. */
const kv_flavor *kv_flavor_find(const char *name);
/* Whether group belongs to another flavor (its resources are absent as a
 * rule in a snapshot of f). */
bool kv_flavor_foreign_group(const kv_flavor *f, const char *group);
/* Whether f's API groups include group (group ends with api_suffix). */
bool kv_flavor_owns_group(const kv_flavor *f, const char *group);
/* Whether a named model gets no cpu-model label under f. */
bool kv_flavor_unlabelled_model(const kv_flavor *f, const char *model);
/* The kubevirt flavor's restarts hook (decide/restart.c), which the
 * rows of flavor.c and harvester/flavor.c name. */
enum kv_restart kv_restart_kubevirt(const struct kv_model *m,
    const struct kv_vmires *r, const char **why);
/* The hooks' "unknown" reason for a VMI without a VM when the input
 * lacks the VMs (resource, group), or NULL when it has them. */
const char *kv_restart_lack(const struct kv_model *m, const char *resource,
    const char *group);

#endif
