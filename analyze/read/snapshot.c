/*
 * snapshot.c - the snapshot container reader (see snapshot.h).
 *
 * container.c walks the directory or archive under the hostile-input
 * rules and hands each regular file to member_*(), which refuses
 * duplicates, hashes the bytes with OpenSSL's EVP SHA-256
 * (hardware-accelerated where the CPU has it) and forwards them to the
 * sink.  An input without manifest.json is a foreign one (foreign.c).
 */
#include "analyze/read/snapshot.h"

#include <glib.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/container.h"
#include "analyze/read/mgtime.h"

#define MANIFEST "manifest.json"

#define FORMAT_VERSION 1

typedef struct member_rec {
	char *path;
	uint64_t bytes;
	char sha256[65];
	bool read;		/* the loader took it (sink state) */
} member_rec;

typedef struct expect_rec {
	char *path;
	uint64_t bytes;
	char *sha256;
	bool seen;
} expect_rec;

typedef struct reader {
	const char *snap;		/* the path given by the user */
	const kv_limits *lim;
	const snap_sink *sink;
	snap_manifest *m;
	kv_err *err;

	GHashTable *seen;		/* member path -> member_rec */

	kv_buf manifest;		/* manifest.json bytes */
	bool have_manifest;
	expect_rec *expect;		/* manifest files[] */
	size_t nexpect;
	GHashTable *expect_by_path;	/* path -> first expect_rec */

	/* the member being read */
	char *cur_path;
	uint64_t cur_bytes;
	EVP_MD_CTX *cur_sum;
	void *cur_state;
	bool cur_is_manifest;
	bool cur_failed;		/* the sink failed; still hashing */
	kv_err cur_err;

	/* members skipped (not --strict): path, why; applied to the
	 * manifest once it is read (mark_partial) */
	size_t nskips;
	char **skips;
} reader;

static void
member_rec_free(gpointer p)
{
	member_rec *r = p;

	free(r->path);
	free(r);
}

static const expect_rec *
find_expect(const reader *r, const char *path)
{
	return r->expect_by_path != NULL ?
	    g_hash_table_lookup(r->expect_by_path, path) : NULL;
}

static int
member_begin(void *arg, const char *path, uint64_t declared, kv_err *err)
{
	reader *r = arg;

	if (g_hash_table_contains(r->seen, path))
		return kv_seterr(r->err, "%s: %s: duplicate member", r->snap,
		    path);
	r->cur_path = xstrdup(path);
	r->cur_bytes = 0;
	r->cur_sum = EVP_MD_CTX_new();
	if (r->cur_sum == NULL ||
	    EVP_DigestInit_ex(r->cur_sum, EVP_sha256(), NULL) != 1)
		kv_fatal("out of memory (SHA-256)");
	r->cur_is_manifest = strcmp(path, MANIFEST) == 0;
	r->cur_failed = false;
	r->cur_state = NULL;
	kv_clearerr(&r->cur_err);
	if (r->cur_is_manifest)
		return KV_OK;
	r->cur_state = r->sink->begin(r->sink->arg, path, declared,
	    &r->cur_err);
	if (r->cur_err.set)
		r->cur_failed = true;
	return KV_OK;
}

static int
member_data(void *arg, const char *buf, size_t len, kv_err *err)
{
	reader *r = arg;

	r->cur_bytes += len;
	if (EVP_DigestUpdate(r->cur_sum, buf, len) != 1)
		kv_fatal("SHA-256 failed");
	if (r->cur_is_manifest) {
		if (r->cur_bytes > r->lim->manifest_bytes)
			return kv_seterr(r->err, "%s: manifest.json larger "
			    "than %llu bytes (KVSCOPE_MAX_MANIFEST_BYTES)",
			    r->snap,
			    (unsigned long long)r->lim->manifest_bytes);
		kv_buf_append(&r->manifest, buf, len);
		return KV_OK;
	}
	if (r->cur_state != NULL && !r->cur_failed &&
	    r->sink->data(r->cur_state, buf, len, &r->cur_err) != KV_OK)
		r->cur_failed = true;
	return KV_OK;
}

static int parse_manifest(reader *r);

