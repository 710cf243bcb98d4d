/*
 * harvester/maintenance.c - the check of Harvester's maintenance mode, the
 * third way a VM leaves a node there (beside the Migrate action, whose
 * rows are in checks.c, and `kubectl drain`, whose answer is onDrain):
 * what maintenance mode does to one VMI of the node, by release, where it
 * differs from a drain.  Upstream harvester/harvester:
 *
 *   v1.0 - v1.1.1: the enableMaintenanceMode action cordons the node and
 *     taints it kubevirt.io/drain (v1.1.0 pkg/api/node/formatter.go:
 *     98-113); KubeVirt's evacuation migrates the VMIs of
 *     evictionStrategy LiveMigrate that can migrate, nothing evicts the
 *     others, and maintenance completes once no VMI is left (v1.1.0
 *     pkg/controller/master/node/maintain_controller.go:46-67).
 *   v1.1.2 on: the node-drain controller drains with kubectl's drain
 *     library (v1.1.2 pkg/util/drainhelper/helper.go:42-74, Force),
 *     so a VM goes as onDrain says, after its checks:
 *   v1.2.0 - v1.3.1: the listUnhealthyVM action lists VMs with a CD-ROM
 *     or containerDisk ("Please detach CDROM or ContainerDisk") and VMs
 *     with PCI host devices ("Please power these off") (v1.2.0
 *     pkg/api/node/formatter.go:220-261); Force stops only the VMs whose
 *     last healthy Longhorn replica is there (nodedrain_controller.go:92).
 *   v1.3.2 on: FindNonMigratableVMS lists the last-replica VMs, CD-ROM
 *     or containerDisk VMs (until v1.7.x), VMIs whose LiveMigratable is
 *     False, and VMIs no other ready, schedulable node meets the required
 *     node affinity of (v1.3.2 nodedrain_controller.go:241-290, :358-384);
 *     Force stops every one of them (runStrategy Halted) before the drain
 *     (v1.4.0 :161-171).  v1.4.0 adds the VMI's nodeSelector to the
 *     scheduling check (:434-490), so a VM pinned to the node is listed,
 *     and the label harvesterhci.io/maintain-mode-strategy: Shutdown,
 *     ShutdownAndRestartAfterEnable or ShutdownAndRestartAfterDisable
 *     stops the VM before the drain without Force (:105-156;
 *     pkg/util/constants.go:130-135).  v1.8.0 drops CD-ROM and
 *     containerDisk from the list (v1.8.0 :354-398).
 *
 * Not modelled: the Longhorn replicas (not in a snapshot), a node's Ready
 * condition (a cordoned node counts as not ready).
 */
#include <string.h>

#include "analyze/harvester/harvester.h"
#include "analyze/rules/place.h"
#include "analyze/rules/rule_ctx.h"

/* Whether node n meets one term of the VMI's required node affinity
 * (none: every node), and with sel its nodeSelector too, as
 * CheckVMISchedulingRequirements asks it. */
static bool
meets(const kv_vmi *v, const kv_node *n, bool sel)
{
	bool aff = v->affinity.nterms == 0;

	for (size_t t = 0; !aff && t < v->affinity.nterms; t++) {
		const kv_nsterm *term = &v->affinity.terms[t];
		bool all = term->nreqs > 0;	/* an empty term: no node */

		for (size_t q = 0; all && q < term->nreqs; q++)
			all = kv_req_match(&term->reqs[q], &n->labels,
			    n->name);
		aff = all;
	}
	if (!aff || !sel)
		return aff;
	for (size_t i = 0; i < v->node_selector.n; i++) {
		const char *have = kv_labels_get(&n->labels,
		    v->node_selector.v[i].key);

		if (have == NULL || strcmp(have, v->node_selector.v[i].value))
			return false;
	}
	return true;
}

/* Whether no other schedulable node meets the VMI's scheduling
 * requirements (v1.3.2: only a VMI with required node affinity is
 * checked). */
