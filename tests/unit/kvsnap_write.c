/*
 * kvsnap_write.c - the writers of the unit tests' snapshot builder
 * (kvsnap.h): the flattened member list, manifest.json, the tar archive
 * (libarchive), the directory form, and kvsnap_run()'s load-analyse-
 * render round trip.  Compiled once and linked into every unit test
 * binary.
 */
#include "kvsnap.h"

/* s with every "ok" resource as a List member ahead of its own members
 * (deep copies); lists, res and the options are s's, borrowed.  Release
 * with kvsnap_flat_free(). */
static kvsnap
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

static void
kvsnap_flat_free(kvsnap *flat)
{
	kvsnap_members_free(flat->m, flat->n);
	flat->m = NULL;
	flat->n = flat->cap = 0;
}

/* The manifest's resources[] entry for a resources/ member that no
 * resource describes, or NULL. */
static json_t *
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
static json_t *
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
static json_t *
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

struct kvsnap_out {
	kv_buf buf;
	size_t cut;
};

/* manifest.json for a flattened snapshot (caller frees). */
static char *
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

static la_ssize_t
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

static void
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
char *
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
char *
kvsnap_put(const char *dir, const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		kv_fatal("kvsnap: cannot write %s", path);
	return path;
}

/* s as an archive at dir/name; returns its path (caller frees). */
char *
kvsnap_write_tar(const kvsnap *s, const char *dir, const char *name)
{
	size_t len;
	char *bytes = kvsnap_tar_bytes(s, &len);
	char *path = kvsnap_put(dir, name, bytes, len);

	free(bytes);
	return path;
}

static void
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
static void
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
static void
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
char *
kvsnap_write_dir(const kvsnap *s, const char *dir)
{
	char *top = xasprintf("%s/%s", dir, s->top);

	kvsnap_write_at(s, top);
	return top;
}

/* s as a directory snapshot in a fresh temporary directory; caller frees
 * the path and removes the directory (kvsnap_rmtree). */
char *
kvsnap_write(const kvsnap *s)
{
	char *dir = kvtest_tmpdir();

	kvsnap_write_at(s, dir);
	return dir;
}

static int
kvsnap_rm_cb(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* rm -rf path (a test's scratch directory); NULL is a no-op. */
void
kvsnap_rmtree(const char *path)
{
	if (path != NULL)
		nftw(path, kvsnap_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* A version 2 node-set reference {"set", "minus"} as the node list it
 * stands for (null stays null), as the README's jq line expands it. */
static json_t *
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
static json_t *
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
kvres
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
void
kvsnap_load_dir(const char *path, kv_model **m, kv_analysis **a)
{
	kv_limits lim;
	kv_err err = {0};

	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(path, &lim, m, &err) != KV_OK ||
	    kv_analyze(*m, a, &err) != KV_OK)
		fail_msg("%s: %s", path, err.msg);
}

char *
kvsnap_load_error(const kvsnap *s)
{
	kv_limits lim;
	kv_err err = {0};
	kv_model *m = NULL;
	char *dir = kvsnap_write(s), *msg = NULL;

	/* --strict: the error, not the member skipped (snapshot.h) */
	if (kv_limits_init(&lim, &err) == KV_OK)
		lim.strict = true;
	if (err.set || kv_model_load(dir, &lim, &m, &err) != KV_OK)
		msg = xstrdup(err.msg);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	return msg;
}

void
kvres_free(kvres *r)
{
	json_decref(r->findings);
	json_decref(r->raw);
	kv_analysis_free(r->a);
	kv_model_free(r->m);
	memset(r, 0, sizeof(*r));
}

/* findings.json's object for VMI "ns/name", failing when absent. */
json_t *
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
const kv_vmires *
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
char *
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
