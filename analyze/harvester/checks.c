/*
 * harvester/checks.c - the checks of the rows of Harvester's Migrate
 * action (the VM's Migrate in its UI and API: pkg/api/vm/formatter.go
 * canMigrate hides the action, handler.go migrate refuses it) on top of
 * KubeVirt's LiveMigratable condition, and the release table every
 * Harvester check reads.  A blocker here answers "can I press Migrate";
 * a drain never asks the action (RULE_ACTION_SCOPED).  Upstream
 * harvester/harvester:
 *
 *   hostname node selector: v1.2.0 pkg/api/vm/formatter.go:230-233
 *     (canMigrate), handler.go:356-358; v1.4.2 .. v1.8.2
 *     pkg/util/virtualmachineinstance/virtualmachineinstance.go:76-79
 *     (ValidateVMMigratable, v1.8.2 :75-78)
 *   PCIe/USB host devices and vGPUs: v1.4.2 virtualmachineinstance.go:
 *     81-89 (v1.8.2 :80-88); none before
 *   CD-ROM or containerDisk: v1.1.2 pkg/api/vm/handler.go:323-333
 *     ("Disk %s is CD-ROM, needs to be ejected before migration"),
 *     v1.3.1 :360-370, v1.4.1 :412-415 (VMContainsCDRomOrContainerDisk);
 *     v1.4.2 virtualmachineinstance.go:91-94 to v1.7.3 :97-100; gone in
 *     v1.8.0.  Not in v1.1.1 (handler.go:301-315).
 *
 * Which Harvester release: its server-version setting, else the KubeVirt
 * version it ships (Harvester's values.yaml, kvversion.c: 0.54 is 1.1.0
 * to 1.2.1, 1.1.1 is 1.2.2 to 1.3.2, 1.2.2 is 1.4.0/1.4.1, 1.3.1 is
 * 1.4.2/1.4.3, 1.7.0 is 1.8.0/1.8.1), else the newest release's checks.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/harvester/harvester.h"
#include "analyze/rules/rule_ctx.h"
#include "analyze/versions/kvversion.h"

/* From which release a behaviour applies and from which it no longer
 * does ({0,0,0}: open), by Harvester's version and by its KubeVirt's;
 * words: the releases for messages when only KubeVirt's is known.  The
 * maintenance rows cite harvester/maintenance.c. */
static const struct hv_since {
	kv_ver from, until;
	kv_ver kv_from, kv_until;
	const char *words;
} hv_since[HV_COUNT] = {
	[HV_HOSTNAME] = { { 1, 2, 0 }, { 0, 0, 0 }, { 0, 54, 0 },
	    { 0, 0, 0 }, "v1.2.0 on" },
	[HV_DEVICE] = { { 1, 4, 2 }, { 0, 0, 0 }, { 1, 3, 1 },
	    { 0, 0, 0 }, "v1.4.2 on" },
	[HV_CDROM] = { { 1, 1, 2 }, { 1, 8, 0 }, { 0, 54, 0 },
	    { 1, 7, 0 }, "v1.1.2-v1.7" },
	[HV_MM_TAINT] = { { 0, 0, 0 }, { 1, 1, 2 }, { 0, 0, 0 },
	    { 0, 54, 0 }, "v1.0-v1.1.1" },
	[HV_MM_LIST] = { { 1, 2, 0 }, { 1, 3, 2 }, { 0, 54, 0 },
	    { 1, 2, 2 }, "v1.2.0-v1.3.1" },
	[HV_MM_FORCE] = { { 1, 3, 2 }, { 0, 0, 0 }, { 1, 2, 2 },
	    { 0, 0, 0 }, "v1.3.2 on" },
	[HV_MM_CDROM] = { { 1, 2, 0 }, { 1, 8, 0 }, { 0, 54, 0 },
	    { 1, 7, 0 }, "v1.2.0-v1.7" },
	[HV_MM_SELECTOR] = { { 1, 4, 0 }, { 0, 0, 0 }, { 1, 2, 2 },
	    { 0, 0, 0 }, "v1.4.0 on" },
	[HV_MM_STRATEGY] = { { 1, 4, 0 }, { 0, 0, 0 }, { 1, 2, 2 },
	    { 0, 0, 0 }, "v1.4.0 on" },
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

bool
kv_hv_applies(const rule_ctx *c, enum kv_hv_check k)
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

const char *
kv_hv_release(const kv_model *m, enum kv_hv_check k)
{
	char buf[80];
	kv_ver h;

	if (m->harvester_version != NULL &&
	    kv_ver_parse(m->harvester_version, &h))
		snprintf(buf, sizeof(buf), "Harvester %.40s",
		    m->harvester_version);
	else
		snprintf(buf, sizeof(buf), "Harvester %s",
		    hv_since[k].words);
	return kv_intern_str(m->strs, buf);
}

void
kv_harvester_check_hostname(rule_ctx *c, const kv_rule *r)
{
	const char *host = kv_labels_get(&c->v->node_selector,
	    "kubernetes.io/hostname");

	if (host != NULL && *host != '\0' && kv_hv_applies(c, HV_HOSTNAME))
		rule_emit(c, r, "%s offers no Migrate action: the VM is not "
		    "live migratable as node selector is set "
		    "(kubernetes.io/hostname=%s); a drain does not ask the "
		    "action", kv_hv_release(c->m, HV_HOSTNAME), host);
}

void
kv_harvester_check_device(rule_ctx *c, const kv_rule *r)
{
	const kv_vmi *v = c->v;
	const char *rel = kv_hv_release(c->m, HV_DEVICE);

	if (!kv_hv_applies(c, HV_DEVICE))
		return;
	if (v->nhostdevices > 0)
		rule_emit(c, r, "%s's Migrate action refuses: the VM is not "
		    "live migratable as PCIe or USB devices are attached "
		    "(%zu host device%s)", rel, v->nhostdevices,
		    v->nhostdevices == 1 ? "" : "s");
	else if (v->ngpus > 0)
		rule_emit(c, r, "%s's Migrate action refuses: the VM is not "
		    "live migratable as vGPU devices are attached (%s)", rel,
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
	if (what != NULL && kv_hv_applies(c, HV_CDROM))
		rule_emit(c, r, "%s's Migrate action refuses: the VM has a "
		    "CD-ROM or container disk (%s %s), which must be "
		    "ejected or removed before migration",
		    kv_hv_release(c->m, HV_CDROM), what,
		    name ? name : "unnamed");
}
