/*
 * pdf.c - the typeset PDF report (kv_write_pdf, render.h).
 *
 * cairo PDF surface, pango text (plain text and attribute lists, never
 * markup), A4 portrait.  The document: a title page with the snapshot's
 * facts and the headline, a table of contents, then one section per page
 * group in the HTML's order, each with a running header (cluster, section)
 * and footer (snapshot date, "page n of N").  Tables break across pages
 * and repeat their header row; figures are the shape lists of figures.c,
 * drawn as vectors (the class matrix in tiles when it is wider or taller
 * than a page).
 *
 * Two passes: the first lays out the body without drawing, to learn the
 * page of every heading and the page count; the second draws the title
 * page, the contents (now with page numbers) and the body.  The body
 * starts on a fresh page after the contents, so its layout does not depend
 * on them.  Row heights measured in the first pass are reused in the
 * second.  Dates come from report_date(), so the same snapshot gives the
 * same bytes.
 *
 * This file holds the title page and the sections; typeset.c the pages,
 * paragraphs, tables and figures they are made of (pdf.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/pdf/pdf.h"

#define W(w)		kv_word(a, KV_WORD_##w)
static void
matrix(pdoc *d)
{
	const kv_analysis *a = d->a;
	double lw, hh, cell, over;
	double *w = xcalloc(d->mv.n + 1, sizeof(double));
	size_t *bands = xcalloc(d->mv.n + 1, sizeof(size_t));
	size_t *rows = xcalloc(d->mv.n + 1, sizeof(size_t));
	size_t nb, nr;
	bool skip;

	fig_matrix_metrics(a, d->t, &d->mv, &lw, &hh, &cell);
	for (size_t i = 0; i < d->mv.n; i++)
		w[i] = cell;
	/* 6 pt of figure padding on each side */
	nb = kv_band(w, d->mv.n, lw + 12, CW, bands);
	/* title, axis, column heads, legend and notes around the cells: the
	 * height of a tile without rows, and the figure's own spacing */
	{
		kv_fig *empty = fig_matrix(a, d->t, &d->mv, 0, 0, 0, 0);

		over = empty->h + 10;
		fig_free(empty);
	}
	nr = kv_paginate(w, d->mv.n, pdf_room(d) - over, BOTTOM - TOP - over, 0,
	    rows, &skip);
	if (skip)
		pdf_new_page(d);
	for (size_t b = 0; b < nb; b++)
		for (size_t r = 0; r < nr; r++) {
			size_t c0 = bands[b], c1 = b + 1 < nb ? bands[b + 1] :
			    d->mv.n;
			size_t r0 = rows[r], r1 = r + 1 < nr ? rows[r + 1] :
			    d->mv.n;

			if (b + r > 0)
				pdf_new_page(d);
			pdf_figure_scaled(d, fig_matrix(a, d->t, &d->mv, r0, r1,
			    c0, c1), false, nb == 1 && nr == 1 ? 1.4 : 1.0);
		}
	pdf_para_own(d, xasprintf("Rows: the class a host-model %s runs on; "
	    "columns: the class of a candidate target node. A cell is ok, or "
	    "shows how many node labels the target lacks; the table below "
	    "names them for every refused pair.%s", W(VM), d->mv.aggregated ?
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

/* Every refused class pair with the labels the target lacks, printed
 * (paper has no tooltips): one row per source class and list of missing
 * labels, naming the target classes that lack exactly those. */
static void
refused_pairs(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "#", 0.05, true }, { "Source \u2192 targets", 0.25, false },
		{ "Labels the targets lack", 0.7, false },
	};
	size_t nc = a->nclasses, n = 0;
	bool *done = xcalloc(nc + 1, sizeof(bool));
	ptable t;

	pdf_tbl_init(&t, cols, 3);
	t.size = DENSE;
	t.pad = DENSE_PAD + 0.5;
	for (size_t s = 0; s < nc; s++) {
		memset(done, 0, nc * sizeof(bool));
		for (size_t c = 0; c < nc; c++) {
			const kv_pair *p = &a->pairs[s * nc + c];
			kv_buf b = {0};
			pcell *row;

			if (p->ok || done[c])
				continue;
			kv_buf_printf(&b, "%s \u2192 %s", a->classes[s].id,
			    a->classes[c].id);
			for (size_t o = c + 1; o < nc; o++)
				if (!a->pairs[s * nc + o].ok && !done[o] &&
				    same_missing(p, &a->pairs[s * nc + o])) {
					done[o] = true;
					kv_buf_printf(&b, ", %s",
					    a->classes[o].id);
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

/* --- the title page ------------------------------------------------------------ */

/* A two-column table of facts, without a header, at most lines lines a
 * cell (0: any); takes v over. */
static void
facts(pdoc *d, kv_fact *v, size_t n, double size, int lines)
{
	static const pcol cols[] = {
		{ "Fact", 0.38, false }, { "Value", 0.62, false },
	};
	ptable t;

	pdf_tbl_init(&t, cols, 2);
	t.noheader = true;
	t.size = size;
	if (lines > 0)
		t.max_lines = lines;
	for (size_t i = 0; i < n; i++) {
		pcell *row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xstrdup(v[i].key), FONT_REGULAR, COL_MUTED);
		pdf_cell(&row[1], v[i].value, FONT_REGULAR, COL_INK);
		v[i].value = NULL;
	}
	pdf_tbl_emit(d, &t);
	facts_free(v, n);
}

static void
title_page(pdoc *d)
{
	const kv_analysis *a = d->a;
	const snap_manifest *mf = &a->m->manifest;
	const kv_summary *s = &a->summary;
	bool bad = s->verdicts[V_BLOCKED] + s->verdicts[V_NO_TARGET] +
	    s->verdicts[V_WILL_FAIL] + s->verdicts[V_STUCK] > 0;
	char *head, *sub;
	PangoLayout *l;
	double bh;
	kv_fact *fv;
	size_t nf;

	d->section = NULL;
	d->page = 1;
	d->y = TOP;
	pdf_page_furniture(d);
	pdf_fill_rect(d, 0, 0, PAGE_W, 10, COL_ACCENT);
	d->y = 110;
	pdf_para_at(d, MX, CW, d->title, FONT_BOLD,
	    strlen(kv_word(d->a, KV_WORD_PRODUCT)) > 20 ? 17 : 24, COL_INK, 10);
	/* the title page is one page, whatever the snapshot's strings */
	pdf_para_lines(d, MX, CW, mf->context ? mf->context :
	    "(unnamed cluster)", FONT_REGULAR, 16, COL_ACCENT, 6, 3);
	sub = xasprintf("Snapshot taken %s%s", d->snapdate, d->diff == NULL ?
	    "" : diff_is_whatif(d->diff) ? ", as it would be after the "
	    "changes of section 1" : ", against an older one in section 1");
	pdf_para_at(d, MX, CW, sub, FONT_REGULAR, 10, COL_MUTED, 24);
	free(sub);

	head = prose_headline(a);
	l = text_layout(d->t, head, FONT_BOLD, 12.5, CW - 28);
	bh = pdf_layout_h(l) + 40;
	g_object_unref(l);
	pdf_fill_rect(d, MX, d->y, CW, bh, bad ? COL_FAIL_BG : COL_OK_BG);
	pdf_fill_rect(d, MX, d->y, 4, bh, bad ? COL_FAIL : COL_OK);
	d->y += 10;
	pdf_para_at(d, MX + 14, CW - 28, head, FONT_BOLD, 12.5, COL_INK, 4);
	free(head);
	sub = prose_verdicts(a);
	pdf_para_at(d, MX + 14, CW - 28, sub, FONT_REGULAR, 9, COL_INK, 0);
	free(sub);
	d->y += 22;

	fv = snapshot_facts(a, &nf);
	facts(d, fv, nf, 8.5, 3);
	d->y += 8;
	pdf_figure(d, fig_verdicts(a, d->t), false);

	sub = xasprintf("Generated by kvscope %s. Document date %s. The same "
	    "conclusions are in findings.json, written with this report.",
	    KV_VERSION, d->date);
	d->y = BOTTOM - 24;
	pdf_para(d, sub, FONT_REGULAR, SMALL, COL_MUTED);
	free(sub);
}

/* --- the sections -------------------------------------------------------------- */

#define SUMMARY_GROUPS	10	/* the largest groups in the summary */

/* The largest groups with their fixes, one row each. */
static void
summary_groups(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Group", 0.2, false }, { "VMs", 0.07, true },
		{ "Fix", 0.73, false },
	};
	ptable t;

	if (a->ngroups == 0)
		return;
	pdf_heading2(d, a->ngroups > SUMMARY_GROUPS ? "The largest groups "
	    "and their fixes" : "The groups and their fixes");
	pdf_tbl_init(&t, cols, 3);
	t.max_lines = 3;
	for (size_t i = 0; i < a->ngroups && i < SUMMARY_GROUPS; i++) {
		const kv_group *g = &a->groups[i];
		pcell *row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xasprintf("%s %s", g->id, g->code), FONT_BOLD,
		    tone_ink(group_tone(g)));
		pdf_cell(&row[1], xasprintf("%zu", g->nvmis), FONT_REGULAR,
		    COL_INK);
		pdf_cell(&row[2], pdf_fix_line(g), FONT_REGULAR, COL_INK);
	}
	pdf_tbl_emit(d, &t);
	if (a->ngroups > SUMMARY_GROUPS)
		pdf_para_own(d, xasprintf("%zu more groups, and every group's "
		    "cause and examples, in the next section.", a->ngroups -
		    SUMMARY_GROUPS), FONT_REGULAR, SMALL, COL_MUTED);
}

static void
sec_summary(pdoc *d)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ "Verdict", 0.16, false }, { "VMs", 0.08, true },
		{ "Meaning", 0.76, false },
	};
	ptable t;
	char *note;

	pdf_heading1(d, d->sections[PS_SUMMARY]);
	/* what the input lacked, first: the verdicts below stand on it */
	for (size_t i = 0; i < a->ncoded; i++)
		if (kv_warning_said[a->coded[i].code])
			pdf_para_own(d, xasprintf("Warning: %s",
			    a->coded[i].message), FONT_BOLD, BODY, COL_INK);
	pdf_answer(d, prose_headline(a));
	pdf_para_own(d, prose_verdicts(a), FONT_REGULAR, BODY, COL_INK);
	summary_groups(d);
	pdf_heading2(d, "Draining nodes");
	pdf_para_own(d, drain_headline(a), FONT_REGULAR, BODY, COL_INK);
	pdf_heading2(d, "Verdicts");
	pdf_figure(d, fig_verdicts(a, d->t), true);
	pdf_tbl_init(&t, cols, 3);
	for (int v = 0; v < V_COUNT; v++) {
		pcell *row = pdf_tbl_row(&t);
		enum kv_tone tone = verdict_tone((enum kv_verdict)v);

		pdf_cell(&row[0], xasprintf("%s %s", verdict_symbol(
		    (enum kv_verdict)v), kv_verdict_names[v]), FONT_BOLD,
		    tone_ink(tone));
		pdf_cell(&row[1], xasprintf("%zu", a->summary.verdicts[v]),
		    FONT_REGULAR, COL_INK);
		pdf_cellc(&row[2], verdict_meaning((enum kv_verdict)v));
	}
	pdf_tbl_emit(d, &t);
	if ((note = prose_mismatch(a)) != NULL)
		pdf_para_own(d, note, FONT_REGULAR, BODY, COL_WARN);
}

