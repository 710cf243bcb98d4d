/*
 * kvsnap.h - snapshots built at test time, for every unit test.
 *
 * One builder, two levels, one writer:
 *
 * - Members (test_snapshot.c, test_load.c): kvsnap_member_add*() and
 *   friends append raw members - any path, any bytes, and the hostile
 *   headers a reader must refuse (links, devices, FIFOs, "../" or absolute
 *   paths, declared sizes the data does not have, names that are not
 *   UTF-8, manifest lies).
 * - Resources (test_cpu.c, test_drain.c, test_groups.c, test_rules.c): a
 *   cluster described as jansson objects grouped by resource
 *   (kvsnap_add/addj/list/find/...), edited in place with the kvj_* path
 *   helpers; kvsnap_raw() adds a plain member (libvirt/cpu_map/x86_*.xml).
 *   kvsnap_run() writes, loads, analyses and renders findings.json in one
 *   go (kvres), and removes the directory again.
 *
 * Both levels end in the same member list: at write time every resource
 * whose status is "ok" becomes the member resources/<plural>[.<group>].json
 * (a kubectl List), ahead of the raw members, and kvsnap_manifest_json()
 * computes manifest.json - resources[] and files[] with the size and
 * SHA-256 (GLib GChecksum) of every listed member - from that list alone.
 * The same list is written as a tar archive through libarchive's writer
 * (kvsnap_tar_bytes, kvsnap_write_tar) or as a directory (kvsnap_write_dir,
 * kvsnap_write), exactly as docs/snapshot-format.md lays it out.
 * Binary fixtures thus never live in the repository.
 *
 * A kvj path is dot-separated keys with optional [n] indexes
 * ("spec.volumes[0].name"); keys that contain dots (labels) go through
 * kvj_label()/kvj_key().
 *
 * Ownership: a kvsnap is either on the stack (kvsnap_init, released by
 * kvsnap_clear, which also empties it for reuse and keeps the writer
 * options) or on the heap (kvsnap_new, released by kvsnap_free).  The
 * snapshot owns its members, objects and lists; kvsnap_add*() steal the
 * object and return a borrowed pointer, kvsnap_member_*() return a member
 * borrowed until the next member is added; kvj_set() and kvj_push() steal
 * the value.  Paths returned by the writers, kvsnap_file() and
 * kvsnap_load_error() are owned by the caller.  Include after kvtest.h.
 */
#ifndef KV_SNAP_TEST_H
#define KV_SNAP_TEST_H

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glib.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvtest.h"

#include "analyze/pipeline.h"
#include "analyze/rules/analysis.h"
#include "analyze/read/limits.h"
#include "analyze/model/model.h"
#include "render/render.h"

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

typedef struct kvsnap_member {
	char *path;		/* below the top directory, unless raw */
	char *data;
	size_t len;
	int type;		/* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR, ... */
	char *target;		/* link target (below the top directory for a
				 * hard link) */
	bool hardlink;
	int64_t declared;	/* size in the header; -1: len */
	bool raw;		/* path is the whole archive path */
	bool unlisted;		/* left out of the manifest's files[] */
	int64_t lie_bytes;	/* bytes in the manifest; -1: the truth */
	const char *lie_sha;	/* sha256 in the manifest; NULL: the truth */
} kvsnap_member;

typedef struct kvsnap {
	/* members */
	kvsnap_member *m;
	size_t n, cap;
	/* resources: file name -> array of objects, in order, and file
	 * name -> {resource, group, status, ...}; NULL until the first */
	json_t *lists;
	json_t *res;
	/* writer options */
	char flavor[16];	/* "kubevirt" | "deckhouse" */
	const char *created_at;
	const char *top;	/* top directory in an archive, "snap" */
	int format_version;	/* 1 */
	bool no_manifest;
	bool manifest_last;	/* write manifest.json after the members */
	const char *manifest;	/* these bytes instead of the generated ones */
	int filter;		/* ARCHIVE_FILTER_GZIP (default) or _NONE */
	size_t cut;		/* archive writers: keep only the first cut
				 * bytes of the output (0: all) */
} kvsnap;

static inline void
kvsnap_init(kvsnap *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->flavor, sizeof(s->flavor), "kubevirt");
	s->created_at = "2026-10-31T09:12:44Z";
	s->top = "snap";
	s->format_version = 1;
	s->filter = ARCHIVE_FILTER_GZIP;
}