static bool
unschedulable_elsewhere(const rule_ctx *c)
{
	bool sel = kv_hv_applies(c, HV_MM_SELECTOR);

	if (!sel && c->v->affinity.nterms == 0)
		return false;
	for (size_t i = 0; i < c->m->nnodes; i++) {
		const kv_node *n = &c->m->nodes[i];

		if (n != c->src && !n->unschedulable && meets(c->v, n, sel))
			return false;
	}
	return true;
}

static bool
has_cdrom(const kv_vmi *v)
{
	for (size_t i = 0; i < v->ndisks; i++)
		if (v->disks[i].cdrom)
			return true;
	for (size_t i = 0; i < v->nvolumes; i++)
		if (v->volumes[i].kind == VOL_CONTAINERDISK)
			return true;
	return false;
}

/* Why FindNonMigratableVMS lists the VMI (v1.3.2 on), or NULL. */
static const char *
listed(rule_ctx *c)
{
	if (kv_hv_applies(c, HV_MM_CDROM) && has_cdrom(c->v))
		return "CDRomOrContainerDiskPresent: a CD-ROM or container "
		    "disk";
	if (c->v->cond == 'F')
		return c->v->cond_reason && *c->v->cond_reason ?
		    c->v->cond_reason : "LiveMigratable False";
	if (unschedulable_elsewhere(c))
		return "NodeSchedulingRequirementsNotMet: no other "
		    "schedulable node meets its node affinity or node "
		    "selector";
	return NULL;
}

static void
taint_era(rule_ctx *c, const kv_rule *r, const char *node)
{
	if (c->r->on_drain == DRAIN_MIGRATE || c->r->on_drain == DRAIN_NONE)
		return;
	rule_emit(c, r, "%s's maintenance mode only cordons %s and taints it "
	    "kubevirt.io/drain: KubeVirt migrates the VMIs of evictionStrategy "
	    "LiveMigrate that can migrate, nothing evicts this one "
	    "(evictionStrategy %s), and the maintenance of %s never "
	    "completes until it is stopped", kv_hv_release(c->m,
	    HV_MM_TAINT), node, c->r->eviction, node);
}

void
kv_harvester_check_maintenance(rule_ctx *c, const kv_rule *r)
{
	const char *node = c->v->node, *why, *strategy;

	if (node == NULL || c->r->verdict == V_NOT_RUNNING ||
	    c->r->verdict == V_NOT_JUDGED)
		return;
	if (kv_hv_applies(c, HV_MM_TAINT)) {
		taint_era(c, r, node);
		return;
	}
	strategy = kv_labels_get(&c->v->labels,
	    "harvesterhci.io/maintain-mode-strategy");
	if (kv_hv_applies(c, HV_MM_STRATEGY) && strategy != NULL &&
	    strncmp(strategy, "Shutdown", 8) == 0)
		rule_emit(c, r, "%s's maintenance mode of %s stops the VM "
		    "before the drain (label harvesterhci.io/"
		    "maintain-mode-strategy=%s), whatever the drain would "
		    "do", kv_hv_release(c->m, HV_MM_STRATEGY), node, strategy);
	else if (kv_hv_applies(c, HV_MM_FORCE) && (why = listed(c)) != NULL)
		rule_emit(c, r, "%s's maintenance mode lists the VM as not "
		    "migratable (%s): maintenance of %s needs Force, which "
		    "stops it (runStrategy Halted) before the drain",
		    kv_hv_release(c->m, HV_MM_FORCE), why, node);
	else if (kv_hv_applies(c, HV_MM_LIST) && has_cdrom(c->v))
		rule_emit(c, r, "%s's maintenance mode asks to detach the "
		    "CD-ROM or containerDisk before maintenance of %s; "
		    "without, its drain does what onDrain says",
		    kv_hv_release(c->m, HV_MM_LIST), node);
	else if (kv_hv_applies(c, HV_MM_LIST) && c->v->nhostdevices > 0)
		rule_emit(c, r, "%s's maintenance mode asks to power the VM "
		    "off (PCI devices attached) before maintenance of %s; "
		    "without, its drain does what onDrain says",
		    kv_hv_release(c->m, HV_MM_LIST), node);
}
