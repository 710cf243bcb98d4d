/*
 * dvp/analysis.c - what the Deckhouse Virtualization Platform changes in
 * the analysis (docs/rules.md): its migration settings
 * (§5), and for each VMI the VirtualMachine behind it, its class, the
 * Migratable condition, the liveMigrationPolicy, the operations and
 * attachments in progress, and which RWO VirtualDisks would move with it
 * by volume migration (§3.2 steps 2 and 5).  These are hooks of the
 * Deckhouse flavor row (dvp/flavor.c); the checks themselves are rows of
 * the rule table (ruletable.c) with their functions in dvp/checks.c.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/analysis.h"
#include "analyze/dvp/dvp.h"
#include "analyze/rules/storage.h"

/* DVP's own defaults for the KubeVirt migration settings (§5): helm
 * renders them into the InternalVirtualizationKubeVirt config; these apply
 * when the snapshot has no such config or it leaves one out. */
#define DVP_BANDWIDTH_MIBPS	640
#define DVP_COMPLETION_PER_GIB	800
#define DVP_MIN_PARALLEL	2

void
kv_dvp_config(kv_analysis *a)
{
	const kv_model *m = a->m;
	const kv_cluster *k = &m->cluster;
	kv_config *c = &a->cfg;
	char *sched;
	int64_t n = 0;

	c->sync_per_node = 1;
	c->inbound_per_node = 1;	/* PARALLEL_INBOUND_..._PER_NODE */
	if (k->eviction == NULL || *k->eviction == '\0')
		c->eviction = "LiveMigrate";
	if (k->bandwidth < 0)
		c->bandwidth_mibps = DVP_BANDWIDTH_MIBPS;
	if (k->completion_per_gib < 0)
		c->completion_per_gib = DVP_COMPLETION_PER_GIB;
	if (k->parallel_cluster < 0) {
		sched = xasprintf("%sschedulable", c->kv_prefix);
		for (size_t i = 0; i < m->nnodes; i++) {
			const char *v = kv_labels_get(&m->nodes[i].labels,
			    sched);

			n += v != NULL && strcmp(v, "true") == 0;
		}
		free(sched);
		c->parallel_cluster = n > DVP_MIN_PARALLEL ? n :
		    DVP_MIN_PARALLEL;
	}
	/* Volume migration (EE): KubeVirt's VolumeMigration gate in the
	 * DVP KubeVirt config, or a VM whose Migratable reason shows it. */
	c->volume_migration = kv_gate_on(k, "VolumeMigration");
	for (size_t i = 0; i < m->dvp->nvms && !c->volume_migration; i++)
		c->volume_migration = m->dvp->vms[i].migratable_reason &&
		    strcmp(m->dvp->vms[i].migratable_reason,
		    "VirtualMachineDisksShouldBeMigrating") == 0;
}

/* Whether the RWO VirtualDisks of this VM would migrate: the VM's own
 * Migratable reason first, then the cluster. */
static bool
vm_volume_migration(const kv_analysis *a, const kv_dvm *vm)
{
	const char *why = vm ? vm->migratable_reason : NULL;

	if (why != NULL && strcmp(why, "VirtualMachineDisksShouldBeMigrating")
	    == 0)
		return true;
	if (why != NULL && strcmp(why, "VirtualMachineDisksNotMigratable")
	    == 0)
		return false;
	return a->cfg.volume_migration;
}

static bool
bda_pending(const kv_vmbda *b)
{
	return strcmp(b->phase, "Attached") != 0 &&
	    strcmp(b->phase, "Failed") != 0;
}

/* A requirement that pins the pod to node: kubernetes.io/hostname In
 * [.. node ..], or metadata.name the same way (a local PV's pin). */
static bool
pins_to(const kv_nsreq *q, const char *node)
{
	if (q->op != OP_IN || node == NULL || strcmp(q->key, q->field ?
	    "metadata.name" : "kubernetes.io/hostname") != 0)
		return false;
	for (size_t i = 0; i < q->nvalues; i++)
		if (strcmp(q->values[i], node) == 0)
			return true;
	return false;
}

/*
 * §3.3, §10 step 4: when the VM's disks migrate, the PV node pins DVP put
 * into the KVVMI's node affinity (a cross product with the VM's own terms,
 * §5) no longer hold the target.  DVP's own answer, the KVVM annotation
 * migration-node-affinity-terms, wins; without it (no KVVMs in the
 * snapshot, or an older DVP) the snapshot has no PVs to tell pins apart,
 * so the requirements that pin to the source node by name are dropped: a
 * local PV of a running VM is on its node.  A term left empty would match
 * every node, and then the affinity holds no constraint at all.
 */
