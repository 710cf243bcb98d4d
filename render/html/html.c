/*
 * html.c - the self-contained HTML report (kv_write_html, render.h).
 *
 * The document is a libxml2 HTML tree.  Element and attribute names are
 * ours; every datum enters through xmlNewTextChild (text) or xmlNewProp
 * (attribute values), which escape it, and no href is ever built from a
 * name (anchors use node indexes and the fixed rule codes).  A word of
 * text holding a bidi control or zero-width character is isolated in a
 * <bdi> and, there as in attribute values and the <title>, shows such
 * characters as "<U+202E>" (text_visible), as the SVG and the PDF do
 * (the tree helpers are htmltree.c).  The CSS and the optional script
 * are the compiled-in templates, allowed by their SHA-256 in a
 * Content-Security-Policy that forbids every other source,
 * so the file opens offline and cannot load anything.  Figures are the
 * same shape lists as the .svg files, inlined as <svg> (svg.c).
 *
 * Sections and their order follow the PDF (pdf.c); sentences come from
 * prose.c.  Output is a function of the analysis only.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>

#include "render/html/html.h"

#define MAX_NAMES	12	/* node names listed in a cell */
#define MAX_MODELS	6	/* model names listed in a cell, the rest
				 * folded */
#define W(w) kv_word(a, KV_WORD_##w)

/* The HTML report's sections, in order: the answer and the problems
 * first, the CPU detail, the nodes and the full list after. */
enum hsec {
	H_CHANGES, H_SUMMARY, H_GROUPS, H_DRAIN, H_WINDOW, H_ATTENTION,
	H_CLASSES, H_MODELS, H_TRADEOFF, H_CLUSTER, H_VMS, H_GLOSSARY, H_COUNT
};
static const struct {
	const char *id;
	int sec;		/* the shared title (format.c), or -1 */
} hsecs[H_COUNT] = {
	[H_CHANGES] = { "changes", SEC_CHANGES },	/* a diff's only */
	[H_SUMMARY] = { "summary", SEC_SUMMARY },
	[H_GROUPS] = { "groups", -1 },
	[H_DRAIN] = { "drain", SEC_DRAIN },
	[H_WINDOW] = { "window", SEC_WINDOW },
	[H_ATTENTION] = { "attention", -1 },
	[H_CLASSES] = { "classes", SEC_CLASSES },
	[H_MODELS] = { "models", SEC_MODELS },
	[H_TRADEOFF] = { "tradeoff", SEC_TRADEOFF },
	[H_CLUSTER] = { "cluster", -1 },
	[H_VMS] = { "vms", -1 },
	[H_GLOSSARY] = { "glossary", SEC_GLOSSARY },
};
#define FOLD_MIN 13	/* a list of this many rows starts collapsed */

typedef struct hdoc {
	const kv_analysis *a;
	xmlDocPtr doc;
	kv_text *t;
	kv_mview mv;
	char snapdate[21];	/* createdAt, normalised */
	const kv_report_diff *diff;	/* a what-if's or diff's, or NULL */
} hdoc;

static void
figure(hdoc *h, xmlNodePtr parent, kv_fig *f)
{
	xmlNodePtr fig = xmlNewChild(parent, NULL, BAD_CAST "figure", NULL);
	xmlNodePtr sc = xmlNewChild(fig, NULL, BAD_CAST "div", NULL);

	h_attr(sc, "class", "scroll");
	xmlAddChild(sc, fig_svg(f, h->doc, false));
	h_el(fig, "figcaption", f->desc);
	fig_free(f);
}

/* --- head ------------------------------------------------------------- */

char *
html_csp_hash(const char *s)
{
	guint8 digest[32];
	gsize len = sizeof(digest);
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	gchar *b64;
	char *out;

	g_checksum_update(c, (const guchar *)s, (gssize)strlen(s));
	g_checksum_get_digest(c, digest, &len);
	g_checksum_free(c);
	b64 = g_base64_encode(digest, len);
	out = xasprintf("'sha256-%s'", b64);
	g_free(b64);
	return out;
}

