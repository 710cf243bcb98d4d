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

#include "analyze/change/change.h"
#include "analyze/model/model.h"

/* the option names, "cpu-model", ... */
extern const char *const kv_change_names[CH_COUNT];

/* Apply changes[0..n) to m, in order.  KV_ERR with err set when a change
 * names something m lacks or is not well formed. */
int kv_whatif_apply(kv_model *m, const kv_change *changes, size_t n,
    kv_whatif *w, kv_err *err);
void kv_whatif_free(kv_whatif *w);
/* A claim-rwx change recreates claims some VMIs outside its scope use
 * too: they are marked in shared (per VMI of m; it must restart too, on
 * the new claim); their count. */
size_t kv_whatif_claim_sharers(const kv_model *m, const kv_change *ch,
    bool *shared);
/* lines[0..n) (owned by w from now on) before w's notes. */
void kv_whatif_prepend(kv_whatif *w, char **lines, size_t n);
/* line (w's from now on) after w's notes. */
void kv_whatif_append(kv_whatif *w, char *line);

#endif
