/*
 * cross_fig.c - crosscheck's CPU figure (render/cross.h): the host-model
 * matrix of the report (fig_matrix, figures.c) drawn with SOURCE's CPU
 * classes as rows and TARGET's as columns.  The crossing analysis holds
 * the classes of both clusters' nodes and every pair between them; a
 * shallow copy of it whose classes are ordered SOURCE only, both,
 * TARGET only (and its pairs with them) lets the matrix take the rows
 * and columns as two ranges.  Nothing of the analysis is changed.
 */
#include <stdlib.h>
#include <string.h>

#include "render/cross.h"
#include "render/report.h"

/* 1: a SOURCE node only, 2: both sides, 3: TARGET only. */
static int
side_of(const kv_analysis *a, const kv_class *c)
{
	bool src = false, tgt = false;

	for (size_t k = 0; k < c->nnodes; k++) {
		if (kv_cross_is_source(a->m->nodes[c->nodes[k]].name))
			src = true;
		else
			tgt = true;
	}
	return src && tgt ? 2 : src ? 1 : 3;
}

/* b: a's classes in side order, pairs to match; *nsrc the classes with
 * a SOURCE node, *first_tgt the first with a TARGET node. */
static void
reorder(const kv_analysis *a, kv_analysis *b, size_t *nsrc,
    size_t *first_tgt)
{
	size_t n = a->nclasses, k = 0, *perm = xcalloc(n + 1, sizeof(size_t));

	*b = *a;
	for (int s = 1; s <= 3; s++)
		for (size_t i = 0; i < n; i++)
			if (side_of(a, &a->classes[i]) == s) {
				if (s == 2 && *first_tgt == SIZE_MAX)
					*first_tgt = k;
				if (s == 3 && *first_tgt == SIZE_MAX)
					*first_tgt = k;
				perm[k++] = i;
				*nsrc += s < 3;
			}
	b->classes = xcalloc(n + 1, sizeof(kv_class));
	b->pairs = xcalloc(n * n + 1, sizeof(kv_pair));
	for (size_t i = 0; i < n; i++) {
		b->classes[i] = a->classes[perm[i]];
		for (size_t j = 0; j < n; j++) {
			kv_pair *p = &b->pairs[i * n + j];

			*p = a->pairs[perm[i] * n + perm[j]];
			p->src = i;
			p->tgt = j;
		}
	}
	if (*first_tgt == SIZE_MAX)
		*first_tgt = n;
	free(perm);
}

int
kv_write_cross_svg(const kv_cross *x, FILE *f, kv_err *err)
{
	kv_analysis b;
	kv_text *t = text_new();
	kv_mview v;
	size_t nsrc = 0, first = SIZE_MAX;
	kv_fig *fig;
	int rc;

	reorder(x->a, &b, &nsrc, &first);
	mview_init(&v, &b);
	if (v.aggregated)	/* beyond the view's size: every class */
		fig = fig_matrix(&b, t, &v, 0, v.n, 0, v.n);
	else
		fig = fig_matrix(&b, t, &v, 0, nsrc, first, v.n);
	free(fig->title);
	fig->title = xstrdup("Host-model migration: SOURCE classes (rows) "
	    "to TARGET's");
	free(fig->s[0].text);
	fig->s[0].text = xstrdup(fig->title);
	rc = fig_write_svg(fig, f, err);
	fig_free(fig);
	text_free(t);
	free(b.classes);
	free(b.pairs);
	return rc;
}
