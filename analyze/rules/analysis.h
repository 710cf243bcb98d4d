/*
 * analysis.h - everything kvscope concludes about a snapshot.
 *
 * The records kv_analyze() (analyze/pipeline.h) fills when it applies
 * KubeVirt's rules (docs/rules.md) to a loaded model: the single source
 * every writer draws from (findings.json, HTML, SVG, PDF, terminal), and
 * the phases that fill them.  Lists are already in docs/findings.md order.
 * The analysis borrows the model (which must outlive it) and owns
 * everything else; kv_analysis_free() releases it.  Node references are
 * indexes into model->nodes.
 */
#ifndef KV_ANALYSIS_H
#define KV_ANALYSIS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/util/bitset.h"
#include "analyze/model/cpudb.h"
#include "analyze/versions/kvversion.h"
#include "analyze/model/model.h"
#include "analyze/rules/rule.h"

struct kv_dvpres;

/* The migration settings whose source findings config.sources names
 * (kv_cfg_value_names: their config keys). */
enum kv_cfg_value {
	CFGV_PARALLEL_CLUSTER, CFGV_PARALLEL_NODE, CFGV_BANDWIDTH,
	CFGV_COMPLETION, CFGV_PROGRESS, CFGV_GATES, CFGV_COUNT
};
extern const char *const kv_cfg_value_names[CFGV_COUNT];

typedef struct kv_config {
	const char *cpu_model;		/* "" when unset */
	const char *eviction;
	int64_t parallel_cluster, parallel_node;
	int64_t bandwidth_mibps;	/* 0 = unlimited */
	int64_t completion_per_gib, progress_timeout;
	int64_t unschedulable_timeout, pending_timeout;
	/* past the deadline (estimate.h): the KubeVirt CR's, unset false;
	 * disruption unset follows postcopy (kubevirt v1.9.0 pkg/virt-
	 * handler/migration-source.go:527-531) */
	bool allow_postcopy, allow_autoconverge, allow_disruption;
	bool stall_detection;		/* MigrationStallDetection gate */
	int64_t inbound_per_node;	/* a flavor's inbound limit; 0 none */
	size_t nobsolete;
	const char **obsolete;		/* sorted */
	/* derived */
	const char *domain;		/* node.kubevirt.io |
					   node.virtualization.deckhouse.io */
	const char *kv_prefix;		/* "kubevirt.io/" or the DVP rewrite */
	bool gate_hyperv_strict, gate_vgpu;
	bool gate_cpu_discovery;	/* CPUNodeDiscovery (before v0.55) */
	bool gate_sriov;		/* SRIOVLiveMigration (v0.40-v0.56) */
	const char *default_iface;	/* "bridge" unless configured */
	int64_t assumed_mibps;		/* drain estimate when unlimited */
	kv_rules_version rules;		/* whose rules apply (kvversion.h) */
	bool since[SINCE_COUNT];	/* the version table's rows that
					   hold for it (versions.c) */
	/* Deckhouse (rules-deckhouse.md §5) */
	int64_t sync_per_node;		/* DVP sync slots per source;
					   0 = none */
	bool volume_migration;		/* RWO VirtualDisks can migrate (EE) */
	/* where each setting came from: "KubeVirt CR", "KubeVirt default"
	 * or a flavor's config hook's words; written (config.sources) only
	 * when that hook sets sources_said */
	const char *source[CFGV_COUNT];
	bool sources_said;
} kv_config;

/* CPU, memory and pod count, as requested or left (findings.md), and
 * every other resource a pod of the snapshot requests: ext[i] is
 * m->resnames[i] (extended resources, hugepages-<size>, capacity.h). */
typedef struct kv_res {
	int64_t cpu_millis, memory, pods;
	int64_t ext[KV_MAX_RESNAMES];	/* 0 when none */
} kv_res;

