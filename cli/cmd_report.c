/*
 * cmd_report.c - `kvscope report`: every output format, all or nothing,
 * then one line with the answer and the report to open ("cluster X, 11
 * running VMIs, 4 would not migrate: DIR/report.html") and the other
 * files written, one per line on stdout; and the same writing
 * for what-if and diff --report (cli_report_write).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "render/render.h"
#include "render/report.h"

/* all (the default) is every format, the CSV tables the PDF points to
 * included */
enum { F_HTML = 1, F_SVG = 2, F_PDF = 4, F_JSON = 8, F_CSV = 16,
	F_ALL = 31 };

static unsigned
formats(const cli_args *o)
{
	static const char *const names[] = { "html", "svg", "pdf", "json",
		"csv" };
	unsigned f = 0;

	if (o->formats.n == 0)
		return F_ALL;
	for (size_t i = 0; i < o->formats.n; i++) {
		if (strcmp(o->formats.v[i], "all") == 0)
			f |= F_ALL;
		for (unsigned k = 0; k < 5; k++)
			if (strcmp(o->formats.v[i], names[k]) == 0)
				f |= 1u << k;
	}
	return f;
}

/* Stage one file, with progress: "write: NAME (0.3 s)". */
static int
stage_arg(kv_output *out, const char *name, kv_writer_fn fn,
    const kv_analysis *a, void *arg, kv_err *err)
{
	int rc;

	cli_progress("write: %s", name);
	rc = kv_output_stage(out, name, fn, a, arg, err);
	cli_progress("write: %s (%.1f s)", name, cli_lap());
	return rc;
}

static int
stage(kv_output *out, const char *name, kv_writer_fn fn,
    const kv_analysis *a, kv_err *err)
{
	return stage_arg(out, name, fn, a, NULL, err);
}

static int stage_rest(kv_output *out, unsigned f, const kv_analysis *a,
    const kv_report_opts *ro, kv_err *err);

/* The files of the formats f; with a diff (what-if, diff) also
 * diff.json and the Changes section in the HTML and the PDF.  The PDF,
 * the slowest by far, is typeset on a thread of its own while the
 * others are written. */
static int
stage_all(kv_output *out, unsigned f, const kv_analysis *a,
    const kv_report_opts *ro, kv_err *err)
{
	if (f & F_PDF) {
		cli_progress("write: report.pdf (beside the others)");
		if (kv_output_stage_bg(out, "report.pdf", kv_write_pdf, a,
		    (void *)ro, err) != KV_OK)
			return KV_ERR;
	}
	if (stage_rest(out, f, a, ro, err) != KV_OK)
		return KV_ERR;
	if (f & F_PDF) {
		cli_progress("write: report.pdf");
		if (kv_output_join(out, err) != KV_OK)
			return KV_ERR;
		cli_progress("write: report.pdf (%.1f s after the others)",
		    cli_lap());
	}
	return KV_OK;
}

/* Everything but the PDF. */
static int
stage_rest(kv_output *out, unsigned f, const kv_analysis *a,
    const kv_report_opts *ro, kv_err *err)
{
	if (ro->diff != NULL && stage_arg(out, "diff.json",
	    kv_write_diff_json, a, (void *)ro->diff, err) != KV_OK)
		return KV_ERR;
	if ((f & F_JSON) && stage(out, "findings.json", kv_write_findings,
	    a, err) != KV_OK)
		return KV_ERR;
	if ((f & F_HTML) && stage_arg(out, "report.html", kv_write_html, a,
	    (void *)ro, err) != KV_OK)
		return KV_ERR;
	if (f & F_SVG) {
		cli_progress("write: SVG figures");
		if (kv_stage_svgs(out, a, err) != KV_OK)
			return KV_ERR;
		cli_progress("write: SVG figures (%.1f s)", cli_lap());
	}
	if ((f & F_CSV) && (stage(out, "vmis.csv", kv_write_vmis_csv, a,
	    err) != KV_OK || stage(out, "drain.csv", kv_write_drain_csv, a,
	    err) != KV_OK))
		return KV_ERR;
	return KV_OK;
}

/* The order files are listed in, whatever order they were written in:
 * diff.json, findings.json, the HTML, the PDF, then the figures and the
 * tables as they came. */
