/*
 * rules.c - the check table (rules.h) and one function per check.
 *
 * Every check reads the VMI and what vmi.c prepared in the rule context
 * (source node and pod, rendered selectors, targets) and reports through
 * rule_emit().  References are to ../shared/spec/rules-kubevirt.md.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "rules_ctx.h"

/* --- shared helpers --------------------------------------------------------------- */

typedef struct podnet {
	bool present;		/* the VMI is on the pod network */
	bool implicit;		/* no interface declared: webhook default */
	bool missing_iface;
	const char *net;
	const kv_iface *iface;
	enum kv_binding binding;
} podnet;

/* §3.2, with the webhook's default for VMIs that declare nothing. */
static podnet
pod_network(const rule_ctx *c)
{
	const kv_vmi *v = c->v;
	podnet p = {0};
	const char *def = c->a->cfg.default_iface;

	if (v->nnetworks == 0 && v->nifaces == 0) {
		if (v->autoattach == 0)
			return p;
		p.present = p.implicit = true;
		p.net = "default";
		p.binding = strcmp(def, "bridge") == 0 ? BIND_BRIDGE :
		    strcmp(def, "masquerade") == 0 ? BIND_MASQUERADE :
		    strcmp(def, "slirp") == 0 ? BIND_SLIRP : BIND_OTHER;
		return p;
	}
	if (v->pod_network == NULL)
		return p;
	p.present = true;
	p.net = v->pod_network;
	for (size_t i = 0; i < v->nifaces; i++)
		if (v->ifaces[i].name != NULL &&
		    strcmp(v->ifaces[i].name, v->pod_network) == 0) {
			p.iface = &v->ifaces[i];
			p.binding = v->ifaces[i].binding;
			return p;
		}
	p.missing_iface = true;
	return p;
}

static const char *
binding_name(enum kv_binding b)
{
	static const char *const n[] = { "no binding", "masquerade", "bridge",
	    "passt", "sriov", "slirp", "macvtap", "a binding plugin",
	    "an unknown binding" };

	return n[b];
}

static bool
plugin_migratable(const rule_ctx *c, const char *plugin)
{
	const kv_cluster *k = &c->m->cluster;

	for (size_t i = 0; plugin != NULL && i < k->nmigratable_bindings; i++)
		if (strcmp(k->migratable_bindings[i], plugin) == 0)
			return true;
	return false;
}

static bool
cond_reason_is(const rule_ctx *c, const char *reason)
{
	return c->v->cond == 'F' && c->v->cond_reason != NULL &&
	    strcmp(c->v->cond_reason, reason) == 0;
}

static const kv_volstatus *
volstatus(const kv_vmi *v, const char *name)
{
	for (size_t i = 0; i < v->nvolstatus; i++)
		if (v->volstatus[i].name != NULL &&
		    strcmp(v->volstatus[i].name, name) == 0)
			return &v->volstatus[i];
	return NULL;
}

static bool
migrated(const kv_vmi *v, const char *name)
{
	for (size_t i = 0; i < v->nmigrated; i++)
		if (strcmp(v->migrated[i], name) == 0)
			return true;
	return false;
}

bool
kv_volume_is_local(const kv_vmi *v, const kv_volume *vol)
{
	if (vol->kind != VOL_LOCAL && vol->kind != VOL_CONTAINERDISK)
		return false;
	for (size_t i = 0; i < v->nfilesystems; i++)
		if (strcmp(v->filesystems[i], vol->name) == 0)
			return false;
	for (size_t i = 0; i < v->ndisks; i++)
		if (v->disks[i].name != NULL &&
		    strcmp(v->disks[i].name, vol->name) == 0 &&
		    v->disks[i].cdrom && v->disks[i].cdrom_readonly)
			return false;
	return true;
}

