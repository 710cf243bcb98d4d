/*
 * jsonpool.h - parsing the items of the item scanner (jsonitems.c), on
 * worker threads when the machine has more than one core.
 *
 * A jp_queue belongs to one scanner.  jp_add() copies an item's bytes into
 * the batch being filled and hands full batches to the workers, which
 * give the parsed items to the queue's deliver function in file order:
 * the worker that finishes the batch at the head of the queue delivers
 * it, and the batches after it that are parsed, while no other thread
 * delivers (one at a time, so deliver() needs no lock of its own, but it
 * runs on a worker: the scanner's thread goes on scanning meanwhile, and
 * must not touch what deliver() writes until jp_drain() has waited for
 * every batch).  A parsed tree belongs to the queue: deliver() must not
 * keep it (it is dropped with its batch's arena, or by json_decref()
 * when arenas are off).
 *
 * jp_parse() is jansson's json_loadb() with one leniency: an integer
 * beyond 64 bits, which jansson refuses, is read as a real, so a number in
 * a field kvscope never reads does not refuse the object (a field kvscope
 * reads as a whole number still refuses a real, with its name).
 */
#ifndef KV_JSONPOOL_H
#define KV_JSONPOOL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/util/util.h"

/* aside: the text the scanner set aside for the item (aside_len 0:
 * none), in the batch until deliver() returns; not parsed here. */
typedef int (*jp_deliver_fn)(void *arg, json_t *obj, const json_error_t *jerr,
    const char *aside, size_t aside_len, size_t index, uint64_t start,
    kv_err *err);

typedef struct jp_queue {
	jp_deliver_fn fn;		/* jp_queue_init; not changed after */
	void *arg;
	struct job *cur;		/* the scanner's: the batch being
					 * filled */
	/* from here on, the pool's, under its lock */
	bool told;			/* the failure went to the scanner */
	struct job *qhead, *qtail;	/* with the workers, file order */
	size_t qlen;
	bool delivering;		/* a thread delivers the head */
	bool failed;			/* an item failed: take no more */
	size_t nfailed;			/* then: items up to that one */
	kv_err err;			/* that item's error */
} jp_queue;

/* Start the pool (once); true when items go to worker threads. */
bool jp_threaded(void);
json_t *jp_parse(const char *data, size_t len, json_error_t *jerr);
/* Parse now, in this thread, and deliver (no workers). */
int jp_parse_deliver(const char *data, size_t len, const char *aside,
    size_t aside_len, size_t index, uint64_t start, jp_deliver_fn fn,
    void *arg, kv_err *err);
/* Before the first jp_add(): who takes the items. */
void jp_queue_init(jp_queue *q, jp_deliver_fn fn, void *arg);
/* Queue an item, and the text it set aside, for the workers. */
void jp_add(jp_queue *q, const char *data, size_t len, const char *aside,
    size_t aside_len, size_t index, uint64_t start);
/* With more than above batches in the queue, wait (delivering, when no
 * worker does) until at most keep are left: all, the one being filled
 * included, for keep 0.  KV_ERR once an item failed, with its error in
 * err the first time this says so. */
int jp_drain(jp_queue *q, size_t above, size_t keep, kv_err *err);
/* With KVSCOPE_TIMING set (read when the pool starts), the CPU seconds
 * every thread spent in jp_parse() on the items, and their bytes, so far;
 * 0 without it. */
void jp_parse_spent(double *cpu_seconds, uint64_t *bytes);
/* Free a tree given to deliver() when neither arenas nor workers will. */
void jp_release(json_t *obj);
void jp_queue_free(jp_queue *q);

#endif
