/*
 * cross.c - kv_cross_run (crosscheck.h): choose SOURCE's VMIs and stopped
 * VMs, say what only a move between clusters asks (reasons.c), build the
 * crossing model (merge.c), analyse it with the in-cluster engines, then
 * each VM's answer, its TARGET nodes and the groups by cause.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/change/diff.h"
#include "analyze/crosscheck/crosscheck.h"
#include "analyze/pipeline.h"
#include "analyze/rules/target.h"
#include "analyze/util/util.h"

const char *const kv_xanswer_names[XA_COUNT] = { "live", "cold", "no" };

static bool
running(const kv_vmi *v)
{
	return v->phase != NULL && strcmp(v->phase, "Running") == 0 &&
	    v->node != NULL;
}

static bool
in_scope(const kv_cross_opts *o, const char *ns, const char *name,
    const char *fullname, const kv_labels *labels)
{
	bool ok = o->nnamespaces == 0;

	for (size_t i = 0; i < o->nnamespaces && !ok; i++)
		ok = strcmp(o->namespaces[i], ns) == 0;
	if (ok && o->sel != NULL)
		ok = kv_selector_matches(o->sel, labels);
	if (ok && o->vmi != NULL)
		ok = strcmp(o->vmi, fullname) == 0 ||
		    strcmp(o->vmi, name) == 0;
	return ok;
}

static kv_xvm *
vm_new(kv_cross *x, const kv_vmi *v, bool run)
{
	kv_xvm *vm;

	x->vms = xreallocarray(x->vms, x->nvms + 1, sizeof(kv_xvm));
	vm = &x->vms[x->nvms++];
	memset(vm, 0, sizeof(*vm));
	vm->ns = v->ns;
	vm->name = v->name;
	vm->fullname = v->fullname;
	vm->running = run;
	vm->source_node = run ? v->node : NULL;
	return vm;
}

/* The VMIs and stopped VMs of SOURCE the options choose, with the
 * reasons that read SOURCE and TARGET as they were loaded. */
static void
choose(kv_cross *x, kv_model *s, const kv_model *t, const kv_cross_opts *o,
    bool *pick, bool *pickvm)
{
	for (size_t i = 0; i < s->nvmis; i++) {
		const kv_vmi *v = &s->vmis[i];

		if (!running(v) || !in_scope(o, v->ns, v->name, v->fullname,
		    &v->labels))
			continue;
		pick[i] = true;
		kv_cross_reasons(s, t, x->side, o, v, vm_new(x, v, true));
	}
	for (size_t i = 0; i < s->nvms; i++) {
		const kv_vmi *v = s->vms[i].stopped;
		kv_xvm *vm;

		if (v == NULL || o->live_only || KV_FIND_NSNAME(s->vmis,
		    s->nvmis, kv_vmi, v->ns, v->name) != NULL ||
		    !in_scope(o, v->ns, v->name, v->fullname, &v->labels))
			continue;
		pickvm[i] = true;
		vm = vm_new(x, v, false);
		vm->stopped_why = s->vms[i].stopped_why;
		kv_cross_reasons(s, t, x->side, o, v, vm);
	}
}

static int
xvm_cmp(const void *p, const void *q)
{
	const kv_xvm *a = p, *b = q;

	return kv_nscmp(a->ns, a->name, b->ns, b->name);
}

/* The TARGET nodes of set, by name (the model's strings), but those
 * whose kubernetes.io/hostname is avoid (NULL: none): a decentralized
 * target pod requires hostname NotIn the source node's name (kubevirt
 * v1.9.0 pkg/virt-controller/watch/migration/migration.go:913-935,950-
 * 951).  How many that left out. */
static size_t
targets_of(const kv_cross *x, const kv_nodeset *set, const char *avoid,
    kv_xvm *vm)
{
	size_t out = 0;

	free(vm->targets);
	vm->targets = xcalloc(set->n + 1, sizeof(char *));
	vm->ntargets = 0;
	KV_NODESET_FOREACH(set, i) {
		const kv_node *n = &x->model->nodes[i];

		if (kv_cross_is_source(n->name))
			continue;
		/* one string table: equal names are one pointer */
		if (avoid != NULL && x->hostnames[i] == avoid)
			out++;
		else
			vm->targets[vm->ntargets++] = n->name;
	}
	return out;
}

