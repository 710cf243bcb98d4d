/*
 * cmd_check.c - `kvscope check` (the pre-maintenance gate) and
 * `kvscope explain` (the full reasoning for one VMI): arguments in, a
 * render/ view out (view.h).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "render/render.h"

/* The view's status: a write error printed. */
static int
viewed(int rc, const kv_err *err)
{
	if (rc != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err->msg);
		return EXIT_TOOL;
	}
	return 0;
}

/* Whether the picked VMIs hold running ones and none of them is judged
 * (findings "not-judged"): the input cannot answer the gate, exit 2.
 * The warnings said why ("the input has no nodes: no VMI is judged", in
 * the flavor's word). */
static bool
none_judged(const kv_analysis *a, const kv_bits *pick)
{
	size_t running = 0, unjudged = 0;

	KV_BITS_FOREACH(pick, i) {
		running += a->vmis[i].verdict != V_NOT_RUNNING;
		unjudged += a->vmis[i].verdict == V_NOT_JUDGED;
	}
	return running > 0 && unjudged == running;
}

int
cmd_check(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_bits pick = {0};
	kv_term t;
	kv_err err = {0};
	size_t bad = 0;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	if ((rc = cli_drain_usage(cmd, &o)) != 0)
		goto out;
	cli_term(&o, &t);
	cli_term_wrap(&t);
	if ((rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0)
		goto out;
	if ((t.fmt == KV_OUT_PROM || t.fmt == KV_OUT_SARIF) &&
	    (o.drain.n > 0 || o.drain_selectors.n > 0)) {
		rc = cli_fail(cmd, "--drain: not with -o %s", o.output);
		goto out;
	}
	if (o.drain.n > 0 || o.drain_selectors.n > 0) {
		rc = cli_check_drain(cmd, a, &o, &t);
		goto out;
	}
	if ((rc = cli_pick_vmis(cmd, a, &o, &pick)) != 0)
		goto out;
	cli_progress_end();
	if (!kv_bits_any(&pick)) {
		/* as kubectl's "No resources found", but nothing was judged,
		 * so no gate passes on it: exit 2 (a document still says
		 * so to a machine reader) */
		fprintf(stderr, "kvscope: check: no %s found\n",
		    kv_word(a, KV_WORD_VMS));
		rc = EXIT_TOOL;
		if (t.fmt == KV_OUT_TEXT)
			goto out;
		rc = 0;
	}
	if (t.fmt == KV_OUT_PROM || t.fmt == KV_OUT_SARIF)
		rc = cli_check_export(cmd, a, &pick, &o);
	else if (t.fmt == KV_OUT_JUNIT)
		rc = cli_junit_check(a, &pick, &o, &t, &bad);
	else if (o.groups)
		rc = viewed(kv_view_groups(a, &pick, &t, true, &err), &err);
	else
		rc = viewed(kv_view_check(a, &pick, &t, &bad, &err), &err);
	if (t.fmt != KV_OUT_JUNIT) {
		bad = 0;	/* what counts: --fail-on, or the verdict */
		KV_BITS_FOREACH(&pick, i)
			bad += a->vmis[i].verdict != V_NOT_RUNNING &&
			    cli_fails_on(a, &o, i, NULL,
			    kv_verdict_fails(a->vmis[i].verdict));
	}
	if (rc == 0 && bad > 0)
		rc = EXIT_FINDINGS;
	if (rc == 0 && !kv_bits_any(&pick))
		rc = EXIT_TOOL;
	if (rc == 0 && none_judged(a, &pick))
		rc = EXIT_TOOL;
out:
	cli_progress_end();
	kv_bits_free(&pick);
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}

int
cmd_explain(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_term t;
	kv_err err = {0};
	size_t idx = 0;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	cli_term(&o, &t);
	if ((rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0)
		goto out;
	if ((rc = cli_find_vmi(cmd, a, &o, o.pos[1], &idx)) != 0)
		goto out;
	cli_progress_end();
	rc = viewed(kv_view_explain(a, idx, &t, &err), &err);
out:
	cli_progress_end();
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
