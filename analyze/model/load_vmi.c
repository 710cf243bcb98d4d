/*
 * load_vmi.c - one VirtualMachineInstance -> kv_vmi (load.h): CPU and
 * features, devices and interfaces, volumes and disks, placement, and the
 * status the rules read (rules-kubevirt.md §6).  jansson builds only
 * the keys of metadata, spec and status jsonskip.c's VMI rows keep: a
 * key read here that is not among them reads as absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/load.h"

/* --- VMIs --------------------------------------------------------------- */

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
	if (jbool(c, o, "spec.domain.cpu.isolateEmulatorThread", &b))
		return KV_ERR;
	v->isolate_emulator = b == 1;
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

/* spec.domain.devices.interfaces: names, bindings and plugins. */
static int
load_vmi_ifaces(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *arr, *e;
	size_t i;
	const char *model;

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
			    jstr(c, e, "binding.name", &f->plugin) ||
			    jstr(c, e, "model", &model))
				return KV_ERR;
			v->virtio_iface |= model == NULL ||
			    strcmp(model, "virtio") == 0;
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
			if (jstr(c, e, "name",
			    &v->filesystems[v->nfilesystems]))
				return KV_ERR;
			if (v->filesystems[v->nfilesystems] != NULL)
				v->nfilesystems++;
		}
	}
	if (load_vmi_ifaces(c, o, v))
		return KV_ERR;
	jwhere(c, "%s", "");
	return KV_OK;
}

static const char *const local_sources[] = {
	"emptyDisk", "ephemeral", "cloudInitNoCloud", "cloudInitConfigDrive",
	"configMap", "secret", "serviceAccount", "downwardAPI",
	"downwardMetrics", "sysprep", "memoryDump", "containerPath",
};

/* One spec.volumes entry: its kind, source and claim or image. */
static int
load_volume(jctx *c, json_t *e, kv_volume *vol)
{
	json_t *x;
	int b;

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
		return jstr(c, e, "persistentVolumeClaim.claimName",
		    &vol->claim);
	}
	if ((x = json_object_get(e, "dataVolume")) && !json_is_null(x)) {
		vol->kind = VOL_DATAVOLUME;
		vol->source = "dataVolume";
		return jstr(c, e, "dataVolume.name", &vol->claim);
	}
	if ((x = json_object_get(e, "hostDisk")) && !json_is_null(x)) {
		vol->kind = VOL_HOSTDISK;
		vol->source = "hostDisk";
		if (jbool(c, e, "hostDisk.shared", &b))
			return KV_ERR;
		vol->hostdisk_shared = b == 1;
		return KV_OK;
	}
	if ((x = json_object_get(e, "containerDisk")) && !json_is_null(x)) {
		vol->kind = VOL_CONTAINERDISK;
		vol->source = "containerDisk";
		return jstr(c, e, "containerDisk.image", &vol->image);
	}
	for (size_t k = 0; k < sizeof(local_sources) /
	    sizeof(local_sources[0]); k++)
		if (json_object_get(e, local_sources[k]) != NULL) {
			vol->source = local_sources[k];
			return KV_OK;
		}
	vol->source = "other";
	return KV_OK;
}

/* One status.volumeStatus entry: its claim and access modes. */
static int
load_volstatus(jctx *c, json_t *e, kv_volstatus *vs)
{
	json_t *info;
	const char **modes;
	size_t nm;
	kv_buf mb = {0};

	if (!json_is_object(e))
		return jerr(c, "", "expected an object");
	if (jstr(c, e, "name", &vs->name) ||
	    jget(c, e, "persistentVolumeClaimInfo", JSON_OBJECT, &info))
		return KV_ERR;
	if (info == NULL)
		return KV_OK;
	vs->has_pvcinfo = true;
	if (jstr(c, e, "persistentVolumeClaimInfo.claimName", &vs->claim) ||
	    jstrarray(c, e, "persistentVolumeClaimInfo.accessModes", &modes,
	    &nm))
		return KV_ERR;
	for (size_t k = 0; k < nm; k++) {
		if (strcmp(modes[k], "ReadWriteMany") == 0)
			vs->rwx = true;
		kv_buf_printf(&mb, "%s%s", k ? "," : "", modes[k]);
	}
	vs->modes = kv_intern_str(c->strs, mb.data ? mb.data : "");
	kv_buf_free(&mb);
	free(modes);
	return KV_OK;
}

