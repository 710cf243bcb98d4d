/*
 * cmd_cross.c - `kvscope crosscheck SOURCE TARGET`: arguments in, the two
 * snapshots loaded with one string table (TARGET's), the cross-check of
 * analyze/crosscheck/ run, its text or document out (render/cross.h).
 *
 * Exit 1 when a VM answers no (with --live: any answer but live), else
 * 0; 2 on a usage or input error.  SOURCE and TARGET of one cluster are
 * a warning line, not an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/whatif.h"
#include "analyze/crosscheck/crosscheck.h"
#include "analyze/read/limits.h"
#include "cli/cli.h"
#include "render/cross.h"

int
cli_opt_map(const kv_cmd *cmd, const cli_option *op, const char *arg,
    cli_args *o, size_t off)
{
	cli_list *l = (cli_list *)((char *)o + off);

	for (const char *p = arg;; p += strcspn(p, ",") + 1) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);

		if (eq == NULL || eq == p || eq == p + n - 1 ||
		    memchr(eq + 1, '=', (size_t)(p + n - eq - 1)) != NULL)
			return cli_fail(cmd, "--%s: \"%.*s\" is not "
			    "SOURCE=TARGET", op->name, (int)n, p);
		l->v = xreallocarray(l->v, l->n + 1, sizeof(char *));
		l->v[l->n++] = xstrndup(p, n);
		if (p[n] == '\0')
			return 0;
	}
}

/* The node changes of o (what-if's, "name=value" in order) applied to
 * tgt; their notes into *w.  Errors printed, EXIT_TOOL returned. */
static int
change_target(const kv_cmd *cmd, const cli_args *o, kv_model *tgt,
    kv_whatif *w)
{
	kv_change *ch = xcalloc(o->changes.n + 1, sizeof(kv_change));
	kv_err err = {0};
	int rc = 0;

	for (size_t i = 0; i < o->changes.n && rc == 0; i++) {
		char *v = strchr(o->changes.v[i], '=') + 1, *eq, *end;
		size_t len = (size_t)(v - 1 - o->changes.v[i]);

		for (int k = 0; k < CH_COUNT; k++)
			if (strlen(kv_change_names[k]) == len && strncmp(
			    o->changes.v[i], kv_change_names[k], len) == 0)
				ch[i].kind = (enum kv_change_kind)k;
		ch[i].value = v;
		ch[i].count = 1;
		if (ch[i].kind == CH_ADD_NODE_LIKE &&
		    (eq = strchr(v, '=')) != NULL) {
			long n = strtol(eq + 1, &end, 10);

			if (eq == v || *end != '\0' || n < 1 || n > 10000)
				rc = cli_fail(cmd, "--add-node-like: \"%s\" is "
				    "not NODE or NODE=COUNT (1-10000)", v);
			*eq = '\0';
			ch[i].count = (size_t)n;
		}
	}
	if (rc == 0 && kv_whatif_apply(tgt, ch, o->changes.n, w, &err) !=
	    KV_OK)
		rc = cli_error(cmd, "TARGET: %s", err.msg);
	free(ch);
	return rc;
}

/* TARGET, then SOURCE into TARGET's string table. */
static int
load_both(const cli_args *o, kv_model **src, kv_model **tgt)
{
	kv_limits lim;
	kv_err err = {0};

	*src = *tgt = NULL;
	cli_progress_init(o->quiet);
	cli_progress("load: reading TARGET");
	if (kv_limits_init(&lim, &err) != KV_OK)
		goto fail;
	lim.strict = cli_load_strict;
	if (kv_model_load(o->pos[1], &lim, tgt, &err) != KV_OK)
		goto fail;
	cli_progress("load: reading SOURCE");
	if (kv_model_load_shared(o->pos[0], &lim, (*tgt)->strs, src,
	    &err) != KV_OK)
		goto fail;
	(*src)->assume = (*tgt)->assume = cli_assumed();
	return 0;
fail:
	cli_progress_end();
	fprintf(stderr, "kvscope: %s\n", err.msg);
	kv_model_free(*src);
	kv_model_free(*tgt);
	*src = *tgt = NULL;
	return EXIT_TOOL;
}

static int
show(const kv_cross *x, const kv_term *t)
{
	kv_err err = {0};
	int rc = KV_OK;

	if (t->fmt == KV_OUT_JSON || t->fmt == KV_OUT_YAML) {
		json_t *doc = kv_json_cross(x);

		rc = kv_doc_write(doc, t->fmt, t->f, &err);
		json_decref(doc);
	} else
		rc = kv_view_cross(x, t, &err);
	if (rc != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		return EXIT_TOOL;
	}
	return 0;
}

/* --figure FILE: the CPU figure, written under a temporary name and
 * renamed (cli_export). */
static int
cross_svg(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	(void)a;
	return kv_write_cross_svg(arg, f, err);
}

static int
status(const kv_cross *x, const cli_args *o)
{
	if (o->live)
		return x->counts[XA_LIVE] < x->nvms ? EXIT_FINDINGS : 0;
	return x->counts[XA_NO] > 0 ? EXIT_FINDINGS : 0;
}

int
cmd_crosscheck(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	kv_model *src, *tgt;
	kv_cross *x = NULL;
	kv_cross_opts co = {0};
	kv_whatif w = {0};
	kv_term t;
	kv_err err = {0};
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	if (o.live && o.cold) {
		cli_args_free(&o);
		return cli_fail(cmd, "--live and --cold contradict each "
		    "other: give one, or neither for both");
	}
	cli_term(&o, &t);
	if ((rc = load_both(&o, &src, &tgt)) != 0)
		goto out;
	co = (kv_cross_opts){ o.namespaces.n, o.namespaces.v,
	    o.selectors.n ? &o.sel : NULL, o.vmi, o.live, o.cold,
	    o.scmap.n, o.netmap.n, o.scmap.v, o.netmap.v };
	if ((rc = change_target(cmd, &o, tgt, &w)) != 0) {
		kv_model_free(src);
		kv_model_free(tgt);
		goto out;
	}
	cli_progress("crosscheck: %zu VMIs of SOURCE against %zu nodes",
	    src->nvmis, tgt->nnodes);
	if (kv_cross_run(src, tgt, o.pos[0], o.pos[1], &co, &x, &err) !=
	    KV_OK) {
		rc = cli_error(cmd, "%s", err.msg);
		goto out;
	}
	x->changes = w.notes;
	x->nchanges = w.nnotes;
	w.notes = NULL;
	w.nnotes = 0;
	cli_progress_end();
	if (x->same_cluster != NULL)
		fprintf(stderr, "kvscope: warning: crosscheck: %s: the "
		    "answers are those of a move within it\n",
		    x->same_cluster);
	rc = show(x, &t);
	if (rc == 0 && o.figure != NULL) {
		cli_args fo = o;

		fo.outfile = o.figure;
		rc = cli_export(&fo, cross_svg, x->a, x);
	}
	if (rc == 0)
		rc = status(x, &o);
out:
	cli_progress_end();
	kv_whatif_free(&w);
	kv_cross_free(x);
	cli_args_free(&o);
	return rc;
}
