/*
 * groups.h - the view a person acts on (findings.md "groups"): VMIs that
 * one change would help, each group one code and the one fact that,
 * changed, removes it, with the fix that names the exact change.
 *
 * Which fact a code is about is a column of its rule row (rule.h
 * `grouping`): a kv_grouping says the subject kind, how to read the
 * subject off one VMI (key) and how to describe a group and find its fix
 * (resolve).  The drain behaviours (drain-shutdown, drain-block) and a
 * stored condition no rule explains are the only groups without a row.
 *
 * kv_groups_analyze() runs last in kv_analyze (after the verdicts and the
 * drain plan): it fills a->groups (sorted by size, code, subject name;
 * ids G1, G2, ...) and every VMI's groups[] (indexes, sorted).  The
 * analysis owns all of it; kv_groups_free() releases it.
 *
 * A set-cpu-model fix is checked by re-analysis: the target search runs
 * again for each VMI of the group with the proposed model written in, and
 * `fixes` counts the VMIs that then have a target (fix.checked).
 */
#ifndef KV_GROUPS_H
#define KV_GROUPS_H

#include "analyze/rules/analysis.h"

enum kv_subject {
	SUBJ_CPU_CLASS, SUBJ_CPU_MODEL, SUBJ_NODE, SUBJ_STORAGE_CLASS,
	SUBJ_CLAIM, SUBJ_BINDING, SUBJ_DEVICE, SUBJ_IMAGE, SUBJ_PLACEMENT,
	SUBJ_EVICTION, SUBJ_OPERATION, SUBJ_CONDITION, SUBJ_MIGRATION_POLICY,
	SUBJ_COUNT
};
extern const char *const kv_subject_names[SUBJ_COUNT];

enum kv_fix_action {
	FIX_SET_CPU_MODEL, FIX_RECREATE_CLAIM_RWX, FIX_CHANGE_BINDING,
	FIX_REPULL_IMAGE, FIX_RELABEL_NODE, FIX_SET_EVICTION,
	FIX_RELAX_PLACEMENT, FIX_FREE_CAPACITY, FIX_WAIT_OPERATION,
	FIX_SET_MIGRATION_POLICY, FIX_NONE,
	FIX_COUNT
};
extern const char *const kv_fix_names[FIX_COUNT];

/* What the guest keeps with a set-cpu-model fix (findings "effect"). */
typedef struct kv_fix_effect {
	bool set;
	size_t nodes, of;		/* KubeVirt nodes of the vendor */
	int level;			/* -1 = unknown */
	bool avx2, avx512f;
} kv_fix_effect;

/*
 * One change of a relax-placement or free-capacity fix (relax.c): what
 * the group's VMIs fail on their CPU-compatible nodes, as the edit that
 * removes it.  Strings are the model's (interned).
 */
enum kv_step_kind {
	STEP_DROP_SELECTOR,	/* the VMs' nodeSelector loses key */
	STEP_DROP_ADDED,	/* migration `by` asks for key=value:
				 * migrate again without it */
	STEP_DROP_AFFINITY,	/* required node affinity loses key */
	STEP_DROP_EMPTY,	/* ... its empty nodeSelectorTerm */
	STEP_TOLERATE,		/* a toleration of key:effect added */
	STEP_POD_AFFINITY,	/* required pod affinity made preferred */
	STEP_POD_ANTI,		/* required pod anti-affinity, the same */
	STEP_SPREAD,		/* DoNotSchedule spreads: ScheduleAnyway */
	STEP_UNCORDON,		/* node uncordoned */
	STEP_FREE_ROOM,		/* amount freed on node */
	STEP_COUNT
};

typedef struct kv_step {
	enum kv_step_kind kind;
	const char *key, *value, *effect, *by;
	size_t node;			/* the node it lets the VMs go to (the
					 * one uncordoned, or freed) */
	kv_res amount;			/* STEP_FREE_ROOM */
	bool whole;			/* STEP_DROP_AFFINITY, _EMPTY: the
					 * whole required node affinity goes
					 * (a term would be left empty, or
					 * every term is) */
} kv_step;

