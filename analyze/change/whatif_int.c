/*
 * whatif_int.c - what the change functions share (whatif_int.h): the
 * notes, the restart of a VMI a change touches (from its VirtualMachine's
 * template when that differs), and the scope's words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/change/whatif_int.h"
#include "analyze/rules/rule.h"

void
kv_wi_note(kv_whatif *w, char *line)
{
	w->notes = xreallocarray(w->notes, w->nnotes + 1, sizeof(char *));
	w->notes[w->nnotes++] = line;
}

static void
note(kv_whatif *w, char *line)
{
	kv_wi_note(w, line);
}

bool
kv_wi_running(const kv_vmi *v)
{
	return strcmp(v->phase, "Running") == 0;
}

/* A VM whose template differs from its VMI (RestartRequired): the
 * restart creates the new VMI from spec.template (kubevirt v1.9.0
 * pkg/virt-controller/watch/vm/vm.go:1868-1874 SetupVMIFromVM copies
 * vm.Spec.Template), so the VMI becomes the template's (kv_vm.after:
 * CPU, eviction strategy, placement, interfaces, volumes, devices,
 * memory) before the change's own edits. */
static void
from_template(apply_ctx *c, kv_vmi *v)
{
	kv_vm *vm = (kv_vm *)kv_model_vm(c->m, v->ns, v->name);
	char *what;

	if (vm == NULL || !vm->restart_required || vm->after == NULL)
		return;
	what = kv_vm_differs_text(vm);
	note(c->w, xasprintf("%s restarts from its VirtualMachine's template "
	    "(RestartRequired): CPU model %s, evictionStrategy %s; the "
	    "template differs in %s", v->fullname, vm->tmpl_cpu_model ?
	    vm->tmpl_cpu_model : "(cluster default)", vm->tmpl_eviction ?
	    vm->tmpl_eviction : "(cluster default)", what));
	free(what);
	kv_vm_take_after(vm, v);
}

/* A running VMI the change restarts.  KubeVirt computes LiveMigratable
 * again for the new VMI: a stored False whose reason a check of ours
 * judges is dropped, and that check judges the changed facts. */
void
kv_wi_restart(apply_ctx *c, size_t i, size_t *n)
{
	kv_vmi *v = &c->m->vmis[i];

	if (!kv_wi_running(v))
		return;
	if (!c->restarted[i])
		from_template(c, v);
	v->restarted = true;
	if (v->cond == 'F' && v->cond_reason != NULL &&
	    kv_rule_by_reason(c->m->flavor->id, v->cond_reason) != NULL) {
		v->cond = 'T';
		v->cond_reason = v->cond_message = NULL;
	}
	(*n)++;
	if (!c->restarted[i]) {
		c->restarted[i] = true;
		c->w->restarts++;
	}
}

/* The flavor's word for n VMIs: "VMI", "VMIs", "VirtualMachines". */
const char *
kv_wi_vms(const apply_ctx *c, size_t n)
{
	const kv_vocab *w = c->m->flavor->vocab;

	return n == 1 ? w->vm : w->vms;
}

const char *
kv_wi_scope_text(apply_ctx *c, const kv_change *ch)
{
	switch (ch->scope) {
	case SC_NAMESPACE:
		return "namespace";
	case SC_SELECTOR:
		return "selector";
	case SC_ALL:
		snprintf(c->scope, sizeof(c->scope), "every %s",
		    kv_wi_vms(c, 1));
		break;
	case SC_PICK:
		snprintf(c->scope, sizeof(c->scope), "the %s of",
		    kv_wi_vms(c, 2));
		break;
	default:
		return kv_wi_vms(c, 1);
	}
	return c->scope;
}
