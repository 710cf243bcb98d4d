/*
 * load_distro.c - the objects that name a distribution's product version
 * (kvversion.c): OpenShift Virtualization's HyperConverged CR
 * (hco.kubevirt.io, status.versions[name=operator]) and Harvester's
 * settings.harvesterhci.io server-version.
 */
#include <string.h>

#include "analyze/model/load.h"

int
load_hco(kv_load *ls, jctx *c, json_t *o)
{
	kv_model *m = ls->m;
	json_t *arr, *e;
	size_t i;

	m->hco_present = true;
	if (jget(c, o, "status.versions", JSON_ARRAY, &arr))
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
