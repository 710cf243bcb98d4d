/*
 * view_diff.c - the `what-if` and `diff` views (view.h): what changed
 * between two analyses (analyze/change/diff.h), as lines for a person or one
 * JSON / YAML document ("kind": "kvscope-whatif" | "kvscope-diff"),
 * which the --report folder holds as diff.json.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/change/diff.h"
#include "render/render.h"
#include "render/view.h"

static json_t *
jstrs(const kv_strs *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(a, json_string(s->v[i]));
	return a;
}

static json_t *
pair_str(const char *x, const char *y)
{
	return json_pack("{s:o, s:o}", "before", x ? json_string(x) :
	    json_null(), "after", y ? json_string(y) : json_null());
}

static json_t *
pair_int(size_t x, size_t y)
{
	return json_pack("{s:I, s:I}", "before", (json_int_t)x, "after",
	    (json_int_t)y);
}

static const char *
drain_name(enum kv_on_drain d)
{
	return d == DRAIN_NONE ? NULL : kv_on_drain_names[d];
}

static bool
cpu_changed(const kv_diff_node *n)
{
	return n->lost.n + n->gained.n + n->labels_lost.n +
	    n->labels_gained.n > 0 || n->host_model_changed ||
	    n->vendor_changed;
}

/* A node's changes that are not its CPU labels. */
static json_t *
node_doc(const kv_diff_node *n)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b}", "name",
	    n->name, "unschedulable", json_pack("{s:b, s:b}", "before",
	    n->unsched[0], "after", n->unsched[1]), "taintsLost",
	    jstrs(&n->taints_lost), "taintsGained", jstrs(&n->taints_gained),
	    "allocatable", jstrs(&n->alloc), "labelsLost",
	    jstrs(&n->other_lost), "labelsGained", jstrs(&n->other_gained),
	    "cpuLabelsChanged", cpu_changed(n));
}

static json_t *
nodes_doc(const kv_diff *d)
{
	json_t *changed = json_array(), *all = json_array();

	for (size_t i = 0; i < d->nnodes; i++) {
		const kv_diff_node *n = &d->nodes[i];
		json_array_append_new(all, node_doc(n));
		if (!cpu_changed(n))
			continue;
		json_array_append_new(changed, json_pack("{s:s, s:o, s:o, "
		    "s:o, s:o, s:o, s:o}", "name", n->name, "featuresLost",
		    jstrs(&n->lost), "featuresGained", jstrs(&n->gained),
		    "labelsLost", jstrs(&n->labels_lost), "labelsGained",
		    jstrs(&n->labels_gained), "hostModel",
		    pair_str(n->host_model[0], n->host_model[1]), "vendor",
		    pair_str(n->vendor[0], n->vendor[1])));
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "added",
	    jstrs(&d->nodes_added), "removed", jstrs(&d->nodes_removed),
	    "cpuChanged", changed, "changed", all);
}

static json_t *
vmis_doc(const kv_diff *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->nvmis; i++) {
		const kv_diff_vmi *v = &d->vmis[i];

		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o, s:o, "
		    "s:o, s:o, s:s?, s:b, s:b, s:b, s:o, s:o}", "name", v->name,
		    "verdict", pair_str(kv_verdict_names[v->verdict[0]],
		    kv_verdict_names[v->verdict[1]]), "targetCount",
		    pair_int(v->targets[0], v->targets[1]), "onDrain",
		    pair_str(drain_name(v->drain[0]), drain_name(v->drain[1])),
		    "migration", pair_str(v->migration[0], v->migration[1]),
		    "codesAdded", jstrs(&v->added), "codesRemoved",
		    jstrs(&v->removed), "wouldNotStart", v->nostart,
		    "worse", v->worse, "better", v->better, "cannotTell",
		    v->untold, "targetsLost", jstrs(&v->tlost),
		    "targetsGained", jstrs(&v->tgained)));
	}
	return a;
}

