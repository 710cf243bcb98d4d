/*
 * diff.h - what changed between two analyses of the same cluster: the
 * snapshot as it is and as a what-if makes it (whatif.h), or last month's
 * snapshot and today's (kvscope diff).
 *
 * Objects are matched by name.  Sections: nodes added and removed, nodes
 * that changed (CPU labels: features lost or gained, host model, vendor,
 * every other CPU label; cordon, taints, allocatable and every other
 * label), CPU classes merged or split, VMIs whose verdict, target count,
 * drain behaviour or codes changed, VMIs added and removed, drains whose
 * counts changed, groups (matched by code and subject) that appear,
 * disappear or change their VMI count.  A VMI whose only change is its
 * targets is "folded": the VMIs that lost and gained the same target
 * nodes are one kv_diff_fold, its cause the changes of those nodes.
 *
 * Worse and better are kv_vmi_compare's (one meaning for diff, what-if
 * and the proof of a group's fix, fixproof.h).  A VMI not judged on
 * either side (verdict not-judged: the input lacks what its checks need)
 * is "cannot tell": neither worse nor better, counted apart (nuntold)
 * with the resources each side lacks (lacks, lack_words).  The diff
 * borrows both analyses (and their models), which must outlive it;
 * kv_diff_free releases the rest.
 */
#ifndef KV_DIFF_H
#define KV_DIFF_H

#include "analyze/rules/analysis.h"

typedef struct kv_strs {
	size_t n;
	const char **v;			/* borrowed strings, sorted */
} kv_strs;

/*
 * How a VMI after compares with itself before (x before, y after):
 *  CMP_UNTOLD  either is not judged (the input lacks what its checks need);
 *  CMP_WORSE   it would not start again after a restart, or it migrates
 *              (verdict ok) before and not after, or a drain moves it
 *              (migrate, external) before and stops it or waits on it
 *              after, or it gains guest-cpu-floor, or it migrates on
 *              both sides and its migration will be aborted after only
 *              (estimate.h will-abort);
 *  CMP_BETTER  not worse, and it does not migrate before and does after,
 *              or a drain moves it after and not before, or its
 *              migration will be aborted before and migrates, not
 *              aborted, after;
 *  CMP_SAME    otherwise (its codes or targets may still change).
 * docs/findings.md ("worse and better") says the same.
 */
enum kv_cmp { CMP_SAME, CMP_WORSE, CMP_BETTER, CMP_UNTOLD };
enum kv_cmp kv_vmi_compare(const kv_vmires *x, const kv_vmires *y);

typedef struct kv_diff_node {
	const char *name;
	kv_strs lost, gained;		/* feature names */
	kv_strs labels_lost, labels_gained;	/* other CPU label keys */
	/* the rest, as "key=value" (owned by the diff): labels that are
	 * not CPU labels, taints "key=value:effect" ("key:effect" without a
	 * value), allocatable "cpu 126 -> 120" */
	kv_strs other_lost, other_gained;
	kv_strs taints_lost, taints_gained;
	kv_strs alloc;
	bool unsched[2];		/* spec.unschedulable before, after */
	const char *host_model[2];	/* before, after; NULL = none */
	const char *vendor[2];
	bool host_model_changed, vendor_changed;
} kv_diff_node;

typedef struct kv_diff_class {
	bool merged;			/* else split */
	char *one;			/* the class on the one side */
	kv_strs many;			/* the classes on the other (ids) */
} kv_diff_class;

typedef struct kv_diff_vmi {
	const char *name;
	enum kv_verdict verdict[2];
	size_t targets[2];
	enum kv_on_drain drain[2];
	kv_strs added, removed;		/* blocker and warning codes */
	/* its migration estimate's outcome (estimate.h names), NULL when
	 * it has none (it would not migrate) */
	const char *migration[2];
	const char *nostart;		/* would not start again: why */
	bool worse, better;
	bool untold;			/* not judged before or after */
	kv_strs tlost, tgained;		/* target nodes lost and gained
					 * (names; nodes on both sides) */
	bool folded;			/* only its targets changed */
} kv_diff_vmi;

/* The folded VMIs that lost and gained the same target nodes. */
typedef struct kv_diff_fold {
	const kv_strs *lost, *gained;	/* the first such VMI's */
	size_t nvmis;
} kv_diff_fold;

typedef struct kv_diff_drain {
	const char *node;
	size_t migrate[2], block[2], shutdown[2];
} kv_diff_drain;

/* A group on one side only, or with another VMI count (0 = absent). */
typedef struct kv_diff_group {
	const char *code;
	const char *kind;		/* subject kind name */
	const char *name;		/* subject */
	const char *id[2];		/* group ids before, after; NULL */
	size_t vmis[2];
} kv_diff_group;

typedef struct kv_diff {
	kv_strs nodes_added, nodes_removed;
	size_t nnodes;
	kv_diff_node *nodes;		/* CPU labels changed, by name */
	size_t nclasses;
	kv_diff_class *classes;
	size_t nvmis;
	kv_diff_vmi *vmis;		/* by namespace, name */
	size_t nfolds;
	kv_diff_fold *folds;		/* most VMIs first, then by nodes */
	size_t nvmis_ab[2];		/* VMIs before, after */
	kv_strs vmis_added, vmis_removed;
	size_t ndrains;
	kv_diff_drain *drains;		/* by node */
	size_t ngroups;
	kv_diff_group *groups;		/* by code, kind, subject */
	size_t verdicts[2][V_COUNT];	/* summary before, after */
	size_t nworse, nbetter;		/* VMIs */
	size_t nuntold;			/* changed VMIs that cannot tell */
	/* per side: the resources (KV_NEED_BIT) its not-judged VMIs lack,
	 * and the manifest's words for each (kv_model_lack_words) */
	unsigned lacks[2];
	const char *lack_words[2][NEED_COUNT];
	bool worse;
} kv_diff;

/* Compare a (before) with b (after).  skip_nodes (may be NULL): VMIs
 * running on these nodes before are left out (a removed node's VMIs). */
void kv_diff_build(const kv_analysis *a, const kv_analysis *b,
    const kv_strs *skip_nodes, kv_diff *d);
void kv_diff_free(kv_diff *d);
/* The changes of node name (after's name), or NULL when it has none. */
const kv_diff_node *kv_diff_node_of(const kv_diff *d, const char *name);

/*
 * Which cluster a snapshot is of (kvscope diff's OLD and NEW): the uid of
 * its namespace kube-system, else its KubeVirt CR's metadata.uid (a
 * --namespace snapshot may lack the former, an --anonymize one names it
 * otherwise).  The manifest holds no cluster uid (snapshot-format.md).
 */
enum kv_uid_from { UID_NONE, UID_KUBE_SYSTEM, UID_KUBEVIRT_CR };
extern const char *const kv_uid_from_names[];	/* "namespace kube-system",
						   "KubeVirt CR" */
/* m's uid from the first of them it has (*from says which), or NULL. */
const char *kv_cluster_uid(const kv_model *m, enum kv_uid_from *from);
/* a's and b's uids by the first fact both have: UID_NONE when they have
 * none in common; else *differs (the caller's) is NULL when they agree,
 * "namespace kube-system uid X vs Y" when they do not. */
enum kv_uid_from kv_cluster_uid_cmp(const kv_model *a, const kv_model *b,
    char **differs);

#endif