static void
migrating_affinity(const kv_model *m, kv_vmires *r)
{
	const kv_vmi *v = r->vmi;
	const kv_kvvm *k = kv_dvp_kvvm(m, v->ns, v->name);
	kv_affinity *out = &r->dvp->affinity;
	bool any_empty = false;

	if (k != NULL && k->has_terms) {
		r->affinity = &k->terms;
		r->dvp->pins = "annotation";
		return;
	}
	out->terms = xcalloc(v->affinity.nterms + 1, sizeof(kv_nsterm));
	for (size_t t = 0; t < v->affinity.nterms; t++) {
		const kv_nsterm *in = &v->affinity.terms[t];
		kv_nsterm *o = &out->terms[out->nterms++];

		o->reqs = xcalloc(in->nreqs + 1, sizeof(kv_nsreq));
		for (size_t q = 0; q < in->nreqs; q++)
			if (!pins_to(&in->reqs[q], v->node))
				o->reqs[o->nreqs++] = in->reqs[q];
		any_empty |= o->nreqs == 0 && in->nreqs > 0;
	}
	if (any_empty) {
		for (size_t t = 0; t < out->nterms; t++)
			free(out->terms[t].reqs);
		out->nterms = 0;
	}
	r->affinity = out;
	r->dvp->pins = "dropped";
}

/* The explain lines (kv_vmifacts.notes): the VirtualMachine, its class
 * and CPU type, the operations and attachments in progress. */
static void
notes(const kv_vmires *r, kv_vmifacts *f)
{
	const kv_dvpres *d = r->dvp;
	size_t n = 0;

	f->notes = xcalloc(d->nops + d->nbdas + 1, sizeof(char *));
	if (d->vm == NULL)
		f->notes[n++] = xstrdup("no VirtualMachine object in the "
		    "snapshot");
	else
		f->notes[n++] = xasprintf("class %s (CPU type %s%s), "
		    "liveMigrationPolicy %s%s", d->vm->class_name ?
		    d->vm->class_name : "-", d->cpu_type ? d->cpu_type :
		    "unknown", r->vmi->cpu_from_class ? ", CPU derived from "
		    "the class" : "", d->policy, d->policy_default ?
		    " (default)" : "");
	for (size_t i = 0; d->vm != NULL && i < d->nops; i++) {
		const kv_vmop_origin *o = kv_vmop_system_origin(d->ops[i]);

		f->notes[n++] = xasprintf("operation %s: %s, phase %s%s%s",
		    d->ops[i]->name, d->ops[i]->type, *d->ops[i]->phase ?
		    d->ops[i]->phase : "not set", o ? ", by DVP for a " : "",
		    o ? o->what : "");
	}
	for (size_t i = 0; d->vm != NULL && i < d->nbdas; i++)
		f->notes[n++] = xasprintf("attachment %s: phase %s",
		    d->bdas[i]->name, *d->bdas[i]->phase ? d->bdas[i]->phase :
		    "not set");
	f->nnotes = n;
}

static bool
has_claim(const kv_vmi *v)
{
	for (size_t i = 0; i < v->nvolumes; i++)
		if (v->volumes[i].kind == VOL_PVC ||
		    v->volumes[i].kind == VOL_DATAVOLUME)
			return true;
	return false;
}

/* Whether v's CPU is its class's (DVP §6.1: the KVVMI names none, so
 * the loader derives it from the VirtualMachineClass, or cannot). */
static bool
cpu_of_class(const kv_vmi *v)
{
	return v->cpu_from_class || ((v->cpu_model == NULL ||
	    *v->cpu_model == '\0') && v->nfeatures == 0);
}

/* What the core reads of DVP (kv_vmifacts), from r->dvp-> */
static void
facts(kv_vmires *r)
{
	const kv_dvpres *d = r->dvp;
	kv_vmifacts *f = &r->facts;

	/* its checks read the VM's operations and block device attachments,
	 * and the VirtualDisks behind its claims (notjudged.c) */
	f->reads = KV_NEED_BIT(NEED_VMOPS) | KV_NEED_BIT(NEED_VMBDAS) |
	    (has_claim(r->vmi) ? KV_NEED_BIT(NEED_VDISKS) : 0) |
	    (cpu_of_class(r->vmi) ? KV_NEED_BIT(NEED_VMCLASSES) : 0);

	f->cpu_object = d->vm ? d->vm->class_name : NULL;
	f->cpu_object_loaded = d->cls ? d->cls->name : NULL;
	f->cpu_from_object = true;
	f->os_type = d->vm ? d->vm->os_type : NULL;
	f->own_vm = d->vm != NULL;
	f->policy = d->policy;
	f->ops = xcalloc(d->nops + 1, sizeof(kv_vmiop));
	for (size_t i = 0; i < d->nops; i++)
		f->ops[i] = (kv_vmiop){ d->ops[i]->ns, d->ops[i]->name,
		    d->ops[i]->type, d->ops[i]->phase };
	f->nops = d->nops;
	notes(r, f);
}

