/*
 * pdf_problems.c - the PDF report's problem sections (pdf.h): the groups
 * with their fixes, the drain plan by node, the VMIs that need attention
 * (a dense list in two text columns, one line each) and, with
 * --pdf-detail all, every VMI by node.
 *
 * Sizes stay linear in the rows and bounded for a ticket: the drain plan
 * is one row per node (its migrations summed up by target), its plan rows
 * one by one only when they are few or every detail was asked for; the
 * attention list holds only the VMIs that would not migrate or that a
 * drain would stop or wait for.  Strings are built here and owned by the
 * tables that draw them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/pdf/pdf.h"

#define W(w)		kv_word(a, KV_WORD_##w)
#define PLAN_ROWS_MAX	150	/* plan rows printed one by one at most,
				 * unless --pdf-detail all */
#define FLOW_NODES	40	/* more nodes: their table in two columns */
#define FLOW_VMIS	60	/* more VMIs to list: in two columns */
#define TARGETS_SHOWN	1	/* targets named per node, by count */
#define GROUP_EXAMPLES	5	/* = findings "examples" */
#define GROUP_LINES	9	/* of a group's cell at most */

static const char *
action_word(enum kv_on_drain act)
{
	return act == DRAIN_MIGRATE ? "migrates" : act == DRAIN_SHUTDOWN ?
	    "stops" : act == DRAIN_BLOCK ? "blocks the drain" :
	    act == DRAIN_EXTERNAL ? "external controller" : SYM_NONE;
}

/* --- groups ------------------------------------------------------------- */

/* "set-cpu-model (proven: fixes 1 of 1): text" */
char *
pdf_fix_line(const kv_group *g)
{
	char *badge = kv_fix_badge(g);
	char *s = xasprintf("%s%s: %s", kv_fix_names[g->fix.action], badge,
	    g->fix.text ? g->fix.text : "");

	free(badge);
	return s;
}

void
pdf_sec_groups(pdoc *d, const char *title)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Group", 0.17, false }, { "Cause, fix and examples", 0.73,
		false }, { "VMs", 0.1, true },
	};
	ptable t;

	pdf_heading1(d, title);
	if (a->ngroups == 0) {
		pdf_answer(d, xstrdup("No groups: every running VM migrates "
		    "and survives a drain of its node."));
		return;
	}
	pdf_answer(d, xasprintf("%zu groups, largest first: each is one cause "
	    "and the one change that removes it, for every %s it concerns.",
	    a->ngroups, W(VM)));
	pdf_para_own(d, xasprintf("A cell ends in \u2026 where a long fix is "
	    "cut; findings.json and the HTML report have every fix whole."),
	    FONT_REGULAR, SMALL, COL_MUTED);
	pdf_tbl_init(&t, cols, 3);
	t.max_lines = GROUP_LINES;
	for (size_t i = 0; i < a->ngroups; i++) {
		const kv_group *g = &a->groups[i];
		pcell *row = pdf_tbl_row(&t);
		char *ex = kv_group_examples(a, g, GROUP_EXAMPLES);
		char *fix = pdf_fix_line(g);

		pdf_cell(&row[0], xasprintf("%s\n%s", g->id, g->code),
		    FONT_BOLD, tone_ink(group_tone(g)));
		/* the fix last: a fix naming hundreds of nodes is cut */
		pdf_cell(&row[1], xasprintf("%s\n%s: %s\nFix: %s", g->summary,
		    g->nvmis > GROUP_EXAMPLES ? "First of them" :
		    g->nvmis == 1 ? "It is" : "They are", ex, fix),
		    FONT_REGULAR, COL_INK);
		pdf_cell(&row[2], xasprintf("%zu", g->nvmis), FONT_BOLD,
		    COL_INK);
		free(ex);
		free(fix);
	}
	pdf_tbl_emit(d, &t);
}

/* --- the drain plan ------------------------------------------------------ */

