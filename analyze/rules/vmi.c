/*
 * vmi.c - the per-VMI verdict (findings.md "vmis"): CPU mode, target pod
 * selectors and targets, every blocker and warning from the rule table,
 * the verdict by precedence, the outcome with its timeout, migration
 * method, completion timeout, effective eviction strategy and what a drain
 * does.  Rules: rules-kubevirt.md §2-§5.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/intern.h"
#include "analyze/rules/capacity.h"
#include "analyze/rules/podaffinity.h"
#include "analyze/rules/rule_ctx.h"
#include "analyze/rules/storage.h"
#include "analyze/util/runs.h"

const char *const kv_verdict_names[V_COUNT] = {
	"ok", "not-running", "blocked", "no-target", "will-fail", "stuck",
	"not-judged",
};
const char *const kv_mode_names[MODE_COUNT] = {
	"host-model", "host-passthrough", "named",
};
const char *const kv_outcome_names[OUT_COUNT] = {
	"none", "migrates", "rejected", "unschedulable", "pending-timeout",
	"pending-forever",
};
const char *const kv_on_drain_names[DRAIN_COUNT] = {
	NULL, "migrate", "block", "shutdown", "external",
};

/* Verdict precedence: the earliest failure in a real migration wins. */
static int
verdict_rank(enum kv_verdict v)
{
	switch (v) {
	case V_BLOCKED:
		return 4;
	case V_STUCK:
		return 3;
	case V_NO_TARGET:
		return 2;
	case V_WILL_FAIL:
		return 1;
	default:
		return 0;
	}
}

static void
cpu_mode(const kv_analysis *a, kv_vmires *r)
{
	const kv_vmi *v = r->vmi;
	const char *model = v->cpu_model;

	if (model == NULL || *model == '\0') {
		/* the webhook's default (§2.1); arm64 ignores the cluster */
		if (v->arch != NULL && strcmp(v->arch, "arm64") == 0)
			model = "host-passthrough";
		else if (*a->cfg.cpu_model != '\0')
			model = a->cfg.cpu_model;
		else
			model = "host-model";
	}
	r->model = model;
	if (strcmp(model, "host-model") == 0)
		r->mode = MODE_HOST_MODEL;
	else if (strcmp(model, "host-passthrough") == 0)
		r->mode = MODE_HOST_PASSTHROUGH;
	else
		r->mode = MODE_NAMED;
}

/* §4.2: the MigrationPolicy that applies, or NULL. */
static const kv_policy *
match_policy(const kv_model *m, const kv_vmi *v)
{
	const kv_namespace *ns = kv_model_namespace(m, v->ns);
	const kv_policy *best = NULL;
	size_t best_score = 0, best_vmi = 0;

	for (size_t i = 0; i < m->npolicies; i++) {
		const kv_policy *p = &m->policies[i];
		size_t score, nv = 0;
		bool ok = true;

		if (!p->has_selectors)
			continue;
		if (v->labels.n > 0) {
			for (size_t j = 0; j < p->vmi_selector.n && ok; j++) {
				const char *val = kv_labels_get(&v->labels,
				    p->vmi_selector.v[j].key);

				ok = val && strcmp(val,
				    p->vmi_selector.v[j].value) == 0;
			}
			for (size_t j = 0; j < p->ns_selector.n && ok; j++) {
				const char *val = ns ? kv_labels_get(
				    &ns->labels, p->ns_selector.v[j].key) :
				    NULL;

				ok = val && strcmp(val,
				    p->ns_selector.v[j].value) == 0;
			}
			nv = p->vmi_selector.n;
			score = nv + p->ns_selector.n;
		} else
			score = 0;	/* the nil-labels quirk */
		if (!ok)
			continue;
		/* policies are sorted by name: strict > keeps the smallest */
		if (best == NULL || score > best_score ||
		    (score == best_score && nv > best_vmi)) {
			best = p;
			best_score = score;
			best_vmi = nv;
		}
	}
	return best;
}