typedef struct kv_nodeinfo {
	bool kubevirt, schedulable;
	const char *vendor;		/* NULL */
	size_t nvendors;
	const char *host_model;		/* NULL */
	int cls;			/* class index or -1 */
	int level;			/* -1 = null */
	bool avx2, avx512f;
	size_t nvmis;			/* running VMIs */
	int64_t free_memory;		/* allocatable - launcher requests;
					   -1 */
	kv_res allocatable, requested, free;
					/* requested/free meaningful only when
					 * a->capacity_known */
} kv_nodeinfo;

typedef struct kv_class {
	char id[24];
	size_t nnodes;
	size_t *nodes;			/* sorted by name */
	const char *vendor, *host_model;
	size_t nreq;
	const char **req;		/* sorted */
	int level;
	bool avx2, avx512f;
	size_t features;		/* its cpu-feature label keys as a
					 * number: classes with the same
					 * keys have the same number */
} kv_class;

typedef struct kv_pair {
	size_t src, tgt;
	bool ok;
	size_t nmissing;
	const char **missing;		/* label keys, sorted */
} kv_pair;

typedef struct kv_named {
	const char *model;
	const cpudb_model *info;	/* NULL when unknown */
	size_t nnodes;
	size_t *nodes;			/* sorted by name */
} kv_named;

typedef struct kv_scope {
	char *name;			/* "all", "vendor:Intel" */
	kv_bits nodes;			/* over model->nodes */
	size_t nnodes;
	size_t ncommon;
	const char **common;
	size_t nbest;
	const char **best;
} kv_scope;

typedef struct kv_tradeoff {
	size_t scope;
	const char *tier;
	size_t nodes, of;
	size_t nexcluded;
	size_t *excluded;		/* node indexes, sorted by name */
	size_t nmodels;
	const char **models;
} kv_tradeoff;

/* V_NOT_JUDGED: running, but the input lacks a resource its checks
 * need (kv_vmires.not_judged says which); nothing is judged. */
enum kv_verdict {
	V_OK, V_NOT_RUNNING, V_BLOCKED, V_NO_TARGET, V_WILL_FAIL, V_STUCK,
	V_NOT_JUDGED, V_COUNT
};
extern const char *const kv_verdict_names[V_COUNT];

/* Whether verdict v says the VMI would not migrate: judged, running
 * and not ok (findings: blocked, no-target, will-fail, stuck). */
static inline bool
kv_verdict_fails(enum kv_verdict v)
{
	return v != V_OK && v != V_NOT_RUNNING && v != V_NOT_JUDGED;
}

/* The CPU mode of a VMI (findings "cpu.mode"). */
enum kv_cpu_mode {
	MODE_HOST_MODEL, MODE_HOST_PASSTHROUGH, MODE_NAMED, MODE_COUNT
};
extern const char *const kv_mode_names[MODE_COUNT];

/* What a migration attempt would do (findings "outcome.kind"). */
enum kv_outcome {
	OUT_NONE, OUT_MIGRATES, OUT_REJECTED, OUT_UNSCHEDULABLE,
	OUT_PENDING_TIMEOUT, OUT_PENDING_FOREVER, OUT_COUNT
};
extern const char *const kv_outcome_names[OUT_COUNT];

/* What a drain of the VMI's node does (findings "onDrain"); DRAIN_NONE
 * is written as null. */
enum kv_on_drain {
	DRAIN_NONE, DRAIN_MIGRATE, DRAIN_BLOCK, DRAIN_SHUTDOWN,
	DRAIN_EXTERNAL, DRAIN_COUNT
};
extern const char *const kv_on_drain_names[DRAIN_COUNT];

typedef struct kv_issue {
	const kv_rule *rule;
	char *message;			/* in the analysis' messages */
	size_t seq;			/* emission order, for a stable sort */
} kv_issue;

/*
 * A set of nodes as the target search leaves it: a bitset shared by every
 * VMI with the same placement problem (owned by the analysis), minus a
 * few nodes of this VMI (its source node, the nodes its pods run on).
 * Thousands of target names per VMI cost a few bytes each this way.
 * Iterate in node (= name) order with KV_NODESET_FOREACH.
 */
