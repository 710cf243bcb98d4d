/*
 * cpu.c - the CPU compatibility engine (rules-kubevirt.md §1-§2,
 * findings.md: nodes CPU fields, cpuClasses, hostModelPairs, namedModels,
 * tradeoff).
 *
 * Nodes with identical CPU labels form a class; pairs and intersections are
 * computed per class, so the work grows with the number of classes, not
 * with nodes squared.  Named models are bitsets over classes.
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "analyze/rules/analysis.h"
#include "analyze/model/index.h"

static const char *const cpu_kinds[] = {
	"cpu-feature", "cpu-model", "cpu-model-migration", "host-model-cpu",
	"host-model-required-features", "cpu-vendor",
};
#define NKINDS (sizeof(cpu_kinds) / sizeof(cpu_kinds[0]))

#define CPU_KEY "%s.%s/%s"	/* kind, domain, name */

const char *
kv_cpu_key(const kv_analysis *a, const char *kind, const char *name)
{
	char *s = xasprintf(CPU_KEY, kind, a->cfg.domain, name);
	const char *k = kv_intern_str(a->m->strs, s);

	free(s);
	return k;
}

const char *
kv_cpu_key_text(const kv_analysis *a, const char *kind, const char *name,
    char *buf, size_t size)
{
	int n = snprintf(buf, size, CPU_KEY, kind, a->cfg.domain, name);

	if (n < 0 || (size_t)n >= size)
		kv_fatal("CPU label key %s.%s/%s: longer than %zu bytes", kind,
		    a->cfg.domain, name, size - 1);
	return buf;
}

/* The kind of CPU label key is, or -1; *rest gets the part after '/'. */
static int
cpu_kind(const kv_analysis *a, const char *key, const char **rest)
{
	const char *dot = strchr(key, '.'), *slash;
	size_t dlen = strlen(a->cfg.domain);

	if (dot == NULL)
		return -1;
	if (strncmp(dot + 1, a->cfg.domain, dlen) != 0 || dot[1 + dlen] != '/')
		return -1;
	slash = dot + 1 + dlen;
	for (size_t i = 0; i < NKINDS; i++)
		if ((size_t)(dot - key) == strlen(cpu_kinds[i]) &&
		    strncmp(key, cpu_kinds[i], (size_t)(dot - key)) == 0) {
			*rest = slash + 1;
			return (int)i;
		}
	return -1;
}

enum { K_FEATURE, K_MODEL, K_MIGRATION, K_HOSTMODEL, K_REQUIRED, K_VENDOR };

const cpudb_model *
kv_cpu_lookup(const kv_analysis *a, const char *model)
{
	const cpudb_model *cm = NULL;

	if (a->m->cpumap != NULL)
		cm = cpudb_find(a->m->cpumap, model);
	if (cm == NULL)
		cm = cpudb_find(cpudb_builtin(), model);
	return cm;
}

typedef struct feat_arg {
	const kv_analysis *a;
	const kv_labels *labels;
} feat_arg;

static bool
node_has_feature(const char *feature, void *arg)
{
	feat_arg *fa = arg;
	char *k = xasprintf("cpu-feature.%s/%s", fa->a->cfg.domain, feature);
	const char *v = kv_labels_get(fa->labels, k);

	free(k);
	return v != NULL && strcmp(v, "true") == 0;
}

/*
 * Whether the node's CPU has feature: a cpu-feature label says so, or a
 * cpu-model label's model holds it (the labeller names a model there
 * only when libvirt calls it usable, every feature of it on the host:
 * kubevirt v1.9.0 pkg/virt-handler/node-labeller/node_labeller.go:254-257
 * and cpu_plugin.go:121-129; not the host-model-cpu model, which libvirt
 * may give with features disabled).  Real nodes list every feature
 * (hypervisor-cpu-baseline --features, v1.9.0
 * cmd/virt-launcher/node-labeller/node-labeller.sh:64); a snapshot whose
 * labels name a few (edited, or a test cluster) still gets the level its
 * usable models imply.
 */
