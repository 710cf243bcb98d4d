/*
 * drain.h - what draining nodes does with their VMIs: the per-node drain
 * of the analysis (drain.c, findings.md "drain"), a set of nodes drained
 * together (`check --drain`), and the rolling plan of a pool (`plan`,
 * plan.c), all built on one placement step (drainsim.c).
 *
 * A drain cordons its nodes, so the nodes drained together are no
 * targets for each other.  With capacity known (a->capacity_known) the
 * VMIs that migrate are placed one at a time, higher launcher-pod
 * priority first, then larger memory request, then name, each on the
 * target with the most free memory left (ties by name), and each
 * placement uses up room; one that finds none blocks with "no-capacity".
 * Without capacity the target is the first candidate, room unchecked.
 *
 * Ownership: kv_drain_nodes and kv_plan_build return memory the caller
 * frees with kv_drain_list_free and kv_plan_free; rows point into the
 * analysis, which must outlive them.
 */
#ifndef KV_DRAIN_H
#define KV_DRAIN_H

#include "analyze/estimate/estimate.h"
#include "analyze/rules/analysis.h"
#include "analyze/rules/capacity.h"

/* The state placements work on. */
typedef struct kv_drain_ctx {
	const kv_analysis *a;
	kv_bits out;			/* nodes being drained: no targets */
	kv_bits done;			/* drained and back in service (plan):
					 * preferred targets */
	kv_res *room;			/* per node; NULL: capacity unknown */
	size_t *loc;			/* node of each VMI after earlier
					 * drains (plan), or NULL: its own */
	size_t njournal, cjournal;
	struct kv_take { size_t node; kv_res need; } *journal;
} kv_drain_ctx;

/* room: a copy of every node's free room when capacity is known. */
void kv_drain_ctx_init(kv_drain_ctx *c, const kv_analysis *a);
void kv_drain_ctx_free(kv_drain_ctx *c);

/* What the drain of the nodes in c->out does with vmis[0..n) (indexes
 * into a->vmis, all on those nodes): rows[k] answers vmis[k].  Placements
 * use up c->room and are journalled.  Returns how many VMIs that would
 * migrate found no target left (no room, or every target drained). */
size_t kv_drain_place(kv_drain_ctx *c, const size_t *vmis, size_t n,
    kv_drain_row *rows);
/* Give back the room taken since the journal held mark entries. */
void kv_drain_undo(kv_drain_ctx *c, size_t mark);

/* The migrations of rows[0..n) in time under the parallel limits, each
 * its estimate's range (estimate.h): span[0..1] the whole; with slots,
 * slots[j] is the j-th migrating row, rows[idx[j]] (idx may be NULL). */
void kv_drain_schedule(const kv_analysis *a, const kv_drain_row *rows,
    size_t n, kv_slot *slots, size_t *idx, double span[2]);
/* Sort rows by VMI name. */
void kv_drain_rows_sort(const kv_analysis *a, kv_drain_row *rows, size_t n);
/* d's counts, blocking list, memory and estimate from rows (taken over,
 * sorted by name). */
void kv_drain_fill(const kv_analysis *a, kv_drain *d, kv_drain_row *rows,
    size_t n);
/* Running VMIs that a drain concerns, by node: the VMIs of node i are
 * order[first[i] .. first[i + 1]), in name order.  Caller frees both. */
void kv_drain_by_node(const kv_analysis *a, size_t **first, size_t **order);

/* `check --drain`: the nodes in `nodes` drained together, one entry per
 * node of the set in name order (*n of them); secs[0..1] the range the
 * whole drain takes. */
kv_drain *kv_drain_nodes(const kv_analysis *a, const kv_bits *nodes,
    size_t *n, double secs[2]);
void kv_drain_list_free(kv_drain *d, size_t n);
/* Which stops a drain may make and still pass (--allow-shutdown: every
 * one; --allow-restart: those whose VirtualMachine starts them again,
 * never one whose restart is unknown). */
enum kv_allow { ALLOW_NONE, ALLOW_RESTART, ALLOW_SHUTDOWN };

/* Whether a drain of d[0..n) taking secs[0..1] misses a maintenance
 * window of window seconds: its slow end passes it, or a migration will
 * be aborted (estimate.h). */
bool kv_window_fails(const kv_drain *d, size_t n, const double secs[2],
    double window);
/* Whether the drain blocks any VMI or makes a stop allow does not
 * accept. */
bool kv_drain_fails(const kv_drain *d, size_t n, enum kv_allow allow);

/* A rolling maintenance plan (plan.c). */
typedef struct kv_plan_step {
	size_t nnodes;
	size_t *nodes;			/* the batch, in the order chosen */
	kv_drain *drains;		/* one per node of the batch */
	int64_t seconds;		/* ceil(secs[1]) */
	double secs[2];
	size_t deferred;		/* nodes tried first, found no room */
} kv_plan_step;

typedef struct kv_plan {
	size_t npool, batch;		/* nodes, --max-unavailable */
	size_t nsteps;
	kv_plan_step *steps;
	int64_t seconds;		/* ceil(secs[1]) */
	double secs[2];
	size_t migrate, block, shutdown, external, no_capacity;
	size_t restart;			/* of shutdown: started again */
	size_t restart_unknown;		/* of shutdown: restart unknown */
	size_t ntries;			/* candidates tried per place */
	size_t twice;			/* VMIs moved in more than one step:
					 * no node drained before could take
					 * them */
	size_t nfixfirst;
	size_t *fixfirst;		/* nodes a VMI of which blocks the
					 * drain: no steps, to fix first
					 * (rank order); none with
					 * allow_block */
	bool allow_block;		/* the blocked nodes as last steps */
} kv_plan;

/* The order to drain the pool's nodes, batch at a time; the nodes whose
 * drain would wait forever go last (allow_block) or, not drained, into
 * p->fixfirst.  kv_plan_build: allow_block true. */
void kv_plan_build(const kv_analysis *a, const kv_bits *pool, size_t batch,
    kv_plan *p);
void kv_plan_build_ex(const kv_analysis *a, const kv_bits *pool,
    size_t batch, bool allow_block, kv_plan *p);
/* The plan that drains order[0..n) (node indexes) in that order. */
void kv_plan_fixed(const kv_analysis *a, const size_t *order, size_t n,
    size_t batch, kv_plan *p);
void kv_plan_free(kv_plan *p);
bool kv_plan_fails(const kv_plan *p, enum kv_allow allow);
/* Whether the plan misses a window of window seconds (kv_window_fails
 * over its steps, their times added). */
bool kv_plan_window_fails(const kv_plan *p, double window);

#endif