/* §4.3: per-GiB timeout times the memory in started decimal GB; -1 when
 * the VMI states no memory (neither spec.domain.memory.guest nor a
 * memory request: kubevirt v1.9.0 virtwrap/manager.go:796-815 would
 * count 0 GB, and a deadline of 0 is none, live-migration-source.go:503,
 * but the API admits no VMI without memory, vmi-create-admitter.go:
 * 1225-1244, so it is the input that lacks it). */
static void
completion_timeout(const kv_analysis *a, kv_vmires *r, const kv_policy *p)
{
	bool own = p != NULL && p->completion_per_gib >= 0;
	int64_t per = own ? p->completion_per_gib : a->cfg.completion_per_gib;
	int64_t mem = r->vmi->memory > 0 ? r->vmi->memory : 0;
	int64_t units = mem / 1000000000 + (mem % 1000000000 != 0);

	r->memory = mem;
	r->completion_per_gib = per;
	r->completion_from = own ? p->name : NULL;
	r->completion_timeout = r->vmi->memory < 0 && per > 0 ? -1 :
	    kv_sat_addmul(0, per, units);
}

/* The VMIMs that name a VMI, by namespace and VMI name, in snapshot
 * order within one VMI: a binary search instead of a scan per VMI. */
typedef struct vmim_index {
	size_t n;
	const kv_vmim **v;
} vmim_index;

static int
vmim_cmp(const void *x, const void *y)
{
	const kv_vmim *p = *(const kv_vmim *const *)x;
	const kv_vmim *q = *(const kv_vmim *const *)y;
	int c = strcmp(p->ns, q->ns);

	if (c == 0)
		c = strcmp(p->vmi, q->vmi);
	return c != 0 ? c : (p < q ? -1 : p > q);
}

static void
vmim_index_build(const kv_model *m, vmim_index *ix)
{
	ix->n = 0;
	ix->v = xcalloc(m->nvmims + 1, sizeof(*ix->v));
	for (size_t i = 0; i < m->nvmims; i++)
		if (m->vmims[i].vmi != NULL)
			ix->v[ix->n++] = &m->vmims[i];
	qsort(ix->v, ix->n, sizeof(*ix->v), vmim_cmp);
}

