/*
 * podaffinity.c - the target pod's inter-pod constraints (podaffinity.h).
 *
 * The scheduler's rules (InterPodAffinity, PodTopologySpread filters):
 * * a term matches a pod when the pod's namespace is one the term names
 *   (namespaces, namespaceSelector; neither = the term owner's own) and
 *   its labels satisfy the labelSelector (null matches no pod;
 *   matchLabelKeys / mismatchLabelKeys compare with the owner's labels);
 * * required affinity: some running pod that matches every affinity term
 *   runs in the node's domain of each term's topologyKey; a node without
 *   the key fails.  When no pod matches anywhere and the target pod
 *   matches its own terms, every node with the keys passes;
 * * required anti-affinity: no matching pod in the node's domain; a node
 *   without the key passes.  The same for the running pods' required
 *   anti-affinity terms that match the target pod (symmetry);
 * * topology spread (DoNotSchedule): matching pods of the target pod's
 *   namespace counted per domain over the eligible nodes (those with
 *   every constraint's key, matching the node selector and affinity
 *   unless nodeAffinityPolicy Ignore, tolerated when nodeTaintsPolicy
 *   Honor); a node passes when its domain's count, plus one if the target
 *   pod matches, less the fewest of any domain (0 when fewer domains than
 *   minDomains) is at most maxSkew; a node without the key fails.
 */
#include "analyze/rules/podaffinity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/model/index.h"
#include "analyze/rules/podaff_int.h"


/* --- cache -------------------------------------------------------------- */

static guint
entry_hash(gconstpointer p)
{
	const pa_entry *e = p;

	return kv_hash_bytes(e->key, e->len);
}

static gboolean
entry_equal(gconstpointer a, gconstpointer b)
{
	const pa_entry *p = a, *q = b;

	return p->len == q->len && memcmp(p->key, q->key, p->len) == 0;
}

static void
entry_free(gpointer p)
{
	pa_entry *e = p;

	for (size_t i = 0; i < e->nbits; i++)
		kv_bits_free(&e->bits[i]);
	free(e->bits);
	free(e->counts);
	free(e->key);
	free(e);
}

static void
keydom_free(gpointer p)
{
	pa_keydom *k = p;

	free(k->dom);
	free(k);
}

static void
eval_free(gpointer p)
{
	pa_eval *e = p;

	free(e->v);
	if (e->own_labels)
		free(e->labels.v);
	free(e);
}

/* The cached entry of key (taken), or a new one with nbits empty bitsets
 * (*fresh set) that the caller fills. */
static pa_entry *
cache_get(const kv_analysis *a, kv_podaff *pa, kv_buf *key, size_t nbits,
    bool *fresh)
{
	pa_entry probe = { .len = key->len,
	    .key = (unsigned char *)key->data }, *e;

	if ((e = g_hash_table_lookup(pa->cache, &probe)) != NULL) {
		kv_buf_free(key);
		*fresh = false;
		return e;
	}
	e = xcalloc(1, sizeof(*e));
	e->len = key->len;
	e->key = (unsigned char *)key->data;
	e->nbits = nbits;
	e->bits = xcalloc(nbits + 1, sizeof(kv_bits));
	for (size_t i = 0; i < nbits; i++)
		kv_bits_init(&e->bits[i], a->m->nnodes);
	g_hash_table_add(pa->cache, e);
	*fresh = true;
	return e;
}

const pa_keydom *
kv_pa_keydom(const kv_analysis *a, kv_podaff *pa, const char *key)
{
	pa_keydom *k = g_hash_table_lookup(pa->keydoms, key);

	if (k != NULL)
		return k;
	k = xcalloc(1, sizeof(*k));
	k->dom = xcalloc(a->m->nnodes + 1, sizeof(long));
	for (size_t n = 0; n < a->m->nnodes; n++)
		k->dom[n] = -1;
	k->ndom = kv_index_values(a->index, key, &k->values, &k->bits);
	for (size_t d = 0; d < k->ndom; d++)
		KV_BITS_FOREACH(k->bits[d], n)
			k->dom[n] = (long)d;
	g_hash_table_insert(pa->keydoms, (gpointer)key, k);
	return k;
}

