/*
 * findings_drain.c - the "drain" entries of findings.json and the drain
 * counts of its summary (docs/findings.md "drain"), also the
 * objects `check --drain` and `plan` write with -o json|yaml.  The caller
 * owns every json_t returned.
 */
#include <jansson.h>
#include <stdint.h>

#include "render/render.h"

static json_t *
row_json(const kv_analysis *a, const kv_drain_row *row)
{
	json_t *o = json_object();

	json_object_set_new(o, "vmi",
	    json_string(a->vmis[row->vmi].vmi->fullname));
	json_object_set_new(o, "action",
	    json_string(kv_on_drain_names[row->action]));
	json_object_set_new(o, "target", row->target != SIZE_MAX ?
	    json_string(a->m->nodes[row->target].name) : json_null());
	json_object_set_new(o, "reason", row->reason != NULL ?
	    json_string(row->reason) : json_null());
	/* a shutdown whose VirtualMachine starts it again: where */
	json_object_set_new(o, "restartOn", row->restart ?
	    json_string(a->m->nodes[row->restart_node].name) : json_null());
	return o;
}

static json_t *
count(size_t n)
{
	return json_integer((json_int_t)n);
}

json_t *
kv_json_drain(const kv_analysis *a, const kv_drain *d)
{
	json_t *o = json_object(), *bl = json_array(), *plan = json_array();

	json_object_set_new(o, "node", json_string(a->m->nodes[d->node].name));
	json_object_set_new(o, "vmis", count(d->vmis));
	json_object_set_new(o, "migrate", count(d->migrate));
	json_object_set_new(o, "block", count(d->block));
	json_object_set_new(o, "shutdown", count(d->shutdown));
	json_object_set_new(o, "restart", count(d->restart));
	json_object_set_new(o, "restartUnknown", count(d->restart_unknown));
	json_object_set_new(o, "external", count(d->external));
	for (size_t i = 0; i < d->nblocking; i++)
		json_array_append_new(bl, json_string(d->blocking[i]));
	json_object_set_new(o, "blocking", bl);
	json_object_set_new(o, "memoryBytesToMove",
	    json_integer((json_int_t)d->memory));
	json_object_set_new(o, "estimatedSeconds",
	    json_integer((json_int_t)d->seconds));
	json_object_set_new(o, "seconds", kv_json_range(d->secs));
	json_object_set_new(o, "atRisk", count(d->at_risk));
	json_object_set_new(o, "willAbort", count(d->will_abort));
	json_object_set_new(o, "outcomeUnknown", count(d->unknown));
	json_object_set_new(o, "capacity",
	    json_string(a->capacity_known ? "known" : "unknown"));
	json_object_set_new(o, "noCapacity", count(d->no_capacity));
	for (size_t i = 0; i < d->nplan; i++)
		json_array_append_new(plan, row_json(a, &d->plan[i]));
	json_object_set_new(o, "plan", plan);
	return o;
}

json_t *
kv_json_drain_at(const kv_analysis *a, size_t i)
{
	return kv_json_drain(a, &a->drain[i]);
}

void
kv_json_drain_summary(const kv_analysis *a, json_t *summary)
{
	size_t shut = 0, block = 0, restart = 0, unknown = 0;

	for (size_t i = 0; i < a->ndrain; i++) {
		shut += a->drain[i].shutdown;
		block += a->drain[i].block;
		restart += a->drain[i].restart;
		unknown += a->drain[i].restart_unknown;
	}
	json_object_set_new(summary, "drainShutdown", count(shut));
	json_object_set_new(summary, "drainBlock", count(block));
	json_object_set_new(summary, "drainRestart", count(restart));
	json_object_set_new(summary, "drainRestartUnknown", count(unknown));
}
