/*
 * cmd_convert.c - `kvscope convert INPUT SNAP.tar.gz` (or
 * --output-file SNAP.tar.gz): a
 * must-gather, support bundle or folder of kubectl output written as a
 * kvscope snapshot (manifest with sizes and SHA-256, redaction as
 * kvscope-collect applies it), to attach and re-check later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "analyze/read/container.h"
#include "analyze/read/foreign.h"

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n > k && strcmp(s + n - k, tail) == 0;
}

/* The input exists, the output is a new .tar.gz/.tgz (or --force). */
static int
check_paths(const cli_args *o, const char *dst, kv_err *err)
{
	struct stat st;

	if (!kv_is_stdin(o->pos[0]) && stat(o->pos[0], &st) != 0)
		return kv_seterr(err, "%s: %s", o->pos[0], errno == ENOENT ?
		    "no such file" : strerror(errno));
	if (!ends_with(dst, ".tar.gz") && !ends_with(dst, ".tgz"))
		return kv_seterr(err, "%s: a snapshot is a .tar.gz; name the "
		    "output SNAP.tar.gz or SNAP.tgz", dst);
	if (!o->force && lstat(dst, &st) == 0)
		return kv_seterr(err, "%s: exists; use --force to replace it",
		    dst);
	return KV_OK;
}

/* The count of resource name in m, or -1. */
static long long
count_of(const snap_manifest *m, const char *name)
{
	for (size_t i = 0; i < m->nresources; i++)
		if (strcmp(m->resources[i].resource, name) == 0 &&
		    strcmp(m->resources[i].status, "ok") == 0)
			return m->resources[i].count;
	return 0;
}

/* The resources whose absence the analysis says (the rest are optional
 * or of the other flavor). */
static bool
needed(const char *resource)
{
	static const char *const v[] = { "nodes", "pods",
		"persistentvolumeclaims", "storageclasses", "kubevirts",
		"virtualmachineinstances" };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(v[i], resource) == 0)
			return true;
	return false;
}

/* One line: "wrote SNAP: N nodes, M VMIs; redacted: ...; not in the
 * input: ...". */
static void
say_written(const foreign_input *fi, const char *out)
{
	json_t *red = foreign_redactions(fi), *r;
	kv_buf b = {0}, miss = {0};
	snap_manifest m;
	size_t i;

	foreign_manifest(fi, &m);
	json_array_foreach(red, i, r)
		kv_buf_printf(&b, "%s%s (%lld)", i ? ", " : "",
		    json_string_value(json_object_get(r, "field")),
		    (long long)json_integer_value(json_object_get(r,
		    "count")));
	for (i = 0; i < m.nresources; i++)
		if (strcmp(m.resources[i].status, "ok") != 0 &&
		    needed(m.resources[i].resource))
			kv_buf_printf(&miss, "%s%s", miss.data ? ", " : "",
			    m.resources[i].resource);
	printf("wrote %s: %lld nodes, %lld VMIs; redacted: %s; not in the "
	    "input: %s\n", out, count_of(&m, "nodes"),
	    count_of(&m, "virtualmachineinstances"), b.data ? b.data :
	    "nothing", miss.data ? miss.data : "nothing");
	kv_buf_free(&b);
	kv_buf_free(&miss);
	json_decref(red);
	snap_manifest_free(&m);
}

int
cmd_convert(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	foreign_input *fi = NULL;
	kv_limits lim;
	kv_err err = {0};
	const char *dst;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	dst = o.npos > 1 ? o.pos[1] : o.outfile;
	if (dst == NULL || (o.npos > 1 && o.outfile != NULL)) {
		cli_args_free(&o);
		return cli_fail(cmd, dst == NULL ? "missing SNAP (the second "
		    "argument, or --output-file FILE)" : "the snapshot to "
		    "write is given twice (second argument and "
		    "--output-file)");
	}
	if (check_paths(&o, dst, &err) != KV_OK ||
	    kv_limits_init(&lim, &err) != KV_OK)
		goto fail;
	if (kv_is_snapshot(o.pos[0], &lim)) {
		kv_seterr(&err, "%s: already a kvscope snapshot (it has a "
		    "manifest.json); nothing to convert", o.pos[0]);
		goto fail;
	}
	if (foreign_load(o.pos[0], &lim, true, &fi, &err) != KV_OK ||
	    foreign_write_snapshot(fi, dst, &err) != KV_OK)
		goto fail;
	say_written(fi, dst);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "kvscope: %s\n", err.msg);
	rc = EXIT_TOOL;
out:
	foreign_free(fi);
	cli_args_free(&o);
	return rc;
}
