/*
 * template.c - the VMI a VirtualMachine's restart creates (model.h
 * kv_vm.after), for a VM whose template already differs from its
 * running VMI (condition RestartRequired).
 *
 * virt-controller builds the new VMI from vm.Spec.Template alone
 * (kubevirt v1.9.0 pkg/virt-controller/watch/vm/vm.go:1868-1874
 * SetupVMIFromVM), so after the restart the metadata and spec are the
 * template's; the name, the node it runs on until then and the status
 * kvscope reads are the running VMI's.  A volume whose claim the template
 * changes gets a fresh volumeStatus (virt-controller fills it for the new
 * claim): the old claim's entry is dropped, and the claim object judges.
 *
 * What virt-api's mutating webhook writes into a new VMI where the
 * template leaves a field out is no difference: the cluster's CPU model
 * (host-model without one), evictionStrategy and machine type, and the
 * default pod interface of a template without interfaces and networks
 * (kubevirt v1.9.0 pkg/defaults/defaults.go:193-226, :310-326,
 * SetDefaultVirtualMachineInstanceSpec, setDefaultCPUModel).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/model.h"
#include "analyze/util/util.h"

const char *const kv_tmpl_field_names[TF_COUNT] = {
	[TF_CPU_MODEL] = "cpuModel",
	[TF_CPU_FEATURES] = "cpuFeatures",
	[TF_EVICTION] = "evictionStrategy",
	[TF_NODE_SELECTOR] = "nodeSelector",
	[TF_AFFINITY] = "affinity",
	[TF_TOLERATIONS] = "tolerations",
	[TF_INTERFACES] = "interfaces",
	[TF_NETWORKS] = "networks",
	[TF_VOLUMES] = "volumes",
	[TF_DEVICES] = "devices",
	[TF_MEMORY] = "memory",
	[TF_MACHINE] = "machineType",
};

const char *const kv_binding_names[BIND_OTHER + 1] = {
	[BIND_NONE] = "none", [BIND_MASQUERADE] = "masquerade",
	[BIND_BRIDGE] = "bridge", [BIND_PASST] = "passt",
	[BIND_SRIOV] = "sriov", [BIND_SLIRP] = "slirp",
	[BIND_MACVTAP] = "macvtap", [BIND_PLUGIN] = "binding",
	[BIND_OTHER] = "other",
};

/* Arrays of structs of interned pointers only: equal element by
 * element. */
static bool
same_ptrs(const void *a, size_t na, const void *b, size_t nb, size_t size)
{
	return na == nb && (na == 0 || memcmp(a, b, na * size) == 0);
}

static bool
same_labels(const kv_labels *a, const kv_labels *b)
{
	return same_ptrs(a->v, a->n, b->v, b->n, sizeof(kv_label));
}

static bool
same_affinity(const kv_affinity *a, const kv_affinity *b)
{
	if (a->nterms != b->nterms)
		return false;
	for (size_t t = 0; t < a->nterms; t++) {
		const kv_nsterm *x = &a->terms[t], *y = &b->terms[t];

		if (x->nreqs != y->nreqs)
			return false;
		for (size_t i = 0; i < x->nreqs; i++) {
			const kv_nsreq *p = &x->reqs[i], *q = &y->reqs[i];

			if (p->key != q->key || p->field != q->field ||
			    p->op != q->op || !same_ptrs(p->values,
			    p->nvalues, q->values, q->nvalues,
			    sizeof(char *)))
				return false;
		}
	}
	return true;
}

static bool
same_ifaces(const kv_vmi *a, const kv_vmi *b)
{
	if (a->nifaces != b->nifaces)
		return false;
	for (size_t i = 0; i < a->nifaces; i++)
		if (a->ifaces[i].name != b->ifaces[i].name ||
		    a->ifaces[i].binding != b->ifaces[i].binding ||
		    a->ifaces[i].plugin != b->ifaces[i].plugin)
			return false;
	return true;
}

static bool
same_volumes(const kv_vmi *a, const kv_vmi *b)
{
	if (a->nvolumes != b->nvolumes)
		return false;
	for (size_t i = 0; i < a->nvolumes; i++) {
		const kv_volume *p = &a->volumes[i], *q = &b->volumes[i];

		if (p->name != q->name || p->kind != q->kind ||
		    p->claim != q->claim || p->image != q->image ||
		    p->hostdisk_shared != q->hostdisk_shared)
			return false;
	}
	return true;
}

/* A field the template leaves out and the webhook fills: equal when the
 * VMI has the default (or, def NULL, any value). */
static bool
same_or_default(const char *vmi, const char *tmpl, const char *def)
{
	if (vmi == tmpl)
		return true;
	return (tmpl == NULL || *tmpl == '\0') && (def == NULL ||
	    (vmi != NULL && strcmp(vmi, def) == 0));
}

static bool
default_iface(const kv_vmi *v, const kv_vmi *t)
{
	return t->nifaces == 0 && t->nnetworks == 0 && v->nifaces == 1 &&
	    v->nnetworks == 1 && v->pod_network != NULL;
}

