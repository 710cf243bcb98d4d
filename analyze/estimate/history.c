/*
 * history.c - the migrations the snapshot shows as done (estimate.h,
 * estimate_int.h): each completed VMIM with start and end times, and
 * each VMI's status.migrationState not covered by one, timed as
 * KubeVirt's monitor times it (migrationState.startTimestamp to
 * endTimestamp: kubevirt v1.9.0 pkg/virt-handler/migration-source.go
 * sets them when the source starts and ends the copy), and the target
 * pod's start (VMIM creation to its TargetReady phase).  Times are RFC
 * 3339 with whole seconds, so every duration is +-1 s.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate_int.h"
#include "analyze/read/mgtime.h"

/* b - a in seconds; -1 when either is missing or b is before a. */
double
kv_hist_seconds(const char *a, const char *b)
{
	int64_t x, y;

	if (a == NULL || b == NULL || !kv_rfc3339_us(a, &x) ||
	    !kv_rfc3339_us(b, &y) || y < x)
		return -1;
	return (double)(y - x) / 1e6;
}

static int
obs_cmp(const void *x, const void *y)
{
	const kv_obs *p = x, *q = y;
	int c = strcmp(p->ns, q->ns);

	if (c == 0)
		c = strcmp(p->vmi, q->vmi);
	if (c == 0)
		c = strcmp(p->h->end ? p->h->end : "",
		    q->h->end ? q->h->end : "");
	return c;
}

/* Whether a VMIM of VMI ns/name (hs sorted, n of them) has uid. */
static bool
seen_uid(const kv_history *hs, size_t n, const kv_vmi *v, const char *uid)
{
	kv_history part = { n, n, hs->obs };
	const kv_obs *o = kv_history_of(&part, v->ns, v->name);

	for (; uid != NULL && o != NULL && o >= hs->obs &&
	    strcmp(o->ns, v->ns) == 0 && strcmp(o->vmi, v->name) == 0; o--)
		if (o->h->uid != NULL && strcmp(o->h->uid, uid) == 0)
			return true;
	return false;
}

static void
add(kv_history *hs, const char *ns, const char *vmi, const kv_mighist *h)
{
	kv_obs *o;

	if (!h->completed && !h->failed)
		return;
	if (h->start == NULL)
		return;
	o = KV_PUSH(hs->obs, hs->n, hs->cap);
	o->ns = ns;
	o->vmi = vmi;
	o->h = h;
	o->copy = kv_hist_seconds(h->start, h->end);
	o->setup = kv_hist_seconds(h->created, h->scheduled);
}

void
kv_history_build(const kv_model *m, kv_history *hs)
{
	size_t nvmims;

	memset(hs, 0, sizeof(*hs));
	for (size_t i = 0; i < m->nvmims; i++)
		if (m->vmims[i].vmi != NULL)
			add(hs, m->vmims[i].ns, m->vmims[i].vmi,
			    &m->vmims[i].hist);
	nvmims = hs->n;
	if (nvmims > 0)
		qsort(hs->obs, nvmims, sizeof(kv_obs), obs_cmp);
	for (size_t i = 0; i < m->nvmis; i++) {
		const kv_vmi *v = &m->vmis[i];

		if (!seen_uid(hs, nvmims, v, v->last_migration.uid))
			add(hs, v->ns, v->name, &v->last_migration);
	}
	if (hs->n > nvmims)
		qsort(hs->obs, hs->n, sizeof(kv_obs), obs_cmp);
}

/* The newest migration of VMI ns/name, or NULL. */
const kv_obs *
kv_history_of(const kv_history *hs, const char *ns, const char *name)
{
	const kv_obs *best = NULL;
	size_t lo = 0, hi = hs->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(hs->obs[mid].ns, ns);

		if (c == 0)
			c = strcmp(hs->obs[mid].vmi, name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < hs->n && strcmp(hs->obs[lo].ns, ns) == 0 &&
	    strcmp(hs->obs[lo].vmi, name) == 0; lo++)
		best = &hs->obs[lo];
	return best;
}

void
kv_history_free(kv_history *hs)
{
	free(hs->obs);
	memset(hs, 0, sizeof(*hs));
}
