/*
 * target.h - where a migration target pod could land.
 *
 * kv_target_build() renders the node selector and required node affinity
 * that KubeVirt v1.9 gives the migration target pod of a VMI
 * (rules-kubevirt.md §2.2-§2.3), then finds the nodes that satisfy the CPU
 * part of it (cpuTargets) and every placement constraint (targets) with the
 * label index's bitsets.  kv_target_explain() replays the same constraints
 * for one node and says which fails first, for `kvscope explain`.
 *
 * The placement context (kv_place) is built once per analysis: distinct
 * taints as node bitsets, launcher pods by VMI, free memory per node and
 * the nodes with room per need (capacity.h).
 */
#ifndef KV_TARGET_H
#define KV_TARGET_H

#include "analyze/rules/analysis.h"

typedef struct kv_place kv_place;

kv_place *kv_place_build(kv_analysis *a);
/* A second place for p's analysis, for another thread to judge VMIs
 * with at once: p's taints, launcher pods and placement problems, and
 * its other tables of its own (no podaff: the caller builds it).  p
 * must outlive it: kv_place_share(p, sib, false) hands it to p. */
kv_place *kv_place_sibling(const kv_analysis *a, const kv_place *p);
/* With on, p and its sibling sib share p's placement problems under p's
 * lock, so their threads judge VMIs at once.  Off again once they are
 * done: sib's caches no result points into are dropped, and p keeps sib
 * (kv_place.kept), only now, so that neither thread reads the other's
 * tables meanwhile (a VMI's pod-affinity reasons, podexplain.c). */
void kv_place_share(kv_place *p, kv_place *sib, bool on);
/* Frees p and the sibling it keeps (kv_place.kept), after their podaffs
 * (podaffinity.h kv_podaff_free_all). */
void kv_place_free(kv_place *p);

/* Launcher pods of a VMI (by kubevirt.io/created-by), and the source pod:
 * the newest one on the VMI's node. */
size_t kv_place_pods(const kv_place *p, const kv_vmi *v,
    const kv_pod *const **pods);
const kv_pod *kv_place_source_pod(const kv_place *p, const kv_vmi *v);
/* The nodes that run a kernel version (status.nodeInfo.kernelVersion,
 * interned) other than kernel, and not none: one bitset per version,
 * kept by p. */
const kv_bits *kv_place_other_kernels(const kv_analysis *a,
    const kv_place *p, const char *kernel);
/* With on, the placement problems the searches add are a trial's (a
 * fix's search on a copy of a VMI); off again drops them.  Nothing of
 * the analysis may point into them. */
void kv_place_scratch(kv_place *p, bool on);
/* need's copy kept by p, one per content (kv_vmires.need). */
const kv_res *kv_place_need(const kv_place *p, const kv_res *need);
/* The nodes lacking one of the vmx-* CPU feature labels (VMX
 * capabilities, nested-virt-differs) node src carries: one bitset per
 * source node, built on first use and kept by p. */
const kv_bits *kv_place_vmx_lacking(const kv_analysis *a,
    const kv_place *p, size_t src);

typedef struct kv_target_info {
	bool host_model_copied;		/* selectors came from the pod */
	bool host_model_missing;	/* source has no host-model label */
	bool source_missing;		/* status.nodeName not a Node */
	size_t nvendors;		/* vendor labels on the source */
	int64_t need_memory;		/* bytes the room check wants */
	size_t nplaceable;		/* targets before room is checked */
} kv_target_info;

/* Fill r->selectors, r->extra_affinity, r->cpu_targets, r->targets. */
void kv_target_build(const kv_analysis *a, const kv_place *p,
    kv_vmires *r, kv_target_info *ti);

/* The first constraint node n fails for r, as text in out; false when it
 * passes them all. */
bool kv_target_explain(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_buf *out);

/* The same constraint as a fact a fix can change (decide/relax.c). */
enum kv_fail_kind {
	FAIL_SOURCE, FAIL_OWN_POD, FAIL_RESERVATION, FAIL_SELECTOR,
	FAIL_AFFINITY, FAIL_EMPTY_TERM, FAIL_TAINT, FAIL_VOLUME, FAIL_POD_TERM,
	FAIL_ROOM
};
/* Where a selector or affinity requirement comes from. */
enum kv_fail_origin {
	ORIGIN_VMI,		/* the VMI's own nodeSelector or affinity */
	ORIGIN_MIGRATION,	/* a migration's addedNodeSelector */
	ORIGIN_OTHER		/* the cluster's, the architecture's, the
				 * flavor's (a VM class) */
};
/* FAIL_POD_TERM: the target pod's own term, or another pod's. */
enum kv_pod_fail {
	PODF_AFFINITY, PODF_ANTI, PODF_SPREAD, PODF_OTHER_POD,
	PODF_NONE		/* the node passes them all */
};

typedef struct kv_fail {
	enum kv_fail_kind kind;
	enum kv_fail_origin origin;	/* FAIL_SELECTOR, FAIL_AFFINITY */
	const char *key, *value;	/* selector K=V, affinity key, taint;
					   FAIL_VOLUME: the PV's name */
	const char *effect;		/* taint */
	const char *by;			/* ORIGIN_MIGRATION: its name */
	bool cordon;			/* the unschedulable taint */
	enum kv_pod_fail pod;		/* FAIL_POD_TERM */
	kv_res need, have;		/* FAIL_ROOM: the room check's */
} kv_fail;

/* Every constraint node n fails for r, up to max, into v, in the order
 * kv_target_explain gives the first: each failing node selector label,
 * the failing requirements of the required node affinity term that
 * fails fewest (max 1: the first failing one), each untolerated taint,
 * each PersistentVolume whose node affinity or zone the node fails, the
 * first pod constraint, room; only the one of
 * the VMI's own pods (source, own pod, reservation) when it fails that.
 * Their count. */
size_t kv_target_fails(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_fail *v, size_t max);
/* Which of r's pod constraints node n fails first (podaffinity.c). */
enum kv_pod_fail kv_podaff_fail(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n);

/* The VMI's pod (anti-)affinity and topology spread terms that were not
 * judged (pods scope launchers, a selector that could match a pod that
 * is not a launcher), one line each in out (may be NULL); their count
 * (podterm.c). */
size_t kv_podaff_unjudged(const kv_analysis *a, const kv_vmires *r,
    kv_buf *out);

/*
 * What KubeVirt appends to EACH term of the target pod's required node
 * affinity (the obsolete host-model label's and every forbidden
 * feature's DoesNotExist; kubevirt v1.9.0 pkg/virt-controller/services/
 * template.go:228-287 modifyNodeAffintyToRejectLabel): one term, or NULL
 * when nothing is appended.  Without required affinity it is the pod's
 * one term; an empty term of the VMI matches no node until appended to.
 */
static inline const kv_nsterm *
kv_appended(const kv_vmires *r)
{
	return r->extra_affinity.nterms > 0 ? &r->extra_affinity.terms[0] :
	    NULL;
}

/* Where a fresh launcher pod of r's VMI lands (a VM that starts its VMI
 * again after a drain stopped it): r is a trial copy the caller set up
 * (the VMI the restart brings, its CPU mode and affinity); fills
 * r->selectors, r->extra_affinity (the caller frees its terms),
 * r->targets.  The selectors of §2.2 only: no source node, no host-model
 * or vendor selector, no anti-affinity to the VMI's own pods. */
void kv_target_start(const kv_analysis *a, const kv_place *p,
    kv_vmires *r);

#endif
