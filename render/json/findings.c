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

/* --- the vmis emitter --------------------------------------------------- */

typedef struct emitter {
	FILE *f;
	char *buf;
	size_t len, cap;
	bool failed;
	json_t *scratch;		/* the string em_str() encodes */
	const kv_nodesets *sets;	/* what cpuTargets/targets refer to */
	size_t nnames;
	char **names;			/* node i as an escaped JSON string */
	size_t *name_len;
	GHashTable *escaped;		/* em_istr(): address -> esc_text */
} emitter;

/* The JSON text of a string that em_istr() has escaped before. */
typedef struct esc_text {
	size_t len;
	char text[];
} esc_text;

static void
em_flush(emitter *e)
{
	if (e->len > 0 && fwrite(e->buf, 1, e->len, e->f) != e->len)
		e->failed = true;
	e->len = 0;
}

static inline void
em_put(emitter *e, const char *p, size_t n)
{
	if (e->cap - e->len < n) {
		em_flush(e);
		if (n > e->cap) {
			if (fwrite(p, 1, n, e->f) != n)
				e->failed = true;
			return;
		}
	}
	memcpy(e->buf + e->len, p, n);
	e->len += n;
}

#define em_lit(e, s) em_put((e), (s), sizeof(s) - 1)

static int
em_cb(const char *buf, size_t size, void *data)
{
	em_put(data, buf, size);
	return 0;
}

/* A JSON string, escaped by jansson itself (one reusable string value, so
 * the bytes are exactly what json_dumpf writes for the other sections). */
static void
em_str(emitter *e, const char *s)
{
	if (json_string_set(e->scratch, s) != 0 ||
	    json_dump_callback(e->scratch, em_cb, e,
	    DUMP_FLAGS | JSON_ENCODE_ANY) != 0)
		e->failed = true;
}

/* em_str() of a string that stays at its address, with the same bytes,
 * until the emitter is closed (interned in the model's strings, or
 * static): escaped once, then copied. */
static void
em_istr(emitter *e, const char *s)
{
	esc_text *t = g_hash_table_lookup(e->escaped, s);
	size_t start;

	if (t != NULL) {
		em_put(e, t->text, t->len);
		return;
	}
	if (s == NULL || strlen(s) > 512) {	/* escaped: under 4 KiB */
		em_str(e, s);
		return;
	}
	if (e->cap - e->len < 4096)
		em_flush(e);
	start = e->len;
	em_str(e, s);
	t = xmalloc(sizeof(*t) + (e->len - start));
	t->len = e->len - start;
	memcpy(t->text, e->buf + start, t->len);
	g_hash_table_insert(e->escaped, (gpointer)s, t);
}

static void
em_str_or_null(emitter *e, const char *s)
{
	if (s != NULL)
		em_str(e, s);
	else
		em_lit(e, "null");
}

static void
em_int(emitter *e, int64_t v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
	    (json_int_t)v);

	em_put(e, num, (size_t)n);
}

static void
em_bool(emitter *e, bool b)
{
	if (b)
		em_lit(e, "true");
	else
		em_lit(e, "false");
}

/* JSON text made by jansson elsewhere (freed). */
static void
em_raw(emitter *e, char *json)
{
	em_put(e, json, strlen(json));
	free(json);
}

static void
em_issues(emitter *e, const kv_issue *is, size_t n)
{
	em_lit(e, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			em_lit(e, ",");
		em_lit(e, "{\"code\":");
		em_istr(e, is[i].rule->code);
		em_lit(e, ",\"message\":");
		em_str(e, is[i].message);
		em_lit(e, "}");
	}
	em_lit(e, "]");
}

/* A set reference: {"set": "N3", "minus": [...]} (findings.md
 * "nodeSets"). */
static void
em_setref(emitter *e, const kv_nodeset *s)
{
	char id[32];
	int n = snprintf(id, sizeof(id), "\"N%zu\"",
	    kv_nodesets_id(e->sets, s->base) + 1);

	em_lit(e, "{\"set\":");
	em_put(e, id, (size_t)n);
	em_lit(e, ",\"minus\":[");
	for (size_t i = 0; i < s->nexcl; i++) {
		if (i)
			em_lit(e, ",");
		em_put(e, e->names[s->excl[i]], e->name_len[s->excl[i]]);
	}
	em_lit(e, "]}");
}

static void
em_targets(emitter *e, const kv_vmires *r)
{
	bool refers = kv_nodesets_refers(r);

	em_lit(e, ",\"cpuTargets\":");
	if (refers)
		em_setref(e, &r->cpu_targets);
	else
		em_lit(e, "null");
	em_lit(e, ",\"targets\":");
	if (refers)
		em_setref(e, &r->targets);
	else
		em_lit(e, "null");
	em_lit(e, ",\"cpuTargetCount\":");
	em_int(e, refers ? (int64_t)r->ncpu_targets : 0);
	em_lit(e, ",\"targetCount\":");
	em_int(e, refers ? (int64_t)r->ntargets : 0);
}

