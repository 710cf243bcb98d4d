/*
 * redact.c - see redact.h.  One function per resource, rows of the table
 * at the end; the rules and the field names counted are the collector's
 * (the targets of snapshot/kvscope-collect's jq program), built from the
 * pieces in redactlib.h.
 */
#include "analyze/read/redact.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/redactlib.h"
#include "analyze/util/util.h"

#define LAST_APPLIED "kubectl.kubernetes.io/last-applied-configuration"

/* --- every resource: metadata, probes, cloud-init, selectors ------------ */

/* md is the metadata at at ("metadata", "spec.template.metadata"). */
static void
meta(json_t *md, const char *at, json_t *counts)
{
	json_t *ann = json_object_get(md, "annotations"), *v;
	json_t *labels = json_object_get(md, "labels");
	char *f, *la, *af, *lf;
	const char *k, *s;
	void *tmp;

	if (md == NULL)
		return;		/* most objects have no template */
	f = xasprintf("%s.managedFields", at);
	la = xasprintf("%s.annotations[\"" LAST_APPLIED "\"]", at);
	af = xasprintf("%s.annotations[*]", at);
	lf = xasprintf("%s.labels[*]", at);
	rd_drop(md, "managedFields", counts, f);
	json_object_foreach_safe(ann, tmp, k, v) {
		s = json_is_string(v) ? json_string_value(v) : "";
		if (strcmp(k, LAST_APPLIED) == 0)
			rd_drop(ann, k, counts, la);
		else if (!rd_kept_annotation(k))
			rd_drop(ann, k, counts, af);
		else if (rd_cred_value(s) || rd_cred_url(s) ||
		    strcasestr(k, "extraheaders") != NULL)
			rd_replace(ann, k, counts, af);
	}
	json_object_foreach(labels, k, v)
		if (json_is_string(v) && (rd_cred_key(k) ||
		    rd_cred_value(json_string_value(v))))
			rd_replace(labels, k, counts, lf);
	free(f);
	free(la);
	free(af);
	free(lf);
}

/* A probe's guest command removed, its HTTP header values replaced, in
 * holder (a spec, a container) at at. */
static void
probes(json_t *holder, const char *at, json_t *counts)
{
	static const char *const names[] = { "readinessProbe",
		"livenessProbe", "startupProbe", NULL };

	for (const char *const *p = names; *p; p++) {
		json_t *probe = json_object_get(holder, *p), *h;
		char *f = xasprintf("%s.%s.exec.command", at, *p);
		size_t i;

		rd_drop(json_object_get(probe, "exec"), "command", counts, f);
		free(f);
		f = xasprintf("%s.%s.httpGet.httpHeaders[].value", at, *p);
		json_array_foreach(json_object_get(json_object_get(probe,
		    "httpGet"), "httpHeaders"), i, h)
			rd_replace(h, "value", counts, f);
		free(f);
	}
}

static const char *const cloudinit[] = { "userData", "userDataBase64",
	"networkData", "networkDataBase64", NULL };

/* Cloud-init payloads of the volumes of spec (at: its name). */
static void
volumes(json_t *spec, const char *at, json_t *counts)
{
	static const char *const srcs[] = { "cloudInitNoCloud",
		"cloudInitConfigDrive", NULL };
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(spec, "volumes"), i, v)
		for (const char *const *s = srcs; *s; s++)
			for (const char *const *k = cloudinit; *k; k++) {
				char *f = xasprintf("%s.volumes[].%s.%s", at,
				    *s, *k);
				json_t *src = json_object_get(v, *s);

				if (json_is_string(json_object_get(src, *k)))
					rd_replace(src, *k, counts, f);
				free(f);
			}
}

static bool
selector_map(const char *k)
{
	return k != NULL && (strcmp(k, "nodeSelector") == 0 ||
	    strcmp(k, "matchLabels") == 0 ||
	    strcmp(k, "addedNodeSelector") == 0 ||
	    strcmp(k, "namespaceSelector") == 0 ||
	    strcmp(k, "virtualMachineInstanceSelector") == 0);
}

/* Below a selector (v at field, under key vkey): the entries of label
 * maps and the values of expressions that look like credentials, as the
 * labels they match are. */
static void
selectors(json_t *v, const char *field, const char *vkey, json_t *counts)
{
	json_t *e, *x;
	const char *k;
	char *key, *name;
	size_t i, j;

	if (json_is_array(v)) {
		name = xasprintf("%s[]", field);
		json_array_foreach(v, i, e)
			selectors(e, name, NULL, counts);
		free(name);
		return;
	}
	/* a copy: the entry "key" of a label map may be replaced below */
	k = json_string_value(json_object_get(v, "key"));
	key = k != NULL ? xstrdup(k) : NULL;
	json_object_foreach(v, k, e) {
		name = rd_sub(field, k);
		if (json_is_string(e)) {
			if (selector_map(vkey) && (rd_cred_key(k) ||
			    rd_cred_value(json_string_value(e)))) {
				char *f = xasprintf("%s[*]", field);

				rd_replace(v, k, counts, f);
				free(f);
			}
		} else if (strcmp(k, "values") == 0 && json_is_array(e)) {
			char *f = xasprintf("%s[]", name);

			json_array_foreach(e, j, x)
				if (json_is_string(x) && ((key != NULL &&
				    rd_cred_key(key)) ||
				    rd_cred_value(json_string_value(x))))
					rd_replace_at(e, j, counts, f);
			free(f);
		} else
			selectors(e, name, k, counts);
		free(name);
	}
	free(key);
}