/* Storage class and provisioner of a claim, for messages. */
static void
describe_claim(const rule_ctx *c, const char *claim, kv_buf *b)
{
	const kv_pvc *pvc = kv_model_pvc(c->m, c->v->ns, claim);
	const kv_storageclass *sc;

	if (pvc == NULL || pvc->storage_class == NULL)
		return;
	kv_buf_printf(b, ", storage class %s", pvc->storage_class);
	if ((sc = kv_model_sc(c->m, pvc->storage_class)) != NULL &&
	    sc->provisioner != NULL)
		kv_buf_printf(b, " (%s)", sc->provisioner);
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

enum claim_state { CLAIM_RWX, CLAIM_NOT_SHARED, CLAIM_UNKNOWN };

/* RWX from the VMI's own volumeStatus (what KubeVirt reads), else from
 * the PVC object. */
static enum claim_state
claim_state_of(const kv_model *m, const kv_vmi *v, const kv_volume *vol,
    const char **modes)
{
	const kv_volstatus *vs = volstatus(v, vol->name);
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

static enum claim_state
claim_state(const rule_ctx *c, const kv_volume *vol, const char **modes)
{
	return claim_state_of(c->m, c->v, vol, modes);
}

bool
kv_claim_not_shared(const kv_model *m, const kv_vmi *v, const kv_volume *vol)
{
	const char *modes;

	return claim_state_of(m, v, vol, &modes) == CLAIM_NOT_SHARED;
}

/* DVP names a disk by its VirtualDisk; "" when the claim is none's. */
static void
describe_vdisk(const rule_ctx *c, const kv_volume *vol, kv_buf *b)
{
	const kv_vdisk *vd;

	if (c->a->cfg.deckhouse && (vd = kv_dvp_disk_by_claim(c->m, c->v->ns,
	    vol->claim)) != NULL)
		kv_buf_printf(b, "VirtualDisk %s, ", vd->name);
}

/*
 * §3.3 as virt-handler computes status.migrationMethod: a local volume, a
 * migrated volume, or a volume that fails the shared-storage check (the
 * check returns blockMigrate=true with its error) makes it a block
 * migration.
 */
static bool
volume_blocks(const rule_ctx *c, const kv_volume *vol, const char **why)
{
	const kv_volstatus *vs;
	const char *modes;

	*why = vol->source;
	switch (vol->kind) {
	case VOL_PVC:
	case VOL_DATAVOLUME:
		if (migrated(c->v, vol->name)) {
			*why = "migrated volume";
			return true;
		}
		*why = kv_dvp_volume_migrates(c->r, vol) ?
		    "VirtualDisk, volume migration" : "PVC not shared";
		return claim_state(c, vol, &modes) != CLAIM_RWX;
	case VOL_HOSTDISK:
		vs = volstatus(c->v, vol->name);
		*why = "hostDisk not shared";
		if (vs != NULL && vs->has_pvcinfo)
			return !vs->rwx && !migrated(c->v, vol->name);
		return !vol->hostdisk_shared;
	default:
		return kv_volume_is_local(c->v, vol);
	}
}

const char *
kv_migration_method(const rule_ctx *c)
{
	const char *why;

	if (c->v->nmigrated > 0)
		return "BlockMigration";
	for (size_t i = 0; i < c->v->nvolumes; i++)
		if (volume_blocks(c, &c->v->volumes[i], &why))
			return "BlockMigration";
	return "LiveMigration";
}

/* --- blockers ----------------------------------------------------------------------- */

static void
check_pod_bridge(rule_ctx *c, const kv_rule *r)
{
	podnet p = pod_network(c);

	if (!p.present || p.missing_iface || p.binding != BIND_BRIDGE ||
	    c->v->allow_pod_bridge)
		return;
	if (p.implicit)
		rule_emit(c, r, "no network is declared, so the pod network "
		    "gets the cluster default binding (bridge), which cannot "
		    "migrate without the allow-pod-bridge-network-live-migration "
		    "annotation");
	else
		rule_emit(c, r, "interface %s binds the pod network with "
		    "bridge and the VMI lacks the "
		    "allow-pod-bridge-network-live-migration annotation",
		    p.iface->name);
}

static void
check_binding(rule_ctx *c, const kv_rule *r)
{
	podnet p = pod_network(c);

	if (!p.present)
		return;
	if (p.missing_iface)
		rule_emit(c, r, "no primary interface found for pod network "
		    "%s", p.net);
	else if (p.binding == BIND_PLUGIN) {
		if (!plugin_migratable(c, p.iface->plugin))
			rule_emit(c, r, "interface %s uses binding plugin %s, "
			    "which has no migration setting in the KubeVirt "
			    "CR", p.iface->name, p.iface->plugin ?
			    p.iface->plugin : "(unnamed)");
	} else if (p.binding != BIND_MASQUERADE && p.binding != BIND_PASST &&
	    p.binding != BIND_BRIDGE)
		rule_emit(c, r, "%s %s uses %s on the pod network; only "
		    "masquerade, passt or a migratable plugin can migrate",
		    p.implicit ? "the default interface" : "interface",
		    p.implicit ? "" : p.iface->name, binding_name(p.binding));
}

static void
check_host_model_unsupported(rule_ctx *c, const kv_rule *r)
{
	const char *arch;

	if (c->r->mode != MODE_HOST_MODEL)
		return;
	if (cond_reason_is(c, "CPUModeLiveMigratable"))
		rule_emit(c, r, "%s", c->v->cond_message ?
		    c->v->cond_message : "the source node does not allow "
		    "migration with host-model");
	else if (c->src != NULL && (arch = kv_labels_get(&c->src->labels,
	    "kubernetes.io/arch")) != NULL && strcmp(arch, "amd64") != 0 &&
	    strcmp(arch, "s390x") != 0)
		rule_emit(c, r, "the node \"%s\" (%s) has no host-model CPU",
		    c->src->name, arch);
}

static bool
gpu_permitted(const rule_ctx *c)
{
	const kv_cluster *k = &c->m->cluster;

	for (size_t i = 0; c->v->gpu_device && i < k->nmdev; i++)
		if (strcmp(k->mdev_resources[i], c->v->gpu_device) == 0)
			return true;
	return false;
}

static void
check_host_device(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;

	if (v->nhostdevices > 0)
		rule_emit(c, r, "VMI specifies %zu non-migratable generic PCI "
		    "host device%s", v->nhostdevices,
		    v->nhostdevices == 1 ? "" : "s");
	else if (v->ngpus > 1)
		rule_emit(c, r, "VMI specifies too many GPUs (%zu)", v->ngpus);
	else if (v->ngpus == 1 && !c->a->cfg.gate_vgpu)
		rule_emit(c, r, "VMI specifies a GPU (%s) but feature gate "
		    "VGPULiveMigration is not enabled", v->gpu_device ?
		    v->gpu_device : "unnamed");
	else if (v->ngpus == 1 && !gpu_permitted(c))
		rule_emit(c, r, "GPU %s is not a permitted mediated device",
		    v->gpu_device ? v->gpu_device : "(unnamed)");
}

static void
check_launch_security(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;

	if (v->sev || v->snp)
		rule_emit(c, r, "VMI uses %s", v->snp ? "SEV-SNP" : "SEV");
	else if (v->tdx)
		rule_emit(c, r, "VMI uses TDX");
	else if (v->any_launch_security && v->arch &&
	    strcmp(v->arch, "s390x") == 0)
		rule_emit(c, r, "VMI uses Secure Execution");
}

static void
check_tsc(rule_ctx *c, const kv_rule *r)
{
	if ((c->v->hyperv_enabled & HV_REENLIGHTENMENT) && c->v->tsc_hint <= 0)
		rule_emit(c, r, "Hyper-V reenlightenment is enabled but "
		    "status.topologyHints.tscFrequency is not set");
}

static void
check_hyperv_passthrough(rule_ctx *c, const kv_rule *r)
{
	if (c->v->hyperv_passthrough)
		rule_emit(c, r, "Hyper-V passthrough is enabled");
}

static void
check_disk_not_shared(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const kv_volstatus *vs;
		const char *modes;
		kv_buf b = {0};

		if (vol->kind == VOL_HOSTDISK) {
			vs = volstatus(c->v, vol->name);
			if (vs == NULL || !vs->has_pvcinfo)
				continue;
		} else if (vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME)
			continue;
		if (claim_state(c, vol, &modes) != CLAIM_NOT_SHARED ||
		    migrated(c->v, vol->name) ||
		    kv_dvp_volume_migrates(c->r, vol))
			continue;
		describe_vdisk(c, vol, &b);
		kv_buf_printf(&b, "PVC %s is %s", vol->claim ? vol->claim : "?",
		    modes);
		describe_claim(c, vol->claim, &b);
		rule_emit(c, r, "volume %s: %s; live migration needs "
		    "ReadWriteMany, even on shared storage%s", vol->name, b.data,
		    c->a->cfg.deckhouse ? " (DVP moves RWO VirtualDisks only "
		    "with volume migration, Enterprise Edition)" : "");
		kv_buf_free(&b);
	}
}

static void
check_claim_unknown(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const char *modes;

		if (vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME)
			continue;
		if (claim_state(c, vol, &modes) == CLAIM_UNKNOWN)
			rule_emit(c, r, "volume %s: PVC %s is in neither the "
			    "VMI's volumeStatus nor the snapshot's PVCs%s",
			    vol->name, vol->claim ? vol->claim : "(unnamed)",
			    kv_model_has(c->m, "persistentvolumeclaims", "") ?
			    "" : " (PVCs were not collected)");
	}
}

