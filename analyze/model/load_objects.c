/*
 * load_objects.c - the core's object loaders (load.h) for nodes, pods
 * (launchers in full, every other one its resources), storage, namespaces,
 * MigrationPolicies, VMIMs and the KubeVirt CR, and the toleration and
 * affinity readers they share with load_vmi.c.
 * Only the fields the analysis reads are kept (rules-kubevirt.md §6).
 * Of pods and PVCs jansson builds only the keys of metadata, spec and
 * status jsonskip.c's rows keep: a key read here that is not among them
 * reads as absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/load.h"

/* persistent-reservation labels of a launcher pod (same in every flavor) */
#define PR_LABEL	"pr.kubevirt.io/"

int
load_tolerations(jctx *c, json_t *o, const char *path, kv_toleration **out,
    size_t *n)
{
	json_t *arr, *t;
	size_t i;

	*out = NULL;
	*n = 0;
	if (jget(c, o, path, JSON_ARRAY, &arr) != KV_OK || arr == NULL)
		return c->err->set ? KV_ERR : KV_OK;
	*out = xcalloc(json_array_size(arr) + 1, sizeof(**out));
	json_array_foreach(arr, i, t) {
		kv_toleration *tl = &(*out)[(*n)++];

		jwhere(c, "%s[%zu].", path, i);
		if (!json_is_object(t))
			return jerr(c, "", "expected an object");
		if (jstr(c, t, "key", &tl->key) || jstr(c, t, "operator",
		    &tl->op) || jstr(c, t, "value", &tl->value) ||
		    jstr(c, t, "effect", &tl->effect))
			return KV_ERR;
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

static const struct {
	const char *name;
	enum kv_selop op;
} selops[] = {
	{ "In", OP_IN }, { "NotIn", OP_NOTIN }, { "Exists", OP_EXISTS },
	{ "DoesNotExist", OP_DOESNOTEXIST }, { "Gt", OP_GT }, { "Lt", OP_LT },
};

/* spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution */
int
load_affinity(jctx *c, json_t *o, kv_affinity *aff)
{
	return load_affinity_at(c, o, "spec.affinity.nodeAffinity."
	    "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
	    aff);
}

int
load_affinity_at(jctx *c, json_t *o, const char *path, kv_affinity *aff)
{
	json_t *terms, *term, *reqs, *r;
	size_t i, j;

	memset(aff, 0, sizeof(*aff));
	if (jget(c, o, path, JSON_ARRAY, &terms) != KV_OK || terms == NULL)
		return c->err->set ? KV_ERR : KV_OK;
	aff->terms = xcalloc(json_array_size(terms) + 1, sizeof(kv_nsterm));
	json_array_foreach(terms, i, term) {
		kv_nsterm *t = &aff->terms[aff->nterms++];

		jwhere(c, "%s[%zu].", path, i);
		if (!json_is_object(term))
			return jerr(c, "", "expected an object");
		for (int fields = 0; fields < 2; fields++) {
			const char *list = fields ? "matchFields" :
			    "matchExpressions";

			jwhere(c, "%s[%zu].", path, i);
			if (jget(c, term, list, JSON_ARRAY, &reqs) != KV_OK)
				return KV_ERR;
			if (reqs == NULL)
				continue;
			t->reqs = xreallocarray(t->reqs, t->nreqs +
			    json_array_size(reqs) + 1, sizeof(kv_nsreq));
			json_array_foreach(reqs, j, r) {
				kv_nsreq *q = &t->reqs[t->nreqs++];
				const char *op;
				size_t k;

				memset(q, 0, sizeof(*q));
				q->field = fields == 1;
				jwhere(c, "%s[%zu].%s[%zu].", path, i, list, j);
				if (!json_is_object(r))
					return jerr(c, "",
					    "expected an object");
				if (jstr(c, r, "key", &q->key) ||
				    jstr(c, r, "operator", &op) ||
				    jstrarray(c, r, "values", &q->values,
				    &q->nvalues))
					return KV_ERR;
				if (q->key == NULL || op == NULL)
					return jerr(c, "", "key and operator "
					    "required");
				for (k = 0; k < sizeof(selops) /
				    sizeof(selops[0]); k++)
					if (strcmp(op, selops[k].name) == 0)
						break;
				if (k == sizeof(selops) / sizeof(selops[0]))
					return jerr(c, "operator", "unknown "
					    "operator \"%s\"", op);
				q->op = selops[k].op;
			}
		}
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* --- nodes -------------------------------------------------------------- */

int
load_node(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_node *n;
	kv_labels ann = {0};
	json_t *taints, *t;
	size_t i;
	int unsched, rc = KV_ERR;

	n = KV_PUSH(m->nodes, m->nnodes, ls->cap_nodes);
	n->alloc_memory = n->alloc_cpu = n->alloc_pods = -1;
	if (jmeta(c, o, &n->name, NULL, false) ||
	    kv_load_unique(ls, c, "node", n->name) ||
	    jlabels(c, o, "metadata.labels", &n->labels) ||
	    jlabels(c, o, "metadata.annotations", &ann) ||
	    jbool(c, o, "spec.unschedulable", &unsched) ||
	    jquantity(c, o, "status.allocatable.memory", &n->alloc_memory) ||
	    jstr(c, o, "status.nodeInfo.kernelVersion", &n->kernel) ||
	    jstr(c, o, "status.nodeInfo.osImage", &n->os_image) ||
	    jquantity_milli(c, o, "status.allocatable.cpu", &n->alloc_cpu) ||
	    jquantity(c, o, "status.allocatable.pods", &n->alloc_pods) ||
	    load_node_allocatable(c, o, n) ||
	    jget(c, o, "spec.taints", JSON_ARRAY, &taints))
		goto out;
	n->unschedulable = unsched == 1;
	n->skip_labeller = kv_flavor_label(&ann, KEY_SKIP_NODE) != NULL;
	if (taints != NULL) {
		n->taints = xcalloc(json_array_size(taints) + 1,
		    sizeof(kv_taint));
		json_array_foreach(taints, i, t) {
			kv_taint *tt = &n->taints[n->ntaints++];

			jwhere(c, "spec.taints[%zu].", i);
			if (!json_is_object(t)) {
				jerr(c, "", "expected an object");
				goto out;
			}
			if (jstr(c, t, "key", &tt->key) ||
			    jstr(c, t, "value", &tt->value) ||
			    jstr(c, t, "effect", &tt->effect))
				goto out;
			if (tt->key == NULL) {
				jerr(c, "key", "missing");
				goto out;
			}
		}
		jwhere(c, "%s", "");
	}
	rc = KV_OK;
out:
	free(ann.v);
	return rc;
}

/* --- pods --------------------------------------------------------------- */

/* The compute container's image (the launcher's version, kvversion.h). */
static int
compute_image(jctx *c, json_t *e, kv_pod *p)
{
	const char *name, *image;

	if (jstr(c, e, "name", &name) || jstr(c, e, "image", &image))
		return KV_ERR;
	if (name != NULL && strcmp(name, "compute") == 0)
		p->image = image;
	return KV_OK;
}

/* The sum of the containers' memory requests (-1 when none sets one). */
static int
pod_memory(jctx *c, json_t *o, kv_pod *p)
{
	json_t *arr, *e;
	size_t i;

	if (jget(c, o, "spec.containers", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL)
		json_array_foreach(arr, i, e) {
			int64_t mem;

			jwhere(c, "spec.containers[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jquantity(c, e, "resources.requests.memory",
			    &mem) || compute_image(c, e, p))
				return KV_ERR;
			if (mem >= 0)
				p->req_memory = (p->req_memory < 0 ? 0 :
				    p->req_memory) + mem;
		}
	return KV_OK;
}

/* Image IDs of the volume containers (container and init statuses). */
static int
pod_imageids(jctx *c, json_t *o, kv_pod *p)
{
	json_t *arr, *e;
	size_t i;

	for (int pass = 0; pass < 2; pass++) {
		const char *path = pass ? "status.initContainerStatuses" :
		    "status.containerStatuses";

		jwhere(c, "%s", "");
		if (jget(c, o, path, JSON_ARRAY, &arr))
			return KV_ERR;
		if (arr == NULL)
			continue;
		json_array_foreach(arr, i, e) {
			kv_imageid id;

			jwhere(c, "%s[%zu].", path, i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &id.container) ||
			    jstr(c, e, "image", &id.image) ||
			    jstr(c, e, "imageID", &id.image_id))
				return KV_ERR;
			if (id.container == NULL ||
			    !kv_startswith(id.container, "volume"))
				continue;
			/* only pods with volume containers get an array
			 * (most have none: 5 MiB at 100,000 pods) */
			p->imageids = xreallocarray(p->imageids,
			    p->nimageids + 1, sizeof(kv_imageid));
			p->imageids[p->nimageids++] = id;
		}
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* spec.volumes[].image.reference by volume name. */
static int
pod_imagerefs(jctx *c, json_t *o, kv_pod *p)
{
	json_t *arr, *e, *name;
	size_t i;

	if (jget(c, o, "spec.volumes", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL)
		json_array_foreach(arr, i, e) {
			kv_label ir;

			jwhere(c, "spec.volumes[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			/* every name checked, but interned only for an
			 * image volume: a launcher pod has eight of other
			 * kinds */
			if (jget(c, e, "name", JSON_STRING, &name) ||
			    jstr(c, e, "image.reference", &ir.value))
				return KV_ERR;
			if (name == NULL || ir.value == NULL)
				continue;
			ir.key = kv_intern_str(c->strs,
			    json_string_value(name));
			/* an array only for pods with image volumes (an
			 * array per pod was 14 MiB at 100,000 pods) */
			if (p->imagerefs == NULL)
				p->imagerefs = xcalloc(json_array_size(arr) + 1,
				    sizeof(kv_label));
			p->imagerefs[p->nimagerefs++] = ir;
		}
	jwhere(c, "%s", "");
	return KV_OK;
}

int
load_pod(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_pod *p;
	const char *launcher, *name, *ns, *deleted = NULL;

	if (jmeta(c, o, &name, &ns, true))
		return KV_ERR;
	p = KV_PUSH(m->pods, m->npods, ls->cap_pods);
	p->name = name;
	p->ns = ns;
	p->req_memory = -1;
	/* its labels once: the launcher's marks and pod affinity's */
	if (jlabels(c, o, "metadata.labels", &p->labels) ||
	    jstr(c, o, "metadata.deletionTimestamp", &deleted) ||
	    jstr(c, o, "spec.nodeName", &p->node) ||
	    jstr(c, o, "status.phase", &p->phase) ||
	    load_pod_resources(m, c, o, p) || load_pod_place(c, o, &p->place))
		return KV_ERR;
	/* a terminating pod still holds its node's room and counts for
	 * pod (anti-)affinity; topology spread skips it (podaffinity.c) */
	p->terminating = deleted != NULL;
	launcher = kv_flavor_label(&p->labels, KEY_LAUNCHER);
	if (launcher == NULL || strcmp(launcher, "virt-launcher") != 0)
		return KV_OK;	/* not a launcher pod: its resources only */
	p->launcher = true;
	p->created_by = kv_flavor_label(&p->labels, KEY_CREATED_BY);
	p->migration_job = kv_flavor_label(&p->labels, KEY_JOB_UID);
	/* persistent-reservation markers (rules-kubevirt.md §2.2) */
	for (size_t k = 0; k < p->labels.n; k++)
		if (kv_startswith(p->labels.v[k].key, PR_LABEL)) {
			p->pr = xreallocarray(p->pr, p->npr + 1,
			    sizeof(char *));
			p->pr[p->npr++] = p->labels.v[k].key;
		}
	if (jstr(c, o, "metadata.creationTimestamp", &p->created) ||
	    jlabels(c, o, "spec.nodeSelector", &p->node_selector) ||
	    pod_memory(c, o, p) || pod_imageids(c, o, p) ||
	    pod_imagerefs(c, o, p))
		return KV_ERR;
	return KV_OK;
}

/* --- storage ------------------------------------------------------------ */

int
load_pvc(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_pvc *p;
	const char **modes;
	size_t n;

	p = KV_PUSH(m->pvcs, m->npvcs, ls->cap_pvcs);
	if (jmeta(c, o, &p->name, &p->ns, true) ||
	    jstr(c, o, "metadata.uid", &p->uid) ||
	    jstr(c, o, "spec.storageClassName", &p->storage_class) ||
	    jstr(c, o, "spec.volumeMode", &p->volume_mode) ||
	    jstr(c, o, "status.phase", &p->phase) ||
	    jstr(c, o, "spec.volumeName", &p->volume) ||
	    jquantity(c, o, "status.capacity.storage", &p->size) ||
	    (p->size < 0 && jquantity(c, o,
	    "spec.resources.requests.storage", &p->size)) ||
	    jstrarray(c, o, "spec.accessModes", &modes, &n))
		return KV_ERR;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(modes[i], "ReadWriteOnce") == 0)
			p->modes |= AM_RWO;
		else if (strcmp(modes[i], "ReadOnlyMany") == 0)
			p->modes |= AM_ROX;
		else if (strcmp(modes[i], "ReadWriteMany") == 0)
			p->modes |= AM_RWX;
		else if (strcmp(modes[i], "ReadWriteOncePod") == 0)
			p->modes |= AM_RWOP;
	}
	free(modes);
	return KV_OK;
}

int
load_sc(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_storageclass *s;

	s = KV_PUSH(m->scs, m->nscs, ls->cap_scs);
	if (jmeta(c, o, &s->name, NULL, false) ||
	    jstr(c, o, "provisioner", &s->provisioner))
		return KV_ERR;
	return KV_OK;
}

/* A PersistentVolume: its name, CSI driver, required node affinity and
 * zone labels (kv_pv). */
int
load_pv(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_pv *p = KV_PUSH(m->pvs, m->npvs, ls->cap_pvs);
	kv_labels labels = {0};
	int rc = KV_ERR;

	if (jmeta(c, o, &p->name, NULL, false) ||
	    kv_load_unique(ls, c, "persistentvolume", p->name) ||
	    jstr(c, o, "spec.csi.driver", &p->driver) ||
	    jlabels(c, o, "metadata.labels", &labels) ||
	    load_affinity_at(c, o, "spec.nodeAffinity.required."
	    "nodeSelectorTerms", &p->affinity))
		goto out;
	p->zones.v = xcalloc(labels.n + 1, sizeof(kv_label));
	for (size_t i = 0; i < labels.n; i++)
		if (kv_zone_key(labels.v[i].key))
			p->zones.v[p->zones.n++] = labels.v[i];
	rc = KV_OK;
out:
	free(labels.v);
	return rc;
}

/* CDI StorageProfile: status.claimPropertySets[].{accessModes,
 * volumeMode}, the combinations the class is known to provision. */
int
load_storageprofile(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_sprofile *p;
	json_t *sets, *set;
	size_t i;

	p = KV_PUSH(m->profiles, m->nprofiles, ls->cap_profiles);
	if (jmeta(c, o, &p->name, NULL, false) ||
	    jget(c, o, "status.claimPropertySets", JSON_ARRAY, &sets))
		return KV_ERR;
	json_array_foreach(sets, i, set) {
		const char **modes = NULL, *mode = NULL;
		size_t n = 0;
		int rc;

		jwhere(c, "status.claimPropertySets[%zu].", i);
		if (!json_is_object(set))
			return jerr(c, "", "expected an object");
		/* a bad volumeMode after good accessModes: modes is ours to
		 * free either way (once a 24-byte leak) */
		rc = jstrarray(c, set, "accessModes", &modes, &n) ||
		    jstr(c, set, "volumeMode", &mode);
		jwhere(c, "%s", "");
		for (size_t k = 0; rc == 0 && k < n; k++)
			if (strcmp(modes[k], "ReadWriteMany") == 0)
				p->rwx |= mode != NULL &&
				    strcmp(mode, "Block") == 0 ? RWX_BLOCK :
				    RWX_FILESYSTEM;
		free(modes);
		if (rc)
			return KV_ERR;
	}
	return KV_OK;
}

int
load_namespace(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_namespace *n;

	n = KV_PUSH(m->namespaces, m->nnamespaces, ls->cap_ns);
	if (jmeta(c, o, &n->name, NULL, false) ||
	    jstr(c, o, "metadata.uid", &n->uid) ||
	    jlabels(c, o, "metadata.labels", &n->labels))
		return KV_ERR;
	return KV_OK;
}

int
load_datavolume(kv_load *ls, jctx *c, json_t *o)
{
	const char *name, *ns;

	if (jmeta(c, o, &name, &ns, true))
		return KV_ERR;
	ls->m->ndv++;
	return KV_OK;
}

/* --- migration objects -------------------------------------------------- */

int
load_policy(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_policy *p;
	json_t *sel;
	int b;

	p = KV_PUSH(m->policies, m->npolicies, ls->cap_pol);
	if (jmeta(c, o, &p->name, NULL, false) ||
	    jget(c, o, "spec.selectors", JSON_OBJECT, &sel) ||
	    jlabels(c, o, "spec.selectors.namespaceSelector",
	    &p->ns_selector) ||
	    jlabels(c, o, "spec.selectors.virtualMachineInstanceSelector",
	    &p->vmi_selector) ||
	    jint(c, o, "spec.completionTimeoutPerGiB",
	    &p->completion_per_gib) ||
	    jquantity(c, o, "spec.bandwidthPerMigration", &p->bandwidth) ||
	    jbool(c, o, "spec.allowAutoConverge", &p->allow_autoconverge) ||
	    jbool(c, o, "spec.allowWorkloadDisruption",
	    &p->allow_disruption) ||
	    jbool(c, o, "spec.allowPostCopy", &b))
		return KV_ERR;
	p->has_selectors = sel != NULL;
	p->allow_postcopy = b;
	return KV_OK;
}

/* A NetworkAttachmentDefinition: the resource KubeVirt requests for a
 * VMI's network on it (kubevirt v1.9.0 pkg/network/multus/nad.go:52-72,
 * annotation.go:42). */
int
load_nad(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_nad *n = KV_PUSH(m->nads, m->nnads, ls->cap_nads);
	kv_labels ann = {0};

	if (jmeta(c, o, &n->name, &n->ns, true) ||
	    jlabels(c, o, "metadata.annotations", &ann)) {
		free(ann.v);
		return KV_ERR;
	}
	n->resource = kv_labels_get(&ann, "k8s.v1.cni.cncf.io/resourceName");
	if (n->resource != NULL && *n->resource == '\0')
		n->resource = NULL;
	free(ann.v);
	return KV_OK;
}

int
load_vmim(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_vmim *v;
	kv_labels ann = {0};
	const char *s;
	int rc = KV_ERR;

	v = KV_PUSH(m->vmims, m->nvmims, ls->cap_vmims);
	v->unschedulable_timeout = v->pending_timeout = -1;
	if (jmeta(c, o, &v->name, &v->ns, true) ||
	    jstr(c, o, "spec.vmiName", &v->vmi) ||
	    jstr(c, o, "metadata.uid", &v->uid) ||
	    jstr(c, o, "status.phase", &v->phase) ||
	    jstr(c, o, "metadata.creationTimestamp", &v->created) ||
	    jlabels(c, o, "spec.addedNodeSelector", &v->added_selector) ||
	    jlabels(c, o, "metadata.annotations", &ann) ||
	    load_vmim_history(c, o, v))
		goto out;
	for (int i = 0; i < 2; i++) {
		int64_t *slot = i ? &v->pending_timeout :
		    &v->unschedulable_timeout;
		char *end;
		long long n;

		s = i ? kv_flavor_label(&ann, KEY_PENDING_TIMEOUT) :
		    kv_flavor_label(&ann, KEY_UNSCHED_TIMEOUT);
		if (s == NULL)
			continue;
		n = strtoll(s, &end, 10);
		if (*s == '\0' || *end != '\0' || n < 0) {
			jerr(c, "metadata.annotations", "%s: expected whole "
			    "seconds, got \"%s\"", kv_flavor_kubevirt.keys[i ?
			    KEY_PENDING_TIMEOUT : KEY_UNSCHED_TIMEOUT], s);
			goto out;
		}
		*slot = n;
	}
	rc = KV_OK;
out:
	free(ann.v);
	return rc;
}

/* The obsolete CPU models, the bindings with a migration setting and the
 * permitted mediated devices of the KubeVirt CR. */
static int
kubevirt_lists(jctx *c, kv_cluster *k, json_t *obs, json_t *bind,
    json_t *mdev)
{
	json_t *e;
	const char *key;
	size_t i;

	if (obs != NULL) {
		k->obsolete_set = true;
		k->obsolete = xcalloc(json_object_size(obs) + 1,
		    sizeof(char *));
		json_object_foreach(obs, key, e)
			k->obsolete[k->nobsolete++] = kv_intern_str(c->strs,
			    key);
		kv_qsort(k->obsolete, k->nobsolete, sizeof(char *),
		    kv_strptrcmp);
	}
	if (bind != NULL) {
		k->migratable_bindings = xcalloc(json_object_size(bind) + 1,
		    sizeof(char *));
		json_object_foreach(bind, key, e) {
			json_t *mig = json_is_object(e) ?
			    json_object_get(e, "migration") : NULL;

			if (mig != NULL && !json_is_null(mig))
				k->migratable_bindings[
				    k->nmigratable_bindings++] =
				    kv_intern_str(c->strs, key);
		}
	}
	if (mdev != NULL) {
		k->mdev_resources = xcalloc(json_array_size(mdev) + 1,
		    sizeof(char *));
		json_array_foreach(mdev, i, e) {
			jwhere(c, "spec.configuration.permittedHostDevices."
			    "mediatedDevices[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "resourceName",
			    &k->mdev_resources[k->nmdev]))
				return KV_ERR;
			if (k->mdev_resources[k->nmdev] != NULL)
				k->nmdev++;
		}
		jwhere(c, "%s", "");
	}
	return KV_OK;
}

int
load_kubevirt(kv_load *ls, jctx *c, json_t *o)
{
	kv_cluster *k = &ls->m->cluster;
	json_t *obs, *bind, *mdev;
	const char *phase;

	if (k->present) {
		/* Several CRs: only the deployed one counts. */
		if (jstr(c, o, "status.phase", &phase) != KV_OK)
			return KV_ERR;
		if (phase == NULL || strcmp(phase, "Deployed") != 0)
			return KV_OK;
		free(k->obsolete);
		free(k->gates);
		free(k->disabled_gates);
		free(k->node_selectors.v);
		free(k->migratable_bindings);
		free(k->mdev_resources);
		memset(k, 0, sizeof(*k));
	}
	k->present = true;
	if (jmeta(c, o, &k->name, &k->ns, false) ||
	    jstr(c, o, "metadata.uid", &k->uid) ||
	    jstr(c, o, "spec.configuration.cpuModel", &k->cpu_model) ||
	    jget(c, o, "spec.configuration.obsoleteCPUModels", JSON_OBJECT,
	    &obs) ||
	    jstr(c, o, "spec.configuration.evictionStrategy", &k->eviction) ||
	    jint(c, o, "spec.configuration.migrations."
	    "parallelMigrationsPerCluster", &k->parallel_cluster) ||
	    jint(c, o, "spec.configuration.migrations."
	    "parallelOutboundMigrationsPerNode", &k->parallel_node) ||
	    jquantity(c, o, "spec.configuration.migrations."
	    "bandwidthPerMigration", &k->bandwidth) ||
	    jint(c, o, "spec.configuration.migrations."
	    "completionTimeoutPerGiB", &k->completion_per_gib) ||
	    jint(c, o, "spec.configuration.migrations.progressTimeout",
	    &k->progress_timeout) ||
	    jbool(c, o, "spec.configuration.migrations.allowPostCopy",
	    &k->allow_postcopy) ||
	    jbool(c, o, "spec.configuration.migrations.allowAutoConverge",
	    &k->allow_autoconverge) ||
	    jbool(c, o, "spec.configuration.migrations."
	    "allowWorkloadDisruption", &k->allow_disruption) ||
	    jstrarray(c, o, "spec.configuration.developerConfiguration."
	    "featureGates", &k->gates, &k->ngates) ||
	    jstrarray(c, o, "spec.configuration.developerConfiguration."
	    "disabledFeatureGates", &k->disabled_gates, &k->ndisabled_gates) ||
	    jlabels(c, o, "spec.configuration.developerConfiguration."
	    "nodeSelectors", &k->node_selectors) ||
	    jint(c, o, "spec.configuration.developerConfiguration."
	    "minimumClusterTSCFrequency", &k->min_tsc) ||
	    jbool(c, o, "spec.configuration.developerConfiguration."
	    "useEmulation", &k->use_emulation) ||
	    jint(c, o, "spec.configuration.developerConfiguration."
	    "cpuAllocationRatio", &k->cpu_ratio) ||
	    jint(c, o, "spec.configuration.developerConfiguration."
	    "memoryOvercommit", &k->mem_overcommit) ||
	    jstr(c, o, "spec.configuration.network.defaultNetworkInterface",
	    &k->default_iface) ||
	    jget(c, o, "spec.configuration.network.binding", JSON_OBJECT,
	    &bind) ||
	    jget(c, o, "spec.configuration.permittedHostDevices."
	    "mediatedDevices", JSON_ARRAY, &mdev) ||
	    jstr(c, o, "status.observedKubeVirtVersion", &k->version) ||
	    jstr(c, o, "status.operatorVersion", &k->operator_version))
		return KV_ERR;
	k->gates_set = k->gates != NULL;	/* an empty list too */
	return kubevirt_lists(c, k, obs, bind, mdev);
}
