/*
 * csv.c - the CSV exports (render.h): vmis.csv, one row per VMI, and
 * drain.csv, one row per drain plan row (findings "drain[].plan").
 * Both name a VMI by two columns, namespace and name, so that the two
 * tables join on them.
 *
 * RFC 4180: a header row, comma-separated fields, CRLF line ends, a field
 * quoted (with "" for a quote) when it holds a comma, a quote, CR or LF;
 * UTF-8 without a byte-order mark.  A cell that a spreadsheet would take
 * for a formula (one starting with = + - @, a tab or CR) gets a leading
 * apostrophe ('), which spreadsheets hide and which keeps the text a
 * text; such a cell can only come from a snapshot string, never from a
 * number kvscope writes.  Lists in a cell (the codes of the blockers and
 * warnings) are joined with "; "; a VMI's group ids with spaces, and
 * its fixes as "G3:set-cpu-model", one per group, with spaces.  Rows
 * follow findings.json's order; a cell is empty where findings.json has
 * null (onDrain of a VMI not running, a plan row's target or reason).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "render/render.h"
#include "render/report.h"

static void
csv_field(FILE *f, const char *s, bool first)
{
	bool formula = strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0';

	if (!first)
		fputc(',', f);
	if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* One row of n fields, CRLF-terminated. */
static void
csv_row(FILE *f, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		csv_field(f, v[i] != NULL ? v[i] : "", i == 0);
	fputs("\r\n", f);
}

/* The codes of n issues, "; "-joined (caller frees). */
static char *
codes(const kv_issue *is, size_t n)
{
	kv_buf b = {0};

	for (size_t i = 0; i < n; i++)
		kv_buf_printf(&b, "%s%s", i ? "; " : "", is[i].rule->code);
	return b.data != NULL ? b.data : xstrdup("");
}

/* The VMI's group ids, and "G3:set-cpu-model ..." (caller frees both). */
static void
groups_fix(const kv_analysis *a, const kv_vmires *r, char **ids, char **fix)
{
	kv_buf g = {0}, f = {0};

	for (size_t k = 0; k < r->ngroups; k++) {
		const kv_group *gr = &a->groups[r->groups[k]];

		kv_buf_printf(&g, "%s%s", k ? " " : "", gr->id);
		kv_buf_printf(&f, "%s%s:%s", k ? " " : "", gr->id,
		    kv_fix_names[gr->fix.action]);
	}
	*ids = g.data != NULL ? g.data : xstrdup("");
	*fix = f.data != NULL ? f.data : xstrdup("");
}

static int
csv_done(FILE *f, const char *name, kv_err *err)
{
	if (ferror(f))
		return kv_seterr(err, "%s: write error", name);
	return KV_OK;
}

int
kv_write_vmis_csv(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	static const char *const head[] = {
		"namespace", "name", "node", "verdict", "blockers", "warnings",
		"groups", "fix", "onDrain", "targets",
	};

	(void)arg;
	csv_row(f, head, 10);
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];
		char *blk = codes(r->blockers, r->nblockers);
		char *warn = codes(r->warnings, r->nwarnings);
		char *nt = xasprintf("%zu", r->ntargets), *ids, *fix;

		groups_fix(a, r, &ids, &fix);
		csv_row(f, (const char *const[]){ r->vmi->ns, r->vmi->name,
		    r->vmi->node, kv_verdict_names[r->verdict], blk, warn, ids,
		    fix, kv_on_drain_names[r->on_drain], nt }, 10);
		free(ids);
		free(fix);
		free(blk);
		free(warn);
		free(nt);
	}
	return csv_done(f, "vmis.csv", err);
}

int
kv_write_drain_csv(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	static const char *const head[] = {
		"node", "namespace", "name", "action", "target", "reason",
	};

	(void)arg;
	csv_row(f, head, 6);
	for (size_t d = 0; d < a->ndrain; d++) {
		const kv_drain *dr = &a->drain[d];

		for (size_t k = 0; k < dr->nplan; k++) {
			const kv_drain_row *r = &dr->plan[k];
			const kv_vmi *v = a->vmis[r->vmi].vmi;

			csv_row(f, (const char *const[]){
			    a->m->nodes[dr->node].name, v->ns, v->name,
			    kv_on_drain_names[r->action],
			    r->target != SIZE_MAX ?
			    a->m->nodes[r->target].name : "",
			    r->reason }, 6);
		}
	}
	return csv_done(f, "drain.csv", err);
}
