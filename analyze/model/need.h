/*
 * need.h - the resources a check can need: a few rows of
 * analyze/read/resources.def, as the bits of a rule row's needs column
 * (analyze/rules/rule.h).  When the input lacks one of them, a VMI whose
 * checks would read it is not judged (findings "not-judged").
 */
#ifndef KV_NEED_H
#define KV_NEED_H

#include <stdbool.h>

#include "analyze/model/model.h"

/* NEED_VMOPS ... NEED_VMCLASSES: Deckhouse resources, needed only in
 * the deckhouse flavor (a KubeVirt cluster serves none of them).
 * NEED_VMS: KubeVirt's VirtualMachines, which no check reads: without
 * them a drain's stop has no known restart (decide/restart.c).
 * NEED_VERSION is no resource: rules of the snapshot's KubeVirt version,
 * lacking when it is older than the oldest row of the version table (the
 * analysis decides, notjudged.c; the model never lacks it). */
enum kv_need {
	NEED_NODES, NEED_PODS, NEED_PVCS, NEED_STORAGECLASSES,
	NEED_VMOPS, NEED_VMBDAS, NEED_VDISKS, NEED_VMCLASSES, NEED_VMS,
	NEED_VERSION,
	NEED_COUNT
};

/* When a check reads a resource of its row's needs for one VMI (the
 * row's when column, per resource; notjudged.c decides it). */
enum kv_need_when {
	WHEN_ALWAYS,		/* every running VMI */
	WHEN_CONTAINERDISK,	/* a containerDisk volume: its digest */
	WHEN_POD_PLACEMENT,	/* pod (anti-)affinity or topology spread */
	WHEN_CLAIM_UNDESCRIBED,	/* a claim its volumeStatus lacks */
	WHEN_FLAVOR,		/* a VMI its flavor's vmi hook says reads it
				 * (kv_vmifacts.reads: DVP's operations,
				 * attachments, the VirtualDisks of its claims,
				 * the class its CPU comes from) */
};

#define KV_NEED_BIT(n) (1u << (n))

/* What the lack of KubeVirt's VirtualMachines leaves unknown (the
 * warning's consequence, notjudged.c and the flavor rows' lack notes). */
#define KV_VMS_LACK_WORDS "whether a VMI a drain stops starts again is " \
	"unknown (its VirtualMachine's runStrategy decides)"

/* The resources.def row of each bit (plural and group). */
typedef struct kv_need_row {
	const char *resource, *group;	/* a flavor's own group: needed in
					   that flavor only */
} kv_need_row;
extern const kv_need_row kv_need_rows[NEED_COUNT];

/* Whether the input lacks resource n: its manifest entry has a status
 * other than ok or absent (missing, forbidden, error), or there is no
 * entry.  absent is the API's word that the cluster has none.  A row
 * of the deckhouse flavor is never lacking in another flavor's input. */
bool kv_model_lacks(const kv_model *m, enum kv_need n);
/* The same for any resource of resources.def (plural, group). */
bool kv_model_lacks_res(const kv_model *m, const char *resource,
    const char *group);
/* The bits of every resource of mask the input lacks. */
unsigned kv_model_lacking(const kv_model *m, unsigned mask);
/* What the manifest says of resource n, in words: "not in the input",
 * "forbidden", "error: <message>", "partial: PATH skipped: why" (a file
 * of it could not be read, docs/snapshot-format.md "Partial inputs");
 * "" when it is there. */
const char *kv_model_lack_words(const kv_model *m, enum kv_need n);

#endif
