/*
 * pdf_cross.c - the crosscheck report's PDF (kv_write_cross_pdf,
 * render/cross.h): A4, typeset as the report is (typeset.c), its
 * sections those of the HTML page (render/html/cross.c): the answer,
 * the groups by cause with their fixes and VMs, the CPU figure (the
 * report's host-model matrix over SOURCE's classes as rows and TARGET's
 * as columns, in tiles when large, pdf_cpu.c) with every refused pair
 * and the labels it lacks, and one row per VM.  No title page or
 * contents: the answer opens page 1; outline entries link the sections.
 *
 * Two passes, as kv_write_pdf: the first measures (page count for the
 * footers), the second draws.  The date is the TARGET snapshot's
 * createdAt or SOURCE_DATE_EPOCH: the same snapshots, the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "render/cross.h"
#include "render/pdf/pdf.h"

#define NAMES_SHOWN	12
#define JSON_FILE	"crosscheck.json"

static uint32_t
answer_ink(enum kv_xanswer v)
{
	return v == XA_LIVE ? COL_OK : v == XA_COLD ? COL_WARN : COL_FAIL;
}

static uint32_t
blocks_ink(unsigned blocks)
{
	return (blocks & XB_COLD) ? COL_FAIL : (blocks & XB_LIVE) ?
	    COL_WARN : COL_MUTED;
}

static void
sec_answer(pdoc *d, const kv_cross *x)
{
	static const pcol cols[] = {
		{ "Answer", 0.15, false }, { "VMs", 0.1, true },
		{ "Meaning", 0.75, false },
	};
	static const pcol best_col[] = {
		{ "Best CPU model both clusters run", 1.0, false },
	};
	ptable t;

	pdf_heading1(d, "1  The answer");
	if (x->same_cluster != NULL)
		pdf_para_own(d, xasprintf("Warning: %s: the answers are those "
		    "of a move within it.", x->same_cluster), FONT_REGULAR,
		    BODY, COL_WARN);
	pdf_answer(d, kv_cross_summary(x));
	for (int i = 0; i < 2; i++)
		pdf_para_own(d, kv_cross_side(x, i), FONT_REGULAR, BODY,
		    COL_INK);
	for (size_t i = 0; i < x->nchanges; i++)
		pdf_para_own(d, xasprintf("TARGET changed: %s",
		    x->changes[i]), FONT_REGULAR, BODY, COL_INK);
	pdf_para_own(d, kv_cross_copy(x), FONT_REGULAR, BODY, COL_INK);
	pdf_tbl_init(&t, cols, 3);
	for (int v = 0; v < XA_COUNT; v++) {
		pcell *row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xstrdup(kv_xanswer_names[v]), FONT_BOLD,
		    answer_ink((enum kv_xanswer)v));
		pdf_cell(&row[1], xasprintf("%zu", x->counts[v]),
		    FONT_REGULAR, COL_INK);
		pdf_cellc(&row[2], kv_cross_meaning((enum kv_xanswer)v));
	}
	pdf_tbl_emit(d, &t);
	pdf_tbl_init(&t, best_col, 1);
	pdf_cell_names_in(&pdf_tbl_row(&t)[0], (const char *const *)x->best,
	    x->nbest, NAMES_SHOWN, FONT_REGULAR, JSON_FILE);
	pdf_tbl_emit(d, &t);
}

static void
sec_groups(pdoc *d, const kv_cross *x)
{
	static const pcol cols[] = {
		{ "Cause", 0.2, false }, { "What, fix and VMs", 0.7, false },
		{ "VMs", 0.1, true },
	};
	ptable t;

	pdf_heading1(d, "2  The groups by cause");
	if (x->ngroups == 0) {
		pdf_para(d, "No reason stands in the way of any VM.",
		    FONT_REGULAR, BODY, COL_INK);
		return;
	}
	pdf_tbl_init(&t, cols, 3);
	for (size_t i = 0; i < x->ngroups; i++) {
		const kv_xgroup *g = &x->groups[i];
		pcell *row = pdf_tbl_row(&t);
		const char **names = xcalloc(g->nvms + 1, sizeof(char *));
		pcell tmp = {0};

		for (size_t k = 0; k < g->nvms; k++)
			names[k] = x->vms[g->vms[k]].fullname;
		pdf_cell_names_in(&tmp, (const char *const *)names, g->nvms,
		    NAMES_SHOWN,
		    FONT_REGULAR, JSON_FILE);
		pdf_cell(&row[0], xstrdup(g->code), FONT_BOLD,
		    blocks_ink(g->blocks));
		pdf_cell(&row[1], xasprintf("%s (%s)\nFix: %s\nVMs: %s",
		    g->title, kv_cross_rules_out(g->blocks), g->fix,
		    tmp.text), FONT_REGULAR, COL_INK);
		pdf_cell(&row[2], xasprintf("%zu", g->nvms), FONT_REGULAR,
		    COL_INK);
		free(tmp.text);
		if (tmp.attrs != NULL)
			pango_attr_list_unref(tmp.attrs);
		free(names);
	}
	pdf_tbl_emit(d, &t);
}

static void
sec_cpu(pdoc *d, const kv_cross *x)
{
	kv_mview v;
	size_t *rows, *cols;

	pdf_heading1_room(d, "3  The CPU classes of both clusters",
	    FIG_ROOM);
	pdf_para(d, "Rows: the CPU classes of SOURCE's nodes (named "
	    "source/NAME), where a host-model VM runs now; columns: those of "
	    "TARGET's nodes, where it could go. A class of both clusters' "
	    "nodes (identical CPU labels) is a row and a column.",
	    FONT_REGULAR, BODY, COL_INK);
	kv_cross_mview(x, &v, &rows, &cols);
	if (v.row.n > 0 && v.col.n > 0) {
		pdf_matrix(d, &v);
		pdf_refused_pairs(d, &v);
	}
	free(rows);
	free(cols);
}

static void
vm_row(ptable *t, const kv_xvm *vm)
{
	pcell *row = pdf_tbl_row(t);
	kv_buf b = {0};

	pdf_cellc(&row[0], vm->fullname);
	pdf_cell(&row[1], xasprintf("%s%s", kv_xanswer_names[vm->answer],
	    vm->running ? "" : " (stopped)"), FONT_BOLD,
	    answer_ink(vm->answer));
	pdf_cellc(&row[2], vm->source_node ? vm->source_node : SYM_NONE);
	pdf_cell_names_in(&row[3], (const char *const *)vm->targets,
	    vm->ntargets, NAMES_SHOWN,
	    FONT_REGULAR, JSON_FILE);
	for (size_t k = 0; k < vm->nreasons; k++)
		kv_buf_printf(&b, "%s%s: %s", k ? "\n" : "",
		    vm->reasons[k].code, vm->reasons[k].message);
	pdf_cell(&row[4], b.data != NULL ? b.data : xstrdup(SYM_NONE),
	    FONT_REGULAR, COL_INK);
}

static void
sec_vms(pdoc *d, const kv_cross *x)
{
	static const pcol cols[] = {
		{ "VM", 0.2, false }, { "Answer", 0.1, false },
		{ "Source node", 0.12, false }, { "TARGET nodes", 0.2, false },
		{ "Reasons", 0.38, false },
	};
	ptable t;

	pdf_heading1(d, "4  Every VM");
	pdf_tbl_init(&t, cols, 5);
	t.size = SMALL;
	for (size_t i = 0; i < x->nvms; i++)
		vm_row(&t, &x->vms[i]);
	pdf_tbl_emit(d, &t);
}

static void
body(pdoc *d, const kv_cross *x)
{
	d->section = NULL;	/* the first section starts page 1 */
	sec_answer(d, x);
	sec_groups(d, x);
	sec_cpu(d, x);
	sec_vms(d, x);
}

