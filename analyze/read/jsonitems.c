/*
 * jsonitems.c - the item scanner (see jsonitems.h).
 *
 * States: between top-level values (depth 0); inside the top object before
 * its "items" array (bytes kept, since a JSON Lines object is an item in
 * its own right); inside the items array (each element is buffered and
 * parsed on its own; the array is the whole file when the file is a bare
 * JSON array); after the array (the rest of the List is kept).
 *
 * Every byte is checked by someone: jansson parses each item, and the List
 * itself with its items array left empty ("wrap"); the scanner checks what
 * neither sees: the commas between items, the bracket closing the array and
 * that nothing but whitespace lies between top-level values.  The one
 * exception is a skipped subtree (below): its strings, NUL bytes, nesting
 * and size are checked, its commas and colons are not, nor how a dropped
 * scalar is spelled or whether a key no loader reads repeats.
 *
 * Skipping: subtrees the model loader never reads (jsonskip.c's table:
 * metadata.managedFields of every object, status.images of nodes, every
 * key of a pod's spec but those its loader reads, ...) are cut out of
 * the item's text, key and comma with the value, before jansson sees
 * it (the first member of an object is replaced by null).
 * jsonskip.c tracks the keys of the first levels of each item for that;
 * KVSCOPE_NO_SKIP=1 turns it off (the tests compare both).
 */
#include "analyze/read/jsonitems.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/jsonscan.h"

/* What a step of the scan says. */
enum step { S_NEXT, S_END, S_FAIL, S_ITEM_FAIL };

static int deliver(void *arg, json_t *obj, const json_error_t *jerr,
    const char *aside, size_t aside_len, size_t index, uint64_t start,
    kv_err *err);

json_items *
json_items_new(const char *file, const kv_limits *lim, json_item_fn fn,
    void *arg)
{
	json_items *s = xcalloc(1, sizeof(*s));

	s->threaded = jp_threaded();
	s->file = file;
	s->lim = lim;
	s->fn = fn;
	s->arg = arg;
	s->arr_depth = 2;
	s->profile = skip_profile(file);
	jp_queue_init(&s->q, deliver, s);
	return s;
}

void
json_items_keep_all(json_items *s)
{
	s->profile = P_OFF;
}

void
json_items_free(json_items *s)
{
	if (s == NULL)
		return;
	jp_queue_free(&s->q);
	kv_buf_free(&s->item);
	kv_buf_free(&s->wrap);
	kv_buf_free(&s->aside);
	free(s);
}

size_t
json_items_count(const json_items *s)
{
	return s->q.failed ? s->q.nfailed : s->nitems;
}

/* An item parsed (obj, or NULL with jerr): check it and give it to the
 * callback (on a parse worker, when there are workers: jsonpool.h). */
static int
deliver(void *arg, json_t *obj, const json_error_t *jerr,
    const char *aside, size_t aside_len, size_t index, uint64_t start,
    kv_err *err)
{
	json_items *s = arg;
	json_aside a = { aside, aside_len };
	kv_err inner = {0};
	int rc;

	if (obj == NULL)
		return kv_seterr(err, "%s: item %zu (byte %llu): not valid "
		    "JSON: %s", s->file, index,
		    (unsigned long long)(start + (uint64_t)
		    (jerr->position > 0 ? jerr->position : 0)), jerr->text);
	if (!json_is_object(obj)) {
		jp_release(obj);
		return kv_seterr(err, "%s: item %zu: expected an object",
		    s->file, index);
	}
	rc = s->fn(s->arg, obj, aside_len > 0 ? &a : NULL, index, &inner);
	jp_release(obj);
	if (rc != KV_OK)
		return kv_seterr(err, "%s: %s", s->file, inner.msg);
	return KV_OK;
}

/* Every item queued, delivered. */
static int
drain(json_items *s, kv_err *err)
{
	return jp_drain(&s->q, 0, 0, err);
}

#define MAX_QUEUED 16		/* batches in flight per stream */

