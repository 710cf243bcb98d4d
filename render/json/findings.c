/*
 * findings.c - findings.json, field for field as docs/findings.md.
 *
 * Each top-level section is built as a jansson value and dumped at once;
 * lists are written one element per line (compact JSON), so a diff of two
 * findings files reads as a diff of nodes and VMIs, and the file is
 * streamed: the peak is one VMI's object, not the whole document.
 * jansson keeps insertion order, and every list comes sorted from the
 * analysis, so the same snapshot always gives the same bytes.
 *
 * Version 2: a VMI's cpuTargets and targets refer to one of the shared
 * nodeSets (nodesets.h) less a few nodes of its own, so the file grows
 * with VMIs + distinct node lists, not VMIs x nodes.  The nodeSets and
 * vmis sections are still most of the file, so they are
 * not built as a jansson tree: a small emitter writes its structure into a
 * large buffer and lets jansson escape every string (json_dump_callback on
 * one reusable string value), with every node name escaped once and
 * reused, and so is every interned or static string that recurs from VMI
 * to VMI (selector keys and values, rule codes, enum names): em_istr()
 * keeps their escaped text by address.  The bytes are those of the
 * compact dump of the other sections.
 */
#include <glib.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/json/findings_vmis.h"
#include "render/json/nodesets.h"
#include "render/render.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER)

static json_t *
jstr_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
jlevel(int level)
{
	return level >= 0 ? json_integer(level) : json_null();
}

static json_t *
jstrings(const char *const *v, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_string(v[i]));
	return arr;
}

static json_t *
jnodes(const kv_analysis *a, const size_t *idx, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr,
		    json_string(a->m->nodes[idx[i]].name));
	return arr;
}

static json_t *
jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

/* {"cpuMillis", "memoryBytes", "pods"}; a value the node does not state
 * (-1) is null. */
static json_t *
jres(const kv_res *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "cpuMillis", r->cpu_millis >= 0 ?
	    jint(r->cpu_millis) : json_null());
	json_object_set_new(o, "memoryBytes", r->memory >= 0 ?
	    jint(r->memory) : json_null());
	json_object_set_new(o, "pods", r->pods >= 0 ? jint(r->pods) :
	    json_null());
	return o;
}

json_t *
kv_json_warnings(const kv_analysis *a)
{
	json_t *w = json_array();

	for (size_t i = 0; i < a->ncoded; i++)
		json_array_append_new(w, json_pack("{s:s, s:s}", "code",
		    kv_warning_names[a->coded[i].code], "message",
		    a->coded[i].message));
	return w;
}

static json_t *
snapshot_section(const kv_analysis *a)
{
	const snap_manifest *mf = &a->m->manifest;
	json_t *o = json_object();
	json_t *w = json_array();

	json_object_set_new(o, "context", jstr_or_null(mf->context));
	json_object_set_new(o, "createdAt", json_string(mf->created_at));
	json_object_set_new(o, "flavor", json_string(a->m->flavor->name));
	json_object_set_new(o, "kubevirtVersion",
	    jstr_or_null(mf->kubevirt_version ? mf->kubevirt_version :
	    a->m->cluster.version));
	for (size_t i = 0; i < a->nwarnings; i++)
		json_array_append_new(w, json_string(a->warnings[i]));
	json_object_set_new(o, "warnings", w);
	return o;
}

static json_t *
node_json(const kv_analysis *a, size_t i)
{
	const kv_nodeinfo *ni = &a->nodes[i];
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(a->m->nodes[i].name));
	json_object_set_new(o, "kubevirt", json_boolean(ni->kubevirt));
	json_object_set_new(o, "schedulable", json_boolean(ni->schedulable));
	json_object_set_new(o, "vendor", jstr_or_null(ni->vendor));
	json_object_set_new(o, "hostModel", jstr_or_null(ni->host_model));
	json_object_set_new(o, "cpuClass", ni->cls >= 0 ?
	    json_string(a->classes[ni->cls].id) : json_null());
	json_object_set_new(o, "level", jlevel(ni->level));
	json_object_set_new(o, "avx2", json_boolean(ni->avx2));
	json_object_set_new(o, "avx512f", json_boolean(ni->avx512f));
	json_object_set_new(o, "vmis", json_integer((json_int_t)ni->nvmis));
	json_object_set_new(o, "allocatable", jres(&ni->allocatable));
	json_object_set_new(o, "requested", a->capacity_known ?
	    jres(&ni->requested) : json_null());
	return o;
}