static bool
node_implies_feature(const char *feature, void *arg)
{
	feat_arg *fa = arg;
	const kv_labels *l = fa->labels;

	if (node_has_feature(feature, arg))
		return true;
	for (size_t j = 0; j < l->n; j++) {
		const char *rest;
		int k = cpu_kind(fa->a, l->v[j].key, &rest);
		const cpudb_model *cm;

		if (k == K_MODEL &&
		    strcmp(l->v[j].value, "true") == 0 &&
		    (cm = kv_cpu_lookup(fa->a, rest)) != NULL &&
		    cpudb_model_has(cm, feature))
			return true;
	}
	return false;
}

/* The node's x86-64 level, or -1 when its labels cannot say: level 0
 * means a feature every x86-64 CPU has is missing (sse2, lm), so the
 * labels are incomplete, not the CPU (never "x86-64-v0, AVX-512"). */
static int
node_level(feat_arg *fa)
{
	int level = cpudb_level(node_implies_feature, fa);

	return level > 0 ? level : -1;
}

/* Each node's running VMIs. */
static void
count_vmis(kv_analysis *a)
{
	const kv_model *m = a->m;

	for (size_t i = 0; i < m->nnodes; i++)
		a->nodes[i].nvmis = 0;
	for (size_t i = 0; i < m->nvmis; i++) {
		const kv_vmi *v = &m->vmis[i];
		const kv_node *n;

		if (strcmp(v->phase, "Running") == 0 &&
		    (n = kv_model_node(m, v->node)) != NULL)
			a->nodes[n - m->nodes].nvmis++;
	}
}

static void
node_facts(kv_analysis *a)
{
	const kv_model *m = a->m;
	char *sched = xasprintf("%sschedulable", a->cfg.kv_prefix);

	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_node *n = &m->nodes[i];
		kv_nodeinfo *ni = &a->nodes[i];
		const char *v;
		feat_arg fa = { a, &n->labels };

		ni->cls = -1;
		ni->level = -1;
		v = kv_labels_get(&n->labels, sched);
		ni->schedulable = v != NULL && strcmp(v, "true") == 0 &&
		    !n->unschedulable;
		for (size_t j = 0; j < n->labels.n; j++) {
			const char *rest;
			int k = cpu_kind(a, n->labels.v[j].key, &rest);

			if (k < 0)
				continue;
			ni->kubevirt = true;
			if (k == K_VENDOR) {
				if (ni->vendor == NULL)
					ni->vendor = kv_intern_str(m->strs,
					    rest);
				ni->nvendors++;
			} else if (k == K_HOSTMODEL && ni->host_model == NULL)
				ni->host_model = kv_intern_str(m->strs, rest);
		}
		if (ni->kubevirt) {
			ni->level = node_level(&fa);
			ni->avx2 = node_implies_feature("avx2", &fa);
			ni->avx512f = node_implies_feature("avx512f", &fa);
		}
	}
	free(sched);
	count_vmis(a);
}

/* --- classes ------------------------------------------------------------ */

/* A node's CPU labels as its class's key: their key and value pointers
 * in label order (interned: equal pointers, equal labels), compared
 * a word at a time, not the labels' text joined (some 14 KB a node). */
typedef struct class_key {
	size_t len;
	char *ptrs;
} class_key;

static guint
class_key_hash(gconstpointer p)
{
	const class_key *k = p;

	return kv_hash_bytes(k->ptrs, k->len);
}

static gboolean
class_key_equal(gconstpointer x, gconstpointer y)
{
	const class_key *p = x, *q = y;

	return p->len == q->len &&
	    (p->len == 0 || memcmp(p->ptrs, q->ptrs, p->len) == 0);
}

static void
class_key_free(gpointer p)
{
	class_key *k = p;

	free(k->ptrs);
	free(k);
}