void
html_head(xmlNodePtr html, const char *title, bool script)
{
	xmlNodePtr hd = xmlNewChild(html, NULL, BAD_CAST "head", NULL), n;
	char *css = html_csp_hash(kv_report_css);
	char *js = script ? html_csp_hash(kv_report_js) : xstrdup("'none'");
	char *policy = xasprintf("default-src 'none'; style-src %s; "
	    "script-src %s; img-src 'none'; font-src 'none'; "
	    "connect-src 'none'; base-uri 'none'; form-action 'none'", css,
	    js);

	n = xmlNewChild(hd, NULL, BAD_CAST "meta", NULL);
	h_attr(n, "charset", "utf-8");
	n = xmlNewChild(hd, NULL, BAD_CAST "meta", NULL);
	h_attr(n, "http-equiv", "Content-Security-Policy");
	h_attr(n, "content", policy);
	n = xmlNewChild(hd, NULL, BAD_CAST "meta", NULL);
	h_attr(n, "name", "viewport");
	h_attr(n, "content", "width=device-width, initial-scale=1");
	n = xmlNewChild(hd, NULL, BAD_CAST "meta", NULL);
	h_attr(n, "name", "generator");
	h_attr(n, "content", "kvscope " KV_VERSION);
	h_el(hd, "title", title);
	/* raw-text element: only the compiled-in stylesheet goes here */
	h_el(hd, "style", kv_report_css);
	free(css);
	free(js);
	free(policy);
}

static void
head(hdoc *h, xmlNodePtr html)
{
	const snap_manifest *mf = &h->a->m->manifest;
	char *rt = report_heading(h->a, h->diff);
	char *title = xasprintf("%s: %s, %s", rt,
	    mf->context ? mf->context : "cluster", h->snapdate);

	html_head(html, title, true);
	free(title);
	free(rt);
}

/* --- sections ----------------------------------------------------------- */

/* "4  VMIs that need attention"; numbered from the Changes section when
 * the report has one, else from the summary */
static char *
hsec_title(const hdoc *h, enum hsec i)
{
	const kv_analysis *a = h->a;
	int num = (int)i + (h->diff != NULL);
	char *shared, *t;
	const char *p;

	switch (i) {
	case H_CHANGES:
		shared = diff_title(h->diff);
		t = xasprintf("%d  %s", num, shared);
		free(shared);
		return t;
	case H_GROUPS:
		return xasprintf("%d  What to change, largest first", num);
	case H_ATTENTION:
		return xasprintf("%d  %s that need attention", num, W(VMS));
	case H_CLUSTER:
		return xasprintf("%d  Cluster, snapshot and nodes", num);
	case H_VMS:
		return xasprintf("%d  Every %s", num, W(VM));
	default:
		break;
	}
	shared = section_title(a, (enum kv_section)hsecs[i].sec);
	p = strstr(shared, "  ");
	t = xasprintf("%d  %s", num, p != NULL ? p + 2 : shared);
	free(shared);
	return t;
}

/* Where a long list goes: parent itself when short, else a collapsed
 * <details> saying what it holds. */
static xmlNodePtr
fold(xmlNodePtr parent, size_t rows, const char *what)
{
	char *sum;
	xmlNodePtr d;

	if (rows < FOLD_MIN)
		return parent;
	sum = xasprintf("%s (%zu)", what, rows);
	d = h_details(parent, sum, false);
	free(sum);
	return d;
}

