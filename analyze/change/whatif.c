/*
 * whatif.c - changes applied to a loaded model (whatif.h).
 *
 * Every change edits the objects a collected snapshot would hold after it:
 * a VMI's spec.domain.cpu.model or spec.evictionStrategy, the KubeVirt
 * CR's defaults, a Node's spec.unschedulable, the node list, a claim's
 * access modes (and the VMI's volumeStatus, which KubeVirt reads first),
 * and on Deckhouse a VirtualMachineClass's spec.cpu.  The analysis then
 * derives everything else.
 *
 * Deckhouse (rules-deckhouse.md §6): a VM's CPU is its class's.
 * --cpu-model gives the scoped VMs the CPU of a class of type Model with
 * that model (what the no-cpu-target fix tells a DVP operator to do): the
 * features the old class required go.  --class-cpu CLASS=MODEL rewrites
 * the class itself, so every VM of it changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "analyze/model/labelsel.h"
#include "analyze/rules/rule.h"
#include "analyze/change/whatif.h"
#include "analyze/change/whatif_int.h"

const char *const kv_change_names[CH_COUNT] = {
	[CH_CPU_MODEL] = "cpu-model",
	[CH_CLUSTER_CPU_MODEL] = "cluster-cpu-model",
	[CH_CORDON] = "cordon",
	[CH_UNCORDON] = "uncordon",
	[CH_REMOVE_NODE] = "remove-node",
	[CH_ADD_NODE_LIKE] = "add-node-like",
	[CH_EVICTION] = "eviction-strategy",
	[CH_STORAGE_RWX] = "storage-class-rwx",
	[CH_CLASS_CPU] = "class-cpu",
	[CH_CLAIM_RWX] = "claim-rwx",
	[CH_BINDING] = "binding",
	[CH_OPERATION_DONE] = "operation-done",
	[CH_IMAGE_DIGEST] = "image-digest",
	[CH_NODE_LABEL] = "node-label",
	[CH_RELAX] = "relax",
	[CH_FREE_ROOM] = "free-room",
	[CH_MIGRATION_POLICY] = "migration-policy",
};

static void
note(kv_whatif *w, char *line)
{
	kv_wi_note(w, line);
}

/* The VMI's evictionStrategy: its own, else the KubeVirt CR's. */
static const char *
effective(const kv_model *m, const kv_vmi *v)
{
	const char *s = v->eviction && *v->eviction ? v->eviction :
	    m->cluster.eviction;

	return s && *s ? s : "None";
}

/* s is one of the comma-separated elements of list; an element without
 * a slash names a VMI in any namespace when vmi (bare). */
static bool
in_commas(const char *list, const char *s, const char *bare)
{
	for (const char *p = list;;) {
		size_t n = strcspn(p, ",");

		if ((strlen(s) == n && strncmp(p, s, n) == 0) ||
		    (bare != NULL && memchr(p, '/', n) == NULL &&
		    strlen(bare) == n && strncmp(p, bare, n) == 0))
			return true;
		if (p[n] == '\0')
			return false;
		p += n + 1;
	}
}

static bool
in_scope(const kv_change *ch, const kv_selector *sel, const kv_vmi *v,
    size_t i)
{
	switch (ch->scope) {
	case SC_ALL:
		return true;
	case SC_NAMESPACE:
		return in_commas(ch->scope_value, v->ns, NULL);
	case SC_VMI:
		return in_commas(ch->scope_value, v->fullname, v->name);
	case SC_SELECTOR:
		return kv_selector_matches(sel, &v->labels);
	case SC_PICK:
		return ch->pick[i];
	}
	return false;
}

/* --vmi NAME without a namespace: one VMI of that name, or an error
 * listing the namespaces that hold one. */
