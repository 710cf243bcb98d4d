/*
 * fix_drain.c - the drain-block group's fix in KubeVirt's terms
 * (rules-kubevirt.md §5).  With LiveMigrateIfPossible the eviction
 * webhook evicts (the VM stops) only a VMI whose LiveMigratable is not
 * True; one KubeVirt reports LiveMigratable but with no target still
 * makes the drain wait.  So each VMI of the group is offered what helps
 * it: LiveMigrateIfPossible where KubeVirt would not try a migration,
 * else fixing its blockers, None (the VM stops) or External.  A change
 * of a VM's evictionStrategy reaches its VMI with a restart only (no
 * live update: v1.9.0 pkg/virt-controller/watch/vm/vm.go:3018-3051; the
 * VMI spec is immutable, pkg/virt-api/webhooks/validating-webhook/
 * admitters/vmi-update-admitter.go:103), as what-if counts it.
 */
#include "analyze/decide/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether strategy s, written into r's VM and applied by the restart
 * it needs, ends the wait of r's drain. */
static bool
helps(const kv_analysis *a, const kv_vmires *r, const char *s)
{
	return strcmp(s, r->eviction) != 0 && kv_on_drain_for(s,
	    kv_cond_after_restart(a, r), kv_drain_moves(r)) != DRAIN_BLOCK;
}

char *
kv_drain_blockers(const kv_analysis *a, const kv_group *g, const bool *pick)
{
	bool *in = xcalloc(a->ngroups + 1, sizeof(bool));
	kv_buf b = {0};

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];

		for (size_t j = 0; (pick == NULL || pick[k]) &&
		    j < r->ngroups; j++)
			in[r->groups[j]] = true;
	}
	for (size_t j = 0; j < a->ngroups; j++)
		if (in[j] && &a->groups[j] != g && strncmp(a->groups[j].code,
		    "drain-", 6) != 0)
			kv_buf_printf(&b, "%s%s", b.data ? ", " : "",
			    a->groups[j].id);
	free(in);
	return b.data ? b.data : xstrdup("none");
}

/* "1 VMI", "3 VMIs": names would leak past a check's selection (the
 * groups are the cluster's); the blockers' groups name the VMIs. */
static char *
count_words(size_t n)
{
	return xasprintf("%zu VMI%s", n, n == 1 ? "" : "s");
}

/* Those that start again first, then those whose VM does not, then those
 * without a VM, then those whose restart is unknown. */
static int
stop_rank(enum kv_restart k, const char *why)
{
	return k == RESTART_YES ? 0 : k == RESTART_UNKNOWN ? 3 :
	    strcmp(why, "no VirtualMachine") == 0 ? 2 : 1;
}

/* ", "-joined: what the VMs of c of the n VMIs do (why: the setting). */
static void
stop_phrase(kv_buf *b, const char *why, enum kv_restart k, size_t c,
    size_t n)
{
	bool one = c == 1, yes = k == RESTART_YES;
	char *who = c == n ? xstrdup(one ? "its" : "their") :
	    xasprintf("%zu VMI%s", c, one ? "'s" : "s'");

	if (b->data != NULL)
		kv_buf_printf(b, ", ");
	if (stop_rank(k, why) == 3 && c == n)
		kv_buf_printf(b, "whether %s again is unknown (%s)", one ?
		    "it starts" : "they start", why);
	else if (stop_rank(k, why) == 3)
		kv_buf_printf(b, "whether %zu VMI%s again is unknown (%s)", c,
		    one ? " starts" : "s start", why);
	else if (stop_rank(k, why) == 2 && c == n)
		kv_buf_printf(b, "nothing starts %s again (no VirtualMachine)",
		    one ? "it" : "them");
	else if (stop_rank(k, why) == 2)
		kv_buf_printf(b, "nothing starts %zu VMI%s again (no "
		    "VirtualMachine)", c, one ? "" : "s");
	else
		kv_buf_printf(b, "%s VirtualMachine%s (%s) %s %s again", who,
		    one ? "" : "s", why, yes ? (one ? "starts" : "start") :
		    (one ? "does not start" : "do not start"),
		    one ? "it" : "them");
	free(who);
}

/* What the VMs of g's VMIs in pick (n of them) do once a drain stopped
 * them, by the flavor's restarts hook (restart.c: on KubeVirt only
 * runStrategy Always starts a VMI again that ended after its pod was
 * evicted): "its VirtualMachine (runStrategy Always) starts it again",
 * "their VirtualMachines (runStrategy Manual) do not start them again",
 * "nothing starts it again (no VirtualMachine)", "whether they start
 * again is unknown (VirtualMachines not in the input)"; VMIs of several
 * settings by count ("1 VMI's VirtualMachine (...) starts it again, ...").
 * Counts, not names, as count_words().  Caller frees. */
