/*
 * checks.c - the check functions of KubeVirt's rules (rules-kubevirt.md
 * §3-§5); ruletable.c puts each in its row.
 *
 * Every check reads the VMI and what vmi.c prepared in the rule context
 * (source node and pod, rendered selectors, targets) and reports through
 * rule_emit().
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/capacity.h"
#include "analyze/checks/checks.h"
#include "analyze/model/index.h"
#include "analyze/rules/storage.h"

/* --- shared helpers ----------------------------------------------------- */

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

/* --- blockers ----------------------------------------------------------- */

void
check_pod_bridge(rule_ctx *c, const kv_rule *r)
{
	podnet p = pod_network(c);

	if (!p.present || p.missing_iface || p.binding != BIND_BRIDGE ||
	    (c->v->allow_pod_bridge && kv_since_on(c->a, SINCE_POD_BRIDGE)))
		return;
	if (c->v->allow_pod_bridge)	/* before v1.0.0 (versions.c) */
		rule_emit(c, r, "%s %s binds the pod network with bridge, "
		    "which this KubeVirt version does not migrate even with "
		    "the allow-pod-bridge-network-live-migration annotation",
		    p.implicit ? "the default interface" : "interface",
		    p.implicit ? "" : p.iface->name);
	else if (p.implicit)
		rule_emit(c, r, "no network is declared, so the pod network "
		    "gets the cluster default binding (bridge), which cannot "
		    "migrate without the "
		    "allow-pod-bridge-network-live-migration annotation");
	else
		rule_emit(c, r, "interface %s binds the pod network with "
		    "bridge and the VMI lacks the "
		    "allow-pod-bridge-network-live-migration annotation",
		    p.iface->name);
}

void
check_binding(rule_ctx *c, const kv_rule *r)
{
	podnet p = pod_network(c);

	if (!p.present)
		return;
	if (p.missing_iface)
		rule_emit(c, r, "no primary interface found for pod network "
		    "%s", p.net);
	else if (p.binding == BIND_PLUGIN &&
	    !kv_since_on(c->a, SINCE_BINDING_PLUGINS))
		rule_emit(c, r, "interface %s uses binding plugin %s; this "
		    "KubeVirt version migrates no binding plugin (since "
		    "v1.2.0)", p.iface->name, p.iface->plugin ?
		    p.iface->plugin : "(unnamed)");
	else if (p.binding == BIND_PASST && !kv_since_on(c->a, SINCE_PASST))
		rule_emit(c, r, "%s %s uses passt on the pod network; this "
		    "KubeVirt version migrates it only as a binding plugin "
		    "(passtBinding since v1.8.0)", p.implicit ?
		    "the default interface" : "interface", p.implicit ? "" :
		    p.iface->name);
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

void
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

void
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

void
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

void
check_tsc(rule_ctx *c, const kv_rule *r)
{
	if ((c->v->hyperv_enabled & HV_REENLIGHTENMENT) && c->v->tsc_hint <= 0)
		rule_emit(c, r, "Hyper-V reenlightenment is enabled but "
		    "status.topologyHints.tscFrequency is not set");
}

void
check_hyperv_passthrough(rule_ctx *c, const kv_rule *r)
{
	if (c->v->hyperv_passthrough)
		rule_emit(c, r, "Hyper-V passthrough is enabled");
}

void
check_disk_not_shared(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const kv_volstatus *vs;
		const char *modes;
		kv_buf b = {0};

		if (vol->kind == VOL_HOSTDISK) {
			vs = kv_volstatus_of(c->v, vol->name);
			if (vs == NULL || !vs->has_pvcinfo)
				continue;
		} else if (vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME)
			continue;
		if (kv_claim_state(c->m, c->v, vol, &modes) !=
		    CLAIM_NOT_SHARED ||
		    kv_volume_migrated(c->v, vol->name) ||
		    kv_volume_migrates(c->r, vol))
			continue;
		kv_describe_volume(c->m, c->v->ns, vol, &b);
		kv_buf_printf(&b, "PVC %s is %s", vol->claim ? vol->claim : "?",
		    modes);
		kv_describe_claim(c->m, c->v->ns, vol->claim, &b);
		rule_emit(c, r, "volume %s: %s; live migration needs "
		    "ReadWriteMany, even on shared storage%s", vol->name,
		    b.data, c->m->flavor->rwo_note);
		kv_buf_free(&b);
	}
}