static int
bare_unique(apply_ctx *c, const kv_change *ch, const char *name, size_t n)
{
	char *list = xstrdup("");
	size_t hits = 0;

	for (size_t i = 0; i < c->m->nvmis; i++) {
		const kv_vmi *v = &c->m->vmis[i];
		char *t;

		if (strlen(v->name) != n || strncmp(v->name, name, n) != 0)
			continue;
		t = xasprintf("%s%s%s", list, hits++ ? ", " : "",
		    v->fullname);
		free(list);
		list = t;
	}
	if (hits > 1)
		kv_seterr(c->err, "--vmi %.*s: %zu %s have that name (%s): "
		    "give NAMESPACE/NAME", (int)n, name, hits,
		    kv_wi_vms(c, hits), list);
	else if (hits == 0)
		kv_seterr(c->err, "--vmi %.*s: no %s of that name in the "
		    "snapshot", (int)n, name, kv_wi_vms(c, 1));
	free(list);
	return hits == 1 ? KV_OK : KV_ERR;
}

/* The scope of ch checked and, for a selector, parsed into sel. */
static int
scope_prepare(apply_ctx *c, const kv_change *ch, kv_selector *sel)
{
	const char *p = ch->scope_value;

	if (ch->scope == SC_SELECTOR)
		return kv_selector_parse(p, sel, c->err);
	while (ch->scope == SC_VMI) {
		size_t n = strcspn(p, ",");

		if (memchr(p, '/', n) == NULL &&
		    bare_unique(c, ch, p, n) != KV_OK)
			return KV_ERR;
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
	return KV_OK;
}

/* Why a VMI given CPU model name (label key) would not be scheduled
 * again: no schedulable node carries the label; NULL when one does. */
static const char *
no_node_runs(kv_model *m, const char *key, const char *name)
{
	bool any = false;
	char *why;
	const char *s;

	for (size_t i = 0; i < m->nnodes; i++)
		if (kv_labels_get(&m->nodes[i].labels, key) != NULL) {
			if (!m->nodes[i].unschedulable)
				return NULL;
			any = true;
		}
	why = xasprintf("no %snode runs %s", any ? "schedulable " : "", name);
	s = kv_intern_str(m->strs, why);
	free(why);
	return s;
}

/* No live update: a change of the VM's strategy sets RestartRequired
 * (v1.9.0 pkg/virt-controller/watch/vm/vm.go:3018-3051), and a VMI's
 * spec is immutable (pkg/virt-api/webhooks/validating-webhook/admitters/
 * vmi-update-admitter.go:103): the new value comes with a restart. */
static void
evict_one(apply_ctx *c, size_t i, const char *val, size_t *nr)
{
	kv_vmi *v = &c->m->vmis[i];

	if (strcmp(effective(c->m, v), val) != 0)
		kv_wi_restart(c, i, nr);
	v->eviction = val;
}

static void
offs_text(char *buf, size_t size, size_t dead, const char *nostart,
    size_t off)
{
	buf[0] = '\0';
	if (dead > 0)
		snprintf(buf, size, "; %zu would not start again after the "
		    "restart: %s", dead, nostart);
	else if (off > 0)
		snprintf(buf, size, "; %zu on a node without the model (after "
		    "the restart: another node)", off);
}

/* --cpu-model, --eviction-strategy with a scope: the VMIs' own spec. */
static int
vmi_change(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const char *val = kv_intern_str(m->strs, ch->value);
	char *key = xasprintf("cpu-model.%s/%s", m->flavor->label_domain,
	    ch->value);
	bool named = strcmp(ch->value, "host-model") != 0 &&
	    strcmp(ch->value, "host-passthrough") != 0;
	size_t n = 0, nr = 0, off = 0, byclass = 0, dead = 0;
	kv_selector sel = { 0 };
	char offs[160];
	char *how;
	const char *nostart = named && ch->kind == CH_CPU_MODEL ?
	    no_node_runs(m, key, ch->value) : NULL;

	if (scope_prepare(c, ch, &sel) != KV_OK) {
		free(key);
		return KV_ERR;
	}
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmi *v = &m->vmis[i];
		const kv_node *on;
		bool dvm = m->flavor->fix->cpu_by_class != NULL &&
		    m->flavor->fix->cpu_by_class(m, v->ns, v->name);

		if (!in_scope(ch, &sel, v, i))
			continue;
		n++;
		if (ch->kind == CH_CPU_MODEL) {
			on = v->node ? kv_model_node(m, v->node) : NULL;
			if (named && on != NULL && kv_wi_running(v) &&
			    kv_labels_get(&on->labels, key) == NULL)
				off++;
			if (v->cpu_model != val || (dvm && v->nfeatures > 0)) {
				kv_wi_restart(c, i, &nr);
				if (nostart != NULL && kv_wi_running(v)) {
					v->nostart = nostart;
					dead++;
				}
			}
			v->cpu_model = val;
			if (dvm) {	/* the CPU of a class of type Model */
				free(v->features);
				v->features = NULL;
				v->nfeatures = 0;
				byclass++;
			}
		} else
			evict_one(c, i, val, &nr);
	}
	free(key);
	kv_selector_free(&sel);
	offs_text(offs, sizeof(offs), dead, nostart, off);
	if (n == 0)
		return kv_seterr(c->err, "--%s %s: no %s in %s%s%s",
		    kv_change_names[ch->kind], ch->value, kv_wi_vms(c, 1),
		    kv_wi_scope_text(c, ch), ch->scope_value ? " " : "",
		    ch->scope_value ? ch->scope_value : "");
	how = byclass == 0 || m->flavor->fix->cpu_by_class_note == NULL ?
	    xstrdup("") : xasprintf(m->flavor->fix->cpu_by_class_note, byclass,
	    byclass == 1 ? "" : "s", ch->value);
	if (ch->kind == CH_CPU_MODEL)
		note(c->w, xasprintf("cpu-model %s on %zu %s (%s%s%s): "
		    "takes effect after a restart, %zu running %s "
		    "restart%s%s", ch->value, n, kv_wi_vms(c, n),
		    kv_wi_scope_text(c, ch), ch->scope_value ? " " : "",
		    ch->scope_value ? ch->scope_value : "", nr,
		    kv_wi_vms(c, nr), offs, how));
	else
		note(c->w, xasprintf("eviction-strategy %s on %zu %s "
		    "(%s%s%s): takes effect after a restart, %zu running "
		    "%s restart", ch->value, n, kv_wi_vms(c, n),
		    kv_wi_scope_text(c, ch), ch->scope_value ? " " : "",
		    ch->scope_value ? ch->scope_value : "", nr,
		    kv_wi_vms(c, nr)));
	free(how);
	return KV_OK;
}