static void
check_hostdisk(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const kv_volstatus *vs;

		if (vol->kind != VOL_HOSTDISK || vol->hostdisk_shared)
			continue;
		vs = volstatus(c->v, vol->name);
		if (vs != NULL && vs->has_pvcinfo)
			continue;
		rule_emit(c, r, "volume %s: hostDisk without shared: true",
		    vol->name);
	}
}

enum digest { DIGEST_OK, DIGEST_CONFIG, DIGEST_NONE, DIGEST_UNJUDGED };

/* §3.4: what image reference the target pod would pull. */
static enum digest
container_digest(const rule_ctx *c, const kv_volume *vol, const char **id)
{
	const kv_pod *pod = c->r->source_pod;
	char *want;
	enum digest d = DIGEST_NONE;

	*id = NULL;
	if (pod == NULL)
		return DIGEST_UNJUDGED;
	for (size_t i = 0; i < pod->nimagerefs; i++)
		if (strcmp(pod->imagerefs[i].key, vol->name) == 0 &&
		    strstr(pod->imagerefs[i].value, "@sha256:") != NULL)
			return DIGEST_OK;
	want = xasprintf("volume%s", vol->name);
	for (size_t i = 0; i < pod->nimageids; i++)
		if (strcmp(pod->imageids[i].container, want) == 0 &&
		    pod->imageids[i].image_id != NULL) {
			*id = pod->imageids[i].image_id;
			break;
		}
	free(want);
	if (*id != NULL) {
		const char *sha = strstr(*id, "sha256:");

		if (sha == NULL)
			d = DIGEST_NONE;
		else if (sha > *id && sha[-1] == '@')
			d = DIGEST_OK;
		else
			d = DIGEST_CONFIG;
	}
	return d;
}