static void
masthead(hdoc *h, xmlNodePtr body)
{
	const snap_manifest *mf = &h->a->m->manifest;
	xmlNodePtr hd = xmlNewChild(body, NULL, BAD_CAST "header", NULL);
	xmlNodePtr nav, ol;
	char rules[128];
	char *unknown = snap_time_unknown(mf);
	char *taken = unknown != NULL ? unknown :
	    xasprintf("snapshot taken %s", h->snapdate);

	kv_rules_version_describe(&h->a->cfg.rules, rules, sizeof(rules));
	h_attr(hd, "class", "masthead");
	h_el_own(hd, "h1", NULL, report_heading(h->a, h->diff));
	h_el_own(hd, "p", "sub", xasprintf("Cluster %s \u00b7 %s%s \u00b7 "
	    "kvscope %s, %s", mf->context ? mf->context :
	    "(unnamed)", taken, h->diff == NULL ? "" :
	    diff_is_whatif(h->diff) ?
	    ", as it would be after the changes of section 1" :
	    ", against an older one in section 1", KV_VERSION, rules));
	free(taken);
	nav = xmlNewChild(body, NULL, BAD_CAST "nav", NULL);
	h_attr(nav, "class", "toc");
	h_attr(nav, "aria-label", "Contents");
	h_el(nav, "h2", "Contents");
	ol = xmlNewChild(nav, NULL, BAD_CAST "ol", NULL);
	for (int i = h->diff ? 0 : 1; i < H_COUNT; i++) {
		xmlNodePtr a = h_el(xmlNewChild(ol, NULL, BAD_CAST "li", NULL),
		    "a", NULL);
		char *href = xasprintf("#%s", hsecs[i].id);
		char *label = hsec_title(h, (enum hsec)i);

		h_attr(a, "href", href);
		h_txt(a, label);
		free(href);
		free(label);
	}
}

static xmlNodePtr
numbered(hdoc *h, xmlNodePtr main, enum hsec i)
{
	char *t = hsec_title(h, i);
	xmlNodePtr s = h_section(main, hsecs[i].id, t);

	free(t);
	return s;
}

static void
sec_summary(hdoc *h, xmlNodePtr main)
{
	const kv_analysis *a = h->a;
	xmlNodePtr s = numbered(h, main, H_SUMMARY), t, tb;
	char *note;
	static const char *const heads[] = { "Verdict", "VMs", "Meaning" };
	static const char *const hcls[] = { NULL, "num", NULL };

	/* what the input lacked, first: the verdicts below stand on it */
	for (size_t i = 0; i < a->ncoded; i++)
		if (kv_warning_said[a->coded[i].code])
			h_el_own(s, "p", "note wrap", xasprintf("Warning: %s",
			    a->coded[i].message));
	h_el_own(s, "p", "answer", prose_headline(a));
	html_groups_brief(s, a, 6);
	h_el_own(s, "p", "answer", drain_headline(a));
	h_el_own(s, "p", NULL, prose_verdicts(a));
	figure(h, s, fig_verdicts(a, h->t));
	t = h_table(s, NULL, heads, hcls, 3);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (int v = 0; v < V_COUNT; v++) {
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_badge(h_el(tr, "td", NULL), verdict_tone((enum kv_verdict)v),
		    verdict_symbol((enum kv_verdict)v), kv_verdict_names[v]);
		h_num_cell(tr, a->summary.verdicts[v]);
		h_el(tr, "td", verdict_meaning((enum kv_verdict)v));
	}
	if ((note = prose_mismatch(a)) != NULL)
		h_el_own(s, "p", "note", note);
}

