/*
 * fuzz_cpumap.c - libFuzzer harness for the libvirt cpu_map reader.
 *
 * The input is one or more cpu_map files separated by a line "<!--next-->";
 * each is added to one builder, which is finished (inheritance across
 * files, corrections, levels) and every model is looked at.
 */
#include "fuzz.h"

#include "analyze/model/cpudb.h"

#define SEP "<!--next-->\n"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cpumap_builder *b = cpumap_builder_new();
	const char *p = (const char *)data, *end = p + size;
	cpudb *db = NULL;
	kv_err err = {0};
	int nfile = 0;

	while (p <= end) {
		const char *next = memmem(p, (size_t)(end - p), SEP,
		    sizeof(SEP) - 1);
		size_t len = next ? (size_t)(next - p) : (size_t)(end - p);
		char name[64];

		snprintf(name, sizeof(name), "libvirt/cpu_map/x86_%d.xml",
		    nfile++);
		if (cpumap_builder_add(b, name, p, len, &err) != KV_OK) {
			fuzz_check_msg(&err);
			cpumap_builder_free(b);
			return 0;
		}
		if (next == NULL)
			break;
		p = next + sizeof(SEP) - 1;
	}
	if (cpumap_finish(b, &db, &err) != KV_OK) {
		fuzz_check_msg(&err);
		return 0;
	}
	for (size_t i = 0; i < db->nmodels; i++) {
		const cpudb_model *m = &db->models[i];

		if (cpudb_find(db, m->name) != m || m->level < 0 ||
		    m->level > 4 || m->nfeatures_novmx > m->nfeatures)
			abort();
		for (size_t j = 1; j < m->nfeatures; j++)
			if (strcmp(m->features[j - 1], m->features[j]) >= 0)
				abort();
	}
	cpudb_free(db);
	return 0;
}
