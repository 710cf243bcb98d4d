/*
 * redact.h - the collector's default redaction (docs/snapshot-format.md,
 * "Redaction"), for objects `kvscope convert` takes
 * from a foreign input.
 *
 * Applied in place to one object of resource plural.group:
 * metadata.managedFields and the last-applied annotation removed;
 * annotations other than the kubevirt.io and deckhouse.io keys the
 * analysis reads removed; cloud-init and sysprep payloads of VMs and VMIs
 * replaced by "<redacted: N bytes, sha256:...>"; container env values
 * removed; container args and command removed except in the compute
 * container of virt-launcher pods; PersistentVolume CSI volumeAttributes
 * values and StorageClass parameters (except the DVP local-storage keys)
 * replaced; label values that look like credentials replaced; in
 * DataVolumes, VirtualMachines and VirtualDisks, extraHeaders and strings
 * holding a credential URL (user info, a signed query) replaced, and so
 * are the kept annotations that hold one; probes' guest commands
 * removed and their HTTP header values replaced; the hookSidecars
 * annotation removed; Harvester settings named for credentials,
 * registries, proxies or endpoints replaced.  counts (a JSON object)
 * gains field -> number of removals.
 */
#ifndef KV_REDACT_H
#define KV_REDACT_H

#include <jansson.h>

void kv_redact_object(json_t *o, const char *plural, const char *group,
    json_t *counts);

#endif
