/*
 * jsonitems.c - the item scanner (see jsonitems.h).
 *
 * States: between top-level values (depth 0); inside the top object before
 * its "items" array (bytes kept, since a JSON Lines object is an item in
 * its own right); inside the items array (each element is buffered and
 * parsed on its own); after the array (the rest of the List is skipped).
 */
#include "jsonitems.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mode { M_TOP, M_OBJECT, M_LIST, M_AFTER_LIST };

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
	free(s);
}

size_t
json_items_count(const json_items *s)
{
	return s->nitems;
}

static int
emit(json_items *s, const char *data, size_t len, kv_err *err)
{
	json_error_t jerr;
	json_t *obj;
	kv_err inner = {0};
	int rc;

	if (++s->nitems > s->lim->items)
		return kv_seterr(err, "%s: more than %llu objects "
		    "(KVSCOPE_MAX_ITEMS)", s->file,
		    (unsigned long long)s->lim->items);
	obj = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
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
			/* {"items": [ : a List.  Forget the prefix. */
			s->mode = M_LIST;
			s->is_list = true;
			s->in_item = false;
			s->item.len = 0;
		} else if (s->depth == 2 && s->mode == M_LIST) {
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
			s->in_item = false;
			return 1;	/* the item ends with this byte */
		}
		if (s->depth == 1 && s->mode == M_LIST)
			s->mode = M_AFTER_LIST;
		if (s->depth == 0)
			s->mode = M_TOP;
		break;
	case ',':
		if (s->depth == 1)
			s->expect_key = true;
		break;
	case ':':
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

/* Bytes that need a look outside strings: everything else (numbers,
 * literals, ':' and whitespace) only matters at depth 1 or 2. */
static inline bool
plain(char c)
{
	return c != '"' && c != '{' && c != '}' && c != '[' && c != ']' &&
	    c != '\0';
}

/*
 * The bytes of the current item are not copied one at a time: seg marks
 * where they start in buf, and they are taken in one piece when the item
 * ends (parsed in place when the whole item is in this buffer) or when
 * the buffer does.  Runs of ordinary string bytes, and of scalars deeper
 * than the List, are skipped without the state machine.
 */
int
json_items_feed(json_items *s, const char *buf, size_t len, kv_err *err)
{
	const uint64_t base = s->offset;
	size_t seg = s->in_item ? 0 : SIZE_MAX;
	int rc = KV_OK;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (s->in_str) {
			if (!s->key_capture && !s->esc) {
				/* a run of ordinary bytes */
				size_t j = i;
				uint64_t room = s->lim->string_bytes - s->str_len;

				while (j < len && buf[j] != '"' &&
				    buf[j] != '\\' && buf[j] != '\0')
					j++;
				if (j - i > room) {
					s->offset = base + i + room;
					rc = bad(s, err, "string longer than the "
					    "limit (KVSCOPE_MAX_STRING_BYTES)");
					goto out;
				}
				s->str_len += j - i;
				i = j;
				if (i == len)
					break;
				c = buf[i];
			}
			if (c == '\0') {
				s->offset = base + i;
				rc = bad(s, err, "NUL byte");
				goto out;
			}
			if (++s->str_len > s->lim->string_bytes) {
				s->offset = base + i;
				rc = bad(s, err, "string longer than the limit "
				    "(KVSCOPE_MAX_STRING_BYTES)");
				goto out;
			}
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
			continue;
		}
		if (s->depth >= 3 || (s->depth == 2 && (s->in_item ||
		    s->mode != M_LIST))) {
			while (i < len && plain(buf[i]))
				i++;
			if (i == len)
				break;
			c = buf[i];
		}
		if (c == '\0') {
			s->offset = base + i;
			rc = bad(s, err, "NUL byte");
			goto out;
		}
		if (c == '"') {
			s->offset = base + i;
			if (s->depth == 0) {
				rc = bad(s, err, "expected a List object "
				    "or JSON Lines");
				goto out;
			}
			if (s->depth == 2 && s->mode == M_LIST && !s->in_item) {
				rc = bad(s, err, "an item of the List is "
				    "not an object");
				goto out;
			}
			s->in_str = true;
			s->str_len = 0;
			if (s->depth == 1 && s->expect_key) {
				s->expect_key = false;
				s->key_capture = true;
				s->key_len = 0;
				s->key_overflow = false;
			}
			continue;
		}
		{
			bool was_in = s->in_item;

			s->offset = base + i;
			rc = structural(s, c, err);
			if (rc < 0)
				goto out;
			if (!was_in && s->in_item) {
				seg = i;	/* an item starts here */
			} else if (was_in && !s->in_item && rc == 1) {
				/* the item ends with this byte */
				const char *data = buf + seg;
				size_t n = i + 1 - seg;

				if (s->item.len > 0) {
					kv_buf_append(&s->item, data, n);
					data = s->item.data;
					n = s->item.len;
				}
				if (s->mode == M_OBJECT || s->mode == M_LIST)
					rc = emit(s, data, n, err);
				else
					rc = KV_OK;
				s->item.len = 0;
				seg = SIZE_MAX;
				if (rc != KV_OK)
					goto out;
				if (s->mode == M_OBJECT)
					s->mode = M_TOP;
			} else if (was_in && !s->in_item) {
				/* {"items": [ : the prefix was not an item */
				s->item.len = 0;
				seg = SIZE_MAX;
			}
			rc = KV_OK;
		}
	}
	if (s->in_item && seg != SIZE_MAX) {
		kv_buf_append(&s->item, buf + seg, len - seg);
		if (s->item.len > s->lim->member_bytes) {
			s->offset = base + len;
			return bad(s, err, "object too large");
		}
	}
	s->offset = base + len;
	return KV_OK;
out:
	return rc;
}

int
json_items_finish(json_items *s, kv_err *err)
{
	if (s->in_str || s->depth != 0)
		return kv_seterr(err, "%s: ends in the middle of a JSON value "
		    "(truncated?)", s->file);
	return KV_OK;
}