/* §3.4 toImageWithDigest: the image without its @sha256: suffix or :tag
 * (a ':' after the last '/'), then "@sha256:" and the first run of
 * [a-zA-Z0-9] after the first "sha256:" of the image ID.  Caller frees. */
static char *
target_reference(const char *image, const char *image_id)
{
	const char *at = strstr(image, "@sha256:");
	const char *slash, *colon, *hex = strstr(image_id, "sha256:") + 7;
	size_t len = at ? (size_t)(at - image) : strlen(image), n = 0;

	slash = memrchr(image, '/', len);
	colon = memrchr(slash ? slash : image, ':', len - (size_t)(slash ?
	    slash - image : 0));
	if (colon != NULL)
		len = (size_t)(colon - image);
	while (isalnum((unsigned char)hex[n]))
		n++;
	return xasprintf("%.*s@sha256:%.*s", (int)len, image, (int)n, hex);
}

static void
check_digest(rule_ctx *c, const kv_rule *r, enum digest want)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const char *id;

		if (vol->kind != VOL_CONTAINERDISK ||
		    container_digest(c, vol, &id) != want)
			continue;
		if (want == DIGEST_CONFIG) {
			char *ref = target_reference(vol->image ? vol->image :
			    "?", id);

			rule_emit(c, r, "volume %s: image ID %s has no "
			    "repository digest; the target pod would pull "
			    "%s, which no registry serves", vol->name, id, ref);
			free(ref);
		} else if (id != NULL)
			rule_emit(c, r, "volume %s: image ID \"%s\" has no "
			    "sha256 digest; KubeVirt cannot render the target "
			    "pod", vol->name, id);
		else
			rule_emit(c, r, "volume %s: pod %s records no image ID "
			    "for container volume%s; KubeVirt cannot render "
			    "the target pod", vol->name,
			    c->r->source_pod->name, vol->name);
	}
}

static void
check_digest_config(rule_ctx *c, const kv_rule *r)
{
	check_digest(c, r, DIGEST_CONFIG);
}

static void
check_digest_none(rule_ctx *c, const kv_rule *r)
{
	check_digest(c, r, DIGEST_NONE);
}

static void
check_host_model_label(rule_ctx *c, const kv_rule *r)
{
	if (c->r->mode != MODE_HOST_MODEL || c->ti.host_model_copied ||
	    cond_reason_is(c, "CPUModeLiveMigratable"))
		return;
	if (c->ti.source_missing)
		rule_emit(c, r, "the source node %s is not in the snapshot; "
		    "KubeVirt cannot render the target pod without it",
		    c->v->node ? c->v->node : "(none)");
	else if (c->ti.host_model_missing)
		rule_emit(c, r, "node %s has no host-model-cpu.%s label%s; "
		    "the migration stays Pending", c->src->name,
		    c->a->cfg.domain, c->src->skip_labeller ?
		    " (node labelling is skipped by annotation)" : "");
}

/* The CPU selector key fewest other nodes carry, for the message. */
static const kv_label *
rarest_cpu_label(const rule_ctx *c, size_t *count)
{
	const kv_label *best = NULL;
	size_t best_n = SIZE_MAX;

	for (size_t i = 0; i < c->r->selectors.n; i++) {
		const kv_label *l = &c->r->selectors.v[i];
		const kv_bits *b;
		size_t n = 0;

		if (!kv_startswith(l->key, "cpu-"))
			continue;
		/* nodes other than the source with key=value */
		if ((b = kv_index_eq(c->a->index, l->key, l->value)) != NULL) {
			n = kv_bits_count(b);
			if (c->src != NULL &&
			    kv_bits_test(b, (size_t)(c->src - c->m->nodes)))
				n--;
		}
		if (n < best_n) {
			best_n = n;
			best = l;
		}
	}
	*count = best_n;
	return best;
}

static void
check_no_cpu_target(rule_ctx *c, const kv_rule *r)
{
	const kv_label *l;
	size_t n;

	if (c->r->ncpu_targets > 0)
		return;
	l = rarest_cpu_label(c, &n);
	if (l != NULL && n == 0)
		rule_emit(c, r, "no node other than %s satisfies the CPU "
		    "selectors: no other node carries %s",
		    c->v->node ? c->v->node : "the source", l->key);
	else
		rule_emit(c, r, "no node other than %s satisfies all CPU "
		    "selectors together", c->v->node ? c->v->node :
		    "the source");
}

static void
check_no_placement(rule_ctx *c, const kv_rule *r)
{
	kv_buf b = {0};
	size_t shown = 0;

	if (c->r->ncpu_targets == 0 || c->r->ntargets > 0)
		return;
	KV_NODESET_FOREACH(&c->r->cpu_targets, n) {
		kv_buf why = {0};

		if (shown == 3)
			break;
		if (kv_target_explain(c->a, c->place, c->r, n, &why)) {
			kv_buf_printf(&b, "%s%s: %s", shown ? "; " : "",
			    c->m->nodes[n].name, why.data);
			shown++;
		}
		kv_buf_free(&why);
	}
	rule_emit(c, r, "%zu node%s match%s the CPU selectors but none can "
	    "take the pod (%s%s)", c->r->ncpu_targets,
	    c->r->ncpu_targets == 1 ? "" : "s",
	    c->r->ncpu_targets == 1 ? "es" : "", b.data ? b.data : "",
	    c->r->ncpu_targets > shown ? "; ..." : "");
	kv_buf_free(&b);
}