#define NODES_LISTED	60	/* nodes listed in full by default */
#define CLASS_LINES	16	/* of a class's features, by default */

static void
sec_cluster(pdoc *d)
{
	const kv_analysis *a = d->a;
	const kv_model *m = a->m;
	const pcol ncols[] = {
		{ "Node", 0.22, false }, { "Class", 0.07, false },
		{ "Vendor", 0.08, false }, { "Host model", 0.19, false },
		{ "Level", 0.07, true }, { "AVX2", 0.07, false },
		{ "AVX-512", 0.09, false }, { "Schedulable", 0.13, false },
		{ "VMs", 0.08, true },
	};
	ptable t;
	char *absent;
	kv_fact *fv;
	size_t nf;
	/* a long node list only when asked for */
	bool all = d->all || m->nnodes <= NODES_LISTED;

	pdf_heading1(d, d->sections[PS_CLUSTER]);
	pdf_answer(d, prose_cluster(a));

	pdf_heading2(d, "What the snapshot lacked");
	pdf_para_own(d, prose_lacked(a), FONT_REGULAR, BODY, COL_INK);
	for (size_t i = 0; i < a->nwarnings; i++) {
		char *s = xasprintf("\u2022 %s", a->warnings[i]);

		pdf_para_at(d, MX + 10, CW - 10, s, FONT_REGULAR, BODY, COL_INK,
		    2);
		free(s);
	}
	if ((absent = prose_absent(a)) != NULL)
		pdf_para_own(d, absent, FONT_REGULAR, SMALL, COL_MUTED);

	pdf_heading2(d, "Effective migration settings");
	fv = settings_facts(a, &nf);
	facts(d, fv, nf, SMALL, 0);

	pdf_heading2(d, "Nodes");
	if (!all)
		pdf_para_own(d, xasprintf("%zu nodes; listed here only those "
		    "without CPU labels or not schedulable (the classes above "
		    "name every node; kvscope report --pdf-detail all lists "
		    "them all).", m->nnodes), FONT_REGULAR, BODY, COL_INK);
	pdf_tbl_init(&t, ncols, 9);
	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_nodeinfo *ni = &a->nodes[i];
		pcell *row;

		if (!all && ni->kubevirt && ni->schedulable)
			continue;
		row = pdf_tbl_row(&t);

		pdf_cellc(&row[0], m->nodes[i].name);
		pdf_cellc(&row[1], node_class(a, i));
		pdf_cellc(&row[2], ni->vendor ? ni->vendor : SYM_NONE);
		pdf_cellc(&row[3], ni->host_model ? ni->host_model : SYM_NONE);
		pdf_cell(&row[4], ni->level >= 0 ? xasprintf("v%d", ni->level) :
		    xstrdup(SYM_NONE), FONT_REGULAR, COL_INK);
		pdf_cellc(&row[5], ni->avx2 ? "yes" : "no");
		pdf_cellc(&row[6], ni->avx512f ? "yes" : "no");
		if (!ni->kubevirt)
			pdf_cell(&row[7], xstrdup("no CPU labels"),
			    FONT_REGULAR, COL_MUTED);
		else if (ni->schedulable)
			pdf_cell(&row[7], xstrdup(SYM_OK " yes"), FONT_BOLD,
			    COL_OK);
		else
			pdf_cell(&row[7], xstrdup(SYM_WARN " no"), FONT_BOLD,
			    COL_WARN);
		pdf_cell(&row[8], xasprintf("%zu", ni->nvmis), FONT_REGULAR,
		    COL_INK);
	}
	pdf_tbl_emit(d, &t);
}

