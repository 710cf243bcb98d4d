/*
 * target.c - migration target pod selectors and target search (target.h).
 */
#include "analyze/rules/target.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/rules/capacity.h"
#include "analyze/model/index.h"
#include "analyze/rules/place.h"
#include "analyze/rules/podaffinity.h"


/* --- selector rendering ------------------------------------------------- */

typedef struct selbuild {
	kv_intern *strs;
	size_t n, cap;
	kv_label *v;
} selbuild;

static void sel_put(selbuild *s, const char *key, const char *value,
    size_t among);

static void
sel_set(selbuild *s, const char *key, const char *value)
{
	sel_put(s, kv_intern_str(s->strs, key), kv_intern_str(s->strs, value),
	    s->n);
}

/* A label of the model's own: interned in its table already (model.h),
 * so no lookup, which takes the table's lock while two threads judge. */
static void
sel_set_model(selbuild *s, const kv_label *l)
{
	sel_put(s, l->key, l->value, s->n);
}

static void
sel_setf(selbuild *s, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
sel_setf(selbuild *s, const char *value, const char *fmt, ...)
{
	va_list ap;
	char key[512];

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	sel_set(s, key, value);
}

/* The entry of key in an unsorted selector being built, or NULL. */
static const kv_label *
sel_find(const kv_label *v, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].key, key) == 0)
			return &v[i];
	return NULL;
}

static bool
sel_has_prefix(const selbuild *s, const char *prefix)
{
	for (size_t i = 0; i < s->n; i++)
		if (kv_startswith(s->v[i].key, prefix))
			return true;
	return false;
}

static int
label_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_label *)x)->key, ((const kv_label *)y)->key);
}

static void
add_dne(const kv_analysis *a, kv_affinity *aff, const char *key)
{
	kv_nsterm *t;

	if (aff->nterms == 0) {
		aff->terms = xcalloc(1, sizeof(kv_nsterm));
		aff->nterms = 1;
	}
	t = &aff->terms[0];
	t->reqs = xreallocarray(t->reqs, t->nreqs + 1, sizeof(kv_nsreq));
	memset(&t->reqs[t->nreqs], 0, sizeof(kv_nsreq));
	t->reqs[t->nreqs].key = kv_intern_str(a->m->strs, key);
	t->reqs[t->nreqs].op = OP_DOESNOTEXIST;
	t->nreqs++;
}

static bool
needs_tsc(const kv_vmi *v)
{
	for (size_t i = 0; i < v->nfeatures; i++)
		if (strcmp(v->features[i].name, "invtsc") == 0 &&
		    (strcmp(v->features[i].policy, "require") == 0 ||
		    strcmp(v->features[i].policy, "force") == 0))
			return true;
	return (v->hyperv_enabled & HV_REENLIGHTENMENT) != 0;
}

static const char *const hv_names[] = {
	"vpindex", "runtime", "reset", "synic", "synictimer", "frequencies",
	"reenlightenment", "tlbflush", "ipi",
};

/* §2.2: what every launcher pod of this VMI gets. */
/* The machine-type selector (since v1.5.1/v1.6.0, versions.c). */
static void
machine_selector(const kv_vmi *v, const char *dom, selbuild *s)
{
	if (v->machine_status != NULL && *v->machine_status)
		sel_setf(s, "true", "machine-type.%s/%s", dom,
		    v->machine_status);
	else if (v->machine_spec != NULL && *v->machine_spec)
		sel_setf(s, "true", "machine-type.%s/%s", dom, v->machine_spec);
}

/* The named model's and the required features' selectors: the keys of
 * KubeVirt's labeller since v0.40.0, node-feature-discovery's before
 * (versions.c). */
static void
cpu_selectors(const kv_analysis *a, const kv_vmires *r, selbuild *s)
{
	const kv_vmi *v = r->vmi;
	const char *dom = a->cfg.domain;
	bool kv = kv_since_on(a, SINCE_KUBEVIRT_CPU_LABELS);

	/* the DVP fork gives generic models no model label (patch 030) */
	if (r->mode == MODE_NAMED &&
	    !kv_flavor_unlabelled_model(a->m->flavor, r->model))
		sel_setf(s, "true", kv ? "cpu-model.%s/%s" :
		    "feature.node.kubernetes.io/cpu-model-%.0s%s", dom,
		    r->model);
	if (v->cpu_model == NULL || *v->cpu_model == '\0')
		return;
	for (size_t i = 0; i < v->nfeatures; i++)
		if (*v->features[i].policy == '\0' ||
		    strcmp(v->features[i].policy, "require") == 0)
			sel_setf(s, "true", kv ? "cpu-feature.%s/%s" :
			    "feature.node.kubernetes.io/cpu-feature-%.0s%s",
			    dom, v->features[i].name);
}