static void
sec_cluster(hdoc *h, xmlNodePtr main)
{
	const kv_analysis *a = h->a;
	const kv_model *m = a->m;
	xmlNodePtr s = numbered(h, main, H_CLUSTER), t, tb, ul;
	char *absent;
	kv_fact *fv;
	size_t nf;
	static const char *const nheads[] = { "Node", "Class", "Vendor",
	    "Host model", "Level", "AVX2", "AVX-512", "Schedulable", "VMs",
	    "Kernel / OS image" };
	static const char *const nhcls[] = { NULL, NULL, NULL, NULL, "num",
	    NULL, NULL, NULL, "num", NULL };

	h_el_own(s, "p", "answer", prose_cluster(a));
	fv = snapshot_facts(a, &nf);
	h_facts_table(s, fv, nf);

	h_el(s, "h3", "What the snapshot lacked");
	h_el_own(s, "p", NULL, prose_lacked(a));
	if (a->nwarnings > 0) {
		ul = xmlNewChild(s, NULL, BAD_CAST "ul", NULL);
		h_attr(ul, "class", "plain");
		for (size_t i = 0; i < a->nwarnings; i++)
			h_elc(ul, "li", "wrap", a->warnings[i]);
	}
	if ((absent = prose_absent(a)) != NULL)
		h_el_own(s, "p", "note wrap", absent);

	h_el(s, "h3", "Effective migration settings");
	fv = settings_facts(a, &nf);
	h_facts_table(s, fv, nf);

	h_el(s, "h3", "Nodes");
	t = h_table(fold(s, m->nnodes, "Every node"), "sort", nheads, nhcls,
	    10);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_nodeinfo *ni = &a->nodes[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);
		char *id = html_node_anchor(m->nodes[i].name, false);

		h_attr(tr, "id", id);
		free(id);
		h_elc(tr, "td", "name", m->nodes[i].name);
		h_el(tr, "td", node_class(a, i));
		h_el(tr, "td", ni->vendor ? ni->vendor : SYM_NONE);
		h_elc(tr, "td", "wrap", ni->host_model ? ni->host_model :
		    SYM_NONE);
		if (ni->level >= 0)
			h_el_own(tr, "td", "num", xasprintf("v%d", ni->level));
		else
			h_elc(tr, "td", "num", SYM_NONE);
		h_el(tr, "td", ni->avx2 ? "yes" : "no");
		h_el(tr, "td", ni->avx512f ? "yes" : "no");
		if (!ni->kubevirt)
			h_elc(tr, "td", "tone-none", "no CPU labels");
		else if (ni->schedulable)
			h_elc(tr, "td", "tone-ok", SYM_OK " yes");
		else
			h_elc(tr, "td", "tone-warn", SYM_WARN " no");
		h_num_cell(tr, ni->nvmis);
		h_el_own(tr, "td", "wrap", xasprintf("%s / %s",
		    m->nodes[i].kernel ? m->nodes[i].kernel : SYM_NONE,
		    m->nodes[i].os_image ? m->nodes[i].os_image : SYM_NONE));
	}
}

static void
sec_classes(hdoc *h, xmlNodePtr main)
{
	const kv_analysis *a = h->a;
	xmlNodePtr s = numbered(h, main, H_CLASSES), t, tb;
	char *note;
	static const char *const heads[] = { "Class", "Vendor", "Host model",
	    "Level", "Required features", "Nodes" };
	static const char *const hcls[] = { NULL, NULL, NULL, "num", NULL,
	    NULL };

	h_el_own(s, "p", "answer", prose_matrix(a));
	h_el_own(s, "p", NULL, xasprintf("%s Hover over a cell for the "
	    "missing labels.", prose_matrix_howto()));
	if (a->nclasses == 0)
		return;
	if ((note = prose_aggregated(a)) != NULL)
		h_el_own(s, "p", "note", note);
	figure(h, s, fig_matrix(a, h->t, &h->mv, 0, h->mv.row.n, 0,
	    h->mv.col.n));
	h_el(s, "h3", "The classes and their nodes");
	t = h_table(fold(s, a->nclasses, "Every class"), "sort", heads, hcls,
	    6);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);
		char *names;

		h_el(tr, "td", c->id);
		h_el(tr, "td", c->vendor ? c->vendor : SYM_NONE);
		h_elc(tr, "td", "wrap", c->host_model ? c->host_model :
		    "(no host model)");
		if (c->level >= 0)
			h_el_own(tr, "td", "num", xasprintf("v%d", c->level));
		else
			h_elc(tr, "td", "num", SYM_NONE);
		if (c->nreq)
			h_names(h_elc(tr, "td", "wrap mono", NULL),
			    (const char *const *)c->req, c->nreq, MAX_NAMES);
		else
			h_elc(tr, "td", "wrap mono", SYM_NONE);
		names = xasprintf("%zu: ", c->nnodes);
		h_node_names(h_elc(tr, "td", "wrap", names), a, c->nodes,
		    c->nnodes, MAX_NAMES);
		free(names);
	}
}

