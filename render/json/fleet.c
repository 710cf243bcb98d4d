/*
 * fleet.c - fleet.json (render/fleet.h, docs/fleet.md): every cluster's
 * newest snapshot worst first, its history, and the new / still / fixed
 * problems against the snapshot before; the unreadable inputs.
 */
#include <jansson.h>
#include <stdio.h>

#include "analyze/util/util.h"
#include "render/fleet.h"
#include "render/render.h"

static json_t *
jstr(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
jn(size_t n)
{
	return json_integer((json_int_t)n);
}

static json_t *
problems(const kv_fleet_problem *const *p, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:o, s:o, s:s, s:s}",
		    "vmi", json_string(p[i]->vmi), "uid", jstr(p[i]->uid),
		    "code", p[i]->code, "severity",
		    p[i]->severity == SEV_BLOCKER ? "blocker" : "warning"));
	return arr;
}

static json_t *
changes(const kv_fleet *f, const kv_fleet_cluster *c)
{
	const kv_fleet_snap *p;

	if (c->prev == SIZE_MAX)
		return json_null();
	p = &f->snaps[c->prev];
	return json_pack("{s:o, s:s, s:o, s:o, s:o}", "since",
	    jstr(p->taken_at), "previous", p->path,
	    "new", problems(c->newp, c->nnew),
	    "still", problems(c->stillp, c->nstill),
	    "fixed", problems(c->fixedp, c->nfixed));
}

static json_t *
history(const kv_fleet *f, const kv_fleet_cluster *c)
{
	json_t *arr = json_array();

	for (size_t k = 0; k < c->nsnaps; k++) {
		const kv_fleet_snap *s = &f->snaps[c->snaps[k]];

		json_array_append_new(arr, json_pack("{s:o, s:s, s:o, s:o, "
		    "s:o, s:o, s:o, s:o}", "takenAt", jstr(s->taken_at),
		    "path", s->path, "context", jstr(s->context),
		    "running", jn(s->running),
		    "wouldNotMigrate", jn(s->not_migrate),
		    "new", s->has_prev ? jn(s->nnew) : json_null(),
		    "still", s->has_prev ? jn(s->nstill) : json_null(),
		    "fixed", s->has_prev ? jn(s->nfixed) : json_null()));
	}
	return arr;
}

static json_t *
verdicts(const kv_fleet_snap *s)
{
	json_t *o = json_object();

	for (int v = 0; v < V_COUNT; v++)
		json_object_set_new(o, kv_verdict_names[v], jn(s->verdicts[v]));
	return o;
}

static json_t *
worst(const kv_fleet_snap *s)
{
	const kv_fleet_node *n;

	if (s->worst == SIZE_MAX)
		return json_null();
	n = &s->drain[s->worst];
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "node", n->name,
	    "vmis", jn(n->vmis), "migrate", jn(n->migrate),
	    "block", jn(n->block), "shutdown", jn(n->shutdown));
}

/* The drain window: migrations that will abort or are at risk, and the
 * node whose drain's migrations take longest. */
static json_t *
drain_window(const kv_fleet_snap *s)
{
	const kv_fleet_node *n;
	json_t *longest = json_null();

	if (s->longest != SIZE_MAX) {
		n = &s->drain[s->longest];
		longest = json_pack("{s:s, s:o, s:o}", "node", n->name,
		    "migrate", jn(n->migrate), "seconds",
		    kv_json_range(n->secs));
	}
	return json_pack("{s:o, s:o, s:o}", "willAbort", jn(s->will_abort),
	    "atRisk", jn(s->at_risk), "longestDrain", longest);
}

static json_t *
top(const kv_fleet_snap *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->ntop; i++)
		json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:o}",
		    "id", s->top[i].id, "code", s->top[i].code,
		    "subject", s->top[i].subject, "vmis", jn(s->top[i].vmis)));
	return arr;
}

static json_t *
cluster(const kv_fleet *f, const kv_fleet_cluster *c)
{
	const kv_fleet_snap *s = &f->snaps[c->newest];
	json_t *o = json_object(), *ctx = json_array();

	for (size_t i = 0; i < c->ncontexts; i++)
		json_array_append_new(ctx, json_string(c->contexts[i]));
	json_object_set_new(o, "cluster", json_string(s->cluster));
	json_object_set_new(o, "clusterFrom", json_string(
	    s->cluster_from == UID_NONE ? "context" :
	    kv_uid_from_names[s->cluster_from]));
	json_object_set_new(o, "contexts", ctx);
	json_object_set_new(o, "path", json_string(s->path));
	json_object_set_new(o, "report", jstr(s->report));
	json_object_set_new(o, "takenAt", jstr(s->taken_at));
	json_object_set_new(o, "flavor", json_string(s->flavor));
	json_object_set_new(o, "product", jstr(s->product));
	json_object_set_new(o, "kubevirtVersion", jstr(s->version));
	json_object_set_new(o, "rulesVersion", json_string(s->rules));
	json_object_set_new(o, "nodes", jn(s->nodes));
	json_object_set_new(o, "running", jn(s->running));
	json_object_set_new(o, "wouldNotMigrate", jn(s->not_migrate));
	json_object_set_new(o, "notJudged", jn(s->verdicts[V_NOT_JUDGED]));
	json_object_set_new(o, "drainBlockers", jn(s->drain_blockers));
	json_object_set_new(o, "verdicts", verdicts(s));
	json_object_set_new(o, "worstDrain", worst(s));
	json_object_set_new(o, "drainWindow", drain_window(s));
	json_object_set_new(o, "groups", jn(s->ngroups));
	json_object_set_new(o, "topGroups", top(s));
	json_object_set_new(o, "history", history(f, c));
	json_object_set_new(o, "changes", changes(f, c));
	return o;
}

json_t *
kv_fleet_json(const kv_fleet *f)
{
	json_t *doc = json_object(), *cl = json_array(), *un = json_array();

	for (size_t i = 0; i < f->nclusters; i++)
		json_array_append_new(cl, cluster(f, &f->clusters[i]));
	for (size_t i = 0; i < f->nsnaps; i++)
		if (f->snaps[i].unreadable != NULL)
			json_array_append_new(un, json_pack("{s:s, s:s}",
			    "path", f->snaps[i].path,
			    "reason", f->snaps[i].unreadable));
	json_object_set_new(doc, "kind", json_string("kvscope-fleet"));
	json_object_set_new(doc, "version", jn(KV_FLEET_JSON_VERSION));
	json_object_set_new(doc, "snapshots", jn(f->nsnaps));
	json_object_set_new(doc, "read", jn(f->nread));
	json_object_set_new(doc, "clusters", cl);
	json_object_set_new(doc, "unreadable", un);
	return doc;
}

int
kv_write_fleet_json(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	json_t *doc = kv_fleet_json(arg);
	int rc = kv_doc_write(doc, KV_OUT_JSON, f, err);

	(void)a;
	json_decref(doc);
	return rc;
}
