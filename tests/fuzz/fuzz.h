/*
 * fuzz.h - what the libFuzzer harnesses share: limits small enough that
 * one input is read in milliseconds (the code paths are the same as under
 * the defaults), and a scratch directory for harnesses that must hand
 * kvscope a path.
 *
 * A harness must never exit: kvscope's x* allocators call exit(2) on
 * exhaustion, which libFuzzer reports as a finding, and that is intended.
 */
#ifndef KV_FUZZ_H
#define KV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "limits.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void
fuzz_limits(kv_limits *lim)
{
	kv_err err = {0};

	if (kv_limits_init(lim, &err) != KV_OK)
		kv_fatal("%s", err.msg);
	lim->member_bytes = 4 << 20;
	lim->total_bytes = 16 << 20;
	lim->members = 1000;
	lim->items = 10000;
	lim->object_bytes = 1 << 20;
	lim->string_bytes = 64 << 10;
	lim->labels = 1000;
	lim->manifest_bytes = 1 << 20;
}

/* A private scratch directory, made once, removed at exit. */
static char *fuzz_dir_path;

static inline void
fuzz_dir_cleanup(void)
{
	char *cmd;

	if (fuzz_dir_path == NULL)
		return;
	cmd = xasprintf("rm -rf '%s'", fuzz_dir_path);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_path);
	free(cmd);
}

static inline const char *
fuzz_dir(void)
{
	const char *base;

	if (fuzz_dir_path != NULL)
		return fuzz_dir_path;
	base = getenv("TMPDIR");
	fuzz_dir_path = xasprintf("%s/kvfuzz.XXXXXX", base ? base : "/tmp");
	if (mkdtemp(fuzz_dir_path) == NULL)
		kv_fatal("mkdtemp %s failed", fuzz_dir_path);
	atexit(fuzz_dir_cleanup);
	return fuzz_dir_path;
}

/* Write len bytes to path (replacing it). */
static inline void
fuzz_put(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || (len > 0 && fwrite(data, 1, len, f) != len) ||
	    fclose(f) != 0)
		kv_fatal("fuzz: cannot write %s", path);
}

/* A message must be one line. */
static inline void
fuzz_check_msg(const kv_err *err)
{
	if (!err->set || err->msg[0] == '\0' ||
	    strchr(err->msg, '\n') != NULL || strchr(err->msg, '\r') != NULL)
		abort();
}

#ifdef KV_FUZZ_SNAPSHOT
#include "analysis.h"
#include "model.h"
#include "render.h"

/* The whole path a snapshot takes: load, analyse, write findings.json to
 * /dev/null.  Every failure must be one clean line. */
static inline void
fuzz_snapshot(const char *path)
{
	static FILE *null;
	kv_limits lim;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_err err = {0};

	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		abort();
	fuzz_limits(&lim);
	if (kv_model_load(path, &lim, &m, &err) != KV_OK) {
		fuzz_check_msg(&err);
		return;
	}
	if (kv_analyze(m, &a, &err) == KV_OK) {
		if (kv_write_findings(a, null, NULL, &err) != KV_OK)
			fuzz_check_msg(&err);
		kv_analysis_free(a);
	} else
		fuzz_check_msg(&err);
	kv_model_free(m);
}
#endif

#endif
