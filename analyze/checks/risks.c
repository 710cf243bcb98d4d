/*
 * risks.c - the checks of the warnings whose failure happens inside
 * libvirt or QEMU (or on a node without the data), but whose
 * precondition the snapshot shows: an RWX claim of a node-local
 * provisioner, nested virtualization across other VMX capabilities, a
 * launcher of another KubeVirt than the one a target pod gets.  None
 * changes a verdict (docs/rules.md, Warnings).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/checks.h"
#include "analyze/rules/storage.h"

/* --- rwx-node-local ----------------------------------------------------- */

/* Provisioners whose volumes live on one node: the name each project's
 * StorageClass gives (docs/rules.md cites them). */
static const struct {
	const char *provisioner, *what;
} node_local[] = {
	{ "kubevirt.io.hostpath-provisioner", "hostpath-provisioner" },
	{ "kubevirt.io/hostpath-provisioner", "hostpath-provisioner" },
	{ "rancher.io/local-path", "local-path-provisioner" },
	{ "topolvm.io", "TopoLVM" },
	{ "topolvm.cybozu.com", "TopoLVM" },
	{ "openebs.io/local", "OpenEBS Local PV hostpath" },
	{ "kubernetes.io/no-provisioner",
	    "local PersistentVolumes, each with a node affinity" },
};

static const char *
node_local_what(const char *provisioner)
{
	for (size_t i = 0; i < sizeof(node_local) / sizeof(node_local[0]);
	    i++)
		if (strcmp(node_local[i].provisioner, provisioner) == 0)
			return node_local[i].what;
	return NULL;
}

void
check_rwx_node_local(rule_ctx *c, const kv_rule *r)
{
	for (size_t i = 0; i < c->v->nvolumes; i++) {
		const kv_volume *vol = &c->v->volumes[i];
		const kv_pvc *pvc;
		const kv_storageclass *sc;
		const char *modes, *what;

		if ((vol->kind != VOL_PVC && vol->kind != VOL_DATAVOLUME) ||
		    vol->claim == NULL ||
		    kv_claim_state(c->m, c->v, vol, &modes) != CLAIM_RWX)
			continue;
		pvc = kv_model_pvc(c->m, c->v->ns, vol->claim);
		if (pvc == NULL || pvc->storage_class == NULL)
			continue;
		sc = kv_model_sc(c->m, pvc->storage_class);
		if (sc == NULL || sc->provisioner == NULL ||
		    (what = node_local_what(sc->provisioner)) == NULL)
			continue;
		rule_emit(c, r, "volume %s: PVC %s is ReadWriteMany, but "
		    "storage class %s (%s) keeps its volume on one node "
		    "(%s): the target node does not have the data",
		    vol->name, vol->claim, sc->name, sc->provisioner, what);
	}
}

/* --- nested-virt-differs ------------------------------------------------ */

/* Whether the source node has CPU feature name's label. */
static bool
src_has_feature(const rule_ctx *c, const char *name)
{
	char key[256];

	return kv_labels_get(&c->src->labels, kv_cpu_key_text(c->a,
	    "cpu-feature", name, key, sizeof(key))) != NULL;
}

/* Whether the guest CPU has vmx or svm: a feature of policy require (or
 * none) or force, or host-passthrough / host-model on a source node whose
 * CPU labels list it.  *why says which. */
static bool
guest_nested(const rule_ctx *c, const char **why)
{
	const kv_vmi *v = c->v;

	for (size_t i = 0; i < v->nfeatures; i++) {
		const char *p = v->features[i].policy;

		if ((strcmp(v->features[i].name, "vmx") == 0 ||
		    strcmp(v->features[i].name, "svm") == 0) &&
		    (p == NULL || *p == '\0' || strcmp(p, "require") == 0 ||
		    strcmp(p, "force") == 0)) {
			*why = v->features[i].name;
			return true;
		}
	}
	if (c->src == NULL || (c->r->mode != MODE_HOST_MODEL &&
	    c->r->mode != MODE_HOST_PASSTHROUGH))
		return false;
	*why = kv_mode_names[c->r->mode];
	return src_has_feature(c, "vmx") || src_has_feature(c, "svm");
}

