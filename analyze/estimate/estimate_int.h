/*
 * estimate_int.h - what the files of analyze/estimate share: the
 * migrations the snapshot shows as done (history.c) and the effective
 * migration settings of one VMI (settings.c).  Not for other modules.
 */
#ifndef KV_ESTIMATE_INT_H
#define KV_ESTIMATE_INT_H

#include "analyze/estimate/estimate.h"

/* One migration with times (history.c); copy and setup in seconds, -1
 * when not known.  Points into the model. */
typedef struct kv_obs {
	const char *ns, *vmi;
	const kv_mighist *h;
	double copy, setup;
} kv_obs;

typedef struct kv_history {
	size_t n, cap;
	kv_obs *obs;			/* by namespace, VMI, end time */
} kv_history;

double kv_hist_seconds(const char *a, const char *b);
void kv_history_build(const kv_model *m, kv_history *hs);
const kv_obs *kv_history_of(const kv_history *hs, const char *ns,
    const char *name);
void kv_history_free(kv_history *hs);

/* The migration settings one VMI gets (settings.c): its MigrationPolicy
 * over the cluster's (KubeVirt CR over the flavor's defaults over
 * KubeVirt's), as virt-controller merges them (kubevirt v1.9.0
 * pkg/util/migrations/policy.go, ApplyPolicy... onto the cluster's
 * configuration). */
typedef struct kv_migset_eff {
	int64_t completion_per_gib, progress_timeout;
	double bandwidth;		/* bytes/s; 0: unlimited */
	bool postcopy, autoconverge, disruption, stall;
	const char *source;		/* "MigrationPolicy NAME" or NULL:
					   the cluster's */
} kv_migset_eff;

void kv_settings_of(const kv_analysis *a, const kv_vmires *r,
    kv_migset_eff *s);

#endif
