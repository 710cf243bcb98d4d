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

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

	/* items handed to the workers, in file order */
	struct job *qhead, *qtail;
	size_t qlen;
	struct job *cur;	/* the batch being filled */
	bool failed;		/* an item failed: take no more */
	size_t nfailed;		/* then: items up to that one */
};

/* --- item arenas -------------------------------------------------------------
 *
 * A parsed item lives only until the loader has read it, so its tree is
 * allocated from a bump arena (jansson's allocator, while the parsing
 * thread has an arena set) and dropped whole, instead of thousands of
 * malloc and free calls and a walk of the tree.  With no arena set (every
 * other use of jansson) the allocator is plain malloc and free, so a
 * json_dumps() string may still be given to free().  Not under ASan,
 * which should see every allocation.
 */
#if defined(__SANITIZE_ADDRESS__)
#define KV_ARENAS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KV_ARENAS 0
#endif
#endif
#ifndef KV_ARENAS
#define KV_ARENAS 1
#endif

#define CHUNK_BYTES (60 << 10)	/* under malloc's mmap threshold */
#define CACHED_CHUNKS 64

typedef struct chunk {
	struct chunk *next;
	size_t used, cap;
	size_t pad;		/* data stays 16-byte aligned */
} chunk;

typedef struct arena {
	chunk *head;
} arena;

static __thread arena *cur_arena;	/* set while this thread parses */
static __thread chunk *chunk_cache;
static __thread size_t nchunk_cache;

static void *
arena_malloc(size_t n)
{
	arena *a = cur_arena;
	chunk *c;
	void *p;

	if (a == NULL)
		return malloc(n);
	n = (n + 15) & ~(size_t)15;
	c = a->head;
	if (c == NULL || c->cap - c->used < n) {
		if (n <= CHUNK_BYTES && chunk_cache != NULL) {
			c = chunk_cache;
			chunk_cache = c->next;
			nchunk_cache--;
		} else {
			size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;

			if ((c = malloc(sizeof(*c) + cap)) == NULL)
				return NULL;
			c->cap = cap;
		}
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	p = (char *)(c + 1) + c->used;
	c->used += n;
	return p;
}

static void
arena_free_fn(void *p)
{
	if (cur_arena == NULL)
		free(p);
	/* else: memory of the item being parsed, dropped with its arena */
}

/* Drop every tree of the arena; chunks are kept for this thread's next
 * arenas. */
static void
arena_release(arena *a)
{
	while (a->head != NULL) {
		chunk *c = a->head;

		a->head = c->next;
		if (c->cap == CHUNK_BYTES && nchunk_cache < CACHED_CHUNKS) {
			c->next = chunk_cache;
			chunk_cache = c;
			nchunk_cache++;
		} else
			free(c);
	}
}

/* --- the parse workers ------------------------------------------------------ */

/* A batch of items for one worker: their bytes back to back, and the
 * parsed objects. */
typedef struct job {
	struct job *next;	/* in its stream, file order */
	struct job *pending;	/* in the pool's queue */
	kv_buf data;
	size_t n, cap, delivered;
	size_t *off, *len, *index;
	uint64_t *start;
	json_t **obj;
	json_error_t *jerr;
	int worker;		/* who parsed it, and frees it */
	arena mem;		/* the trees (KV_ARENAS) */
	bool done;
} job;

#define BATCH_ITEMS 32		/* items per batch ... */
#define BATCH_BYTES (256 << 10)	/* ... or bytes */
#define MAX_QUEUED 16		/* batches in flight per stream */

static struct {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	job *head, *tail;
	int nthreads;		/* 0: parse in the caller */
	job *garbage[4];	/* delivered batches, by worker */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	PTHREAD_COND_INITIALIZER, NULL, NULL, 0, { NULL } };

static void job_free(job *j);
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/*
 * A worker parses batches, and frees the trees of the batches it parsed
 * once they are delivered: glibc's malloc is slow when one thread frees
 * what another allocated (it doubled the CPU time of a load).
 */
static void *
worker(void *arg)
{
	int me = (int)(intptr_t)arg;

	pthread_mutex_lock(&pool.mu);
	for (;;) {
		job *j, *trash;

		while (pool.head == NULL && pool.garbage[me] == NULL)
			pthread_cond_wait(&pool.work, &pool.mu);
		trash = pool.garbage[me];
		pool.garbage[me] = NULL;
		j = pool.head;
		if (j != NULL) {
			pool.head = j->pending;
			if (pool.head == NULL)
				pool.tail = NULL;
			j->worker = me;
		}
		pthread_mutex_unlock(&pool.mu);
		while (trash != NULL) {
			job *next = trash->pending;

			job_free(trash);
			trash = next;
		}
		if (j == NULL) {
			pthread_mutex_lock(&pool.mu);
			continue;
		}
		if (KV_ARENAS)
			cur_arena = &j->mem;
		for (size_t i = 0; i < j->n; i++)
			j->obj[i] = json_loadb(j->data.data + j->off[i],
			    j->len[i], JSON_REJECT_DUPLICATES, &j->jerr[i]);
		cur_arena = NULL;
		pthread_mutex_lock(&pool.mu);
		j->done = true;
		pthread_cond_broadcast(&pool.done);
	}
	return NULL;
}

static void
pool_start(void)
{
	const char *env = getenv("KVSCOPE_THREADS");
	long n = env != NULL && *env ? strtol(env, NULL, 10) :
	    sysconf(_SC_NPROCESSORS_ONLN);

	if (KV_ARENAS)
		json_set_alloc_funcs(arena_malloc, arena_free_fn);
	if (n > 4)
		n = 4;
	if (n <= 1)
		return;		/* one core: workers would only add switches */
	json_object_seed(0);	/* before any thread builds an object */
	for (long i = 0; i < n; i++) {
		pthread_t t;
		pthread_attr_t at;

		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &at, worker, (void *)(intptr_t)i) == 0)
			pool.nthreads++;
		pthread_attr_destroy(&at);
	}
}

