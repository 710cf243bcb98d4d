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
 * A VMI without a VirtualMachine has no controller to start it again;
 * but when the input lacks the VirtualMachines (not listed, forbidden,
 * a `kubectl get` without `vm`), a VMI without one may well have one:
 * its restart is unknown (RESTART_UNKNOWN), never "stays down".
 *
 * A restart of a VM whose template already differs from its VMI
 * (RestartRequired) brings the template (kv_vm.after, template.c):
 * kv_vmi_after_restart() (rules/vmi.c) is what every "after the restart"
 * answer reads, and kv_fix_template_note() says so in a fix that needs
 * the restart.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/decide/groups.h"
#include "analyze/model/need.h"

const char *const kv_restart_names[RESTART_COUNT] = {
	"stays down", "starts again", "unknown",
};

const char *
kv_restart_lack(const kv_model *m, const char *resource, const char *group)
{
	const char *st = NULL;

	if (!kv_model_lacks_res(m, resource, group))
		return NULL;
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];

		if (strcmp(r->resource, resource) == 0 &&
		    strcmp(r->group, group) == 0)
			st = r->status;
	}
	if (st == NULL || strcmp(st, "missing") == 0)
		return "VirtualMachines not in the input";
	return strcmp(st, "forbidden") == 0 ? "VirtualMachines forbidden" :
	    "VirtualMachines not read";
}

enum kv_restart
kv_restart_kubevirt(const kv_model *m, const kv_vmires *r, const char **why)
{
	static const char *const words[RS_COUNT] = {
		"runStrategy Always", "runStrategy RerunOnFailure",
		"runStrategy Once", "runStrategy Manual",
		"runStrategy Halted", "runStrategy WaitAsReceiver",
		"runStrategy unknown",
	};

	if (r->vm == NULL) {
		/* a VMI of its own, or one whose VM the input left out */
		*why = kv_restart_lack(m, "virtualmachines", "kubevirt.io");
		if (*why != NULL)
			return RESTART_UNKNOWN;
		*why = "no VirtualMachine";
		return RESTART_NO;
	}
	*why = words[r->vm->run];
	return r->vm->run == RS_ALWAYS ? RESTART_YES : RESTART_NO;
}

void
kv_fix_template_note(const kv_analysis *a, kv_group *g)
{
	const kv_vm *vm = NULL;
	size_t n = 0;
	char *what, *text;

	if (g->fix.text == NULL || (!g->fix.restart && !g->fix.checked))
		return;
	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];

		if (kv_vmi_after_restart(r) == r->vmi)
			continue;
		if (n++ == 0)
			vm = r->vm;
	}
	if (n == 0)
		return;
	what = kv_vm_differs_text(vm);
	text = xasprintf("%s; the restart brings the template of %s%s "
	    "(RestartRequired; it differs from the running VMI in %s)%s",
	    g->fix.text, vm->fullname, n > 1 ? " and others" : "", what,
	    g->fix.checked ? ", and the re-analysis ran on it" : "");
	free(what);
	free(g->fix.text);
	g->fix.text = text;
}
