/*
 * load_history.c - what the snapshot says of past migrations and of the
 * guests' memory traffic, for the migration estimate (analyze/estimate):
 * a VMI's status.migrationState (its latest migration), a VMIM's status
 * (migrationState and phaseTransitionTimestamps), and the collector's
 * Prometheus extract (resources/vmimetrics.kvscope.io.json,
 * docs/snapshot-format.md).  Field names as in kubevirt v1.9.0
 * staging/src/kubevirt.io/api/core/v1/types.go:990-1056
 * (VirtualMachineInstanceMigrationState) and :1820-1834
 * (VirtualMachineInstanceMigrationStatus).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/model/load.h"

int
load_mighist(jctx *c, json_t *o, const char *base, kv_mighist *h)
{
	static const char *const keys[] = {
		"startTimestamp", "endTimestamp", "sourceNode", "targetNode",
		"failureReason", "mode", "migrationUid",
	};
	const char **slot[] = {
		&h->start, &h->end, &h->source, &h->target, &h->failure,
		&h->mode, &h->uid,
	};
	char path[96];
	int done, failed;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(path, sizeof(path), "%s.%s", base, keys[i]);
		if (jstr(c, o, path, slot[i]))
			return KV_ERR;
	}
	snprintf(path, sizeof(path), "%s.completed", base);
	if (jbool(c, o, path, &done))
		return KV_ERR;
	snprintf(path, sizeof(path), "%s.failed", base);
	if (jbool(c, o, path, &failed))
		return KV_ERR;
	h->completed = done == 1;
	h->failed = failed == 1;
	return KV_OK;
}

/* When the VMIM's target was ready: the first of TargetReady, Scheduled,
 * Running its status.phaseTransitionTimestamps records (the phases in
 * kubevirt v1.9.0 types.go:1860-1880). */
static int
phase_times(jctx *c, json_t *o, kv_mighist *h)
{
	static const char *const order[] = {
		"TargetReady", "Scheduled", "Running",
	};
	json_t *arr, *e;
	size_t i, best = sizeof(order) / sizeof(order[0]);

	if (jget(c, o, "status.phaseTransitionTimestamps", JSON_ARRAY, &arr))
		return KV_ERR;
	json_array_foreach(arr, i, e) {
		const char *phase, *at;

		jwhere(c, "status.phaseTransitionTimestamps[%zu]", i);
		if (jstr(c, e, "phase", &phase) ||
		    jstr(c, e, "phaseTransitionTimestamp", &at))
			return KV_ERR;
		for (size_t k = 0; phase != NULL && at != NULL && k < best;
		    k++)
			if (strcmp(phase, order[k]) == 0) {
				h->scheduled = at;
				best = k;
			}
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

int
load_vmim_history(jctx *c, json_t *o, kv_vmim *v)
{
	const char *uid;

	if (load_mighist(c, o, "status.migrationState", &v->hist) ||
	    phase_times(c, o, &v->hist) ||
	    jstr(c, o, "metadata.uid", &uid))
		return KV_ERR;
	v->hist.created = v->created;
	if (v->hist.uid == NULL)
		v->hist.uid = uid;
	if (v->phase != NULL && strcmp(v->phase, "Failed") == 0)
		v->hist.failed = true;
	if (v->phase != NULL && strcmp(v->phase, "Succeeded") == 0)
		v->hist.completed = true;
	return KV_OK;
}

/* A byte count or rate: a non-negative JSON number (Prometheus gives
 * floats); -1 when absent. */
static int
jbytes(jctx *c, json_t *o, const char *path, int64_t *out)
{
	json_t *v;

	*out = -1;
	if (jget(c, o, path, JSON_REAL, &v) != KV_OK)
		return KV_ERR;
	if (v == NULL)
		return KV_OK;
	if (json_number_value(v) < 0 || json_number_value(v) > 9.0e18)
		return jerr(c, path, "expected bytes (0 or more), got %g",
		    json_number_value(v));
	*out = (int64_t)(json_number_value(v) + 0.5);
	return KV_OK;
}

int
load_vmimetrics(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_vmimetrics *x = KV_PUSH(m->metrics, m->nmetrics, ls->cap_metrics);
	int rc;

	if (jmeta(c, o, &x->name, &x->ns, true))
		return KV_ERR;
	jname(c, jfullname(c, x->ns, x->name));	/* errors name it later */
	rc = kv_load_unique(ls, c, "VMIMetrics", c->name);
	if (rc || jstr(c, o, "window.start", &x->from) ||
	    jstr(c, o, "window.end", &x->to) ||
	    jbytes(c, o, "dirtyRateBytesPerSecond.avg", &x->dirty_avg) ||
	    jbytes(c, o, "dirtyRateBytesPerSecond.max", &x->dirty_max) ||
	    jbytes(c, o, "memoryResidentBytes", &x->resident) ||
	    jbytes(c, o, "memoryUsedBytes", &x->used))
		return KV_ERR;
	return KV_OK;
}
