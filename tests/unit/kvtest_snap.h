/*
 * kvtest_snap.h - an in-test snapshot builder for the unit tests.
 *
 * A test describes a cluster as jansson objects grouped by resource, then
 * kvsnap_write() lays it out as a directory snapshot in a fresh temporary
 * directory, exactly as ../shared/spec/snapshot-format.md says:
 * resources/<plural>[.<group>].json as kubectl Lists, any raw members
 * (libvirt/cpu_map/x86_*.xml), and manifest.json with a resources[] entry
 * per resource and files[] with the size and SHA-256 (GLib GChecksum) of
 * every other member.  kvsnap_run() writes, loads, analyses and renders
 * findings.json in one go, and removes the directory again.
 *
 * Objects are edited in place with the kvj_* path helpers: a path is
 * dot-separated keys with optional [n] indexes ("spec.volumes[0].name");
 * keys that contain dots (labels) go through kvj_label()/kvj_key().
 *
 * Ownership: kvsnap_add*() steal the object and return a borrowed pointer;
 * kvj_set() and kvj_push() steal the value.  Include after kvtest.h.
 */
#ifndef KV_TEST_SNAP_H
#define KV_TEST_SNAP_H

#include <errno.h>
#include <ftw.h>
#include <glib.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "limits.h"
#include "model.h"
#include "render.h"

/* ---- JSON path helpers --------------------------------------------------- */

/* Parse JSON text or fail the test. */
static inline json_t *
kvj(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);

	if (v == NULL)
		fail_msg("bad test JSON at line %d: %s\n%s", e.line, e.text,
		    text);
	return v;
}

/* One step of a path: key (copied into buf) and index (-1 = none). */
static inline const char *
kvj_step(const char *p, char *buf, size_t size, long *index)
{
	size_t n = 0;

	*index = -1;
	while (*p && *p != '.' && *p != '[' && n + 1 < size)
		buf[n++] = *p++;
	buf[n] = '\0';
	if (*p == '[') {
		*index = strtol(p + 1, (char **)&p, 10);
		if (*p != ']')
			fail_msg("bad path index near \"%s\"", p);
		p++;
	}
	return *p == '.' ? p + 1 : p;
}

/* The value at path, or NULL.  create: make missing objects on the way
 * (not array elements). */
static inline json_t *
kvj_walk(json_t *o, const char *path, bool create)
{
	char key[256];
	long idx;

	while (o != NULL && *path) {
		json_t *next;

		path = kvj_step(path, key, sizeof(key), &idx);
		if (*key) {
			if (!json_is_object(o))
				return NULL;
			next = json_object_get(o, key);
			if (next == NULL && create) {
				next = idx >= 0 ? json_array() : json_object();
				json_object_set_new(o, key, next);
			}
			o = next;
		}
		if (idx >= 0 && o != NULL) {
			if (!json_is_array(o))
				return NULL;
			o = json_array_get(o, (size_t)idx);
		}
	}
	return o;
}

static inline json_t *
kvj_at(json_t *o, const char *path)
{
	return kvj_walk(o, path, false);
}

/* The object at path, created (with its parents) when missing. */
static inline json_t *
kvj_obj(json_t *o, const char *path)
{
	json_t *v = kvj_walk(o, path, true);

	if (v == NULL || !json_is_object(v))
		fail_msg("path %s is not an object", path);
	return v;
}

/* Split "a.b.c" into the parent path "a.b" and the last key "c". */
static inline json_t *
kvj_parent(json_t *o, const char *path, const char **last, bool create)
{
	const char *dot = strrchr(path, '.');
	char parent[512];

	if (dot == NULL) {
		*last = path;
		return o;
	}
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - path), path);
	*last = dot + 1;
	return create ? kvj_obj(o, parent) : kvj_at(o, parent);
}

/* Set path to v (stolen); v == NULL deletes the key. */
static inline void
kvj_set(json_t *o, const char *path, json_t *v)
{
	const char *last;
	json_t *p = kvj_parent(o, path, &last, v != NULL);

	if (v == NULL) {
		if (p != NULL)
			json_object_del(p, last);
		return;
	}
	json_object_set_new(p, last, v);
}

