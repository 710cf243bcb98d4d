/*
 * dvp/model.c - lookups in the Deckhouse objects of the model (dvp.h).
 * The arrays are sorted by dvp/load.c; every lookup is a binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/dvp/dvp.h"

/* The model's DVP objects; none before loading ends. */
static const kv_dvp *
dvp_of(const kv_model *m)
{
	static const kv_dvp none;

	return m->dvp != NULL ? m->dvp : &none;
}

const kv_dvm *
kv_dvp_vm(const kv_model *m, const char *ns, const char *name)
{
	const kv_dvp *d = dvp_of(m);

	return KV_FIND_NSNAME(d->vms, d->nvms, kv_dvm, ns, name);
}

bool
kv_dvp_cpu_by_class(const kv_model *m, const char *ns, const char *name)
{
	return kv_dvp_vm(m, ns, name) != NULL;
}

const char *
kv_dvp_selector_owner(const kv_model *m, const kv_vmi *v, const char *key,
    const char *value)
{
	const kv_dvm *vm = kv_dvp_vm(m, v->ns, v->name);
	const kv_dclass *c = vm != NULL ? kv_dvp_class(m, vm->class_name) :
	    NULL;
	const char *have = c != NULL ? kv_labels_get(&c->node_selector, key) :
	    NULL;
	const char *w;
	char *s;

	if (have == NULL || strcmp(have, value) != 0)
		return NULL;
	s = xasprintf("the label comes from VirtualMachineClass %s's "
	    "spec.nodeSelector: change the class, for every VM of it, or give "
	    "the VMs another class", c->name);
	w = kv_intern_str(m->strs, s);
	free(s);
	return w;
}

const char *
kv_dvp_model_class(const kv_model *m, const char *model)
{
	const kv_dvp *d = dvp_of(m);

	for (size_t i = 0; i < d->nclasses && model != NULL; i++) {
		const kv_dclass *c = &d->classes[i];

		if (c->cpu_type != NULL && strcmp(c->cpu_type, "Model") == 0 &&
		    c->model != NULL && strcmp(c->model, model) == 0)
			return c->name;
	}
	return NULL;
}

const kv_dclass *
kv_dvp_class(const kv_model *m, const char *name)
{
	const kv_dvp *d = dvp_of(m);
	size_t lo = 0, hi = d->nclasses;

	if (name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(d->classes[mid].name, name);

		if (c == 0)
			return &d->classes[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const kv_vdisk *
kv_dvp_disk_by_claim(const kv_model *m, const char *ns, const char *claim)
{
	const kv_dvp *d = dvp_of(m);
	size_t lo = 0, hi = d->nby_claim;

	if (ns == NULL || claim == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = kv_nscmp(d->by_claim[mid]->ns, d->by_claim[mid]->claim,
		    ns, claim);

		if (c == 0)
			return d->by_claim[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* First index in [0, n) whose (ns, vm) is not less than the key. */
#define LOWER_BOUND(arr, n, ns_, vm_, out) do {				\
	size_t lo_ = 0, hi_ = (n);					\
	while (lo_ < hi_) {						\
		size_t mid_ = (lo_ + hi_) / 2;				\
		if (kv_nscmp((arr)[mid_].ns, (arr)[mid_].vm, (ns_),	\
		    (vm_)) < 0)						\
			lo_ = mid_ + 1;					\
		else							\
			hi_ = mid_;					\
	}								\
	(out) = lo_;							\
} while (0)

size_t
kv_dvp_vmops(const kv_model *m, const char *ns, const char *vm,
    const kv_vmop **first)
{
	const kv_dvp *d = dvp_of(m);
	size_t i, n = 0;

	*first = NULL;
	if (ns == NULL || vm == NULL)
		return 0;
	LOWER_BOUND(d->vmops, d->nvmops, ns, vm, i);
	while (i + n < d->nvmops && kv_nscmp(d->vmops[i + n].ns,
	    d->vmops[i + n].vm, ns, vm) == 0)
		n++;
	if (n > 0)
		*first = &d->vmops[i];
	return n;
}

size_t
kv_dvp_vmbdas(const kv_model *m, const char *ns, const char *vm,
    const kv_vmbda **first)
{
	const kv_dvp *d = dvp_of(m);
	size_t i, n = 0;

	*first = NULL;
	if (ns == NULL || vm == NULL)
		return 0;
	LOWER_BOUND(d->vmbdas, d->nvmbdas, ns, vm, i);
	while (i + n < d->nvmbdas && kv_nscmp(d->vmbdas[i + n].ns,
	    d->vmbdas[i + n].vm, ns, vm) == 0)
		n++;
	if (n > 0)
		*first = &d->vmbdas[i];
	return n;
}


const kv_kvvm *
kv_dvp_kvvm(const kv_model *m, const char *ns, const char *name)
{
	const kv_dvp *d = dvp_of(m);

	return KV_FIND_NSNAME(d->kvvms, d->nkvvms, kv_kvvm, ns, name);
}

/* The class's spec.cpu as type Model with that model (host-model: Host,
 * host-passthrough: HostPassthrough), and every VMI of the class rendered
 * from it again. */
bool
kv_dvp_set_class_cpu(kv_model *m, const char *name, const char *model,
    const char **type, bool *hit)
{
	kv_dclass *k = (kv_dclass *)kv_dvp_class(m, name);

	if (k == NULL)
		return false;
	*type = "Model";
	if (strcmp(model, "host-model") == 0)
		*type = "Host";
	else if (strcmp(model, "host-passthrough") == 0)
		*type = "HostPassthrough";
	k->cpu_type = kv_intern_str(m->strs, *type);
	k->model = kv_intern_str(m->strs, model);
	k->nfeatures = k->nenabled = 0;
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmi *v = &m->vmis[i];
		const kv_dvm *vm = kv_dvp_vm(m, v->ns, v->name);

		if (vm == NULL || vm->class_name == NULL ||
		    strcmp(vm->class_name, k->name) != 0)
			continue;
		free(v->features);
		v->features = NULL;
		v->nfeatures = 0;
		kv_dvp_class_cpu(m->strs, k, &v->cpu_model, &v->features,
		    &v->nfeatures);
		v->cpu_from_class = true;
		hit[i] = true;
	}
	return true;
}

size_t
kv_dvp_finish_ops(kv_model *m, const char *ns, const char *name,
    const char *subject)
{
	const char *done = kv_intern_str(m->strs, "Completed");
	const kv_vmop *ops;
	size_t n = 0, nops = kv_dvp_vmops(m, ns, name, &ops);

	for (size_t k = 0; k < nops; k++) {
		kv_vmop *op = (kv_vmop *)&ops[k];
		char *key = xasprintf("%s %s", op->type, *op->phase ?
		    op->phase : "(no phase)");

		if (strcmp(key, subject) == 0 && !kv_vmop_finished(op)) {
			op->phase = done;
			n++;
		}
		free(key);
	}
	return n;
}

void *
kv_dvp_own_ops(kv_model *m)
{
	kv_dvp *d;

	if (m->dvp == NULL)
		return NULL;
	d = xmalloc(sizeof(*d));
	*d = *m->dvp;
	d->vmops = xcalloc(d->nvmops + 1, sizeof(kv_vmop));
	if (d->nvmops > 0)
		memcpy(d->vmops, m->dvp->vmops, d->nvmops * sizeof(kv_vmop));
	m->dvp = d;
	return d;
}

void
kv_dvp_free_ops(void *owned)
{
	kv_dvp *d = owned;

	if (d != NULL)
		free(d->vmops);
	free(d);
}