/* --class-cpu CLASS=MODEL (Deckhouse): the flavor's class hook sets the
 * class's CPU and renders every VMI of it again; those restart. */
static int
class_cpu(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const char *eq = strchr(ch->value, '=');
	char *name = xstrndup(ch->value, (size_t)(eq - ch->value));
	const char *model = eq + 1, *type = "Model";
	bool *hit = xcalloc(m->nvmis + 1, sizeof(bool));
	size_t n = 0, nr = 0;
	int rc = KV_OK;

	if (m->flavor->fix->class_cpu == NULL ||
	    !m->flavor->fix->class_cpu(m, name, model, &type, hit)) {
		char *why = xasprintf(m->flavor->fix->class_cpu_missing,
		    name);

		rc = kv_seterr(c->err, "--class-cpu %s: %s", ch->value, why);
		free(why);
		goto out;
	}
	for (size_t i = 0; i < m->nvmis; i++)
		if (hit[i]) {
			n++;
			kv_wi_restart(c, i, &nr);
		}
	note(c->w, xasprintf("class-cpu %s: VirtualMachineClass %s as type "
	    "%s%s%s, for its %zu VM%s (spec.cpu is immutable: recreate the "
	    "class, or create one and move the VMs to it); takes effect after "
	    "a restart, %zu running VM%s restart", ch->value, name, type,
	    *type == 'M' ? " with spec.cpu.model " : "", *type == 'M' ? model :
	    "", n, n == 1 ? "" : "s", nr, nr == 1 ? "" : "s"));
out:
	free(hit);
	free(name);
	return rc;
}

/* --cluster-cpu-model, --eviction-strategy without a scope: the
 * KubeVirt CR's default for VMIs without their own. */
