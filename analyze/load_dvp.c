/*
 * load_dvp.c - Deckhouse Virtualization Platform objects -> kv_model.dvp,
 * their lookups, and the DVP rules of dvp.h.  Paths and meanings:
 * ../shared/spec/rules-deckhouse.md §4, §6, §7.
 */
#include <stdlib.h>
#include <string.h>

#include "dvp.h"
#include "jget.h"

/* --- helpers ------------------------------------------------------------- */

/* A condition of type `type` in status.conditions: 'T', 'F' or 0. */
static int
condition(jctx *c, json_t *o, const char *type, char *st,
    const char **reason, const char **message)
{
	json_t *conds, *e;
	size_t i;

	*st = 0;
	if (reason != NULL)
		*reason = NULL;
	if (message != NULL)
		*message = NULL;
	if (jget(c, o, "status.conditions", JSON_ARRAY, &conds))
		return KV_ERR;
	if (conds == NULL)
		return KV_OK;
	json_array_foreach(conds, i, e) {
		const char *t, *s;

		jwhere(c, "status.conditions[%zu].", i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "type", &t) || jstr(c, e, "status", &s))
			return KV_ERR;
		if (t == NULL || strcmp(t, type) != 0)
			continue;
		if ((reason != NULL && jstr(c, e, "reason", reason)) ||
		    (message != NULL && jstr(c, e, "message", message)))
			return KV_ERR;
		*st = s != NULL && strcmp(s, "True") == 0 ? 'T' : 'F';
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* Names of the VirtualDisk entries of a blockDeviceRefs list. */
static int
disk_refs(jctx *c, json_t *o, const char *path, kv_dvm *vm)
{
	json_t *arr, *e;
	size_t i;

	if (jget(c, o, path, JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr == NULL)
		return KV_OK;
	free(vm->disks);
	vm->ndisks = 0;
	vm->disks = xcalloc(json_array_size(arr) + 1, sizeof(char *));
	json_array_foreach(arr, i, e) {
		const char *kind, *name;

		jwhere(c, "%s[%zu].", path, i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "kind", &kind) || jstr(c, e, "name", &name))
			return KV_ERR;
		if (kind != NULL && name != NULL &&
		    strcmp(kind, "VirtualDisk") == 0)
			vm->disks[vm->ndisks++] = name;
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* --- loaders --------------------------------------------------------------- */

int
kv_dvp_load_vm(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = &m->dvp;
	kv_dvm *vm;

	vm = KV_PUSH(d->vms, d->nvms, cap->vms);
	if (kv_load_meta(c, o, &vm->name, &vm->ns, true) ||
	    jstr(c, o, "spec.virtualMachineClassName", &vm->class_name) ||
	    jstr(c, o, "spec.liveMigrationPolicy", &vm->policy) ||
	    jstr(c, o, "spec.runPolicy", &vm->run_policy) ||
	    jstr(c, o, "spec.osType", &vm->os_type) ||
	    jstr(c, o, "status.phase", &vm->phase) ||
	    jstr(c, o, "status.nodeName", &vm->node) ||
	    condition(c, o, "Migratable", &vm->migratable,
	    &vm->migratable_reason, &vm->migratable_message) ||
	    condition(c, o, "Migrating", &vm->migrating,
	    &vm->migrating_reason, NULL) ||
	    disk_refs(c, o, "spec.blockDeviceRefs", vm) ||
	    disk_refs(c, o, "status.blockDeviceRefs", vm))
		return KV_ERR;
	if (vm->phase == NULL)
		vm->phase = "";
	return KV_OK;
}

int
kv_dvp_load_class(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = &m->dvp;
	kv_dclass *k;
	json_t *en, *av;

	k = KV_PUSH(d->classes, d->nclasses, cap->classes);
	if (kv_load_meta(c, o, &k->name, NULL, false) ||
	    jstr(c, o, "spec.cpu.type", &k->cpu_type) ||
	    jstr(c, o, "spec.cpu.model", &k->model) ||
	    jstrarray(c, o, "spec.cpu.features", &k->features,
	    &k->nfeatures) ||
	    jget(c, o, "status.cpuFeatures.enabled", JSON_ARRAY, &en) ||
	    jstrarray(c, o, "status.cpuFeatures.enabled", &k->enabled,
	    &k->nenabled) ||
	    jget(c, o, "status.availableNodes", JSON_ARRAY, &av) ||
	    jstrarray(c, o, "status.availableNodes", &k->available,
	    &k->navailable) ||
	    jlabels(c, o, "spec.nodeSelector.matchLabels", &k->node_selector) ||
	    jstr(c, o, "status.phase", &k->phase))
		return KV_ERR;
	k->enabled_set = en != NULL;
	k->available_set = av != NULL;
	return KV_OK;
}

int
kv_dvp_load_disk(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = &m->dvp;
	kv_vdisk *v;

	v = KV_PUSH(d->disks, d->ndisks, cap->disks);
	if (kv_load_meta(c, o, &v->name, &v->ns, true) ||
	    jstr(c, o, "status.target.persistentVolumeClaimName", &v->claim) ||
	    jstr(c, o, "status.storageClassName", &v->storage_class) ||
	    jstr(c, o, "spec.persistentVolumeClaim.storageClassName",
	    &v->want_class) ||
	    jstr(c, o, "status.phase", &v->phase))
		return KV_ERR;
	return KV_OK;
}

int
kv_dvp_load_vmop(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = &m->dvp;
	kv_vmop *op;
	const char *del;
	json_t *sel;
	char st;

	op = KV_PUSH(d->vmops, d->nvmops, cap->vmops);
	if (kv_load_meta(c, o, &op->name, &op->ns, true) ||
	    jstr(c, o, "spec.type", &op->type) ||
	    jstr(c, o, "spec.virtualMachineName", &op->vm) ||
	    jbool(c, o, "spec.force", &op->force) ||
	    jget(c, o, "spec.migrate.nodeSelector", JSON_OBJECT, &sel) ||
	    jstr(c, o, "status.phase", &op->phase) ||
	    jstr(c, o, "metadata.creationTimestamp", &op->created) ||
	    jstr(c, o, "metadata.deletionTimestamp", &del) ||
	    condition(c, o, "Completed", &st, &op->reason, NULL))
		return KV_ERR;
	if (op->type == NULL)
		return jerr(c, "spec.type", "missing");
	if (op->vm == NULL)
		return jerr(c, "spec.virtualMachineName", "missing");
	op->target_node = sel != NULL && json_object_size(sel) > 0;
	op->deleting = del != NULL;
	if (op->phase == NULL)
		op->phase = "";
	if (op->created == NULL)
		op->created = "";
	return KV_OK;
}

int
kv_dvp_load_vmbda(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = &m->dvp;
	kv_vmbda *b;
	char st;

	b = KV_PUSH(d->vmbdas, d->nvmbdas, cap->vmbdas);
	if (kv_load_meta(c, o, &b->name, &b->ns, true) ||
	    jstr(c, o, "spec.virtualMachineName", &b->vm) ||
	    jstr(c, o, "spec.blockDeviceRef.kind", &b->kind) ||
	    jstr(c, o, "spec.blockDeviceRef.name", &b->ref) ||
	    jstr(c, o, "status.phase", &b->phase) ||
	    condition(c, o, "Attached", &st, &b->reason, NULL))
		return KV_ERR;
	if (b->vm == NULL && jstr(c, o, "status.virtualMachineName", &b->vm))
		return KV_ERR;
	if (b->vm == NULL)
		return jerr(c, "spec.virtualMachineName", "missing");
	if (b->phase == NULL)
		b->phase = "";
	return KV_OK;
}

/* --- after loading ------------------------------------------------------------ */

static int
nscmp(const char *ans, const char *an, const char *bns, const char *bn)
{
	int c = strcmp(ans, bns);

	return c != 0 ? c : strcmp(an, bn);
}

static int
vm_cmp(const void *x, const void *y)
{
	const kv_dvm *p = x, *q = y;

	return nscmp(p->ns, p->name, q->ns, q->name);
}

static int
class_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_dclass *)x)->name,
	    ((const kv_dclass *)y)->name);
}

