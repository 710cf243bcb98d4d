/*
 * fix_cpu.c - set-cpu-model (groups.h): the named CPU model to write for
 * a group of VMIs without a CPU-compatible target, chosen as findings.md
 * says and checked by re-analysis: the target search of target.c runs
 * again for every VMI of the group with the model written in, and
 * `fixes` counts the VMIs that then have a target.
 *
 * Candidates are the models usable on every source node of the group, of
 * the source nodes' vendor (never another vendor's model: since KubeVirt
 * v1.8 a VM only moves between nodes of its vendor), not obsolete.  They
 * are tried in the order of the tie-breaks (most nodes of the vendor,
 * level, AVX-512, AVX2, name), so the first that gives every VMI a target
 * wins at once and the search stops there.
 */
#include "analyze/decide/groups.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/index.h"
#include "analyze/rules/target.h"

typedef struct cand {
	const kv_named *nm;
	size_t vendor_nodes;		/* KubeVirt nodes of the vendor */
	size_t fixes;
} cand;

static bool
obsolete(const kv_analysis *a, const char *model)
{
	for (size_t i = 0; i < a->cfg.nobsolete; i++)
		if (strcmp(a->cfg.obsolete[i], model) == 0)
			return true;
	return false;
}

static bool
named_on(const kv_named *nm, size_t node)
{
	for (size_t i = 0; i < nm->nnodes; i++)
		if (nm->nodes[i] == node)
			return true;
	return false;
}

/* The vendor of every source node of g, or NULL when they differ or one
 * has none. */
static const char *
group_vendor(const kv_analysis *a, const kv_group *g)
{
	const char *v = NULL;

	for (size_t k = 0; k < g->nnodes; k++) {
		const char *nv = a->nodes[g->nodes[k]].vendor;

		if (nv == NULL || (v != NULL && strcmp(v, nv) != 0))
			return NULL;
		v = nv;
	}
	return v;
}

/* Whether a node of g has no cpu-vendor label (group_vendor's NULL
 * then says nothing of mixed vendors). */
static bool
unlabelled_vendor(const kv_analysis *a, const kv_group *g)
{
	for (size_t k = 0; k < g->nnodes; k++)
		if (a->nodes[g->nodes[k]].vendor == NULL)
			return true;
	return false;
}

static bool
of_vendor(const kv_analysis *a, size_t n, const char *vendor)
{
	return a->nodes[n].kubevirt && a->nodes[n].vendor != NULL &&
	    strcmp(a->nodes[n].vendor, vendor) == 0;
}

static int
cand_cmp(const void *x, const void *y)
{
	const cand *p = x, *q = y;
	const cpudb_model *pi = p->nm->info, *qi = q->nm->info;

	if (p->vendor_nodes != q->vendor_nodes)
		return p->vendor_nodes > q->vendor_nodes ? -1 : 1;
	if (pi->level != qi->level)
		return pi->level > qi->level ? -1 : 1;
	if (pi->avx512f != qi->avx512f)
		return pi->avx512f ? -1 : 1;
	if (pi->avx2 != qi->avx2)
		return pi->avx2 ? -1 : 1;
	return strcmp(p->nm->model, q->nm->model);
}

static size_t
candidates(const kv_analysis *a, const kv_group *g, const char *vendor,
    cand **out)
{
	cand *c = xcalloc(a->nnamed + 1, sizeof(*c));
	size_t n = 0;

	for (size_t i = 0; i < a->nnamed; i++) {
		const kv_named *nm = &a->named[i];
		bool ok = nm->info != NULL && nm->info->vendor != NULL &&
		    strcmp(nm->info->vendor, vendor) == 0 &&
		    !obsolete(a, nm->model) &&
		    !kv_flavor_unlabelled_model(a->m->flavor, nm->model);

		for (size_t k = 0; ok && k < g->nnodes; k++)
			ok = named_on(nm, g->nodes[k]);
		if (!ok)
			continue;
		c[n].nm = nm;
		for (size_t k = 0; k < nm->nnodes; k++)
			c[n].vendor_nodes += of_vendor(a, nm->nodes[k], vendor);
		n++;
	}
	kv_qsort(c, n, sizeof(*c), cand_cmp);
	*out = c;
	return n;
}

/* Whether VMI r would have a migration target with CPU model `model`
 * written into its spec: the target search of the analysis, again.  The
 * fix comes with a restart: a VM with RestartRequired then runs its
 * template (its placement, features), so that is what is searched. */