static int
cluster_change(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const char *val = kv_intern_str(m->strs, ch->value), *olddef;
	size_t n = 0, nr = 0;

	if (ch->kind == CH_EVICTION) {
		m->cluster.eviction = val;
		note(c->w, xasprintf("eviction-strategy %s as the cluster "
		    "default (%s without their own)", ch->value,
		    kv_wi_vms(c, 2)));
		return KV_OK;
	}
	/* The webhook writes the default into every VMI it admits: a VMI
	 * that carries the old default is taken as one without a model. */
	olddef = m->cluster.cpu_model && *m->cluster.cpu_model ?
	    m->cluster.cpu_model : kv_intern_str(m->strs, "host-model");
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmi *v = &m->vmis[i];

		if (v->arch != NULL && strcmp(v->arch, "arm64") == 0)
			continue;
		if (v->cpu_model != NULL && *v->cpu_model != '\0' &&
		    v->cpu_model != olddef)
			continue;
		v->cpu_model = NULL;
		n++;
		if (olddef != val)
			kv_wi_restart(c, i, &nr);
	}
	m->cluster.cpu_model = val;
	note(c->w, xasprintf("cluster-cpu-model %s for %zu %s without "
	    "their own model (or with the old default, %s, that the webhook "
	    "wrote): takes effect after a restart, %zu running %s "
	    "restart", ch->value, n, kv_wi_vms(c, n), olddef, nr,
	    kv_wi_vms(c, nr)));
	return KV_OK;
}

static kv_node *
find_node(apply_ctx *c, const kv_change *ch)
{
	kv_node *n = (kv_node *)kv_model_node(c->m, ch->value);

	if (n == NULL)
		kv_seterr(c->err, "--%s %s: no such node in the snapshot",
		    kv_change_names[ch->kind], ch->value);
	return n;
}

static int
node_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_node *)x)->name, ((const kv_node *)y)->name);
}

/* A copy of n named name: its own label and taint arrays, the hostname
 * label rewritten. */
static kv_node
node_copy(kv_model *m, const kv_node *n, const char *name)
{
	kv_node c = *n;

	c.name = kv_intern_str(m->strs, name);
	c.labels.v = xcalloc(n->labels.n + 1, sizeof(kv_label));
	if (n->labels.n > 0)
		memcpy(c.labels.v, n->labels.v, n->labels.n *
		    sizeof(kv_label));
	for (size_t i = 0; i < c.labels.n; i++)
		if (strcmp(c.labels.v[i].key, "kubernetes.io/hostname") == 0)
			c.labels.v[i].value = c.name;
	c.taints = xcalloc(n->ntaints + 1, sizeof(kv_taint));
	if (n->ntaints > 0)
		memcpy(c.taints, n->taints, n->ntaints * sizeof(kv_taint));
	c.alloc_ext = xcalloc(n->nalloc_ext + 1, sizeof(kv_qty));
	if (n->nalloc_ext > 0)
		memcpy(c.alloc_ext, n->alloc_ext, n->nalloc_ext *
		    sizeof(kv_qty));
	return c;
}

static int
add_nodes(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const kv_node *like = find_node(c, ch);
	kv_node tmpl;
	size_t added = 0;

	if (like == NULL)
		return KV_ERR;
	tmpl = *like;
	m->nodes = xreallocarray(m->nodes, m->nnodes + ch->count + 1,
	    sizeof(kv_node));
	for (size_t k = 1; added < ch->count; k++) {
		char *name = xasprintf("%s-whatif-%zu", tmpl.name, k);

		if (kv_model_node(m, name) == NULL) {
			m->nodes[m->nnodes++] = node_copy(m, &tmpl, name);
			kv_qsort(m->nodes, m->nnodes, sizeof(kv_node),
			    node_cmp);
			added++;
		}
		free(name);
	}
	note(c->w, xasprintf("add-node-like %s: %zu new node%s with its "
	    "labels, taints and allocatable (%s-whatif-1%s)", tmpl.name,
	    ch->count, ch->count == 1 ? "" : "s", tmpl.name,
	    ch->count > 1 ? ", ..." : ""));
	return KV_OK;
}

