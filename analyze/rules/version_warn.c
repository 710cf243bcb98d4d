/*
 * version_warn.c - what kvscope says about the snapshot's KubeVirt
 * version (kvversion.h): newer than the newest row, unreadable, older than
 * the oldest, or contradicted by what the cluster's own labeller and
 * controllers wrote (docs/versions.md).  Each is one
 * snapshot warning and one coded warning (kv_analysis_warn), which the
 * cli prints on stderr with the others.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/analysis.h"

/* The coded warnings of findings.md ("version-newer", ...). */
enum version_warning {
	VW_UNKNOWN, VW_NEWER, VW_OLDER, VW_MISMATCH, VW_COUNT
};

static const enum kv_warning_code vw_code[VW_COUNT] = {
	[VW_UNKNOWN] = KV_WARN_VERSION_UNKNOWN,
	[VW_NEWER] = KV_WARN_VERSION_NEWER,
	[VW_OLDER] = KV_WARN_VERSION_OLDER,
	[VW_MISMATCH] = KV_WARN_VERSION_MISMATCH,
};

/* The one place these warnings are added: a snapshot warning (the
 * string, as analysis.c's) and the same fact coded. */
static void
version_warn(kv_analysis *a, enum version_warning code, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
version_warn(kv_analysis *a, enum version_warning code, const char *fmt,
    ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		kv_fatal("out of memory");
	va_end(ap);
	a->warnings = xreallocarray(a->warnings, a->nwarnings + 1,
	    sizeof(char *));
	a->warnings[a->nwarnings++] = s;
	kv_analysis_warn(a, vw_code[code], "%s", s);
}

static bool
node_label_is(const kv_model *m, const char *key, const char *value)
{
	for (size_t i = 0; i < m->nnodes; i++) {
		const char *v = kv_labels_get(&m->nodes[i].labels, key);

		if (v != NULL && strcmp(v, value) == 0)
			return true;
	}
	return false;
}

static bool
by_version(const kv_analysis *a, enum kv_since_id id)
{
	return kv_since_has(&kv_since_rows[id], a->cfg.rules.stated);
}

/* The fingerprints that contradict the stated version, into b. */
static void
fingerprints(const kv_analysis *a, kv_buf *b)
{
	const kv_model *m = a->m;
	char *mt = xasprintf("machine-type.%s/", a->cfg.domain);
	char *rt = xasprintf("%srealtime", a->cfg.kv_prefix);
	char mig[256];
	bool added = false;

	kv_cpu_key_text(a, "cpu-model-migration", "", mig, sizeof(mig));

	for (size_t i = 0; i < m->nvmims; i++)
		added |= m->vmims[i].added_selector.n > 0;
	if (!by_version(a, SINCE_MACHINE_TYPE) &&
	    kv_model_node_key_prefix(m, mt))
		kv_buf_printf(b, "%snodes carry %s* labels (v1.5.1 and later)",
		    b->len ? "; " : "", mt);
	if (by_version(a, SINCE_LABEL_TRUE) && node_label_is(m, rt, ""))
		kv_buf_printf(b, "%snodes carry %s=\"\" (v1.5.2 and earlier)",
		    b->len ? "; " : "", rt);
	if (!by_version(a, SINCE_CPU_MODEL_MIGRATION) &&
	    kv_model_node_key_prefix(m, mig))
		kv_buf_printf(b, "%snodes carry %s* labels (v0.54.0 and "
		    "later)", b->len ? "; " : "", mig);
	if (!by_version(a, SINCE_ADDED_SELECTOR) && added)
		kv_buf_printf(b, "%sa migration has spec.addedNodeSelector "
		    "(v1.6.0 and later)", b->len ? "; " : "");
	free(mt);
	free(rt);
}

void
kv_version_warnings(kv_analysis *a)
{
	const kv_rules_version *rv = &a->cfg.rules;
	char s[32], n[32];
	kv_buf b = {0};

	kv_ver_format(rv->stated, s, sizeof(s));
	if (rv->range == VRANGE_NEWER)
		version_warn(a, VW_NEWER, "KubeVirt %s is newer than the rules "
		    "kvscope has (v%d.%d): answers follow v%d.%d", s,
		    kv_ver_newest.major, kv_ver_newest.minor,
		    kv_ver_newest.major, kv_ver_newest.minor);
	else if (rv->range == VRANGE_UNREADABLE)
		version_warn(a, VW_UNKNOWN, "KubeVirt version unknown (no "
		    "readable KubeVirt CR status, manifest kubevirtVersion or "
		    "launcher image tag): answers follow v%d.%d",
		    kv_ver_newest.major, kv_ver_newest.minor);
	else if (rv->range == VRANGE_OLDER)
		version_warn(a, VW_OLDER, "KubeVirt %s is older than the rules "
		    "kvscope has (v%d.%d): checks that differ by version are "
		    "not judged", s, kv_ver_oldest.major,
		    kv_ver_oldest.minor);
	if (rv->range == VRANGE_UNREADABLE)
		return;
	fingerprints(a, &b);
	kv_ver_format(rv->v, n, sizeof(n));
	if (b.len > 0)
		version_warn(a, VW_MISMATCH, "KubeVirt %s (%s) contradicts the "
		    "cluster: %s; answers follow %s", s,
		    kv_ver_basis_names[rv->basis], b.data, n);
	kv_buf_free(&b);
}
