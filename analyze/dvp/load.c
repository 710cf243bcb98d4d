/*
 * dvp/load.c - Deckhouse Virtualization Platform objects -> kv_model.dvp
 * (docs/rules.md).  The loaders register
 * by the names resources.def gives them (kv_dvp_loaders, through the
 * flavor row); after the last member the arrays are sorted and indexed and
 * KVVMIs without a CPU get their class's (§6.1).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/dvp/dvp.h"
#include "analyze/model/jget.h"
#include "analyze/model/load.h"

/* §3.3 [IDX]: the node affinity of a KVVM whose disks migrate */
#define ANN_MIGRATION_TERMS "virtualization.deckhouse.io/" \
	"migration-node-affinity-terms"

typedef struct dvp_loadcap {
	size_t vms, classes, disks, vmops, vmbdas, kvvms;
} dvp_loadcap;

/* --- helpers ------------------------------------------------------------- */

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

/* The model's DVP objects, made by the first loader or at the end of
 * loading (the loaders of every flavor run before the flavor is known). */
static kv_dvp *
dvp_get(kv_model *m)
{
	if (m->dvp == NULL)
		m->dvp = xcalloc(1, sizeof(kv_dvp));
	return m->dvp;
}

/* --- loaders ------------------------------------------------------------ */

static int
dvp_load_vm(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = dvp_get(m);
	kv_dvm *vm;

	vm = KV_PUSH(d->vms, d->nvms, cap->vms);
	if (jmeta(c, o, &vm->name, &vm->ns, true) ||
	    jstr(c, o, "spec.virtualMachineClassName", &vm->class_name) ||
	    jstr(c, o, "spec.liveMigrationPolicy", &vm->policy) ||
	    jstr(c, o, "spec.runPolicy", &vm->run_policy) ||
	    jstr(c, o, "spec.osType", &vm->os_type) ||
	    jstr(c, o, "status.phase", &vm->phase) ||
	    jstr(c, o, "status.nodeName", &vm->node) ||
	    jquantity(c, o, "spec.memory.size", &vm->memory) ||
	    jint(c, o, "spec.cpu.cores", &vm->cores) ||
	    jlabels(c, o, "metadata.labels", &vm->labels) ||
	    jcondition(c, o, "Migratable", &vm->migratable,
	    &vm->migratable_reason, &vm->migratable_message) ||
	    jcondition(c, o, "Migrating", &vm->migrating,
	    &vm->migrating_reason, NULL) ||
	    disk_refs(c, o, "spec.blockDeviceRefs", vm) ||
	    disk_refs(c, o, "status.blockDeviceRefs", vm))
		return KV_ERR;
	if (vm->phase == NULL)
		vm->phase = "";
	return KV_OK;
}

