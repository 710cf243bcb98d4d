/*
 * podaff_int.h - what podaffinity.c (judging) and podexplain.c
 * (explaining) share of the inter-pod constraints: the context's
 * types, private to the two.
 */
#ifndef KV_PODAFF_INT_H
#define KV_PODAFF_INT_H

#include <glib.h>

#include "analyze/rules/podaffinity.h"
#include "analyze/rules/podterm.h"

/* A running pod on a known node. */
typedef struct pa_pod {
	const kv_pod *pod;
	size_t node;
	const kv_labels *ns_labels;	/* its namespace's, or empty */
} pa_pod;

/* The domains of one topology key: dom[node] indexes values/bits, or -1
 * when the node lacks the key. */
typedef struct pa_keydom {
	size_t ndom;
	const char *const *values;
	kv_bits *const *bits;
	long *dom;
} pa_keydom;

/* A cached answer, found by its key bytes. */
typedef struct pa_entry {
	size_t len;
	unsigned char *key;
	size_t nbits;
	kv_bits *bits;
	size_t *counts;			/* spreads: matching pods per domain */
	size_t min;			/* spreads: the fewest */
} pa_entry;

enum pa_kind { PA_AFFINITY, PA_ANTI, PA_SYMMETRY, PA_SPREAD };

typedef struct pa_con {
	enum pa_kind kind;
	const kv_podterm *term;
	const kv_spread *spread;
	const pa_pod *owner;		/* symmetry: the running pod */
	const kv_bits *ok;		/* the nodes that pass */
	const pa_entry *entry;		/* spreads: the counts */
} pa_con;

/* One VMI's judged constraints and the target pod it judged them for. */
typedef struct pa_eval {
	size_t n;
	pa_con *v;
	kv_labels labels;		/* the target pod's (owned array) */
	bool own_labels;		/* labels.v allocated here */
} pa_eval;

struct kv_podaff {
	bool lent;			/* pods, sym: the lender's */
	size_t npods;
	pa_pod *pods;
	size_t nsym;
	const kv_podterm **sym;		/* running pods' anti terms */
	const pa_pod **sym_owner;
	GHashTable *keydoms;		/* topology key -> pa_keydom */
	GHashTable *cache;		/* pa_entry -> itself */
	GHashTable *results;		/* pa_entry (bits) -> itself */
	GHashTable *evals;		/* kv_vmires * -> pa_eval */
};

/* The domains of key, once per key (kept by pa). */
const pa_keydom *kv_pa_keydom(const kv_analysis *a, kv_podaff *pa,
    const char *key);

#endif