/* --- warnings ----------------------------------------------------------------------- */

static void
check_block_migration(rule_ctx *c, const kv_rule *r)
{
	kv_buf b = {0};
	const char *why;
	size_t n = 0;

	if (strcmp(c->r->method, "BlockMigration") != 0)
		return;
	for (size_t i = 0; i < c->v->nvolumes; i++)
		if (volume_blocks(c, &c->v->volumes[i], &why))
			kv_buf_printf(&b, "%s%s (%s)", n++ ? ", " : "",
			    c->v->volumes[i].name, why);
	for (size_t i = 0; i < c->v->nmigrated; i++) {
		bool listed = false;

		for (size_t j = 0; j < c->v->nvolumes; j++)
			listed |= strcmp(c->v->volumes[j].name,
			    c->v->migrated[i]) == 0;
		if (!listed)
			kv_buf_printf(&b, "%s%s (migrated volume)",
			    n++ ? ", " : "", c->v->migrated[i]);
	}
	rule_emit(c, r, "volume%s copied during the migration: %s",
	    n == 1 ? "" : "s", b.data ? b.data : "");
	kv_buf_free(&b);
}

static void
check_reconnect(rule_ctx *c, const kv_rule *r)
{
	podnet p = pod_network(c);

	if (p.present && !p.missing_iface &&
	    (p.binding == BIND_MASQUERADE || p.binding == BIND_PASST))
		rule_emit(c, r, "%s%s binds the pod network with %s",
		    p.implicit ? "the default interface" : "interface ",
		    p.implicit ? "" : p.iface->name, binding_name(p.binding));
}

static void
check_stale_vendor(rule_ctx *c, const kv_rule *r)
{
	if (c->ti.nvendors > 1)
		rule_emit(c, r, "node %s carries %zu cpu-vendor labels; "
		    "KubeVirt picks one at random for the target", c->src->name,
		    c->ti.nvendors);
}

static bool
same_features(const rule_ctx *c, const kv_node *x, const kv_node *y)
{
	char *pfx = xasprintf("cpu-feature.%s/", c->a->cfg.domain);
	size_t i = 0, j = 0;
	bool same = true;

	for (;;) {
		while (i < x->labels.n && !kv_startswith(x->labels.v[i].key,
		    pfx))
			i++;
		while (j < y->labels.n && !kv_startswith(y->labels.v[j].key,
		    pfx))
			j++;
		if (i == x->labels.n || j == y->labels.n) {
			same = i == x->labels.n && j == y->labels.n;
			break;
		}
		if (x->labels.v[i].key != y->labels.v[j].key) {
			same = false;
			break;
		}
		i++;
		j++;
	}
	free(pfx);
	return same;
}

static void
check_passthrough(rule_ctx *c, const kv_rule *r)
{
	kv_buf b = {0};
	size_t n = 0;
	signed char *cls_same;		/* per CPU class: -1 not known yet */

	if (c->r->mode != MODE_HOST_PASSTHROUGH || c->src == NULL)
		return;
	/* Nodes of one class have the same CPU labels: compare once per
	 * class, not once per target. */
	cls_same = xcalloc(c->a->nclasses + 1, 1);
	memset(cls_same, -1, c->a->nclasses + 1);
	KV_NODESET_FOREACH(&c->r->targets, ti) {
		const kv_node *t = &c->m->nodes[ti];
		int cls = c->a->nodes[ti].cls;
		bool same;

		if (cls < 0)
			same = same_features(c, c->src, t);
		else {
			if (cls_same[cls] < 0)
				cls_same[cls] = same_features(c, c->src, t);
			same = cls_same[cls];
		}
		if (!same && n++ < 5)
			kv_buf_printf(&b, "%s%s", n > 1 ? ", " : "", t->name);
	}
	free(cls_same);
	if (n > 0)
		rule_emit(c, r, "%zu target%s with other CPU features than "
		    "%s: %s%s", n, n == 1 ? "" : "s", c->src->name, b.data,
		    n > 5 ? ", ..." : "");
	kv_buf_free(&b);
}

static void
check_eviction_blocks(rule_ctx *c, const kv_rule *r)
{
	if (c->r->on_drain != DRAIN_BLOCK)
		return;
	if (c->r->verdict == V_OK)
		rule_emit(c, r, "eviction strategy %s wants a live migration, "
		    "but the VMI has no LiveMigratable=True condition, which "
		    "KubeVirt's eviction webhook requires: a drain of %s waits "
		    "forever", c->r->eviction, c->v->node ? c->v->node :
		    "its node");
	else
		rule_emit(c, r, "eviction strategy %s wants a live migration, "
		    "but the VMI cannot migrate: a drain of %s waits forever",
		    c->r->eviction, c->v->node ? c->v->node : "its node");
}

