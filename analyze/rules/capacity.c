/*
 * capacity.c - node capacity and the target pod's need (capacity.h).
 */
#include "analyze/rules/capacity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
kv_res_fits(const kv_res *free, const kv_res *need)
{
	return (need->cpu_millis <= 0 || free->cpu_millis >= need->cpu_millis) &&
	    (need->memory <= 0 || free->memory >= need->memory) &&
	    (need->pods <= 0 || free->pods >= need->pods);
}

static void
take1(int64_t *free, int64_t need)
{
	if (*free != KV_RES_UNLIMITED && need > 0)
		*free = kv_sat_addmul(*free, need, -1);
}

void
kv_res_take(kv_res *free, const kv_res *need)
{
	take1(&free->cpu_millis, need->cpu_millis);
	take1(&free->memory, need->memory);
	take1(&free->pods, need->pods);
}

kv_res
kv_pod_request(const kv_pod *p)
{
	kv_res r = { p->res_cpu, p->res_memory, 1 };

	return r;
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

void
kv_capacity_build(kv_analysis *a)
{
	const kv_model *m = a->m;

	a->capacity_known = m->pods_all;
	for (size_t i = 0; i < m->nnodes; i++) {
		kv_nodeinfo *ni = &a->nodes[i];

		ni->allocatable.cpu_millis = m->nodes[i].alloc_cpu;
		ni->allocatable.memory = m->nodes[i].alloc_memory;
		ni->allocatable.pods = m->nodes[i].alloc_pods;
		memset(&ni->requested, 0, sizeof(ni->requested));
	}
	for (size_t i = 0; a->capacity_known && i < m->npods; i++) {
		const kv_pod *p = &m->pods[i];
		const kv_node *n;
		kv_res req, *q;

		if (!holds(p) || (n = kv_model_node(m, p->node)) == NULL)
			continue;
		req = kv_pod_request(p);
		q = &a->nodes[n - m->nodes].requested;

		q->cpu_millis = kv_sat_addmul(q->cpu_millis, req.cpu_millis, 1);
		q->memory = kv_sat_addmul(q->memory, req.memory, 1);
		q->pods = kv_sat_addmul(q->pods, req.pods, 1);
	}
	for (size_t i = 0; i < m->nnodes; i++) {
		kv_nodeinfo *ni = &a->nodes[i];

		ni->free.cpu_millis = left(ni->allocatable.cpu_millis,
		    ni->requested.cpu_millis);
		ni->free.memory = left(ni->allocatable.memory,
		    ni->requested.memory);
		ni->free.pods = left(ni->allocatable.pods, ni->requested.pods);
	}
}

kv_res
kv_room_free(const kv_analysis *a, size_t n)
{
	kv_res r = { KV_RES_UNLIMITED, KV_RES_UNLIMITED, KV_RES_UNLIMITED };

	if (a->capacity_known)
		return a->nodes[n].free;
	/* the older check: a negative balance counted as unknown */
	if (a->nodes[n].free_memory >= 0)
		r.memory = a->nodes[n].free_memory;
	return r;
}

kv_res
kv_room_need(const kv_analysis *a, const kv_vmires *r)
{
	kv_res need = { 0, 0, 0 };

	if (a->capacity_known)
		return r->need;
	need.memory = r->source_pod && r->source_pod->req_memory > 0 ?
	    r->source_pod->req_memory : r->vmi->memory;
	return need;
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