void
kv_dvp_vmi(kv_analysis *a, kv_vmires *r)
{
	const kv_model *m = a->m;
	const kv_vmi *v = r->vmi;
	kv_dvpres *d = r->dvp = xcalloc(1, sizeof(kv_dvpres));
	const kv_vmop *ops;
	const kv_vmbda *bdas;
	size_t n;

	d->present = true;
	d->vm = kv_dvp_vm(m, v->ns, v->name);
	d->cls = d->vm ? kv_dvp_class(m, d->vm->class_name) : NULL;
	d->cpu_type = d->cls ? d->cls->cpu_type : NULL;
	d->policy = kv_dvp_policy(d->vm);
	d->policy_default = d->vm == NULL || d->vm->policy == NULL ||
	    *d->vm->policy == '\0';
	if (d->vm != NULL) {
		/* the VM's Migratable condition; absent stays absent */
		r->cond = d->vm->migratable;
		r->cond_type = "Migratable";
		r->cond_reason = d->vm->migratable_reason;
		r->cond_message = d->vm->migratable_message;
	}
	d->volume_migration = vm_volume_migration(a, d->vm);
	if (d->volume_migration) {
		r->migvols = xcalloc(v->nvolumes + 1, sizeof(kv_volume *));
		for (size_t i = 0; i < v->nvolumes; i++) {
			const kv_volume *vol = &v->volumes[i];

			if ((vol->kind == VOL_PVC ||
			    vol->kind == VOL_DATAVOLUME) &&
			    kv_claim_not_shared(m, v, vol) &&
			    kv_dvp_disk_by_claim(m, v->ns, vol->claim) != NULL)
				r->migvols[r->nmigvols++] = vol;
		}
		if (r->nmigvols > 0)
			migrating_affinity(m, r);
	}
	n = kv_dvp_vmops(m, v->ns, v->name, &ops);
	d->ops = xcalloc(n + 1, sizeof(kv_vmop *));
	for (size_t i = 0; i < n; i++)
		if (!kv_vmop_finished(&ops[i]))
			d->ops[d->nops++] = &ops[i];
	/* §4.4: the VMIM DVP creates carries the oldest unfinished
	 * Migrate/Evict's nodeSelector as addedNodeSelector; before that
	 * VMIM exists, the operation itself says it.  Only where the fork
	 * has addedNodeSelector (versions.c SINCE_VMOP_SELECTOR: not the
	 * 1.3.1 forks of DVP before v1.4.0) */
	for (size_t i = 0; kv_since_on(a, SINCE_VMOP_SELECTOR) &&
	    i < d->nops && r->added_selector == NULL; i++)
		if (kv_vmop_is_migration(d->ops[i]) &&
		    d->ops[i]->node_selector.n > 0) {
			r->added_selector = &d->ops[i]->node_selector;
			r->added_by = d->ops[i]->name;
		}
	n = kv_dvp_vmbdas(m, v->ns, v->name, &bdas);
	d->bdas = xcalloc(n + 1, sizeof(kv_vmbda *));
	for (size_t i = 0; i < n; i++)
		if (bda_pending(&bdas[i]))
			d->bdas[d->nbdas++] = &bdas[i];
	facts(r);
}

void
kv_dvp_describe_volume(const kv_model *m, const char *ns,
    const kv_volume *vol, kv_buf *b)
{
	const kv_vdisk *vd = kv_dvp_disk_by_claim(m, ns, vol->claim);

	if (vd != NULL)
		kv_buf_printf(b, "VirtualDisk %s, ", vd->name);
}

void
kv_dvp_result_free(kv_vmires *r)
{
	if (r->dvp == NULL)
		return;
	free(r->dvp->ops);
	free(r->dvp->bdas);
	for (size_t t = 0; t < r->dvp->affinity.nterms; t++)
		free(r->dvp->affinity.terms[t].reqs);
	free(r->dvp->affinity.terms);
	free(r->dvp);
	r->dvp = NULL;
}
