/*
 * checks_old.c - the checks of reasons that older KubeVirt versions report
 * and v1.9 does not (docs/versions.mdR15-R18).
 * Each predicts the reason from the VMI's spec where the version table
 * (versions.c) says the snapshot's version reports it; a stored condition
 * with the reason gets the code through the row's reasons either way.
 */
#include <string.h>

#include "analyze/checks/checks.h"

void
check_virtiofs(rule_ctx *c, const kv_rule *r)
{
	if (c->v->nfilesystems > 0 && !kv_since_on(c->a, SINCE_VIRTIOFS_OK))
		rule_emit(c, r, "filesystem %s is shared with virtiofs, which "
		    "this KubeVirt version (before v1.5.0) does not migrate",
		    c->v->filesystems[0]);
}

void
check_dedicated_emulator(rule_ctx *c, const kv_rule *r)
{
	const kv_ver *v = &c->a->cfg.rules.v;

	/* reported from v0.58.1 (PR #8233) until the fix */
	if (c->v->dedicated_cpu && c->v->isolate_emulator &&
	    !kv_since_on(c->a, SINCE_DEDICATED_OK) &&
	    kv_ver_cmp(*v, (kv_ver){ 0, 58, 1 }) >= 0)
		rule_emit(c, r, "dedicated CPUs with isolateEmulatorThread: "
		    "this KubeVirt version (v0.58.1-v1.0.1) does not migrate "
		    "them");
}

void
check_persistent_reservation(rule_ctx *c, const kv_rule *r)
{
	if (kv_since_on(c->a, SINCE_PR_OK))
		return;
	for (size_t i = 0; i < c->v->ndisks; i++)
		if (c->v->disks[i].lun_reservation) {
			rule_emit(c, r, "disk %s is a LUN with SCSI persistent "
			    "reservation, which this KubeVirt version "
			    "(before v1.9.0) does not migrate",
			    c->v->disks[i].name ? c->v->disks[i].name : "");
			return;
		}
}

/* v1.3.x only, from the stored message (v1.3.1 pkg/virt-handler/
 * vm.go:2526): the backend PVC is no VMI volume. */
void
check_backend_storage(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;

	if (v->cond == 'F' && v->cond_reason != NULL &&
	    strcmp(v->cond_reason, "DisksNotLiveMigratable") == 0 &&
	    v->cond_message != NULL &&
	    strstr(v->cond_message, "Backend storage PVC is not RWX") != NULL)
		rule_emit(c, r, "KubeVirt reports LiveMigratable=False: %s",
		    v->cond_message);
}