/* One complete item, and what it set aside. */
static int
emit(json_items *s, const char *data, size_t len, kv_err *err)
{
	const char *aside = s->aside.data;
	size_t alen = s->aside.len;

	if (++s->nitems > s->lim->items) {
		int rc = drain(s, err);

		if (rc != KV_OK)
			return rc;
		return kv_seterr(err, "%s: more than %llu objects "
		    "(KVSCOPE_MAX_ITEMS)", s->file,
		    (unsigned long long)s->lim->items);
	}
	if (!s->threaded)
		return jp_parse_deliver(data, len, aside, alen, s->nitems - 1,
		    s->item_start, deliver, s, err);
	jp_add(&s->q, data, len, aside, alen, s->nitems - 1, s->item_start);
	return jp_drain(&s->q, MAX_QUEUED, MAX_QUEUED / 2, err);
}

int
json_items_settle(json_items *s, kv_err *err)
{
	return s->threaded ? drain(s, err) : KV_OK;
}

/* An error of the scanner itself: an item before it that failed is the
 * first error in the file, and wins. */
static int
scan_error(json_items *s, kv_err *err)
{
	kv_err mine = *err;

	kv_clearerr(err);
	if (drain(s, err) != KV_OK && err->set)
		return KV_ERR;
	*err = mine;
	return KV_ERR;
}

static int
bad(json_items *s, kv_err *err, const char *what)
{
	return kv_seterr(err, "%s: byte %llu: %s", s->file,
	    (unsigned long long)s->offset, what);
}

static int
too_large(json_items *s, uint64_t at, kv_err *err)
{
	return kv_seterr(err, "%s: byte %llu: object larger than %llu bytes "
	    "(KVSCOPE_MAX_OBJECT_BYTES)", s->file, (unsigned long long)at,
	    (unsigned long long)s->lim->object_bytes);
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
		return too_large(s, s->offset, err);
	return KV_OK;
}

/* --- structure ---------------------------------------------------------- */

static void
start_item(json_items *s, unsigned depth)
{
	s->in_item = true;
	s->item_depth = depth;
	s->item_start = s->offset;
	s->item.len = 0;
	s->aside.len = 0;
	s->aside_on = s->aside_next = false;
}

/* '{' or '[' at depth 0: a JSON Lines object, or a bare array of them. */
static int
open_top(json_items *s, char c, kv_err *err)
{
	if (s->is_list)
		return bad(s, err, "data after the List");
	if (c == '[') {
		if (s->nitems > 0)
			return bad(s, err, "an array after JSON Lines "
			    "objects");
		s->mode = M_LIST;
		s->is_list = true;
		s->arr_depth = 1;
		s->next = N_FIRST;
		return KV_OK;
	}
	s->mode = M_OBJECT;
	start_item(s, 0);
	s->expect_key = true;
	s->last_key_items = false;
	return KV_OK;
}

static int
open_bracket(json_items *s, char c, kv_err *err)
{
	if (s->depth == 0) {
		if (open_top(s, c, err) != KV_OK)
			return KV_ERR;
	} else if (s->depth == 1 && s->mode == M_OBJECT && c == '[' &&
	    s->last_key_items) {
		/* {"items": [ : a List.  Its prefix is checked with the rest
		 * of it at the end. */
		if (s->nitems > 0)
			return bad(s, err, "a List after JSON Lines objects");
		s->mode = M_LIST;
		s->is_list = true;
		s->in_item = false;
		s->next = N_FIRST;
		kv_buf_append(&s->wrap, s->item.data, s->item.len);
		kv_buf_append(&s->wrap, "[", 1);
		s->item.len = 0;
		if (keep_in(s, &s->wrap, ']', err) != KV_OK)
			return KV_ERR;
	} else if (s->depth == s->arr_depth && s->mode == M_LIST &&
	    !s->in_item) {
		if (s->next == N_COMMA)
			return bad(s, err, "expected ',' or ']' after an item "
			    "of the List");
		start_item(s, s->arr_depth);
	}
	if (++s->depth > s->lim->depth)
		return bad(s, err, "nesting too deep (KVSCOPE_MAX_DEPTH)");
	if (s->depth == 1)
		s->expect_key = true;
	return KV_OK;
}

/* '}' or ']': 1 when the byte ends an item or was kept by this function,
 * else KV_OK or KV_ERR. */