static void
render_template(const kv_analysis *a, const kv_vmires *r, selbuild *s)
{
	const kv_vmi *v = r->vmi;
	const kv_config *cfg = &a->cfg;
	const char *dom = cfg->domain, *pfx = cfg->kv_prefix;
	/* realtime/sev: "" before v1.5.0 (versions.c) */
	const char *lsv = kv_since_on(a, SINCE_SELECTOR_TRUE) ? "true" : "";

	sel_setf(s, "true", "%sschedulable", pfx);
	if (v->arch != NULL && *v->arch != '\0') {
		char arch[64];
		size_t i;

		for (i = 0; v->arch[i] && i < sizeof(arch) - 1; i++)
			arch[i] = (char)tolower((unsigned char)v->arch[i]);
		arch[i] = '\0';
		sel_set(s, "kubernetes.io/arch", arch);
	}
	for (size_t i = 0; i < a->m->cluster.node_selectors.n; i++)
		sel_set_model(s, &a->m->cluster.node_selectors.v[i]);
	for (size_t i = 0; i < v->node_selector.n; i++)
		sel_set_model(s, &v->node_selector.v[i]);
	/* the key is kubevirt.io/cpumanager from v1.8.0 (versions.c) */
	if (v->dedicated_cpu && kv_since_on(a, SINCE_CPUMANAGER_KEY))
		sel_setf(s, "true", "%scpumanager", pfx);
	else if (v->dedicated_cpu)
		sel_set(s, "cpumanager", "true");
	if (cfg->gate_hyperv_strict) {
		for (size_t i = 0; i < 9; i++)
			if (v->hyperv_enabled & (1u << i))
				sel_setf(s, "true", "hyperv.%s/%s", dom,
				    hv_names[i]);
		if (v->evmcs)
			sel_setf(s, "true", "cpu-vendor.%s/Intel", dom);
	}
	if (kv_cpu_selectors_on(a))
		cpu_selectors(a, r, s);
	if (kv_since_on(a, SINCE_MACHINE_TYPE))
		machine_selector(v, dom, s);
	if (needs_tsc(v) && v->tsc_hint > 0) {
		char hz[32];

		snprintf(hz, sizeof(hz), "%lld", (long long)v->tsc_hint);
		sel_setf(s, "true", "scheduling.%s/tsc-frequency-%s", dom, hz);
	}
	if (v->realtime)
		sel_setf(s, lsv, "%srealtime", pfx);
	if (v->sev || v->snp)
		sel_setf(s, lsv, "%ssev", pfx);
	if (v->sev_es)
		sel_setf(s, lsv, "%ssev-es", pfx);
	if (v->snp)
		sel_setf(s, "true", "%ssev-snp", pfx);
	if (v->any_launch_security && v->arch && strcmp(v->arch, "s390x") == 0)
		sel_setf(s, "true", "%ss390-pv", pfx);
	if (v->tdx)
		sel_setf(s, "true", "%stdx", pfx);
}

/* An entry whose strings are interned already and whose key can only
 * be among the first `among` entries. */
static void
sel_put(selbuild *s, const char *key, const char *value, size_t among)
{
	for (size_t i = 0; i < among; i++)
		if (s->v[i].key == key) {
			s->v[i].value = value;
			return;
		}
	KV_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n].key = key;
	s->v[s->n].value = value;
	s->n++;
}

/* What node src's CPU labels give a target pod (node_cpu, place.h),
 * derived on first use, or the lender's (a proof's copy borrows it only
 * when the nodes and the configuration are the lender's). */
