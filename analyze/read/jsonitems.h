/*
 * jsonitems.h - stream the objects of one resource file.
 *
 * A resource file is either a kubectl List ({"items": [ ... ], ...}) or
 * JSON Lines (one object per line).  The scanner finds item boundaries in
 * the byte stream as it arrives (strings, escapes and nesting tracked by a
 * small state machine), then hands each item's bytes to jansson and the
 * resulting object to the callback, which must not keep it: the item is
 * released right after the call.  Peak memory is one item, not the file.
 *
 * Subtrees the model loader never reads are cut out (null for the first
 * member of an object) before jansson builds them (jsonskip.c says
 * which), unless KVSCOPE_NO_SKIP=1 or json_items_keep_all(); one it
 * reads only sometimes is pruned and its whole text handed beside the
 * item (json_aside).
 *
 * Limits (kv_limits): nesting depth, item count, string length, bytes in
 * one item (and in the List around the items).  Errors name the file, the
 * item index and the byte offset.
 */
#ifndef KV_JSONITEMS_H
#define KV_JSONITEMS_H

#include <jansson.h>
#include <stddef.h>

#include "analyze/read/limits.h"
#include "analyze/util/util.h"

/* The text of a subtree a skip row sets aside (jsonskip.c: a
 * VirtualMachine's spec.template), whole, while the item holds only what
 * the rows below it keep of it: valid during the callback only, parsed by
 * the loader when it needs it (jp_parse). */
typedef struct json_aside {
	const char *text;
	size_t len;
} json_aside;

/* Return KV_OK, or KV_ERR with err set (the message should not repeat the
 * file name; the scanner prefixes it).  aside is NULL when the item set
 * nothing aside. */
typedef int (*json_item_fn)(void *arg, json_t *item, const json_aside *aside,
    size_t index, kv_err *err);

typedef struct json_items json_items;

json_items *json_items_new(const char *file, const kv_limits *lim,
    json_item_fn fn, void *arg);
/* Build every item whole, skipping nothing (the items are kept, not only
 * loaded: kvscope convert).  Call before the first byte. */
void json_items_keep_all(json_items *s);
int json_items_feed(json_items *s, const char *buf, size_t len, kv_err *err);
/* Call after the last byte: checks the document is complete. */
int json_items_finish(json_items *s, kv_err *err);
/* Every item read so far delivered (waiting for the parse workers): the
 * first error among them, or KV_OK.  For a reader that stops at this
 * point on an error of its own: an item before it fails first, as it
 * would read one item at a time. */
int json_items_settle(json_items *s, kv_err *err);
void json_items_free(json_items *s);
size_t json_items_count(const json_items *s);

#endif
