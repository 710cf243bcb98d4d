/*
 * openshift/flavor.c - OpenShift Virtualization's row of the flavor table
 * (flavor.h): a distribution of plain KubeVirt (base), told from it by
 * the HyperConverged CR the collector fetches.  Labels, keys, condition
 * reasons, words and fixes are KubeVirt's (HCO deploys upstream
 * KubeVirt); what differs is the configuration the operator writes
 * (openshift/config.c).
 */
#include "analyze/openshift/openshift.h"

#include "analyze/rules/analysis.h"

static const kv_vocab openshift_vocab = {
	KV_KUBEVIRT_WORDS,
	.product = "OpenShift Virtualization",
	.drain_by = "KubeVirt's pod eviction webhook and evacuation "
	    "controller",
	.drain_by_pdb = "KubeVirt's PodDisruptionBudgets "
	    "(kubevirt-disruption-budget-*, one per migratable VMI up to "
	    "KubeVirt v1.5, OpenShift Virtualization 4.19) and evacuation "
	    "controller",
};

static const kv_lack_note openshift_lack_notes[] = {
	{ "hyperconvergeds", "hco.kubevirt.io", "OpenShift Virtualization "
	  "is not recognised and its HyperConverged settings not applied" },
	{ NULL, NULL, NULL },
};

static const char *const none[] = { NULL };

bool
kv_openshift_detect(const kv_model *m)
{
	return m->hco_present;
}

const kv_flavor kv_flavor_openshift = {
	.id = KV_FLAVOR_OPENSHIFT,
	.name = "openshift",
	.short_name = "OpenShift Virtualization",
	.api_suffix = NULL,
	.foreign_groups = none,
	KV_KUBEVIRT_LABELS,
	.vendor_selector = true,	/* by version, as KubeVirt's */
	.unlabelled_models = none,
	.vocab = &openshift_vocab,
	.no_config = "no KubeVirt CR in the snapshot; the HyperConverged "
	    "operator's settings and defaults assumed",
	.rwo_note = "",
	.migvol_why = "volume migration",
	.lack_notes = openshift_lack_notes,
	.fix = &kv_fixrow_kubevirt,	/* its VMs are KubeVirt's */
	.restarts = kv_restart_kubevirt,
	.config = kv_openshift_config,
	.base = &kv_flavor_kubevirt,
	.detect = kv_openshift_detect,
};