static int
disk_cmp(const void *x, const void *y)
{
	const kv_vdisk *p = x, *q = y;

	return nscmp(p->ns, p->name, q->ns, q->name);
}

static int
claim_cmp(const void *x, const void *y)
{
	const kv_vdisk *p = *(const kv_vdisk *const *)x;
	const kv_vdisk *q = *(const kv_vdisk *const *)y;

	return nscmp(p->ns, p->claim, q->ns, q->claim);
}

static int
vmop_cmp(const void *x, const void *y)
{
	const kv_vmop *p = x, *q = y;
	int c = nscmp(p->ns, p->vm, q->ns, q->vm);

	if (c == 0)
		c = strcmp(p->created, q->created);
	return c != 0 ? c : strcmp(p->name, q->name);
}

static int
vmbda_cmp(const void *x, const void *y)
{
	const kv_vmbda *p = x, *q = y;
	int c = nscmp(p->ns, p->vm, q->ns, q->vm);

	return c != 0 ? c : strcmp(p->name, q->name);
}

/* The KVVMI's CPU as DVP would render it from the class, where the
 * snapshot's KVVMI has none (§6.1). */
static void
derive_cpu(kv_model *m)
{
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmi *v = &m->vmis[i];
		const kv_dvm *vm;
		const kv_dclass *k;

		if (v->cpu_model != NULL && *v->cpu_model != '\0')
			continue;
		if ((vm = kv_dvp_vm(m, v->ns, v->name)) == NULL ||
		    (k = kv_dvp_class(m, vm->class_name)) == NULL)
			continue;
		if (v->nfeatures > 0)
			continue;	/* features without a model: keep */
		free(v->features);
		v->features = NULL;
		if (kv_dvp_class_cpu(m->strs, k, &v->cpu_model, &v->features,
		    &v->nfeatures))
			v->cpu_from_class = true;
	}
}

