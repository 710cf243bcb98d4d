/*
 * labels.h - a Kubernetes object's labels, taints, tolerations and
 * required node affinity, as the model holds them (model.h, dvp_model.h).
 */
#ifndef KV_LABELS_H
#define KV_LABELS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kv_label {
	const char *key;
	const char *value;
} kv_label;

typedef struct kv_labels {
	size_t n;
	kv_label *v;		/* sorted by key (strcmp), keys unique */
} kv_labels;

/* Value of key, or NULL.  Binary search; key need not be interned. */
const char *kv_labels_get(const kv_labels *l, const char *key);
/* Whether x and y have the same labels whose keys start with prefix:
 * the same keys in the same order, and with values the same values. */
bool kv_labels_same_prefixed(const kv_labels *x, const kv_labels *y,
    const char *prefix, bool values);

typedef struct kv_taint {
	const char *key, *value, *effect;
} kv_taint;

typedef struct kv_toleration {
	const char *key;	/* NULL or "" = every key (with Exists) */
	const char *op;		/* "Equal" (default) or "Exists" */
	const char *value;
	const char *effect;	/* NULL or "" = every effect */
} kv_toleration;

enum kv_selop { OP_IN, OP_NOTIN, OP_EXISTS, OP_DOESNOTEXIST, OP_GT, OP_LT };

typedef struct kv_nsreq {
	const char *key;
	bool field;		/* matchFields: key is metadata.name */
	enum kv_selop op;
	size_t nvalues;
	const char **values;
} kv_nsreq;

typedef struct kv_nsterm {
	size_t nreqs;
	kv_nsreq *reqs;		/* ANDed */
	size_t ndropped;	/* a what-if's: reqs[nreqs..+ndropped) are
				 * out of the term, kept for the free */
} kv_nsterm;

typedef struct kv_affinity {
	size_t nterms;		/* 0 = no required node affinity */
	kv_nsterm *terms;	/* ORed */
	size_t ndropped;	/* as kv_nsterm's, for terms */
} kv_affinity;

#endif