static void
sec_classes(pdoc *d)
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
	matrix(d);
	refused_pairs(d);
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

static void
sec_models(pdoc *d)
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

static void
sec_tradeoff(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Scope", 0.14, false }, { "Tier", 0.1, false },
		{ "Nodes", 0.09, true }, { "Models reaching them", 0.45, false },
		{ "Nodes left out", 0.22, false },
	}, gcols[] = {	/* a guest OS needs x86-64-v2 or more */
		{ "Scope", 0.12, false }, { "Tier", 0.1, false },
		{ "Nodes", 0.08, true }, { "Models reaching them", 0.33, false },
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

static void
sec_glossary(pdoc *d)
{
	static const pcol vcols[] = {
		{ "Verdict", 0.16, false }, { "Meaning", 0.84, false },
	};
	static const pcol cols[] = {
		{ "Code", 0.23, false }, { "Kind", 0.11, false },
		{ "VMs", 0.06, true }, { "Title", 0.2, false },
		{ "Remediation", 0.4, false },
	};
	size_t *count = code_counts(d->a);
	ptable t;

	pdf_heading1(d, d->sections[PS_GLOSSARY]);
	pdf_para(d, prose_glossary_intro(), FONT_REGULAR, BODY, COL_INK);
	if (!d->all)
		pdf_para(d, "Only the codes this snapshot has are listed; "
		    "--pdf-detail all lists every code.", FONT_REGULAR, SMALL,
		    COL_MUTED);
	pdf_tbl_init(&t, vcols, 2);
	for (int v = 0; v < V_COUNT; v++) {
		pcell *row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xasprintf("%s %s", verdict_symbol(
		    (enum kv_verdict)v), kv_verdict_names[v]), FONT_BOLD,
		    tone_ink(verdict_tone((enum kv_verdict)v)));
		pdf_cellc(&row[1], verdict_meaning((enum kv_verdict)v));
	}
	pdf_tbl_emit(d, &t);
	pdf_tbl_init(&t, cols, 5);
	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *r = &kv_rules[i];
		pcell *row;
		bool blk = r->severity == SEV_BLOCKER;
		const char *title, *remedy;

		if (!d->all && count[i] == 0)
			continue;
		row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xstrdup(r->code), FONT_MONO, COL_INK);
		pdf_cell(&row[1], xstrdup(blk ? SYM_FAIL " blocker" :
		    SYM_WARN " warning"), FONT_BOLD, blk ? COL_FAIL : COL_WARN);
		pdf_cell(&row[2], xasprintf("%zu", count[i]), count[i] ?
		    FONT_BOLD : FONT_REGULAR, count[i] ? COL_INK : COL_MUTED);
		kv_rule_text(d->a, r, &title, &remedy);
		pdf_cellc(&row[3], title);
		pdf_cellc(&row[4], remedy);
	}
	pdf_tbl_emit(d, &t);
	free(count);
}

