/*
 * restart.c - whether a VirtualMachine starts its VMI again after a drain
 * evicted the VMI's launcher pod (analysis.h kv_restart_kubevirt), as
 * KubeVirt's VM controller decides it.
 *
 * An evicted launcher pod is deleted: virt-launcher shuts the guest down
 * (ACPI), and virt-handler records the VMI Succeeded when the domain shut
 * off with reason Shutdown, Failed only when it had to be destroyed after
 * the grace period (kubevirt v1.9.0 pkg/virt-handler/vm.go:2352-2368).
 * The VM controller's syncRunStrategy (pkg/virt-controller/watch/vm/
 * vm.go, v1.9.0) then:
 *   Always          a final VMI is deleted and a new one started
 *                   (979-1037): starts again;
 *   RerunOnFailure  restarts only a Failed VMI (1039-1086): a guest that
 *                   shuts down cleanly stays down;
 *   Once            starts only when no VMI exists (1140-1148): the
 *                   ended VMI stays;
 *   Manual          starts only on a start request (1088-1113);
 *   Halted          never runs a VMI (1115-1139).
 * A VMI without a VirtualMachine has no controller to start it again.
 */
#include <string.h>

#include "analyze/rules/analysis.h"

bool
kv_restart_kubevirt(const kv_vmires *r, const char **why)
{
	static const char *const words[RS_COUNT] = {
		"runStrategy Always", "runStrategy RerunOnFailure",
		"runStrategy Once", "runStrategy Manual",
		"runStrategy Halted", "runStrategy WaitAsReceiver",
		"runStrategy unknown",
	};

	if (r->vm == NULL) {
		*why = "no VirtualMachine";
		return false;
	}
	*why = words[r->vm->run];
	return r->vm->run == RS_ALWAYS;
}

const kv_vmi *
kv_vmi_after_restart(const kv_vmires *r)
{
	if (r->vm != NULL && r->vm->restart_required && r->vm->after != NULL)
		return r->vm->after;
	return r->vmi;
}