/* --- building ----------------------------------------------------------- */

/* pa's running pods and their anti terms, from a's model. */
static void
podaff_pods(const kv_analysis *a, kv_podaff *pa)
{
	const kv_model *m = a->m;
	size_t nsym = 0;

	pa->pods = xcalloc(m->npods + 1, sizeof(pa_pod));
	for (size_t i = 0; i < m->npods; i++) {
		const kv_pod *pod = &m->pods[i];
		const kv_node *node = pod->node ? kv_model_node(m, pod->node) :
		    NULL;

		if (node == NULL || !kv_pod_active(pod))
			continue;
		pa->pods[pa->npods].pod = pod;
		pa->pods[pa->npods].node = (size_t)(node - m->nodes);
		pa->pods[pa->npods].ns_labels = kv_ns_labels(m, pod->ns);
		pa->npods++;
		for (size_t t = 0; t < pod->place.nterms; t++)
			nsym += pod->place.terms[t].anti;
	}
	pa->sym = xcalloc(nsym + 1, sizeof(*pa->sym));
	pa->sym_owner = xcalloc(nsym + 1, sizeof(*pa->sym_owner));
	for (size_t i = 0; i < pa->npods; i++) {
		const kv_podplace *pp = &pa->pods[i].pod->place;

		for (size_t t = 0; t < pp->nterms; t++)
			if (pp->terms[t].anti) {
				pa->sym[pa->nsym] = &pp->terms[t];
				pa->sym_owner[pa->nsym++] = &pa->pods[i];
			}
	}
}

kv_podaff *
kv_podaff_build(const kv_analysis *a, const kv_podaff *sibling)
{
	kv_podaff *pa = xcalloc(1, sizeof(*pa));
	const kv_analysis *l = a->lender;
	const kv_podaff *from = sibling != NULL ? sibling :
	    l != NULL && l->place != NULL ? l->place->podaff : NULL;

	/* the sibling's, or the proof's copy of the same pods, nodes and
	 * namespaces */
	if (sibling != NULL || (from != NULL && l->m->pods == a->m->pods &&
	    l->m->nodes == a->m->nodes &&
	    l->m->namespaces == a->m->namespaces)) {
		pa->lent = true;
		pa->pods = (pa_pod *)from->pods;
		pa->npods = from->npods;
		pa->sym = from->sym;
		pa->sym_owner = from->sym_owner;
		pa->nsym = from->nsym;
	} else
		podaff_pods(a, pa);
	pa->keydoms = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    keydom_free);
	pa->cache = g_hash_table_new_full(entry_hash, entry_equal, entry_free,
	    NULL);
	pa->results = g_hash_table_new_full(entry_hash, entry_equal,
	    entry_free, NULL);
	pa->evals = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	    eval_free);
	return pa;
}

void
kv_podaff_free(kv_podaff *pa)
{
	if (pa == NULL)
		return;
	if (!pa->lent) {
		free(pa->pods);
		free(pa->sym);
		free(pa->sym_owner);
	}
	g_hash_table_destroy(pa->keydoms);
	g_hash_table_destroy(pa->cache);
	g_hash_table_destroy(pa->results);
	g_hash_table_destroy(pa->evals);
	free(pa);
}

void
kv_podaff_free_all(kv_place *p)
{
	for (; p != NULL; p = p->kept) {
		kv_podaff_free(p->podaff);
		p->podaff = NULL;
	}
}

/* --- the constraints of one VMI ----------------------------------------- */

/* The nodes that pass a term of the VMI's own anti-affinity. */
static const pa_entry *
own_anti(const kv_analysis *a, kv_podaff *pa, const char *ns,
    const kv_labels *pl, const kv_podterm *t)
{
	const pa_keydom *kd = kv_pa_keydom(a, pa, t->topology_key);
	kv_buf key = {0};
	pa_entry *e;
	bool fresh;

	kv_buf_append(&key, "A", 1);
	kv_key_ptr(&key, ns);
	kv_key_podterm(&key, t, pl);
	e = cache_get(a, pa, &key, 1, &fresh);
	if (!fresh)
		return e;
	kv_bits_fill(&e->bits[0]);
	for (size_t i = 0; i < pa->npods; i++) {
		const pa_pod *x = &pa->pods[i];
		long d = kd->dom[x->node];

		if (d >= 0 && kv_bits_test(&e->bits[0], x->node) &&
		    kv_podterm_ns(t, ns, x->pod->ns, x->ns_labels) &&
		    kv_podsel_match(&t->sel, pl, &x->pod->labels))
			kv_bits_andnot(&e->bits[0], kd->bits[d]);
	}
	return e;
}

