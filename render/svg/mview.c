/*
 * mview.c - the class-matrix view (report.h): the classes as matrix
 * entries, aggregating every class from KV_MATRIX_MAX - 1 on into one
 * entry, with the cell states, labels and titles the HTML, SVG and PDF
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

void
mview_init(kv_mview *v, const kv_analysis *a)
{
	v->nclasses = a->nclasses;
	v->aggregated = a->nclasses > KV_MATRIX_MAX;
	v->n = v->aggregated ? KV_MATRIX_MAX : a->nclasses;
}

void
mview_range(const kv_mview *v, size_t i, size_t *first, size_t *last)
{
	*first = i;
	*last = v->aggregated && i == v->n - 1 ? v->nclasses : i + 1;
}

void
mview_cell(const kv_mview *v, const kv_analysis *a, size_t i, size_t j,
    bool *ok, size_t *missing, size_t *nfail, size_t *npairs,
    const kv_pair **pair)
{
	size_t s0, s1, t0, t1;

	mview_range(v, i, &s0, &s1);
	mview_range(v, j, &t0, &t1);
	*ok = true;
	*missing = *nfail = *npairs = 0;
	*pair = NULL;
	for (size_t s = s0; s < s1; s++)
		for (size_t t = t0; t < t1; t++) {
			const kv_pair *p = &a->pairs[s * a->nclasses + t];

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
mview_label(const kv_mview *v, const kv_analysis *a, size_t i)
{
	size_t first, last;

	mview_range(v, i, &first, &last);
	if (last - first == 1)
		return xasprintf("%s %s", a->classes[first].id,
		    a->classes[first].host_model ?
		    a->classes[first].host_model : "(no host model)");
	return xasprintf("%s\u2013%s (%zu classes)", a->classes[first].id,
	    a->classes[last - 1].id, last - first);
}

char *
mview_cell_title(const kv_mview *v, const kv_analysis *a, size_t i, size_t j)
{
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs, s0, s1, t0, t1;
	char *from, *to, *list, *s;

	mview_cell(v, a, i, j, &ok, &missing, &nfail, &npairs, &p);
	mview_range(v, i, &s0, &s1);
	mview_range(v, j, &t0, &t1);
	from = s1 - s0 == 1 ? xstrdup(a->classes[s0].id) :
	    mview_label(v, a, i);
	to = t1 - t0 == 1 ? xstrdup(a->classes[t0].id) : mview_label(v, a, j);
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