static inline void
kvj_sets(json_t *o, const char *path, const char *s)
{
	kvj_set(o, path, s ? json_string(s) : NULL);
}

/* Set path to parsed JSON text. */
static inline void
kvj_setj(json_t *o, const char *path, const char *text)
{
	kvj_set(o, path, kvj(text));
}

static inline void
kvj_del(json_t *o, const char *path)
{
	kvj_set(o, path, NULL);
}

/* Append v (stolen) to the array at path, created when missing. */
static inline void
kvj_push(json_t *o, const char *path, json_t *v)
{
	const char *last;
	json_t *p = kvj_parent(o, path, &last, true);
	json_t *arr = json_object_get(p, last);

	if (arr == NULL) {
		arr = json_array();
		json_object_set_new(p, last, arr);
	}
	if (!json_is_array(arr))
		fail_msg("path %s is not an array", path);
	json_array_append_new(arr, v);
}

static inline void
kvj_pushj(json_t *o, const char *path, const char *text)
{
	kvj_push(o, path, kvj(text));
}

/* obj[path][key] = value (a string); NULL deletes.  For keys with dots. */
static inline void
kvj_key(json_t *o, const char *path, const char *key, const char *value)
{
	json_t *m = kvj_obj(o, path);

	if (value == NULL)
		json_object_del(m, key);
	else
		json_object_set_new(m, key, json_string(value));
}

static inline void
kvj_label(json_t *o, const char *key, const char *value)
{
	kvj_key(o, "metadata.labels", key, value);
}

static inline void
kvj_annotate(json_t *o, const char *key, const char *value)
{
	kvj_key(o, "metadata.annotations", key, value);
}

/* For each space-separated name in names: labels["<kind>.<domain>/<name>"]
 * = "true", e.g. kvj_cpu_labels(node, "node.kubevirt.io", "cpu-feature",
 * "avx2 aes"). */
static inline void
kvj_cpu_labels(json_t *o, const char *domain, const char *kind,
    const char *names)
{
	char *copy = xstrdup(names), *save = NULL;

	for (char *t = strtok_r(copy, " ", &save); t != NULL;
	    t = strtok_r(NULL, " ", &save)) {
		char *key = xasprintf("%s.%s/%s", kind, domain, t);

		kvj_label(o, key, "true");
		free(key);
	}
	free(copy);
}

/* ---- the snapshot -------------------------------------------------------- */

typedef struct kvsnap {
	char *flavor;		/* "kubevirt" | "deckhouse" */
	json_t *lists;		/* file name -> array of objects, in order */
	json_t *res;		/* file name -> {resource, group, status} */
	json_t *raw;		/* member path -> string */
	char *created_at;
} kvsnap;

static inline kvsnap *
kvsnap_new(const char *flavor)
{
	kvsnap *s = xcalloc(1, sizeof(*s));

	s->flavor = xstrdup(flavor ? flavor : "kubevirt");
	s->lists = json_object();
	s->res = json_object();
	s->raw = json_object();
	s->created_at = xstrdup("2026-10-31T09:12:44Z");
	return s;
}

static inline void
kvsnap_free(kvsnap *s)
{
	if (s == NULL)
		return;
	json_decref(s->lists);
	json_decref(s->res);
	json_decref(s->raw);
	free(s->flavor);
	free(s->created_at);
	free(s);
}

/* A deep copy, to mutate without touching the original. */
static inline kvsnap *
kvsnap_copy(const kvsnap *s)
{
	kvsnap *c = xcalloc(1, sizeof(*c));

	c->flavor = xstrdup(s->flavor);
	c->lists = json_deep_copy(s->lists);
	c->res = json_deep_copy(s->res);
	c->raw = json_deep_copy(s->raw);
	c->created_at = xstrdup(s->created_at);
	return c;
}

/* "resources/<resource>[.<group>].json" */
static inline char *
kvsnap_file(const char *resource, const char *group)
{
	return group && *group ? xasprintf("resources/%s.%s.json", resource,
	    group) : xasprintf("resources/%s.json", resource);
}

/* Manifest status of a resource: "ok" (the default once an object or
 * kvsnap_list() names it), "forbidden", "absent", "error".  Anything but
 * "ok" writes no file. */
