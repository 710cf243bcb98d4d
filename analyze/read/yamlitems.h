/*
 * yamlitems.h - the documents of a YAML file as jansson values, through
 * libyaml's event parser.
 *
 * Each document of the stream (with or without "---") becomes one json_t:
 * mappings are objects (keys must be scalars, duplicates are refused),
 * sequences are arrays, plain scalars resolve as YAML 1.2's core schema
 * does (null, true/false, integers, reals; an integer beyond 64 bits is
 * read as a real), every quoted or block scalar is a string.  Tags are
 * ignored.  Bounded: nesting depth (KVSCOPE_MAX_DEPTH), string length
 * (KVSCOPE_MAX_STRING_BYTES), documents (KVSCOPE_MAX_ITEMS) and the nodes
 * of one document once its aliases are expanded (KVSCOPE_MAX_YAML_NODES),
 * so that a "billion laughs" file is refused after a few thousand events,
 * in bounded memory.  An alias is a deep copy of its anchor.
 *
 * A document the caller does not want (peek) is dropped as soon as its
 * apiVersion and kind are known, without building the rest.
 *
 * The callback gets each document (a scalar document too) with the line
 * it starts on; the value is released after the call.  Errors are
 * "<file>: line N: <what>".
 */
#ifndef KV_YAMLITEMS_H
#define KV_YAMLITEMS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analyze/read/limits.h"
#include "analyze/util/util.h"

typedef int (*yaml_doc_fn)(void *arg, json_t *doc, size_t line,
    kv_err *err);
/* Once a document's top-level apiVersion and kind are both read: false
 * drops the document unbuilt (its events are still parsed and bounded,
 * its aliases not expanded, fn is not called). */
typedef bool (*yaml_peek_fn)(void *arg, const char *api_version,
    const char *kind);

/* peek may be NULL (every document is built). */
int yaml_documents(const char *file, const char *text, size_t len,
    const kv_limits *lim, yaml_doc_fn fn, yaml_peek_fn peek, void *arg,
    kv_err *err);

/* The line of field ("items[3].metadata.labels": keys joined by ".",
 * sequence items as [n]) in the document of text that starts on line
 * doc_line (as yaml_documents() gave it): the line of its key, or of the
 * deepest part of the path the document has; 0 when the document is not
 * there.  For messages: errors in text only end the search. */
size_t yaml_field_line(const char *text, size_t len, size_t doc_line,
    const char *field);

#endif