static void
vendor_note(hdoc *h, xmlNodePtr s)
{
	const char *rule = prose_vendor_rule(h->a);

	if (rule != NULL)
		h_elc(s, "p", "rule", rule);
}

static void
sec_models(hdoc *h, xmlNodePtr main)
{
	const kv_analysis *a = h->a;
	xmlNodePtr s = numbered(h, main, H_MODELS), t, tb;
	static const char *const sheads[] = { "Scope", "Nodes",
	    "Best common models", "All common models" };
	static const char *const sh[] = { NULL, "num", NULL, NULL };
	static const char *const mheads[] = { "Model", "Vendor", "Level",
	    "AVX2", "AVX-512", "Nodes", "Runs on" };
	static const char *const mh[] = { NULL, NULL, "num", NULL, NULL,
	    "num", NULL };

	h_el_own(s, "p", "answer", prose_named(a));
	vendor_note(h, s);
	t = h_table(s, NULL, sheads, sh, 4);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < a->nscopes; i++) {
		const kv_scope *sc = &a->scopes[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_elc(tr, "td", "nowrap", sc->name);
		h_num_cell(tr, sc->nnodes);
		h_names(h_elc(tr, "td", "wrap mono", NULL),
		    (const char *const *)sc->best, sc->nbest, MAX_MODELS);
		h_names(h_elc(tr, "td", "wrap mono", NULL),
		    (const char *const *)sc->common, sc->ncommon, MAX_MODELS);
	}
	t = h_table(h_details(s, "Every usable named model", false), "sort",
	    mheads, mh, 7);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < a->nnamed; i++) {
		const kv_named *nm = &a->named[i];
		const cpudb_model *cm = nm->info;
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_elc(tr, "td", "mono wrap", nm->model);
		h_el(tr, "td", cm ? cm->vendor ? cm->vendor : SYM_NONE :
		    "unknown");
		if (cm != NULL)
			h_el_own(tr, "td", "num", xasprintf("v%d", cm->level));
		else
			h_elc(tr, "td", "num", SYM_NONE);
		h_el(tr, "td", cm ? cm->avx2 ? "yes" : "no" : SYM_NONE);
		h_el(tr, "td", cm ? cm->avx512f ? "yes" : "no" : SYM_NONE);
		h_num_cell(tr, nm->nnodes);
		h_node_names(h_elc(tr, "td", "wrap", NULL), a, nm->nodes,
		    nm->nnodes, MAX_NAMES);
	}
}

static void
sec_tradeoff(hdoc *h, xmlNodePtr main)
{
	const kv_analysis *a = h->a;
	xmlNodePtr s = numbered(h, main, H_TRADEOFF), t, tb;
	static const char *const heads[] = { "Scope", "Tier", "Nodes",
	    "Models reaching them", "Nodes left out",
	    "Guests it is too old for" };
	static const char *const hc[] = { NULL, NULL, "num", NULL, NULL,
	    NULL };
	size_t above[5];
	bool guests;

	guest_floor_counts(a, above);
	guests = above[1] > 0;	/* a guest OS needs x86-64-v2 or more */
	h_el_own(s, "p", "answer", prose_tradeoff(a));
	h_el(s, "p", prose_tradeoff_howto());
	vendor_note(h, s);
	figure(h, s, fig_tradeoff(a, h->t));
	t = h_table(s, NULL, heads, hc, guests ? 6 : 5);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < a->ntradeoff; i++) {
		const kv_tradeoff *tr = &a->tradeoff[i];
		xmlNodePtr row = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_elc(row, "td", "nowrap", a->scopes[tr->scope].name);
		h_elc(row, "td", "nowrap", tr->tier);
		h_el_own(row, "td", "num", xasprintf("%zu of %zu", tr->nodes,
		    tr->of));
		h_names(h_elc(row, "td", "wrap mono", NULL),
		    (const char *const *)tr->models, tr->nmodels, MAX_MODELS);
		if (tr->nexcluded)
			h_node_names(h_elc(row, "td", "wrap", NULL), a,
			    tr->excluded, tr->nexcluded, MAX_NAMES);
		else
			h_el(row, "td", SYM_NONE);
		if (guests) {
			char *g = tradeoff_guests(a, tr, above);

			h_el_own(row, "td", g ? "wrap tone-warn" : "wrap",
			    g ? g : xstrdup(SYM_NONE));
		}
	}
}