static void
check_eviction_shutdown(rule_ctx *c, const kv_rule *r)
{
	if (c->r->on_drain == DRAIN_SHUTDOWN &&
	    strcmp(c->r->eviction, "None") == 0)
		rule_emit(c, r, "eviction strategy None: a drain of %s stops "
		    "the VM", c->v->node ? c->v->node : "its node");
}

/* --- Deckhouse (rules-deckhouse.md) ----------------------------------------------- */

/* "Migrate", or "Evict by the system: node drain or ..." */
static void
describe_vmop(const kv_vmop *op, kv_buf *b)
{
	const kv_vmop_origin *o = kv_vmop_system_origin(op);

	kv_buf_printf(b, "VirtualMachineOperation %s (%s", op->name, op->type);
	if (o != NULL)
		kv_buf_printf(b, ", created by DVP for a %s", o->what);
	kv_buf_printf(b, ", phase %s", *op->phase ? op->phase : "not set");
	if (op->reason != NULL && *op->reason != '\0')
		kv_buf_printf(b, ", reason %s", op->reason);
	kv_buf_printf(b, ")");
}

static bool
policy_conflict(const rule_ctx *c, const kv_vmop *op)
{
	return kv_vmop_is_migration(op) &&
	    kv_dvp_policy_conflict(c->r->dvp.policy, op->force);
}

/* §4.2 step 3, §4.3 step 6: a new Migrate/Evict supersedes nothing. */
static void
check_vmop_in_progress(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->r->dvp.nops; i++) {
		const kv_vmop *op = c->r->dvp.ops[i];
		kv_buf b = {0};

		if (policy_conflict(c, op))
			continue;	/* live-migration-policy-force */
		describe_vmop(op, &b);
		rule_emit(c, r, "%s is unfinished: a new Migrate or Evict "
		    "operation for this VirtualMachine is rejected until it "
		    "ends (\"Previously created operation should finish "
		    "first\")", b.data);
		kv_buf_free(&b);
	}
}

/* §4.3 step 9 */
static void
check_policy_force(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->r->dvp.nops; i++) {
		const kv_vmop *op = c->r->dvp.ops[i];
		kv_buf b = {0};

		if (!policy_conflict(c, op))
			continue;
		describe_vmop(op, &b);
		rule_emit(c, r, "%s sets force=%s, which liveMigrationPolicy "
		    "%s does not allow: it fails with "
		    "NotApplicableForLiveMigrationPolicy", b.data,
		    op->force == 1 ? "true" : "false", c->r->dvp.policy);
		kv_buf_free(&b);
	}
}

/* §4.3 step 7 */
static void
check_vmop_not_applicable(rule_ctx *c, const kv_rule *r)
{
	const kv_dvm *vm = c->r->dvp.vm;

	if (vm == NULL)
		return;
	if (vm->run_policy != NULL && strcmp(vm->run_policy, "AlwaysOff") == 0)
		rule_emit(c, r, "runPolicy AlwaysOff: DVP fails a Migrate or "
		    "Evict operation with "
		    "NotApplicableForVirtualMachineRunPolicy");
	if (*vm->phase != '\0' && strcmp(vm->phase, "Running") != 0)
		rule_emit(c, r, "the VirtualMachine is in phase %s, not "
		    "Running: DVP fails a Migrate or Evict operation with "
		    "NotApplicableForVirtualMachinePhase%s", vm->phase,
		    strcmp(vm->phase, "Migrating") == 0 ? " until the "
		    "current migration ends" : "");
}

static void
check_disks_should_migrate(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->r->dvp.nmigvols; i++) {
		const kv_volume *vol = c->r->dvp.migvols[i];
		const char *modes;
		kv_buf b = {0};

		claim_state(c, vol, &modes);
		describe_vdisk(c, vol, &b);
		kv_buf_printf(&b, "PVC %s is %s", vol->claim, modes);
		describe_claim(c, vol->claim, &b);
		rule_emit(c, r, "volume %s: %s; DVP copies it to a new volume "
		    "on the target node (volume migration): the storage "
		    "class must provision there, and the completion timeout "
		    "no longer bounds the migration", vol->name, b.data);
		kv_buf_free(&b);
	}
}

/* §2 and §4.8 ([IDX]): a migration waits for a sent attach/detach. */
static void
check_bda_pending(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->r->dvp.nbdas; i++) {
		const kv_vmbda *b = c->r->dvp.bdas[i];

		rule_emit(c, r, "VirtualMachineBlockDeviceAttachment %s (%s "
		    "%s) is %s%s%s: a migration waits for it "
		    "(WaitingForBlockDeviceAttachment) and fails if it does not "
		    "finish within 5 minutes", b->name, b->kind ? b->kind :
		    "device", b->ref ? b->ref : "?", *b->phase ? b->phase :
		    "not processed yet", b->reason ? ", reason " : "",
		    b->reason ? b->reason : "");
	}
}

