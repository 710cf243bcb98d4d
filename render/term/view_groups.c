/*
 * view_groups.c - the groups of the `check` view (view.h): after the
 * per-VMI lines a summary by group, and with --groups the groups alone,
 * largest first, each with its fix and its VMIs.  Only the groups with
 * a VMI in `pick` are shown; JSON and YAML give findings.json's
 * "groups" elements.
 */
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/render.h"
#include "render/view.h"

/* How many of g's VMIs are in pick. */
static size_t
picked(const kv_group *g, const kv_bits *pick)
{
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++)
		n += kv_bits_test(pick, g->vmis[k]);
	return n;
}

/* s cut at a space so that it takes at most max columns, with " ..."
 * (a terminal's screenful: --all prints it whole). */
static void
cut_at_space(char *s, size_t max)
{
	char *best = NULL;

	if (kv_term_strwidth(s) <= max)
		return;
	for (char *p = strchr(s, ' '); p != NULL; p = strchr(p + 1, ' ')) {
		*p = '\0';
		if (kv_term_strwidth(s) + 4 <= max)
			best = p;
		*p = ' ';
	}
	if (best != NULL)
		memcpy(best, " ...", 5);
}

/* A summary or fix, its lists of names cut (unless --all): piped at 10
 * names; on a terminal as few as 3 so that the line fits its width, and
 * cut after 3 lines of it at the most. */
static char *
fitted(const kv_term *t, size_t before, const char *text)
{
	static const size_t keep[] = { 10, 6, 4, 3 };
	size_t w = (size_t)t->width;
	char *s = NULL;

	if (t->all)
		return xstrdup(text);
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		free(s);
		s = kv_term_cut_lists(text, keep[i]);
		if (!t->tty || before + kv_term_strwidth(s) <= w)
			break;
	}
	if (t->tty && before < 3 * w)
		cut_at_space(s, 3 * w - before);
	return s;
}

/* A group's colour: its verdict's, but a drain that stops or holds VMIs
 * is never green (their verdict may be ok: they could migrate). */
static enum kv_color
group_color(const kv_group *g)
{
	return kv_vmi_color(g->verdict, g->drain);
}

static void
group_text(const kv_analysis *a, const kv_group *g, const kv_bits *pick,
    const kv_term *t, bool vmis)
{
	FILE *f = t->f;
	size_t n = picked(g, pick);
	const char *act = kv_fix_names[g->fix.action];
	char *chk = kv_fix_badge(g);
	char *s = fitted(t, strlen(g->id) + strlen(g->code) + 3, g->summary);

	kv_term_paint(t, KV_C_BOLD, g->id);
	fputs(" ", f);
	kv_term_paint(t, group_color(g), g->code);
	fputs(": ", f);
	kv_term_wrap(t, strlen(g->id) + strlen(g->code) + 3, 4, s);
	free(s);
	if (n < g->nvmis)
		fprintf(f, " (%zu selected)", n);
	fprintf(f, "\n  fix %s%s: ", act, chk);
	s = fitted(t, 8 + strlen(act) + strlen(chk), g->fix.text);
	kv_term_wrap(t, 8 + strlen(act) + strlen(chk), 4, s);
	free(s);
	free(chk);
	fputs("\n", f);
	if (vmis) {
		kv_tlist l;

		fprintf(f, "  %s:", kv_word(a, KV_WORD_VMS));
		kv_tlist_begin(&l, t, 3 + strlen(kv_word(a, KV_WORD_VMS)), 4,
		    n, 3);
		for (size_t k = 0; k < g->nvmis; k++)
			if (kv_bits_test(pick, g->vmis[k]))
				kv_tlist_add(&l,
				    a->vmis[g->vmis[k]].vmi->fullname);
		kv_tlist_end(&l);
	}
}

static int
groups_doc(const kv_analysis *a, const kv_bits *pick, const kv_term *t,
    kv_err *err)
{
	json_t *doc = json_object(), *arr = json_array();
	int rc;

	for (size_t i = 0; i < a->ngroups; i++)
		if (picked(&a->groups[i], pick) > 0)
			json_array_append_new(arr, kv_json_group(a, i));
	json_object_set_new(doc, "kind", json_string("kvscope-groups"));
	json_object_set_new(doc, "warnings", kv_json_warnings(a));
	json_object_set_new(doc, "groups", arr);
	rc = kv_doc_write(doc, t->fmt, t->f, err);
	json_decref(doc);
	return rc;
}

#define GROUPS_ON_TTY 8

int
kv_view_groups(const kv_analysis *a, const kv_bits *pick, const kv_term *t,
    bool vmis, kv_err *err)
{
	size_t shown = 0, more = 0;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return groups_doc(a, pick, t, err);
	if (vmis)	/* --groups: the count first, as check's */
		kv_term_check_total(a, pick, t);
	for (size_t i = 0; i < a->ngroups; i++)
		if (picked(&a->groups[i], pick) > 0) {
			/* check on a terminal: a screenful of them */
			if (!vmis && t->tty && !t->all &&
			    shown == GROUPS_ON_TTY) {
				more++;
				continue;
			}
			if (shown++ == 0)
				fputs("\ngroups, largest first:\n", t->f);
			group_text(a, &a->groups[i], pick, t, vmis);
		}
	if (more > 0)
		fprintf(t->f, "... and %zu more groups (kvscope check "
		    "--groups, or --all)\n", more);
	if (shown == 0 && vmis)
		fprintf(t->f, "no groups: every selected %s migrates and "
		    "survives a drain\n", kv_word(a, KV_WORD_VM));
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