/* "nodeSets" elements: {"id": "N1", "nodes": [...]}, one per line when
 * lines is set. */
static void
em_sets(emitter *e, bool lines)
{
	for (size_t i = 0; i < e->sets->n; i++) {
		char id[32];
		int n = snprintf(id, sizeof(id), "\"N%zu\"", i + 1);
		bool first = true;

		if (lines && i)
			em_lit(e, ",\n");
		else if (lines)
			em_lit(e, "\n");
		else if (i)
			em_lit(e, ",");
		em_lit(e, "{\"id\":");
		em_put(e, id, (size_t)n);
		em_lit(e, ",\"nodes\":[");
		KV_BITS_FOREACH(e->sets->sets[i], k) {
			if (!first)
				em_lit(e, ",");
			first = false;
			em_put(e, e->names[k], e->name_len[k]);
		}
		em_lit(e, "]}");
	}
}

/* One VMI, fields in findings.md order (as the jansson writer of the
 * other sections would lay them out). */
/* ,"checks":[...]: the codes of the checks skipped for want of n */
static void
em_skipped(emitter *e, const kv_analysis *a, const kv_vmires *r,
    enum kv_need n)
{
	bool first = true;

	em_lit(e, ",\"checks\":[");
	for (size_t i = 0; i < kv_nrules; i++) {
		if (!(kv_rule_lacks(a, r, &kv_rules[i]) & KV_NEED_BIT(n)))
			continue;
		if (!first)
			em_lit(e, ",");
		em_istr(e, kv_rules[i].code);
		first = false;
	}
	em_lit(e, "]");
}

/* The resources r lacked: [{"resource": ..., "message": ...,
 * "checks": [...]}] (findings.md). */
static void
em_lacks(emitter *e, const kv_analysis *a, const kv_vmires *r)
{
	bool first = true;

	em_lit(e, "[");
	for (int n = 0; n < NEED_COUNT; n++) {
		if (!(r->not_judged & KV_NEED_BIT(n)))
			continue;
		if (!first)
			em_lit(e, ",");
		em_lit(e, "{\"resource\":");
		em_istr(e, kv_need_rows[n].resource);
		em_lit(e, ",\"message\":");
		em_str(e, a->lack_msg[n]);
		em_skipped(e, a, r, n);
		em_lit(e, "}");
		first = false;
	}
	em_lit(e, "]");
}

/* ,"notJudged":[...],"unchecked":[...]: what the input lacked goes into
 * notJudged for a not-judged VMI ([] otherwise, as findings.md says),
 * into unchecked for a VMI a check that ran judged anyway. */
static void
em_not_judged(emitter *e, const kv_analysis *a, const kv_vmires *r)
{
	bool nj = r->verdict == V_NOT_JUDGED;

	em_lit(e, ",\"notJudged\":");
	if (nj)
		em_lacks(e, a, r);
	else
		em_lit(e, "[]");
	em_lit(e, ",\"unchecked\":");
	if (!nj)
		em_lacks(e, a, r);
	else
		em_lit(e, "[]");
}

static void
em_vmi(emitter *e, const kv_analysis *a, size_t i)
{
	const kv_vmires *r = &a->vmis[i];
	const kv_vmi *v = r->vmi;

	em_lit(e, "{\"name\":");
	em_str(e, v->fullname);
	em_lit(e, ",\"phase\":");
	em_str(e, v->phase);
	em_lit(e, ",\"node\":");
	em_str_or_null(e, v->node);
	em_lit(e, ",\"cpu\":{\"mode\":");
	em_istr(e, kv_mode_names[r->mode]);
	em_lit(e, ",\"model\":");
	em_str(e, r->model);
	em_lit(e, "},\"condition\":{\"status\":");
	em_str(e, r->cond == 'T' ? "True" : r->cond == 'F' ? "False" :
	    "absent");
	em_lit(e, ",\"reason\":");
	em_str(e, r->cond_reason ? r->cond_reason : "");
	em_lit(e, "},\"verdict\":");
	em_istr(e, kv_verdict_names[r->verdict]);
	em_lit(e, ",\"blockers\":");
	em_issues(e, r->blockers, r->nblockers);
	em_lit(e, ",\"warnings\":");
	em_issues(e, r->warnings, r->nwarnings);
	em_lit(e, ",\"conditionMismatch\":");
	em_bool(e, r->mismatch);
	em_lit(e, ",\"targetSelectors\":{");
	for (size_t k = 0; k < r->selectors.n; k++) {
		if (k)
			em_lit(e, ",");
		/* interned in the model's strings (target.c) */
		em_istr(e, r->selectors.v[k].key);
		em_lit(e, ":");
		em_istr(e, r->selectors.v[k].value);
	}
	em_lit(e, "}");
	em_targets(e, r);
	em_lit(e, ",\"groups\":");
	em_raw(e, kv_json_vmi_groups(a, i));
	em_lit(e, ",\"outcome\":{\"kind\":");
	em_istr(e, kv_outcome_names[r->outcome]);
	em_lit(e, ",\"afterSeconds\":");
	if (r->after >= 0)
		em_int(e, r->after);
	else
		em_lit(e, "null");
	em_lit(e, "},\"migrationMethod\":");
	em_str(e, r->method);
	em_lit(e, ",\"completionTimeoutSeconds\":");
	em_int(e, r->completion_timeout);
	em_lit(e, ",\"evictionStrategy\":");
	em_str(e, r->eviction);
	em_lit(e, ",\"onDrain\":");
	em_str_or_null(e, kv_on_drain_names[r->on_drain]);
	em_lit(e, ",\"restarts\":");
	if (r->restarts < 0)
		em_lit(e, "null");
	else if (r->restarts)
		em_lit(e, "true");
	else
		em_lit(e, "false");
	em_not_judged(e, a, r);
	em_lit(e, "}");
}

