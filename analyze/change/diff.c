/*
 * diff.c - compare two analyses (diff.h).  Both sides' lists are sorted
 * the same way (nodes by name, VMIs by namespace and name, drains by
 * node), so each section is one merge walk.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/change/diff.h"
#include "analyze/decide/groups.h"
#include "analyze/estimate/estimate.h"

static void
strs_push(kv_strs *s, const char *v)
{
	s->v = xreallocarray(s->v, s->n + 1, sizeof(char *));
	s->v[s->n++] = v;
}

static int
str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* x - y and y - x of two sorted lists. */
static void
strs_delta(const kv_strs *x, const kv_strs *y, kv_strs *lost, kv_strs *gained)
{
	size_t i = 0, j = 0;

	while (i < x->n || j < y->n) {
		int c = i == x->n ? 1 : j == y->n ? -1 :
		    strcmp(x->v[i], y->v[j]);

		if (c < 0)
			strs_push(lost, x->v[i++]);
		else if (c > 0)
			strs_push(gained, y->v[j++]);
		else
			i++, j++;
	}
}

static bool
str_eq(const char *x, const char *y)
{
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

/* Whether label key k is one of kind ("cpu-model") in domain d:
 * "cpu-model.<d>/...". */
static bool
label_of(const char *k, const char *kind, const char *d)
{
	size_t kl = strlen(kind);

	return strncmp(k, kind, kl) == 0 && k[kl] == '.' &&
	    strncmp(k + kl + 1, d, strlen(d)) == 0 &&
	    k[kl + 1 + strlen(d)] == '/';
}

/* The node's CPU labels: feature names, and the other CPU label keys
 * (host-model-cpu aside: kv_nodeinfo.host_model says it); every label
 * that is neither into rest, "key=value" (owned). */
static void
cpu_labels(const kv_analysis *a, const kv_node *n, kv_strs *feat,
    kv_strs *other, kv_strs *rest)
{
	static const char *const kinds[] = { "cpu-model-migration",
	    "cpu-model", "host-model-required-features", "cpu-vendor" };
	char fp[256];
	const char *d = a->cfg.domain;

	kv_cpu_key_text(a, "cpu-feature", "", fp, sizeof(fp));
	for (size_t i = 0; i < n->labels.n; i++) {
		const char *k = n->labels.v[i].key;
		size_t t = 0;

		if (kv_startswith(k, fp)) {
			strs_push(feat, k + strlen(fp));
			continue;
		}
		for (; t < sizeof(kinds) / sizeof(kinds[0]); t++)
			if (label_of(k, kinds[t], d)) {
				strs_push(other, k);
				break;
			}
		if (t == sizeof(kinds) / sizeof(kinds[0]) &&
		    !label_of(k, "host-model-cpu", d))
			strs_push(rest, xasprintf("%s=%s", k,
			    n->labels.v[i].value ? n->labels.v[i].value : ""));
	}
}

static void
strs_free_all(kv_strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free((char *)s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* The node's taints, "key=value:effect", sorted (owned). */
static void
taint_strs(const kv_node *n, kv_strs *s)
{
	for (size_t i = 0; i < n->ntaints; i++) {
		const kv_taint *t = &n->taints[i];

		strs_push(s, xasprintf("%s%s%s:%s", t->key, t->value &&
		    *t->value ? "=" : "", t->value ? t->value : "",
		    t->effect ? t->effect : ""));
	}
	if (s->n > 1)
		kv_qsort(s->v, s->n, sizeof(char *), str_cmp);
}

/* x - y and y - x of two sorted lists of owned strings: the moved
 * strings change hands, the rest are freed with the lists. */
static void
owned_delta(kv_strs *x, kv_strs *y, kv_strs *lost, kv_strs *gained)
{
	strs_delta(x, y, lost, gained);
	for (size_t i = 0; i < lost->n; i++)
		lost->v[i] = xstrdup(lost->v[i]);
	for (size_t i = 0; i < gained->n; i++)
		gained->v[i] = xstrdup(gained->v[i]);
	strs_free_all(x);
	strs_free_all(y);
}

static char *
qty_str(int64_t v, bool bytes, bool millis)
{
	if (v < 0)
		return xstrdup("unknown");
	if (bytes)
		return kv_fmt_bytes(v);
	if (millis && v % 1000 != 0)
		return xasprintf("%lldm", (long long)v);
	return xasprintf("%lld", (long long)(millis ? v / 1000 : v));
}

static void
alloc_one(kv_strs *s, const char *name, int64_t x, int64_t y, bool bytes,
    bool millis)
{
	char *a, *b;

	if (x == y)
		return;
	a = qty_str(x, bytes, millis);
	b = qty_str(y, bytes, millis);
	strs_push(s, xasprintf("%s %s -> %s", name, a, b));
	free(a);
	free(b);
}

/* The value of extended resource name on n, or -1. */
static int64_t
ext_of(const kv_node *n, const char *name)
{
	for (size_t i = 0; i < n->nalloc_ext; i++)
		if (strcmp(n->alloc_ext[i].name, name) == 0)
			return n->alloc_ext[i].value;
	return -1;
}

/* What changed of status.allocatable, "cpu 126 -> 120" (owned). */
static void
alloc_delta(const kv_node *x, const kv_node *y, kv_strs *s)
{
	alloc_one(s, "cpu", x->alloc_cpu, y->alloc_cpu, false, true);
	alloc_one(s, "memory", x->alloc_memory, y->alloc_memory, true,
	    false);
	alloc_one(s, "pods", x->alloc_pods, y->alloc_pods, false, false);
	for (size_t i = 0; i < x->nalloc_ext; i++)
		alloc_one(s, x->alloc_ext[i].name, x->alloc_ext[i].value,
		    ext_of(y, x->alloc_ext[i].name), false, false);
	for (size_t i = 0; i < y->nalloc_ext; i++)
		if (ext_of(x, y->alloc_ext[i].name) < 0)
			alloc_one(s, y->alloc_ext[i].name, -1,
			    y->alloc_ext[i].value, false, false);
}

static void
node_strs_free(kv_diff_node *n)
{
	free(n->lost.v);
	free(n->gained.v);
	free(n->labels_lost.v);
	free(n->labels_gained.v);
	strs_free_all(&n->other_lost);
	strs_free_all(&n->other_gained);
	strs_free_all(&n->taints_lost);
	strs_free_all(&n->taints_gained);
	strs_free_all(&n->alloc);
}

static void
node_pair(const kv_analysis *a, size_t i, const kv_analysis *b, size_t j,
    kv_diff *d)
{
	kv_strs f[2] = {{0}}, o[2] = {{0}}, r[2] = {{0}}, t[2] = {{0}};
	const kv_node *x = &a->m->nodes[i], *y = &b->m->nodes[j];
	kv_diff_node dn = { .name = y->name };

	cpu_labels(a, x, &f[0], &o[0], &r[0]);
	cpu_labels(b, y, &f[1], &o[1], &r[1]);
	strs_delta(&f[0], &f[1], &dn.lost, &dn.gained);
	strs_delta(&o[0], &o[1], &dn.labels_lost, &dn.labels_gained);
	owned_delta(&r[0], &r[1], &dn.other_lost, &dn.other_gained);
	taint_strs(x, &t[0]);
	taint_strs(y, &t[1]);
	owned_delta(&t[0], &t[1], &dn.taints_lost, &dn.taints_gained);
	alloc_delta(x, y, &dn.alloc);
	dn.unsched[0] = x->unschedulable;
	dn.unsched[1] = y->unschedulable;
	dn.host_model[0] = a->nodes[i].host_model;
	dn.host_model[1] = b->nodes[j].host_model;
	dn.vendor[0] = a->nodes[i].vendor;
	dn.vendor[1] = b->nodes[j].vendor;
	dn.host_model_changed = !str_eq(dn.host_model[0], dn.host_model[1]);
	dn.vendor_changed = !str_eq(dn.vendor[0], dn.vendor[1]);
	if (dn.lost.n + dn.gained.n + dn.labels_lost.n + dn.labels_gained.n +
	    dn.other_lost.n + dn.other_gained.n + dn.taints_lost.n +
	    dn.taints_gained.n + dn.alloc.n > 0 || dn.host_model_changed ||
	    dn.vendor_changed || dn.unsched[0] != dn.unsched[1]) {
		d->nodes = xreallocarray(d->nodes, d->nnodes + 1,
		    sizeof(kv_diff_node));
		d->nodes[d->nnodes++] = dn;
	} else
		node_strs_free(&dn);
	for (int k = 0; k < 2; k++) {
		free(f[k].v);
		free(o[k].v);
	}
}

/* Merge walk over both node lists; pairs[i] = b's index of a's node i,
 * or SIZE_MAX. */
static size_t *
diff_nodes(const kv_analysis *a, const kv_analysis *b, kv_diff *d)
{
	const kv_model *ma = a->m, *mb = b->m;
	size_t *pairs = xcalloc(ma->nnodes + 1, sizeof(size_t));
	size_t i = 0, j = 0;

	while (i < ma->nnodes || j < mb->nnodes) {
		int c = i == ma->nnodes ? 1 : j == mb->nnodes ? -1 :
		    strcmp(ma->nodes[i].name, mb->nodes[j].name);

		if (c < 0) {
			pairs[i] = SIZE_MAX;
			strs_push(&d->nodes_removed, ma->nodes[i++].name);
		} else if (c > 0)
			strs_push(&d->nodes_added, mb->nodes[j++].name);
		else {
			pairs[i] = j;
			node_pair(a, i++, b, j++, d);
		}
	}
	return pairs;
}

/* Classes whose common nodes went to more than one class of the other
 * side. */
static void
class_moves(const kv_analysis *x, const kv_analysis *y, const size_t *map,
    bool merged, kv_diff *d)
{
	bool *seen = xcalloc(y->nclasses + 1, sizeof(bool));

	for (size_t c = 0; c < x->nclasses; c++) {
		const kv_class *k = &x->classes[c];
		kv_diff_class dc = { .merged = merged };

		memset(seen, 0, y->nclasses + 1);
		for (size_t i = 0; i < k->nnodes; i++) {
			size_t o = map[k->nodes[i]];
			int yc = o == SIZE_MAX ? -1 : y->nodes[o].cls;

			if (yc >= 0)
				seen[yc] = true;
		}
		for (size_t t = 0; t < y->nclasses; t++)
			if (seen[t])
				strs_push(&dc.many, y->classes[t].id);
		if (dc.many.n < 2) {
			free(dc.many.v);
			continue;
		}
		dc.one = xstrdup(k->id);
		d->classes = xreallocarray(d->classes, d->nclasses + 1,
		    sizeof(kv_diff_class));
		d->classes[d->nclasses++] = dc;
	}
	free(seen);
}

/* back[j]: a's index of b's node j (pairs inverted), or SIZE_MAX. */
static size_t *
nodes_back(const kv_analysis *a, const kv_analysis *b, const size_t *pairs)
{
	size_t *back = xcalloc(b->m->nnodes + 1, sizeof(size_t));

	for (size_t j = 0; j < b->m->nnodes; j++)
		back[j] = SIZE_MAX;
	for (size_t i = 0; i < a->m->nnodes; i++)
		if (pairs[i] != SIZE_MAX)
			back[pairs[i]] = i;
	return back;
}

static void
codes_of(const kv_vmires *r, kv_strs *s)
{
	for (size_t i = 0; i < r->nblockers; i++)
		strs_push(s, r->blockers[i].rule->code);
	for (size_t i = 0; i < r->nwarnings; i++)
		strs_push(s, r->warnings[i].rule->code);
	if (s->n > 1)
		kv_qsort(s->v, s->n, sizeof(char *), str_cmp);
	/* a code given twice counts once */
	{
		size_t k = 0;

		for (size_t i = 0; i < s->n; i++)
			if (k == 0 || strcmp(s->v[i], s->v[k - 1]) != 0)
				s->v[k++] = s->v[i];
		s->n = k;
	}
}

static bool
drain_moves(enum kv_on_drain x)
{
	return x == DRAIN_MIGRATE || x == DRAIN_EXTERNAL;
}

static bool
has_code(const kv_vmires *r, const char *code)
{
	for (size_t i = 0; i < r->nblockers; i++)
		if (strcmp(r->blockers[i].rule->code, code) == 0)
			return true;
	for (size_t i = 0; i < r->nwarnings; i++)
		if (strcmp(r->warnings[i].rule->code, code) == 0)
			return true;
	return false;
}

enum kv_cmp
kv_vmi_compare(const kv_vmires *x, const kv_vmires *y)
{
	if (x->verdict == V_NOT_JUDGED || y->verdict == V_NOT_JUDGED)
		return CMP_UNTOLD;
	if (y->vmi->nostart != NULL ||
	    (x->verdict == V_OK && y->verdict != V_OK) ||
	    (drain_moves(x->on_drain) && !drain_moves(y->on_drain) &&
	    y->on_drain != DRAIN_NONE) ||
	    (has_code(y, "guest-cpu-floor") && !has_code(x, "guest-cpu-floor"))
	    || (x->verdict == V_OK && !x->will_abort && y->will_abort))
		return CMP_WORSE;
	if ((x->verdict != V_OK && y->verdict == V_OK) ||
	    (!drain_moves(x->on_drain) && drain_moves(y->on_drain)) ||
	    (x->will_abort && y->verdict == V_OK && !y->will_abort))
		return CMP_BETTER;
	return CMP_SAME;
}

/* Node maps of both sides: pair[i] is b's index of a's node i, back[j]
 * a's of b's node j, SIZE_MAX when the other side has none. */
typedef struct nodemap {
	const kv_analysis *a, *b;
	const size_t *pair, *back;
} nodemap;

/* The target nodes x (before) has and y (after) has not, and those y
 * has and x has not, by name. */
static void
target_delta(const nodemap *nm, const kv_vmires *x, const kv_vmires *y,
    kv_diff_vmi *dv)
{
	KV_NODESET_FOREACH(&x->targets, i) {
		size_t j = nm->pair[i];

		if (j == SIZE_MAX || !kv_nodeset_has(&y->targets, j))
			strs_push(&dv->tlost, nm->a->m->nodes[i].name);
	}
	KV_NODESET_FOREACH(&y->targets, j) {
		size_t i = nm->back[j];

		if (i == SIZE_MAX || !kv_nodeset_has(&x->targets, i))
			strs_push(&dv->tgained, nm->b->m->nodes[j].name);
	}
}

/* The outcome of r's migration estimate (r of a), or NULL. */
static const char *
outcome_name(const kv_analysis *a, const kv_vmires *r)
{
	const kv_migest *e = a->est != NULL ? &a->est[r - a->vmis] : NULL;

	return e != NULL && e->present ? kv_mig_outcome_names[e->outcome] :
	    NULL;
}

static void
vmi_pair(const nodemap *nm, const kv_vmires *x, const kv_vmires *y,
    kv_diff *d)
{
	kv_diff_vmi dv = { .name = y->vmi->fullname };
	kv_strs cx = {0}, cy = {0};
	enum kv_cmp c = kv_vmi_compare(x, y);

	dv.verdict[0] = x->verdict;
	dv.verdict[1] = y->verdict;
	dv.migration[0] = outcome_name(nm->a, x);
	dv.migration[1] = outcome_name(nm->b, y);
	dv.targets[0] = x->ntargets;
	dv.targets[1] = y->ntargets;
	dv.drain[0] = x->on_drain;
	dv.drain[1] = y->on_drain;
	codes_of(x, &cx);
	codes_of(y, &cy);
	strs_delta(&cx, &cy, &dv.removed, &dv.added);
	free(cx.v);
	free(cy.v);
	dv.untold = c == CMP_UNTOLD;
	dv.worse = c == CMP_WORSE;
	dv.better = c == CMP_BETTER;
	dv.nostart = y->vmi->nostart;
	if (dv.verdict[0] == dv.verdict[1] && dv.targets[0] == dv.targets[1]
	    && dv.drain[0] == dv.drain[1] && dv.added.n + dv.removed.n == 0 &&
	    dv.nostart == NULL) {
		free(dv.added.v);
		free(dv.removed.v);
		return;
	}
	if (dv.targets[0] != dv.targets[1])
		target_delta(nm, x, y, &dv);
	dv.folded = c == CMP_SAME && dv.verdict[0] == dv.verdict[1] &&
	    dv.drain[0] == dv.drain[1] && dv.added.n + dv.removed.n == 0 &&
	    dv.nostart == NULL;
	d->nuntold += dv.untold;
	d->nworse += dv.worse;
	d->nbetter += dv.better;
	d->vmis = xreallocarray(d->vmis, d->nvmis + 1, sizeof(kv_diff_vmi));
	d->vmis[d->nvmis++] = dv;
}

static int
strs_cmp(const kv_strs *x, const kv_strs *y)
{
	for (size_t i = 0; i < x->n && i < y->n; i++) {
		int c = strcmp(x->v[i], y->v[i]);

		if (c != 0)
			return c;
	}
	return x->n < y->n ? -1 : x->n > y->n;
}

static int
fold_vmi_cmp(const void *p, const void *q)
{
	const kv_diff_vmi *x = *(const kv_diff_vmi *const *)p;
	const kv_diff_vmi *y = *(const kv_diff_vmi *const *)q;
	int c = strs_cmp(&x->tlost, &y->tlost);

	return c != 0 ? c : strs_cmp(&x->tgained, &y->tgained);
}

static int
fold_cmp(const void *p, const void *q)
{
	const kv_diff_fold *x = p, *y = q;
	int c;

	if (x->nvmis != y->nvmis)
		return x->nvmis > y->nvmis ? -1 : 1;
	c = strs_cmp(x->lost, y->lost);
	return c != 0 ? c : strs_cmp(x->gained, y->gained);
}

/* The folded VMIs, one fold per set of target nodes lost and gained. */
static void
fold_vmis(kv_diff *d)
{
	const kv_diff_vmi **v = xcalloc(d->nvmis + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < d->nvmis; i++)
		if (d->vmis[i].folded)
			v[n++] = &d->vmis[i];
	if (n > 1)
		kv_qsort(v, n, sizeof(*v), fold_vmi_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || fold_vmi_cmp(&v[i - 1], &v[i]) != 0) {
			d->folds = xreallocarray(d->folds, d->nfolds + 1,
			    sizeof(kv_diff_fold));
			d->folds[d->nfolds++] = (kv_diff_fold){ &v[i]->tlost,
			    &v[i]->tgained, 0 };
		}
		d->folds[d->nfolds - 1].nvmis++;
	}
	if (d->nfolds > 1)
		kv_qsort(d->folds, d->nfolds, sizeof(kv_diff_fold), fold_cmp);
	free(v);
}

static bool in_strs(const kv_strs *s, const char *name);

static bool
skipped(const kv_strs *skip, const kv_vmi *v)
{
	return v->node != NULL && in_strs(skip, v->node);
}

/* The verdicts of side s, and what its not-judged VMIs lack. */
static void
tally(const kv_analysis *a, int s, kv_diff *d)
{
	for (size_t k = 0; k < a->nvmis; k++) {
		d->verdicts[s][a->vmis[k].verdict]++;
		if (a->vmis[k].verdict == V_NOT_JUDGED)
			d->lacks[s] |= a->vmis[k].not_judged;
	}
	for (int n = 0; n < NEED_COUNT; n++)
		if (d->lacks[s] & KV_NEED_BIT(n))
			d->lack_words[s][n] = kv_model_lack_words(a->m, n);
}

static void
diff_vmis(const nodemap *nm, const kv_strs *skip, kv_diff *d)
{
	const kv_analysis *a = nm->a, *b = nm->b;
	size_t i = 0, j = 0;

	while (i < a->nvmis || j < b->nvmis) {
		const kv_vmi *x = i < a->nvmis ? a->vmis[i].vmi : NULL;
		const kv_vmi *y = j < b->nvmis ? b->vmis[j].vmi : NULL;
		int c = x == NULL ? 1 : y == NULL ? -1 :
		    kv_nscmp(x->ns, x->name, y->ns, y->name);

		if (c < 0) {
			if (!skipped(skip, x))
				strs_push(&d->vmis_removed, x->fullname);
			i++;
		} else if (c > 0)
			strs_push(&d->vmis_added, b->vmis[j++].vmi->fullname);
		else {
			if (!skipped(skip, x))
				vmi_pair(nm, &a->vmis[i], &b->vmis[j], d);
			i++, j++;
		}
	}
	tally(a, 0, d);
	tally(b, 1, d);
	d->nvmis_ab[0] = a->nvmis;
	d->nvmis_ab[1] = b->nvmis;
	fold_vmis(d);
}

static bool
in_strs(const kv_strs *s, const char *name)
{
	for (size_t i = 0; s != NULL && i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

/* Drains whose counts changed; not those of skipped (removed) nodes. */
static void
diff_drains(const kv_analysis *a, const kv_analysis *b, const kv_strs *skip,
    kv_diff *d)
{
	size_t i = 0, j = 0;

	while (i < a->ndrain || j < b->ndrain) {
		const kv_drain *x = i < a->ndrain ? &a->drain[i] : NULL;
		const kv_drain *y = j < b->ndrain ? &b->drain[j] : NULL;
		const char *nx = x ? a->m->nodes[x->node].name : NULL;
		const char *ny = y ? b->m->nodes[y->node].name : NULL;
		int c = x == NULL ? 1 : y == NULL ? -1 : strcmp(nx, ny);
		kv_diff_drain dd = { .node = c <= 0 ? nx : ny };

		if (c <= 0) {
			dd.migrate[0] = x->migrate;
			dd.block[0] = x->block;
			dd.shutdown[0] = x->shutdown;
			i++;
		}
		if (c >= 0) {
			dd.migrate[1] = y->migrate;
			dd.block[1] = y->block;
			dd.shutdown[1] = y->shutdown;
			j++;
		}
		if ((dd.migrate[0] == dd.migrate[1] && dd.block[0] ==
		    dd.block[1] && dd.shutdown[0] == dd.shutdown[1]) ||
		    in_strs(skip, dd.node))
			continue;
		d->drains = xreallocarray(d->drains, d->ndrains + 1,
		    sizeof(kv_diff_drain));
		d->drains[d->ndrains++] = dd;
	}
}

/* A group row and what it is matched by: code, subject kind and the
 * subject's content.  A CPU class is its host model, vendor and required
 * labels, not its id (ids are renumbered when another class splits or
 * merges); other subjects are their name. */
typedef struct grow {
	kv_diff_group g;
	char *key;
} grow;

static int
group_cmp(const grow *x, const grow *y)
{
	int c = strcmp(x->g.code, y->g.code);

	if (c == 0)
		c = strcmp(x->g.kind, y->g.kind);
	return c != 0 ? c : strcmp(x->key, y->key);
}

static int
group_qcmp(const void *x, const void *y)
{
	return group_cmp(x, y);
}

static char *
subject_key(const kv_analysis *a, const kv_group *g)
{
	kv_buf b = {0};

	for (size_t i = 0; g->kind == SUBJ_CPU_CLASS && g->name != NULL &&
	    i < a->nclasses; i++) {
		const kv_class *c = &a->classes[i];

		if (strcmp(c->id, g->name) != 0)
			continue;
		kv_buf_printf(&b, "class\x1f%s\x1f%s", c->host_model ?
		    c->host_model : "", c->vendor ? c->vendor : "");
		for (size_t k = 0; k < c->nreq; k++)
			kv_buf_printf(&b, "\x1f%s", c->req[k]);
		return b.data;
	}
	return xstrdup(g->name ? g->name : "");
}

/* a's groups as side 0 or 1 of rows, sorted by key. */
static grow *
group_rows(const kv_analysis *a, int side)
{
	grow *v = xcalloc(a->ngroups + 1, sizeof(*v));

	for (size_t i = 0; i < a->ngroups; i++) {
		const kv_group *g = &a->groups[i];

		v[i].g.code = g->code;
		v[i].g.kind = kv_subject_names[g->kind];
		v[i].g.name = g->name ? g->name : "";
		v[i].g.id[side] = g->id;
		v[i].g.vmis[side] = g->nvmis;
		v[i].key = subject_key(a, g);
	}
	kv_qsort(v, a->ngroups, sizeof(*v), group_qcmp);
	return v;
}

static void
rows_free(grow *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

/* Groups that appear, disappear or change their VMI count; a matched
 * group is named as after. */
static void
diff_groups(const kv_analysis *a, const kv_analysis *b, kv_diff *d)
{
	grow *x = group_rows(a, 0), *y = group_rows(b, 1);
	size_t i = 0, j = 0;

	while (i < a->ngroups || j < b->ngroups) {
		int c = i == a->ngroups ? 1 : j == b->ngroups ? -1 :
		    group_cmp(&x[i], &y[j]);
		kv_diff_group g = c <= 0 ? x[i].g : y[j].g;

		if (c == 0) {
			g.name = y[j].g.name;
			g.id[1] = y[j].g.id[1];
			g.vmis[1] = y[j].g.vmis[1];
		}
		i += c <= 0;
		j += c >= 0;
		if (g.vmis[0] == g.vmis[1])
			continue;
		d->groups = xreallocarray(d->groups, d->ngroups + 1,
		    sizeof(*d->groups));
		d->groups[d->ngroups++] = g;
	}
	rows_free(x, a->ngroups);
	rows_free(y, b->ngroups);
}

void
kv_diff_build(const kv_analysis *a, const kv_analysis *b,
    const kv_strs *skip_nodes, kv_diff *d)
{
	nodemap nm = { a, b, NULL, NULL };
	size_t *pairs, *back;

	memset(d, 0, sizeof(*d));
	pairs = diff_nodes(a, b, d);
	back = nodes_back(a, b, pairs);
	class_moves(a, b, pairs, false, d);	/* an old class split */
	class_moves(b, a, back, true, d);	/* old classes merged */
	nm.pair = pairs;
	nm.back = back;
	diff_vmis(&nm, skip_nodes, d);
	free(pairs);
	free(back);
	diff_drains(a, b, skip_nodes, d);
	diff_groups(a, b, d);
	d->worse = d->nworse > 0;
}

void
kv_diff_free(kv_diff *d)
{
	free(d->nodes_added.v);
	free(d->nodes_removed.v);
	for (size_t i = 0; i < d->nnodes; i++)
		node_strs_free(&d->nodes[i]);
	free(d->nodes);
	for (size_t i = 0; i < d->nclasses; i++) {
		free(d->classes[i].one);
		free(d->classes[i].many.v);
	}
	free(d->classes);
	for (size_t i = 0; i < d->nvmis; i++) {
		free(d->vmis[i].added.v);
		free(d->vmis[i].removed.v);
		free(d->vmis[i].tlost.v);
		free(d->vmis[i].tgained.v);
	}
	free(d->vmis);
	free(d->folds);
	free(d->vmis_added.v);
	free(d->vmis_removed.v);
	free(d->drains);
	free(d->groups);
	memset(d, 0, sizeof(*d));
}

const kv_diff_node *
kv_diff_node_of(const kv_diff *d, const char *name)
{
	size_t lo = 0, hi = d->nnodes;

	while (lo < hi) {	/* d->nodes is by name */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->nodes[mid].name, name);

		if (c == 0)
			return &d->nodes[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