static void
sha256_hex(EVP_MD_CTX *ctx, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_DigestFinal_ex(ctx, md, &n) != 1 || n != 32)
		kv_fatal("SHA-256 failed");
	for (unsigned int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* A member left out without --strict (one the manifest lists that is
 * missing): "PATH\037why". */
static void
skip_member(reader *r, const char *path, const char *why)
{
	size_t n = strlen(path);

	if (strncmp(why, path, n) == 0 && strncmp(why + n, ": ", 2) == 0)
		why += n + 2;	/* the loader's message names the file */
	r->skips = xreallocarray(r->skips, r->nskips + 1, sizeof(char *));
	r->skips[r->nskips++] = xasprintf("%s\037%s", path, why);
}

/* The skipped members into the manifest: the resource whose file one is
 * counts as partial (status "partial", message "partial: PATH skipped:
 * why"); a member no resource names (an XML file) is a note. */
static void
mark_partial(reader *r)
{
	for (size_t k = 0; k < r->nskips; k++) {
		char *path = r->skips[k], *why = strchr(path, '\037');
		size_t i = 0;

		*why++ = '\0';
		for (; i < r->m->nresources; i++) {
			snap_resource *x = &r->m->resources[i];

			if (x->file == NULL || strcmp(x->file, path) != 0)
				continue;
			free(x->status);
			free(x->message);
			x->status = xstrdup("partial");
			x->message = xasprintf("partial: %s skipped: %s", path,
			    why);
			break;
		}
		if (i == r->m->nresources) {
			r->m->notes = xreallocarray(r->m->notes,
			    r->m->nnotes + 1, sizeof(char *));
			r->m->notes[r->m->nnotes++] = xasprintf("%s skipped: "
			    "%s; its objects are not in the analysis", path,
			    why);
		}
		free(path);
	}
	free(r->skips);
	r->skips = NULL;
	r->nskips = 0;
}

/*
 * End of a member.  A sink failure is reported as such unless the manifest
 * (already read) says the member was damaged: then the damage is the cause
 * and is what the user must hear.  A member the loader cannot parse is
 * refused even without --strict: the loader may hold part of its objects
 * (a foreign input's file is parsed whole before it is loaded, foreign.c,
 * and is skipped instead).
 */
static int
member_end(void *arg, kv_err *err)
{
	reader *r = arg;
	member_rec *rec = xcalloc(1, sizeof(*rec));
	const expect_rec *e;
	int rc = KV_OK;

	rec->path = r->cur_path;
	rec->bytes = r->cur_bytes;
	rec->read = r->cur_state != NULL;
	sha256_hex(r->cur_sum, rec->sha256);
	EVP_MD_CTX_free(r->cur_sum);
	r->cur_sum = NULL;
	r->cur_path = NULL;
	g_hash_table_insert(r->seen, rec->path, rec);

	if (r->cur_is_manifest)
		return parse_manifest(r);
	if (!r->cur_failed && r->cur_state != NULL) {
		/* end() consumes the state, whatever it returns */
		if (r->sink->end(r->cur_state, &r->cur_err) != KV_OK)
			r->cur_failed = true;
		r->cur_state = NULL;
	}
	if (r->cur_failed) {
		if (r->cur_state != NULL && r->sink->abort != NULL)
			r->sink->abort(r->cur_state);
		r->cur_state = NULL;
		e = find_expect(r, rec->path);
		if (e != NULL && (e->bytes != rec->bytes ||
		    g_ascii_strcasecmp(e->sha256, rec->sha256) != 0))
			rc = kv_seterr(r->err, "%s: %s: does not match the "
			    "manifest (%s); the snapshot was damaged or edited",
			    r->snap, rec->path, e->bytes != rec->bytes ?
			    "size differs" : "sha256 differs");
		else
			rc = kv_seterr(r->err, "%s: %s", r->snap,
			    r->cur_err.msg);
	}
	return rc;
}

static void
member_abort(void *arg)
{
	reader *r = arg;

	if (r->cur_state != NULL && r->sink->abort != NULL)
		r->sink->abort(r->cur_state);
	r->cur_state = NULL;
	EVP_MD_CTX_free(r->cur_sum);
	r->cur_sum = NULL;
	free(r->cur_path);
	r->cur_path = NULL;
}

/* --- manifest ----------------------------------------------------------- */

static char *
mstr(reader *r, json_t *obj, const char *key, const char *where, bool req,
    int *rc)
{
	json_t *v = json_object_get(obj, key);

	if (v == NULL || json_is_null(v)) {
		if (req)
			*rc = kv_seterr(r->err, "%s: manifest.json: %s%s: "
			    "missing", r->snap, where, key);
		return NULL;
	}
	if (!json_is_string(v)) {
		*rc = kv_seterr(r->err, "%s: manifest.json: %s%s: expected a "
		    "string", r->snap, where, key);
		return NULL;
	}
	return xstrdup(json_string_value(v));
}

static json_t *
mobj(reader *r, json_t *obj, const char *key, int type, int *rc)
{
	json_t *v = json_object_get(obj, key);

	if (v == NULL || json_is_null(v))
		return NULL;
	if ((int)json_typeof(v) != type) {
		*rc = kv_seterr(r->err, "%s: manifest.json: %s: expected %s",
		    r->snap, key, type == JSON_ARRAY ? "a list" : "an object");
		return NULL;
	}
	return v;
}

static int
parse_manifest_files(reader *r, json_t *files)
{
	size_t i;
	json_t *f;
	int rc = KV_OK;

	r->expect = xcalloc(json_array_size(files) + 1, sizeof(*r->expect));
	json_array_foreach(files, i, f) {
		expect_rec *e = &r->expect[r->nexpect];
		json_t *b;
		char where[48];

		snprintf(where, sizeof(where), "files[%zu].", i);
		if (!json_is_object(f))
			return kv_seterr(r->err, "%s: manifest.json: "
			    "files[%zu]: expected an object", r->snap, i);
		e->path = mstr(r, f, "path", where, true, &rc);
		e->sha256 = mstr(r, f, "sha256", where, true, &rc);
		r->nexpect++;
		if (rc != KV_OK)
			return rc;
		b = json_object_get(f, "bytes");
		if (!json_is_integer(b) || json_integer_value(b) < 0)
			return kv_seterr(r->err, "%s: manifest.json: "
			    "files[%zu].bytes: expected a whole number",
			    r->snap, i);
		e->bytes = (uint64_t)json_integer_value(b);
	}
	/* the first entry of a path, as a scan would find it */
	r->expect_by_path = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t k = r->nexpect; k > 0; k--)
		g_hash_table_insert(r->expect_by_path, r->expect[k - 1].path,
		    &r->expect[k - 1]);
	return KV_OK;
}

