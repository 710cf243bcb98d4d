/*
 * fix_storage.c - the storage groups (groups.h): claims that are not
 * ReadWriteMany, grouped by their storage class, and the class that can
 * give them ReadWriteMany for their volume mode (recreate-claim-rwx);
 * claims the snapshot cannot resolve; hostDisks.
 *
 * Where a class's abilities come from: its CDI StorageProfile's
 * status.claimPropertySets when the snapshot has one, else the table of
 * provisioners below.
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/storage.h"

/*
 * What a provisioner can give as ReadWriteMany, for clusters without
 * StorageProfiles.  Sources: CDI's built-in capabilities table
 * (containerized-data-importer pkg/storagecapabilities, the defaults CDI
 * writes into StorageProfiles), the Ceph CSI documentation (RBD:
 * ReadWriteMany only for volumeMode Block; CephFS: Filesystem), the NFS
 * CSI driver's documentation, and Deckhouse's sds-replicated-volume
 * documentation (ReadWriteMany Block for live migration).  Provisioners
 * not listed (local-path, no-provisioner, sds-local-volume, TopoLVM, ...)
 * give no ReadWriteMany.
 */
static const struct {
	const char *provisioner;
	unsigned rwx;
} known_rwx[] = {
	{ "cephfs.csi.ceph.com", RWX_FILESYSTEM },
	{ "k8s-sigs.io/nfs-subdir-external-provisioner", RWX_FILESYSTEM },
	{ "nfs.csi.k8s.io", RWX_FILESYSTEM },
	{ "openshift-storage.cephfs.csi.ceph.com", RWX_FILESYSTEM },
	{ "openshift-storage.rbd.csi.ceph.com", RWX_BLOCK },
	{ "rbd.csi.ceph.com", RWX_BLOCK },
	{ "replicated.csi.storage.deckhouse.io", RWX_BLOCK },
};

unsigned
kv_class_rwx(const kv_model *m, const char *name, const char **why)
{
	const kv_sprofile *p = kv_model_profile(m, name);
	const kv_storageclass *sc = kv_model_sc(m, name);

	if (p != NULL) {
		*why = "per its StorageProfile";
		return p->rwx;
	}
	for (size_t i = 0; sc != NULL && sc->provisioner != NULL &&
	    i < sizeof(known_rwx) / sizeof(known_rwx[0]); i++)
		if (strcmp(known_rwx[i].provisioner, sc->provisioner) == 0) {
			*why = known_rwx[i].provisioner;
			return known_rwx[i].rwx;
		}
	return 0;
}

const char *
kv_rwx_class(const kv_model *m, const char *current, unsigned want,
    const char **why)
{
	*why = "";
	/* no volume mode wanted: no class answers it (every class would) */
	if (want == 0)
		return NULL;
	if (current != NULL && (kv_model_sc(m, current) != NULL ||
	    kv_model_profile(m, current) != NULL) &&
	    (kv_class_rwx(m, current, why) & want) == want)
		return current;
	for (size_t i = 0; i < m->nprofiles; i++)
		if ((kv_class_rwx(m, m->profiles[i].name, why) & want) == want)
			return m->profiles[i].name;
	for (size_t i = 0; i < m->nscs; i++)
		if ((kv_class_rwx(m, m->scs[i].name, why) & want) == want)
			return m->scs[i].name;
	return NULL;
}

/* The volumes disk-not-shared names (the check's own test). */
static bool
not_shared(const kv_model *m, const kv_vmires *r, const kv_volume *vol)
{
	const char *modes;

	if (vol->kind == VOL_HOSTDISK) {
		const kv_volstatus *vs = kv_volstatus_of(r->vmi, vol->name);

		if (vs == NULL || !vs->has_pvcinfo)
			return false;
	} else if (vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME)
		return false;
	return kv_claim_state(m, r->vmi, vol, &modes) == CLAIM_NOT_SHARED &&
	    !kv_volume_migrated(r->vmi, vol->name) &&
	    !kv_volume_migrates(r, vol);
}

