/*
 * view_check.c - the `check` view: a count, the groups, one line per
 * running VMI that would not migrate, the rules applied (text); every
 * running VMI in columns (wide); or the findings.json objects of the
 * failing VMIs and the groups of every selected one (json, yaml);
 * view.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/view.h"

static bool
fails(const kv_vmires *r)
{
	return kv_verdict_fails(r->verdict);
}

/* Whether blocker k of r has the code of one before it (two disks on
 * one class): a code is said once per VMI. */
static bool
said_before(const kv_vmires *r, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (r->blockers[j].rule == r->blockers[k].rule)
			return true;
	return false;
}

/* "ns/name on node: verdict (codes; not in the input: res) [Cond=True]";
 * a VMI no check could fail: "(not in the input: res)" alone */
static void
check_line(const kv_vmires *r, const kv_term *t)
{
	FILE *f = t->f;
	const char *sep = " (";

	kv_term_puts(f, r->vmi->fullname);
	fputs(" on ", f);
	kv_term_puts(f, r->vmi->node ? r->vmi->node : "-");
	fputs(": ", f);
	kv_term_paint(t, kv_vmi_color(r->verdict, r->on_drain),
	    kv_verdict_names[r->verdict]);
	for (size_t k = 0; k < r->nblockers; k++) {
		if (said_before(r, k))
			continue;
		fputs(sep, f);
		kv_term_paint(t, KV_C_BOLD, r->blockers[k].rule->code);
		sep = ", ";
	}
	if (r->nblockers == 0 && r->cond_reason != NULL &&
	    r->verdict != V_NOT_JUDGED) {
		/* KubeVirt's word alone: a reason no check maps */
		fprintf(f, "%s%s=False: ", sep, r->cond_type);
		kv_term_puts(f, r->cond_reason);
		sep = ", ";
	}
	for (int n = 0, k = 0; n < NEED_VERSION; n++)
		if (r->not_judged & KV_NEED_BIT(n))
			fprintf(f, "%s%s", k++ ? ", " : *sep == ',' ?
			    "; not in the input: " : " (not in the input: ",
			    kv_need_rows[n].resource);
	if (r->not_judged & KV_NEED_BIT(NEED_VERSION))
		fprintf(f, "%sno rules for this KubeVirt version",
		    *sep == ',' || (r->not_judged &
		    (KV_NEED_BIT(NEED_VERSION) - 1)) ? "; " : " (");
	fprintf(f, "%s%s%s%s\n", *sep == ',' || r->not_judged ? ")" : "",
	    r->mismatch ? " [" : "", r->mismatch ? r->cond_type : "",
	    r->mismatch ? "=True]" : "");
}

static void
pad(const kv_term *t, const char *s, size_t width)
{
	size_t w = kv_term_strwidth(s);

	fprintf(t->f, "%*s", w < width ? (int)(width - w) + 1 : 1, "");
}

/* VMI NODE VERDICT OUTCOME TARGETS CODES, for every running VMI. */
static void
wide_row(const kv_vmires *r, const kv_term *t, size_t wname)
{
	FILE *f = t->f;
	const char *node = r->vmi->node ? r->vmi->node : "-";
	const char *v = kv_verdict_names[r->verdict];

	kv_term_puts(f, r->vmi->fullname);
	pad(t, r->vmi->fullname, wname);
	kv_term_puts(f, node);
	pad(t, node, 12);
	kv_term_paint(t, kv_vmi_color(r->verdict, r->on_drain), v);
	pad(t, v, 11);
	fprintf(f, "%-16s %7zu ", kv_outcome_names[r->outcome], r->targets.n);
	for (size_t k = 0; k < r->nblockers; k++) {
		if (said_before(r, k))
			continue;
		fputs(k ? "," : "", f);
		kv_term_paint(t, KV_C_BOLD, r->blockers[k].rule->code);
	}
	if (r->nblockers == 0)
		fputs("-", f);
	fputs("\n", f);
}

/* The groups are those of every VMI in pick, as the text lists them (a
 * drain-shutdown group's VMIs migrate: not in "vmis", still a group). */