/* Whether only SOURCE's nodes (no target: tainted) satisfy r's CPU
 * selectors: then TARGET has no CPU for it, whatever the in-cluster
 * verdict calls it. */
static bool
cpu_on_source_only(const kv_analysis *a, const kv_vmires *r)
{
	KV_NODESET_FOREACH(&r->cpu_targets, i)
		if (!kv_cross_is_source(a->m->nodes[i].name))
			return false;
	return true;
}

/* Whether some TARGET node has label k=v. */
static bool
target_has(const kv_model *m, const kv_label *l)
{
	for (size_t i = 0; i < m->nnodes; i++) {
		const char *v = kv_labels_get(&m->nodes[i].labels, l->key);

		if (!kv_cross_is_source(m->nodes[i].name) && v != NULL &&
		    strcmp(v, l->value) == 0)
			return true;
	}
	return false;
}

/* no-cpu-target in TARGET's terms: the CPU labels its target pod selects
 * that no TARGET node has. */
static void
no_cpu_target(const kv_cross *x, const kv_vmires *r, kv_xvm *vm)
{
	const kv_rule *rule = kv_rule_find("no-cpu-target");
	kv_xrule row = { rule->code, XB_LIVE, NULL, NULL };
	kv_buf b = {0};
	size_t ncpu = 0;

	for (size_t i = 0; i < r->selectors.n; i++) {
		const kv_label *l = &r->selectors.v[i];

		if (strncmp(l->key, "cpu-", 4) != 0)
			continue;
		ncpu++;
		if (!target_has(x->model, l))
			kv_buf_printf(&b, "%s%s", b.data ? ", " : "", l->key);
	}
	kv_rule_words_of(rule, x->model->flavor, &row.title, &row.fix);
	if (b.data != NULL)
		kv_xvm_add(vm, &row, "its target pod selects CPU labels no "
		    "TARGET node has: %s", b.data);
	else
		kv_xvm_add(vm, &row, "no TARGET node has all %zu CPU labels "
		    "its target pod selects", ncpu);
	kv_buf_free(&b);
}

/* The in-cluster blockers of the crossing analysis rule out live. */
static void
live_reasons(const kv_cross *x, const kv_vmires *r, kv_xvm *vm)
{
	if (r->verdict == V_NOT_JUDGED) {
		const char *why = "the input lacks what its checks need";

		for (int k = NEED_COUNT - 1; k >= 0; k--)
			if ((r->not_judged & KV_NEED_BIT(k)) &&
			    x->a->lack_msg[k] != NULL)
				why = x->a->lack_msg[k];
		kv_xvm_add(vm, &kv_xrules[XR_NOT_JUDGED], "%s", why);
		return;
	}
	for (size_t i = 0; i < r->nblockers; i++) {
		const kv_rule *rule = r->blockers[i].rule;
		kv_xrule row = { rule->code, XB_LIVE, NULL, NULL };

		if (strcmp(rule->code, "no-cpu-target") == 0 ||
		    (strcmp(rule->code, "no-placement-target") == 0 &&
		    cpu_on_source_only(x->a, r))) {
			no_cpu_target(x, r, vm);
			continue;
		}
		kv_rule_words_of(rule, x->model->flavor, &row.title, &row.fix);
		kv_xvm_add(vm, &row, "%s", r->blockers[i].message);
	}
}

/* host-passthrough: no live target has the source node's host model. */
static void
passthrough_reason(const kv_cross *x, const kv_vmires *r, kv_xvm *vm)
{
	const kv_node *src = kv_model_node(x->model, r->vmi->node);
	size_t si, same = 0;

	if (r->mode != MODE_HOST_PASSTHROUGH || src == NULL)
		return;
	si = (size_t)(src - x->model->nodes);
	KV_NODESET_FOREACH(&r->targets, i)
		same += x->a->nodes[i].host_model != NULL &&
		    x->a->nodes[i].host_model == x->a->nodes[si].host_model;
	if (same == 0)
		kv_xvm_add(vm, &kv_xrules[XR_PASSTHROUGH], "host-passthrough "
		    "on %s (host model %s): no TARGET node it could go to has "
		    "that host model; the guest sees another CPU after the "
		    "move", vm->source_node, x->a->nodes[si].host_model ?
		    x->a->nodes[si].host_model : "unknown");
}