typedef struct tcount {
	size_t node, n;
} tcount;

static int
tcount_cmp(const void *x, const void *y, void *arg)
{
	const tcount *p = x, *q = y;
	const kv_analysis *a = arg;

	if (p->n != q->n)
		return p->n > q->n ? -1 : 1;
	return strcmp(a->m->nodes[p->node].name, a->m->nodes[q->node].name);
}

/* "w3 ×5 +6": where most of d's migrations go, and how many other
 * nodes take the rest. */
static char *
target_summary(const kv_analysis *a, const kv_drain *d)
{
	tcount *c = xcalloc(d->nplan + 1, sizeof(tcount));
	size_t n = 0;
	kv_buf b = {0};

	for (size_t k = 0; k < d->nplan; k++) {
		size_t t = d->plan[k].target, j;

		if (d->plan[k].action != DRAIN_MIGRATE || t == SIZE_MAX)
			continue;
		for (j = 0; j < n && c[j].node != t; j++)
			;
		if (j == n)
			c[n++] = (tcount){ t, 0 };
		c[j].n++;
	}
	qsort_r(c, n, sizeof(tcount), tcount_cmp, (void *)a);
	for (size_t j = 0; j < n && j < TARGETS_SHOWN; j++)
		kv_buf_printf(&b, "%s%s \u00d7%zu", j ? ", " : "",
		    a->m->nodes[c[j].node].name, c[j].n);
	if (n > TARGETS_SHOWN)
		kv_buf_printf(&b, ", +%zu", n - TARGETS_SHOWN);
	free(c);
	return b.data != NULL ? b.data : xstrdup(SYM_NONE);
}

/* "stops: eviction-shutdown ×3; blocks: no-capacity ×1" for d's rows
 * that do not migrate, in the order of their first row. */
typedef struct rcount {
	enum kv_on_drain act;
	const char *why;
	size_t n;
} rcount;

static char *
reason_summary(const kv_drain *d)
{
	rcount *c = xcalloc(d->nplan + 1, sizeof(rcount));
	size_t n = 0;
	kv_buf b = {0};

	for (size_t k = 0; k < d->nplan; k++) {
		const kv_drain_row *r = &d->plan[k];
		const char *why = r->reason ? r->reason : SYM_NONE;
		size_t j;

		if (r->action == DRAIN_MIGRATE)
			continue;
		for (j = 0; j < n && (c[j].act != r->action ||
		    strcmp(c[j].why, why) != 0); j++)
			;
		if (j == n)
			c[n++] = (rcount){ r->action, why, 0 };
		c[j].n++;
	}
	for (size_t j = 0; j < n; j++)
		kv_buf_printf(&b, "%s%s: %s \u00d7%zu", j ? "; " : "",
		    action_word(c[j].act), c[j].why, c[j].n);
	free(c);
	return b.data != NULL ? b.data : xstrdup(SYM_NONE);
}

static size_t
plan_rows(const kv_analysis *a)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ndrain; i++)
		n += a->drain[i].nplan;
	return n;
}

/* One row per node: counts, where most of its migrations go, the
 * estimate; in two text columns.  Why the others do not migrate is in
 * the list of VMIs that follows. */