static int
close_bracket(json_items *s, char c, kv_err *err)
{
	if (s->depth == 0)
		return bad(s, err, "unbalanced brackets");
	s->depth--;
	if (s->in_item && s->depth == s->item_depth) {
		/* the item ends with this byte: the caller checks its size
		 * and emits it */
		s->in_item = false;
		if (s->mode == M_LIST)
			s->next = N_COMMA;
		return 1;
	}
	if (s->depth == s->arr_depth - 1 && s->mode == M_LIST) {
		if (c != ']')
			return bad(s, err, "the items of the List end with "
			    "'}'");
		if (s->next == N_ITEM)
			return bad(s, err, "',' before ']' in the List");
		s->mode = s->depth == 0 ? M_TOP : M_AFTER_LIST;
		return 1;	/* already in wrap, as "[]" */
	}
	if (s->depth == 0 && s->mode == M_AFTER_LIST) {
		if (keep_in(s, &s->wrap, c, err) != KV_OK)
			return KV_ERR;
		s->mode = M_TOP;
		return check_list(s, err) != KV_OK ? KV_ERR : 1;
	}
	if (s->depth == 0)
		s->mode = M_TOP;
	return KV_OK;
}

/* One byte outside a string, not a quote. */
static int
structural(json_items *s, char c, kv_err *err)
{
	switch (c) {
	case '{':
	case '[':
		return open_bracket(s, c, err);
	case '}':
	case ']':
		return close_bracket(s, c, err);
	case ',':
		if (s->depth == 0)
			return bad(s, err, "expected a List object or JSON "
			    "Lines");
		if (s->depth == 1)
			s->expect_key = true;
		if (s->depth == s->arr_depth && s->mode == M_LIST &&
		    !s->in_item) {
			if (s->next != N_COMMA)
				return bad(s, err, "',' without an item "
				    "before it in the List");
			s->next = N_ITEM;
		}
		return KV_OK;
	case ' ':
	case '\t':
	case '\n':
	case '\r':
		return KV_OK;
	default:
		if (s->depth == 0)
			return bad(s, err, "expected a List object or JSON "
			    "Lines");
		if (s->depth == s->arr_depth && s->mode == M_LIST &&
		    !s->in_item)
			return bad(s, err, "an item of the List is not an "
			    "object");
		return KV_OK;
	}
}

/* --- the byte loop ------------------------------------------------------ */

/* Bytes that need a look inside an item, below its top level: everything
 * else (numbers, literals, ',', ':' and whitespace) only matters at depth
 * 1 or 2, or around the items. */
static const bool not_plain[256] = {
	['"'] = true, ['{'] = true, ['}'] = true, ['['] = true, [']'] = true,
	['\0'] = true,
};

static inline bool
plain(char c)
{
	return !not_plain[(unsigned char)c];
}

/* The first byte of buf[i..stop) that ends a run of ordinary string
 * bytes ('"', '\\' or NUL), or stop; eight bytes at a time.  In a word
 * that holds one, the lowest flagged byte is the first (a borrow only
 * flags bytes above a zero): on a little-endian machine its index is
 * the count of trailing zero bits over eight. */
static size_t
string_run(const char *buf, size_t i, size_t stop)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;

	while (i + 8 <= stop) {
		uint64_t v, q, b, hit;

		memcpy(&v, buf + i, 8);
		q = v ^ (ones * '"');
		b = v ^ (ones * '\\');
		hit = ((v - ones) & ~v & highs) | ((q - ones) & ~q & highs) |
		    ((b - ones) & ~b & highs);
		if (hit != 0) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return i + (size_t)(__builtin_ctzll(hit) >> 3);
#else
			break;
#endif
		}
		i += 8;
	}
	while (i < stop && buf[i] != '"' && buf[i] != '\\' && buf[i] != '\0')
		i++;
	return i;
}

/*
 * From byte i, outside a string, in a container of the item whose keys
 * are not tracked (or a value being skipped), at depth d0: only strings
 * and brackets matter until the bracket that closes it, so they are taken
 * here in one loop, without the state machine.  Returns the first byte
 * not taken: that closing bracket, stop, or a byte the state machine must
 * see for itself (a NUL, a string that does not end before stop or is
 * near its limit, a bracket beyond the depth limit); it reports them.
 */
