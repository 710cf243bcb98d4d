/*
 * place.c - the placement context (target.h, place.h): taints, launcher
 * pods by VMI, free memory per node (the check when capacity is unknown)
 * and the room bitsets by need, built once per analysis, and the
 * one-node tests of placement (node selector terms, tolerations,
 * persistent reservations).  References: rules-kubevirt.md §2.
 */
#include "analyze/rules/place.h"
#include "analyze/model/index.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>


static guint
problem_hash(gconstpointer p)
{
	const problem *q = p;

	return kv_hash_bytes(q->key, q->len);
}

static gboolean
problem_equal(gconstpointer a, gconstpointer b)
{
	const problem *p = a, *q = b;

	return p->len == q->len && memcmp(p->key, q->key, p->len) == 0;
}

static void
problem_free(gpointer p)
{
	problem *q = p;

	kv_bits_free(&q->cpu);
	kv_bits_free(&q->sel);
	kv_bits_free(&q->place);
	kv_bits_free(&q->tgt);
	free(q->key);
	free(q);
}

/* Selector lists hold interned strings: the pointers are the content. */
static guint
labels_hash(gconstpointer p)
{
	const kv_labels *l = p;

	return kv_hash_bytes(l->v, l->n * sizeof(kv_label));
}

static gboolean
labels_equal(gconstpointer a, gconstpointer b)
{
	const kv_labels *x = a, *y = b;

	return x->n == y->n && memcmp(x->v, y->v, x->n * sizeof(kv_label)) == 0;
}

static void
labels_free(gpointer p)
{
	kv_labels *l = p;

	free(l->v);
	free(l);
}

static guint
res_hash(gconstpointer p)
{
	const kv_res *r = p;
	uint64_t h = (uint64_t)r->cpu_millis * 1099511628211ULL;

	h = (h ^ (uint64_t)r->memory) * 1099511628211ULL;
	h = (h ^ (uint64_t)r->pods) * 1099511628211ULL;
	for (int k = 0; k < KV_MAX_RESNAMES; k++)
		h = (h ^ (uint64_t)r->ext[k]) * 1099511628211ULL;
	return (guint)(h ^ (h >> 32));
}

static gboolean
res_equal(gconstpointer a, gconstpointer b)
{
	const kv_res *p = a, *q = b;

	return p->cpu_millis == q->cpu_millis && p->memory == q->memory &&
	    p->pods == q->pods && memcmp(p->ext, q->ext, sizeof(p->ext)) == 0;
}

static void
bits_free(gpointer p)
{
	kv_bits_free(p);
	free(p);
}

static int
pod_cmp(const void *x, const void *y)
{
	const kv_pod *p = *(const kv_pod *const *)x;
	const kv_pod *q = *(const kv_pod *const *)y;
	int c = strcmp(p->created_by ? p->created_by : "",
	    q->created_by ? q->created_by : "");

	if (c == 0)
		c = strcmp(p->created ? p->created : "",
		    q->created ? q->created : "");
	if (c == 0)
		c = strcmp(p->name, q->name);
	return c;
}

bool
kv_pod_active(const kv_pod *p)
{
	return p->phase == NULL || strcmp(p->phase, "Running") == 0 ||
	    strcmp(p->phase, "Pending") == 0;
}

static kv_place *place_tables(const kv_analysis *a, kv_place *p);

/* Whether a's lender (the proof's copy borrowing the node phases) has
 * the very pods a has: then its sorted launchers and the nodes' free
 * memory are a's too. */
static bool
lends_pods(const kv_analysis *a)
{
	return a->lender != NULL && a->lender->place != NULL &&
	    a->lender->m->pods == a->m->pods &&
	    a->lender->m->npods == a->m->npods;
}