/* Whether pod x (or the target pod: x NULL) matches every affinity term. */
static bool
matches_all(const kv_podplace *pp, const char *ns, const kv_labels *pl,
    const char *x_ns, const kv_labels *x_nsl, const kv_labels *x_labels)
{
	for (size_t t = 0; t < pp->nterms; t++)
		if (!pp->terms[t].anti &&
		    (!kv_podterm_ns(&pp->terms[t], ns, x_ns, x_nsl) ||
		    !kv_podsel_match(&pp->terms[t].sel, pl, x_labels)))
			return false;
	return true;
}

/* The nodes that pass each term of the VMI's own required affinity, in
 * term order (one bitset per affinity term). */
static const pa_entry *
own_affinity(const kv_analysis *a, kv_podaff *pa, const char *ns,
    const kv_labels *pl, const kv_podplace *pp, size_t naff)
{
	const kv_labels *nsl = kv_ns_labels(a->m, ns);
	bool self = matches_all(pp, ns, pl, ns, nsl, pl), any = false, fresh;
	kv_buf key = {0};
	pa_entry *e;
	size_t k;

	kv_buf_append(&key, "F", 1);
	kv_key_ptr(&key, ns);
	kv_key_size(&key, self);
	for (size_t t = 0; t < pp->nterms; t++)
		if (!pp->terms[t].anti)
			kv_key_podterm(&key, &pp->terms[t], pl);
	e = cache_get(a, pa, &key, naff, &fresh);
	if (!fresh)
		return e;
	for (size_t i = 0; i < pa->npods; i++) {
		const pa_pod *x = &pa->pods[i];

		if (!matches_all(pp, ns, pl, x->pod->ns, x->ns_labels,
		    &x->pod->labels))
			continue;
		k = 0;
		for (size_t t = 0; t < pp->nterms; t++) {
			const pa_keydom *kd;
			long d;

			if (pp->terms[t].anti)
				continue;
			kd = kv_pa_keydom(a, pa, pp->terms[t].topology_key);
			if ((d = kd->dom[x->node]) >= 0) {
				kv_bits_or(&e->bits[k], kd->bits[d]);
				any = true;
			}
			k++;
		}
	}
	/* the first of a series of pods affine to each other */
	k = 0;
	for (size_t t = 0; !any && self && t < pp->nterms; t++) {
		const kv_bits *has;

		if (pp->terms[t].anti)
			continue;
		has = kv_index_has(a->index, pp->terms[t].topology_key);
		if (has != NULL)
			kv_bits_copy(&e->bits[k], has);
		k++;
	}
	return e;
}

/* The nodes outside domain d of key (a running pod's anti-affinity). */
static const pa_entry *
outside(const kv_analysis *a, kv_podaff *pa, const char *key, long d)
{
	const pa_keydom *kd = kv_pa_keydom(a, pa, key);
	kv_buf k = {0};
	pa_entry *e;
	bool fresh;

	kv_buf_append(&k, "S", 1);
	kv_key_ptr(&k, kd);
	kv_buf_append(&k, &d, sizeof(d));
	e = cache_get(a, pa, &k, 1, &fresh);
	if (fresh) {
		kv_bits_fill(&e->bits[0]);
		kv_bits_andnot(&e->bits[0], kd->bits[d]);
	}
	return e;
}

/* Terms target.c judges already: the anti-affinity of the VMI's own pods
 * (created-by) and the persistent reservations. */
