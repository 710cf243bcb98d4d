/*
 * output.c - staged, all-or-nothing file output (see render.h).
 *
 * kv_output_stage() writes each file under a temporary name in the
 * output directory.  kv_output_commit() then moves every file that is
 * about to be replaced aside (renamed to a temporary name), renames each
 * new file into place, and only when all of that succeeded removes the
 * old copies.  On any failure it undoes what it did, in reverse order:
 * removes the new files it renamed into place and renames the old ones
 * back, so the directory is as it was before.  Every rename goes through
 * kv_output_rename, which a test may replace to make the k-th one fail.
 * kv_output_stage_bg() runs one writer on a thread of its own (the PDF,
 * the slowest, beside the others); kv_output_join() waits for it, and
 * commit and abort join first.
 *
 * A failed write (a full disk) is never shown to the writer: its sink
 * keeps the system's reason, sets the set's stop flag and drops every
 * later byte of every file of the set, while the writers return
 * normally.  Libraries do not all survive a write error in mid-stream
 * (cairo asserted in _cairo_array_index_const with the PDF on its own
 * thread); the error is said once, after the join, naming the file.
 * Every write goes through kv_output_write, which a test may replace.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render.h"

int (*kv_output_rename)(const char *from, const char *to) = rename;
ssize_t (*kv_output_write)(int fd, const void *buf, size_t len) = write;

void
kv_output_init(kv_output *o, const char *dir)
{
	memset(o, 0, sizeof(*o));
	o->dir = xstrdup(dir);
}

static void
output_free(kv_output *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->tmp[i]);
		free(o->dst[i]);
		free(o->old[i]);
	}
	free(o->tmp);
	free(o->dst);
	free(o->old);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}

/* The staged file as a stdio stream that remembers the first error of
 * the system, whatever the writer (or cairo, or libxml2) makes of it;
 * after an error in any file of the set, the bytes are dropped. */
typedef struct sink {
	int fd;
	int err;		/* errno of the first failed write, or 0 */
	int *stop;		/* the set's kv_output.stop */
} sink;