typedef struct kv_nodeset {
	const kv_bits *base;		/* NULL = empty */
	size_t nexcl;
	size_t *excl;			/* sorted; every one is in base */
	size_t n;			/* members */
} kv_nodeset;

/* Whether node, in s's base, is one of its excluded nodes. */
static inline bool
kv_nodeset_excludes(const kv_nodeset *s, size_t node)
{
	for (size_t i = 0; i < s->nexcl; i++)
		if (s->excl[i] == node)
			return true;
	return false;
}

static inline bool
kv_nodeset_has(const kv_nodeset *s, size_t node)
{
	if (s->base == NULL || node >= s->base->nbits ||
	    !kv_bits_test(s->base, node))
		return false;
	return !kv_nodeset_excludes(s, node);
}

/* The first member at or after node, or SIZE_MAX. */
static inline size_t
kv_nodeset_next(const kv_nodeset *s, size_t node)
{
	if (s->base == NULL)
		return SIZE_MAX;
	for (;;) {
		size_t i = kv_bits_next(s->base, node);

		if (i >= s->base->nbits)
			return SIZE_MAX;
		if (!kv_nodeset_excludes(s, i))
			return i;
		node = i + 1;
	}
}

#define KV_NODESET_FOREACH(s, i) \
	for (size_t i = kv_nodeset_next((s), 0); i != SIZE_MAX; \
	    i = kv_nodeset_next((s), i + 1))

/* One operation in progress on a VMI, as its flavor reports it
 * (kv_vmifacts.ops); the strings are the model's. */
typedef struct kv_vmiop {
	const char *ns, *name;
	const char *type;		/* "Migrate" */
	const char *phase;		/* "" when unset */
} kv_vmiop;

/* What a flavor's vmi hook (flavor.h) tells the decisions and the
 * writers about one VMI; all zero when the flavor adds nothing.  The
 * strings are the model's; ops and notes are owned (kv_analysis_free). */
typedef struct kv_vmifacts {
	const char *cpu_object;		/* the name of the object that sets
					   its CPU (kv_fixrow.cpu_object), or
					   NULL */
	const char *cpu_object_loaded;	/* the same when the snapshot holds
					   that object, else NULL */
	const char *os_type;		/* the OS its VM declares, or NULL */
	const char *policy;		/* its live-migration policy, or NULL */
	size_t nops;
	kv_vmiop *ops;			/* unfinished operations, oldest
					   first */
	size_t nnotes;
	char **notes;			/* lines explain shows under the
					   head, in the flavor's words */
	unsigned reads;			/* the resources (KV_NEED_BIT) its
					   flavor's checks read for it
					   beyond the core's (notjudged.c) */
	bool cpu_from_object;		/* its CPU features come with that
					   object: a new model drops them */
	bool own_vm;			/* a VirtualMachine of the flavor's
					   own API (same namespace and name)
					   holds it, where vm is KubeVirt's */
} kv_vmifacts;

