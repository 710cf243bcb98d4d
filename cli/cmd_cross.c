/*
 * cmd_cross.c - `kvscope crosscheck SOURCE TARGET`: arguments in, the two
 * snapshots loaded with one string table (TARGET's), the cross-check of
 * analyze/crosscheck/ run, its text or document out (render/cross.h).
 *
 * With --report DIR also the report (report.html, report.pdf, the
 * CPU figure, crosscheck.json: render/cross.h), all or nothing, before
 * the answer.  Exit 1 when a VM answers no (with --live: any answer but
 * live), else 0; 2 on a usage or input error.  SOURCE and TARGET of one
 * cluster are a warning line, not an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/whatif.h"
#include "analyze/crosscheck/crosscheck.h"
#include "analyze/read/limits.h"
#include "cli/cli.h"
#include "render/cross.h"
#include "render/render.h"

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

/* --report DIR: the files of --format (default all): report.html,
 * report.pdf, crosscheck-cpu.svg, crosscheck.json. */
enum { RF_HTML = 1, RF_PDF = 2, RF_SVG = 4, RF_JSON = 8, RF_ALL = 15 };

static int
report_formats(const kv_cmd *cmd, const cli_args *o, unsigned *f)
{
	static const char *const names[] = { "html", "pdf", "svg", "json" };

	*f = o->formats.n == 0 ? RF_ALL : 0;
	for (size_t i = 0; i < o->formats.n; i++) {
		const char *v = o->formats.v[i];

		if (strcmp(v, "all") == 0)
			*f |= RF_ALL;
		else if (strcmp(v, "csv") == 0)
			return cli_fail(cmd, "--format csv: crosscheck's "
			    "report has no CSV table (html, pdf, svg, json)");
		for (unsigned k = 0; k < 4; k++)
			if (strcmp(v, names[k]) == 0)
				*f |= 1u << k;
	}
	return 0;
}

/* --format and --force go with --report; its folder is checked before
 * anything is loaded. */
static int
report_usage(const kv_cmd *cmd, const cli_args *o, bool *ours)
{
	unsigned f;

	*ours = false;
	if (o->pdf_all)
		return cli_fail(cmd, "--pdf-detail: not for crosscheck");
	if (o->report == NULL) {
		if (o->formats.n > 0 || o->force)
			return cli_fail(cmd, "--format and --force go with "
			    "--report DIR");
		return 0;
	}
	if (report_formats(cmd, o, &f) != 0)
		return EXIT_TOOL;
	return cli_outdir_prepare(cmd, o->report, o->force, ours);
}

static int
stage_report(kv_output *out, unsigned f, const kv_cross *x, kv_err *err)
{
	static const struct {
		unsigned bit;
		const char *name;
		kv_writer_fn fn;
	} files[] = {
		{ RF_JSON, "crosscheck.json", kv_write_cross_json },
		{ RF_HTML, "report.html", kv_write_cross_html },
		{ RF_PDF, "report.pdf", kv_write_cross_pdf },
		{ RF_SVG, "crosscheck-cpu.svg", cross_svg },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!(f & files[i].bit))
			continue;
		cli_progress("write: %s", files[i].name);
		if (kv_output_stage(out, files[i].name, files[i].fn, x->a,
		    (void *)x, err) != KV_OK)
			return KV_ERR;
	}
	return KV_OK;
}

/* The report into o->report, all or nothing (written under temporary
 * names, renamed when every file is whole); the paths into *written. */
static int
write_report(const kv_cmd *cmd, const cli_args *o, bool ours,
    const kv_cross *x, cli_list *written)
{
	kv_output out;
	kv_err err = {0};
	char *made = NULL;
	unsigned f;
	int rc;

	memset(written, 0, sizeof(*written));
	report_formats(cmd, o, &f);
	if ((rc = cli_outdir_create(cmd, o->report, &made)) != 0)
		return rc;
	kv_output_init(&out, o->report);
	if (stage_report(&out, f, x, &err) != KV_OK) {
		kv_output_abort(&out);
		goto fail;
	}
	written->v = xcalloc(out.n + 1, sizeof(char *));
	for (size_t i = 0; i < out.n; i++)
		written->v[written->n++] = xstrdup(out.dst[i]);
	if (kv_output_commit(&out, &err) != KV_OK)
		goto fail;
	if (ours)
		cli_outdir_sweep(o->report, written->v, written->n);
	free(made);
	return 0;
fail:
	cli_outdir_unmake(o->report, &made);
	free(made);
	fprintf(stderr, "kvscope: %s\n", err.msg);
	cli_list_free(written);
	return EXIT_TOOL;
}

/* The files --report wrote, after a text answer (json and yaml keep
 * stdout one document). */
static void
list_files(const kv_term *t, const cli_list *files)
{
	if (t->fmt != KV_OUT_TEXT && t->fmt != KV_OUT_WIDE)
		return;
	for (size_t i = 0; i < files->n; i++) {
		fputs("report: ", t->f);
		kv_term_puts(t->f, files->v[i]);
		fputc('\n', t->f);
	}
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
	cli_list files = { 0, NULL };
	bool ours = false;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	if (o.live && o.cold) {
		cli_args_free(&o);
		return cli_fail(cmd, "--live and --cold contradict each "
		    "other: give one, or neither for both");
	}
	if ((rc = report_usage(cmd, &o, &ours)) != 0) {
		cli_args_free(&o);
		return rc;
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
	if (o.report != NULL &&
	    (rc = write_report(cmd, &o, ours, x, &files)) != 0)
		goto out;
	rc = show(x, &t);
	if (rc == 0)
		list_files(&t, &files);
	if (rc == 0 && o.figure != NULL) {
		cli_args fo = o;

		fo.outfile = o.figure;
		rc = cli_export(&fo, cross_svg, x->a, x);
	}
	if (rc == 0)
		rc = status(x, &o);
out:
	cli_progress_end();
	cli_list_free(&files);
	kv_whatif_free(&w);
	kv_cross_free(x);
	cli_args_free(&o);
	return rc;
}
