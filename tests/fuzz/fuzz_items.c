/*
 * fuzz_items.c - libFuzzer harness for the item scanner (jsonitems.c).
 *
 * The first two bytes seed the chunking; the rest is a resource file.  It
 * is scanned twice, in one piece and in pseudo-random pieces (many of one
 * byte), and both runs must agree on the status, the message and every
 * item: the scanner's state machine must not depend on where read() cut.
 * The first byte also names the file, so that its skip rows apply
 * (jsonskip.c); a file valid whole must stay valid with them.
 */
#include "fuzz.h"

#include "analyze/read/jsonitems.h"

struct got {
	kv_buf log;
	size_t n;
};

static int
collect(void *arg, json_t *item, const json_aside *aside, size_t index,
    kv_err *err)
{
	struct got *g = arg;
	char *s;

	if (index != g->n++ || !json_is_object(item))
		abort();
	if ((s = json_dumps(item, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENCODE_ANY)) == NULL)
		abort();
	kv_buf_printf(&g->log, "%s\n", s);
	free(s);
	/* objects with a key "fail" make the callback refuse them */
	if (json_object_get(item, "fail") != NULL)
		return kv_seterr(err, "item %zu: refused", index);
	return KV_OK;
}

static const char *const files[] = {
	"f.json", "resources/pods.json", "resources/nodes.json",
	"resources/persistentvolumeclaims.json",
	"resources/virtualmachineinstances.kubevirt.io.json",
	"resources/virtualmachines.kubevirt.io.json",
};

/* Scan data as file: whole, skipping nothing (json_items_keep_all);
 * in one piece, or in pieces drawn from seed. */
static int
scan(const kv_limits *lim, const char *file, bool whole, const uint8_t *data,
    size_t size, uint32_t seed, struct got *g, kv_err *err)
{
	json_items *s = json_items_new(file, lim, collect, g);
	size_t at = 0;
	int rc = KV_OK;

	if (whole)
		json_items_keep_all(s);

	while (at < size && rc == KV_OK) {
		size_t n = size - at;

		if (seed != 0) {
			seed = seed * 1103515245u + 12345u;
			n = (seed >> 16) % 8 == 0 ? 1 + (seed >> 8) % 97 : 1;
			if (n > size - at)
				n = size - at;
		}
		rc = json_items_feed(s, (const char *)data + at, n, err);
		at += n;
	}
	if (rc == KV_OK)
		rc = json_items_finish(s, err);
	if (rc == KV_OK && json_items_count(s) != g->n)
		abort();
	json_items_free(s);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kv_limits lim;
	struct got g1 = {0}, g2 = {0}, g3 = {0};
	kv_err e1 = {0}, e2 = {0}, e3 = {0};
	const char *file;
	uint32_t seed;
	int rc1, rc2;

	if (size < 2)
		return 0;
	seed = (uint32_t)data[0] << 8 | data[1] | 1u;
	fuzz_limits(&lim);
	lim.depth = 32;
	lim.string_bytes = 4096;
	lim.items = 500;
	lim.object_bytes = 64 << 10;
	file = files[data[0] % (sizeof(files) / sizeof(files[0]))];
	rc1 = scan(&lim, file, false, data + 2, size - 2, 0, &g1, &e1);
	rc2 = scan(&lim, file, false, data + 2, size - 2, seed, &g2, &e2);
	if (rc1 != KV_OK && scan(&lim, file, true, data + 2, size - 2, 0, &g3,
	    &e3) == KV_OK)
		abort();	/* the rows made a valid file invalid */
	kv_buf_free(&g3.log);
	if (rc1 != rc2 || g1.n != g2.n || g1.log.len != g2.log.len ||
	    (g1.log.len > 0 && memcmp(g1.log.data, g2.log.data,
	    g1.log.len) != 0))
		abort();
	if (rc1 != KV_OK) {
		fuzz_check_msg(&e1);
		if (strcmp(e1.msg, e2.msg) != 0)
			abort();
	}
	kv_buf_free(&g1.log);
	kv_buf_free(&g2.log);
	return 0;
}
