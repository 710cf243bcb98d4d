/*
 * drainsim.c - one placement step of a drain (drain.h): what the eviction
 * webhook and the evacuation controller (or DVP's Evict operations) do
 * with each VMI of the nodes being drained, and where those that migrate
 * land.  Candidates are the bitset of the VMI's target search, walked in
 * node (= name) order; nothing rescans the nodes' labels.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/drain.h"

void
kv_drain_ctx_init(kv_drain_ctx *c, const kv_analysis *a)
{
	memset(c, 0, sizeof(*c));
	c->a = a;
	kv_bits_init(&c->out, a->m->nnodes);
	kv_bits_init(&c->done, a->m->nnodes);
	if (a->capacity_known) {
		c->room = xcalloc(a->m->nnodes + 1, sizeof(kv_res));
		for (size_t i = 0; i < a->m->nnodes; i++)
			c->room[i] = a->nodes[i].free;
	}
}

void
kv_drain_ctx_free(kv_drain_ctx *c)
{
	kv_bits_free(&c->out);
	kv_bits_free(&c->done);
	free(c->room);
	free(c->loc);
	free(c->journal);
	memset(c, 0, sizeof(*c));
}

static const char *
first_blocker(const kv_vmires *r, const char *dflt)
{
	return r->nblockers > 0 ? r->blockers[0].rule->code : dflt;
}

/* What the strategy alone does (rules-kubevirt.md §5). */
static void
decide(const kv_vmires *r, size_t vmi, size_t source, kv_drain_row *row)
{
	row->vmi = vmi;
	row->source = source;
	row->action = r->on_drain;
	row->target = SIZE_MAX;
	row->reason = NULL;
	row->restart = row->no_node = row->restart_unknown = false;
	row->restart_node = SIZE_MAX;
	row->restart_why = NULL;
	if (r->on_drain == DRAIN_SHUTDOWN)
		row->reason = r->eviction != NULL &&
		    strcmp(r->eviction, "LiveMigrateIfPossible") == 0 ?
		    first_blocker(r, "eviction-shutdown") : "eviction-shutdown";
	else if (r->on_drain == DRAIN_BLOCK)
		row->reason = first_blocker(r, "eviction-blocks-drain");
}

/* A shutdown row whose VirtualMachine would start the VMI again (the
 * flavor's restarts hook); sets row->restart_why, and restart_unknown
 * when the input lacks the VMs (no node is sought then). */
static bool
wants_restart(const kv_analysis *a, kv_drain_row *row)
{
	const kv_vmires *r = &a->vmis[row->vmi];
	const char *why = NULL;
	enum kv_restart k;

	if (row->action != DRAIN_SHUTDOWN || a->m->flavor->restarts == NULL)
		return false;
	k = a->m->flavor->restarts(a->m, r, &why);
	row->restart_why = why;
	row->restart_unknown = k == RESTART_UNKNOWN;
	return k == RESTART_YES;
}

static int64_t
priority(const kv_vmires *r)
{
	return r->source_pod != NULL ? r->source_pod->priority : 0;
}

static int64_t
request(const kv_analysis *a, const kv_vmires *r)
{
	return a->capacity_known ? r->need->memory : r->memory;
}

typedef struct order_arg {
	const kv_analysis *a;
	const size_t *vmis;
} order_arg;

/* Placement order of positions into vmis: priority, then memory request
 * (both larger first), then name. */
static int
place_cmp(const void *x, const void *y, void *arg)
{
	const order_arg *o = arg;
	const kv_vmires *p = &o->a->vmis[o->vmis[*(const size_t *)x]];
	const kv_vmires *q = &o->a->vmis[o->vmis[*(const size_t *)y]];
	int64_t pp = priority(p), pq = priority(q);
	int64_t mp = request(o->a, p), mq = request(o->a, q);

	if (pp != pq)
		return pp > pq ? -1 : 1;
	if (mp != mq)
		return mp > mq ? -1 : 1;
	return strcmp(p->vmi->fullname, q->vmi->fullname);
}

/* Whether candidate n is a better target than best: a node drained
 * before and back in service first (the VMI does not move again when
 * that node's turn would come), then the most free memory. */
static bool
better(const kv_drain_ctx *c, size_t n, size_t best)
{
	bool dn = kv_bits_test(&c->done, n), db;

	if (best == SIZE_MAX)
		return true;
	db = kv_bits_test(&c->done, best);
	if (dn != db)
		return dn;
	return c->room != NULL && c->room[n].memory > c->room[best].memory;
}

/* The target of VMI v, or SIZE_MAX; *any: some candidate was not
 * drained (so what failed was room).  A VMI that migrates goes where its
 * migration target pod can; one its VM starts again after the drain
 * stopped it goes where a fresh launcher pod can (start_targets): no
 * host-model or vendor selector of the source node, no migration's
 * selector (kv_target_start). */
