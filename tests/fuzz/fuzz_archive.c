/*
 * fuzz_archive.c - libFuzzer harness: the input is a snapshot file (tar,
 * compressed or not), read by kv_model_load, analysed, and written as
 * findings.json to /dev/null: the whole path a stranger's archive takes.
 */
#define KV_FUZZ_SNAPSHOT
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;

	if (path == NULL)
		path = xasprintf("%s/snap.tar.gz", fuzz_dir());
	fuzz_put(path, data, size);
	fuzz_snapshot(path);
	return 0;
}
