/*
 * cross.c - the crosscheck report's page (kv_write_cross_html,
 * render/cross.h): the answer (the summary line, both sides, the data
 * to copy, the best CPU model, the count per answer), the groups by
 * cause with their fixes and VMs, the CPU figure (SOURCE's classes as
 * rows, TARGET's as columns: the report's host-model matrix, inline
 * SVG) and one row per VM with its answer, TARGET nodes and reasons.
 *
 * Built as the report's page is (html.c): a libxml2 tree whose every
 * datum enters through an escaping call, the report's compiled-in CSS
 * allowed by its hash, no script and no external URL.  Output is a
 * function of the kv_cross only.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>

#include "render/cross.h"
#include "render/html/html.h"

#define NAMES_SHOWN	12	/* names listed in a cell before "and N
				   more" */
#define JSON_FILE	"crosscheck.json"

static enum kv_tone
answer_tone(enum kv_xanswer v)
{
	return v == XA_LIVE ? TONE_OK : v == XA_COLD ? TONE_WARN : TONE_FAIL;
}

static const char *
answer_sym(enum kv_xanswer v)
{
	return tone_symbol(answer_tone(v));
}

/* A reason's tone: fail when it rules out cold too, warn when live
 * only, none when said. */
static enum kv_tone
blocks_tone(unsigned blocks)
{
	return (blocks & XB_COLD) ? TONE_FAIL : (blocks & XB_LIVE) ?
	    TONE_WARN : TONE_NONE;
}

static char *
title_of(const kv_cross *x)
{
	return xasprintf("Crosscheck: %s \u2192 %s", x->side[0].name,
	    x->side[1].name);
}

static void
masthead(xmlNodePtr body, const kv_cross *x)
{
	xmlNodePtr hd = xmlNewChild(body, NULL, BAD_CAST "header", NULL);
	const char *sd = x->src->manifest.created_at;
	const char *td = x->model->manifest.created_at;

	h_attr(hd, "class", "masthead");
	h_el_own(hd, "h1", NULL, title_of(x));
	h_el_own(hd, "p", "sub", xasprintf("Could the VMs of %s move to %s? "
	    "SOURCE snapshot taken %s \u00b7 TARGET snapshot taken %s "
	    "\u00b7 kvscope %s", x->side[0].name, x->side[1].name,
	    sd ? sd : "(unknown)", td ? td : "(unknown)", KV_VERSION));
}

static void
count_table(xmlNodePtr s, const kv_cross *x)
{
	static const char *const heads[] = { "Answer", "VMs", "Meaning" };
	static const char *const hcls[] = { NULL, "num", NULL };
	xmlNodePtr tb = xmlNewChild(h_table(s, NULL, heads, hcls, 3), NULL,
	    BAD_CAST "tbody", NULL);

	for (int v = 0; v < XA_COUNT; v++) {
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_badge(h_el(tr, "td", NULL), answer_tone((enum kv_xanswer)v),
		    answer_sym((enum kv_xanswer)v), kv_xanswer_names[v]);
		h_num_cell(tr, x->counts[v]);
		h_el(tr, "td", kv_cross_meaning((enum kv_xanswer)v));
	}
}

static void
sec_answer(xmlNodePtr main, const kv_cross *x)
{
	xmlNodePtr s = h_section(main, "answer", "1  The answer"), ul;

	if (x->same_cluster != NULL)
		h_el_own(s, "p", "note wrap", xasprintf("Warning: %s: the "
		    "answers are those of a move within it.",
		    x->same_cluster));
	h_el_own(s, "p", "answer", kv_cross_summary(x));
	ul = h_elc(s, "ul", "plain", NULL);
	for (int i = 0; i < 2; i++)
		h_el_own(ul, "li", NULL, kv_cross_side(x, i));
	for (size_t i = 0; i < x->nchanges; i++)
		h_el_own(ul, "li", "wrap", xasprintf("TARGET changed: %s",
		    x->changes[i]));
	h_el_own(ul, "li", NULL, kv_cross_copy(x));
	h_names_in(h_el(ul, "li", "best CPU model both clusters run: "),
	    (const char *const *)x->best, x->nbest, NAMES_SHOWN, JSON_FILE);
	count_table(s, x);
}

static void
sec_groups(xmlNodePtr main, const kv_cross *x)
{
	xmlNodePtr s = h_section(main, "groups", "2  The groups by cause");
	xmlNodePtr ol;

	if (x->ngroups == 0) {
		h_el(s, "p", "No reason stands in the way of any VM.");
		return;
	}
	h_el(s, "p", "Blocking causes first, then the most VMs. Each says "
	    "what it rules out (live, cold, or nothing: said) and its fix.");
	ol = h_elc(s, "ol", "groups", NULL);
	for (size_t i = 0; i < x->ngroups; i++) {
		const kv_xgroup *g = &x->groups[i];
		xmlNodePtr li = xmlNewChild(ol, NULL, BAD_CAST "li", NULL);
		xmlNodePtr hd = h_elc(li, "p", "group-head", NULL);
		const char **names = xcalloc(g->nvms + 1, sizeof(char *));
		char *id = xasprintf("group-%s", g->code);

		h_attr(li, "id", id);
		h_badge(hd, blocks_tone(g->blocks), tone_symbol(blocks_tone(
		    g->blocks)), g->code);
		h_txt(hd, " ");
		h_el_own(hd, "span", NULL, xasprintf("%zu %s (%s): %s",
		    g->nvms, g->nvms == 1 ? "VM" : "VMs",
		    kv_cross_rules_out(g->blocks), g->title));
		h_el_own(li, "p", "fix", xasprintf("Fix: %s", g->fix));
		for (size_t k = 0; k < g->nvms; k++)
			names[k] = x->vms[g->vms[k]].fullname;
		h_names_in(h_el(li, "p", "VMs: "),
		    (const char *const *)names, g->nvms, NAMES_SHOWN,
		    JSON_FILE);
		free(names);
		free(id);
	}
}

