/*
 * notjudged.c - the verdict not-judged (findings.md "not-judged"): what
 * the input lacks of the resources the checks need (need.h), and which
 * of them each check reads for one VMI.  A rule row names its resources
 * (rule.h "needs") and, per resource, when it reads it ("when"): the
 * room on the nodes (no-capacity) reads the pods for every VMI, the
 * digest checks for a containerDisk, placement for pod (anti-)affinity
 * or topology spread; PVCs are read for a claim the VMI's volumeStatus
 * does not describe (KubeVirt itself reads the access modes there first,
 * kubevirt v1.9.0 pkg/storage/types/pvc.go:72-79); a DVP VMI's checks
 * read its VM's VirtualMachineOperations and block device attachments,
 * the VirtualDisks behind its claims, and its VirtualMachineClass when
 * its KVVMI names no CPU (the loader derives it from the class).
 *
 * A snapshot's KubeVirt older than the oldest row of the version table
 * lacks "kubevirt-version": every check of a RULE_BY_VERSION row is
 * skipped, as for a missing resource.
 *
 * Without nodes nothing is judged: KubeVirt renders no target pod
 * without the source Node (docs/rules.md §2.3).  Otherwise vmi.c skips
 * each check that lacks what it reads for the VMI; a check that ran and
 * fails the VMI gives the verdict, and a VMI none fails is not judged
 * when a skipped blocker could have failed it.
 */
#include <string.h>

#include "analyze/rules/analysis.h"
#include "analyze/rules/storage.h"

/* What the checks read from each resource, for the message. */
static const char *const need_words[NEED_COUNT] = {
	[NEED_NODES] = "no source or target node can be judged",
	[NEED_PODS] = "room on the nodes, containerDisk digests, pod "
	    "affinity and the VMI's other launcher pods cannot be judged",
	[NEED_PVCS] = "claims the VMI's volumeStatus does not describe "
	    "cannot be judged",
	[NEED_STORAGECLASSES] = "no storage class can be named for a fix",
	[NEED_VMOPS] = "operations in progress cannot be judged",
	[NEED_VMBDAS] = "disk attachments in progress cannot be judged",
	[NEED_VDISKS] = "whether disks are copied with the VM cannot be "
	    "judged",
	[NEED_VMCLASSES] = "a CPU that comes from the VM's class cannot be "
	    "judged",
	[NEED_VERSION] = "checks that differ by KubeVirt version are not "
	    "judged",
	[NEED_VMS] = KV_VMS_LACK_WORDS,
};

void
kv_lacking_analyze(kv_analysis *a)
{
	const kv_rules_version *rv = &a->cfg.rules;
	char v[32];

	a->lacking = kv_model_lacking(a->m, ~0u);
	for (int n = 0; n < NEED_COUNT; n++)
		if (a->lacking & KV_NEED_BIT(n))
			a->lack_msg[n] = xasprintf("%s: %s; %s",
			    kv_need_rows[n].resource,
			    kv_model_lack_words(a->m, n), need_words[n]);
	/* older than the oldest row: no verdict from a later version's
	 * rules (version_warn.c says it once) */
	if (rv->range != VRANGE_OLDER)
		return;
	kv_ver_format(rv->stated, v, sizeof(v));
	a->lacking |= KV_NEED_BIT(NEED_VERSION);
	a->lack_msg[NEED_VERSION] = xasprintf("%s: KubeVirt %s is %s "
	    "(v%d.%d); %s", kv_need_rows[NEED_VERSION].resource, v,
	    kv_model_lack_words(a->m, NEED_VERSION), kv_ver_oldest.major,
	    kv_ver_oldest.minor, need_words[NEED_VERSION]);
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

/* Whether a check reads resource n when w for r (need.h). */
static bool
when_holds(const kv_vmires *r, enum kv_need_when w, int n)
{
	const kv_vmi *v = r->vmi;

	switch (w) {
	case WHEN_ALWAYS:
		return true;
	case WHEN_CONTAINERDISK:
		return has_containerdisk(v);
	case WHEN_POD_PLACEMENT:
		return v->pod_place.nterms > 0 || v->pod_place.nspreads > 0;
	case WHEN_CLAIM_UNDESCRIBED:
		return claim_undescribed(v);
	case WHEN_FLAVOR:	/* the flavor's vmi hook says (kv_vmifacts) */
		return (r->facts.reads & KV_NEED_BIT(n)) != 0;
	}
	return true;
}

unsigned
kv_rule_lacks(const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	unsigned out = 0;

	if (!kv_rule_applies(rule, a->m->flavor->id))
		return 0;
	if ((rule->flags & RULE_BY_VERSION) &&
	    (a->lacking & KV_NEED_BIT(NEED_VERSION)))
		out |= KV_NEED_BIT(NEED_VERSION);
	if ((rule->needs & a->lacking) == 0)
		return out;
	for (int n = 0; n < NEED_COUNT; n++)
		if ((rule->needs & a->lacking & KV_NEED_BIT(n)) &&
		    when_holds(r, rule->when[n], n))
			out |= KV_NEED_BIT(n);
	return out;
}

unsigned
kv_vmi_lacks(const kv_analysis *a, const kv_vmires *r)
{
	unsigned out = a->lacking & KV_NEED_BIT(NEED_NODES);

	for (size_t i = 0; a->lacking != 0 && i < kv_nrules; i++)
		out |= kv_rule_lacks(a, r, &kv_rules[i]);
	return out;
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
