/*
 * plan.c - rolling maintenance of a pool (drain.h, `kvscope plan`): the
 * order in which to drain the pool's nodes, `batch` at a time, each batch
 * returning to service before the next, so that the VMIs that migrate
 * find room at their turn.
 *
 * Rule (deterministic, a greedy with a short look-ahead): the pool's
 * nodes whose drain would wait forever (a VMI blocks it) are no steps but
 * a list to fix first (kv_plan.fixfirst), or, when the operator allows
 * it (allow_block), go after every node whose drain finishes; within
 * each part nodes are ranked
 * by the alternatives of their VMIs - the fewest targets
 * any VMI of the node that migrates has, most first - then by name.  Each
 * place of a batch goes to the first node in that rank whose drain,
 * simulated against the room left by the batches before (VMIs stay where
 * they moved, stopped VMIs free their room) and with the batch's nodes
 * excluded as targets, leaves no VMI without a target; a node that fails
 * waits for a later place (up to PLAN_TRIES nodes are tried per place,
 * then the first is taken with its failures).  Each VMI is placed once per
 * drain of its node, on the bitsets of its target search: no rescan.
 */
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"

#define PLAN_TRIES 16

typedef struct plan_state {
	const kv_analysis *a;
	kv_drain_ctx c;
	size_t **on, *non, *con;	/* VMIs on each node now */
	size_t nb, *batch;		/* the batch being built */
	size_t nrows, crows;
	kv_drain_row *rows;		/* the batch's rows, node by node */
	size_t *start;			/* rows of batch[k] from start[k] */
	size_t lost;			/* VMIs of the batch without target */
	size_t *moves;			/* steps that moved each VMI */
} plan_state;

typedef struct rank {
	size_t node, alt;
	bool blocks;			/* a VMI on it makes the drain wait */
} rank;

static int
rank_cmp(const void *x, const void *y)
{
	const rank *p = x, *q = y;

	if (p->blocks != q->blocks)
		return p->blocks ? 1 : -1;
	if (p->alt != q->alt)
		return p->alt > q->alt ? -1 : 1;
	return p->node < q->node ? -1 : p->node > q->node;
}

static void
state_init(plan_state *s, const kv_analysis *a, size_t batch)
{
	size_t *first, *order, nn = a->m->nnodes;

	memset(s, 0, sizeof(*s));
	s->a = a;
	kv_drain_ctx_init(&s->c, a);
	s->c.loc = xcalloc(a->nvmis + 1, sizeof(size_t));
	for (size_t i = 0; i < a->nvmis; i++)
		s->c.loc[i] = SIZE_MAX;
	s->on = xcalloc(nn + 1, sizeof(size_t *));
	s->non = xcalloc(nn + 1, sizeof(size_t));
	s->con = xcalloc(nn + 1, sizeof(size_t));
	kv_drain_by_node(a, &first, &order);
	for (size_t n = 0; n < nn; n++)
		for (size_t k = first[n]; k < first[n + 1]; k++) {
			KV_GROW(s->on[n], s->con[n], s->non[n] + 1);
			s->on[n][s->non[n]++] = order[k];
			s->c.loc[order[k]] = n;
		}
	free(first);
	free(order);
	s->batch = xcalloc(batch + 1, sizeof(size_t));
	s->start = xcalloc(batch + 2, sizeof(size_t));
	s->moves = xcalloc(a->nvmis + 1, sizeof(size_t));
}

static void
state_free(plan_state *s)
{
	for (size_t n = 0; n < s->a->m->nnodes; n++)
		free(s->on[n]);
	free(s->on);
	free(s->non);
	free(s->con);
	free(s->batch);
	free(s->start);
	free(s->rows);
	free(s->moves);
	kv_drain_ctx_free(&s->c);
}

/* Drain node n after the batch's nodes so far: its rows are appended. */
static size_t
sim_node(plan_state *s, size_t n)
{
	size_t k = s->non[n], lost;

	KV_GROW(s->rows, s->crows, s->nrows + k + 1);
	lost = kv_drain_place(&s->c, s->on[n], k, s->rows + s->nrows);
	s->nrows += k;
	return lost;
}

/* Simulate the batch again from its start (the journal is the batch's). */
static void
resim(plan_state *s)
{
	kv_drain_undo(&s->c, 0);
	s->nrows = 0;
	s->lost = 0;
	for (size_t k = 0; k < s->nb; k++) {
		s->start[k] = s->nrows;
		s->lost += sim_node(s, s->batch[k]);
	}
	s->start[s->nb] = s->nrows;
}

/* Add n to the batch; false (and the batch as it was) when it leaves a
 * VMI without target that the batch without it did not, unless force. */
