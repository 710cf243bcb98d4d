/*
 * container.c - directories and archives, walked under the hostile-input
 * rules (see container.h).  read_archive() walks a tar or zip stream with
 * libarchive, read_dir() a directory without following links; both hand
 * each regular file to w_begin()/w_data()/w_end(), which enforce the size
 * limits and forward to the caller's callbacks.
 */
#include "analyze/read/container.h"
#include "analyze/read/inflate.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* libarchive's "Unrecognized archive format" errno: its private
 * ARCHIVE_ERRNO_FILE_FORMAT (libarchive/archive_platform.h, not in
 * archive.h): EFTYPE where the system has one, EILSEQ elsewhere (84 on
 * Linux, as archive_errno() gives for an empty input). */
#ifdef EFTYPE
#define FILE_FORMAT_ERRNO EFTYPE
#else
#define FILE_FORMAT_ERRNO EILSEQ
#endif

typedef struct walker {
	const char *snap;		/* the path given by the user */
	const kv_limits *lim;
	const kv_walk_ops *ops;
	void *arg;
	kv_err *err;
	bool strip_top;			/* archives: strip the top directory */
	char *top;
	size_t nmembers;
	uint64_t total;
	char *cur_path;			/* the member being read, or NULL */
	uint64_t cur_bytes;
	kv_inflate *inflate;		/* decompressing on its own thread */
} walker;

static int
w_begin(walker *r, const char *path, uint64_t declared)
{
	if (declared > r->lim->member_bytes)
		return kv_seterr(r->err, "%s: %s: member declares %llu bytes, "
		    "more than the limit of %llu (KVSCOPE_MAX_MEMBER_BYTES)",
		    r->snap, path, (unsigned long long)declared,
		    (unsigned long long)r->lim->member_bytes);
	if (r->ops->begin(r->arg, path, declared, r->err) != KV_OK)
		return KV_ERR;
	r->cur_path = xstrdup(path);
	r->cur_bytes = 0;
	return KV_OK;
}

/* The walker's own error (set in r->err) inside a member: an error the
 * member's bytes before it hold, still being parsed, wins (settle), so
 * an input gives the same error however its items were scheduled. */
static int
w_fail(walker *r)
{
	kv_err mine = *r->err;

	if (r->cur_path == NULL || r->ops->settle == NULL)
		return KV_ERR;
	kv_clearerr(r->err);
	if (r->ops->settle(r->arg, r->err) != KV_OK)
		return KV_ERR;
	*r->err = mine;
	return KV_ERR;
}

static int
w_data(walker *r, const char *buf, size_t len)
{
	r->cur_bytes += len;
	r->total += len;
	if (r->cur_bytes > r->lim->member_bytes) {
		kv_seterr(r->err, "%s: %s: member larger than %llu bytes "
		    "(KVSCOPE_MAX_MEMBER_BYTES)", r->snap, r->cur_path,
		    (unsigned long long)r->lim->member_bytes);
		return w_fail(r);
	}
	if (r->total > r->lim->total_bytes) {
		kv_seterr(r->err, "%s: more than %llu bytes in all "
		    "(KVSCOPE_MAX_TOTAL_BYTES)", r->snap,
		    (unsigned long long)r->lim->total_bytes);
		return w_fail(r);
	}
	return r->ops->data(r->arg, buf, len, r->err);
}

static int
w_end(walker *r)
{
	free(r->cur_path);
	r->cur_path = NULL;
	return r->ops->end(r->arg, r->err);
}

static void
w_abort(walker *r)
{
	if (r->cur_path != NULL && r->ops->abort != NULL)
		r->ops->abort(r->arg);
	free(r->cur_path);
	r->cur_path = NULL;
}

/*
 * Names: relative, no "." or ".." components, no empty components, valid
 * UTF-8 without control characters.  Returns the path below the top
 * directory in a fresh string, or NULL with an error set.
 */