static int
parse_manifest_resources(reader *r, json_t *res)
{
	size_t i;
	json_t *o;
	int rc = KV_OK;
	snap_manifest *m = r->m;

	m->resources = xcalloc(json_array_size(res) + 1,
	    sizeof(*m->resources));
	json_array_foreach(res, i, o) {
		snap_resource *s = &m->resources[m->nresources];
		json_t *c;
		char where[48];

		snprintf(where, sizeof(where), "resources[%zu].", i);
		if (!json_is_object(o))
			return kv_seterr(r->err, "%s: manifest.json: "
			    "resources[%zu]: expected an object", r->snap, i);
		m->nresources++;
		s->resource = mstr(r, o, "resource", where, true, &rc);
		s->group = mstr(r, o, "group", where, false, &rc);
		s->file = mstr(r, o, "file", where, false, &rc);
		s->status = mstr(r, o, "status", where, true, &rc);
		s->message = mstr(r, o, "message", where, false, &rc);
		s->scope = mstr(r, o, "scope", where, false, &rc);
		if (rc != KV_OK)
			return rc;
		if (s->group == NULL)
			s->group = xstrdup("");
		c = json_object_get(o, "count");
		s->count = json_is_integer(c) ? json_integer_value(c) : -1;
	}
	return KV_OK;
}

/* kind, formatVersion and createdAt. */
static int
manifest_head(reader *r, json_t *root)
{
	snap_manifest *m = r->m;
	json_t *v = json_object_get(root, "kind");
	int rc = KV_OK;

	if (!json_is_string(v) || strcmp(json_string_value(v),
	    "kvscope-snapshot") != 0)
		return kv_seterr(r->err, "%s: manifest.json: kind: expected "
		    "\"kvscope-snapshot\"", r->snap);
	v = json_object_get(root, "formatVersion");
	if (!json_is_integer(v))
		return kv_seterr(r->err, "%s: manifest.json: formatVersion: "
		    "expected a whole number", r->snap);
	m->format_version = json_integer_value(v);
	if (m->format_version != FORMAT_VERSION)
		return kv_seterr(r->err, "%s: manifest.json: formatVersion "
		    "%lld is not supported (this kvscope reads version %d)",
		    r->snap, m->format_version, FORMAT_VERSION);
	m->created_at = mstr(r, root, "createdAt", "", true, &rc);
	if (rc == KV_OK && !kv_rfc3339_shape(m->created_at))
		rc = kv_seterr(r->err, "%s: manifest.json: createdAt: expected "
		    "an RFC 3339 time, got \"%s\"", r->snap, m->created_at);
	return rc;
}