static void
plan_by_node(pdoc *d)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "Node", 0.25, false }, { "VMs", 0.08, true },
		{ "Migrate \u2192 main target", 0.32, false },
		{ "Stop", 0.08, true },
		{ "Block", 0.1, true }, { "Time", 0.17, true },
	};
	ptable t;

	pdf_tbl_init(&t, cols, 6);
	if (a->ndrain > FLOW_NODES) {	/* many: one line each, dense */
		t.size = DENSE;
		t.pad = DENSE_PAD;
		t.flow = 2;
	}
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *dr = &a->drain[i];
		pcell *row = pdf_tbl_row(&t);
		char *ts;

		pdf_cellc(&row[0], a->m->nodes[dr->node].name);
		pdf_cell(&row[1], xasprintf("%zu", dr->vmis), FONT_REGULAR,
		    COL_INK);
		ts = target_summary(a, dr);
		pdf_cell(&row[2], dr->migrate ? xasprintf("%zu \u2192 %s",
		    dr->migrate, ts) : xstrdup(SYM_NONE), FONT_REGULAR,
		    COL_INK);
		free(ts);
		pdf_cell(&row[3], xasprintf("%zu", dr->shutdown), dr->shutdown ?
		    FONT_BOLD : FONT_REGULAR, dr->shutdown ? COL_WARN :
		    COL_INK);
		pdf_cell(&row[4], dr->no_capacity ? xasprintf("%zu (%zu room)",
		    dr->block, dr->no_capacity) : xasprintf("%zu", dr->block),
		    dr->block ? FONT_BOLD : FONT_REGULAR, dr->block ? COL_FAIL :
		    COL_INK);
		pdf_cell(&row[5], fmt_duration(dr->seconds), FONT_REGULAR,
		    COL_INK);
	}
	pdf_tbl_emit(d, &t);
}

/* Every plan row, under a group row per node. */
static void
plan_rows_table(pdoc *d)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ W(VM), 0.36, false }, { "Drain does", 0.18, false },
		{ "Target", 0.22, false }, { "Reason", 0.24, false },
	};
	ptable t;

	pdf_tbl_init(&t, cols, 4);
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *dr = &a->drain[i];
		char *dur = fmt_duration(dr->seconds);

		char *why = reason_summary(dr);

		pdf_tbl_group(&t, xasprintf("%s: %zu migrate, %zu stop, %zu "
		    "block (%zu for want of room); about %s; room %s%s%s",
		    a->m->nodes[dr->node].name, dr->migrate, dr->shutdown,
		    dr->block, dr->no_capacity, dur, a->capacity_known ?
		    "checked" : "not checked", dr->migrate < dr->nplan ?
		    "; " : "", dr->migrate < dr->nplan ? why : ""));
		free(dur);
		free(why);
		for (size_t k = 0; k < dr->nplan; k++) {
			const kv_drain_row *r = &dr->plan[k];
			pcell *row = pdf_tbl_row(&t);

			pdf_cellc(&row[0], a->vmis[r->vmi].vmi->fullname);
			pdf_cell(&row[1], xstrdup(action_word(r->action)),
			    r->action == DRAIN_MIGRATE ? FONT_REGULAR :
			    FONT_BOLD, r->action == DRAIN_BLOCK ? COL_FAIL :
			    r->action == DRAIN_SHUTDOWN ? COL_WARN : COL_INK);
			pdf_cellc(&row[2], r->target != SIZE_MAX ?
			    a->m->nodes[r->target].name : SYM_NONE);
			pdf_cell(&row[3], xstrdup(r->reason ? r->reason :
			    SYM_NONE), FONT_MONO, COL_INK);
		}
	}
	pdf_tbl_emit(d, &t);
}

void
pdf_sec_drain(pdoc *d, const char *title)
{
	const kv_analysis *a = d->a;

	pdf_heading1(d, title);
	pdf_answer(d, drain_headline(a));
	pdf_para_own(d, prose_drain(a), FONT_REGULAR, BODY, COL_INK);
	pdf_para_own(d, prose_drain_assumption(a), FONT_REGULAR, BODY,
	    COL_MUTED);
	if (a->ndrain == 0)
		return;
	pdf_para_own(d, xasprintf("Room on the targets was %s. Each node "
	    "drained alone: where its migrations land (the targets taking "
	    "most of them), what stops or blocks and why. The %s that "
	    "need attention, one by one, follow this section.",
	    a->capacity_known ? "checked: every placement uses up its target's "
	    "room" : "not checked (the snapshot lacks the pods of every "
	    "namespace)", W(VMS)), FONT_REGULAR, BODY, COL_INK);
	pdf_heading2(d, "Each node drained alone");
	plan_by_node(d);
	pdf_figure(d, fig_drain(a, d->t), true);
	if (d->all || plan_rows(a) <= PLAN_ROWS_MAX) {
		pdf_heading2(d, "Every plan row");
		plan_rows_table(d);
	}
}

