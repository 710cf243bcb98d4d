/*
 * jsonpool.c - the parse workers of the item scanner (see jsonpool.h).
 *
 * Items are parsed in batches by up to four detached worker threads; each
 * batch's trees live in a bump arena (jansson's allocator while a thread
 * parses) and are dropped whole by the worker that built them.
 */
#include "analyze/read/jsonpool.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* The chunks this thread keeps, back to malloc: once a stream has ended
 * (jp_queue_free) a worker keeps none when it has nothing to parse; after
 * the load they were 8 MiB the proof's copies could not use.  (Dropped
 * whenever a worker waited, they cost a fifth of the load's CPU.) */
static void
cache_drop(void)
{
	while (chunk_cache != NULL) {
		chunk *c = chunk_cache;

		chunk_cache = c->next;
		free(c);
	}
	nchunk_cache = 0;
}

/* --- the parse workers -------------------------------------------------- */

/* A batch of items for one worker: their bytes back to back, and the
 * parsed objects. */
typedef struct job {
	jp_queue *q;		/* its stream */
	struct job *next;	/* in its stream, file order */
	struct job *pending;	/* in the pool's queue */
	kv_buf data;
	size_t n, cap, delivered;
	size_t *off, *len, *index;
	size_t *aside_len;	/* bytes set aside, right after the item's */
	uint64_t *start;
	json_t **obj;
	json_error_t *jerr;
	int worker;		/* who parsed it, and frees it */
	arena mem;		/* the trees (KV_ARENAS) */
	bool done;
} job;

#define BATCH_ITEMS 32		/* items per batch ... */
#define BATCH_BYTES (256 << 10)	/* ... or bytes */

static struct {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	job *head, *tail;
	int nthreads;		/* 0: parse in the caller */
	job *garbage[4];	/* delivered batches, by worker */
	bool drop[4];		/* a stream ended: idle, drop the cache */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	PTHREAD_COND_INITIALIZER, NULL, NULL, 0, { NULL }, { false } };

static void job_free(job *j);
static void take_turn(jp_queue *q);
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* With KVSCOPE_TIMING set: the CPU time and bytes of jp_parse() over the
 * items, by batch (jp_parse_spent). */
static bool parse_timed;
static _Atomic uint64_t parse_ns, parse_bytes;

static uint64_t
thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Parse items [0, n) of a batch, or one item (n 1), counted. */
static void
parse_items(size_t n, const char *data, const size_t *off,
    const size_t *len, json_t **obj, json_error_t *jerr)
{
	uint64_t t0 = parse_timed ? thread_ns() : 0, bytes = 0;

	for (size_t i = 0; i < n; i++) {
		obj[i] = jp_parse(data + off[i], len[i], &jerr[i]);
		bytes += len[i];
	}
	if (parse_timed) {
		parse_ns += thread_ns() - t0;
		parse_bytes += bytes;
	}
}

void
jp_parse_spent(double *cpu_seconds, uint64_t *bytes)
{
	*cpu_seconds = (double)parse_ns / 1e9;
	*bytes = parse_bytes;
}

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
		bool drop;

		while (pool.head == NULL && pool.garbage[me] == NULL &&
		    !pool.drop[me])
			pthread_cond_wait(&pool.work, &pool.mu);
		trash = pool.garbage[me];
		pool.garbage[me] = NULL;
		drop = pool.drop[me] && pool.head == NULL;
		pool.drop[me] &= !drop;
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
		if (drop)
			cache_drop();
		if (j == NULL) {
			pthread_mutex_lock(&pool.mu);
			continue;
		}
		if (KV_ARENAS)
			cur_arena = &j->mem;
		parse_items(j->n, j->data.data, j->off, j->len, j->obj,
		    j->jerr);
		cur_arena = NULL;
		pthread_mutex_lock(&pool.mu);
		j->done = true;
		take_turn(j->q);
		pthread_cond_broadcast(&pool.done);
	}
	return NULL;
}

