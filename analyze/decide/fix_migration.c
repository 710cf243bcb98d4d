/*
 * fix_migration.c - the grouping of migration-will-abort and
 * migration-at-risk (groups.h kv_grp_migration): the VMIs whose
 * migration would not finish, by the settings they get (their
 * MigrationPolicy, or the cluster's), and the fix: the cheapest
 * MigrationPolicy that lets every one of them finish, checked by
 * estimating them again under it (kv_estimate_try).  In order:
 * allowPostCopy: true (unless a VMI has a host device or GPU: VFIO
 * forbids post-copy, kubevirt v1.9.0 live-migration-source.go:730-815),
 * else the smallest completionTimeoutPerGiB whose deadline covers the
 * copy, else bandwidthPerMigration unlimited, else allowAutoConverge.
 * The policy (estimate.h kv_fix_policy) keeps the settings of the one
 * the VMIs have, so what-if --fix writes it (change/whatif_fix.c) and
 * the proof analyses the snapshot again under it (change/fixproof.c).
 * The group owns the fix's strings.
 */
#include <stdio.h>
#include <stdlib.h>

#include "analyze/decide/groups.h"
#include "analyze/estimate/estimate.h"

#define PER_GIB_MAX (1 << 20)

static void
key_migration(kv_gkeys *k, const kv_analysis *a, const kv_vmires *r,
    const kv_rule *rule)
{
	const kv_migest *e = &a->est[(size_t)(r - a->vmis)];

	(void)rule;
	if (e->settings != NULL)
		kv_gkey_addf(k, "MigrationPolicy %s", e->settings);
	else
		kv_gkey_add(k, "cluster");
}

static bool
all_finish(const kv_analysis *a, const kv_group *g, const kv_migtry *t)
{
	return kv_estimate_try(a, g->vmis, g->nvmis, t, NULL) == g->nvmis;
}

/* The smallest completionTimeoutPerGiB that lets all of g finish, or
 * 0 when none up to PER_GIB_MAX does. */
static int64_t
per_gib_for(const kv_analysis *a, const kv_group *g)
{
	kv_migtry t = { .bandwidth = -1 };
	int64_t lo = a->est[g->vmis[0]].per_gib, hi;

	if (lo < 1)
		lo = 1;
	for (hi = lo * 2; hi <= PER_GIB_MAX; hi *= 2) {
		t.per_gib = hi;
		if (all_finish(a, g, &t))
			break;
		lo = hi;
	}
	if (hi > PER_GIB_MAX)
		return 0;
	while (hi - lo > 1) {		/* lo fails, hi works */
		t.per_gib = lo + (hi - lo) / 2;
		if (all_finish(a, g, &t))
			hi = t.per_gib;
		else
			lo = t.per_gib;
	}
	return hi;
}

/* The one field of the policy that lets all of g finish, or NULL. */
static char *
field_for(const kv_analysis *a, const kv_group *g)
{
	kv_migtry t = { .bandwidth = -1 };
	bool vfio = false;
	int64_t p;

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmi *v = a->vmis[g->vmis[k]].vmi;

		vfio |= v->nhostdevices + v->ngpus > 0;
	}
	t.postcopy = !vfio;
	if (!vfio && all_finish(a, g, &t))
		return xstrdup("allowPostCopy: true");
	if ((p = per_gib_for(a, g)) > 0)
		return xasprintf("completionTimeoutPerGiB: %lld",
		    (long long)p);
	t = (kv_migtry){ .bandwidth = 0 };
	if (all_finish(a, g, &t))
		return xstrdup("bandwidthPerMigration: \"0\"");
	t = (kv_migtry){ .bandwidth = -1, .autoconverge = true };
	if (all_finish(a, g, &t))
		return xstrdup("allowAutoConverge: true");
	return NULL;
}

/* Whether every VMI of g has labels: then the new policy keeps the
 * selectors of the one they have (policyfix.c). */
static bool
all_labelled(const kv_analysis *a, const kv_group *g)
{
	for (size_t k = 0; k < g->nvmis; k++)
		if (a->vmis[g->vmis[k]].vmi->labels.n == 0)
			return false;
	return true;
}

static char *
policy_text(const kv_analysis *a, const kv_group *g, const char *field,
    const char *name)
{
	char *vmis = kv_group_examples(a, g, 5), *spec;
	const char *over = a->est[g->vmis[0]].settings;
	const kv_policy *base = kv_policy_named(a->m, over);
	char *outrank = over != NULL ? xasprintf(" (MigrationPolicy %s's "
	    "settings%s, so that it outranks %s)", over, all_labelled(a, g) ?
	    " and selectors with one label more" : ", with this label as "
	    "its selector", over) : xstrdup("");
	kv_policy p;
	char *t;

	if (!kv_fix_policy(base, field, name, all_labelled(a, g), &p))
		spec = xasprintf("{%s}", field);	/* not reached */
	else {
		spec = kv_policy_spec_text(&p);
		free(p.ns_selector.v);
		free(p.vmi_selector.v);
	}
	t = xasprintf("Create this MigrationPolicy and label the VMIs "
	    "(%s) %s=%s, in their VirtualMachines' templates to keep it%s: "
	    "{apiVersion: migrations.kubevirt.io/v1alpha1, kind: "
	    "MigrationPolicy, metadata: {name: %s}, spec: %s}", vmis,
	    KV_FIX_POLICY_LABEL, name, outrank, name, spec);
	free(vmis);
	free(outrank);
	free(spec);
	return t;
}

void
kv_fix_policy_name(const kv_group *g, char *buf, size_t n)
{
	snprintf(buf, n, "kvscope-%s", g->id);
	for (char *c = buf; *c != '\0'; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
}

static void
resolve_migration(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g);
	const char *title, *fix;
	char *field = field_for(a, g), name[40];

	kv_rule_words_of(g->rule, a->m->flavor, &title, &fix);
	g->summary = xasprintf("%s under %s: %s", who,
	    a->est[g->vmis[0]].settings != NULL ? g->name :
	    "the cluster's settings", title);
	free(who);
	if (field == NULL) {
		g->fix.action = FIX_NONE;
		g->fix.text = xasprintf("%s (no one MigrationPolicy setting "
		    "kvscope models lets all of them finish: the guests "
		    "dirty memory faster than the link carries it)", fix);
		return;
	}
	kv_fix_policy_name(g, name, sizeof(name));
	g->fix.action = FIX_SET_MIGRATION_POLICY;
	g->fix.value = field;
	g->fix.fixes = g->nvmis;
	g->fix.checked = true;
	g->fix.text = policy_text(a, g, field, name);
}

const kv_grouping kv_grp_migration = {
	.subject = SUBJ_MIGRATION_POLICY,
	.key = key_migration,
	.resolve = resolve_migration,
};