kv_place *
kv_place_build(kv_analysis *a)
{
	const kv_model *m = a->m;
	kv_place *p = xcalloc(1, sizeof(*p));
	size_t cap = 0;

	for (size_t i = 0; i < m->nnodes; i++) {
		const kv_node *n = &m->nodes[i];
		size_t nt = n->ntaints + (n->unschedulable ? 1 : 0);

		for (size_t j = 0; j < nt; j++) {
			kv_taint cordon = { "node.kubernetes.io/unschedulable",
			    "", "NoSchedule" };
			const kv_taint *t = j < n->ntaints ? &n->taints[j] :
			    &cordon;
			const char *val = t->value ? t->value : "";
			size_t k;

			if (t->effect == NULL ||
			    (strcmp(t->effect, "NoSchedule") != 0 &&
			    strcmp(t->effect, "NoExecute") != 0))
				continue;
			for (k = 0; k < p->ntaints; k++)
				if (strcmp(p->taints[k].key, t->key) == 0 &&
				    strcmp(p->taints[k].value, val) == 0 &&
				    strcmp(p->taints[k].effect, t->effect) == 0)
					break;
			if (k == p->ntaints) {
				KV_GROW(p->taints, cap, p->ntaints + 1);
				p->taints[k].key = t->key;
				p->taints[k].value = val;
				p->taints[k].effect = t->effect;
				kv_bits_init(&p->taints[k].nodes, m->nnodes);
				p->ntaints++;
			}
			kv_bits_set(&p->taints[k].nodes, i);
		}
		a->nodes[i].free_memory = n->alloc_memory;
	}
	if (lends_pods(a)) {	/* the same pods and nodes: theirs */
		p->pods = a->lender->place->pods;
		p->npods = a->lender->place->npods;
		p->pods_of = a->lender->place->pods_of;
		p->pods_lent = true;
		for (size_t i = 0; i < m->nnodes; i++)
			a->nodes[i].free_memory =
			    a->lender->nodes[i].free_memory;
		return place_tables(a, p);
	}
	p->pods = xcalloc(m->npods + 1, sizeof(kv_pod *));
	for (size_t i = 0; i < m->npods; i++) {
		const kv_pod *pod = &m->pods[i];
		const kv_node *n;

		if (!pod->launcher)
			continue;
		if (pod->created_by != NULL)
			p->pods[p->npods++] = pod;
		if (kv_pod_active(pod) && pod->req_memory > 0 &&
		    (n = kv_model_node(m, pod->node)) != NULL &&
		    a->nodes[n - m->nodes].free_memory >= 0)
			a->nodes[n - m->nodes].free_memory -= pod->req_memory;
	}
	kv_qsort(p->pods, p->npods, sizeof(kv_pod *), pod_cmp);
	/* a VMI's pods found by one lookup, not a binary search of
	 * strcmp over every launcher (a tenth of the VMIs' phase) */
	p->pods_of = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = p->npods; i > 0; i--)
		g_hash_table_insert(p->pods_of, (gpointer)p->pods[i - 1]->
		    created_by, (gpointer)(uintptr_t)i);
	return place_tables(a, p);
}

/* p's tables and per-node arrays, empty. */
static kv_place *
place_tables(const kv_analysis *a, kv_place *p)
{
	const kv_model *m = a->m;

	if (p->problems == NULL)
		p->problems = g_hash_table_new_full(problem_hash,
		    problem_equal, problem_free, NULL);
	pthread_mutex_init(&p->mu, NULL);
	p->rooms = g_hash_table_new_full(res_hash, res_equal, free,
	    bits_free);
	p->selectors = g_hash_table_new_full(labels_hash, labels_equal,
	    labels_free, NULL);
	p->kernels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	    bits_free);
	p->needs = g_hash_table_new_full(res_hash, res_equal, free, NULL);
	p->nnodes = m->nnodes;
	p->cpu = xcalloc(m->nnodes + 1, sizeof(node_cpu));
	p->vmx = xcalloc(m->nnodes + 1, sizeof(kv_bits));
	p->parent = a->lender != NULL ? a->lender->place : NULL;
	return p;
}

kv_place *
kv_place_sibling(const kv_analysis *a, const kv_place *p)
{
	kv_place *s = xcalloc(1, sizeof(*s));

	s->ntaints = p->ntaints;
	s->taints = p->taints;
	s->taints_lent = true;
	s->npods = p->npods;
	s->pods = p->pods;
	s->pods_of = p->pods_of;
	s->pods_lent = true;
	s->problems = p->problems;
	s->problems_lent = true;
	return place_tables(a, s);
}

/* What a search derives and only it reads: the per-node CPU selectors
 * and vmx sets, the room and kernel sets.  No result points into them. */
static void
drop_caches(kv_place *p)
{
	for (size_t i = 0; i < p->nnodes; i++) {
		free(p->cpu[i].derived.v);
		memset(&p->cpu[i], 0, sizeof(p->cpu[i]));
		kv_bits_free(&p->vmx[i]);
		memset(&p->vmx[i], 0, sizeof(p->vmx[i]));
	}
	g_hash_table_remove_all(p->rooms);
	g_hash_table_remove_all(p->kernels);
}

void
kv_place_share(kv_place *p, kv_place *sib, bool on)
{
	p->problems_mu = sib->problems_mu = on ? &p->mu : NULL;
	if (on)
		return;
	drop_caches(sib);
	p->kept = sib;
}

problem *
kv_place_problem(const kv_place *p, const problem *probe)
{
	problem *pr;

	if (p->problems_mu != NULL)
		pthread_mutex_lock(p->problems_mu);
	pr = g_hash_table_lookup(p->problems, probe);
	if (p->problems_mu != NULL)
		pthread_mutex_unlock(p->problems_mu);
	return pr;
}

