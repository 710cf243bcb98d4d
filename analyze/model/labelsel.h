/*
 * labelsel.h - Kubernetes label selectors as `kubectl -l` takes them:
 * "k=v", "k==v", "k!=v", "k in (a,b)", "k notin (a,b)", "k", "!k",
 * "k>N", "k<N", requirements joined by commas (all must hold).
 *
 * Parsed and validated as k8s.io/apimachinery pkg/labels/selector.go
 * does it (kubernetes-1.36.0-alpha.2, commit eed236ce): the lexer's
 * special symbols (isSpecialSymbol, :522), "in"/"notin" read as values
 * inside a value list (lookahead with the Values context), the grammar of
 * parse (:692) and parseRequirement, the value counts NewRequirement
 * requires (:185), keys as IsLabelKey and values as IsLabelValue check
 * them (pkg/api/validate/content/kube.go:43, :85), and Matches (:247):
 * "!=" and "notin" hold for an object without the key.
 */
#ifndef KV_LABELSEL_H
#define KV_LABELSEL_H

#include "analyze/model/model.h"
#include "analyze/util/util.h"

typedef enum kv_lselop {
	KV_SEL_EXISTS, KV_SEL_NOT_EXISTS, KV_SEL_EQ, KV_SEL_NE, KV_SEL_IN,
	KV_SEL_NOTIN, KV_SEL_GT, KV_SEL_LT, KV_SEL_COUNT
} kv_lselop;
/* "exists", "!", "=", "!=", "in", "notin", ">", "<" */
extern const char *const kv_lselop_names[KV_SEL_COUNT];

typedef struct kv_selreq {
	char *key;
	kv_lselop op;
	size_t nvals;
	char **vals;
} kv_selreq;

typedef struct kv_selector {
	size_t n;
	kv_selreq *r;		/* all must hold */
} kv_selector;

/* Append the requirements of s to sel.  KV_ERR with err set ("found
 * ')', expected: identifier", "key \"-x\": ...") when s is no selector;
 * sel keeps what it had before. */
int kv_selector_parse(const char *s, kv_selector *sel, kv_err *err);
bool kv_selector_matches(const kv_selector *sel, const kv_labels *l);
void kv_selector_free(kv_selector *sel);

#endif
