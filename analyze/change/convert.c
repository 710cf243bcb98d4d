/*
 * convert.c - a foreign input written as a kvscope snapshot (foreign.h,
 * foreign_write_snapshot()).
 *
 * The archive is a gzip'd POSIX tar written by libarchive to a temporary
 * name beside the output and renamed over it once complete (or removed):
 * one top directory named after the output, manifest.json first, then the
 * resources/ members, every entry mode 0644 with the snapshot's own time,
 * no gzip timestamp, so that the same input gives the same bytes.
 */
#include "analyze/read/foreign.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
sha256_hex(const kv_buf *b, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_Digest(b->data ? b->data : "", b->len, md, &n, EVP_sha256(),
	    NULL) != 1)
		kv_fatal("SHA-256 failed");
	for (unsigned int i = 0; i < n && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

static json_t *
manifest_resources(const snap_manifest *m)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < m->nresources; i++) {
		const snap_resource *r = &m->resources[i];
		bool ok = strcmp(r->status, "ok") == 0;
		bool lack = strcmp(r->status, "missing") == 0;
		json_t *o = json_pack("{s:s,s:s,s:s}", "resource", r->resource,
		    "group", r->group, "status", ok ? "ok" : lack ? "missing" :
		    "absent");

		if (ok) {
			json_object_set_new(o, "file", json_string(r->file));
			json_object_set_new(o, "count",
			    json_integer(r->count));
		}
		if (lack)
			json_object_set_new(o, "message", json_sprintf("not in "
			    "the %s this snapshot was converted from",
			    snap_input_names[m->input]));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* manifest.json for the members of fi (new reference). */
static json_t *
manifest_json(const foreign_input *fi)
{
	snap_manifest m;
	json_t *files = json_array(), *root;
	char *summary = foreign_summary(fi), *note;

	foreign_manifest(fi, &m);
	note = xasprintf("converted by kvscope convert from a %s, which has "
	    "no manifest, so its objects were not checked against one; %s",
	    snap_input_names[m.input], summary);
	free(summary);
	for (size_t i = 0; i < foreign_nmembers(fi); i++) {
		const char *p = foreign_member_path(fi, i);
		char hex[65];

		if (p == NULL)
			continue;
		sha256_hex(foreign_member_data(fi, i), hex);
		json_array_append_new(files, json_pack("{s:s,s:I,s:s}", "path",
		    p, "bytes", (json_int_t)foreign_member_data(fi, i)->len,
		    "sha256", hex));
	}
	root = json_pack("{s:s,s:i,s:s,s:{s:s,s:s},s:{s:s},"
	    "s:{s:[],s:b,s:b},s:{s:s,s:b},s:o,s:o,s:[s],s:o}",
	    "kind", "kvscope-snapshot", "formatVersion", 1,
	    "createdAt", m.created_at,
	    "collector", "name", "kvscope convert", "version", KV_VERSION,
	    "cluster", "flavor", m.flavor,
	    "options", "namespaces", "redact", 1, "anonymize", 0,
	    "source", "kind", snap_input_names[m.input],
	    "integrityChecked", 0,
	    "resources", manifest_resources(&m),
	    "redactions", foreign_redactions(fi),
	    "notes", note,
	    "files", files);
	snap_manifest_free(&m);
	free(note);
	if (root == NULL)
		kv_fatal("cannot build manifest.json");
	return root;
}

static int
add_entry(struct archive *a, const char *name, const char *data, size_t len,
    time_t when)
{
	struct archive_entry *e = archive_entry_new();
	int rc = KV_OK;

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, (la_int64_t)len);
	archive_entry_set_mtime(e, when, 0);
	if (archive_write_header(a, e) != ARCHIVE_OK ||
	    (len > 0 && archive_write_data(a, data, len) != (la_ssize_t)len))
		rc = KV_ERR;
	archive_entry_free(e);
	return rc;
}

/* "snap.tar.gz" -> "snap" for the top directory. */
static char *
top_name(const char *out)
{
	const char *base = strrchr(out, '/');
	char *top = xstrdup(base ? base + 1 : out);
	static const char *const exts[] = { ".tar.gz", ".tgz", ".tar", NULL };

	for (const char *const *e = exts; *e; e++)
		if (g_str_has_suffix(top, *e) && strlen(top) > strlen(*e)) {
			top[strlen(top) - strlen(*e)] = '\0';
			break;
		}
	return top;
}

static int
write_members(struct archive *a, const foreign_input *fi, const char *top,
    time_t when)
{
	json_t *man = manifest_json(fi);
	char *text = json_dumps(man, JSON_INDENT(1)), *name;
	int rc;

	json_decref(man);
	name = xasprintf("%s/manifest.json", top);
	rc = add_entry(a, name, text, strlen(text), when);
	free(name);
	free(text);
	for (size_t i = 0; i < foreign_nmembers(fi) && rc == KV_OK; i++) {
		const char *p = foreign_member_path(fi, i);
		const kv_buf *b = foreign_member_data(fi, i);

		if (p == NULL)
			continue;
		name = xasprintf("%s/%s", top, p);
		rc = add_entry(a, name, b->data, b->len, when);
		free(name);
	}
	return rc;
}

static time_t
created_time(const foreign_input *fi)
{
	snap_manifest m;
	GDateTime *dt;
	time_t t = 0;

	foreign_manifest(fi, &m);
	dt = g_date_time_new_from_iso8601(m.created_at, NULL);
	if (dt != NULL) {
		t = (time_t)g_date_time_to_unix(dt);
		g_date_time_unref(dt);
	}
	snap_manifest_free(&m);
	return t;
}

int
foreign_write_snapshot(const foreign_input *fi, const char *out, kv_err *err)
{
	char *tmp = xasprintf("%s.XXXXXX", out), *top = top_name(out);
	struct archive *a = archive_write_new();
	int fd = mkstemp(tmp), rc = KV_ERR;

	if (fd < 0) {
		kv_seterr(err, "%s: cannot create: %s", out, strerror(errno));
		goto out;
	}
	fchmod(fd, 0644);
	if (archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_options(a, "gzip:!timestamp") != ARCHIVE_OK ||
	    archive_write_open_fd(a, fd) != ARCHIVE_OK ||
	    write_members(a, fi, top, created_time(fi)) != KV_OK ||
	    archive_write_close(a) != ARCHIVE_OK) {
		kv_seterr(err, "%s: write error: %s", out,
		    archive_error_string(a) ? archive_error_string(a) :
		    strerror(errno));
		goto out;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		kv_seterr(err, "%s: write error: %s", out, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, out) != 0) {
		kv_seterr(err, "%s: cannot rename into place: %s", out,
		    strerror(errno));
		goto out;
	}
	rc = KV_OK;
out:
	archive_write_free(a);
	if (fd >= 0)
		close(fd);
	if (rc != KV_OK)
		unlink(tmp);
	free(tmp);
	free(top);
	return rc;
}