static void
pool_start(void)
{
	int n = kv_threads();
	const char *timing = getenv("KVSCOPE_TIMING");

	parse_timed = timing != NULL && *timing != '\0';
	if (KV_ARENAS)
		json_set_alloc_funcs(arena_malloc, arena_free_fn);
	if (n <= 1)
		return;		/* one core: workers would only add switches */
	json_object_seed(0);	/* before any thread builds an object */
	for (int i = 0; i < n; i++) {
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
	free(j->aside_len);
	free(j->index);
	free(j->start);
	free(j->obj);
	free(j->jerr);
	free(j);
}


/* --- big integers ------------------------------------------------------- */

/* Copy text with every integer literal of more than 18 digits turned into
 * a real ("...0" + ".0", or 1e300 when strtod would overflow). */
static void
reals_for_big_ints(const char *t, size_t len, kv_buf *out)
{
	bool in_str = false, esc = false;
	size_t i = 0;

	while (i < len) {
		char c = t[i];
		size_t j, digits;

		if (in_str || c == '"') {
			if (!in_str)
				in_str = true;
			else if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				in_str = false;
			kv_buf_append(out, &c, 1);
			i++;
			continue;
		}
		if (c != '-' && !isdigit((unsigned char)c)) {
			kv_buf_append(out, &c, 1);
			i++;
			continue;
		}
		j = i + (c == '-');
		while (j < len && isdigit((unsigned char)t[j]))
			j++;
		digits = j - i - (c == '-');
		if (digits > 18 && (j == len || (t[j] != '.' && t[j] != 'e' &&
		    t[j] != 'E'))) {
			if (digits <= 300) {
				kv_buf_append(out, t + i, j - i);
				kv_buf_append(out, ".0", 2);
			} else
				kv_buf_printf(out, "%s1e300",
				    c == '-' ? "-" : "");
		} else
			kv_buf_append(out, t + i, j - i);
		i = j;
	}
}

json_t *
jp_parse(const char *data, size_t len, json_error_t *jerr)
{
	json_t *obj = json_loadb(data, len, JSON_REJECT_DUPLICATES, jerr);
	json_error_t again;
	kv_buf fixed = {0};

	if (obj != NULL || !kv_startswith(jerr->text, "too big "))
		return obj;
	reals_for_big_ints(data, len, &fixed);
	obj = json_loadb(fixed.data, fixed.len, JSON_REJECT_DUPLICATES,
	    &again);
	kv_buf_free(&fixed);
	return obj;	/* on a second failure, the first error stands */
}

bool
jp_threaded(void)
{
	pthread_once(&pool_once, pool_start);
	return pool.nthreads > 0;
}

void
jp_release(json_t *obj)
{
	if (pool.nthreads == 0 && !KV_ARENAS && obj != NULL)
		json_decref(obj);	/* else its arena or worker frees it */
}

int
jp_parse_deliver(const char *data, size_t len, const char *aside,
    size_t aside_len, size_t index, uint64_t start, jp_deliver_fn fn,
    void *arg, kv_err *err)
{
	arena mem = { NULL };
	json_error_t jerr;
	json_t *obj;
	size_t off = 0;
	int rc;

	if (KV_ARENAS)
		cur_arena = &mem;
	parse_items(1, data, &off, &len, &obj, &jerr);
	cur_arena = NULL;
	rc = fn(arg, obj, &jerr, aside, aside_len, index, start, err);
	arena_release(&mem);
	return rc;
}

/* Hand the batch being filled to the workers. */
static void
submit(jp_queue *s)
{
	job *j = s->cur;

	if (j == NULL)
		return;
	s->cur = NULL;
	pthread_mutex_lock(&pool.mu);
	if (s->qtail != NULL)
		s->qtail->next = j;
	else
		s->qhead = j;
	s->qtail = j;
	s->qlen++;
	if (pool.tail != NULL)
		pool.tail->pending = j;
	else
		pool.head = j;
	pool.tail = j;
	pthread_cond_signal(&pool.work);
	pthread_mutex_unlock(&pool.mu);
}

/* Back to its worker, which frees the trees. */
static void
recycle(job *j)
{
	j->delivered = 0;
	pthread_mutex_lock(&pool.mu);
	j->pending = pool.garbage[j->worker];
	pool.garbage[j->worker] = j;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.mu);
}

