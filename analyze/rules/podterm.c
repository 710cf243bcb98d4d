/*
 * podterm.c - label selectors and pod (anti-)affinity terms (podterm.h):
 * matching as the scheduler does, whether the snapshot holds every pod a
 * selector could match, their text, and their cache key bytes.
 */
#include "analyze/rules/podterm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const kv_labels no_labels;

/* Whether labels satisfy s; owner gives the values of matchLabelKeys. */
bool
kv_podsel_match(const kv_podsel *s, const kv_labels *owner,
    const kv_labels *labels)
{
	if (!s->set)
		return false;
	for (size_t i = 0; i < s->match.n; i++) {
		const char *v = kv_labels_get(labels, s->match.v[i].key);

		if (v == NULL || strcmp(v, s->match.v[i].value) != 0)
			return false;
	}
	for (size_t i = 0; i < s->nreqs; i++)
		if (!kv_req_match(&s->reqs[i], labels, NULL))
			return false;
	for (size_t i = 0; owner != NULL && i < s->nkeys; i++) {
		const char *want = kv_labels_get(owner, s->keys[i]);
		const char *have = kv_labels_get(labels, s->keys[i]);
		bool same = have != NULL && want != NULL &&
		    strcmp(have, want) == 0;

		if (want != NULL && same != (i < s->nmatch_keys))
			return false;
	}
	return true;
}

/* Whether the term (owned by a pod of namespace owner_ns) names the
 * namespace of pod x. */
bool
kv_podterm_ns(const kv_podterm *t, const char *owner_ns, const char *ns,
    const kv_labels *ns_labels)
{
	if (t->nnamespaces == 0 && !t->ns_sel.set)
		return strcmp(ns, owner_ns) == 0;
	for (size_t i = 0; i < t->nnamespaces; i++)
		if (strcmp(t->namespaces[i], ns) == 0)
			return true;
	return t->ns_sel.set && kv_podsel_match(&t->ns_sel, NULL, ns_labels);
}

const kv_labels *
kv_ns_labels(const kv_model *m, const char *ns)
{
	const kv_namespace *n = kv_model_namespace(m, ns);

	return n != NULL ? &n->labels : &no_labels;
}

/* Whether s can only match launcher pods: it requires the launcher label
 * (kubevirt.io=virt-launcher or a flavor's spelling). */
static bool
sel_launchers_only(const kv_podsel *s)
{
	for (size_t f = 0; f < KV_NFLAVORS; f++) {
		const char *key = kv_flavors[f]->keys[KEY_LAUNCHER];
		const char *v = kv_labels_get(&s->match, key);

		if (v != NULL && strcmp(v, "virt-launcher") == 0)
			return true;
		for (size_t i = 0; i < s->nreqs; i++) {
			const kv_nsreq *q = &s->reqs[i];
			size_t k;

			if (q->op != OP_IN || strcmp(q->key, key) != 0 ||
			    q->nvalues == 0)
				continue;
			for (k = 0; k < q->nvalues; k++)
				if (strcmp(q->values[k], "virt-launcher") != 0)
					break;
			if (k == q->nvalues)
				return true;
		}
	}
	return false;
}

/* Whether the snapshot holds every pod a selector could match. */
bool
kv_podsel_judged(const kv_model *m, const kv_podsel *s)
{
	return m->pods_all || (sel_launchers_only(s) &&
	    kv_model_has(m, "pods", ""));
}

/* The whole affinity group is judged when any term keeps it to
 * launchers: a pod must match every term. */
bool
kv_affinity_judged(const kv_model *m, const kv_podplace *pp)
{
	bool any = false;

	for (size_t i = 0; i < pp->nterms; i++)
		if (!pp->terms[i].anti) {
			any = true;
			if (kv_podsel_judged(m, &pp->terms[i].sel))
				return true;
		}
	return !any;
}

void
kv_podsel_fmt(kv_buf *b, const kv_podsel *s)
{
	static const char *const ops[] = { "In", "NotIn", "Exists",
	    "DoesNotExist", "Gt", "Lt" };
	size_t n = 0;

	if (!s->set) {
		kv_buf_printf(b, "no labelSelector (matches no pod)");
		return;
	}
	for (size_t i = 0; i < s->match.n; i++, n++)
		kv_buf_printf(b, "%s%s=%s", n ? ", " : "", s->match.v[i].key,
		    s->match.v[i].value);
	for (size_t i = 0; i < s->nreqs; i++, n++) {
		const kv_nsreq *q = &s->reqs[i];

		kv_buf_printf(b, "%s%s %s", n ? ", " : "", q->key, ops[q->op]);
		for (size_t k = 0; k < q->nvalues; k++)
			kv_buf_printf(b, "%s%s", k ? "," : " (", q->values[k]);
		if (q->nvalues > 0)
			kv_buf_printf(b, ")");
	}
	for (size_t i = 0; i < s->nkeys; i++, n++)
		kv_buf_printf(b, "%s%s %s", n ? ", " : "", i < s->nmatch_keys ?
		    "matchLabelKeys" : "mismatchLabelKeys", s->keys[i]);
	if (n == 0)
		kv_buf_printf(b, "every pod");
}