typedef struct kv_vmires {
	const kv_vmi *vmi;
	enum kv_cpu_mode mode;
	enum kv_verdict verdict;
	const char *model;
	size_t nblockers, nwarnings;
	kv_issue *blockers, *warnings;	/* sorted by code */
	/* verdict not-judged: the resources (KV_NEED_BIT, need.h) the
	 * input lacks that its checks need; 0 otherwise */
	unsigned not_judged;
	enum kv_outcome outcome;
	kv_labels selectors;		/* sorted; the array is shared with
					   every VMI of the same list and
					   owned by a->place */
	kv_affinity extra_affinity;	/* obsolete / forbid DoesNotExist */
	/* the target pod's required node affinity: the VMI's, or a
	 * flavor's replacement (DVP: without the pins of migrating disks) */
	const kv_affinity *affinity;
	/* the selector a pending migration adds (VMIM addedNodeSelector,
	 * DVP VMOP migrate.nodeSelector), merged under the template's; NULL
	 * when none.  added_by names the migration object. */
	const kv_labels *added_selector;
	const char *added_by;
	size_t ncpu_targets, ntargets;	/* = cpu_targets.n, targets.n */
	kv_nodeset cpu_targets, targets;
	int64_t after;			/* -1 = null */
	const char *method;
	/* seconds; -1 when the VMI states no memory (the deadline is then
	 * unknown), 0 when there is none (per-GiB 0: no deadline) */
	int64_t completion_timeout;
	int64_t completion_per_gib;	/* the setting that applied */
	const char *completion_from;	/* its MigrationPolicy, or NULL:
					   the cluster's (cfg.source) */
	const char *eviction;
	int64_t memory;			/* bytes to move */
	const kv_pod *source_pod;
	const char *policy;		/* matching MigrationPolicy or NULL */
	/* the condition the report shows (findings "condition"): the VMI's
	 * LiveMigratable, or for DVP the VM's Migratable; cond below */
	const char *cond_type;		/* "LiveMigratable" | "Migratable" */
	const char *cond_reason, *cond_message;
	/* volumes that move by volume migration (a flavor's vmi hook) */
	size_t nmigvols;
	const kv_volume **migvols;
	struct kv_dvpres *dvp;		/* Deckhouse facts (dvp_model.h), set
					   by its vmi hook, else NULL */
	kv_vmifacts facts;		/* the flavor's facts for the core */
	/* what the target pod requests: the source launcher pod's
	 * requests per findings.md; one copy per distinct need, kept by
	 * a->place (kv_place_need); never NULL: &kv_res_nothing (all zero)
	 * for a VMI whose targets are not searched */
	const kv_res *need;
	/* multus networks whose resource is not known (their
	 * NetworkAttachmentDefinition not in the input) */
	size_t need_unknown_nets;
	const char *need_unknown_net;	/* the first of them */
	size_t ngroups;
	size_t *groups;			/* group indexes,
					 * sorted (groups branch fills) */
	/* the VirtualMachine of the same namespace and name, or NULL */
	const kv_vm *vm;
	/* onDrain shutdown (findings "restarts"): -1 null (not a stop, or
	 * unknown: restart_why set), 0 stays down, 1 started again on
	 * restart_node by the drain of its node alone; restart_why says
	 * what decided (kv_drain_row.restart_why) */
	size_t restart_node;
	const char *restart_why;
	/* onDrain shutdown: the nodes a fresh launcher pod of the VMI its
	 * VM starts again can land on (kv_target_start), base NULL
	 * otherwise; a drain restarts it on one of them */
	kv_nodeset start_targets;
	/* an unfinished migration of this VMI with a target node (VMIM not
	 * Succeeded/Failed, status.migrationState.targetNode): a drain waits
	 * for it (kv_drain_row.target); SIZE_MAX when none */
	size_t migrating_to;
	const char *migrating_by;	/* the VMIM's name */
	/* the small fields last, with no padding between them */
	int restarts;			/* above, with restart_node */
	enum kv_on_drain on_drain;
	bool mismatch;
	/* its migration estimate (estimate.h) says will-abort: diff's
	 * worse and better read it (kv_vmi_compare) */
	bool will_abort;
	char cond;			/* 'T', 'F', or 0 when absent */
	bool searched;			/* targets judged (findings: null
					   when not, e.g. no host-model
					   label) */
	/* no source pod: need derived from the VMI (podreq.c), its
	 * memory a lower bound */
	bool need_derived;
} kv_vmires;

