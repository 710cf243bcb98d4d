/*
 * capacity.c - node capacity and the target pod's need (capacity.h).
 */
#include "analyze/rules/capacity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/quantity.h"

bool
kv_res_base_fits(const kv_res *free, const kv_res *need)
{
	return (need->cpu_millis <= 0 ||
	    free->cpu_millis >= need->cpu_millis) &&
	    (need->memory <= 0 || free->memory >= need->memory) &&
	    (need->pods <= 0 || free->pods >= need->pods);
}

int
kv_res_short(const kv_res *free, const kv_res *need)
{
	for (int i = 0; i < KV_MAX_RESNAMES; i++)
		if (need->ext[i] > 0 && free->ext[i] < need->ext[i])
			return i;
	return -1;
}

bool
kv_res_fits(const kv_res *free, const kv_res *need)
{
	return kv_res_base_fits(free, need) && kv_res_short(free, need) < 0;
}

bool
kv_res_none(const kv_res *need)
{
	if (need->cpu_millis > 0 || need->memory > 0 || need->pods > 0)
		return false;
	for (int i = 0; i < KV_MAX_RESNAMES; i++)
		if (need->ext[i] > 0)
			return false;
	return true;
}

static void
take1(int64_t *free, int64_t need, int64_t sign)
{
	if (*free != KV_RES_UNLIMITED && need > 0)
		*free = kv_sat_addmul(*free, need, sign);
}

void
kv_res_take(kv_res *free, const kv_res *need)
{
	take1(&free->cpu_millis, need->cpu_millis, -1);
	take1(&free->memory, need->memory, -1);
	take1(&free->pods, need->pods, -1);
	for (int i = 0; i < KV_MAX_RESNAMES; i++)
		take1(&free->ext[i], need->ext[i], -1);
}

void
kv_res_give(kv_res *free, const kv_res *need)
{
	take1(&free->cpu_millis, need->cpu_millis, 1);
	take1(&free->memory, need->memory, 1);
	take1(&free->pods, need->pods, 1);
	for (int i = 0; i < KV_MAX_RESNAMES; i++)
		take1(&free->ext[i], need->ext[i], 1);
}

/* An extended resource or hugepages-<size>: a node that does not list
 * it has none (fit.go fitsRequest reads allocatable.ScalarResources, 0
 * when absent).  ephemeral-storage, like CPU and memory, is unknown when
 * the node does not state it, and then never runs out. */
static bool
scalar(const char *name)
{
	return strcmp(name, "ephemeral-storage") != 0;
}

static int
name_cmp(const void *key, const void *elt)
{
	return strcmp(key, *(const char *const *)elt);
}

int
kv_resname_index(const kv_model *m, const char *name)
{
	const char *const *p = bsearch(name, m->resnames, m->nresnames,
	    sizeof(const char *), name_cmp);

	return p != NULL ? (int)(p - m->resnames) : -1;
}

/* qs[0..n) into ext (m->resnames order); names not there are left out. */
static void
ext_fill(const kv_model *m, const kv_qty *qs, size_t n, int64_t *ext)
{
	for (size_t i = 0; i < n; i++) {
		int k = kv_resname_index(m, qs[i].name);

		if (k >= 0)
			ext[k] = qs[i].value;
	}
}

kv_res
kv_pod_request(const kv_model *m, const kv_pod *p)
{
	kv_res r = { .cpu_millis = p->res_cpu, .memory = p->res_memory,
	    .pods = 1 };

	ext_fill(m, p->res_ext, p->nres_ext, r.ext);
	return r;
}

/* Whether some node's allocatable lists name: KubeVirt's own device
 * plugins (virt-handler) register devices.kubevirt.io/kvm and the like on
 * every node they run on, so a snapshot whose nodes list none of them
 * does not record them, and they are not counted from the VMI. */
static bool
any_node_lists(const kv_model *m, const char *name)
{
	for (size_t i = 0; i < m->nnodes; i++)
		for (size_t k = 0; k < m->nodes[i].nalloc_ext; k++)
			if (m->nodes[i].alloc_ext[k].name == name)
				return true;
	return false;
}

