/*
 * cpunames.c - which CPU model names kvscope knows (the built-in libvirt
 * table, the snapshot's own cpu_map, the cpu-model labels the node
 * labeller wrote) and the nearest of them to a name it does not know.
 * libvirt's names are case-sensitive (cpu_map/x86_*.xml), as the labels
 * cpu-model.node.kubevirt.io/<name> are.
 */
#include "analyze/rules/analysis.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/cpudb.h"

#define NEAR_MAX 3

/* Edit distance of x and y with case folded. */
static size_t
distance(const char *x, const char *y)
{
	size_t nx = strlen(x), ny = strlen(y);
	size_t *row = xcalloc(ny + 1, sizeof(size_t)), d;

	for (size_t j = 0; j <= ny; j++)
		row[j] = j;
	for (size_t i = 1; i <= nx; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= ny; j++) {
			size_t up = row[j], best = diag + (tolower(
			    (unsigned char)x[i - 1]) != tolower(
			    (unsigned char)y[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[ny];
	free(row);
	return d;
}

typedef struct near {
	const char *v[NEAR_MAX];
	size_t n, best;
	const char *want;
} near;

static void
consider(near *s, const char *name)
{
	size_t d = distance(s->want, name);

	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return;
	if (d < s->best) {
		s->best = d;
		s->n = 0;
	}
	if (d == s->best && s->n < NEAR_MAX)
		s->v[s->n++] = name;
}

/* Every model name known to s: tables, then node labels. */
static void
each_name(const kv_analysis *a, near *s)
{
	const cpudb *dbs[2] = { cpudb_builtin(), a->m->cpumap };
	const char *prefix = kv_cpu_key(a, "cpu-model", "");
	size_t np = strlen(prefix);

	for (size_t d = 0; d < 2; d++)
		for (size_t i = 0; dbs[d] != NULL && i < dbs[d]->nmodels; i++)
			consider(s, dbs[d]->models[i].name);
	for (size_t i = 0; i < a->m->nnodes; i++) {
		const kv_labels *l = &a->m->nodes[i].labels;

		for (size_t k = 0; k < l->n; k++)
			if (strncmp(l->v[k].key, prefix, np) == 0 &&
			    l->v[k].key[np] != '\0')
				consider(s, l->v[k].key + np);
	}
}

bool
kv_cpu_model_known(const kv_analysis *a, const char *model)
{
	const char *key;

	if (strcmp(model, "host-model") == 0 ||
	    strcmp(model, "host-passthrough") == 0 ||
	    kv_cpu_lookup(a, model) != NULL)
		return true;
	key = kv_cpu_key(a, "cpu-model", model);
	for (size_t i = 0; i < a->m->nnodes; i++)
		if (kv_labels_get(&a->m->nodes[i].labels, key) != NULL)
			return true;
	return false;
}

size_t
kv_cpu_model_nearest(const kv_analysis *a, const char *model,
    const char **out, size_t max)
{
	near s = { .n = 0, .best = (size_t)-1, .want = model };
	size_t lim = strlen(model) / 3 < 2 ? 2 : strlen(model) / 3;

	each_name(a, &s);
	if (s.best > lim)
		return 0;
	for (size_t i = 0; i < s.n && i < max; i++)
		out[i] = s.v[i];
	return s.n < max ? s.n : max;
}
