/*
 * pdf_diff.c - the PDF's first section in a what-if's or a diff's report
 * (pdf.h, pdf_sec_changes): the answer, the changes applied or the two
 * snapshots' dates, then the VMIs, groups, nodes, CPU classes and drains
 * that changed, in the words of sec_diff.c (the HTML's section).  Reads
 * only d->diff; tables break across pages as the typesetter does.
 */
#include <stdlib.h>

#include "analyze/change/diff.h"
#include "render/pdf/pdf.h"
#include "render/view.h"

#define W(w) kv_word(a, KV_WORD_##w)

/* "label a, b, c." when l has names */
static void
names(pdoc *d, const char *label, const kv_strs *l)
{
	char *v;

	if (l->n == 0)
		return;
	v = str_list(l->v, l->n, 30);
	pdf_para_own(d, xasprintf("%s %s.", label, v), FONT_REGULAR, BODY,
	    COL_INK);
	free(v);
}

static char *
verdicts(const kv_diff_vmi *v)
{
	return xasprintf("%s %s \u2192 %s %s%s", verdict_symbol(v->verdict[0]),
	    kv_verdict_names[v->verdict[0]], verdict_symbol(v->verdict[1]),
	    kv_verdict_names[v->verdict[1]], v->worse ? " worse" :
	    v->untold ? " cannot tell" : "");
}

/* The VMI kept its verdict, drain behaviour and codes: only its number
 * of targets moved (the PDF lists those with --pdf-detail all). */
static bool
only_targets(const kv_diff_vmi *v)
{
	return v->verdict[0] == v->verdict[1] && v->drain[0] == v->drain[1] &&
	    v->added.n == 0 && v->removed.n == 0;
}

static void
vmis(pdoc *d, const kv_diff *x)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ W(VM), 0.27, false }, { "Verdict", 0.22, false },
		{ "Targets", 0.09, true }, { "On drain", 0.14, false },
		{ "Reason codes", 0.28, false },
	};
	char *title = xasprintf("%s whose verdict, targets or drain changed",
	    W(VMS)), *s;
	size_t quiet = 0;	/* changed their target count alone */
	ptable t;

	pdf_heading2(d, title);	/* drawn with what follows: kept till then */
	if (x->nvmis == 0)
		pdf_para_own(d, xasprintf("None: every %s keeps its verdict, "
		    "targets and drain behaviour.", W(VM)), FONT_REGULAR, BODY,
		    COL_INK);
	pdf_tbl_init(&t, cols, 5);
	for (size_t i = 0; i < x->nvmis; i++) {
		const kv_diff_vmi *v = &x->vmis[i];
		pcell *row;

		if (!d->all && only_targets(v)) {
			quiet++;
			continue;
		}
		row = pdf_tbl_row(&t);

		pdf_cellc(&row[0], v->name);
		pdf_cell(&row[1], verdicts(v), FONT_BOLD, tone_ink(verdict_tone(
		    v->verdict[1])));
		pdf_cell(&row[2], diff_pair(v->targets[0], v->targets[1]),
		    FONT_REGULAR, COL_INK);
		pdf_cell(&row[3], v->drain[0] == v->drain[1] ?
		    xstrdup(drain_word(v->drain[1])) : xasprintf("%s \u2192 %s",
		    drain_word(v->drain[0]), drain_word(v->drain[1])),
		    FONT_REGULAR, v->drain[0] != v->drain[1] ? COL_WARN :
		    COL_INK);
		pdf_cell(&row[4], diff_codes(v), FONT_MONO, v->worse ?
		    COL_FAIL : COL_INK);
	}
	if (x->nvmis > quiet)
		pdf_tbl_emit(d, &t);
	else
		pdf_tbl_free(&t);
	if (quiet > 0)
		pdf_para_own(d, xasprintf("%s%zu %s changed only their "
		    "number of targets; diff.json lists them, and so does "
		    "this section with --pdf-detail all.",
		    x->nvmis > quiet ? "Besides, " : "",
		    quiet, plural(quiet, W(VM), W(VMS))), FONT_REGULAR, BODY,
		    COL_INK);
	free(title);
	s = xasprintf("New %s:", W(VMS));
	names(d, s, &x->vmis_added);
	free(s);
	s = xasprintf("%s gone:", W(VMS));
	names(d, s, &x->vmis_removed);
	free(s);
}