static char *
clean_member_name(walker *r, const char *raw, bool is_dir)
{
	const char *p = raw;
	char *copy = NULL, *rest = NULL, *save = NULL, *tok;
	kv_buf out = {0};
	int ncomp = 0;

	/* The name is quoted; kv_seterr() shows the bad bytes as '?'. */
	if (!g_utf8_validate(raw, -1, NULL)) {
		kv_seterr(r->err, "%s: \"%s\": a member name is not valid "
		    "UTF-8", r->snap, raw);
		goto fail;
	}
	for (const unsigned char *c = (const unsigned char *)raw; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			kv_seterr(r->err, "%s: \"%s\": member name with a "
			    "control character", r->snap, raw);
			goto fail;
		}
	if (raw[0] == '/') {
		kv_seterr(r->err, "%s: %s: absolute member path", r->snap, raw);
		goto fail;
	}
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	copy = xstrdup(p);
	for (tok = strtok_r(copy, "/", &save); tok != NULL;
	    tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, "..") == 0 || strcmp(tok, ".") == 0) {
			kv_seterr(r->err, "%s: %s: member path with a \"%s\" "
			    "component", r->snap, raw, tok);
			goto fail;
		}
		if (r->strip_top && ncomp++ == 0) {
			/* The first component is the top directory. */
			if (r->top == NULL)
				r->top = xstrdup(tok);
			else if (strcmp(tok, r->top) != 0) {
				kv_seterr(r->err, "%s: %s: member outside the "
				    "top directory %s/", r->snap, raw, r->top);
				goto fail;
			}
			continue;
		}
		if (out.len > 0)
			kv_buf_append(&out, "/", 1);
		kv_buf_append(&out, tok, strlen(tok));
	}
	if (out.len == 0 && !is_dir) {
		kv_seterr(r->err, "%s: %s: file outside the top directory",
		    r->snap, raw);
		goto fail;
	}
	rest = out.data ? out.data : xstrdup("");
	free(copy);
	return rest;
fail:
	free(copy);
	kv_buf_free(&out);
	return NULL;
}

/* Every entry counts, directories too: a stream of empty headers or a
 * tree of empty directories is bounded like files are. */
static int
count_entry(walker *r)
{
	if (++r->nmembers > r->lim->members)
		return kv_seterr(r->err, "%s: more than %llu members "
		    "(KVSCOPE_MAX_MEMBERS)", r->snap,
		    (unsigned long long)r->lim->members);
	return KV_OK;
}

/* --- archive front end -------------------------------------------------- */

/*
 * Decompressed bytes (headers and padding included, as the tar reader
 * consumed them) per byte read from the file, once there is 1 MiB of the
 * former.
 */
static int
check_ratio(walker *r, struct archive *a)
{
	uint64_t out = (uint64_t)archive_filter_bytes(a, 0);
	uint64_t in = r->inflate != NULL ? kv_inflate_in(r->inflate) :
	    (uint64_t)archive_filter_bytes(a, -1);

	if (out < r->total)
		out = r->total;
	if (out > 1 << 20 && out / r->lim->ratio > in) {
		kv_seterr(r->err, "%s: compression ratio above %llu:1 "
		    "(KVSCOPE_MAX_RATIO)", r->snap,
		    (unsigned long long)r->lim->ratio);
		return w_fail(r);
	}
	return KV_OK;
}

/*
 * libarchive converts names to the current locale's charset, and kvscope
 * runs in the C locale, where a zip's UTF-8 names do not convert: the
 * archive is read with a UTF-8 character type on this thread.
 */
static locale_t
utf8_begin(void)
{
	locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);

	return l != (locale_t)0 ? uselocale(l) : (locale_t)0;
}

static void
utf8_end(locale_t old)
{
	locale_t mine;

	if (old == (locale_t)0)
		return;
	mine = uselocale(old);
	freelocale(mine);
}

/* --- standard input ----------------------------------------------------- */

/*
 * "-" is standard input, read whole on first use and kept for the rest of
 * the run: what-if loads its input twice, and kv_is_snapshot() reads the
 * headers before the reader does.  Bounded by KVSCOPE_MAX_TOTAL_BYTES.
 */
static struct {
	GMutex mu;
	bool done;
	kv_buf buf;
	kv_err err;
} spool;

