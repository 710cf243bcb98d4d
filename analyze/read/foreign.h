/*
 * foreign.h - inputs that are not kvscope snapshots: a must-gather
 * (oc adm inspect layout), a Harvester support bundle (a zip of YAML per
 * resource) or plain `kubectl get -o yaml|json` output, in a directory or
 * an archive (tar in any compression, zip).
 *
 * Every .json, .jsonl, .yaml and .yml file is read (JSON through the item
 * scanner, YAML through yamlitems.c); other files are skipped unread.
 * Objects are recognised by apiVersion and kind, never by their path:
 * single objects, List and <Kind>List (items without a kind take it from
 * the list), multi-document YAML.  Only the kinds of analyze/read/resources.def
 * are kept (a YAML document of another kind is dropped unbuilt once its
 * apiVersion and kind are read) (kind -> plural for exactly those rows),
 * each object once (by metadata.uid, or namespace/name without one),
 * sorted by namespace and name.  They become the members of a virtual
 * snapshot, one JSON Lines
 * member per resource (resources/<plural>[.<group>].json), and a
 * synthesized manifest (snapshot.h: input kind, no integrity check,
 * status missing for a needed resource, or one of the core or
 * storage.k8s.io groups, that the input lacks; a note).
 *
 * With redact (kvscope convert) each object is redacted as kvscope-collect
 * would (redact.h) before it is kept.  Ownership: foreign_input and the
 * member texts belong to foreign_free().
 */
#ifndef KV_FOREIGN_H
#define KV_FOREIGN_H

#include <jansson.h>
#include <stdbool.h>

#include "analyze/read/limits.h"
#include "analyze/read/manifest.h"
#include "analyze/util/util.h"

typedef struct foreign_input foreign_input;

int foreign_load(const char *path, const kv_limits *lim, bool redact,
    foreign_input **out, kv_err *err);
size_t foreign_nmembers(const foreign_input *fi);
const char *foreign_member_path(const foreign_input *fi, size_t i);
const kv_buf *foreign_member_data(const foreign_input *fi, size_t i);
/* The synthesized manifest (the caller frees it: snap_manifest_free). */
void foreign_manifest(const foreign_input *fi, snap_manifest *m);
/* "72 objects kept from 62 JSON and YAML files (...)" (caller frees). */
char *foreign_summary(const foreign_input *fi);
/* [{"field": ..., "count": N}] of what redaction removed (new ref). */
json_t *foreign_redactions(const foreign_input *fi);
void foreign_free(foreign_input *fi);

/* Write fi as a kvscope snapshot (tar.gz, manifest with sizes and SHA-256)
 * at out, through a temporary file renamed into place (convert.c). */
int foreign_write_snapshot(const foreign_input *fi, const char *out,
    kv_err *err);

/* foreign_load() without redaction, then every member through sink. */
int foreign_read(const char *path, const kv_limits *lim,
    const snap_sink *sink, snap_manifest *m, kv_err *err);

#endif