/* A host-model VMI between flavors of two label domains: TARGET's
 * virt-controller looks for its own domain's host-model-cpu key among
 * the node selectors SOURCE recorded of its node and, finding none,
 * creates no target pod (kubevirt v1.9.0 pkg/virt-controller/watch/
 * migration/migration.go:969-970 getNodeSelectorsFromVMIMigration-
 * SourceState, :2554-2572 getHostCpuModelFromMap). */
static void
domain_reason(const kv_cross *x, const kv_vmires *r, kv_xvm *vm)
{
	const char *sd = x->src->flavor->label_domain;
	const char *td = x->model->flavor->label_domain;

	if (r->mode == MODE_HOST_MODEL && strcmp(sd, td) != 0)
		kv_xvm_add(vm, &kv_xrules[XR_LABEL_DOMAIN], "SOURCE's nodes "
		    "are labelled in %s, TARGET's in %s: TARGET's KubeVirt "
		    "finds no host-model-cpu.%s label among the source "
		    "node's and creates no target pod", sd, td, td);
}

/* TARGET's nodes carry no machine-type labels: no selector, and
 * whether TARGET runs the VMI's machine type is unknown. */
static void
machine_reason(const kv_cross *x, const kv_vmires *r, kv_xvm *vm)
{
	const char *mt = r->vmi->machine_status ? r->vmi->machine_status :
	    r->vmi->machine_spec;

	if (mt != NULL && *mt != '\0' &&
	    !kv_since_on(x->a, SINCE_MACHINE_TYPE))
		kv_xvm_add(vm, &kv_xrules[XR_MACHINE], "machine type %s: "
		    "TARGET's nodes carry no machine-type labels (or its "
		    "KubeVirt selects none)", mt);
}

static unsigned
blocks_of(const kv_xvm *vm)
{
	unsigned b = 0;

	for (size_t i = 0; i < vm->nreasons; i++)
		b |= vm->reasons[i].blocks;
	return b;
}

static int
reason_cmp(const void *p, const void *q)
{
	const kv_xreason *a = p, *b = q;

	if ((a->blocks != 0) != (b->blocks != 0))
		return a->blocks != 0 ? -1 : 1;
	return strcmp(a->code, b->code);
}

/* One VM's answer from the crossing analysis. */
static void
answer(kv_cross *x, const kv_cross_opts *o, kv_xvm *vm)
{
	const kv_model *m = x->model;
	const kv_vmi *v = KV_FIND_NSNAME(m->vmis, m->nvmis, kv_vmi, vm->ns,
	    vm->name);
	kv_vmires *r = &x->a->vmis[v - m->vmis];
	kv_xvm live = { 0 };
	bool can_live = false, can_cold = false;

	vm->mode = r->mode;
	vm->cpu_model = r->mode == MODE_NAMED ? r->model : NULL;
	if (vm->running && !o->cold_only) {
		machine_reason(x, r, vm);
		domain_reason(x, r, vm);
		live_reasons(x, r, vm);
		passthrough_reason(x, r, vm);
		if (targets_of(x, &r->targets, vm->source_node,
		    &live) > 0 && live.ntargets == 0)
			kv_xvm_add(vm, &kv_xrules[XR_HOSTNAME], "its only "
			    "TARGET node has the hostname %s of its source "
			    "node, which a decentralized target pod excludes",
			    vm->source_node);
		can_live = !(blocks_of(vm) & XB_LIVE) && live.ntargets > 0;
	}
	if (!can_live && !o->live_only) {
		kv_vmi_start_targets(x->a, r);
		(void)targets_of(x, &r->start_targets, NULL, vm);
		if (vm->ntargets == 0)
			kv_xvm_add(vm, &kv_xrules[XR_NO_START], "none of "
			    "TARGET's nodes passes its node selector, "
			    "affinity, tolerations, CPU model and room");
		can_cold = !(blocks_of(vm) & XB_COLD) && vm->ntargets > 0;
	}
	if (can_live) {
		free(vm->targets);
		vm->targets = live.targets;
		vm->ntargets = live.ntargets;
		live.targets = NULL;
	}
	free(live.targets);
	vm->answer = can_live ? XA_LIVE : can_cold ? XA_COLD : XA_NO;
	if (vm->answer == XA_NO) {
		free(vm->targets);
		vm->targets = NULL;
		vm->ntargets = 0;
	}
	kv_qsort(vm->reasons, vm->nreasons, sizeof(kv_xreason), reason_cmp);
}