static int
load_vmi_volumes(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *arr, *e;
	size_t i;

	if (jget(c, o, "spec.volumes", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->volumes = xcalloc(json_array_size(arr) + 1,
		    sizeof(kv_volume));
		json_array_foreach(arr, i, e) {
			jwhere(c, "spec.volumes[%zu].", i);
			if (load_volume(c, e, &v->volumes[v->nvolumes++]))
				return KV_ERR;
		}
	}
	if (jget(c, o, "status.volumeStatus", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL) {
		v->volstatus = xcalloc(json_array_size(arr) + 1,
		    sizeof(kv_volstatus));
		json_array_foreach(arr, i, e) {
			jwhere(c, "status.volumeStatus[%zu].", i);
			if (load_volstatus(c, e,
			    &v->volstatus[v->nvolstatus++]))
				return KV_ERR;
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
			if (jstr(c, e, "volumeName",
			    &v->migrated[v->nmigrated]))
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
	int b;

	if (jstr(c, o, "status.phase", &v->phase) ||
	    jstr(c, o, "status.nodeName", &v->node) ||
	    jstr(c, o, "status.machine.type", &v->machine_status) ||
	    jint(c, o, "status.topologyHints.tscFrequency", &v->tsc_hint) ||
	    jstr(c, o, "status.migrationState.targetNode",
	    &v->migration_target) ||
	    jstr(c, o, "status.migrationState.sourceNode",
	    &v->migration_source) ||
	    jstr(c, o, "status.guestOSInfo.id", &v->os_id) ||
	    jstr(c, o, "status.guestOSInfo.versionId", &v->os_version) ||
	    jstr(c, o, "status.guestOSInfo.kernelRelease", &v->os_kernel) ||
	    jbool(c, o, "status.migrationState.completed", &b) ||
	    jcondition(c, o, "LiveMigratable", &v->cond, &v->cond_reason,
	    &v->cond_message) ||
	    load_mighist(c, o, "status.migrationState", &v->last_migration))
		return KV_ERR;
	v->migration_completed = b == 1;
	if (v->phase == NULL)
		v->phase = "";
	return KV_OK;
}

/* Where clusters record the guest OS (guestos.h): the common templates'
 * vm.kubevirt.io/os, and the preference virt-controller expanded. */
static void
load_vmi_os(kv_vmi *v, const kv_labels *ann)
{
	v->os_annotation = kv_labels_get(ann, "vm.kubevirt.io/os");
	if (v->os_annotation == NULL)
		v->os_annotation = kv_labels_get(&v->labels,
		    "vm.kubevirt.io/os");
	v->os_preference = kv_labels_get(ann, "kubevirt.io/preference-name");
	if (v->os_preference == NULL)
		v->os_preference = kv_labels_get(ann,
		    "kubevirt.io/cluster-preference-name");
}

/* The deviceName of each entry of a device list that a device plugin
 * serves (no claimRequest: DRA), interned into *names. */
static int
load_devnames(jctx *c, json_t *o, const char *path, kv_vmi *v)
{
	json_t *arr, *e, *claim;
	size_t i;
	const char *name;

	if (jget(c, o, path, JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr == NULL)
		return KV_OK;
	v->devnames = xreallocarray(v->devnames, v->ndevnames +
	    json_array_size(arr) + 1, sizeof(char *));
	json_array_foreach(arr, i, e) {
		jwhere(c, "%s[%zu].", path, i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "deviceName", &name) ||
		    jget(c, e, "claimRequest", JSON_OBJECT, &claim))
			return KV_ERR;
		if (name != NULL && *name != '\0' && claim == NULL)
			v->devnames[v->ndevnames++] = name;
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* What the launcher's requests are rendered from (podreq.c). */
static int
load_vmi_resources(jctx *c, json_t *o, kv_vmi *v)
{
	int64_t sockets, cores, threads;
	int b;

	if (jquantity_milli(c, o, "spec.domain.resources.requests.cpu",
	    &v->req_cpu) ||
	    jquantity(c, o, "spec.domain.resources.requests.memory",
	    &v->req_memory) ||
	    jquantity(c, o, "spec.domain.memory.guest", &v->guest_memory) ||
	    jstr(c, o, "spec.domain.memory.hugepages.pageSize",
	    &v->hugepages) ||
	    jint(c, o, "spec.domain.cpu.sockets", &sockets) ||
	    jint(c, o, "spec.domain.cpu.cores", &cores) ||
	    jint(c, o, "spec.domain.cpu.threads", &threads) ||
	    jbool(c, o, "spec.domain.devices.autoattachVSOCK", &b) ||
	    load_devnames(c, o, "spec.domain.devices.gpus", v) ||
	    load_devnames(c, o, "spec.domain.devices.hostDevices", v))
		return KV_ERR;
	v->vsock = b == 1;
	if (v->req_memory < 0 && jquantity(c, o,
	    "spec.domain.resources.limits.memory", &v->req_memory))
		return KV_ERR;
	/* unset counts are 1 (the topology virt-api's webhook writes:
	 * kubevirt v1.9.0 pkg/defaults/defaults.go:198) */
	v->vcpus = (sockets > 0 ? sockets : 1) * (cores > 0 ? cores : 1) *
	    (threads > 0 ? threads : 1);
	return KV_OK;
}

/* spec.networks: how many, and the one with pod: {}. */
static int
load_vmi_networks(jctx *c, json_t *o, kv_vmi *v)
{
	json_t *nets, *e;
	size_t i;
	const char *name;

	if (jget(c, o, "spec.networks", JSON_ARRAY, &nets))
		return KV_ERR;
	v->nnetworks = nets ? json_array_size(nets) : 0;
	if (nets == NULL)
		return KV_OK;
	v->multus = xcalloc(v->nnetworks + 1, sizeof(char *));
	json_array_foreach(nets, i, e) {
		json_t *pod;

		jwhere(c, "spec.networks[%zu].", i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jget(c, e, "pod", JSON_OBJECT, &pod))
			return KV_ERR;
		if (pod != NULL && v->pod_network == NULL &&
		    jstr(c, e, "name", &v->pod_network))
			return KV_ERR;
		if (jstr(c, e, "multus.networkName", &name))
			return KV_ERR;
		if (name != NULL)
			v->multus[v->nmultus++] = name;
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

int
load_vmi_spec(jctx *c, json_t *o, kv_vmi *v)
{
	kv_labels ann = {0};
	int rc = KV_ERR;

	if (jlabels(c, o, "metadata.labels", &v->labels) ||
	    jlabels(c, o, "metadata.annotations", &ann) ||
	    jstr(c, o, "spec.architecture", &v->arch) ||
	    jstr(c, o, "spec.domain.machine.type", &v->machine_spec) ||
	    jlabels(c, o, "spec.nodeSelector", &v->node_selector) ||
	    jstr(c, o, "spec.evictionStrategy", &v->eviction) ||
	    load_affinity(c, o, &v->affinity) ||
	    load_pod_place(c, o, &v->pod_place) ||
	    load_tolerations(c, o, "spec.tolerations", &v->tolerations,
	    &v->ntolerations) ||
	    load_vmi_cpu(c, o, v) || load_vmi_features(c, o, v) ||
	    load_vmi_devices(c, o, v) || load_vmi_volumes(c, o, v) ||
	    load_vmi_networks(c, o, v) || load_vmi_resources(c, o, v))
		goto out;
	v->allow_pod_bridge = kv_flavor_label(&ann, KEY_POD_BRIDGE) != NULL;
	load_vmi_os(v, &ann);
	if (jquantity(c, o, "spec.domain.memory.guest", &v->memory))
		goto out;
	if (v->memory < 0 && jquantity(c, o,
	    "spec.domain.resources.requests.memory", &v->memory))
		goto out;
	rc = KV_OK;
out:
	free(ann.v);
	return rc;
}

int
load_vmi(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_vmi *v;

	v = KV_PUSH(m->vmis, m->nvmis, ls->cap_vmis);
	v->memory = -1;
	v->tsc_hint = -1;
	if (jmeta(c, o, &v->name, &v->ns, true))
		return KV_ERR;
	v->fullname = jfullname(c, v->ns, v->name);
	jname(c, v->fullname);
	if (kv_load_unique(ls, c, "VMI", v->fullname) ||
	    jstr(c, o, "metadata.uid", &v->uid) ||
	    load_vmi_spec(c, o, v) || load_vmi_status(c, o, v))
		return KV_ERR;
	return KV_OK;
}