bool
kv_rule_operation_scoped(const kv_rule *r)
{
	return strcmp(r->code, "vmop-in-progress") == 0 ||
	    strcmp(r->code, "live-migration-policy-force") == 0;
}

/* Reported by kv_dvp_fallback() from the verdict step. */
static void
check_by_fallback(rule_ctx *c, const kv_rule *r)
{
	(void)c;
	(void)r;
}

/* §3.2: DVP's reasons for Migratable=False and the code naming them. */
static const struct {
	const char *reason, *code;
} dvp_reason_codes[] = {
	{ "VirtualMachineDisksNotMigratable", "disk-not-shared" },
	{ "VirtualMachineHostDevicesNotMigratable", "host-device" },
};

void
kv_dvp_fallback(rule_ctx *c)
{
	const char *why = c->r->cond_reason, *code = "vm-not-migratable";

	if (!c->a->cfg.deckhouse || c->r->dvp.vm == NULL || c->r->cond != 'F')
		return;
	for (size_t i = 0; i < c->r->nblockers; i++)
		if (c->r->blockers[i].rule->verdict == V_BLOCKED)
			return;	/* explained by a check of ours */
	for (size_t i = 0; why != NULL && i < sizeof(dvp_reason_codes) /
	    sizeof(dvp_reason_codes[0]); i++)
		if (strcmp(why, dvp_reason_codes[i].reason) == 0)
			code = dvp_reason_codes[i].code;
	rule_emit(c, kv_rule_find(code), "DVP reports Migratable=False "
	    "(%s)%s%s: a Migrate or Evict operation fails at once (\"Virtual"
	    "Machine is not migratable, cannot be processed\")",
	    why ? why : "no reason", c->r->cond_message ? ": " : "",
	    c->r->cond_message ? c->r->cond_message : "");
}

/* --- the table ----------------------------------------------------------------------- */

#define B(code, verdict, title, fix, fn) \
	{ code, SEV_BLOCKER, verdict, 1, title, fix, fn }
#define W(code, phase, title, fix, fn) \
	{ code, SEV_WARNING, 0, phase, title, fix, fn }