static void em_open(emitter *e, FILE *f, const kv_model *m);
static int em_close(emitter *e);

/* "nodeSets" and "vmis": [ one element per line ], as put_list() writes
 * them. */
static int
put_vmis(FILE *f, const kv_analysis *a)
{
	emitter e;
	int rc;

	em_open(&e, f, a->m);
	e.sets = kv_nodesets_build(a, NULL);
	em_lit(&e, "\"nodeSets\": [");
	em_sets(&e, true);
	if (e.sets->n)
		em_lit(&e, "\n],\n");
	else
		em_lit(&e, "],\n");
	em_lit(&e, "\"vmis\": [");
	for (size_t i = 0; i < a->nvmis; i++) {
		if (i)
			em_lit(&e, ",\n");
		else
			em_lit(&e, "\n");
		em_vmi(&e, a, i);
	}
	if (a->nvmis)
		em_lit(&e, "\n],\n");
	else
		em_lit(&e, "],\n");
	kv_nodesets_free((kv_nodesets *)e.sets);
	rc = em_close(&e);
	return rc;
}

static void
em_open(emitter *e, FILE *f, const kv_model *m)
{
	memset(e, 0, sizeof(*e));
	e->f = f;
	e->cap = 1 << 20;
	e->nnames = m->nnodes;
	e->buf = xmalloc(e->cap);
	e->scratch = json_string("");
	e->escaped = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, free);
	e->names = xcalloc(m->nnodes + 1, sizeof(char *));
	e->name_len = xcalloc(m->nnodes + 1, sizeof(size_t));
	for (size_t n = 0; n < m->nnodes; n++) {
		size_t start = e->len;

		/* escape each name once, through the emitter itself */
		em_str(e, m->nodes[n].name);
		e->names[n] = xmalloc(e->len - start);
		memcpy(e->names[n], e->buf + start, e->len - start);
		e->name_len[n] = e->len - start;
		e->len = start;
	}
}

static int
em_close(emitter *e)
{
	em_flush(e);
	for (size_t n = 0; n < e->nnames; n++)
		free(e->names[n]);
	free(e->names);
	free(e->name_len);
	free(e->buf);
	json_decref(e->scratch);
	g_hash_table_destroy(e->escaped);
	return e->failed ? KV_ERR : KV_OK;
}

/* The "vmis" array of the VMIs in pick, or (sets) the "nodeSets" they
 * refer to, as a jansson value. */
static json_t *
json_doc(const kv_analysis *a, const kv_bits *pick, bool sets)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *v = NULL;
	emitter e;
	bool first = true;

	if (f == NULL)
		kv_fatal("out of memory (a VMI document)");
	em_open(&e, f, a->m);
	e.sets = kv_nodesets_build(a, pick);
	em_lit(&e, "[");
	if (sets)
		em_sets(&e, false);
	for (size_t i = 0; !sets && i < a->nvmis; i++)
		if (pick == NULL || kv_bits_test(pick, i)) {
			if (!first)
				em_lit(&e, ",");
			first = false;
			em_vmi(&e, a, i);
		}
	em_lit(&e, "]");
	kv_nodesets_free((kv_nodesets *)e.sets);
	if (em_close(&e) == KV_OK && fclose(f) == 0)
		v = json_loadb(buf, len, 0, NULL);
	else
		fclose(f);
	free(buf);
	if (v == NULL)
		kv_fatal("out of memory (a VMI document)");
	return v;
}

json_t *
kv_json_vmis(const kv_analysis *a, const kv_bits *pick)
{
	return json_doc(a, pick, false);
}

json_t *
kv_json_node_sets(const kv_analysis *a, const kv_bits *pick)
{
	return json_doc(a, pick, true);
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
	rc |= put_vmis(f, a);
	rc |= put_list(f, "groups", a, a->ngroups, kv_json_group);
	rc |= put_list(f, "drain", a, a->ndrain, kv_json_drain_at);
	rc |= put(f, "summary", summary_section(a), true);
	fputs("}\n", f);
	if (rc != KV_OK)
		return kv_seterr(err, "findings.json: cannot encode");
	return KV_OK;
}
