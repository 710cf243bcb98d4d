/*
 * sec_diff.c - the first section of a what-if's or a diff's report
 * (kv_report_diff, render.h): what the change does, or what changed since
 * the older snapshot.  The words both writers use (the title, the answer,
 * a VMI's codes) and the HTML section; pdf_diff.c draws the PDF's from the
 * same words.  The section reads only the diff (analyze/change/diff.h), the
 * what-if's notes and the two analyses' manifests; every snapshot string
 * enters the tree through the h_* helpers.  Strings returned are the
 * caller's.
 */
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/diff.h"
#include "render/html/html.h"
#include "render/view.h"

#define W(w) kv_word(a, KV_WORD_##w)
#define FOLD_ROWS 13	/* a longer table starts collapsed */

bool
diff_is_whatif(const kv_report_diff *rd)
{
	return rd->notes != NULL && rd->notes->notes != NULL;
}

char *
diff_title(const kv_report_diff *rd)
{
	return xstrdup(diff_is_whatif(rd) ? "What the change does" :
	    "Since the older snapshot");
}

char *
report_heading(const kv_analysis *a, const kv_report_diff *rd)
{
	char then[21], now[21];
	kv_buf b = {0};

	if (rd == NULL)
		return report_title(a);
	if (!diff_is_whatif(rd)) {
		snapshot_date(rd->before, then);
		snapshot_date(a, now);
		return xasprintf("Difference: %s \u2192 %s", then, now);
	}
	/* the first two changes, each up to its details ("... (VMI x):
	 * takes effect after a restart"); those are in section 1 */
	kv_buf_printf(&b, "What if: ");
	for (size_t i = 0; i < rd->notes->nnotes && i < 2; i++) {
		const char *n = rd->notes->notes[i];
		size_t k = strcspn(n, "(:");

		kv_buf_printf(&b, "%s%.*s", i ? "; " : "",
		    (int)(k ? k : strlen(n)), n);
		while (b.len > 0 && b.data[b.len - 1] == ' ')
			b.data[--b.len] = '\0';
	}
	if (rd->notes->nnotes > 2)
		kv_buf_printf(&b, " and %zu more change%s",
		    rd->notes->nnotes - 2, rd->notes->nnotes > 3 ? "s" : "");
	return b.data;
}

char *
diff_answer(const kv_analysis *a, const kv_report_diff *rd)
{
	const kv_diff *d = rd->d;
	bool wi = diff_is_whatif(rd);
	kv_buf b = {0};

	kv_buf_printf(&b, "%s: %zu %s better, %zu worse, %zu changed in all",
	    d->worse ? wi ? "Something gets worse" : "Something got worse" :
	    wi ? "Nothing gets worse" : "Nothing got worse", d->nbetter,
	    plural(d->nbetter, W(VM), W(VMS)), d->nworse, d->nvmis);
	if (wi)
		kv_buf_printf(&b, "; %zu running %s %s to restart for it",
		    rd->notes->restarts, plural(rd->notes->restarts, W(VM),
		    W(VMS)), rd->notes->restarts == 1 ? "has" : "have");
	if (d->nuntold > 0)
		kv_buf_printf(&b, "; cannot tell for %zu %s", d->nuntold,
		    plural(d->nuntold, W(VM), W(VMS)));
	for (int s = 0; s < 2; s++) {
		char *l = kv_diff_untold(d, s, wi, a->m->flavor->vocab);

		if (l != NULL)
			kv_buf_printf(&b, "; %s", l);
		free(l);
	}
	kv_buf_printf(&b, ".");
	return b.data;
}

char *
diff_intro(const kv_analysis *a, const kv_report_diff *rd)
{
	char then[21], now[21];

	snapshot_date(a, now);
	if (diff_is_whatif(rd))
		return xasprintf("This report shows the cluster as it would be "
		    "after the changes below, applied to the snapshot taken "
		    "%s; the sections after this one describe that state. "
		    "Nothing was changed in the cluster.", now);
	snapshot_date(rd->before, then);
	return xasprintf("The older snapshot was taken %s, the snapshot of "
	    "this report %s; the sections after this one describe the newer "
	    "one.", then, now);
}

