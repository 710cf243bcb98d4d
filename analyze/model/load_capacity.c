/*
 * load_capacity.c - the resource facts of every pod (load.h): what it
 * requests of its node (findings.md "nodes": max(sum of the containers,
 * the largest init container) plus spec.overhead, per resource), its
 * priority, and the manifest's pods scope, which says whether the
 * snapshot holds every pod (snapshot-format.md).  Memory is in bytes,
 * CPU in thousandths of a core; every other resource a pod requests
 * (extended resources, hugepages-<size>, ephemeral-storage) is a kv_qty,
 * its name among m->resnames, and so is what a node's
 * status.allocatable lists of them.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/load.h"

/* A pod's requests while they are summed: CPU (millis), memory and the
 * other resources (kv_qty). */
typedef struct podsum {
	int64_t cpu, mem;
	size_t n;
	kv_qty q[KV_MAX_RESNAMES];
} podsum;

/* Register name among m->resnames; false when the table is full. */
static bool
resname_add(kv_model *m, const char *name)
{
	for (size_t i = 0; i < m->nresnames; i++)
		if (m->resnames[i] == name)
			return true;
	if (m->nresnames == KV_MAX_RESNAMES)
		return false;
	m->resnames[m->nresnames++] = name;
	return true;
}

static void
fold(int64_t *acc, int64_t v, bool max)
{
	v = v < 0 ? 0 : v;
	*acc = max ? (v > *acc ? v : *acc) : kv_sat_addmul(*acc, v, 1);
}

static int
fold_other(jctx *c, kv_model *m, podsum *s, const char *name, int64_t v,
    bool max, const char *path)
{
	size_t i;

	for (i = 0; i < s->n && s->q[i].name != name; i++)
		;
	if (i == s->n) {
		if (v <= 0)
			return KV_OK;
		if (!resname_add(m, name))
			return jerr(c, path, "more than %d distinct resources "
			    "beyond cpu and memory requested in the snapshot",
			    KV_MAX_RESNAMES);
		s->q[s->n].name = name;
		s->q[s->n++].value = 0;
	}
	fold(&s->q[i].value, v, max);
	return KV_OK;
}

/* Add (max = false) or take the maximum with (max = true) the resource
 * list at path of o, as the scheduler's computePodResourceRequest does
 * (kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go:
 * containers summed, each init container a maximum, overhead added). */
static int
fold_list(jctx *c, kv_model *m, json_t *o, const char *path, bool max,
    podsum *s)
{
	json_t *req, *val;
	const char *key;

	if (jget(c, o, path, JSON_OBJECT, &req) != KV_OK)
		return KV_ERR;
	if (req == NULL)
		return KV_OK;
	json_object_foreach(req, key, val) {
		bool cpu = strcmp(key, "cpu") == 0;
		char *at = kv_join(path, '.', key);	/* a name for errors */
		int64_t v;
		int rc = jquantity_of(c, val, at, cpu, &v);

		if (rc == KV_OK && cpu)
			fold(&s->cpu, v, max);
		else if (rc == KV_OK && strcmp(key, "memory") == 0)
			fold(&s->mem, v, max);
		else if (rc == KV_OK)
			rc = fold_other(c, m, s, kv_intern_str(c->strs, key),
			    v, max, at);
		free(at);
		if (rc != KV_OK)
			return KV_ERR;
	}
	return KV_OK;
}

/* Each container's resources.requests of the array at path. */
static int
containers(jctx *c, kv_model *m, json_t *o, const char *path, bool init,
    podsum *s)
{
	json_t *arr, *e;
	size_t i;

	if (jget(c, o, path, JSON_ARRAY, &arr) != KV_OK)
		return KV_ERR;
	if (arr == NULL)
		return KV_OK;
	json_array_foreach(arr, i, e) {
		jwhere(c, "%s[%zu].", path, i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (fold_list(c, m, e, "resources.requests", init, s))
			return KV_ERR;
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

static int
qty_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_qty *)x)->name, ((const kv_qty *)y)->name);
}

int
load_pod_resources(kv_model *m, jctx *c, json_t *o, kv_pod *p)
{
	podsum s = {0};
	json_t *prio;

	if (containers(c, m, o, "spec.containers", false, &s) ||
	    containers(c, m, o, "spec.initContainers", true, &s) ||
	    fold_list(c, m, o, "spec.overhead", false, &s) ||
	    jget(c, o, "spec.priority", JSON_INTEGER, &prio))
		return KV_ERR;
	p->res_cpu = s.cpu;
	p->res_memory = s.mem;
	p->nres_ext = s.n;
	p->res_ext = xcalloc(s.n + 1, sizeof(kv_qty));
	if (s.n > 0) {
		memcpy(p->res_ext, s.q, s.n * sizeof(kv_qty));
		kv_qsort(p->res_ext, s.n, sizeof(kv_qty), qty_cmp);
	}
	p->priority = prio != NULL ? (int64_t)json_integer_value(prio) : 0;
	return KV_OK;
}

int
load_node_allocatable(jctx *c, json_t *o, kv_node *n)
{
	json_t *al, *val;
	const char *key;

	n->nalloc_ext = 0;
	if (jget(c, o, "status.allocatable", JSON_OBJECT, &al) != KV_OK)
		return KV_ERR;
	n->alloc_ext = xcalloc((al ? json_object_size(al) : 0) + 1,
	    sizeof(kv_qty));
	if (al == NULL)
		return KV_OK;
	json_object_foreach(al, key, val) {
		char *at;
		int64_t v;
		int rc;

		if (strcmp(key, "cpu") == 0 || strcmp(key, "memory") == 0 ||
		    strcmp(key, "pods") == 0)
			continue;
		at = kv_join("status.allocatable", '.', key);
		rc = jquantity_of(c, val, at, false, &v);
		free(at);
		if (rc != KV_OK)
			return KV_ERR;
		n->alloc_ext[n->nalloc_ext].name = kv_intern_str(c->strs, key);
		n->alloc_ext[n->nalloc_ext++].value = v < 0 ? 0 : v;
	}
	if (n->nalloc_ext > 1)
		kv_qsort(n->alloc_ext, n->nalloc_ext, sizeof(kv_qty), qty_cmp);
	return KV_OK;
}

static int
name_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void
load_resnames_finish(kv_model *m)
{
	/* and what a VMI without its launcher in the input would request
	 * (podreq.c): beyond the table's size such a name is not counted */
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_podreq p;

		kv_vmi_podreq(m, &m->vmis[i], &p);
		for (size_t k = 0; k < p.n; k++)
			(void)resname_add(m, p.q[k].name);
	}
	if (m->nresnames > 1)
		kv_qsort(m->resnames, m->nresnames, sizeof(const char *),
		    name_cmp);
}

void
kv_model_resnames_add(kv_model *m, const kv_model *from)
{
	for (size_t i = 0; i < from->nresnames; i++)
		(void)resname_add(m, from->resnames[i]);
	if (m->nresnames > 1)
		kv_qsort(m->resnames, m->nresnames, sizeof(const char *),
		    name_cmp);
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