static size_t
pick(const kv_drain_ctx *c, size_t v, size_t source, bool restart,
    bool *any)
{
	const kv_vmires *r = &c->a->vmis[v];
	const kv_nodeset *set = restart ? &r->start_targets : &r->targets;
	size_t here = c->loc != NULL ? c->loc[v] : source, best = SIZE_MAX;
	size_t back = here != source ? source : SIZE_MAX;
	size_t nw = set->base == NULL ? 0 : set->base->nwords;

	*any = false;
	if (nw > c->out.nwords)
		nw = c->out.nwords;
	/* the set's nodes not drained, a word at a time, in node order */
	for (size_t w = 0; w < nw; w++)
		for (uint64_t x = set->base->w[w] & ~c->out.w[w]; x != 0;
		    x &= x - 1) {
			size_t n = w * 64 + (size_t)__builtin_ctzll(x);

			if (n == here || (n != back &&
			    kv_nodeset_excludes(set, n)))
				continue;
			*any = true;
			if (c->room != NULL &&
			    !kv_res_fits(&c->room[n], r->need))
				continue;
			if (better(c, n, best))
				best = n;
		}
	return best;
}

static size_t
source_of(const kv_analysis *a, size_t v)
{
	const kv_node *n = kv_model_node(a->m, a->vmis[v].vmi->node);

	return n != NULL ? (size_t)(n - a->m->nodes) : SIZE_MAX;
}

size_t
kv_drain_place(kv_drain_ctx *c, const size_t *vmis, size_t n,
    kv_drain_row *rows)
{
	const kv_analysis *a = c->a;
	size_t *ord = xcalloc(n + 1, sizeof(size_t)), nord = 0, lost = 0;
	order_arg oa = { a, vmis };

	for (size_t k = 0; k < n; k++) {
		size_t src = source_of(a, vmis[k]);

		decide(&a->vmis[vmis[k]], vmis[k], c->loc != NULL ?
		    c->loc[vmis[k]] : src, &rows[k]);
		/* a migration under way keeps its target, whose pod the
		 * snapshot's room already counts */
		if (rows[k].action == DRAIN_MIGRATE &&
		    a->vmis[vmis[k]].migrating_to != SIZE_MAX)
			rows[k].target = a->vmis[vmis[k]].migrating_to;
		else if (rows[k].action == DRAIN_MIGRATE ||
		    wants_restart(a, &rows[k]))
			ord[nord++] = k;
	}
	if (nord > 1)
		qsort_r(ord, nord, sizeof(size_t), place_cmp, &oa);
	for (size_t j = 0; j < nord; j++) {
		kv_drain_row *row = &rows[ord[j]];
		const kv_vmires *r = &a->vmis[row->vmi];
		bool any;
		size_t t = pick(c, row->vmi, source_of(a, row->vmi),
		    row->action == DRAIN_SHUTDOWN, &any);

		if (row->action == DRAIN_SHUTDOWN) {
			/* the pod goes anyway; the new VMI's pod needs a node
			 * and room like a migration's target pod */
			row->restart = t != SIZE_MAX;
			row->no_node = t == SIZE_MAX;
			row->restart_node = t;
		}
		if (t == SIZE_MAX && row->action == DRAIN_SHUTDOWN)
			continue;
		if (t == SIZE_MAX) {
			row->action = DRAIN_BLOCK;
			row->reason = any ? "no-capacity" :
			    "no-placement-target";
			lost++;
			continue;
		}
		if (row->action == DRAIN_MIGRATE)
			row->target = t;
		if (c->room != NULL) {
			KV_GROW(c->journal, c->cjournal, c->njournal + 1);
			c->journal[c->njournal].node = t;
			c->journal[c->njournal++].need = *r->need;
			kv_res_take(&c->room[t], r->need);
		}
	}
	free(ord);
	return lost;
}

void
kv_drain_undo(kv_drain_ctx *c, size_t mark)
{
	while (c->njournal > mark) {
		const struct kv_take *t = &c->journal[--c->njournal];

		kv_res_give(&c->room[t->node], &t->need);
	}
}

static int
row_cmp(const void *x, const void *y, void *arg)
{
	const kv_analysis *a = arg;
	const kv_drain_row *p = x, *q = y;

	return strcmp(a->vmis[p->vmi].vmi->fullname,
	    a->vmis[q->vmi].vmi->fullname);
}

void
kv_drain_rows_sort(const kv_analysis *a, kv_drain_row *rows, size_t n)
{
	if (n > 1)
		qsort_r(rows, n, sizeof(*rows), row_cmp, (void *)a);
}
