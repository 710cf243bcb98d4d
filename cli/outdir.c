/*
 * outdir.c - the folder `report` writes into (cli.h): created with its
 * parents; a non-empty folder must hold a kvscope report (only files a
 * report writes: report.html, report.pdf, findings.json, *.svg, the CSV
 * files, diff.json of what-if and diff --report, crosscheck.json of
 * crosscheck --report) unless
 * --force; after the commit the older report's files that this run did
 * not write are removed, so no stray file of an older run is left.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "render/render.h"

/* A file name a kvscope report writes. */
static bool
report_file(const char *name)
{
	size_t n = strlen(name);

	return strcmp(name, "report.html") == 0 ||
	    strcmp(name, "report.pdf") == 0 ||
	    strcmp(name, "findings.json") == 0 ||
	    strcmp(name, "diff.json") == 0 ||		/* what-if, diff */
	    strcmp(name, "crosscheck.json") == 0 ||	/* crosscheck */
	    strcmp(name, "vmis.csv") == 0 || strcmp(name, "drain.csv") == 0 ||
	    (n > 4 && name[0] != '.' && strcmp(name + n - 4, ".svg") == 0);
}

/* dir and its parents; *made = the first folder this call created
 * (the top of what it made), or NULL. */
static int
mkdir_p(const kv_cmd *cmd, const char *dir, char **made)
{
	char *p = xstrdup(dir);
	int rc = 0;

	*made = NULL;
	for (char *s = p + 1; rc == 0; s++) {
		bool end = *s == '\0';

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(p, 0755) == 0) {
			if (*made == NULL)
				*made = xstrdup(p);
		} else if (errno != EEXIST)
			rc = cli_error(cmd, "%s: cannot create: %s", p,
			    strerror(errno));
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return rc;
}

int
cli_outdir_prepare(const kv_cmd *cmd, const char *dir, bool force,
    bool *ours)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	const char *foreign = NULL;

	*ours = true;
	if (stat(dir, &st) != 0 && errno == ENOENT)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return cli_error(cmd, "%s: not a directory", dir);
	if ((d = opendir(dir)) == NULL)
		return cli_error(cmd, "%s: %s", dir, strerror(errno));
	while (foreign == NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0 && !report_file(e->d_name))
			foreign = e->d_name;
	if (foreign != NULL && !force) {
		cli_error(cmd, "%s: not empty and not a kvscope report (it "
		    "holds \"%s\"); use --force to write into it", dir,
		    foreign);
		closedir(d);
		return EXIT_TOOL;
	}
	closedir(d);
	*ours = foreign == NULL;
	return 0;
}

int
cli_outdir_create(const kv_cmd *cmd, const char *dir, char **made)
{
	struct stat st;

	if (mkdir_p(cmd, dir, made) != 0) {
		cli_outdir_unmake(dir, made);
		return EXIT_TOOL;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cli_outdir_unmake(dir, made);
		return cli_error(cmd, "%s: not a directory", dir);
	}
	return 0;
}

void
cli_outdir_unmake(const char *dir, char **made)
{
	char *p;
	size_t top;

	if (*made == NULL)
		return;
	p = xstrdup(dir);
	top = strlen(*made);
	/* dir, then each parent up to the first made: rmdir(2) removes
	 * only empty folders, so nothing but what we made goes */
	while (strlen(p) >= top && rmdir(p) == 0) {
		char *slash = strrchr(p, '/');

		if (slash == NULL || strlen(p) == top)
			break;
		*slash = '\0';
	}
	free(p);
	free(*made);
	*made = NULL;
}

static bool
written_now(const char *name, char *const *written, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(written[i], '/');

		if (strcmp(base ? base + 1 : written[i], name) == 0)
			return true;
	}
	return false;
}

void
cli_outdir_sweep(const char *dir, char *const *written, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char *path;

		if (!report_file(e->d_name) || written_now(e->d_name, written,
		    n))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		unlink(path);
		free(path);
	}
	closedir(d);
}

static char *
member_string(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? xstrdup(v) : NULL;
}

/* findings.json writes one top-level key per line and "snapshot" among
 * the first (render/json/findings.c), so the rest of a large file is
 * never read. */
bool
cli_outdir_previous(const char *dir, char **context, char **created)
{
	char *path = xasprintf("%s/findings.json", dir), *line = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	ssize_t n;
	bool found = false;

	*context = *created = NULL;
	free(path);
	if (f == NULL)
		return false;
	for (int i = 0; i < 16 && !found &&
	    (n = getline(&line, &cap, f)) > 0; i++) {
		json_t *o;

		if (strncmp(line, "\"snapshot\": ", 12) != 0)
			continue;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ','))
			line[--n] = '\0';
		if ((o = json_loads(line + 12, 0, NULL)) == NULL)
			break;
		*context = member_string(o, "context");
		*created = member_string(o, "createdAt");
		json_decref(o);
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}