static int
check_doc(const kv_analysis *a, const kv_bits *pick, const kv_bits *failing,
    size_t judged, size_t bad, size_t unjudged, const kv_term *t,
    kv_err *err)
{
	json_t *doc = json_object(), *sum = json_object();
	int rc;

	json_object_set_new(doc, "kind", json_string("kvscope-check"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(sum, "running", json_integer((json_int_t)judged));
	json_object_set_new(sum, "wouldNotMigrate",
	    json_integer((json_int_t)bad));
	json_object_set_new(sum, "notJudged",
	    json_integer((json_int_t)unjudged));
	json_object_set_new(doc, "summary", sum);
	json_object_set_new(doc, "nodeSets", kv_json_node_sets(a, failing));
	json_object_set_new(doc, "groups", kv_json_groups_of(a, pick));
	json_object_set_new(doc, "vmis", kv_json_vmis(a, failing));
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

/* After the summary and the groups, the failing VMIs: piped every one
 * in name order; on a terminal by verdict, at most 20 lines of each
 * (unless --all). */
static void
vmi_lines(const kv_analysis *a, const kv_bits *failing, const kv_term *t)
{
	if (!t->tty) {
		KV_BITS_FOREACH(failing, i) {
			if (i == kv_bits_next(failing, 0))
				fputs("\n", t->f);
			check_line(&a->vmis[i], t);
		}
		return;
	}
	for (int v = 0; v < V_COUNT; v++) {
		size_t n = 0;

		KV_BITS_FOREACH(failing, i) {
			if (a->vmis[i].verdict != (enum kv_verdict)v)
				continue;
			if (n == 0)
				fputs("\n", t->f);
			if (n++ < 20 || t->all)
				check_line(&a->vmis[i], t);
		}
		if (n > 20 && !t->all)
			fprintf(t->f, "... and %zu more %s (--all, or -o wide "
			    "| less)\n", n - 20, kv_verdict_names[v]);
	}
}

/* The last line: the rules the answer applied ("judged by the rules of
 * KubeVirt v1.9, from the cluster's version"). */
static void
rules_line(const kv_analysis *a, const kv_term *t)
{
	char rules[128], *s;

	/* where the version came from first, so that the last line, however
	 * narrow the terminal, names the rules version whole */
	kv_rules_version_describe(&a->cfg.rules, rules, sizeof(rules));
	s = xasprintf("rules version from the %s",
	    kv_ver_basis_names[a->cfg.rules.basis]);
	kv_term_wrap(t, 0, 2, s);
	fputc('\n', t->f);
	free(s);
	fprintf(t->f, "judged by the %s\n", rules);	/* never wrapped */
}

/* The name column's head: the flavor's word, upper case ("VMI",
 * "VIRTUALMACHINE"). */
static const char *
column(const kv_analysis *a, char *buf, size_t n)
{
	const char *w = kv_word(a, KV_WORD_VM);
	size_t k = 0;

	for (; w[k] != '\0' && k + 1 < n; k++)
		buf[k] = (char)toupper((unsigned char)w[k]);
	buf[k] = '\0';
	return buf;
}

int
kv_view_check(const kv_analysis *a, const kv_bits *pick, const kv_term *t,
    size_t *bad, kv_err *err)
{
	kv_bits failing;	/* and the not-judged: the VMIs listed */
	size_t judged = 0, wname = 24, unjudged = 0;
	char head[32];
	int rc = KV_OK;

	*bad = 0;
	kv_bits_init(&failing, a->nvmis);
	KV_BITS_FOREACH(pick, i) {
		if (a->vmis[i].verdict == V_NOT_RUNNING)
			continue;
		judged++;
		if (kv_term_strwidth(a->vmis[i].vmi->fullname) > wname)
			wname = kv_term_strwidth(a->vmis[i].vmi->fullname);
		if (fails(&a->vmis[i])) {
			kv_bits_set(&failing, i);
			(*bad)++;
		} else if (a->vmis[i].verdict == V_NOT_JUDGED) {
			kv_bits_set(&failing, i);
			unjudged++;
		}
	}
	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML) {
		rc = check_doc(a, pick, &failing, judged, *bad, unjudged, t,
		    err);
		goto out;
	}
	if (t->fmt == KV_OUT_WIDE)
		fprintf(t->f, "%-*s %-12s %-11s %-16s %7s %s\n", (int)wname,
		    column(a, head, sizeof(head)), "NODE", "VERDICT",
		    "OUTCOME", "TARGETS", "BLOCKERS");
	KV_BITS_FOREACH(pick, i)
		if (t->fmt == KV_OUT_WIDE &&
		    a->vmis[i].verdict != V_NOT_RUNNING)
			wide_row(&a->vmis[i], t, wname);
	/* the text: the totals first, then the groups, then the VMIs */
	kv_term_total_line(a, judged, *bad, unjudged, t);
	if (t->fmt == KV_OUT_TEXT)
		rc = kv_view_groups(a, pick, t, false, err);
	if (t->fmt == KV_OUT_TEXT)
		vmi_lines(a, &failing, t);
	rules_line(a, t);
	if (rc == KV_OK && ferror(t->f))
		rc = kv_seterr(err, "stdout: write error");
out:
	kv_bits_free(&failing);
	return rc;
}