static class_key *
class_key_of(const kv_analysis *a, const kv_node *n)
{
	class_key *k = xmalloc(sizeof(*k));
	kv_buf b = {0};
	const char *rest;

	for (size_t j = 0; j < n->labels.n; j++)
		if (cpu_kind(a, n->labels.v[j].key, &rest) >= 0) {
			kv_buf_append(&b, &n->labels.v[j].key,
			    sizeof(const char *));
			kv_buf_append(&b, &n->labels.v[j].value,
			    sizeof(const char *));
		}
	k->len = b.len;
	k->ptrs = b.data;
	return k;
}

/* Larger classes first, then by their first node's name (arg: the
 * analysis). */
static int
class_cmp(const void *x, const void *y, void *arg)
{
	const kv_class *p = x, *q = y;
	const kv_node *nodes = ((const kv_analysis *)arg)->m->nodes;

	if (p->nnodes != q->nnodes)
		return p->nnodes > q->nnodes ? -1 : 1;
	return strcmp(nodes[p->nodes[0]].name, nodes[q->nodes[0]].name);
}

static void
build_classes(kv_analysis *a)
{
	const kv_model *m = a->m;
	GHashTable *seen = g_hash_table_new_full(class_key_hash,
	    class_key_equal, class_key_free, NULL);
	size_t cap = 0;

	for (size_t i = 0; i < m->nnodes; i++) {
		kv_class *c;
		class_key *key;
		gpointer slot;

		if (!a->nodes[i].kubevirt)
			continue;
		key = class_key_of(a, &m->nodes[i]);
		if (g_hash_table_lookup_extended(seen, key, NULL, &slot)) {
			c = &a->classes[GPOINTER_TO_SIZE(slot)];
			class_key_free(key);
		} else {
			KV_GROW(a->classes, cap, a->nclasses + 1);
			c = &a->classes[a->nclasses];
			memset(c, 0, sizeof(*c));
			g_hash_table_insert(seen, key,
			    GSIZE_TO_POINTER(a->nclasses));
			a->nclasses++;
		}
		c->nodes = xreallocarray(c->nodes, c->nnodes + 1,
		    sizeof(size_t));
		c->nodes[c->nnodes++] = i;
	}
	g_hash_table_destroy(seen);
	kv_qsort_r(a->classes, a->nclasses, sizeof(kv_class), class_cmp, a);
	for (size_t ci = 0; ci < a->nclasses; ci++) {
		kv_class *c = &a->classes[ci];
		const kv_node *n = &m->nodes[c->nodes[0]];
		const kv_nodeinfo *ni = &a->nodes[c->nodes[0]];
		size_t rcap = 0;

		snprintf(c->id, sizeof(c->id), "C%zu", ci + 1);
		c->vendor = ni->vendor;
		c->host_model = ni->host_model;
		c->level = ni->level;
		c->avx2 = ni->avx2;
		c->avx512f = ni->avx512f;
		for (size_t j = 0; j < n->labels.n; j++) {
			const char *rest;

			if (cpu_kind(a, n->labels.v[j].key, &rest) ==
			    K_REQUIRED) {
				KV_GROW(c->req, rcap, c->nreq + 1);
				c->req[c->nreq++] = kv_intern_str(m->strs,
				    rest);
			}
		}
		kv_qsort(c->req, c->nreq, sizeof(char *), kv_strptrcmp);
		for (size_t k = 0; k < c->nnodes; k++)
			a->nodes[c->nodes[k]].cls = (int)ci;
	}
}

/* Each class's features number: its first node's cpu-feature label
 * keys (the same in every node of the class: they are in its key), as
 * a class key of their pointers, numbered in class order. */