const kv_res kv_res_nothing = { .cpu_millis = 0 };

void
kv_need_from_vmi(const kv_model *m, kv_vmires *r, kv_res *need)
{
	kv_podreq p;
	size_t n = 0;

	kv_vmi_podreq(m, r->vmi, &p);
	for (size_t k = 0; k < p.n; k++)
		if (!kv_startswith(p.q[k].name, "devices.kubevirt.io/") ||
		    any_node_lists(m, p.q[k].name))
			p.q[n++] = p.q[k];
	p.n = n;
	memset(need, 0, sizeof(*need));
	need->cpu_millis = p.cpu_millis;
	need->memory = p.memory;
	need->pods = 1;
	ext_fill(m, p.q, p.n, need->ext);
	r->need_derived = true;
	r->need_unknown_nets = p.nunknown;
	r->need_unknown_net = p.unknown;
}

/* A pod that holds its node's resources: phase not Succeeded or Failed. */
static bool
holds(const kv_pod *p)
{
	return p->node != NULL && (p->phase == NULL ||
	    (strcmp(p->phase, "Succeeded") != 0 &&
	    strcmp(p->phase, "Failed") != 0));
}

static int64_t
left(int64_t alloc, int64_t used)
{
	return alloc < 0 ? KV_RES_UNLIMITED : kv_sat_addmul(alloc, used, -1);
}

static void
add_request(const kv_model *m, const kv_pod *p, kv_res *q)
{
	kv_res req = kv_pod_request(m, p);

	q->cpu_millis = kv_sat_addmul(q->cpu_millis, req.cpu_millis, 1);
	q->memory = kv_sat_addmul(q->memory, req.memory, 1);
	q->pods = kv_sat_addmul(q->pods, req.pods, 1);
	for (int k = 0; k < KV_MAX_RESNAMES; k++)
		q->ext[k] = kv_sat_addmul(q->ext[k], req.ext[k], 1);
}

void
kv_capacity_build(kv_analysis *a)
{
	const kv_model *m = a->m;

	a->capacity_known = m->pods_all;
	for (size_t i = 0; i < m->nnodes; i++) {
		kv_nodeinfo *ni = &a->nodes[i];

		memset(&ni->allocatable, 0, sizeof(ni->allocatable));
		for (size_t k = 0; k < m->nresnames; k++)
			if (!scalar(m->resnames[k]))
				ni->allocatable.ext[k] = -1;
		ni->allocatable.cpu_millis = m->nodes[i].alloc_cpu;
		ni->allocatable.memory = m->nodes[i].alloc_memory;
		ni->allocatable.pods = m->nodes[i].alloc_pods;
		ext_fill(m, m->nodes[i].alloc_ext, m->nodes[i].nalloc_ext,
		    ni->allocatable.ext);
		memset(&ni->requested, 0, sizeof(ni->requested));
	}
	for (size_t i = 0; a->capacity_known && i < m->npods; i++) {
		const kv_pod *p = &m->pods[i];
		const kv_node *n;

		if (!holds(p) || (n = kv_model_node(m, p->node)) == NULL)
			continue;
		add_request(m, p, &a->nodes[n - m->nodes].requested);
	}
	for (size_t i = 0; i < m->nnodes; i++) {
		kv_nodeinfo *ni = &a->nodes[i];

		ni->free.cpu_millis = left(ni->allocatable.cpu_millis,
		    ni->requested.cpu_millis);
		ni->free.memory = left(ni->allocatable.memory,
		    ni->requested.memory);
		ni->free.pods = left(ni->allocatable.pods, ni->requested.pods);
		for (int k = 0; k < KV_MAX_RESNAMES; k++)
			ni->free.ext[k] = left(ni->allocatable.ext[k],
			    ni->requested.ext[k]);
	}
}

