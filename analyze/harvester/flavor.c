/*
 * harvester/flavor.c - Harvester's row of the flavor table (flavor.h): a
 * distribution of plain KubeVirt (base), told from it by the
 * harvesterhci.io settings the collector fetches.  Labels, keys and
 * condition reasons are KubeVirt's; the words name Harvester where its
 * own actions act (the Migrate action, maintenance mode), and say that a
 * drain's answer (onDrain) is kubectl drain's.
 */
#include "analyze/harvester/harvester.h"

#include "analyze/rules/analysis.h"

static const kv_vocab harvester_vocab = {
	KV_KUBEVIRT_WORDS,
	.product = "Harvester",
	.drain_act = "kubectl drain",
	.verdict_note = "Harvester: the Migrate action's answer",
	.drain_by = "kubectl drain (KubeVirt's pod eviction webhook and "
	    "evacuation controller; Harvester's maintenance mode drains the "
	    "same way after its own checks, harvester-maintenance)",
	.drain_by_pdb = "kubectl drain and KubeVirt's PodDisruptionBudgets "
	    "(kubevirt-disruption-budget-*, up to KubeVirt v1.5; Harvester's "
	    "maintenance mode drains the same way after its own checks, "
	    "harvester-maintenance)",
};

static const kv_lack_note harvester_lack_notes[] = {
	{ "settings", "harvesterhci.io", "Harvester's version (its "
	  "server-version setting) is unknown, so the Harvester checks "
	  "that differ by release follow the KubeVirt version" },
	{ "versions", "harvesterhci.io", "kvscope reads no Harvester "
	  "versions, so nothing is left unjudged" },
	{ NULL, NULL, NULL },
};

static const char *const none[] = { NULL };

bool
kv_harvester_detect(const kv_model *m)
{
	return m->harvester_present || m->harvester_version != NULL;
}

const kv_flavor kv_flavor_harvester = {
	.id = KV_FLAVOR_HARVESTER,
	.name = "harvester",
	.short_name = "Harvester",
	.api_suffix = NULL,
	.foreign_groups = none,
	.served_group = NULL,
	KV_KUBEVIRT_LABELS,
	.vendor_selector = true,	/* by version, as KubeVirt's */
	.unlabelled_models = none,
	.vocab = &harvester_vocab,
	KV_KUBEVIRT_NOTES,
	.lack_notes = harvester_lack_notes,
	.fix = &kv_fixrow_kubevirt,	/* its VMs are KubeVirt's */
	.restarts = kv_restart_kubevirt,
	.base = &kv_flavor_kubevirt,
	.detect = kv_harvester_detect,
};