/* The index of the first VMIM of VMI v (or where it would be). */
static size_t
vmim_first(const vmim_index *ix, const kv_vmi *v)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ix->v[mid]->ns, v->ns);

		if (c == 0)
			c = strcmp(ix->v[mid]->vmi, v->name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* §2.3 step 2: the oldest VMIM of this VMI in a non-final phase that
 * adds a node selector (the one KubeVirt runs; admission refuses a second
 * unfinished one). */
static void
pending_selector(const vmim_index *ix, kv_vmires *r)
{
	const kv_vmi *v = r->vmi;
	const char *at = NULL;

	for (size_t i = vmim_first(ix, v); i < ix->n; i++) {
		const kv_vmim *mi = ix->v[i];
		const char *c = mi->created ? mi->created : "";

		if (strcmp(mi->ns, v->ns) != 0 || strcmp(mi->vmi, v->name) != 0)
			break;
		if (mi->added_selector.n == 0 || (mi->phase != NULL &&
		    (strcmp(mi->phase, "Succeeded") == 0 ||
		    strcmp(mi->phase, "Failed") == 0)))
			continue;
		if (at == NULL || strcmp(c, at) < 0) {
			r->added_selector = &mi->added_selector;
			r->added_by = mi->name;
			at = c;
		}
	}
}

/* A migration already under way: an unfinished VMIM of the VMI and the
 * target node its migrationState names (kv_vmires.migrating_to). */
static void
running_migration(const kv_model *m, const vmim_index *ix, kv_vmires *r)
{
	const kv_vmi *v = r->vmi;
	const kv_node *t = v->migration_target != NULL && !v->
	    migration_completed ? kv_model_node(m, v->migration_target) : NULL;

	r->migrating_to = SIZE_MAX;
	if (t == NULL || v->node == NULL || strcmp(t->name, v->node) == 0)
		return;
	for (size_t i = vmim_first(ix, v); i < ix->n; i++) {
		const kv_vmim *mi = ix->v[i];

		if (strcmp(mi->ns, v->ns) != 0 || strcmp(mi->vmi, v->name) != 0)
			break;
		/* VirtualMachineInstanceMigration.IsFinal (kubevirt v1.9.0
		 * staging/src/kubevirt.io/api/core/v1/types.go:847) */
		if (mi->phase != NULL && (strcmp(mi->phase, "Succeeded") == 0 ||
		    strcmp(mi->phase, "Failed") == 0))
			continue;
		r->migrating_to = (size_t)(t - m->nodes);
		r->migrating_by = mi->name;
		return;
	}
}

/* Timeout overrides from the newest VMIM of this VMI that sets them. */
static void
overrides(const vmim_index *ix, const kv_vmi *v, int64_t *unsched,
    int64_t *pending)
{
	const char *u_at = NULL, *p_at = NULL;

	for (size_t i = vmim_first(ix, v); i < ix->n; i++) {
		const kv_vmim *mi = ix->v[i];
		const char *at = mi->created ? mi->created : "";

		if (strcmp(mi->ns, v->ns) != 0 || strcmp(mi->vmi, v->name) != 0)
			break;
		if (mi->unschedulable_timeout >= 0 &&
		    (u_at == NULL || strcmp(at, u_at) >= 0)) {
			*unsched = mi->unschedulable_timeout;
			u_at = at;
		}
		if (mi->pending_timeout >= 0 &&
		    (p_at == NULL || strcmp(at, p_at) >= 0)) {
			*pending = mi->pending_timeout;
			p_at = at;
		}
	}
}

static void
outcome(const kv_analysis *a, const vmim_index *ix, kv_vmires *r)
{
	int64_t unsched = a->cfg.unschedulable_timeout;
	int64_t pending = a->cfg.pending_timeout;

	overrides(ix, r->vmi, &unsched, &pending);
	r->after = -1;
	switch (r->verdict) {
	case V_OK:
		r->outcome = OUT_MIGRATES;
		break;
	case V_NOT_RUNNING:
	case V_NOT_JUDGED:
		r->outcome = OUT_NONE;
		break;
	case V_BLOCKED:
		r->outcome = OUT_REJECTED;
		r->after = 0;
		break;
	case V_NO_TARGET:
		r->outcome = OUT_UNSCHEDULABLE;
		r->after = unsched;
		break;
	case V_WILL_FAIL:
		r->outcome = OUT_PENDING_TIMEOUT;
		r->after = pending;
		break;
	case V_STUCK:
		r->outcome = OUT_PENDING_FOREVER;
		break;
	case V_COUNT:
		break;
	}
}

/* Blocked only by other operations (RULE_OPERATION_SCOPED, DVP: an
 * evacuation runs once they have ended) or by a distribution's own
 * migrate action (RULE_ACTION_SCOPED, Harvester: an evacuation never asks
 * it), so a drain moves the VM. */
static bool
operation_scoped(const kv_vmires *r)
{
	if (r->verdict != V_BLOCKED || r->nblockers == 0 ||
	    r->vmi->cond == 'F')
		return false;
	for (size_t i = 0; i < r->nblockers; i++)
		if (!(r->blockers[i].rule->flags & (RULE_OPERATION_SCOPED |
		    RULE_ACTION_SCOPED)))
			return false;
	return true;
}

bool
kv_drain_moves(const kv_vmires *r)
{
	return r->verdict == V_OK || operation_scoped(r);
}

/* LiveMigratable as virt-controller computes it for a new VMI of the
 * same VM, after a restart.  A change that leaves the VM's facts alone
 * (its evictionStrategy) gives the stored condition again; one a what-if
 * made (restarted) or a missing condition is computed from the facts:
 * False when KubeVirt refuses the migration (verdict blocked, not only by
 * other operations), True otherwise. */
char
kv_cond_after_restart(const kv_analysis *a, const kv_vmires *r)
{
	(void)a;
	if (r->vmi->cond != 0 && !r->vmi->restarted)
		return r->vmi->cond;
	return r->verdict == V_BLOCKED && !operation_scoped(r) ? 'F' : 'T';
}

/* §5: what the pod eviction webhook does with a pod of a VMI with
 * evictionStrategy s, condition LiveMigratable cond and, when moves, a
 * migration that runs. */
enum kv_on_drain
kv_on_drain_for(const char *s, char cond, bool moves)
{
	/* the eviction webhook and the evacuation controller both need
	 * LiveMigratable present and True (vmi.IsMigratable): a missing
	 * condition blocks the drain even when nothing else does (a False
	 * one already made the verdict blocked, unless DVP excused it) */
	if (strcmp(s, "LiveMigrate") == 0)
		return moves && cond != 0 ? DRAIN_MIGRATE : DRAIN_BLOCK;
	if (strcmp(s, "LiveMigrateIfPossible") == 0)
		return cond != 'T' ? DRAIN_SHUTDOWN : moves ? DRAIN_MIGRATE :
		    DRAIN_BLOCK;
	if (strcmp(s, "External") == 0)
		return DRAIN_EXTERNAL;
	return DRAIN_SHUTDOWN;
}

/* A VMI a what-if restarted has the condition virt-controller computes
 * for its new VMI, not the stored one. */
static void
drain_behaviour(const kv_analysis *a, kv_vmires *r)
{
	const kv_vmi *v = r->vmi;
	const char *s = v->eviction && *v->eviction ? v->eviction :
	    a->cfg.eviction;

	r->eviction = s;
	r->on_drain = kv_on_drain_for(s, v->restarted ?
	    kv_cond_after_restart(a, r) : v->cond, kv_drain_moves(r));
	/* a migration under way: the webhook marks the VMI (LiveMigrate,
	 * or IfPossible when migratable) and denies the eviction until the
	 * source pod is gone (kubevirt v1.9.0 pkg/virt-api/webhooks/
	 * validating-webhook/admitters/pod-eviction-admitter.go:144-168);
	 * the evacuation controller starts no other migration for it
	 * (pkg/virt-controller/watch/drain/evacuation/evacuation.go:
	 * 460-464): the drain waits for this one */
	if (r->migrating_to != SIZE_MAX && v->cond == 'T' &&
	    (strcmp(s, "LiveMigrate") == 0 ||
	    strcmp(s, "LiveMigrateIfPossible") == 0))
		r->on_drain = DRAIN_MIGRATE;
}

/* (analysis.h) below the decisions that read it: the rules' own start
 * search needs it too. */
const kv_vmi *
kv_vmi_after_restart(const kv_vmires *r)
{
	if (r->vm != NULL && r->vm->restart_required && r->vm->after != NULL)
		return r->vm->after;
	return r->vmi;
}

/* Where the VMI a drain stops starts again when its VM restarts it: a
 * new VMI from the VM (kubevirt v1.9.0 pkg/virt-controller/watch/vm/
 * vm.go:1868-1874 SetupVMIFromVM; the template after a restart,
 * restart.c), so no status.machine yet and the spec's machine type
 * (pkg/virt-controller/services/template.go:815-824); its own affinity,
 * not a flavor's migration replacement (DVP drops the pins of disks that
 * migrate: a restart moves no disk); no migration's selector.  Then the
 * search of a fresh launcher pod (kv_target_start), for the room the
 * running pod requests. */
static void
start_targets(const kv_analysis *a, const kv_place *place, kv_vmires *r)
{
	kv_vmi v = *kv_vmi_after_restart(r);
	kv_vmires t = *r;

	v.machine_status = NULL;
	if (v.machine_spec == NULL || *v.machine_spec == '\0')
		v.machine_spec = r->vmi->machine_spec;
	memset(&t.selectors, 0, sizeof(t.selectors));
	memset(&t.extra_affinity, 0, sizeof(t.extra_affinity));
	memset(&t.targets, 0, sizeof(t.targets));
	t.vmi = &v;
	t.affinity = &v.affinity;
	t.added_selector = NULL;
	t.added_by = NULL;
	cpu_mode(a, &t);
	kv_target_start(a, place, &t);
	r->start_targets = t.targets;
	for (size_t i = 0; i < t.extra_affinity.nterms; i++)
		free(t.extra_affinity.terms[i].reqs);
	free(t.extra_affinity.terms);
}

void
kv_vmi_start_targets(const kv_analysis *a, kv_vmires *r)
{
	if (r->start_targets.base == NULL && r->start_targets.excl == NULL)
		start_targets(a, a->place, r);
}

static int
issue_cmp(const void *x, const void *y)
{
	const kv_issue *p = x, *q = y;
	int c = strcmp(p->rule->code, q->rule->code);

	/* stable: ties keep emission order (messages are per volume etc.) */
	if (c == 0)
		c = p->seq < q->seq ? -1 : p->seq > q->seq;
	return c;
}

/* Volumes that move by volume migration (DVP) make a stored reason of a
 * RULE_VOLUME_MIGRATION rule no rejection (rules-deckhouse.md §3.2 step
 * 2), unless the rule's own check still found a disk that is not shared. */
static bool
excused_by_volume_migration(const rule_ctx *c)
{
	const kv_rule *rule = kv_rule_by_reason(KV_FLAVOR_KUBEVIRT,
	    c->v->cond_reason);

	return c->r->nmigvols > 0 && rule != NULL &&
	    (rule->flags & RULE_VOLUME_MIGRATION) && !rule_has(c, rule);
}

/* A stored reason volume migration could excuse, when the VirtualDisks
 * that say whether it does are not in the input (notjudged.c). */
static bool
excuse_unknown(const rule_ctx *c, unsigned miss)
{
	const kv_rule *rule = kv_rule_by_reason(KV_FLAVOR_KUBEVIRT,
	    c->v->cond_reason);

	return c->v->cond == 'F' && (miss & KV_NEED_BIT(NEED_VDISKS)) &&
	    rule != NULL && (rule->flags & RULE_VOLUME_MIGRATION) &&
	    !rule_has(c, rule);
}

/* A stored False condition is KubeVirt's word for node-local facts we
 * cannot see: keep it even when no check of ours fired, under the code
 * that names its reason (§3.1) when no check gave that code. */
static bool
stored_condition(rule_ctx *c)
{
	const kv_vmi *v = c->v;
	const kv_rule *rule;

	if (v->cond != 'F' || excused_by_volume_migration(c))
		return false;
	rule = kv_rule_by_reason(KV_FLAVOR_KUBEVIRT, v->cond_reason);
	if (!rule_any_blocked(c) && rule != NULL && !rule_has(c, rule))
		rule_emit(c, rule, "KubeVirt reports LiveMigratable=False: %s",
		    v->cond_message ? v->cond_message : v->cond_reason);
	return true;
}

/* The checks the input lacks data for (notjudged.c): the resources
 * they read for this VMI, and the highest precedence a skipped blocker
 * could have given (0: only warnings were skipped). */
typedef struct skipped {
	unsigned miss;			/* what the VMI lacks (in) */
	unsigned needs;			/* of it, what skipped rows read */
	int rank;
} skipped;

static void
run_rules(rule_ctx *c, enum kv_rule_phase phase, skipped *sk)
{
	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *rule = &kv_rules[i];
		unsigned lack;

		if (rule->phase != phase ||
		    !kv_rule_applies(rule, c->m->flavor->id))
			continue;
		lack = kv_rule_lacks(c->a, c->r, rule);
		if (lack == 0) {
			rule->check(c, rule);
			continue;
		}
		sk->needs |= lack;
		if (rule->severity == SEV_BLOCKER &&
		    verdict_rank(rule->verdict) > sk->rank)
			sk->rank = verdict_rank(rule->verdict);
	}
}

