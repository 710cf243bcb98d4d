/*
 * crosscheck.h - could the VMs of one cluster run on another?  `kvscope
 * crosscheck SOURCE TARGET` (docs/crosscheck.md).
 *
 * Per VMI of SOURCE (and per VM of SOURCE that is stopped) one answer:
 * live (it could live-migrate to TARGET: KubeVirt's decentralized live
 * migration), cold (it could start on TARGET after a cold move) or no,
 * with every reason and its fix, and the TARGET nodes it could land on.
 *
 * How: the in-cluster engines answer on a crossing model (merge.c):
 * TARGET's nodes, pods, storage classes, profiles, NADs, namespaces and
 * KubeVirt configuration, SOURCE's VMIs, VMs, claims and launcher pods,
 * SOURCE's nodes beside TARGET's under a name no node can have
 * ("source/w1") and tainted so no target pod lands there.  The target
 * search then renders each VMI's target pod from its source node's labels
 * as virt-controller does for a decentralized target (kubevirt v1.9.0
 * pkg/virt-controller/watch/migration/migration.go:965-1005: the host
 * model and required features and the vendor from the source state's node
 * selectors), and the start search answers cold.  What only crosses
 * clusters (versions and the gate, storage classes, NADs, namespaces) is
 * a row of reasons.c.
 *
 * Ownership: kv_cross_run takes src and tgt (loaded with one string
 * table: kv_model_load_shared) and consumes them (tgt becomes the
 * crossing model; what it takes from src is moved); the kv_cross owns
 * both models and the analysis, and every string it holds lives until
 * kv_cross_free.  Output is deterministic (VMs by namespace, name).
 */
#ifndef KV_CROSSCHECK_H
#define KV_CROSSCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/model/labelsel.h"
#include "analyze/rules/analysis.h"

/* The answer for one VM (kv_xanswer_names: "live", "cold", "no"). */
enum kv_xanswer { XA_LIVE, XA_COLD, XA_NO, XA_COUNT };
extern const char *const kv_xanswer_names[XA_COUNT];

/* What a reason rules out (kv_xrule.blocks): the live answer, the cold
 * one too, or nothing (a fact said beside the answer). */
enum { XB_LIVE = 1, XB_COLD = 2 };

/* A reason row (reasons.c): its code, what it rules out, its title and
 * fix.  The in-cluster blockers of the crossing analysis come as rows
 * too (blocks XB_LIVE, their rule's words). */
typedef struct kv_xrule {
	const char *code;
	unsigned blocks;
	const char *title, *fix;
} kv_xrule;

/* The rows of reasons.c (a flavor's own are its cross_reasons hook's,
 * flavor.h). */
enum kv_xrule_id {
	XR_VERSION, XR_GATE, XR_VERSION_UNKNOWN, XR_SKEW, XR_NAMESPACE,
	XR_STORAGE_CLASS, XR_STORAGE_RWO, XR_CLAIM, XR_NETWORK, XR_STOPPED,
	XR_NO_START, XR_NOT_JUDGED, XR_PASSTHROUGH, XR_MACHINE, XR_HOSTNAME,
	XR_LABEL_DOMAIN, XR_COUNT
};
extern const kv_xrule kv_xrules[XR_COUNT];

typedef struct kv_xreason {
	const char *code, *title, *fix;	/* static or the rule table's */
	unsigned blocks;
	char *message;			/* owned */
} kv_xreason;

typedef struct kv_xvm {
	const char *ns, *name, *fullname;
	bool running;			/* a running VMI; else a stopped VM */
	const char *stopped_why;	/* stopped: kv_vm.stopped_why */
	const char *source_node;	/* SOURCE's node name, or NULL */
	enum kv_cpu_mode mode;
	const char *cpu_model;		/* named model, or NULL */
	enum kv_xanswer answer;
	size_t nreasons;
	kv_xreason *reasons;		/* blocking first, then by code */
	size_t ntargets;
	const char **targets;		/* TARGET nodes: live targets for
					   live, start targets otherwise;
					   one array per distinct list, the
					   kv_cross's (lists) */
	int64_t copy_bytes;		/* claims' sizes; -1: none known */
	size_t nunsized;		/* claims of unknown size */
} kv_xvm;