static inline void
kvsnap_members_free(kvsnap_member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].path);
		free(m[i].data);
		free(m[i].target);
	}
	free(m);
}

/* Drop every member and resource; the writer options stay. */
static inline void
kvsnap_clear(kvsnap *s)
{
	kvsnap_members_free(s->m, s->n);
	s->m = NULL;
	s->n = s->cap = 0;
	json_decref(s->lists);
	json_decref(s->res);
	s->lists = s->res = NULL;
}

static inline kvsnap *
kvsnap_new(const char *flavor)
{
	kvsnap *s = xcalloc(1, sizeof(*s));

	kvsnap_init(s);
	snprintf(s->flavor, sizeof(s->flavor), "%s",
	    flavor ? flavor : "kubevirt");
	return s;
}

static inline void
kvsnap_free(kvsnap *s)
{
	if (s == NULL)
		return;
	kvsnap_clear(s);
	free(s);
}

static inline void
kvsnap_member_copy(kvsnap_member *to, const kvsnap_member *from)
{
	*to = *from;
	to->path = xstrdup(from->path);
	to->data = xmalloc(from->len + 1);
	memcpy(to->data, from->data, from->len + 1);
	to->target = from->target ? xstrdup(from->target) : NULL;
}

/* A deep copy, to mutate without touching the original. */
static inline kvsnap *
kvsnap_copy(const kvsnap *s)
{
	kvsnap *c = xcalloc(1, sizeof(*c));

	*c = *s;
	c->m = s->n ? xcalloc(s->n, sizeof(*c->m)) : NULL;
	c->cap = s->n;
	for (size_t i = 0; i < s->n; i++)
		kvsnap_member_copy(&c->m[i], &s->m[i]);
	c->lists = s->lists ? json_deep_copy(s->lists) : NULL;
	c->res = s->res ? json_deep_copy(s->res) : NULL;
	return c;
}

/* ---- members ------------------------------------------------------------- */

/* A regular member with len bytes of data. */
static inline kvsnap_member *
kvsnap_member_addn(kvsnap *s, const char *path, const void *data, size_t len)
{
	kvsnap_member *m;

	KV_GROW(s->m, s->cap, s->n + 1);
	m = &s->m[s->n++];
	memset(m, 0, sizeof(*m));
	m->path = xstrdup(path);
	m->data = xmalloc(len + 1);
	if (len > 0)
		memcpy(m->data, data, len);
	m->data[len] = '\0';
	m->len = len;
	m->type = AE_IFREG;
	m->declared = -1;
	m->lie_bytes = -1;
	return m;
}

static inline kvsnap_member *
kvsnap_member_add(kvsnap *s, const char *path, const char *text)
{
	return kvsnap_member_addn(s, path, text, strlen(text));
}

/* A member that is not a regular file: a directory, a symlink to target,
 * a device, a FIFO.  Never listed in the manifest. */
static inline kvsnap_member *
kvsnap_member_special(kvsnap *s, const char *path, int type,
    const char *target)
{
	kvsnap_member *m = kvsnap_member_addn(s, path, "", 0);

	m->type = type;
	m->unlisted = true;
	if (target != NULL)
		m->target = xstrdup(target);
	return m;
}

/* A hard link to target (a path below the top directory). */
static inline kvsnap_member *
kvsnap_member_hardlink(kvsnap *s, const char *path, const char *target)
{
	kvsnap_member *m = kvsnap_member_special(s, path, AE_IFREG, target);

	m->hardlink = true;
	return m;
}

/* A plain member (path below the top directory) with content; replaces
 * an earlier one at the same path. */
static inline void
kvsnap_raw(kvsnap *s, const char *path, const char *content)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->m[i].path, path) == 0) {
			free(s->m[i].data);
			s->m[i].data = xstrdup(content);
			s->m[i].len = strlen(content);
			return;
		}
	kvsnap_member_add(s, path, content);
}

