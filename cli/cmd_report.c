/*
 * cmd_report.c - `kvscope report`: every output format, all or nothing,
 * then the files written, one per line on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render.h"

/* csv is not part of all: it is asked for by name */
enum { F_HTML = 1, F_SVG = 2, F_PDF = 4, F_JSON = 8, F_ALL = 15,
	F_CSV = 16 };

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

/* pdf_all: --pdf-detail all (kv_write_pdf's argument) */
static int
stage_all(kv_output *out, unsigned f, const kv_analysis *a, bool pdf_all,
    kv_err *err)
{
	if ((f & F_JSON) && stage(out, "findings.json", kv_write_findings,
	    a, err) != KV_OK)
		return KV_ERR;
	if ((f & F_HTML) && stage(out, "report.html", kv_write_html, a,
	    err) != KV_OK)
		return KV_ERR;
	if ((f & F_PDF) && stage_arg(out, "report.pdf", kv_write_pdf, a,
	    &pdf_all, err) != KV_OK)
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

int
cmd_report(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	const char *dir;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_output out;
	kv_err err = {0};
	char **names = NULL;
	size_t n = 0;
	bool ours = false;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	dir = o.output ? o.output : "kvscope-report";
	if ((rc = cli_outdir_prepare(cmd, dir, o.force, &ours)) != 0 ||
	    (rc = cli_load(o.pos[0], o.quiet, &m, &a)) != 0 ||
	    (rc = cli_outdir_create(cmd, dir)) != 0)
		goto out;
	kv_output_init(&out, dir);
	if (stage_all(&out, formats(&o), a, o.pdf_all, &err) != KV_OK) {
		kv_output_abort(&out);
		goto fail;
	}
	kv_timing("write");
	n = out.n;
	names = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		names[i] = xstrdup(out.dst[i]);
	if (kv_output_commit(&out, &err) != KV_OK)
		goto fail;
	cli_progress_end();
	if (ours)
		cli_outdir_sweep(dir, names, n);
	for (size_t i = 0; i < n; i++)
		puts(names[i]);
	goto out;
fail:
	cli_progress_end();
	fprintf(stderr, "kvscope: %s\n", err.msg);
	rc = EXIT_TOOL;
out:
	cli_progress_end();
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	cli_args_free(&o);
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
