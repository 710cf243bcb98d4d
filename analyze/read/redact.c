/*
 * redact.c - see redact.h.
 */
#include "analyze/read/redact.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <regex.h>
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

/* "<redacted: N bytes, sha256:...>" for the value v (a string, or
 * anything else as the empty string), or NULL: v is absent, null or
 * redacted already. */
static json_t *
marker(json_t *v)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	char hex[65], *text;
	const char *s = "";
	size_t len = 0;
	json_t *m;

	if (v == NULL || json_is_null(v))
		return NULL;
	if (json_is_string(v)) {
		s = json_string_value(v);
		len = json_string_length(v);
		if (kv_startswith(s, "<redacted: "))
			return NULL;
	}
	if (EVP_Digest(s, len, md, &n, EVP_sha256(), NULL) != 1)
		kv_fatal("SHA-256 failed");
	for (unsigned int i = 0; i < n && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	text = xasprintf("<redacted: %zu bytes, sha256:%s>", len, hex);
	m = json_string(text);
	free(text);
	return m;
}

/* The value of parent's key, replaced by its marker, in place. */
static void
replace(json_t *parent, const char *key, json_t *counts, const char *field)
{
	json_t *m = marker(json_object_get(parent, key));

	if (m != NULL) {
		json_object_set_new(parent, key, m);
		count(counts, field);
	}
}

