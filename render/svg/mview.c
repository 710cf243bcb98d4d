/*
 * mview.c - the class-matrix view (report.h): two axes of classes (every
 * class on both, or a set of rows and one of columns) as matrix
 * entries, aggregating an axis's classes from KV_MATRIX_MAX - 1 on into
 * one entry, with the cell states, labels and titles the HTML, SVG and PDF
 * matrices draw.
 *
 * Every function reads the analysis only; returned strings are the
 * caller's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/report.h"
/* --- the class matrix view ------------------------------------------------ */

static void
axis_init(kv_maxis *ax, const size_t *cls, size_t n)
{
	ax->cls = cls;
	ax->ncls = n;
	ax->aggregated = n > KV_MATRIX_MAX;
	ax->n = ax->aggregated ? KV_MATRIX_MAX : n;
}

void
mview_init(kv_mview *v, const kv_analysis *a)
{
	mview_init_sets(v, NULL, a->nclasses, NULL, a->nclasses, NULL);
}

void
mview_init_sets(kv_mview *v, const size_t *rows, size_t nrows,
    const size_t *cols, size_t ncols, const char *title)
{
	axis_init(&v->row, rows, nrows);
	axis_init(&v->col, cols, ncols);
	v->aggregated = v->row.aggregated || v->col.aggregated;
	v->title = title;
}

void
mview_range(const kv_maxis *ax, size_t i, size_t *first, size_t *last)
{
	*first = i;
	*last = ax->aggregated && i == ax->n - 1 ? ax->ncls : i + 1;
}

size_t
mview_class(const kv_maxis *ax, size_t k)
{
	return ax->cls != NULL ? ax->cls[k] : k;
}

void
mview_cell(const kv_mview *v, const kv_analysis *a, size_t i, size_t j,
    bool *ok, size_t *missing, size_t *nfail, size_t *npairs,
    const kv_pair **pair)
{
	size_t s0, s1, t0, t1;

	mview_range(&v->row, i, &s0, &s1);
	mview_range(&v->col, j, &t0, &t1);
	*ok = true;
	*missing = *nfail = *npairs = 0;
	*pair = NULL;
	for (size_t s = s0; s < s1; s++)
		for (size_t t = t0; t < t1; t++) {
			const kv_pair *p = &a->pairs[mview_class(&v->row, s) *
			    a->nclasses + mview_class(&v->col, t)];

			(*npairs)++;
			*pair = p;
			if (p->ok)
				continue;
			*ok = false;
			(*nfail)++;
			if (p->nmissing > *missing)
				*missing = p->nmissing;
		}
	if (*npairs != 1)
		*pair = NULL;
}

char *
mview_label(const kv_maxis *ax, const kv_analysis *a, size_t i)
{
	size_t first, last;
	const kv_class *c, *z;

	mview_range(ax, i, &first, &last);
	c = &a->classes[mview_class(ax, first)];
	if (last - first == 1)
		return xasprintf("%s %s", c->id, c->host_model ?
		    c->host_model : "(no host model)");
	z = &a->classes[mview_class(ax, last - 1)];
	return xasprintf("%s\u2013%s (%zu classes)", c->id, z->id,
	    last - first);
}

char *
mview_cell_title(const kv_mview *v, const kv_analysis *a, size_t i, size_t j)
{
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs, s0, s1, t0, t1;
	char *from, *to, *list, *s;

	mview_cell(v, a, i, j, &ok, &missing, &nfail, &npairs, &p);
	mview_range(&v->row, i, &s0, &s1);
	mview_range(&v->col, j, &t0, &t1);
	from = s1 - s0 == 1 ? xstrdup(a->classes[mview_class(&v->row,
	    s0)].id) : mview_label(&v->row, a, i);
	to = t1 - t0 == 1 ? xstrdup(a->classes[mview_class(&v->col,
	    t0)].id) : mview_label(&v->col, a, j);
	if (p == NULL)
		s = xasprintf("%s \u2192 %s: %zu of %zu class pairs fail, at "
		    "worst %zu missing %s", from, to, nfail, npairs, missing,
		    plural(missing, "label", "labels"));
	else if (p->ok)
		s = xasprintf("%s \u2192 %s: ok", from, to);
	else if (p->nmissing == 0)
		s = xasprintf("%s \u2192 %s: the source class has no "
		    "host-model CPU", from, to);
	else {
		char *why = p->src == p->tgt ? prose_self_refused(a, p) :
		    NULL;

		list = str_list(p->missing, p->nmissing, p->nmissing);
		s = xasprintf("%s \u2192 %s: missing %zu %s: %s%s%s", from, to,
		    p->nmissing, plural(p->nmissing, "label", "labels"), list,
		    why ? "; " : "", why ? why : "");
		free(list);
		free(why);
	}
	free(from);
	free(to);
	return s;
}