problem *
kv_place_keep(const kv_place *p, problem *pr)
{
	problem *have;

	if (p->problems_mu != NULL)
		pthread_mutex_lock(p->problems_mu);
	if ((have = g_hash_table_lookup(p->problems, pr)) == NULL) {
		g_hash_table_add(p->problems, pr);
		if (pr->scratch)
			g_ptr_array_add(p->scratch_made, pr);
	}
	if (p->problems_mu != NULL)
		pthread_mutex_unlock(p->problems_mu);
	if (have == NULL)
		return pr;
	problem_free(pr);
	return have;
}

void
kv_place_free(kv_place *p)
{
	if (p == NULL)
		return;
	kv_place_free(p->kept);
	for (size_t i = 0; !p->taints_lent && i < p->ntaints; i++)
		kv_bits_free(&p->taints[i].nodes);
	if (!p->taints_lent)
		free(p->taints);
	if (!p->pods_lent) {
		free(p->pods);
		if (p->pods_of != NULL)
			g_hash_table_destroy(p->pods_of);
	}
	if (!p->problems_lent)
		g_hash_table_destroy(p->problems);
	if (p->scratch_made != NULL)
		g_ptr_array_free(p->scratch_made, TRUE);
	pthread_mutex_destroy(&p->mu);
	g_hash_table_destroy(p->rooms);
	g_hash_table_destroy(p->selectors);
	g_hash_table_destroy(p->kernels);
	g_hash_table_destroy(p->needs);
	for (size_t i = 0; i < p->nnodes; i++) {
		free(p->cpu[i].derived.v);
		kv_bits_free(&p->vmx[i]);
	}
	free(p->cpu);
	free(p->vmx);
	free(p);
}

const kv_bits *
kv_place_other_kernels(const kv_analysis *a, const kv_place *p,
    const char *kernel)
{
	const kv_model *m = a->m;
	kv_bits *b = g_hash_table_lookup(p->kernels, kernel);

	if (b != NULL)
		return b;
	b = xcalloc(1, sizeof(*b));
	kv_bits_init(b, m->nnodes);
	for (size_t i = 0; i < m->nnodes; i++)
		if (m->nodes[i].kernel != NULL && *m->nodes[i].kernel != '\0' &&
		    m->nodes[i].kernel != kernel)
			kv_bits_set(b, i);
	g_hash_table_insert(p->kernels, (gpointer)kernel, b);
	return b;
}

/* A trial's problems go one by one, from the list kv_place_keep() kept
 * (a walk of the whole table after every trial took 40 ms of the groups
 * phase at 100,000 VMIs). */
void
kv_place_scratch(kv_place *p, bool on)
{
	p->scratch = on;
	if (on && p->scratch_made == NULL)
		p->scratch_made = g_ptr_array_new();
	if (on || p->scratch_made == NULL)
		return;
	for (guint i = 0; i < p->scratch_made->len; i++)
		g_hash_table_remove(p->problems,
		    g_ptr_array_index(p->scratch_made, i));
	g_ptr_array_set_size(p->scratch_made, 0);
}

const kv_res *
kv_place_need(const kv_place *p, const kv_res *need)
{
	kv_res *have = g_hash_table_lookup(p->needs, need);

	if (have == NULL) {
		have = xmalloc(sizeof(*have));
		*have = *need;
		g_hash_table_add(p->needs, have);
	}
	return have;
}

const kv_bits *
kv_place_vmx_lacking(const kv_analysis *a, const kv_place *p, size_t src)
{
	const kv_labels *l = &a->m->nodes[src].labels;
	kv_bits *b = &p->vmx[src];
	char pfx[256];

	/* the lender's (the same nodes and labels) when it has built it;
	 * else this place's own: copies proven at once on threads share
	 * the lender, which none of them may write (fixproof.c) */
	if (p->parent != NULL && p->parent->vmx[src].nwords > 0)
		return &p->parent->vmx[src];
	if (b->nwords > 0)
		return b;
	kv_bits_init(b, a->m->nnodes);
	kv_cpu_key_text(a, "cpu-feature", "vmx-", pfx, sizeof(pfx));
	for (size_t i = 0; i < l->n; i++) {
		const kv_bits *has;

		if (!kv_startswith(l->v[i].key, pfx))
			continue;
		if ((has = kv_index_has(a->index, l->v[i].key)) == NULL) {
			kv_bits_fill(b);
			break;
		}
		for (size_t w = 0; w < b->nwords; w++)
			b->w[w] |= ~has->w[w];
	}
	if (b->nbits % 64)
		b->w[b->nwords - 1] &= ((uint64_t)1 << (b->nbits % 64)) - 1;
	return b;
}