static bool
target_with(const kv_analysis *a, const kv_vmires *r, const char *model)
{
	kv_vmi v = *kv_vmi_after_restart(r);
	kv_vmires t = *r;	/* the VMI's own placement inputs (added
				 * selector, affinity), fresh outputs */
	kv_target_info ti;
	bool ok;

	v.cpu_model = kv_intern_str(a->m->strs, model);
	/* the features came with the object that set the CPU (DVP: the
	 * class, which a Model class replaces) */
	if (r->facts.cpu_from_object)
		v.nfeatures = 0;
	memset(&t.selectors, 0, sizeof(t.selectors));
	memset(&t.extra_affinity, 0, sizeof(t.extra_affinity));
	memset(&t.cpu_targets, 0, sizeof(t.cpu_targets));
	memset(&t.targets, 0, sizeof(t.targets));
	t.vmi = &v;
	t.mode = MODE_NAMED;
	t.model = v.cpu_model;
	kv_target_build(a, a->place, &t, &ti);
	ok = t.ntargets > 0;
	for (size_t i = 0; i < t.extra_affinity.nterms; i++)
		free(t.extra_affinity.terms[i].reqs);
	free(t.extra_affinity.terms);
	free(t.cpu_targets.excl);
	free(t.targets.excl);
	return ok;
}

/* The best candidate: most fixes, ties by the candidates' order.  The
 * placement problems a candidate's trials add are dropped after it
 * (thousands of node bitsets at scale; the analysis' own stay). */
static cand *
choose(const kv_analysis *a, const kv_group *g, cand *c, size_t n)
{
	cand *best = NULL;

	for (size_t i = 0; i < n; i++) {
		kv_place_scratch(a->place, true);
		for (size_t k = 0; k < g->nvmis; k++)
			c[i].fixes += target_with(a, &a->vmis[g->vmis[k]],
			    c[i].nm->model);
		kv_place_scratch(a->place, false);
		if (c[i].fixes > 0 && (best == NULL ||
		    c[i].fixes > best->fixes))
			best = &c[i];
		if (best != NULL && best->fixes == g->nvmis)
			break;
	}
	return best;
}

static const char *
level_words(int level)
{
	static const char *const w[] = { "no x86-64 level", "x86-64-v1",
	    "x86-64-v2", "x86-64-v3", "x86-64-v4" };

	return level >= 0 && level <= 4 ? w[level] : "an unknown level";
}

/* The patch of spec.template.spec.domain.cpu.model, as JSON. */
static char *
model_patch(const char *model)
{
	json_t *p = json_pack("{s:{s:{s:{s:{s:{s:s}}}}}}", "spec", "template",
	    "spec", "domain", "cpu", "model", model);
	char *s = json_dumps(p, JSON_COMPACT);

	json_decref(p);
	return s;
}

/* "Set PATH to MODEL in the VirtualMachines (prod/a, ...) and restart
 * them (kubectl patch vm a -n prod ...; virtctl restart ...)", and the
 * VMIs that no VirtualMachine holds. */
static void
vm_words(const kv_analysis *a, const kv_group *g, kv_buf *b)
{
	const kv_fix *f = &g->fix;
	size_t nvms;
	char *vms = kv_group_vms(a, g, 5, &nvms), *ex, *patch, *cmd;

	if (nvms == 0) {
		ex = kv_group_examples(a, g, 5);
		kv_buf_printf(b, "Set spec.domain.cpu.model to %s in these "
		    "VMIs (%s; no VirtualMachine holds them: recreate them)",
		    f->value, ex);
		free(ex);
		free(vms);
		return;
	}
	patch = model_patch(f->value);
	cmd = kv_group_patch(a, g, patch, true);
	kv_buf_printf(b, "Set %s to %s in the VirtualMachines (%s) and "
	    "restart them (%s)", f->path, f->value, vms, cmd);
	if (nvms < g->nvmis)
		kv_buf_printf(b, "; %zu of the VMIs have no VirtualMachine: "
		    "recreate them with the model", g->nvmis - nvms);
	free(patch);
	free(cmd);
	free(vms);
}

/* " (class C gives it; for prod/a: kubectl patch ... && d8 v restart
 * ...)": the snapshot's class of the model (kv_fixrow.model_class), or
 * NEW-CLASS, one to create. */
static void
class_words(const kv_analysis *a, const kv_group *g, kv_buf *b)
{
	const kv_fixrow *row = a->m->flavor->fix;
	const char *cls;
	char *patch, *cmd;

	if (row->model_class == NULL)
		return;
	cls = row->model_class(a->m, g->fix.value);
	patch = xasprintf(row->class_patch, cls ? cls : "NEW-CLASS");
	cmd = kv_group_patch(a, g, patch, true);
	if (cls != NULL)
		kv_buf_printf(b, " (class %s gives it", cls);
	else
		kv_buf_printf(b, " (no class in the snapshot gives it: create "
		    "one, NEW-CLASS below");
	kv_buf_printf(b, "%s%s)", cmd ? "; " : "", cmd ? cmd : "");
	free(patch);
	free(cmd);
}

