/*
 * test_output.c - all-or-nothing output (render/output.c): a set of files
 * staged over a directory that already holds some of them is committed
 * whole, or, when any one rename fails (the k-th, for every k), the
 * directory is left exactly as it was: same names, same contents, no
 * temporary files.  Also: a writer's error leaves nothing behind, and a
 * write error names the path and the system's reason; a writer staged in
 * the background keeps its place in the set, its file is whole at the
 * commit, and its error reaches the commit and leaves nothing behind.
 */
#include "kvtest.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render.h"

static int calls, fail_at;

static int
rm_one(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(p);
}

static void
kvtest_rmtree(const char *dir)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* rename(2), except that call number fail_at fails with EIO */
static int
rename_hook(const char *from, const char *to)
{
	if (++calls == fail_at) {
		errno = EIO;
		return -1;
	}
	return rename(from, to);
}

static int
write_text(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	(void)a;
	(void)err;
	fputs(arg, f);
	return KV_OK;
}

static int
write_fails(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	(void)a;
	(void)f;
	(void)arg;
	return kv_seterr(err, "writer failed");
}

static void
put(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

/* "name=contents;" for every entry of dir, sorted: the directory's state */
static char *
listing(const char *dir)
{
	struct dirent **ent;
	int n = scandir(dir, &ent, NULL, alphasort);
	kv_buf b = {0};

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, ent[i]->d_name);
		struct stat st;

		if (ent[i]->d_name[0] != '.' || strlen(ent[i]->d_name) > 2) {
			char *text = NULL;

			assert_int_equal(lstat(p, &st), 0);
			if (S_ISREG(st.st_mode))
				text = kvtest_read_file(p, NULL);
			kv_buf_printf(&b, "%s=%s;", ent[i]->d_name,
			    S_ISDIR(st.st_mode) ? "<dir>" : text ? text : "?");
			free(text);
		}
		free(p);
		free(ent[i]);
	}
	free(ent);
	return b.data ? b.data : xstrdup("");
}

static void
stage_three(kv_output *o, const char *dir)
{
	kv_err err = {0};

	kv_output_init(o, dir);
	assert_int_equal(kv_output_stage(o, "findings.json", write_text, NULL,
	    "new-json", &err), KV_OK);
	assert_int_equal(kv_output_stage(o, "report.html", write_text, NULL,
	    "new-html", &err), KV_OK);
	assert_int_equal(kv_output_stage(o, "drain.svg", write_text, NULL,
	    "new-svg", &err), KV_OK);
}

/* two old files replaced, one new: 2 moves aside + 3 renames */
#define RENAMES 5

static void
test_commit_fails_at_every_rename(void **state)
{
	(void)state;
	for (int k = 1; k <= RENAMES; k++) {
		char *dir = kvtest_tmpdir(), *before, *after;
		kv_output o;
		kv_err err = {0};

		put(dir, "findings.json", "old-json");
		put(dir, "report.html", "old-html");
		put(dir, "notes.txt", "mine");
		before = listing(dir);
		stage_three(&o, dir);
		calls = 0;
		fail_at = k;
		kv_output_rename = rename_hook;
		assert_int_equal(kv_output_commit(&o, &err), KV_ERR);
		kv_output_rename = rename;
		assert_non_null(strstr(err.msg, "Input/output error"));
		assert_non_null(strstr(err.msg, dir));
		after = listing(dir);
		assert_string_equal(after, before);
		free(before);
		free(after);
		kvtest_rmtree(dir);
		free(dir);
	}
}

static void
test_commit_replaces_all(void **state)
{
	char *dir = kvtest_tmpdir(), *after;
	kv_output o;
	kv_err err = {0};

	(void)state;
	put(dir, "findings.json", "old-json");
	put(dir, "report.html", "old-html");
	stage_three(&o, dir);
	calls = 0;
	fail_at = RENAMES + 1;
	kv_output_rename = rename_hook;
	assert_int_equal(kv_output_commit(&o, &err), KV_OK);
	kv_output_rename = rename;
	assert_int_equal(calls, RENAMES);
	after = listing(dir);
	assert_string_equal(after, "drain.svg=new-svg;findings.json=new-json;"
	    "report.html=new-html;");
	free(after);
	kvtest_rmtree(dir);
	free(dir);
}

