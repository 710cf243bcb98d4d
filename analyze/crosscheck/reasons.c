/*
 * reasons.c - what only a move between clusters asks (crosscheck.h):
 * both sides' KubeVirt version and feature gate, each volume's storage
 * class on TARGET and the data to copy, each secondary network's
 * NetworkAttachmentDefinition, the namespace, and what SOURCE's flavor
 * row adds of its own objects (its cross_reasons hook).  One row per
 * reason code; docs/crosscheck.md gives each with its upstream source.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/crosscheck/crosscheck.h"
#include "analyze/rules/storage.h"
#include "analyze/util/util.h"

#define GATE "DecentralizedLiveMigration"

const kv_xrule kv_xrules[XR_COUNT] = {
	[XR_VERSION] = { "cross-version", XB_LIVE,
	    "KubeVirt without live migration between clusters",
	    "Upgrade both clusters to KubeVirt v1.6.0 or later." },
	[XR_GATE] = { "cross-gate", XB_LIVE,
	    "Feature gate " GATE " off",
	    "Add " GATE " to spec.configuration.developerConfiguration."
	    "featureGates of the KubeVirt CR, on both clusters." },
	[XR_VERSION_UNKNOWN] = { "cross-version-unknown", 0,
	    "KubeVirt version not in the snapshot",
	    "Collect the snapshot with the KubeVirt CR (its status."
	    "observedKubeVirtVersion)." },
	[XR_SKEW] = { "cross-version-skew", 0,
	    "Different KubeVirt versions",
	    "KubeVirt checks no version between the two sides: test one "
	    "move first, or bring both to the same release." },
	[XR_NAMESPACE] = { "cross-namespace", 0,
	    "Namespace missing on TARGET",
	    "Create the namespace on TARGET before the move." },
	[XR_STORAGE_CLASS] = { "cross-storage-class", XB_LIVE | XB_COLD,
	    "No storage class on TARGET for a volume",
	    "Create the storage class on TARGET, or map it to one that "
	    "exists with --storage-class-map SOURCE=TARGET." },
	[XR_STORAGE_RWO] = { "cross-storage-rwo", 0,
	    "The copy would not be ReadWriteMany on TARGET",
	    "Map the volume to a class whose StorageProfile offers "
	    "ReadWriteMany for its volume mode, or the VM will not "
	    "live-migrate within TARGET after the move." },
	[XR_CLAIM] = { "cross-claim-unknown", 0,
	    "Claim not in the SOURCE snapshot",
	    "Collect SOURCE with permission to list PVCs: its class and "
	    "size are unknown." },
	[XR_NETWORK] = { "cross-network", XB_LIVE | XB_COLD,
	    "NetworkAttachmentDefinition missing on TARGET",
	    "Create it in the VM's namespace on TARGET, or map it with "
	    "--network-map SOURCE=TARGET." },
	[XR_STOPPED] = { "cross-stopped", XB_LIVE,
	    "Not running: only a cold move",
	    "Start it on SOURCE for a live move." },
	[XR_NO_START] = { "cross-no-node", XB_COLD,
	    "No TARGET node could start it",
	    "Give TARGET a node that matches its node selector, "
	    "affinity, tolerations and CPU model, with room for it." },
	[XR_NOT_JUDGED] = { "cross-not-judged", XB_LIVE,
	    "Not judged: the input lacks what its checks need",
	    "Collect both snapshots whole." },
	[XR_PASSTHROUGH] = { "cross-passthrough-cpu", 0,
	    "host-passthrough: TARGET's CPUs differ from the source node's",
	    "Move it to a node of the same CPU generation (same host "
	    "model), or give it a named CPU model both clusters run." },
	[XR_HOSTNAME] = { "cross-hostname", XB_LIVE,
	    "TARGET's only node has the source node's hostname",
	    "KubeVirt's target pod avoids a node named like the source "
	    "node: give TARGET another node that can run it." },
	[XR_LABEL_DOMAIN] = { "cross-label-domain", XB_LIVE,
	    "The clusters label CPUs in different domains",
	    "Move it cold, or give it a named CPU model TARGET's nodes "
	    "run: TARGET's KubeVirt reads the source node's host model "
	    "only in its own label domain." },
	[XR_MACHINE] = { "cross-machine-type-unknown", 0,
	    "Machine types of TARGET not in the snapshot",
	    "TARGET's nodes carry no machine-type labels: check that "
	    "TARGET runs the VM's machine type." },
};

const char *
kv_cross_map(const char *const *rows, size_t n, const char *name,
    char *buf, size_t size)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < n; i++)
		if (strncmp(rows[i], name, len) == 0 && rows[i][len] == '=') {
			snprintf(buf, size, "%s", rows[i] + len + 1);
			return buf;
		}
	return name;
}

void
kv_xvm_add(kv_xvm *vm, const kv_xrule *r, const char *fmt, ...)
{
	va_list ap;
	kv_xreason *x;

	vm->reasons = xreallocarray(vm->reasons, vm->nreasons + 1,
	    sizeof(kv_xreason));
	x = &vm->reasons[vm->nreasons++];
	x->code = r->code;
	x->title = r->title;
	x->fix = r->fix;
	x->blocks = r->blocks;
	va_start(ap, fmt);
	if (vasprintf(&x->message, fmt, ap) < 0)
		kv_fatal("out of memory");
	va_end(ap);
}

static void
side_of(const kv_model *m, kv_xside *s)
{
	kv_rules_version rv;

	kv_rules_version_find(m, &rv);
	s->known = rv.raw != NULL && rv.range != VRANGE_UNREADABLE;
	if (s->known)
		kv_ver_format(rv.stated, s->version, sizeof(s->version));
	else
		snprintf(s->version, sizeof(s->version), "unknown");
	s->decentralized = s->known && kv_since_has(
	    &kv_since_rows[SINCE_DECENTRALIZED], rv.v);
	s->gate = kv_gate_on(&m->cluster, GATE);
}

void
kv_cross_sides(const kv_model *src, const kv_model *tgt, kv_xside *side)
{
	side_of(src, &side[0]);
	side_of(tgt, &side[1]);
}

/* Both sides' version and gate (live only). */
static void
version_reasons(const kv_xside *side, kv_xvm *vm)
{
	static const char *const which[2] = { "SOURCE", "TARGET" };

	for (int i = 0; i < 2; i++) {
		const kv_xside *s = &side[i];

		if (!s->known)
			kv_xvm_add(vm, &kv_xrules[XR_VERSION_UNKNOWN],
			    "%s's KubeVirt version is unknown", which[i]);
		else if (!s->decentralized)
			kv_xvm_add(vm, &kv_xrules[XR_VERSION], "%s runs "
			    "KubeVirt %s; migration between clusters came "
			    "with v1.6.0", which[i], s->version);
		else if (!s->gate)
			kv_xvm_add(vm, &kv_xrules[XR_GATE], "%s (KubeVirt "
			    "%s) does not enable the feature gate " GATE,
			    which[i], s->version);
	}
	if (side[0].known && side[1].known &&
	    strcmp(side[0].version, side[1].version) != 0)
		kv_xvm_add(vm, &kv_xrules[XR_SKEW], "SOURCE runs KubeVirt %s, "
		    "TARGET %s", side[0].version, side[1].version);
}