/* The first vmx-* CPU feature label of src that t lacks, or NULL. */
static const char *
vmx_missing(const char *pfx, const kv_node *src, const kv_node *t)
{
	for (size_t i = 0; i < src->labels.n; i++) {
		const char *k = src->labels.v[i].key;

		if (kv_startswith(k, pfx) &&
		    kv_labels_get(&t->labels, k) == NULL)
			return k + strlen(pfx) - strlen("vmx-");
	}
	return NULL;
}

/* How many of c's targets lack one of the source's vmx-* labels (the
 * source's bitset of them, place.c: a few words per VMI instead of every
 * label of every target); the first three in node order into first. */
static size_t
vmx_lacking(const rule_ctx *c, size_t first[3])
{
	const kv_nodeset *s = &c->r->targets;
	const kv_bits *lack;
	size_t n = 0;

	if (s->base == NULL)
		return 0;
	lack = kv_place_vmx_lacking(c->a, c->place,
	    (size_t)(c->src - c->m->nodes));
	for (size_t w = 0; w < s->base->nwords; w++) {
		uint64_t x = s->base->w[w] & lack->w[w];

		for (; x != 0; x &= x - 1) {
			size_t i = w * 64 + (size_t)__builtin_ctzll(x);

			if (kv_nodeset_excludes(s, i))
				continue;
			if (n < 3)
				first[n] = i;
			n++;
		}
	}
	return n;
}

void
check_nested_virt(rule_ctx *c, const kv_rule *r)
{
	const char *why = NULL;
	char pfx[256];
	kv_buf b = {0};
	size_t first[3], n;

	if (c->src == NULL || !guest_nested(c, &why) ||
	    (n = vmx_lacking(c, first)) == 0)
		return;
	kv_cpu_key_text(c->a, "cpu-feature", "vmx-", pfx, sizeof(pfx));
	for (size_t k = 0; k < n && k < 3; k++) {
		const kv_node *t = &c->m->nodes[first[k]];

		kv_buf_printf(&b, "%s%s (no %s)", k > 0 ? ", " : "", t->name,
		    vmx_missing(pfx, c->src, t));
	}
	rule_emit(c, r, "the guest CPU has nested virtualization "
	    "(%s on %s); %zu target%s lack%s VMX capabilities %s "
	    "has: %s%s; QEMU refuses the incoming guest (\"guest "
	    "CPU doesn't match specification: missing features\")",
	    why, c->src->name, n, n == 1 ? "" : "s",
	    n == 1 ? "s" : "", c->src->name, b.data,
	    n > 3 ? ", ..." : "");
	kv_buf_free(&b);
}

/* --- launcher-version-skew ---------------------------------------------- */

/* The tag of an image reference ("v1.8.2" of ".../virt-launcher:v1.8.2"),
 * or NULL for a digest reference or no tag. */
static const char *
image_tag(const char *image)
{
	const char *slash = strrchr(image, '/');
	const char *colon = strrchr(slash ? slash : image, ':');

	if (strchr(image, '@') != NULL || colon == NULL)
		return NULL;
	return colon + 1;
}

void
check_launcher_skew(rule_ctx *c, const kv_rule *r)
{
	const kv_pod *p = c->r->source_pod;
	const char *want = c->m->cluster.version, *tag, *t;

	if (kv_labels_get(&c->v->labels, "kubevirt.io/outdatedLauncherImage")
	    != NULL) {
		rule_emit(c, r, "KubeVirt labels the VMI kubevirt.io/"
		    "outdatedLauncherImage: its launcher%s%s is not the "
		    "virt-launcher a target pod gets; an upgrade is under "
		    "way", p && p->image ? " " : "", p && p->image ?
		    p->image : "");
		return;
	}
	if (p == NULL || p->image == NULL || want == NULL || *want == '\0' ||
	    (tag = image_tag(p->image)) == NULL)
		return;
	t = *tag == 'v' ? tag + 1 : tag;
	if (!isdigit((unsigned char)*t) || strcmp(t, *want == 'v' ?
	    want + 1 : want) == 0)
		return;
	rule_emit(c, r, "the source launcher runs %s, but the KubeVirt "
	    "install is %s (status.observedKubeVirtVersion): a target pod "
	    "gets %s's virt-launcher, another QEMU and libvirt; an upgrade "
	    "is under way", p->image, want, want);
}
