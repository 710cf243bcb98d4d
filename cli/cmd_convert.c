/*
 * cmd_convert.c - `kvscope convert INPUT SNAP.tar.gz` (or
 * --output-file SNAP.tar.gz): a
 * must-gather, support bundle or folder of kubectl output written as a
 * kvscope snapshot (manifest with sizes and SHA-256, redaction as
 * kvscope-collect applies it), to attach and re-check later.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "container.h"
#include "foreign.h"

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
	if (kv_limits_init(&lim, &err) != KV_OK)
		goto fail;
	if (kv_is_snapshot(o.pos[0], &lim)) {
		kv_seterr(&err, "%s: already a kvscope snapshot (it has a "
		    "manifest.json); nothing to convert", o.pos[0]);
		goto fail;
	}
	if (foreign_load(o.pos[0], &lim, true, &fi, &err) != KV_OK ||
	    foreign_write_snapshot(fi, dst, &err) != KV_OK)
		goto fail;
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