/* Deliver one batch, on whichever thread; the pool's lock is not held. */
static int
deliver_job(jp_queue *q, job *j)
{
	while (j->delivered < j->n) {
		size_t i = j->delivered++;

		if (q->fn(q->arg, j->obj[i], &j->jerr[i],
		    j->data.data + j->off[i] + j->len[i], j->aside_len[i],
		    j->index[i], j->start[i], &q->err) != KV_OK) {
			q->nfailed = j->index[i] + 1;
			j->delivered = 0;	/* free every tree */
			job_free(j);
			return KV_ERR;
		}
	}
	recycle(j);
	return KV_OK;
}

/* With the pool's lock held: unless another thread delivers, deliver the
 * parsed batches at the head of q, in order (the lock is let go meanwhile,
 * so one stays in flight and may be freed only once delivering is off). */
static void
take_turn(jp_queue *q)
{
	job *j;

	while (!q->delivering && !q->failed && (j = q->qhead) != NULL &&
	    j->done) {
		int rc;

		q->delivering = true;
		q->qhead = j->next;
		if (q->qhead == NULL)
			q->qtail = NULL;
		q->qlen--;
		pthread_mutex_unlock(&pool.mu);
		rc = deliver_job(q, j);
		pthread_mutex_lock(&pool.mu);
		q->delivering = false;
		q->failed = rc != KV_OK;
		pthread_cond_broadcast(&pool.done);
	}
}

int
jp_drain(jp_queue *q, size_t above, size_t keep, kv_err *err)
{
	bool all = above == 0 && keep == 0;
	int rc = KV_OK;

	if (all)
		submit(q);
	pthread_mutex_lock(&pool.mu);
	if (q->qlen > above || (all && q->delivering))
		for (;;) {
			take_turn(q);
			if (q->failed || (q->qlen <= keep &&
			    !(all && q->delivering)))
				break;
			pthread_cond_wait(&pool.done, &pool.mu);
		}
	if (q->failed) {
		if (!q->told)
			*err = q->err;
		q->told = true;
		rc = KV_ERR;
	}
	pthread_mutex_unlock(&pool.mu);
	return rc;
}

void
jp_queue_init(jp_queue *q, jp_deliver_fn fn, void *arg)
{
	q->fn = fn;
	q->arg = arg;
}

void
jp_add(jp_queue *s, const char *data, size_t len, const char *aside,
    size_t aside_len, size_t index, uint64_t start)
{
	job *j;

	if ((j = s->cur) == NULL) {
		j = s->cur = xcalloc(1, sizeof(*j));
		j->q = s;
		j->cap = BATCH_ITEMS;
		j->off = xcalloc(j->cap, sizeof(size_t));
		j->len = xcalloc(j->cap, sizeof(size_t));
		j->aside_len = xcalloc(j->cap, sizeof(size_t));
		j->index = xcalloc(j->cap, sizeof(size_t));
		j->start = xcalloc(j->cap, sizeof(uint64_t));
		j->obj = xcalloc(j->cap, sizeof(json_t *));
		j->jerr = xcalloc(j->cap, sizeof(json_error_t));
	}
	j->off[j->n] = j->data.len;
	j->len[j->n] = len;
	j->aside_len[j->n] = aside_len;
	j->index[j->n] = index;
	j->start[j->n] = start;
	j->n++;
	kv_buf_append(&j->data, data, len);
	if (aside_len > 0)
		kv_buf_append(&j->data, aside, aside_len);
	if (j->n == j->cap || j->data.len >= BATCH_BYTES)
		submit(s);
}

void
jp_queue_free(jp_queue *s)
{
	/* items still with a worker or being delivered: wait, then drop
	 * them */
	pthread_mutex_lock(&pool.mu);
	for (;;) {
		job *j = s->qhead;

		while (j != NULL && j->done)
			j = j->next;
		if (j == NULL && !s->delivering)
			break;
		pthread_cond_wait(&pool.done, &pool.mu);
	}
	pthread_mutex_unlock(&pool.mu);
	while (s->qhead != NULL) {
		job *j = s->qhead;

		s->qhead = j->next;
		job_free(j);
	}
	if (s->cur != NULL)
		job_free(s->cur);
	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&pool.mu);
	for (int i = 0; i < pool.nthreads; i++)
		pool.drop[i] = true;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.mu);
}