static json_t *
class_json(const kv_analysis *a, size_t i)
{
	const kv_class *c = &a->classes[i];
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "nodes", jnodes(a, c->nodes, c->nnodes));
	json_object_set_new(o, "vendor", jstr_or_null(c->vendor));
	json_object_set_new(o, "hostModel", jstr_or_null(c->host_model));
	json_object_set_new(o, "requiredFeatures", jstrings(c->req, c->nreq));
	json_object_set_new(o, "level", jlevel(c->level));
	json_object_set_new(o, "avx2", json_boolean(c->avx2));
	json_object_set_new(o, "avx512f", json_boolean(c->avx512f));
	return o;
}

static json_t *
pair_json(const kv_analysis *a, size_t i)
{
	const kv_pair *p = &a->pairs[i];
	json_t *o = json_object();

	json_object_set_new(o, "source", json_string(a->classes[p->src].id));
	json_object_set_new(o, "target", json_string(a->classes[p->tgt].id));
	json_object_set_new(o, "ok", json_boolean(p->ok));
	json_object_set_new(o, "missing", jstrings(p->missing, p->nmissing));
	return o;
}

static json_t *
model_json(const kv_analysis *a, size_t i)
{
	const kv_named *nm = &a->named[i];
	const cpudb_model *cm = nm->info;
	json_t *o = json_object();

	json_object_set_new(o, "model", json_string(nm->model));
	json_object_set_new(o, "vendor", jstr_or_null(cm ? cm->vendor : NULL));
	json_object_set_new(o, "level", cm ? json_integer(cm->level) :
	    json_null());
	json_object_set_new(o, "avx2", cm ? json_boolean(cm->avx2) :
	    json_null());
	json_object_set_new(o, "avx512f", cm ? json_boolean(cm->avx512f) :
	    json_null());
	json_object_set_new(o, "nodes", jnodes(a, nm->nodes, nm->nnodes));
	return o;
}

static json_t *
scope_json(const kv_analysis *a, size_t i)
{
	const kv_scope *s = &a->scopes[i];
	json_t *o = json_object(), *nodes = json_array();

	KV_BITS_FOREACH(&s->nodes, n)
		json_array_append_new(nodes, json_string(a->m->nodes[n].name));
	json_object_set_new(o, "scope", json_string(s->name));
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "common", jstrings(s->common, s->ncommon));
	json_object_set_new(o, "best", jstrings(s->best, s->nbest));
	return o;
}

static json_t *
tradeoff_json(const kv_analysis *a, size_t i)
{
	const kv_tradeoff *t = &a->tradeoff[i];
	json_t *o = json_object();

	json_object_set_new(o, "scope", json_string(a->scopes[t->scope].name));
	json_object_set_new(o, "tier", json_string(t->tier));
	json_object_set_new(o, "nodes", json_integer((json_int_t)t->nodes));
	json_object_set_new(o, "of", json_integer((json_int_t)t->of));
	json_object_set_new(o, "excluded", jnodes(a, t->excluded,
	    t->nexcluded));
	json_object_set_new(o, "models", jstrings(t->models, t->nmodels));
	return o;
}


json_t *
kv_json_cpu_class(const kv_analysis *a, size_t i)
{
	return class_json(a, i);
}

json_t *
kv_json_host_model_pair(const kv_analysis *a, size_t i)
{
	return pair_json(a, i);
}

json_t *
kv_json_named_model(const kv_analysis *a, size_t i)
{
	return model_json(a, i);
}

