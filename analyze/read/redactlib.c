/*
 * redactlib.c - see redactlib.h.  The patterns are the collector's
 * (credkey, credval, credurl, annkeep in snapshot/kvscope-collect), as
 * POSIX extended regular expressions, compiled once.
 */
#include "analyze/read/redactlib.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/util/util.h"

void
rd_count(json_t *counts, const char *field)
{
	json_t *v = json_object_get(counts, field);

	json_object_set_new(counts, field, json_integer(
	    (v ? json_integer_value(v) : 0) + 1));
}

/* s is a marker itself: "<redacted: N bytes, sha256:" 64 hex digits ">"
 * and nothing else (a value that only starts like one is redacted). */
static bool
is_marker(const char *s)
{
	const char *p = s + strlen("<redacted: ");

	if (!kv_startswith(s, "<redacted: ") || *p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (!kv_startswith(p, " bytes, sha256:"))
		return false;
	p += strlen(" bytes, sha256:");
	for (int i = 0; i < 64; i++, p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return strcmp(p, ">") == 0;
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
		if (is_marker(s))
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

void
rd_replace(json_t *parent, const char *key, json_t *counts,
    const char *field)
{
	json_t *m = marker(json_object_get(parent, key));

	if (m != NULL) {
		json_object_set_new(parent, key, m);
		rd_count(counts, field);
	}
}

void
rd_replace_at(json_t *arr, size_t i, json_t *counts, const char *field)
{
	json_t *m = marker(json_array_get(arr, i));

	if (m != NULL) {
		json_array_set_new(arr, i, m);
		rd_count(counts, field);
	}
}

void
rd_drop(json_t *parent, const char *key, json_t *counts, const char *field)
{
	if (json_object_get(parent, key) != NULL) {
		json_object_del(parent, key);
		rd_count(counts, field);
	}
}

static bool
letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

char *
rd_sub(const char *field, const char *k)
{
	bool word = letter(k[0]);
	json_t *j;
	char *q, *out;

	for (const char *p = k; *p && word; p++)
		word = letter(*p) || (*p >= '0' && *p <= '9');
	if (word)
		return *field ? xasprintf("%s.%s", field, k) : xstrdup(k);
	j = json_string(k);
	q = j != NULL ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	json_decref(j);
	out = xasprintf("%s[%s]", field, q != NULL ? q : "\"\"");
	free(q);
	return out;
}

/* --- the patterns ------------------------------------------------------- */

enum { RE_KEY_LOW, RE_KEY_CASE, RE_VALUE, RE_URL, RE_ANN, RE_N };

static const char *const patterns[RE_N] = {
	[RE_KEY_LOW] = "api[-_.]?key|(^|[^a-z])key([^a-z]|$)",
	[RE_KEY_CASE] = "[a-z0-9]Key([^a-z]|$)",
	[RE_VALUE] = ("^[Bb]earer[ _.:=-]|-----BEGIN [A-Z0-9 ]*-----|"
	    "^eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.|"
	    "^(AKIA|ASIA)[0-9A-Z]{16}$|^AIza[0-9A-Za-z_-]{35}$"),
	[RE_URL] = ("[A-Za-z][A-Za-z0-9+.-]*://[^/?#@[:space:]\"]+@|"
	    "[?&#](x-amz-signature|x-amz-credential|x-goog-signature|"
	    "x-goog-credential|signature|sig|token|access_token|"
	    "private_token|api_key|apikey|key|password|passwd|auth)="),
	[RE_ANN] = ("^([a-z0-9-]+\\.)*kubevirt\\.io(/|\\.)|"
	    "^([a-z0-9-]+\\.)*virtualization\\.deckhouse\\.io/"),
};
static const int pattern_flags[RE_N] = { [RE_URL] = REG_ICASE };
static regex_t res[RE_N];
static pthread_once_t res_once = PTHREAD_ONCE_INIT;

static void
compile(void)
{
	for (int i = 0; i < RE_N; i++)
		if (regcomp(&res[i], patterns[i], REG_EXTENDED | REG_NOSUB |
		    pattern_flags[i]) != 0)
			kv_fatal("redaction pattern %d does not compile", i);
}

static bool
matches(int re, const char *s)
{
	pthread_once(&res_once, compile);
	return regexec(&res[re], s, 0, NULL, 0) == 0;
}

bool
rd_kept_annotation(const char *key)
{
	size_t n = strlen(key);

	if (n >= 13 && strcmp(key + n - 13, "/hookSidecars") == 0)
		return false;	/* a hook's: the sidecars' arguments */
	if (strstr(key, "kubevirt.io") != NULL ||
	    strstr(key, "virtualization.deckhouse.io") != NULL)
		return matches(RE_ANN, key);
	return kv_startswith(key, "descheduler.alpha.kubernetes.io/") ||
	    strcmp(key, "k8s.v1.cni.cncf.io/networks") == 0 ||
	    strcmp(key, "k8s.v1.cni.cncf.io/resourceName") == 0;
}

bool
rd_cred_key(const char *key)
{
	static const char *const words[] = { "token", "passwd", "password",
		"secret", "credential", NULL };
	char low[256];
	size_t i;

	for (i = 0; key[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)((key[i] >= 'A' && key[i] <= 'Z') ?
		    key[i] + 32 : key[i]);
	low[i] = '\0';
	for (const char *const *w = words; *w; w++)
		if (strstr(low, *w) != NULL)
			return true;
	return strstr(low, "key") != NULL && (matches(RE_KEY_LOW, low) ||
	    matches(RE_KEY_CASE, key));
}

bool
rd_cred_value(const char *value)
{
	return (kv_startswith(value, "Bearer") ||
	    kv_startswith(value, "bearer") ||
	    strstr(value, "-----BEGIN ") != NULL ||
	    kv_startswith(value, "eyJ") || kv_startswith(value, "AKIA") ||
	    kv_startswith(value, "ASIA") || kv_startswith(value, "AIza")) &&
	    matches(RE_VALUE, value);
}

bool
rd_cred_url(const char *s)
{
	return strstr(s, "://") != NULL && matches(RE_URL, s);
}
