/*
 * harvester/checks.c - the checks of Harvester's rule rows: what its
 * migrate action (pkg/api/vm/formatter.go canMigrate, which hides the
 * action, and handler.go, which refuses it) turns down on top of
 * KubeVirt's LiveMigratable condition.  Upstream harvester/harvester:
 *
 *   hostname node selector: v1.2.0 pkg/api/vm/formatter.go:231;
 *     v1.4.2 .. v1.8.2 pkg/util/virtualmachineinstance/
 *     virtualmachineinstance.go:77 (ValidateVMMigratable)
 *   PCIe/USB host devices and vGPUs: v1.4.2 virtualmachineinstance.go:82
 *     and :87 (v1.8.2 :81, :86)
 *   CD-ROM or containerDisk: v1.4.2 virtualmachineinstance.go:92
 *     (VMContainsCDRomOrContainerDisk, :151) to v1.7.3 (:98); gone in
 *     v1.8.0.  Maintenance mode lists the same VMs
 *     (v1.7.1 pkg/controller/master/nodedrain/nodedrain_controller.go
 *     FindNonMigratableVMS, ContainerDiskOrCDRomKey).
 *
 * Which Harvester release: its server-version setting, else the KubeVirt
 * version it ships (Harvester's values.yaml: 1.4.2 ships KubeVirt 1.3.1,
 * 1.8.0 ships 1.7.0; kvversion.c), else the newest release's checks.
 */
#include <string.h>

#include "analyze/harvester/harvester.h"
#include "analyze/rules/rule_ctx.h"
#include "analyze/versions/kvversion.h"

enum hv_check { HV_HOSTNAME, HV_DEVICE, HV_CDROM, HV_COUNT };

/* From which release a check applies and from which it no longer does
 * ({0,0,0}: open), by Harvester's version and by its KubeVirt's. */
static const struct hv_since {
	kv_ver from, until;
	kv_ver kv_from, kv_until;
} hv_since[HV_COUNT] = {
	[HV_HOSTNAME] = { { 1, 2, 0 }, { 0, 0, 0 }, { 0, 0, 0 },
	    { 0, 0, 0 } },
	[HV_DEVICE] = { { 1, 4, 2 }, { 0, 0, 0 }, { 1, 3, 1 },
	    { 0, 0, 0 } },
	[HV_CDROM] = { { 1, 4, 2 }, { 1, 8, 0 }, { 1, 3, 1 },
	    { 1, 7, 0 } },
};

static bool
open_ver(kv_ver v)
{
	return v.major == 0 && v.minor == 0 && v.patch == 0;
}

static bool
within(kv_ver v, kv_ver from, kv_ver until)
{
	return kv_ver_cmp(v, from) >= 0 &&
	    (open_ver(until) || kv_ver_cmp(v, until) < 0);
}

/* Whether the cluster's Harvester release runs check k. */
static bool
hv_applies(const rule_ctx *c, enum hv_check k)
{
	const struct hv_since *s = &hv_since[k];
	const kv_rules_version *rv = &c->a->cfg.rules;
	kv_ver h;

	if (c->m->harvester_version != NULL &&
	    kv_ver_parse(c->m->harvester_version, &h))
		return within(h, s->from, s->until);
	if (rv->range == VRANGE_KNOWN || rv->range == VRANGE_OLDER)
		return within(rv->stated, s->kv_from, s->kv_until);
	return open_ver(s->until);	/* the newest release's checks */
}

/* The release as its setting says it, or the range the check has. */
static const char *
release(const kv_model *m)
{
	kv_ver h;

	return m->harvester_version != NULL &&
	    kv_ver_parse(m->harvester_version, &h) ? m->harvester_version :
	    "v1.4.2-v1.7";
}

void
kv_harvester_check_hostname(rule_ctx *c, const kv_rule *r)
{
	const char *host = kv_labels_get(&c->v->node_selector,
	    "kubernetes.io/hostname");

	if (host != NULL && *host != '\0' && hv_applies(c, HV_HOSTNAME))
		rule_emit(c, r, "Harvester offers no Migrate action: the VM "
		    "is not live migratable as node selector is set "
		    "(kubernetes.io/hostname=%s)", host);
}

void
kv_harvester_check_device(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;

	if (!hv_applies(c, HV_DEVICE))
		return;
	if (v->nhostdevices > 0)
		rule_emit(c, r, "Harvester refuses to migrate: the VM is not "
		    "live migratable as PCIe or USB devices are attached "
		    "(%zu host device%s)", v->nhostdevices,
		    v->nhostdevices == 1 ? "" : "s");
	else if (v->ngpus > 0)
		rule_emit(c, r, "Harvester refuses to migrate: the VM is not "
		    "live migratable as vGPU devices are attached (%s)",
		    v->gpu_device ? v->gpu_device : "unnamed");
}

void
kv_harvester_check_cdrom(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;
	const char *what = NULL, *name = NULL;

	for (size_t i = 0; what == NULL && i < v->ndisks; i++)
		if (v->disks[i].cdrom) {
			what = "CD-ROM disk";
			name = v->disks[i].name;
		}
	for (size_t i = 0; what == NULL && i < v->nvolumes; i++)
		if (v->volumes[i].kind == VOL_CONTAINERDISK) {
			what = "containerDisk volume";
			name = v->volumes[i].name;
		}
	if (what != NULL && hv_applies(c, HV_CDROM))
		rule_emit(c, r, "Harvester %s refuses to migrate: the VM is "
		    "not live migratable as CD-ROM or container disk is set "
		    "(%s %s)", release(c->m), what, name ? name : "unnamed");
}
