/*
 * pdf_cpu.c - the PDF's CPU sections (pdf.h): the CPU classes with their
 * migration matrix (in tiles when it is wider or taller than a page) and
 * the refused pairs (both over any matrix view: crosscheck's report
 * draws them too), the named models common to the nodes, and the
 * trade-off between a model's reach and what it gives the guest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/pdf/pdf.h"

#define W(w)		kv_word(a, KV_WORD_##w)
#define CLASS_LINES	16	/* of a class's features, by default */

void
pdf_matrix(pdoc *d, const kv_mview *v)
{
	const kv_analysis *a = d->a;
	size_t n = v->row.n > v->col.n ? v->row.n : v->col.n;
	double lw, hh, cell, over;
	double *w = xcalloc(n + 1, sizeof(double));
	size_t *bands = xcalloc(n + 1, sizeof(size_t));
	size_t *rows = xcalloc(n + 1, sizeof(size_t));
	size_t nb, nr;
	bool skip;

	fig_matrix_metrics(a, d->t, v, &lw, &hh, &cell);
	for (size_t i = 0; i < n; i++)
		w[i] = cell;
	/* 6 pt of figure padding on each side */
	nb = kv_band(w, v->col.n, lw + 12, CW, bands);
	/* title, axis, column heads, legend and notes around the cells: the
	 * height of a tile without rows, and the figure's own spacing */
	{
		kv_fig *empty = fig_matrix(a, d->t, v, 0, 0, 0, 0);

		over = empty->h + 10;
		fig_free(empty);
	}
	nr = kv_paginate(w, v->row.n, pdf_room(d) - over, BOTTOM - TOP - over,
	    0, rows, &skip);
	if (skip)
		pdf_new_page(d);
	for (size_t b = 0; b < nb; b++)
		for (size_t r = 0; r < nr; r++) {
			size_t c0 = bands[b], c1 = b + 1 < nb ? bands[b + 1] :
			    v->col.n;
			size_t r0 = rows[r], r1 = r + 1 < nr ? rows[r + 1] :
			    v->row.n;

			if (b + r > 0)
				pdf_new_page(d);
			pdf_figure_scaled(d, fig_matrix(a, d->t, v, r0, r1,
			    c0, c1), false, nb == 1 && nr == 1 ? 1.4 : 1.0);
		}
	pdf_para_own(d, xasprintf("Rows: the class a host-model %s runs on; "
	    "columns: the class of a candidate target node. A cell is ok, or "
	    "shows how many node labels the target lacks; the table below "
	    "names them for every refused pair.%s", W(VM), v->aggregated ?
	    " Classes beyond the first 199 are aggregated into one row and "
	    "column." : ""), FONT_REGULAR, SMALL, COL_MUTED);
	free(w);
	free(bands);
	free(rows);
}

static bool
same_missing(const kv_pair *p, const kv_pair *q)
{
	if (p->nmissing != q->nmissing)
		return false;
	for (size_t k = 0; k < p->nmissing; k++)
		if (strcmp(p->missing[k], q->missing[k]) != 0)
			return false;
	return true;
}

/* The missing labels of p, those of one prefix written once:
 * "cpu-feature.node.kubevirt.io/{avx512bw, avx512f}", a lone one whole
 * (the keys are sorted, so a prefix's labels are adjacent). */
static char *
label_list(const kv_pair *p)
{
	kv_buf b = {0};

	for (size_t k = 0; k < p->nmissing;) {
		const char *key = p->missing[k], *slash = strrchr(key, '/');
		size_t plen = slash ? (size_t)(slash - key) + 1 : 0, e = k + 1;

		while (plen > 0 && e < p->nmissing &&
		    strncmp(p->missing[e], key, plen) == 0 &&
		    strchr(p->missing[e] + plen, '/') == NULL)
			e++;
		if (b.len)
			kv_buf_append(&b, "; ", 2);
		if (e - k == 1)
			kv_buf_printf(&b, "%s", key);
		else {
			kv_buf_printf(&b, "%.*s{", (int)plen, key);
			for (size_t j = k; j < e; j++)
				kv_buf_printf(&b, "%s%s", j > k ? ", " : "",
				    p->missing[j] + plen);
			kv_buf_append(&b, "}", 1);
		}
		k = e;
	}
	return b.data != NULL ? b.data : xstrdup("");
}

/* Every refused class pair of v's rows and columns with the labels the
 * target lacks, printed (paper has no tooltips): one row per source
 * class and list of missing labels, naming the target classes that lack
 * exactly those. */