static void
job_free(job *j)
{
	if (KV_ARENAS)
		arena_release(&j->mem);
	else
		for (size_t i = j->delivered; i < j->n; i++)
			if (j->obj[i] != NULL)
				json_decref(j->obj[i]);
	kv_buf_free(&j->data);
	free(j->off);
	free(j->len);
	free(j->index);
	free(j->start);
	free(j->obj);
	free(j->jerr);
	free(j);
}

json_items *
json_items_new(const char *file, const kv_limits *lim, json_item_fn fn,
    void *arg)
{
	json_items *s = xcalloc(1, sizeof(*s));

	pthread_once(&pool_once, pool_start);
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
	/* items still with a worker: wait, then drop them */
	if (s->qhead != NULL) {
		pthread_mutex_lock(&pool.mu);
		for (job *j = s->qhead; j != NULL; j = j->next)
			while (!j->done)
				pthread_cond_wait(&pool.done, &pool.mu);
		pthread_mutex_unlock(&pool.mu);
	}
	while (s->qhead != NULL) {
		job *j = s->qhead;

		s->qhead = j->next;
		job_free(j);
	}
	if (s->cur != NULL)
		job_free(s->cur);
	kv_buf_free(&s->item);
	kv_buf_free(&s->wrap);
	free(s);
}

size_t
json_items_count(const json_items *s)
{
	return s->failed ? s->nfailed : s->nitems;
}

/* An item parsed (obj, or NULL with jerr): check it and give it to the
 * callback.  Takes obj. */
static int
deliver(json_items *s, json_t *obj, const json_error_t *jerr, size_t index,
    uint64_t start, kv_err *err)
{
	kv_err inner = {0};
	int rc;

	if (obj == NULL)
		return kv_seterr(err, "%s: item %zu (byte %llu): not valid "
		    "JSON: %s", s->file, index,
		    (unsigned long long)(start + (uint64_t)
		    (jerr->position > 0 ? jerr->position : 0)), jerr->text);
	if (!json_is_object(obj)) {
		if (pool.nthreads == 0 && !KV_ARENAS)
			json_decref(obj);
		return kv_seterr(err, "%s: item %zu: expected an object",
		    s->file, index);
	}
	rc = s->fn(s->arg, obj, index, &inner);
	if (pool.nthreads == 0 && !KV_ARENAS)
		json_decref(obj);	/* else its arena or worker frees it */
	if (rc != KV_OK)
		return kv_seterr(err, "%s: %s", s->file, inner.msg);
	return KV_OK;
}

/* Hand the batch being filled to the workers. */
static void
submit(json_items *s)
{
	job *j = s->cur;

	if (j == NULL)
		return;
	s->cur = NULL;
	if (s->qtail != NULL)
		s->qtail->next = j;
	else
		s->qhead = j;
	s->qtail = j;
	s->qlen++;
	pthread_mutex_lock(&pool.mu);
	if (pool.tail != NULL)
		pool.tail->pending = j;
	else
		pool.head = j;
	pool.tail = j;
	pthread_cond_signal(&pool.work);
	pthread_mutex_unlock(&pool.mu);
}

