/*
 * load_podaffinity.c - the placement facts of a pod or a VMI (load.h):
 * the required pod affinity and anti-affinity terms of spec.affinity
 * and spec.topologySpreadConstraints, as the
 * scheduler's InterPodAffinity and PodTopologySpread filters read them.
 * Preferred terms only score nodes and are not kept.  Strings are
 * interned; the arrays belong to the model (kv_podplace_free).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/load.h"

#define REQUIRED "requiredDuringSchedulingIgnoredDuringExecution"

static const struct {
	const char *name;
	enum kv_selop op;
} selops[] = {
	{ "In", OP_IN }, { "NotIn", OP_NOTIN }, { "Exists", OP_EXISTS },
	{ "DoesNotExist", OP_DOESNOTEXIST },
};

static void
podsel_free(kv_podsel *s)
{
	free(s->match.v);
	for (size_t i = 0; i < s->nreqs; i++)
		free(s->reqs[i].values);
	free(s->reqs);
	free(s->keys);
}

void
kv_podplace_free(kv_podplace *p)
{
	for (size_t i = 0; i < p->nterms + p->ndropped; i++) {
		podsel_free(&p->terms[i].sel);
		podsel_free(&p->terms[i].ns_sel);
		free(p->terms[i].namespaces);
	}
	free(p->terms);
	for (size_t i = 0; i < p->nspreads; i++)
		podsel_free(&p->spreads[i].sel);
	free(p->spreads);
	memset(p, 0, sizeof(*p));
}

/* A LabelSelector at path of o (absent or null: s->set false).  where is
 * the jwhere prefix of o. */
static int
load_podsel(jctx *c, json_t *o, const char *where, const char *path,
    kv_podsel *s)
{
	json_t *sel, *exprs, *e;
	size_t i;

	memset(s, 0, sizeof(*s));
	jwhere(c, "%s", where);
	if (jget(c, o, path, JSON_OBJECT, &sel) != KV_OK)
		return KV_ERR;
	if (sel == NULL)
		return KV_OK;
	s->set = true;
	jwhere(c, "%s%s.", where, path);
	if (jlabels(c, sel, "matchLabels", &s->match) ||
	    jget(c, sel, "matchExpressions", JSON_ARRAY, &exprs))
		return KV_ERR;
	if (exprs == NULL)
		return KV_OK;
	s->reqs = xcalloc(json_array_size(exprs) + 1, sizeof(kv_nsreq));
	json_array_foreach(exprs, i, e) {
		kv_nsreq *q = &s->reqs[s->nreqs++];
		const char *op;
		size_t k;

		jwhere(c, "%s%s.matchExpressions[%zu].", where, path, i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "key", &q->key) || jstr(c, e, "operator", &op) ||
		    jstrarray(c, e, "values", &q->values, &q->nvalues))
			return KV_ERR;
		if (q->key == NULL || op == NULL)
			return jerr(c, "", "key and operator required");
		for (k = 0; k < sizeof(selops) / sizeof(selops[0]); k++)
			if (strcmp(op, selops[k].name) == 0)
				break;
		if (k == sizeof(selops) / sizeof(selops[0]))
			return jerr(c, "operator", "unknown operator \"%s\"",
			    op);
		q->op = selops[k].op;
	}
	return KV_OK;
}

/* matchLabelKeys and mismatchLabelKeys of o into s->keys. */
static int
load_label_keys(jctx *c, json_t *o, kv_podsel *s)
{
	const char **match, **mismatch;
	size_t nm, nmm;

	if (jstrarray(c, o, "matchLabelKeys", &match, &nm))
		return KV_ERR;
	if (jstrarray(c, o, "mismatchLabelKeys", &mismatch, &nmm)) {
		free(match);
		return KV_ERR;
	}
	s->keys = xcalloc(nm + nmm + 1, sizeof(char *));
	for (size_t i = 0; i < nm; i++)
		s->keys[s->nkeys++] = match[i];
	for (size_t i = 0; i < nmm; i++)
		s->keys[s->nkeys++] = mismatch[i];
	s->nmatch_keys = nm;
	free(match);
	free(mismatch);
	return KV_OK;
}