static void
number_features(kv_analysis *a)
{
	GHashTable *seen = g_hash_table_new_full(class_key_hash,
	    class_key_equal, class_key_free, NULL);
	char pfx[256];

	kv_cpu_key_text(a, "cpu-feature", "", pfx, sizeof(pfx));
	for (size_t ci = 0; ci < a->nclasses; ci++) {
		const kv_labels *l =
		    &a->m->nodes[a->classes[ci].nodes[0]].labels;
		class_key *k = xmalloc(sizeof(*k));
		kv_buf b = {0};
		gpointer id;

		for (size_t j = 0; j < l->n; j++)
			if (kv_startswith(l->v[j].key, pfx))
				kv_buf_append(&b, &l->v[j].key,
				    sizeof(const char *));
		k->len = b.len;
		k->ptrs = b.data;
		if (g_hash_table_lookup_extended(seen, k, NULL, &id)) {
			a->classes[ci].features = GPOINTER_TO_SIZE(id);
			class_key_free(k);
		} else {
			a->classes[ci].features = g_hash_table_size(seen);
			g_hash_table_insert(seen, k,
			    GSIZE_TO_POINTER(a->classes[ci].features));
		}
	}
	g_hash_table_destroy(seen);
}

static bool
class_has(const kv_analysis *a, const kv_class *c, const char *key)
{
	const char *v = kv_labels_get(&a->m->nodes[c->nodes[0]].labels, key);

	return v != NULL && strcmp(v, "true") == 0;
}

bool
kv_cpu_features_same(const kv_analysis *a, const kv_node *x,
    const kv_node *y)
{
	char pfx[256];

	return kv_labels_same_prefixed(&x->labels, &y->labels,
	    kv_cpu_key_text(a, "cpu-feature", "", pfx, sizeof(pfx)), false);
}

static void
build_pairs(kv_analysis *a)
{
	a->pairs = xcalloc(a->nclasses * a->nclasses + 1, sizeof(kv_pair));
	for (size_t s = 0; s < a->nclasses; s++) {
		const kv_class *src = &a->classes[s];

		for (size_t t = 0; t < a->nclasses; t++) {
			const kv_class *tgt = &a->classes[t];
			kv_pair *p = &a->pairs[a->npairs++];
			const char **miss = xcalloc(src->nreq + 3,
			    sizeof(char *));
			const char *k;

			p->src = s;
			p->tgt = t;
			p->missing = miss;
			if (src->host_model == NULL) {
				/* KubeVirt creates no target pod at all. */
				p->ok = false;
				continue;
			}
			k = kv_cpu_key(a, "cpu-model-migration",
			    src->host_model);
			if (!class_has(a, tgt, k))
				miss[p->nmissing++] = k;
			for (size_t f = 0; f < src->nreq; f++) {
				k = kv_cpu_key(a, "cpu-feature", src->req[f]);
				if (!class_has(a, tgt, k))
					miss[p->nmissing++] = k;
			}
			if (src->vendor != NULL) {
				k = kv_cpu_key(a, "cpu-vendor", src->vendor);
				if (!class_has(a, tgt, k))
					miss[p->nmissing++] = k;
			}
			kv_qsort(miss, p->nmissing, sizeof(char *),
			    kv_strptrcmp);
			p->ok = p->nmissing == 0;
		}
	}
}

/* --- named models ------------------------------------------------------- */

static bool
is_obsolete(const kv_analysis *a, const char *model)
{
	return bsearch(&model, a->cfg.obsolete, a->cfg.nobsolete,
	    sizeof(char *), kv_strptrcmp) != NULL;
}

static int
named_cmp(const void *x, const void *y)
{
	const kv_named *p = x, *q = y;

	if (p->nnodes != q->nnodes)
		return p->nnodes > q->nnodes ? -1 : 1;
	return strcmp(p->model, q->model);
}