static bool
judged_elsewhere(const kv_podterm *t, const kv_pod *owner, const kv_vmi *v)
{
	for (size_t i = 0; i < t->sel.nreqs; i++)
		if (kv_startswith(t->sel.reqs[i].key, "pr.kubevirt.io/"))
			return true;
	if (owner->created_by == NULL || v->uid == NULL ||
	    strcmp(owner->created_by, v->uid) != 0)
		return false;
	for (size_t f = 0; f < KV_NFLAVORS; f++) {
		const char *cb = kv_flavors[f]->keys[KEY_CREATED_BY];

		if (kv_labels_get(&t->sel.match, cb) != NULL)
			return true;
		for (size_t i = 0; i < t->sel.nreqs; i++)
			if (strcmp(t->sel.reqs[i].key, cb) == 0)
				return true;
	}
	return false;
}

/* The eligible nodes of spread s: every DoNotSchedule key of the VMI's,
 * the node selector and affinity unless ignored, tolerated taints when
 * honoured. */
static void
eligible_nodes(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const problem *prob, const kv_spread *s, kv_bits *out)
{
	const kv_podplace *pp = &r->vmi->pod_place;

	if (s->affinity_ignore)
		kv_bits_fill(out);
	else
		kv_bits_copy(out, s->taints_honor ? &prob->place : &prob->sel);
	for (size_t i = 0; s->affinity_ignore && s->taints_honor &&
	    i < p->ntaints; i++)
		if (!kv_tolerates(r->vmi, &p->taints[i]))
			kv_bits_andnot(out, &p->taints[i].nodes);
	for (size_t i = 0; i < pp->nspreads; i++) {
		const kv_bits *has;

		if (!pp->spreads[i].do_not_schedule ||
		    !kv_podsel_judged(a->m, &pp->spreads[i].sel))
			continue;
		has = kv_index_has(a->index, pp->spreads[i].topology_key);
		if (has == NULL)
			kv_bits_zero(out);
		else
			kv_bits_and(out, has);
	}
}

/* The nodes that pass spread s, and the counts per domain. */
static const pa_entry *
spread_entry(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const problem *prob, const kv_labels *pl, const kv_spread *s)
{
	kv_podaff *pa = p->podaff;
	const pa_keydom *kd = kv_pa_keydom(a, pa, s->topology_key);
	const char *ns = r->vmi->ns;
	size_t self = kv_podsel_match(&s->sel, pl, pl), ndom = 0;
	kv_buf key = {0};
	kv_bits elig, in;
	pa_entry *e;
	bool fresh;
	int64_t flags[4] = { s->max_skew, s->min_domains, s->affinity_ignore,
	    s->taints_honor };

	/* the problem by its key, not its address: a fix's trial problems
	 * are freed when it ends (kv_place_scratch), and another may come
	 * at the same address */
	kv_buf_append(&key, "P", 1);
	kv_key_size(&key, prob->len);
	kv_buf_append(&key, prob->key, prob->len);
	kv_key_ptr(&key, ns);
	kv_key_ptr(&key, s->topology_key);
	kv_buf_append(&key, flags, sizeof(flags));
	kv_key_size(&key, self);
	kv_key_podsel(&key, &s->sel, pl);
	for (size_t i = 0; i < r->vmi->pod_place.nspreads; i++)
		kv_key_ptr(&key, r->vmi->pod_place.spreads[i].topology_key);
	e = cache_get(a, pa, &key, 1, &fresh);
	if (!fresh)
		return e;
	e->counts = xcalloc(kd->ndom + 1, sizeof(size_t));
	kv_bits_init(&elig, a->m->nnodes);
	kv_bits_init(&in, a->m->nnodes);
	eligible_nodes(a, p, r, prob, s, &elig);
	for (size_t i = 0; i < pa->npods; i++) {
		const pa_pod *x = &pa->pods[i];

		/* terminating pods are bypassed (kubernetes 02850301e6
		 * pkg/scheduler/framework/plugins/podtopologyspread/
		 * common.go countPodsMatchSelector, "see #87621") */
		if (kd->dom[x->node] >= 0 && kv_bits_test(&elig, x->node) &&
		    !x->pod->terminating && strcmp(x->pod->ns, ns) == 0 &&
		    kv_podsel_match(&s->sel, pl, &x->pod->labels))
			e->counts[kd->dom[x->node]]++;
	}
	e->min = SIZE_MAX;
	for (size_t d = 0; d < kd->ndom; d++) {
		kv_bits_copy(&in, kd->bits[d]);
		kv_bits_and(&in, &elig);
		if (!kv_bits_any(&in))
			continue;
		ndom++;
		if (e->counts[d] < e->min)
			e->min = e->counts[d];
	}
	if (ndom == 0 || (s->min_domains > 0 &&
	    ndom < (size_t)s->min_domains))
		e->min = 0;
	for (size_t d = 0; d < kd->ndom; d++)
		if (e->counts[d] + self <= e->min + (size_t)s->max_skew)
			kv_bits_or(&e->bits[0], kd->bits[d]);
	kv_bits_free(&elig);
	kv_bits_free(&in);
	return e;
}

