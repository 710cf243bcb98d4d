/*
 * summary.c - kv_fleet_summarize (fleet.h): the little the fleet index
 * keeps of one analysed snapshot, copied out so the analysis and the
 * model can be freed before the next snapshot is read.
 */
#include "analyze/fleet/fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "analyze/estimate/estimate.h"
#include "analyze/read/mgtime.h"
#include "analyze/util/util.h"

void
kv_fleet_init(kv_fleet *f)
{
	memset(f, 0, sizeof(*f));
}

kv_fleet_snap *
kv_fleet_add(kv_fleet *f, const char *path)
{
	kv_fleet_snap *s;

	f->snaps = kv_grow(f->snaps, &f->cap, f->nsnaps + 1,
	    sizeof(*f->snaps));
	s = &f->snaps[f->nsnaps++];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->taken = -1;
	s->worst = SIZE_MAX;
	s->longest = SIZE_MAX;
	return s;
}

void
kv_fleet_unreadable(kv_fleet_snap *s, const char *reason)
{
	free(s->unreadable);
	s->unreadable = xstrdup(reason);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL && *s ? xstrdup(s) : NULL;
}

static int
problem_cmp(const void *x, const void *y)
{
	const kv_fleet_problem *a = x, *b = y;
	int c = strcmp(a->vmi, b->vmi);

	return c != 0 ? c : strcmp(a->code, b->code);
}

static int
code_cmp(const void *x, const void *y)
{
	const kv_fleet_code *a = x, *b = y;

	return strcmp(a->code, b->code);
}

/* Whether VMI i is running and has a problem. */
static bool
has_problems(const kv_vmires *r)
{
	return r->verdict != V_NOT_RUNNING &&
	    r->nblockers + r->nwarnings > 0;
}

/* The uids and names of the VMIs with problems, in one allocation
 * (s->strings): a few bytes per VMI, not per problem. */
static char *
strings(const kv_analysis *a, kv_fleet_snap *s)
{
	size_t size = 1;
	char *p;

	for (size_t i = 0; i < a->nvmis; i++)
		if (has_problems(&a->vmis[i]))
			size += strlen(a->vmis[i].vmi->ns) +
			    strlen(a->vmis[i].vmi->name) + 2 +
			    (a->vmis[i].vmi->uid ?
			    strlen(a->vmis[i].vmi->uid) + 1 : 0);
	s->strings = p = xmalloc(size);
	return p;
}

/* Each blocker and warning code of every running VMI, once per VMI. */
static void
problems(const kv_analysis *a, kv_fleet_snap *s)
{
	char *p = strings(a, s);
	size_t n = 0, w = 0;

	for (size_t i = 0; i < a->nvmis; i++)
		if (has_problems(&a->vmis[i]))
			n += a->vmis[i].nblockers + a->vmis[i].nwarnings;
	s->problems = xcalloc(n + 1, sizeof(*s->problems));
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];
		const char *uid = NULL, *vmi = p;

		if (!has_problems(r))
			continue;
		p += sprintf(p, "%s/%s", r->vmi->ns, r->vmi->name) + 1;
		if (r->vmi->uid != NULL && *r->vmi->uid) {
			uid = p;
			p += sprintf(p, "%s", r->vmi->uid) + 1;
		}
		for (size_t k = 0; k < r->nblockers + r->nwarnings; k++) {
			const kv_issue *is = k < r->nblockers ?
			    &r->blockers[k] : &r->warnings[k - r->nblockers];

			s->problems[s->nproblems++] = (kv_fleet_problem){
			    uid, vmi, is->rule->code, is->rule->severity };
		}
	}
	kv_qsort(s->problems, s->nproblems, sizeof(*s->problems),
	    problem_cmp);
	/* a code twice on one VMI counts once */
	for (size_t i = 0; i < s->nproblems; i++)
		if (w == 0 || problem_cmp(&s->problems[i],
		    &s->problems[w - 1]) != 0)
			s->problems[w++] = s->problems[i];
	s->nproblems = w;
}

/* VMIs per code, from the problems. */
static void
codes(kv_fleet_snap *s)
{
	size_t cap = 0;

	for (size_t i = 0; i < s->nproblems; i++) {
		const kv_fleet_problem *p = &s->problems[i];
		size_t k;

		for (k = 0; k < s->ncodes; k++)
			if (strcmp(s->codes[k].code, p->code) == 0)
				break;
		if (k == s->ncodes) {
			s->codes = kv_grow(s->codes, &cap, s->ncodes + 1,
			    sizeof(*s->codes));
			s->codes[s->ncodes++] = (kv_fleet_code){ p->code,
			    p->severity, 0 };
		}
		s->codes[k].vmis++;
	}
	kv_qsort(s->codes, s->ncodes, sizeof(*s->codes), code_cmp);
}

/* Whether a drain of n is worse than one of w: more VMIs blocked, then
 * stopped, then more VMIs, then the name first. */
