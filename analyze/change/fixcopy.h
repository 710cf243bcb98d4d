/*
 * fixcopy.h - the model copy the proof (fixproof.h) writes one batch's
 * changes into: the batch's VMIs, copied, and of the rest only the
 * arrays the batch's kinds of change write (whatif.c, whatif_fix.c);
 * everything else is the model's, shared.
 *
 * kv_subset_make fills s from m: the VMIs mark marks (mark[i] for VMI i
 * of m), kinds[kind] for each kv_change_kind the batch's changes are
 * of.  s->sub[i] is VMI i's index in the copy.  For an image-digest
 * change the copy owns the image IDs of its VMIs' launcher pods: the
 * model's pods hold the copy's arrays while it lives (m is changed in
 * place, const as it is), and kv_subset_free gives theirs back; for a
 * claim change the copy writes the claims of its VMIs in the model's
 * array, kept as they were and given back the same way.  So copies are
 * made and freed one at a time.  kv_subset_free frees what the copy
 * owns; m must be the model s was made from.
 */
#ifndef KV_FIXCOPY_H
#define KV_FIXCOPY_H

#include <stdbool.h>

#include "analyze/change/change.h"
#include "analyze/model/model.h"

/* The model copy of one batch: its VMIs, and the arrays the fix
 * changes write into (whatif.c, whatif_fix.c), copied. */
typedef struct kv_subset {
	kv_model m;
	void *ops;			/* the flavor's own_ops copy */
	size_t *sub;			/* per VMI of the analysis: its index
					 * in the copy */
	bool own_nodes, own_policies, relax;
	size_t nlent;			/* pods whose imageids the copy owns: */
	kv_pod **lent;			/* the model's pods (lend_pods) */
	kv_imageid **kept;		/* and their own arrays, given back */
	size_t nclaims;			/* claims the copy may write: */
	struct kv_claim_kept {
		size_t at;		/* index in the model's pvcs */
		kv_pvc pvc;		/* as it was, given back */
	} *claims;
	size_t nafter;
	kv_vmi **after;			/* the templates copied (vms[].after) */
} kv_subset;

void kv_subset_make(const kv_model *m, const bool *mark, const bool *kinds,
    kv_subset *s);
void kv_subset_free(const kv_model *m, kv_subset *s);

#endif