/* Item 1 of the order: the problems first, the long lists last. */
static void
body(pdoc *d)
{
	d->section = NULL;	/* the first section starts a page */
	if (d->diff != NULL)
		pdf_sec_changes(d, d->sections[PS_CHANGES]);
	sec_summary(d);
	pdf_sec_groups(d, d->sections[PS_GROUPS]);
	pdf_sec_drain(d, d->sections[PS_DRAIN]);
	pdf_sec_attention(d, d->sections[PS_ATTENTION]);
	sec_classes(d);
	sec_models(d);
	sec_tradeoff(d);
	sec_cluster(d);
	if (d->all)
		pdf_sec_vmis(d, d->sections[PS_VMS]);
	sec_glossary(d);
}

/* The section titles, numbered in the PDF's order. */
static void
pdf_titles(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const enum kv_section from[PS_COUNT] = {
		[PS_SUMMARY] = SEC_SUMMARY, [PS_DRAIN] = SEC_DRAIN,
		[PS_CLASSES] = SEC_CLASSES, [PS_MODELS] = SEC_MODELS,
		[PS_TRADEOFF] = SEC_TRADEOFF, [PS_CLUSTER] = SEC_CLUSTER,
		[PS_VMS] = SEC_VMS, [PS_GLOSSARY] = SEC_GLOSSARY,
	};
	int num = 0;

	for (int i = 0; i < PS_COUNT; i++) {
		char *shared = NULL;
		const char *name;

		if ((i == PS_VMS && !d->all) || (i == PS_CHANGES && !d->diff))
			continue;
		if (i == PS_CHANGES)
			name = shared = diff_title(d->diff);
		else if (i == PS_GROUPS)
			name = "What to change: the groups";
		else if (i == PS_ATTENTION)
			name = shared = xasprintf("%s that need attention",
			    W(VMS));
		else {
			/* "4  Named CPU models" without its number */
			shared = section_title(a, from[i]);
			name = strstr(shared, "  ") + 2;
		}
		d->sections[i] = xasprintf("%d  %s", ++num, name);
		free(shared);
	}
}