/* --- every VMI, by node (--pdf-detail all) ---------------------------- */

/* The blockers and warnings of a VMI: one line each, the symbol coloured
 * and the code bold through an attribute list (no markup).  A VMI that
 * migrates gets its warnings' codes only (the glossary explains them, the
 * HTML and findings.json have the messages), so long tables stay short. */
static void
issues_cell(pcell *c, const kv_vmires *r)
{
	kv_buf b = {0};
	PangoAttrList *al = pango_attr_list_new();

	for (size_t k = 0; k < r->nblockers + r->nwarnings; k++) {
		bool blk = k < r->nblockers;
		const kv_issue *is = blk ? &r->blockers[k] :
		    &r->warnings[k - r->nblockers];
		PangoAttribute *at;
		guint start;

		if (b.len)
			kv_buf_append(&b, "\n", 1);
		start = (guint)b.len;
		kv_buf_printf(&b, "%s ", blk ? SYM_FAIL : SYM_WARN);
		at = pango_attr_foreground_new(blk ? 0xb300 : 0x9a00,
		    blk ? 0x2600 : 0x5b00, blk ? 0x1e00 : 0);
		at->start_index = start;
		at->end_index = (guint)b.len;
		pango_attr_list_insert(al, at);
		start = (guint)b.len;
		kv_buf_printf(&b, "%s", is->rule->code);
		at = pango_attr_weight_new(PANGO_WEIGHT_BOLD);
		at->start_index = start;
		at->end_index = (guint)b.len;
		pango_attr_list_insert(al, at);
		if (r->verdict != V_OK)
			kv_buf_printf(&b, ": %s", is->message);
	}
	if (b.data == NULL) {
		pango_attr_list_unref(al);
		pdf_cellc(c, SYM_NONE);
		return;
	}
	pdf_cell(c, b.data, FONT_REGULAR, COL_INK);
	c->attrs = al;
}

void
pdf_sec_vmis(pdoc *d, const char *title)
{
	const kv_analysis *a = d->a;
	const pcol cols[] = {
		{ W(VM), 0.18, false }, { "Verdict", 0.13, false },
		{ "CPU", 0.13, false },
		{ "Blockers and warnings", 0.27, false },
		{ "Targets", 0.15, false },
		{ "Outcome and drain", 0.14, false },
	};
	size_t *order = vmis_by_node(a);
	ptable t;

	pdf_heading1(d, title);
	pdf_answer(d, prose_vmis(a));
	pdf_para(d, prose_vmis_howto(), FONT_REGULAR, BODY, COL_INK);
	pdf_tbl_init(&t, cols, 6);
	for (size_t k = 0, left = 0; k < a->nvmis; k++) {
		const kv_vmires *r = &a->vmis[order[k]];
		enum kv_tone tone = vmi_tone(r->verdict, r->on_drain);
		pcell *row;

		if (left-- == 0) {	/* a new node: a new group */
			const char *head;
			char *meta;

			left = vmi_group(a, order, k, &head, &meta) - 1;
			pdf_tbl_group(&t, xasprintf("%s%s", head, meta));
			free(meta);
		}
		row = pdf_tbl_row(&t);
		pdf_cellc(&row[0], r->vmi->fullname);
		pdf_cell(&row[1], r->mismatch ? xasprintf("%s %s\n%s claims "
		    "migratable", verdict_symbol(r->verdict),
		    kv_verdict_names[r->verdict], SYM_WARN) : xasprintf("%s %s",
		    verdict_symbol(r->verdict), kv_verdict_names[r->verdict]),
		    FONT_BOLD, tone_ink(tone));
		pdf_cell(&row[2], xasprintf("%s%s%s%s%s",
		    kv_mode_names[r->mode],
		    r->mode == MODE_NAMED ? "\n" : "",
		    r->mode == MODE_NAMED ? r->model : "",
		    r->facts.cpu_object_loaded ? "\nclass " : "",
		    r->facts.cpu_object_loaded ? r->facts.cpu_object_loaded :
		    ""), FONT_REGULAR, COL_INK);
		issues_cell(&row[3], r);
		/* short cells: a long table of VMIs that migrate stays short */
		pdf_cell(&row[4], r->ntargets > 3 ? xasprintf("%zu nodes",
		    r->ntargets) : vmi_targets(a, r, 3), FONT_REGULAR, COL_INK);
		if (r->verdict == V_OK && r->on_drain == DRAIN_MIGRATE)
			pdf_cellc(&row[5], "migrates, also on drain");
		else {
			char *o = vmi_outcome(r);

			pdf_cell(&row[5], xasprintf("%s\non drain: %s", o,
			    drain_word(r->on_drain)), FONT_REGULAR,
			    r->on_drain == DRAIN_BLOCK ? COL_FAIL :
			    COL_INK);
			free(o);
		}
	}
	free(order);
	if (a->nvmis == 0) {
		pdf_para_own(d, xasprintf("The snapshot has no %s.", W(VMS)),
		    FONT_REGULAR, BODY, COL_MUTED);
		pdf_tbl_free(&t);
		return;
	}
	pdf_tbl_emit(d, &t);
}