static int
remove_node(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	kv_node *n = find_node(c, ch);
	size_t i, on = 0;

	if (n == NULL)
		return KV_ERR;
	i = (size_t)(n - m->nodes);
	for (size_t k = 0; k < m->nvmis; k++)
		if (m->vmis[k].node == n->name && kv_wi_running(&m->vmis[k]))
			on++;
	c->w->removed_nodes = xreallocarray(c->w->removed_nodes,
	    c->w->nremoved + 1, sizeof(char *));
	c->w->removed_nodes[c->w->nremoved++] = n->name;
	note(c->w, xasprintf("remove-node %s (%zu running %s on it are "
	    "left out of the comparison: they leave with the node)", n->name,
	    on, kv_wi_vms(c, on)));
	free(n->labels.v);
	free(n->taints);
	free(n->alloc_ext);
	memmove(n, n + 1, (m->nnodes - i - 1) * sizeof(kv_node));
	m->nnodes--;
	return KV_OK;
}

/* The volume mode bit (RWX_*) of claim p. */
static unsigned
mode_bit(const kv_pvc *p)
{
	return p->volume_mode && strcmp(p->volume_mode, "Block") == 0 ?
	    RWX_BLOCK : RWX_FILESYSTEM;
}

static const char *
serves_text(unsigned rwx)
{
	return rwx == (RWX_BLOCK | RWX_FILESYSTEM) ? "Block and Filesystem" :
	    rwx == RWX_BLOCK ? "Block only" : rwx == RWX_FILESYSTEM ?
	    "Filesystem only" : "no volume mode";
}

/* The class's claims not ReadWriteMany yet that it can give as such in
 * their volume mode (serves; every one when nothing is known of the
 * class), and those it cannot; *had: claims ReadWriteMany already. */
static void
count_claims(const kv_model *m, const char *sc, unsigned serves,
    size_t *ok, size_t *not, size_t *had)
{
	*ok = *not = *had = 0;
	for (size_t i = 0; i < m->npvcs; i++) {
		const kv_pvc *p = &m->pvcs[i];

		if (p->storage_class != sc)
			continue;
		if (p->modes & AM_RWX)
			(*had)++;
		else if (serves == 0 || (serves & mode_bit(p)))
			(*ok)++;
		else
			(*not)++;
	}
}

/* Whether a claim of the snapshot names storage class sc. */
static bool
class_claimed(const kv_model *m, const char *sc)
{
	for (size_t i = 0; i < m->npvcs; i++)
		if (m->pvcs[i].storage_class != NULL &&
		    strcmp(m->pvcs[i].storage_class, sc) == 0)
			return true;
	return false;
}

/* A class the snapshot's StorageClasses (read) do not have and no claim
 * names: a typo, most likely; the classes there are, at most ten. */
static int
storage_unknown(apply_ctx *c, const kv_change *ch)
{
	const kv_model *m = c->m;
	kv_buf b = {0};
	int rc;

	for (size_t i = 0; i < m->nscs && i < 10; i++)
		kv_buf_printf(&b, "%s%s", i ? ", " : "", m->scs[i].name);
	if (m->nscs > 10)
		kv_buf_printf(&b, ", ... (%zu in all)", m->nscs);
	rc = kv_seterr(c->err, "--storage-class-rwx %s: no StorageClass %s "
	    "in the snapshot (%s%s)", ch->value, ch->value, m->nscs ? "its "
	    "classes: " : "it has none", b.data ? b.data : "");
	free(b.data);
	return rc;
}

static int
storage_refuse(apply_ctx *c, const kv_change *ch, unsigned serves,
    const char *why, size_t not)
{
	if (not == 0 && !kv_model_lacks(c->m, NEED_STORAGECLASSES) &&
	    kv_model_sc(c->m, ch->value) == NULL &&
	    !class_claimed(c->m, ch->value))
		return storage_unknown(c, ch);
	if (not == 0)
		return kv_seterr(c->err, "--storage-class-rwx %s: no claim "
		    "of that storage class in the snapshot that is not "
		    "ReadWriteMany already", ch->value);
	return kv_seterr(c->err, "--storage-class-rwx %s: the class gives "
	    "ReadWriteMany for %s (%s%s), and %s %zu claim%s not ReadWriteMany "
	    "%s of another volume mode: recreate %s on another class",
	    ch->value, serves_text(serves), strncmp(why, "per ", 4) ? "per "
	    "its provisioner " : "", why, not == 1 ? "its" : "all its", not,
	    not == 1 ? "" : "s", not == 1 ? "is" : "are", not == 1 ? "it" :
	    "them");
}

