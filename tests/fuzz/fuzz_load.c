/*
 * fuzz_load.c - libFuzzer harness for the model loader and the analysis,
 * past the container: the input is written as the resource files of a
 * directory snapshot whose manifest is computed to match, so every input
 * reaches load.c's readers (labels, quantities, selectors, volumes, ...)
 * and, when it loads, kv_analyze and the findings writer.
 *
 * Input: sections separated by a line "---"; the first byte of a section
 * picks the resource file (see files[] below, the same order as in
 * tests/fuzz/make-seeds.py), the rest is its content.
 */
#define KV_FUZZ_SNAPSHOT
#include "fuzz.h"

#include <glib.h>
#include <sys/stat.h>


static const char *const files[] = {
	"resources/nodes.json",
	"resources/virtualmachineinstances.kubevirt.io.json",
	"resources/pods.json",
	"resources/kubevirts.kubevirt.io.json",
	"resources/persistentvolumeclaims.json",
	"resources/storageclasses.storage.k8s.io.json",
	"resources/namespaces.json",
	"resources/migrationpolicies.migrations.kubevirt.io.json",
	"resources/virtualmachineinstancemigrations.kubevirt.io.json",
	"resources/datavolumes.cdi.kubevirt.io.json",
	"resources/internalvirtualizationvirtualmachineinstances."
	    "internal.virtualization.deckhouse.io.json",
	"resources/internalvirtualizationkubevirts."
	    "internal.virtualization.deckhouse.io.json",
	"libvirt/cpu_map/x86_Fuzz.xml",
	"resources/internalvirtualizationvirtualmachineinstancemigrations."
	    "internal.virtualization.deckhouse.io.json",
	"resources/migrationpolicies."
	    "migrations.internal.virtualization.deckhouse.io.json",
	"resources/virtualmachines.virtualization.deckhouse.io.json",
	"resources/virtualmachineclasses.virtualization.deckhouse.io.json",
	"resources/virtualdisks.virtualization.deckhouse.io.json",
	"resources/virtualmachineoperations.virtualization.deckhouse.io.json",
	"resources/virtualmachineblockdeviceattachments."
	    "virtualization.deckhouse.io.json",
};
#define NFILES (sizeof(files) / sizeof(files[0]))
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
