/*
 * capacity.h - what every node has left (findings.md "nodes":
 * allocatable, requested) and what a migration target pod needs.
 *
 * With the manifest's pods scope "all" the snapshot holds every pod, so a
 * node's requested resources are known: the sum over its pods that hold
 * resources (phase not Succeeded or Failed) of each pod's request.  Then
 * a->capacity_known is true and a->nodes[].free = allocatable - requested.
 * Without it capacity is unknown and only the older memory check applies
 * (allocatable memory less the launcher pods' memory requests), so verdicts
 * of launchers-only snapshots stay as they were.  A resource a node does
 * not state in status.allocatable is -1 there and KV_RES_UNLIMITED in
 * free: it never runs out.
 */
#ifndef KV_CAPACITY_H
#define KV_CAPACITY_H

#include "analyze/rules/analysis.h"

#define KV_RES_UNLIMITED INT64_MAX

bool kv_res_fits(const kv_res *free, const kv_res *need);
void kv_res_take(kv_res *free, const kv_res *need);

/* Fill a->capacity_known and a->nodes[].allocatable, requested, free. */
void kv_capacity_build(kv_analysis *a);
/* What pod p requests of its node: {cpu, memory, 1}. */
kv_res kv_pod_request(const kv_pod *p);
/* The room check the target search uses for node n, and the need it is
 * checked against: the capacity above when known, else the older memory
 * check (free_memory; CPU and pods never run out). */
kv_res kv_room_free(const kv_analysis *a, size_t n);
kv_res kv_room_need(const kv_analysis *a, const kv_vmires *r);
/* "2 CPU, 4 GiB, 1 pod" (caller frees); unlimited parts are left out. */
char *kv_res_fmt(const kv_res *r);

#endif