static inline void
kvsnap_status(kvsnap *s, const char *resource, const char *group,
    const char *status)
{
	char *f = kvsnap_file(resource, group);

	json_object_set_new(s->res, f, json_pack("{s:s, s:s, s:s}",
	    "resource", resource, "group", group ? group : "", "status",
	    status));
	free(f);
}

/* The item array of a resource (created, status ok, when new). */
static inline json_t *
kvsnap_list(kvsnap *s, const char *resource, const char *group)
{
	char *f = kvsnap_file(resource, group);
	json_t *arr = json_object_get(s->lists, f);

	if (arr == NULL) {
		arr = json_array();
		json_object_set_new(s->lists, f, arr);
		if (json_object_get(s->res, f) == NULL)
			kvsnap_status(s, resource, group, "ok");
	}
	free(f);
	return arr;
}

static inline json_t *
kvsnap_add(kvsnap *s, const char *resource, const char *group, json_t *o)
{
	json_array_append_new(kvsnap_list(s, resource, group), o);
	return o;
}

static inline json_t *
kvsnap_addj(kvsnap *s, const char *resource, const char *group,
    const char *text)
{
	return kvsnap_add(s, resource, group, kvj(text));
}

/* The object of a resource whose metadata.name is name (first match), or
 * NULL. */
static inline json_t *
kvsnap_get(kvsnap *s, const char *resource, const char *group,
    const char *name)
{
	json_t *arr = kvsnap_list(s, resource, group), *o;
	size_t i;

	json_array_foreach(arr, i, o) {
		json_t *n = kvj_at(o, "metadata.name");

		if (json_is_string(n) && strcmp(json_string_value(n), name) == 0)
			return o;
	}
	return NULL;
}

/* Like kvsnap_get, failing the test when absent. */
static inline json_t *
kvsnap_find(kvsnap *s, const char *resource, const char *group,
    const char *name)
{
	json_t *o = kvsnap_get(s, resource, group, name);

	if (o == NULL)
		fail_msg("no %s named %s in the test snapshot", resource, name);
	return o;
}

/* Remove the object named name; true when there was one. */
static inline bool
kvsnap_remove(kvsnap *s, const char *resource, const char *group,
    const char *name)
{
	json_t *arr = kvsnap_list(s, resource, group), *o;
	size_t i;

	json_array_foreach(arr, i, o) {
		json_t *n = kvj_at(o, "metadata.name");

		if (json_is_string(n) &&
		    strcmp(json_string_value(n), name) == 0) {
			json_array_remove(arr, i);
			return true;
		}
	}
	return false;
}

/* A raw member (path below the snapshot's top directory). */
static inline void
kvsnap_raw(kvsnap *s, const char *path, const char *content)
{
	json_object_set_new(s->raw, path, json_string(content));
}

/* A Node with the usual well-known labels, 64Gi allocatable; the caller
 * adds CPU labels (kvj_cpu_labels) and KubeVirt's schedulable label. */
static inline json_t *
kvsnap_node(kvsnap *s, const char *name)
{
	json_t *n = json_pack("{s:s, s:s, s:{s:s, s:{s:s, s:s, s:s}}, "
	    "s:{}, s:{s:{s:s, s:s, s:s}}}",
	    "apiVersion", "v1", "kind", "Node",
	    "metadata", "name", name, "labels", "kubernetes.io/arch",
	    "amd64", "kubernetes.io/hostname", name, "kubernetes.io/os",
	    "linux", "spec", "status", "allocatable", "cpu", "32", "memory",
	    "64Gi", "pods", "110");

	if (n == NULL)
		fail_msg("cannot build node %s", name);
	return kvsnap_add(s, "nodes", "", n);
}

/* The node label domain and KubeVirt label prefix of the snapshot's
 * flavor (rules-deckhouse.md for the Deckhouse spellings). */
static inline const char *
kvsnap_domain(const kvsnap *s)
{
	return strcmp(s->flavor, "deckhouse") == 0 ?
	    "node.virtualization.deckhouse.io" : "node.kubevirt.io";
}

static inline const char *
kvsnap_kvprefix(const kvsnap *s)
{
	return strcmp(s->flavor, "deckhouse") == 0 ?
	    "kubevirt.internal.virtualization.deckhouse.io/" : "kubevirt.io/";
}