static json_t *
summary_section(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	json_t *o = json_object();

	json_object_set_new(o, "nodes", json_integer((json_int_t)s->nodes));
	json_object_set_new(o, "kubevirtNodes",
	    json_integer((json_int_t)s->kubevirt_nodes));
	json_object_set_new(o, "cpuClasses",
	    json_integer((json_int_t)s->classes));
	json_object_set_new(o, "vmis", json_integer((json_int_t)s->vmis));
	json_object_set_new(o, "running", json_integer((json_int_t)s->running));
	for (int v = 0; v < V_COUNT; v++)
		json_object_set_new(o, kv_verdict_names[v],
		    json_integer((json_int_t)s->verdicts[v]));
	json_object_set_new(o, "conditionMismatch",
	    json_integer((json_int_t)s->mismatch));
	kv_json_drain_summary(a, o);
	json_object_set_new(o, "groups", json_integer((json_int_t)s->groups));
	json_object_set_new(o, "notJudged",
	    json_integer((json_int_t)s->verdicts[V_NOT_JUDGED]));
	return o;
}

/* "key": value, then a newline. */
static int
put(FILE *f, const char *key, json_t *v, bool last)
{
	int rc;

	fprintf(f, "\"%s\": ", key);
	rc = json_dumpf(v, f, DUMP_FLAGS | JSON_ENCODE_ANY);
	json_decref(v);
	fputs(last ? "\n" : ",\n", f);
	return rc == 0 ? KV_OK : KV_ERR;
}

/* "key": [ one element per line ], streamed. */
static int
put_list(FILE *f, const char *key, const kv_analysis *a, size_t n,
    json_t *(*elem)(const kv_analysis *, size_t))
{
	fprintf(f, "\"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		json_t *v = elem(a, i);
		int rc;

		fputs(i ? ",\n" : "\n", f);
		rc = json_dumpf(v, f, DUMP_FLAGS);
		json_decref(v);
		if (rc != 0)
			return KV_ERR;
	}
	fputs(n ? "\n],\n" : "],\n", f);
	return KV_OK;
}

int
kv_write_findings(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	json_t *named = json_object();
	int rc = KV_OK;

	(void)arg;
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	fputs("{\n", f);
	rc |= put(f, "kind", json_string("kvscope-findings"), false);
	rc |= put(f, "formatVersion", json_integer(2), false);
	rc |= put(f, "warnings", kv_json_warnings(a), false);
	rc |= put(f, "snapshot", snapshot_section(a), false);
	rc |= put(f, "config", kv_json_config(a), false);
	rc |= put(f, "cpuModelSource", json_string(a->cpu_model_source), false);
	rc |= put_list(f, "nodes", a, a->m->nnodes, node_json);
	rc |= put_list(f, "cpuClasses", a, a->nclasses, class_json);
	rc |= put_list(f, "hostModelPairs", a, a->npairs, pair_json);
	{
		json_t *models = json_array(), *scopes = json_array();

		for (size_t i = 0; i < a->nnamed; i++)
			json_array_append_new(models, model_json(a, i));
		for (size_t i = 0; i < a->nscopes; i++)
			json_array_append_new(scopes, scope_json(a, i));
		json_object_set_new(named, "models", models);
		json_object_set_new(named, "scopes", scopes);
	}
	rc |= put(f, "namedModels", named, false);
	rc |= put_list(f, "tradeoff", a, a->ntradeoff, tradeoff_json);
	rc |= kv_json_put_vmis(f, a);
	rc |= put_list(f, "groups", a, a->ngroups, kv_json_group);
	rc |= put_list(f, "drain", a, a->ndrain, kv_json_drain_at);
	rc |= put(f, "window", kv_json_window(a), false);
	rc |= put(f, "summary", summary_section(a), true);
	fputs("}\n", f);
	if (rc != KV_OK)
		return kv_seterr(err, "findings.json: cannot encode");
	return KV_OK;
}