static const node_cpu *
node_cpu_of(const kv_analysis *a, const kv_place *p, const kv_node *src)
{
	size_t at = (size_t)(src - a->m->nodes);
	node_cpu *nc = &p->cpu[at];
	char feat[256], mig[256], hm[256], req[256], vendor[256];
	selbuild s = { .strs = a->m->strs };

	if (nc->done)
		return nc;
	if (p->parent != NULL && p->parent->nnodes == p->nnodes &&
	    p->parent->cpu[at].done)
		return &p->parent->cpu[at];
	kv_cpu_key_text(a, "cpu-feature", "", feat, sizeof(feat));
	kv_cpu_key_text(a, "cpu-model-migration", "", mig, sizeof(mig));
	kv_cpu_key_text(a, "host-model-cpu", "", hm, sizeof(hm));
	kv_cpu_key_text(a, "host-model-required-features", "", req,
	    sizeof(req));
	kv_cpu_key_text(a, "cpu-vendor", "", vendor, sizeof(vendor));
	for (size_t i = 0; i < src->labels.n; i++) {
		const kv_label *l = &src->labels.v[i];

		if (kv_startswith(l->key, hm)) {
			/* host-model-cpu.* itself before v0.54.0 */
			sel_setf(&s, l->value, "%s%s",
			    kv_since_on(a, SINCE_CPU_MODEL_MIGRATION) ? mig :
			    hm, l->key + strlen(hm));
			nc->host_model = true;
		} else if (kv_startswith(l->key, req))
			sel_setf(&s, l->value, "%s%s", feat,
			    l->key + strlen(req));
		else if (kv_startswith(l->key, vendor) && nc->nvendors++ == 0)
			nc->vendor = l->key;
	}
	nc->derived = (kv_labels){ s.n, s.v };
	nc->done = true;
	return nc;
}

/* §2.3 step 4: host-model selectors, copied or derived. */
static void
render_host_model(const kv_analysis *a, const kv_place *p,
    const kv_node *src, const kv_pod *pod, selbuild *s, kv_target_info *ti)
{
	char feat[256], mig[256];

	kv_cpu_key_text(a, "cpu-feature", "", feat, sizeof(feat));
	kv_cpu_key_text(a, "cpu-model-migration", "", mig, sizeof(mig));

	/* The quirk of §2.3 step 4: the template already carries the VMI's
	 * own required features, so a host-model VMI that declares any
	 * counts as "migrated before" and nothing is derived.  Without the
	 * source pod in the snapshot, the rendered template stands in.
	 * Nothing is copied before v0.54.0 (versions.c). */
	if (!kv_since_on(a, SINCE_CPU_MODEL_MIGRATION))
		pod = NULL;
	else if (pod == NULL)
		for (size_t i = 0; i < s->n; i++)
			if (kv_startswith(s->v[i].key, feat))
				ti->host_model_copied = true;
	if (pod != NULL)
		for (size_t i = 0; i < pod->node_selector.n; i++) {
			const kv_label *l = &pod->node_selector.v[i];

			if (strstr(l->key, feat) || strstr(l->key, mig)) {
				sel_set_model(s, l);
				ti->host_model_copied = true;
			}
		}
	if (!ti->host_model_copied && src != NULL) {
		const node_cpu *nc = node_cpu_of(a, p, src);
		size_t before = s->n;	/* the derived keys are unique */

		for (size_t i = 0; i < nc->derived.n; i++)
			sel_put(s, nc->derived.v[i].key, nc->derived.v[i].value,
			    before);
		ti->host_model_missing = !nc->host_model;
	}
}

/* Sort a selector's labels by key (they are unique: sel_put).  Most come
 * in runs already in order (the model's label lists are sorted by key,
 * and so, but for its first, are a node's derived labels), which merge
 * pairwise until one is left; a list of many short runs goes to qsort. */
#define SEL_RUNS 8

static void
sel_sort(selbuild *s)
{
	size_t start[SEL_RUNS + 1], nruns = 1;
	kv_label *tmp, *from = s->v, *to;

	start[0] = 0;
	for (size_t i = 1; i < s->n; i++)
		if (label_cmp(&s->v[i - 1], &s->v[i]) > 0) {
			if (nruns == SEL_RUNS) {
				kv_qsort(s->v, s->n, sizeof(kv_label),
				    label_cmp);
				return;
			}
			start[nruns++] = i;
		}
	if (nruns == 1)
		return;
	tmp = xreallocarray(NULL, s->n, sizeof(kv_label));
	to = tmp;
	while (nruns > 1) {
		size_t out = 0, k = 0;

		start[nruns] = s->n;
		for (; k + 1 < nruns; k += 2) {
			size_t i = start[k], j = start[k + 1], o = i;

			while (i < start[k + 1] && j < start[k + 2])
				to[o++] = label_cmp(&from[i], &from[j]) < 0 ?
				    from[i++] : from[j++];
			while (i < start[k + 1])
				to[o++] = from[i++];
			while (j < start[k + 2])
				to[o++] = from[j++];
			start[out++] = start[k];
		}
		if (k < nruns) {	/* an odd run out: copied as it is */
			memcpy(to + start[k], from + start[k],
			    (s->n - start[k]) * sizeof(kv_label));
			start[out++] = start[k];
		}
		nruns = out;
		to = from;
		from = from == s->v ? tmp : s->v;
	}
	if (from != s->v)
		memcpy(s->v, from, s->n * sizeof(kv_label));
	free(tmp);
}

