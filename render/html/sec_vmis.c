/*
 * sec_vmis.c - the VMIs in the HTML report (html.c calls these): the
 * static table of the VMIs that need attention (running and not ok, or
 * stopped or held by a drain), one row each with its anchor
 * #vmi-<namespace>-<name>; and the data of the full VMI list, one row
 * per VMI, embedded as JSON in <script type="application/json"
 * id="vmi-data"> for templates/report.js to page, filter and sort.
 *
 * Every string of the static table goes through the HTML tree helpers
 * (html.h).  The JSON is written by jansson with "/" escaped, and every
 * "<" (which only occurs inside JSON strings) written as \u003c, so no
 * data can end the raw-text <script> element or start a comment in it;
 * the strings are in text_visible() form (a bidi control reads
 * "<U+202E>") and the script puts names into <bdi>.  Rows and tables are
 * in the analysis' fixed orders: output is a function of the analysis.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <jansson.h>
#include <libxml/tree.h>

#include "analyze/decide/groups.h"
#include "render/html/html.h"
#include "render/render.h"
#include "render/report.h"

/* above this many rows the attention table shows codes, not messages */
#define ATTENTION_DETAIL_MAX 1000

bool
html_needs_attention(const kv_vmires *r)
{
	return kv_verdict_fails(r->verdict) || r->verdict == V_NOT_JUDGED ||
	    r->on_drain == DRAIN_SHUTDOWN || r->on_drain == DRAIN_BLOCK;
}

static const char *
drain_class(enum kv_on_drain d)
{
	return h_tone_class(drain_tone(d));
}

static void
code_links(xmlNodePtr td, const kv_issue *is, size_t n, bool blocker,
    bool detail)
{
	for (size_t i = 0; i < n; i++) {
		xmlNodePtr p = td, a;
		char *href;

		if (is[i].rule->flags & RULE_ONCE_PER_CLUSTER)
			continue;	/* said once, with the groups */
		if (detail)
			p = h_elc(td, "p", "issue", NULL);
		h_txt(p, blocker ? SYM_FAIL " " : SYM_WARN " ");
		a = h_elc(p, "a", blocker ? "mono tone-fail" : "mono tone-warn",
		    is[i].rule->code);
		href = xasprintf("#code-%s", is[i].rule->code);
		h_attr(a, "href", href);
		free(href);
		h_txt(p, " ");
		if (detail)
			h_elc(p, "span", "msg wrap", is[i].message);
	}
}

/* The attention table's column heads; a cell says its own on a narrow
 * screen (CSS: the rows stack, each cell labelled). */
static const char *const attention_heads[] = { NULL, "Node", "Verdict",
	"Why, and the group to fix", "Outcome", "On drain" };

static xmlNodePtr
labelled(xmlNodePtr td, const kv_analysis *a, int col)
{
	h_attr(td, "data-label", col == 0 ? kv_word(a, KV_WORD_VM) :
	    attention_heads[col]);
	return td;
}

static void
attention_row(xmlNodePtr tb, const kv_analysis *a, const kv_vmires *r,
    bool detail)
{
	const kv_node *n = r->vmi->node ? kv_model_node(a->m, r->vmi->node) :
	    NULL;
	xmlNodePtr tr = h_el(tb, "tr", NULL), td;
	enum kv_tone vt;

	html_vmi_anchor(tr, r);
	labelled(h_name(tr, "td", "name", r->vmi->fullname), a, 0);
	td = labelled(h_elc(tr, "td", "name", NULL), a, 1);
	if (n != NULL) {
		char *href = html_node_anchor(n->name, true);

		h_attr(h_name(td, "a", NULL, r->vmi->node), "href", href);
		free(href);
	} else
		h_txt(td, r->vmi->node ? r->vmi->node : SYM_NONE);
	vt = vmi_tone(r->verdict, r->on_drain);
	h_badge(labelled(h_el(tr, "td", NULL), a, 2), vt,
	    vt == verdict_tone(r->verdict) ? verdict_symbol(r->verdict) :
	    vt == TONE_WARN ? SYM_WARN : SYM_FAIL,
	    kv_verdict_names[r->verdict]);
	td = labelled(h_elc(tr, "td", "why", NULL), a, 3);
	code_links(td, r->blockers, r->nblockers, true, detail);
	code_links(td, r->warnings, r->nwarnings, false, detail);
	html_vmi_fix(td, a, r);
	labelled(h_el_own(tr, "td", NULL, vmi_outcome(r)), a, 4);
	labelled(h_elc(tr, "td", drain_class(r->on_drain),
	    drain_word(r->on_drain)), a, 5);
}