/* Deliver the parsed items at the head of the queue, in order; with wait,
 * until at most `keep` batches are left (all of them for 0, the batch
 * being filled included). */
static int
drain(json_items *s, bool wait, size_t keep, kv_err *err)
{
	if (wait && keep == 0)
		submit(s);
	while (s->qhead != NULL && !s->failed) {
		job *j = s->qhead;

		pthread_mutex_lock(&pool.mu);
		if (!j->done && (!wait || s->qlen <= keep)) {
			pthread_mutex_unlock(&pool.mu);
			break;
		}
		while (!j->done)
			pthread_cond_wait(&pool.done, &pool.mu);
		pthread_mutex_unlock(&pool.mu);
		s->qhead = j->next;
		if (s->qhead == NULL)
			s->qtail = NULL;
		s->qlen--;
		while (j->delivered < j->n) {
			size_t i = j->delivered++;
			int rc = deliver(s, j->obj[i], &j->jerr[i],
			    j->index[i], j->start[i], err);

			if (rc != KV_OK) {
				s->failed = true;
				s->nfailed = j->index[i] + 1;
				j->delivered = 0;	/* free every tree */
				job_free(j);
				return rc;
			}
		}
		/* back to its worker, which frees the trees */
		j->delivered = 0;
		pthread_mutex_lock(&pool.mu);
		j->pending = pool.garbage[j->worker];
		pool.garbage[j->worker] = j;
		pthread_cond_broadcast(&pool.work);
		pthread_mutex_unlock(&pool.mu);
	}
	return KV_OK;
}

/* One complete item: data is in buf (copy it) or is s->item (take it). */
static int
emit(json_items *s, const char *data, size_t len, kv_err *err)
{
	json_error_t jerr;
	json_t *obj;
	job *j;

	if (s->failed)
		return KV_ERR;
	if (++s->nitems > s->lim->items) {
		int rc = drain(s, true, 0, err);

		if (rc != KV_OK)
			return rc;
		return kv_seterr(err, "%s: more than %llu objects "
		    "(KVSCOPE_MAX_ITEMS)", s->file,
		    (unsigned long long)s->lim->items);
	}
	if (pool.nthreads == 0) {
		arena mem = { NULL };
		int rc;

		if (KV_ARENAS)
			cur_arena = &mem;
		obj = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
		cur_arena = NULL;
		rc = deliver(s, obj, &jerr, s->nitems - 1, s->item_start,
		    err);
		arena_release(&mem);
		return rc;
	}
	if ((j = s->cur) == NULL) {
		j = s->cur = xcalloc(1, sizeof(*j));
		j->cap = BATCH_ITEMS;
		j->off = xcalloc(j->cap, sizeof(size_t));
		j->len = xcalloc(j->cap, sizeof(size_t));
		j->index = xcalloc(j->cap, sizeof(size_t));
		j->start = xcalloc(j->cap, sizeof(uint64_t));
		j->obj = xcalloc(j->cap, sizeof(json_t *));
		j->jerr = xcalloc(j->cap, sizeof(json_error_t));
	}
	j->off[j->n] = j->data.len;
	j->len[j->n] = len;
	j->index[j->n] = s->nitems - 1;
	j->start[j->n] = s->item_start;
	j->n++;
	kv_buf_append(&j->data, data, len);
	if (j->n == j->cap || j->data.len >= BATCH_BYTES)
		submit(s);
	return drain(s, s->qlen > MAX_QUEUED, MAX_QUEUED / 2, err);
}

/* An error of the scanner itself: an item before it that failed is the
 * first error in the file, and wins. */
