/*
 * fuzz_load.c - libFuzzer harness for the model loader and the analysis,
 * past the container: the input is written as the resource files of a
 * directory snapshot whose manifest is computed to match, so every input
 * reaches load.c's readers (labels, quantities, selectors, volumes, ...)
 * and, when it loads, kv_analyze and the findings writer.
 *
 * Input: sections separated by a line "---"; the first byte of a section
 * picks the resource file (see files[] below, built from
 * analyze/resources.def as tests/fuzz/make-seeds.py builds its list), the
 * rest is its content.
 */
#define KV_FUZZ_SNAPSHOT
#include "fuzz.h"

#include <glib.h>
#include <sys/stat.h>


/*
 * The resource files: one per row of analyze/resources.def, in its order,
 * then the CPU map. tests/fuzz/make-seeds.py reads the same table, so a
 * seed's first byte picks the same file here and there.
 */
static const struct {
	const char *plural, *group;
} rows[] = {
#define KV_RESOURCE(plural, group, scope, prefix, rank, loader, need) \
	{ plural, group },
#include "resources.def"
#undef KV_RESOURCE
};
#define NFILES (sizeof(rows) / sizeof(rows[0]) + 1)
static char *files[NFILES];	/* built once, never freed */

static void
init_files(void)
{
	for (size_t i = 0; i + 1 < NFILES; i++)
		files[i] = rows[i].group[0] == '\0' ?
		    xasprintf("resources/%s.json", rows[i].plural) :
		    xasprintf("resources/%s.%s.json", rows[i].plural,
		    rows[i].group);
	files[NFILES - 1] = xstrdup("libvirt/cpu_map/x86_Fuzz.xml");
}
#define SEP "\n---\n"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *top;
	const char *p = (const char *)data, *end = p + size;
	bool used[NFILES] = { false };
	kv_buf manifest = {0};
	int n = 0;

	if (top == NULL) {
		init_files();
		top = xasprintf("%s/snap", fuzz_dir());
		if (mkdir(top, 0755) != 0)
			abort();
		for (const char *d = "resources\0libvirt\0libvirt/cpu_map\0";
		    *d != '\0'; d += strlen(d) + 1) {
			char *sub = xasprintf("%s/%s", top, d);

			if (mkdir(sub, 0755) != 0)
				abort();
			free(sub);
		}
	}
	for (size_t i = 0; i < NFILES; i++) {
		char *path = xasprintf("%s/%s", top, files[i]);

		unlink(path);
		free(path);
	}
	kv_buf_printf(&manifest, "{\"kind\":\"kvscope-snapshot\","
	    "\"formatVersion\":1,\"createdAt\":\"2026-10-31T09:12:44Z\","
	    "\"files\":[");
	while (p < end) {
		const char *next = memmem(p, (size_t)(end - p), SEP,
		    sizeof(SEP) - 1);
		size_t len = next ? (size_t)(next - p) : (size_t)(end - p);
		size_t which = (unsigned char)p[0] % NFILES;

		if (len > 0 && !used[which]) {
			char *path = xasprintf("%s/%s", top, files[which]);
			gchar *sum = g_compute_checksum_for_data(
			    G_CHECKSUM_SHA256, (const guchar *)p + 1, len - 1);

			used[which] = true;
			fuzz_put(path, p + 1, len - 1);
			kv_buf_printf(&manifest, "%s{\"path\":\"%s\",\"bytes\":"
			    "%zu,\"sha256\":\"%s\"}", n++ ? "," : "",
			    files[which], len - 1, sum);
			g_free(sum);
			free(path);
		}
		if (next == NULL)
			break;
		p = next + sizeof(SEP) - 1;
	}
	kv_buf_printf(&manifest, "]}");
	{
		char *mpath = xasprintf("%s/manifest.json", top);

		fuzz_put(mpath, manifest.data, manifest.len);
		free(mpath);
	}
	kv_buf_free(&manifest);
	fuzz_snapshot(top);
	return 0;
}