static int
load_terms(jctx *c, json_t *o, bool anti, kv_podplace *p)
{
	const char *path = anti ? "spec.affinity.podAntiAffinity." REQUIRED :
	    "spec.affinity.podAffinity." REQUIRED;
	json_t *arr, *e;
	size_t i;
	char where[128];

	jwhere(c, "%s", "");
	if (jget(c, o, path, JSON_ARRAY, &arr) != KV_OK)
		return KV_ERR;
	if (arr == NULL || json_array_size(arr) == 0)
		return KV_OK;
	p->terms = xreallocarray(p->terms, p->nterms + json_array_size(arr) +
	    1, sizeof(kv_podterm));
	json_array_foreach(arr, i, e) {
		kv_podterm *t = &p->terms[p->nterms++];

		memset(t, 0, sizeof(*t));
		t->anti = anti;
		snprintf(where, sizeof(where), "%s[%zu].", path, i);
		jwhere(c, "%s", where);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jstr(c, e, "topologyKey", &t->topology_key) ||
		    jstrarray(c, e, "namespaces", &t->namespaces,
		    &t->nnamespaces) ||
		    load_podsel(c, e, where, "labelSelector", &t->sel) ||
		    load_podsel(c, e, where, "namespaceSelector", &t->ns_sel))
			return KV_ERR;
		jwhere(c, "%s", where);
		if (load_label_keys(c, e, &t->sel))
			return KV_ERR;
		if (t->topology_key == NULL || *t->topology_key == '\0')
			return jerr(c, "topologyKey", "missing");
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* One topologySpreadConstraint's policies and whenUnsatisfiable. */
static int
spread_policies(jctx *c, json_t *e, kv_spread *s)
{
	const char *when, *aff, *taints;

	if (jstr(c, e, "whenUnsatisfiable", &when) ||
	    jstr(c, e, "nodeAffinityPolicy", &aff) ||
	    jstr(c, e, "nodeTaintsPolicy", &taints))
		return KV_ERR;
	if (when == NULL || (strcmp(when, "DoNotSchedule") != 0 &&
	    strcmp(when, "ScheduleAnyway") != 0))
		return jerr(c, "whenUnsatisfiable", "expected DoNotSchedule "
		    "or ScheduleAnyway");
	s->do_not_schedule = strcmp(when, "DoNotSchedule") == 0;
	s->affinity_ignore = aff != NULL && strcmp(aff, "Ignore") == 0;
	s->taints_honor = taints != NULL && strcmp(taints, "Honor") == 0;
	return KV_OK;
}

static int
load_spreads(jctx *c, json_t *o, kv_podplace *p)
{
	const char *path = "spec.topologySpreadConstraints";
	json_t *arr, *e;
	size_t i;
	char where[128];

	jwhere(c, "%s", "");
	if (jget(c, o, path, JSON_ARRAY, &arr) != KV_OK)
		return KV_ERR;
	if (arr == NULL || json_array_size(arr) == 0)
		return KV_OK;
	p->spreads = xcalloc(json_array_size(arr) + 1, sizeof(kv_spread));
	json_array_foreach(arr, i, e) {
		kv_spread *s = &p->spreads[p->nspreads++];

		snprintf(where, sizeof(where), "%s[%zu].", path, i);
		jwhere(c, "%s", where);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		if (jint(c, e, "maxSkew", &s->max_skew) ||
		    jint(c, e, "minDomains", &s->min_domains) ||
		    jstr(c, e, "topologyKey", &s->topology_key) ||
		    spread_policies(c, e, s) ||
		    load_podsel(c, e, where, "labelSelector", &s->sel))
			return KV_ERR;
		jwhere(c, "%s", where);
		if (load_label_keys(c, e, &s->sel))
			return KV_ERR;
		if (s->max_skew < 1)
			return jerr(c, "maxSkew", "expected a whole number "
			    "of at least 1");
		if (s->topology_key == NULL || *s->topology_key == '\0')
			return jerr(c, "topologyKey", "missing");
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

int
load_pod_place(jctx *c, json_t *o, kv_podplace *p)
{
	if (load_terms(c, o, false, p) || load_terms(c, o, true, p) ||
	    load_spreads(c, o, p))
		return KV_ERR;
	jwhere(c, "%s", "");
	return KV_OK;
}
