/*
 * dvp/stopped.c - the flavor's stopped_vms hook (flavor.h, dvp.h): a
 * stopped DVP VirtualMachine has no KubeVirt VirtualMachine or VMI in a
 * snapshot (DVP's controller deletes its KVVM and KVVMI), so crosscheck
 * would not see it.  For each VM of phase Stopped without a KubeVirt VM
 * of its name, a kv_vm of run Halted is added whose `stopped` VMI is
 * what DVP's controller would create when it starts: the class's CPU
 * (kv_dvp_class_cpu, as for a KVVMI that lacks one: kvbuilder/kvvm.go),
 * spec.cpu.cores, spec.memory.size as guest memory and memory request,
 * one PVC volume per VirtualDisk of spec.blockDeviceRefs (named
 * "vd-<disk>", its claim the disk's status.target), the class's
 * spec.nodeSelector.matchLabels and the VM's labels.  Left out: the
 * VM's own nodeSelector, affinity and tolerations (not loaded).
 *
 * Ownership: the kv_vm and its VMI belong to m (kv_model_free); the
 * strings are m's.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/dvp/dvp.h"
#include "analyze/util/util.h"

static kv_labels
labels_dup(const kv_labels *l)
{
	kv_labels d = { l->n, NULL };

	d.v = xcalloc(l->n + 1, sizeof(kv_label));
	if (l->n > 0)
		memcpy(d.v, l->v, l->n * sizeof(kv_label));
	return d;
}

/* One PVC volume per VirtualDisk of the VM whose claim is known. */
static void
volumes(const kv_model *m, const kv_dvm *d, kv_vmi *v)
{
	v->volumes = xcalloc(d->ndisks + 1, sizeof(kv_volume));
	for (size_t i = 0; i < d->ndisks; i++) {
		const kv_vdisk *k = KV_FIND_NSNAME(m->dvp->disks,
		    m->dvp->ndisks, kv_vdisk, d->ns, d->disks[i]);
		char *name;

		if (k == NULL || k->claim == NULL)
			continue;
		name = xasprintf("vd-%s", k->name);
		v->volumes[v->nvolumes++] = (kv_volume){
			.name = kv_intern_str(m->strs, name),
			.kind = VOL_PVC, .claim = k->claim,
			.source = kv_intern_str(m->strs,
			    "persistentVolumeClaim"),
		};
		free(name);
	}
}

static kv_vmi *
start_vmi(kv_model *m, const kv_dvm *d, const char *fullname)
{
	kv_vmi *v = xcalloc(1, sizeof(*v));
	const kv_dclass *c = d->class_name != NULL ?
	    kv_dvp_class(m, d->class_name) : NULL;

	v->ns = d->ns;
	v->name = d->name;
	v->fullname = fullname;
	v->phase = "";
	v->labels = labels_dup(&d->labels);
	v->memory = v->guest_memory = v->req_memory = d->memory;
	v->req_cpu = -1;
	v->tsc_hint = -1;
	v->autoattach = -1;
	v->vcpus = d->cores > 0 ? d->cores : 1;
	if (c != NULL) {
		v->cpu_from_class = kv_dvp_class_cpu(m->strs, c,
		    &v->cpu_model, &v->features, &v->nfeatures);
		v->node_selector = labels_dup(&c->node_selector);
	}
	volumes(m, d, v);
	return v;
}

static int
vm_cmp(const void *x, const void *y)
{
	const kv_vm *a = x, *b = y;

	return kv_nscmp(a->ns, a->name, b->ns, b->name);
}

void
kv_dvp_stopped_vms(kv_model *m)
{
	size_t n = m->nvms;

	if (m->dvp == NULL)
		return;
	for (size_t i = 0; i < m->dvp->nvms; i++) {
		const kv_dvm *d = &m->dvp->vms[i];
		kv_vm *vm;
		char *full;

		if (strcmp(d->phase, "Stopped") != 0 ||
		    kv_model_vm(m, d->ns, d->name) != NULL)
			continue;
		m->vms = xreallocarray(m->vms, n + 1, sizeof(kv_vm));
		vm = &m->vms[n++];
		memset(vm, 0, sizeof(*vm));
		full = xasprintf("%s/%s", d->ns, d->name);
		vm->ns = d->ns;
		vm->name = d->name;
		vm->fullname = kv_intern_str(m->strs, full);
		free(full);
		vm->run = RS_HALTED;
		vm->stopped_why = "phase Stopped";
		vm->stopped = start_vmi(m, d, vm->fullname);
	}
	if (n == m->nvms)
		return;
	m->nvms = n;
	kv_qsort(m->vms, m->nvms, sizeof(kv_vm), vm_cmp);
}