/* Identical selector lists (most VMIs of a pool and a source class)
 * share one array, owned by the placement context. */
static void
sel_share(const kv_place *p, selbuild *s, kv_labels *out)
{
	kv_labels probe = { s->n, s->v }, *have;

	if (s->n == 0) {
		free(s->v);
		*out = (kv_labels){ 0, NULL };
		return;
	}
	if ((have = g_hash_table_lookup(p->selectors, &probe)) != NULL) {
		free(s->v);
		*out = *have;
		return;
	}
	have = xmalloc(sizeof(*have));
	have->n = s->n;
	have->v = xreallocarray(s->v, s->n, sizeof(kv_label));
	g_hash_table_add(p->selectors, have);
	*out = *have;
}

/* --- target search ------------------------------------------------------ */

static void
key_put(kv_buf *b, const void *p, size_t n)
{
	kv_buf_append(b, p, n);
}

static void
key_ptr(kv_buf *b, const void *p)
{
	key_put(b, &p, sizeof(p));
}

static void
key_affinity(kv_buf *b, const kv_affinity *aff)
{
	key_put(b, &aff->nterms, sizeof(aff->nterms));
	for (size_t t = 0; t < aff->nterms; t++) {
		const kv_nsterm *term = &aff->terms[t];

		key_put(b, &term->nreqs, sizeof(term->nreqs));
		for (size_t q = 0; q < term->nreqs; q++) {
			const kv_nsreq *rq = &term->reqs[q];
			int op = (int)rq->op + (rq->field ? 100 : 0);

			key_ptr(b, rq->key);
			key_put(b, &op, sizeof(op));
			key_put(b, &rq->nvalues, sizeof(rq->nvalues));
			for (size_t k = 0; k < rq->nvalues; k++)
				key_ptr(b, rq->values[k]);
		}
	}
}

/* The placement problem of r: selectors, affinity, tolerations and what
 * the target pod needs.  Strings are interned, so pointers stand for
 * their content. */
static void
problem_key(const kv_vmires *r, const kv_res *need, const kv_volpv *vols,
    size_t nvols, kv_buf *b)
{
	const kv_vmi *v = r->vmi;

	key_put(b, &r->selectors.n, sizeof(r->selectors.n));
	for (size_t i = 0; i < r->selectors.n; i++) {
		key_ptr(b, r->selectors.v[i].key);
		key_ptr(b, r->selectors.v[i].value);
	}
	key_affinity(b, &r->extra_affinity);
	key_affinity(b, r->affinity);
	key_put(b, &v->ntolerations, sizeof(v->ntolerations));
	for (size_t i = 0; i < v->ntolerations; i++) {
		key_ptr(b, v->tolerations[i].key);
		key_ptr(b, v->tolerations[i].op);
		key_ptr(b, v->tolerations[i].value);
		key_ptr(b, v->tolerations[i].effect);
	}
	key_put(b, &need->cpu_millis, sizeof(need->cpu_millis));
	key_put(b, &need->memory, sizeof(need->memory));
	key_put(b, &need->pods, sizeof(need->pods));
	key_put(b, need->ext, sizeof(need->ext));
	/* the volumes' limits by content: PVs of one node share */
	for (size_t i = 0; i < nvols; i++) {
		const kv_pv *pv = vols[i].pv;

		key_affinity(b, &pv->affinity);
		key_put(b, &pv->zones.n, sizeof(pv->zones.n));
		for (size_t k = 0; k < pv->zones.n; k++) {
			key_ptr(b, pv->zones.v[k].key);
			key_ptr(b, pv->zones.v[k].value);
		}
	}
}