char *
diff_node_labels(const kv_diff_node *n)
{
	kv_buf b = {0};

	if (n->host_model_changed)
		kv_buf_printf(&b, "host model %s \u2192 %s", n->host_model[0] ?
		    n->host_model[0] : SYM_NONE, n->host_model[1] ?
		    n->host_model[1] : SYM_NONE);
	if (n->vendor_changed)
		kv_buf_printf(&b, "%svendor %s \u2192 %s", b.len ? "; " : "",
		    n->vendor[0] ? n->vendor[0] : SYM_NONE, n->vendor[1] ?
		    n->vendor[1] : SYM_NONE);
	for (size_t k = 0; k < n->labels_lost.n; k++)
		kv_buf_printf(&b, "%s\u2212%s", b.len ? "; " : "",
		    n->labels_lost.v[k]);
	for (size_t k = 0; k < n->labels_gained.n; k++)
		kv_buf_printf(&b, "%s+%s", b.len ? "; " : "",
		    n->labels_gained.v[k]);
	/* the rest of what changed of the node (issue 41) */
	if (n->unsched[0] != n->unsched[1])
		kv_buf_printf(&b, "%s%s", b.len ? "; " : "", n->unsched[1] ?
		    "cordoned" : "uncordoned");
	for (size_t k = 0; k < n->taints_lost.n; k++)
		kv_buf_printf(&b, "%staint \u2212%s", b.len ? "; " : "",
		    n->taints_lost.v[k]);
	for (size_t k = 0; k < n->taints_gained.n; k++)
		kv_buf_printf(&b, "%staint +%s", b.len ? "; " : "",
		    n->taints_gained.v[k]);
	for (size_t k = 0; k < n->alloc.n; k++)
		kv_buf_printf(&b, "%sallocatable %s", b.len ? "; " : "",
		    n->alloc.v[k]);
	for (size_t k = 0; k < n->other_lost.n; k++)
		kv_buf_printf(&b, "%slabel \u2212%s", b.len ? "; " : "",
		    n->other_lost.v[k]);
	for (size_t k = 0; k < n->other_gained.n; k++)
		kv_buf_printf(&b, "%slabel +%s", b.len ? "; " : "",
		    n->other_gained.v[k]);
	return b.data ? b.data : xstrdup(SYM_NONE);
}

char *
diff_codes(const kv_diff_vmi *v)
{
	kv_buf b = {0};

	for (size_t i = 0; i < v->added.n; i++)
		kv_buf_printf(&b, "%s+%s", b.len ? " " : "", v->added.v[i]);
	for (size_t i = 0; i < v->removed.n; i++)
		kv_buf_printf(&b, "%s\u2212%s", b.len ? " " : "",
		    v->removed.v[i]);
	return b.data != NULL ? b.data : xstrdup(SYM_NONE);
}

const char *
diff_group_change(const kv_diff_group *g)
{
	return g->vmis[0] == 0 ? "new" : g->vmis[1] == 0 ? "resolved" :
	    "changed";
}

/* "3 \u2192 1", or "3" when equal */
char *
diff_pair(size_t x, size_t y)
{
	return x == y ? xasprintf("%zu", x) : xasprintf("%zu \u2192 %zu", x,
	    y);
}

/* --- HTML ------------------------------------------------------------- */

static xmlNodePtr
table(xmlNodePtr s, size_t rows, const char *what, const char *const *heads,
    const char *const *hc, size_t n)
{
	if (rows >= FOLD_ROWS) {
		char *sum = xasprintf("%s (%zu)", what, rows);

		s = h_details(s, sum, false);
		free(sum);
	}
	return xmlNewChild(h_table(s, "sort", heads, hc, n), NULL,
	    BAD_CAST "tbody", NULL);
}