/* Whether TARGET's StorageProfile for class sc says it offers RWX in
 * the claim's volume mode: 1 yes, 0 no, -1 no profile. */
static int
target_rwx(const kv_model *tgt, const char *sc, const kv_pvc *p)
{
	const kv_sprofile *pr = kv_model_profile(tgt, sc);
	unsigned bit = p->volume_mode != NULL &&
	    strcmp(p->volume_mode, "Block") == 0 ? RWX_BLOCK :
	    RWX_FILESYSTEM;

	if (pr == NULL)
		return -1;
	return (pr->rwx & bit) != 0;
}

static void
volume_reason(const kv_model *src, const kv_model *tgt,
    const kv_cross_opts *o, const kv_vmi *v, const kv_volume *vol,
    kv_xvm *vm)
{
	const kv_pvc *p = kv_model_pvc(src, v->ns, vol->claim);
	const char *sc;
	char buf[256];

	if (p == NULL) {
		vm->nunsized++;
		kv_xvm_add(vm, &kv_xrules[XR_CLAIM], "volume %s: PVC %s is "
		    "not in the SOURCE snapshot", vol->name,
		    vol->claim ? vol->claim : "?");
		return;
	}
	if (p->size >= 0)
		vm->copy_bytes = (vm->copy_bytes < 0 ? 0 : vm->copy_bytes) +
		    p->size;
	else
		vm->nunsized++;
	if (p->storage_class == NULL)
		return;
	sc = kv_cross_map((const char *const *)o->scmap, o->nscmap,
	    p->storage_class, buf, sizeof(buf));
	if (kv_model_sc(tgt, sc) == NULL)
		kv_xvm_add(vm, &kv_xrules[XR_STORAGE_CLASS], "volume %s: "
		    "PVC %s of storage class %s: TARGET has no storage class "
		    "%s", vol->name, p->name, p->storage_class, sc);
	else if (target_rwx(tgt, sc, p) == 0)
		kv_xvm_add(vm, &kv_xrules[XR_STORAGE_RWO], "volume %s: "
		    "TARGET's storage class %s offers no ReadWriteMany %s "
		    "volume", vol->name, sc, p->volume_mode ?
		    p->volume_mode : "Filesystem");
}

static void
network_reasons(const kv_model *tgt, const kv_cross_opts *o,
    const kv_vmi *v, kv_xvm *vm)
{
	char buf[256];

	for (size_t i = 0; i < v->nmultus; i++) {
		const char *n = kv_cross_map((const char *const *)o->netmap,
		    o->nnetmap, v->multus[i], buf, sizeof(buf));

		if (kv_model_nad(tgt, v->ns, n) == NULL)
			kv_xvm_add(vm, &kv_xrules[XR_NETWORK], "network %s: "
			    "TARGET has no NetworkAttachmentDefinition %s%s%s",
			    v->multus[i], strchr(n, '/') ? "" : v->ns,
			    strchr(n, '/') ? "" : "/", n);
	}
}

void
kv_cross_reasons(const kv_model *src, const kv_model *tgt,
    const kv_xside *side, const kv_cross_opts *o, const kv_vmi *v,
    kv_xvm *vm)
{
	vm->copy_bytes = -1;
	if (vm->running)
		version_reasons(side, vm);
	else
		kv_xvm_add(vm, &kv_xrules[XR_STOPPED], "the VM is stopped "
		    "(%s)", vm->stopped_why ? vm->stopped_why :
		    "not running");
	if (tgt->nnamespaces > 0 && kv_model_namespace(tgt, v->ns) == NULL)
		kv_xvm_add(vm, &kv_xrules[XR_NAMESPACE], "TARGET has no "
		    "namespace %s", v->ns);
	for (size_t i = 0; i < v->nvolumes; i++)
		if (v->volumes[i].kind == VOL_PVC ||
		    v->volumes[i].kind == VOL_DATAVOLUME)
			volume_reason(src, tgt, o, v, &v->volumes[i], vm);
	network_reasons(tgt, o, v, vm);
	if (src->flavor->cross_reasons != NULL)	/* its own objects' */
		src->flavor->cross_reasons(src, tgt, v, vm);
}
