/*
 * fixes.c - the groupings of the rule rows (groups.h) other than storage
 * (fix_storage.c): what subject each code's groups are about, their
 * one-line summary and the fix that names the exact change; and the
 * groups without a row (drain-shutdown, drain-block, condition-false).
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/target.h"

/* The spec path prefix of the VM's pod part (the flavor's row). */
static const char *
tmpl(const kv_analysis *a)
{
	return a->m->flavor->fix->paths[VMPATH_POD];
}

static void
set_fix(kv_group *g, enum kv_fix_action act, const char *value,
    const char *path, bool restart, size_t fixes)
{
	g->fix.action = act;
	g->fix.value = value ? xstrdup(value) : NULL;
	g->fix.path = path;
	g->fix.restart = restart;
	g->fix.fixes = fixes;
}

/* --- CPU ---------------------------------------------------------------- */

static void
key_cpu(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	const kv_node *src = kv_model_node(a->m, r->vmi->node);
	int cls = src ? a->nodes[src - a->m->nodes].cls : -1;

	(void)rule;
	if (r->facts.cpu_object != NULL) {
		kv_gkey_kind(k, SUBJ_CPU_MODEL);
		kv_gkey_addf(k, "%s %s", a->m->flavor->fix->cpu_object,
		    r->facts.cpu_object);
	} else if (r->mode == MODE_NAMED) {
		kv_gkey_kind(k, SUBJ_CPU_MODEL);
		kv_gkey_add(k, r->model);
	} else if (cls >= 0)
		kv_gkey_add(k, a->classes[cls].id);
	else {
		kv_gkey_kind(k, SUBJ_NODE);
		kv_gkey_add(k, r->vmi->node ? r->vmi->node : "-");
	}
}

static const kv_class *
class_by_id(const kv_analysis *a, const char *id)
{
	for (size_t i = 0; i < a->nclasses; i++)
		if (strcmp(a->classes[i].id, id) == 0)
			return &a->classes[i];
	return NULL;
}

static void
resolve_cpu(const kv_analysis *a, kv_group *g)
{
	const kv_vmires *r0 = &a->vmis[g->vmis[0]];
	char *who = kv_group_count_adj(a, g, g->kind == SUBJ_CPU_MODEL ?
	    NULL : kv_mode_names[r0->mode]);
	const kv_class *c = g->kind == SUBJ_CPU_CLASS ?
	    class_by_id(a, g->name) : NULL;
	char *where = c && c->host_model ? xasprintf("CPU class %s (%s)",
	    g->name, c->host_model) : xasprintf("%s %s", g->kind ==
	    SUBJ_CPU_CLASS ? "CPU class" : "node", g->name);

	if (g->kind == SUBJ_CPU_MODEL)
		g->summary = xasprintf("%s with %s%s %s no other node that "
		    "can run %s CPU", who, strncmp(g->name, "Virtual", 7) ?
		    "CPU model " : "", g->name, kv_group_verb(g, "have"),
		    g->nvmis == 1 ? "its" : "their");
	else if (g->rule->verdict == V_BLOCKED)
		g->summary = xasprintf("%s on %s cannot use host-model there",
		    who, where);
	else
		g->summary = xasprintf("%s on %s %s no CPU-compatible target",
		    who, where, kv_group_verb(g, "have"));
	free(who);
	free(where);
	kv_fix_cpu_model(a, g);
}

const kv_grouping kv_grp_cpu = { SUBJ_CPU_CLASS, key_cpu, resolve_cpu };

/* --- network ------------------------------------------------------------ */

static void
key_bridge(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	kv_gkey_add(k, r->vmi->nifaces == 0 && r->vmi->nnetworks == 0 ?
	    "bridge (cluster default)" : "bridge");
}

static void
resolve_bridge(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);
	bool implicit = strcmp(g->name, "bridge") != 0;

	g->summary = xasprintf("%s %s the pod network with %s", who,
	    kv_group_verb(g, "bind"), g->name);
	set_fix(g, FIX_CHANGE_BINDING, "masquerade", implicit ?
	    "spec.template.spec.domain.devices.interfaces" :
	    "spec.template.spec.domain.devices.interfaces[].masquerade",
	    true, g->nvmis);
	g->fix.text = xasprintf("%s in the VirtualMachines (%s) and restart "
	    "them%s; or, if the guest can take a new address after the move, "
	    "annotate the VMIs with "
	    "kubevirt.io/allow-pod-bridge-network-live-migration "
	    "(no restart)", implicit ? "Declare the pod network interface "
	    "with masquerade: {}" : "Replace bridge: {} with masquerade: {} "
	    "on the pod network interface", ex, implicit ? " (or set "
	    "spec.configuration.network.defaultNetworkInterface: masquerade "
	    "in the KubeVirt CR for new VMs)" : "");
	free(who);
	free(ex);
}

const kv_grouping kv_grp_pod_bridge = {
	SUBJ_BINDING, key_bridge, resolve_bridge,
};

