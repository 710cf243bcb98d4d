/*
 * cmd_plan.c - the drain commands: `kvscope check --drain` (what draining
 * a set of nodes does) and `kvscope plan` (the order to drain a pool in),
 * arguments in, the simulation of drain.h, a render/ view out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "analyze/decide/drain.h"
#include "render/render.h"

int
cli_drain_usage(const kv_cmd *cmd, const cli_args *o)
{
	bool drain = o->drain.n > 0 || o->drain_selectors.n > 0;

	if (!drain && o->allow != ALLOW_NONE)
		return cli_fail(cmd, "--allow-%s needs --drain or "
		    "--drain-selector", o->allow == ALLOW_SHUTDOWN ?
		    "shutdown" : "restart");
	if (drain && (o->nodes.n > 0 || o->selectors.n > 0 ||
	    o->namespaces.n > 0))
		return cli_fail(cmd, "--drain answers for every VMI on the "
		    "drained nodes: it takes no --node, --namespace or "
		    "--selector");
	if (drain && o->fmt == KV_OUT_WIDE)
		return cli_fail(cmd, "--drain: -o wide is not a drain view "
		    "(text, json or yaml)");
	return 0;
}

/* The drain fails: it stops (unless allowed) or holds a VMI, or, with
 * --fail-on, a VMI it moves counts as failing. */
static bool
drain_fails(const kv_analysis *a, const cli_args *o, const kv_drain *d,
    size_t n)
{
	if (o->fail_on.n == 0)
		return kv_drain_fails(d, n, o->allow);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++)
			if (cli_fails_on(a, o, d[i].plan[k].vmi,
			    kv_on_drain_names[d[i].plan[k].action], false))
				return true;
	return false;
}

/* The plan's drains as one -o junit document (a VMI in each step that
 * drains its node). */
static int
plan_junit(const kv_analysis *a, const kv_plan *p, const cli_args *o,
    const kv_term *t)
{
	size_t n = 0, k = 0, bad = 0;
	kv_drain *all;
	int rc;

	for (size_t s = 0; s < p->nsteps; s++)
		n += p->steps[s].nnodes;
	all = xcalloc(n + 1, sizeof(kv_drain));
	for (size_t s = 0; s < p->nsteps; s++)
		for (size_t i = 0; i < p->steps[s].nnodes; i++)
			all[k++] = p->steps[s].drains[i];	/* borrowed */
	rc = cli_junit_drain(a, all, n, o, "kvscope plan", t, &bad);
	free(all);
	return rc == 0 && bad > 0 ? EXIT_FINDINGS : rc;
}

/* check --drain --groups: the groups of the VMIs the drain stops or
 * holds. */
static int
drain_groups(const kv_analysis *a, const kv_drain *d, size_t n,
    const kv_term *t, kv_err *err)
{
	kv_bits pick = { 0 };
	int rc;

	kv_bits_init(&pick, a->nvmis);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < d[i].nplan; k++)
			if (d[i].plan[k].action == DRAIN_BLOCK ||
			    d[i].plan[k].action == DRAIN_SHUTDOWN)
				kv_bits_set(&pick, d[i].plan[k].vmi);
	rc = kv_view_groups(a, &pick, t, true, err);
	kv_bits_free(&pick);
	return rc;
}

/* The not-judged VMIs on the drained nodes (check --drain, plan): in
 * no drain plan (what the drain does with them is not known), so the
 * gate cannot pass them; one line says how many. */
static size_t
drain_unjudged(const kv_cmd *cmd, const kv_analysis *a,
    const kv_bits *nodes)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_node *src = kv_model_node(a->m, a->vmis[i].vmi->node);

		n += a->vmis[i].verdict == V_NOT_JUDGED && src != NULL &&
		    kv_bits_test(nodes, (size_t)(src - a->m->nodes));
	}
	if (n > 0)
		fprintf(stderr, "kvscope: %s: %zu VMI%s on the drained "
		    "nodes %s not judged (the input lacks what %s checks "
		    "need): what the drain does with %s is not known\n",
		    cmd->name, n,
		    n == 1 ? "" : "s", n == 1 ? "is" : "are",
		    n == 1 ? "its" : "their", n == 1 ? "it" : "them");
	return n;
}

