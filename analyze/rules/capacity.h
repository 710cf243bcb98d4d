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
 *
 * Every other resource a pod requests (kv_res.ext: device-plugin
 * resources such as devices.kubevirt.io/kvm, SR-IOV VFs and GPUs,
 * hugepages-<size>, ephemeral-storage) is compared the way the
 * scheduler's NodeResourcesFit does (kubernetes pkg/scheduler/framework/
 * plugins/noderesources/fit.go, fitsRequest): allocatable less the
 * requests of the node's pods, a resource the node does not list being
 * none at all, so a pod that requests it does not fit.  With capacity
 * unknown the node's allocatable of them is checked alone.  The target
 * pod's requests are the source launcher's, which virt-controller
 * rendered from the VMI (kubevirt v1.9.0 pkg/virt-controller/services/
 * template.go:1028 and :1649-1659, renderresources.go:149-190,
 * :220-260, :363-374, :466-485): 1 of kvm, tun, vhost-net as needed, 1
 * per GPU, host device and SR-IOV network resource, and with hugepages
 * hugepages-<pageSize> = the guest memory while the memory request
 * shrinks to the overhead.
 */
#ifndef KV_CAPACITY_H
#define KV_CAPACITY_H

#include "analyze/rules/analysis.h"

#define KV_RES_UNLIMITED INT64_MAX

bool kv_res_fits(const kv_res *free, const kv_res *need);
/* CPU, memory and pods alone. */
bool kv_res_base_fits(const kv_res *free, const kv_res *need);
/* The first ext index (m->resnames order) short in free, or -1. */
int kv_res_short(const kv_res *free, const kv_res *need);
/* Nothing needed at all. */
bool kv_res_none(const kv_res *need);
void kv_res_take(kv_res *free, const kv_res *need);
/* Undo kv_res_take. */
void kv_res_give(kv_res *free, const kv_res *need);
/* The index of name in m->resnames, or -1. */
int kv_resname_index(const kv_model *m, const char *name);
/* When kv_res_short: "no free hugepages-1Gi on w3: 0 of 4 left, needs 2"
 * or "no nvidia.com/X on w3: the node's allocatable does not list it,
 * needs 1" into out (node n, named when on_node; have is what
 * kv_room_free says); else false. */
bool kv_res_short_fmt(const kv_analysis *a, size_t n, const kv_res *have,
    const kv_res *need, bool on_node, kv_buf *out);

/* Fill a->capacity_known and a->nodes[].allocatable, requested, free. */
void kv_capacity_build(kv_analysis *a);
/* What pod p requests of its node: {cpu, memory, 1, the rest}. */
kv_res kv_pod_request(const kv_model *m, const kv_pod *p);
/* The need of r when r has no source pod, into *need: what
 * virt-controller would request for r's VMI (kv_vmi_podreq); sets
 * r->need_derived and the networks whose resource is unknown. */
void kv_need_from_vmi(const kv_model *m, kv_vmires *r, kv_res *need);
/* All zero: the need of a VMI whose targets are not searched. */
extern const kv_res kv_res_nothing;
/* The room check the target search uses for node n, and the need it is
 * checked against: the capacity above when known, else the older memory
 * check (free_memory; CPU and pods never run out). */
kv_res kv_room_free(const kv_analysis *a, size_t n);
kv_res kv_room_need(const kv_analysis *a, const kv_vmires *r);
/* "2 CPU, 4 GiB, 1 pod" (caller frees); unlimited parts are left out. */
char *kv_res_fmt(const kv_res *r);

#endif