static bool
try_add(plan_state *s, size_t n, bool force)
{
	bool targeted = false;
	size_t before = s->lost, mark = s->c.njournal, rows0 = s->nrows;

	for (size_t k = 0; k < s->nrows && !targeted; k++)
		targeted = s->rows[k].target == n ||
		    s->rows[k].restart_node == n;
	kv_bits_set(&s->c.out, n);
	s->batch[s->nb++] = n;
	if (targeted)
		resim(s);
	else {
		s->start[s->nb - 1] = s->nrows;
		s->lost += sim_node(s, n);
		s->start[s->nb] = s->nrows;
	}
	if (force || s->lost == before)
		return true;
	s->nb--;
	kv_bits_clear(&s->c.out, n);
	if (targeted)
		resim(s);
	else {
		if (s->c.room != NULL)
			kv_drain_undo(&s->c, mark);
		s->nrows = rows0;
		s->lost = before;
	}
	return false;
}

static void
give_back(plan_state *s, size_t node, const kv_res *need)
{
	if (s->c.room == NULL || node == SIZE_MAX)
		return;
	kv_res_give(&s->c.room[node], need);
}

static void
leave(plan_state *s, size_t node, size_t vmi)
{
	for (size_t k = 0; k < s->non[node]; k++)
		if (s->on[node][k] == vmi) {
			memmove(&s->on[node][k], &s->on[node][k + 1],
			    (s->non[node] - k - 1) * sizeof(size_t));
			s->non[node]--;
			return;
		}
}

/* The batch drained and back in service: record it as step st. */
static void
commit(plan_state *s, kv_plan_step *st)
{
	const kv_analysis *a = s->a;

	st->nnodes = s->nb;
	st->nodes = xcalloc(s->nb + 1, sizeof(size_t));
	st->drains = xcalloc(s->nb + 1, sizeof(kv_drain));
	for (size_t k = 0; k < s->nb; k++) {
		size_t n = s->start[k + 1] - s->start[k];
		kv_drain_row *rows = xcalloc(n + 1, sizeof(*rows));

		memcpy(rows, s->rows + s->start[k], n * sizeof(*rows));
		st->nodes[k] = s->batch[k];
		st->drains[k].node = s->batch[k];
		kv_drain_fill(a, &st->drains[k], rows, n);
		kv_bits_clear(&s->c.out, s->batch[k]);
		kv_bits_set(&s->c.done, s->batch[k]);
	}
	for (size_t k = 0; k < s->nrows; k++) {
		const kv_drain_row *r = &s->rows[k];
		const kv_vmires *v = &a->vmis[r->vmi];
		size_t at;

		if (r->action != DRAIN_MIGRATE && r->action != DRAIN_SHUTDOWN)
			continue;
		leave(s, r->source, r->vmi);
		give_back(s, r->source, v->need);
		/* a VM started again elsewhere is there for later steps */
		at = r->action == DRAIN_SHUTDOWN ? r->restart_node : r->target;
		s->c.loc[r->vmi] = at;
		if (at == SIZE_MAX)
			continue;
		s->moves[r->vmi]++;
		KV_GROW(s->on[at], s->con[at], s->non[at] + 1);
		s->on[at][s->non[at]++] = r->vmi;
	}
	kv_drain_schedule(a, s->rows, s->nrows, NULL, NULL, st->secs);
	st->seconds = (int64_t)ceil(st->secs[1]);
	s->c.njournal = 0;
	s->nb = s->nrows = s->lost = 0;
}

/* The pool's nodes in rank order. */
static rank *
ranked(const plan_state *s, const kv_bits *pool, size_t *n)
{
	rank *rk = xcalloc(kv_bits_count(pool) + 1, sizeof(rank));

	*n = 0;
	KV_BITS_FOREACH(pool, node) {
		size_t alt = SIZE_MAX;
		bool blocks = false;

		for (size_t k = 0; k < s->non[node]; k++) {
			const kv_vmires *r = &s->a->vmis[s->on[node][k]];

			if (r->on_drain == DRAIN_MIGRATE && r->targets.n < alt)
				alt = r->targets.n;
			blocks |= r->on_drain == DRAIN_BLOCK;
		}
		rk[*n].node = node;
		rk[*n].blocks = blocks;
		rk[(*n)++].alt = alt;
	}
	kv_qsort(rk, *n, sizeof(rank), rank_cmp);
	return rk;
}

/* Fill one place of the batch from the ranked nodes not yet drained;
 * returns how many were tried and failed before the one taken. */