/* One distinct target list (kv_cross.lists' key and value). */
typedef struct tlist {
	size_t n;
	const char **v;
} tlist;

static guint
tlist_hash(gconstpointer p)
{
	const tlist *t = p;

	return kv_hash_bytes(t->v, t->n * sizeof(*t->v));
}

static gboolean
tlist_equal(gconstpointer p, gconstpointer q)
{
	const tlist *a = p, *b = q;

	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof(*a->v)) == 0;
}

static void
tlist_free(gpointer p)
{
	tlist *t = p;

	free(t->v);
	free(t);
}

/* vm's targets as the one array of x holding that list (names are
 * interned pointers: equal lists are equal bytes). */
static void
share_targets(kv_cross *x, kv_xvm *vm)
{
	tlist probe = { vm->ntargets, vm->targets }, *t;

	if (vm->targets == NULL)
		return;
	if ((t = g_hash_table_lookup(x->lists, &probe)) == NULL) {
		t = xcalloc(1, sizeof(*t));
		*t = probe;
		g_hash_table_add(x->lists, t);
	} else
		free(vm->targets);
	vm->targets = t->v;
}

static int
group_cmp(const void *p, const void *q)
{
	const kv_xgroup *a = p, *b = q;

	if ((a->blocks != 0) != (b->blocks != 0))
		return a->blocks != 0 ? -1 : 1;
	if (a->nvms != b->nvms)
		return a->nvms > b->nvms ? -1 : 1;
	return strcmp(a->code, b->code);
}

static kv_xgroup *
group_of(kv_cross *x, const kv_xreason *r)
{
	for (size_t i = 0; i < x->ngroups; i++)
		if (strcmp(x->groups[i].code, r->code) == 0)
			return &x->groups[i];
	x->groups = xreallocarray(x->groups, x->ngroups + 1,
	    sizeof(kv_xgroup));
	x->groups[x->ngroups] = (kv_xgroup){ r->code, r->title, r->fix,
	    r->blocks, 0, NULL };
	return &x->groups[x->ngroups++];
}

/* Groups by reason code, each VM once; counts and data to copy. */
static void
summarize(kv_cross *x)
{
	for (size_t i = 0; i < x->nvms; i++) {
		const kv_xvm *vm = &x->vms[i];

		x->counts[vm->answer]++;
		if (vm->answer != XA_NO && vm->copy_bytes > 0)
			x->copy_bytes += vm->copy_bytes;
		for (size_t k = 0; k < vm->nreasons; k++) {
			kv_xgroup *g;

			if (k > 0 && strcmp(vm->reasons[k - 1].code,
			    vm->reasons[k].code) == 0)
				continue;
			g = group_of(x, &vm->reasons[k]);
			g->vms = xreallocarray(g->vms, g->nvms + 1,
			    sizeof(size_t));
			g->vms[g->nvms++] = i;
		}
	}
	kv_qsort(x->groups, x->ngroups, sizeof(kv_xgroup), group_cmp);
}

/* The best named models every KubeVirt node of both clusters runs (the
 * rule of `kvscope models`: the highest level, then most features). */
static void
best_models(kv_cross *x)
{
	const kv_analysis *a = x->a;
	size_t nkv = 0;
	int level = -1;
	size_t feat = 0;

	for (size_t i = 0; i < a->m->nnodes; i++)
		nkv += a->nodes[i].kubevirt;
	x->best = xcalloc(a->nnamed + 1, sizeof(char *));
	for (size_t i = 0; i < a->nnamed && nkv > 0; i++) {
		const kv_named *nm = &a->named[i];
		size_t n = 0;

		for (size_t k = 0; k < nm->nnodes; k++)
			n += a->nodes[nm->nodes[k]].kubevirt;
		if (n != nkv || nm->info == NULL)
			continue;
		if (nm->info->level > level || (nm->info->level == level &&
		    nm->info->nfeatures_novmx > feat)) {
			level = nm->info->level;
			feat = nm->info->nfeatures_novmx;
			x->nbest = 0;
		}
		if (nm->info->level == level &&
		    nm->info->nfeatures_novmx == feat)
			x->best[x->nbest++] = nm->model;
	}
	kv_qsort(x->best, x->nbest, sizeof(char *), kv_strptrcmp);
}