/* Groups that appear, disappear or change, with their ids on each side. */
static json_t *
groups_doc(const kv_diff *d)
{
	json_t *v = json_array();

	for (size_t i = 0; i < d->ngroups; i++) {
		const kv_diff_group *g = &d->groups[i];

		json_array_append_new(v, json_pack("{s:s, s:{s:s, s:s}, s:o, "
		    "s:o, s:o}", "code", g->code, "subject", "kind", g->kind,
		    "name", g->name, "ids", json_pack("[s?, s?]", g->id[0],
		    g->id[1]), "vmis", pair_int(g->vmis[0], g->vmis[1]),
		    "change", json_string(g->vmis[0] == 0 ? "new" :
		    g->vmis[1] == 0 ? "resolved" : "changed")));
	}
	return v;
}

static json_t *
drains_doc(const kv_diff *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->ndrains; i++) {
		const kv_diff_drain *x = &d->drains[i];

		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o}",
		    "node", x->node, "migrate", pair_int(x->migrate[0],
		    x->migrate[1]), "block", pair_int(x->block[0], x->block[1]),
		    "shutdown", pair_int(x->shutdown[0], x->shutdown[1])));
	}
	return a;
}

/* The VMIs whose only change is their targets, by the nodes they lost
 * and gained. */
static json_t *
folds_doc(const kv_diff *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->nfolds; i++)
		json_array_append_new(a, json_pack("{s:I, s:o, s:o}", "vmis",
		    (json_int_t)d->folds[i].nvmis, "targetsLost",
		    jstrs(d->folds[i].lost), "targetsGained",
		    jstrs(d->folds[i].gained)));
	return a;
}

static json_t *
lines_doc(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* A diff's inputs, each an object (docs/findings.md, "kvscope diff"). */
static json_t *
inputs_doc(const kv_diff_input *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		const kv_diff_input *x = &v[i];
		json_t *col = x->collector_name == NULL &&
		    x->collector_version == NULL ? json_null() :
		    json_pack("{s:o, s:o}", "name",
		    str_or_null(x->collector_name), "version",
		    str_or_null(x->collector_version));

		json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o, s:o, "
		    "s:o, s:o, s:s}", "which", x->which, "path", x->path,
		    "context", str_or_null(x->context), "createdAt",
		    str_or_null(x->created_at), "collector", col, "clusterUid",
		    str_or_null(x->cluster_uid), "clusterUidFrom",
		    str_or_null(x->uid_from), "line", x->line));
	}
	return a;
}

/* The words of the subject kinds (kv_subject_names, groups.h) in prose. */
static const struct {
	const char *kind, *words;
} subject_words[] = {
	{ "cpuClass", "CPU class" }, { "cpuModel", "CPU model" },
	{ "storageClass", "storage class" },
	{ "evictionStrategy", "eviction strategy" },
};

char *
kv_diff_subject(const kv_diff_group *g)
{
	const char *w = g->kind;

	for (size_t i = 0; i < sizeof subject_words / sizeof *subject_words;
	    i++)
		if (strcmp(g->kind, subject_words[i].kind) == 0)
			w = subject_words[i].words;
	return xasprintf("%s: %s", w, g->name);
}

char *
kv_diff_untold(const kv_diff *d, int s, bool whatif, const kv_vocab *words)
{
	static const char *const side[2][2] = {
		{ "in old", "in new" }, { "before", "after" }
	};
	size_t n = d->verdicts[s][V_NOT_JUDGED];
	kv_buf b = {0};
	const char *sep = " (";

	if (n == 0)
		return NULL;
	kv_buf_printf(&b, "not judged %s: %zu %s", side[whatif][s], n,
	    words == NULL ? n == 1 ? "VMI" : "VMIs" : n == 1 ? words->vm :
	    words->vms);
	for (int k = 0; k < NEED_COUNT; k++)
		if (d->lacks[s] & KV_NEED_BIT(k)) {
			kv_buf_printf(&b, "%s%s: %s", sep,
			    kv_need_rows[k].resource, d->lack_words[s][k]);
			sep = "; ";
		}
	kv_buf_printf(&b, "%s", d->lacks[s] ? ")" : "");
	return b.data;
}

/* The not-judged counts of both sides and their lines (kv_diff_untold). */
static json_t *
untold_doc(const kv_diff *d, bool whatif, const kv_vocab *words)
{
	json_t *o = json_object(), *lines = json_array();

	json_object_set_new(o, "vmis", json_integer((json_int_t)d->nuntold));
	json_object_set_new(o, "notJudged", pair_int(
	    d->verdicts[0][V_NOT_JUDGED], d->verdicts[1][V_NOT_JUDGED]));
	for (int s = 0; s < 2; s++) {
		char *l = kv_diff_untold(d, s, whatif, words);

		if (l != NULL)
			json_array_append_new(lines, json_string(l));
		free(l);
	}
	json_object_set_new(o, "lines", lines);
	return o;
}