static size_t
fill_place(plan_state *s, const rank *rk, size_t nrk, bool *done,
    size_t *head)
{
	size_t tried = 0, first = SIZE_MAX;

	while (*head < nrk && done[*head])
		(*head)++;
	for (size_t i = *head; i < nrk && tried < PLAN_TRIES; i++) {
		if (done[i])
			continue;
		if (first == SIZE_MAX)
			first = i;
		if (try_add(s, rk[i].node, false)) {
			done[i] = true;
			return tried;
		}
		tried++;
	}
	try_add(s, rk[first].node, true);
	done[first] = true;
	return tried;
}

/* The plan over rk[0..nrk); fixed: in that order, no look-ahead. */
static void
build(plan_state *s, rank *rk, size_t nrk, size_t batch, bool fixed,
    kv_plan *p)
{
	size_t head = 0, left;
	bool *done = xcalloc(nrk + 1, sizeof(bool));

	p->npool = nrk;
	p->batch = batch;
	p->ntries = PLAN_TRIES;
	p->steps = xcalloc(nrk / batch + 2, sizeof(kv_plan_step));
	for (left = nrk; left > 0; ) {
		kv_plan_step *st = &p->steps[p->nsteps++];
		size_t deferred = 0;

		for (size_t k = 0; k < batch && left > 0; k++, left--)
			if (fixed) {
				try_add(s, rk[head].node, true);
				done[head++] = true;
			} else
				deferred += fill_place(s, rk, nrk, done, &head);
		commit(s, st);
		st->deferred = deferred;
		p->secs[0] += st->secs[0];
		p->secs[1] += st->secs[1];
		p->seconds += st->seconds;
		for (size_t k = 0; k < st->nnodes; k++) {
			const kv_drain *d = &st->drains[k];

			p->migrate += d->migrate;
			p->block += d->block;
			p->shutdown += d->shutdown;
			p->restart += d->restart;
			p->restart_unknown += d->restart_unknown;
			p->external += d->external;
			p->no_capacity += d->no_capacity;
		}
	}
	for (size_t i = 0; i < s->a->nvmis; i++)
		p->twice += s->moves[i] > 1;
	free(done);
}

void
kv_plan_build_ex(const kv_analysis *a, const kv_bits *pool, size_t batch,
    bool allow_block, kv_plan *p)
{
	plan_state s;
	size_t nrk, nok;
	rank *rk;

	memset(p, 0, sizeof(*p));
	if (batch < 1)
		batch = 1;
	state_init(&s, a, batch);
	rk = ranked(&s, pool, &nrk);
	/* the blocked nodes rank last: without allow_block no steps */
	for (nok = 0; !allow_block && nok < nrk && !rk[nok].blocks; nok++)
		;
	if (allow_block)
		nok = nrk;
	p->fixfirst = xcalloc(nrk - nok + 1, sizeof(size_t));
	for (size_t i = nok; i < nrk; i++)
		p->fixfirst[p->nfixfirst++] = rk[i].node;
	build(&s, rk, nok, batch, false, p);
	p->npool = nrk;
	p->allow_block = allow_block;
	free(rk);
	state_free(&s);
}

void
kv_plan_build(const kv_analysis *a, const kv_bits *pool, size_t batch,
    kv_plan *p)
{
	kv_plan_build_ex(a, pool, batch, true, p);
}

void
kv_plan_fixed(const kv_analysis *a, const size_t *order, size_t n,
    size_t batch, kv_plan *p)
{
	plan_state s;
	rank *rk = xcalloc(n + 1, sizeof(rank));

	memset(p, 0, sizeof(*p));
	if (batch < 1)
		batch = 1;
	for (size_t i = 0; i < n; i++)
		rk[i].node = order[i];
	state_init(&s, a, batch);
	build(&s, rk, n, batch, true, p);
	p->allow_block = true;
	free(rk);
	state_free(&s);
}

void
kv_plan_free(kv_plan *p)
{
	for (size_t i = 0; i < p->nsteps; i++) {
		kv_drain_list_free(p->steps[i].drains, p->steps[i].nnodes);
		free(p->steps[i].nodes);
	}
	free(p->steps);
	free(p->fixfirst);
	memset(p, 0, sizeof(*p));
}

bool
kv_plan_fails(const kv_plan *p, enum kv_allow allow)
{
	size_t stops = allow == ALLOW_SHUTDOWN ? 0 : allow == ALLOW_RESTART ?
	    p->shutdown - p->restart : p->shutdown;

	return p->block > 0 || stops > 0 || p->nfixfirst > 0;
}

bool
kv_plan_window_fails(const kv_plan *p, double window)
{
	if (window > 0 && p->secs[1] > window)
		return true;
	for (size_t i = 0; i < p->nsteps; i++)
		if (kv_window_fails(p->steps[i].drains, p->steps[i].nnodes,
		    (double[2]){ 0, 0 }, 0))
			return true;
	return false;
}
