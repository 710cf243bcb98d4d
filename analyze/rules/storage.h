/*
 * storage.h - what the rules need to know about a VMI's volumes: shared or
 * not (the VMI's volumeStatus first, as KubeVirt reads it, then the PVC
 * object), local, migrated, moved by volume migration, and the migration
 * method that follows (rules-kubevirt.md §3.3).  Pure functions over the
 * model and a VMI's result; nothing is allocated but the text appended to
 * a caller's kv_buf.
 */
#ifndef KV_STORAGE_H
#define KV_STORAGE_H

#include "analyze/rules/analysis.h"

enum kv_claim_state { CLAIM_RWX, CLAIM_NOT_SHARED, CLAIM_UNKNOWN };

/* The volumeStatus entry of volume name, or NULL. */
const kv_volstatus *kv_volstatus_of(const kv_vmi *v, const char *name);
/* Whether status.migratedVolumes names volume name. */
bool kv_volume_migrated(const kv_vmi *v, const char *name);
/* Whether volume vol is copied by a block migration (§3.3); ro_cdrom:
 * whether a volume only a read-only CD-ROM uses is (before v0.49.0,
 * versions.c SINCE_CDROM_NO_BLOCK). */
bool kv_volume_is_local(const kv_vmi *v, const kv_volume *vol,
    bool ro_cdrom);
/* RWX or not of a PVC or DataVolume volume's claim; *modes names the
 * access modes for messages (NULL when unknown). */
enum kv_claim_state kv_claim_state(const kv_model *m, const kv_vmi *v,
    const kv_volume *vol, const char **modes);
/* Whether the claim is known and not ReadWriteMany. */
bool kv_claim_not_shared(const kv_model *m, const kv_vmi *v,
    const kv_volume *vol);
/* ", storage class x (provisioner)" of claim in ns, appended to b. */
void kv_describe_claim(const kv_model *m, const char *ns, const char *claim,
    kv_buf *b);
/* The flavor's own name for the volume ("VirtualDisk x, "), if any. */
void kv_describe_volume(const kv_model *m, const char *ns,
    const kv_volume *vol, kv_buf *b);
/* Whether vol moves by volume migration (r->migvols). */
bool kv_volume_migrates(const kv_vmires *r, const kv_volume *vol);
/* Whether vol makes the migration a block migration, and why. */
bool kv_volume_blocks(const kv_analysis *a, const kv_vmires *r,
    const kv_volume *vol, const char **why);
/* "BlockMigration" or "LiveMigration", as virt-handler sets it. */
const char *kv_migration_method(const kv_analysis *a, const kv_vmires *r);

#endif
