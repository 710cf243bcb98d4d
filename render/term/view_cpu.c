/*
 * view_cpu.c - the CPU engine's tables: `models` (named CPU models common
 * to a set of nodes, best first, and the better ones a node rules out)
 * and `pairs` (CPU classes and the host-model migration matrix); view.h.
 */
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report.h"
#include "render/view.h"

/* Lines a node list may take before "... and N more" (without --all). */
#define LIST_LINES 3

typedef struct ranked {
	const kv_named *nm;
	size_t on;		/* chosen nodes that can run it */
	bool common;		/* on every chosen node, not obsolete */
	bool better;		/* on some, ranked above the best common */
} ranked;

static int
rank_cmp(const void *x, const void *y)
{
	const kv_named *p = ((const ranked *)x)->nm;
	const kv_named *q = ((const ranked *)y)->nm;
	int lp = p->info ? p->info->level : -1;
	int lq = q->info ? q->info->level : -1;
	size_t fp = p->info ? p->info->nfeatures_novmx : 0;
	size_t fq = q->info ? q->info->nfeatures_novmx : 0;

	if (lp != lq)
		return lp > lq ? -1 : 1;
	if (fp != fq)
		return fp > fq ? -1 : 1;
	return strcmp(p->model, q->model);
}

static bool
obsolete(const kv_analysis *a, const char *model)
{
	return bsearch(&model, a->cfg.obsolete, a->cfg.nobsolete,
	    sizeof(char *), kv_strptrcmp) != NULL;
}

/* The named models ranked best first, with what the view shows of each
 * (the caller frees the array). */
static ranked *
rank_models(const kv_analysis *a, const kv_bits *chosen)
{
	size_t nchosen = kv_bits_count(chosen), best = SIZE_MAX;
	ranked *rk = xcalloc(a->nnamed + 1, sizeof(ranked));

	for (size_t i = 0; i < a->nnamed; i++) {
		rk[i].nm = &a->named[i];
		for (size_t j = 0; j < a->named[i].nnodes; j++)
			rk[i].on += kv_bits_test(chosen, a->named[i].nodes[j]);
	}
	kv_qsort(rk, a->nnamed, sizeof(ranked), rank_cmp);
	for (size_t i = 0; i < a->nnamed; i++) {
		bool ob = obsolete(a, rk[i].nm->model);

		rk[i].common = nchosen > 0 && rk[i].on == nchosen && !ob;
		if (rk[i].common && best == SIZE_MAX)
			best = i;
		rk[i].better = rk[i].on != nchosen && rk[i].on != 0 && !ob &&
		    (best == SIZE_MAX || i < best);
	}
	return rk;
}

static void
model_row(const kv_term *t, const kv_named *nm)
{
	const cpudb_model *cm = nm->info;
	size_t len = kv_term_strwidth(nm->model);

	fputs("  ", t->f);
	kv_term_puts(t->f, nm->model);
	fprintf(t->f, "%*s", len < 33 ? (int)(33 - len) : 1, "");
	if (cm == NULL)
		fprintf(t->f, "%-5s %-4s %-7s %s\n", "?", "?", "?",
		    "(unknown model)");
	else
		fprintf(t->f, "v%-4d %-4s %-7s %s\n", cm->level,
		    cm->avx2 ? "yes" : "no", cm->avx512f ? "yes" : "no",
		    cm->vendor ? cm->vendor : "-");
}

static bool
runs_on(const kv_named *nm, size_t n)
{
	for (size_t j = 0; j < nm->nnodes; j++)
		if (nm->nodes[j] == n)
			return true;
	return false;
}

static void
ruled_out(const kv_analysis *a, const kv_bits *chosen, const ranked *rk,
    const kv_term *t)
{
	kv_tlist l;
	size_t k = kv_bits_count(chosen) - rk->on;

	fprintf(t->f, "  %-32s ruled out by", "");
	kv_tlist_begin(&l, t, 47, 35, k, LIST_LINES);
	KV_BITS_FOREACH(chosen, n)
		if (!runs_on(rk->nm, n))
			kv_tlist_add(&l, a->m->nodes[n].name);
	kv_tlist_end(&l);
}