void
kv_podterm_fmt(kv_buf *b, const kv_podterm *t)
{
	kv_buf_printf(b, "pod %s ", t->anti ? "anti-affinity" : "affinity");
	kv_podsel_fmt(b, &t->sel);
	for (size_t i = 0; i < t->nnamespaces; i++)
		kv_buf_printf(b, "%s%s", i ? "," : " in namespaces ",
		    t->namespaces[i]);
	if (t->ns_sel.set && t->ns_sel.match.n == 0 && t->ns_sel.nreqs == 0)
		kv_buf_printf(b, " in every namespace");	/* {} */
	else if (t->ns_sel.set) {
		kv_buf_printf(b, " in namespaces selected by ");
		kv_podsel_fmt(b, &t->ns_sel);
	}
	kv_buf_printf(b, " on %s", t->topology_key);
}

void
kv_spread_fmt(kv_buf *b, const kv_spread *s)
{
	kv_buf_printf(b, "topology spread ");
	kv_podsel_fmt(b, &s->sel);
	kv_buf_printf(b, " on %s, maxSkew %lld", s->topology_key,
	    (long long)s->max_skew);
	if (s->min_domains > 0)
		kv_buf_printf(b, ", minDomains %lld",
		    (long long)s->min_domains);
}

void
kv_key_ptr(kv_buf *b, const void *p)
{
	kv_buf_append(b, &p, sizeof(p));
}

void
kv_key_size(kv_buf *b, size_t n)
{
	kv_buf_append(b, &n, sizeof(n));
}

/* A selector as key bytes; owner's values of the label keys too. */
void
kv_key_podsel(kv_buf *b, const kv_podsel *s, const kv_labels *owner)
{
	kv_key_size(b, s->set);
	kv_key_size(b, s->match.n);
	for (size_t i = 0; i < s->match.n; i++) {
		kv_key_ptr(b, s->match.v[i].key);
		kv_key_ptr(b, s->match.v[i].value);
	}
	kv_key_size(b, s->nreqs);
	for (size_t i = 0; i < s->nreqs; i++) {
		kv_key_ptr(b, s->reqs[i].key);
		kv_key_size(b, s->reqs[i].op);
		kv_key_size(b, s->reqs[i].nvalues);
		for (size_t k = 0; k < s->reqs[i].nvalues; k++)
			kv_key_ptr(b, s->reqs[i].values[k]);
	}
	kv_key_size(b, s->nkeys);
	kv_key_size(b, s->nmatch_keys);
	for (size_t i = 0; i < s->nkeys; i++) {
		kv_key_ptr(b, s->keys[i]);
		kv_key_ptr(b, owner ? kv_labels_get(owner, s->keys[i]) : NULL);
	}
}

void
kv_key_podterm(kv_buf *b, const kv_podterm *t, const kv_labels *owner)
{
	kv_key_size(b, t->anti);
	kv_key_ptr(b, t->topology_key);
	kv_key_podsel(b, &t->sel, owner);
	kv_key_size(b, t->nnamespaces);
	for (size_t i = 0; i < t->nnamespaces; i++)
		kv_key_ptr(b, t->namespaces[i]);
	kv_key_podsel(b, &t->ns_sel, NULL);
}

size_t
kv_podaff_unjudged(const kv_analysis *a, const kv_vmires *r, kv_buf *out)
{
	const kv_podplace *pp = &r->vmi->pod_place;
	bool aff = kv_affinity_judged(a->m, pp);
	size_t n = 0;

	for (size_t t = 0; t < pp->nterms; t++) {
		const kv_podterm *term = &pp->terms[t];

		if (term->anti ? kv_podsel_judged(a->m, &term->sel) : aff)
			continue;
		if (out != NULL) {
			kv_podterm_fmt(out, term);
			kv_buf_printf(out, ": not judged\n");
		}
		n++;
	}
	for (size_t i = 0; i < pp->nspreads; i++) {
		if (!pp->spreads[i].do_not_schedule ||
		    kv_podsel_judged(a->m, &pp->spreads[i].sel))
			continue;
		if (out != NULL) {
			kv_spread_fmt(out, &pp->spreads[i]);
			kv_buf_printf(out, ": not judged\n");
		}
		n++;
	}
	return n;
}

void
kv_podaff_warnings(kv_analysis *a)
{
	const kv_model *m = a->m;
	size_t n = 0;

	/* no pods at all: the missing-resource warning says so, and
	 * their checks are skipped (notjudged.c) */
	if (a->lacking & KV_NEED_BIT(NEED_PODS))
		return;
	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmires r = { .vmi = &m->vmis[i] };

		if (strcmp(m->vmis[i].phase, "Running") == 0 &&
		    kv_podaff_unjudged(a, &r, NULL) > 0)
			n++;
	}
	if (n == 0)
		return;
	a->warnings = xreallocarray(a->warnings, a->nwarnings + 1,
	    sizeof(char *));
	a->warnings[a->nwarnings++] = xasprintf("pods: launcher pods only "
	    "(scope launchers); the pod (anti-)affinity or topology spread "
	    "terms of %zu VMI%s select pods that need not be launchers and "
	    "were not judged", n, n == 1 ? "" : "s");
	kv_analysis_warn(a, KV_WARN_PARTIAL_RESOURCE, "%s",
	    a->warnings[a->nwarnings - 1]);
}