static void
eval_push(pa_eval *ev, size_t *cap, enum pa_kind kind, const kv_bits *ok)
{
	for (size_t i = 0; i < ev->n; i++)
		if (ev->v[i].ok == ok)
			return;		/* the same nodes for the same reason */
	KV_GROW(ev->v, *cap, ev->n + 1);
	memset(&ev->v[ev->n], 0, sizeof(pa_con));
	ev->v[ev->n].kind = kind;
	ev->v[ev->n].ok = ok;
	ev->n++;
}

static int
label_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_label *)x)->key, ((const kv_label *)y)->key);
}

/* The target pod's labels: the source launcher pod's, else the VMI's
 * with the launcher labels KubeVirt adds (§2.2). */
static void
target_labels(const kv_analysis *a, const kv_vmires *r, pa_eval *ev)
{
	const kv_vmi *v = r->vmi;
	const kv_flavor *f = a->m->flavor;
	size_t n = 0;

	if (r->source_pod != NULL) {
		ev->labels = r->source_pod->labels;
		return;
	}
	ev->own_labels = true;
	ev->labels.v = xcalloc(v->labels.n + 3, sizeof(kv_label));
	for (size_t i = 0; i < v->labels.n; i++)
		if (strcmp(v->labels.v[i].key, f->keys[KEY_LAUNCHER]) != 0 &&
		    strcmp(v->labels.v[i].key, f->keys[KEY_CREATED_BY]) != 0)
			ev->labels.v[n++] = v->labels.v[i];
	ev->labels.v[n].key = f->keys[KEY_LAUNCHER];
	ev->labels.v[n++].value = "virt-launcher";
	if (v->uid != NULL) {
		ev->labels.v[n].key = f->keys[KEY_CREATED_BY];
		ev->labels.v[n++].value = v->uid;
	}
	ev->labels.n = n;
	kv_qsort(ev->labels.v, n, sizeof(kv_label), label_cmp);
}

/* The running pods' anti-affinity that matches the target pod. */
static void
eval_symmetry(const kv_analysis *a, kv_podaff *pa, const kv_vmires *r,
    pa_eval *ev, size_t *cap)
{
	const kv_vmi *v = r->vmi;
	const kv_labels *nsl = kv_ns_labels(a->m, v->ns);

	for (size_t i = 0; i < pa->nsym; i++) {
		const kv_podterm *t = pa->sym[i];
		const pa_pod *x = pa->sym_owner[i];
		long d = kv_pa_keydom(a, pa, t->topology_key)->dom[x->node];

		if (d < 0 || judged_elsewhere(t, x->pod, v) ||
		    !kv_podterm_ns(t, x->pod->ns, v->ns, nsl) ||
		    !kv_podsel_match(&t->sel, &x->pod->labels, &ev->labels))
			continue;
		eval_push(ev, cap, PA_SYMMETRY, &outside(a, pa, t->topology_key,
		    d)->bits[0]);
		ev->v[ev->n - 1].term = t;
		ev->v[ev->n - 1].owner = x;
	}
}

/* Every judged constraint of r, in explain order: affinity, the VMI's
 * anti-affinity, the running pods' anti-affinity, topology spread. */