bool
kv_is_stdin(const char *path)
{
	return strcmp(path, "-") == 0;
}

static void
spool_read(const kv_limits *lim)
{
	char buf[1 << 16];
	ssize_t n;

	if (isatty(STDIN_FILENO)) {
		kv_seterr(&spool.err, "-: standard input is a terminal; pipe "
		    "a snapshot or kubectl output into kvscope");
		return;
	}
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			kv_seterr(&spool.err, "-: standard input: %s",
			    strerror(errno));
			return;
		}
		if (spool.buf.len + (size_t)n > lim->total_bytes) {
			kv_seterr(&spool.err, "-: standard input larger than "
			    "%llu bytes (KVSCOPE_MAX_TOTAL_BYTES)",
			    (unsigned long long)lim->total_bytes);
			return;
		}
		kv_buf_append(&spool.buf, buf, (size_t)n);
	}
}

static int
spool_get(const kv_limits *lim, const kv_buf **out, kv_err *err)
{
	g_mutex_lock(&spool.mu);
	if (!spool.done) {
		spool.done = true;
		spool_read(lim);
	}
	g_mutex_unlock(&spool.mu);
	*out = &spool.buf;
	if (spool.err.set) {
		*err = spool.err;
		return KV_ERR;
	}
	return KV_OK;
}

/* Tar, zip, or one plain file (libarchive's raw format, which bids
 * last), from the file or the spooled standard input. */
static int
archive_open(struct archive *a, const char *path, kv_inflate *inf,
    const kv_limits *lim, kv_err *err)
{
	const kv_buf *in;

	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_raw(a);
	if (inf != NULL)
		return archive_read_open(a, inf, NULL, kv_inflate_read, NULL);
	archive_read_support_filter_all(a);
	if (!kv_is_stdin(path))
		return archive_read_open_filename(a, path, 1 << 16);
	if (spool_get(lim, &in, err) != KV_OK)
		return ARCHIVE_FATAL;
	return archive_read_open_memory(a, in->data ? in->data : "", in->len);
}

static int read_archive_in(walker *r, const char *path);

static int
read_archive(walker *r, const char *path)
{
	locale_t old = utf8_begin();
	int rc = read_archive_in(r, path);

	utf8_end(old);
	return rc;
}

/* The entry's clean name, or NULL: an error (set), or a directory (*dir
 * true, nothing set). */
static char *
entry_name(walker *r, struct archive_entry *ent, bool *dir)
{
	const char *name = archive_entry_pathname_utf8(ent);
	mode_t type = archive_entry_filetype(ent);

	*dir = false;
	if (name == NULL)
		name = archive_entry_pathname(ent);
	if (name == NULL) {
		kv_seterr(r->err, "%s: member without a name", r->snap);
		return NULL;
	}
	if (archive_entry_hardlink(ent) != NULL ||
	    (type != AE_IFREG && type != AE_IFDIR)) {
		kv_seterr(r->err, "%s: %s: %s member; a snapshot holds only "
		    "regular files and directories", r->snap, name,
		    archive_entry_hardlink(ent) ? "hard link" :
		    type == AE_IFLNK ? "symbolic link" :
		    (type == AE_IFCHR || type == AE_IFBLK) ? "device" :
		    "special");
		return NULL;
	}
	if (type == AE_IFDIR) {
		char *clean = clean_member_name(r, name, true);

		*dir = clean != NULL;
		free(clean);
		return NULL;
	}
	return clean_member_name(r, name, false);
}

/* One regular member, header already read. */
static int
archive_member(walker *r, struct archive *a, struct archive_entry *ent,
    const char *clean, char *buf, size_t size)
{
	la_ssize_t n;
	int rc;

	rc = w_begin(r, clean, archive_entry_size_is_set(ent) ?
	    (uint64_t)archive_entry_size(ent) : 0);
	if (rc != KV_OK)
		return rc;
	while ((n = archive_read_data(a, buf, size)) > 0)
		if ((rc = w_data(r, buf, (size_t)n)) != KV_OK ||
		    (rc = check_ratio(r, a)) != KV_OK)
			return rc;
	if (n < 0) {
		kv_seterr(r->err, "%s: %s: truncated or corrupt archive: %s",
		    r->snap, r->cur_path, archive_error_string(a));
		return w_fail(r);
	}
	return w_end(r);
}

