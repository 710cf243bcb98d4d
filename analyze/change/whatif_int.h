/*
 * whatif_int.h - what the change functions of whatif.c and whatif_fix.c
 * share: the state of one kv_whatif_apply and its helpers (whatif_int.c),
 * below both of them.
 */
#ifndef KV_WHATIF_INT_H
#define KV_WHATIF_INT_H

#include "analyze/change/change.h"
#include "analyze/model/model.h"

typedef struct apply_ctx {
	kv_model *m;
	kv_whatif *w;
	bool *restarted;		/* per VMI */
	kv_err *err;
	char scope[80];			/* kv_wi_scope_text's words */
} apply_ctx;

/* One line of w's notes (line is w's now). */
void kv_wi_note(kv_whatif *w, char *line);
bool kv_wi_running(const kv_vmi *v);
/* VMI i restarts for the change (counted in *n, and once in w). */
void kv_wi_restart(apply_ctx *c, size_t i, size_t *n);
/* "every VMI", "namespace", ... for the notes, in the flavor's words
 * (valid until the next call with c). */
const char *kv_wi_scope_text(apply_ctx *c, const kv_change *ch);
/* The flavor's word for n VMIs ("VMI", "VMIs", "VirtualMachines"). */
const char *kv_wi_vms(const apply_ctx *c, size_t n);

/* The changes only a group's fix makes (whatif_fix.c). */
int kv_wi_claim_rwx(apply_ctx *c, const kv_change *ch);
int kv_wi_binding(apply_ctx *c, const kv_change *ch);
int kv_wi_operation_done(apply_ctx *c, const kv_change *ch);
int kv_wi_image_digest(apply_ctx *c, const kv_change *ch);
int kv_wi_node_label(apply_ctx *c, const kv_change *ch);
int kv_wi_migration_policy(apply_ctx *c, const kv_change *ch);
/* The edits of relax-placement and free-capacity (whatif_place.c). */
int kv_wi_relax(apply_ctx *c, const kv_change *ch);
int kv_wi_free_room(apply_ctx *c, const kv_change *ch);

#endif