static void
same_cluster(kv_cross *x, const kv_model *s, const kv_model *t,
    const char *sp, const char *tp)
{
	char *differs = NULL;
	enum kv_uid_from f = kv_cluster_uid_cmp(s, t, &differs);
	enum kv_uid_from g;
	const char *uid;

	if (f != UID_NONE && differs == NULL) {
		uid = kv_cluster_uid(s, &g);
		x->same_cluster = xasprintf("SOURCE and TARGET are one "
		    "cluster (%s uid %s)", kv_uid_from_names[f], uid);
	} else if (f == UID_NONE && strcmp(sp, tp) == 0)
		x->same_cluster = xasprintf("SOURCE and TARGET are one "
		    "snapshot (%s)", sp);
	free(differs);
}

int
kv_cross_run(kv_model *src, kv_model *tgt, const char *src_path,
    const char *tgt_path, const kv_cross_opts *o, kv_cross **out,
    kv_err *err)
{
	kv_cross *x = xcalloc(1, sizeof(*x));
	bool *pick, *pickvm;

	*out = NULL;
	x->src = src;
	x->model = tgt;
	x->side[0].path = src_path;
	x->side[1].path = tgt_path;
	x->side[0].name = src->manifest.context ? src->manifest.context :
	    src_path;
	x->side[1].name = tgt->manifest.context ? tgt->manifest.context :
	    tgt_path;
	same_cluster(x, src, tgt, src_path, tgt_path);
	kv_cross_sides(src, tgt, x->side);
	if (src->flavor->stopped_vms != NULL)	/* its own stopped VMs */
		src->flavor->stopped_vms(src);
	pick = xcalloc(src->nvmis + 1, sizeof(bool));
	pickvm = xcalloc(src->nvms + 1, sizeof(bool));
	choose(x, src, tgt, o, pick, pickvm);
	kv_timing("reasons");
	kv_cross_merge(tgt, src, pick, pickvm, o);
	kv_timing("merge");
	free(pick);
	free(pickvm);
	if (o->vmi != NULL && x->nvms == 0) {
		kv_seterr(err, "--vmi %s: no running VMI or stopped VM of "
		    "that name in SOURCE", o->vmi);
		kv_cross_free(x);
		return KV_ERR;
	}
	if (kv_analyze_targets(tgt, &x->a, err) != KV_OK) {
		kv_cross_free(x);
		return KV_ERR;
	}
	x->hostnames = xcalloc(tgt->nnodes + 1, sizeof(char *));
	for (size_t i = 0; i < tgt->nnodes; i++)
		x->hostnames[i] = kv_labels_get(&tgt->nodes[i].labels,
		    "kubernetes.io/hostname");
	kv_qsort(x->vms, x->nvms, sizeof(kv_xvm), xvm_cmp);
	x->lists = g_hash_table_new_full(tlist_hash, tlist_equal, tlist_free,
	    NULL);
	for (size_t i = 0; i < x->nvms; i++) {
		answer(x, o, &x->vms[i]);
		share_targets(x, &x->vms[i]);
	}
	kv_timing("answers");
	summarize(x);
	best_models(x);
	*out = x;
	return KV_OK;
}

void
kv_cross_free(kv_cross *x)
{
	if (x == NULL)
		return;
	for (size_t i = 0; i < x->nvms; i++) {
		for (size_t k = 0; k < x->vms[i].nreasons; k++)
			free(x->vms[i].reasons[k].message);
		free(x->vms[i].reasons);
	}
	free(x->vms);
	for (size_t i = 0; i < x->ngroups; i++)
		free(x->groups[i].vms);
	free(x->groups);
	free(x->best);
	free(x->hostnames);
	free(x->same_cluster);
	for (size_t i = 0; i < x->nchanges; i++)
		free(x->changes[i]);
	free(x->changes);
	if (x->lists != NULL)
		g_hash_table_destroy(x->lists);
	kv_analysis_free(x->a);
	kv_model_free(x->src);
	kv_model_free(x->model);
	free(x);
}
