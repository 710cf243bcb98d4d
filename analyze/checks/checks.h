/*
 * checks.h - KubeVirt's check functions (checks.c), one per row of the
 * rule table (ruletable.c).  The Deckhouse checks are in dvp/dvp.h.
 */
#ifndef KV_CHECKS_H
#define KV_CHECKS_H

#include "analyze/rules/rule_ctx.h"

void check_pod_bridge(rule_ctx *c, const kv_rule *r);
void check_binding(rule_ctx *c, const kv_rule *r);
void check_host_model_unsupported(rule_ctx *c, const kv_rule *r);
void check_host_device(rule_ctx *c, const kv_rule *r);
void check_launch_security(rule_ctx *c, const kv_rule *r);
void check_tsc(rule_ctx *c, const kv_rule *r);
void check_hyperv_passthrough(rule_ctx *c, const kv_rule *r);
/* reasons of older versions (checks_old.c) */
void check_virtiofs(rule_ctx *c, const kv_rule *r);
void check_dedicated_emulator(rule_ctx *c, const kv_rule *r);
void check_persistent_reservation(rule_ctx *c, const kv_rule *r);
void check_backend_storage(rule_ctx *c, const kv_rule *r);
void check_sriov(rule_ctx *c, const kv_rule *r);
void check_sriov_unchecked(rule_ctx *c, const kv_rule *r);
void check_cdrom_copied(rule_ctx *c, const kv_rule *r);
void check_digest_status_image(rule_ctx *c, const kv_rule *r);
void check_disk_not_shared(rule_ctx *c, const kv_rule *r);
void check_claim_unknown(rule_ctx *c, const kv_rule *r);
void check_hostdisk(rule_ctx *c, const kv_rule *r);
void check_digest_config(rule_ctx *c, const kv_rule *r);
void check_digest_none(rule_ctx *c, const kv_rule *r);
void check_host_model_label(rule_ctx *c, const kv_rule *r);
void check_no_cpu_target(rule_ctx *c, const kv_rule *r);
void check_no_placement(rule_ctx *c, const kv_rule *r);
void check_no_capacity(rule_ctx *c, const kv_rule *r);
void check_block_migration(rule_ctx *c, const kv_rule *r);
void check_reconnect(rule_ctx *c, const kv_rule *r);
void check_stale_vendor(rule_ctx *c, const kv_rule *r);
void check_kernel_differs(rule_ctx *c, const kv_rule *r);
void check_guest_cpu_floor(rule_ctx *c, const kv_rule *r);	/* guestos.c */
void check_passthrough(rule_ctx *c, const kv_rule *r);
/* the risks only the snapshot shows (risks.c) */
void check_rwx_node_local(rule_ctx *c, const kv_rule *r);
void check_nested_virt(rule_ctx *c, const kv_rule *r);
void check_launcher_skew(rule_ctx *c, const kv_rule *r);
void check_eviction_blocks(rule_ctx *c, const kv_rule *r);
void check_eviction_shutdown(rule_ctx *c, const kv_rule *r);
/* virt-controller's preconditions (controller.c) */
void check_active_pods(rule_ctx *c, const kv_rule *r);

#endif