static void
key_claim_rwx(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)rule;
	/* no claim of ours: the blocker is the stored condition's word
	 * alone, and the group (named after the code) is a condition */
	kv_gkey_kind(k, SUBJ_CONDITION);
	for (size_t i = 0; i < r->vmi->nvolumes; i++) {
		const kv_volume *vol = &r->vmi->volumes[i];
		const kv_pvc *pvc;

		if (!not_shared(a->m, r, vol))
			continue;
		pvc = kv_model_pvc(a->m, r->vmi->ns, vol->claim);
		if (pvc != NULL && pvc->storage_class != NULL) {
			kv_gkey_kind(k, SUBJ_STORAGE_CLASS);
			kv_gkey_add(k, pvc->storage_class);
		} else {
			kv_gkey_kind(k, SUBJ_CLAIM);
			kv_gkey_addf(k, "%s/%s", r->vmi->ns, vol->claim ?
			    vol->claim : "?");
		}
	}
}

/* The claims of g's VMIs on its class (or the one claim), and their
 * volume modes. */
static unsigned
group_claims(const kv_analysis *a, const kv_group *g, kv_buf *names,
    size_t *n)
{
	unsigned want = 0;

	*n = 0;
	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];

		for (size_t i = 0; i < r->vmi->nvolumes; i++) {
			const kv_volume *vol = &r->vmi->volumes[i];
			const kv_pvc *pvc = kv_model_pvc(a->m, r->vmi->ns,
			    vol->claim);
			const char *sc = pvc ? pvc->storage_class : NULL;

			if (!not_shared(a->m, r, vol) ||
			    (g->kind == SUBJ_STORAGE_CLASS) != (sc != NULL) ||
			    (sc != NULL && strcmp(sc, g->name) != 0))
				continue;
			want |= pvc && pvc->volume_mode &&
			    strcmp(pvc->volume_mode, "Block") == 0 ?
			    RWX_BLOCK : RWX_FILESYSTEM;
			if ((*n)++ < 5)
				kv_buf_printf(names, "%s%s/%s", *n > 1 ? ", " :
				    "", r->vmi->ns, vol->claim);
		}
	}
	if (*n > 5)
		kv_buf_printf(names, ", ... (%zu in all)", *n);
	return want;
}

static const char *
mode_words(unsigned want)
{
	return want == RWX_BLOCK ? "Block" : want == RWX_FILESYSTEM ?
	    "Filesystem" : "Block and Filesystem";
}

/* "not in the input", or "not in the input (storageclasses: forbidden)"
 * (need.h). */
static const char *
classes_lack(const kv_model *m)
{
	const char *w = kv_model_lack_words(m, NEED_STORAGECLASSES);

	return strcmp(w, "not in the input") == 0 ? "not in the input" :
	    strcmp(w, "forbidden") == 0 ? "not in the input (storageclasses: "
	    "forbidden)" : "not in the input (storageclasses: not read)";
}

/* A disk-not-shared group without a claim that is not ReadWriteMany:
 * KubeVirt's stored condition said DisksNotLiveMigratable. */
static void
resolve_condition_only(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);

	g->summary = xasprintf("%s %s DisksNotLiveMigratable in the stored "
	    "LiveMigratable condition, but no claim in the input that is "
	    "not ReadWriteMany", who, kv_group_verb(g, "report"));
	g->fix.action = FIX_NONE;
	g->fix.text = xstrdup("read the LiveMigratable condition's message "
	    "for the disk KubeVirt names; kvscope finds no ReadWriteOnce "
	    "claim, hostDisk or local volume in the input to change");
	free(who);
}