/* Claims of the class as if recreated ReadWriteMany, in the volume modes
 * its StorageProfile or provisioner serves as such; the VMIs' own
 * volumeStatus follows (a recreated claim needs its VM stopped). */
static int
storage_rwx(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const char *sc = kv_intern_str(m->strs, ch->value), *why = NULL;
	const char *rwx = kv_intern_str(m->strs, "ReadWriteMany");
	unsigned serves = kv_class_rwx(m, ch->value, &why);
	size_t nclaims, not, had, nr = 0;
	bool *hit = xcalloc(m->npvcs + 1, sizeof(bool));
	char *what, *left;

	count_claims(m, sc, why ? serves : 0, &nclaims, &not, &had);
	if (nclaims == 0 || (why != NULL && serves == 0)) {
		free(hit);
		return storage_refuse(c, ch, serves, why, not + nclaims);
	}
	for (size_t i = 0; i < m->npvcs; i++) {
		kv_pvc *p = &m->pvcs[i];

		hit[i] = p->storage_class == sc && !(p->modes & AM_RWX) &&
		    (why == NULL || (serves & mode_bit(p)));
		if (hit[i]) {
			p->modes = AM_RWX;
			p->volume = NULL;	/* a new PV, not in the input */
		}
	}
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmi *v = &m->vmis[i];
		bool any = false;

		for (size_t k = 0; k < v->nvolumes; k++) {
			const kv_pvc *p = v->volumes[k].claim ? kv_model_pvc(m,
			    v->ns, v->volumes[k].claim) : NULL;

			if (p == NULL || !hit[p - m->pvcs])
				continue;
			any = true;
			for (size_t s = 0; s < v->nvolstatus; s++)
				if (v->volstatus[s].name ==
				    v->volumes[k].name) {
					v->volstatus[s].rwx = true;
					v->volstatus[s].modes = rwx;
				}
		}
		if (any)
			kv_wi_restart(c, i, &nr);
	}
	free(hit);
	what = why ? xasprintf("ReadWriteMany for %s, %s%s", serves_text(
	    serves), strncmp(why, "per ", 4) ? "per its provisioner " : "",
	    why) : xstrdup("no StorageProfile and a provisioner "
	    "kvscope does not know: taken as ReadWriteMany in every volume "
	    "mode");
	{
		kv_buf b = {0};

		kv_buf_printf(&b, "%s", "");
		if (not > 0)
			kv_buf_printf(&b, ", %zu left as they are (a volume "
			    "mode the class gives no ReadWriteMany)", not);
		if (had > 0)
			kv_buf_printf(&b, ", %zu ReadWriteMany already", had);
		left = b.data ? b.data : xstrdup("");
	}
	note(c->w, xasprintf("storage-class-rwx %s (%s): %zu claim%s "
	    "recreated ReadWriteMany%s, %zu running %s stop for it",
	    ch->value, what, nclaims, nclaims == 1 ? "" : "s", left, nr,
	    kv_wi_vms(c, nr)));
	free(what);
	free(left);
	return KV_OK;
}

/* The taint Kubernetes keeps on a cordoned node (TaintNodesByCondition
 * in pkg/controller/nodelifecycle: spec.unschedulable ->
 * node.kubernetes.io/unschedulable:NoSchedule; tag and line not checked
 * here): a collected cordoned node carries it, so --uncordon removes
 * it and --cordon adds it. */
#define CORDON_TAINT "node.kubernetes.io/unschedulable"