void
pdf_refused_pairs(pdoc *d, const kv_mview *v)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "#", 0.05, true }, { "Source \u2192 targets", 0.25, false },
		{ "Labels the targets lack", 0.7, false },
	};
	size_t nc = a->nclasses, ncol = v->col.ncls, n = 0;
	bool *done = xcalloc(ncol + 1, sizeof(bool));
	ptable t;

	pdf_tbl_init(&t, cols, 3);
	t.size = DENSE;
	t.pad = DENSE_PAD + 0.5;
	for (size_t r = 0; r < v->row.ncls; r++) {
		size_t s = mview_class(&v->row, r);

		memset(done, 0, ncol * sizeof(bool));
		for (size_t k = 0; k < ncol; k++) {
			size_t c = mview_class(&v->col, k);
			const kv_pair *p = &a->pairs[s * nc + c];
			kv_buf b = {0};
			pcell *row;

			if (p->ok || done[k])
				continue;
			kv_buf_printf(&b, "%s \u2192 %s", a->classes[s].id,
			    a->classes[c].id);
			for (size_t o = k + 1; o < ncol; o++) {
				size_t oc = mview_class(&v->col, o);

				if (!a->pairs[s * nc + oc].ok && !done[o] &&
				    same_missing(p, &a->pairs[s * nc + oc])) {
					done[o] = true;
					kv_buf_printf(&b, ", %s",
					    a->classes[oc].id);
				}
			}
			row = pdf_tbl_row(&t);
			pdf_cell(&row[0], xasprintf("%zu", ++n), FONT_REGULAR,
			    COL_MUTED);
			pdf_cell(&row[1], b.data, FONT_BOLD, COL_INK);
			pdf_cell(&row[2], p->nmissing ? label_list(p) :
			    xstrdup("the source class has no host-model CPU"),
			    FONT_MONO, COL_INK);
		}
	}
	free(done);
	if (n == 0) {
		pdf_tbl_free(&t);
		return;
	}
	pdf_heading2(d, "Refused pairs and the labels they lack");
	pdf_tbl_emit(d, &t);
}

void
pdf_sec_classes(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Class", 0.07, false }, { "Vendor", 0.08, false },
		{ "Host model", 0.18, false }, { "Level", 0.07, true },
		{ "Required features", 0.38, false }, { "Nodes", 0.22, false },
	};
	ptable t;
	char *note;

	pdf_heading1_room(d, d->sections[PS_CLASSES], FIG_ROOM);
	pdf_answer(d, prose_matrix(a));
	pdf_para(d, prose_matrix_howto(), FONT_REGULAR, BODY, COL_INK);
	if (a->nclasses == 0)
		return;
	if ((note = prose_aggregated(a)) != NULL)
		pdf_para_own(d, note, FONT_REGULAR, BODY, COL_WARN);
	pdf_matrix(d, &d->mv);
	pdf_refused_pairs(d, &d->mv);
	pdf_heading2(d, "The classes and their nodes");
	pdf_tbl_init(&t, cols, 6);
	if (!d->all)	/* a row never leaves most of a page empty */
		t.max_lines = CLASS_LINES;
	for (size_t i = 0; i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];
		pcell *row = pdf_tbl_row(&t);
		char *names = node_list(a, c->nodes, c->nnodes, d->all ? 30 :
		    12);

		pdf_cellc(&row[0], c->id);
		pdf_cellc(&row[1], c->vendor ? c->vendor : SYM_NONE);
		pdf_cellc(&row[2], c->host_model ? c->host_model :
		    "(no host model)");
		pdf_cell(&row[3], c->level >= 0 ? xasprintf("v%d", c->level) :
		    xstrdup(SYM_NONE), FONT_REGULAR, COL_INK);
		if (c->nreq)	/* each feature whole */
			pdf_cell_names(&row[4], (const char *const *)c->req,
			    c->nreq, c->nreq, FONT_MONO);
		else
			pdf_cell(&row[4], xstrdup(SYM_NONE), FONT_MONO,
			    COL_INK);
		pdf_cell(&row[5], xasprintf("%zu: %s", c->nnodes, names),
		    FONT_REGULAR, COL_INK);
		free(names);
	}
	pdf_tbl_emit(d, &t);
}

