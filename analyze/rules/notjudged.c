/*
 * notjudged.c - the verdict not-judged (findings.md "not-judged"): what
 * the input lacks of the resources the checks need (need.h), and which
 * of them one VMI's checks would read.  A rule row names its resources
 * (rule.h "needs"); the VMI's own spec says whether a check reads them
 * for it: every running VMI has a source node and targets to search;
 * pods are read for containerDisk digests and pod (anti-)affinity or
 * topology spread; PVCs for a claim the VMI's volumeStatus does not
 * describe (KubeVirt itself reads the access modes there first,
 * kubevirt v1.9.0 pkg/storage/types/pvc.go:72-79); a DVP VMI's checks
 * read its VM's VirtualMachineOperations and block device attachments,
 * and the VirtualDisks behind its claims.
 *
 * Without nodes nothing is judged: KubeVirt renders no target pod
 * without the source Node (docs/rules.md §2.3).  Otherwise vmi.c skips
 * each check whose row needs a resource the VMI lacks and keeps the
 * verdict the other checks give when no skipped blocker could give a
 * verdict of higher precedence (a VMI blocked by its pod network is
 * blocked whatever the pods say); else the VMI is not judged.
 */
#include <string.h>

#include "analyze/rules/analysis.h"
#include "analyze/rules/storage.h"

/* What the checks read from each resource, for the message. */
static const char *const need_words[NEED_COUNT] = {
	[NEED_NODES] = "no source or target node can be judged",
	[NEED_PODS] = "containerDisk digests and pod affinity cannot be "
	    "judged",
	[NEED_PVCS] = "claims the VMI's volumeStatus does not describe "
	    "cannot be judged",
	[NEED_STORAGECLASSES] = "no storage class can be named for a fix",
	[NEED_VMOPS] = "operations in progress cannot be judged",
	[NEED_VMBDAS] = "disk attachments in progress cannot be judged",
	[NEED_VDISKS] = "whether disks are copied with the VM cannot be "
	    "judged",
};

void
kv_lacking_analyze(kv_analysis *a)
{
	a->lacking = kv_model_lacking(a->m, ~0u);
	for (int n = 0; n < NEED_COUNT; n++)
		if (a->lacking & KV_NEED_BIT(n))
			a->lack_msg[n] = xasprintf("%s: %s; %s",
			    kv_need_rows[n].resource,
			    kv_model_lack_words(a->m, n), need_words[n]);
}

/* Whether a claim of v is one its volumeStatus does not describe. */
static bool
claim_undescribed(const kv_vmi *v)
{
	for (size_t i = 0; i < v->nvolumes; i++) {
		const kv_volume *vol = &v->volumes[i];
		const kv_volstatus *vs;

		if (vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME)
			continue;
		vs = kv_volstatus_of(v, vol->name);
		if (vs == NULL || !vs->has_pvcinfo)
			return true;
	}
	return false;
}

static bool
has_containerdisk(const kv_vmi *v)
{
	for (size_t i = 0; i < v->nvolumes; i++)
		if (v->volumes[i].kind == VOL_CONTAINERDISK)
			return true;
	return false;
}

/* The resources r's checks read, by its spec (the header comment). */
static unsigned
vmi_reads(const kv_vmires *r)
{
	const kv_vmi *v = r->vmi;
	unsigned u = KV_NEED_BIT(NEED_NODES);

	if (has_containerdisk(v) || v->pod_place.nterms > 0 ||
	    v->pod_place.nspreads > 0)
		u |= KV_NEED_BIT(NEED_PODS);
	if (claim_undescribed(v))
		u |= KV_NEED_BIT(NEED_PVCS);
	return u | r->facts.reads;	/* the flavor's (DVP: operations,
					   attachments, VirtualDisks) */
}

unsigned
kv_vmi_lacks(const kv_analysis *a, const kv_vmires *r)
{
	return a->lacking != 0 ? vmi_reads(r) & a->lacking : 0;
}

unsigned
kv_rules_need(unsigned miss)
{
	unsigned rules = 0;

	for (size_t i = 0; i < kv_nrules; i++)
		if (kv_rules[i].phase != PHASE_DRAIN)
			rules |= kv_rules[i].needs;
	return rules & miss;
}