/* What a drain does with one VMI (findings "drain[].plan"). */
typedef struct kv_drain_row {
	size_t vmi;			/* index into a->vmis */
	size_t source;			/* the node it leaves */
	enum kv_on_drain action;
	size_t target;			/* node index, or SIZE_MAX */
	const char *reason;		/* a finding code, or NULL */
	bool restart;			/* shutdown: its VM starts it */
	size_t restart_node;		/* ... there, or SIZE_MAX */
	bool no_node;			/* shutdown: the VM would, but no
					 * node can run it */
	bool restart_unknown;		/* shutdown: the input lacks the
					 * VMs (RESTART_UNKNOWN) */
	const char *restart_why;	/* shutdown: "runStrategy Manual" */
} kv_drain_row;

typedef struct kv_drain {
	size_t node;
	size_t vmis, migrate, block, shutdown, external;
	size_t restart;			/* of shutdown: started again */
	size_t restart_unknown;		/* of shutdown: restart unknown */
	size_t nblocking;
	const char **blocking;		/* VMI names, sorted */
	int64_t memory;
	int64_t seconds;		/* ceil(secs[1]) */
	double secs[2];			/* the migrations' time, low, high */
	size_t at_risk, will_abort, unknown;	/* of migrate: estimates */
	size_t no_capacity;		/* blocked for want of room */
	size_t nplan;
	kv_drain_row *plan;		/* sorted by VMI name */
} kv_drain;

typedef struct kv_summary {
	size_t nodes, kubevirt_nodes, classes, vmis, running;
	size_t verdicts[V_COUNT];
	size_t mismatch;
	size_t groups;
} kv_summary;

/* What the input lacked or contradicted, one coded fact each: the
 * top-level `warnings` of findings.json and of every -o json|yaml
 * document, one "kvscope: warning: " line on stderr per command, and
 * the top of the HTML and PDF summaries (docs/findings.md,
 * "warnings").  Names in kv_warning_names. */
enum kv_warning_code {
	KV_WARN_MISSING_RESOURCE, KV_WARN_PARTIAL_RESOURCE,
	KV_WARN_VERSION_UNKNOWN, KV_WARN_VERSION_NEWER,
	KV_WARN_VERSION_MISMATCH, KV_WARN_FLAVOR_INFERRED,
	KV_WARN_INPUT_NOTE, KV_WARN_PODS_LAUNCHERS, KV_WARN_VERSION_OLDER,
	KV_WARN_COUNT
};
extern const char *const kv_warning_names[KV_WARN_COUNT];
/* Whether the code is a stderr line: all but pods-launchers, the
 * collector's default scope (said in the documents and the report). */
extern const bool kv_warning_said[KV_WARN_COUNT];

typedef struct kv_warning {
	enum kv_warning_code code;
	char *message;
} kv_warning;

typedef struct kv_analysis {
	const kv_model *m;
	const cpudb *db;		/* snapshot map or built-in */
	const char *cpu_model_source;	/* "snapshot" | "builtin" */
	kv_config cfg;
	char **warnings;		/* snapshot.warnings */
	size_t nwarnings;
	kv_warning *coded;		/* top-level warnings, in order */
	size_t ncoded, capcoded;
	/* the issues' messages (kv_issue.message), each distinct text once
	 * (rule_emit): most VMIs of a cluster share theirs */
	struct _GStringChunk *messages;
	/* held around each insert while threads judge VMIs at once
	 * (vmi.c); NULL otherwise */
	pthread_mutex_t *messages_mu;

	kv_nodeinfo *nodes;		/* parallel to m->nodes */
	size_t nclasses;
	kv_class *classes;
	size_t npairs;
	kv_pair *pairs;
	size_t nnamed;
	kv_named *named;
	size_t nscopes;
	kv_scope *scopes;
	size_t ntradeoff;
	kv_tradeoff *tradeoff;
	size_t nvmis;
	kv_vmires *vmis;		/* parallel to m->vmis */
	size_t ndrain;
	kv_drain *drain;
	size_t ngroups;
	struct kv_group *groups;	/* findings "groups" (groups.h) */
	/* the migration estimate (analyze/estimate/estimate.h): est is
	 * parallel to vmis */
	struct kv_migest *est;
	struct kv_window *window;
	kv_summary summary;
	bool capacity_known;		/* pods scope "all" */

	/* per need.h resource the input lacks: "nodes: not in the
	 * input; ..." (findings "notJudged[].message"); NULL when there */
	char *lack_msg[NEED_COUNT];
	unsigned lacking;		/* KV_NEED_BIT of those */

	struct kv_index *index;		/* label -> node bitsets */
	bool borrowed;			/* index .. tradeoff are another
					 * analysis' (kv_cpu_borrow) */
	/* the analysis of the whole snapshot this one's model holds some
	 * VMIs of (kv_analyze_verdicts' nodes_of, the fix proof), or NULL:
	 * it lends its node phases (kv_cpu_borrow), sorted launcher pods
	 * and pod table (place.c, podaffinity.c), and the estimate takes
	 * the cluster's past migrations and the other VMIs' outbound
	 * migrations from it (estimate.c) */
	const struct kv_analysis *lender;
	/* true while the copies that borrow from this analysis are made
	 * one at a time (the fix proof's copies that lend the model's own
	 * arrays): a copy's per-VMI phases may then run in parts */
	bool copies_alone;
	struct kv_place *place;		/* taints, pods by VMI (target.h) */
} kv_analysis;


