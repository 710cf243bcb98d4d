/*
 * fixapply.h - a group's fix as what-if changes (what-if --fix G): the
 * change its text names, for the VMIs it names, so that applying them to
 * a copy of the model and analysing it again shows what the fix does.
 *
 *  set-cpu-model V          cpu-model V for the group's VMIs (on
 *                           Deckhouse: a class of type Model, whatif.c)
 *  set-eviction-strategy V  eviction-strategy V for the VMIs the fix is
 *                           for (kv_fix.pick)
 *  recreate-claim-rwx C     the group's claims ReadWriteMany on class C
 *  change-binding V         the pod network interface bound with V
 *  wait-operation           the group's operations finished
 *  repull-image I           the image IDs of I as REPO@sha256:HEX
 *  relabel-node N           the group's node N labelled
 *                           host-model-cpu.DOMAIN/MODEL=true, when a VMI
 *                           of the group names that label in a selector
 *                           or required affinity term (or its launcher
 *                           pod's selector does)
 *  set-migration-policy F   migration-policy F: the MigrationPolicy its
 *                           text shows (estimate.h kv_fix_policy), the
 *                           group's VMIs labelled for it
 *  relax-placement,         one change per edit of its plan (the fix's
 *  free-capacity            steps, decide/relax.c): relax for the VMs'
 *                           side, uncordon N, free-room N
 *
 * Every other fix (none, relabel-node without a value a selector names,
 * a plan with no edit) names a change kvscope cannot write:
 * kv_fix_changes gives none and the reason.
 */
#ifndef KV_FIXAPPLY_H
#define KV_FIXAPPLY_H

#include "analyze/change/whatif.h"
#include "analyze/decide/groups.h"

/* The changes of some groups' fixes; the strings and picks are its own. */
typedef struct kv_fixset {
	size_t n;
	kv_change *changes;
	size_t nnotes;
	char **notes;		/* a line per group named: applied, or why
				 * there is nothing to apply */
	size_t napplied;	/* groups whose fix gave a change */
	const kv_group **applied;	/* those groups, of the analysis */
	size_t nowned;
	void **owned;
} kv_fixset;

/* The fixes of the groups ids[0..n) of a ("G3", or "all" for every
 * group) added to s.  KV_ERR with err set when an id names no group
 * (the message lists a's ids). */
int kv_fix_expand(const kv_analysis *a, const char *const *ids, size_t n,
    kv_fixset *s, kv_err *err);
/* The changes that apply g's fix, *n of them (an array the caller frees;
 * pick: a->nvmis flags, the caller's, filled for them); NULL, *n 0 and
 * *why when there is none.  With changes, *why is NULL or what they
 * assume (a relabel-node value taken from a node of the same CPU
 * labels).  Strings are interned in a's model. */
kv_change *kv_fix_changes(const kv_analysis *a, const kv_group *g,
    bool *pick, size_t *n, const char **why);
/* Whether change ch acts on a node or moves where its VMIs may go (a
 * relax): other VMIs may feel it (room, pod terms, the drains). */
bool kv_change_on_node(const kv_change *ch);
void kv_fixset_free(kv_fixset *s);
/* The line that checks group g's fix on b, the analysis after it (VMI
 * indexes as in g's): how many of g's VMIs are in no group of its code
 * in b, against its fix.fixes. */
char *kv_fix_proof(const kv_group *g, const kv_analysis *b);
/* That count alone: g's VMIs in no group of g's code in b (what the
 * proof calls fix.fixes, docs/findings.md "Worse, better and fixes"). */
size_t kv_fix_left(const kv_group *g, const kv_analysis *b);

#endif
