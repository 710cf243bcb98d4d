/*
 * csv.c - the CSV exports (render.h): vmis.csv, one row per VMI, and
 * drain.csv, one row per VMI of every node of the drain plan.
 *
 * RFC 4180: a header row, comma-separated fields, CRLF line ends, a field
 * quoted (with "" for a quote) when it holds a comma, a quote, CR or LF;
 * UTF-8 without a byte-order mark.  A cell that a spreadsheet would take
 * for a formula (one starting with = + - @, a tab or CR) gets a leading
 * apostrophe ('), which spreadsheets hide and which keeps the text a
 * text; such a cell can only come from a snapshot string, never from a
 * number kvscope writes.  Lists in a cell (the codes of the blockers and
 * warnings) are joined with "; ".  Rows follow findings.json's order;
 * onDrain is empty where findings.json has null (a VMI not running).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "report.h"

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
		"name", "namespace", "node", "verdict", "blockers", "warnings",
		"groups", "fix", "onDrain", "targets",
	};

	(void)arg;
	csv_row(f, head, 10);
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];
		char *blk = codes(r->blockers, r->nblockers);
		char *warn = codes(r->warnings, r->nwarnings);
		char *nt = xasprintf("%zu", r->ntargets);
		/* groups and fix: columns kept for the groups of findings
		 * version 2, empty until then */
		const char *v[] = {
			r->vmi->name, r->vmi->ns, r->vmi->node,
			kv_verdict_names[r->verdict], blk, warn, "", "",
			kv_on_drain_names[r->on_drain], nt,
		};

		csv_row(f, v, 10);
		free(blk);
		free(warn);
		free(nt);
	}
	return csv_done(f, "vmis.csv", err);
}

/* Why a VMI does not simply migrate on a drain: its blockers' codes, or
 * the eviction strategy that stops it or leaves it to a controller. */
static char *
drain_reason(const kv_vmires *r)
{
	if (r->on_drain == DRAIN_MIGRATE)
		return xstrdup("");
	if (r->nblockers > 0)
		return codes(r->blockers, r->nblockers);
	return xasprintf("evictionStrategy %s", r->eviction ? r->eviction :
	    "(none)");
}

/* The first k of order[0..n) whose VMI runs on node (order is sorted by
 * node name, VMIs without a node last); n when none. */
static size_t
first_on(const kv_analysis *a, const size_t *order, size_t n,
    const char *node)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *m = a->vmis[order[mid]].vmi->node;

		if (m != NULL && strcmp(m, node) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
kv_write_drain_csv(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	static const char *const head[] = {
		"node", "vmi", "action", "targets", "reason",
	};
	size_t *order = vmis_by_node(a);

	(void)arg;
	csv_row(f, head, 5);
	for (size_t d = 0; d < a->ndrain; d++) {
		const char *node = a->m->nodes[a->drain[d].node].name;

		for (size_t k = first_on(a, order, a->nvmis, node);
		    k < a->nvmis; k++) {
			const kv_vmires *r = &a->vmis[order[k]];
			char *nt, *why;

			if (r->vmi->node == NULL ||
			    strcmp(r->vmi->node, node) != 0)
				break;
			nt = xasprintf("%zu", r->ntargets);
			why = drain_reason(r);
			csv_row(f, (const char *const[]){ node,
			    r->vmi->fullname, kv_on_drain_names[r->on_drain],
			    nt, why }, 5);
			free(nt);
			free(why);
		}
	}
	free(order);
	return csv_done(f, "drain.csv", err);
}