/* The same for element i of an array. */
static void
replace_at(json_t *arr, size_t i, json_t *counts, const char *field)
{
	json_t *m = marker(json_array_get(arr, i));

	if (m != NULL) {
		json_array_set_new(arr, i, m);
		count(counts, field);
	}
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

	if (slash == NULL || strcmp(slash, "/hookSidecars") == 0)
		return false;	/* a hook's: the sidecar's arguments */
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

/* A URL that carries a credential, anywhere in s: user info
 * (scheme://user:pass@host) or a signed query (S3, GCS, Azure SAS, a token
 * parameter). */
static regex_t url_re;
static bool url_re_ok;
static pthread_once_t url_once = PTHREAD_ONCE_INIT;

static void
url_compile(void)
{
	url_re_ok = regcomp(&url_re, "[A-Za-z][A-Za-z0-9+.-]*://"
	    "[^/?#@[:space:]\"]+@|[?&](x-amz-signature|x-amz-credential|"
	    "x-goog-signature|x-goog-credential|signature|sig|token|"
	    "access_token)=", REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0;
	if (!url_re_ok)
		kv_fatal("the credential URL pattern does not compile");
}

static bool
credential_url(const char *s)
{
	if (strstr(s, "://") == NULL)
		return false;
	pthread_once(&url_once, url_compile);
	return regexec(&url_re, s, 0, NULL, 0) == 0;
}

/* An annotation the analysis reads, unless it holds a credential: an
 * import's extra headers, a credential URL, a token. */
static bool
secret_annotation(const char *key, const char *value)
{
	return strcasestr(key, "extraheaders") != NULL ||
	    credential_url(value) || looks_secret("", value);
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
		} else if (json_is_string(v) &&
		    secret_annotation(k, json_string_value(v)))
			replace(ann, k, counts, "metadata.annotations[*]");
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

/*
 * The strings below v (field: its path, "spec.source.http") that are
 * extraHeaders (below under: an Authorization header) or credential URLs
 * are replaced.  The path names arrays' elements "[]", as the collector's
 * counts do.
 */
static void
redact_urls(json_t *v, const char *field, bool under, json_t *counts)
{
	json_t *e;
	const char *k;
	size_t i;
	char *sub;

	if (json_is_object(v))
		json_object_foreach(v, k, e) {
			sub = *field ? xasprintf("%s.%s", field, k) :
			    xstrdup(k);
			if (json_is_string(e) && (under ||
			    strcmp(k, "extraHeaders") == 0 ||
			    credential_url(json_string_value(e))))
				replace(v, k, counts, sub);
			else
				redact_urls(e, sub, under ||
				    strcmp(k, "extraHeaders") == 0, counts);
			free(sub);
		}
	else if (json_is_array(v)) {
		sub = xasprintf("%s[]", field);
		json_array_foreach(v, i, e)
			if (json_is_string(e) && (under ||
			    credential_url(json_string_value(e))))
				replace_at(v, i, counts, sub);
			else
				redact_urls(e, sub, under, counts);
		free(sub);
	}
}

/* A probe's guest command and HTTP header values, in holder (a VMI's or a
 * template's spec, a container): at names holder in the counts. */
static void
redact_probes(json_t *holder, const char *at, json_t *counts)
{
	static const char *const probes[] = { "readinessProbe",
		"livenessProbe", "startupProbe", NULL };

	for (const char *const *p = probes; *p; p++) {
		json_t *probe = json_object_get(holder, *p), *h;
		char *field = xasprintf("%s.%s.exec.command", at, *p);
		size_t i;

		drop(json_object_get(probe, "exec"), "command", counts, field);
		free(field);
		field = xasprintf("%s.%s.httpGet.httpHeaders[].value", at, *p);
		json_array_foreach(json_object_get(json_object_get(probe,
		    "httpGet"), "httpHeaders"), i, h)
			replace(h, "value", counts, field);
		free(field);
	}
}

/* --- one function per resource, rows of the table below ----------------- */

static void
pod(json_t *o, json_t *counts)
{
	static const char *const lists[] = { "containers", "initContainers" };
	json_t *c;
	size_t i;

	redact_containers(o, counts);
	for (int pass = 0; pass < 2; pass++) {
		char *at = xasprintf("spec.%s[]", lists[pass]);

		json_array_foreach(json_object_get(json_object_get(o, "spec"),
		    lists[pass]), i, c)
			redact_probes(c, at, counts);
		free(at);
	}
}

static void
vmi(json_t *o, json_t *counts)
{
	json_t *spec = json_object_get(o, "spec");

	redact_volumes(spec, counts);
	redact_probes(spec, "spec", counts);
}

static void
vm(json_t *o, json_t *counts)
{
	json_t *spec = json_object_get(o, "spec");
	json_t *tspec = json_object_get(json_object_get(spec, "template"),
	    "spec");

	redact_volumes(tspec, counts);
	redact_probes(tspec, "spec.template.spec", counts);
	replace(json_object_get(spec, "provisioning"), "userData", counts,
	    "spec.provisioning.userData");
}

/* Disk image imports (CDI DataVolumes, VM dataVolumeTemplates, DVP
 * VirtualDisks): their URLs and headers, and the conditions that echo
 * them. */
static void
imports(json_t *o, json_t *counts)
{
	redact_urls(json_object_get(o, "spec"), "spec", false, counts);
	redact_urls(json_object_get(o, "status"), "status", false, counts);
}

static void
pv(json_t *o, json_t *counts)
{
	json_t *m = json_object_get(json_object_get(json_object_get(o, "spec"),
	    "csi"), "volumeAttributes"), *v;
	const char *k;
	void *tmp;

	json_object_foreach_safe(m, tmp, k, v)
		replace(m, k, counts, "spec.csi.volumeAttributes");
}

static void
storageclass(json_t *o, json_t *counts)
{
	json_t *m = json_object_get(o, "parameters"), *v;
	const char *k;
	void *tmp;

	json_object_foreach_safe(m, tmp, k, v)
		if (!kv_startswith(k, "local.csi.storage.deckhouse.io/"))
			replace(m, k, counts, "parameters");
}

/* Harvester's settings that hold certificates, keys, passwords, proxies,
 * registry mirrors and their credentials, endpoints (the analysis reads
 * server-version alone). */
static void
harvester_setting(json_t *o, json_t *counts)
{
	static const char *const words[] = { "ssl", "cert", "tls", "passw",
		"secret", "token", "credential", "key", "proxy",
		"backup-target", "registration", "registry", "auth", "url",
		"endpoint", NULL };
	const char *name = json_string_value(json_object_get(
	    json_object_get(o, "metadata"), "name"));
	const char *val = json_string_value(json_object_get(o, "value"));
	const char *def = json_string_value(json_object_get(o, "default"));
	bool secret = (val != NULL && strstr(val, "-----BEGIN") != NULL) ||
	    (def != NULL && strstr(def, "-----BEGIN") != NULL);

	for (const char *const *w = words; *w && !secret && name; w++)
		secret = strstr(name, *w) != NULL;
	if (!secret)
		return;
	if (val != NULL)
		replace(o, "value", counts, "value");
	if (def != NULL)
		replace(o, "default", counts, "default");
}

static const struct {
	const char *plural, *group;	/* group NULL: any */
	void (*fn)(json_t *o, json_t *counts);
} rows[] = {
	{ "pods", NULL, pod },
	{ "virtualmachineinstances", NULL, vmi },
	{ "internalvirtualizationvirtualmachineinstances", NULL, vmi },
	{ "virtualmachines", NULL, vm },
	{ "internalvirtualizationvirtualmachines", NULL, vm },
	{ "virtualmachines", NULL, imports },
	{ "internalvirtualizationvirtualmachines", NULL, imports },
	{ "datavolumes", NULL, imports },
	{ "virtualdisks", NULL, imports },
	{ "persistentvolumes", NULL, pv },
	{ "storageclasses", NULL, storageclass },
	{ "settings", "harvesterhci.io", harvester_setting },
};

void
kv_redact_object(json_t *o, const char *plural, const char *group,
    json_t *counts)
{
	redact_meta(o, counts);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].plural, plural) == 0 &&
		    (rows[i].group == NULL ||
		    strcmp(rows[i].group, group ? group : "") == 0))
			rows[i].fn(o, counts);
}
