/*
 * policyfix.c - the MigrationPolicy a set-migration-policy fix creates
 * (estimate.h kv_fix_policy): what decide/fix_migration.c words and
 * change/whatif_fix.c writes into a what-if's model, one definition.
 *
 * KubeVirt applies one MigrationPolicy to a VMI, the one whose selectors
 * match the most labels, VMI labels first, ties to the smaller name
 * (kubevirt v1.9.0 pkg/virt-controller/watch/migration/
 * migrationpolicy.go:44-80 matchPolicy, :84-124 countMatchingLabels),
 * and merges its non-nil fields over the cluster's (:126-146).
 * So the new policy carries the settings of the policy the VMIs have,
 * with the fix's field over them, and that policy's selectors plus the
 * label kvscope.io/migration-policy=NAME: one label more than the old
 * one matched, so it wins for every VMI that carries the label and no
 * other.  A VMI without labels matches any policy (the nil-labels quirk,
 * rules/vmi.c match_policy): then the old selectors are not kept, and
 * the label alone makes the new one win.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate.h"

static int
policy_name_cmp(const void *key, const void *p)
{
	return strcmp(key, ((const kv_policy *)p)->name);
}

const kv_policy *
kv_policy_named(const kv_model *m, const char *name)
{
	if (name == NULL || m->npolicies == 0)
		return NULL;
	return bsearch(name, m->policies, m->npolicies, sizeof(kv_policy),
	    policy_name_cmp);
}

static int
label_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_label *)x)->key,
	    ((const kv_label *)y)->key);
}

/* l's entries, plus key=value when key is not NULL, sorted by key. */
static kv_labels
labels_plus(const kv_labels *l, const char *key, const char *value)
{
	kv_labels o = { .n = 0 };

	o.v = xcalloc(l->n + 2, sizeof(kv_label));
	for (size_t i = 0; i < l->n; i++)
		if (key == NULL || strcmp(l->v[i].key, key) != 0)
			o.v[o.n++] = l->v[i];
	if (key != NULL)
		o.v[o.n++] = (kv_label){ key, value };
	kv_qsort(o.v, o.n, sizeof(kv_label), label_cmp);
	return o;
}

/* The one field of the fix's value over p; false for another text. */
static bool
set_field(kv_policy *p, const char *field)
{
	long long n;
	char c;

	if (strcmp(field, "allowPostCopy: true") == 0)
		p->allow_postcopy = 1;
	else if (strcmp(field, "allowAutoConverge: true") == 0)
		p->allow_autoconverge = 1;
	else if (strcmp(field, "bandwidthPerMigration: \"0\"") == 0)
		p->bandwidth = 0;
	else if (sscanf(field, "completionTimeoutPerGiB: %lld%c", &n,
	    &c) == 1 && n > 0)
		p->completion_per_gib = n;
	else
		return false;
	return true;
}

bool
kv_fix_policy(const kv_policy *base, const char *field, const char *name,
    bool carry, kv_policy *out)
{
	static const kv_labels none = { .n = 0 };
	kv_policy p = { .name = name, .has_selectors = true,
	    .completion_per_gib = -1, .bandwidth = -1, .allow_postcopy = -1,
	    .allow_autoconverge = -1, .allow_disruption = -1 };

	if (base != NULL) {
		p.completion_per_gib = base->completion_per_gib;
		p.bandwidth = base->bandwidth;
		p.allow_postcopy = base->allow_postcopy;
		p.allow_autoconverge = base->allow_autoconverge;
		p.allow_disruption = base->allow_disruption;
	}
	if (!set_field(&p, field))
		return false;
	carry = carry && base != NULL;
	p.ns_selector = labels_plus(carry ? &base->ns_selector : &none, NULL,
	    NULL);
	p.vmi_selector = labels_plus(carry ? &base->vmi_selector : &none,
	    KV_FIX_POLICY_LABEL, name);
	*out = p;
	return true;
}

static void
bool_field(kv_buf *b, const char *key, int v)
{
	if (v >= 0)
		kv_buf_printf(b, "%s%s: %s", b->len ? ", " : "", key,
		    v ? "true" : "false");
}

static void
labels_text(kv_buf *b, const char *key, const kv_labels *l)
{
	if (l->n == 0)
		return;
	kv_buf_printf(b, "%s%s: {", b->len ? ", " : "", key);
	for (size_t i = 0; i < l->n; i++)
		kv_buf_printf(b, "%s%s: %s", i ? ", " : "", l->v[i].key,
		    l->v[i].value);
	kv_buf_printf(b, "}");
}

char *
kv_policy_spec_text(const kv_policy *p)
{
	kv_buf b = {0}, s = {0};
	char *t;

	bool_field(&b, "allowAutoConverge", p->allow_autoconverge);
	bool_field(&b, "allowPostCopy", p->allow_postcopy);
	bool_field(&b, "allowWorkloadDisruption", p->allow_disruption);
	if (p->bandwidth == 0)
		kv_buf_printf(&b, "%sbandwidthPerMigration: \"0\"", b.len ?
		    ", " : "");
	else if (p->bandwidth > 0 && p->bandwidth % 1048576 == 0)
		kv_buf_printf(&b, "%sbandwidthPerMigration: %lldMi", b.len ?
		    ", " : "", (long long)(p->bandwidth / 1048576));
	else if (p->bandwidth > 0)
		kv_buf_printf(&b, "%sbandwidthPerMigration: %lld", b.len ?
		    ", " : "", (long long)p->bandwidth);
	if (p->completion_per_gib >= 0)
		kv_buf_printf(&b, "%scompletionTimeoutPerGiB: %lld", b.len ?
		    ", " : "", (long long)p->completion_per_gib);
	labels_text(&s, "namespaceSelector", &p->ns_selector);
	labels_text(&s, "virtualMachineInstanceSelector", &p->vmi_selector);
	t = xasprintf("{%s%sselectors: {%s}}", b.data ? b.data : "",
	    b.len ? ", " : "", s.data ? s.data : "");
	kv_buf_free(&b);
	kv_buf_free(&s);
	return t;
}
