/*
 * podterm.h - label selectors and pod (anti-)affinity terms for the
 * inter-pod constraints (podaffinity.h): matching as the kube-scheduler
 * does, whether the snapshot holds every pod a selector could match
 * (pods scope), their text for explanations, and their key bytes for the
 * caches.  Nothing here allocates except into the caller's kv_buf.
 */
#ifndef KV_PODTERM_H
#define KV_PODTERM_H

#include "analyze/rules/place.h"
#include "analyze/rules/podaffinity.h"

/* Whether labels satisfy s (a null selector matches nothing, {} every
 * pod); owner's labels give the values matchLabelKeys and
 * mismatchLabelKeys compare with (NULL: ignored). */
bool kv_podsel_match(const kv_podsel *s, const kv_labels *owner,
    const kv_labels *labels);
/* Whether term t, owned by a pod of namespace owner_ns, names namespace
 * ns (with labels ns_labels): namespaces, namespaceSelector, or neither
 * and ns is the owner's. */
bool kv_podterm_ns(const kv_podterm *t, const char *owner_ns,
    const char *ns, const kv_labels *ns_labels);
/* The labels of namespace ns, empty when the snapshot lacks it. */
const kv_labels *kv_ns_labels(const kv_model *m, const char *ns);

/* Whether the snapshot holds every pod s could match: pods scope "all",
 * or s requires the launcher label and the pods were read. */
bool kv_podsel_judged(const kv_model *m, const kv_podsel *s);
/* The same for the required affinity terms together (a pod must match
 * every one, so one launcher-only term is enough); true without any. */
bool kv_affinity_judged(const kv_model *m, const kv_podplace *pp);

/* "app=db, tier In (a,b)", "pod anti-affinity ... on <key>",
 * "topology spread ... on <key>, maxSkew N". */
void kv_podsel_fmt(kv_buf *b, const kv_podsel *s);
void kv_podterm_fmt(kv_buf *b, const kv_podterm *t);
void kv_spread_fmt(kv_buf *b, const kv_spread *s);

/* Cache key bytes: interned pointers stand for their content. */
void kv_key_ptr(kv_buf *b, const void *p);
void kv_key_size(kv_buf *b, size_t n);
void kv_key_podsel(kv_buf *b, const kv_podsel *s, const kv_labels *owner);
void kv_key_podterm(kv_buf *b, const kv_podterm *t, const kv_labels *owner);

#endif
