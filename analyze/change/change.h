/*
 * change.h - the types of a what-if (whatif.h): the changes, their scope,
 * and the notes a kv_whatif_apply leaves.  Types only, so that the files
 * that apply the changes (whatif_int.h) read them without the API above.
 */
#ifndef KV_CHANGE_H
#define KV_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

enum kv_change_kind {
	CH_CPU_MODEL, CH_CLUSTER_CPU_MODEL, CH_CORDON, CH_UNCORDON,
	CH_REMOVE_NODE, CH_ADD_NODE_LIKE, CH_EVICTION, CH_STORAGE_RWX,
	CH_CLASS_CPU,
	/* only from a group's fix (--fix, fixapply.h): no option of its own */
	CH_CLAIM_RWX, CH_BINDING, CH_OPERATION_DONE, CH_IMAGE_DIGEST,
	CH_NODE_LABEL, CH_RELAX, CH_FREE_ROOM, CH_MIGRATION_POLICY,
	CH_COUNT
};

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
	 * node-label: the node that gets value, KEY=VALUE;
	 * migration-policy: the name of the policy it creates */
	const char *subject;
	/* migration-policy: the MigrationPolicy the VMIs have (its
	 * settings and selectors kept, estimate.h kv_fix_policy), or NULL */
	const char *from;
	/* relax, free-room: the edit of a relax-placement or free-capacity
	 * fix (decide/groups.h kv_step), the group's */
	const struct kv_step *step;
} kv_change;

typedef struct kv_whatif {
	size_t nnotes;
	char **notes;			/* one line per change */
	size_t restarts;		/* running VMIs the changes restart */
	size_t nremoved;
	const char **removed_nodes;	/* interned, in the changed model */
} kv_whatif;

#endif