static bool
worse_node(const kv_fleet_node *n, const kv_fleet_node *w)
{
	if (n->block != w->block)
		return n->block > w->block;
	if (n->shutdown != w->shutdown)
		return n->shutdown > w->shutdown;
	if (n->vmis != w->vmis)
		return n->vmis > w->vmis;
	return strcmp(n->name, w->name) < 0;
}

/* Whether the drain i of s takes longer than s->longest's (drains are
 * by name: the first keeps a tie). */
static bool
longer(const kv_fleet_snap *s, size_t i)
{
	const kv_fleet_node *n = &s->drain[i], *l;

	if (s->longest == SIZE_MAX)
		return true;
	l = &s->drain[s->longest];
	return n->secs[1] > l->secs[1] || (n->secs[1] == l->secs[1] &&
	    n->secs[0] > l->secs[0]);
}

/* The drain of each node with running VMIs; the worst: most blocked,
 * then most stopped, then most VMIs, then by name. */
static void
drains(const kv_analysis *a, kv_fleet_snap *s)
{
	s->drain = xcalloc(a->ndrain + 1, sizeof(*s->drain));
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *d = &a->drain[i];
		kv_fleet_node *n = &s->drain[s->ndrain++];

		n->name = xstrdup(a->m->nodes[d->node].name);
		n->vmis = d->vmis;
		n->migrate = d->migrate;
		n->block = d->block;
		n->shutdown = d->shutdown;
		n->secs[0] = d->secs[0];
		n->secs[1] = d->secs[1];
		s->drain_blockers += d->block;
	}
	for (size_t i = 0; i < s->ndrain; i++)
		if (s->drain[i].migrate > 0 && longer(s, i))
			s->longest = i;
	for (size_t i = 0; i < s->ndrain; i++)
		if (s->drain[i].block + s->drain[i].shutdown > 0 &&
		    (s->worst == SIZE_MAX ||
		    worse_node(&s->drain[i], &s->drain[s->worst])))
			s->worst = i;
}

static void
top_one(const kv_group *g, kv_fleet_group *o)
{
	memcpy(o->id, g->id, sizeof(o->id));
	o->code = g->code;
	o->subject = g->name != NULL && *g->name ?
	    xasprintf("%s %s", kv_subject_names[g->kind], g->name) :
	    xstrdup(kv_subject_names[g->kind]);
	o->vmis = g->nvmis;
}

/* The KV_FLEET_TOP groups with most VMIs (earlier id on a tie). */
static void
top_groups(const kv_analysis *a, kv_fleet_snap *s)
{
	size_t pick[KV_FLEET_TOP];

	s->ngroups = a->ngroups;
	for (size_t t = 0; t < KV_FLEET_TOP && t < a->ngroups; t++) {
		size_t best = SIZE_MAX;

		for (size_t g = 0; g < a->ngroups; g++) {
			bool used = false;

			for (size_t u = 0; u < t; u++)
				used = used || pick[u] == g;
			if (!used && (best == SIZE_MAX ||
			    a->groups[g].nvmis > a->groups[best].nvmis))
				best = g;
		}
		pick[t] = best;
		top_one(&a->groups[best], &s->top[s->ntop++]);
	}
}

/* The cluster key: the uid diff compares, else the context. */
static void
cluster_of(const kv_analysis *a, kv_fleet_snap *s)
{
	const char *uid = kv_cluster_uid(a->m, &s->cluster_from);

	if (uid != NULL) {
		s->cluster = xstrdup(uid);
		return;
	}
	s->cluster_from = UID_NONE;
	s->cluster = xstrdup(s->context != NULL ? s->context : "");
}

void
kv_fleet_summarize(const kv_analysis *a, kv_fleet_snap *s)
{
	const snap_manifest *mf = &a->m->manifest;
	char buf[256];
	int64_t us;

	s->context = dup_or_null(mf->context);
	cluster_of(a, s);
	s->flavor = xstrdup(a->m->flavor->name);
	s->product = dup_or_null(a->cfg.rules.product);
	s->version = dup_or_null(mf->kubevirt_version ? mf->kubevirt_version :
	    a->m->cluster.version);
	kv_ver_format(a->cfg.rules.v, buf, sizeof(buf));
	s->rules = xstrdup(buf);
	s->taken_at = dup_or_null(mf->created_at);
	if (s->taken_at != NULL && kv_rfc3339_us(s->taken_at, &us))
		s->taken = us / 1000000;
	s->nodes = a->summary.nodes;
	s->running = a->summary.running;
	memcpy(s->verdicts, a->summary.verdicts, sizeof(s->verdicts));
	for (int v = 0; v < V_COUNT; v++)
		if (kv_verdict_fails((enum kv_verdict)v))
			s->not_migrate += s->verdicts[v];
	problems(a, s);
	codes(s);
	drains(a, s);
	if (a->window != NULL) {
		s->will_abort = a->window->will_abort;
		s->at_risk = a->window->at_risk;
	}
	top_groups(a, s);
}