void
html_attention(xmlNodePtr s, const kv_analysis *a)
{
	const char *const heads[] = { kv_word(a, KV_WORD_VM), "Node",
	    "Verdict", "Why, and the group to fix", "Outcome", "On drain" };
	size_t *order = vmis_by_node(a), n = 0;
	xmlNodePtr tb;
	char *lead;

	for (size_t k = 0; k < a->nvmis; k++)
		n += html_needs_attention(&a->vmis[k]);
	lead = xasprintf("%zu %s would not migrate or would stop or hold a "
	    "drain of their node, by node. Each links to its groups (the "
	    "fix) and its codes (the glossary).%s", n,
	    kv_word(a, n == 1 ? KV_WORD_VM : KV_WORD_VMS),
	    n > ATTENTION_DETAIL_MAX ? " The messages of each code are in "
	    "findings.json." : "");
	h_el_own(s, "p", NULL, lead);
	if (n == 0) {
		free(order);
		return;
	}
	tb = h_el(h_table(s, "sort attention", heads, NULL, 6), "tbody",
	    NULL);
	for (size_t k = 0; k < a->nvmis; k++)
		if (html_needs_attention(&a->vmis[order[k]]))
			attention_row(tb, a, &a->vmis[order[k]],
			    n <= ATTENTION_DETAIL_MAX);
	free(order);
}

/* --- the data of the full list ---------------------------------------- */

static json_t *
vis(const char *s)
{
	char *v = text_visible(s != NULL ? s : "");
	json_t *j = json_string(v != NULL ? v : s != NULL ? s : "");

	free(v);
	return j != NULL ? j : json_string("?");
}

/* Interned strings: index in the "strs" table. */
typedef struct strtab {
	GHashTable *idx;
	json_t *arr;
} strtab;

static json_t *
intern(strtab *t, char *s)	/* takes s */
{
	gpointer v;
	size_t i;

	if (g_hash_table_lookup_extended(t->idx, s, NULL, &v)) {
		free(s);
		return json_integer((json_int_t)GPOINTER_TO_SIZE(v));
	}
	i = json_array_size(t->arr);
	json_array_append_new(t->arr, vis(s));
	g_hash_table_insert(t->idx, s, GSIZE_TO_POINTER(i));
	return json_integer((json_int_t)i);
}

static json_t *
codes(const kv_issue *is, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(is[i].rule - kv_rules));
	return arr;
}

static char *
cpu_text(const kv_vmires *r)
{
	if (r->mode == MODE_NAMED && r->model != NULL)
		return xasprintf("%s %s", kv_mode_names[r->mode], r->model);
	if (r->facts.cpu_object_loaded != NULL)
		return xasprintf("%s, class %s", kv_mode_names[r->mode],
		    r->facts.cpu_object_loaded);
	return xstrdup(kv_mode_names[r->mode]);
}

static json_t *
data_row(const kv_analysis *a, const kv_vmires *r, strtab *st,
    const size_t *drain_to)
{
	const kv_node *n = r->vmi->node ? kv_model_node(a->m, r->vmi->node) :
	    NULL;
	size_t vi = (size_t)(r - a->vmis);
	json_t *row = json_array(), *g = json_array();
	char *id = xasprintf("vmi-%s-%s", r->vmi->ns, r->vmi->name);

	for (size_t k = 0; k < r->ngroups; k++)
		json_array_append_new(g,
		    json_integer((json_int_t)r->groups[k]));
	json_array_append_new(row, vis(id));
	json_array_append_new(row, vis(r->vmi->fullname));
	json_array_append_new(row, intern(st, xstrdup(r->vmi->ns)));
	json_array_append_new(row, json_integer(n != NULL ?
	    (json_int_t)(n - a->m->nodes) : -1));
	json_array_append_new(row, json_integer(r->verdict));
	json_array_append_new(row, intern(st, cpu_text(r)));
	json_array_append_new(row, codes(r->blockers, r->nblockers));
	json_array_append_new(row, codes(r->warnings, r->nwarnings));
	json_array_append_new(row, g);
	json_array_append_new(row, json_integer(r->verdict == V_NOT_RUNNING ?
	    -1 : (json_int_t)r->ntargets));
	json_array_append_new(row, intern(st, vmi_outcome(r)));
	json_array_append_new(row, json_integer(r->on_drain));
	json_array_append_new(row, json_integer(drain_to[vi] == SIZE_MAX ?
	    -1 : (json_int_t)drain_to[vi]));
	json_array_append_new(row, json_integer(html_needs_attention(r)));
	free(id);
	return row;
}