int
kv_dvp_finish(kv_model *m, kv_err *err)
{
	kv_dvp *d = &m->dvp;
	size_t n = 0;

	/* names are unique: load.c checks them as they are read */
	kv_qsort(d->vms, d->nvms, sizeof(kv_dvm), vm_cmp);
	kv_qsort(d->classes, d->nclasses, sizeof(kv_dclass), class_cmp);
	kv_qsort(d->disks, d->ndisks, sizeof(kv_vdisk), disk_cmp);
	d->by_claim = xcalloc(d->ndisks + 1, sizeof(kv_vdisk *));
	for (size_t i = 0; i < d->ndisks; i++)
		if (d->disks[i].claim != NULL)
			d->by_claim[n++] = &d->disks[i];
	kv_qsort(d->by_claim, n, sizeof(kv_vdisk *), claim_cmp);
	d->nby_claim = n;
	kv_qsort(d->vmops, d->nvmops, sizeof(kv_vmop), vmop_cmp);
	kv_qsort(d->vmbdas, d->nvmbdas, sizeof(kv_vmbda), vmbda_cmp);
	derive_cpu(m);
	return KV_OK;
}

void
kv_dvp_free(kv_dvp *d)
{
	for (size_t i = 0; i < d->nvms; i++)
		free(d->vms[i].disks);
	free(d->vms);
	for (size_t i = 0; i < d->nclasses; i++) {
		free(d->classes[i].features);
		free(d->classes[i].enabled);
		free(d->classes[i].available);
		free(d->classes[i].node_selector.v);
	}
	free(d->classes);
	free(d->disks);
	free(d->by_claim);
	free(d->vmops);
	free(d->vmbdas);
}

/* --- lookups ----------------------------------------------------------------- */

