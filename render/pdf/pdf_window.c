/*
 * pdf_window.c - the "Maintenance window" section of the PDF: the same
 * words (window_words.c) and figure (fig_window.c, drawn through the
 * shape list by fig_cairo()) as the HTML, then the VMIs at risk or
 * aborted with their arithmetic, the unknown outcomes, the cluster's
 * window facts and the assumptions.
 */
#include <stdint.h>
#include <stdlib.h>

#include "analyze/estimate/estimate.h"
#include "render/pdf/pdf.h"

static void
risk_table(pdoc *d)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ kv_word(a, KV_WORD_VM), 0.26, false },
		{ "Outcome", 0.14, false }, { "Arithmetic", 0.6, false },
	};
	size_t n, *v = window_flagged(a, &n);
	ptable t;

	if (n == 0) {
		pdf_para(d, "Every migration estimated finishes in time or has "
		    "an unknown outcome: none is at risk or will be aborted.",
		    FONT_REGULAR, BODY, COL_INK);
		free(v);
		return;
	}
	pdf_tbl_init(&t, cols, 3);
	for (size_t k = 0; k < n; k++) {
		const kv_migest *e = &a->est[v[k]];
		pcell *row = pdf_tbl_row(&t);
		bool abort = e->outcome == MIG_WILL_ABORT;

		pdf_cellc(&row[0], a->vmis[v[k]].vmi->fullname);
		pdf_cell(&row[1], xasprintf("%s %s", abort ? SYM_FAIL :
		    SYM_WARN, kv_mig_outcome_names[e->outcome]), FONT_BOLD,
		    abort ? COL_FAIL : COL_WARN);
		pdf_cell(&row[2], window_vmi_line(a, v[k]), FONT_REGULAR,
		    COL_INK);
	}
	pdf_tbl_emit(d, &t);
	free(v);
}

void
pdf_sec_window(pdoc *d, const char *title)
{
	const kv_analysis *a = d->a;
	kv_fig *f = fig_window(a, d->t);
	char *u, **as;
	size_t n;

	pdf_heading1_room(d, title, f != NULL ? f->h + 80 : 0);
	pdf_answer(d, window_answer(a));
	if (f != NULL)
		pdf_figure(d, f, true);
	if (a->est == NULL)
		return;
	pdf_heading2(d, "Migrations at risk or aborted");
	risk_table(d);
	u = window_unknown(a);
	if (u != NULL)
		pdf_para_own(d, u, FONT_REGULAR, BODY, COL_INK);
	pdf_para_own(d, window_facts(a), FONT_REGULAR, BODY, COL_INK);
	as = window_assumptions(a, &n);
	if (n > 0)
		pdf_para(d, "The estimates assume:", FONT_REGULAR, BODY,
		    COL_INK);
	for (size_t k = 0; k < n; k++) {
		char *li = xasprintf("\u2022 %s", as[k]);

		pdf_para(d, li, FONT_REGULAR, BODY, COL_MUTED);
		free(li);
		free(as[k]);
	}
	free(as);
}
