/*
 * cmd_cpu.c - `kvscope models` and `kvscope pairs`: arguments in, the
 * CPU views of render/term/view_cpu.c out.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "render/render.h"

int
cmd_models(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_bits chosen = {0};
	kv_term t;
	kv_err err = {0};
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	cli_term(&o, &t);
	if ((rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0)
		goto out;
	if ((rc = cli_pick_nodes(cmd, a, &o, &chosen)) != 0)
		goto out;
	cli_progress_end();
	if (kv_view_models(a, &chosen, &t, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	}
out:
	cli_progress_end();
	kv_bits_free(&chosen);
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}

int
cmd_pairs(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_term t;
	kv_err err = {0};
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	cli_term(&o, &t);
	if ((rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0)
		goto out;
	cli_progress_end();
	if (kv_view_pairs(a, &t, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	}
out:
	cli_progress_end();
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