static void
judge(kv_analysis *a, const kv_place *place, const vmim_index *ix,
    kv_vmires *r, unsigned miss)
{
	rule_ctx c = { .a = a, .m = a->m, .v = r->vmi, .r = r,
	    .place = place };
	skipped sk = { .miss = miss };
	int rank = 0;

	c.src = kv_model_node(a->m, r->vmi->node);
	r->source_pod = kv_place_source_pod(place, r->vmi);
	kv_target_build(a, place, r, &c.ti);
	run_rules(&c, PHASE_TARGETS, &sk);
	if (excuse_unknown(&c, miss)) {
		sk.needs |= KV_NEED_BIT(NEED_VDISKS);
		if (verdict_rank(V_BLOCKED) > sk.rank)
			sk.rank = verdict_rank(V_BLOCKED);
	} else if (stored_condition(&c)) {
		r->verdict = V_BLOCKED;
		rank = verdict_rank(V_BLOCKED);
	}
	run_rules(&c, PHASE_CONDITION, &sk);
	for (size_t i = 0; i < r->nblockers; i++) {
		enum kv_verdict v = r->blockers[i].rule->verdict;

		if (verdict_rank(v) > rank) {
			rank = verdict_rank(v);
			r->verdict = v;
		}
	}
	if (rank == 0)
		r->verdict = V_OK;
	/* a check that ran fails it: it fails whatever the skipped ones
	 * say (they could only make the failure an earlier one); else a
	 * skipped blocker could: no verdict is built on the missing data */
	r->not_judged = sk.needs;
	if (rank == 0 && sk.rank > 0)
		r->verdict = V_NOT_JUDGED;
	outcome(a, ix, r);
	drain_behaviour(a, r);
	if (r->verdict == V_NOT_JUDGED)
		r->on_drain = DRAIN_NONE;	/* not known: in no plan */
	else
		run_rules(&c, PHASE_DRAIN, &sk);
	if (r->on_drain == DRAIN_SHUTDOWN)
		start_targets(a, place, r);
	kv_qsort(r->blockers, r->nblockers, sizeof(kv_issue), issue_cmp);
	kv_qsort(r->warnings, r->nwarnings, sizeof(kv_issue), issue_cmp);
	/* as many as there are (rule_emit grows by doubling from 8): the
	 * later phases add with their capacity at the count (warn.c) */
	if (r->nblockers > 0 && r->nblockers < c.cap_blockers)
		r->blockers = xreallocarray(r->blockers, r->nblockers,
		    sizeof(kv_issue));
	if (r->nwarnings > 0 && r->nwarnings < c.cap_warnings)
		r->warnings = xreallocarray(r->warnings, r->nwarnings,
		    sizeof(kv_issue));
}

