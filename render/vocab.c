/*
 * vocab.c - the words a report uses for the cluster's flavor (render.h).
 *
 * A Deckhouse Virtualization Platform operator reads VirtualMachine,
 * Migratable, VirtualMachineOperation and liveMigrationPolicy where a
 * KubeVirt operator reads VMI, LiveMigratable, VirtualMachineInstance-
 * Migration and MigrationPolicy (../shared/spec/rules-deckhouse.md).  The
 * rule table's titles and remediations speak KubeVirt; for the rows where
 * DVP's remedy differs, dvp_rules below says it in DVP terms.
 */
#include <string.h>

#include "render.h"

static const char *const words[KV_WORD_COUNT][2] = {
	[KV_WORD_VM] = { "VMI", "VirtualMachine" },
	[KV_WORD_VMS] = { "VMIs", "VirtualMachines" },
	[KV_WORD_CONDITION] = { "LiveMigratable", "Migratable" },
	[KV_WORD_MIGRATION] = { "VirtualMachineInstanceMigration",
	    "VirtualMachineOperation" },
	[KV_WORD_POLICY] = { "MigrationPolicy", "liveMigrationPolicy" },
	[KV_WORD_CPU] = { "CPU model", "VirtualMachineClass CPU type" },
	[KV_WORD_CONFIG] = { "KubeVirt CR", "InternalVirtualizationKubeVirt "
	    "config" },
	[KV_WORD_PRODUCT] = { "KubeVirt", "Deckhouse Virtualization "
	    "Platform" },
};

const char *
kv_word(const kv_analysis *a, enum kv_word w)
{
	return words[w][a->cfg.deckhouse ? 1 : 0];
}

static const struct {
	const char *code, *title, *remediation;
} dvp_rules[] = {
	{ "disk-not-shared", "VirtualDisk not ReadWriteMany",
	  "Move the VirtualDisk to a ReadWriteMany storage class, or use the "
	  "Enterprise Edition, whose volume migration copies RWO VirtualDisks "
	  "to the target node." },
	{ "host-device", "Host device, GPU or USB device",
	  "Detach the device from the VirtualMachine before maintenance, or "
	  "plan a restart on another node." },
	{ "tsc-frequency", "Windows VM without a TSC frequency",
	  "DVP enables Hyper-V reenlightenment for osType Windows: make sure "
	  "the nodes carry cpu-timer.node.virtualization.deckhouse.io "
	  "tsc-frequency labels so the VM gets a TSC hint (restart it)." },
	{ "host-model-unsupported", NULL,
	  "Use a VirtualMachineClass of type Model, Discovery or Features for "
	  "VMs on this node." },
	{ "no-cpu-target", NULL,
	  "Use a VirtualMachineClass whose CPU the intended targets support "
	  "(Discovery, Model or Features suit mixed nodes; see the class's "
	  "availableNodes), or add a node of the same CPU; a class change "
	  "needs a restart of the VM." },
	{ "no-placement-target", NULL,
	  "Uncordon a node, relax the VirtualMachine's or its class's "
	  "nodeSelector, affinity or tolerations, or free memory on a "
	  "CPU-compatible node." },
	{ "source-host-model-label-missing", NULL,
	  "Let virt-handler label the node (remove the node-labeller."
	  "virtualization.deckhouse.io/skip-node annotation), or use a class "
	  "of type Model, Discovery or Features." },
	{ "passthrough-cpu-differs", NULL,
	  "Keep VMs of a HostPassthrough class on identical hardware (a "
	  "nodeSelector on the class), or use a Host, Model or Discovery "
	  "class." },
	{ "block-migration", NULL,
	  "Expect a longer migration; move the disks to ReadWriteMany "
	  "storage if the copy is too slow." },
	{ "eviction-blocks-drain", NULL,
	  "Fix the blockers, or stop the VirtualMachine before the drain: "
	  "DVP evacuates VMs by live migration only." },
};

void
kv_rule_text(const kv_analysis *a, const kv_rule *r, const char **title,
    const char **remediation)
{
	*title = r->title;
	*remediation = r->remediation;
	if (!a->cfg.deckhouse)
		return;
	for (size_t i = 0; i < sizeof(dvp_rules) / sizeof(dvp_rules[0]); i++)
		if (strcmp(dvp_rules[i].code, r->code) == 0) {
			if (dvp_rules[i].title != NULL)
				*title = dvp_rules[i].title;
			*remediation = dvp_rules[i].remediation;
		}
}