static int
listing_rank(const char *path)
{
	static const char *const first[] = { "/diff.json", "/findings.json",
		"/report.html", "/report.pdf" };
	size_t n = strlen(path);

	for (int i = 0; i < 4; i++)
		if (n >= strlen(first[i]) &&
		    strcmp(path + n - strlen(first[i]), first[i]) == 0)
			return i;
	return 4;
}

static void
in_listing_order(cli_list *l)
{
	for (size_t i = 1; i < l->n; i++)	/* stable: insertion */
		for (size_t j = i; j > 0 && listing_rank(l->v[j - 1]) >
		    listing_rank(l->v[j]); j--) {
			char *t = l->v[j];

			l->v[j] = l->v[j - 1];
			l->v[j - 1] = t;
		}
}

int
cli_report_write(const cli_args *o, const char *dir, bool ours,
    const kv_analysis *a, const kv_report_diff *diff, cli_list *written)
{
	kv_report_opts ro = { .pdf_all = o->pdf_all, .diff = diff };
	kv_output out;
	kv_err err = {0};

	memset(written, 0, sizeof(*written));
	kv_output_init(&out, dir);
	if (stage_all(&out, formats(o), a, &ro, &err) != KV_OK) {
		kv_output_abort(&out);
		goto fail;
	}
	kv_timing("write");
	written->n = out.n;
	written->v = xcalloc(out.n + 1, sizeof(char *));
	for (size_t i = 0; i < out.n; i++)
		written->v[i] = xstrdup(out.dst[i]);
	in_listing_order(written);
	if (kv_output_commit(&out, &err) != KV_OK)
		goto fail;
	cli_progress_end();
	if (ours)
		cli_outdir_sweep(dir, written->v, written->n);
	return 0;
fail:
	cli_progress_end();
	fprintf(stderr, "kvscope: %s\n", err.msg);
	cli_list_free(written);
	return EXIT_TOOL;
}

static bool
same_str(const char *x, const char *y)
{
	return x == NULL ? y == NULL : y != NULL && strcmp(x, y) == 0;
}

/* The one line: the answer and the file to open (the HTML, else the
 * first written), then the other files, one per line; a report of
 * another cluster this one replaced is a note on stderr. */
static void
tell(const kv_cmd *cmd, const char *dir, const kv_analysis *a,
    const cli_list *names, bool had, const char *prev, const char *pdate)
{
	char *line = prose_oneline(a);
	size_t main = 0;
	const char *ctx = a->m->manifest.context;

	for (size_t i = 0; i < names->n; i++)
		if (listing_rank(names->v[i]) == 2)	/* report.html */
			main = i;
	/* the cluster's name and the old report's words come from
	 * snapshots: through kv_term_puts, as every view prints them */
	if (names->n > 0) {
		kv_term_puts(stdout, line);
		printf(": %s\n", names->v[main]);
	}
	for (size_t i = 0; i < names->n; i++)
		if (i != main)
			puts(names->v[i]);
	free(line);
	if (!had || same_str(prev, ctx))
		return;
	fflush(stdout);
	fprintf(stderr, "kvscope: %s: note: %s: replaced the report of "
	    "cluster ", cmd->name, dir);
	kv_term_puts(stderr, prev != NULL ? prev : "(unnamed)");
	fputs(" (snapshot taken ", stderr);
	kv_term_puts(stderr, pdate != NULL ? pdate : "at an unknown time");
	fputs(")\n", stderr);
}

int
cmd_report(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	const char *dir;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	cli_list names = { 0, NULL };
	bool ours = false;
	char *made = NULL, *prev = NULL, *pdate = NULL;
	bool had;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	dir = o.outdir ? o.outdir : "kvscope-report";
	if ((rc = cli_outdir_prepare(cmd, dir, o.force, &ours)) != 0)
		goto out;
	had = ours && cli_outdir_previous(dir, &prev, &pdate);
	if ((rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0 ||
	    (rc = cli_outdir_create(cmd, dir, &made)) != 0)
		goto out;
	if ((rc = cli_report_write(&o, dir, ours, a, NULL, &names)) != 0) {
		cli_outdir_unmake(dir, &made);
		goto out;
	}
	tell(cmd, dir, a, &names, had, prev, pdate);
out:
	free(prev);
	free(pdate);
	free(made);
	cli_progress_end();
	cli_list_free(&names);
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
