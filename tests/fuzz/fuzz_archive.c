/*
 * fuzz_archive.c - libFuzzer harness: the input is a snapshot file (tar,
 * compressed or not), read by kv_model_load, analysed, and written as
 * findings.json to /dev/null: the whole path a stranger's archive takes.
 */
#include "fuzz.h"

#include "analysis.h"
#include "model.h"
#include "render.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	static FILE *null;
	kv_limits lim;
	kv_model *m = NULL;
	kv_analysis *a = NULL;
	kv_err err = {0};

	if (path == NULL) {
		path = xasprintf("%s/snap.tar.gz", fuzz_dir());
		if ((null = fopen("/dev/null", "w")) == NULL)
			abort();
	}
	fuzz_limits(&lim);
	fuzz_put(path, data, size);
	if (kv_model_load(path, &lim, &m, &err) != KV_OK) {
		fuzz_check_msg(&err);
		return 0;
	}
	if (kv_analyze(m, &a, &err) == KV_OK) {
		if (kv_write_findings(a, null, NULL, &err) != KV_OK)
			fuzz_check_msg(&err);
		kv_analysis_free(a);
	} else
		fuzz_check_msg(&err);
	kv_model_free(m);
	return 0;
}