static void
build_named(kv_analysis *a)
{
	const kv_model *m = a->m;
	GHashTable *byname = g_hash_table_new(g_direct_hash, g_direct_equal);
	size_t cap = 0;

	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_node *n = &m->nodes[i];

		if (!a->nodes[i].kubevirt)
			continue;
		for (size_t j = 0; j < n->labels.n; j++) {
			const char *rest, *name;
			kv_named *nm;
			gpointer slot;

			if (cpu_kind(a, n->labels.v[j].key, &rest) != K_MODEL ||
			    strcmp(n->labels.v[j].value, "true") != 0)
				continue;
			name = kv_intern_str(m->strs, rest);
			if (g_hash_table_lookup_extended(byname, name, NULL,
			    &slot))
				nm = &a->named[GPOINTER_TO_SIZE(slot)];
			else {
				KV_GROW(a->named, cap, a->nnamed + 1);
				nm = &a->named[a->nnamed];
				memset(nm, 0, sizeof(*nm));
				nm->model = name;
				nm->info = kv_cpu_lookup(a, name);
				g_hash_table_insert(byname, (gpointer)name,
				    GSIZE_TO_POINTER(a->nnamed));
				a->nnamed++;
			}
			nm->nodes = xreallocarray(nm->nodes, nm->nnodes + 1,
			    sizeof(size_t));
			nm->nodes[nm->nnodes++] = i;
		}
	}
	g_hash_table_destroy(byname);
	kv_qsort(a->named, a->nnamed, sizeof(kv_named), named_cmp);
}

/* How many nodes of scope s can run model nm. */
static size_t
named_in_scope(const kv_named *nm, const kv_scope *s)
{
	size_t n = 0;

	for (size_t i = 0; i < nm->nnodes; i++)
		n += kv_bits_test(&s->nodes, nm->nodes[i]);
	return n;
}

static void
scope_common_best(kv_analysis *a, kv_scope *s)
{
	int best_level = -1;
	size_t best_feat = 0;

	s->common = xcalloc(a->nnamed + 1, sizeof(char *));
	s->best = xcalloc(a->nnamed + 1, sizeof(char *));
	if (s->nnodes == 0)
		return;
	for (size_t i = 0; i < a->nnamed; i++) {
		const kv_named *nm = &a->named[i];

		if (is_obsolete(a, nm->model) ||
		    named_in_scope(nm, s) != s->nnodes)
			continue;
		s->common[s->ncommon++] = nm->model;
		if (nm->info == NULL)
			continue;
		if (nm->info->level > best_level || (nm->info->level ==
		    best_level && nm->info->nfeatures_novmx > best_feat)) {
			best_level = nm->info->level;
			best_feat = nm->info->nfeatures_novmx;
			s->nbest = 0;
		}
		if (nm->info->level == best_level &&
		    nm->info->nfeatures_novmx == best_feat)
			s->best[s->nbest++] = nm->model;
	}
	kv_qsort(s->common, s->ncommon, sizeof(char *), kv_strptrcmp);
	kv_qsort(s->best, s->nbest, sizeof(char *), kv_strptrcmp);
}

static void
build_scopes(kv_analysis *a)
{
	const kv_model *m = a->m;
	const char **vendors = xcalloc(m->nnodes + 1, sizeof(char *));
	size_t nv = 0;

	for (size_t i = 0; i < m->nnodes; i++) {
		const char *v = a->nodes[i].vendor;
		bool dup = false;

		if (!a->nodes[i].kubevirt || v == NULL)
			continue;
		for (size_t j = 0; j < nv && !dup; j++)
			dup = vendors[j] == v;
		if (!dup)
			vendors[nv++] = v;
	}
	kv_qsort(vendors, nv, sizeof(char *), kv_strptrcmp);
	a->scopes = xcalloc(nv + 1, sizeof(kv_scope));
	for (size_t si = 0; si <= nv; si++) {
		kv_scope *s = &a->scopes[a->nscopes++];

		s->name = si == 0 ? xstrdup("all") :
		    xasprintf("vendor:%s", vendors[si - 1]);
		kv_bits_init(&s->nodes, m->nnodes);
		for (size_t i = 0; i < m->nnodes; i++)
			if (a->nodes[i].kubevirt && (si == 0 ||
			    a->nodes[i].vendor == vendors[si - 1])) {
				kv_bits_set(&s->nodes, i);
				s->nnodes++;
			}
		scope_common_best(a, s);
	}
	free(vendors);
}

/* --- trade-off table ---------------------------------------------------- */

static const struct {
	const char *name;
	int min_level;
	bool avx2, avx512;
} tiers[] = {
	{ "any", 1, false, false },
	{ "x86-64-v2", 2, false, false },
	{ "x86-64-v3", 3, false, false },
	{ "avx2", 0, true, false },
	{ "x86-64-v4", 4, false, false },
};