/* options.namespaces: a list of namespace names, or absent. */
static int
manifest_namespaces(reader *r, json_t *opt)
{
	snap_manifest *m = r->m;
	json_t *v = json_object_get(opt, "namespaces"), *n;
	size_t i;

	if (v == NULL || json_is_null(v))
		return KV_OK;
	if (!json_is_array(v))
		return kv_seterr(r->err, "%s: manifest.json: "
		    "options.namespaces: expected a list of namespace names",
		    r->snap);
	m->namespaces = xcalloc(json_array_size(v) + 1, sizeof(char *));
	json_array_foreach(v, i, n) {
		if (!json_is_string(n) || *json_string_value(n) == '\0')
			return kv_seterr(r->err, "%s: manifest.json: "
			    "options.namespaces[%zu]: expected a namespace "
			    "name", r->snap, i);
		m->namespaces[m->nnamespaces++] = xstrdup(
		    json_string_value(n));
	}
	return KV_OK;
}

/* cluster, collector and options. */
static int
manifest_cluster(reader *r, json_t *root)
{
	snap_manifest *m = r->m;
	json_t *cl, *col, *opt;
	int rc = KV_OK;

	if ((cl = mobj(r, root, "cluster", JSON_OBJECT, &rc)) != NULL) {
		m->context = mstr(r, cl, "context", "cluster.", false, &rc);
		m->kubernetes_version = mstr(r, cl, "kubernetesVersion",
		    "cluster.", false, &rc);
		m->kubevirt_version = mstr(r, cl, "kubevirtVersion",
		    "cluster.", false, &rc);
		m->flavor = mstr(r, cl, "flavor", "cluster.", false, &rc);
	}
	if ((col = mobj(r, root, "collector", JSON_OBJECT, &rc)) != NULL) {
		m->collector_name = mstr(r, col, "name", "collector.", false,
		    &rc);
		m->collector_version = mstr(r, col, "version", "collector.",
		    false, &rc);
	}
	if ((opt = mobj(r, root, "options", JSON_OBJECT, &rc)) != NULL) {
		m->redact = json_is_true(json_object_get(opt, "redact"));
		m->anonymize = json_is_true(json_object_get(opt, "anonymize"));
		if (rc == KV_OK)
			rc = manifest_namespaces(r, opt);
	}
	/* cluster.flavor names a row of the flavor table: the loader checks
	 * it (model/load.c check_flavor), the reader knows no rows */
	return rc;
}

static void
manifest_notes(reader *r, json_t *arr)
{
	snap_manifest *m = r->m;
	size_t i;
	json_t *n;

	m->notes = xcalloc(json_array_size(arr) + 1, sizeof(char *));
	json_array_foreach(arr, i, n)
		if (json_is_string(n))
			m->notes[m->nnotes++] = xstrdup(json_string_value(n));
}

static int
parse_manifest(reader *r)
{
	json_error_t jerr;
	json_t *root, *arr;
	const char *text = r->manifest.data ? r->manifest.data : "";
	size_t len = r->manifest.len;
	int rc = KV_OK;

	/* a UTF-8 byte order mark, as some editors write one */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL)
		return kv_seterr(r->err, "%s: manifest.json: not valid JSON: "
		    "%s (line %d)", r->snap, jerr.text, jerr.line);
	r->have_manifest = true;
	if (!json_is_object(root))
		rc = kv_seterr(r->err, "%s: manifest.json: expected an object",
		    r->snap);
	if (rc == KV_OK)
		rc = manifest_head(r, root);
	if (rc == KV_OK)
		rc = manifest_cluster(r, root);
	if (rc == KV_OK &&
	    (arr = mobj(r, root, "resources", JSON_ARRAY, &rc)) != NULL)
		rc = parse_manifest_resources(r, arr);
	if (rc == KV_OK &&
	    (arr = mobj(r, root, "notes", JSON_ARRAY, &rc)) != NULL)
		manifest_notes(r, arr);
	if (rc == KV_OK) {
		arr = mobj(r, root, "files", JSON_ARRAY, &rc);
		if (rc == KV_OK && arr == NULL)
			rc = kv_seterr(r->err, "%s: manifest.json: files: "
			    "missing", r->snap);
		if (rc == KV_OK)
			rc = parse_manifest_files(r, arr);
	}
	json_decref(root);
	return rc;
}

