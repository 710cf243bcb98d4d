/*
 * findings_window.c - the migration estimate in findings.json and the
 * -o json|yaml documents (docs/findings.md "migration", "window"): a
 * range as [low, high] whole numbers (low rounded down, high up), a
 * VMI's "migration" object, the top-level "window" and a drain's.  The
 * caller owns every json_t returned.
 */
#include <jansson.h>
#include <math.h>

#include "analyze/decide/drain.h"
#include "analyze/estimate/estimate.h"
#include "render/render.h"

static json_int_t
down(double v)
{
	return isinf(v) || v > 9e15 ? -1 : (json_int_t)floor(v);
}

static json_int_t
up(double v)
{
	return isinf(v) || v > 9e15 ? -1 : (json_int_t)ceil(v);
}

/* [low, high]; a high end that never comes is null */
json_t *
kv_json_range(const double r[2])
{
	json_int_t hi = up(r[1]);

	return json_pack("[I, o]", down(r[0]), hi < 0 ? json_null() :
	    json_integer(hi));
}

json_t *
kv_json_migration(const kv_analysis *a, size_t i)
{
	const kv_migest *e = a->est != NULL ? &a->est[i] : NULL;
	json_t *o, *as = json_array();

	if (e == NULL || !e->present) {
		json_decref(as);
		return json_null();
	}
	for (int k = 0; k < AS_COUNT; k++)
		if (e->assume & (1u << k))
			json_array_append_new(as,
			    json_string(kv_assumption_names[k]));
	o = json_object();
	json_object_set_new(o, "seconds", kv_json_range(e->seconds));
	json_object_set_new(o, "copySeconds", kv_json_range(e->copy));
	json_object_set_new(o, "setupSeconds", kv_json_range(e->setup));
	json_object_set_new(o, "deadlineSeconds", e->no_memory ?
	    json_null() : json_integer((json_int_t)e->deadline));
	json_object_set_new(o, "deadlineBytes", e->no_memory ?
	    json_null() : json_integer((json_int_t)e->bytes));
	json_object_set_new(o, "outcome",
	    json_string(kv_mig_outcome_names[e->outcome]));
	json_object_set_new(o, "ends", json_string(kv_mig_end_names[e->end]));
	json_object_set_new(o, "pauseMs", e->outcome == MIG_WILL_ABORT ?
	    json_null() : kv_json_range(e->pause_ms));
	json_object_set_new(o, "basis",
	    json_string(kv_mig_basis_names[e->basis]));
	json_object_set_new(o, "assumptions", as);
	json_object_set_new(o, "bytesPerSecond", kv_json_range(e->rate));
	json_object_set_new(o, "dirtyBytesPerSecond", e->dirty[1] >= 0 ?
	    kv_json_range(e->dirty) : json_null());
	json_object_set_new(o, "maxDirtyBytesPerSecond", e->max_dirty >= 0 ?
	    json_integer(down(e->max_dirty)) : json_null());
	json_object_set_new(o, "migrationPolicy", e->settings != NULL ?
	    json_string(e->settings) : json_null());
	json_object_set_new(o, "connectionsDrop",
	    json_boolean(e->connections_drop));
	return o;
}

json_t *
kv_json_window(const kv_analysis *a)
{
	const kv_window *w = a->window;

	if (w == NULL)
		return json_null();
	return json_pack("{s:o, s:I, s:o, s:I, s:{s:I, s:I, s:I, s:I}}",
	    "linkBytesPerSecond", w->observed > 0 ?
	    kv_json_range(w->link_bps) : json_null(),
	    "observedMigrations", (json_int_t)w->observed,
	    "setupSeconds", kv_json_range(w->setup),
	    "busyDirtyBytesPerSecond", (json_int_t)w->busy_bps,
	    "outcomes", "converges", (json_int_t)w->converges,
	    "atRisk", (json_int_t)w->at_risk,
	    "willAbort", (json_int_t)w->will_abort,
	    "unknown", (json_int_t)w->unknown);
}

/* A drain's (or a drain of several nodes') time against --window. */
json_t *
kv_json_window_drain(const kv_analysis *a, const kv_drain *d, size_t n,
    const double secs[2], double window)
{
	size_t risk = 0, abort = 0, unknown = 0;

	(void)a;
	for (size_t i = 0; i < n; i++) {
		risk += d[i].at_risk;
		abort += d[i].will_abort;
		unknown += d[i].unknown;
	}
	return json_pack("{s:o, s:o, s:I, s:I, s:I, s:o}",
	    "seconds", kv_json_range(secs),
	    "windowSeconds", window > 0 ? json_integer(up(window)) :
	    json_null(),
	    "atRisk", (json_int_t)risk, "willAbort", (json_int_t)abort,
	    "unknown", (json_int_t)unknown,
	    "fits", window > 0 ? json_boolean(!kv_window_fails(d, n, secs,
	    window)) : json_null());
}
