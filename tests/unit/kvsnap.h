/*
 * kvsnap.h - snapshots built at test time.
 *
 * A kvsnap is a list of members and a manifest computed from them.  It is
 * written as a tar archive through libarchive's writer, with whatever
 * hostile header a test asks for (links, devices, "../" or absolute paths,
 * declared sizes the data does not have, names that are not UTF-8), or as
 * a plain directory.  Binary fixtures thus never live in the repository.
 *
 * Ownership: kvsnap_free() releases the members; the paths returned by the
 * writers are owned by the caller.
 */
#ifndef KV_SNAP_TEST_H
#define KV_SNAP_TEST_H

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvtest.h"

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
	const char *top;	/* top directory, "snap" */
	kvsnap_member *m;
	size_t n, cap;
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
	s->top = "snap";
	s->format_version = 1;
	s->filter = ARCHIVE_FILTER_GZIP;
}

static inline void
kvsnap_free(kvsnap *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->m[i].path);
		free(s->m[i].data);
		free(s->m[i].target);
	}
	free(s->m);
	s->m = NULL;
	s->n = s->cap = 0;
}

/* A regular member with len bytes of data. */
static inline kvsnap_member *
kvsnap_addn(kvsnap *s, const char *path, const void *data, size_t len)
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
kvsnap_add(kvsnap *s, const char *path, const char *text)
{
	return kvsnap_addn(s, path, text, strlen(text));
}

/* A member that is not a regular file: a directory, a symlink to target,
 * a device, a FIFO.  Never listed in the manifest. */
static inline kvsnap_member *
kvsnap_special(kvsnap *s, const char *path, int type, const char *target)
{
	kvsnap_member *m = kvsnap_addn(s, path, "", 0);

	m->type = type;
	m->unlisted = true;
	if (target != NULL)
		m->target = xstrdup(target);
	return m;
}

/* A hard link to target (a path below the top directory). */
static inline kvsnap_member *
kvsnap_hardlink(kvsnap *s, const char *path, const char *target)
{
	kvsnap_member *m = kvsnap_special(s, path, AE_IFREG, target);

	m->hardlink = true;
	return m;
}

/* The manifest's resources[] entry for a resources/ member, or NULL. */
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

/* manifest.json for s (caller frees). */
static inline char *
kvsnap_manifest_json(const kvsnap *s)
{
	json_t *root, *files, *res;
	char *out;

	files = json_array();
	res = json_array();
	for (size_t i = 0; i < s->n; i++) {
		const kvsnap_member *m = &s->m[i];
		gchar *sum;
		json_t *f, *r;

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
		if ((r = kvsnap_resource(m->path)) != NULL)
			json_array_append_new(res, r);
	}
	root = json_pack("{s:s, s:i, s:s, s:{s:s, s:s}, s:{s:s, s:s}, "
	    "s:o, s:o}", "kind", "kvscope-snapshot", "formatVersion",
	    s->format_version, "createdAt", "2026-10-31T09:12:44Z",
	    "collector", "name", "kvtest", "version", "0",
	    "cluster", "context", "test", "flavor", "kubevirt",
	    "resources", res, "files", files);
	out = json_dumps(root, JSON_INDENT(1));
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
		    (manifest = kvsnap_manifest_json(s));
	if (mbytes != NULL && !s->manifest_last)
		kvsnap_entry(a, s, NULL, "manifest.json", mbytes,
		    strlen(mbytes));
	for (size_t i = 0; i < s->n; i++)
		kvsnap_entry(a, s, &s->m[i], s->m[i].path, s->m[i].data,
		    s->m[i].len);
	if (mbytes != NULL && s->manifest_last)
		kvsnap_entry(a, s, NULL, "manifest.json", mbytes,
		    strlen(mbytes));
	archive_write_close(a);
	archive_write_free(a);
	free(manifest);
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

/* s as a directory dir/<top>; returns its path (caller frees).  Hard links
 * and devices are not made (a test would need root for the latter). */
static inline char *
kvsnap_write_dir(const kvsnap *s, const char *dir)
{
	char *top = xasprintf("%s/%s", dir, s->top);
	char *manifest = NULL;

	kvsnap_mkdirs(top);
	if (!s->no_manifest) {
		const char *mb = s->manifest != NULL ? s->manifest :
		    (manifest = kvsnap_manifest_json(s));

		free(kvsnap_put(top, "manifest.json", mb, strlen(mb)));
	}
	for (size_t i = 0; i < s->n; i++) {
		const kvsnap_member *m = &s->m[i];
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
		} else if (m->type == AE_IFREG && !m->hardlink) {
			FILE *f = fopen(full, "wb");

			if (f == NULL || fwrite(m->data, 1, m->len, f) !=
			    m->len || fclose(f) != 0)
				kv_fatal("kvsnap: cannot write %s", full);
		}
		free(full);
	}
	free(manifest);
	return top;
}

/* rm -rf path (a test's scratch directory). */
static inline void
kvsnap_rmtree(const char *path)
{
	char *cmd = xasprintf("rm -rf '%s'", path);

	if (system(cmd) != 0)
		fprintf(stderr, "kvsnap: could not remove %s\n", path);
	free(cmd);
}

#endif