static unsigned
differs(const kv_model *m, const kv_vmi *v, const kv_vmi *t)
{
	const char *model = m->cluster.cpu_model && *m->cluster.cpu_model ?
	    m->cluster.cpu_model : "host-model";
	unsigned d = 0;

	d |= (unsigned)!same_or_default(v->cpu_model, t->cpu_model, model) <<
	    TF_CPU_MODEL;
	d |= (unsigned)!same_ptrs(v->features, v->nfeatures, t->features,
	    t->nfeatures, sizeof(kv_cpufeat)) << TF_CPU_FEATURES;
	d |= (unsigned)!same_or_default(v->eviction, t->eviction,
	    m->cluster.eviction) << TF_EVICTION;
	d |= (unsigned)!same_labels(&v->node_selector, &t->node_selector) <<
	    TF_NODE_SELECTOR;
	d |= (unsigned)!same_affinity(&v->affinity, &t->affinity) <<
	    TF_AFFINITY;
	d |= (unsigned)!same_ptrs(v->tolerations, v->ntolerations,
	    t->tolerations, t->ntolerations, sizeof(kv_toleration)) <<
	    TF_TOLERATIONS;
	d |= (unsigned)(!same_ifaces(v, t) && !default_iface(v, t)) <<
	    TF_INTERFACES;
	d |= (unsigned)((v->nnetworks != t->nnetworks ||
	    v->pod_network != t->pod_network) && !default_iface(v, t)) <<
	    TF_NETWORKS;
	d |= (unsigned)!same_volumes(v, t) << TF_VOLUMES;
	d |= (unsigned)(v->nhostdevices != t->nhostdevices ||
	    v->ngpus != t->ngpus || v->gpu_device != t->gpu_device) <<
	    TF_DEVICES;
	d |= (unsigned)(v->memory != t->memory) << TF_MEMORY;
	d |= (unsigned)!same_or_default(v->machine_spec, t->machine_spec,
	    NULL) << TF_MACHINE;
	return d;
}

static const char *
claim_of(const kv_vmi *v, const char *volume)
{
	for (size_t i = 0; i < v->nvolumes; i++)
		if (v->volumes[i].name == volume)
			return v->volumes[i].claim;
	return NULL;
}

/* The running VMI's volumeStatus of the volumes that keep their claim. */
static void
keep_volstatus(kv_vmi *t, const kv_vmi *v)
{
	t->volstatus = xcalloc(v->nvolstatus + 1, sizeof(kv_volstatus));
	for (size_t i = 0; i < v->nvolstatus; i++) {
		const char *c = claim_of(t, v->volstatus[i].name);

		if (c != NULL && c == claim_of(v, v->volstatus[i].name))
			t->volstatus[t->nvolstatus++] = v->volstatus[i];
	}
}

static void
link_one(const kv_model *m, kv_vm *vm, const kv_vmi *v)
{
	kv_vmi *t = vm->after;

	t->ns = v->ns;
	t->name = v->name;
	t->uid = v->uid;
	t->fullname = v->fullname;
	t->phase = v->phase;
	t->node = v->node;
	t->machine_status = v->machine_status;
	t->cond = v->cond;
	t->cond_reason = v->cond_reason;
	t->cond_message = v->cond_message;
	t->tsc_hint = v->tsc_hint;
	t->migration_source = v->migration_source;
	t->migration_target = v->migration_target;
	t->migration_completed = v->migration_completed;
	t->os_id = v->os_id;
	t->os_version = v->os_version;
	t->os_kernel = v->os_kernel;
	keep_volstatus(t, v);
	vm->differs = differs(m, v, t);
}

void
kv_model_link_templates(kv_model *m)
{
	for (size_t i = 0; i < m->nvmis; i++) {
		const kv_vmi *v = &m->vmis[i];
		kv_vm *vm = (kv_vm *)kv_model_vm(m, v->ns, v->name);

		if (vm != NULL && vm->after != NULL)
			link_one(m, vm, v);
	}
}

char *
kv_vm_differs_text(const kv_vm *vm)
{
	kv_buf b = {0};

	for (int f = 0; f < TF_COUNT; f++)
		if (vm->differs & (1u << f))
			kv_buf_printf(&b, "%s%s", b.data ? ", " : "",
			    kv_tmpl_field_names[f]);
	return b.data ? b.data : xstrdup("nothing kvscope reads");
}

void
kv_vm_take_after(kv_vm *vm, kv_vmi *v)
{
	kv_vmi old = *v;

	if (vm->after == NULL)
		return;
	*v = *vm->after;
	*vm->after = old;
	v->restarted = old.restarted;
	v->nostart = old.nostart;
	/* what a change wrote into the volumeStatus the new VMI keeps */
	for (size_t i = 0; i < v->nvolstatus; i++)
		for (size_t k = 0; k < old.nvolstatus; k++)
			if (old.volstatus[k].name == v->volstatus[i].name)
				v->volstatus[i] = old.volstatus[k];
	vm->restart_required = false;
	vm->differs = 0;
}
