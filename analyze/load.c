/*
 * load.c - snapshot members -> kv_model.
 *
 * snapshot.c streams each member here.  A resources/ JSON member goes
 * through the item scanner (jsonitems.c) to the loader of its resource (the
 * table `loaders` below); libvirt/cpu_map/ XML files members are collected for
 * the CPU-model reader; anything else is only hashed.  Node and VMI names
 * are checked for duplicates as they are read (the error names both
 * items); after the last member the arrays are sorted.
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpudb.h"
#include "dvp.h"
#include "jget.h"
#include "jsonitems.h"
#include "model.h"

/* Label and annotation keys, with their Deckhouse spellings. */
#define LAUNCHER_KV	"kubevirt.io"
#define LAUNCHER_DH	"kubevirt.internal.virtualization.deckhouse.io"
#define CREATED_BY_KV	"kubevirt.io/created-by"
#define CREATED_BY_DH	"kubevirt.internal.virtualization.deckhouse.io/created-by"
#define JOBUID_KV	"kubevirt.io/migrationJobUID"
#define JOBUID_DH	"kubevirt.internal.virtualization.deckhouse.io/migrationJobUID"
#define SKIP_KV		"node-labeller.kubevirt.io/skip-node"
#define SKIP_DH		"node-labeller.virtualization.deckhouse.io/skip-node"
#define BRIDGE_KV	"kubevirt.io/allow-pod-bridge-network-live-migration"
#define BRIDGE_DH	"kubevirt.internal.virtualization.deckhouse.io/allow-pod-bridge-network-live-migration"
#define PR_LABEL	"pr.kubevirt.io/"
#define UNSCHED_KV	"kubevirt.io/migrationUnschedulablePodTimeoutSeconds"
#define UNSCHED_DH	"kubevirt.internal.virtualization.deckhouse.io/migrationUnschedulablePodTimeoutSeconds"
#define PENDING_KV	"kubevirt.io/migrationPendingPodTimeoutSeconds"
#define PENDING_DH	"kubevirt.internal.virtualization.deckhouse.io/migrationPendingPodTimeoutSeconds"

/* Where a name was first seen, to name both places of a duplicate. */
typedef struct seen_at {
	const char *file;	/* interned */
	size_t index;
} seen_at;

typedef struct loadstate {
	kv_model *m;
	const kv_limits *lim;
	const char *file;	/* the member being read, interned */
	GHashTable *node_names;	/* interned name -> seen_at */
	GHashTable *vmi_names;	/* interned namespace/name -> seen_at */
	GHashTable *dvm_names;	/* DVP VirtualMachines, namespace/name */
	GHashTable *dclass_names; /* DVP VirtualMachineClasses */
	size_t cap_nodes, cap_vmis, cap_pods, cap_pvcs, cap_scs, cap_ns,
	    cap_pol, cap_vmims;
	cpumap_builder *cpumap;
	size_t ncpumap;
	dvp_loadcap dcap;
	bool saw_dh;		/* a Deckhouse resource file was read */
	size_t kv_vmis;		/* VMIs from the kubevirt.io file */
} loadstate;

typedef int (*object_fn)(loadstate *ls, jctx *c, json_t *o);

/* --- common pieces --------------------------------------------------------- */

/* The object's name (interned) must not have been seen before: a second
 * node or VMI of the same name is an error naming both items. */
static int
check_unique(loadstate *ls, jctx *c, GHashTable *seen, const char *name,
    const char *what)
{
	seen_at *at = g_hash_table_lookup(seen, name);

	if (at != NULL) {
		if (at->file == ls->file)
			return jerr(c, "metadata.name", "a second %s named "
			    "\"%s\" (the first is item %zu)", what, name,
			    at->index);
		return jerr(c, "metadata.name", "a second %s named \"%s\" "
		    "(the first is item %zu of %s)", what, name, at->index,
		    at->file);
	}
	at = xcalloc(1, sizeof(*at));
	at->file = ls->file;
	at->index = c->index;
	g_hash_table_insert(seen, (gpointer)name, at);
	return KV_OK;
}

static const char *
label2(const kv_labels *l, const char *a, const char *b)
{
	const char *v = kv_labels_get(l, a);

	return v != NULL ? v : kv_labels_get(l, b);
}

static int
meta_name(jctx *c, json_t *o, const char **name, const char **ns,
    bool namespaced)
{
	if (jstr(c, o, "metadata.name", name) != KV_OK)
		return KV_ERR;
	if (*name == NULL || **name == '\0')
		return jerr(c, "metadata.name", "missing");
	jname(c, *name);
	if (!namespaced)
		return KV_OK;
	if (jstr(c, o, "metadata.namespace", ns) != KV_OK)
		return KV_ERR;
	if (*ns == NULL || **ns == '\0')
		return jerr(c, "metadata.namespace", "missing");
	return KV_OK;
}

