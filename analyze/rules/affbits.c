/*
 * affbits.c - the nodes that satisfy a required node affinity, as a
 * bitset from the label index (place.h kv_and_affinity): the same test as
 * req_match, for the target search (target.c).
 */
#include <string.h>

#include "analyze/model/index.h"
#include "analyze/rules/place.h"

/* Nodes that satisfy one requirement (the same test as req_match, on the
 * label index). */
static void
req_nodes(const kv_analysis *a, const kv_nsreq *q, kv_bits *out)
{
	const kv_bits *b;
	const char *const *values;
	kv_bits *const *bits;
	size_t n;

	kv_bits_zero(out);
	if (q->field) {
		/* matchFields: the node's own name (metadata.name) */
		for (size_t i = 0; i < a->m->nnodes; i++)
			if (kv_req_match(q, NULL, a->m->nodes[i].name))
				kv_bits_set(out, i);
		return;
	}
	switch (q->op) {
	case OP_EXISTS:
	case OP_DOESNOTEXIST:
		if ((b = kv_index_has(a->index, q->key)) != NULL)
			kv_bits_or(out, b);
		break;
	case OP_IN:
	case OP_NOTIN:
		for (size_t i = 0; i < q->nvalues; i++)
			if ((b = kv_index_eq(a->index, q->key, q->values[i])) !=
			    NULL)
				kv_bits_or(out, b);
		break;
	case OP_GT:
	case OP_LT:
		/* one test per distinct value of the key */
		n = kv_index_values(a->index, q->key, &values, &bits);
		for (size_t i = 0; i < n; i++) {
			kv_label l = { q->key, values[i] };
			kv_labels one = { 1, &l };

			if (kv_req_match(q, &one, NULL))
				kv_bits_or(out, bits[i]);
		}
		break;
	}
	if (q->op == OP_DOESNOTEXIST || q->op == OP_NOTIN) {
		kv_bits all;

		kv_bits_init(&all, out->nbits);
		kv_bits_fill(&all);
		kv_bits_andnot(&all, out);
		kv_bits_copy(out, &all);
		kv_bits_free(&all);
	}
}

/* dst &= nodes that satisfy aff (ORed terms of ANDed requirements). */
void
kv_and_affinity(const kv_analysis *a, const kv_affinity *aff,
    const kv_nsterm *app, kv_bits *dst)
{
	kv_nsterm only = { 0, NULL, 0 };
	const kv_nsterm *terms = aff->terms;
	size_t nterms = aff->nterms, napp = app != NULL ? app->nreqs : 0;
	kv_bits any, term, req;

	/* no required affinity: KubeVirt's requirements are its one term */
	if (nterms == 0 && napp == 0)
		return;
	if (nterms == 0) {
		terms = &only;
		nterms = 1;
	}
	kv_bits_init(&any, dst->nbits);
	kv_bits_init(&term, dst->nbits);
	kv_bits_init(&req, dst->nbits);
	for (size_t t = 0; t < nterms; t++) {
		/* an empty term matches no node, until KubeVirt appends */
		if (terms[t].nreqs + napp == 0)
			continue;
		kv_bits_fill(&term);
		for (size_t q = 0; q < terms[t].nreqs + napp; q++) {
			req_nodes(a, q < terms[t].nreqs ? &terms[t].reqs[q] :
			    &app->reqs[q - terms[t].nreqs], &req);
			kv_bits_and(&term, &req);
		}
		kv_bits_or(&any, &term);
	}
	kv_bits_and(dst, &any);
	kv_bits_free(&any);
	kv_bits_free(&term);
	kv_bits_free(&req);
}
