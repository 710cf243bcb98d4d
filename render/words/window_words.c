/*
 * window_words.c - the words of the report's "Maintenance window"
 * section (report.h), shared by the HTML and PDF writers: the answer
 * from the slowest drain and the outcome counts of a->window, the
 * migrations whose outcome is unknown with the dirty rate that decides
 * the tightest, the cluster's window facts, the assumptions the
 * estimates rest on (window_assumption() of window.c), and the VMIs at
 * risk or aborted.  Every string and array returned is the caller's.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate.h"
#include "render/render.h"
#include "render/report.h"

char *
window_answer(const kv_analysis *a)
{
	const kv_window *w = a->window;
	size_t i = window_slowest(a);
	char *r, *s;

	if (w == NULL || i == SIZE_MAX)
		return xasprintf("No drain migrates a %s: no migration to "
		    "fit into a maintenance window.", kv_word(a, KV_WORD_VM));
	r = fmt_range(a->drain[i].secs);
	s = xasprintf("Drained one at a time, the slowest node, %s, takes "
	    "%s to move its %zu %s. Of the %zu migrations estimated, %zu "
	    "%s in time, %zu %s at risk, %zu will be aborted and %zu %s an "
	    "unknown outcome.", a->m->nodes[a->drain[i].node].name, r,
	    a->drain[i].migrate, a->drain[i].migrate == 1 ?
	    kv_word(a, KV_WORD_VM) : kv_word(a, KV_WORD_VMS),
	    w->converges + w->at_risk + w->will_abort + w->unknown,
	    w->converges, w->converges == 1 ? "finishes" : "finish",
	    w->at_risk, w->at_risk == 1 ? "is" : "are", w->will_abort,
	    w->unknown, w->unknown == 1 ? "has" : "have");
	free(r);
	return s;
}

/* "30 MB/s" (decimal, as the dirty-rate figures are given) */
static char *
mbs(double bps)
{
	return bps < 1e6 ? xasprintf("%.1f MB/s", bps / 1e6) :
	    xasprintf("%lld MB/s", (long long)llround(bps / 1e6));
}

char *
window_unknown(const kv_analysis *a)
{
	size_t n = 0, tight = SIZE_MAX;
	char *x, *s;

	if (a->est == NULL)
		return NULL;
	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_migest *e = &a->est[i];

		if (!e->present || e->outcome != MIG_UNKNOWN)
			continue;
		n++;
		if (e->max_dirty >= 0 && (tight == SIZE_MAX ||
		    e->max_dirty < a->est[tight].max_dirty))
			tight = i;
	}
	if (n == 0)
		return NULL;
	if (tight == SIZE_MAX)
		return xasprintf("%zu %s an unknown outcome: %s dirty rate "
		    "decides.", n, n == 1 ? "migration has" : "migrations "
		    "have", n == 1 ? "its guest's" : "their guests'");
	x = mbs(a->est[tight].max_dirty);
	s = xasprintf("%zu %s an unknown outcome: %s dirty rate decides. "
	    "The tightest, %s, finishes in time if its guest dirties less "
	    "than %s.", n, n == 1 ? "migration has" : "migrations have",
	    n == 1 ? "its guest's" : "their guests'",
	    a->vmis[tight].vmi->fullname, x);
	free(x);
	return s;
}

char *
window_facts(const kv_analysis *a)
{
	const kv_window *w = a->window;
	char *link, *setup, *busy, *s;
	double lr[2];

	if (w == NULL)
		return xstrdup("No migration estimate was made.");
	lr[0] = w->link_bps[0];
	lr[1] = w->link_bps[1];
	if (lr[1] <= 0)		/* none observed: the assumed link */
		lr[0] = lr[1] = (double)a->cfg.assumed_mibps * 1048576.0;
	link = fmt_rate_range(lr);
	setup = fmt_range(w->setup);
	busy = mbs(w->busy_bps);
	s = xasprintf("One migration alone on its link moves %s of guest "
	    "memory (%s); a target pod takes %s to start; a busy guest "
	    "dirties %s. The figures are ranges: the fast end with an idle "
	    "guest, the slow end with a busy one.", link, w->observed > 0 ?
	    "as the cluster's past migrations did" : "assumed: no past "
	    "migration with times in the snapshot", setup, busy);
	free(link);
	free(setup);
	free(busy);
	return s;
}

char **
window_assumptions(const kv_analysis *a, size_t *n)
{
	char **v = xcalloc(AS_COUNT + 1, sizeof(char *));

	*n = 0;
	for (int k = 0; a->est != NULL && k < AS_COUNT; k++) {
		if (k == AS_OWN_HISTORY || k == AS_OWN_FAILED)
			continue;	/* one VMI's: in its line */
		for (size_t i = 0; i < a->nvmis; i++)
			if (a->est[i].present &&
			    (a->est[i].assume & (1u << k))) {
				v[(*n)++] = window_assumption(a, &a->est[i],
				    k);
				break;
			}
	}
	return v;
}

static int
by_name(const void *x, const void *y, void *arg)
{
	const kv_analysis *a = arg;

	return strcmp(a->vmis[*(const size_t *)x].vmi->fullname,
	    a->vmis[*(const size_t *)y].vmi->fullname);
}

size_t *
window_flagged(const kv_analysis *a, size_t *n)
{
	size_t *v = xcalloc(a->nvmis + 1, sizeof(size_t));

	*n = 0;
	for (size_t i = 0; a->est != NULL && i < a->nvmis; i++)
		if (a->est[i].present && (a->est[i].outcome == MIG_AT_RISK ||
		    a->est[i].outcome == MIG_WILL_ABORT))
			v[(*n)++] = i;
	qsort_r(v, *n, sizeof(size_t), by_name, (void *)a);
	return v;
}
