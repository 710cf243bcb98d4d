/*
 * redact.c - see redact.h.
 */
#include "analyze/read/redact.h"

#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyze/util/util.h"

static void
count(json_t *counts, const char *field)
{
	json_t *v = json_object_get(counts, field);

	json_object_set_new(counts, field, json_integer(
	    (v ? json_integer_value(v) : 0) + 1));
}

/* "<redacted: N bytes, sha256:...>" of a string value, in place. */
static void
replace(json_t *parent, const char *key, json_t *counts, const char *field)
{
	json_t *v = json_object_get(parent, key);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	char hex[65], *text;
	const char *s;
	size_t len;

	if (v == NULL || json_is_null(v))
		return;
	if (json_is_string(v)) {
		s = json_string_value(v);
		len = json_string_length(v);
		if (kv_startswith(s, "<redacted: "))
			return;
	} else {
		s = "";
		len = 0;
	}
	if (EVP_Digest(s, len, md, &n, EVP_sha256(), NULL) != 1)
		kv_fatal("SHA-256 failed");
	for (unsigned int i = 0; i < n && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	text = xasprintf("<redacted: %zu bytes, sha256:%s>", len, hex);
	json_object_set_new(parent, key, json_string(text));
	free(text);
	count(counts, field);
}

static void
drop(json_t *parent, const char *key, json_t *counts, const char *field)
{
	if (json_object_get(parent, key) != NULL) {
		json_object_del(parent, key);
		count(counts, field);
	}
}

static bool
kept_annotation(const char *key)
{
	const char *slash = strchr(key, '/');
	size_t n = slash ? (size_t)(slash - key) : 0;

	if (slash == NULL)
		return false;
	return (n >= 11 && strncmp(slash - 11, "kubevirt.io", 11) == 0) ||
	    (n >= 12 && strncmp(slash - 12, "deckhouse.io", 12) == 0) ||
	    kv_startswith(key, "kubevirt.io.");
}

static bool
looks_secret(const char *key, const char *value)
{
	static const char *const words[] = { "token", "password", "passwd",
		"secret", "credential", "apikey", NULL };
	char low[256];
	size_t i;

	for (i = 0; key[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)((key[i] >= 'A' && key[i] <= 'Z') ?
		    key[i] + 32 : key[i]);
	low[i] = '\0';
	for (const char *const *w = words; *w; w++)
		if (strstr(low, *w) != NULL)
			return true;
	/* "key" as a word: ssh-key, tls.key, key_id, but not monkey */
	for (const char *p = low; (p = strstr(p, "key")) != NULL; p += 3)
		if ((p == low || strchr("-_./", p[-1])) &&
		    (p[3] == '\0' || strchr("-_./", p[3])))
			return true;
	return kv_startswith(value, "Bearer ") ||
	    strstr(value, "-----BEGIN ") != NULL ||
	    (kv_startswith(value, "eyJ") && strchr(value, '.') != NULL) ||
	    kv_startswith(value, "AKIA");
}

static void
redact_meta(json_t *o, json_t *counts)
{
	json_t *meta = json_object_get(o, "metadata"), *ann, *labels, *v;
	const char *k;
	void *tmp;

	drop(meta, "managedFields", counts, "metadata.managedFields");
	ann = json_object_get(meta, "annotations");
	json_object_foreach_safe(ann, tmp, k, v)
		if (!kept_annotation(k)) {
			json_object_del(ann, k);
			count(counts, "metadata.annotations");
		}
	labels = json_object_get(meta, "labels");
	json_object_foreach(labels, k, v)
		if (json_is_string(v) && looks_secret(k, json_string_value(v)))
			replace(labels, k, counts, "metadata.labels");
}

static void
redact_volumes(json_t *spec, json_t *counts)
{
	static const char *const srcs[] = { "cloudInitNoCloud",
		"cloudInitConfigDrive", "sysprep", NULL };
	static const char *const keys[] = { "userData", "userDataBase64",
		"networkData", "networkDataBase64", NULL };
	json_t *vols = json_object_get(spec, "volumes"), *v;
	size_t i;

	json_array_foreach(vols, i, v)
		for (const char *const *s = srcs; *s; s++) {
			json_t *src = json_object_get(v, *s);
			char field[96];

			for (const char *const *k = keys; *k; k++) {
				snprintf(field, sizeof(field),
				    "spec.volumes[].%s.%s", *s, *k);
				replace(src, *k, counts, field);
			}
		}
}

static void
redact_containers(json_t *o, json_t *counts)
{
	json_t *labels = json_object_get(json_object_get(o, "metadata"),
	    "labels");
	const char *l = json_string_value(json_object_get(labels,
	    "kubevirt.io"));
	bool launcher = l != NULL && strcmp(l, "virt-launcher") == 0;
	const char *lists[] = { "containers", "initContainers" };

	for (int pass = 0; pass < 2; pass++) {
		json_t *arr = json_object_get(json_object_get(o, "spec"),
		    lists[pass]), *c, *e;
		size_t i, j;

		json_array_foreach(arr, i, c) {
			const char *name = json_string_value(
			    json_object_get(c, "name"));

			json_array_foreach(json_object_get(c, "env"), j, e)
				drop(e, "value", counts,
				    "spec.containers[].env[].value");
			if (launcher && pass == 0 && name != NULL &&
			    strcmp(name, "compute") == 0)
				continue;
			drop(c, "args", counts, "spec.containers[].args");
			drop(c, "command", counts, "spec.containers[].command");
		}
	}
}

void
kv_redact_object(json_t *o, const char *plural, const char *group,
    json_t *counts)
{
	json_t *spec = json_object_get(o, "spec"), *m;
	const char *k;
	void *tmp;

	redact_meta(o, counts);
	if (strcmp(plural, "pods") == 0)
		redact_containers(o, counts);
	else if (strcmp(plural, "virtualmachineinstances") == 0 ||
	    strcmp(plural,
	    "internalvirtualizationvirtualmachineinstances") == 0)
		redact_volumes(spec, counts);
	else if (strcmp(plural, "virtualmachines") == 0 ||
	    strcmp(plural, "internalvirtualizationvirtualmachines") == 0) {
		redact_volumes(json_object_get(json_object_get(spec,
		    "template"), "spec"), counts);
		m = json_object_get(spec, "provisioning");
		replace(m, "userData", counts, "spec.provisioning.userData");
	} else if (strcmp(plural, "persistentvolumes") == 0) {
		m = json_object_get(json_object_get(spec, "csi"),
		    "volumeAttributes");
		json_object_foreach_safe(m, tmp, k, spec)
			replace(m, k, counts,
			    "spec.csi.volumeAttributes");
	} else if (strcmp(plural, "storageclasses") == 0) {
		m = json_object_get(o, "parameters");
		json_object_foreach_safe(m, tmp, k, spec)
			if (!kv_startswith(k,
			    "local.csi.storage.deckhouse.io/"))
				replace(m, k, counts, "parameters");
	}
	(void)group;
}