static void
groups(pdoc *d, const kv_diff *x)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ "Change", 0.12, false }, { "Code", 0.3, false },
		{ "Subject", 0.43, false }, { W(VMS), 0.15, true },
	};
	ptable t;

	if (x->ngroups == 0)
		return;
	pdf_heading2(d, "Groups resolved, new or changed");
	pdf_tbl_init(&t, cols, 4);
	for (size_t i = 0; i < x->ngroups; i++) {
		const kv_diff_group *g = &x->groups[i];
		const char *ch = diff_group_change(g);
		pcell *row = pdf_tbl_row(&t);

		pdf_cell(&row[0], xstrdup(ch), FONT_BOLD, *ch == 'r' ? COL_OK :
		    *ch == 'n' ? COL_FAIL : COL_INK);
		pdf_cell(&row[1], xstrdup(g->code), FONT_MONO, COL_INK);
		pdf_cell(&row[2], kv_diff_subject(g), FONT_REGULAR, COL_INK);
		pdf_cell(&row[3], diff_pair(g->vmis[0], g->vmis[1]),
		    FONT_REGULAR, COL_INK);
	}
	pdf_tbl_emit(d, &t);
}

static void
nodes(pdoc *d, const kv_diff *x)
{
	static const pcol cols[] = {
		{ "Node", 0.2, false }, { "Features lost", 0.22, false },
		{ "Features gained", 0.22, false },
		{ "Host model, vendor, other labels, cordon, taints, "
		    "allocatable", 0.36, false },
	};
	ptable t;

	if (x->nodes_added.n + x->nodes_removed.n + x->nnodes == 0)
		return;
	pdf_heading2(d, "Nodes added, removed, or changed");
	names(d, "Added:", &x->nodes_added);
	names(d, "Removed:", &x->nodes_removed);
	if (x->nnodes == 0)
		return;
	pdf_tbl_init(&t, cols, 4);
	for (size_t i = 0; i < x->nnodes; i++) {
		const kv_diff_node *n = &x->nodes[i];
		pcell *row = pdf_tbl_row(&t);

		pdf_cellc(&row[0], n->name);
		pdf_cell(&row[1], n->lost.n ? str_list(n->lost.v, n->lost.n,
		    n->lost.n) : xstrdup(SYM_NONE), FONT_MONO, n->lost.n ?
		    COL_FAIL : COL_INK);
		pdf_cell(&row[2], n->gained.n ? str_list(n->gained.v,
		    n->gained.n, n->gained.n) : xstrdup(SYM_NONE), FONT_MONO,
		    COL_INK);
		pdf_cell(&row[3], diff_node_labels(n), FONT_REGULAR, COL_INK);
	}
	pdf_tbl_emit(d, &t);
}

static void
classes(pdoc *d, const kv_diff *x)
{
	if (x->nclasses == 0)
		return;
	pdf_heading2(d, "CPU classes merged or split");
	for (size_t i = 0; i < x->nclasses; i++) {
		const kv_diff_class *c = &x->classes[i];
		char *many = str_list(c->many.v, c->many.n, c->many.n);

		pdf_para_own(d, c->merged ?
		    xasprintf("\u2022 %s merged into %s", many, c->one) :
		    xasprintf("\u2022 %s split into %s", c->one, many),
		    FONT_REGULAR, BODY, COL_INK);
		free(many);
	}
}

static void
drains(pdoc *d, const kv_diff *x)
{
	static const pcol cols[] = {
		{ "Node", 0.46, false }, { "Migrate", 0.18, true },
		{ "Block", 0.18, true }, { "Stop", 0.18, true },
	};
	ptable t;

	if (x->ndrains == 0)
		return;
	pdf_heading2(d, "Drain plans that changed");
	pdf_tbl_init(&t, cols, 4);
	for (size_t i = 0; i < x->ndrains; i++) {
		const kv_diff_drain *r = &x->drains[i];
		pcell *row = pdf_tbl_row(&t);

		pdf_cellc(&row[0], r->node);
		pdf_cell(&row[1], diff_pair(r->migrate[0], r->migrate[1]),
		    FONT_REGULAR, COL_INK);
		pdf_cell(&row[2], diff_pair(r->block[0], r->block[1]),
		    FONT_REGULAR,
		    r->block[1] > r->block[0] ? COL_FAIL : COL_INK);
		pdf_cell(&row[3], diff_pair(r->shutdown[0], r->shutdown[1]),
		    FONT_REGULAR, r->shutdown[1] > r->shutdown[0] ? COL_WARN :
		    COL_INK);
	}
	pdf_tbl_emit(d, &t);
}

void
pdf_sec_changes(pdoc *d, const char *title)
{
	const kv_diff *x = d->diff->d;

	pdf_heading1(d, title);
	pdf_answer(d, diff_answer(d->a, d->diff));
	pdf_para_own(d, diff_intro(d->a, d->diff), FONT_REGULAR, BODY,
	    COL_INK);
	if (diff_is_whatif(d->diff)) {
		pdf_heading2(d, "The changes applied");
		for (size_t i = 0; i < d->diff->notes->nnotes; i++) {
			char *s = xasprintf("\u2022 %s",
			    d->diff->notes->notes[i]);

			pdf_para_at(d, MX + 10, CW - 10, s, FONT_REGULAR, BODY,
			    COL_INK, 2);
			free(s);
		}
	}
	vmis(d, x);
	groups(d, x);
	nodes(d, x);
	classes(d, x);
	drains(d, x);
}
