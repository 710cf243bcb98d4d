/*
 * jsonitems.c - the item scanner (see jsonitems.h).
 *
 * States: between top-level values (depth 0); inside the top object before
 * its "items" array (bytes kept, since a JSON Lines object is an item in
 * its own right); inside the items array (each element is buffered and
 * parsed on its own); after the array (the rest of the List is kept).
 *
 * Every byte is checked by someone: jansson parses each item, and the List
 * itself with its items array left empty ("wrap"); the scanner checks what
 * neither sees: the commas between items, the bracket closing the array and
 * that nothing but whitespace lies between top-level values.
 */
#include "jsonitems.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mode { M_TOP, M_OBJECT, M_LIST, M_AFTER_LIST };

/* What may come next inside the items array. */
enum next { N_FIRST, N_ITEM, N_COMMA };

struct json_items {
	const char *file;
	const kv_limits *lim;
	json_item_fn fn;
	void *arg;

	enum mode mode;
	bool is_list;		/* a List was seen: nothing may follow it */
	unsigned depth;
	bool in_str, esc;
	uint64_t str_len;
	uint64_t offset;	/* bytes consumed */

	/* depth-1 key tracking, to recognise "items": [ */
	bool expect_key;
	bool key_capture;
	char key[8];
	size_t key_len;
	bool key_overflow;
	bool last_key_items;

	kv_buf item;		/* bytes of the current item */
	kv_buf wrap;		/* the List, with "items": [] */
	enum next next;
	bool in_item;
	unsigned item_depth;	/* depth at which the item value started */
	uint64_t item_start;
	size_t nitems;
};

json_items *
json_items_new(const char *file, const kv_limits *lim, json_item_fn fn,
    void *arg)
{
	json_items *s = xcalloc(1, sizeof(*s));

	s->file = file;
	s->lim = lim;
	s->fn = fn;
	s->arg = arg;
	return s;
}

void
json_items_free(json_items *s)
{
	if (s == NULL)
		return;
	kv_buf_free(&s->item);
	kv_buf_free(&s->wrap);
	free(s);
}

size_t
json_items_count(const json_items *s)
{
	return s->nitems;
}

static int
emit(json_items *s, kv_err *err)
{
	json_error_t jerr;
	json_t *obj;
	kv_err inner = {0};
	int rc;

	if (++s->nitems > s->lim->items)
		return kv_seterr(err, "%s: more than %llu objects "
		    "(KVSCOPE_MAX_ITEMS)", s->file,
		    (unsigned long long)s->lim->items);
	obj = json_loadb(s->item.data, s->item.len, JSON_REJECT_DUPLICATES,
	    &jerr);
	if (obj == NULL)
		return kv_seterr(err, "%s: item %zu (byte %llu): not valid "
		    "JSON: %s", s->file, s->nitems - 1,
		    (unsigned long long)(s->item_start + (uint64_t)
		    (jerr.position > 0 ? jerr.position : 0)), jerr.text);
	if (!json_is_object(obj)) {
		json_decref(obj);
		return kv_seterr(err, "%s: item %zu: expected an object",
		    s->file, s->nitems - 1);
	}
	rc = s->fn(s->arg, obj, s->nitems - 1, &inner);
	json_decref(obj);
	s->item.len = 0;
	if (rc != KV_OK)
		return kv_seterr(err, "%s: %s", s->file, inner.msg);
	return KV_OK;
}

static int
bad(json_items *s, kv_err *err, const char *what)
{
	return kv_seterr(err, "%s: byte %llu: %s", s->file,
	    (unsigned long long)s->offset, what);
}

/* The List around the items, with its items array left empty. */
static int
check_list(json_items *s, kv_err *err)
{
	json_error_t jerr;
	json_t *w;

	w = json_loadb(s->wrap.data, s->wrap.len, JSON_REJECT_DUPLICATES,
	    &jerr);
	s->wrap.len = 0;
	if (w == NULL)
		return bad(s, err, "the List around the items is not valid "
		    "JSON");
	json_decref(w);
	return KV_OK;
}

/* Append byte c to b, an item or the List around the items. */
static int
keep_in(json_items *s, kv_buf *b, char c, kv_err *err)
{
	kv_buf_append(b, &c, 1);
	if (b->len > s->lim->object_bytes)
		return kv_seterr(err, "%s: byte %llu: object larger than %llu "
		    "bytes (KVSCOPE_MAX_OBJECT_BYTES)", s->file,
		    (unsigned long long)s->offset,
		    (unsigned long long)s->lim->object_bytes);
	return KV_OK;
}

/* Keep byte c of the current item or of the List around the items. */
static int
keep(json_items *s, char c, kv_err *err)
{
	if (s->in_item)
		return keep_in(s, &s->item, c, err);
	if (s->mode == M_AFTER_LIST)
		return keep_in(s, &s->wrap, c, err);
	return KV_OK;
}