int
cli_check_drain(const kv_cmd *cmd, const kv_analysis *a, const cli_args *o,
    const kv_term *t)
{
	kv_bits nodes = {0};
	kv_drain *d = NULL;
	kv_err err = {0};
	size_t n = 0;
	double seconds[2] = {0, 0};
	int rc;

	if ((rc = cli_pick_drain(cmd, a, o, &nodes)) != 0)
		goto out;
	d = kv_drain_nodes(a, &nodes, &n, seconds);
	cli_progress_end();
	if (t->fmt == KV_OUT_JUNIT) {
		size_t bad = 0;

		rc = cli_junit_drain(a, d, n, o, "kvscope check --drain", t,
		    &bad);
		if (rc == 0 && bad > 0)
			rc = EXIT_FINDINGS;
	} else if ((o->groups ? drain_groups(a, d, n, t, &err) :
	    kv_view_drain(a, d, n, seconds, o->window, o->allow, t,
	    &err)) !=
	    KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	} else if (drain_fails(a, o, d, n) || (o->window > 0 &&
	    kv_window_fails(d, n, seconds, o->window)))
		rc = EXIT_FINDINGS;
	if (drain_unjudged(cmd, a, &nodes) > 0 && rc == 0)
		rc = EXIT_FINDINGS;
out:
	kv_drain_list_free(d, n);
	kv_bits_free(&nodes);
	return rc;
}

/* "K=V,K=V" or the node names, for the heading. */
static char *
pool_words(const cli_args *o)
{
	kv_buf b = {0};

	for (size_t i = 0; i < o->drain_selectors.n; i++)
		kv_buf_printf(&b, "%s%s", i ? "," : "",
		    o->drain_selectors.v[i]);
	for (size_t i = 0; i < o->drain.n; i++)
		kv_buf_printf(&b, "%s%s", b.len ? "," : "", o->drain.v[i]);
	return b.data ? b.data : xstrdup("");
}

int
cmd_plan(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_bits pool = {0};
	kv_plan p = {0};
	kv_term t;
	kv_err err = {0};
	char *words = NULL;
	size_t batch;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	if (o.drain.n == 0 && o.drain_selectors.n == 0) {
		cli_args_free(&o);
		return cli_fail(cmd, "missing --drain-selector (or --drain)");
	}
	cli_term(&o, &t);
	cli_term_wrap(&t);
	if ((rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0 ||
	    (rc = cli_pick_drain(cmd, a, &o, &pool)) != 0)
		goto out;
	cli_progress("plan: %zu nodes", kv_bits_count(&pool));
	batch = o.max_unavailable ? o.max_unavailable : 1;
	if (batch > kv_bits_count(&pool)) {
		/* more at a time than the pool holds: all of it at once */
		cli_progress_end();
		batch = kv_bits_count(&pool);
		fprintf(stderr, "kvscope: plan: note: --max-unavailable %zu is "
		    "more than the pool's %zu %s: %zu at a time\n",
		    o.max_unavailable, batch, batch == 1 ? "node" : "nodes",
		    batch);
	}
	/* junit: a case for every VMI, so every node's drain is a step */
	kv_plan_build_ex(a, &pool, batch, o.allow_block ||
	    t.fmt == KV_OUT_JUNIT, &p);
	kv_timing("plan");
	cli_progress_end();
	words = pool_words(&o);
	if (t.fmt == KV_OUT_JUNIT)
		rc = plan_junit(a, &p, &o, &t);
	else if (kv_view_plan(a, &p, words, o.allow, o.window, &t, &err) !=
	    KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	} else if (kv_plan_fails(&p, o.allow) || (o.window > 0 &&
	    kv_plan_window_fails(&p, o.window)))
		rc = EXIT_FINDINGS;	/* --fail-on: with -o junit */
	if (drain_unjudged(cmd, a, &pool) > 0 && rc == 0)
		rc = EXIT_FINDINGS;
out:
	cli_progress_end();
	free(words);
	kv_plan_free(&p);
	kv_bits_free(&pool);
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
