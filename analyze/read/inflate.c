/*
 * inflate.c - decompression on a thread of its own (see inflate.h).
 *
 * The thread fills a ring of NCHUNK chunks; the reader holds one chunk at
 * a time, from one kv_inflate_read() to the next, and the thread waits
 * while every chunk is full or held.  So the decompressor runs at most
 * NCHUNK MiB ahead of the tar reader, and memory stays at that.
 */
#include "analyze/read/inflate.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/util/util.h"

#define CHUNK (1 << 20)
#define NCHUNK 4

struct kv_inflate {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, emptied;
	struct archive *a;		/* the thread's: filter + raw format */
	char *buf[NCHUNK];
	size_t len[NCHUNK];
	unsigned head, count;		/* next chunk to read; chunks filled */
	bool holding;			/* the reader holds buf[head] */
	bool eof, failed, stop;
	uint64_t in_at[NCHUNK];		/* bytes read from the file when the
					   chunk was filled */
	uint64_t in;			/* in_at of the chunk the reader took
					   last: what it has read depends on
					   the data alone, not on how far
					   ahead the thread is */
	const char *block;		/* the thread's: libarchive's block */
	size_t pending;			/* bytes of it not yet in a chunk */
	char msg[256];
};

/* The compressions libarchive's filters read, by their magic numbers. */
static bool
compressed(const char *path)
{
	static const struct {
		size_t len;
		const char *magic;
	} magics[] = { { 2, "\x1f\x8b" }, { 3, "BZh" },
	    { 6, "\xfd" "7zXZ\0" }, { 4, "\x28\xb5\x2f\xfd" },
	    { 4, "\x04\x22\x4d\x18" } };
	unsigned char head[6] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (n >= (ssize_t)magics[i].len &&
		    memcmp(head, magics[i].magic, magics[i].len) == 0)
			return true;
	return false;
}

/* Fill one chunk (unlocked: the chunk is the thread's until counted):
 * the bytes it holds; *end true at the end of the data or an error
 * (*bad), after the bytes that came before it.  Block by block, since
 * archive_read_data() drops what it copied when a later block fails. */
static size_t
fill(kv_inflate *s, char *buf, bool *end, bool *bad)
{
	size_t got = 0;

	while (got < CHUNK) {
		size_t n;

		if (s->pending == 0) {
			const void *blk;
			la_int64_t off;
			int ar = archive_read_data_block(s->a, &blk,
			    &s->pending, &off);

			if (ar != ARCHIVE_OK) {
				*end = true;
				*bad = ar != ARCHIVE_EOF;
				break;
			}
			s->block = blk;
		}
		n = s->pending < CHUNK - got ? s->pending : CHUNK - got;
		memcpy(buf + got, s->block, n);
		s->block += n;
		s->pending -= n;
		got += n;
	}
	return got;
}

static void *
produce(void *arg)
{
	kv_inflate *s = arg;
	struct archive_entry *ent;
	int ar = archive_read_next_header(s->a, &ent);
	bool end = false, bad = ar != ARCHIVE_OK && ar != ARCHIVE_WARN;
	bool ok;

	pthread_mutex_lock(&s->mu);
	while (!bad && !end && !s->stop) {
		unsigned slot = (s->head + s->count) % NCHUNK;
		size_t n;

		if (s->count == NCHUNK) {
			pthread_cond_wait(&s->emptied, &s->mu);
			continue;
		}
		pthread_mutex_unlock(&s->mu);
		n = fill(s, s->buf[slot], &end, &bad);
		pthread_mutex_lock(&s->mu);
		if (n > 0) {
			s->in_at[slot] = (uint64_t)archive_filter_bytes(s->a,
			    -1);
			s->len[slot] = n;
			s->count++;
			pthread_cond_signal(&s->filled);
		}
	}
	ok = !bad;
	if (!ok)
		snprintf(s->msg, sizeof(s->msg), "%s",
		    archive_error_string(s->a) != NULL ?
		    archive_error_string(s->a) : "decompression failed");
	s->failed = !ok;
	s->eof = true;
	pthread_cond_signal(&s->filled);
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

kv_inflate *
kv_inflate_open(const char *path)
{
	kv_inflate *s;

	if (!compressed(path))
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->a = archive_read_new();
	archive_read_support_filter_all(s->a);
	archive_read_support_format_raw(s->a);
	if (archive_read_open_filename(s->a, path, 1 << 16) != ARCHIVE_OK)
		goto fail;
	for (int i = 0; i < NCHUNK; i++)
		s->buf[i] = xmalloc(CHUNK);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->filled, NULL);
	pthread_cond_init(&s->emptied, NULL);
	if (pthread_create(&s->thread, NULL, produce, s) != 0) {
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->filled);
		pthread_cond_destroy(&s->emptied);
		goto fail;
	}
	return s;
fail:
	/* the caller reads the file the ordinary way and names any error */
	archive_read_free(s->a);
	for (int i = 0; i < NCHUNK; i++)
		free(s->buf[i]);
	free(s);
	return NULL;
}

la_ssize_t
kv_inflate_read(struct archive *a, void *src, const void **buf)
{
	kv_inflate *s = src;
	la_ssize_t n = 0;

	pthread_mutex_lock(&s->mu);
	if (s->holding) {
		s->holding = false;
		s->head = (s->head + 1) % NCHUNK;
		s->count--;
		pthread_cond_signal(&s->emptied);
	}
	while (s->count == 0 && !s->eof)
		pthread_cond_wait(&s->filled, &s->mu);
	if (s->count > 0) {
		s->holding = true;
		s->in = s->in_at[s->head];
		*buf = s->buf[s->head];
		n = (la_ssize_t)s->len[s->head];
	} else if (s->failed) {
		archive_set_error(a, EIO, "%s", s->msg);
		n = -1;
	}
	pthread_mutex_unlock(&s->mu);
	return n;
}

uint64_t
kv_inflate_in(kv_inflate *s)
{
	uint64_t in;

	pthread_mutex_lock(&s->mu);
	in = s->in;
	pthread_mutex_unlock(&s->mu);
	return in;
}

void
kv_inflate_close(kv_inflate *s)
{
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = true;
	pthread_cond_signal(&s->emptied);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	archive_read_free(s->a);
	for (int i = 0; i < NCHUNK; i++)
		free(s->buf[i]);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->filled);
	pthread_cond_destroy(&s->emptied);
	free(s);
}