typedef struct kv_fix {
	enum kv_fix_action action;
	char *value;			/* NULL = null */
	const char *path;		/* NULL = null; static text */
	bool restart;
	size_t fixes;			/* VMIs of the group it helps */
	bool checked;			/* fixes found by re-analysis */
	/* set by the proof (analyze/change/fixproof.h): fixes and worse
	 * are the after-state's of the fix applied; false: kvscope cannot
	 * apply it (fixes is then its own reading) */
	bool proven;
	size_t worse;			/* VMIs the applied fix makes worse */
	kv_fix_effect effect;
	char *text;
	/* the VMIs the fix is for, by index in the group's vmis (the text
	 * gives the others other advice); NULL: all of them */
	bool *pick;
	/* relax-placement, free-capacity: the edits the text names, in
	 * order (owned); why: what no edit of kvscope's removes, or NULL */
	size_t nsteps;
	kv_step *steps;
	char *stuck;
} kv_fix;

typedef struct kv_group {
	char id[24];			/* "G1" */
	const char *code;
	const kv_rule *rule;		/* NULL for the non-rule codes */
	enum kv_verdict verdict;
	/* a drain group's onDrain (DRAIN_SHUTDOWN, DRAIN_BLOCK), else
	 * DRAIN_NONE */
	enum kv_on_drain drain;
	enum kv_subject kind;
	char *name;
	size_t nvmis;
	size_t *vmis;			/* indexes into a->vmis, sorted */
	size_t nnamespaces;
	const char **namespaces;	/* sorted */
	size_t nnodes;
	size_t *nodes;			/* source nodes, sorted by name */
	char *summary;
	kv_fix fix;
} kv_group;

