/*
 * cmd_fleet.c - `kvscope fleet SNAP...|DIR...`: many snapshots of many
 * clusters, read one at a time (each analysed, summarised into the
 * fleet index, freed), then the index as fleet.json, fleet.html and
 * history.html (docs/fleet.md), a text table, or -o prom.
 *
 * Exit 2 when no input could be read; 1 when a cluster's newest
 * snapshot has a VMI that would not migrate; else 0.  An input that
 * cannot be read is a row of the index ("unreadable: REASON") and a
 * warning line, not an error.
 */
#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/change/fixproof.h"
#include "analyze/fleet/fleet.h"
#include "analyze/read/limits.h"
#include "cli/cli.h"
#include "render/fleet.h"

#define FLEET_DIR "kvscope-fleet"

static void
list_add(cli_list *l, char *s)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof(char *));
	l->v[l->n++] = s;
}

/* Whether path/name is a snapshot of a folder of them: an archive, or a
 * folder with a manifest.json. */
static bool
snapshot_entry(const char *dir, const char *name)
{
	static const char *const ext[] = { ".tar.gz", ".tgz", ".tar",
		".zip" };
	char *p = xasprintf("%s/%s/manifest.json", dir, name);
	struct stat st;
	bool yes = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]) && !yes; i++)
		yes = kv_endswith(name, ext[i]);
	return yes && name[0] != '.';
}

/*
 * The snapshots of one argument: a folder without manifest.json that
 * holds archives or snapshot folders is a folder of snapshots (those
 * entries, by name); anything else is one snapshot.
 */
static void
expand(const char *arg, cli_list *out)
{
	struct stat st;
	struct dirent **ents = NULL;
	char *mf = xasprintf("%s/manifest.json", arg);
	bool dir = stat(arg, &st) == 0 && S_ISDIR(st.st_mode);
	size_t before = out->n;
	int n;

	if (!dir || stat(mf, &st) == 0 || (n = scandir(arg, &ents, NULL,
	    alphasort)) < 0) {
		free(mf);
		list_add(out, xstrdup(arg));
		return;
	}
	free(mf);
	for (int i = 0; i < n; i++) {
		if (snapshot_entry(arg, ents[i]->d_name))
			list_add(out, xasprintf("%s%s%s", arg,
			    kv_endswith(arg, "/") ? "" : "/", ents[i]->d_name));
		free(ents[i]);
	}
	free(ents);
	if (out->n == before)
		list_add(out, xstrdup(arg));
}

/* s with every byte but letters, digits, '.', '_' and '-' as '_' (a
 * folder name). */
static char *
slug(const char *s)
{
	char *o = xstrdup(s != NULL && *s ? s : "unknown");

	for (char *p = o; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		    *p == '-'))
			*p = '_';
	if (o[0] == '.')
		o[0] = '_';
	return o;
}

/* --reports: the snapshot's report (HTML and findings.json) into
 * DIR/<cluster>/<date>/; s->report says where, relative to DIR. */
static int
write_report(const kv_cmd *cmd, const cli_args *o, const char *dir,
    const kv_analysis *a, kv_fleet_snap *s)
{
	char *fmts[] = { "html", "json" };
	cli_args ro = *o;
	cli_list written;
	char *c = slug(s->cluster), *d = slug(s->taken_at);
	char *rel = xasprintf("%s/%s", c, d);
	char *full = xasprintf("%s/%s", dir, rel), *made = NULL;
	int rc;

	ro.formats.n = 2;
	ro.formats.v = fmts;
	ro.pdf_all = false;
	if ((rc = cli_outdir_create(cmd, full, &made)) == 0)
		rc = cli_report_write(&ro, full, false, a, NULL, &written);
	if (rc == 0) {
		cli_list_free(&written);
		s->report = rel;
		rel = NULL;
	} else {
		cli_outdir_unmake(full, &made);
	}
	free(made);
	free(rel);
	free(full);
	free(c);
	free(d);
	return rc;
}

/* Read, analyse and summarise one input; the model and analysis are
 * freed before the next.  An input that cannot be read is a row. */