/* The nodes with room for need (kv_room_free), once per need; NULL when
 * the need is nothing. */
static const kv_bits *
room_bits(const kv_analysis *a, const kv_place *p, const kv_res *need)
{
	kv_bits *b;
	kv_res *key;

	if (kv_res_none(need))
		return NULL;
	if ((b = g_hash_table_lookup(p->rooms, need)) != NULL)
		return b;
	b = xcalloc(1, sizeof(*b));
	kv_bits_init(b, a->m->nnodes);
	for (size_t n = 0; n < a->m->nnodes; n++) {
		kv_res free = kv_room_free(a, n);

		if (kv_res_fits(&free, need))
			kv_bits_set(b, n);
	}
	key = xmalloc(sizeof(*key));
	*key = *need;
	g_hash_table_insert(p->rooms, key, b);
	return b;
}

/* Solve a placement problem with bitsets: the same constraints
 * kv_target_explain() replays node by node, except the source node and
 * the VMI's own pods, which set_nodes() takes out per VMI. */
static void
solve(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const kv_res *need, const kv_volpv *vols, size_t nvols, problem *pr)
{
	const kv_model *m = a->m;
	kv_bits *cpu = &pr->cpu, *tgt = &pr->tgt;
	const kv_bits *room;

	kv_bits_init(cpu, m->nnodes);
	kv_bits_init(tgt, m->nnodes);
	kv_bits_init(&pr->place, m->nnodes);
	kv_bits_init(&pr->sel, m->nnodes);
	kv_bits_fill(cpu);
	for (size_t i = 0; i < r->selectors.n; i++) {
		const kv_label *l = &r->selectors.v[i];
		const kv_bits *b;

		/* node-feature-discovery's CPU keys before v0.40.0 */
		if (!kv_startswith(l->key, "feature.node.kubernetes.io/cpu-") &&
		    ((!kv_startswith(l->key, "cpu-") &&
		    !kv_startswith(l->key, "host-model-")) ||
		    strchr(l->key, '/') == NULL ||
		    strstr(l->key, a->cfg.domain) == NULL))
			continue;
		if ((b = kv_index_eq(a->index, l->key, l->value)) == NULL)
			kv_bits_zero(cpu);
		else
			kv_bits_and(cpu, b);
	}
	for (size_t t = 0; t < r->extra_affinity.nterms; t++)
		for (size_t q = 0; q < r->extra_affinity.terms[t].nreqs; q++) {
			const kv_bits *b = kv_index_has(a->index,
			    r->extra_affinity.terms[t].reqs[q].key);

			if (b != NULL)
				kv_bits_andnot(cpu, b);
		}

	/* every selector, then affinity, taints, and room apart */
	kv_bits_copy(tgt, cpu);
	for (size_t i = 0; i < r->selectors.n && kv_bits_any(tgt); i++) {
		const kv_bits *b = kv_index_eq(a->index, r->selectors.v[i].key,
		    r->selectors.v[i].value);

		if (b == NULL)
			kv_bits_zero(tgt);
		else
			kv_bits_and(tgt, b);
	}
	if (kv_bits_any(tgt)) {
		kv_and_affinity(a, r->affinity, kv_appended(r), tgt);
	}
	kv_and_volumes(a->m, vols, nvols, tgt);
	kv_bits_copy(&pr->sel, tgt);
	for (size_t i = 0; i < p->ntaints && kv_bits_any(tgt); i++)
		if (!kv_tolerates(r->vmi, &p->taints[i]))
			kv_bits_andnot(tgt, &p->taints[i].nodes);
	kv_bits_copy(&pr->place, tgt);
	if ((room = room_bits(a, p, need)) != NULL)
		kv_bits_and(tgt, room);
}

/* start: the problem of a fresh launcher pod, every volume's PV. */
static problem *
find_problem(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const kv_res *need, bool start)
{
	kv_buf key = {0};
	problem probe, *pr;
	size_t nvols;
	kv_volpv *vols = kv_vmi_pvs(a->m, r, start, &nvols);

	problem_key(r, need, vols, nvols, &key);
	probe.len = key.len;
	probe.key = (unsigned char *)key.data;
	if ((pr = kv_place_problem(p, &probe)) != NULL ||
	    (p->parent != NULL && (pr = g_hash_table_lookup(
	    p->parent->problems, &probe)) != NULL)) {
		kv_buf_free(&key);
		free(vols);
		return pr;
	}
	pr = xcalloc(1, sizeof(*pr));
	pr->len = key.len;
	pr->key = (unsigned char *)key.data;
	pr->scratch = p->scratch;
	solve(a, p, r, need, vols, nvols, pr);
	free(vols);
	return kv_place_keep(p, pr);
}