/* ---- resources ----------------------------------------------------------- */

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

	if (s->res == NULL)
		s->res = json_object();
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
	json_t *arr;

	if (s->lists == NULL)
		s->lists = json_object();
	if ((arr = json_object_get(s->lists, f)) == NULL) {
		arr = json_array();
		json_object_set_new(s->lists, f, arr);
		if (s->res == NULL || json_object_get(s->res, f) == NULL)
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

/* ---- the member list and manifest.json ----------------------------------- */

/* s with every "ok" resource as a List member ahead of its own members
 * (deep copies); lists, res and the options are s's, borrowed.  Release
 * with kvsnap_flat_free(). */
static inline kvsnap
kvsnap_flatten(const kvsnap *s)
{
	kvsnap flat = *s;
	const char *key;
	json_t *v;

	flat.m = NULL;
	flat.n = flat.cap = 0;
	json_object_foreach(s->res, key, v) {
		json_t *items = json_object_get(s->lists, key), *list;
		char *text;

		if (strcmp(json_string_value(json_object_get(v, "status")),
		    "ok") != 0)
			continue;
		list = json_pack("{s:s, s:s, s:o, s:{s:s}}", "apiVersion", "v1",
		    "kind", "List", "items", items ? json_incref(items) :
		    json_array(), "metadata", "resourceVersion", "");
		text = json_dumps(list, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		if (text == NULL)
			kv_fatal("kvsnap: cannot write %s", key);
		kvsnap_member_add(&flat, key, text);
		free(text);
		json_decref(list);
	}
	for (size_t i = 0; i < s->n; i++) {
		KV_GROW(flat.m, flat.cap, flat.n + 1);
		kvsnap_member_copy(&flat.m[flat.n++], &s->m[i]);
	}
	return flat;
}

static inline void
kvsnap_flat_free(kvsnap *flat)
{
	kvsnap_members_free(flat->m, flat->n);
	flat->m = NULL;
	flat->n = flat->cap = 0;
}

/* The manifest's resources[] entry for a resources/ member that no
 * resource describes, or NULL. */
static inline json_t *
kvsnap_resource(const char *path)
{
	const char *p, *dot;
	char *base;
	json_t *r;

	if (!kv_startswith(path, "resources/") ||
	    strlen(path) < sizeof("resources/.json") ||
	    strcmp(path + strlen(path) - 5, ".json") != 0)
		return NULL;
	p = path + strlen("resources/");
	base = xstrndup(p, strlen(p) - 5);
	dot = strchr(base, '.');
	r = json_pack("{s:s%, s:s, s:s, s:s}", "resource", base,
	    dot ? (size_t)(dot - base) : strlen(base),
	    "group", dot ? dot + 1 : "", "file", path, "status", "ok");
	free(base);
	return r;
}

/* resources[]: one entry per resource (with file and count when "ok"),
 * then one per resources/ member that no resource describes. */
static inline json_t *
kvsnap_manifest_resources(const kvsnap *flat)
{
	json_t *out = json_array(), *v, *r;
	const char *key;

	json_object_foreach(flat->res, key, v) {
		json_t *items = json_object_get(flat->lists, key);

		r = json_deep_copy(v);
		if (strcmp(json_string_value(json_object_get(v, "status")),
		    "ok") == 0) {
			json_object_set_new(r, "file", json_string(key));
			json_object_set_new(r, "count", json_integer(items ?
			    (json_int_t)json_array_size(items) : 0));
		} else
			json_object_set_new(r, "message",
			    json_string("denied by the test"));
		json_array_append_new(out, r);
	}
	for (size_t i = 0; i < flat->n; i++) {
		const kvsnap_member *m = &flat->m[i];

		if (m->type != AE_IFREG || m->unlisted || m->hardlink ||
		    m->raw || !g_utf8_validate(m->path, -1, NULL) ||
		    json_object_get(flat->res, m->path) != NULL)
			continue;
		if ((r = kvsnap_resource(m->path)) != NULL)
			json_array_append_new(out, r);
	}
	return out;
}

/* files[]: size and SHA-256 of every listed member (a regular file, not
 * a hard link, below the top directory, with a UTF-8 name). */
static inline json_t *
kvsnap_manifest_files(const kvsnap *flat)
{
	json_t *files = json_array();

	for (size_t i = 0; i < flat->n; i++) {
		const kvsnap_member *m = &flat->m[i];
		gchar *sum;
		json_t *f;

		if (m->type != AE_IFREG || m->unlisted || m->hardlink ||
		    m->raw || !g_utf8_validate(m->path, -1, NULL))
			continue;
		sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
		    (const guchar *)m->data, m->len);
		f = json_pack("{s:s, s:I, s:s}", "path", m->path, "bytes",
		    (json_int_t)(m->lie_bytes >= 0 ? (size_t)m->lie_bytes :
		    m->len), "sha256", m->lie_sha ? m->lie_sha : sum);
		g_free(sum);
		if (f == NULL)
			kv_fatal("kvsnap: cannot describe %s", m->path);
		json_array_append_new(files, f);
	}
	return files;
}

/* manifest.json for a flattened snapshot (caller frees). */
static inline char *
kvsnap_manifest_json(const kvsnap *flat)
{
	json_t *root;
	char *out;

	root = json_pack("{s:s, s:i, s:s, s:{s:s, s:s}, "
	    "s:{s:s, s:s, s:s, s:s}, s:{s:[], s:b, s:b}, s:o, s:o}",
	    "kind", "kvscope-snapshot", "formatVersion", flat->format_version,
	    "createdAt", flat->created_at,
	    "collector", "name", "kvtest", "version", "0",
	    "cluster", "context", "test", "kubernetesVersion", "v1.36.1",
	    "kubevirtVersion", "v1.9.0", "flavor", flat->flavor,
	    "options", "namespaces", "redact", 1, "anonymize", 0,
	    "resources", kvsnap_manifest_resources(flat),
	    "files", kvsnap_manifest_files(flat));
	if (root == NULL)
		kv_fatal("kvsnap: cannot build manifest.json");
	out = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return out;
}

/* --- tar ----------------------------------------------------------------- */

struct kvsnap_out {
	kv_buf buf;
	size_t cut;
};

static inline la_ssize_t
kvsnap_write_cb(struct archive *a, void *arg, const void *p, size_t n)
{
	struct kvsnap_out *o = arg;

	if (o->cut > 0 && o->buf.len + n > o->cut) {
		/* Keep what fits and make the writer give up: this is how a
		 * header can promise more data than the archive holds. */
		kv_buf_append(&o->buf, p, o->cut - o->buf.len);
		return -1;
	}
	kv_buf_append(&o->buf, p, n);
	return (la_ssize_t)n;
}

static inline void
kvsnap_entry(struct archive *a, const kvsnap *s, const kvsnap_member *m,
    const char *path, const void *data, size_t len)
{
	struct archive_entry *e = archive_entry_new();
	char *full = m == NULL || !m->raw ?
	    xasprintf("%s/%s", s->top, path) : xstrdup(path);

	archive_entry_copy_pathname(e, full);
	archive_entry_set_mtime(e, 1793438000, 0);
	archive_entry_set_uname(e, "kvtest");
	archive_entry_set_gname(e, "kvtest");
	if (m != NULL && m->hardlink) {
		char *t = xasprintf("%s/%s", s->top, m->target);

		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_copy_hardlink(e, t);
		archive_entry_set_size(e, 0);
		free(t);
		len = 0;
	} else if (m != NULL && m->type != AE_IFREG) {
		archive_entry_set_filetype(e, m->type);
		archive_entry_set_perm(e, m->type == AE_IFDIR ? 0755 : 0644);
		if (m->type == AE_IFLNK)
			archive_entry_copy_symlink(e, m->target);
		if (m->type == AE_IFCHR || m->type == AE_IFBLK) {
			archive_entry_set_rdevmajor(e, 1);
			archive_entry_set_rdevminor(e, 3);
		}
		archive_entry_set_size(e, 0);
		len = 0;
	} else {
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, m != NULL && m->declared >= 0 ?
		    m->declared : (la_int64_t)len);
	}
	/* A short write (cut, or data shorter than declared) is the point
	 * of some tests: errors are not checked here. */
	if (archive_write_header(a, e) == ARCHIVE_OK && len > 0)
		archive_write_data(a, data, len);
	archive_entry_free(e);
	free(full);
}

