/*
 * controller.c - the preconditions virt-controller checks before it
 * creates a migration's target pod (docs/rules.md "The controller's
 * preconditions"), where the snapshot shows them.
 *
 * handleTargetPodCreation (kubevirt v1.3.1 pkg/virt-controller/watch/
 * migration.go:994-1007, v1.9.0 pkg/virt-controller/watch/migration/
 * migration.go:1346-1358) requeues a Pending migration, without a timeout,
 * while controller.VMIActivePodsCount is above one: the pods of the VMI's
 * namespace it controls whose phase is neither Succeeded nor Failed
 * (v1.9.0 pkg/controller/controller.go:361-383).  A launcher pod is
 * controlled by its VMI and carries kubevirt.io/created-by=<VMI uid>
 * (v1.9.0 pkg/virt-controller/services/template.go:722-723, :1733), which
 * is how the snapshot's pods are matched (kv_place_pods).  A migration
 * under way already has its target pod: that one pod is not a stray.
 * Since v0.41.0 (versions.c active-pods-precondition).
 * Reads the model and the placement index; allocates nothing it keeps.
 */
#include <string.h>

#include "analyze/checks/checks.h"
#include "analyze/rules/place.h"

/* Whether pod phase is final (Succeeded or Failed): not counted. */
static bool
phase_final(const char *phase)
{
	return phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(phase, "Failed") == 0);
}

/* The unfinished migration of VMI v whose target pod p is (its
 * kubevirt.io/migrationJobUID names the VMIM's uid), or NULL. */
static const kv_vmim *
inflight_target(const kv_model *m, const kv_vmi *v, const kv_pod *p)
{
	if (p->migration_job == NULL)
		return NULL;
	for (size_t i = 0; i < m->nvmims; i++) {
		const kv_vmim *mi = &m->vmims[i];

		if (mi->uid != NULL && mi->vmi != NULL &&
		    strcmp(mi->uid, p->migration_job) == 0 &&
		    strcmp(mi->ns, v->ns) == 0 &&
		    strcmp(mi->vmi, v->name) == 0 && !phase_final(mi->phase))
			return mi;
	}
	return NULL;
}

/* "virt-launcher-web-x (Pending, no node, terminating)" into b. */
static void
pod_words(kv_buf *b, const kv_vmi *v, const kv_pod *p)
{
	kv_buf_printf(b, "%s (%s", p->name, p->phase && *p->phase ?
	    p->phase : "no phase");
	if (p->node == NULL)
		kv_buf_printf(b, ", no node");
	else if (v->node != NULL && strcmp(p->node, v->node) == 0)
		kv_buf_printf(b, ", on %s, the source node", p->node);
	else
		kv_buf_printf(b, ", on %s", p->node);
	if (p->terminating)
		kv_buf_printf(b, ", terminating");
	kv_buf_printf(b, ")");
}

void
check_active_pods(rule_ctx *c, const kv_rule *r)
{
	const kv_pod *const *pods;
	size_t n = kv_place_pods(c->place, c->v, &pods), active = 0;
	const kv_vmim *mig = NULL;
	kv_buf b = {0};

	if (!kv_since_on(c->a, SINCE_ACTIVE_PODS))
		return;
	for (size_t i = 0; i < n; i++) {
		if (phase_final(pods[i]->phase))
			continue;
		active++;
		if (mig == NULL)
			mig = inflight_target(c->m, c->v, pods[i]);
	}
	/* the migration under way ends with its source pod Succeeded */
	if (active - (mig != NULL) <= 1)
		return;
	for (size_t i = 0, k = 0; i < n; i++)
		if (!phase_final(pods[i]->phase)) {
			kv_buf_printf(&b, "%s", k++ ? ", " : "");
			pod_words(&b, c->v, pods[i]);
		}
	rule_emit(c, r, "%zu pods of this VMI are active: %s%s%s%s; "
	    "virt-controller creates no target pod while more than one is "
	    "(it waits, with no timeout)", active, b.data,
	    mig ? "; one is the target pod of migration " : "",
	    mig ? mig->name : "", mig ? ", still under way" : "");
	kv_buf_free(&b);
}