static void
test_commit_directory_in_the_way(void **state)
{
	char *dir = kvtest_tmpdir(), *sub, *before, *after;
	kv_output o;
	kv_err err = {0};

	(void)state;
	put(dir, "findings.json", "old-json");
	sub = xasprintf("%s/report.html", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	before = listing(dir);
	stage_three(&o, dir);
	assert_int_equal(kv_output_commit(&o, &err), KV_ERR);
	assert_non_null(strstr(err.msg, "report.html: cannot rename into "
	    "place: Is a directory"));
	after = listing(dir);
	assert_string_equal(after, before);
	free(before);
	free(after);
	free(sub);
	kvtest_rmtree(dir);
	free(dir);
}

static void
test_stage_writer_error_leaves_nothing(void **state)
{
	char *dir = kvtest_tmpdir(), *after;
	kv_output o;
	kv_err err = {0};

	(void)state;
	kv_output_init(&o, dir);
	assert_int_equal(kv_output_stage(&o, "report.pdf", write_fails, NULL,
	    NULL, &err), KV_ERR);
	kv_output_abort(&o);
	assert_string_equal(err.msg, "writer failed");
	after = listing(dir);
	assert_string_equal(after, "");
	free(after);
	kvtest_rmtree(dir);
	free(dir);
}

/* waits until the main thread has staged its file, so that the two
 * really overlap; then writes arg */
static volatile int staged;

static int
write_late(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	(void)a;
	(void)err;
	for (int i = 0; i < 5000 && !staged; i++)
		usleep(1000);
	fputs(arg, f);
	return KV_OK;
}

static void
test_stage_bg_in_order(void **state)
{
	char *dir = kvtest_tmpdir(), *after;
	kv_output o;
	kv_err err = {0};

	(void)state;
	staged = 0;
	kv_output_init(&o, dir);
	assert_int_equal(kv_output_stage_bg(&o, "report.pdf", write_late,
	    NULL, "new-pdf", &err), KV_OK);
	assert_int_equal(kv_output_stage(&o, "findings.json", write_text,
	    NULL, "new-json", &err), KV_OK);
	staged = 1;
	assert_int_equal(o.n, 2);
	assert_non_null(strstr(o.dst[0], "/report.pdf"));
	assert_non_null(strstr(o.dst[1], "/findings.json"));
	assert_int_equal(kv_output_commit(&o, &err), KV_OK);
	after = listing(dir);
	assert_string_equal(after, "findings.json=new-json;"
	    "report.pdf=new-pdf;");
	free(after);
	kvtest_rmtree(dir);
	free(dir);
}

static void
test_stage_bg_error_reaches_commit(void **state)
{
	char *dir = kvtest_tmpdir(), *after;
	kv_output o;
	kv_err err = {0};

	(void)state;
	put(dir, "report.pdf", "old-pdf");
	kv_output_init(&o, dir);
	assert_int_equal(kv_output_stage_bg(&o, "report.pdf", write_fails,
	    NULL, NULL, &err), KV_OK);
	assert_int_equal(kv_output_stage(&o, "findings.json", write_text,
	    NULL, "new-json", &err), KV_OK);
	assert_int_equal(kv_output_commit(&o, &err), KV_ERR);
	assert_string_equal(err.msg, "writer failed");
	after = listing(dir);
	assert_string_equal(after, "report.pdf=old-pdf;");
	free(after);
	kvtest_rmtree(dir);
	free(dir);
}

/* A disk that is full after disk_room bytes (all files together, all
 * threads): write(2) then fails with ENOSPC. */
static long disk_room, disk_used;
static int writer_saw_error;

static ssize_t
full_disk_write(int fd, const void *buf, size_t len)
{
	long at = __atomic_add_fetch(&disk_used, (long)len, __ATOMIC_SEQ_CST);

	if (at > disk_room) {
		errno = ENOSPC;
		return -1;
	}
	return write(fd, buf, len);
}

/* 200 KB in lines, as the PDF and the HTML writers do; a write error
 * seen by the writer (what made cairo assert) is counted */
static int
write_much(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	(void)a;
	(void)arg;
	(void)err;
	for (int i = 0; i < 4000; i++)
		if (fprintf(f, "%-49d\n", i) < 0 || fflush(f) != 0)
			__atomic_add_fetch(&writer_saw_error, 1,
			    __ATOMIC_SEQ_CST);
	return KV_OK;
}

static void
test_full_disk_bg_and_main(void **state)
{
	(void)state;
	for (long room = 0; room <= 450000; room += 50000) {
		char *dir = kvtest_tmpdir(), *after;
		kv_output o;
		kv_err err = {0};
		int rc;

		disk_room = room;
		disk_used = 0;
		writer_saw_error = 0;
		kv_output_write = full_disk_write;
		kv_output_init(&o, dir);
		rc = kv_output_stage_bg(&o, "report.pdf", write_much, NULL,
		    NULL, &err);
		if (rc == KV_OK)
			rc = kv_output_stage(&o, "findings.json", write_much,
			    NULL, NULL, &err);
		if (rc == KV_OK)
			rc = kv_output_commit(&o, &err);
		else
			kv_output_abort(&o);
		kv_output_write = write;
		assert_int_equal(writer_saw_error, 0);
		after = listing(dir);
		if (room < 400000) {	/* 2 x 200,000 bytes do not fit */
			assert_int_equal(rc, KV_ERR);
			assert_non_null(strstr(err.msg, "write error: No space "
			    "left on device"));
			assert_true(strncmp(err.msg, dir, strlen(dir)) == 0);
			assert_string_equal(after, "");
		} else {
			assert_int_equal(rc, KV_OK);
		}
		free(after);
		kvtest_rmtree(dir);
		free(dir);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_fails_at_every_rename),
		cmocka_unit_test(test_commit_replaces_all),
		cmocka_unit_test(test_commit_directory_in_the_way),
		cmocka_unit_test(test_stage_writer_error_leaves_nothing),
		cmocka_unit_test(test_stage_bg_in_order),
		cmocka_unit_test(test_stage_bg_error_reaches_commit),
		cmocka_unit_test(test_full_disk_bg_and_main),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
