/*
 * place.h - the placement context of target.h, private to the target
 * search (target.c), its explanation (explain.c) and place.c: distinct
 * taints as node bitsets, launcher pods by VMI, the solved placement
 * problems, and the one-node tests both the search and the explanation use.
 */
#ifndef KV_PLACE_H
#define KV_PLACE_H

/* GLib's hash table and pointer array, by pointer: the header needs no
 * more of GLib (its users include <glib.h>). */
typedef struct _GHashTable GHashTable;
typedef struct _GPtrArray GPtrArray;

#include <pthread.h>

#include "analyze/rules/target.h"

typedef struct ptaint {
	const char *key, *value, *effect;
	kv_bits nodes;
} ptaint;

/* One placement problem: everything the node sets of a VMI depend on
 * except its source node and pods, as a byte string of interned
 * pointers; and the answer. */
typedef struct problem {
	size_t len;
	unsigned char *key;
	kv_bits cpu;			/* CPU selectors and DoesNotExist */
	kv_bits sel;			/* every node selector and required
					   node affinity */
	kv_bits place;			/* cpu and every other constraint
					   but room */
	kv_bits tgt;			/* place and room for the need */
	bool scratch;			/* made by a trial (kv_place_scratch) */
} problem;

typedef struct kv_podaff kv_podaff;	/* podaffinity.h */

/* What a source node's labels give its VMIs' target pods (§2.3 step 4 and
 * the vendor rule): derived once per node. */
typedef struct node_cpu {
	bool done;
	bool host_model;		/* it has a host-model-cpu label */
	kv_labels derived;		/* its host model as cpu-model-
					   migration, its required features
					   as cpu-feature (interned) */
	const char *vendor;		/* its first cpu-vendor label key */
	size_t nvendors;		/* how many it has */
} node_cpu;

struct kv_place {
	size_t ntaints;
	ptaint *taints;
	size_t npods;
	const kv_pod **pods;		/* sorted by created_by, created */
	GHashTable *pods_of;		/* created_by -> its first index in
					   pods, plus one */
	bool pods_lent;			/* pods, pods_of: the lender's */
	bool taints_lent;		/* taints: a sibling's */
	GHashTable *problems;		/* problem -> itself; a sibling's
					   are its owner's (problems_lent) */
	bool problems_lent;
	pthread_mutex_t *problems_mu;	/* held around problems while a
					   sibling shares them
					   (kv_place_share); NULL */
	pthread_mutex_t mu;		/* problems_mu's, when shared */
	GHashTable *rooms;		/* kv_res need -> kv_bits of the
					   nodes with room for it */
	GHashTable *kernels;		/* kernel version -> kv_bits of the
					   nodes with another one */
	GHashTable *selectors;		/* kv_labels -> itself: the target
					   pods' selectors, one array per
					   distinct list (vmires point in) */
	size_t nnodes;
	struct node_cpu *cpu;		/* per node: what its CPU labels put
					   in a target pod's selector, built
					   on first use (target.c) */
	bool scratch;			/* new problems are a trial's */
	GPtrArray *scratch_made;	/* those kept: dropped when the
					 * trial ends (kv_place_scratch) */
	GHashTable *needs;		/* kv_res -> itself: the VMIs' needs,
					   one copy per content (vmires
					   point in) */
	kv_bits *vmx;			/* per node: the nodes lacking one of
					   its vmx-* feature labels, built on
					   first use (nwords 0 until then),
					   never in the parent's */
	/* the lender's (kv_cpu_borrow: the same nodes, pods' requests and
	 * configuration), whose solved problems hold here too: looked up
	 * before one is solved again; NULL */
	const struct kv_place *parent;
	kv_podaff *podaff;		/* inter-pod constraints: built by
					 * vmi.c, freed with the kept
					 * sibling's by kv_podaff_free_all
					 * (pipeline.c) */
	/* a sibling that judged some of the analysis's VMIs on a thread
	 * of its own (kv_place_sibling): they point into its tables, so it
	 * lives, podaff and all, as long as this one (kv_place_free,
	 * kv_podaff_free_all); NULL */
	struct kv_place *kept;
};

/* The problem of probe's key p holds (or its sibling: they share them),
 * or NULL. */
problem *kv_place_problem(const kv_place *p, const problem *probe);
/* Keep pr, solved, and return it; or, when a problem of its key was kept
 * meanwhile (by the sibling's thread), free pr and return that one. */
problem *kv_place_keep(const kv_place *p, problem *pr);

/* A pod that holds its node: not Succeeded or Failed. */
bool kv_pod_active(const kv_pod *p);
/* Whether a node (its labels, or its name for matchFields) satisfies q. */
bool kv_req_match(const kv_nsreq *q, const kv_labels *labels,
    const char *node);
/* Whether the VMI reserves a LUN (§2.2), and the pod of another VMI on
 * node that holds one of its reservation keys, or NULL. */
bool kv_has_reservation(const kv_vmi *v);
const kv_pod *kv_pr_conflict(const kv_analysis *a, const kv_vmi *v,
    const char *node);
/* Whether the VMI tolerates taint t. */
bool kv_tolerates(const kv_vmi *v, const ptaint *t);

/*
 * The scheduler's volume filters (volumes.c): the PersistentVolumes
 * bound to the claims of r's VMI whose node affinity or zone labels
 * limit the nodes, the volumes a flavor migrates (DVP) left out unless
 * start (a restart moves no disk), NULL-terminated (caller frees), their
 * count in *n.  One volume of the VMI per PV.
 */
typedef struct kv_volpv {
	const char *volume, *claim;	/* the VMI's volume and its claim */
	const kv_pv *pv;
} kv_volpv;
kv_volpv *kv_vmi_pvs(const kv_model *m, const kv_vmires *r, bool start,
    size_t *n);
/* dst &= the nodes every PV of vols allows. */
void kv_and_volumes(const kv_model *m, const kv_volpv *vols, size_t nvols,
    kv_bits *dst);
/* Why node fails volume vp, as text into out ("PersistentVolume pv-7 of
 * volume rootdisk is pinned to w3 by its node affinity"); false when
 * it passes. */
bool kv_volpv_explain(const kv_model *m, const kv_volpv *vp,
    const kv_node *node, kv_buf *out);

/* dst &= the nodes that satisfy aff (ORed terms of ANDed requirements),
 * each term with app's requirements added (app may be NULL), from the
 * label index (affbits.c). */
void kv_and_affinity(const kv_analysis *a, const kv_affinity *aff,
    const kv_nsterm *app, kv_bits *dst);

#endif