/* "label a, b, c." when l has names */
static void
names(xmlNodePtr s, const char *label, const kv_strs *l)
{
	char *v;

	if (l->n == 0)
		return;
	v = str_list(l->v, l->n, 30);
	h_el_own(s, "p", "wrap", xasprintf("%s %s.", label, v));
	free(v);
}

static void
verdict_cell(xmlNodePtr tr, const kv_diff_vmi *v)
{
	xmlNodePtr td = h_el(tr, "td", NULL);

	h_badge(td, verdict_tone(v->verdict[0]), verdict_symbol(v->verdict[0]),
	    kv_verdict_names[v->verdict[0]]);
	h_txt(td, " \u2192 ");
	h_badge(td, verdict_tone(v->verdict[1]), verdict_symbol(v->verdict[1]),
	    kv_verdict_names[v->verdict[1]]);
	/* the terminal's WORSE and CANNOT TELL (view_diff.c) */
	if (v->worse || v->untold)
		h_elc(td, "span", v->worse ? "tone-fail" : "tone-warn",
		    v->worse ? " worse" : " cannot tell");
}

static void
vmis(xmlNodePtr s, const kv_analysis *a, const kv_diff *d)
{
	char *title, *added, *removed;
	const char *const heads[] = { W(VM), "Verdict", "Targets", "On drain",
	    "Reason codes" };
	static const char *const hc[] = { NULL, NULL, "num", NULL, NULL };
	xmlNodePtr tb;

	title = xasprintf("%s whose verdict, targets or drain changed",
	    W(VMS));
	h_el(s, "h3", title);
	if (d->nvmis == 0)
		h_el_own(s, "p", NULL, xasprintf("None: every %s keeps its "
		    "verdict, targets and drain behaviour.", W(VM)));
	tb = d->nvmis ? table(s, d->nvmis, title, heads, hc, 5) : NULL;
	for (size_t i = 0; i < d->nvmis; i++) {
		const kv_diff_vmi *v = &d->vmis[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_elc(tr, "td", "name", v->name);
		verdict_cell(tr, v);
		h_el_own(tr, "td", "num", diff_pair(v->targets[0],
		    v->targets[1]));
		h_el_own(tr, "td", v->drain[0] != v->drain[1] ? "tone-warn" :
		    NULL, v->drain[0] == v->drain[1] ?
		    xstrdup(drain_word(v->drain[1])) : xasprintf("%s \u2192 "
		    "%s", drain_word(v->drain[0]), drain_word(v->drain[1])));
		h_el_own(tr, "td", v->worse ? "wrap mono tone-fail" :
		    "wrap mono", diff_codes(v));
	}
	added = xasprintf("New %s:", W(VMS));
	removed = xasprintf("%s gone:", W(VMS));
	names(s, added, &d->vmis_added);
	names(s, removed, &d->vmis_removed);
	free(added);
	free(removed);
	free(title);
}

static void
groups(xmlNodePtr s, const kv_analysis *a, const kv_diff *d)
{
	const char *const heads[] = { "Change", "Code", "Subject", W(VMS) };
	static const char *const hc[] = { NULL, NULL, NULL, "num" };
	xmlNodePtr tb;

	if (d->ngroups == 0)
		return;
	h_el(s, "h3", "Groups resolved, new or changed");
	tb = table(s, d->ngroups, "Every group that changed", heads, hc, 4);
	for (size_t i = 0; i < d->ngroups; i++) {
		const kv_diff_group *g = &d->groups[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);
		const char *ch = diff_group_change(g);

		h_elc(tr, "td", *ch == 'r' ? "tone-ok" : *ch == 'n' ?
		    "tone-fail" : NULL, ch);
		h_elc(tr, "td", "mono", g->code);
		h_el_own(tr, "td", "wrap", kv_diff_subject(g));
		h_el_own(tr, "td", "num", diff_pair(g->vmis[0], g->vmis[1]));
	}
}

static void
node_row(xmlNodePtr tb, const kv_diff_node *n)
{
	xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

	h_elc(tr, "td", "name", n->name);
	h_el_own(tr, "td", n->lost.n ? "wrap mono tone-fail" : "wrap mono",
	    n->lost.n ? str_list(n->lost.v, n->lost.n, n->lost.n) :
	    xstrdup(SYM_NONE));
	h_el_own(tr, "td", "wrap mono", n->gained.n ? str_list(n->gained.v,
	    n->gained.n, n->gained.n) : xstrdup(SYM_NONE));
	h_el_own(tr, "td", "wrap", diff_node_labels(n));
}

static void
nodes(xmlNodePtr s, const kv_diff *d)
{
	static const char *const heads[] = { "Node", "Features lost",
	    "Features gained",
	    "Host model, vendor, other labels, cordon, taints, allocatable",
	};
	xmlNodePtr tb;

	if (d->nodes_added.n + d->nodes_removed.n + d->nnodes == 0)
		return;
	h_el(s, "h3", "Nodes added, removed, or changed");
	names(s, "Added:", &d->nodes_added);
	names(s, "Removed:", &d->nodes_removed);
	if (d->nnodes == 0)
		return;
	tb = table(s, d->nnodes, "Every node that changed", heads,
	    NULL, 4);
	for (size_t i = 0; i < d->nnodes; i++)
		node_row(tb, &d->nodes[i]);
}

static void
classes(xmlNodePtr s, const kv_diff *d)
{
	xmlNodePtr ul;

	if (d->nclasses == 0)
		return;
	h_el(s, "h3", "CPU classes merged or split");
	ul = h_elc(s, "ul", "plain", NULL);
	for (size_t i = 0; i < d->nclasses; i++) {
		const kv_diff_class *c = &d->classes[i];
		char *many = str_list(c->many.v, c->many.n, c->many.n);

		h_el_own(ul, "li", "wrap", c->merged ? xasprintf("%s merged "
		    "into %s", many, c->one) : xasprintf("%s split into %s",
		    c->one, many));
		free(many);
	}
}

static void
drains(xmlNodePtr s, const kv_diff *d)
{
	static const char *const heads[] = { "Node", "Migrate", "Block",
	    "Stop" };
	static const char *const hc[] = { NULL, "num", "num", "num" };
	xmlNodePtr tb;

	if (d->ndrains == 0)
		return;
	h_el(s, "h3", "Drain plans that changed");
	tb = table(s, d->ndrains, "Every drain that changed", heads, hc, 4);
	for (size_t i = 0; i < d->ndrains; i++) {
		const kv_diff_drain *x = &d->drains[i];
		xmlNodePtr tr = xmlNewChild(tb, NULL, BAD_CAST "tr", NULL);

		h_elc(tr, "td", "name", x->node);
		h_el_own(tr, "td", "num", diff_pair(x->migrate[0],
		    x->migrate[1]));
		h_el_own(tr, "td", x->block[1] > x->block[0] ?
		    "num tone-fail" : "num", diff_pair(x->block[0],
		    x->block[1]));
		h_el_own(tr, "td", x->shutdown[1] > x->shutdown[0] ?
		    "num tone-warn" : "num", diff_pair(x->shutdown[0],
		    x->shutdown[1]));
	}
}

void
html_sec_changes(xmlNodePtr s, const kv_analysis *a,
    const kv_report_diff *rd)
{
	const kv_diff *d = rd->d;

	h_el_own(s, "p", d->worse ? "answer tone-fail" : "answer",
	    diff_answer(a, rd));
	h_el_own(s, "p", NULL, diff_intro(a, rd));
	if (diff_is_whatif(rd)) {
		xmlNodePtr ul = h_elc(s, "ul", "plain", NULL);

		for (size_t i = 0; i < rd->notes->nnotes; i++)
			h_elc(ul, "li", "wrap", rd->notes->notes[i]);
	}
	vmis(s, a, d);
	groups(s, a, d);
	nodes(s, d);
	classes(s, d);
	drains(s, d);
}
