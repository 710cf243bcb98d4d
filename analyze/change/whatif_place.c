/*
 * whatif_place.c - the edits of a relax-placement or free-capacity fix
 * (--fix G; decide/relax.c names them), written into the objects:
 *
 *  relax      for the VMIs of the change's scope, the restart brings the
 *             VM's template with the edit: a nodeSelector key removed, a
 *             required node affinity requirement (or empty term) dropped,
 *             a toleration added, required pod (anti-)affinity made
 *             preferred, DoNotSchedule spreads ScheduleAnyway; or the
 *             migration that adds a selector sent again without it (no
 *             restart);
 *  free-room  the node has the amount more room (kvscope does not choose
 *             the pods that leave: its allocatable grows by the amount);
 *             no restart.
 *
 * What is dropped stays in its array past the count (ndropped), so the
 * model that owns it frees it as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/whatif_int.h"
#include "analyze/decide/groups.h"

static bool
picked(const kv_change *ch, size_t i)
{
	return ch->scope != SC_PICK || ch->pick[i];
}

/* Element i of a (n elements of size) moved past the others. */
static void
to_tail(void *a, size_t i, size_t n, size_t size)
{
	unsigned char *p = a, *tmp;

	if (i + 1 >= n)
		return;
	tmp = xmalloc(size);
	memcpy(tmp, p + i * size, size);
	memmove(p + i * size, p + (i + 1) * size, (n - i - 1) * size);
	memcpy(p + (n - 1) * size, tmp, size);
	free(tmp);
}

static bool
drop_selector(kv_vmi *v, const char *key)
{
	size_t k = 0, n = v->node_selector.n;

	for (size_t i = 0; i < n; i++)
		if (strcmp(v->node_selector.v[i].key, key) != 0)
			v->node_selector.v[k++] = v->node_selector.v[i];
	v->node_selector.n = k;
	return k < n;
}

/* The elements of a (*n of size, *nd dropped past them) that match arg
 * moved past the others and counted as dropped; whether any. */
static bool
drop_where(void *a, size_t *n, size_t *nd, size_t size,
    bool (*match)(const void *elt, const void *arg), const void *arg)
{
	unsigned char *p = a;
	bool any = false;

	for (size_t i = 0; i < *n;)
		if (match(p + i * size, arg)) {
			to_tail(a, i, *n + *nd, size);
			(*n)--;
			(*nd)++;
			any = true;
		} else
			i++;
	return any;
}

static bool
req_on(const void *q, const void *key)
{
	return strcmp(((const kv_nsreq *)q)->key, key) == 0;
}

static bool
term_empty(const void *t, const void *arg)
{
	(void)arg;
	return ((const kv_nsterm *)t)->nreqs == 0;
}

static bool
term_anti(const void *t, const void *anti)
{
	return ((const kv_podterm *)t)->anti == *(const bool *)anti;
}

/* Every term's requirements on key out; a term left empty would match
 * every node, so then the required affinity goes. */
static bool
drop_affinity(kv_affinity *f, const char *key)
{
	bool any = false, empty = false;

	for (size_t t = 0; t < f->nterms; t++) {
		kv_nsterm *term = &f->terms[t];
		size_t had = term->nreqs;

		any |= drop_where(term->reqs, &term->nreqs, &term->ndropped,
		    sizeof(kv_nsreq), req_on, key);
		/* a term empty before asks for nothing to drop */
		empty |= had > 0 && term->nreqs == 0;
	}
	if (empty) {
		f->ndropped += f->nterms;
		f->nterms = 0;
	}
	return any;
}

static bool
tolerate(kv_model *m, kv_vmi *v, const kv_step *st)
{
	v->tolerations = xreallocarray(v->tolerations, v->ntolerations + 1,
	    sizeof(kv_toleration));
	v->tolerations[v->ntolerations++] = (kv_toleration){ .key = st->key,
	    .op = kv_intern_str(m->strs, "Exists"), .value = NULL,
	    .effect = st->effect };
	return true;
}