/* One byte outside a string. */
static int
structural(json_items *s, char c, kv_err *err)
{
	switch (c) {
	case '{':
	case '[':
		if (s->depth == 0) {
			if (c != '{' || s->is_list)
				return bad(s, err, s->is_list ?
				    "data after the List" :
				    "expected a List object or JSON Lines");
			s->mode = M_OBJECT;
			s->in_item = true;
			s->item_depth = 0;
			s->item_start = s->offset;
			s->item.len = 0;
			s->expect_key = true;
			s->last_key_items = false;
		} else if (s->depth == 1 && s->mode == M_OBJECT && c == '[' &&
		    s->last_key_items) {
			/* {"items": [ : a List.  Its prefix is checked with
			 * the rest of it at the end. */
			if (s->nitems > 0)
				return bad(s, err, "a List after JSON Lines "
				    "objects");
			s->mode = M_LIST;
			s->is_list = true;
			s->in_item = false;
			s->next = N_FIRST;
			kv_buf_append(&s->wrap, s->item.data, s->item.len);
			kv_buf_append(&s->wrap, "[", 1);
			s->item.len = 0;
			if (keep_in(s, &s->wrap, ']', err) != KV_OK)
				return KV_ERR;
		} else if (s->depth == 2 && s->mode == M_LIST) {
			if (s->next == N_COMMA)
				return bad(s, err, "expected ',' or ']' after "
				    "an item of the List");
			s->in_item = true;
			s->item_depth = 2;
			s->item_start = s->offset;
			s->item.len = 0;
		}
		if (++s->depth > s->lim->depth)
			return bad(s, err, "nesting too deep "
			    "(KVSCOPE_MAX_DEPTH)");
		if (s->depth == 1)
			s->expect_key = true;
		break;
	case '}':
	case ']':
		if (s->depth == 0)
			return bad(s, err, "unbalanced brackets");
		s->depth--;
		if (s->in_item && s->depth == s->item_depth) {
			int rc;

			if ((rc = keep_in(s, &s->item, c, err)) != KV_OK)
				return rc;
			s->in_item = false;
			if ((s->mode == M_OBJECT || s->mode == M_LIST) &&
			    (rc = emit(s, err)) != KV_OK)
				return rc;
			if (s->mode == M_OBJECT)
				s->mode = M_TOP;
			else
				s->next = N_COMMA;
			return 1;	/* byte already stored */
		}
		if (s->depth == 1 && s->mode == M_LIST) {
			if (c != ']')
				return bad(s, err, "the items of the List end "
				    "with '}'");
			if (s->next == N_ITEM)
				return bad(s, err, "',' before ']' in the "
				    "List");
			s->mode = M_AFTER_LIST;
			return 1;	/* already in wrap, as "[]" */
		}
		if (s->depth == 0 && s->mode == M_AFTER_LIST) {
			int rc;

			if ((rc = keep_in(s, &s->wrap, c, err)) != KV_OK)
				return rc;
			s->mode = M_TOP;
			if ((rc = check_list(s, err)) != KV_OK)
				return rc;
			return 1;
		}
		if (s->depth == 0)
			s->mode = M_TOP;
		break;
	case ',':
		if (s->depth == 0)
			return bad(s, err, "expected a List object or JSON "
			    "Lines");
		if (s->depth == 1)
			s->expect_key = true;
		if (s->depth == 2 && s->mode == M_LIST && !s->in_item) {
			if (s->next != N_COMMA)
				return bad(s, err, "',' without an item "
				    "before it in the List");
			s->next = N_ITEM;
		}
		break;
	case ' ':
	case '\t':
	case '\n':
	case '\r':
		break;
	default:
		if (s->depth == 0)
			return bad(s, err, "expected a List object or JSON "
			    "Lines");
		if (s->depth == 2 && s->mode == M_LIST && !s->in_item)
			return bad(s, err, "an item of the List is not an "
			    "object");
		break;
	}
	return KV_OK;
}

int
json_items_feed(json_items *s, const char *buf, size_t len, kv_err *err)
{
	for (size_t i = 0; i < len; i++, s->offset++) {
		char c = buf[i];
		int rc;

		if (c == '\0')
			return bad(s, err, "NUL byte");
		if (s->in_str) {
			if (++s->str_len > s->lim->string_bytes)
				return bad(s, err, "string longer than the "
				    "limit (KVSCOPE_MAX_STRING_BYTES)");
			if (s->esc)
				s->esc = false;
			else if (c == '\\')
				s->esc = true;
			else if (c == '"') {
				s->in_str = false;
				if (s->key_capture) {
					s->key_capture = false;
					s->last_key_items = !s->key_overflow &&
					    s->key_len == 5 &&
					    memcmp(s->key, "items", 5) == 0;
				}
			} else if (s->key_capture) {
				if (s->key_len < sizeof(s->key))
					s->key[s->key_len++] = c;
				else
					s->key_overflow = true;
			}
			if ((rc = keep(s, c, err)) != KV_OK)
				return rc;
			continue;
		}
		if (c == '"') {
			if (s->depth == 0)
				return bad(s, err, "expected a List object "
				    "or JSON Lines");
			if (s->depth == 2 && s->mode == M_LIST && !s->in_item)
				return bad(s, err, "an item of the List is "
				    "not an object");
			s->in_str = true;
			s->str_len = 0;
			if (s->depth == 1 && s->expect_key) {
				s->expect_key = false;
				s->key_capture = true;
				s->key_len = 0;
				s->key_overflow = false;
			}
			if ((rc = keep(s, c, err)) != KV_OK)
				return rc;
			continue;
		}
		rc = structural(s, c, err);
		if (rc < 0)
			return rc;
		if (rc == 0 && (rc = keep(s, c, err)) != KV_OK)
			return rc;
	}
	return KV_OK;
}

int
json_items_finish(json_items *s, kv_err *err)
{
	if (s->in_str || s->depth != 0)
		return kv_seterr(err, "%s: ends in the middle of a JSON value "
		    "(truncated?)", s->file);
	return KV_OK;
}
