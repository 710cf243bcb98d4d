/*
 * resrows.c - the resources.def row of an object or a file (resrows.h).
 */
#include "analyze/read/resrows.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/util/util.h"

static const struct row {
	const char *plural, *group;
} rows[] = {
#define KV_RESOURCE(plural, group, scope, prefix, rank, loader, need) \
	{ plural, group },
#include "analyze/read/resources.def"
#undef KV_RESOURCE
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* kubectl's short names of the rows kvscope's checks read. */
static const struct {
	const char *name, *plural;
} shorts[] = {
	{ "vmi", "virtualmachineinstances" },
	{ "vmis", "virtualmachineinstances" },
	{ "vm", "virtualmachines" }, { "vms", "virtualmachines" },
	{ "vmim", "virtualmachineinstancemigrations" },
	{ "vmims", "virtualmachineinstancemigrations" },
	{ "pvc", "persistentvolumeclaims" },
	{ "pvcs", "persistentvolumeclaims" },
	{ "po", "pods" }, { "no", "nodes" }, { "sc", "storageclasses" },
	{ "ns", "namespaces" }, { "dv", "datavolumes" },
};

/* "VirtualMachineInstance" -> "virtualmachineinstances" (and "...Class"
 * -> "...classes", "...Policy" -> "...policies"). */
static char *
kind_plural(const char *kind)
{
	size_t n = strlen(kind);
	char *p = xcalloc(1, n + 4);

	for (size_t i = 0; i < n; i++)
		p[i] = g_ascii_tolower(kind[i]);
	if (n > 0 && p[n - 1] == 's')
		strcpy(p + n, "es");
	else if (n > 1 && p[n - 1] == 'y' && !strchr("aeiou", p[n - 2]))
		strcpy(p + n - 1, "ies");
	else
		strcpy(p + n, "s");
	return p;
}

int
kv_resrow_of_kind(const char *api_version, const char *kind)
{
	const char *slash = strchr(api_version, '/');
	size_t glen = slash ? (size_t)(slash - api_version) : 0;
	char *plural = kind_plural(kind);
	int found = -1;

	for (size_t i = 0; i < NROWS && found < 0; i++)
		if (strlen(rows[i].group) == glen &&
		    strncmp(rows[i].group, api_version, glen) == 0 &&
		    strcmp(rows[i].plural, plural) == 0)
			found = (int)i;
	free(plural);
	return found;
}

/* The row one path component names (lower case, suffix removed), or
 * -1. */
static int
word_row(const char *w)
{
	size_t n = strlen(w);

	for (size_t i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++)
		if (strcmp(w, shorts[i].name) == 0)
			w = shorts[i].plural, n = strlen(w);
	for (size_t i = 0; i < NROWS; i++) {
		size_t pl = strlen(rows[i].plural);

		if (strncmp(w, rows[i].plural, pl) == 0 && (w[pl] == '\0' ||
		    (w[pl] == '.' && strcmp(w + pl + 1, rows[i].group) == 0)))
			return (int)i;
		/* the singular: "node", "virtualmachineinstance" */
		if (pl == n + 1 && strncmp(w, rows[i].plural, n) == 0)
			return (int)i;
	}
	return -1;
}

int
kv_resrow_of_path(const char *path)
{
	char *p = g_ascii_strdown(path, -1), *save = NULL, *c;
	int found = -1;

	for (c = strtok_r(p, "/", &save); c != NULL;
	    c = strtok_r(NULL, "/", &save)) {
		static const char *const sufs[] = { ".yaml", ".yml", ".json",
		    ".jsonl" };
		size_t n = strlen(c);
		int r;

		for (size_t s = 0; s < 4; s++) {
			size_t k = strlen(sufs[s]);

			if (n > k && strcmp(c + n - k, sufs[s]) == 0) {
				c[n - k] = '\0';
				break;
			}
		}
		if ((r = word_row(c)) >= 0)
			found = r;
	}
	g_free(p);
	return found;
}

bool
kv_path_has_component(const char *path, const char *comp)
{
	size_t n = strlen(comp);

	for (const char *p = path; (p = strstr(p, comp)) != NULL; p += n)
		if ((p == path || p[-1] == '/') && (p[n] == '/' || !p[n]))
			return true;
	return false;
}

bool
kv_path_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && g_ascii_strcasecmp(s + a - b, suffix) == 0;
}

bool
kv_looks_kubectl(const char *t, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (i > 0 && t[i - 1] != '\n')
			continue;
		if ((len - i >= 11 && memcmp(t + i, "apiVersion:", 11) == 0) ||
		    (len - i >= 5 && memcmp(t + i, "kind:", 5) == 0))
			return true;
	}
	return false;
}