/* The archive bytes of s (caller frees); *lenp gets their length. */
static inline char *
kvsnap_tar_bytes(const kvsnap *s, size_t *lenp)
{
	struct archive *a = archive_write_new();
	struct kvsnap_out o = { .cut = s->cut };
	kvsnap flat = kvsnap_flatten(s);
	char *manifest = NULL;
	const char *mbytes = NULL;

	archive_write_set_format_pax_restricted(a);
	if (s->filter == ARCHIVE_FILTER_GZIP) {
		archive_write_add_filter_gzip(a);
		/* no name or time in the gzip header: reproducible bytes */
		archive_write_set_filter_option(a, "gzip", "timestamp", NULL);
	} else
		archive_write_add_filter_none(a);
	archive_write_set_bytes_in_last_block(a, 1);
	if (archive_write_open(a, &o, NULL, kvsnap_write_cb, NULL) !=
	    ARCHIVE_OK)
		kv_fatal("kvsnap: %s", archive_error_string(a));
	if (!s->no_manifest)
		mbytes = s->manifest != NULL ? s->manifest :
		    (manifest = kvsnap_manifest_json(&flat));
	if (mbytes != NULL && !s->manifest_last)
		kvsnap_entry(a, s, NULL, "manifest.json", mbytes,
		    strlen(mbytes));
	for (size_t i = 0; i < flat.n; i++)
		kvsnap_entry(a, s, &flat.m[i], flat.m[i].path, flat.m[i].data,
		    flat.m[i].len);
	if (mbytes != NULL && s->manifest_last)
		kvsnap_entry(a, s, NULL, "manifest.json", mbytes,
		    strlen(mbytes));
	archive_write_close(a);
	archive_write_free(a);
	free(manifest);
	kvsnap_flat_free(&flat);
	if (o.buf.data == NULL)
		kv_buf_append(&o.buf, "", 0);
	*lenp = o.buf.len;
	return o.buf.data;
}