static void
sec_cpu(xmlNodePtr main, const kv_cross *x, xmlDocPtr doc)
{
	xmlNodePtr s = h_section(main, "cpu", "3  The CPU classes of both "
	    "clusters");
	kv_text *t = text_new();
	kv_fig *f = kv_cross_fig(x, t);
	xmlNodePtr fig, sc;

	h_el(s, "p", "Rows: the CPU classes of SOURCE's nodes (named "
	    "source/NAME), where a host-model VM runs now; columns: those "
	    "of TARGET's nodes, where it could go. A cell is ok, or shows "
	    "how many node labels the TARGET class lacks; hover over it for "
	    "them. A class of both clusters' nodes (identical CPU labels) "
	    "is a row and a column.");
	fig = xmlNewChild(s, NULL, BAD_CAST "figure", NULL);
	sc = h_elc(fig, "div", "scroll", NULL);
	xmlAddChild(sc, fig_svg(f, doc, false));
	h_el(fig, "figcaption", f->desc);
	fig_free(f);
	text_free(t);
}

static void
vm_row(xmlNodePtr tb, const kv_xvm *vm)
{
	xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL), td;

	h_name(tr, "td", "name", vm->fullname);
	td = h_el(tr, "td", NULL);
	h_badge(td, answer_tone(vm->answer), answer_sym(vm->answer),
	    kv_xanswer_names[vm->answer]);
	if (!vm->running)
		h_txt(td, " (stopped)");
	h_elc(tr, "td", "nowrap", vm->source_node ? vm->source_node :
	    SYM_NONE);
	h_names_in(h_elc(tr, "td", "wrap", NULL),
	    (const char *const *)vm->targets,
	    vm->ntargets, NAMES_SHOWN, JSON_FILE);
	td = h_elc(tr, "td", "why", NULL);
	if (vm->nreasons == 0)
		h_txt(td, SYM_NONE);
	for (size_t k = 0; k < vm->nreasons; k++) {
		const kv_xreason *r = &vm->reasons[k];
		xmlNodePtr p = h_elc(td, "p", "issue", NULL);

		h_elc(p, "span", h_tone_class(blocks_tone(r->blocks)),
		    r->code);
		h_el_own(p, "span", "msg", xasprintf(": %s", r->message));
	}
}

static void
sec_vms(xmlNodePtr main, const kv_cross *x)
{
	static const char *const heads[] = { "VM", "Answer", "Source node",
	    "TARGET nodes", "Reasons" };
	xmlNodePtr s = h_section(main, "vms", "4  Every VM"), tb;

	h_el(s, "p", "By namespace and name. TARGET nodes: the live targets "
	    "of a VM that could live-migrate, else the nodes that could "
	    "start it.");
	tb = xmlNewChild(h_table(s, NULL, heads, NULL, 5), NULL,
	    BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < x->nvms; i++)
		vm_row(tb, &x->vms[i]);
}

int
kv_write_cross_html(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_cross *x = arg;
	xmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
	xmlNodePtr html, body, main;
	xmlOutputBufferPtr out;
	char *title;
	int rc = KV_ERR;

	(void)a;
	xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
	html = xmlNewDocNode(doc, NULL, BAD_CAST "html", NULL);
	xmlDocSetRootElement(doc, html);
	h_attr(html, "lang", "en");
	title = title_of(x);
	html_head(html, title, false);	/* no script */
	free(title);
	body = xmlNewChild(html, NULL, BAD_CAST "body", NULL);
	masthead(body, x);
	main = xmlNewChild(body, NULL, BAD_CAST "main", NULL);
	sec_answer(main, x);
	sec_groups(main, x);
	sec_cpu(main, x, doc);
	sec_vms(main, x);
	h_el_own(xmlNewChild(body, NULL, BAD_CAST "footer", NULL), "p", NULL,
	    xasprintf("Generated by kvscope %s from two snapshots. %s, "
	    "written with this page, holds the same answers in "
	    "machine-readable form (docs/crosscheck.md).", KV_VERSION,
	    JSON_FILE));
	xml_errors_begin();
	out = xmlOutputBufferCreateFile(f, xmlFindCharEncodingHandler("UTF-8"));
	htmlDocContentDumpFormatOutput(out, doc, "UTF-8", 1);
	if (xmlOutputBufferClose(out) < 0)
		kv_seterr(err, "report.html: %s", xml_errors_end());
	else {
		xml_errors_end();
		rc = KV_OK;
	}
	xmlFreeDoc(doc);
	return rc;
}
