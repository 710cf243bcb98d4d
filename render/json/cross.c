/*
 * cross.c - the -o json|yaml document of `kvscope crosscheck`
 * (render/cross.h), as docs/crosscheck.md gives it: version, source and
 * target, sameCluster, summary, bestCpuModels, groups, vms.
 */
#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "render/cross.h"

/* The distinct TARGET node lists of the VMs, each once ("T1", ...):
 * thousands of VMs share a few lists, which a document repeats at no
 * cost this way (findings.json's nodeSets do the same). */
typedef struct tsets {
	GHashTable *by;			/* kv_xvm * of a list's first VM ->
					   its id number */
	json_t *arr;
	size_t n;
} tsets;

static guint
list_hash(gconstpointer p)
{
	const kv_xvm *vm = p;
	guint h = 2166136261u;

	for (size_t i = 0; i < vm->ntargets; i++)
		h = (h ^ (guint)(uintptr_t)vm->targets[i]) * 16777619u;
	return h ^ (guint)vm->ntargets;
}

static gboolean
list_equal(gconstpointer p, gconstpointer q)
{
	const kv_xvm *a = p, *b = q;

	return a->ntargets == b->ntargets && (a->ntargets == 0 ||
	    memcmp(a->targets, b->targets, a->ntargets *
	    sizeof(char *)) == 0);
}

static json_t *
side_json(const kv_xside *s)
{
	return json_pack("{s:s, s:s, s:s?, s:b, s:b}", "name", s->name,
	    "path", s->path, "kubevirtVersion", s->known ? s->version : NULL,
	    "decentralizedMigration", s->decentralized,
	    "decentralizedGate", s->gate);
}

static json_t *
strings(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
blocks_json(unsigned b)
{
	json_t *a = json_array();

	if (b & XB_LIVE)
		json_array_append_new(a, json_string("live"));
	if (b & XB_COLD)
		json_array_append_new(a, json_string("cold"));
	return a;
}

static json_t *
group_json(const kv_cross *x, const kv_xgroup *g)
{
	json_t *vms = json_array();

	for (size_t i = 0; i < g->nvms; i++)
		json_array_append_new(vms,
		    json_string(x->vms[g->vms[i]].fullname));
	return json_pack("{s:s, s:s, s:s, s:o, s:I, s:o}", "code", g->code,
	    "title", g->title, "fix", g->fix, "rulesOut",
	    blocks_json(g->blocks), "count", (json_int_t)g->nvms,
	    "vms", vms);
}

/* The id of vm's list, added to s when new; null when empty. */
static json_t *
set_id(tsets *s, const kv_xvm *vm)
{
	gpointer v;
	char id[32];

	if (vm->ntargets == 0)
		return json_null();
	if (!g_hash_table_lookup_extended(s->by, vm, NULL, &v)) {
		json_t *nodes = strings(vm->targets, vm->ntargets);

		v = GSIZE_TO_POINTER(++s->n);
		g_hash_table_insert(s->by, (gpointer)vm, v);
		snprintf(id, sizeof(id), "T%zu", s->n);
		json_array_append_new(s->arr, json_pack("{s:s, s:I, s:o}",
		    "id", id, "count", (json_int_t)vm->ntargets, "nodes",
		    nodes));
	}
	snprintf(id, sizeof(id), "T%zu", (size_t)GPOINTER_TO_SIZE(v));
	return json_string(id);
}

static json_t *
vm_json(const kv_xvm *vm, tsets *sets)
{
	json_t *reasons = json_array();
	json_t *o;

	for (size_t i = 0; i < vm->nreasons; i++) {
		const kv_xreason *r = &vm->reasons[i];

		json_array_append_new(reasons, json_pack("{s:s, s:o, s:s, "
		    "s:s}", "code", r->code, "rulesOut",
		    blocks_json(r->blocks), "message", r->message, "fix",
		    r->fix));
	}
	o = json_pack("{s:s, s:s, s:b, s:s?, s:s, s:s?, s:s}", "namespace",
	    vm->ns, "name", vm->name, "running", vm->running, "sourceNode",
	    vm->source_node, "cpuMode", kv_mode_names[vm->mode], "cpuModel",
	    vm->cpu_model, "answer", kv_xanswer_names[vm->answer]);
	json_object_set_new(o, "targetCount",
	    json_integer((json_int_t)vm->ntargets));
	json_object_set_new(o, "targets", set_id(sets, vm));
	json_object_set_new(o, "copyBytes", vm->copy_bytes < 0 ?
	    json_null() : json_integer(vm->copy_bytes));
	json_object_set_new(o, "claimsOfUnknownSize",
	    json_integer((json_int_t)vm->nunsized));
	json_object_set_new(o, "reasons", reasons);
	return o;
}

json_t *
kv_json_cross(const kv_cross *x)
{
	json_t *doc = json_object(), *groups = json_array();
	json_t *vms = json_array();
	tsets sets = { g_hash_table_new(list_hash, list_equal), json_array(),
	    0 };

	json_object_set_new(doc, "version",
	    json_integer(KV_CROSS_JSON_VERSION));
	json_object_set_new(doc, "source", side_json(&x->side[0]));
	json_object_set_new(doc, "target", side_json(&x->side[1]));
	json_object_set_new(doc, "targetChanges", strings(
	    (const char *const *)x->changes, x->nchanges));
	json_object_set_new(doc, "sameCluster", x->same_cluster ?
	    json_string(x->same_cluster) : json_null());
	json_object_set_new(doc, "summary", json_pack("{s:I, s:I, s:I, s:I, "
	    "s:I}", "vms", (json_int_t)x->nvms, "live",
	    (json_int_t)x->counts[XA_LIVE], "cold",
	    (json_int_t)x->counts[XA_COLD], "no",
	    (json_int_t)x->counts[XA_NO], "copyBytes",
	    (json_int_t)x->copy_bytes));
	json_object_set_new(doc, "bestCpuModels", strings(x->best,
	    x->nbest));
	for (size_t i = 0; i < x->ngroups; i++)
		json_array_append_new(groups, group_json(x, &x->groups[i]));
	json_object_set_new(doc, "groups", groups);
	for (size_t i = 0; i < x->nvms; i++)
		json_array_append_new(vms, vm_json(&x->vms[i], &sets));
	json_object_set_new(doc, "vms", vms);
	json_object_set_new(doc, "targetSets", sets.arr);
	g_hash_table_destroy(sets.by);
	return doc;
}

int
kv_write_cross_json(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	json_t *doc = kv_json_cross(arg);
	int rc = kv_doc_write(doc, KV_OUT_JSON, f, err);

	(void)a;
	json_decref(doc);
	return rc;
}
