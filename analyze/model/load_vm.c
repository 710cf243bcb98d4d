/*
 * load_vm.c - the VirtualMachine loader (load.h): what its controller
 * does when its VMI ends (spec.runStrategy, spec.running) and whether
 * its template already differs from the running VMI (condition
 * RestartRequired), and of the template what a what-if's restart reads
 * (whatif.c): the CPU model and the eviction strategy.  With
 * RestartRequired the whole template is read as the VMI it becomes
 * (kv_vm.after, load_vmi_spec of load_vmi.c): the restart creates the
 * new VMI from it (kubevirt v1.9.0 pkg/virt-controller/watch/vm/
 * vm.go:1868-1874 SetupVMIFromVM copies vm.Spec.Template's metadata and
 * spec); template.c links it to the running VMI.  The scanner leaves the
 * item only the template's CPU model and eviction strategy and hands the
 * template whole beside it (read/jsonskip.c): it is parsed here only for
 * a VM that needs it, which most running VMs do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/load.h"
#include "analyze/read/jsonpool.h"

const char *const kv_run_strategy_names[RS_COUNT] = {
	"Always", "RerunOnFailure", "Once", "Manual", "Halted",
	"WaitAsReceiver", "other",
};

/* The strategy KubeVirt derives (kubevirt v1.9.0 staging/src/kubevirt.io/
 * api/core/v1/types.go:1957-1970): running wins as true = Always,
 * false = Halted; neither set is Halted. */
static void
vm_strategy(kv_vm *vm, const char *text, int running)
{
	vm->run = RS_HALTED;
	vm->run_text = text;
	if (running == 1)
		vm->run = RS_ALWAYS;
	if (running != -1 || text == NULL)
		return;
	vm->run = RS_OTHER;
	for (size_t i = 0; i < RS_OTHER; i++)
		if (strcmp(kv_run_strategy_names[i], text) == 0)
			vm->run = (enum kv_run_strategy)i;
}

static int
vm_conditions(jctx *c, json_t *o, kv_vm *vm)
{
	json_t *conds, *e;
	size_t i;

	if (jget(c, o, "status.conditions", JSON_ARRAY, &conds) != KV_OK)
		return KV_ERR;
	json_array_foreach(conds, i, e) {
		const char *type, *status, *msg;
		json_t *m;

		jwhere(c, "status.conditions[%zu].", i);
		if (!json_is_object(e))
			return jerr(c, "", "expected an object");
		/* the message is checked for each, kept for the one read:
		 * messages are often one per VM (15 MiB at 100,000) */
		if (jstr(c, e, "type", &type) ||
		    jstr(c, e, "status", &status) ||
		    jget(c, e, "message", JSON_STRING, &m))
			return KV_ERR;
		if (type == NULL || strcmp(type, "RestartRequired") != 0 ||
		    status == NULL || strcmp(status, "True") != 0)
			continue;
		if (jstr(c, e, "message", &msg))
			return KV_ERR;
		vm->restart_required = true;
		vm->restart_message = msg;
	}
	jwhere(c, "%s", "");
	return KV_OK;
}

/* spec.template whole: the text set aside, parsed (*own, for the caller
 * to json_decref), or the item's own when nothing was set aside
 * (KVSCOPE_NO_SKIP). */
static int
vm_template(jctx *c, json_t *o, json_t **own, json_t **out)
{
	json_error_t e;

	if (c->aside == NULL) {
		*out = json_object_get(json_object_get(o, "spec"), "template");
		return KV_OK;
	}
	*out = *own = jp_parse(c->aside->text, c->aside->len, &e);
	if (*own == NULL)
		return jerr(c, "spec.template", "not valid JSON: %s", e.text);
	return KV_OK;
}

/* The template t as a VMI of its own (into *out); errors name
 * spec.template.<path>. */
static int
vm_after(jctx *c, json_t *t, kv_vmi **out)
{
	int rc;

	*out = xcalloc(1, sizeof(**out));
	(*out)->memory = -1;
	(*out)->tsc_hint = -1;
	(*out)->phase = "";
	c->root = "spec.template.";
	rc = load_vmi_spec(c, t, *out);
	c->root = NULL;
	return rc;
}

/* The template whole, for a VM that must restart (the VMI it becomes)
 * or is halted (the VMI it would start). */
static int
vm_whole(jctx *c, json_t *o, kv_vm *vm)
{
	json_t *own = NULL, *t;
	int rc = KV_ERR;

	if (vm_template(c, o, &own, &t) != KV_OK)
		goto out;
	if (vm->restart_required && vm_after(c, t, &vm->after) != KV_OK)
		goto out;
	if (vm->run == RS_HALTED && vm_after(c, t, &vm->stopped) != KV_OK)
		goto out;
	rc = KV_OK;
out:
	json_decref(own);
	return rc;
}

int
load_vm(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	kv_vm *vm = KV_PUSH(m->vms, m->nvms, ls->cap_vms);
	const char *text;
	int running = -1;

	json_t *tmpl;

	if (jmeta(c, o, &vm->name, &vm->ns, true) ||
	    jstr(c, o, "spec.runStrategy", &text) ||
	    jbool(c, o, "spec.running", &running) ||
	    vm_conditions(c, o, vm) ||
	    jget(c, o, "spec.template.spec", JSON_OBJECT, &tmpl) ||
	    jstr(c, o, "spec.template.spec.domain.cpu.model",
	    &vm->tmpl_cpu_model) ||
	    jstr(c, o, "spec.template.spec.evictionStrategy",
	    &vm->tmpl_eviction))
		return KV_ERR;
	vm->has_template = tmpl != NULL;
	vm_strategy(vm, text, running);
	if (tmpl != NULL && (vm->restart_required || vm->run == RS_HALTED) &&
	    vm_whole(c, o, vm) != KV_OK)
		return KV_ERR;
	vm->fullname = jfullname(c, vm->ns, vm->name);
	if (vm->stopped != NULL) {
		vm->stopped_why = "runStrategy Halted";
		vm->stopped->ns = vm->ns;
		vm->stopped->name = vm->name;
		vm->stopped->fullname = vm->fullname;
	}
	return kv_load_unique(ls, c, "VirtualMachine", vm->fullname);
}