static ssize_t
sink_write(void *cookie, const char *buf, size_t len)
{
	sink *k = cookie;
	size_t done = 0;

	while (done < len && k->err == 0 &&
	    !__atomic_load_n(k->stop, __ATOMIC_RELAXED)) {
		ssize_t n = kv_output_write(k->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			k->err = n < 0 ? errno : ENOSPC;
			__atomic_store_n(k->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)len;	/* the writer goes on; stage_write says it */
}

static int
sink_close(void *cookie)
{
	sink *k = cookie;

	if (k->err == 0 && !__atomic_load_n(k->stop, __ATOMIC_RELAXED) &&
	    fsync(k->fd) != 0 && errno != EINVAL)
		k->err = errno;
	if (close(k->fd) != 0 && k->err == 0)
		k->err = errno;
	return k->err ? -1 : 0;
}

/* The writer's output to the open temporary file fd; a write error is
 * one message naming dst and the system's reason. */
static int
stage_write(int *stop, int fd, const char *dst, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err)
{
	static const cookie_io_functions_t io = {
		.write = sink_write, .close = sink_close,
	};
	sink k = { .fd = fd, .stop = stop };
	FILE *f;
	int rc;

	if (fchmod(fd, 0644) != 0 || (f = fopencookie(&k, "w", io)) == NULL) {
		kv_seterr(err, "%s: %s", dst, strerror(errno));
		close(fd);
		return KV_ERR;
	}
	rc = fn(a, f, arg, err);
	if (fclose(f) != 0 && k.err == 0 && rc == KV_OK)
		k.err = EIO;
	if (k.err != 0) {	/* the system's reason, not the writer's */
		kv_clearerr(err);
		return kv_seterr(err, "%s: write error: %s", dst,
		    strerror(k.err));
	}
	/* bytes dropped for another file's error: that file's writer
	 * returns the error (the commit joins it first) */
	if (rc != KV_OK)
		__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
	return rc;
}

/* A writer on a thread of its own (kv_output_stage_bg). */
struct kv_output_job {
	pthread_t thread;
	int *stop;
	int fd;
	const char *dst;		/* o->dst of its file */
	kv_writer_fn fn;
	const kv_analysis *a;
	void *arg;
	kv_err err;
	int rc;
	kv_output_job *next;
};

static void
add_file(kv_output *o, char *tmp, char *dst)
{
	o->n++;
	o->tmp = xreallocarray(o->tmp, o->n, sizeof(char *));
	o->dst = xreallocarray(o->dst, o->n, sizeof(char *));
	o->old = xreallocarray(o->old, o->n, sizeof(char *));
	o->tmp[o->n - 1] = tmp;
	o->dst[o->n - 1] = dst;
	o->old[o->n - 1] = NULL;
}

/* A temporary file for dir/name: its descriptor, or -1 (err set). */
static int
create(kv_output *o, const char *name, char **tmp, char **dst, kv_err *err)
{
	int fd;

	*tmp = xasprintf("%s/.%s.XXXXXX", o->dir, name);
	*dst = xasprintf("%s/%s", o->dir, name);
	if ((fd = mkstemp(*tmp)) < 0) {
		kv_seterr(err, "%s: cannot create: %s", *dst, strerror(errno));
		free(*tmp);
		free(*dst);
	}
	return fd;
}

int
kv_output_stage(kv_output *o, const char *name, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err)
{
	char *tmp, *dst;
	int fd = create(o, name, &tmp, &dst, err);

	if (fd < 0)
		return KV_ERR;
	if (stage_write(&o->stop, fd, dst, fn, a, arg, err) != KV_OK) {
		unlink(tmp);
		free(tmp);
		free(dst);
		return KV_ERR;
	}
	add_file(o, tmp, dst);
	return KV_OK;
}

static void *
run_job(void *p)
{
	kv_output_job *j = p;

	j->rc = stage_write(j->stop, j->fd, j->dst, j->fn, j->a, j->arg,
	    &j->err);
	return NULL;
}

int
kv_output_stage_bg(kv_output *o, const char *name, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err)
{
	char *tmp, *dst;
	int fd = create(o, name, &tmp, &dst, err);
	kv_output_job *j;

	if (fd < 0)
		return KV_ERR;
	add_file(o, tmp, dst);
	j = xcalloc(1, sizeof(*j));
	*j = (kv_output_job){ .stop = &o->stop, .fd = fd, .dst = dst,
	    .fn = fn, .a = a, .arg = arg };
	if (kv_threads() == 1 ||
	    pthread_create(&j->thread, NULL, run_job, j) != 0) {
		run_job(j);		/* no thread: write it here */
		j->thread = pthread_self();
	}
	j->next = o->jobs;
	o->jobs = j;
	return KV_OK;
}

int
kv_output_join(kv_output *o, kv_err *err)
{
	int rc = KV_OK;

	while (o->jobs != NULL) {
		kv_output_job *j = o->jobs;

		o->jobs = j->next;
		if (!pthread_equal(j->thread, pthread_self()))
			pthread_join(j->thread, NULL);
		if (j->rc != KV_OK && rc == KV_OK) {
			rc = KV_ERR;
			if (err != NULL && !err->set)
				*err = j->err;
		}
		free(j);
	}
	return rc;
}

/* Move the file at dst[i] aside, when there is one (not a directory: a
 * directory in the way makes the rename into place fail). */
static int
move_aside(kv_output *o, size_t i, kv_err *err)
{
	struct stat st;
	char *old;
	int fd;

	if (lstat(o->dst[i], &st) != 0) {
		if (errno == ENOENT)
			return KV_OK;
		return kv_seterr(err, "%s: %s", o->dst[i], strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return KV_OK;
	old = xasprintf("%s.old.XXXXXX", o->tmp[i]);
	if ((fd = mkstemp(old)) < 0) {
		kv_seterr(err, "%s: cannot create: %s", old, strerror(errno));
		free(old);
		return KV_ERR;
	}
	close(fd);
	if (kv_output_rename(o->dst[i], old) != 0) {
		kv_seterr(err, "%s: cannot move the old file aside: %s",
		    o->dst[i], strerror(errno));
		unlink(old);
		free(old);
		return KV_ERR;
	}
	o->old[i] = old;
	return KV_OK;
}

/* Undo a commit that renamed placed[0..nplaced) into place: remove
 * them, put every old file back, remove the staged files. */
static void
rollback(kv_output *o, const bool *placed)
{
	for (size_t i = o->n; i-- > 0;) {
		if (placed[i])
			unlink(o->dst[i]);
		else
			unlink(o->tmp[i]);
		if (o->old[i] != NULL &&
		    kv_output_rename(o->old[i], o->dst[i]) != 0)
			unlink(o->old[i]);
	}
}

int
kv_output_commit(kv_output *o, kv_err *err)
{
	bool *placed;
	int rc = KV_ERR;

	if (kv_output_join(o, err) != KV_OK) {
		kv_output_abort(o);
		return KV_ERR;
	}
	placed = xcalloc(o->n + 1, sizeof(bool));

	for (size_t i = 0; i < o->n; i++)
		if (move_aside(o, i, err) != KV_OK)
			goto fail;
	for (size_t i = 0; i < o->n; i++) {
		if (kv_output_rename(o->tmp[i], o->dst[i]) != 0) {
			kv_seterr(err, "%s: cannot rename into place: %s",
			    o->dst[i], strerror(errno));
			goto fail;
		}
		placed[i] = true;
	}
	for (size_t i = 0; i < o->n; i++)
		if (o->old[i] != NULL)
			unlink(o->old[i]);
	rc = KV_OK;
	goto out;
fail:
	rollback(o, placed);
out:
	free(placed);
	output_free(o);
	return rc;
}

void
kv_output_abort(kv_output *o)
{
	__atomic_store_n(&o->stop, 1, __ATOMIC_RELAXED);
	kv_output_join(o, NULL);
	for (size_t i = 0; i < o->n; i++)
		unlink(o->tmp[i]);
	output_free(o);
}
