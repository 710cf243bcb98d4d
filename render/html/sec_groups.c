/*
 * sec_groups.c - the groups at the top of the HTML report (html.c calls
 * these): the groups, largest first, each with its summary, its fix and
 * links to its VMIs (#vmi-<namespace>-<name>); in each VMI row, its
 * anchor, its groups and their fixes (links back to #group-<id>); and
 * the warnings said once per cluster (rule flag RULE_ONCE_PER_CLUSTER)
 * instead of in every row.  Everything goes through the HTML tree helpers
 * (html.h): libxml2 escapes, bidi controls are isolated and shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <libxml/tree.h>

#include "analyze/decide/groups.h"
#include "render/html/html.h"
#include "render/render.h"
#include "render/report.h"

static void
add_link(xmlNodePtr parent, const char *href, const char *text)
{
	h_attr(h_el(parent, "a", text), "href", href);
}

static char *
vmi_anchor(const kv_vmi *v)
{
	return xasprintf("vmi-%s-%s", v->ns, v->name);
}

static void
group_item(xmlNodePtr ol, const kv_analysis *a, const kv_group *g)
{
	xmlNodePtr li = h_elc(ol, "li", NULL, NULL), p;
	char *id = xasprintf("group-%s", g->id), *head, *badge;

	h_attr(li, "id", id);
	p = h_elc(li, "span", "group-head", NULL);
	head = xasprintf("%s ", g->id);
	h_txt(p, head);
	free(head);
	html_group_badge(p, g);
	head = xasprintf(": %s", g->summary);
	h_txt(p, head);
	p = h_elc(li, "p", "fix", NULL);
	h_elc(p, "span", "mono", kv_fix_names[g->fix.action]);
	badge = kv_fix_badge(g);
	xmlNodeAddContent(p, BAD_CAST badge);
	xmlNodeAddContent(p, BAD_CAST ": ");
	free(badge);
	h_txt(p, g->fix.text);
	p = h_elc(li, "p", "wrap", NULL);
	for (size_t k = 0; k < g->nvmis && k < 50; k++) {
		const kv_vmi *v = a->vmis[g->vmis[k]].vmi;
		char *href = vmi_anchor(v), *h = xasprintf("#%s", href);

		if (k)
			xmlNodeAddContent(p, BAD_CAST " ");
		add_link(p, h, v->fullname);
		free(href);
		free(h);
	}
	if (g->nvmis > 50) {
		char *more = xasprintf(" ... and %zu more", g->nvmis - 50);

		xmlNodeAddContent(p, BAD_CAST more);
		free(more);
	}
	free(id);
	free(head);
}

/* Warnings every VMI of a kind carries, said once here. */
static void
cluster_notes(xmlNodePtr s, const kv_analysis *a)
{
	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *rule = &kv_rules[i];
		const char *title, *fix;
		size_t n = 0;
		char *line;

		if (!(rule->flags & RULE_ONCE_PER_CLUSTER))
			continue;
		for (size_t v = 0; v < a->nvmis; v++)
			for (size_t k = 0; k < a->vmis[v].nwarnings; k++)
				n += a->vmis[v].warnings[k].rule == rule;
		if (n == 0)
			continue;
		kv_rule_text(a, rule, &title, &fix);
		line = xasprintf("%s (%s, %zu %s): %s", title, rule->code, n,
		    kv_word(a, n == 1 ? KV_WORD_VM : KV_WORD_VMS), fix);
		h_elc(s, "p", "note", line);
		free(line);
	}
}

void
html_sec_groups(xmlNodePtr s, const kv_analysis *a)
{
	xmlNodePtr ol;
	char *lead;

	if (a->ngroups == 0) {
		h_elc(s, "p", NULL, "No groups: every running VM migrates and "
		    "survives a drain of its node.");
		cluster_notes(s, a);
		return;
	}
	lead = xasprintf("%zu groups: each is one cause and the one change "
	    "that removes it, for every VM it concerns.", a->ngroups);
	h_elc(s, "p", NULL, lead);
	free(lead);
	ol = h_elc(s, "ol", "groups", NULL);
	for (size_t i = 0; i < a->ngroups; i++)
		group_item(ol, a, &a->groups[i]);
	cluster_notes(s, a);
}

/* The largest groups, one line each: size, cause, fix action (the fix
 * itself is in the groups section). */
void
html_groups_brief(xmlNodePtr s, const kv_analysis *a, size_t max)
{
	xmlNodePtr ul;

	if (a->ngroups == 0)
		return;
	ul = h_elc(s, "ul", "brief", NULL);
	for (size_t i = 0; i < a->ngroups && i < max; i++) {
		const kv_group *g = &a->groups[i];
		xmlNodePtr li = h_el(ul, "li", NULL), p;
		char *href = xasprintf("#group-%s", g->id);
		add_link(li, href, g->id);
		h_txt(li, " ");
		html_group_badge(li, g);
		h_txt(li, ": ");	/* the summary says how many */
		h_elc(li, "span", "wrap", g->summary);
		p = h_elc(li, "span", "fix wrap", NULL);
		h_txt(p, " \u2192 ");
		h_elc(p, "span", "mono", kv_fix_names[g->fix.action]);
		free(href);
	}
	if (a->ngroups > max) {
		char *more = xasprintf("%zu more groups in the next section.",
		    a->ngroups - max);

		h_elc(s, "p", "note", more);
		free(more);
	}
}

/* A node's anchor by its name, "node-w4" (href: "#node-w4", the name
 * percent-escaped): a link that lasts across reports. */
char *
html_node_anchor(const char *name, bool href)
{
	char *esc = g_uri_escape_string(name, NULL, false);
	char *s = href ? xasprintf("#node-%s", esc) :
	    xasprintf("node-%s", name);

	g_free(esc);
	return s;
}

/* The group's code in a badge of its tone: a drain group's is never
 * green, whatever its VMIs' verdict. */
void
html_group_badge(xmlNodePtr parent, const kv_group *g)
{
	enum kv_tone t = group_tone(g);

	h_badge(parent, t, t == TONE_OK ? SYM_OK : t == TONE_WARN ?
	    SYM_WARN : t == TONE_FAIL ? SYM_FAIL : SYM_NONE, g->code);
}

void
html_vmi_anchor(xmlNodePtr tr, const kv_vmires *r)
{
	char *id = vmi_anchor(r->vmi);

	h_attr(tr, "id", id);
	free(id);
}

/* A VMI's groups: a line break, then each group's link and fix action
 * (the fix itself is said once, in its group). */
void
html_vmi_fix(xmlNodePtr td, const kv_analysis *a, const kv_vmires *r)
{
	for (size_t k = 0; k < r->ngroups; k++) {
		const kv_group *g = &a->groups[r->groups[k]];
		char *href = xasprintf("#group-%s", g->id);

		if (k == 0)
			xmlNewChild(td, NULL, BAD_CAST "br", NULL);
		add_link(td, href, g->id);
		h_txt(td, " ");
		h_txt(td, kv_fix_names[g->fix.action]);
		h_txt(td, " ");
		free(href);
	}
}
