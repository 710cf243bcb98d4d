/*
 * storage.c - volumes, claims and the migration method (storage.h).
 * References are to docs/rules.md.
 */
#include "analyze/rules/storage.h"

#include <string.h>

const kv_volstatus *
kv_volstatus_of(const kv_vmi *v, const char *name)
{
	for (size_t i = 0; i < v->nvolstatus; i++)
		if (v->volstatus[i].name != NULL &&
		    strcmp(v->volstatus[i].name, name) == 0)
			return &v->volstatus[i];
	return NULL;
}

bool
kv_volume_migrated(const kv_vmi *v, const char *name)
{
	for (size_t i = 0; i < v->nmigrated; i++)
		if (strcmp(v->migrated[i], name) == 0)
			return true;
	return false;
}

bool
kv_volume_is_local(const kv_vmi *v, const kv_volume *vol, bool ro_cdrom)
{
	if (vol->kind != VOL_LOCAL && vol->kind != VOL_CONTAINERDISK)
		return false;
	for (size_t i = 0; i < v->nfilesystems; i++)
		if (strcmp(v->filesystems[i], vol->name) == 0)
			return false;
	for (size_t i = 0; i < v->ndisks; i++)
		if (v->disks[i].name != NULL &&
		    strcmp(v->disks[i].name, vol->name) == 0 &&
		    v->disks[i].cdrom && v->disks[i].cdrom_readonly &&
		    !ro_cdrom)
			return false;
	return true;
}

void
kv_describe_claim(const kv_model *m, const char *ns, const char *claim,
    kv_buf *b)
{
	const kv_pvc *pvc = kv_model_pvc(m, ns, claim);
	const kv_storageclass *sc;

	if (pvc == NULL || pvc->storage_class == NULL)
		return;
	kv_buf_printf(b, ", storage class %s", pvc->storage_class);
	if ((sc = kv_model_sc(m, pvc->storage_class)) != NULL &&
	    sc->provisioner != NULL)
		kv_buf_printf(b, " (%s)", sc->provisioner);
}

void
kv_describe_volume(const kv_model *m, const char *ns, const kv_volume *vol,
    kv_buf *b)
{
	if (m->flavor->describe_volume != NULL)
		m->flavor->describe_volume(m, ns, vol, b);
}

static const char *
modes_text(unsigned modes)
{
	static const char *const t[] = { "no access mode", "ReadWriteOnce",
	    "ReadOnlyMany", "ReadWriteOnce,ReadOnlyMany" };

	if (modes & AM_RWOP)
		return "ReadWriteOncePod";
	return t[modes & 3];
}

/* RWX from the VMI's own volumeStatus (what KubeVirt reads), else from
 * the PVC object. */
enum kv_claim_state
kv_claim_state(const kv_model *m, const kv_vmi *v, const kv_volume *vol,
    const char **modes)
{
	const kv_volstatus *vs = kv_volstatus_of(v, vol->name);
	const kv_pvc *pvc;

	*modes = NULL;
	if (vs != NULL && vs->has_pvcinfo) {
		*modes = vs->modes && *vs->modes ? vs->modes : "no access mode";
		return vs->rwx ? CLAIM_RWX : CLAIM_NOT_SHARED;
	}
	if (vol->claim != NULL &&
	    (pvc = kv_model_pvc(m, v->ns, vol->claim)) != NULL) {
		*modes = modes_text(pvc->modes);
		return (pvc->modes & AM_RWX) ? CLAIM_RWX : CLAIM_NOT_SHARED;
	}
	return CLAIM_UNKNOWN;
}

bool
kv_claim_not_shared(const kv_model *m, const kv_vmi *v, const kv_volume *vol)
{
	const char *modes;

	return kv_claim_state(m, v, vol, &modes) == CLAIM_NOT_SHARED;
}

bool
kv_volume_migrates(const kv_vmires *r, const kv_volume *vol)
{
	for (size_t i = 0; i < r->nmigvols; i++)
		if (r->migvols[i] == vol)
			return true;
	return false;
}

/*
 * §3.3 as virt-handler computes status.migrationMethod: a local volume, a
 * migrated volume, or a volume that fails the shared-storage check (the
 * check returns blockMigrate=true with its error) makes it a block
 * migration.
 */
bool
kv_volume_blocks(const kv_analysis *a, const kv_vmires *r,
    const kv_volume *vol, const char **why)
{
	const kv_model *m = a->m;
	const kv_vmi *v = r->vmi;
	const kv_volstatus *vs;
	const char *modes;

	*why = vol->source;
	switch (vol->kind) {
	case VOL_PVC:
	case VOL_DATAVOLUME:
		if (kv_volume_migrated(v, vol->name)) {
			*why = "migrated volume";
			return true;
		}
		*why = kv_volume_migrates(r, vol) ? m->flavor->migvol_why :
		    "PVC not shared";
		return kv_claim_state(m, v, vol, &modes) != CLAIM_RWX;
	case VOL_HOSTDISK:
		vs = kv_volstatus_of(v, vol->name);
		*why = "hostDisk not shared";
		if (vs != NULL && vs->has_pvcinfo)
			return !vs->rwx && !kv_volume_migrated(v, vol->name);
		return !vol->hostdisk_shared;
	default:
		return kv_volume_is_local(v, vol,
		    !kv_since_on(a, SINCE_CDROM_NO_BLOCK));
	}
}

const char *
kv_migration_method(const kv_analysis *a, const kv_vmires *r)
{
	const char *why;

	if (r->vmi->nmigrated > 0)
		return "BlockMigration";
	for (size_t i = 0; i < r->vmi->nvolumes; i++)
		if (kv_volume_blocks(a, r, &r->vmi->volumes[i], &why))
			return "BlockMigration";
	return "LiveMigration";
}