static int
models_doc(const kv_analysis *a, const kv_bits *chosen, const ranked *rk,
    const kv_term *t, kv_err *err)
{
	json_t *doc = json_object(), *nodes = json_array();
	json_t *common = json_array(), *better = json_array();
	int rc;

	KV_BITS_FOREACH(chosen, n)
		json_array_append_new(nodes, json_string(a->m->nodes[n].name));
	for (size_t i = 0; i < a->nnamed; i++) {
		json_t *o = kv_json_named_model(a, (size_t)(rk[i].nm -
		    a->named)), *by;

		if (rk[i].common) {
			json_array_append_new(common, o);
			continue;
		}
		if (!rk[i].better) {
			json_decref(o);
			continue;
		}
		by = json_array();
		KV_BITS_FOREACH(chosen, n)
			if (!runs_on(rk[i].nm, n))
				json_array_append_new(by,
				    json_string(a->m->nodes[n].name));
		json_object_set_new(o, "ruledOutBy", by);
		json_array_append_new(better, o);
	}
	json_object_set_new(doc, "kind", json_string("kvscope-models"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(doc, "nodes", nodes);
	json_object_set_new(doc, "common", common);
	json_object_set_new(doc, "better", better);
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

/* "(none)" and why: chosen nodes without the node labeller's CPU labels
 * (not KubeVirt nodes: a control plane a selector caught) run no model
 * anyone knows of; else no model runs on every node. */
static void
none_why(const kv_analysis *a, const kv_bits *chosen, const kv_term *t)
{
	size_t nbare = 0, said = 0;
	kv_buf b = {0};

	KV_BITS_FOREACH(chosen, n)
		nbare += !a->nodes[n].kubevirt;
	if (nbare == 0) {
		fputs("  (none): no named model runs on every chosen node; "
		    "below, the nodes that rule out each\n", t->f);
		return;
	}
	kv_buf_printf(&b, "(none): %zu chosen %s no CPU labels of KubeVirt's "
	    "node labeller (no KubeVirt %s), so no model is known to run "
	    "there; choose KubeVirt nodes only (-l %sschedulable=true):",
	    nbare, nbare == 1 ? "node has" : "nodes have",
	    nbare == 1 ? "node" : "nodes", a->cfg.kv_prefix);
	KV_BITS_FOREACH(chosen, n)
		if (!a->nodes[n].kubevirt && said++ < 8)
			kv_buf_printf(&b, " %s", a->m->nodes[n].name);
	if (nbare > 8)
		kv_buf_printf(&b, " ... and %zu more", nbare - 8);
	fputs("  ", t->f);
	kv_term_wrap(t, 2, 4, b.data);
	fputc('\n', t->f);
	kv_buf_free(&b);
}

int
kv_view_models(const kv_analysis *a, const kv_bits *chosen,
    const kv_term *t, kv_err *err)
{
	size_t nchosen = kv_bits_count(chosen), ncommon = 0;
	ranked *rk = rank_models(a, chosen);
	kv_tlist l;
	int rc = KV_OK;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML) {
		rc = models_doc(a, chosen, rk, t, err);
		free(rk);
		return rc;
	}
	fprintf(t->f, "%zu node%s:", nchosen, nchosen == 1 ? "" : "s");
	kv_tlist_begin(&l, t, 8, 2, nchosen, LIST_LINES);
	KV_BITS_FOREACH(chosen, n)
		kv_tlist_add(&l, a->m->nodes[n].name);
	kv_tlist_end(&l);
	fprintf(t->f, "\ncommon named models, best first:\n  %-32s %-5s "
	    "%-4s %-7s %s\n", "MODEL", "LEVEL", "AVX2", "AVX-512", "VENDOR");
	for (size_t i = 0; i < a->nnamed; i++)
		if (rk[i].common) {
			model_row(t, rk[i].nm);
			ncommon++;
		}
	if (ncommon == 0)
		none_why(a, chosen, t);
	fprintf(t->f, "\nbetter models some chosen node rules out:\n");
	for (size_t i = 0; i < a->nnamed; i++)
		if (rk[i].better) {
			model_row(t, rk[i].nm);
			ruled_out(a, chosen, &rk[i], t);
		}
	free(rk);
	if (ferror(t->f))
		rc = kv_seterr(err, "stdout: write error");
	return rc;
}

static void
print_classes(const kv_analysis *a, const kv_term *t)
{
	fprintf(t->f, "CPU classes:\n");
	for (size_t i = 0; i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];
		char head[96], lv[24] = "x86-64 level unknown";
		kv_tlist l;

		fprintf(t->f, "  %-4s %-6s ", c->id,
		    c->vendor ? c->vendor : "-");
		kv_term_puts(t->f, c->host_model ? c->host_model : "-");
		if (c->level >= 0)	/* -1: the labels cannot say */
			snprintf(lv, sizeof(lv), "x86-64-v%d", c->level);
		snprintf(head, sizeof(head), " (%s%s%s):", lv,
		    c->avx2 ? ", AVX2" : "", c->avx512f ? ", AVX-512" : "");
		fputs(head, t->f);
		kv_tlist_begin(&l, t, 14 + strlen(head) + kv_term_strwidth(
		    c->host_model ? c->host_model : "-"), 7, c->nnodes,
		    LIST_LINES);
		for (size_t k = 0; k < c->nnodes; k++)
			kv_tlist_add(&l, a->m->nodes[c->nodes[k]].name);
		kv_tlist_end(&l);
	}
}

static void
print_matrix(const kv_analysis *a, const kv_term *t)
{
	fprintf(t->f, "\nhost-model migration (row = source, column = target; "
	    "ok, or the number of missing labels):\n     ");
	for (size_t c = 0; c < a->nclasses; c++)
		fprintf(t->f, " %5s", a->classes[c].id);
	fprintf(t->f, "\n");
	for (size_t s = 0; s < a->nclasses; s++) {
		fprintf(t->f, "  %-4s", a->classes[s].id);
		for (size_t c = 0; c < a->nclasses; c++) {
			const kv_pair *p = &a->pairs[s * a->nclasses + c];

			if (p->ok)
				fprintf(t->f, " %5s", "ok");
			else
				fprintf(t->f, " %5zu", p->nmissing);
		}
		fprintf(t->f, "\n");
	}
}

/* Why a class is refused to itself (prose_self_refused). */
static void
self_refused(const kv_analysis *a, const kv_pair *p, const kv_term *t)
{
	char *s = prose_self_refused(a, p);

	fputs("    ", t->f);
	kv_term_wrap(t, 4, 4, s);
	fputc('\n', t->f);
	free(s);
}

static void
print_refused(const kv_analysis *a, const kv_term *t)
{
	fprintf(t->f, "\nrefused pairs:\n");
	for (size_t i = 0; i < a->npairs; i++) {
		const kv_pair *p = &a->pairs[i];
		kv_tlist l;
		int col;

		if (p->ok)
			continue;
		col = fprintf(t->f, "  %s -> %s:", a->classes[p->src].id,
		    a->classes[p->tgt].id);
		if (p->nmissing == 0) {
			fprintf(t->f, " source has no host-model label\n");
			continue;
		}
		kv_tlist_begin(&l, t, (size_t)col, 4, p->nmissing, LIST_LINES);
		for (size_t k = 0; k < p->nmissing; k++)
			kv_tlist_add(&l, p->missing[k]);
		kv_tlist_end(&l);
		if (p->src == p->tgt)
			self_refused(a, p, t);
	}
}

static int
pairs_doc(const kv_analysis *a, const kv_term *t, kv_err *err)
{
	json_t *doc = json_object(), *cls = json_array(), *prs = json_array();
	int rc;

	for (size_t i = 0; i < a->nclasses; i++)
		json_array_append_new(cls, kv_json_cpu_class(a, i));
	for (size_t i = 0; i < a->npairs; i++)
		json_array_append_new(prs, kv_json_host_model_pair(a, i));
	json_object_set_new(doc, "kind", json_string("kvscope-pairs"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(doc, "cpuClasses", cls);
	json_object_set_new(doc, "hostModelPairs", prs);
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

int
kv_view_pairs(const kv_analysis *a, const kv_term *t, kv_err *err)
{
	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return pairs_doc(a, t, err);
	print_classes(a, t);
	print_matrix(a, t);
	print_refused(a, t);
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