/* A file that is no archive (libarchive's raw format): one member named
 * as the file, for a reader that takes one (foreign.c); the snapshot
 * reader does not. */
static int
lone_member(walker *r, struct archive *a, struct archive_entry *ent,
    const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');

	if (r->ops->lone == NULL)
		return kv_seterr(r->err, "%s: %s", path, KV_NOT_AN_INPUT);
	base = kv_is_stdin(path) ? "stdin" : base != NULL ? base + 1 : path;
	r->ops->lone(r->arg);
	return archive_member(r, a, ent, base, buf, size);
}

static int
read_archive_in(walker *r, const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	char buf[1 << 16];
	int rc = KV_OK, ar;

	r->inflate = kv_is_stdin(path) ? NULL : kv_inflate_open(path);
	if (archive_open(a, path, r->inflate, r->lim, r->err) !=
	    ARCHIVE_OK) {
		if (r->err->set)
			rc = KV_ERR;
		else if (archive_errno(a) == FILE_FORMAT_ERRNO)
			rc = kv_seterr(r->err, "%s: %s", path, KV_NOT_AN_INPUT);
		else
			rc = kv_seterr(r->err, "%s: cannot read: %s", path,
			    archive_error_string(a));
		goto out;
	}
	while ((ar = archive_read_next_header(a, &ent)) != ARCHIVE_EOF) {
		char *clean;
		bool dir;

		if (ar != ARCHIVE_OK && ar != ARCHIVE_WARN) {
			rc = kv_seterr(r->err, "%s: truncated or corrupt "
			    "archive: %s", path, archive_error_string(a));
			break;
		}
		if ((rc = count_entry(r)) != KV_OK ||
		    (rc = check_ratio(r, a)) != KV_OK)
			break;
		if (archive_format(a) == ARCHIVE_FORMAT_RAW) {
			rc = lone_member(r, a, ent, path, buf, sizeof(buf));
			break;
		}
		if ((clean = entry_name(r, ent, &dir)) == NULL) {
			if (dir)
				continue;
			rc = KV_ERR;
			break;
		}
		rc = archive_member(r, a, ent, clean, buf, sizeof(buf));
		free(clean);
		if (rc != KV_OK)
			break;
	}
out:
	w_abort(r);
	archive_read_free(a);
	kv_inflate_close(r->inflate);
	r->inflate = NULL;
	return rc;
}

/* --- directory front end ------------------------------------------------ */

static int
read_file_member(walker *r, int dirfd, const char *name, const char *rel,
    uint64_t size)
{
	char buf[1 << 16];
	ssize_t n;
	int fd, rc;

	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return kv_seterr(r->err, "%s: %s: cannot open: %s", r->snap,
		    rel, strerror(errno));
	if ((rc = w_begin(r, rel, size)) != KV_OK)
		goto out;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if ((rc = w_data(r, buf, (size_t)n)) != KV_OK)
			goto out;
	if (n < 0) {
		kv_seterr(r->err, "%s: %s: read error: %s", r->snap, rel,
		    strerror(errno));
		rc = w_fail(r);
		goto out;
	}
	rc = w_end(r);
out:
	w_abort(r);
	close(fd);
	return rc;
}