static char *
after_stop(const kv_analysis *a, const kv_group *g, const bool *pick,
    size_t n)
{
	const char **why;
	enum kv_restart *res;
	size_t *count, nb = 0;
	kv_buf b = {0};

	if (a->m->flavor->restarts == NULL)
		return xstrdup("what its VirtualMachine does next depends "
		    "on the VM's runStrategy");
	why = xcalloc(g->nvmis + 1, sizeof(char *));
	res = xcalloc(g->nvmis + 1, sizeof(*res));
	count = xcalloc(g->nvmis + 1, sizeof(size_t));
	for (size_t k = 0; k < g->nvmis; k++) {
		const char *w = NULL;
		enum kv_restart y;
		size_t j = 0;

		if (!pick[k])
			continue;
		y = a->m->flavor->restarts(a->m, &a->vmis[g->vmis[k]], &w);
		w = w ? w : "unknown";
		while (j < nb && (res[j] != y || strcmp(why[j], w) != 0))
			j++;
		if (j == nb) {
			why[nb] = w;
			res[nb++] = y;
		}
		count[j]++;
	}
	for (int pass = 0; pass < 4; pass++)
		for (size_t j = 0; j < nb; j++)
			if (stop_rank(res[j], why[j]) == pass)
				stop_phrase(&b, why[j], res[j], count[j], n);
	free(why);
	free(res);
	free(count);
	return b.data ? b.data : xstrdup("");
}

/* The advice for the VMIs KubeVirt reports LiveMigratable (pick): the
 * drain waits for a migration that finds no target. */
static char *
tried_text(const kv_analysis *a, const kv_group *g, const bool *pick,
    size_t n, const char *path)
{
	char *who = count_words(n), *others = kv_drain_blockers(a, g, pick);
	char *next = after_stop(a, g, pick, n);
	const char *it = n == 1 ? "it" : "them";
	char *t;

	t = xasprintf("%s KubeVirt reports LiveMigratable (blockers: groups "
	    "%s), so it tries to migrate %s and with LiveMigrateIfPossible "
	    "the drain still waits: fix those groups so the drain moves %s; "
	    "or, if %s may stop, set %s: None and restart %s, so the drain "
	    "stops %s and %s; or External if a controller of yours handles "
	    "the eviction", who, others, it, it, n == 1 ? "it" : "they",
	    path, it, it, next);
	free(who);
	free(others);
	free(next);
	return t;
}

/* The advice for the VMIs KubeVirt does not report LiveMigratable
 * (pick): LiveMigrateIfPossible makes the drain evict them. */
static char *
not_tried_text(const kv_analysis *a, const kv_group *g, const bool *pick,
    size_t n, const char *path)
{
	char *who = count_words(n), *others = kv_drain_blockers(a, g, pick);
	char *next = after_stop(a, g, pick, n);
	const char *it = n == 1 ? "it" : "them";
	char *t;

	t = xasprintf("%s KubeVirt does not report LiveMigratable (blockers: "
	    "groups %s): fix those groups so a drain moves %s; or, if %s may "
	    "stop, set %s: LiveMigrateIfPossible and restart %s, so the "
	    "drain stops %s instead of waiting and %s", who, others, it,
	    n == 1 ? "it" : "they", path, it, it, next);
	free(who);
	free(others);
	free(next);
	return t;
}

static void
kubevirt_fix(const kv_analysis *a, kv_group *g)
{
	bool *ifp = xcalloc(g->nvmis + 1, sizeof(bool));
	bool *rest = xcalloc(g->nvmis + 1, sizeof(bool));
	size_t nifp = 0, nrest = 0, nnone = 0;
	char *t1 = NULL, *t2 = NULL;

	g->fix.action = FIX_SET_EVICTION;
	g->fix.path = a->m->flavor->fix->paths[VMPATH_EVICTION];
	g->fix.restart = true;
	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];

		ifp[k] = helps(a, r, "LiveMigrateIfPossible");
		rest[k] = !ifp[k];
		nifp += ifp[k];
		nrest += rest[k];
		nnone += !ifp[k] && helps(a, r, "None");
	}
	if (nifp > 0)
		t1 = not_tried_text(a, g, ifp, nifp, g->fix.path);
	if (nrest > 0)
		t2 = tried_text(a, g, rest, nrest, g->fix.path);
	g->fix.value = xstrdup(nifp > 0 ? "LiveMigrateIfPossible" : "None");
	g->fix.fixes = nifp > 0 ? nifp : nnone;
	g->fix.text = xasprintf("%s%s%s", t1 ? t1 : "", t1 && t2 ? "; " :
	    "", t2 ? t2 : "");
	/* the value is the advice for these VMIs only */
	g->fix.pick = nifp > 0 ? ifp : rest;
	free(t1);
	free(t2);
	free(nifp > 0 ? rest : ifp);
}

static void
resolve_drain_block(const kv_analysis *a, kv_group *g)
{
	char *who = kv_group_count_words(a, g), *nodes = kv_group_node_list(a,
	    g), *others = kv_drain_blockers(a, g, NULL);

	g->summary = xasprintf("%s %s a drain of %s node wait forever "
	    "(evictionStrategy %s, but %s cannot migrate)", who,
	    kv_group_verb(g, "make"), g->nvmis == 1 ? "its" : "their",
	    g->name, g->nvmis == 1 ? "it" : "they");
	if (a->m->flavor->fix->drain_block_fix != NULL) {
		g->fix.action = FIX_NONE;
		g->fix.text = xasprintf(a->m->flavor->fix->drain_block_fix,
		    others, nodes);
	} else
		kubevirt_fix(a, g);
	free(who);
	free(nodes);
	free(others);
}

const kv_grouping kv_grp_drain_block = {
	SUBJ_EVICTION, NULL, resolve_drain_block,
};
