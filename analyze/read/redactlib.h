/*
 * redactlib.h - what kvscope convert's redaction (redact.c) is made of:
 * what looks like a credential, how a value is replaced or removed and
 * counted, and how a field is named in the counts.  Private to redact.c.
 *
 * The tests and the names are the collector's (snapshot/kvscope-collect,
 * its jq program): a field is named by its path, an array's elements
 * "[]", a map's entries "[*]", a key that is not a plain word quoted
 * (["a/b"]).
 */
#ifndef KV_REDACTLIB_H
#define KV_REDACTLIB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* counts[field] += 1 */
void rd_count(json_t *counts, const char *field);
/* parent[key] (object) or arr[i] replaced by "<redacted: N bytes,
 * sha256:...>" and counted; nothing when absent, null or redacted. */
void rd_replace(json_t *parent, const char *key, json_t *counts,
    const char *field);
void rd_replace_at(json_t *arr, size_t i, json_t *counts,
    const char *field);
/* parent[key] removed and counted, when there. */
void rd_drop(json_t *parent, const char *key, json_t *counts,
    const char *field);
/* The name of key k below field (k alone when field is ""); the caller
 * frees it. */
char *rd_sub(const char *field, const char *k);

/* An annotation the analysis reads (kept). */
bool rd_kept_annotation(const char *key);
/* A key that names a credential (token, password, secret, key, ...). */
bool rd_cred_key(const char *key);
/* A value that is one (Bearer ..., a PEM block, a JWT, an access key). */
bool rd_cred_value(const char *value);
/* A string holding a URL with a credential: user info, or a signed
 * query (S3, GCS, Azure SAS, a token or key parameter). */
bool rd_cred_url(const char *s);

#endif