static int
dvp_load_class(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = dvp_get(m);
	kv_dclass *k;
	json_t *en, *av;

	k = KV_PUSH(d->classes, d->nclasses, cap->classes);
	if (jmeta(c, o, &k->name, NULL, false) ||
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

static int
dvp_load_disk(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = dvp_get(m);
	kv_vdisk *v;

	v = KV_PUSH(d->disks, d->ndisks, cap->disks);
	if (jmeta(c, o, &v->name, &v->ns, true) ||
	    jstr(c, o, "status.target.persistentVolumeClaimName", &v->claim) ||
	    jstr(c, o, "status.storageClassName", &v->storage_class) ||
	    jstr(c, o, "spec.persistentVolumeClaim.storageClassName",
	    &v->want_class) ||
	    jstr(c, o, "status.phase", &v->phase))
		return KV_ERR;
	return KV_OK;
}

static int
dvp_load_vmop(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = dvp_get(m);
	kv_vmop *op;
	const char *del;
	json_t *sel;
	char st;

	op = KV_PUSH(d->vmops, d->nvmops, cap->vmops);
	if (jmeta(c, o, &op->name, &op->ns, true) ||
	    jstr(c, o, "spec.type", &op->type) ||
	    jstr(c, o, "spec.virtualMachineName", &op->vm) ||
	    jbool(c, o, "spec.force", &op->force) ||
	    jget(c, o, "spec.migrate.nodeSelector", JSON_OBJECT, &sel) ||
	    jlabels(c, o, "spec.migrate.nodeSelector", &op->node_selector) ||
	    jstr(c, o, "status.phase", &op->phase) ||
	    jstr(c, o, "metadata.creationTimestamp", &op->created) ||
	    jstr(c, o, "metadata.deletionTimestamp", &del) ||
	    jcondition(c, o, "Completed", &st, &op->reason, NULL))
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

/* The annotation's value: a JSON list of nodeSelectorTerms (or an object
 * holding one as nodeSelectorTerms), read as a pod's required node
 * affinity is. */
static int
kvvm_terms(jctx *c, const char *text, kv_affinity *aff)
{
	json_error_t je;
	json_t *v = json_loads(text, 0, &je), *terms, *wrap;
	int rc;

	if (v == NULL)
		return jerr(c, "metadata.annotations", "%s: not JSON: %s",
		    ANN_MIGRATION_TERMS, je.text);
	terms = json_is_object(v) ? json_object_get(v, "nodeSelectorTerms") :
	    v;
	if (!json_is_array(terms)) {
		json_decref(v);
		return jerr(c, "metadata.annotations", "%s: expected a list "
		    "of nodeSelectorTerms", ANN_MIGRATION_TERMS);
	}
	wrap = json_pack("{s:{s:{s:{s:{s:O}}}}}", "spec", "affinity",
	    "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
	    "nodeSelectorTerms", terms);
	rc = load_affinity(c, wrap, aff);
	json_decref(wrap);
	json_decref(v);
	return rc;
}

static int
dvp_load_kvvm(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = dvp_get(m);
	kv_kvvm *k;
	kv_labels ann = {0};
	const char *terms;
	int rc = KV_ERR;

	k = KV_PUSH(d->kvvms, d->nkvvms, cap->kvvms);
	if (jmeta(c, o, &k->name, &k->ns, true) ||
	    jlabels(c, o, "metadata.annotations", &ann))
		goto out;
	if ((terms = kv_labels_get(&ann, ANN_MIGRATION_TERMS)) != NULL) {
		if (kvvm_terms(c, terms, &k->terms) != KV_OK)
			goto out;
		k->has_terms = true;
	}
	rc = KV_OK;
out:
	free(ann.v);
	return rc;
}

static int
dvp_load_vmbda(kv_model *m, dvp_loadcap *cap, jctx *c, json_t *o)
{
	kv_dvp *d = dvp_get(m);
	kv_vmbda *b;
	char st;

	b = KV_PUSH(d->vmbdas, d->nvmbdas, cap->vmbdas);
	if (jmeta(c, o, &b->name, &b->ns, true) ||
	    jstr(c, o, "spec.virtualMachineName", &b->vm) ||
	    jstr(c, o, "spec.blockDeviceRef.kind", &b->kind) ||
	    jstr(c, o, "spec.blockDeviceRef.name", &b->ref) ||
	    jstr(c, o, "status.phase", &b->phase) ||
	    jcondition(c, o, "Attached", &st, &b->reason, NULL))
		return KV_ERR;
	if (b->vm == NULL && jstr(c, o, "status.virtualMachineName", &b->vm))
		return KV_ERR;
	if (b->vm == NULL)
		return jerr(c, "spec.virtualMachineName", "missing");
	if (b->phase == NULL)
		b->phase = "";
	return KV_OK;
}

/* --- after loading ------------------------------------------------------ */

static int
vm_cmp(const void *x, const void *y)
{
	const kv_dvm *p = x, *q = y;

	return kv_nscmp(p->ns, p->name, q->ns, q->name);
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

	return kv_nscmp(p->ns, p->name, q->ns, q->name);
}

static int
claim_cmp(const void *x, const void *y)
{
	const kv_vdisk *p = *(const kv_vdisk *const *)x;
	const kv_vdisk *q = *(const kv_vdisk *const *)y;

	return kv_nscmp(p->ns, p->claim, q->ns, q->claim);
}

static int
kvvm_cmp(const void *x, const void *y)
{
	const kv_kvvm *p = x, *q = y;

	return kv_nscmp(p->ns, p->name, q->ns, q->name);
}

static int
vmop_cmp(const void *x, const void *y)
{
	const kv_vmop *p = x, *q = y;
	int c = kv_nscmp(p->ns, p->vm, q->ns, q->vm);

	if (c == 0)
		c = strcmp(p->created, q->created);
	return c != 0 ? c : strcmp(p->name, q->name);
}

static int
vmbda_cmp(const void *x, const void *y)
{
	const kv_vmbda *p = x, *q = y;
	int c = kv_nscmp(p->ns, p->vm, q->ns, q->vm);

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

static int
dvp_finish(kv_model *m, kv_err *err)
{
	kv_dvp *d = dvp_get(m);
	size_t n = 0;

	/* names are unique: checked as they are read */
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
	kv_qsort(d->kvvms, d->nkvvms, sizeof(kv_kvvm), kvvm_cmp);
	derive_cpu(m);
	return KV_OK;
}

static void
dvp_free(kv_model *m)
{
	kv_dvp *d = m->dvp;

	if (d == NULL)
		return;
	for (size_t i = 0; i < d->nvms; i++) {
		free(d->vms[i].disks);
		free(d->vms[i].labels.v);
	}
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
	for (size_t i = 0; i < d->nvmops; i++)
		free(d->vmops[i].node_selector.v);
	free(d->vmops);
	free(d->vmbdas);
	for (size_t i = 0; i < d->nkvvms; i++) {
		for (size_t t = 0; t < d->kvvms[i].terms.nterms; t++) {
			for (size_t q = 0; q < d->kvvms[i].terms.terms[t].nreqs;
			    q++)
				free(d->kvvms[i].terms.terms[t].reqs[q].values);
			free(d->kvvms[i].terms.terms[t].reqs);
		}
		free(d->kvvms[i].terms.terms);
	}
	free(d->kvvms);
	free(d);
	m->dvp = NULL;
}

/* --- registered loaders (resources.def names them) ------------------------ */

static dvp_loadcap *
loadcap(kv_load *ld)
{
	return kv_load_state(ld, KV_FLAVOR_DECKHOUSE, sizeof(dvp_loadcap));
}

static int
load_dvm(kv_load *ld, jctx *c, json_t *o)
{
	kv_model *m = kv_load_model(ld);
	const kv_dvm *vm;

	if (dvp_load_vm(m, loadcap(ld), c, o) != KV_OK)
		return KV_ERR;
	vm = &m->dvp->vms[m->dvp->nvms - 1];
	return kv_load_unique(ld, c, "VirtualMachine",
	    jfullname(c, vm->ns, vm->name));
}

static int
load_dclass(kv_load *ld, jctx *c, json_t *o)
{
	kv_model *m = kv_load_model(ld);

	if (dvp_load_class(m, loadcap(ld), c, o) != KV_OK)
		return KV_ERR;
	return kv_load_unique(ld, c, "VirtualMachineClass",
	    m->dvp->classes[m->dvp->nclasses - 1].name);
}

static int
load_vdisk(kv_load *ld, jctx *c, json_t *o)
{
	return dvp_load_disk(kv_load_model(ld), loadcap(ld), c, o);
}

static int
load_vmop(kv_load *ld, jctx *c, json_t *o)
{
	return dvp_load_vmop(kv_load_model(ld), loadcap(ld), c, o);
}

static int
load_vmbda(kv_load *ld, jctx *c, json_t *o)
{
	return dvp_load_vmbda(kv_load_model(ld), loadcap(ld), c, o);
}

static int
load_kvvm(kv_load *ld, jctx *c, json_t *o)
{
	kv_model *m = kv_load_model(ld);
	const kv_kvvm *k;

	if (dvp_load_kvvm(m, loadcap(ld), c, o) != KV_OK)
		return KV_ERR;
	k = &m->dvp->kvvms[m->dvp->nkvvms - 1];
	return kv_load_unique(ld, c, "KVVM", jfullname(c, k->ns, k->name));
}

const kv_loader_ref kv_dvp_loaders[] = {
	{ "load_kvvm", load_kvvm },
	{ "load_dvm", load_dvm },
	{ "load_dclass", load_dclass },
	{ "load_vdisk", load_vdisk },
	{ "load_vmop", load_vmop },
	{ "load_vmbda", load_vmbda },
	{ NULL, NULL },
};

int
kv_dvp_load_finish(kv_model *m, kv_err *err)
{
	return dvp_finish(m, err);
}

void
kv_dvp_model_free(kv_model *m)
{
	dvp_free(m);
}