void
check_claim_unknown(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const char *modes;

		if (vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME)
			continue;
		if (kv_claim_state(c->m, c->v, vol, &modes) == CLAIM_UNKNOWN)
			rule_emit(c, r, "volume %s: PVC %s is in neither the "
			    "VMI's volumeStatus nor the snapshot's PVCs%s",
			    vol->name, vol->claim ? vol->claim : "(unnamed)",
			    kv_model_has(c->m, "persistentvolumeclaims", "") ?
			    "" : " (PVCs were not collected)");
	}
}

void
check_hostdisk(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const kv_volstatus *vs;

		if (vol->kind != VOL_HOSTDISK || vol->hostdisk_shared)
			continue;
		vs = kv_volstatus_of(c->v, vol->name);
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

void
check_digest_config(rule_ctx *c, const kv_rule *r)
{
	check_digest(c, r, DIGEST_CONFIG);
}

void
check_digest_none(rule_ctx *c, const kv_rule *r)
{
	check_digest(c, r, DIGEST_NONE);
}

void
check_host_model_label(rule_ctx *c, const kv_rule *r)
{
	if (!kv_host_model_selected(c->a, c->r) || c->ti.host_model_copied ||
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

void
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

void
check_no_placement(rule_ctx *c, const kv_rule *r)
{
	kv_buf b = {0};
	size_t shown = 0;

	if (c->r->ncpu_targets == 0 || c->r->ntargets > 0 ||
	    (c->a->capacity_known && c->ti.nplaceable > 0))
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

/* Capacity known: some node takes the pod but none has room for it. */
void
check_no_capacity(rule_ctx *c, const kv_rule *r)
{
	kv_buf b = {0};
	size_t shown = 0;
	char *need;

	if (!c->a->capacity_known || c->r->ncpu_targets == 0 ||
	    c->r->ntargets > 0 || c->ti.nplaceable == 0)
		return;
	KV_NODESET_FOREACH(&c->r->cpu_targets, n) {
		kv_buf why = {0};

		if (shown == 3)
			break;
		if (kv_target_explain(c->a, c->place, c->r, n, &why) &&
		    kv_startswith(why.data, "no room")) {
			const kv_res *f = &c->a->nodes[n].free;
			char *have = kv_res_fmt(f);

			kv_buf_printf(&b, "%s", shown ? "; " : "");
			if (!kv_res_base_fits(f, c->r->need) ||
			    !kv_res_short_fmt(c->a, n, f, c->r->need, true,
			    &b))
				kv_buf_printf(&b, "%s: %s free",
				    c->m->nodes[n].name, have);
			free(have);
			shown++;
		}
		kv_buf_free(&why);
	}
	need = kv_res_fmt(c->r->need);
	rule_emit(c, r, "%zu node%s would take the target pod, but none has "
	    "room for its requests of %s (%s%s)", c->ti.nplaceable,
	    c->ti.nplaceable == 1 ? "" : "s", need, b.data ? b.data : "",
	    c->ti.nplaceable > shown ? "; ..." : "");
	free(need);
	kv_buf_free(&b);
}

/* --- warnings ----------------------------------------------------------- */

void
check_block_migration(rule_ctx *c, const kv_rule *r)
{
	kv_buf b = {0};
	const char *why;
	size_t n = 0;

	if (strcmp(c->r->method, "BlockMigration") != 0)
		return;
	for (size_t i = 0; i < c->v->nvolumes; i++)
		if (kv_volume_blocks(c->a, c->r, &c->v->volumes[i], &why))
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

void
check_reconnect(rule_ctx *c, const kv_rule *r)
{
	podnet p = pod_network(c);

	if (p.present && !p.missing_iface &&
	    (p.binding == BIND_MASQUERADE || p.binding == BIND_PASST))
		rule_emit(c, r, "%s%s binds the pod network with %s",
		    p.implicit ? "the default interface" : "interface ",
		    p.implicit ? "" : p.iface->name, binding_name(p.binding));
}

void
check_stale_vendor(rule_ctx *c, const kv_rule *r)
{
	if (c->ti.nvendors > 1)
		rule_emit(c, r, "node %s carries %zu cpu-vendor labels; "
		    "KubeVirt picks one at random for the target", c->src->name,
		    c->ti.nvendors);
}

/* Targets shown by name before "and N more". */
#define KERNEL_SHOWN 4

/* rules-deckhouse.md §2, §10 step 5: a target on another kernel than the
 * source (status.nodeInfo.kernelVersion; nodes that report none are not
 * judged). */
void
check_kernel_differs(rule_ctx *c, const kv_rule *r)
{
	const char *have = c->src ? c->src->kernel : NULL;
	const kv_nodeset *tg = &c->r->targets;
	kv_buf b = {0};
	kv_bits other;
	size_t n;

	if (have == NULL || *have == '\0' || tg->base == NULL)
		return;
	/* the targets on another kernel: the set's base and the nodes with
	 * another kernel (kernel versions are interned), less its excluded */
	kv_bits_init(&other, tg->base->nbits);
	kv_bits_copy(&other, tg->base);
	kv_bits_and(&other, kv_place_other_kernels(c->a, c->place, have));
	for (size_t k = 0; k < tg->nexcl; k++)
		kv_bits_clear(&other, tg->excl[k]);
	n = kv_bits_count(&other);
	for (size_t i = kv_bits_next(&other, 0), shown = 0;
	    i < other.nbits && shown < KERNEL_SHOWN;
	    i = kv_bits_next(&other, i + 1), shown++)
		kv_buf_printf(&b, "%s%s (%s)", shown ? ", " : "",
		    c->m->nodes[i].name, c->m->nodes[i].kernel);
	kv_bits_free(&other);
	if (n > KERNEL_SHOWN)
		kv_buf_printf(&b, " and %zu more", n - KERNEL_SHOWN);
	if (n > 0)
		rule_emit(c, r, "%zu target%s run%s another kernel than %s "
		    "(%s): %s%s", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
		    c->src->name, have, b.data,
		    c->m->flavor->fix->kernel_note);
	kv_buf_free(&b);
}

/* Whether target ti has other CPU features than the source: by their
 * CPU classes' features numbers, else by a walk of the labels. */
static bool
features_differ(const rule_ctx *c, size_t ti)
{
	const kv_analysis *a = c->a;
	int sc = a->nodes[c->src - c->m->nodes].cls, tc = a->nodes[ti].cls;

	if (sc >= 0 && tc >= 0)
		return a->classes[sc].features != a->classes[tc].features;
	return !kv_cpu_features_same(a, c->src, &c->m->nodes[ti]);
}

void
check_passthrough(rule_ctx *c, const kv_rule *r)
{
	const kv_nodeset *s = &c->r->targets;
	kv_buf b = {0};
	size_t n = 0;

	if (c->r->mode != MODE_HOST_PASSTHROUGH || c->src == NULL)
		return;
	/* a word of the targets at a time (host-passthrough VMIs have
	 * thousands): KV_NODESET_FOREACH's search per member was most of
	 * this check's time */
	for (size_t w = 0; s->base != NULL && w < s->base->nwords; w++)
		for (uint64_t x = s->base->w[w]; x != 0; x &= x - 1) {
			size_t ti = w * 64 + (size_t)__builtin_ctzll(x);

			if (kv_nodeset_excludes(s, ti) ||
			    !features_differ(c, ti))
				continue;
			if (n++ < 5)
				kv_buf_printf(&b, "%s%s", n > 1 ? ", " : "",
				    c->m->nodes[ti].name);
		}
	if (n > 0)
		rule_emit(c, r, "%zu target%s with other CPU features than "
		    "%s: %s%s", n, n == 1 ? "" : "s", c->src->name, b.data,
		    n > 5 ? ", ..." : "");
	kv_buf_free(&b);
}

void
check_eviction_blocks(rule_ctx *c, const kv_rule *r)
{
	const kv_vocab *w = c->m->flavor->vocab;	/* the flavor's words */

	if (c->r->on_drain != DRAIN_BLOCK)
		return;
	if (c->r->verdict == V_OK)
		rule_emit(c, r, "eviction strategy %s wants a live migration, "
		    "but the %s has no %s=True condition, which %s's eviction "
		    "webhook requires: a drain of %s waits forever",
		    c->r->eviction, w->vm, w->condition, w->product,
		    c->v->node ? c->v->node : "its node");
	else
		rule_emit(c, r, "eviction strategy %s wants a live migration, "
		    "but the %s cannot migrate: a drain of %s waits forever",
		    c->r->eviction, w->vm, c->v->node ? c->v->node :
		    "its node");
}

void
check_eviction_shutdown(rule_ctx *c, const kv_rule *r)
{
	if (c->r->on_drain == DRAIN_SHUTDOWN &&
	    strcmp(c->r->eviction, "None") == 0)
		rule_emit(c, r, "eviction strategy None: a drain of %s stops "
		    "the VM", c->v->node ? c->v->node : "its node");
}