/* Add one coded warning (the message a printf of fmt): the one entry
 * point for every part of the analysis that finds the input lacking. */
void kv_analysis_warn(kv_analysis *a, enum kv_warning_code code,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The model data of a named CPU model: the snapshot's map first, then the
 * built-in table; NULL when neither knows it. */
const cpudb_model *kv_cpu_lookup(const kv_analysis *a, const char *model);

/* cpunames.c: whether model names a CPU model kvscope knows (tables,
 * the snapshot's cpu_map, node cpu-model labels; host-model and
 * host-passthrough), exactly as spelled; up to max known names nearest
 * to model (case folded, fewest edits), into out; 0 when none is near. */
bool kv_cpu_model_known(const kv_analysis *a, const char *model);
size_t kv_cpu_model_nearest(const kv_analysis *a, const char *model,
    const char **out, size_t max);

/* The phases, in the order kv_analyze (analyze/pipeline.c) runs them:
 * configuration and warnings (analysis.c), cpu.c, vmi.c, drain.c, the
 * summary (analysis.c), groups.c. */
void kv_effective_config(kv_analysis *a);
void kv_snapshot_warnings(kv_analysis *a);
void kv_summarize(kv_analysis *a);
int kv_cpu_analyze(kv_analysis *a, kv_err *err);	/* limit: classes */
/* Instead of the index, kv_cpu_analyze and kv_capacity_build: from's
 * node facts and capacity copied (each node's VMIs counted again, from
 * a's model) and its index, classes, pairs, named models, scopes and
 * trade-offs borrowed (a->borrowed; from must outlive a).  For a model
 * whose nodes, pods, configuration and CPU map are from's. */
void kv_cpu_borrow(kv_analysis *a, const kv_analysis *from);
void kv_vmis_analyze(kv_analysis *a);
/* The parts (analyze/util/runs.h) the per-VMI phases of a run in (the
 * verdicts, the estimates, the drains): 1 for a proof's copy (a lender:
 * the proof runs its copies two at a time already) unless its lender
 * says copies_alone, and for fewer than 1,024 VMIs, else as many as
 * kv_runs_parts gives. */
int kv_analysis_parts(const kv_analysis *a);
void kv_drain_analyze(kv_analysis *a);
/* The same for only the nodes that hold a VMI the drain stops
 * (DRAIN_SHUTDOWN): their VMIs' restarts (vmis[].restarts, restart_node,
 * restart_why) are kv_drain_analyze's, and a->drain holds those nodes
 * alone (kv_analyze_verdicts: the proof's copies read no more). */
void kv_drain_stops(kv_analysis *a);
void kv_groups_analyze(kv_analysis *a);	/* groups.c, last */
void kv_groups_free(kv_analysis *a);
void kv_version_warnings(kv_analysis *a);	/* version_warn.c */
/* The VMI a restart of r's VM brings (restart.c): with RestartRequired
 * its template (kv_vm.after), else r's VMI.  What every "after the
 * restart" answer reads: the fixes' re-analysis, what-if. */
const kv_vmi *kv_vmi_after_restart(const kv_vmires *r);

/* notjudged.c: the resources the input lacks (a->lacking, a->lack_msg,
 * before kv_snapshot_warnings); the bits of them rule's check would read
 * for r (0: it runs); the bits of them any check of r would read, nodes
 * always (0: nothing r's checks need is lacking); of the bits miss,
 * those some rule row needs. */
void kv_lacking_analyze(kv_analysis *a);
unsigned kv_rule_lacks(const kv_analysis *a, const kv_vmires *r,
    const struct kv_rule *rule);
unsigned kv_vmi_lacks(const kv_analysis *a, const kv_vmires *r);
unsigned kv_rules_need(unsigned miss);

/* vmi.c: whether a drain's migration of r runs (verdict ok, or blocked
 * only by other operations); LiveMigratable as KubeVirt computes it for
 * r's VM after a restart; what a drain does with a VMI of evictionStrategy
 * s and condition cond ('T', 'F', 0). */
bool kv_drain_moves(const kv_vmires *r);
/* Fill r->start_targets (the nodes a fresh launcher pod of the VMI its
 * VM starts can land on) when the analysis did not (a stop by a drain
 * fills it): what crosscheck's cold answer reads. */
void kv_vmi_start_targets(const kv_analysis *a, kv_vmires *r);
char kv_cond_after_restart(const kv_analysis *a, const kv_vmires *r);
enum kv_on_drain kv_on_drain_for(const char *s, char cond, bool moves);


/* Whether the version table's row id holds for the snapshot's version. */
static inline bool
kv_since_on(const kv_analysis *a, enum kv_since_id id)
{
	return a->cfg.since[id];
}

/* Whether launcher pods get the named model's and required features'
 * selectors: always since v0.55.0, before only with the CPUNodeDiscovery
 * gate (versions.c). */
static inline bool
kv_cpu_selectors_on(const kv_analysis *a)
{
	return kv_since_on(a, SINCE_CPU_UNGATED) || a->cfg.gate_cpu_discovery;
}

/* Whether the target of host-model VMI r selects on the source node's
 * host-model labels: since v0.43.0, and before v0.48.0 only for a VMI
 * whose spec names host-model (the webhook wrote no default; the guest
 * runs host-model all the same; versions.c). */
static inline bool
kv_host_model_selected(const kv_analysis *a, const kv_vmires *r)
{
	return r->mode == MODE_HOST_MODEL &&
	    kv_since_on(a, SINCE_HOST_MODEL_SELECTOR) &&
	    (kv_since_on(a, SINCE_DEFAULT_CPU_MODEL) ||
	    (r->vmi->cpu_model != NULL && *r->vmi->cpu_model != '\0'));
}

/* The label domain's key for a CPU label, e.g. kv_cpu_key(a,
 * "cpu-feature", "avx2") = "cpu-feature.node.kubevirt.io/avx2"; interned. */
const char *kv_cpu_key(const kv_analysis *a, const char *kind,
    const char *name);
/* The same key written into buf, not interned: for a lookup by its text
 * or a prefix (name ""), with no allocation and no intern-table lock
 * (two threads judge).  For names of kvscope's own (the domain is a
 * flavor's): a key that does not fit in size bytes is a bug. */
const char *kv_cpu_key_text(const kv_analysis *a, const char *kind,
    const char *name, char *buf, size_t size);
/* Whether nodes x and y have the same cpu-feature labels (what
 * host-passthrough compares); for two nodes of CPU classes, their
 * classes' features numbers say it without a walk. */
bool kv_cpu_features_same(const kv_analysis *a, const kv_node *x,
    const kv_node *y);

#endif
