/*
 * cmd_report.c - `kvscope report`: every output format, all or nothing.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "render.h"

enum { F_HTML = 1, F_SVG = 2, F_PDF = 4, F_JSON = 8, F_ALL = 15,
	F_CSV = 16 };

static int
parse_formats(const char *s, unsigned *out)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int rc = 0;

	*out = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "html") == 0)
			*out |= F_HTML;
		else if (strcmp(tok, "svg") == 0)
			*out |= F_SVG;
		else if (strcmp(tok, "pdf") == 0)
			*out |= F_PDF;
		else if (strcmp(tok, "json") == 0)
			*out |= F_JSON;
		else if (strcmp(tok, "csv") == 0)
			*out |= F_CSV;
		else if (strcmp(tok, "all") == 0)
			*out |= F_ALL;
		else {
			fprintf(stderr, "kvscope: --format: unknown format "
			    "\"");
			kv_term_puts(stderr, tok);
			fprintf(stderr, "\" (html, svg, pdf, json, csv, all)\n");
			rc = -1;
		}
	}
	free(copy);
	if (rc == 0 && *out == 0) {
		fprintf(stderr, "kvscope: --format: no format given\n");
		rc = -1;
	}
	return rc;
}

int
cmd_report(const kv_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = "kvscope-report";
	unsigned formats = F_ALL;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_output out;
	kv_err err = {0};
	struct stat st;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:", opts, NULL)) != -1) {
		if (c == 'f') {
			if (parse_formats(optarg, &formats) != 0)
				return cli_usage(cmd);
		} else if (c == 'o')
			dir = optarg;
		else
			return cli_usage(cmd);
	}
	if (argc - optind != 1)
		return cli_usage(cmd);
	if ((rc = cli_load(argv[optind], &m, &a)) != 0)
		return rc;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "kvscope: %s: cannot create: %s\n", dir,
		    strerror(errno));
		rc = EXIT_TOOL;
		goto out;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "kvscope: %s: not a directory\n", dir);
		rc = EXIT_TOOL;
		goto out;
	}
	kv_output_init(&out, dir);
	if (((formats & F_JSON) && kv_output_stage(&out, "findings.json",
	    kv_write_findings, a, NULL, &err) != KV_OK) ||
	    ((formats & F_HTML) && kv_output_stage(&out, "report.html",
	    kv_write_html, a, NULL, &err) != KV_OK) ||
	    ((formats & F_PDF) && kv_output_stage(&out, "report.pdf",
	    kv_write_pdf, a, NULL, &err) != KV_OK) ||
	    ((formats & F_SVG) && kv_stage_svgs(&out, a, &err) != KV_OK) ||
	    ((formats & F_CSV) && (kv_output_stage(&out, "vmis.csv",
	    kv_write_vmis_csv, a, NULL, &err) != KV_OK ||
	    kv_output_stage(&out, "drain.csv", kv_write_drain_csv, a, NULL,
	    &err) != KV_OK))) {
		kv_output_abort(&out);
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
		goto out;
	}
	kv_timing("write");
	if (kv_output_commit(&out, &err) != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		rc = EXIT_TOOL;
	}
out:
	kv_analysis_free(a);
	kv_model_free(m);
	return rc;
}
