/*
 * cpunames.c - which CPU model names kvscope knows (the built-in libvirt
 * table, the snapshot's own cpu_map, the cpu-model labels the node
 * labeller wrote) and the nearest of them to a name it does not know.
 * libvirt's names are case-sensitive (cpu_map/x86_*.xml), as the labels
 * cpu-model.node.kubevirt.io/<name> are.
 */
#include "analyze/rules/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/model/cpudb.h"

/* Every model name known to s: tables, then node labels. */
static void
each_name(const kv_analysis *a, kv_near *s)
{
	const cpudb *dbs[2] = { cpudb_builtin(), a->m->cpumap };
	const char *prefix = kv_cpu_key(a, "cpu-model", "");
	size_t np = strlen(prefix);

	for (size_t d = 0; d < 2; d++)
		for (size_t i = 0; dbs[d] != NULL && i < dbs[d]->nmodels; i++)
			kv_near_add(s, dbs[d]->models[i].name);
	for (size_t i = 0; i < a->m->nnodes; i++) {
		const kv_labels *l = &a->m->nodes[i].labels;

		for (size_t k = 0; k < l->n; k++)
			if (strncmp(l->v[k].key, prefix, np) == 0 &&
			    l->v[k].key[np] != '\0')
				kv_near_add(s, l->v[k].key + np);
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
	kv_near s;

	kv_near_init(&s, model);
	each_name(a, &s);
	return kv_near_get(&s, out, max);
}
