/*
 * fuzz_load.c - libFuzzer harness for the model loader and the analysis,
 * past the container: the input is written as the resource files of a
 * directory snapshot whose manifest is computed to match (fuzz.h:
 * fuzz_write_snapshot, the input format), so every input reaches load.c's
 * readers (labels, quantities, selectors, volumes, ...) and, when it
 * loads, kv_analyze and the findings writer.
 */
#define KV_FUZZ_SNAPSHOT
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_snapshot(fuzz_write_snapshot(data, size));
	return 0;
}