const kv_dvm *
kv_dvp_vm(const kv_model *m, const char *ns, const char *name)
{
	const kv_dvp *d = &m->dvp;
	size_t lo = 0, hi = d->nvms;

	if (ns == NULL || name == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = nscmp(d->vms[mid].ns, d->vms[mid].name, ns, name);

		if (c == 0)
			return &d->vms[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const kv_dclass *
kv_dvp_class(const kv_model *m, const char *name)
{
	const kv_dvp *d = &m->dvp;
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
	const kv_dvp *d = &m->dvp;
	size_t lo = 0, hi = d->nby_claim;

	if (ns == NULL || claim == NULL)
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = nscmp(d->by_claim[mid]->ns, d->by_claim[mid]->claim,
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
		if (nscmp((arr)[mid_].ns, (arr)[mid_].vm, (ns_), (vm_)) < 0) \
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
	const kv_dvp *d = &m->dvp;
	size_t i, n = 0;

	*first = NULL;
	if (ns == NULL || vm == NULL)
		return 0;
	LOWER_BOUND(d->vmops, d->nvmops, ns, vm, i);
	while (i + n < d->nvmops && nscmp(d->vmops[i + n].ns,
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
	const kv_dvp *d = &m->dvp;
	size_t i, n = 0;

	*first = NULL;
	if (ns == NULL || vm == NULL)
		return 0;
	LOWER_BOUND(d->vmbdas, d->nvmbdas, ns, vm, i);
	while (i + n < d->nvmbdas && nscmp(d->vmbdas[i + n].ns,
	    d->vmbdas[i + n].vm, ns, vm) == 0)
		n++;
	if (n > 0)
		*first = &d->vmbdas[i];
	return n;
}

/* --- rules ------------------------------------------------------------------- */

/* kvbuilder/kvvm.go:53-54 */
#define GENERIC_CPU_MODEL "qemu64"

bool
kv_dvp_class_cpu(kv_intern *strs, const kv_dclass *c, const char **model,
    kv_cpufeat **feats, size_t *nfeats)
{
	const char *t = c->cpu_type;
	kv_cpufeat *f;
	size_t n = 0;
	bool svm = false;

	if (t == NULL)
		return false;
	if (strcmp(t, "Host") == 0)
		*model = kv_intern_str(strs, "host-model");
	else if (strcmp(t, "HostPassthrough") == 0)
		*model = kv_intern_str(strs, "host-passthrough");
	else if (strcmp(t, "Model") == 0) {
		if (c->model == NULL || *c->model == '\0')
			return false;
		*model = c->model;
	} else if (strcmp(t, "Discovery") == 0 || strcmp(t, "Features") == 0)
		*model = kv_intern_str(strs, GENERIC_CPU_MODEL);
	else
		return false;
	*feats = NULL;
	*nfeats = 0;
	if (strcmp(*model, GENERIC_CPU_MODEL) != 0)
		return true;
	/* every enabled feature required, invtsc optional, svm optional
	 * and appended when absent */
	f = xcalloc(c->nenabled + 2, sizeof(kv_cpufeat));
	for (size_t i = 0; i < c->nenabled; i++) {
		bool opt = strcmp(c->enabled[i], "invtsc") == 0 ||
		    strcmp(c->enabled[i], "svm") == 0;

		svm |= strcmp(c->enabled[i], "svm") == 0;
		f[n].name = c->enabled[i];
		f[n].policy = kv_intern_str(strs, opt ? "optional" : "require");
		n++;
	}
	if (!svm) {
		f[n].name = kv_intern_str(strs, "svm");
		f[n].policy = kv_intern_str(strs, "optional");
		n++;
	}
	*feats = f;
	*nfeats = n;
	return true;
}

bool
kv_vmop_finished(const kv_vmop *op)
{
	return strcmp(op->phase, "Completed") == 0 ||
	    strcmp(op->phase, "Failed") == 0 ||
	    strcmp(op->phase, "Superseded") == 0;
}

bool
kv_vmop_is_migration(const kv_vmop *op)
{
	return strcmp(op->type, "Migrate") == 0 ||
	    strcmp(op->type, "Evict") == 0;
}

static const kv_vmop_origin origins[] = {
	{ "evacuation-", "node drain or load redistribution" },
	{ "nodeplacement-update-", "placement change of the VM or its class" },
	{ "firmware-update-", "firmware (QEMU/libvirt) update" },
	{ "hotplug-resources-", "CPU or memory hot-plug" },
	{ "volume-migration-", "disk storage-class change" },
};

const kv_vmop_origin *
kv_vmop_system_origin(const kv_vmop *op)
{
	if (strcmp(op->type, "Evict") != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(origins) / sizeof(origins[0]); i++)
		if (kv_startswith(op->name, origins[i].prefix))
			return &origins[i];
	return NULL;
}

const char *
kv_dvp_policy(const kv_dvm *vm)
{
	return vm != NULL && vm->policy != NULL && *vm->policy != '\0' ?
	    vm->policy : "PreferSafe";
}

bool
kv_dvp_policy_conflict(const char *policy, int force)
{
	return (strcmp(policy, "AlwaysSafe") == 0 && force == 1) ||
	    (strcmp(policy, "AlwaysForced") == 0 && force == 0);
}

bool
kv_dvp_autoconverge(const char *policy, int force)
{
	if (strcmp(policy, "AlwaysForced") == 0)
		return true;
	if (strcmp(policy, "PreferForced") == 0)
		return force != 0;
	if (strcmp(policy, "PreferSafe") == 0)
		return force == 1;
	return false;	/* AlwaysSafe, and Manual/Never (not enforced) */
}
