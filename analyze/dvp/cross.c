/*
 * dvp/cross.c - the flavor's cross_reasons hook (flavor.h, dvp.h): what
 * a move of a DVP VirtualMachine to another cluster needs of DVP's own
 * objects: its VirtualMachineClass (spec.virtualMachineClassName of
 * SOURCE's VM) on TARGET, with a node for its CPU (the class's
 * status.availableNodes, which TARGET's controller fills with the nodes
 * that run the class's CPU).  Its rows are these two; the messages
 * crosscheck's (docs/crosscheck.md).
 */
#include "analyze/crosscheck/crosscheck.h"
#include "analyze/dvp/dvp.h"

static const kv_xrule rows[] = {
	{ "cross-vm-class", XB_LIVE | XB_COLD,
	    "VirtualMachineClass missing on TARGET",
	    "Create the VirtualMachineClass on TARGET (its CPU as on "
	    "SOURCE, or one TARGET's nodes run) before the move." },
	{ "cross-vm-class-cpu", XB_LIVE | XB_COLD,
	    "TARGET's VirtualMachineClass has no node for its CPU",
	    "Change the class's CPU on TARGET to one its nodes run (a "
	    "model of kvscope models TARGET), or add such a node." },
};

void
kv_dvp_cross_reasons(const kv_model *src, const kv_model *tgt,
    const kv_vmi *v, kv_xvm *vm)
{
	const kv_dvm *d = src->dvp != NULL ? kv_dvp_vm(src, v->ns, v->name) :
	    NULL;
	const kv_dclass *c;

	if (d == NULL || d->class_name == NULL)
		return;
	c = tgt->dvp != NULL ? kv_dvp_class(tgt, d->class_name) : NULL;
	if (c == NULL)
		kv_xvm_add(vm, &rows[0], "TARGET has no VirtualMachineClass "
		    "%s", d->class_name);
	else if (c->available_set && c->navailable == 0)
		kv_xvm_add(vm, &rows[1], "TARGET's VirtualMachineClass %s "
		    "(CPU type %s) lists no available node", c->name,
		    c->cpu_type ? c->cpu_type : "unset");
}