static size_t
untracked_run(json_items *s, const char *buf, size_t i, size_t stop)
{
	unsigned d0 = s->depth;

	while (i < stop) {
		char c = buf[i];
		size_t j;

		if (plain(c)) {
			i++;
			continue;
		}
		if (c == '"') {
			for (j = i + 1;;) {
				j = string_run(buf, j, stop);
				if (j >= stop || buf[j] != '\\')
					break;
				if (j + 2 > stop || buf[j + 1] == '\0')
					return i;
				j += 2;		/* an escape and its byte */
			}
			if (j >= stop || buf[j] != '"' ||
			    j - i > s->lim->string_bytes)
				return i;
			i = j + 1;
		} else if (c == '{' || c == '[') {
			if (s->depth + 1 > s->lim->depth)
				return i;
			s->depth++;
			opened(s, c == '{', false);
			i++;
		} else if ((c == '}' || c == ']') && s->depth > d0) {
			s->depth--;
			i++;
		} else
			return i;	/* d0's closing bracket, or a NUL */
	}
	return i;
}

/* A UTF-8 byte order mark at the very start of the file is dropped. */
static int
eat_bom(json_items *s, const chunk_in *in, size_t *i, kv_err *err)
{
	static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };

	while (s->bom < 3 && *i < in->len) {
		if ((unsigned char)in->buf[*i] == bom[s->bom]) {
			s->bom++;
			(*i)++;
		} else if (s->bom == 0)
			s->bom = 3;
		else {
			s->offset = in->base + *i;
			return bad(s, err, "an incomplete UTF-8 byte order "
			    "mark");
		}
	}
	return KV_OK;
}

static void
end_string(json_items *s, chunk_in *in, size_t i)
{
	s->in_str = false;
	if (s->cap_top)
		s->last_key_items = !s->key_overflow && !s->key_escaped &&
		    s->key_len == 5 &&
		    memcmp(s->key, "items", 5) == 0;
	if (s->cap_item)
		key_done(s);
	s->cap_top = s->cap_item = false;
	if (s->skipping && s->skip_str)
		end_skip(s, in, i);
}

/* n bytes of the key being captured (an escape's are not: such a key is
 * marked key_escaped). */
static void
take_key(json_items *s, const char *p, size_t n)
{
	size_t room = sizeof(s->key) - s->key_len;

	if (n > room) {
		s->key_overflow = true;
		n = room;
	}
	memcpy(s->key + s->key_len, p, n);
	s->key_len += n;
}

/* Byte *i is inside a string; a run of ordinary bytes is taken at once. */
static enum step
in_string(json_items *s, chunk_in *in, size_t *i, size_t stop, kv_err *err)
{
	char c = in->buf[*i];

	if (!s->cap_top && !s->esc && s->in_item) {
		size_t j = string_run(in->buf, *i, stop);
		uint64_t room = s->lim->string_bytes - s->str_len;

		if (j - *i > room) {
			s->offset = in->base + *i + room;
			bad(s, err, "string longer than the limit "
			    "(KVSCOPE_MAX_STRING_BYTES)");
			return S_FAIL;
		}
		if (s->cap_item)
			take_key(s, in->buf + *i, j - *i);
		s->str_len += j - *i;
		*i = j;
		if (j == in->len)
			return S_END;
		c = in->buf[j];
	}
	s->offset = in->base + *i;
	if (c == '\0') {
		bad(s, err, "NUL byte");
		return S_FAIL;
	}
	if (++s->str_len > s->lim->string_bytes) {
		bad(s, err, "string longer than the limit "
		    "(KVSCOPE_MAX_STRING_BYTES)");
		return S_FAIL;
	}
	if (s->esc)
		s->esc = false;
	else if (c == '\\')
		s->esc = s->key_escaped = true;
	else if (c == '"')
		end_string(s, in, *i);
	else if (s->cap_top || s->cap_item)
		take_key(s, &c, 1);
	if (s->in_item && *i >= stop) {
		too_large(s, in->base + *i, err);
		return S_FAIL;
	}
	if (!s->in_item && s->mode == M_AFTER_LIST &&
	    keep_in(s, &s->wrap, c, err) != KV_OK)
		return S_FAIL;
	return S_NEXT;
}

