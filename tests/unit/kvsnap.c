/*
 * kvsnap.c - the snapshot builder of the unit tests (see kvsnap.h for
 * the two levels, the writer and who owns what).  Compiled once and
 * linked into every unit test binary.
 */
#include "kvsnap.h"

/* Parse JSON text or fail the test. */
json_t *
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
static const char *
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
static json_t *
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

json_t *
kvj_at(json_t *o, const char *path)
{
	return kvj_walk(o, path, false);
}

/* The object at path, created (with its parents) when missing. */
json_t *
kvj_obj(json_t *o, const char *path)
{
	json_t *v = kvj_walk(o, path, true);

	if (v == NULL || !json_is_object(v))
		fail_msg("path %s is not an object", path);
	return v;
}

/* Split "a.b.c" into the parent path "a.b" and the last key "c". */
static json_t *
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
void
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

void
kvj_sets(json_t *o, const char *path, const char *s)
{
	kvj_set(o, path, s ? json_string(s) : NULL);
}

/* Set path to parsed JSON text. */
void
kvj_setj(json_t *o, const char *path, const char *text)
{
	kvj_set(o, path, kvj(text));
}

void
kvj_del(json_t *o, const char *path)
{
	kvj_set(o, path, NULL);
}

/* Append v (stolen) to the array at path, created when missing. */
static void
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

void
kvj_pushj(json_t *o, const char *path, const char *text)
{
	kvj_push(o, path, kvj(text));
}

/* obj[path][key] = value (a string); NULL deletes.  For keys with dots. */
void
kvj_key(json_t *o, const char *path, const char *key, const char *value)
{
	json_t *m = kvj_obj(o, path);

	if (value == NULL)
		json_object_del(m, key);
	else
		json_object_set_new(m, key, json_string(value));
}

void
kvj_label(json_t *o, const char *key, const char *value)
{
	kvj_key(o, "metadata.labels", key, value);
}

void
kvj_annotate(json_t *o, const char *key, const char *value)
{
	kvj_key(o, "metadata.annotations", key, value);
}

/* For each space-separated name in names: labels["<kind>.<domain>/<name>"]
 * = "true", e.g. kvj_cpu_labels(node, "node.kubevirt.io", "cpu-feature",
 * "avx2 aes"). */
static void
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

void
kvsnap_init(kvsnap *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->flavor, sizeof(s->flavor), "kubevirt");
	s->created_at = "2026-10-31T09:12:44Z";
	s->top = "snap";
	s->format_version = 1;
	s->filter = ARCHIVE_FILTER_GZIP;
}

void
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
void
kvsnap_clear(kvsnap *s)
{
	kvsnap_members_free(s->m, s->n);
	s->m = NULL;
	s->n = s->cap = 0;
	json_decref(s->lists);
	json_decref(s->res);
	s->lists = s->res = NULL;
}

kvsnap *
kvsnap_new(const char *flavor)
{
	kvsnap *s = xcalloc(1, sizeof(*s));

	kvsnap_init(s);
	snprintf(s->flavor, sizeof(s->flavor), "%s",
	    flavor ? flavor : "kubevirt");
	return s;
}

void
kvsnap_free(kvsnap *s)
{
	if (s == NULL)
		return;
	kvsnap_clear(s);
	free(s);
}

void
kvsnap_member_copy(kvsnap_member *to, const kvsnap_member *from)
{
	*to = *from;
	to->path = xstrdup(from->path);
	to->data = xmalloc(from->len + 1);
	memcpy(to->data, from->data, from->len + 1);
	to->target = from->target ? xstrdup(from->target) : NULL;
}

/* A deep copy, to mutate without touching the original. */
kvsnap *
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

/* A regular member with len bytes of data. */
kvsnap_member *
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

kvsnap_member *
kvsnap_member_add(kvsnap *s, const char *path, const char *text)
{
	return kvsnap_member_addn(s, path, text, strlen(text));
}

/* A member that is not a regular file: a directory, a symlink to target,
 * a device, a FIFO.  Never listed in the manifest. */
kvsnap_member *
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
kvsnap_member *
kvsnap_member_hardlink(kvsnap *s, const char *path, const char *target)
{
	kvsnap_member *m = kvsnap_member_special(s, path, AE_IFREG, target);

	m->hardlink = true;
	return m;
}

/* A plain member (path below the top directory) with content; replaces
 * an earlier one at the same path. */
void
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

/* "resources/<resource>[.<group>].json" */
char *
kvsnap_file(const char *resource, const char *group)
{
	return group && *group ? xasprintf("resources/%s.%s.json", resource,
	    group) : xasprintf("resources/%s.json", resource);
}

/* Manifest status of a resource: "ok" (the default once an object or
 * kvsnap_list() names it), "forbidden", "absent", "error".  Anything but
 * "ok" writes no file. */
void
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
json_t *
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

json_t *
kvsnap_add(kvsnap *s, const char *resource, const char *group, json_t *o)
{
	json_array_append_new(kvsnap_list(s, resource, group), o);
	return o;
}

json_t *
kvsnap_addj(kvsnap *s, const char *resource, const char *group,
    const char *text)
{
	return kvsnap_add(s, resource, group, kvj(text));
}

/* The object of a resource whose metadata.name is name (first match), or
 * NULL. */
static json_t *
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
json_t *
kvsnap_find(kvsnap *s, const char *resource, const char *group,
    const char *name)
{
	json_t *o = kvsnap_get(s, resource, group, name);

	if (o == NULL)
		fail_msg("no %s named %s in the test snapshot", resource, name);
	return o;
}

/* Remove the object named name; true when there was one. */
bool
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
json_t *
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
static const char *
kvsnap_domain(const kvsnap *s)
{
	return strcmp(s->flavor, "deckhouse") == 0 ?
	    "node.virtualization.deckhouse.io" : "node.kubevirt.io";
}

static const char *
kvsnap_kvprefix(const kvsnap *s)
{
	return strcmp(s->flavor, "deckhouse") == 0 ?
	    "kubevirt.internal.virtualization.deckhouse.io/" : "kubevirt.io/";
}

/* A KubeVirt node: kvsnap_node() plus schedulable=true, the q35 machine
 * types and the CPU labels of cpu, in the flavor's label domain. */
json_t *
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