static void
every(json_t *o, json_t *counts)
{
	static const char *const roots[][4] = {
		{ "spec", "nodeSelector" }, { "spec", "affinity" },
		{ "spec", "topologySpreadConstraints" },
		{ "spec", "template", "spec", "nodeSelector" },
		{ "spec", "template", "spec", "affinity" },
		{ "spec", "addedNodeSelector" },
		{ "spec", "migrate", "nodeSelector" }, { "spec", "selectors" },
		{ "spec", "nodeAffinity" },
		{ "spec", "cpu", "discovery", "nodeSelector" },
	};
	json_t *spec = json_object_get(o, "spec");
	json_t *tspec = json_object_get(json_object_get(spec, "template"),
	    "spec");

	meta(json_object_get(o, "metadata"), "metadata", counts);
	meta(json_object_get(json_object_get(spec, "template"), "metadata"),
	    "spec.template.metadata", counts);
	probes(spec, "spec", counts);
	probes(tspec, "spec.template.spec", counts);
	volumes(spec, "spec", counts);
	volumes(tspec, "spec.template.spec", counts);
	for (const char *const *k = cloudinit; *k; k++) {
		char *f = xasprintf("spec.provisioning.%s", *k);
		json_t *p = json_object_get(spec, "provisioning");

		if (json_is_string(json_object_get(p, *k)))
			rd_replace(p, *k, counts, f);
		free(f);
	}
	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		json_t *v = o;
		char *field = xstrdup(""), *next;
		size_t n = 0;

		for (; n < 4 && roots[r][n] != NULL && v != NULL; n++) {
			v = json_object_get(v, roots[r][n]);
			next = rd_sub(field, roots[r][n]);
			free(field);
			field = next;
		}
		if (v != NULL)
			selectors(v, field, roots[r][n - 1], counts);
		free(field);
	}
}

/* --- one function per resource ------------------------------------------ */

/* Containers' env values, and their commands and arguments but those of a
 * launcher's compute container; their probes. */
static void
pod(json_t *o, json_t *counts)
{
	static const char *const lists[] = { "containers", "initContainers",
		"ephemeralContainers", NULL };
	json_t *labels = json_object_get(json_object_get(o, "metadata"),
	    "labels");
	const char *l = json_string_value(json_object_get(labels,
	    "kubevirt.io"));
	const char *dl = json_string_value(json_object_get(labels,
	    "kubevirt.internal.virtualization.deckhouse.io"));
	bool launcher = (l != NULL && strcmp(l, "virt-launcher") == 0) ||
	    (dl != NULL && strcmp(dl, "virt-launcher") == 0);
	json_t *spec = json_object_get(o, "spec"), *c, *e;
	size_t i, j;

	for (const char *const *ck = lists; *ck; ck++) {
		char *at = xasprintf("spec.%s[]", *ck);
		char *env = xasprintf("%s.env[].value", at);
		char *cmd = xasprintf("%s.command", at);
		char *args = xasprintf("%s.args", at);

		json_array_foreach(json_object_get(spec, *ck), i, c) {
			const char *name = json_string_value(
			    json_object_get(c, "name"));

			json_array_foreach(json_object_get(c, "env"), j, e)
				rd_drop(e, "value", counts, env);
			if (ck != lists + 2)
				probes(c, at, counts);
			if (launcher && ck == lists && name != NULL &&
			    strcmp(name, "compute") == 0)
				continue;
			rd_drop(c, "command", counts, cmd);
			rd_drop(c, "args", counts, args);
		}
		free(at);
		free(env);
		free(cmd);
		free(args);
	}
}

static void urls(json_t *v, const char *field, bool under,
    json_t *counts);

/* A value to replace: a string below extraHeaders (under) or holding a
 * credential URL. */
static bool
url_secret(json_t *e, bool under)
{
	return json_is_string(e) && (under ||
	    rd_cred_url(json_string_value(e)));
}

/* Entry k (value e) of parent, at field: replaced when it is a string
 * below extraHeaders (under) or holding a credential URL, else walked. */
static void
url_entry(json_t *parent, const char *k, json_t *e, const char *field,
    bool under, json_t *counts)
{
	bool headers = under || strcmp(k, "extraHeaders") == 0;
	char *name = rd_sub(field, k);

	if (url_secret(e, headers))
		rd_replace(parent, k, counts, name);
	else
		urls(e, name, headers, counts);
	free(name);
}

/* Below v at field: extraHeaders (every string below one: under) and
 * strings holding a credential URL. */