void
pdf_sec_models(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol scols[] = {
		{ "Scope", 0.14, false }, { "Nodes", 0.08, true },
		{ "Best common models", 0.24, false },
		{ "All common models", 0.54, false },
	};
	static const pcol mcols[] = {
		{ "Model", 0.25, false }, { "Vendor", 0.08, false },
		{ "Level", 0.07, true }, { "AVX2", 0.07, false },
		{ "AVX-512", 0.09, false }, { "Nodes", 0.07, true },
		{ "Runs on", 0.37, false },
	};
	const char *rule = prose_vendor_rule(a);
	ptable t;

	pdf_heading1(d, d->sections[PS_MODELS]);
	pdf_answer(d, prose_named(a));
	if (rule != NULL)
		pdf_boxed(d, rule);
	pdf_tbl_init(&t, scols, 4);
	for (size_t i = 0; i < a->nscopes; i++) {
		const kv_scope *sc = &a->scopes[i];
		pcell *row = pdf_tbl_row(&t);

		pdf_cell_label(&row[0], sc->name);
		pdf_cell(&row[1], xasprintf("%zu", sc->nnodes), FONT_REGULAR,
		    COL_INK);
		pdf_cell_names(&row[2], (const char *const *)sc->best,
		    sc->nbest, PDF_MODELS, FONT_MONO);
		pdf_cell_names(&row[3], (const char *const *)sc->common,
		    sc->ncommon, PDF_MODELS, FONT_MONO);
	}
	pdf_tbl_emit(d, &t);
	pdf_heading2(d, "Every usable named model");
	pdf_tbl_init(&t, mcols, 7);
	t.size = DENSE;
	t.pad = DENSE_PAD;
	if (!d->all)
		t.max_lines = 2;
	for (size_t i = 0; i < a->nnamed; i++) {
		const kv_named *nm = &a->named[i];
		const cpudb_model *cm = nm->info;
		pcell *row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xstrdup(nm->model), FONT_MONO, COL_INK);
		pdf_cellc(&row[1], cm ? cm->vendor ? cm->vendor : SYM_NONE :
		    "unknown");
		pdf_cell(&row[2], cm ? xasprintf("v%d", cm->level) :
		    xstrdup(SYM_NONE), FONT_REGULAR, COL_INK);
		pdf_cellc(&row[3], cm ? cm->avx2 ? "yes" : "no" : SYM_NONE);
		pdf_cellc(&row[4], cm ? cm->avx512f ? "yes" : "no" : SYM_NONE);
		pdf_cell(&row[5], xasprintf("%zu", nm->nnodes), FONT_REGULAR,
		    COL_INK);
		pdf_cell_nodes(&row[6], a, nm->nodes, nm->nnodes, 12);
	}
	pdf_tbl_emit(d, &t);
}

void
pdf_sec_tradeoff(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Scope", 0.14, false }, { "Tier", 0.1, false },
		{ "Nodes", 0.09, true },
		{ "Models reaching them", 0.45, false },
		{ "Nodes left out", 0.22, false },
	}, gcols[] = {	/* a guest OS needs x86-64-v2 or more */
		{ "Scope", 0.12, false }, { "Tier", 0.1, false },
		{ "Nodes", 0.08, true },
		{ "Models reaching them", 0.33, false },
		{ "Nodes left out", 0.17, false },
		{ "Guests it is too old for", 0.2, false },
	};
	const char *rule = prose_vendor_rule(a);
	ptable t;
	size_t above[5];
	bool guests;

	pdf_heading1_room(d, d->sections[PS_TRADEOFF], FIG_ROOM);
	pdf_answer(d, prose_tradeoff(a));
	pdf_para(d, prose_tradeoff_howto(), FONT_REGULAR, BODY, COL_INK);
	if (rule != NULL)
		pdf_boxed(d, rule);
	pdf_figure(d, fig_tradeoff(a, d->t), true);
	guest_floor_counts(a, above);
	guests = above[1] > 0;
	pdf_tbl_init(&t, guests ? gcols : cols, guests ? 6 : 5);
	for (size_t i = 0; i < a->ntradeoff; i++) {
		const kv_tradeoff *tr = &a->tradeoff[i];
		pcell *row = pdf_tbl_row(&t);
		char *g;

		pdf_cell_label(&row[0], a->scopes[tr->scope].name);
		pdf_cellc(&row[1], tr->tier);
		pdf_cell(&row[2], xasprintf("%zu of %zu", tr->nodes, tr->of),
		    FONT_REGULAR, COL_INK);
		pdf_cell_names(&row[3], (const char *const *)tr->models,
		    tr->nmodels, PDF_MODELS, FONT_MONO);
		if (tr->nexcluded)
			pdf_cell_nodes(&row[4], a, tr->excluded, tr->nexcluded,
			    12);
		else
			pdf_cellc(&row[4], SYM_NONE);
		if (guests && (g = tradeoff_guests(a, tr, above)) != NULL)
			pdf_cell(&row[5], g, FONT_BOLD, COL_WARN);
		else if (guests)
			pdf_cellc(&row[5], SYM_NONE);
	}
	pdf_tbl_emit(d, &t);
}
