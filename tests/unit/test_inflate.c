/*
 * test_inflate.c - decompression on its own thread (analyze/read/inflate.c): a
 * gzip'd tar read through kv_inflate_read() gives the member's bytes
 * exactly, over many chunks; a truncated one gives every byte before the
 * cut, then libarchive's error; a plain tar is not taken.
 */
#include "kvtest.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/read/inflate.h"

#define MEMBER (5u << 20)	/* 5 MiB: more chunks than the ring holds */

/* Bytes that compress, but not to nothing. */
static char *
content(void)
{
	char *b = xmalloc(MEMBER);
	uint32_t x = 12345;

	for (size_t i = 0; i < MEMBER; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (char)('a' + (x >> 16) % 8);
	}
	return b;
}

/* dir/name: a tar holding data.bin, compressed with gzip or not. */
static char *
make_tar(const char *dir, const char *name, const char *data, bool gz)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();

	if (gz)
		archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	archive_entry_set_pathname(e, "data.bin");
	archive_entry_set_size(e, MEMBER);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	assert_int_equal(archive_write_data(a, data, MEMBER), MEMBER);
	archive_entry_free(e);
	archive_write_close(a);
	archive_write_free(a);
	return path;
}

/* Read data.bin of path through the thread: bytes that match data, and
 * the last archive_read_data() result; *msg the error, if any. */
static size_t
read_through(const char *path, const char *data, la_ssize_t *last,
    char **msg)
{
	kv_inflate *src = kv_inflate_open(path);
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	char buf[1 << 16];
	size_t got = 0;
	la_ssize_t n = 0;

	assert_non_null(src);
	archive_read_support_format_tar(a);
	assert_int_equal(archive_read_open(a, src, NULL, kv_inflate_read,
	    NULL), ARCHIVE_OK);
	*msg = NULL;
	if (archive_read_next_header(a, &e) == ARCHIVE_OK)
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
			assert_true(got + (size_t)n <= MEMBER);
			assert_memory_equal(buf, data + got, (size_t)n);
			got += (size_t)n;
		}
	if (n < 0)
		*msg = xstrdup(archive_error_string(a));
	*last = n;
	archive_read_free(a);
	kv_inflate_close(src);
	return got;
}

static void
test_whole(void **state)
{
	char *dir = kvtest_tmpdir(), *data = content();
	char *path = make_tar(dir, "s.tar.gz", data, true), *msg;
	la_ssize_t last;

	(void)state;
	assert_int_equal(read_through(path, data, &last, &msg), MEMBER);
	assert_int_equal(last, 0);
	assert_null(msg);
	unlink(path);
	rmdir(dir);
	free(path);
	free(data);
	free(dir);
}

static void
test_truncated(void **state)
{
	char *dir = kvtest_tmpdir(), *data = content();
	char *path = make_tar(dir, "s.tar.gz", data, true), *msg;
	la_ssize_t last;
	size_t got;
	long len;
	FILE *f = fopen(path, "r+");

	(void)state;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fclose(f);
	assert_int_equal(truncate(path, len / 2), 0);
	got = read_through(path, data, &last, &msg);
	/* more than one chunk came before the error, all of it right */
	assert_true(got > (1u << 20));
	assert_true(got < MEMBER);
	assert_true(last < 0);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "truncated"));
	free(msg);
	unlink(path);
	rmdir(dir);
	free(path);
	free(data);
	free(dir);
}

static void
test_plain_tar_not_taken(void **state)
{
	char *dir = kvtest_tmpdir(), *data = content();
	char *path = make_tar(dir, "s.tar", data, false);

	(void)state;
	assert_null(kv_inflate_open(path));
	unlink(path);
	assert_null(kv_inflate_open(path));	/* missing: the caller says */
	rmdir(dir);
	free(path);
	free(data);
	free(dir);
}

/* What kv_inflate_in() says (the compression ratio limit reads it) is
 * the file's bytes behind the chunk the reader holds, however far ahead
 * the thread has run: holding the first of five chunks while the thread
 * fills the ring, about a fifth of the file, not four fifths. */
static void
test_in_follows_reader(void **state)
{
	char *dir = kvtest_tmpdir(), *data = content();
	char *path = make_tar(dir, "s.tar.gz", data, true);
	kv_inflate *src = kv_inflate_open(path);
	struct archive *a = archive_read_new();
	struct stat st;
	const void *buf;
	uint64_t first, again;

	(void)state;
	assert_int_equal(stat(path, &st), 0);
	assert_non_null(src);
	assert_true(kv_inflate_read(a, src, &buf) > 0);
	usleep(300000);			/* the thread fills the ring */
	first = kv_inflate_in(src);
	assert_true(first > 0);
	assert_true(first < (uint64_t)st.st_size / 2);
	assert_true(kv_inflate_read(a, src, &buf) > 0);
	again = kv_inflate_in(src);
	assert_true(again > first);
	assert_true(again < (uint64_t)st.st_size * 3 / 4);
	archive_read_free(a);
	kv_inflate_close(src);
	unlink(path);
	rmdir(dir);
	free(path);
	free(data);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_plain_tar_not_taken),
		cmocka_unit_test(test_in_follows_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