/* What the node labeller writes for one node: space-separated names;
 * NULL or "" adds nothing. */
typedef struct kvcpu {
	const char *vendor, *host_model;
	const char *features;		/* cpu-feature */
	const char *required;		/* host-model-required-features */
	const char *models;		/* cpu-model (usable) */
	const char *migration;		/* cpu-model-migration (known) */
} kvcpu;

/* A KubeVirt node: kvsnap_node() plus schedulable=true, the q35 machine
 * types and the CPU labels of cpu, in the flavor's label domain. */
static inline json_t *
kvsnap_kvnode(kvsnap *s, const char *name, const kvcpu *cpu)
{
	json_t *n = kvsnap_node(s, name);
	const char *dom = kvsnap_domain(s);
	char *sched = xasprintf("%sschedulable", kvsnap_kvprefix(s));
	const struct {
		const char *kind, *names;
	} kinds[] = {
		{ "machine-type", "q35 pc-q35-rhel9.6.0" },
		{ "cpu-vendor", cpu->vendor },
		{ "host-model-cpu", cpu->host_model },
		{ "cpu-feature", cpu->features },
		{ "host-model-required-features", cpu->required },
		{ "cpu-model", cpu->models },
		{ "cpu-model-migration", cpu->migration },
	};

	kvj_label(n, sched, "true");
	free(sched);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].names != NULL)
			kvj_cpu_labels(n, dom, kinds[i].kind, kinds[i].names);
	return n;
}

static inline void
kvsnap_mkdirs(const char *dir, const char *rel)
{
	char *p = xasprintf("%s/%s", dir, rel);

	for (char *q = p + strlen(dir) + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST)
				fail_msg("mkdir %s: %s", p, strerror(errno));
			*q = '/';
		}
	free(p);
}

/* Write rel under dir; append {path, bytes, sha256} to files. */
static inline void
kvsnap_put(const char *dir, const char *rel, const char *data, size_t len,
    json_t *files)
{
	char *path = xasprintf("%s/%s", dir, rel);
	FILE *f;
	gchar *sum;

	kvsnap_mkdirs(dir, rel);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(data, 1, len, f) != len || fclose(f) != 0)
		fail_msg("cannot write %s", path);
	if (files != NULL) {
		sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
		    (const guchar *)data, len);
		json_array_append_new(files, json_pack("{s:s, s:I, s:s}",
		    "path", rel, "bytes", (json_int_t)len, "sha256", sum));
		g_free(sum);
	}
	free(path);
}

/* Write the snapshot into a fresh directory; caller frees the path and
 * removes the directory (kvsnap_rmtree). */
