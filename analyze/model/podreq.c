/*
 * podreq.c - what virt-controller requests for a VMI's launcher pod
 * (model.h kv_podreq), derived from the VMI alone: the need of a VMI
 * whose launcher pod is not in the input.  Read from kubevirt v1.9.0
 * pkg/virt-controller/services/template.go:1023-1037 (newResourceRenderer)
 * and :1633-1670 (VMIResourcePredicates), renderresources.go:
 *
 *   cpu      resources.requests.cpu when set (the VMI's requests win over
 *            the computed ones, :84-89); else dedicated CPUs ask vCPUs
 *            (+1 for isolateEmulatorThread, :319-361), others vCPUs /
 *            cpuAllocationRatio (default 10, pkg/virt-config/
 *            virt-config.go:88; :128-147)
 *   memory   resources.requests.memory, else limits.memory, else guest /
 *            memoryOvercommit% (:263-293), plus the launcher overhead
 *            (:295-308), which kvscope does not compute: a lower bound
 *   hugepages-<pageSize>  the memory request (the guest when smaller),
 *            the memory request then shrinking to the overhead (:220-261)
 *   devices  1 per GPU and host device a device plugin serves, by
 *            deviceName (:149-160, :177-189), 1 per multus network whose
 *            NetworkAttachmentDefinition names a resource (annotation
 *            k8s.v1.cni.cncf.io/resourceName; :363-374, pkg/network/
 *            multus/nad.go:52-72)
 *   kvm, tun, vhost-net, vhost-vsock  as getRequiredResources (:466-485;
 *            pkg/network/vmispec/devices.go:26-34): tun with an interface
 *            or the pod interface attached, vhost-net with a virtio
 *            interface and kvm unless useEmulation, vhost-vsock with
 *            autoattachVSOCK
 *   ephemeral-storage  50M (:103-118, template.go:116)
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/model.h"
#include "analyze/util/util.h"

static void
add(const kv_model *m, kv_podreq *p, const char *name, int64_t v)
{
	const char *key = kv_intern_str(m->strs, name);
	size_t i;

	for (i = 0; i < p->n && p->q[i].name != key; i++)
		;
	if (i == p->n) {
		if (p->n == KV_MAX_RESNAMES)
			return;
		p->q[p->n].name = key;
		p->q[p->n++].value = 0;
	}
	p->q[i].value = kv_sat_addmul(p->q[i].value, v, 1);
}

static int64_t
cpu_millis(const kv_model *m, const kv_vmi *v)
{
	int64_t ratio = m->cluster.cpu_ratio > 0 ? m->cluster.cpu_ratio : 10;

	if (v->req_cpu >= 0 && !v->dedicated_cpu)
		return v->req_cpu;
	if (v->dedicated_cpu)
		return kv_sat_addmul(0, kv_sat_addmul(v->vcpus,
		    v->isolate_emulator ? 1 : 0, 1), 1000);
	return kv_sat_addmul(0, v->vcpus, 1000) / ratio;
}

/* The memory request before the overhead (WithMemoryRequests). */
static int64_t
memory_request(const kv_model *m, const kv_vmi *v)
{
	int64_t over = m->cluster.mem_overcommit > 0 ?
	    m->cluster.mem_overcommit : 100;

	if (v->req_memory > 0)
		return v->req_memory;
	if (v->guest_memory > 0)
		return kv_sat_addmul(0, v->guest_memory, 100) / over;
	return 0;
}

static void
memory(const kv_model *m, const kv_vmi *v, kv_podreq *p)
{
	int64_t req = memory_request(m, v), pages = req;
	char *name;

	p->memory = req;
	if (v->hugepages == NULL)
		return;
	if (v->guest_memory > 0 && req > v->guest_memory)
		pages = v->guest_memory;
	name = xasprintf("hugepages-%s", v->hugepages);
	add(m, p, name, pages);
	free(name);
	p->memory = req - pages;
}

static void
networks(const kv_model *m, const kv_vmi *v, kv_podreq *p)
{
	for (size_t i = 0; i < v->nmultus; i++) {
		const kv_nad *n = kv_model_nad(m, v->ns, v->multus[i]);

		if (n == NULL) {
			if (p->nunknown++ == 0)
				p->unknown = v->multus[i];
		} else if (n->resource != NULL)
			add(m, p, n->resource, 1);
	}
}

void
kv_vmi_podreq(const kv_model *m, const kv_vmi *v, kv_podreq *p)
{
	bool emulation = m->cluster.use_emulation == 1;

	memset(p, 0, sizeof(*p));
	p->cpu_millis = cpu_millis(m, v);
	memory(m, v, p);
	if (!emulation)
		add(m, p, "devices.kubevirt.io/kvm", 1);
	if (v->nifaces > 0 || v->autoattach != 0)
		add(m, p, "devices.kubevirt.io/tun", 1);
	if (v->virtio_iface && !emulation)
		add(m, p, "devices.kubevirt.io/vhost-net", 1);
	if (v->vsock)
		add(m, p, "devices.kubevirt.io/vhost-vsock", 1);
	for (size_t i = 0; i < v->ndevnames; i++)
		add(m, p, v->devnames[i], 1);
	networks(m, v, p);
	add(m, p, "ephemeral-storage", 50 * 1000 * 1000);
}