/* A VMI no check runs for: not running, or not judged for want of
 * what notjudged.c names. */
static void
unjudged(const kv_analysis *a, const vmim_index *ix, kv_vmires *r,
    enum kv_verdict v, unsigned lacks)
{
	r->verdict = v;
	r->not_judged = lacks;
	outcome(a, ix, r);
	drain_behaviour(a, r);
	/* not running: no node to drain; not judged: what a drain does
	 * is not known either (findings.md: onDrain null, in no plan) */
	r->on_drain = DRAIN_NONE;
}

/* The verdict of a->vmis[i], judged with place. */
static void
vmi_one(kv_analysis *a, const kv_place *place, const vmim_index *ix,
    size_t i)
{
	const kv_model *m = a->m;
	kv_vmires *r = &a->vmis[i];
	const kv_policy *p;
	unsigned miss;

	r->vmi = &m->vmis[i];
	r->need = &kv_res_nothing;
	r->vm = kv_model_vm(m, r->vmi->ns, r->vmi->name);
	r->restarts = -1;
	r->restart_node = SIZE_MAX;
	r->cond = r->vmi->cond;
	r->cond_type = "LiveMigratable";
	r->cond_reason = r->vmi->cond_reason;
	r->cond_message = r->vmi->cond_message;
	r->affinity = &r->vmi->affinity;
	if (kv_since_on(a, SINCE_ADDED_SELECTOR))
		pending_selector(ix, r);	/* v1.6.0 (R37) */
	running_migration(m, ix, r);
	if (m->flavor->vmi != NULL)
		m->flavor->vmi(a, r);
	cpu_mode(a, r);
	r->method = kv_migration_method(a, r);
	p = match_policy(m, r->vmi);
	r->policy = p ? p->name : NULL;
	completion_timeout(a, r, p);
	miss = kv_vmi_lacks(a, r);
	if (strcmp(r->vmi->phase, "Running") != 0)
		unjudged(a, ix, r, V_NOT_RUNNING, 0);
	else if ((miss & KV_NEED_BIT(NEED_NODES)) != 0)
		/* without nodes nothing is judged (notjudged.c) */
		unjudged(a, ix, r, V_NOT_JUDGED, kv_rules_need(miss));
	else
		judge(a, place, ix, r, miss);
	r->mismatch = r->cond == 'T' && r->verdict != V_OK &&
	    r->verdict != V_NOT_JUDGED;
}