static int
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
static int
load_affinity(jctx *c, json_t *o, kv_affinity *aff)
{
	const char *path = "spec.affinity.nodeAffinity."
	    "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
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
					return jerr(c, "", "expected an object");
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

int
kv_load_meta(jctx *c, json_t *o, const char **name, const char **ns,
    bool namespaced)
{
	return meta_name(c, o, name, ns, namespaced);
}

/* --- nodes ------------------------------------------------------------------ */

static int
load_node(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_node *n;
	kv_labels ann = {0};
	json_t *taints, *t;
	size_t i;
	int unsched, rc = KV_ERR;

	n = KV_PUSH(m->nodes, m->nnodes, ls->cap_nodes);
	n->alloc_memory = -1;
	if (meta_name(c, o, &n->name, NULL, false) ||
	    check_unique(ls, c, ls->node_names, n->name, "node") ||
	    jlabels(c, o, "metadata.labels", &n->labels) ||
	    jlabels(c, o, "metadata.annotations", &ann) ||
	    jbool(c, o, "spec.unschedulable", &unsched) ||
	    jquantity(c, o, "status.allocatable.memory", &n->alloc_memory) ||
	    jget(c, o, "spec.taints", JSON_ARRAY, &taints))
		goto out;
	n->unschedulable = unsched == 1;
	n->skip_labeller = label2(&ann, SKIP_KV, SKIP_DH) != NULL;
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

/* --- VMIs ------------------------------------------------------------------- */

static const struct {
	const char *key;
	enum kv_binding b;
} bindings[] = {
	{ "masquerade", BIND_MASQUERADE }, { "bridge", BIND_BRIDGE },
	{ "passtBinding", BIND_PASST }, { "passt", BIND_PASST },
	{ "sriov", BIND_SRIOV }, { "slirp", BIND_SLIRP },
	{ "macvtap", BIND_MACVTAP }, { "binding", BIND_PLUGIN },
};

static int
load_vmi_cpu(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *feats, *f;
	size_t i;
	int b;

	if (jstr(c, o, "spec.domain.cpu.model", &v->cpu_model) ||
	    jget(c, o, "spec.domain.cpu.features", JSON_ARRAY, &feats))
		return KV_ERR;
	if (jbool(c, o, "spec.domain.cpu.dedicatedCpuPlacement", &b))
		return KV_ERR;
	v->dedicated_cpu = b == 1;
	if (jget(c, o, "spec.domain.cpu.realtime", JSON_OBJECT, &f))
		return KV_ERR;
	v->realtime = f != NULL;
	if (feats == NULL)
		return KV_OK;
	v->features = xcalloc(json_array_size(feats) + 1, sizeof(kv_cpufeat));
	json_array_foreach(feats, i, f) {
		kv_cpufeat *cf = &v->features[v->nfeatures++];

		jwhere(c, "spec.domain.cpu.features[%zu].", i);
		if (!json_is_object(f))
			return jerr(c, "", "expected an object");
		if (jstr(c, f, "name", &cf->name) ||
		    jstr(c, f, "policy", &cf->policy))
			return KV_ERR;
		if (cf->name == NULL)
			return jerr(c, "name", "missing");
		if (cf->policy == NULL)
			cf->policy = "";
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

static const struct {
	const char *name;
	unsigned bit;
} hv_features[] = {
	{ "vpindex", HV_VPINDEX }, { "runtime", HV_RUNTIME },
	{ "reset", HV_RESET }, { "synic", HV_SYNIC },
	{ "synictimer", HV_SYNICTIMER }, { "frequencies", HV_FREQUENCIES },
	{ "reenlightenment", HV_REENLIGHTENMENT },
	{ "tlbflush", HV_TLBFLUSH }, { "ipi", HV_IPI },
};

static int
load_vmi_features(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *hv, *ev, *ls;
	int b;

	if (jget(c, o, "spec.domain.features.hyperv", JSON_OBJECT, &hv))
		return KV_ERR;
	if (hv != NULL) {
		for (size_t i = 0; i < sizeof(hv_features) /
		    sizeof(hv_features[0]); i++) {
			char path[64];

			snprintf(path, sizeof(path),
			    "spec.domain.features.hyperv.%s.enabled",
			    hv_features[i].name);
			if (jbool(c, o, path, &b))
				return KV_ERR;
			if (b == 1)
				v->hyperv_enabled |= hv_features[i].bit;
		}
		if (jget(c, o, "spec.domain.features.hyperv.evmcs",
		    JSON_OBJECT, &ev) || jbool(c, o,
		    "spec.domain.features.hyperv.evmcs.enabled", &b))
			return KV_ERR;
		v->evmcs = ev != NULL && b != 0;
	}
	if (jbool(c, o, "spec.domain.features.hypervPassthrough.enabled", &b))
		return KV_ERR;
	v->hyperv_passthrough = b == 1;
	if (jget(c, o, "spec.domain.launchSecurity", JSON_OBJECT, &ls))
		return KV_ERR;
	if (ls != NULL) {
		v->any_launch_security = true;
		v->sev = json_object_get(ls, "sev") != NULL &&
		    !json_is_null(json_object_get(ls, "sev"));
		v->snp = json_object_get(ls, "snp") != NULL &&
		    !json_is_null(json_object_get(ls, "snp"));
		v->tdx = json_object_get(ls, "tdx") != NULL &&
		    !json_is_null(json_object_get(ls, "tdx"));
		if (jbool(c, o, "spec.domain.launchSecurity.sev.policy."
		    "encryptedState", &b))
			return KV_ERR;
		v->sev_es = b == 1;
	}
	return KV_OK;
}

static int
load_vmi_devices(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *arr, *e;
	size_t i;
	int b;

	if (jget(c, o, "spec.domain.devices.hostDevices", JSON_ARRAY, &arr))
		return KV_ERR;
	v->nhostdevices = arr ? json_array_size(arr) : 0;
	if (jget(c, o, "spec.domain.devices.gpus", JSON_ARRAY, &arr))
		return KV_ERR;
	v->ngpus = arr ? json_array_size(arr) : 0;
	if (v->ngpus > 0) {
		jwhere(c, "spec.domain.devices.gpus[0].");
		if (!json_is_object(json_array_get(arr, 0)))
			return jerr(c, "", "expected an object");
		if (jstr(c, json_array_get(arr, 0), "deviceName",
		    &v->gpu_device))
			return KV_ERR;
		jwhere(c, "%s", "");
	}
	if (jbool(c, o, "spec.domain.devices.autoattachPodInterface", &b))
		return KV_ERR;
	v->autoattach = b;

	if (jget(c, o, "spec.domain.devices.disks", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->disks = xcalloc(json_array_size(arr) + 1, sizeof(kv_disk));
		json_array_foreach(arr, i, e) {
			kv_disk *d = &v->disks[v->ndisks++];
			json_t *cd;
			int ro, res;

			jwhere(c, "spec.domain.devices.disks[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &d->name) ||
			    jget(c, e, "cdrom", JSON_OBJECT, &cd) ||
			    jbool(c, e, "cdrom.readonly", &ro) ||
			    jbool(c, e, "lun.reservation", &res))
				return KV_ERR;
			d->cdrom = cd != NULL;
			d->cdrom_readonly = ro != 0;
			d->lun_reservation = res == 1;
		}
	}
	if (jget(c, o, "spec.domain.devices.filesystems", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->filesystems = xcalloc(json_array_size(arr) + 1,
		    sizeof(char *));
		json_array_foreach(arr, i, e) {
			jwhere(c, "spec.domain.devices.filesystems[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &v->filesystems[v->nfilesystems]))
				return KV_ERR;
			if (v->filesystems[v->nfilesystems] != NULL)
				v->nfilesystems++;
		}
	}
	if (jget(c, o, "spec.domain.devices.interfaces", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->ifaces = xcalloc(json_array_size(arr) + 1, sizeof(kv_iface));
		json_array_foreach(arr, i, e) {
			kv_iface *f = &v->ifaces[v->nifaces++];

			jwhere(c, "spec.domain.devices.interfaces[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &f->name) ||
			    jstr(c, e, "binding.name", &f->plugin))
				return KV_ERR;
			f->binding = BIND_NONE;
			for (size_t k = 0; k < sizeof(bindings) /
			    sizeof(bindings[0]); k++) {
				json_t *bv = json_object_get(e,
				    bindings[k].key);

				if (bv != NULL && !json_is_null(bv)) {
					f->binding = bindings[k].b;
					break;
				}
			}
		}
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

static const char *const local_sources[] = {
	"emptyDisk", "ephemeral", "cloudInitNoCloud", "cloudInitConfigDrive",
	"configMap", "secret", "serviceAccount", "downwardAPI",
	"downwardMetrics", "sysprep", "memoryDump", "containerPath",
};

static int
load_vmi_volumes(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *arr, *e;
	size_t i;
	int b;

	if (jget(c, o, "spec.volumes", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->volumes = xcalloc(json_array_size(arr) + 1,
		    sizeof(kv_volume));
		json_array_foreach(arr, i, e) {
			kv_volume *vol = &v->volumes[v->nvolumes++];
			json_t *x;

			jwhere(c, "spec.volumes[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &vol->name))
				return KV_ERR;
			if (vol->name == NULL)
				return jerr(c, "name", "missing");
			vol->kind = VOL_LOCAL;
			if ((x = json_object_get(e, "persistentVolumeClaim")) &&
			    !json_is_null(x)) {
				vol->kind = VOL_PVC;
				vol->source = "persistentVolumeClaim";
				if (jstr(c, e, "persistentVolumeClaim.claimName",
				    &vol->claim))
					return KV_ERR;
			} else if ((x = json_object_get(e, "dataVolume")) &&
			    !json_is_null(x)) {
				vol->kind = VOL_DATAVOLUME;
				vol->source = "dataVolume";
				if (jstr(c, e, "dataVolume.name", &vol->claim))
					return KV_ERR;
			} else if ((x = json_object_get(e, "hostDisk")) &&
			    !json_is_null(x)) {
				vol->kind = VOL_HOSTDISK;
				vol->source = "hostDisk";
				if (jbool(c, e, "hostDisk.shared", &b))
					return KV_ERR;
				vol->hostdisk_shared = b == 1;
			} else if ((x = json_object_get(e, "containerDisk")) &&
			    !json_is_null(x)) {
				vol->kind = VOL_CONTAINERDISK;
				vol->source = "containerDisk";
				if (jstr(c, e, "containerDisk.image",
				    &vol->image))
					return KV_ERR;
			} else {
				for (size_t k = 0; k < sizeof(local_sources) /
				    sizeof(local_sources[0]); k++)
					if (json_object_get(e,
					    local_sources[k]) != NULL) {
						vol->source = local_sources[k];
						break;
					}
				if (vol->source == NULL)
					vol->source = "other";
			}
		}
	}
	if (jget(c, o, "status.volumeStatus", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->volstatus = xcalloc(json_array_size(arr) + 1,
		    sizeof(kv_volstatus));
		json_array_foreach(arr, i, e) {
			kv_volstatus *vs = &v->volstatus[v->nvolstatus++];
			json_t *info;
			const char **modes;
			size_t nm;
			kv_buf mb = {0};

			jwhere(c, "status.volumeStatus[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &vs->name) ||
			    jget(c, e, "persistentVolumeClaimInfo",
			    JSON_OBJECT, &info))
				return KV_ERR;
			if (info == NULL)
				continue;
			vs->has_pvcinfo = true;
			if (jstr(c, e, "persistentVolumeClaimInfo.claimName",
			    &vs->claim) || jstrarray(c, e,
			    "persistentVolumeClaimInfo.accessModes", &modes,
			    &nm))
				return KV_ERR;
			for (size_t k = 0; k < nm; k++) {
				if (strcmp(modes[k], "ReadWriteMany") == 0)
					vs->rwx = true;
				kv_buf_printf(&mb, "%s%s", k ? "," : "",
				    modes[k]);
			}
			vs->modes = kv_intern_str(c->strs,
			    mb.data ? mb.data : "");
			kv_buf_free(&mb);
			free(modes);
		}
	}
	if (jget(c, o, "status.migratedVolumes", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->migrated = xcalloc(json_array_size(arr) + 1,
		    sizeof(char *));
		json_array_foreach(arr, i, e) {
			jwhere(c, "status.migratedVolumes[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "volumeName", &v->migrated[v->nmigrated]))
				return KV_ERR;
			if (v->migrated[v->nmigrated] != NULL)
				v->nmigrated++;
		}
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

static int
load_vmi_status(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *conds, *e;
	size_t i;
	int b;

	if (jstr(c, o, "status.phase", &v->phase) ||
	    jstr(c, o, "status.nodeName", &v->node) ||
	    jstr(c, o, "status.machine.type", &v->machine_status) ||
	    jint(c, o, "status.topologyHints.tscFrequency", &v->tsc_hint) ||
	    jstr(c, o, "status.migrationState.sourceNode",
	    &v->migration_source) ||
	    jbool(c, o, "status.migrationState.completed", &b) ||
	    jget(c, o, "status.conditions", JSON_ARRAY, &conds))
		return KV_ERR;
	v->migration_completed = b == 1;
	if (v->phase == NULL)
		v->phase = "";
	if (conds == NULL)
		return KV_OK;
	json_array_foreach(conds, i, e) {
		const char *type, *status;

		jwhere(c, "status.conditions[%zu].", i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "type", &type) || jstr(c, e, "status", &status))
			return KV_ERR;
		if (type == NULL || strcmp(type, "LiveMigratable") != 0)
			continue;
		if (jstr(c, e, "reason", &v->cond_reason) ||
		    jstr(c, e, "message", &v->cond_message))
			return KV_ERR;
		v->cond = status != NULL && strcmp(status, "True") == 0 ? 'T' :
		    'F';
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

static int
load_vmi(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_vmi *v;
	kv_labels ann = {0};
	int rc = KV_ERR;

	v = KV_PUSH(m->vmis, m->nvmis, ls->cap_vmis);
	v->memory = -1;
	v->tsc_hint = -1;
	if (meta_name(c, o, &v->name, &v->ns, true))
		goto out;
	{
		char *full = xasprintf("%s/%s", v->ns, v->name);

		v->fullname = kv_intern_str(m->strs, full);
		free(full);
	}
	jname(c, v->fullname);
	if (check_unique(ls, c, ls->vmi_names, v->fullname, "VMI") ||
	    jstr(c, o, "metadata.uid", &v->uid) ||
	    jlabels(c, o, "metadata.labels", &v->labels) ||
	    jlabels(c, o, "metadata.annotations", &ann) ||
	    jstr(c, o, "spec.architecture", &v->arch) ||
	    jstr(c, o, "spec.domain.machine.type", &v->machine_spec) ||
	    jlabels(c, o, "spec.nodeSelector", &v->node_selector) ||
	    jstr(c, o, "spec.evictionStrategy", &v->eviction) ||
	    load_affinity(c, o, &v->affinity) ||
	    load_tolerations(c, o, "spec.tolerations", &v->tolerations,
	    &v->ntolerations) ||
	    load_vmi_cpu(c, o, v) || load_vmi_features(c, o, v) ||
	    load_vmi_devices(c, o, v) || load_vmi_volumes(c, o, v) ||
	    load_vmi_status(c, o, v))
		goto out;
	v->allow_pod_bridge = label2(&ann, BRIDGE_KV, BRIDGE_DH) != NULL;
	if (jquantity(c, o, "spec.domain.memory.guest", &v->memory))
		goto out;
	if (v->memory < 0 && jquantity(c, o,
	    "spec.domain.resources.requests.memory", &v->memory))
		goto out;
	{
		json_t *nets, *e;
		size_t i;

		if (jget(c, o, "spec.networks", JSON_ARRAY, &nets))
			goto out;
		v->nnetworks = nets ? json_array_size(nets) : 0;
		if (nets != NULL)
			json_array_foreach(nets, i, e) {
				json_t *pod;

				jwhere(c, "spec.networks[%zu].", i);
				if (!json_is_object(e)) {
					jerr(c, "", "expected an object");
					goto out;
				}
				if (jget(c, e, "pod", JSON_OBJECT, &pod))
					goto out;
				if (pod != NULL && v->pod_network == NULL &&
				    jstr(c, e, "name", &v->pod_network))
					goto out;
			}
		jwhere(c, "%s", "");
	}
	rc = KV_OK;
out:
	free(ann.v);
	return rc;
}

/* --- launcher pods ------------------------------------------------------------ */

static int
load_pod(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_pod *p;
	kv_labels labels = {0};
	const char *launcher, *name, *ns;
	json_t *arr, *e;
	size_t i;
	int rc = KV_ERR;

	if (meta_name(c, o, &name, &ns, true) ||
	    jlabels(c, o, "metadata.labels", &labels))
		goto out;
	launcher = label2(&labels, LAUNCHER_KV, LAUNCHER_DH);
	if (launcher == NULL || strcmp(launcher, "virt-launcher") != 0) {
		rc = KV_OK;	/* not a launcher pod: not ours */
		goto out;
	}
	p = KV_PUSH(m->pods, m->npods, ls->cap_pods);
	p->name = name;
	p->ns = ns;
	p->req_memory = -1;
	p->created_by = label2(&labels, CREATED_BY_KV, CREATED_BY_DH);
	p->migration_job = label2(&labels, JOBUID_KV, JOBUID_DH);
	/* persistent-reservation markers (rules-kubevirt.md §2.2) */
	for (size_t k = 0; k < labels.n; k++)
		if (kv_startswith(labels.v[k].key, PR_LABEL)) {
			p->pr = xreallocarray(p->pr, p->npr + 1,
			    sizeof(char *));
			p->pr[p->npr++] = labels.v[k].key;
		}
	if (jstr(c, o, "spec.nodeName", &p->node) ||
	    jstr(c, o, "metadata.creationTimestamp", &p->created) ||
	    jstr(c, o, "status.phase", &p->phase) ||
	    jlabels(c, o, "spec.nodeSelector", &p->node_selector) ||
	    jget(c, o, "spec.containers", JSON_ARRAY, &arr))
		goto out;
	if (arr != NULL)
		json_array_foreach(arr, i, e) {
			int64_t mem;

			jwhere(c, "spec.containers[%zu].", i);
			if (!json_is_object(e)) {
				jerr(c, "", "expected an object");
				goto out;
			}
			if (jquantity(c, e, "resources.requests.memory", &mem))
				goto out;
			if (mem >= 0)
				p->req_memory = (p->req_memory < 0 ? 0 :
				    p->req_memory) + mem;
		}
	for (int pass = 0; pass < 2; pass++) {
		const char *path = pass ? "status.initContainerStatuses" :
		    "status.containerStatuses";

		jwhere(c, "%s", "");
		if (jget(c, o, path, JSON_ARRAY, &arr))
			goto out;
		if (arr == NULL)
			continue;
		p->imageids = xreallocarray(p->imageids, p->nimageids +
		    json_array_size(arr) + 1, sizeof(kv_imageid));
		json_array_foreach(arr, i, e) {
			kv_imageid *id = &p->imageids[p->nimageids];

			jwhere(c, "%s[%zu].", path, i);
			if (!json_is_object(e)) {
				jerr(c, "", "expected an object");
				goto out;
			}
			if (jstr(c, e, "name", &id->container) ||
			    jstr(c, e, "imageID", &id->image_id))
				goto out;
			if (id->container != NULL &&
			    kv_startswith(id->container, "volume"))
				p->nimageids++;
		}
	}
	jwhere(c, "%s", "");
	if (jget(c, o, "spec.volumes", JSON_ARRAY, &arr))
		goto out;
	if (arr != NULL) {
		p->imagerefs = xcalloc(json_array_size(arr) + 1,
		    sizeof(kv_label));
		json_array_foreach(arr, i, e) {
			kv_label *ir = &p->imagerefs[p->nimagerefs];

			jwhere(c, "spec.volumes[%zu].", i);
			if (!json_is_object(e)) {
				jerr(c, "", "expected an object");
				goto out;
			}
			if (jstr(c, e, "name", &ir->key) ||
			    jstr(c, e, "image.reference", &ir->value))
				goto out;
			if (ir->key != NULL && ir->value != NULL)
				p->nimagerefs++;
		}
	}
	jwhere(c, "%s", "");
	rc = KV_OK;
out:
	free(labels.v);
	return rc;
}

/* --- storage ---------------------------------------------------------------- */

static int
load_pvc(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_pvc *p;
	const char **modes;
	size_t n;

	p = KV_PUSH(m->pvcs, m->npvcs, ls->cap_pvcs);
	if (meta_name(c, o, &p->name, &p->ns, true) ||
	    jstr(c, o, "metadata.uid", &p->uid) ||
	    jstr(c, o, "spec.storageClassName", &p->storage_class) ||
	    jstr(c, o, "spec.volumeMode", &p->volume_mode) ||
	    jstr(c, o, "status.phase", &p->phase) ||
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

static int
load_sc(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_storageclass *s;

	s = KV_PUSH(m->scs, m->nscs, ls->cap_scs);
	if (meta_name(c, o, &s->name, NULL, false) ||
	    jstr(c, o, "provisioner", &s->provisioner))
		return KV_ERR;
	return KV_OK;
}

static int
load_namespace(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_namespace *n;

	n = KV_PUSH(m->namespaces, m->nnamespaces, ls->cap_ns);
	if (meta_name(c, o, &n->name, NULL, false) ||
	    jlabels(c, o, "metadata.labels", &n->labels))
		return KV_ERR;
	return KV_OK;
}

static int
load_datavolume(loadstate *ls, jctx *c, json_t *o)
{
	const char *name, *ns;

	if (meta_name(c, o, &name, &ns, true))
		return KV_ERR;
	ls->m->ndv++;
	return KV_OK;
}

/* --- migration objects -------------------------------------------------------- */

static int
load_policy(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_policy *p;
	json_t *sel;
	int b;

	p = KV_PUSH(m->policies, m->npolicies, ls->cap_pol);
	if (meta_name(c, o, &p->name, NULL, false) ||
	    jget(c, o, "spec.selectors", JSON_OBJECT, &sel) ||
	    jlabels(c, o, "spec.selectors.namespaceSelector", &p->ns_selector) ||
	    jlabels(c, o, "spec.selectors.virtualMachineInstanceSelector",
	    &p->vmi_selector) ||
	    jint(c, o, "spec.completionTimeoutPerGiB", &p->completion_per_gib) ||
	    jquantity(c, o, "spec.bandwidthPerMigration", &p->bandwidth) ||
	    jbool(c, o, "spec.allowPostCopy", &b))
		return KV_ERR;
	p->has_selectors = sel != NULL;
	p->allow_postcopy = b;
	return KV_OK;
}

static int
load_vmim(loadstate *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_vmim *v;
	kv_labels ann = {0};
	const char *s;
	int rc = KV_ERR;

	v = KV_PUSH(m->vmims, m->nvmims, ls->cap_vmims);
	v->unschedulable_timeout = v->pending_timeout = -1;
	if (meta_name(c, o, &v->name, &v->ns, true) ||
	    jstr(c, o, "spec.vmiName", &v->vmi) ||
	    jstr(c, o, "status.phase", &v->phase) ||
	    jstr(c, o, "metadata.creationTimestamp", &v->created) ||
	    jlabels(c, o, "metadata.annotations", &ann))
		goto out;
	for (int i = 0; i < 2; i++) {
		int64_t *slot = i ? &v->pending_timeout :
		    &v->unschedulable_timeout;
		char *end;
		long long n;

		s = i ? label2(&ann, PENDING_KV, PENDING_DH) :
		    label2(&ann, UNSCHED_KV, UNSCHED_DH);
		if (s == NULL)
			continue;
		n = strtoll(s, &end, 10);
		if (*s == '\0' || *end != '\0' || n < 0) {
			jerr(c, "metadata.annotations", "%s: expected whole "
			    "seconds, got \"%s\"", i ? PENDING_KV : UNSCHED_KV,
			    s);
			goto out;
		}
		*slot = n;
	}
	rc = KV_OK;
out:
	free(ann.v);
	return rc;
}

static int
load_kubevirt(loadstate *ls, jctx *c, json_t *o)
{
	kv_cluster *k = &ls->m->cluster;
	json_t *obs, *bind, *e, *mdev;
	const char *key, *phase;
	size_t i;

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
	if (meta_name(c, o, &k->name, NULL, false) ||
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
	    jstrarray(c, o, "spec.configuration.developerConfiguration."
	    "featureGates", &k->gates, &k->ngates) ||
	    jstrarray(c, o, "spec.configuration.developerConfiguration."
	    "disabledFeatureGates", &k->disabled_gates, &k->ndisabled_gates) ||
	    jlabels(c, o, "spec.configuration.developerConfiguration."
	    "nodeSelectors", &k->node_selectors) ||
	    jint(c, o, "spec.configuration.developerConfiguration."
	    "minimumClusterTSCFrequency", &k->min_tsc) ||
	    jstr(c, o, "spec.configuration.network.defaultNetworkInterface",
	    &k->default_iface) ||
	    jget(c, o, "spec.configuration.network.binding", JSON_OBJECT,
	    &bind) ||
	    jget(c, o, "spec.configuration.permittedHostDevices."
	    "mediatedDevices", JSON_ARRAY, &mdev) ||
	    jstr(c, o, "status.observedKubeVirtVersion", &k->version))
		return KV_ERR;
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

/* --- Deckhouse objects (load_dvp.c) ------------------------------------------- */

static int
load_dvm(loadstate *ls, jctx *c, json_t *o)
{
	const kv_dvm *vm;
	const char *key;
	char *full;

	if (kv_dvp_load_vm(ls->m, &ls->dcap, c, o) != KV_OK)
		return KV_ERR;
	vm = &ls->m->dvp.vms[ls->m->dvp.nvms - 1];
	full = xasprintf("%s/%s", vm->ns, vm->name);
	key = kv_intern_str(ls->m->strs, full);
	free(full);
	return check_unique(ls, c, ls->dvm_names, key, "VirtualMachine");
}

static int
load_dclass(loadstate *ls, jctx *c, json_t *o)
{
	if (kv_dvp_load_class(ls->m, &ls->dcap, c, o) != KV_OK)
		return KV_ERR;
	return check_unique(ls, c, ls->dclass_names,
	    ls->m->dvp.classes[ls->m->dvp.nclasses - 1].name,
	    "VirtualMachineClass");
}

static int
load_vdisk(loadstate *ls, jctx *c, json_t *o)
{
	return kv_dvp_load_disk(ls->m, &ls->dcap, c, o);
}

static int
load_vmop(loadstate *ls, jctx *c, json_t *o)
{
	return kv_dvp_load_vmop(ls->m, &ls->dcap, c, o);
}

static int
load_vmbda(loadstate *ls, jctx *c, json_t *o)
{
	return kv_dvp_load_vmbda(ls->m, &ls->dcap, c, o);
}

/* --- dispatch ------------------------------------------------------------------- */

static const struct loader {
	const char *file;
	object_fn fn;
} loaders[] = {
	{ "resources/nodes.json", load_node },
	{ "resources/namespaces.json", load_namespace },
	{ "resources/pods.json", load_pod },
	{ "resources/persistentvolumeclaims.json", load_pvc },
	{ "resources/storageclasses.storage.k8s.io.json", load_sc },
	{ "resources/datavolumes.cdi.kubevirt.io.json", load_datavolume },
	{ "resources/virtualmachineinstances.kubevirt.io.json", load_vmi },
	{ "resources/virtualmachineinstancemigrations.kubevirt.io.json",
	  load_vmim },
	{ "resources/kubevirts.kubevirt.io.json", load_kubevirt },
	{ "resources/migrationpolicies.migrations.kubevirt.io.json",
	  load_policy },
	{ "resources/internalvirtualizationvirtualmachineinstances."
	  "internal.virtualization.deckhouse.io.json", load_vmi },
	{ "resources/internalvirtualizationvirtualmachineinstancemigrations."
	  "internal.virtualization.deckhouse.io.json", load_vmim },
	{ "resources/internalvirtualizationkubevirts."
	  "internal.virtualization.deckhouse.io.json", load_kubevirt },
	{ "resources/migrationpolicies."
	  "migrations.internal.virtualization.deckhouse.io.json",
	  load_policy },
	{ "resources/virtualmachines.virtualization.deckhouse.io.json",
	  load_dvm },
	{ "resources/virtualmachineclasses.virtualization.deckhouse.io.json",
	  load_dclass },
	{ "resources/virtualdisks.virtualization.deckhouse.io.json",
	  load_vdisk },
	{ "resources/virtualmachineoperations.virtualization.deckhouse.io.json",
	  load_vmop },
	{ "resources/virtualmachineblockdeviceattachments."
	  "virtualization.deckhouse.io.json", load_vmbda },
};

#define KV_VMI_FILE "resources/virtualmachineinstances.kubevirt.io.json"

typedef struct member {
	loadstate *ls;
	const struct loader *loader;
	json_items *items;
	char *path;
	kv_buf xml;		/* cpu_map file */
} member;

static int
item_cb(void *arg, json_t *item, size_t index, kv_err *err)
{
	member *mb = arg;
	jctx c = { .strs = mb->ls->m->strs, .lim = mb->ls->lim, .err = err,
	    .index = index };

	snprintf(c.whatbuf, sizeof(c.whatbuf), "item %zu", index);
	c.what = c.whatbuf;
	mb->ls->file = kv_intern_str(mb->ls->m->strs, mb->path);
	if (strcmp(mb->loader->file, KV_VMI_FILE) == 0)
		mb->ls->kv_vmis++;
	return mb->loader->fn(mb->ls, &c, item);
}

static void *
sink_begin(void *arg, const char *path, uint64_t size, kv_err *err)
{
	loadstate *ls = arg;
	member *mb;

	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++)
		if (strcmp(path, loaders[i].file) == 0) {
			mb = xcalloc(1, sizeof(*mb));
			mb->ls = ls;
			mb->loader = &loaders[i];
			mb->path = xstrdup(path);
			if (strstr(path, "virtualization.deckhouse.io.json"))
				ls->saw_dh = true;
			mb->items = json_items_new(mb->path, ls->lim, item_cb,
			    mb);
			return mb;
		}
	if (kv_startswith(path, "libvirt/cpu_map/") &&
	    strchr(path + 16, '/') == NULL) {
		if (size > ls->lim->manifest_bytes) {
			kv_seterr(err, "%s: larger than %llu bytes "
			    "(KVSCOPE_MAX_MANIFEST_BYTES)", path,
			    (unsigned long long)ls->lim->manifest_bytes);
			return NULL;
		}
		mb = xcalloc(1, sizeof(*mb));
		mb->ls = ls;
		mb->path = xstrdup(path);
		return mb;
	}
	return NULL;
}

static int
sink_data(void *state, const char *buf, size_t len, kv_err *err)
{
	member *mb = state;

	if (mb->items != NULL)
		return json_items_feed(mb->items, buf, len, err);
	if (mb->xml.len + len > mb->ls->lim->manifest_bytes)
		return kv_seterr(err, "%s: larger than %llu bytes "
		    "(KVSCOPE_MAX_MANIFEST_BYTES)", mb->path,
		    (unsigned long long)mb->ls->lim->manifest_bytes);
	kv_buf_append(&mb->xml, buf, len);
	return KV_OK;
}

static void
sink_abort(void *state)
{
	member *mb = state;

	json_items_free(mb->items);
	kv_buf_free(&mb->xml);
	free(mb->path);
	free(mb);
}

static int
sink_end(void *state, kv_err *err)
{
	member *mb = state;
	loadstate *ls = mb->ls;
	int rc;

	if (mb->items != NULL)
		rc = json_items_finish(mb->items, err);
	else {
		if (ls->cpumap == NULL)
			ls->cpumap = cpumap_builder_new();
		ls->ncpumap++;
		rc = cpumap_builder_add(ls->cpumap, mb->path,
		    mb->xml.data ? mb->xml.data : "", mb->xml.len, err);
	}
	sink_abort(mb);
	return rc;
}

/* --- after loading ---------------------------------------------------------------- */

static int
node_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_node *)a)->name, ((const kv_node *)b)->name);
}

static int
nsname_cmp(const char *ans, const char *an, const char *bns, const char *bn)
{
	int c = strcmp(ans, bns);

	return c != 0 ? c : strcmp(an, bn);
}

static int
vmi_cmp(const void *a, const void *b)
{
	const kv_vmi *x = a, *y = b;

	return nsname_cmp(x->ns, x->name, y->ns, y->name);
}

static int
pvc_cmp(const void *a, const void *b)
{
	const kv_pvc *x = a, *y = b;

	return nsname_cmp(x->ns, x->name, y->ns, y->name);
}

static int
ns_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_namespace *)a)->name,
	    ((const kv_namespace *)b)->name);
}

static int
sc_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_storageclass *)a)->name,
	    ((const kv_storageclass *)b)->name);
}

static int
policy_cmp(const void *a, const void *b)
{
	return strcmp(((const kv_policy *)a)->name,
	    ((const kv_policy *)b)->name);
}

/* Sort what the analysis looks up; names are unique (check_unique). */
static int
finish_model(loadstate *ls, kv_err *err)
{
	kv_model *m = ls->m;

	kv_qsort(m->nodes, m->nnodes, sizeof(kv_node), node_cmp);
	kv_qsort(m->vmis, m->nvmis, sizeof(kv_vmi), vmi_cmp);
	kv_qsort(m->pvcs, m->npvcs, sizeof(kv_pvc), pvc_cmp);
	kv_qsort(m->namespaces, m->nnamespaces, sizeof(kv_namespace), ns_cmp);
	kv_qsort(m->scs, m->nscs, sizeof(kv_storageclass), sc_cmp);
	kv_qsort(m->policies, m->npolicies, sizeof(kv_policy), policy_cmp);
	if (m->manifest.flavor != NULL)
		m->flavor = kv_intern_str(m->strs, m->manifest.flavor);
	else {
		/* no word from the manifest: Deckhouse when its files are
		 * there and KubeVirt's own VMIs are not */
		m->flavor_inferred = ls->saw_dh && ls->kv_vmis == 0;
		m->flavor = kv_intern_str(m->strs, m->flavor_inferred ?
		    "deckhouse" : "kubevirt");
	}
	if (kv_dvp_finish(m, err) != KV_OK)
		return KV_ERR;
	m->missing = xcalloc(m->manifest.nresources + 1, sizeof(char *));
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];
		char *s;

		if (strcmp(r->status, "ok") == 0)
			continue;
		s = r->group[0] ? xasprintf("%s.%s: %s", r->resource, r->group,
		    r->status) : xasprintf("%s: %s", r->resource, r->status);
		m->missing[m->nmissing++] = kv_intern_str(m->strs, s);
		free(s);
	}
	return KV_OK;
}

int
kv_model_load(const char *path, const kv_limits *lim, kv_model **out,
    kv_err *err)
{
	kv_model *m = xcalloc(1, sizeof(*m));
	loadstate ls = { .m = m, .lim = lim };
	snap_sink sink = { sink_begin, sink_data, sink_end, sink_abort, &ls };
	int rc;

	*out = NULL;
	ls.node_names = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, free);
	ls.vmi_names = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, free);
	ls.dvm_names = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, free);
	ls.dclass_names = g_hash_table_new_full(g_direct_hash,
	    g_direct_equal, NULL, free);
	m->strs = kv_intern_new();
	m->cluster.parallel_cluster = m->cluster.parallel_node = -1;
	m->cluster.bandwidth = m->cluster.completion_per_gib = -1;
	m->cluster.progress_timeout = m->cluster.min_tsc = -1;
	rc = snapshot_read(path, lim, &sink, &m->manifest, err);
	if (rc == KV_OK && ls.cpumap != NULL) {
		rc = cpumap_finish(ls.cpumap, &m->cpumap, err);
		ls.cpumap = NULL;
		if (rc != KV_OK) {
			char *tmp = xasprintf("%s: %s", path, err->msg);

			snprintf(err->msg, sizeof(err->msg), "%s", tmp);
			free(tmp);
		}
	}
	if (ls.cpumap != NULL)
		cpumap_builder_free(ls.cpumap);
	g_hash_table_destroy(ls.node_names);
	g_hash_table_destroy(ls.vmi_names);
	g_hash_table_destroy(ls.dvm_names);
	g_hash_table_destroy(ls.dclass_names);
	if (rc == KV_OK)
		rc = finish_model(&ls, err);
	if (rc != KV_OK) {
		kv_model_free(m);
		return rc;
	}
	*out = m;
	return KV_OK;
}