static bool
in_tier(const cpudb_model *cm, size_t t)
{
	if (cm == NULL)
		return false;
	if (tiers[t].avx2)
		return cm->avx2;
	return cm->level >= tiers[t].min_level;
}

static void
build_tradeoff(kv_analysis *a)
{
	size_t ntiers = sizeof(tiers) / sizeof(tiers[0]);
	/* the named models of the tier, by index: covering their nodes is
	 * linear in the model labels, even when every model ties */
	size_t *pick = xcalloc(a->nnamed + 1, sizeof(size_t));

	a->tradeoff = xcalloc(a->nscopes * ntiers + 1, sizeof(kv_tradeoff));
	for (size_t si = 0; si < a->nscopes; si++) {
		const kv_scope *s = &a->scopes[si];

		for (size_t t = 0; t < ntiers; t++) {
			kv_tradeoff *to = &a->tradeoff[a->ntradeoff++];
			kv_bits covered;

			to->scope = si;
			to->tier = tiers[t].name;
			to->of = s->nnodes;
			to->models = xcalloc(a->nnamed + 1, sizeof(char *));
			for (size_t i = 0; i < a->nnamed; i++) {
				const kv_named *nm = &a->named[i];
				size_t n;

				if (!in_tier(nm->info, t) ||
				    is_obsolete(a, nm->model))
					continue;
				n = named_in_scope(nm, s);
				if (n == 0 || n < to->nodes)
					continue;
				if (n > to->nodes) {
					to->nodes = n;
					to->nmodels = 0;
				}
				pick[to->nmodels] = i;
				to->models[to->nmodels++] = nm->model;
			}
			to->excluded = xcalloc(s->nnodes + 1, sizeof(size_t));
			if (to->nodes == 0)
				continue;
			kv_bits_init(&covered, a->m->nnodes);
			for (size_t k = 0; k < to->nmodels; k++) {
				const kv_named *nm = &a->named[pick[k]];

				for (size_t j = 0; j < nm->nnodes; j++)
					kv_bits_set(&covered, nm->nodes[j]);
			}
			kv_qsort(to->models, to->nmodels, sizeof(char *),
			    kv_strptrcmp);
			KV_BITS_FOREACH(&s->nodes, n)
				if (!kv_bits_test(&covered, n))
					to->excluded[to->nexcluded++] = n;
			kv_bits_free(&covered);
		}
	}
	free(pick);
}

void
kv_cpu_borrow(kv_analysis *a, const kv_analysis *from)
{
	memcpy(a->nodes, from->nodes, a->m->nnodes * sizeof(kv_nodeinfo));
	count_vmis(a);
	a->capacity_known = from->capacity_known;
	a->index = from->index;
	a->nclasses = from->nclasses;
	a->classes = from->classes;
	a->npairs = from->npairs;
	a->pairs = from->pairs;
	a->nnamed = from->nnamed;
	a->named = from->named;
	a->nscopes = from->nscopes;
	a->scopes = from->scopes;
	a->ntradeoff = from->ntradeoff;
	a->tradeoff = from->tradeoff;
	a->borrowed = true;
	a->lender = from;
}

int
kv_cpu_analyze(kv_analysis *a, kv_err *err)
{
	node_facts(a);
	build_classes(a);
	number_features(a);
	/* hostModelPairs holds every ordered pair: refuse before building
	 * classes squared of them (a hostile snapshot) */
	if (a->m->max_cpu_classes > 0 &&
	    a->nclasses > a->m->max_cpu_classes)
		return kv_seterr(err, "resources/nodes.json: %zu CPU classes "
		    "(distinct CPU label sets), more than the limit of %llu "
		    "(KVSCOPE_MAX_CPU_CLASSES)", a->nclasses,
		    (unsigned long long)a->m->max_cpu_classes);
	build_pairs(a);
	build_named(a);
	build_scopes(a);
	build_tradeoff(a);
	return KV_OK;
}