/* A quote outside a string: a key (captured when it matters) or a
 * string value (skipped when it is never read). */
static enum step
open_string(json_items *s, chunk_in *in, size_t i, kv_err *err)
{
	unsigned rel = tracked_level(s);

	if (s->depth == 0) {
		bad(s, err, "expected a List object or JSON Lines");
		return S_FAIL;
	}
	if (s->depth == s->arr_depth && s->mode == M_LIST && !s->in_item) {
		bad(s, err, "an item of the List is not an object");
		return S_FAIL;
	}
	s->in_str = true;
	s->str_len = 0;
	s->key_len = 0;
	s->key_overflow = s->key_escaped = false;
	if (rel > 0 && s->lv[rel].is_obj && s->lv[rel].want_key) {
		key_starts(s, rel);
		s->cap_item = true;
	} else if (rel > 0) {
		bool child;

		value_starts(s, in, i, rel, true, &child);
	}
	if (s->depth == 1 && s->expect_key) {
		s->expect_key = false;
		s->cap_top = true;
	}
	return S_NEXT;
}

/* An item ends with byte i: take its bytes and emit it. */
static enum step
item_ends(json_items *s, chunk_in *in, size_t i, size_t stop, kv_err *err)
{
	const char *data = in->buf + in->seg;
	size_t n = i + 1 - in->seg;
	int rc = KV_OK;

	if (i >= stop) {
		too_large(s, in->base + i, err);
		return S_FAIL;
	}
	if (s->item.len > 0) {
		kv_buf_append(&s->item, data, n);
		data = s->item.data;
		n = s->item.len;
	}
	if (s->mode == M_OBJECT || s->mode == M_LIST)
		rc = emit(s, data, n, err);
	s->item.len = 0;
	in->seg = SIZE_MAX;
	if (rc != KV_OK)
		return S_ITEM_FAIL;
	if (s->mode == M_OBJECT)
		s->mode = M_TOP;
	return S_NEXT;
}

/* A bracket, comma, colon, scalar byte or whitespace outside a string. */
static enum step
outside(json_items *s, chunk_in *in, size_t i, size_t stop, char c,
    kv_err *err)
{
	bool was_in = s->in_item, child = false;
	unsigned rel = tracked_level(s);
	int rc;

	if (rel > 0 && (c == '{' || c == '['))
		value_starts(s, in, i, rel, false, &child);
	else if (rel > 0)
		track_byte(s, in, i, rel, c);
	/* {"items": [ turns the prefix kept so far into the start of the
	 * List around the items */
	if (was_in && s->mode == M_OBJECT && s->depth == 1 && c == '[' &&
	    s->last_key_items && in->seg != SIZE_MAX) {
		kv_buf_append(&s->item, in->buf + in->seg, i - in->seg);
		in->seg = i;
	}
	if ((rc = structural(s, c, err)) < 0)
		return S_FAIL;
	if (!was_in && s->in_item) {
		in->seg = i;	/* an item starts here */
		opened(s, true, s->profile != P_OFF);
		return S_NEXT;
	}
	if (was_in && !s->in_item && rc == 1)
		return item_ends(s, in, i, stop, err);
	if (was_in && !s->in_item) {
		/* {"items": [ : the prefix went to wrap */
		s->item.len = 0;
		in->seg = SIZE_MAX;
		return S_NEXT;
	}
	if (rc == 1)		/* kept by structural() */
		return S_NEXT;
	if (s->in_item && (c == '{' || c == '['))
		opened(s, c == '{', child);
	if (s->skipping && !s->skip_str && s->depth == s->skip_depth)
		end_skip(s, in, i);
	if (s->aside_on && s->depth == s->aside_depth)
		end_aside(s, in, i);
	if (s->in_item && i >= stop) {
		too_large(s, in->base + i, err);
		return S_FAIL;
	}
	if (!s->in_item && s->mode == M_AFTER_LIST &&
	    keep_in(s, &s->wrap, c, err) != KV_OK)
		return S_FAIL;
	return S_NEXT;
}