/* --- the document ---------------------------------------------------------------- */

static cairo_status_t
write_fn(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
	    CAIRO_STATUS_WRITE_ERROR;
}

/* The document's metadata: title, author, dates (report_date()). */
static void
pdf_metadata(pdoc *d)
{
	const snap_manifest *mf = &d->a->m->manifest;
	char *title = xasprintf("%s: %s", d->title,
	    mf->context ? mf->context : "cluster");
	char *vis = text_visible(title);

	/* cairo refuses noncharacters: shown as text is (text_visible) */
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_TITLE,
	    vis ? vis : title);
	free(vis);
	free(title);
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_AUTHOR,
	    "kvscope");
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_SUBJECT,
	    "Which VMs would not live-migrate, and what a drain would do");
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_CREATOR,
	    "kvscope " KV_VERSION);
	cairo_pdf_surface_set_metadata(d->surf,
	    CAIRO_PDF_METADATA_CREATE_DATE, d->date);
	cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_MOD_DATE,
	    d->date);
}

static void
pdoc_free(pdoc *d)
{
	if (d->cr != NULL)
		cairo_destroy(d->cr);
	if (d->surf != NULL)
		cairo_surface_destroy(d->surf);
	for (size_t i = 0; i < d->ntoc; i++)
		free(d->toc[i].title);
	free(d->toc);
	free(d->heights);
	free(d->title);
	for (int i = 0; i < PS_COUNT; i++)
		free(d->sections[i]);
	text_free(d->t);
}