/* Write len bytes to dir/name; returns the path (caller frees). */
static inline char *
kvsnap_put(const char *dir, const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		kv_fatal("kvsnap: cannot write %s", path);
	return path;
}

/* s as an archive at dir/name; returns its path (caller frees). */
static inline char *
kvsnap_write_tar(const kvsnap *s, const char *dir, const char *name)
{
	size_t len;
	char *bytes = kvsnap_tar_bytes(s, &len);
	char *path = kvsnap_put(dir, name, bytes, len);

	free(bytes);
	return path;
}

/* --- directory ------------------------------------------------------------ */

static inline void
kvsnap_mkdirs(const char *path)
{
	char *p = xstrdup(path);

	for (char *q = p + 1; *q != '\0'; q++)
		if (*q == '/') {
			*q = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST)
				kv_fatal("kvsnap: mkdir %s", p);
			*q = '/';
		}
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		kv_fatal("kvsnap: mkdir %s", p);
	free(p);
}

/* One member below the snapshot directory top.  Hard links and devices
 * are not made (a test would need root for the latter). */
static inline void
kvsnap_dir_member(const char *top, const kvsnap_member *m)
{
	char *full = xasprintf("%s/%s", top, m->path);
	char *slash = strrchr(full, '/');

	*slash = '\0';
	kvsnap_mkdirs(full);
	*slash = '/';
	if (m->type == AE_IFDIR)
		kvsnap_mkdirs(full);
	else if (m->type == AE_IFLNK) {
		if (symlink(m->target, full) != 0)
			kv_fatal("kvsnap: symlink %s", full);
	} else if (m->type == AE_IFIFO) {
		if (mkfifo(full, 0644) != 0)
			kv_fatal("kvsnap: mkfifo %s", full);
	} else if (m->type == AE_IFREG && !m->hardlink)
		free(kvsnap_put(top, m->path, m->data, m->len));
	free(full);
}

/* s as the directory snapshot top (made when missing). */
static inline void
kvsnap_write_at(const kvsnap *s, const char *top)
{
	kvsnap flat = kvsnap_flatten(s);
	char *manifest = NULL;

	kvsnap_mkdirs(top);
	if (!s->no_manifest) {
		const char *mb = s->manifest != NULL ? s->manifest :
		    (manifest = kvsnap_manifest_json(&flat));

		free(kvsnap_put(top, "manifest.json", mb, strlen(mb)));
	}
	for (size_t i = 0; i < flat.n; i++)
		kvsnap_dir_member(top, &flat.m[i]);
	free(manifest);
	kvsnap_flat_free(&flat);
}

/* s as a directory dir/<top>; returns its path (caller frees). */
static inline char *
kvsnap_write_dir(const kvsnap *s, const char *dir)
{
	char *top = xasprintf("%s/%s", dir, s->top);

	kvsnap_write_at(s, top);
	return top;
}

/* s as a directory snapshot in a fresh temporary directory; caller frees
 * the path and removes the directory (kvsnap_rmtree). */
static inline char *
kvsnap_write(const kvsnap *s)
{
	char *dir = kvtest_tmpdir();

	kvsnap_write_at(s, dir);
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

/* rm -rf path (a test's scratch directory); NULL is a no-op. */
static inline void
kvsnap_rmtree(const char *path)
{
	if (path != NULL)
		nftw(path, kvsnap_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
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