static int
read_one(const kv_cmd *cmd, const cli_args *o, const char *dir,
    const char *path, kv_fleet *fl)
{
	kv_fleet_snap *s = kv_fleet_add(fl, path);
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_limits lim;
	kv_err err = {0};
	int rc = 0;

	cli_progress("fleet: %zu: %s", fl->nsnaps, path);
	if (kv_limits_init(&lim, &err) != KV_OK ||
	    kv_model_load(path, &lim, &m, &err) != KV_OK ||
	    kv_analyze(m, &a, &err) != KV_OK) {
		cli_progress_end();
		kv_fleet_unreadable(s, err.msg);
		fprintf(stderr, "kvscope: warning: unreadable: ");
		kv_term_puts(stderr, err.msg);
		fputs("; its findings are left out of the index, which "
		    "lists it as unreadable\n", stderr);
		kv_model_free(m);
		return 0;
	}
	kv_fleet_summarize(a, s);
	kv_fleet_trim(fl);
	if (o->reports) {
		kv_fix_prove(a);
		rc = write_report(cmd, o, dir, a, s);
	}
	kv_analysis_free(a);
	kv_model_free(m);
#ifdef __GLIBC__
	/* what the snapshot's load and analysis freed goes back to the
	 * system, so that fifty snapshots take about the memory of one
	 * (kept in malloc's arenas, the load threads' ones above all, it
	 * grew ~2 MiB a snapshot of 10,000 VMIs: make bench's fleet row) */
	malloc_trim(0);
#endif
	return rc;
}

/* fleet.json, fleet.html and history.html into dir, all or nothing;
 * their paths on stdout. */
static int
write_index(const kv_cmd *cmd, const char *dir, const kv_fleet *fl)
{
	static const struct {
		const char *name;
		kv_writer_fn fn;
	} files[] = {
		{ "fleet.html", kv_write_fleet_html },
		{ "history.html", kv_write_fleet_history },
		{ "fleet.json", kv_write_fleet_json },
	};
	kv_output out;
	kv_err err = {0};
	char *made = NULL;
	int rc;

	if ((rc = cli_outdir_create(cmd, dir, &made)) != 0)
		return rc;
	kv_output_init(&out, dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (kv_output_stage(&out, files[i].name, files[i].fn, NULL,
		    (void *)fl, &err) != KV_OK) {
			kv_output_abort(&out);
			goto fail;
		}
	for (size_t i = 0; i < out.n; i++)
		printf("%s\n", out.dst[i]);
	if (kv_output_commit(&out, &err) != KV_OK)
		goto fail;
	free(made);
	return 0;
fail:
	fprintf(stderr, "kvscope: %s\n", err.msg);
	cli_outdir_unmake(dir, &made);
	return EXIT_TOOL;
}

/* The index on stdout in o's format. */
static int
show(const cli_args *o, const kv_term *t, kv_fleet *fl)
{
	kv_err err = {0};
	json_t *doc;
	int rc;

	if (t->fmt == KV_OUT_PROM)
		return cli_export(o, kv_write_prom, NULL, fl);
	if (t->fmt == KV_OUT_TEXT) {
		rc = kv_view_fleet(fl, t, &err);
	} else {
		doc = kv_fleet_json(fl);
		rc = kv_doc_write(doc, t->fmt, stdout, &err);
		json_decref(doc);
	}
	if (rc != KV_OK) {
		fprintf(stderr, "kvscope: %s\n", err.msg);
		return EXIT_TOOL;
	}
	return 0;
}

int
cmd_fleet(const kv_cmd *cmd, int argc, char **argv)
{
	cli_args o;
	cli_list in = {0};
	kv_fleet fl;
	kv_term t;
	const char *dir;
	bool files;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &o)) != 0)
		return rc;
	cli_term(&o, &t);
	dir = o.outdir != NULL ? o.outdir : FLEET_DIR;
	files = o.outdir != NULL || t.fmt == KV_OUT_TEXT;
	kv_fleet_init(&fl);
	if (o.reports && !files) {
		rc = cli_fail(cmd, "--reports: with -d DIR");
		goto out;
	}
	for (size_t i = 0; i < o.npos; i++)
		expand(o.pos[i], &in);
	cli_progress_init(o.quiet);
#ifdef __GLIBC__
	/* A snapshot's large arrays (VMIs, pods, the parse batches) get
	 * pages of their own, given back when freed: with the threshold
	 * glibc moves up as they are freed, the next snapshot's arrays
	 * came from a heap the last one left in pieces, and a fleet of
	 * 10,000-VMI snapshots peaked at 82 MB against 67 MB for one
	 * report (now 67 MB, make bench's fleet row, at the same speed). */
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
	for (size_t i = 0; i < in.n && rc == 0; i++)
		rc = read_one(cmd, &o, dir, in.v[i], &fl);
	cli_progress_end();
	if (rc != 0)
		goto out;
	kv_fleet_build(&fl);
	if (fl.nread == 0) {
		rc = cli_error(cmd, "none of the %zu inputs could be read",
		    fl.nsnaps);
		goto out;
	}
	if ((rc = show(&o, &t, &fl)) == 0 && files)
		rc = write_index(cmd, dir, &fl);
	if (rc == 0 && kv_fleet_fails(&fl))
		rc = EXIT_FINDINGS;
out:
	cli_list_free(&in);
	kv_fleet_free(&fl);
	cli_args_free(&o);
	return rc;
}