size_t
kv_place_pods(const kv_place *p, const kv_vmi *v, const kv_pod *const **pods)
{
	size_t first, n = 0;

	*pods = NULL;
	if (v->uid == NULL || p->pods_of == NULL ||
	    (first = (uintptr_t)g_hash_table_lookup(p->pods_of,
	    v->uid)) == 0)
		return 0;
	first--;
	while (first + n < p->npods &&
	    strcmp(p->pods[first + n]->created_by, v->uid) == 0)
		n++;
	if (n > 0)
		*pods = &p->pods[first];
	return n;
}

const kv_pod *
kv_place_source_pod(const kv_place *p, const kv_vmi *v)
{
	const kv_pod *const *pods;
	size_t n = kv_place_pods(p, v, &pods);

	/* sorted by creation time: the newest on the VMI's node wins */
	for (size_t i = n; i > 0; i--)
		if (v->node != NULL && pods[i - 1]->node != NULL &&
		    strcmp(pods[i - 1]->node, v->node) == 0)
			return pods[i - 1];
	return NULL;
}


/*
 * Persistent reservation (§2.2): a launcher pod of a VMI with a LUN disk
 * reserving a PVC carries the label pr.kubevirt.io/<pvc uid> and a
 * required pod anti-affinity on it, so two VMIs sharing such a LUN never
 * share a node.  The pod of another VMI on node n that holds one of this
 * VMI's reservation keys, or NULL.
 */
const kv_pod *
kv_pr_conflict(const kv_analysis *a, const kv_vmi *v, const char *node)
{
	const kv_model *m = a->m;

	for (size_t d = 0; d < v->ndisks; d++) {
		const kv_pvc *pvc = NULL;
		const char *key;
		char *k;

		if (!v->disks[d].lun_reservation || v->disks[d].name == NULL)
			continue;
		for (size_t i = 0; i < v->nvolumes && pvc == NULL; i++)
			if (strcmp(v->volumes[i].name, v->disks[d].name) == 0 &&
			    v->volumes[i].claim != NULL)
				pvc = kv_model_pvc(m, v->ns,
				    v->volumes[i].claim);
		if (pvc == NULL || pvc->uid == NULL)
			continue;
		k = xasprintf("pr.kubevirt.io/%s", pvc->uid);
		key = kv_intern_lookup(m->strs, k);
		free(k);
		if (key == NULL)
			continue;	/* no pod carries it */
		for (size_t i = 0; i < m->npods; i++) {
			const kv_pod *pod = &m->pods[i];

			if (pod->node == NULL || strcmp(pod->node, node) != 0 ||
			    !kv_pod_active(pod) || (pod->created_by && v->uid &&
			    strcmp(pod->created_by, v->uid) == 0))
				continue;
			for (size_t j = 0; j < pod->npr; j++)
				if (pod->pr[j] == key)
					return pod;
		}
	}
	return NULL;
}

bool
kv_has_reservation(const kv_vmi *v)
{
	for (size_t d = 0; d < v->ndisks; d++)
		if (v->disks[d].lun_reservation)
			return true;
	return false;
}

/* --- one node at a time ------------------------------------------------- */

/* Whether a node (its labels, or its name for matchFields) satisfies q. */
bool
kv_req_match(const kv_nsreq *q, const kv_labels *labels, const char *node)
{
	const char *v;
	char *end;
	long long have, want;

	if (q->field)
		v = strcmp(q->key, "metadata.name") == 0 ? node : NULL;
	else
		v = kv_labels_get(labels, q->key);
	switch (q->op) {
	case OP_EXISTS:
		return v != NULL;
	case OP_DOESNOTEXIST:
		return v == NULL;
	case OP_IN:
	case OP_NOTIN:
		for (size_t i = 0; v != NULL && i < q->nvalues; i++)
			if (strcmp(q->values[i], v) == 0)
				return q->op == OP_IN;
		return q->op == OP_NOTIN;
	case OP_GT:
	case OP_LT:
		if (v == NULL || q->nvalues != 1)
			return false;
		have = strtoll(v, &end, 10);
		if (*v == '\0' || *end != '\0')
			return false;
		want = strtoll(q->values[0], &end, 10);
		if (*end != '\0')
			return false;
		return q->op == OP_GT ? have > want : have < want;
	}
	return false;
}

bool
kv_tolerates(const kv_vmi *v, const ptaint *t)
{
	for (size_t i = 0; i < v->ntolerations; i++) {
		const kv_toleration *tl = &v->tolerations[i];
		bool exists = tl->op != NULL && strcmp(tl->op, "Exists") == 0;

		if (tl->effect != NULL && *tl->effect &&
		    strcmp(tl->effect, t->effect) != 0)
			continue;
		if (tl->key == NULL || *tl->key == '\0') {
			if (exists)
				return true;
			continue;
		}
		if (strcmp(tl->key, t->key) != 0)
			continue;
		if (exists || strcmp(tl->value ? tl->value : "", t->value) == 0)
			return true;
	}
	return false;
}
