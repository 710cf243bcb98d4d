/*
 * openshift/config.c - the migration settings of OpenShift Virtualization
 * (docs/versions.md, OpenShift Virtualization).  HCO copies the
 * HyperConverged CR's spec.liveMigrationConfig into the KubeVirt CR's
 * spec.configuration.migrations (HCO v1.14.0 controllers/operands/
 * kubevirt.go:672 hcLiveMigrationToKv; release-1.19 controllers/handlers/
 * kubevirt.go:767), so the KubeVirt CR, when the snapshot has its
 * spec.configuration, wins; what it leaves unset follows the
 * HyperConverged CR, then the defaults of the operator's release (the
 * API server writes them into the HyperConverged CR), then KubeVirt's.
 * HCO also turns KubeVirt's HypervStrictCheck gate on unless the
 * cluster is emulated (v1.8.0 controllers/operands/kubevirt.go:672,
 * v1.14.0 :990 getMandatoryKvFeatureGates; release-1.19 controllers/
 * handlers/kubevirt.go:1113): without the CR's featureGates list it is
 * taken as on (target.c then asks for the VMI's hyperv.* labels).
 */
#include "analyze/openshift/openshift.h"

#include "analyze/rules/analysis.h"

#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

/* The kubebuilder default of HyperConvergedSpec.LiveMigrationConfig per
 * HCO release (release-1.N is OpenShift Virtualization 4.(N+4)); the
 * first row also stands for the releases before it. */
static const struct hco_defaults {
	int openshift_minor;		/* from OpenShift Virtualization 4.N */
	const char *name;		/* its source in config.sources */
	int64_t parallel_cluster, parallel_node;
	int64_t completion_per_gib, progress_timeout;
} hco_rows[] = {
	/* v1.8.0 api/v1beta1/hyperconverged_types.go:58, the same at
	 * v1.13.0 :75 */
	{ 12, "HCO 1.8-1.13 default, OpenShift Virtualization 4.12-4.17",
	  5, 2, 800, 150 },
	/* v1.14.0 api/v1beta1/hyperconverged_types.go:75, v1.18.0
	 * api/v1/hyperconverged_types.go:229 */
	{ 18, "HCO 1.14-1.18 default, OpenShift Virtualization 4.18-4.22",
	  5, 2, 150, 150 },
	/* release-1.19 api/v1/hyperconverged_types.go:231 (untagged) */
	{ 23, "HCO 1.19 default, OpenShift Virtualization 4.23",
	  5, 1, 20, 150 },
};

static const char hco_spec[] = "HyperConverged CR spec.liveMigrationConfig";
static const char hco_gates[] = "HCO mandatory feature gates: "
    "HypervStrictCheck";

/* The defaults of the snapshot's operator release, or NULL when the
 * release is unknown. */
static const struct hco_defaults *
defaults_of(int openshift_minor)
{
	const struct hco_defaults *d = NULL;

	if (openshift_minor <= 0)
		return NULL;
	for (size_t i = 0; i < NROWS(hco_rows); i++)
		if (i == 0 || hco_rows[i].openshift_minor <= openshift_minor)
			d = &hco_rows[i];
	return d;
}

/* One setting the KubeVirt CR leaves unset (cr < 0): the HyperConverged
 * CR's value, else the release's default (def >= 0). */
static void
follow(kv_config *c, enum kv_cfg_value i, int64_t cr, int64_t hco,
    int64_t def, const struct hco_defaults *d, int64_t *out)
{
	if (cr >= 0)
		return;
	if (hco >= 0) {
		*out = hco;
		c->source[i] = hco_spec;
	} else if (d != NULL && def >= 0) {
		*out = def;
		c->source[i] = d->name;
	}
}

void
kv_openshift_config(kv_analysis *a)
{
	const kv_cluster *k = &a->m->cluster;
	const kv_migset *h = &a->m->hco_migrations;
	kv_config *c = &a->cfg;
	const struct hco_defaults *d =
	    defaults_of(c->rules.openshift_minor);
	int64_t mib = h->bandwidth > 0 ? h->bandwidth / (1 << 20) +
	    (h->bandwidth % (1 << 20) != 0) : h->bandwidth;

	c->sources_said = true;
	follow(c, CFGV_PARALLEL_CLUSTER, k->parallel_cluster,
	    h->parallel_cluster, d ? d->parallel_cluster : -1, d,
	    &c->parallel_cluster);
	follow(c, CFGV_PARALLEL_NODE, k->parallel_node, h->parallel_node,
	    d ? d->parallel_node : -1, d, &c->parallel_node);
	/* HCO has no bandwidth default: unlimited, as KubeVirt's */
	follow(c, CFGV_BANDWIDTH, k->bandwidth, mib, -1, d,
	    &c->bandwidth_mibps);
	follow(c, CFGV_COMPLETION, k->completion_per_gib,
	    h->completion_per_gib, d ? d->completion_per_gib : -1, d,
	    &c->completion_per_gib);
	follow(c, CFGV_PROGRESS, k->progress_timeout, h->progress_timeout,
	    d ? d->progress_timeout : -1, d, &c->progress_timeout);
	if (!k->gates_set) {
		c->gate_hyperv_strict = true;
		c->source[CFGV_GATES] = hco_gates;
	}
}
