/*
 * vocab.c - the words a report uses for the cluster's flavor (render.h).
 *
 * A Deckhouse Virtualization Platform operator reads VirtualMachine,
 * Migratable, VirtualMachineOperation and liveMigrationPolicy where a
 * KubeVirt operator reads VMI, LiveMigratable, VirtualMachineInstance-
 * Migration and MigrationPolicy (docs/rules.md).  The words are the flavor
 * row's vocabulary (analyze/model/flavor.h); a rule's title and
 * remediation are its row's, in the flavor's words (analyze/rules/rule.h).
 */
#include "render/render.h"

const char *
kv_word(const kv_analysis *a, enum kv_word w)
{
	const kv_vocab *v = a->m->flavor->vocab;

	switch (w) {
	case KV_WORD_VM:
		return v->vm;
	case KV_WORD_VMS:
		return v->vms;
	case KV_WORD_CONDITION:
		return v->condition;
	case KV_WORD_MIGRATION:
		return v->migration;
	case KV_WORD_POLICY:
		return v->policy;
	case KV_WORD_CPU:
		return v->cpu;
	case KV_WORD_CONFIG:
		return v->config;
	case KV_WORD_DEFAULTS:
		return v->defaults;
	default:
		return v->product;
	}
}

void
kv_rule_text(const kv_analysis *a, const kv_rule *r, const char **title,
    const char **remediation)
{
	kv_rule_words_of(r, a->m->flavor, title, remediation);
}

const char *
kv_drain_by(const kv_analysis *a)
{
	const kv_vocab *v = a->m->flavor->vocab;

	return !kv_since_on(a, SINCE_NO_PDB) && v->drain_by_pdb != NULL ?
	    v->drain_by_pdb : v->drain_by;
}
