/*
 * load_capacity.c - the resource facts of every pod (load.h): what it
 * requests of its node (findings.md "nodes": max(sum of the containers,
 * the largest init container) plus spec.overhead, per resource), its
 * priority, and the manifest's pods scope, which says whether the
 * snapshot holds every pod (snapshot-format.md).  Memory is in bytes,
 * CPU in thousandths of a core.
 */
#include <string.h>

#include "analyze/model/load.h"

/* Sum (init = false) or maximum (init = true) of the containers' CPU and
 * memory requests at path. */
static int
containers(jctx *c, json_t *o, const char *path, bool init, int64_t *cpu,
    int64_t *mem)
{
	json_t *arr, *e;
	size_t i;

	*cpu = *mem = 0;
	if (jget(c, o, path, JSON_ARRAY, &arr) != KV_OK)
		return KV_ERR;
	if (arr == NULL)
		return KV_OK;
	json_array_foreach(arr, i, e) {
		int64_t mc, mm;

		jwhere(c, "%s[%zu].", path, i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jquantity_milli(c, e, "resources.requests.cpu", &mc) ||
		    jquantity(c, e, "resources.requests.memory", &mm))
			return KV_ERR;
		mc = mc < 0 ? 0 : mc;
		mm = mm < 0 ? 0 : mm;
		if (init) {
			*cpu = mc > *cpu ? mc : *cpu;
			*mem = mm > *mem ? mm : *mem;
		} else {
			*cpu = kv_sat_addmul(*cpu, mc, 1);
			*mem = kv_sat_addmul(*mem, mm, 1);
		}
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

int
load_pod_resources(jctx *c, json_t *o, kv_pod *p)
{
	int64_t cpu, mem, icpu, imem, ocpu, omem;
	json_t *prio;

	if (containers(c, o, "spec.containers", false, &cpu, &mem) ||
	    containers(c, o, "spec.initContainers", true, &icpu, &imem) ||
	    jquantity_milli(c, o, "spec.overhead.cpu", &ocpu) ||
	    jquantity(c, o, "spec.overhead.memory", &omem) ||
	    jget(c, o, "spec.priority", JSON_INTEGER, &prio))
		return KV_ERR;
	p->res_cpu = kv_sat_addmul(icpu > cpu ? icpu : cpu, ocpu > 0 ? ocpu :
	    0, 1);
	p->res_memory = kv_sat_addmul(imem > mem ? imem : mem, omem > 0 ?
	    omem : 0, 1);
	p->priority = prio != NULL ? (int64_t)json_integer_value(prio) : 0;
	return KV_OK;
}

int
load_pods_scope(kv_model *m, const char *path, kv_err *err)
{
	m->pods_all = false;
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];

		if (strcmp(r->resource, "pods") != 0 || *r->group != '\0' ||
		    r->scope == NULL)
			continue;
		if (strcmp(r->scope, "all") != 0 &&
		    strcmp(r->scope, "launchers") != 0)
			return kv_seterr(err, "%s: manifest.json: "
			    "resources[%zu].scope: expected \"all\" or "
			    "\"launchers\", got \"%s\"", path, i, r->scope);
		m->pods_all = strcmp(r->scope, "all") == 0 &&
		    strcmp(r->status, "ok") == 0;
	}
	return KV_OK;
}
