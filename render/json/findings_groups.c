/*
 * findings_groups.c - findings.json's "groups" and every VMI's "groups"
 * (docs/findings.md "groups"), from a->groups (groups.h).
 * render/json/findings.c calls these where the sections go; the CLI's
 * -o json|yaml uses the same objects.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/render.h"

static json_t *
jstr_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
fix_json(const kv_fix *f)
{
	json_t *o = json_object();

	json_object_set_new(o, "action", json_string(kv_fix_names[f->action]));
	json_object_set_new(o, "value", jstr_or_null(f->value));
	json_object_set_new(o, "path", jstr_or_null(f->path));
	json_object_set_new(o, "restart", json_boolean(f->restart));
	json_object_set_new(o, "fixes", json_integer((json_int_t)f->fixes));
	json_object_set_new(o, "worse", json_integer((json_int_t)f->worse));
	json_object_set_new(o, "proven", json_boolean(f->proven));
	if (f->effect.set)
		json_object_set_new(o, "effect", json_pack("{s:I, s:I, s:o, "
		    "s:b, s:b}", "nodes", (json_int_t)f->effect.nodes, "of",
		    (json_int_t)f->effect.of, "level", f->effect.level >= 0 ?
		    json_integer(f->effect.level) : json_null(), "avx2",
		    f->effect.avx2, "avx512f", f->effect.avx512f));
	else
		json_object_set_new(o, "effect", json_null());
	json_object_set_new(o, "text", json_string(f->text ? f->text : ""));
	return o;
}

json_t *
kv_json_group(const kv_analysis *a, size_t i)
{
	const kv_group *g = &a->groups[i];
	json_t *o = json_object(), *ns = json_array(), *nodes = json_array();
	json_t *ex = json_array();

	json_object_set_new(o, "id", json_string(g->id));
	json_object_set_new(o, "code", json_string(g->code));
	json_object_set_new(o, "verdict",
	    json_string(kv_verdict_names[g->verdict]));
	json_object_set_new(o, "subject", json_pack("{s:s, s:s}", "kind",
	    kv_subject_names[g->kind], "name", g->name));
	json_object_set_new(o, "vmis", json_integer((json_int_t)g->nvmis));
	for (size_t k = 0; k < g->nnamespaces; k++)
		json_array_append_new(ns, json_string(g->namespaces[k]));
	for (size_t k = 0; k < g->nnodes; k++)
		json_array_append_new(nodes,
		    json_string(a->m->nodes[g->nodes[k]].name));
	for (size_t k = 0; k < g->nvmis && k < 5; k++)
		json_array_append_new(ex,
		    json_string(a->vmis[g->vmis[k]].vmi->fullname));
	json_object_set_new(o, "namespaces", ns);
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "examples", ex);
	json_object_set_new(o, "summary", json_string(g->summary));
	json_object_set_new(o, "fix", fix_json(&g->fix));
	return o;
}

json_t *
kv_json_groups_of(const kv_analysis *a, const kv_bits *pick)
{
	json_t *arr = json_array();
	bool *want = xcalloc(a->ngroups + 1, sizeof(bool));

	KV_BITS_FOREACH(pick, i)
		for (size_t k = 0; k < a->vmis[i].ngroups; k++)
			want[a->vmis[i].groups[k]] = true;
	for (size_t g = 0; g < a->ngroups; g++)
		if (want[g])
			json_array_append_new(arr, kv_json_group(a, g));
	free(want);
	return arr;
}

char *
kv_json_vmi_groups(const kv_analysis *a, size_t i)
{
	const kv_vmires *r = &a->vmis[i];
	json_t *arr = json_array();
	char *s;

	for (size_t k = 0; k < r->ngroups; k++)
		json_array_append_new(arr,
		    json_string(a->groups[r->groups[k]].id));
	s = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	if (s == NULL)
		kv_fatal("out of memory (a VMI's groups)");
	return s;
}

json_t *
kv_json_fixed(const kv_fixed *f, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		const kv_group *g = f[i].g;

		json_array_append_new(arr, json_pack("{s:s, s:s, s:I, s:I, "
		    "s:{s:I, s:I, s:b}}", "group", g->id, "code", g->code,
		    "vmis", (json_int_t)g->nvmis, "fixes",
		    (json_int_t)f[i].left, "proof", "fixes",
		    (json_int_t)g->fix.fixes, "worse",
		    (json_int_t)g->fix.worse, "proven", g->fix.proven));
	}
	return arr;
}