/* --- the VMIs that need attention ---------------------------------------- */

/* The plan row of every VMI (NULL: none), indexed like a->vmis. */
static const kv_drain_row **
rows_by_vmi(const kv_analysis *a)
{
	const kv_drain_row **v = xcalloc(a->nvmis + 1, sizeof(*v));

	for (size_t i = 0; i < a->ndrain; i++)
		for (size_t k = 0; k < a->drain[i].nplan; k++)
			v[a->drain[i].plan[k].vmi] = &a->drain[i].plan[k];
	return v;
}

/* The blockers' codes, then the drain's reason when it is not one. */
static char *
attention_codes(const kv_vmires *r, const kv_drain_row *row)
{
	kv_buf b = {0};
	bool said = false;

	for (size_t k = 0; k < r->nblockers; k++) {
		kv_buf_printf(&b, "%s%s", k ? " " : "",
		    r->blockers[k].rule->code);
		said |= row != NULL && row->reason != NULL &&
		    strcmp(row->reason, r->blockers[k].rule->code) == 0;
	}
	if (row != NULL && row->reason != NULL && !said &&
	    row->action != DRAIN_MIGRATE)
		kv_buf_printf(&b, "%s%s", b.len ? " " : "", row->reason);
	return b.data != NULL ? b.data : xstrdup(SYM_NONE);
}

static char *
group_ids(const kv_analysis *a, const kv_vmires *r)
{
	kv_buf b = {0};

	for (size_t k = 0; k < r->ngroups; k++)
		kv_buf_printf(&b, "%s%s", k ? " " : "",
		    a->groups[r->groups[k]].id);
	return b.data != NULL ? b.data : xstrdup(SYM_NONE);
}

/* "disk-not-shared · G1 G4", the group ids bold; takes both strings. */
static void
codes_cell(pcell *c, char *codes, char *groups)
{
	char *s = xasprintf("%s \u00b7 %s", codes, groups);
	PangoAttribute *at = pango_attr_weight_new(PANGO_WEIGHT_BOLD);

	at->start_index = (guint)(strlen(s) - strlen(groups));
	at->end_index = (guint)strlen(s);
	c->attrs = pango_attr_list_new();
	pango_attr_list_insert(c->attrs, at);
	pdf_cell(c, s, FONT_REGULAR, COL_INK);
	free(codes);
	free(groups);
}

