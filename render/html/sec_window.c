/*
 * sec_window.c - the "Maintenance window" section of the HTML report:
 * the answer (window_words.c), the timeline of the slowest drain
 * (fig_window.c, inline SVG), the VMIs at risk or aborted with their
 * arithmetic (window_vmi_line()), the count of unknown outcomes, the
 * cluster's window facts and the assumptions.  Nodes added belong to the
 * document.
 */
#include <libxml/tree.h>
#include <stdint.h>
#include <stdlib.h>

#include "analyze/estimate/estimate.h"
#include "render/html/html.h"
#include "render/render.h"
#include "render/report.h"

static void
window_table(xmlNodePtr s, const kv_analysis *a)
{
	static const char *const hc[] = { NULL, NULL, NULL };
	const char *heads[3] = { kv_word(a, KV_WORD_VM), "Outcome",
	    "Arithmetic" };
	size_t n, *v = window_flagged(a, &n);
	xmlNodePtr tb;

	if (n == 0) {
		h_el(s, "p", "Every migration estimated finishes in time or "
		    "has an unknown outcome: none is at risk or will be "
		    "aborted.");
		free(v);
		return;
	}
	tb = h_el(h_table(s, "window-risk", heads, hc, 3), "tbody", NULL);
	for (size_t k = 0; k < n; k++) {
		const kv_migest *e = &a->est[v[k]];
		xmlNodePtr tr = h_el(tb, "tr", NULL);
		enum kv_tone tone = e->outcome == MIG_WILL_ABORT ? TONE_FAIL :
		    TONE_WARN;

		h_name(tr, "td", NULL, a->vmis[v[k]].vmi->fullname);
		h_badge(h_el(tr, "td", NULL), tone, tone_symbol(tone),
		    kv_mig_outcome_names[e->outcome]);
		h_el_own(tr, "td", "wrap", window_vmi_line(a, v[k]));
	}
	free(v);
}

void
html_sec_window(xmlNodePtr s, const kv_analysis *a, xmlDocPtr doc,
    kv_text *t)
{
	kv_fig *f = fig_window(a, t);
	char *u = window_unknown(a);
	size_t n;
	char **as;

	h_el_own(s, "p", "answer", window_answer(a));
	if (f != NULL) {
		xmlNodePtr fig = h_el(s, "figure", NULL);

		xmlAddChild(h_elc(fig, "div", "scroll", NULL),
		    fig_svg(f, doc, false));
		h_el(fig, "figcaption", f->desc);
		fig_free(f);
	}
	if (a->est == NULL)
		return;
	window_table(s, a);
	if (u != NULL)
		h_el_own(s, "p", NULL, u);
	h_el_own(s, "p", NULL, window_facts(a));
	as = window_assumptions(a, &n);
	if (n > 0) {
		xmlNodePtr ul;

		h_el(s, "p", "The estimates assume:");
		ul = h_el(s, "ul", NULL);
		for (size_t k = 0; k < n; k++)
			h_el_own(ul, "li", NULL, as[k]);
	}
	free(as);
}
