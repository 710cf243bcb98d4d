/*
 * findings_config.c - the "config" section of findings.json
 * (docs/findings.md "config"): the effective migration settings, whose
 * KubeVirt version's rules applied (and whether only by the product's
 * minor: rulesByMinor), and, when a flavor's operator
 * supplied some of them (OpenShift Virtualization's HyperConverged CR
 * or its defaults), where each came from ("sources").  The caller owns
 * the json_t returned.
 */
#include <jansson.h>
#include <stdint.h>

#include "render/render.h"

static json_t *
jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *
sources(const kv_config *c)
{
	json_t *o = json_object();

	for (size_t i = 0; i < CFGV_COUNT; i++)
		json_object_set_new(o, kv_cfg_value_names[i],
		    json_string(c->source[i]));
	return o;
}

json_t *
kv_json_config(const kv_analysis *a)
{
	const kv_config *c = &a->cfg;
	json_t *o = json_object(), *obs = json_array();
	char ver[32];

	kv_ver_format(c->rules.v, ver, sizeof(ver));
	json_object_set_new(o, "rulesVersion", json_string(ver));
	json_object_set_new(o, "rulesBasis",
	    json_string(kv_ver_basis_names[c->rules.basis]));
	/* a product version judged by its minor's KubeVirt pin only */
	if (c->rules.by_minor)
		json_object_set_new(o, "rulesByMinor", json_true());
	json_object_set_new(o, "cpuModel", json_string(c->cpu_model));
	json_object_set_new(o, "evictionStrategy", json_string(c->eviction));
	json_object_set_new(o, "parallelMigrationsPerCluster",
	    jint(c->parallel_cluster));
	json_object_set_new(o, "parallelOutboundMigrationsPerNode",
	    jint(c->parallel_node));
	json_object_set_new(o, "bandwidthPerMigrationMiBps",
	    jint(c->bandwidth_mibps));
	json_object_set_new(o, "completionTimeoutPerGiB",
	    jint(c->completion_per_gib));
	json_object_set_new(o, "progressTimeout", jint(c->progress_timeout));
	json_object_set_new(o, "unschedulableTimeoutSeconds",
	    jint(c->unschedulable_timeout));
	json_object_set_new(o, "pendingTimeoutSeconds",
	    jint(c->pending_timeout));
	for (size_t i = 0; i < c->nobsolete; i++)
		json_array_append_new(obs, json_string(c->obsolete[i]));
	json_object_set_new(o, "obsoleteCPUModels", obs);
	if (c->sources_said)
		json_object_set_new(o, "sources", sources(c));
	return o;
}