static inline char *
kvsnap_write(const kvsnap *s)
{
	char *dir = kvtest_tmpdir();
	json_t *files = json_array(), *resources = json_array();
	json_t *manifest, *v;
	const char *key;
	char *text;

	json_object_foreach(s->res, key, v) {
		json_t *items = json_object_get(s->lists, key);
		json_t *r = json_deep_copy(v);
		bool ok = strcmp(json_string_value(json_object_get(v,
		    "status")), "ok") == 0;

		if (ok) {
			json_t *list = json_pack("{s:s, s:s, s:o, s:{s:s}}",
			    "apiVersion", "v1", "kind", "List", "items",
			    items ? json_incref(items) : json_array(),
			    "metadata", "resourceVersion", "");

			text = json_dumps(list, JSON_INDENT(1) |
			    JSON_PRESERVE_ORDER);
			kvsnap_put(dir, key, text, strlen(text), files);
			free(text);
			json_decref(list);
			json_object_set_new(r, "file", json_string(key));
			json_object_set_new(r, "count", json_integer(items ?
			    (json_int_t)json_array_size(items) : 0));
		} else
			json_object_set_new(r, "message", json_string(
			    "denied by the test"));
		json_array_append_new(resources, r);
	}
	json_object_foreach(s->raw, key, v)
		kvsnap_put(dir, key, json_string_value(v),
		    json_string_length(v), files);
	manifest = json_pack("{s:s, s:i, s:s, s:{s:s, s:s}, "
	    "s:{s:s, s:s, s:s, s:s}, s:{s:[], s:b, s:b}, s:o, s:o}",
	    "kind", "kvscope-snapshot", "formatVersion", 1,
	    "createdAt", s->created_at,
	    "collector", "name", "kvtest", "version", "0",
	    "cluster", "context", "test", "kubernetesVersion", "v1.36.1",
	    "kubevirtVersion", "v1.9.0", "flavor", s->flavor,
	    "options", "namespaces", "redact", 1, "anonymize", 0,
	    "resources", resources, "files", files);
	if (manifest == NULL)
		fail_msg("cannot build manifest.json");
	text = json_dumps(manifest, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	kvsnap_put(dir, "manifest.json", text, strlen(text), NULL);
	free(text);
	json_decref(manifest);
	return dir;
}

static inline int
kvsnap_rm_cb(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void
kvsnap_rmtree(const char *dir)
{
	if (dir != NULL)
		nftw(dir, kvsnap_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- load, analyse, render ----------------------------------------------- */

typedef struct kvres {
	kv_model *m;
	kv_analysis *a;
	json_t *findings;	/* parsed findings.json, node-set references
				 * expanded into lists (kvres_expand) */
	json_t *raw;		/* parsed findings.json as written */
} kvres;

/* A version 2 node-set reference {"set", "minus"} as the node list it
 * stands for (null stays null), as the README's jq line expands it. */
static inline json_t *
kvres_expand_ref(json_t *sets, json_t *ref)
{
	json_t *out, *nodes = NULL, *s, *n, *minus;
	size_t i, j, k;

	if (json_is_null(ref))
		return json_array();
	out = json_array();
	json_array_foreach(sets, i, s)
		if (strcmp(json_string_value(json_object_get(s, "id")),
		    json_string_value(json_object_get(ref, "set"))) == 0)
			nodes = json_object_get(s, "nodes");
	if (nodes == NULL)
		fail_msg("node set %s not in nodeSets",
		    json_string_value(json_object_get(ref, "set")));
	minus = json_object_get(ref, "minus");
	json_array_foreach(nodes, i, n) {
		bool out_ = false;

		json_array_foreach(minus, j, s)
			out_ |= json_equal(s, n);
		if (!out_)
			json_array_append(out, n);
	}
	json_array_foreach(minus, k, s) {
		bool in = false;

		json_array_foreach(nodes, i, n)
			in |= json_equal(s, n);
		if (!in)
			fail_msg("minus names %s, not in its set",
			    json_string_value(s));
	}
	return out;
}

/* The findings with every VMI's cpuTargets and targets as lists. */
static inline json_t *
kvres_expand(json_t *raw)
{
	json_t *f = json_deep_copy(raw), *sets, *v;
	size_t i;

	sets = json_object_get(f, "nodeSets");
	json_array_foreach(json_object_get(f, "vmis"), i, v) {
		json_object_set_new(v, "cpuTargets", kvres_expand_ref(sets,
		    json_object_get(v, "cpuTargets")));
		json_object_set_new(v, "targets", kvres_expand_ref(sets,
		    json_object_get(v, "targets")));
	}
	return f;
}

/* Write s, load it, analyse it and render findings.json.  Any error fails
 * the test. */
static inline kvres
kvsnap_run(const kvsnap *s)
{
	kvres r = {0};
	kv_limits lim;
	kv_err err = {0};
	char *dir = kvsnap_write(s), *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_error_t je;

	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(dir, &lim, &r.m, &err) != KV_OK ||
	    kv_analyze(r.m, &r.a, &err) != KV_OK) {
		kvsnap_rmtree(dir);
		fail_msg("test snapshot: %s", err.msg);
	}
	kvsnap_rmtree(dir);
	free(dir);
	if ((f = open_memstream(&buf, &len)) == NULL)
		fail_msg("open_memstream failed");
	if (kv_write_findings(r.a, f, NULL, &err) != KV_OK)
		fail_msg("findings.json: %s", err.msg);
	fclose(f);
	r.raw = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (r.raw == NULL)
		fail_msg("findings.json does not parse: %s (line %d)", je.text,
		    je.line);
	r.findings = kvres_expand(r.raw);
	free(buf);
	return r;
}

/* The load error a snapshot gives (for tests of refusals); NULL when it
 * loads.  Caller frees. */
static inline char *
kvsnap_load_error(const kvsnap *s)
{
	kv_limits lim;
	kv_err err = {0};
	kv_model *m = NULL;
	char *dir = kvsnap_write(s), *msg = NULL;

	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(dir, &lim, &m, &err) != KV_OK)
		msg = xstrdup(err.msg);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	return msg;
}

static inline void
kvres_free(kvres *r)
{
	json_decref(r->findings);
	json_decref(r->raw);
	kv_analysis_free(r->a);
	kv_model_free(r->m);
	memset(r, 0, sizeof(*r));
}

/* findings.json's object for VMI "ns/name", failing when absent. */
static inline json_t *
kvres_vmi(const kvres *r, const char *name)
{
	json_t *arr = json_object_get(r->findings, "vmis"), *v;
	size_t i;

	json_array_foreach(arr, i, v)
		if (strcmp(json_string_value(json_object_get(v, "name")),
		    name) == 0)
			return v;
	fail_msg("no VMI %s in findings.json", name);
	return NULL;
}

/* The analysis result of VMI "ns/name". */
static inline const kv_vmires *
kvres_vmires(const kvres *r, const char *name)
{
	for (size_t i = 0; i < r->a->nvmis; i++)
		if (strcmp(r->a->vmis[i].vmi->fullname, name) == 0)
			return &r->a->vmis[i];
	fail_msg("no VMI %s in the analysis", name);
	return NULL;
}

/* A JSON array of strings as one comma-separated string (for asserting
 * lists in one go); "" for an empty or missing array.  Caller frees. */
static inline char *
kvj_join(json_t *arr)
{
	kv_buf b = {0};
	json_t *v;
	size_t i;

	json_array_foreach(arr, i, v)
		kv_buf_printf(&b, "%s%s", i ? "," : "", json_is_string(v) ?
		    json_string_value(v) : "?");
	return b.data ? b.data : xstrdup("");
}

/* Assert that the array at path of o joins to want. */
#define assert_list(o, path, want)                                          \
	do {                                                                \
		char *kvj_got_ = kvj_join(kvj_at((o), (path)));             \
		if (strcmp(kvj_got_, (want)) != 0)                          \
			fail_msg("%s: got [%s], want [%s]", (path),         \
			    kvj_got_, (want));                              \
		free(kvj_got_);                                             \
	} while (0)

/* Assert that the string at path of o equals want (NULL: JSON null). */
#define assert_jstr(o, path, want)                                          \
	do {                                                                \
		json_t *kvj_v_ = kvj_at((o), (path));                       \
		const char *kvj_w_ = (want);                                \
		if (kvj_w_ == NULL) {                                       \
			if (!json_is_null(kvj_v_))                          \
				fail_msg("%s: want null", (path));          \
		} else if (!json_is_string(kvj_v_) ||                       \
		    strcmp(json_string_value(kvj_v_), kvj_w_) != 0)         \
			fail_msg("%s: got %s, want \"%s\"", (path),         \
			    json_is_string(kvj_v_) ?                        \
			    json_string_value(kvj_v_) : "(not a string)",   \
			    kvj_w_);                                        \
	} while (0)

/* Assert that the integer at path equals want; want < 0 means null. */
#define assert_jint(o, path, want)                                          \
	do {                                                                \
		json_t *kvj_v_ = kvj_at((o), (path));                       \
		long long kvj_w_ = (want);                                  \
		if (kvj_w_ < 0) {                                           \
			if (!json_is_null(kvj_v_))                          \
				fail_msg("%s: want null", (path));          \
		} else if (!json_is_integer(kvj_v_) ||                      \
		    json_integer_value(kvj_v_) != kvj_w_)                   \
			fail_msg("%s: got %lld, want %lld", (path),         \
			    json_is_integer(kvj_v_) ? (long long)           \
			    json_integer_value(kvj_v_) : -1LL, kvj_w_);     \
	} while (0)

#define assert_jbool(o, path, want)                                         \
	do {                                                                \
		json_t *kvj_v_ = kvj_at((o), (path));                       \
		if (!json_is_boolean(kvj_v_) ||                             \
		    json_is_true(kvj_v_) != !!(want))                       \
			fail_msg("%s: want %s", (path),                     \
			    (want) ? "true" : "false");                     \
	} while (0)

#endif
