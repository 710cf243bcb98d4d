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

static json_t *
nodes_doc(const kv_diff *d)
{
	json_t *changed = json_array();

	for (size_t i = 0; i < d->nnodes; i++) {
		const kv_diff_node *n = &d->nodes[i];

		json_array_append_new(changed, json_pack("{s:s, s:o, s:o, "
		    "s:o, s:o, s:o, s:o}", "name", n->name, "featuresLost",
		    jstrs(&n->lost), "featuresGained", jstrs(&n->gained),
		    "labelsLost", jstrs(&n->labels_lost), "labelsGained",
		    jstrs(&n->labels_gained), "hostModel",
		    pair_str(n->host_model[0], n->host_model[1]), "vendor",
		    pair_str(n->vendor[0], n->vendor[1])));
	}
	return json_pack("{s:o, s:o, s:o}", "added", jstrs(&d->nodes_added),
	    "removed", jstrs(&d->nodes_removed), "cpuChanged", changed);
}

static json_t *
vmis_doc(const kv_diff *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->nvmis; i++) {
		const kv_diff_vmi *v = &d->vmis[i];

		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o, s:o, "
		    "s:o, s:s?, s:b, s:b}", "name", v->name, "verdict",
		    pair_str(kv_verdict_names[v->verdict[0]],
		    kv_verdict_names[v->verdict[1]]), "targetCount",
		    pair_int(v->targets[0], v->targets[1]), "onDrain",
		    pair_str(drain_name(v->drain[0]), drain_name(v->drain[1])),
		    "codesAdded", jstrs(&v->added), "codesRemoved",
		    jstrs(&v->removed), "wouldNotStart", v->nostart,
		    "worse", v->worse, "cannotTell", v->untold));
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
	put_list(t, "  features lost:", &n->lost);
	put_list(t, "  features gained:", &n->gained);
	put_list(t, "  labels lost:", &n->labels_lost);
	put_list(t, "  labels gained:", &n->labels_gained);
}

static void
text_vmi(const kv_term *t, const kv_diff_vmi *v)
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
	for (size_t i = 0; i < v->added.n; i++)
		fprintf(f, "%s+%s", i ? " " : " (", v->added.v[i]);
	for (size_t i = 0; i < v->removed.n; i++)
		fprintf(f, "%s-%s", i || v->added.n ? " " : " (",
		    v->removed.v[i]);
	fprintf(f, "%s%s%s%s\n", v->added.n + v->removed.n ? ")" : "",
	    v->nostart ? ", would not start: " : "", v->nostart ?
	    v->nostart : "", v->worse ? "  WORSE" : v->untold ?
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

static void
text_sections(const kv_diff *d, const kv_diff_notes *n, const kv_term *t)
{
	FILE *f = t->f;

	if (d->nodes_added.n + d->nodes_removed.n + d->nnodes > 0)
		fputs("nodes:\n", f);
	put_list(t, "added:", &d->nodes_added);
	put_list(t, "removed:", &d->nodes_removed);
	for (size_t i = 0; i < d->nnodes; i++)
		text_node(t, &d->nodes[i]);
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
	fprintf(f, "%s: %zu changed, %zu better, %zu worse", vms(n, 2),
	    d->nvmis, d->nbetter, d->nworse);
	if (d->nuntold > 0)
		fprintf(f, ", %zu cannot tell", d->nuntold);
	fputs("\n", f);
	text_untold(d, n, t);
	for (size_t i = 0; i < d->nvmis; i++)
		text_vmi(t, &d->vmis[i]);
	put_list(t, "added:", &d->vmis_added);
	put_list(t, "removed:", &d->vmis_removed);
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
