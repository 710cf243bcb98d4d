/*
 * sarif.c - check -o sarif (render.h, docs/sarif.md): SARIF 2.1.0 for
 * code-scanning dashboards.  One run; its driver's rules are the rule
 * table's rows that apply to the snapshot's flavor (title and
 * remediation in its words); one result per running VMI and code, at
 * the pseudo-path namespaces/NS/virtualmachineinstances/NAME, with the
 * VMI as its logical location and a fingerprint of the cluster uid, the
 * VMI uid and the code that stays put from one snapshot to the next.
 */
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "analyze/change/diff.h"
#include "analyze/util/util.h"
#include "render/render.h"
#include "render/view.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

static const char *
level(enum kv_severity s)
{
	return s == SEV_BLOCKER ? "error" : "warning";
}

/* The rule table's rows of a's flavor, and each row's index there
 * (SIZE_MAX: not in the run) in idx, parallel to kv_rules. */
static json_t *
rules(const kv_analysis *a, size_t *idx)
{
	json_t *arr = json_array();
	size_t n = 0;

	for (size_t i = 0; i < kv_nrules; i++) {
		const kv_rule *r = &kv_rules[i];
		const char *title, *rem;

		idx[i] = SIZE_MAX;
		if (!kv_rule_applies(r, a->m->flavor->id))
			continue;
		kv_rule_words_of(r, a->m->flavor, &title, &rem);
		idx[i] = n++;
		json_array_append_new(arr, json_pack("{s:s, s:{s:s}, s:{s:s}, "
		    "s:{s:s}, s:{s:s}}", "id", r->code,
		    "shortDescription", "text", title != NULL ? title : r->code,
		    "fullDescription", "text", title != NULL ? title : r->code,
		    "help", "text", rem != NULL ? rem : "",
		    "defaultConfiguration", "level", level(r->severity)));
	}
	return arr;
}

/* sha256 of the cluster, the VMI and the code, NUL-separated, in hex. */
static json_t *
fingerprint(const char *cluster, const char *vmi, const char *code)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	char hex[2 * EVP_MAX_MD_SIZE + 1];

	if (c == NULL || EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1 ||
	    EVP_DigestUpdate(c, cluster, strlen(cluster) + 1) != 1 ||
	    EVP_DigestUpdate(c, vmi, strlen(vmi) + 1) != 1 ||
	    EVP_DigestUpdate(c, code, strlen(code)) != 1 ||
	    EVP_DigestFinal_ex(c, md, &n) != 1)
		kv_fatal("sha256 failed");
	EVP_MD_CTX_free(c);
	for (unsigned i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return json_pack("{s:s}", "kvscope/v1", hex);
}

static json_t *
result(const kv_analysis *a, const kv_vmires *r, const kv_issue *is,
    size_t rule_index, const char *cluster)
{
	const kv_vmi *v = r->vmi;
	char *uri = xasprintf("namespaces/%s/virtualmachineinstances/%s",
	    v->ns, v->name);
	json_t *o = json_pack("{s:s, s:I, s:s, s:{s:s}, s:[{s:{s:{s:s}}, "
	    "s:[{s:s, s:s, s:s}]}], s:o}",
	    "ruleId", is->rule->code, "ruleIndex", (json_int_t)rule_index,
	    "level", level(is->rule->severity),
	    "message", "text", is->message,
	    "locations", "physicalLocation", "artifactLocation", "uri", uri,
	    "logicalLocations", "name", v->name, "fullyQualifiedName",
	    v->fullname, "kind", "resource",
	    "partialFingerprints", fingerprint(cluster,
	    v->uid != NULL && *v->uid ? v->uid : v->fullname,
	    is->rule->code));

	(void)a;
	free(uri);
	return o;
}

/* One result per running VMI of pick and code (a code twice on a VMI:
 * once). */
static json_t *
results(const kv_analysis *a, const kv_bits *pick, const size_t *idx)
{
	const char *cluster = kv_cluster_uid(a->m, &(enum kv_uid_from){0});
	json_t *arr = json_array();

	if (cluster == NULL)
		cluster = a->m->manifest.context != NULL ?
		    a->m->manifest.context : "";
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];
		size_t n = r->nblockers + r->nwarnings;

		if ((pick != NULL && !kv_bits_test(pick, i)) ||
		    r->verdict == V_NOT_RUNNING)
			continue;
		for (size_t k = 0; k < n; k++) {
			const kv_issue *is = k < r->nblockers ?
			    &r->blockers[k] : &r->warnings[k - r->nblockers];
			bool dup = false;

			for (size_t j = 0; j < k && !dup; j++)
				dup = (j < r->nblockers ? r->blockers[j] :
				    r->warnings[j - r->nblockers]).rule ==
				    is->rule;
			if (!dup)
				json_array_append_new(arr, result(a, r, is,
				    idx[is->rule - kv_rules], cluster));
		}
	}
	return arr;
}

int
kv_write_sarif(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	size_t *idx = xcalloc(kv_nrules + 1, sizeof(size_t));
	json_t *rl = rules(a, idx);
	json_t *doc = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, "
	    "s:o, s:s}]}", "$schema", SARIF_SCHEMA, "version", "2.1.0",
	    "runs", "tool", "driver", "name", "kvscope", "version",
	    KV_VERSION, "rules", rl, "results", results(a, arg, idx),
	    "columnKind", "unicodeCodePoints");
	int rc = kv_doc_write(doc, KV_OUT_JSON, f, err);

	json_decref(doc);
	free(idx);
	return rc;
}
