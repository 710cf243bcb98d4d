/*
 * export.c - the documents other tools read: -o prom (the Prometheus
 * text exposition, docs/metrics.md) of check, -o sarif (SARIF 2.1.0,
 * docs/sarif.md) of check, written to stdout or atomically to -f FILE.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fleet/fleet.h"
#include "cli/cli.h"
#include "render/fleet.h"

int
cli_export(const cli_args *o, kv_writer_fn fn, const kv_analysis *a,
    void *arg)
{
	kv_err err = {0};
	kv_output out;
	char *d, *b;
	int rc;

	if (o->outfile == NULL) {
		rc = fn(a, stdout, arg, &err);
		if (rc == KV_OK && fflush(stdout) != 0)
			rc = kv_seterr(&err, "stdout: cannot write");
		goto done;
	}
	d = xstrdup(o->outfile);
	b = xstrdup(o->outfile);
	kv_output_init(&out, dirname(d));
	rc = kv_output_stage(&out, basename(b), fn, a, arg, &err);
	if (rc == KV_OK)
		rc = kv_output_commit(&out, &err);
	else
		kv_output_abort(&out);
	free(d);
	free(b);
done:
	if (rc != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		return EXIT_TOOL;
	}
	return 0;
}

int
cli_check_export(const kv_cmd *cmd, const kv_analysis *a,
    const kv_bits *pick, const cli_args *o)
{
	kv_fleet fl;
	int rc;

	if (o->groups)
		return cli_fail(cmd, "--groups: not with -o %s",
		    kv_outfmt_names[o->fmt]);
	if (o->fmt == KV_OUT_SARIF)
		return cli_export(o, kv_write_sarif, a, (void *)pick);
	if (o->namespaces.n || o->nodes.n || o->selectors.n)
		return cli_fail(cmd, "-o prom: the whole snapshot; no -n, "
		    "--node or -l");
	kv_fleet_init(&fl);
	kv_fleet_summarize(a, kv_fleet_add(&fl, o->pos[0]));
	kv_fleet_build(&fl);
	rc = cli_export(o, kv_write_prom, NULL, &fl);
	kv_fleet_free(&fl);
	return rc;
}