/* Each cell of tr labelled with its column's heading (data-label): on a
 * narrow screen the table reads as one labelled block per row
 * (report.css), with no column cut off. */
static void
label_cells(xmlNodePtr tr, const char *const *heads, size_t n)
{
	size_t i = 0;

	for (xmlNodePtr c = tr->children; c != NULL && i < n; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			h_attr(c, "data-label", heads[i++]);
}

static void
sec_drain(hdoc *h, xmlNodePtr main)
{
	const kv_analysis *a = h->a;
	xmlNodePtr s = numbered(h, main, H_DRAIN), t, tb;
	char *blocking = xasprintf("Blocking %s", W(VMS));
	const char *const heads[] = { "Node", "VMs", "Migrate",
	    "Block", "Stop", "External", "Memory to move", "Estimate",
	    blocking };
	static const char *const hc[] = { NULL, "num", "num", "num", "num",
	    "num", "num", "num", NULL };

	h_el_own(s, "p", "answer", drain_headline(a));
	h_el_own(s, "p", NULL, prose_drain(a));
	h_el_own(s, "p", "note", prose_drain_assumption(a));
	if (a->ndrain == 0) {
		free(blocking);
		return;
	}
	figure(h, s, fig_drain(a, h->t));
	t = h_table(fold(s, a->ndrain, "Every node's drain"), "sort cards",
	    heads, hc, 9);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *d = &a->drain[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL), td;
		char *id = html_node_anchor(a->m->nodes[d->node].name,
		    true), *v;

		td = h_el(tr, "td", NULL);
		h_attr(h_elc(td, "a", "wrap", a->m->nodes[d->node].name),
		    "href", id);
		free(id);
		h_num_cell(tr, d->vmis);
		h_num_cell(tr, d->migrate);
		td = h_num_cell(tr, d->block);
		if (d->block)
			xmlSetProp(td, BAD_CAST "class",
			    BAD_CAST "num tone-fail");
		td = h_num_cell(tr, d->shutdown);
		if (d->shutdown)
			xmlSetProp(td, BAD_CAST "class",
			    BAD_CAST "num tone-warn");
		h_num_cell(tr, d->external);
		td = h_el_own(tr, "td", "num", kv_fmt_bytes(d->memory));
		v = xasprintf("%lld", (long long)d->memory);
		h_attr(td, "data-sort", v);
		free(v);
		td = h_el_own(tr, "td", "num", fmt_duration(d->seconds));
		v = xasprintf("%lld", (long long)d->seconds);
		h_attr(td, "data-sort", v);
		free(v);
		if (d->nblocking)
			h_el_own(tr, "td", "wrap tone-fail",
			    str_list(d->blocking, d->nblocking, MAX_NAMES));
		else
			h_el(tr, "td", SYM_NONE);
		label_cells(tr, heads, 9);
	}
	free(blocking);
	drain_html_plans(a, s);
}

