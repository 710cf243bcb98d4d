/*
 * kvtest.h - shared helpers for the cmocka unit tests.
 *
 * Every test binary includes this after <cmocka.h>'s prerequisites.
 * kvtest_tmpdir() gives each test a fresh empty directory (libarchive's
 * practice); kvtest_read_file() slurps a file (caller frees).
 */
#ifndef KV_TEST_H
#define KV_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/util/util.h"

/* A fresh directory under $TMPDIR for one test; caller frees the path. */
static inline char *
kvtest_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/kvtest.XXXXXX", base ? base : "/tmp");

	if (mkdtemp(tmpl) == NULL)
		kv_fatal("mkdtemp %s failed", tmpl);
	return tmpl;
}

/* Read a whole file; NULL when it cannot be read.  Caller frees. */
static inline char *
kvtest_read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	kv_buf b = {0};
	char chunk[65536];
	size_t n;

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		kv_buf_append(&b, chunk, n);
	fclose(f);
	if (b.data == NULL)
		kv_buf_append(&b, "", 0);
	if (lenp != NULL)
		*lenp = b.len;
	return b.data;
}

/* Path of a file under the repository's tests/ tree (tests run from the
 * repository root). */
#define KVTEST_DATA(rel) ("tests/" rel)

#endif
