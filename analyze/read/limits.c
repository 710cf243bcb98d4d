/*
 * limits.c - defaults and environment overrides for kv_limits.
 */
#include "analyze/read/limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *env;
	size_t off;
	uint64_t def;
} limit_table[] = {
	{ "KVSCOPE_MAX_MEMBER_BYTES", offsetof(kv_limits, member_bytes),
	  (uint64_t)4 << 30 },
	{ "KVSCOPE_MAX_TOTAL_BYTES", offsetof(kv_limits, total_bytes),
	  (uint64_t)16 << 30 },
	{ "KVSCOPE_MAX_RATIO", offsetof(kv_limits, ratio), 1000 },
	{ "KVSCOPE_MAX_MEMBERS", offsetof(kv_limits, members), 200000 },
	{ "KVSCOPE_MAX_ITEMS", offsetof(kv_limits, items), 2000000 },
	/* etcd keeps objects below 1.5 MiB; jansson needs several times
	 * the text to hold one */
	{ "KVSCOPE_MAX_OBJECT_BYTES", offsetof(kv_limits, object_bytes),
	  (uint64_t)16 << 20 },
	{ "KVSCOPE_MAX_STRING_BYTES", offsetof(kv_limits, string_bytes),
	  (uint64_t)1 << 20 },
	{ "KVSCOPE_MAX_DEPTH", offsetof(kv_limits, depth), 64 },
	{ "KVSCOPE_MAX_LABELS", offsetof(kv_limits, labels), 10000 },
	{ "KVSCOPE_MAX_MANIFEST_BYTES", offsetof(kv_limits, manifest_bytes),
	  (uint64_t)64 << 20 },
	/* hostModelPairs holds classes squared pairs */
	{ "KVSCOPE_MAX_CPU_CLASSES", offsetof(kv_limits, cpu_classes), 1000 },
	/* a YAML file is parsed from memory (libyaml pulls) */
	{ "KVSCOPE_MAX_YAML_BYTES", offsetof(kv_limits, yaml_bytes),
	  (uint64_t)1 << 30 },
	{ "KVSCOPE_MAX_ALIAS_NODES", offsetof(kv_limits, alias_nodes),
	  100000 },
};

int
kv_limits_init(kv_limits *lim, kv_err *err)
{
	lim->strict = false;
	for (size_t i = 0; i < sizeof(limit_table) / sizeof(limit_table[0]);
	    i++) {
		uint64_t *slot = (uint64_t *)((char *)lim +
		    limit_table[i].off);
		const char *v = getenv(limit_table[i].env);
		char *end;
		unsigned long long n;

		*slot = limit_table[i].def;
		if (v == NULL || *v == '\0')
			continue;
		errno = 0;
		n = strtoull(v, &end, 10);
		if (errno != 0 || *end != '\0' || n == 0 || v[0] == '-')
			return kv_seterr(err, "%s: expected a positive whole "
			    "number, got \"%s\"", limit_table[i].env, v);
		*slot = n;
	}
	return KV_OK;
}

bool
kv_err_is_limit(const kv_err *err)
{
	return err->set && strstr(err->msg, "KVSCOPE_MAX_") != NULL;
}