static void
key_binding(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	static const char *const n[] = { "none", "masquerade", "bridge",
	    "passt", "sriov", "slirp", "macvtap", "plugin", "other" };
	const kv_vmi *v = r->vmi;

	(void)a;
	(void)rule;
	for (size_t i = 0; v->pod_network && i < v->nifaces; i++)
		if (v->ifaces[i].name &&
		    strcmp(v->ifaces[i].name, v->pod_network) == 0) {
			if (v->ifaces[i].binding == BIND_PLUGIN)
				kv_gkey_addf(k, "plugin %s",
				    v->ifaces[i].plugin ?
				    v->ifaces[i].plugin : "(unnamed)");
			else
				kv_gkey_add(k, n[v->ifaces[i].binding]);
			return;
		}
	kv_gkey_add(k, v->pod_network ? "no interface" : a->cfg.default_iface);
}

static void
resolve_binding(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);
	bool plugin = strncmp(g->name, "plugin ", 7) == 0;

	g->summary = xasprintf("%s %s %s on the pod network, which cannot "
	    "migrate", who, kv_group_verb(g, "use"), g->name);
	set_fix(g, FIX_CHANGE_BINDING, "masquerade",
	    "spec.template.spec.domain.devices.interfaces[].masquerade", true,
	    g->nvmis);
	g->fix.text = xasprintf("Bind the pod network interface of the "
	    "VirtualMachines (%s) with masquerade: {} (or passt) and restart "
	    "them%s%s%s", ex, plugin ? "; or give binding " : "",
	    plugin ? g->name + 7 : "", plugin ? " a migration setting in the "
	    "KubeVirt CR (spec.configuration.network.binding.<name>."
	    "migration)" : "");
	free(who);
	free(ex);
}

const kv_grouping kv_grp_binding = {
	SUBJ_BINDING, key_binding, resolve_binding,
};

/* --- devices and features ----------------------------------------------- */

static void
key_device(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	if (r->vmi->nhostdevices > 0)
		kv_gkey_add(k, "PCI host device");
	else if (r->vmi->ngpus > 0)
		kv_gkey_addf(k, "GPU %s", r->vmi->gpu_device ?
		    r->vmi->gpu_device : "(unnamed)");
}

/* A group whose cause is in the VM but no change kvscope can name makes
 * it migrate: action none, the rule's remediation as the why. */
static void
resolve_none(const kv_analysis *a, kv_group *g, const char *what)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);

	g->summary = xasprintf("%s %s", who, what);
	set_fix(g, FIX_NONE, NULL, NULL, false, 0);
	g->fix.text = xasprintf("Nothing in the VM's spec makes it migrate "
	    "(%s): %s", ex, kv_group_remedy(a, g));
	free(who);
	free(ex);
}

static void
resolve_device(const kv_analysis *a, kv_group *g)
{
	char *what = xasprintf("%s a %s, which cannot migrate",
	    kv_group_verb(g, "use"), g->name);

	resolve_none(a, g, what);
	free(what);
}

const kv_grouping kv_grp_device = { SUBJ_DEVICE, key_device, resolve_device };

static void
key_launch(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	const kv_vmi *v = r->vmi;

	(void)a;
	(void)rule;
	kv_gkey_add(k, v->snp ? "SEV-SNP" : v->sev ? "SEV" : v->tdx ? "TDX" :
	    "Secure Execution");
}

static void
resolve_launch(const kv_analysis *a, kv_group *g)
{
	char *what = xasprintf("%s as %s confidential %s",
	    kv_group_verb(g, "run"), g->name, g->nvmis == 1 ? "guest" :
	    "guests");

	resolve_none(a, g, what);
	free(what);
}

const kv_grouping kv_grp_launch_security = {
	SUBJ_DEVICE, key_launch, resolve_launch,
};

static void
resolve_hyperv(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);

	g->summary = xasprintf("%s %s Hyper-V passthrough", who,
	    kv_group_verb(g, "enable"));
	set_fix(g, FIX_NONE, NULL, "spec.template.spec.domain.features."
	    "hypervPassthrough", true, 0);
	g->fix.text = xasprintf("No setting kvscope can pick: replace "
	    "hypervPassthrough with the explicit Hyper-V enlightenments the "
	    "guest needs in the VirtualMachines (%s) and restart them", ex);
	free(who);
	free(ex);
}

static void
key_hyperv(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)r;
	(void)rule;
	kv_gkey_add(k, "hypervPassthrough");
}

const kv_grouping kv_grp_hyperv = { SUBJ_DEVICE, key_hyperv, resolve_hyperv };

/* --- nodes -------------------------------------------------------------- */

static void
key_source(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	kv_gkey_add(k, r->vmi->node ? r->vmi->node : "-");
}

static void
resolve_tsc(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	char *ex = kv_group_examples(a, g, 5);

	g->summary = xasprintf("%s on node %s %s Hyper-V reenlightenment "
	    "without a TSC frequency hint", who, g->name,
	    kv_group_verb(g, "use"));
	set_fix(g, FIX_RELABEL_NODE, g->name, "metadata.labels", true,
	    g->nvmis);
	g->fix.text = xasprintf("Make node %s carry its cpu-timer.%s/"
	    "tsc-frequency label (virt-handler's node labeller writes it "
	    "when the host reports a TSC frequency), then restart the VMs "
	    "(%s) so they get the hint; or disable reenlightenment in them",
	    g->name, a->cfg.domain, ex);
	free(who);
	free(ex);
}

