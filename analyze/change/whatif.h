/*
 * whatif.h - a snapshot as it would be after a few changes: each change
 * is applied to a loaded model before it is analysed, so every derived
 * fact (CPU selectors, the label index, classes, targets, drains) follows
 * from the changed objects exactly as from a collected snapshot.
 *
 * The caller loads the snapshot once more for the changed copy and
 * applies the changes to it with kv_whatif_apply; strings are interned in
 * that model, arrays reallocated in it.  A change names its objects; a
 * name that is not in the snapshot is an error (kv_err, the option and
 * the name).  Notes (what was changed, how many VMIs, the restarts it
 * needs) are owned by the kv_whatif and freed by kv_whatif_free.
 */
#ifndef KV_WHATIF_H
#define KV_WHATIF_H

#include "analyze/model/model.h"

enum kv_change_kind {
	CH_CPU_MODEL, CH_CLUSTER_CPU_MODEL, CH_CORDON, CH_UNCORDON,
	CH_REMOVE_NODE, CH_ADD_NODE_LIKE, CH_EVICTION, CH_STORAGE_RWX,
	CH_CLASS_CPU,
	/* only from a group's fix (--fix, fixapply.h): no option of its own */
	CH_CLAIM_RWX, CH_BINDING, CH_OPERATION_DONE, CH_IMAGE_DIGEST,
	CH_NODE_LABEL,
	CH_COUNT
};
/* the option names, "cpu-model", ... */
extern const char *const kv_change_names[CH_COUNT];

/* SC_PICK: the VMIs pick marks (by index in the model's vmis, the same
 * in every load of one snapshot); scope_value then names them ("group
 * G3") in the notes. */
enum kv_scope_kind { SC_ALL, SC_NAMESPACE, SC_SELECTOR, SC_VMI, SC_PICK };

typedef struct kv_change {
	enum kv_change_kind kind;
	const char *value;		/* model, node, strategy, class,
					 * CLASS=MODEL (class-cpu) */
	size_t count;			/* add-node-like copies (>= 1) */
	enum kv_scope_kind scope;	/* cpu-model, eviction-strategy */
	const char *scope_value;	/* NS, K=V or NS/NAME */
	const bool *pick;		/* SC_PICK: per VMI of the model */
	/* claim-rwx: the storage class or NS/CLAIM whose claims change;
	 * operation-done: "TYPE PHASE" of the operations that finish;
	 * node-label: the node that gets value, KEY=VALUE */
	const char *subject;
} kv_change;

typedef struct kv_whatif {
	size_t nnotes;
	char **notes;			/* one line per change */
	size_t restarts;		/* running VMIs the changes restart */
	size_t nremoved;
	const char **removed_nodes;	/* interned, in the changed model */
} kv_whatif;

/* Apply changes[0..n) to m, in order.  KV_ERR with err set when a change
 * names something m lacks or is not well formed. */
int kv_whatif_apply(kv_model *m, const kv_change *changes, size_t n,
    kv_whatif *w, kv_err *err);
void kv_whatif_free(kv_whatif *w);
/* lines[0..n) (owned by w from now on) before w's notes. */
void kv_whatif_prepend(kv_whatif *w, char **lines, size_t n);
/* line (w's from now on) after w's notes. */
void kv_whatif_append(kv_whatif *w, char *line);

#endif