kv_res
kv_room_free(const kv_analysis *a, size_t n)
{
	kv_res r = { .cpu_millis = KV_RES_UNLIMITED,
	    .memory = KV_RES_UNLIMITED, .pods = KV_RES_UNLIMITED };

	if (a->capacity_known)
		return a->nodes[n].free;
	/* the older check: a negative balance counted as unknown */
	if (a->nodes[n].free_memory >= 0)
		r.memory = a->nodes[n].free_memory;
	/* what the node allocates of the rest, its other pods unknown */
	for (int k = 0; k < KV_MAX_RESNAMES; k++)
		r.ext[k] = left(a->nodes[n].allocatable.ext[k], 0);
	return r;
}

kv_res
kv_room_need(const kv_analysis *a, const kv_vmires *r)
{
	kv_res need = { .cpu_millis = 0 };

	if (a->capacity_known)
		return *r->need;
	need.memory = r->source_pod && r->source_pod->req_memory > 0 ?
	    r->source_pod->req_memory : r->vmi->memory;
	memcpy(need.ext, r->need->ext, sizeof(need.ext));
	return need;
}

/* v of resource name in its own unit: pages for hugepages-<size>, bytes
 * for ephemeral-storage, else a count (caller frees). */
static char *
qty_fmt(const char *name, int64_t v)
{
	int64_t page = 0;
	kv_err e = {0};

	if (kv_startswith(name, "hugepages-") && kv_quantity_parse(name +
	    strlen("hugepages-"), &page, &e) == KV_OK && page > 0 &&
	    v % page == 0)
		return xasprintf("%lld", (long long)(v / page));
	if (kv_startswith(name, "hugepages-") ||
	    strcmp(name, "ephemeral-storage") == 0)
		return kv_fmt_bytes(v < 0 ? 0 : v);
	return xasprintf("%lld", (long long)(v < 0 ? 0 : v));
}

static bool
node_lists(const kv_node *n, const char *name)
{
	for (size_t i = 0; i < n->nalloc_ext; i++)
		if (n->alloc_ext[i].name == name)
			return true;
	return false;
}

bool
kv_res_short_fmt(const kv_analysis *a, size_t n, const kv_res *have,
    const kv_res *need, bool on_node, kv_buf *out)
{
	const kv_node *node = &a->m->nodes[n];
	int k = kv_res_short(have, need);
	char *l, *t, *w, *on;
	const char *name;

	if (k < 0)
		return false;
	name = a->m->resnames[k];
	w = qty_fmt(name, need->ext[k]);
	on = on_node ? xasprintf(" on %s", node->name) : xstrdup("");
	if (!node_lists(node, name)) {
		kv_buf_printf(out, "no %s%s: the node's allocatable does not "
		    "list it, needs %s", name, on, w);
		free(on);
		free(w);
		return true;
	}
	l = qty_fmt(name, have->ext[k]);
	t = qty_fmt(name, a->nodes[n].allocatable.ext[k]);
	kv_buf_printf(out, "%s %s%s: %s of %s left, needs %s",
	    have->ext[k] > 0 ? "not enough" : "no free", name, on, l, t, w);
	free(on);
	free(l);
	free(t);
	free(w);
	return true;
}

char *
kv_res_fmt(const kv_res *r)
{
	kv_buf b = {0};
	char *s;

	if (r->cpu_millis != KV_RES_UNLIMITED) {
		int64_t c = r->cpu_millis;

		if (c % 1000 == 0)
			kv_buf_printf(&b, "%lld CPU", (long long)(c / 1000));
		else
			kv_buf_printf(&b, "%lldm CPU", (long long)c);
	}
	if (r->memory != KV_RES_UNLIMITED) {
		s = kv_fmt_bytes(r->memory < 0 ? -r->memory : r->memory);
		kv_buf_printf(&b, "%s%s%s", b.len ? ", " : "",
		    r->memory < 0 ? "-" : "", s);
		free(s);
	}
	if (r->pods != KV_RES_UNLIMITED)
		kv_buf_printf(&b, "%s%lld pod%s", b.len ? ", " : "",
		    (long long)r->pods, r->pods == 1 ? "" : "s");
	if (b.data == NULL)
		return xstrdup("no limit");
	return b.data;
}