json_t *
kv_json_diff(const kv_diff *d, const kv_diff_notes *n)
{
	json_t *doc = json_object(), *cls = json_array(), *sum;

	json_object_set_new(doc, "kind", json_string(n->notes ?
	    "kvscope-whatif" : "kvscope-diff"));
	if (n->notes != NULL) {
		json_t *ch = json_array();

		for (size_t i = 0; i < n->nnotes; i++)
			json_array_append_new(ch, json_string(n->notes[i]));
		json_object_set_new(doc, "changes", ch);
		json_object_set_new(doc, "restarts",
		    json_integer((json_int_t)n->restarts));
		json_object_set_new(doc, "fixes", kv_json_fixed(n->fixed,
		    n->nfixed));
	} else {
		json_object_set_new(doc, "inputs", inputs_doc(n->inputs,
		    n->ninputs));
		json_object_set_new(doc, "warnings", lines_doc(n->warnings,
		    n->nwarnings));
	}
	json_object_set_new(doc, "nodes", nodes_doc(d));
	for (size_t i = 0; i < d->nclasses; i++)
		json_array_append_new(cls, json_pack("{s:s, s:s, s:o}", "kind",
		    d->classes[i].merged ? "merged" : "split",
		    d->classes[i].merged ? "after" : "before",
		    d->classes[i].one, d->classes[i].merged ? "before" :
		    "after", jstrs(&d->classes[i].many)));
	json_object_set_new(doc, "cpuClasses", cls);
	json_object_set_new(doc, "vmis", vmis_doc(d));
	json_object_set_new(doc, "vmisAdded", jstrs(&d->vmis_added));
	json_object_set_new(doc, "vmisRemoved", jstrs(&d->vmis_removed));
	json_object_set_new(doc, "drain", drains_doc(d));
	json_object_set_new(doc, "targetFolds", folds_doc(d));
	json_object_set_new(doc, "vmiCount", pair_int(d->nvmis_ab[0],
	    d->nvmis_ab[1]));
	json_object_set_new(doc, "groups", groups_doc(d));
	sum = json_object();
	for (int v = 0; v < V_COUNT; v++)
		json_object_set_new(sum, kv_verdict_names[v],
		    pair_int(d->verdicts[0][v], d->verdicts[1][v]));
	json_object_set_new(doc, "verdicts", sum);
	json_object_set_new(doc, "better",
	    json_integer((json_int_t)d->nbetter));
	json_object_set_new(doc, "worse", json_integer((json_int_t)d->nworse));
	json_object_set_new(doc, "cannotTell", untold_doc(d, n->notes != NULL,
	    n->words));
	return doc;
}

/* The flavor's word for n VMIs. */
static const char *
vms(const kv_diff_notes *n, size_t k)
{
	if (n->words == NULL)
		return k == 1 ? "VMI" : "VMIs";
	return k == 1 ? n->words->vm : n->words->vms;
}

static void
text_groups(const kv_term *t, const kv_diff *d, const kv_diff_notes *n)
{
	if (d->ngroups > 0)
		fputs("groups:\n", t->f);
	for (size_t i = 0; i < d->ngroups; i++) {
		const kv_diff_group *g = &d->groups[i];

		char *subject = kv_diff_subject(g);

		fprintf(t->f, "  %s %s (", g->vmis[0] == 0 ? "new" :
		    g->vmis[1] == 0 ? "resolved" : "changed", g->code);
		kv_term_puts(t->f, subject);
		fprintf(t->f, "): %zu -> %zu %s\n", g->vmis[0], g->vmis[1],
		    vms(n, 2));
		free(subject);
	}
}