const kv_rule kv_rules[] = {
	B("network-pod-bridge", V_BLOCKED,
	    "Pod network bound with bridge",
	    "Bind the pod network with masquerade (or passt), or annotate the "
	    "VMI with kubevirt.io/allow-pod-bridge-network-live-migration if "
	    "the guest can take a new address after the move.",
	    check_pod_bridge),
	B("network-binding", V_BLOCKED,
	    "Pod network binding cannot migrate",
	    "Use masquerade or passt on the pod network, or give the binding "
	    "plugin a migration setting in the KubeVirt CR "
	    "(spec.configuration.network.binding.<name>.migration).",
	    check_binding),
	B("disk-not-shared", V_BLOCKED,
	    "Disk not ReadWriteMany",
	    "Move the disk to a ReadWriteMany PVC (a storage class or "
	    "StorageProfile that offers RWX), or use volume migration to copy "
	    "it; RWO is refused even when the backend is NFS.",
	    check_disk_not_shared),
	B("disk-claim-unknown", V_BLOCKED,
	    "Disk claim cannot be resolved",
	    "Check that the PVC exists and is bound; collect the snapshot "
	    "with permission to list PVCs.",
	    check_claim_unknown),
	B("hostdisk-not-shared", V_BLOCKED,
	    "hostDisk not shared",
	    "Set shared: true only if the hostDisk path is on storage every "
	    "node sees; otherwise move the disk to an RWX PVC.",
	    check_hostdisk),
	B("host-device", V_BLOCKED,
	    "Host device or GPU",
	    "Remove the PCI host device or GPU before maintenance, or enable "
	    "VGPULiveMigration with a permitted mediated device.",
	    check_host_device),
	B("launch-security", V_BLOCKED,
	    "Confidential computing",
	    "SEV, SEV-SNP, TDX and Secure Execution guests cannot migrate: "
	    "plan a shutdown and restart on another node.",
	    check_launch_security),
	B("tsc-frequency", V_BLOCKED,
	    "No TSC frequency for reenlightenment",
	    "Make sure nodes carry cpu-timer tsc-frequency labels (or set "
	    "minimumClusterTSCFrequency) so the VMI gets a TSC hint, or "
	    "disable Hyper-V reenlightenment.",
	    check_tsc),
	B("hyperv-passthrough", V_BLOCKED,
	    "Hyper-V passthrough",
	    "Replace hypervPassthrough with an explicit list of Hyper-V "
	    "enlightenments.",
	    check_hyperv_passthrough),
	B("host-model-unsupported", V_BLOCKED,
	    "Source node has no host-model CPU",
	    "Use a named CPU model or host-passthrough for VMIs on this node.",
	    check_host_model_unsupported),
	B("no-cpu-target", V_NO_TARGET,
	    "No node satisfies the CPU selectors",
	    "Use a named CPU model that the intended targets support (see "
	    "namedModels and the trade-off table), or add a node of the same "
	    "CPU class.",
	    check_no_cpu_target),
	B("no-placement-target", V_NO_TARGET,
	    "No node satisfies every placement constraint",
	    "Uncordon a node, add a toleration, relax the node selector or "
	    "affinity, or free memory on a CPU-compatible node.",
	    check_no_placement),
	B("source-host-model-label-missing", V_STUCK,
	    "Source node lacks its host-model label",
	    "Let the node labeller label the node (remove the skip-node "
	    "annotation, check virt-handler), or use a named CPU model.",
	    check_host_model_label),
	B("containerdisk-config-digest", V_WILL_FAIL,
	    "containerDisk image without repository digest",
	    "Push the containerDisk image to a registry and reference it by "
	    "digest (or pull it on the node from the registry) instead of "
	    "side-loading it.",
	    check_digest_config),
	B("containerdisk-no-digest", V_STUCK,
	    "containerDisk image without digest",
	    "Use a container runtime that reports image digests, or reference "
	    "the image by @sha256 digest.",
	    check_digest_none),
	B("vmop-in-progress", V_BLOCKED,
	    "Another VirtualMachineOperation is unfinished",
	    "Wait for the operation to finish, or delete it while it is "
	    "Pending or InProgress to cancel it; then create the Migrate "
	    "operation (d8 v migrate).",
	    check_vmop_in_progress),
	B("live-migration-policy-force", V_BLOCKED,
	    "force conflicts with liveMigrationPolicy",
	    "Create the operation without force (AlwaysSafe) or with force "
	    "(AlwaysForced), or change the VM's liveMigrationPolicy to "
	    "PreferSafe or PreferForced.",
	    check_policy_force),
	B("vmop-not-applicable", V_BLOCKED,
	    "VirtualMachine not in a state to migrate",
	    "Migrate only a Running VirtualMachine whose runPolicy is not "
	    "AlwaysOff; wait for a migration or start in progress to end.",
	    check_vmop_not_applicable),
	B("vm-not-migratable", V_BLOCKED,
	    "VirtualMachine is not Migratable",
	    "Read the Migratable condition's message (d8 k get vm -o wide) "
	    "and remove its cause; DVP runs no migration while it is False.",
	    check_by_fallback),
	W("passthrough-cpu-differs", 1,
	    "host-passthrough across different CPUs",
	    "Keep host-passthrough VMIs on identical hardware (a node "
	    "selector on the CPU class), or use host-model or a named model.",
	    check_passthrough),
	W("block-migration", 1,
	    "Local disks copied during migration",
	    "Expect a longer migration; move local disks to RWX PVCs if the "
	    "copy is too slow.",
	    check_block_migration),
	W("pod-network-reconnect", 1,
	    "Pod network connections reset",
	    "Established connections drop and new ones fail for a few seconds "
	    "after the switch-over; schedule accordingly.",
	    check_reconnect),
	W("stale-vendor-label", 1,
	    "More than one CPU vendor label",
	    "Delete the stale cpu-vendor label from the node: KubeVirt never "
	    "removes it.",
	    check_stale_vendor),
	W("disks-should-be-migrating", 1,
	    "Local VirtualDisks are copied with the VM",
	    "Expect a longer migration; make sure the disk's storage class can "
	    "provision a volume on the target node, or move the VirtualDisk "
	    "to a ReadWriteMany storage class.",
	    check_disks_should_migrate),
	W("block-device-attachment-pending", 1,
	    "Disk attachment in progress",
	    "Let the VirtualMachineBlockDeviceAttachment reach Attached (or "
	    "delete it) before migrating: a migration waits for it at most 5 "
	    "minutes.",
	    check_bda_pending),
	W("eviction-blocks-drain", 2,
	    "Drain waits forever",
	    "Fix the blockers, or set evictionStrategy LiveMigrateIfPossible "
	    "or None for this VMI before the drain.",
	    check_eviction_blocks),
	W("eviction-shutdown", 2,
	    "Drain stops the VM",
	    "Set evictionStrategy LiveMigrate on the VMI (or cluster-wide) if "
	    "the VM must survive maintenance.",
	    check_eviction_shutdown),
};

const size_t kv_nrules = sizeof(kv_rules) / sizeof(kv_rules[0]);

const kv_rule *
kv_rule_find(const char *code)
{
	for (size_t i = 0; i < kv_nrules; i++)
		if (strcmp(kv_rules[i].code, code) == 0)
			return &kv_rules[i];
	return NULL;
}

void
rule_emit(struct rule_ctx *c, const kv_rule *r, const char *fmt, ...)
{
	va_list ap;
	kv_issue *is;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (r->severity == SEV_BLOCKER) {
		KV_GROW(c->r->blockers, c->cap_blockers, c->r->nblockers + 1);
		is = &c->r->blockers[c->r->nblockers++];
	} else {
		KV_GROW(c->r->warnings, c->cap_warnings, c->r->nwarnings + 1);
		is = &c->r->warnings[c->r->nwarnings++];
	}
	is->rule = r;
	is->message = msg;
	is->seq = c->r->nblockers + c->r->nwarnings;
}
