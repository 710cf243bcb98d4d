/*
 * settings.c - the migration settings one VMI gets (estimate_int.h):
 * the cluster's (a->cfg: the KubeVirt CR over the flavor's defaults
 * over KubeVirt's, analysis.c and the flavor rows' config hooks), with
 * the non-nil fields of its MigrationPolicy merged on top as
 * virt-controller merges them (kubevirt v1.9.0 pkg/virt-controller/
 * watch/migration/migrationpolicy.go:126-146 applyMigrationPolicySpec:
 * allowAutoConverge, bandwidthPerMigration, completionTimeoutPerGiB,
 * allowPostCopy, allowWorkloadDisruption, which follows the policy's
 * allowPostCopy when the policy leaves it unset).  progressTimeout is
 * the cluster's only.  Before v1.5 nothing but allowPostCopy acts past
 * the deadline (versions row "workload-disruption").
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate_int.h"

void
kv_settings_of(const kv_analysis *a, const kv_vmires *r, kv_migset_eff *s)
{
	const kv_config *c = &a->cfg;
	const kv_policy *p = kv_policy_named(a->m, r->policy);

	s->completion_per_gib = c->completion_per_gib;
	s->progress_timeout = c->progress_timeout;
	s->bandwidth = (double)c->bandwidth_mibps * 1048576.0;
	s->postcopy = c->allow_postcopy;
	s->autoconverge = c->allow_autoconverge;
	s->disruption = c->allow_disruption;
	s->stall = c->stall_detection;
	s->source = NULL;
	if (p != NULL) {
		s->source = p->name;
		if (p->allow_disruption < 0 && p->allow_postcopy >= 0)
			s->disruption = p->allow_postcopy == 1;
		if (p->allow_autoconverge >= 0)
			s->autoconverge = p->allow_autoconverge == 1;
		if (p->bandwidth >= 0)
			s->bandwidth = (double)p->bandwidth;
		if (p->completion_per_gib >= 0)
			s->completion_per_gib = p->completion_per_gib;
		if (p->allow_postcopy >= 0)
			s->postcopy = p->allow_postcopy == 1;
		if (p->allow_disruption >= 0)
			s->disruption = p->allow_disruption == 1;
	}
	/* before v1.5 only post-copy acts past the deadline */
	if (!c->since[SINCE_DISRUPTION])
		s->disruption = s->postcopy;
}