static int
scan_error(json_items *s, kv_err *err)
{
	kv_err mine = *err;

	kv_clearerr(err);
	if (drain(s, true, 0, err) != KV_OK)
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
			/* the item ends with this byte: the caller checks its
			 * size and emits it */
			s->in_item = false;
			if (s->mode == M_LIST)
				s->next = N_COMMA;
			return 1;
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

/* Bytes that need a look inside an item, below its top level: everything
 * else (numbers, literals, ',', ':' and whitespace) only matters at depth
 * 1 or 2, or around the items. */
static inline bool
plain(char c)
{
	return c != '"' && c != '{' && c != '}' && c != '[' && c != ']' &&
	    c != '\0';
}

static int
too_large(json_items *s, uint64_t at, kv_err *err)
{
	return kv_seterr(err, "%s: byte %llu: object larger than %llu bytes "
	    "(KVSCOPE_MAX_OBJECT_BYTES)", s->file, (unsigned long long)at,
	    (unsigned long long)s->lim->object_bytes);
}

/*
 * The bytes of the current item are not copied one at a time: seg marks
 * where they start in buf, and they are taken in one piece when the item
 * ends (parsed in place when the whole item is in this buffer) or when
 * the buffer does.  Runs of ordinary string bytes, and of scalars deeper
 * than the List, are skipped without the state machine, but never past
 * the byte at which the item would outgrow KVSCOPE_MAX_OBJECT_BYTES.
 * The bytes of the List around the items (after the array) are few and
 * kept one at a time.
 */
int
json_items_feed(json_items *s, const char *buf, size_t len, kv_err *err)
{
	const uint64_t base = s->offset;
	size_t seg = s->in_item ? 0 : SIZE_MAX;
	int rc = KV_OK;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		/* in an item: where it gets too large (as an index in buf) */
		size_t stop = len;

		if (s->in_item) {
			uint64_t lim = s->item_start + s->lim->object_bytes;

			if (lim < base + len)
				stop = lim > base + i ? (size_t)(lim - base) : i;
		}
		if (s->in_str) {
			if (!s->key_capture && !s->esc && s->in_item) {
				/* a run of ordinary bytes */
				size_t j = i;
				uint64_t room = s->lim->string_bytes - s->str_len;

				while (j < stop && buf[j] != '"' &&
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
			s->offset = base + i;
			if (s->in_item && i >= stop) {
				rc = too_large(s, base + i, err);
				goto out;
			}
			if (!s->in_item && s->mode == M_AFTER_LIST &&
			    keep_in(s, &s->wrap, c, err) != KV_OK) {
				rc = KV_ERR;
				goto out;
			}
			continue;
		}
		if (s->in_item && s->depth >= 2) {
			while (i < stop && plain(buf[i]))
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
		s->offset = base + i;
		if (c == '"') {
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
		} else {
			bool was_in = s->in_item;

			/* {"items": [ turns the prefix kept so far into the
			 * start of the List around the items */
			if (was_in && s->mode == M_OBJECT && s->depth == 1 &&
			    c == '[' && s->last_key_items && seg != SIZE_MAX) {
				kv_buf_append(&s->item, buf + seg, i - seg);
				seg = i;
			}
			rc = structural(s, c, err);
			if (rc < 0)
				goto out;
			if (!was_in && s->in_item) {
				seg = i;	/* an item starts here */
				rc = KV_OK;
				continue;
			}
			if (was_in && !s->in_item && rc == 1) {
				/* the item ends with this byte */
				const char *data = buf + seg;
				size_t n = i + 1 - seg;

				if (i >= stop) {
					rc = too_large(s, base + i, err);
					goto out;
				}
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
					return rc;	/* an item's error */
				if (s->mode == M_OBJECT)
					s->mode = M_TOP;
				continue;
			}
			if (was_in && !s->in_item) {
				/* {"items": [ : the prefix went to wrap */
				s->item.len = 0;
				seg = SIZE_MAX;
				rc = KV_OK;
				continue;
			}
			if (rc == 1) {		/* kept by structural() */
				rc = KV_OK;
				continue;
			}
		}
		if (s->in_item && i >= stop) {
			rc = too_large(s, base + i, err);
			goto out;
		}
		if (!s->in_item && s->mode == M_AFTER_LIST &&
		    keep_in(s, &s->wrap, c, err) != KV_OK) {
			rc = KV_ERR;
			goto out;
		}
	}
	if (s->in_item && seg != SIZE_MAX)
		kv_buf_append(&s->item, buf + seg, len - seg);
	s->offset = base + len;
	return KV_OK;
out:
	(void)rc;
	return scan_error(s, err);
}

int
json_items_finish(json_items *s, kv_err *err)
{
	if (drain(s, true, 0, err) != KV_OK)
		return KV_ERR;
	if (s->in_str || s->depth != 0)
		return kv_seterr(err, "%s: ends in the middle of a JSON value "
		    "(truncated?)", s->file);
	return KV_OK;
}
