/*
 * dvp/policy.c - the pure DVP rules more than one module needs (dvp.h):
 * the domain CPU of a class (§6.1), VMOP states and name prefixes, and
 * liveMigrationPolicy against force (§4.3).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/analysis.h"
#include "analyze/dvp/dvp.h"


/* kvbuilder/kvvm.go:53-54 */
#define GENERIC_CPU_MODEL "qemu64"

bool
kv_dvp_class_cpu(kv_intern *strs, const kv_dclass *c, const char **model,
    kv_cpufeat **feats, size_t *nfeats)
{
	const char *t = c->cpu_type;
	kv_cpufeat *f;
	size_t n = 0;
	bool svm = false;

	if (t == NULL)
		return false;
	if (strcmp(t, "Host") == 0)
		*model = kv_intern_str(strs, "host-model");
	else if (strcmp(t, "HostPassthrough") == 0)
		*model = kv_intern_str(strs, "host-passthrough");
	else if (strcmp(t, "Model") == 0) {
		if (c->model == NULL || *c->model == '\0')
			return false;
		*model = c->model;
	} else if (strcmp(t, "Discovery") == 0 || strcmp(t, "Features") == 0)
		*model = kv_intern_str(strs, GENERIC_CPU_MODEL);
	else
		return false;
	*feats = NULL;
	*nfeats = 0;
	if (strcmp(*model, GENERIC_CPU_MODEL) != 0)
		return true;
	/* every enabled feature required, invtsc optional, svm optional
	 * and appended when absent */
	f = xcalloc(c->nenabled + 2, sizeof(kv_cpufeat));
	for (size_t i = 0; i < c->nenabled; i++) {
		bool opt = strcmp(c->enabled[i], "invtsc") == 0 ||
		    strcmp(c->enabled[i], "svm") == 0;

		svm |= strcmp(c->enabled[i], "svm") == 0;
		f[n].name = c->enabled[i];
		f[n].policy = kv_intern_str(strs, opt ? "optional" : "require");
		n++;
	}
	if (!svm) {
		f[n].name = kv_intern_str(strs, "svm");
		f[n].policy = kv_intern_str(strs, "optional");
		n++;
	}
	*feats = f;
	*nfeats = n;
	return true;
}

bool
kv_vmop_finished(const kv_vmop *op)
{
	return strcmp(op->phase, "Completed") == 0 ||
	    strcmp(op->phase, "Failed") == 0 ||
	    strcmp(op->phase, "Superseded") == 0;
}

bool
kv_vmop_is_migration(const kv_vmop *op)
{
	return strcmp(op->type, "Migrate") == 0 ||
	    strcmp(op->type, "Evict") == 0;
}

static const kv_vmop_origin origins[] = {
	{ "evacuation-", "node drain or load redistribution" },
	{ "nodeplacement-update-", "placement change of the VM or its class" },
	{ "firmware-update-", "firmware (QEMU/libvirt) update" },
	{ "hotplug-resources-", "CPU or memory hot-plug" },
	{ "volume-migration-", "disk storage-class change" },
};

const kv_vmop_origin *
kv_vmop_system_origin(const kv_vmop *op)
{
	if (strcmp(op->type, "Evict") != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(origins) / sizeof(origins[0]); i++)
		if (kv_startswith(op->name, origins[i].prefix))
			return &origins[i];
	return NULL;
}

const char *
kv_dvp_policy(const kv_dvm *vm)
{
	return vm != NULL && vm->policy != NULL && *vm->policy != '\0' ?
	    vm->policy : "PreferSafe";
}

bool
kv_dvp_policy_conflict(const char *policy, int force)
{
	return (strcmp(policy, "AlwaysSafe") == 0 && force == 1) ||
	    (strcmp(policy, "AlwaysForced") == 0 && force == 0);
}

bool
kv_dvp_autoconverge(const char *policy, int force)
{
	if (strcmp(policy, "AlwaysForced") == 0)
		return true;
	if (strcmp(policy, "PreferForced") == 0)
		return force != 0;
	if (strcmp(policy, "PreferSafe") == 0)
		return force == 1;
	return false;	/* AlwaysSafe, and Manual/Never (not enforced) */
}


/*
 * After a drain evicted the pod, DVP's power-state handler decides
 * (deckhouse/virtualization cf3a9e6c4 images/virtualization-artifact/pkg/
 * controller/vm/internal/sync_power_state.go): AlwaysOn restarts the VM
 * (handleAlwaysOnPolicy, 252-); AlwaysOnUnlessStoppedManually restarts
 * a Succeeded VMI whose pod was deleted (308-377, "after the deletion of
 * pod"); Manual stops it unless the guest reset itself (203-239);
 * AlwaysOff keeps it off.  runPolicy's default is AlwaysOnUnlessStopped-
 * Manually (the CRD's default).
 */
enum kv_restart
kv_dvp_restarts(const kv_model *m, const kv_vmires *r, const char **why)
{
	const char *p;

	if (r->dvp == NULL || r->dvp->vm == NULL) {
		*why = kv_restart_lack(m, "virtualmachines",
		    "virtualization.deckhouse.io");
		if (*why != NULL)
			return RESTART_UNKNOWN;
		*why = "no VirtualMachine";
		return RESTART_NO;
	}
	p = r->dvp->vm->run_policy;
	if (p == NULL || strcmp(p, "AlwaysOnUnlessStoppedManually") == 0) {
		*why = "runPolicy AlwaysOnUnlessStoppedManually";
		return RESTART_YES;
	}
	if (strcmp(p, "AlwaysOn") == 0) {
		*why = "runPolicy AlwaysOn";
		return RESTART_YES;
	}
	*why = strcmp(p, "Manual") == 0 ? "runPolicy Manual" :
	    strcmp(p, "AlwaysOff") == 0 ? "runPolicy AlwaysOff" :
	    "runPolicy unknown";
	return RESTART_NO;
}