static bool
in_list(const kv_strs *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

static void
put_list(const kv_term *t, const char *label, const kv_strs *s)
{
	kv_tlist l;

	if (s->n == 0)
		return;
	fprintf(t->f, "  %s", label);
	kv_tlist_begin(&l, t, 2 + strlen(label), 4, s->n, 3);
	for (size_t i = 0; i < s->n; i++)
		kv_tlist_add(&l, s->v[i]);
	kv_tlist_end(&l);
}

static void
text_node(const kv_term *t, const kv_diff_node *n)
{
	fputs("  ", t->f);
	kv_term_puts(t->f, n->name);
	fputs(":\n", t->f);
	if (n->host_model_changed) {
		fputs("    host model ", t->f);
		kv_term_puts(t->f, n->host_model[0] ? n->host_model[0] : "-");
		fputs(" -> ", t->f);
		kv_term_puts(t->f, n->host_model[1] ? n->host_model[1] : "-");
		fputs("\n", t->f);
	}
	if (n->vendor_changed) {
		fputs("    vendor ", t->f);
		kv_term_puts(t->f, n->vendor[0] ? n->vendor[0] : "-");
		fputs(" -> ", t->f);
		kv_term_puts(t->f, n->vendor[1] ? n->vendor[1] : "-");
		fputs("\n", t->f);
	}
	if (n->unsched[0] != n->unsched[1])
		fprintf(t->f, "    %s (spec.unschedulable %s -> %s)\n",
		    n->unsched[1] ? "cordoned" : "uncordoned",
		    n->unsched[0] ? "true" : "false",
		    n->unsched[1] ? "true" : "false");
	put_list(t, "  taints lost:", &n->taints_lost);
	put_list(t, "  taints gained:", &n->taints_gained);
	put_list(t, "  allocatable:", &n->alloc);
	put_list(t, "  features lost:", &n->lost);
	put_list(t, "  features gained:", &n->gained);
	put_list(t, "  CPU labels lost:", &n->labels_lost);
	put_list(t, "  CPU labels gained:", &n->labels_gained);
	put_list(t, "  labels lost:", &n->other_lost);
	put_list(t, "  labels gained:", &n->other_gained);
}

/* What changed of a node, in a few words ("cordoned", "tainted
 * K:NoSchedule", "labels changed"), or "unchanged"; the caller's. */
static char *
node_cause(const kv_diff *d, const char *name, bool gone)
{
	const kv_diff_node *n = kv_diff_node_of(d, name);
	kv_buf b = {0};

	if (gone)
		return xstrdup("removed");
	if (n == NULL)
		return xstrdup("unchanged");
	if (n->unsched[0] != n->unsched[1])
		kv_buf_printf(&b, "%s", n->unsched[1] ? "cordoned" :
		    "uncordoned");
	for (size_t i = 0; i < n->taints_gained.n; i++)
		if (n->unsched[0] == n->unsched[1] || !kv_startswith(
		    n->taints_gained.v[i], "node.kubernetes.io/unschedulable"))
			kv_buf_printf(&b, "%stainted %s", b.data ? ", " : "",
			    n->taints_gained.v[i]);
	for (size_t i = 0; i < n->taints_lost.n; i++)
		if (n->unsched[0] == n->unsched[1] || !kv_startswith(
		    n->taints_lost.v[i], "node.kubernetes.io/unschedulable"))
			kv_buf_printf(&b, "%staint %s removed", b.data ?
			    ", " : "", n->taints_lost.v[i]);
	if (n->alloc.n > 0)
		kv_buf_printf(&b, "%sallocatable %s", b.data ? ", " : "",
		    n->alloc.v[0]);
	if (n->lost.n > 0)
		kv_buf_printf(&b, "%slost CPU feature%s %s%s", b.data ? ", " :
		    "", n->lost.n == 1 ? "" : "s", n->lost.v[0],
		    n->lost.n > 1 ? " and more" : "");
	if (n->gained.n + n->labels_lost.n + n->labels_gained.n > 0 ||
	    n->host_model_changed || n->vendor_changed)
		kv_buf_printf(&b, "%sCPU labels changed", b.data ? ", " : "");
	if (n->other_lost.n + n->other_gained.n > 0)
		kv_buf_printf(&b, "%slabels changed", b.data ? ", " : "");
	return b.data ? b.data : xstrdup("unchanged");
}

/* "lost 1 target: gp-00002 cordoned"; the nodes of one cause
 * together, the first three of them named: "lost 5 targets: gpu-00002,
 * gpu-00003, gpu-00004 and 2 more cordoned". */
static void
fold_nodes(kv_buf *b, const kv_diff *d, const char *verb, const kv_strs *s,
    const kv_strs *gone)
{
	char **cause = xcalloc(s->n + 1, sizeof(char *));
	bool *done = xcalloc(s->n + 1, sizeof(bool));
	const char *sep = "";

	kv_buf_printf(b, "%s %zu target%s: ", verb, s->n, s->n == 1 ? "" :
	    "s");
	for (size_t i = 0; i < s->n; i++)
		cause[i] = node_cause(d, s->v[i], gone != NULL &&
		    in_list(gone, s->v[i]));
	for (size_t i = 0; i < s->n; i++) {
		size_t named = 0, more = 0;

		if (done[i])
			continue;
		kv_buf_printf(b, "%s", sep);
		for (size_t k = i; k < s->n; k++) {
			if (done[k] || strcmp(cause[k], cause[i]) != 0)
				continue;
			done[k] = true;
			if (named < 3)
				kv_buf_printf(b, "%s%s", named++ ? ", " : "",
				    s->v[k]);
			else
				more++;
		}
		if (more > 0)
			kv_buf_printf(b, " and %zu more", more);
		kv_buf_printf(b, " %s", cause[i]);
		sep = "; ";
	}
	for (size_t i = 0; i < s->n; i++)
		free(cause[i]);
	free(cause);
	free(done);
}

/* The folded VMIs, one line per fold: "2700 VMIs lost 1 target:
 * gp-00002 cordoned". */
static void
text_folds(const kv_term *t, const kv_diff *d, const kv_diff_notes *n)
{
	size_t total = 0;

	for (size_t i = 0; i < d->nfolds; i++)
		total += d->folds[i].nvmis;
	if (total == 0)
		return;
	fprintf(t->f, "targets changed, by cause (%zu %s, verdicts "
	    "unchanged):\n", total, vms(n, total));
	for (size_t i = 0; i < d->nfolds; i++) {
		const kv_diff_fold *x = &d->folds[i];
		kv_buf b = {0};

		kv_buf_printf(&b, "%zu %s ", x->nvmis, vms(n, x->nvmis));
		if (x->lost->n > 0)
			fold_nodes(&b, d, "lost", x->lost, &d->nodes_removed);
		if (x->gained->n > 0) {
			kv_buf_printf(&b, "%s", x->lost->n ? "; " : "");
			fold_nodes(&b, d, "gained", x->gained, NULL);
		}
		fputs("  ", t->f);
		kv_term_puts(t->f, b.data);
		fputs("\n", t->f);
		free(b.data);
	}
}

/* Whether a node of s (target nodes) changed or is gone. */
static bool
any_changed(const kv_diff *d, const kv_strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (kv_diff_node_of(d, s->v[i]) != NULL ||
		    in_list(&d->nodes_removed, s->v[i]))
			return true;
	return false;
}

/* ", lost 2 targets: w4, w5 cordoned" when a node it lost or gained
 * changed. */
static void
vmi_cause(const kv_term *t, const kv_diff *d, const kv_diff_vmi *v)
{
	kv_buf b = {0};

	if (any_changed(d, &v->tlost))
		fold_nodes(&b, d, ", lost", &v->tlost, &d->nodes_removed);
	if (any_changed(d, &v->tgained))
		fold_nodes(&b, d, ", gained", &v->tgained, NULL);
	if (b.data != NULL)
		kv_term_puts(t->f, b.data);
	free(b.data);
}

static void
text_vmi(const kv_term *t, const kv_diff *d, const kv_diff_vmi *v)
{
	FILE *f = t->f;

	fputs("  ", f);
	kv_term_puts(f, v->name);
	fputs(": ", f);
	kv_term_paint(t, kv_verdict_color(v->verdict[0]),
	    kv_verdict_names[v->verdict[0]]);
	fputs(" -> ", f);
	kv_term_paint(t, kv_verdict_color(v->verdict[1]),
	    kv_verdict_names[v->verdict[1]]);
	if (v->targets[0] != v->targets[1])
		fprintf(f, ", targets %zu -> %zu", v->targets[0],
		    v->targets[1]);
	if (v->drain[0] != v->drain[1])
		fprintf(f, ", drain %s -> %s", drain_name(v->drain[0]) ?
		    drain_name(v->drain[0]) : "-", drain_name(v->drain[1]) ?
		    drain_name(v->drain[1]) : "-");
	if (v->migration[0] != NULL && v->migration[1] != NULL &&
	    strcmp(v->migration[0], v->migration[1]) != 0)
		fprintf(f, ", migration %s -> %s", v->migration[0],
		    v->migration[1]);
	for (size_t i = 0; i < v->added.n; i++)
		fprintf(f, "%s+%s", i ? " " : " (", v->added.v[i]);
	for (size_t i = 0; i < v->removed.n; i++)
		fprintf(f, "%s-%s", i || v->added.n ? " " : " (",
		    v->removed.v[i]);
	fprintf(f, "%s%s%s", v->added.n + v->removed.n ? ")" : "",
	    v->nostart ? ", would not start: " : "", v->nostart ?
	    v->nostart : "");
	vmi_cause(t, d, v);
	fprintf(f, "%s\n", v->worse ? "  WORSE" : v->untold ?
	    "  CANNOT TELL" : "");
}

static void
text_untold(const kv_diff *d, const kv_diff_notes *n, const kv_term *t)
{
	if (d->nuntold > 0)
		fprintf(t->f, "  cannot tell for %zu %s:\n", d->nuntold,
		    vms(n, d->nuntold));
	for (int s = 0; s < 2; s++) {
		char *l = kv_diff_untold(d, s, n->notes != NULL, n->words);

		if (l != NULL) {
			fputs("    ", t->f);
			kv_term_puts(t->f, l);
			fputs("\n", t->f);
		}
		free(l);
	}
}

/* The VMI lines of one kind: worse (k 0), better (1), the rest (2). */
static void
text_vmis(const kv_term *t, const kv_diff *d, int k)
{
	for (size_t i = 0; i < d->nvmis; i++) {
		const kv_diff_vmi *v = &d->vmis[i];
		int kind = v->worse ? 0 : v->better ? 1 : 2;

		if (kind == k && !v->folded)
			text_vmi(t, d, v);
	}
}

/* The counts first: VMIs changed, better, worse, cannot tell, of how
 * many; nodes changed (cordoned), added, removed. */
static void
text_head(const kv_diff *d, const kv_diff_notes *n, const kv_term *t)
{
	FILE *f = t->f;
	size_t cordon = 0;
	bool whatif = n->notes != NULL;

	fprintf(f, "%s: %zu changed, %zu better, %zu worse", vms(n, 2),
	    d->nvmis, d->nbetter, d->nworse);
	if (d->nuntold > 0)
		fprintf(f, ", %zu cannot tell", d->nuntold);
	fprintf(f, "; %zu %s, %zu %s\n", d->nvmis_ab[0], whatif ?
	    "before" : "in old", d->nvmis_ab[1], whatif ? "after" : "in new");
	for (size_t i = 0; i < d->nnodes; i++)
		cordon += d->nodes[i].unsched[0] != d->nodes[i].unsched[1];
	if (d->nnodes + d->nodes_added.n + d->nodes_removed.n > 0)
		fprintf(f, "nodes: %zu changed (%zu cordoned or uncordoned), "
		    "%zu added, %zu removed\n", d->nnodes, cordon,
		    d->nodes_added.n, d->nodes_removed.n);
	text_untold(d, n, t);
}

/* what-if's first line: "after every fix: 12 of 9613 would not migrate,
 * 0 worse" (the running VMIs of the snapshot after). */
static void
text_after(const kv_diff *d, const kv_diff_notes *n, const kv_term *t)
{
	size_t bad = 0, running = 0;

	for (int v = 0; v < V_COUNT; v++) {
		bad += kv_verdict_fails(v) ? d->verdicts[1][v] : 0;
		running += v != V_NOT_RUNNING ? d->verdicts[1][v] : 0;
	}
	fprintf(t->f, "after %s: %zu of %zu %s would not migrate, %zu worse",
	    n->fix_all ? "every fix" : "the changes", bad, running,
	    vms(n, running), d->nworse);
	if (d->verdicts[1][V_NOT_JUDGED] > 0)
		fprintf(t->f, ", %zu not judged", d->verdicts[1][V_NOT_JUDGED]);
	fputc('\n', t->f);
}

/* WORSE, then BETTER, each with its count. */
static void
text_verdicts(const kv_diff *d, const kv_diff_notes *n, const kv_term *t)
{
	if (d->nworse > 0) {
		fprintf(t->f, "WORSE (%zu %s):\n", d->nworse,
		    vms(n, d->nworse));
		text_vmis(t, d, 0);
	}
	if (d->nbetter > 0) {
		fprintf(t->f, "BETTER (%zu %s):\n", d->nbetter,
		    vms(n, d->nbetter));
		text_vmis(t, d, 1);
	}
}

static void
text_nodes(const kv_diff *d, const kv_term *t)
{
	if (d->nodes_added.n + d->nodes_removed.n + d->nnodes > 0)
		fputs("node changes:\n", t->f);
	put_list(t, "added:", &d->nodes_added);
	put_list(t, "removed:", &d->nodes_removed);
	for (size_t i = 0; i < d->nnodes; i++)
		text_node(t, &d->nodes[i]);
}

static void
text_sections(const kv_diff *d, const kv_diff_notes *n, const kv_term *t)
{
	FILE *f = t->f;
	size_t other = d->nvmis - d->nworse - d->nbetter;

	text_folds(t, d, n);
	for (size_t i = 0; i < d->nfolds; i++)
		other -= d->folds[i].nvmis;
	if (other > 0) {
		fprintf(f, "other changes (%zu %s):\n", other, vms(n, other));
		text_vmis(t, d, 2);
	}
	put_list(t, "added:", &d->vmis_added);
	put_list(t, "removed:", &d->vmis_removed);
	text_nodes(d, t);
	if (d->nclasses > 0)
		fputs("CPU classes:\n", f);
	for (size_t i = 0; i < d->nclasses; i++) {
		const kv_diff_class *c = &d->classes[i];

		fprintf(f, "  %s %s: ", c->merged ? "merged into" : "split",
		    c->one);
		for (size_t k = 0; k < c->many.n; k++)
			fprintf(f, "%s%s", k ? ", " : "", c->many.v[k]);
		fprintf(f, " %s\n", c->merged ? "(before)" : "(after)");
	}
	text_groups(t, d, n);
	if (d->ndrains > 0)
		fputs("drains (migrate/block/shutdown):\n", f);
	for (size_t i = 0; i < d->ndrains; i++) {
		const kv_diff_drain *x = &d->drains[i];

		fputs("  ", f);
		kv_term_puts(f, x->node);
		fprintf(f, ": %zu/%zu/%zu -> %zu/%zu/%zu\n", x->migrate[0],
		    x->block[0], x->shutdown[0], x->migrate[1], x->block[1],
		    x->shutdown[1]);
	}
}

int
kv_view_diff(const kv_diff *d, const kv_diff_notes *n, const kv_term *t,
    kv_err *err)
{
	FILE *f = t->f;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML) {
		json_t *doc = kv_json_diff(d, n);
		int rc = kv_doc_write(doc, t->fmt, f, err);

		json_decref(doc);
		return rc;
	}
	for (size_t i = 0; i < n->ninputs; i++) {
		kv_term_puts(f, n->inputs[i].line);
		fputs("\n", f);
	}
	for (size_t i = 0; i < n->nwarnings; i++) {
		fputs("warning: ", f);
		kv_term_puts(f, n->warnings[i]);
		fputs("\n", f);
	}
	if (n->notes != NULL)
		text_after(d, n, t);
	text_head(d, n, t);
	text_verdicts(d, n, t);
	if (n->notes != NULL) {
		fputs("changes:\n", f);
		for (size_t i = 0; i < n->nnotes; i++) {
			fputs("  ", f);
			kv_term_puts(f, n->notes[i]);
			fputs("\n", f);
		}
		fprintf(f, "restarts: %zu running %s\n", n->restarts,
		    vms(n, n->restarts));
	}
	text_sections(d, n, t);
	fputs(d->worse ? "result: worse" : "result: nothing gets worse", f);
	if (d->nuntold > 0)
		fprintf(f, " (cannot tell for %zu %s)", d->nuntold,
		    vms(n, d->nuntold));
	fputs("\n", f);
	if (fflush(f) != 0 || ferror(f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}

int
kv_write_diff_json(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_report_diff *rd = arg;
	json_t *doc = kv_json_diff(rd->d, rd->notes);
	int rc = kv_doc_write(doc, KV_OUT_JSON, f, err);

	(void)a;
	json_decref(doc);
	return rc;
}
