/*
 * warn.c - the warnings of the estimate (estimate.h
 * kv_estimate_warnings): migration-will-abort and migration-at-risk,
 * rows of the rule table (ruletable.c) of phase PHASE_ESTIMATE, whose
 * check functions read a->est.  They run after kv_estimate_analyze and
 * before the drains and the groups (pipeline.c), on VMIs of verdict ok
 * only, and add warnings: the verdict stays what the rules made it.
 *
 * KubeVirt's source for what the warnings say (kubevirt v1.9.0):
 * pkg/virt-launcher/virtwrap/live-migration-source.go:730-815
 * (handleLegacyConvergence: past completionTimeoutPerGiB x the data the
 * migration is aborted unless post-copy or a paused guest may end it;
 * no progress for progressTimeout aborts it too) and manager.go:796-815
 * (getVMIMigrationDataSize: the data, in started decimal GB).
 * The VMI's result owns the issues (rule_emit).
 */
#include <stdio.h>

#include "analyze/estimate/estimate.h"
#include "analyze/rules/rule.h"
#include "analyze/rules/rule_ctx.h"
#include "analyze/util/util.h"

static const kv_migest *
est_of(const rule_ctx *c)
{
	size_t i = (size_t)(c->r - c->a->vmis);

	if (c->a->est == NULL || !c->a->est[i].present)
		return NULL;
	return &c->a->est[i];
}

static const char *
settings_words(const kv_migest *e)
{
	return e->settings != NULL ? e->settings : "the cluster's settings";
}

void
kv_check_migration_will_abort(rule_ctx *c, const kv_rule *r)
{
	const kv_migest *e = est_of(c);

	if (e == NULL || e->outcome != MIG_WILL_ABORT)
		return;
	rule_emit(c, r, "aborted after %.0f-%.0f s of copy (deadline %lld "
	    "s: completionTimeoutPerGiB %lld; progressTimeout %lld s; %s)",
	    e->copy[0], e->copy[1], (long long)e->deadline,
	    (long long)e->per_gib, (long long)e->progress_timeout,
	    settings_words(e));
}

void
kv_check_migration_at_risk(rule_ctx *c, const kv_rule *r)
{
	const kv_migest *e = est_of(c);

	if (e == NULL || e->outcome != MIG_AT_RISK)
		return;
	rule_emit(c, r, "the high end is aborted after %.0f s of copy "
	    "(deadline %lld s: completionTimeoutPerGiB %lld; progressTimeout "
	    "%lld s; %s)", e->copy[1], (long long)e->deadline,
	    (long long)e->per_gib, (long long)e->progress_timeout,
	    settings_words(e));
}

static int
issue_cmp(const void *x, const void *y)
{
	const kv_issue *p = x, *q = y;
	int c = strcmp(p->rule->code, q->rule->code);

	if (c == 0)
		c = p->seq < q->seq ? -1 : p->seq > q->seq;
	return c;
}

void
kv_estimate_warnings(kv_analysis *a)
{
	if (a->est == NULL)
		return;
	for (size_t i = 0; i < a->nvmis; i++) {
		kv_vmires *r = &a->vmis[i];
		rule_ctx c = { .a = a, .m = a->m, .v = r->vmi, .r = r,
		    .cap_warnings = r->nwarnings,
		    .cap_blockers = r->nblockers };
		size_t before = r->nwarnings;

		if (!a->est[i].present || r->verdict != V_OK)
			continue;
		for (size_t k = 0; k < kv_nrules; k++)
			if (kv_rules[k].phase == PHASE_ESTIMATE &&
			    kv_rule_applies(&kv_rules[k], a->m->flavor->id))
				kv_rules[k].check(&c, &kv_rules[k]);
		if (r->nwarnings != before)
			kv_qsort(r->warnings, r->nwarnings, sizeof(kv_issue),
			    issue_cmp);
	}
}