/* One line per VMI, by node (--pdf-detail all). */
static void
attention_lines(pdoc *d, ptable *t, const kv_drain_row **rows, size_t *n)
{
	const kv_analysis *a = d->a;
	static const pcol cols[] = {
		{ "VMI", 0.29, false }, { "Node", 0.15, false },
		{ "Verdict", 0.16, false }, { "Drain", 0.08, false },
		{ "Codes \u00b7 groups", 0.32, false },
	};
	size_t *order = vmis_by_node(a);

	pdf_tbl_init(t, cols, 5);
	*n = 0;
	for (size_t k = 0; k < a->nvmis; k++) {
		const kv_vmires *r = &a->vmis[order[k]];
		const kv_drain_row *row = rows[order[k]];
		pcell *c;

		if (!pdf_needs_attention(r, row))
			continue;
		(*n)++;
		c = pdf_tbl_row(t);
		pdf_cellc(&c[0], r->vmi->fullname);
		pdf_cellc(&c[1], r->vmi->node ? r->vmi->node : SYM_NONE);
		pdf_cell(&c[2], xasprintf("%s %s", verdict_symbol(r->verdict),
		    kv_verdict_names[r->verdict]), FONT_BOLD,
		    tone_ink(vmi_tone(r->verdict, r->on_drain)));
		pdf_cell(&c[3], xstrdup(row == NULL ? SYM_NONE :
		    row->action == DRAIN_MIGRATE ? "migrates" :
		    row->action == DRAIN_SHUTDOWN ? "stops" :
		    row->action == DRAIN_BLOCK ? "blocks" : "external"),
		    FONT_REGULAR, row != NULL && row->action == DRAIN_BLOCK ?
		    COL_FAIL : row != NULL && row->action == DRAIN_SHUTDOWN ?
		    COL_WARN : COL_INK);
		codes_cell(&c[4], attention_codes(r, row), group_ids(a, r));
	}
	if (*n > FLOW_VMIS) {	/* many: one line each, dense */
		t->size = DENSE;
		t->pad = DENSE_PAD;
		t->flow = 2;
		t->max_lines = 4;
	}
	free(order);
}

void
pdf_sec_attention(pdoc *d, const char *title)
{
	const kv_analysis *a = d->a;
	const kv_drain_row **rows = rows_by_vmi(a);
	size_t n = 0;
	ptable t;

	pdf_heading1(d, title);
	if (d->all)
		attention_lines(d, &t, rows, &n);
	else
		pdf_attention_compact(d, &t, rows, &n);
	pdf_answer(d, n == 0 ? xasprintf("No %s needs attention: every "
	    "running one would migrate, and no drain stops or waits for "
	    "one.", W(VM)) : d->all ? xasprintf("%zu %s would not migrate, "
	    "or a drain of their node would stop them or wait for them, by "
	    "node; the groups they belong to (section %d) say what to "
	    "change.", n, n == 1 ? W(VM) : W(VMS),
	    atoi(d->sections[PS_GROUPS])) :
	    xasprintf("%zu %s would not migrate, or a drain of their node "
	    "would stop them or wait for them: under the group of their "
	    "cause (section %d), by node; a name's verdict or drain is in "
	    "brackets where it differs from its group's, a name without a "
	    "namespace is in the namespace of the name before it.", n,
	    n == 1 ? W(VM) : W(VMS), atoi(d->sections[PS_GROUPS])));
	if (n > 0 && !d->all)
		pdf_para_own(d, xasprintf("The full list, one line per %s "
		    "with its codes, is in vmis.csv and findings.json beside "
		    "this PDF (kvscope report --pdf-detail all prints it "
		    "here, with the %s that migrate).", W(VM), W(VMS)),
		    FONT_REGULAR, SMALL, COL_MUTED);
	if (n > 0)
		pdf_tbl_emit(d, &t);
	else
		pdf_tbl_free(&t);
	free(rows);
}
