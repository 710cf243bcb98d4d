/*
 * view_groups.c - the groups of the `check` view (view.h): after the
 * per-VMI lines a summary by group, and with --groups the groups alone,
 * largest first, each with its fix and its VMIs.  Only the groups with
 * a VMI in `pick` are shown; JSON and YAML give findings.json's
 * "groups" elements.
 */
#include <string.h>

#include "groups.h"
#include "render.h"
#include "view.h"

/* How many of g's VMIs are in pick. */
static size_t
picked(const kv_group *g, const kv_bits *pick)
{
	size_t n = 0;

	for (size_t k = 0; k < g->nvmis; k++)
		n += kv_bits_test(pick, g->vmis[k]);
	return n;
}

static void
group_text(const kv_analysis *a, const kv_group *g, const kv_bits *pick,
    const kv_term *t, bool vmis)
{
	FILE *f = t->f;
	size_t n = picked(g, pick);

	kv_term_paint(t, KV_C_BOLD, g->id);
	fputs(" ", f);
	kv_term_paint(t, kv_verdict_color(g->verdict), g->code);
	fputs(": ", f);
	kv_term_puts(f, g->summary);
	if (n < g->nvmis)
		fprintf(f, " (%zu selected)", n);
	fprintf(f, "\n  fix %s%s: ", kv_fix_names[g->fix.action],
	    g->fix.checked ? ", checked by re-analysis" : "");
	kv_term_puts(f, g->fix.text);
	fputs("\n", f);
	if (vmis) {
		kv_tlist l;

		fputs("  VMIs:", f);
		kv_tlist_begin(&l, t, 7, 4, n, 3);
		for (size_t k = 0; k < g->nvmis; k++)
			if (kv_bits_test(pick, g->vmis[k]))
				kv_tlist_add(&l, a->vmis[g->vmis[k]].vmi->fullname);
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

int
kv_view_groups(const kv_analysis *a, const kv_bits *pick, const kv_term *t,
    bool vmis, kv_err *err)
{
	size_t shown = 0;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML)
		return groups_doc(a, pick, t, err);
	for (size_t i = 0; i < a->ngroups; i++)
		if (picked(&a->groups[i], pick) > 0) {
			if (shown++ == 0)
				fprintf(t->f, "%sgroups, largest first:\n",
				    vmis ? "" : "\n");
			group_text(a, &a->groups[i], pick, t, vmis);
		}
	if (shown == 0 && vmis)
		fprintf(t->f, "no groups: every selected %s migrates and "
		    "survives a drain\n", kv_word(a, KV_WORD_VM));
	if (ferror(t->f))
		return kv_seterr(err, "stdout: write error");
	return KV_OK;
}
