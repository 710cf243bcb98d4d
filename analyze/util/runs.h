/*
 * runs.h - a loop over n items spread over two threads: the items go in
 * runs of a fixed length, every other run to a second thread.  Which
 * thread takes an item depends on its index alone (run i to part i % 2),
 * so a result can never depend on timing, and the two parts stay even
 * however the cost of the items drifts along the array.
 *
 * The callback must write only what belongs to its items, or state of
 * its own part's; whatever else it touches must be read only or locked
 * (the caller's business).  Nothing here allocates.
 */
#ifndef KV_RUNS_H
#define KV_RUNS_H

#include <stddef.h>

/* fn(arg, part, from, to): items [from, to) of one run, in part 0 or 1. */
typedef void kv_runs_fn(void *arg, int part, size_t from, size_t to);

/* The parts n items go in: 2 when kv_threads() gives two threads and n
 * is at least least, else 1. */
int kv_runs_parts(size_t n, size_t least);

/* fn over [0, n) in runs of run items, in nparts parts (1 or 2): part 0
 * in the caller's thread, part 1 on a thread of its own, joined before
 * this returns (or, when no thread starts, in the caller's thread after
 * part 0). */
void kv_runs(size_t n, size_t run, int nparts, kv_runs_fn *fn, void *arg);

#endif