/* The migrations of v named by, sent again without their selector. */
static bool
drop_added(kv_model *m, const kv_vmi *v, const char *by)
{
	bool any = false;

	for (size_t i = 0; i < m->nvmims; i++) {
		kv_vmim *mi = &m->vmims[i];

		if (strcmp(mi->ns, v->ns) == 0 && strcmp(mi->vmi, v->name) ==
		    0 && strcmp(mi->name, by) == 0 && mi->added_selector.n) {
			mi->added_selector.n = 0;
			any = true;
		}
	}
	return any;
}

/* Step st into VMI v; whether it changed anything. */
static bool
edit(kv_model *m, kv_vmi *v, const kv_step *st)
{
	bool any = false, anti;

	switch (st->kind) {
	case STEP_DROP_SELECTOR:
		return drop_selector(v, st->key);
	case STEP_DROP_ADDED:
		return drop_added(m, v, st->by);
	case STEP_DROP_AFFINITY:
		return drop_affinity(&v->affinity, st->key);
	case STEP_DROP_EMPTY:
		return drop_where(v->affinity.terms, &v->affinity.nterms,
		    &v->affinity.ndropped, sizeof(kv_nsterm), term_empty, NULL);
	case STEP_TOLERATE:
		return tolerate(m, v, st);
	case STEP_POD_AFFINITY:
	case STEP_POD_ANTI:
		anti = st->kind == STEP_POD_ANTI;
		return drop_where(v->pod_place.terms, &v->pod_place.nterms,
		    &v->pod_place.ndropped, sizeof(kv_podterm), term_anti,
		    &anti);
	case STEP_SPREAD:
		for (size_t i = 0; i < v->pod_place.nspreads; i++)
			if (v->pod_place.spreads[i].do_not_schedule) {
				v->pod_place.spreads[i].do_not_schedule =
				    false;
				any = true;
			}
		return any;
	default:
		return false;
	}
}

int
kv_wi_relax(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const kv_step *st = ch->step;
	bool restart = st->kind != STEP_DROP_ADDED;
	size_t n = 0, nr = 0;

	for (size_t i = 0; i < m->nvmis; i++) {
		if (!picked(ch, i))
			continue;
		if (restart)
			kv_wi_restart(c, i, &nr);
		n += edit(m, &m->vmis[i], st);
	}
	kv_wi_note(c->w, xasprintf("relax %s on %zu %s (%s%s%s)%s%zu running "
	    "%s restart", ch->value, n, kv_wi_vms(c, n),
	    kv_wi_scope_text(c, ch), ch->scope_value ? " " : "",
	    ch->scope_value ? ch->scope_value : "", restart ?
	    ": takes effect after a restart, " : ": no restart, ", nr,
	    kv_wi_vms(c, nr)));
	return KV_OK;
}

/* alloc of node n grows by more (unknown allocatable stays unknown). */
static void
grow(int64_t *alloc, int64_t more)
{
	if (*alloc >= 0 && more > 0)
		*alloc = kv_sat_addmul(*alloc, more, 1);
}

static void
grow_ext(kv_model *m, kv_node *n, const char *name, int64_t more)
{
	for (size_t k = 0; k < n->nalloc_ext; k++)
		if (n->alloc_ext[k].name == name) {
			grow(&n->alloc_ext[k].value, more);
			return;
		}
	(void)m;
	n->alloc_ext = xreallocarray(n->alloc_ext, n->nalloc_ext + 1,
	    sizeof(kv_qty));
	n->alloc_ext[n->nalloc_ext++] = (kv_qty){ name, more };
}

int
kv_wi_free_room(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const kv_node *cn = kv_model_node(m, ch->value);
	const kv_res *r = &ch->step->amount;
	kv_node *n;

	if (cn == NULL)
		return kv_seterr(c->err, "free-room: no node %s in the "
		    "snapshot", ch->value);
	n = &m->nodes[cn - m->nodes];
	grow(&n->alloc_cpu, r->cpu_millis);
	grow(&n->alloc_memory, r->memory);
	grow(&n->alloc_pods, r->pods);
	for (size_t k = 0; k < m->nresnames && k < KV_MAX_RESNAMES; k++)
		if (r->ext[k] > 0)
			grow_ext(m, n, m->resnames[k], r->ext[k]);
	kv_wi_note(c->w, xasprintf("room freed on %s: %s (kvscope does not "
	    "pick the pods that leave: the node's allocatable grows by that "
	    "much); no restart", n->name, ch->subject));
	return KV_OK;
}
