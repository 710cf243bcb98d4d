/*
 * harvester.h - Harvester (SUSE Virtualization): plain KubeVirt with its
 * own migrate action and maintenance mode, which refuse more than
 * KubeVirt does.  Reached by the core only through its flavor row
 * (kv_flavor_harvester, harvester/flavor.c) and the rule rows of its
 * checks (ruletable.c, only = KV_ONLY(KV_FLAVOR_HARVESTER)).
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

/* The checks of its rule rows (harvester/checks.c). */
void kv_harvester_check_hostname(struct rule_ctx *c, const struct kv_rule *r);
void kv_harvester_check_device(struct rule_ctx *c, const struct kv_rule *r);
void kv_harvester_check_cdrom(struct rule_ctx *c, const struct kv_rule *r);

#endif