static int
size_cmp(const void *x, const void *y)
{
	size_t p = *(const size_t *)x, q = *(const size_t *)y;

	return p < q ? -1 : p > q;
}

/* out = base minus the excluded nodes (those in base, sorted, once). */
static void
set_nodes(kv_nodeset *out, const kv_bits *base, const size_t *excl,
    size_t nexcl)
{
	memset(out, 0, sizeof(*out));
	out->base = base;
	out->n = kv_bits_count(base);
	for (size_t i = 0; i < nexcl; i++) {
		size_t k;

		if (!kv_bits_test(base, excl[i]))
			continue;
		for (k = 0; k < out->nexcl && out->excl[k] != excl[i]; k++)
			;
		if (k < out->nexcl)
			continue;
		out->excl = xreallocarray(out->excl, out->nexcl + 1,
		    sizeof(size_t));
		out->excl[out->nexcl++] = excl[i];
		out->n--;
	}
	if (out->nexcl > 1)
		qsort(out->excl, out->nexcl, sizeof(size_t), size_cmp);
}

/* What every launcher pod's required node affinity rejects (§2.2,
 * template.go:228-244): the obsolete host-model label and each forbidden
 * feature. */
static void
render_rejects(const kv_analysis *a, kv_vmires *r)
{
	const kv_vmi *v = r->vmi;

	if (v->cpu_model == NULL || *v->cpu_model == '\0' ||
	    r->mode == MODE_HOST_MODEL) {
		add_dne(a, &r->extra_affinity, a->m->flavor->obsolete_key);
	}
	for (size_t i = 0; kv_cpu_selectors_on(a) && i < v->nfeatures; i++)
		if (strcmp(v->features[i].policy, "forbid") == 0) {
			char *k = xasprintf("cpu-feature.%s/%s", a->cfg.domain,
			    v->features[i].name);

			add_dne(a, &r->extra_affinity, k);
			free(k);
		}
}

/* The target pod's node selector and extra required affinity. */
static void
render_selectors(const kv_analysis *a, const kv_place *p, kv_vmires *r,
    const kv_node *src, kv_target_info *ti)
{
	selbuild s = { .strs = a->m->strs };
	char vendor[256];

	kv_cpu_key_text(a, "cpu-vendor", "", vendor, sizeof(vendor));

	render_template(a, r, &s);
	/* §2.3 step 2: the migration's own selector, under the template's
	 * (the template wins on a key clash) */
	for (size_t i = 0; r->added_selector && i < r->added_selector->n; i++)
		if (sel_find(s.v, s.n, r->added_selector->v[i].key) ==
		    NULL)
			sel_set_model(&s, &r->added_selector->v[i]);
	if (kv_host_model_selected(a, r))
		render_host_model(a, p, src, r->source_pod, &s, ti);
	/* the vendor rule: v1.6.4 / v1.7.1 / v1.8.0 (versions.c), not in
	 * every flavor's fork */
	if (src != NULL && a->m->flavor->vendor_selector &&
	    kv_since_on(a, SINCE_VENDOR) &&
	    !sel_has_prefix(&s, vendor)) {
		const node_cpu *nc = node_cpu_of(a, p, src);

		ti->nvendors = nc->nvendors;
		if (nc->vendor != NULL)
			sel_set(&s, nc->vendor, "true");
	}
	sel_sort(&s);
	sel_share(p, &s, &r->selectors);
	render_rejects(a, r);
}

/* The nodes the VMI itself rules out (sorted by set_nodes): the source
 * and, with own_pods, every node that runs an active pod of this VMI
 * (the migration's anti-affinity), and every node with a pod holding a
 * reservation it shares (pod anti-affinity). */