const kv_grouping kv_grp_tsc = { SUBJ_NODE, key_source, resolve_tsc };

static void
resolve_host_model_label(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	const kv_node *n = kv_model_node(a->m, g->name);
	bool skip = n != NULL && n->skip_labeller;

	g->summary = xasprintf("%s %s host-model on node %s, which has no "
	    "host-model-cpu label: their migrations stay Pending", who,
	    kv_group_verb(g, "run"), g->name);
	set_fix(g, FIX_RELABEL_NODE, g->name, "metadata.labels", false,
	    g->nvmis);
	if (n == NULL)
		g->fix.text = xasprintf("Node %s is not in the snapshot: "
		    "collect it, or give these VMs a named CPU model", g->name);
	else
		g->fix.text = xasprintf("Let the node labeller label node %s: "
		    "%s; once host-model-cpu.%s/<model> is back, the VMs "
		    "migrate without a restart (or give them a named CPU "
		    "model)", g->name, skip ? "remove its skip-node annotation "
		    "(kubectl annotate node ... node-labeller." :
		    "check that virt-handler runs there and reads its "
		    "capabilities", a->cfg.domain);
	if (n != NULL && skip) {
		char *t = xasprintf("Let the node labeller label node %s: "
		    "remove its annotation %s (kubectl annotate node %s %s-); "
		    "once host-model-cpu.%s/<model> is back, the VMs migrate "
		    "without a restart (or give them a named CPU model)",
		    g->name, a->m->flavor->keys[KEY_SKIP_NODE], g->name,
		    a->m->flavor->keys[KEY_SKIP_NODE], a->cfg.domain);

		free(g->fix.text);
		g->fix.text = t;
	}
	free(who);
}

const kv_grouping kv_grp_host_model_label = {
	SUBJ_NODE, key_source, resolve_host_model_label,
};

static void
resolve_source_node(const kv_analysis *a, kv_group *g)
{
	char *what = xasprintf("on node %s", g->name);

	resolve_none(a, g, what);
	free(what);
}

const kv_grouping kv_grp_source_node = {
	SUBJ_NODE, key_source, resolve_source_node,
};

/* --- images ------------------------------------------------------------- */

/* Whether a message starts "volume <name>:". */
static bool
names_volume(const char *msg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(msg, "volume ", 7) == 0 &&
	    strncmp(msg + 7, name, n) == 0 && msg[7 + n] == ':';
}

static void
key_image(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	(void)a;
	(void)rule;
	/* the check's messages name each volume; the image is the fact */
	for (size_t i = 0; i < r->vmi->nvolumes; i++)
		if (r->vmi->volumes[i].kind == VOL_CONTAINERDISK)
			for (size_t b = 0; b < r->nblockers; b++)
				if (r->blockers[b].rule == rule &&
				    names_volume(r->blockers[b].message,
				    r->vmi->volumes[i].name))
					kv_gkey_add(k,
					    r->vmi->volumes[i].image ?
					    r->vmi->volumes[i].image : "?");
}

static void
resolve_image(const kv_analysis *a, kv_group *g, bool config)
{
	char *who = kv_group_count_words(a, g);
	char *nodes = kv_group_node_list(a, g);

	g->summary = xasprintf("%s %s containerDisk %s, whose image ID on "
	    "the node has %s", who, kv_group_verb(g, "use"), g->name,
	    config ? "no repository digest" : "no sha256 digest at all");
	set_fix(g, FIX_REPULL_IMAGE, g->name, NULL, true, g->nvmis);
	if (config)
		g->fix.text = xasprintf("Re-pull the image from its registry "
		    "through the CRI on %s (crictl pull %s), so the node "
		    "records its repository digest, then restart the VMs so "
		    "their launcher pods report it; or reference the image "
		    "by @sha256 digest in %s.volumes[].containerDisk.image",
		    nodes,
		    g->name, tmpl(a));
	else
		g->fix.text = xasprintf("Reference the image by @sha256 digest "
		    "in %s.volumes[].containerDisk.image and restart the VMs; "
		    "or pull it through the CRI on %s (crictl pull %s) with a "
		    "runtime that reports image digests", tmpl(a), nodes,
		    g->name);
	free(who);
	free(nodes);
}

static void
resolve_image_config(const kv_analysis *a, kv_group *g)
{
	resolve_image(a, g, true);
}

static void
resolve_image_none(const kv_analysis *a, kv_group *g)
{
	resolve_image(a, g, false);
}

const kv_grouping kv_grp_image_config = {
	SUBJ_IMAGE, key_image, resolve_image_config,
};
const kv_grouping kv_grp_image_none = {
	SUBJ_IMAGE, key_image, resolve_image_none,
};