/* A member files[] does not list that the loader did not read either
 * (.DS_Store, notes.txt beside an unpacked snapshot): ignored, and said
 * as one note of the manifest (an input-note warning). */
static void
note_ignored(reader *r, const kv_buf *names, int n)
{
	r->m->notes = xreallocarray(r->m->notes, r->m->nnotes + 1,
	    sizeof(char *));
	r->m->notes[r->m->nnotes++] = xasprintf("%d file%s the manifest "
	    "does not list (%s); kvscope does not read %s, so no answer "
	    "depends on %s", n, n == 1 ? "" : "s", names->data, n == 1 ?
	    "it" : "them", n == 1 ? "it" : "them");
}

/* Every member against files[]: all mismatches in one line; a listed
 * file changed or missing, or an unlisted one the loader read, is fatal.
 */
static int
verify_members(reader *r)
{
	kv_buf bad = {0}, ignored = {0};
	GList *keys, *k;
	int n = 0, nign = 0, rc = KV_OK;

	if (!r->have_manifest)
		return kv_seterr(r->err, "%s: no manifest.json in the "
		    "snapshot", r->snap);
	for (size_t i = 0; i < r->nexpect; i++) {
		expect_rec *e = &r->expect[i];
		member_rec *m = g_hash_table_lookup(r->seen, e->path);
		const char *why = NULL;

		if (m == NULL && !r->lim->strict) {
			skip_member(r, e->path, "listed in the manifest, "
			    "missing from the snapshot");
			continue;
		}
		if (m == NULL)
			why = "missing";
		else if (m->bytes != e->bytes)
			why = "size differs";
		else if (g_ascii_strcasecmp(m->sha256, e->sha256) != 0)
			why = "sha256 differs";
		if (m != NULL)
			e->seen = true;
		if (why != NULL) {
			kv_buf_printf(&bad, "%s%s (%s)", n++ ? ", " : "",
			    e->path, why);
		}
	}
	keys = g_hash_table_get_keys(r->seen);
	keys = g_list_sort(keys, (GCompareFunc)strcmp);
	for (k = keys; k != NULL; k = k->next) {
		const char *p = k->data;
		const member_rec *m = g_hash_table_lookup(r->seen, p);

		if (strcmp(p, MANIFEST) == 0 || find_expect(r, p) != NULL)
			continue;
		if (m->read)
			kv_buf_printf(&bad, "%s%s (not in the manifest)",
			    n++ ? ", " : "", p);
		else
			kv_buf_printf(&ignored, "%s%s", nign++ ? ", " : "", p);
	}
	g_list_free(keys);
	if (n > 0)
		rc = kv_seterr(r->err, "%s: manifest.json: %d file%s do%s not "
		    "match: %s", r->snap, n, n == 1 ? "" : "s",
		    n == 1 ? "es" : "", bad.data);
	else if (nign > 0)
		note_ignored(r, &ignored, nign);
	kv_buf_free(&bad);
	kv_buf_free(&ignored);
	return rc;
}

int
snapshot_read(const char *path, const kv_limits *lim, const snap_sink *sink,
    snap_manifest *m, kv_err *err)
{
	reader r = {0};
	/* no settle: a member's sink error is told at its end, after its
	 * checksum (member_end), so a stop inside it never hears of one */
	kv_walk_ops ops = { member_begin, member_data, member_end,
	    member_abort, NULL, NULL };
	int rc;

	if (!kv_is_snapshot(path, lim))
		return kv_seterr(err, "%s: not a snapshot (no manifest.json)",
		    path);
	memset(m, 0, sizeof(*m));
	r.snap = path;
	r.lim = lim;
	r.sink = sink;
	r.m = m;
	r.err = err;
	r.seen = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    member_rec_free);
	rc = kv_walk(path, lim, true, &ops, &r, err);
	if (rc == KV_OK)
		rc = verify_members(&r);
	m->integrity_checked = rc == KV_OK;
	if (rc == KV_OK)
		mark_partial(&r);
	for (size_t i = 0; i < r.nskips; i++)
		free(r.skips[i]);
	free(r.skips);
	g_hash_table_destroy(r.seen);
	kv_buf_free(&r.manifest);
	for (size_t i = 0; i < r.nexpect; i++) {
		free(r.expect[i].path);
		free(r.expect[i].sha256);
	}
	free(r.expect);
	if (r.expect_by_path != NULL)
		g_hash_table_destroy(r.expect_by_path);
	if (rc != KV_OK)
		snap_manifest_free(m);
	return rc;
}
