/*
 * cross_fig.c - crosscheck's CPU figure (render/cross.h): the host-model
 * matrix of the report (fig_matrix, figures.c) over a view whose rows
 * are the CPU classes with a SOURCE node and whose columns are those
 * with a TARGET node (kv_cross_mview); a class of both clusters' nodes
 * (identical CPU labels) is a row and a column.  The crossing analysis
 * holds the classes of both clusters' nodes and every pair between them;
 * nothing of it is changed.
 */
#include <stdlib.h>
#include <string.h>

#include "render/cross.h"
#include "render/report.h"

#define CROSS_FIG_TITLE	"Host-model migration: SOURCE classes (rows) " \
	"to TARGET's"

void
kv_cross_mview(const kv_cross *x, struct kv_mview *v, size_t **rows,
    size_t **cols)
{
	const kv_analysis *a = x->a;
	size_t nr = 0, nc = 0;

	*rows = xcalloc(a->nclasses + 1, sizeof(size_t));
	*cols = xcalloc(a->nclasses + 1, sizeof(size_t));
	for (size_t i = 0; i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];
		bool src = false, tgt = false;

		for (size_t k = 0; k < c->nnodes; k++) {
			if (kv_cross_is_source(a->m->nodes[c->nodes[k]].name))
				src = true;
			else
				tgt = true;
		}
		if (src)
			(*rows)[nr++] = i;
		if (tgt)
			(*cols)[nc++] = i;
	}
	mview_init_sets(v, *rows, nr, *cols, nc, CROSS_FIG_TITLE);
}

kv_fig *
kv_cross_fig(const kv_cross *x, kv_text *t)
{
	kv_mview v;
	size_t *rows, *cols;
	kv_fig *fig;

	kv_cross_mview(x, &v, &rows, &cols);
	fig = fig_matrix(x->a, t, &v, 0, v.row.n, 0, v.col.n);
	free(rows);
	free(cols);
	return fig;
}

int
kv_write_cross_svg(const kv_cross *x, FILE *f, kv_err *err)
{
	kv_text *t = text_new();
	kv_fig *fig = kv_cross_fig(x, t);
	int rc = fig_write_svg(fig, f, err);

	fig_free(fig);
	text_free(t);
	return rc;
}