static void
fix_text(const kv_analysis *a, kv_group *g, const char *vendor)
{
	kv_fix *f = &g->fix;
	char *ex = kv_group_examples(a, g, 5);
	kv_buf b = {0};

	if (a->m->flavor->fix->cpu_fix != NULL &&
	    kv_model_lacks(a->m, NEED_VMCLASSES))
		/* the input, not the cluster, lacks the classes: one of
		 * type Model may already give the model */
		kv_buf_printf(&b, "VirtualMachineClasses are not in the "
		    "input; on the cluster, look for a class of type Model "
		    "with spec.cpu.model %s (or create one), give it to the "
		    "VirtualMachines (%s) and restart them", f->value, ex);
	else if (a->m->flavor->fix->cpu_fix != NULL) {
		kv_buf_printf(&b, a->m->flavor->fix->cpu_fix, ex, f->value);
		class_words(a, g, &b);
	} else
		vm_words(a, g, &b);
	/* how many it fixes is the proof's (fixproof.h), which every
	 * writer prints beside the text */
	kv_buf_printf(&b, ": %s runs on %zu of %zu %s nodes and gives the "
	    "guest %s, %s AVX2 and %s AVX-512", f->value, f->effect.nodes,
	    f->effect.of, vendor, level_words(f->effect.level),
	    f->effect.avx2 ? "with" : "without",
	    f->effect.avx512f ? "with" : "without");
	if (a->vmis[g->vmis[0]].facts.cpu_from_object &&
	    a->vmis[g->vmis[0]].vmi->nfeatures > 0)
		kv_buf_printf(&b, "; the guest loses the CPU features %s",
		    kv_model_lacks(a->m, NEED_VMCLASSES) ? "its spec names" :
		    "the current class requires");
	f->text = b.data;
	free(ex);
}

/* Why no model helps: the vendor has no other node, or none fits. */
static void
no_model(const kv_analysis *a, kv_group *g, const char *vendor)
{
	char *nodes = kv_group_node_list(a, g);
	size_t others = 0;

	for (size_t n = 0; vendor != NULL && n < a->m->nnodes; n++)
		others += of_vendor(a, n, vendor) && a->nodes[n].schedulable &&
		    !(g->nnodes == 1 && g->nodes[0] == n);
	g->fix.action = FIX_NONE;
	g->fix.checked = true;
	if (vendor == NULL && unlabelled_vendor(a, g))
		g->fix.text = xasprintf("The source nodes (%s) carry no "
		    "cpu-vendor label, and a VM only moves between nodes of "
		    "its vendor: kvscope cannot tell which nodes a named CPU "
		    "model would open, so it proposes none; check the node "
		    "labeller on these nodes", nodes);
	else if (vendor == NULL)
		g->fix.text = xasprintf("The source nodes (%s) are of "
		    "different CPU vendors and VMs never move between "
		    "vendors: no single CPU model helps; split the group by "
		    "vendor", nodes);
	else if (others == 0)
		g->fix.text = xasprintf("%s is the only schedulable KubeVirt "
		    "node of vendor %s, and a VM only moves between nodes of "
		    "its vendor: no CPU model helps; add another %s node",
		    nodes, vendor, vendor);
	else
		g->fix.text = xasprintf("No named CPU model usable on %s gives "
		    "these VMs a migration target (checked by re-analysis): "
		    "add a node of the same CPU, or remove the other placement "
		    "constraint (see kvscope explain)", nodes);
	free(nodes);
}

void
kv_fix_cpu_model(const kv_analysis *a, kv_group *g)
{
	const char *vendor = group_vendor(a, g);
	cand *c = NULL, *best;
	size_t n = vendor ? candidates(a, g, vendor, &c) : 0, of = 0;

	best = choose(a, g, c, n);
	if (best == NULL) {
		no_model(a, g, vendor);
		free(c);
		return;
	}
	for (size_t i = 0; i < a->m->nnodes; i++)
		of += of_vendor(a, i, vendor);
	g->fix.action = FIX_SET_CPU_MODEL;
	g->fix.value = xstrdup(best->nm->model);
	g->fix.path = a->m->flavor->fix->paths[VMPATH_CPU_MODEL];
	g->fix.restart = true;
	g->fix.fixes = best->fixes;
	g->fix.checked = true;
	g->fix.effect = (kv_fix_effect){ .set = true,
	    .nodes = best->vendor_nodes, .of = of,
	    .level = best->nm->info->level, .avx2 = best->nm->info->avx2,
	    .avx512f = best->nm->info->avx512f };
	fix_text(a, g, vendor);
	free(c);
}
