/*
 * checks_old.c - the checks of reasons that older KubeVirt versions report
 * and v1.9 does not (docs/versions.mdR15-R18).
 * Each predicts the reason from the VMI's spec where the version table
 * (versions.c) says the snapshot's version reports it; a stored condition
 * with the reason gets the code through the row's reasons either way.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/checks.h"

void
check_virtiofs(rule_ctx *c, const kv_rule *r)
{
	if (c->v->nfilesystems > 0 && !kv_since_on(c->a, SINCE_VIRTIOFS_OK))
		rule_emit(c, r, "filesystem %s is shared with virtiofs, which "
		    "this KubeVirt version (before v1.5.0) does not migrate",
		    c->v->filesystems[0]);
}

void
check_dedicated_emulator(rule_ctx *c, const kv_rule *r)
{
	const kv_ver *v = &c->a->cfg.rules.v;

	/* reported from v0.58.1 (PR #8233) until the fix */
	if (c->v->dedicated_cpu && c->v->isolate_emulator &&
	    !kv_since_on(c->a, SINCE_DEDICATED_OK) &&
	    kv_ver_cmp(*v, (kv_ver){ 0, 58, 1 }) >= 0)
		rule_emit(c, r, "dedicated CPUs with isolateEmulatorThread: "
		    "this KubeVirt version (v0.58.1-v1.0.1) does not migrate "
		    "them");
}

void
check_persistent_reservation(rule_ctx *c, const kv_rule *r)
{
	if (kv_since_on(c->a, SINCE_PR_OK))
		return;
	for (size_t i = 0; i < c->v->ndisks; i++)
		if (c->v->disks[i].lun_reservation) {
			rule_emit(c, r, "disk %s is a LUN with SCSI persistent "
			    "reservation, which this KubeVirt version "
			    "(before v1.9.0) does not migrate",
			    c->v->disks[i].name ? c->v->disks[i].name : "");
			return;
		}
}

/* v1.3.x only, from the stored message (v1.3.1 pkg/virt-handler/
 * vm.go:2526): the backend PVC is no VMI volume. */
void
check_backend_storage(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;

	if (v->cond == 'F' && v->cond_reason != NULL &&
	    strcmp(v->cond_reason, "DisksNotLiveMigratable") == 0 &&
	    v->cond_message != NULL &&
	    strstr(v->cond_message, "Backend storage PVC is not RWX") != NULL)
		rule_emit(c, r, "KubeVirt reports LiveMigratable=False: %s",
		    v->cond_message);
}

/* --- before v1.0 (docs/versions.md "Before v1.0") ----------------------- */

/* The first SR-IOV interface of v, or NULL. */
static const kv_iface *
sriov_iface(const kv_vmi *v)
{
	for (size_t i = 0; i < v->nifaces; i++)
		if (v->ifaces[i].binding == BIND_SRIOV)
			return &v->ifaces[i];
	return NULL;
}

/* v0.39: refused; v0.40-v0.56: refused unless SRIOVLiveMigration. */
void
check_sriov(rule_ctx *c, const kv_rule *r)
{
	const kv_iface *f = sriov_iface(c->v);

	if (f == NULL || kv_since_on(c->a, SINCE_SRIOV_OK) ||
	    !kv_since_on(c->a, SINCE_SRIOV_CHECKED))
		return;
	if (!kv_since_on(c->a, SINCE_SRIOV_GATE))
		rule_emit(c, r, "interface %s is SR-IOV, which this KubeVirt "
		    "version (v0.39) does not migrate", f->name);
	else if (!c->a->cfg.gate_sriov)
		rule_emit(c, r, "interface %s is SR-IOV and the "
		    "SRIOVLiveMigration feature gate is off (KubeVirt "
		    "v0.40-v0.56)", f->name);
}

/* Before v0.39 LiveMigratable does not look at SR-IOV: the migration
 * starts and libvirt refuses the VF, a PCI host device (libvirt
 * src/qemu/qemu_migration.c qemuMigrationSrcIsAllowedHostdev). */
void
check_sriov_unchecked(rule_ctx *c, const kv_rule *r)
{
	const kv_iface *f = sriov_iface(c->v);

	if (f != NULL && !kv_since_on(c->a, SINCE_SRIOV_CHECKED))
		rule_emit(c, r, "interface %s is SR-IOV: this KubeVirt version "
		    "(before v0.39) calls the VMI migratable, but libvirt "
		    "refuses the VF: \"domain has assigned non-USB host "
		    "devices\"", f->name);
}

/* The volume sources the launcher generates before the VM starts and
 * copies in a block migration (v0.36.0 pkg/virt-launcher/virtwrap/
 * manager.go:363-366). */
static bool
generated(const kv_volume *vol)
{
	static const char *const src[] = { "configMap", "secret",
	    "downwardAPI", "serviceAccount", "cloudInitNoCloud",
	    "cloudInitConfigDrive", "containerDisk" };

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++)
		if (vol->source != NULL && strcmp(vol->source, src[i]) == 0)
			return true;
	return false;
}

/* Before v0.36.3 / v0.41.0: a read-only CD-ROM on a generated volume is
 * among the disks the launcher asks libvirt to copy ("Cannot migrate
 * empty or read-only disk", kubevirt#3920). */
void
check_cdrom_copied(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;

	if (kv_since_on(c->a, SINCE_CDROM_NOT_COPIED))
		return;
	for (size_t i = 0; i < v->ndisks; i++) {
		const kv_disk *d = &v->disks[i];

		if (!d->cdrom || !d->cdrom_readonly || d->name == NULL)
			continue;
		for (size_t k = 0; k < v->nvolumes; k++)
			if (strcmp(v->volumes[k].name, d->name) == 0 &&
			    generated(&v->volumes[k])) {
				rule_emit(c, r, "CD-ROM %s (read-only, %s) is "
				    "among the disks a block migration copies; "
				    "libvirt refuses: \"Cannot migrate empty "
				    "or read-only disk\"", d->name,
				    v->volumes[k].source);
				return;
			}
	}
}

/* Before v0.58.0 the target's containerDisk reference is the base of the
 * launcher's containerStatuses[].image: a bare image ID there
 * ("sha256:<id>", as containerd may report) names no repository. */
void
check_digest_status_image(rule_ctx *c, const kv_rule *r)
{
	const kv_pod *pod = c->r->source_pod;

	if (pod == NULL || kv_since_on(c->a, SINCE_CD_SPEC_IMAGE))
		return;
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		char *want;

		if (vol->kind != VOL_CONTAINERDISK)
			continue;
		want = xasprintf("volume%s", vol->name);
		for (size_t k = 0; k < pod->nimageids; k++) {
			const kv_imageid *id = &pod->imageids[k];

			if (strcmp(id->container, want) != 0 ||
			    id->image == NULL || strchr(id->image, '/') != NULL)
				continue;
			rule_emit(c, r, "volume %s: the launcher reports image "
			    "\"%s\", no repository; this KubeVirt version "
			    "(before v0.58.0) renders the target's image from "
			    "it, which no registry serves", vol->name,
			    id->image);
		}
		free(want);
	}
}
