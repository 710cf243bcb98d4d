/*
 * openshift.h - OpenShift Virtualization: plain KubeVirt installed and
 * configured by the HyperConverged Cluster Operator (HCO), which writes
 * the KubeVirt CR from its HyperConverged CR and its own defaults.
 * Reached by the core only through its flavor row (kv_flavor_openshift,
 * openshift/flavor.c).
 */
#ifndef KV_OPENSHIFT_H
#define KV_OPENSHIFT_H

#include <stdbool.h>

#include "analyze/model/model.h"

struct kv_analysis;

/* Whether the snapshot holds a HyperConverged CR (hco.kubevirt.io). */
bool kv_openshift_detect(const kv_model *m);

/* The row's config hook (openshift/config.c): what the KubeVirt CR leaves
 * unset follows the HyperConverged CR, then HCO's defaults of the
 * release; config.sources says which. */
void kv_openshift_config(struct kv_analysis *a);

#endif