static void
sec_glossary(hdoc *h, xmlNodePtr main)
{
	xmlNodePtr s = numbered(h, main, H_GLOSSARY), t, tb;
	static const char *const vheads[] = { "Verdict", "Meaning" };
	static const char *const heads[] = { "Code", "Kind", "VMs", "Title",
	    "Remediation" };
	static const char *const hc[] = { NULL, NULL, "num", NULL, NULL };
	size_t *count = code_counts(h->a);

	h_el(s, "p", prose_glossary_intro());
	t = h_table(s, NULL, vheads, NULL, 2);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (int v = 0; v < V_COUNT; v++) {
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_badge(h_el(tr, "td", NULL), verdict_tone((enum kv_verdict)v),
		    verdict_symbol((enum kv_verdict)v), kv_verdict_names[v]);
		h_el(tr, "td", verdict_meaning((enum kv_verdict)v));
	}
	t = h_table(s, "sort", heads, hc, 5);
	tb = xmlNewChild(t, NULL, BAD_CAST "tbody", NULL);
	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *r = &kv_rules[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL), td;
		char *id = xasprintf("code-%s", r->code);
		const char *title, *remedy;

		td = h_elc(tr, "td", "mono", r->code);
		h_attr(td, "id", id);
		free(id);
		if (r->severity == SEV_BLOCKER)
			h_elc(tr, "td", "tone-fail nowrap",
			    SYM_FAIL " blocker");
		else
			h_elc(tr, "td", "tone-warn nowrap",
			    SYM_WARN " warning");
		td = h_num_cell(tr, count[i]);
		if (count[i] == 0)
			xmlSetProp(td, BAD_CAST "class",
			    BAD_CAST "num tone-none");
		kv_rule_text(h->a, r, &title, &remedy);
		h_el(tr, "td", title);
		h_el(tr, "td", remedy);
	}
	free(count);
}

static void
footer(hdoc *h, xmlNodePtr body)
{
	const snap_manifest *mf = &h->a->m->manifest;
	xmlNodePtr f = xmlNewChild(body, NULL, BAD_CAST "footer", NULL);

	h_el_own(f, "p", NULL, xasprintf("Generated by kvscope %s from the "
	    "snapshot of %s taken %s. findings.json, written with this report, "
	    "holds the same conclusions in machine-readable form.",
	    KV_VERSION, mf->context ? mf->context : "(unnamed)",
	    h->snapdate));
}

int
kv_write_html(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_report_opts *opts = arg;
	hdoc h = { .a = a, .diff = opts ? opts->diff : NULL };
	xmlNodePtr html, body, main;
	xmlOutputBufferPtr out;
	int rc = KV_ERR;

	h.doc = htmlNewDocNoDtD(NULL, NULL);
	h.t = text_new();
	mview_init(&h.mv, a);
	snapshot_date(a, h.snapdate);
	xmlCreateIntSubset(h.doc, BAD_CAST "html", NULL, NULL);
	html = xmlNewDocNode(h.doc, NULL, BAD_CAST "html", NULL);
	xmlDocSetRootElement(h.doc, html);
	h_attr(html, "lang", "en");
	head(&h, html);
	body = xmlNewChild(html, NULL, BAD_CAST "body", NULL);
	masthead(&h, body);
	main = xmlNewChild(body, NULL, BAD_CAST "main", NULL);
	if (h.diff != NULL)
		html_sec_changes(numbered(&h, main, H_CHANGES), a, h.diff);
	sec_summary(&h, main);
	html_sec_groups(numbered(&h, main, H_GROUPS), a);
	sec_drain(&h, main);
	html_sec_window(numbered(&h, main, H_WINDOW), a, h.doc, h.t);
	html_attention(numbered(&h, main, H_ATTENTION), a);
	sec_classes(&h, main);
	sec_models(&h, main);
	sec_tradeoff(&h, main);
	sec_cluster(&h, main);
	html_vmi_list(numbered(&h, main, H_VMS), a);
	sec_glossary(&h, main);
	footer(&h, body);
	/* raw-text element: only the compiled-in script goes here */
	h_el(body, "script", kv_report_js);
	/* UTF-8 written as is (the meta charset says so), not as entities */
	xml_errors_begin();
	out = xmlOutputBufferCreateFile(f, xmlFindCharEncodingHandler("UTF-8"));
	htmlDocContentDumpFormatOutput(out, h.doc, "UTF-8", 1);
	if (xmlOutputBufferClose(out) < 0)
		kv_seterr(err, "report.html: %s", xml_errors_end());
	else {
		xml_errors_end();
		rc = KV_OK;
	}
	xmlFreeDoc(h.doc);
	text_free(h.t);
	return rc;
}
