/*
 * load_distro.c - the objects that name a distribution's product version
 * (kvversion.c): OpenShift Virtualization's HyperConverged CR
 * (hco.kubevirt.io, status.versions[name=operator]) and Harvester's
 * settings.harvesterhci.io server-version.  The HyperConverged CR's
 * spec.liveMigrationConfig is kept raw for the OpenShift flavor row
 * (openshift/config.c); HCO v1.14.0 api/v1beta1/hyperconverged_types.go
 * LiveMigrationConfigurations names the fields.
 */
#include <string.h>

#include "analyze/model/load.h"

static int
hco_migrations(jctx *c, json_t *o, kv_migset *s)
{
	return jint(c, o, "spec.liveMigrationConfig."
	    "parallelMigrationsPerCluster", &s->parallel_cluster) ||
	    jint(c, o, "spec.liveMigrationConfig."
	    "parallelOutboundMigrationsPerNode", &s->parallel_node) ||
	    jquantity(c, o, "spec.liveMigrationConfig.bandwidthPerMigration",
	    &s->bandwidth) ||
	    jint(c, o, "spec.liveMigrationConfig.completionTimeoutPerGiB",
	    &s->completion_per_gib) ||
	    jint(c, o, "spec.liveMigrationConfig.progressTimeout",
	    &s->progress_timeout) ? KV_ERR : KV_OK;
}

int
load_hco(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	json_t *arr, *e;
	size_t i;

	m->hco_present = true;
	if (hco_migrations(c, o, &m->hco_migrations) ||
	    jget(c, o, "status.versions", JSON_ARRAY, &arr))
		return KV_ERR;
	if (arr != NULL)
		json_array_foreach(arr, i, e) {
			const char *name, *version;

			jwhere(c, "status.versions[%zu].", i);
			if (!json_is_object(e))
				return jerr(c, "", "expected an object");
			if (jstr(c, e, "name", &name) ||
			    jstr(c, e, "version", &version))
				return KV_ERR;
			if (name != NULL && strcmp(name, "operator") == 0)
				m->hco_version = version;
		}
	return KV_OK;
}

int
load_harvester_setting(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	const char *name, *value;

	if (jmeta(c, o, &name, NULL, false) || jstr(c, o, "value", &value))
		return KV_ERR;
	m->harvester_present = true;
	if (name != NULL && strcmp(name, "server-version") == 0)
		m->harvester_version = value;
	return KV_OK;
}
