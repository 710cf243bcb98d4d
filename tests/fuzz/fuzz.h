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

#include "analyze/pipeline.h"
#include "analyze/read/limits.h"
#include "analyze/util/util.h"

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
#include "analyze/rules/analysis.h"
#include "analyze/model/model.h"
#include "render/render.h"

#include <glib.h>
#include <stdbool.h>
#include <sys/stat.h>

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

/*
 * The input as a directory snapshot (fuzz_load, fuzz_pipeline): sections
 * separated by a line "---"; the first byte of a section picks the
 * resource file (one per row of analyze/read/resources.def, in its order, then
 * the CPU map; tests/fuzz/make-seeds.py reads the same table, so a seed's
 * first byte picks the same file here and there), the rest is its
 * content.  The manifest is computed to match, so every input reaches the
 * readers past the container.
 */
static const struct {
	const char *plural, *group;
} fuzz_rows[] = {
#define KV_RESOURCE(plural, group, scope, prefix, rank, loader, need) \
	{ plural, group },
#include "analyze/read/resources.def"
#undef KV_RESOURCE
};
#define FUZZ_NFILES (sizeof(fuzz_rows) / sizeof(fuzz_rows[0]) + 1)
static char *fuzz_files[FUZZ_NFILES];	/* built once, never freed */
#define FUZZ_SEP "\n---\n"

/* The snapshot directory, made once, with no file in it. */
static inline const char *
fuzz_snap_dir(void)
{
	static char *top;

	if (top != NULL)
		return top;
	for (size_t i = 0; i + 1 < FUZZ_NFILES; i++)
		fuzz_files[i] = fuzz_rows[i].group[0] == '\0' ?
		    xasprintf("resources/%s.json", fuzz_rows[i].plural) :
		    xasprintf("resources/%s.%s.json", fuzz_rows[i].plural,
		    fuzz_rows[i].group);
	fuzz_files[FUZZ_NFILES - 1] = xstrdup("libvirt/cpu_map/x86_Fuzz.xml");
	top = xasprintf("%s/snap", fuzz_dir());
	if (mkdir(top, 0755) != 0)
		abort();
	for (const char *d = "resources\0libvirt\0libvirt/cpu_map\0";
	    *d != '\0'; d += strlen(d) + 1) {
		char *sub = xasprintf("%s/%s", top, d);

		if (mkdir(sub, 0755) != 0)
			abort();
		free(sub);
	}
	return top;
}

/* One section: its file (the first one of a kind wins) and its line in
 * the manifest. */
static inline void
fuzz_snap_section(const char *top, const char *p, size_t len, bool *used,
    kv_buf *manifest, int *n)
{
	size_t which = (unsigned char)p[0] % FUZZ_NFILES;
	char *path;
	gchar *sum;

	if (len == 0 || used[which])
		return;
	path = xasprintf("%s/%s", top, fuzz_files[which]);
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
	    (const guchar *)p + 1, len - 1);
	used[which] = true;
	fuzz_put(path, p + 1, len - 1);
	kv_buf_printf(manifest, "%s{\"path\":\"%s\",\"bytes\":%zu,"
	    "\"sha256\":\"%s\"}", (*n)++ ? "," : "", fuzz_files[which],
	    len - 1, sum);
	g_free(sum);
	free(path);
}

/* Write data as the snapshot; its path. */
static inline const char *
fuzz_write_snapshot(const uint8_t *data, size_t size)
{
	const char *top = fuzz_snap_dir();
	const char *p = (const char *)data, *end = p + size;
	bool used[FUZZ_NFILES] = { false };
	kv_buf manifest = {0};
	char *mpath;
	int n = 0;

	for (size_t i = 0; i < FUZZ_NFILES; i++) {
		char *path = xasprintf("%s/%s", top, fuzz_files[i]);

		unlink(path);
		free(path);
	}
	kv_buf_printf(&manifest, "{\"kind\":\"kvscope-snapshot\","
	    "\"formatVersion\":1,\"createdAt\":\"2026-10-31T09:12:44Z\","
	    "\"files\":[");
	while (p < end) {
		const char *next = memmem(p, (size_t)(end - p), FUZZ_SEP,
		    sizeof(FUZZ_SEP) - 1);

		fuzz_snap_section(top, p, next ? (size_t)(next - p) :
		    (size_t)(end - p), used, &manifest, &n);
		if (next == NULL)
			break;
		p = next + sizeof(FUZZ_SEP) - 1;
	}
	kv_buf_printf(&manifest, "]}");
	mpath = xasprintf("%s/manifest.json", top);
	fuzz_put(mpath, manifest.data, manifest.len);
	free(mpath);
	kv_buf_free(&manifest);
	return top;
}
#endif

#endif