static pa_eval *
eval_build(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const problem *prob)
{
	kv_podaff *pa = p->podaff;
	const kv_podplace *pp = &r->vmi->pod_place;
	pa_eval *ev = xcalloc(1, sizeof(*ev));
	size_t cap = 0, naff = 0;

	target_labels(a, r, ev);
	for (size_t t = 0; t < pp->nterms; t++)
		naff += !pp->terms[t].anti;
	if (naff > 0 && kv_affinity_judged(a->m, pp)) {
		const pa_entry *e = own_affinity(a, pa, r->vmi->ns, &ev->labels,
		    pp, naff);
		size_t k = 0;

		for (size_t t = 0; t < pp->nterms; t++)
			if (!pp->terms[t].anti) {
				eval_push(ev, &cap, PA_AFFINITY, &e->bits[k++]);
				ev->v[ev->n - 1].term = &pp->terms[t];
			}
	}
	for (size_t t = 0; t < pp->nterms; t++)
		if (pp->terms[t].anti &&
		    kv_podsel_judged(a->m, &pp->terms[t].sel)) {
			eval_push(ev, &cap, PA_ANTI, &own_anti(a, pa,
			    r->vmi->ns, &ev->labels, &pp->terms[t])->bits[0]);
			ev->v[ev->n - 1].term = &pp->terms[t];
		}
	eval_symmetry(a, pa, r, ev, &cap);
	for (size_t i = 0; i < pp->nspreads; i++) {
		const kv_spread *s = &pp->spreads[i];
		const pa_entry *e;

		if (!s->do_not_schedule || !kv_podsel_judged(a->m, &s->sel))
			continue;
		e = spread_entry(a, p, r, prob, &ev->labels, s);
		eval_push(ev, &cap, PA_SPREAD, &e->bits[0]);
		ev->v[ev->n - 1].spread = s;
		ev->v[ev->n - 1].entry = e;
	}
	return ev;
}

/* The bitset with the content of b, once per content. */
static const kv_bits *
result(kv_podaff *pa, const kv_bits *b)
{
	kv_buf key = {0};
	pa_entry probe, *e;

	kv_buf_append(&key, b->w, b->nwords * sizeof(uint64_t));
	probe.len = key.len;
	probe.key = (unsigned char *)key.data;
	if ((e = g_hash_table_lookup(pa->results, &probe)) != NULL) {
		kv_buf_free(&key);
		return &e->bits[0];
	}
	e = xcalloc(1, sizeof(*e));
	e->len = key.len;
	e->key = (unsigned char *)key.data;
	e->nbits = 1;
	e->bits = xcalloc(1, sizeof(kv_bits));
	kv_bits_init(&e->bits[0], b->nbits);
	kv_bits_copy(&e->bits[0], b);
	g_hash_table_add(pa->results, e);
	return &e->bits[0];
}

void
kv_podaff_apply(const kv_analysis *a, const kv_place *p,
    const kv_vmires *r, const problem *prob, const kv_bits **tgt,
    const kv_bits **place)
{
	pa_eval *ev;
	kv_bits ok, b;

	*tgt = &prob->tgt;
	*place = &prob->place;
	ev = eval_build(a, p, r, prob);
	if (ev->n == 0) {
		eval_free(ev);
		g_hash_table_remove(p->podaff->evals, r);
		return;
	}
	kv_bits_init(&ok, a->m->nnodes);
	kv_bits_init(&b, a->m->nnodes);
	kv_bits_fill(&ok);
	for (size_t i = 0; i < ev->n; i++)
		kv_bits_and(&ok, ev->v[i].ok);
	kv_bits_copy(&b, &prob->tgt);
	kv_bits_and(&b, &ok);
	*tgt = result(p->podaff, &b);
	kv_bits_copy(&b, &prob->place);
	kv_bits_and(&b, &ok);
	*place = result(p->podaff, &b);
	kv_bits_free(&ok);
	kv_bits_free(&b);
	/* kept for explain: only the analysis's own results (a fix's trial
	 * search passes a copy that does not outlive the call) */
	if (r >= a->vmis && r < a->vmis + a->nvmis)
		g_hash_table_replace(p->podaff->evals, (gpointer)r, ev);
	else
		eval_free(ev);
}
