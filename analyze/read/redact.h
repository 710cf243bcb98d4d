/*
 * redact.h - the collector's default redaction (docs/snapshot-format.md,
 * "Redaction"), for objects `kvscope convert` takes from a foreign input:
 * the same rules as the collector's jq program, counted under the same
 * field names.
 *
 * Applied in place to one object of resource plural.group.  In every
 * object's metadata and a template's: managedFields and the last-applied
 * annotation removed, annotations other than those the analysis reads
 * removed (hookSidecars too), kept ones holding a credential replaced,
 * label values that look like credentials replaced, and the selector
 * entries that match them; probes' guest commands removed and their HTTP
 * header values replaced; cloud-init and DVP provisioning payloads
 * replaced.  Pods: container env values, commands and arguments removed
 * (but a launcher's compute container's).  DataVolumes, KubeVirt
 * VirtualMachines and VirtualDisks: extraHeaders and credential URLs
 * replaced.  PersistentVolumes: CSI volumeAttributes and *SecretRef
 * fields; StorageClasses: parameters (but DVP's local storage keys);
 * Harvester settings named for credentials, registries, proxies or
 * endpoints.  counts (a JSON object) gains field -> number of removals.
 */
#ifndef KV_REDACT_H
#define KV_REDACT_H

#include <jansson.h>

void kv_redact_object(json_t *o, const char *plural, const char *group,
    json_t *counts);

#endif