/* Draw the measured body: kv_write_cross_pdf's second pass. */
static int
draw(pdoc *d, const kv_cross *x, FILE *f, kv_err *err)
{
	pdf_open(d, f, d->title,
	    "Could the VMs of one cluster move to another");
	d->replay = true;
	body(d, x);
	if (d->page != d->npages) {
		kv_seterr(err, "report.pdf: %d pages drawn, %d laid out",
		    d->page, d->npages);
		return KV_ERR;
	}
	return pdf_finish(d, err);
}

int
kv_write_cross_pdf(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_cross *x = arg;
	const char *sd = x->src->manifest.created_at;
	const char *td = x->model->manifest.created_at;
	pdoc d = { .a = x->a };
	char *footer = xasprintf("SOURCE taken %s \u00b7 TARGET taken %s",
	    sd ? sd : "(unknown)", td ? td : "(unknown)");
	int rc;

	(void)a;
	d.t = text_new();
	d.title = xasprintf("Crosscheck: %s \u2192 %s", x->side[0].name,
	    x->side[1].name);
	d.header = d.title;
	d.footer = footer;
	mview_init(&d.mv, d.a);
	report_isodate(report_date(d.a), d.date);
	snapshot_date(d.a, d.snapdate);
	d.page = 0;
	body(&d, x);			/* first pass: measured */
	d.npages = d.page;
	d.page = 0;
	d.ih = 0;
	d.itoc = 0;
	rc = draw(&d, x, f, err);
	if (d.cr != NULL)
		cairo_destroy(d.cr);
	if (d.surf != NULL)
		cairo_surface_destroy(d.surf);
	for (size_t i = 0; i < d.ntoc; i++)
		free(d.toc[i].title);
	free(d.toc);
	free(d.heights);
	free(d.title);
	free(footer);
	text_free(d.t);
	return rc;
}