int
kv_write_pdf(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_report_opts *opts = arg;
	pdoc d = { .a = a, .all = opts && opts->pdf_all,
	    .diff = opts ? opts->diff : NULL };
	cairo_status_t st;
	int toc, rc = KV_ERR;

	d.t = text_new();
	d.title = report_heading(a, d.diff);
	pdf_titles(&d);
	mview_init(&d.mv, a);
	report_isodate(report_date(a), d.date);
	snapshot_date(a, d.snapdate);

	/* first pass: the body alone, measured, pages counted from 1 */
	d.page = 0;
	body(&d);
	toc = pdf_toc_pages(&d);
	d.offset = 1 + toc;
	d.npages = d.offset + d.page;
	for (size_t i = 0; i < d.ntoc; i++)
		d.toc[i].page += d.offset;

	/* second pass: draw */
	d.surf = cairo_pdf_surface_create_for_stream(write_fn, f, PAGE_W,
	    PAGE_H);
	d.cr = cairo_create(d.surf);
	pdf_metadata(&d);
	title_page(&d);
	pdf_contents(&d);
	if (d.page != d.offset) {
		kv_seterr(err, "report.pdf: contents took %d pages, not %d",
		    d.page - 1, toc);
		goto out;
	}
	d.replay = true;
	body(&d);
	if (d.page != d.npages) {
		kv_seterr(err, "report.pdf: %d pages drawn, %d laid out",
		    d.page, d.npages);
		goto out;
	}
	cairo_show_page(d.cr);
	if ((st = cairo_status(d.cr)) != CAIRO_STATUS_SUCCESS) {
		kv_seterr(err, "report.pdf: %s", cairo_status_to_string(st));
		goto out;
	}
	cairo_surface_finish(d.surf);
	if ((st = cairo_surface_status(d.surf)) != CAIRO_STATUS_SUCCESS) {
		kv_seterr(err, "report.pdf: %s", cairo_status_to_string(st));
		goto out;
	}
	rc = KV_OK;
out:
	pdoc_free(&d);
	return rc;
}