#define VMIS_RUN 64		/* VMIs in a row one thread judges */
#define SPLIT_VMIS 1024		/* fewer: one thread for a phase */

int
kv_analysis_parts(const kv_analysis *a)
{
	if (a->lender != NULL && !a->lender->copies_alone)
		return 1;
	return kv_runs_parts(a->nvmis, SPLIT_VMIS);
}

typedef struct judging {
	kv_analysis *a;
	const kv_place *place[2];	/* each part's */
	const vmim_index *ix;
} judging;

static void
judge_run(void *arg, int part, size_t from, size_t to)
{
	const judging *j = arg;

	for (size_t i = from; i < to; i++)
		vmi_one(j->a, j->place[part], j->ix, i);
}

/*
 * Every VMI's verdict.  In two parts (kv_analysis_parts), a second
 * thread judges every other run of them (runs.h)
 * with a sibling place (target.h): the two share the placement problems,
 * under a lock, and keep their other caches apart; a problem's answer
 * depends on its key alone, so a VMI's result is the same whichever
 * thread judged it.  The messages and the model's strings are interned
 * under locks meanwhile.
 */
static void
judge_all(kv_analysis *a, kv_place *place, const vmim_index *ix)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	judging j = { a, { place, place }, ix };
	kv_place *sib;
	int parts = kv_analysis_parts(a);

	if (parts == 1) {
		kv_runs(a->nvmis, VMIS_RUN, 1, judge_run, &j);
		return;
	}
	sib = kv_place_sibling(a, place);
	sib->podaff = kv_podaff_build(a, place->podaff);
	j.place[1] = sib;
	a->messages_mu = &mu;
	kv_intern_share(a->m->strs, true);
	kv_place_share(place, sib, true);
	kv_runs(a->nvmis, VMIS_RUN, parts, judge_run, &j);
	kv_place_share(place, sib, false);	/* place keeps sib now */
	kv_intern_share(a->m->strs, false);
	a->messages_mu = NULL;
	pthread_mutex_destroy(&mu);
}

void
kv_vmis_analyze(kv_analysis *a)
{
	const kv_model *m = a->m;
	kv_place *place = kv_place_build(a);
	vmim_index ix;

	place->podaff = kv_podaff_build(a, NULL);
	a->nvmis = m->nvmis;
	a->vmis = xcalloc(m->nvmis + 1, sizeof(kv_vmires));
	vmim_index_build(m, &ix);
	judge_all(a, place, &ix);
	free(ix.v);
	a->place = place;
}
