/*
 * podaffinity.h - the migration target pod's inter-pod constraints, as
 * the kube-scheduler's InterPodAffinity and PodTopologySpread filters
 * judge them: the VMI's required pod affinity and anti-affinity terms
 * and its DoNotSchedule topology spread constraints (KubeVirt copies
 * them to every launcher pod, rules-kubevirt.md §2.2), and the required
 * anti-affinity of the pods already running that matches the target pod
 * (symmetry).  The target pod carries the source launcher pod's labels
 * and lives in the VMI's namespace; the source pod counts as a running
 * pod.  The anti-affinity to the VMI's own pods (created-by, §2.3 step 1)
 * and the persistent reservations stay with target.c.
 *
 * Each constraint is a bitset of the nodes that pass it: per distinct
 * term, domains per topology key from the label index, cached in the
 * context for the whole analysis.  With pods scope "launchers" a term
 * whose selector could match a pod that is not a launcher is not judged:
 * it is left out of the search and named by kv_podaff_unjudged()
 * (target.h).
 *
 * Private to the target search (target.c, explain.c, place.c).  The
 * context owns every bitset it hands out.
 */
#ifndef KV_PODAFFINITY_H
#define KV_PODAFFINITY_H

#include "analyze/rules/place.h"

/* With sibling (a's own, for another thread: kv_place_sibling), its
 * running pods, read only. */
kv_podaff *kv_podaff_build(const kv_analysis *a, const kv_podaff *sibling);
void kv_podaff_free(kv_podaff *pa);
/* The podaffs of p and of the sibling it keeps (place.h kept), freed:
 * before kv_place_free(p). */
void kv_podaff_free_all(kv_place *p);

/* Narrow the problem's answer for r: *tgt and *place start as the
 * problem's targets and placeable nodes and become bitsets of the nodes
 * that also pass r's inter-pod constraints (the same pointers when r has
 * none). */
void kv_podaff_apply(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, const problem *prob, const kv_bits **tgt,
    const kv_bits **place);

/* The first inter-pod constraint of r node n fails, as text in out;
 * false when it passes them all (or r was never applied). */
bool kv_podaff_explain(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, size_t n, kv_buf *out);

/* The snapshot warning naming how many running VMIs have terms that are
 * not judged; none when every term is. */
void kv_podaff_warnings(kv_analysis *a);

#endif