/* Collects the subjects of one VMI for one code (a kv_grouping's key). */
typedef struct kv_gkeys kv_gkeys;
/* The subject kind of the names added next (default: the grouping's). */
void kv_gkey_kind(kv_gkeys *k, enum kv_subject kind);
void kv_gkey_add(kv_gkeys *k, const char *name);
void kv_gkey_addf(kv_gkeys *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* How the groups of one code are formed and fixed: a rule row's column. */
typedef struct kv_grouping {
	enum kv_subject subject;
	/* the subject(s) of r's blocker of rule `rule` */
	void (*key)(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
	    const kv_rule *rule);
	/* g->summary and g->fix */
	void (*resolve)(const kv_analysis *a, kv_group *g);
} kv_grouping;

/* The groupings the rule rows point at (fixes.c, fix_cpu.c,
 * fix_storage.c). */
extern const kv_grouping kv_grp_cpu, kv_grp_claim_rwx, kv_grp_claim_unknown,
    kv_grp_pod_bridge, kv_grp_binding, kv_grp_hostdisk, kv_grp_device,
    kv_grp_launch_security, kv_grp_tsc, kv_grp_hyperv, kv_grp_placement,
    kv_grp_host_model_label, kv_grp_image_config, kv_grp_image_none,
    kv_grp_operation, kv_grp_force, kv_grp_condition, kv_grp_source_node,
    kv_grp_capacity, kv_grp_migration;

void kv_groups_analyze(kv_analysis *a);
/* The edits that would let g's VMIs pass the placement constraints and
 * room of their CPU-compatible nodes (relax.c): g->fix.steps, .stuck. */
void kv_relax_plan(const kv_analysis *a, kv_group *g);
/* Those edits in words, "; "-joined, for a fix text (caller frees). */
char *kv_relax_words(const kv_analysis *a, const kv_group *g);
/* The name of the MigrationPolicy g's set-migration-policy fix creates,
 * "kvscope-g4", into buf (n bytes; fix_migration.c). */
void kv_fix_policy_name(const kv_group *g, char *buf, size_t n);
/* Release what a kv_fix owns. */
void kv_fix_release(kv_fix *f);
void kv_groups_free(kv_analysis *a);

/* The group with id "G<n>", or NULL. */
const kv_group *kv_group_by_id(const kv_analysis *a, const char *id);
/* Whether VMI i of a is in a group of code. */
bool kv_vmi_in_code(const kv_analysis *a, size_t i, const char *code);
/* Whether kv_groups_analyze would put r in a group of code: the same
 * answer as kv_vmi_in_code from the VMI's result alone, for an analysis
 * without groups (kv_analyze_verdicts, pipeline.h). */
bool kv_vmires_in_code(const kv_vmires *r, const char *code);

/* --- shared by the resolve functions (groups.c) ------------------------- */

/* "N host-model VMIs" and the like: the count and the flavor's word. */
char *kv_group_count_words(const kv_analysis *a, const kv_group *g);
/* The same with an adjective: "3 host-model VMIs" (adj NULL: none). */
char *kv_group_count_adj(const kv_analysis *a, const kv_group *g,
    const char *adj);
/* verb ("have", "use", ...) agreeing with the group's count. */
const char *kv_group_verb(const kv_group *g, const char *verb);
/* Up to `max` VMI names of g, comma-separated, then ", ..." */
char *kv_group_examples(const kv_analysis *a, const kv_group *g, size_t max);
/* The VirtualMachines that hold g's VMIs (same namespace and name): up
 * to max, comma-separated, then ", ... (N more)"; "" when none has one.
 * *nvms (may be NULL): how many of g's VMIs have one. */
char *kv_group_vms(const kv_analysis *a, const kv_group *g, size_t max,
    size_t *nvms);
/* The command that applies patch (JSON, built by the caller) to the first
 * VirtualMachine of g, in the flavor's words (kv_fixrow.patch_cli,
 * restart_cli): "for prod/web-0: kubectl patch vm web-0 -n prod
 * --type merge -p '<patch>'", with restart " && virtctl restart web-0
 * -n prod"; NULL when no VMI of g has one. */
char *kv_group_patch(const kv_analysis *a, const kv_group *g,
    const char *patch, bool restart);
/* The source node names of g, comma-separated: the first
 * KV_GROUP_NODES_NAMED, then "and N more (all in findings.json)" (the
 * group's nodes list has every one). */
#define KV_GROUP_NODES_NAMED 10
char *kv_group_node_list(const kv_analysis *a, const kv_group *g);
/* The ids of the groups other than drain-* of g's VMIs (those pick marks,
 * by index in g->vmis; NULL: all), or "none" (fix_drain.c). */
char *kv_drain_blockers(const kv_analysis *a, const kv_group *g,
    const bool *pick);
/* The rule's remediation in the flavor's words. */
const char *kv_group_remedy(const kv_analysis *a, const kv_group *g);

/* After g's resolve (restart.c): a fix that needs a restart or was
 * checked by re-analysis, of VMIs whose VirtualMachine has
 * RestartRequired, says that the restart brings the template and what
 * it changes (the re-analysis ran on it). */
void kv_fix_template_note(const kv_analysis *a, kv_group *g);
/* set-cpu-model (fix_cpu.c): the chosen model for g, checked. */
void kv_fix_cpu_model(const kv_analysis *a, kv_group *g);
/* What storage class name gives as ReadWriteMany (RWX_*), from its
 * StorageProfile or its provisioner; *why names the evidence (untouched
 * when there is none and 0 comes back). */
unsigned kv_class_rwx(const kv_model *m, const char *name,
    const char **why);
/* recreate-claim-rwx (fix_storage.c): a storage class that gives
 * ReadWriteMany for every volume mode in want (RWX_BLOCK, RWX_FILESYSTEM
 * of model.h): the claim's own class `current` first, then the others by
 * name; its StorageProfile's claimPropertySets first, else its
 * provisioner's known abilities.  NULL when none, and for want 0
 * (no volume mode asked: every class would match); *why names the
 * evidence ("" without one). */
const char *kv_rwx_class(const kv_model *m, const char *current,
    unsigned want, const char **why);

#endif
