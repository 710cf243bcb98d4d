/*
 * pdf_attention.c - the PDF's "VMIs that need attention" in its default
 * (failing) detail: each group's VMIs compactly, not one line each.
 *
 * A VMI is listed once, under its cause: the first of its groups that is
 * not a drain behaviour (drain-block, drain-shutdown), else the first of
 * them; VMIs in no group come last.  Under a group row that says its
 * code, its verdict and what a drain does to most of its VMIs, one row
 * per node holds the names of the group's VMIs on that node, side by
 * side; a name carries its verdict or its drain action in brackets only
 * where it differs from the group's, and its namespace only where it
 * differs from the name's before it in the row ("ns/a  b  c").  With
 * thousands of failing VMIs in a few large groups that is a few names a
 * line instead of one, and the rows flow through two text columns.
 * --pdf-detail all keeps the list one line per VMI (pdf_sec_attention).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/pdf/pdf.h"

#define W(w)		kv_word(a, KV_WORD_##w)
#define FLOW_ROWS	40	/* more rows: in two text columns */
#define NAME_WHOLE	52	/* a name up to this long is never broken
				 * (a longer one would leave the column) */

bool
pdf_needs_attention(const kv_vmires *r, const kv_drain_row *row)
{
	bool fails = r->verdict == V_BLOCKED || r->verdict == V_NO_TARGET ||
	    r->verdict == V_WILL_FAIL || r->verdict == V_STUCK;

	return fails || (row != NULL && (row->action == DRAIN_SHUTDOWN ||
	    row->action == DRAIN_BLOCK));
}