static void
cordon_taint(kv_model *m, kv_node *n, bool on)
{
	size_t k = 0;

	for (size_t j = 0; j < n->ntaints; j++)
		if (strcmp(n->taints[j].key, CORDON_TAINT) != 0)
			n->taints[k++] = n->taints[j];
	n->ntaints = k;
	if (!on)
		return;
	n->taints = xreallocarray(n->taints, n->ntaints + 1,
	    sizeof(kv_taint));
	n->taints[n->ntaints++] = (kv_taint){ kv_intern_str(m->strs,
	    CORDON_TAINT), kv_intern_str(m->strs, ""),
	    kv_intern_str(m->strs, "NoSchedule") };
}

static int
cordon(apply_ctx *c, const kv_change *ch)
{
	kv_node *n = find_node(c, ch);
	bool had = false;

	if (n == NULL)
		return KV_ERR;
	for (size_t j = 0; j < n->ntaints; j++)
		had |= strcmp(n->taints[j].key, CORDON_TAINT) == 0;
	n->unschedulable = ch->kind == CH_CORDON;
	cordon_taint(c->m, n, n->unschedulable);
	note(c->w, xasprintf("%s %s (spec.unschedulable %s; taint "
	    CORDON_TAINT ":NoSchedule %s)", kv_change_names[ch->kind], n->name,
	    n->unschedulable ? "true" : "false", n->unschedulable ? (had ?
	    "kept" : "added") : (had ? "removed" : "absent")));
	return KV_OK;
}

int
kv_whatif_apply(kv_model *m, const kv_change *changes, size_t n,
    kv_whatif *w, kv_err *err)
{
	apply_ctx c = { .m = m, .w = w, .err = err,
	    .restarted = xcalloc(m->nvmis + 1, sizeof(bool)) };
	int rc = KV_OK;

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n && rc == KV_OK; i++) {
		const kv_change *ch = &changes[i];

		switch (ch->kind) {
		case CH_CPU_MODEL:
			rc = vmi_change(&c, ch);
			break;
		case CH_EVICTION:
			rc = ch->scope == SC_ALL ? cluster_change(&c, ch) :
			    vmi_change(&c, ch);
			break;
		case CH_CLUSTER_CPU_MODEL:
			rc = cluster_change(&c, ch);
			break;
		case CH_CORDON:
		case CH_UNCORDON:
			rc = cordon(&c, ch);
			break;
		case CH_REMOVE_NODE:
			rc = remove_node(&c, ch);
			break;
		case CH_ADD_NODE_LIKE:
			rc = add_nodes(&c, ch);
			break;
		case CH_STORAGE_RWX:
			rc = storage_rwx(&c, ch);
			break;
		case CH_CLASS_CPU:
			rc = class_cpu(&c, ch);
			break;
		case CH_CLAIM_RWX:
			rc = kv_wi_claim_rwx(&c, ch);
			break;
		case CH_BINDING:
			rc = kv_wi_binding(&c, ch);
			break;
		case CH_OPERATION_DONE:
			rc = kv_wi_operation_done(&c, ch);
			break;
		case CH_IMAGE_DIGEST:
			rc = kv_wi_image_digest(&c, ch);
			break;
		case CH_NODE_LABEL:
			rc = kv_wi_node_label(&c, ch);
			break;
		case CH_RELAX:
			rc = kv_wi_relax(&c, ch);
			break;
		case CH_FREE_ROOM:
			rc = kv_wi_free_room(&c, ch);
			break;
		case CH_MIGRATION_POLICY:
			rc = kv_wi_migration_policy(&c, ch);
			break;
		case CH_COUNT:
			break;
		}
	}
	free(c.restarted);
	return rc;
}

void
kv_whatif_prepend(kv_whatif *w, char **lines, size_t n)
{
	if (n == 0)
		return;
	w->notes = xreallocarray(w->notes, w->nnotes + n + 1,
	    sizeof(char *));
	memmove(w->notes + n, w->notes, w->nnotes * sizeof(char *));
	memcpy(w->notes, lines, n * sizeof(char *));
	w->nnotes += n;
}

void
kv_whatif_append(kv_whatif *w, char *line)
{
	note(w, line);
}

void
kv_whatif_free(kv_whatif *w)
{
	for (size_t i = 0; i < w->nnotes; i++)
		free(w->notes[i]);
	free(w->notes);
	free(w->removed_nodes);
	memset(w, 0, sizeof(*w));
}