/* One step from byte *i outside a string. */
static enum step
step_outside(json_items *s, chunk_in *in, size_t *i, size_t stop,
    kv_err *err)
{
	char c;

	if (s->in_item && s->depth >= 2 && tracked_level(s) == 0) {
		*i = untracked_run(s, in->buf, *i, stop);
		if (*i == in->len)
			return S_END;
	}
	c = in->buf[*i];
	s->offset = in->base + *i;
	if (s->skip_scalar && scalar_skipped(s, in, *i, c)) {
		if (*i >= stop) {
			too_large(s, s->offset, err);
			return S_FAIL;
		}
		return S_NEXT;
	}
	if (c == '\0') {
		bad(s, err, "NUL byte");
		return S_FAIL;
	}
	if (c == '"') {
		enum step st = open_string(s, in, *i, err);

		if (st == S_NEXT && s->in_item && *i >= stop) {
			too_large(s, in->base + *i, err);
			return S_FAIL;
		}
		if (st == S_NEXT && !s->in_item && s->mode == M_AFTER_LIST &&
		    keep_in(s, &s->wrap, c, err) != KV_OK)
			return S_FAIL;
		return st;
	}
	return outside(s, in, *i, stop, c, err);
}

/* In an item: the index in in's buffer at which it gets too large (0:
 * before the buffer), or the buffer's length when it ends sooner. */
static size_t
item_end(const json_items *s, const chunk_in *in)
{
	uint64_t lim = s->item_start + s->lim->object_bytes;

	if (!s->in_item || lim >= in->base + in->len)
		return in->len;
	return lim > in->base ? (size_t)(lim - in->base) : 0;
}

/*
 * The bytes of the current item are not copied one at a time: in.seg
 * marks where they start in buf, and they are taken in one piece when the
 * item ends (parsed in place when the whole item is in this buffer), when
 * a skipped value starts, or when the buffer ends.  Runs of ordinary
 * string bytes, and whole containers below the levels that are tracked
 * (untracked_run), are taken without the state machine, but never past
 * the byte at which the item would outgrow KVSCOPE_MAX_OBJECT_BYTES.
 * The bytes of the List around the items (after the array) are few and
 * kept one at a time.
 */
int
json_items_feed(json_items *s, const char *buf, size_t len, kv_err *err)
{
	chunk_in in = { buf, len, s->offset,
	    s->in_item && !s->skipping && !s->skip_scalar ? 0 : SIZE_MAX,
	    s->aside_on ? 0 : SIZE_MAX };
	size_t i = 0, end = len;
	uint64_t start = UINT64_MAX;	/* the item end was computed for */

	if (s->bom < 3 && eat_bom(s, &in, &i, err) != KV_OK)
		return scan_error(s, err);
	for (; i < len; i++) {
		size_t stop;
		enum step st;

		if ((s->in_item ? s->item_start : UINT64_MAX) != start) {
			start = s->in_item ? s->item_start : UINT64_MAX;
			end = item_end(s, &in);
		}
		stop = end > i ? end : i;
		st = s->in_str ? in_string(s, &in, &i, stop, err) :
		    step_outside(s, &in, &i, stop, err);
		if (st == S_END)
			break;
		if (st == S_ITEM_FAIL)
			return KV_ERR;		/* an item's error */
		if (st == S_FAIL)
			return scan_error(s, err);
	}
	if (s->in_item && in.seg != SIZE_MAX)
		kv_buf_append(&s->item, buf + in.seg, len - in.seg);
	if (s->aside_on)
		kv_buf_append(&s->aside, buf + in.aside_seg,
		    len - in.aside_seg);
	s->offset = in.base + len;
	return KV_OK;
}

int
json_items_finish(json_items *s, kv_err *err)
{
	if (drain(s, err) != KV_OK)
		return KV_ERR;
	if (s->in_str || s->depth != 0)
		return kv_seterr(err, "%s: ends in the middle of a JSON value "
		    "(truncated?)", s->file);
	return KV_OK;
}