static void
urls(json_t *v, const char *field, bool under, json_t *counts)
{
	json_t *e;
	const char *k;
	size_t i;
	char *name;

	if (json_is_array(v)) {
		name = xasprintf("%s[]", field);
		json_array_foreach(v, i, e)
			if (url_secret(e, under))
				rd_replace_at(v, i, counts, name);
			else
				urls(e, name, under, counts);
		free(name);
		return;
	}
	json_object_foreach(v, k, e)
		url_entry(v, k, e, field, under, counts);
}

/* Disk image imports (CDI DataVolumes, VM dataVolumeTemplates, DVP
 * VirtualDisks): their URLs and headers, wherever they are but in the
 * metadata and a VM's template (the rules above have those). */
static void
imports(json_t *o, json_t *counts)
{
	json_t *e, *x;
	const char *k, *sk;

	json_object_foreach(o, k, e)
		if (strcmp(k, "spec") == 0 && json_is_object(e)) {
			json_object_foreach(e, sk, x)
				if (strcmp(sk, "template") != 0)
					url_entry(e, sk, x, "spec", false,
					    counts);
		} else if (strcmp(k, "metadata") != 0)
			url_entry(o, k, e, "", false, counts);
}

/* Below a PersistentVolume's spec (v at field): the fields of every
 * *SecretRef but its name and namespace. */
static void
secret_refs(json_t *v, const char *field, json_t *counts)
{
	json_t *e, *x;
	const char *k, *rk;
	char *name, *f;
	size_t i;

	if (json_is_array(v)) {
		name = xasprintf("%s[]", field);
		json_array_foreach(v, i, e)
			secret_refs(e, name, counts);
		free(name);
		return;
	}
	json_object_foreach(v, k, e) {
		if (!json_is_object(e) && !json_is_array(e))
			continue;
		name = rd_sub(field, k);
		if (json_is_object(e) && (kv_endswith(k, "SecretRef") ||
		    kv_endswith(k, "secretRef"))) {
			f = xasprintf("%s[*]", name);
			json_object_foreach(e, rk, x)
				if (json_is_string(x) &&
				    strcmp(rk, "name") != 0 &&
				    strcmp(rk, "namespace") != 0)
					rd_replace(e, rk, counts, f);
			free(f);
		}
		secret_refs(e, name, counts);
		free(name);
	}
}

static void
pv(json_t *o, json_t *counts)
{
	json_t *spec = json_object_get(o, "spec"), *v;
	json_t *m = json_object_get(json_object_get(spec, "csi"),
	    "volumeAttributes");
	const char *k;

	json_object_foreach(m, k, v)
		if (json_is_string(v))
			rd_replace(m, k, counts,
			    "spec.csi.volumeAttributes[*]");
	secret_refs(spec, "spec", counts);
}

static void
storageclass(json_t *o, json_t *counts)
{
	json_t *m = json_object_get(o, "parameters"), *v;
	const char *k;

	json_object_foreach(m, k, v)
		if (json_is_string(v) &&
		    !kv_startswith(k, "local.csi.storage.deckhouse.io/"))
			rd_replace(m, k, counts, "parameters[*]");
}

/* Harvester's settings that hold certificates, keys, passwords, proxies,
 * registry mirrors and their credentials, endpoints (the analysis reads
 * server-version alone). */
static void
harvester_setting(json_t *o, json_t *counts)
{
	static const char *const words[] = { "ssl", "cert", "tls", "passw",
		"secret", "token", "credential", "key", "proxy",
		"backup-target", "registration", "registry", "auth", "url",
		"endpoint", NULL };
	const char *name = json_string_value(json_object_get(
	    json_object_get(o, "metadata"), "name"));
	const char *val = json_string_value(json_object_get(o, "value"));
	const char *def = json_string_value(json_object_get(o, "default"));
	bool secret = (val != NULL && strstr(val, "-----BEGIN") != NULL) ||
	    (def != NULL && strstr(def, "-----BEGIN") != NULL);

	for (const char *const *w = words; *w && !secret && name; w++)
		secret = strstr(name, *w) != NULL;
	if (!secret)
		return;
	if (val != NULL)
		rd_replace(o, "value", counts, "value");
	if (def != NULL)
		rd_replace(o, "default", counts, "default");
}

static const struct {
	const char *plural, *group;	/* group NULL: any */
	void (*fn)(json_t *o, json_t *counts);
} rows[] = {
	{ "pods", "", pod },
	{ "virtualmachines", "kubevirt.io", imports },
	{ "internalvirtualizationvirtualmachines", NULL, imports },
	{ "datavolumes", "cdi.kubevirt.io", imports },
	{ "virtualdisks", "virtualization.deckhouse.io", imports },
	{ "persistentvolumes", "", pv },
	{ "storageclasses", "storage.k8s.io", storageclass },
	{ "settings", "harvesterhci.io", harvester_setting },
};

void
kv_redact_object(json_t *o, const char *plural, const char *group,
    json_t *counts)
{
	every(o, counts);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].plural, plural) == 0 &&
		    (rows[i].group == NULL ||
		    strcmp(rows[i].group, group ? group : "") == 0))
			rows[i].fn(o, counts);
}