/* VMs with one reason code (groups by cause), most VMs first. */
typedef struct kv_xgroup {
	const char *code, *title, *fix;
	unsigned blocks;
	size_t nvms;
	size_t *vms;			/* indexes into vms */
} kv_xgroup;

/* One side's version and gate (reasons.c). */
typedef struct kv_xside {
	const char *path;
	const char *name;		/* the manifest's context, else path */
	char version[32];		/* "v1.9.0", or "unknown" */
	bool known, decentralized, gate;
} kv_xside;

typedef struct kv_cross_opts {
	size_t nnamespaces;
	char *const *namespaces;	/* -n: only these (none: all) */
	const kv_selector *sel;		/* -l, or NULL */
	const char *vmi;		/* --vmi [NS/]NAME, or NULL */
	bool live_only, cold_only;	/* --live | --cold */
	size_t nscmap, nnetmap;
	char *const *scmap;		/* "A=B" each */
	char *const *netmap;
} kv_cross_opts;

typedef struct kv_cross {
	kv_model *src, *model;		/* SOURCE (what is left), crossing */
	kv_analysis *a;			/* of the crossing model */
	kv_xside side[2];		/* SOURCE, TARGET */
	char *same_cluster;		/* why they are one cluster, or NULL */
	size_t nvms;
	kv_xvm *vms;
	size_t counts[XA_COUNT];
	size_t ngroups;
	kv_xgroup *groups;
	size_t nbest;
	const char **best;		/* best named models every KubeVirt
					   node of both clusters runs */
	int64_t copy_bytes;		/* over the VMs whose answer is not
					   no */
	const char **hostnames;		/* per node of the crossing model:
					   its kubernetes.io/hostname, or
					   NULL */
	size_t nchanges;
	char **changes;			/* what-if's notes of the changes
					   made to TARGET (kv_cross_run's
					   caller applied them), owned */
	struct _GHashTable *lists;	/* the VMs' distinct target lists,
					   owned (most VMs of a pool share
					   one: 2,000 names each) */
} kv_cross;

/* Run the cross-check (src, tgt consumed, see above).  KV_ERR with err
 * set: an option is malformed (--storage-class-map without "="), --vmi
 * names no VMI or VM of SOURCE, or the crossing analysis failed. */
int kv_cross_run(kv_model *src, kv_model *tgt, const char *src_path,
    const char *tgt_path, const kv_cross_opts *o, kv_cross **out,
    kv_err *err);
void kv_cross_free(kv_cross *x);

/* --- the parts, for cross.c and the unit tests ---------------------- */

/* The mapped name of name by "A=B" rows (B for A), else name itself. */
const char *kv_cross_map(const char *const *rows, size_t n,
    const char *name, char *buf, size_t size);
/* Every version, storage, network and namespace reason of VMI v of src
 * against tgt into vm (reasons.c); the versions into side[0..1] first
 * (kv_cross_sides). */
void kv_cross_sides(const kv_model *src, const kv_model *tgt,
    kv_xside *side);
void kv_cross_reasons(const kv_model *src, const kv_model *tgt,
    const kv_xside *side, const kv_cross_opts *o, const kv_vmi *v,
    kv_xvm *vm);
/* Add a reason to vm (message printf-formatted). */
void kv_xvm_add(kv_xvm *vm, const kv_xrule *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The crossing model (merge.c): tgt with src's chosen VMIs (pick, per
 * src->vmis) and stopped VMs (pickvm, per src->vms) moved in. */
void kv_cross_merge(kv_model *tgt, kv_model *src, const bool *pick,
    const bool *pickvm, const kv_cross_opts *o);
/* The prefix of SOURCE's node names in the crossing model. */
#define KV_CROSS_PREFIX "source/"
bool kv_cross_is_source(const char *node);

#endif