static size_t *
own_nodes(const kv_analysis *a, const kv_place *p, const kv_vmires *r,
    const problem *prob, size_t src_i, bool own_pods, size_t *nexcl)
{
	const kv_model *m = a->m;
	const kv_vmi *v = r->vmi;
	const kv_pod *const *pods;
	size_t npods = kv_place_pods(p, v, &pods), n = 0, *excl;

	excl = xcalloc(npods + 2, sizeof(size_t));
	if (src_i != SIZE_MAX)
		excl[n++] = src_i;
	for (size_t i = 0; own_pods && i < npods; i++) {
		const kv_node *node = kv_model_node(m, pods[i]->node);

		if (node != NULL && kv_pod_active(pods[i]))
			excl[n++] = (size_t)(node - m->nodes);
	}
	if (kv_has_reservation(v)) {
		excl = xreallocarray(excl, n + m->nnodes + 1, sizeof(size_t));
		KV_BITS_FOREACH(&prob->place, k)
			if (kv_pr_conflict(a, v, m->nodes[k].name) != NULL)
				excl[n++] = k;
	}
	*nexcl = n;
	return excl;
}

void
kv_target_build(const kv_analysis *a, const kv_place *p, kv_vmires *r,
    kv_target_info *ti)
{
	const kv_model *m = a->m;
	const kv_vmi *v = r->vmi;
	const kv_node *src = kv_model_node(m, v->node);
	size_t nexcl, src_i, *excl;
	problem *prob;
	kv_res need;
	kv_nodeset placeable;
	const kv_bits *tgt = NULL, *place = NULL;

	memset(ti, 0, sizeof(*ti));
	ti->source_missing = src == NULL;
	render_selectors(a, p, r, src, ti);
	if (r->source_pod != NULL)
		need = kv_pod_request(m, r->source_pod);
	else
		kv_need_from_vmi(m, r, &need);
	r->need = kv_place_need(p, &need);
	need = kv_room_need(a, r);
	ti->need_memory = need.memory;
	r->searched = !ti->host_model_missing;

	prob = find_problem(a, p, r, &need, false);
	src_i = src != NULL ? (size_t)(src - m->nodes) : SIZE_MAX;
	set_nodes(&r->cpu_targets, &prob->cpu, &src_i, src != NULL ? 1 : 0);
	r->ncpu_targets = r->cpu_targets.n;
	excl = own_nodes(a, p, r, prob, src_i, true, &nexcl);
	kv_podaff_apply(a, p, r, prob, &tgt, &place);
	set_nodes(&r->targets, tgt, excl, nexcl);
	r->ntargets = r->targets.n;
	set_nodes(&placeable, place, excl, nexcl);
	ti->nplaceable = placeable.n;
	free(placeable.excl);
	free(excl);
}

/*
 * A fresh launcher pod, as the VM controller's new VMI gets it
 * (TemplateService.RenderLaunchManifest, kubevirt v1.9.0 pkg/virt-
 * controller/services/template.go:355): the template's node selector
 * (§2.2: nodeselectorrenderer.go:54-96, which selects no CPU model label
 * for host-model or host-passthrough, :61) and the rejects every launcher
 * pod's affinity gets (template.go:196-197, 228-244).  What only a
 * migration target pod gets is not there: the anti-affinity to the VMI's
 * own pods (pkg/virt-controller/watch/migration/migration.go:954), the
 * migration's addedNodeSelector (:957-960), the source node's host model
 * and required features for host-model (:965-984, prepareNodeSelector-
 * ForHostCpuModel :2528-2552) and the source node's CPU vendor (:986-1005).
 * So a host-model VM starts on any node of its arch, selectors, affinity,
 * tolerations and room, whatever that node's host model; a named model on
 * a node with its cpu-model label.
 */
void
kv_target_start(const kv_analysis *a, const kv_place *p, kv_vmires *r)
{
	const kv_model *m = a->m;
	selbuild s = { .strs = m->strs };
	size_t nexcl, *excl;
	problem *prob;
	kv_res need;
	const kv_bits *tgt = NULL, *place = NULL;

	render_template(a, r, &s);
	sel_sort(&s);
	sel_share(p, &s, &r->selectors);
	render_rejects(a, r);
	need = kv_room_need(a, r);
	prob = find_problem(a, p, r, &need, true);
	excl = own_nodes(a, p, r, prob, SIZE_MAX, false, &nexcl);
	kv_podaff_apply(a, p, r, prob, &tgt, &place);
	set_nodes(&r->targets, tgt, excl, nexcl);
	r->ntargets = r->targets.n;
	free(excl);
}