static void
resolve_claim_rwx(const kv_analysis *a, kv_group *g)
{
	kv_buf names = {0};
	size_t n;
	unsigned want = group_claims(a, g, &names, &n);
	const char *why = "", *cur = g->kind == SUBJ_STORAGE_CLASS ?
	    g->name : NULL;
	const char *cls;
	char *who;
	const kv_fixrow *fr = a->m->flavor->fix;

	if (want == 0) {
		kv_buf_free(&names);
		resolve_condition_only(a, g);
		return;
	}
	cls = kv_rwx_class(a->m, cur, want, &why);
	who = kv_group_count_words(a, g);

	g->summary = xasprintf("%s %s a %s disk on %s%s that is not "
	    "ReadWriteMany", who, kv_group_verb(g, "have"), mode_words(want),
	    cur ? "storage class " : "claim ", g->name);
	g->fix.action = FIX_RECREATE_CLAIM_RWX;
	g->fix.path = "spec.accessModes";
	g->fix.restart = true;
	if (cls == NULL && kv_model_lacks(a->m, NEED_STORAGECLASSES)) {
		/* the input, not the cluster, lacks the classes */
		g->fix.text = xasprintf("storage classes are %s; on the "
		    "cluster, look for a class that gives ReadWriteMany %s "
		    "and recreate the claims (%s) on it, or plan a shutdown of "
		    "these VMs", classes_lack(a->m), mode_words(want),
		    names.data ? names.data : "-");
	} else if (cls == NULL) {
		g->fix.text = xasprintf("none in this cluster: no storage "
		    "class here gives ReadWriteMany %s (claims %s); add RWX "
		    "storage (CephFS or NFS for Filesystem, Ceph RBD for "
		    "Block)%s, or plan a shutdown of these VMs", mode_words(
		    want), names.data ? names.data : "-", fr->rwx_copy);
	} else {
		g->fix.value = xstrdup(cls);
		g->fix.fixes = g->nvmis;
		g->fix.text = xasprintf("Recreate the claims (%s) as "
		    "ReadWriteMany, volumeMode %s, on storage class %s "
		    "(ReadWriteMany %s %s%s), e.g. by cloning each into a "
		    "new %s and pointing the VM at it; %s",
		    names.data ? names.data : "-",
		    mode_words(want), cls, mode_words(want),
		    strncmp(why, "per ", 4) ? "per its provisioner " : "", why,
		    fr->rwx_clone, fr->rwx_after);
	}
	kv_buf_free(&names);
	free(who);
}

const kv_grouping kv_grp_claim_rwx = {
	SUBJ_STORAGE_CLASS, key_claim_rwx, resolve_claim_rwx,
};

static void
key_claim_unknown(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)rule;
	if (!kv_model_has(a->m, "persistentvolumeclaims", "")) {
		kv_gkey_add(k, "persistentvolumeclaims (not collected)");
		return;
	}
	for (size_t i = 0; i < r->vmi->nvolumes; i++) {
		const kv_volume *vol = &r->vmi->volumes[i];
		const char *modes;

		if ((vol->kind == VOL_PVC || vol->kind == VOL_DATAVOLUME) &&
		    kv_claim_state(a->m, r->vmi, vol, &modes) == CLAIM_UNKNOWN)
			kv_gkey_addf(k, "%s/%s", r->vmi->ns, vol->claim ?
			    vol->claim : "(unnamed)");
	}
}

static void
resolve_claim_unknown(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);

	g->summary = xasprintf("%s %s claim %s, which the snapshot cannot "
	    "resolve", who, kv_group_verb(g, "use"), g->name);
	g->fix.action = FIX_NONE;
	g->fix.text = xasprintf("Nothing to change in the VM until the claim "
	    "is known: check that PVC %s exists and is bound, and collect the "
	    "snapshot with permission to list PVCs", g->name);
	free(who);
}

const kv_grouping kv_grp_claim_unknown = {
	SUBJ_CLAIM, key_claim_unknown, resolve_claim_unknown,
};

static void
resolve_hostdisk(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);

	g->summary = xasprintf("%s %s a hostDisk without shared: true",
	    who, kv_group_verb(g, "have"));
	/* action none: kvscope makes no change, so none to restart for
	 * (the text says the owner's change needs one) */
	g->fix.action = FIX_NONE;
	g->fix.path = "spec.template.spec.volumes[].hostDisk.shared";
	g->fix.text = xasprintf("No RWX class helps a hostDisk: set shared: "
	    "true in the VirtualMachines (%s) only if the path is on storage "
	    "every node sees; otherwise move the disk to a ReadWriteMany PVC "
	    "(restart either way)", ex);
	free(who);
	free(ex);
}

static void
key_hostdisk(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)r;
	(void)rule;
	kv_gkey_add(k, "hostDisk");
}

const kv_grouping kv_grp_hostdisk = {
	SUBJ_DEVICE, key_hostdisk, resolve_hostdisk,
};
