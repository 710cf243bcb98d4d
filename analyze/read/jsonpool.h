/*
 * jsonpool.h - parsing the items of the item scanner (jsonitems.c), on
 * worker threads when the machine has more than one core.
 *
 * A jp_queue belongs to one scanner.  jp_add() copies an item's bytes into
 * the batch being filled and hands full batches to the workers; jp_drain()
 * gives the parsed items to the deliver function in file order.  A parsed
 * tree belongs to the queue: deliver() must not keep it (it is dropped
 * with its batch's arena, or by json_decref() when arenas are off).
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
	struct job *qhead, *qtail;	/* with the workers, file order */
	size_t qlen;
	struct job *cur;		/* the batch being filled */
	bool failed;			/* an item failed: take no more */
	size_t nfailed;			/* then: items up to that one */
} jp_queue;

/* Start the pool (once); true when items go to worker threads. */
bool jp_threaded(void);
json_t *jp_parse(const char *data, size_t len, json_error_t *jerr);
/* Parse now, in this thread, and deliver (no workers). */
int jp_parse_deliver(const char *data, size_t len, const char *aside,
    size_t aside_len, size_t index, uint64_t start, jp_deliver_fn fn,
    void *arg, kv_err *err);
/* Queue an item, and the text it set aside, for the workers. */
void jp_add(jp_queue *q, const char *data, size_t len, const char *aside,
    size_t aside_len, size_t index, uint64_t start);
/* Deliver what is parsed at the head of the queue, in order; with wait,
 * until at most keep batches are left (all, the one being filled
 * included, for 0). */
int jp_drain(jp_queue *q, bool wait, size_t keep, jp_deliver_fn fn,
    void *arg, kv_err *err);
/* Free a tree given to deliver() when neither arenas nor workers will. */
void jp_release(json_t *obj);
void jp_queue_free(jp_queue *q);

#endif
