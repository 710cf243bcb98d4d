/*
 * harvester.h - Harvester (SUSE Virtualization): plain KubeVirt with its
 * own Migrate action and maintenance mode, which refuse or stop more than
 * KubeVirt does.  Three paths move a VM off a node there, and each answer
 * of kvscope is for one: the verdict and blockers for the Migrate action
 * (its rows are RULE_ACTION_SCOPED), onDrain for `kubectl drain`
 * (KubeVirt's evacuation, which none of the action's checks reach), and
 * the harvester-maintenance warning for maintenance mode.  Reached by the
 * core only through its flavor row (kv_flavor_harvester, harvester/
 * flavor.c) and the rule rows of its checks (ruletable.c, only =
 * KV_ONLY(KV_FLAVOR_HARVESTER)).
 */
#ifndef KV_HARVESTER_H
#define KV_HARVESTER_H

#include <stdbool.h>

#include "analyze/model/model.h"

struct kv_rule;
struct rule_ctx;

/* Whether the snapshot holds Harvester's objects (settings.harvesterhci.io
 * or its server-version). */
bool kv_harvester_detect(const kv_model *m);

/* The checks of its rule rows: the Migrate action's (harvester/checks.c)
 * and maintenance mode's (harvester/maintenance.c). */
void kv_harvester_check_hostname(struct rule_ctx *c, const struct kv_rule *r);
void kv_harvester_check_device(struct rule_ctx *c, const struct kv_rule *r);
void kv_harvester_check_cdrom(struct rule_ctx *c, const struct kv_rule *r);
void kv_harvester_check_maintenance(struct rule_ctx *c,
    const struct kv_rule *r);

/* Harvester's behaviours that came or went with a release (the table in
 * harvester/checks.c cites each). */
enum kv_hv_check {
	HV_HOSTNAME,		/* Migrate: kubernetes.io/hostname selector */
	HV_DEVICE,		/* Migrate: host devices, vGPUs */
	HV_CDROM,		/* Migrate: CD-ROM or containerDisk */
	HV_MM_TAINT,		/* maintenance = cordon + kubevirt.io/drain */
	HV_MM_LIST,		/* it lists CD-ROM and PCI VMs, no Force */
	HV_MM_FORCE,		/* FindNonMigratableVMS; Force stops them */
	HV_MM_CDROM,		/* its list holds CD-ROM/containerDisk VMs */
	HV_MM_SELECTOR,		/* its scheduling check reads nodeSelector */
	HV_MM_STRATEGY,		/* harvesterhci.io/maintain-mode-strategy */
	HV_COUNT
};

/* Whether the cluster's Harvester release has behaviour k: by its
 * server-version, else by the KubeVirt it ships, else the newest
 * release's. */
bool kv_hv_applies(const struct rule_ctx *c, enum kv_hv_check k);
/* "Harvester v1.5.0" from its server-version, else "Harvester" and the
 * releases behaviour k covers ("Harvester v1.1.2-v1.7"); interned in
 * m->strs (a rule may run on several threads: the proof's copies). */
const char *kv_hv_release(const kv_model *m, enum kv_hv_check k);

#endif