static bool
same_node(const char *x, const char *y)
{
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

static bool
drain_group(const kv_group *g)
{
	return strncmp(g->code, "drain-", 6) == 0;
}

/* The group r is listed under, or SIZE_MAX for none. */
static size_t
primary_group(const kv_analysis *a, const kv_vmires *r)
{
	for (size_t k = 0; k < r->ngroups; k++)
		if (!drain_group(&a->groups[r->groups[k]]))
			return r->groups[k];
	return r->ngroups > 0 ? r->groups[0] : SIZE_MAX;
}

static const char *
row_word(const kv_drain_row *row)
{
	if (row == NULL)
		return "no drain";
	return row->action == DRAIN_MIGRATE ? "migrates" :
	    row->action == DRAIN_SHUTDOWN ? "stops" :
	    row->action == DRAIN_BLOCK ? "blocks" : "external";
}

typedef struct alist {
	size_t n, cap;
	size_t *v;		/* VMI indexes, by node */
	enum kv_verdict verdict;	/* the group's */
	int drain;		/* the most common action, -1: none */
} alist;

/* The most common drain action of the listed VMIs (-1: no plan row). */
static int
common_drain(const kv_drain_row **rows, const alist *l)
{
	size_t count[DRAIN_COUNT + 1] = {0}, best = 0;
	int act = -1;

	for (size_t i = 0; i < l->n; i++) {
		const kv_drain_row *row = rows[l->v[i]];

		count[row == NULL ? DRAIN_COUNT : (size_t)row->action]++;
	}
	for (int k = 0; k <= DRAIN_COUNT; k++)
		if (count[k] > best) {
			best = count[k];
			act = k == DRAIN_COUNT ? -1 : k;
		}
	return act;
}

/* The most common verdict of the listed VMIs, def on a tie or when
 * none: a group's heading says what its VMIs listed under it read, not
 * the worst verdict of all its VMIs (a drain-shutdown group whose other
 * VMIs are listed under their own causes is not "blocked" above a VMI
 * that reads "ok"). */
static enum kv_verdict
common_verdict(const kv_analysis *a, const alist *l, enum kv_verdict def)
{
	size_t count[V_COUNT] = {0}, best = 0;
	enum kv_verdict v = def;

	for (size_t i = 0; i < l->n; i++)
		count[a->vmis[l->v[i]].verdict]++;
	best = count[def];
	for (int k = 0; k < V_COUNT; k++)
		if (count[k] > best) {
			best = count[k];
			v = (enum kv_verdict)k;
		}
	return v;
}

/* "ns/name", with "(no-target, stops)" where it differs from l's; the
 * name is not broken across lines (al), the line breaks between names. */
static void
put_name(kv_buf *b, PangoAttrList *al, const kv_vmires *r,
    const kv_drain_row *row, const alist *l, const kv_vmi *prev)
{
	bool vd = r->verdict != l->verdict;
	bool dd = (row == NULL ? -1 : (int)row->action) != l->drain;
	size_t at = b->len + (b->len ? 3 : 0);
	const char *name = prev != NULL && strcmp(prev->ns, r->vmi->ns) == 0 ?
	    r->vmi->name : r->vmi->fullname;

	kv_buf_printf(b, "%s%s", b->len ? "   " : "", name);
	if (strlen(name) <= NAME_WHOLE) {
		PangoAttribute *nb = pango_attr_allow_breaks_new(FALSE);

		nb->start_index = (guint)at;
		nb->end_index = (guint)b->len;
		pango_attr_list_insert(al, nb);
	}
	if (vd || dd)
		kv_buf_printf(b, " (%s%s%s)", vd ?
		    kv_verdict_names[r->verdict] : "", vd && dd ? ", " : "",
		    dd ? row_word(row) : "");
}

/* One row per node: the node, the names of l's VMIs on it. */
static void
node_rows(const pdoc *d, ptable *t, const kv_drain_row **rows,
    const alist *l)
{
	const kv_analysis *a = d->a;

	for (size_t i = 0; i < l->n;) {
		const char *node = a->vmis[l->v[i]].vmi->node;
		kv_buf b = {0};
		pcell *c = pdf_tbl_row(t);

		pdf_cellc(&c[0], node != NULL ? node : SYM_NONE);
		c[1].attrs = pango_attr_list_new();
		for (const kv_vmi *prev = NULL; i < l->n &&
		    same_node(a->vmis[l->v[i]].vmi->node, node); i++) {
			put_name(&b, c[1].attrs, &a->vmis[l->v[i]],
			    rows[l->v[i]], l, prev);
			prev = a->vmis[l->v[i]].vmi;
		}
		pdf_cell(&c[1], b.data, FONT_REGULAR, COL_INK);
	}
}

/* "G2 disk-not-shared · ✗ blocked · drain blocks · 1,060 VMIs" */
static char *
group_line(const kv_analysis *a, const kv_group *g, const alist *l)
{
	const char *dw = l->drain < 0 ? "no drain" :
	    l->drain == DRAIN_MIGRATE ? "drain migrates" :
	    l->drain == DRAIN_SHUTDOWN ? "drain stops" :
	    l->drain == DRAIN_BLOCK ? "drain blocks" : "drain external";

	if (g == NULL)
		return xasprintf("In no group \u00b7 %zu %s", l->n,
		    l->n == 1 ? W(VM) : W(VMS));
	/* the symbol of its tone: a VM that stops is not ✓ (vmi_tone) */
	return xasprintf("%s %s \u00b7 %s %s \u00b7 %s \u00b7 %zu %s", g->id,
	    g->code, tone_symbol(vmi_tone(l->verdict, l->drain < 0 ?
	    DRAIN_NONE : (enum kv_on_drain)l->drain)),
	    kv_verdict_names[l->verdict], dw, l->n,
	    l->n == 1 ? W(VM) : W(VMS));
}

/* The attention VMIs of each group (lists[ngroups]: in no group). */
static alist *
collect(const kv_analysis *a, const kv_drain_row **rows, size_t *n)
{
	size_t *order = vmis_by_node(a);
	alist *lists = xcalloc(a->ngroups + 1, sizeof(*lists));

	*n = 0;
	for (size_t k = 0; k < a->nvmis; k++) {
		const kv_vmires *r = &a->vmis[order[k]];
		size_t g;
		alist *l;

		if (!pdf_needs_attention(r, rows[order[k]]))
			continue;
		g = primary_group(a, r);
		l = &lists[g == SIZE_MAX ? a->ngroups : g];
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 16;
			l->v = xreallocarray(l->v, l->cap, sizeof(size_t));
		}
		l->v[l->n++] = order[k];
		(*n)++;
	}
	for (size_t g = 0; g <= a->ngroups; g++) {
		lists[g].verdict = common_verdict(a, &lists[g],
		    g < a->ngroups ? a->groups[g].verdict : lists[g].n > 0 ?
		    a->vmis[lists[g].v[0]].verdict : V_OK);
		lists[g].drain = common_drain(rows, &lists[g]);
	}
	free(order);
	return lists;
}

/* The default attention table (d->all: pdf_sec_attention's). */
void
pdf_attention_compact(pdoc *d, ptable *t, const kv_drain_row **rows,
    size_t *nvmis)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Node", 0.24, false }, { "Names", 0.76, false },
	};
	alist *lists = collect(a, rows, nvmis);

	pdf_tbl_init(t, cols, 2);
	for (size_t g = 0; g <= a->ngroups; g++) {
		if (lists[g].n == 0)
			continue;
		pdf_tbl_group(t, group_line(a, g < a->ngroups ?
		    &a->groups[g] : NULL, &lists[g]));
		node_rows(d, t, rows, &lists[g]);
	}
	if (t->nrows > FLOW_ROWS) {
		t->size = DENSE;
		t->pad = DENSE_PAD;
		t->flow = 2;
		t->max_lines = CELL_LINES;
	}
	for (size_t g = 0; g <= a->ngroups; g++)
		free(lists[g].v);
	free(lists);
}