static int
read_dir_at(walker *r, int dirfd, const char *prefix, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int fd, rc = KV_OK;

	if (depth > 16)
		return kv_seterr(r->err, "%s: %s: directories nested too deep",
		    r->snap, prefix);
	if ((fd = dup(dirfd)) < 0 || (d = fdopendir(fd)) == NULL)
		return kv_seterr(r->err, "%s: cannot list %s: %s", r->snap,
		    *prefix ? prefix : ".", strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if ((rc = count_entry(r)) != KV_OK)
			break;
		KV_GROW(names, cap, n + 1);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	kv_qsort(names, n, sizeof(*names), kv_strptrcmp);
	for (size_t i = 0; i < n && rc == KV_OK; i++) {
		char *rel = *prefix ? xasprintf("%s/%s", prefix, names[i]) :
		    xstrdup(names[i]);
		struct stat st;
		char *clean;

		if (fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = kv_seterr(r->err, "%s: %s: %s", r->snap, rel,
			    strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, names[i],
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0)
				rc = kv_seterr(r->err, "%s: %s: %s", r->snap,
				    rel, strerror(errno));
			else {
				rc = read_dir_at(r, sub, rel, depth + 1);
				close(sub);
			}
		} else if (!S_ISREG(st.st_mode)) {
			rc = kv_seterr(r->err, "%s: %s: %s; a snapshot holds "
			    "only regular files and directories", r->snap, rel,
			    S_ISLNK(st.st_mode) ? "symbolic link" :
			    "special file");
		} else if ((clean = clean_member_name(r, rel, false)) == NULL) {
			rc = KV_ERR;
		} else {
			rc = read_file_member(r, dirfd, names[i], clean,
			    (uint64_t)st.st_size);
			free(clean);
		}
		free(rel);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int
read_dir(walker *r, const char *path)
{
	int fd, rc;

	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return kv_seterr(r->err, "%s: cannot open directory: %s", path,
		    strerror(errno));
	/* The directory itself is the top directory: names below it are
	 * already relative, so no top component is stripped. */
	rc = read_dir_at(r, fd, "", 0);
	close(fd);
	return rc;
}

int
kv_walk(const char *path, const kv_limits *lim, bool strip_top,
    const kv_walk_ops *ops, void *arg, kv_err *err)
{
	walker r = { .snap = path, .lim = lim, .ops = ops, .arg = arg,
	    .err = err };
	struct stat st;
	int rc;

	if (!kv_is_stdin(path) && stat(path, &st) != 0)
		rc = kv_seterr(err, "%s: %s", path, strerror(errno));
	else if (!kv_is_stdin(path) && S_ISDIR(st.st_mode))
		rc = read_dir(&r, path);
	else {
		r.strip_top = strip_top;
		rc = read_archive(&r, path);
	}
	free(r.top);
	return rc;
}

/* Headers only, until manifest.json turns up under the top directory, or
 * the archive ends (no snapshot), or the look gets expensive or finds
 * something wrong (then the snapshot reader says what). */
static bool
archive_has_manifest(const char *path, const kv_limits *lim)
{
	locale_t old = utf8_begin();
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	kv_err err = {0};
	bool snap = true;

	if (archive_open(a, path, NULL, lim, &err) != ARCHIVE_OK)
		goto out;
	for (size_t n = 0; n < 10000; n++) {
		const char *name, *slash;
		int ar = archive_read_next_header(a, &ent);

		if (ar == ARCHIVE_EOF) {
			snap = false;
			break;
		}
		if ((ar != ARCHIVE_OK && ar != ARCHIVE_WARN) ||
		    (uint64_t)archive_filter_bytes(a, 0) > (64u << 20) ||
		    (uint64_t)archive_entry_size(ent) > lim->member_bytes)
			break;
		name = archive_entry_pathname(ent);
		if (name == NULL)
			break;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		slash = strchr(name, '/');
		if (slash != NULL && strcmp(slash + 1, "manifest.json") == 0 &&
		    archive_entry_filetype(ent) == AE_IFREG)
			break;
	}
out:
	archive_read_free(a);
	utf8_end(old);
	return snap;
}

bool
kv_is_snapshot(const char *path, const kv_limits *lim)
{
	struct stat st;
	int fd;
	bool snap;

	if (kv_is_stdin(path))
		return archive_has_manifest(path, lim);
	if (stat(path, &st) != 0)
		return true;	/* the reader names the error */
	if (!S_ISDIR(st.st_mode))
		return archive_has_manifest(path, lim);
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return true;
	snap = fstatat(fd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) == 0;
	close(fd);
	return snap;
}