/* The tables the rows index into. */
static void
data_tables(json_t *root, const kv_analysis *a)
{
	json_t *nodes = json_array(), *verd = json_array();
	json_t *tone = json_array();
	json_t *code = json_array(), *grp = json_array(), *dr = json_array();

	for (size_t i = 0; i < a->m->nnodes; i++)
		json_array_append_new(nodes, vis(a->m->nodes[i].name));
	for (int v = 0; v < V_COUNT; v++) {
		json_array_append_new(verd, json_string(kv_verdict_names[v]));
		json_array_append_new(tone, json_string(h_tone_class(
		    verdict_tone((enum kv_verdict)v))));
	}
	for (size_t i = 0; i < kv_nrules; i++)
		json_array_append_new(code, json_string(kv_rules[i].code));
	for (size_t i = 0; i < a->ngroups; i++) {
		/* [id, fix, name]: the name, code:subject, lasts across
		 * reports where the id (by size) does not */
		const kv_group *g = &a->groups[i];
		char *name = xasprintf("%s:%s", g->code, g->name);

		json_array_append_new(grp, json_pack("[sso]", g->id,
		    kv_fix_names[g->fix.action], vis(name)));
		free(name);
	}
	for (int d = 0; d < DRAIN_COUNT; d++)
		json_array_append_new(dr, json_pack("[ss]",
		    drain_word((enum kv_on_drain)d),
		    drain_class((enum kv_on_drain)d)));
	json_object_set_new(root, "cols", json_pack("[ssssssssssssss]", "id",
	    "name", "ns", "node", "verdict", "cpu", "blockers", "warnings",
	    "groups", "targets", "outcome", "drain", "drainTarget",
	    "attention"));
	json_object_set_new(root, "nodes", nodes);
	json_object_set_new(root, "verdicts", verd);
	json_object_set_new(root, "tones", tone);
	json_object_set_new(root, "codes", code);
	json_object_set_new(root, "groups", grp);
	json_object_set_new(root, "drain", dr);
}

/* The JSON text, with every "<" as \u003c; the caller frees. */
static char *
data_text(const kv_analysis *a)
{
	json_t *root = json_object(), *rows = json_array();
	strtab st = { g_hash_table_new_full(g_str_hash, g_str_equal, free,
	    NULL), json_array() };
	size_t *drain_to = xmalloc((a->nvmis + 1) * sizeof(*drain_to));
	char *s;
	kv_buf b = {0};

	for (size_t i = 0; i < a->nvmis; i++)
		drain_to[i] = SIZE_MAX;
	for (size_t i = 0; i < a->ndrain; i++)
		for (size_t k = 0; k < a->drain[i].nplan; k++)
			drain_to[a->drain[i].plan[k].vmi] =
			    a->drain[i].plan[k].target;
	data_tables(root, a);
	for (size_t i = 0; i < a->nvmis; i++)
		json_array_append_new(rows, data_row(a, &a->vmis[i], &st,
		    drain_to));
	json_object_set_new(root, "strs", st.arr);
	json_object_set_new(root, "rows", rows);
	s = json_dumps(root, JSON_COMPACT | JSON_ESCAPE_SLASH);
	for (const char *p = s; *p != '\0'; p++) {
		const char *lt = strchr(p, '<');

		if (lt == NULL) {
			kv_buf_append(&b, p, strlen(p));
			break;
		}
		kv_buf_append(&b, p, (size_t)(lt - p));
		kv_buf_append(&b, "\\u003c", 6);
		p = lt;
	}
	kv_buf_append(&b, "", 1);
	free(s);
	free(drain_to);
	g_hash_table_destroy(st.idx);
	json_decref(root);
	return b.data;
}

void
html_vmi_list(xmlNodePtr s, const kv_analysis *a)
{
	const char *const heads[] = { kv_word(a, KV_WORD_VM), "Node",
	    "Verdict", "CPU", "Codes", "Groups", "Targets", "Outcome",
	    "On drain", "Drain target" };
	xmlNodePtr t, sc;
	char *text, *p;

	p = xasprintf("All %zu %s, %zu on a page. Filter by verdict, "
	    "namespace, node, code or group, search by name, and sort by any "
	    "column; the address of the page keeps the view, so it can be "
	    "linked.", a->nvmis, kv_word(a, a->nvmis == 1 ? KV_WORD_VM :
	    KV_WORD_VMS), (size_t)200);
	h_el_own(s, "p", NULL, p);
	h_elc(s, "p", "note noscript", "This list is drawn by the report's "
	    "script, which this viewer did not run: the problems are in the "
	    "sections above, every one is in findings.json.");
	t = h_table(s, NULL, heads, NULL, 10);
	h_attr(t, "id", "vmi-list");
	h_el(t, "tbody", NULL);
	/* raw-text element: JSON whose "<" are escaped (data_text) */
	sc = h_el(s, "script", NULL);
	h_attr(sc, "type", "application/json");
	h_attr(sc, "id", "vmi-data");
	text = data_text(a);
	xmlAddChild(sc, xmlNewText(BAD_CAST text));
	free(text);
}
