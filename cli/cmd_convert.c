/*
 * cmd_convert.c - `kvscope convert INPUT --output SNAP.tar.gz`: a
 * must-gather, support bundle or folder of kubectl output written as a
 * kvscope snapshot (manifest with sizes and SHA-256, redaction as
 * kvscope-collect applies it), to attach and re-check later.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "container.h"
#include "foreign.h"

int
cmd_convert(const kv_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	foreign_input *fi = NULL;
	kv_limits lim;
	kv_err err = {0};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (c != 'o')
			return cli_usage(cmd);
		out = optarg;
	}
	if (out == NULL || optind != argc - 1)
		return cli_usage(cmd);
	if (kv_limits_init(&lim, &err) != KV_OK)
		goto fail;
	if (kv_is_snapshot(argv[optind], &lim)) {
		kv_seterr(&err, "%s: already a kvscope snapshot (it has a "
		    "manifest.json); nothing to convert", argv[optind]);
		goto fail;
	}
	if (foreign_load(argv[optind], &lim, true, &fi, &err) != KV_OK ||
	    foreign_write_snapshot(fi, out, &err) != KV_OK)
		goto fail;
	foreign_free(fi);
	return 0;
fail:
	foreign_free(fi);
	fprintf(stderr, "kvscope: %s\n", err.msg);
	return EXIT_TOOL;
}
