/*
 * window.c - the words of the migration estimate (report.h, "window"):
 * ranges of seconds and rates, each assumption as a sentence, and the
 * one line that gives a VMI's arithmetic ("prod/db-0: 16 GiB at 64 MiB/s,
 * dirtying ~30 MB/s: 410-1,060 s against a deadline of 360 s (20 s per
 * GB x 18): will abort; ...").  Shared by the terminal, HTML and PDF.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate.h"
#include "render/render.h"
#include "render/report.h"

#define MIB 1048576.0

static int64_t
secs_of(double s)
{
	return isinf(s) || s > 9e15 ? -1 : (int64_t)ceil(s);
}

char *
fmt_range(const double s[2])
{
	int64_t lo = (int64_t)floor(s[0]), hi = secs_of(s[1]);
	char *a, *b, *r;

	if (hi < 0)
		return xstrdup("never (does not converge)");
	if (hi < 60)
		return lo == hi ? xasprintf("%lld s", (long long)hi) :
		    xasprintf("%lld-%lld s", (long long)lo, (long long)hi);
	a = fmt_duration(lo);
	b = fmt_duration(hi);
	r = strcmp(a, b) == 0 ? xstrdup(a) : xasprintf("%s - %s", a, b);
	free(a);
	free(b);
	return r;
}

/* "64 MiB/s", "64-1,192 MiB/s" (bytes/s, binary) */
char *
fmt_rate_range(const double r[2])
{
	long long lo = llround(r[0] / MIB), hi = llround(r[1] / MIB);
	char *a = fmt_count((size_t)lo), *b = fmt_count((size_t)hi), *s;

	s = lo == hi ? xasprintf("%s MiB/s", b) :
	    xasprintf("%s-%s MiB/s", a, b);
	free(a);
	free(b);
	return s;
}

/* "30 MB/s" (decimal, as Prometheus and the flags give dirty rates) */
static char *
fmt_mbs(double bps)
{
	return bps < 1e6 ? xasprintf("%.1f MB/s", bps / 1e6) :
	    xasprintf("%lld MB/s", (long long)llround(bps / 1e6));
}

char *
window_assumption(const kv_analysis *a, const kv_migest *e, int k)
{
	const kv_window *w = a->window;
	double lr[2] = { w->link_bps[0], w->link_bps[1] };
	char *x = NULL, *s;

	switch ((enum kv_assumption)k) {
	case AS_LINK_ASSUMED:
		return xasprintf("a %lld MiB/s (10 Gbit/s) link assumed: no "
		    "migration in the snapshot's history and no --link",
		    (long long)a->cfg.assumed_mibps);
	case AS_LINK_FLAG:
		return xstrdup("the link --link states");
	case AS_LINK_HISTORY:
		x = fmt_rate_range(lr);
		s = xasprintf("a link giving %s of guest memory, as %zu past "
		    "migration%s of the cluster did", x, w->observed,
		    w->observed == 1 ? "" : "s");
		free(x);
		return s;
	case AS_BANDWIDTH:
		return xstrdup("each migration capped by "
		    "bandwidthPerMigration");
	case AS_SHARED:
		return xasprintf("the source's link shared by up to %zu "
		    "outbound migrations (parallelOutboundMigrationsPerNode)",
		    e->lanes);
	case AS_DIRTY_UNKNOWN:
		x = fmt_mbs(w->busy_bps);
		s = xasprintf("dirty rate unknown: from idle to %s (busy); "
		    "--dirty-rate, or kvscope-collect --with-metrics, gives "
		    "it", x);
		free(x);
		return s;
	case AS_DIRTY_FLAG:
		return xstrdup("the dirty rate --dirty-rate states");
	case AS_DIRTY_METRICS:
		return xstrdup("dirty rate average and peak from the "
		    "cluster's Prometheus (kubevirt_vmi_dirty_rate_bytes_per_"
		    "second)");
	case AS_TOUCHED_ALL:
		return xstrdup("every byte of guest memory sent (untouched "
		    "pages are not, so the copy is shorter when the guest "
		    "uses less)");
	case AS_SETUP_ASSUMED:
		return xstrdup("3-10 s for the target pod to start (a "
		    "measured migration: 2-4 s)");
	case AS_SETUP_HISTORY:
		x = fmt_range(w->setup);
		s = xasprintf("%s for the target pod to start, as observed",
		    x);
		free(x);
		return s;
	case AS_OWN_HISTORY:
		return xasprintf("its own last migration (%s to %s)",
		    e->history->start, e->history->end ? e->history->end :
		    "?");
	case AS_OWN_FAILED:
		return xasprintf("its own last migration failed: %s",
		    e->history->failure);
	case AS_STALL:
		return xstrdup("MigrationStallDetection on: the deadline "
		    "doubled (completionTimeoutFactor 2) and switch-over "
		    "allowed up to maxDowntimeMs 900 ms");
	case AS_BLOCK_DISKS:
		return xstrdup("block migration: its local disks are copied "
		    "too and count toward the deadline (their size is not in "
		    "the snapshot)");
	default:
		break;
	}
	return xstrdup(k >= 0 && k < AS_COUNT ? kv_assumption_names[k] : "?");
}

/* What would let a migration that does not finish in time finish. */
static const char *
help_of(const kv_migest *e)
{
	if (e->outcome != MIG_WILL_ABORT && e->outcome != MIG_AT_RISK)
		return NULL;
	if (e->assume & (1u << AS_OWN_FAILED))
		return "allowPostCopy, a higher bandwidthPerMigration or "
		    "completionTimeoutPerGiB (a MigrationPolicy) would let it "
		    "finish";
	if (e->assume & (1u << AS_BANDWIDTH))
		return "allowPostCopy or a higher bandwidthPerMigration would "
		    "let it finish";
	return "allowPostCopy or a longer completionTimeoutPerGiB would let "
	    "it finish";
}

static void
outcome_words(kv_buf *b, const kv_migest *e)
{
	char *x;

	switch (e->outcome) {
	case MIG_CONVERGES:
		kv_buf_printf(b, "%s", e->end == END_POSTCOPY ? "finishes in "
		    "post-copy, started at the deadline" : e->end ==
		    END_PAUSE ? "finishes with the guest paused at the "
		    "deadline" : "finishes in time");
		break;
	case MIG_AT_RISK:
		kv_buf_printf(b, "at risk: the slow end is aborted at the "
		    "deadline");
		break;
	case MIG_WILL_ABORT:
		if (e->stalls)
			kv_buf_printf(b, "will be aborted: the guest dirties "
			    "memory faster than it is sent, so the copy stops "
			    "making progress and is aborted after "
			    "progressTimeout (%lld s)",
			    (long long)e->progress_timeout);
		else
			kv_buf_printf(b, "will be aborted at the deadline");
		break;
	default:
		if (e->max_dirty >= 0) {
			x = fmt_mbs(e->max_dirty);
			kv_buf_printf(b, "unknown: finishes in time if the "
			    "guest dirties less than %s", x);
			free(x);
		} else if (e->no_memory)
			kv_buf_printf(b, "unknown: its memory decides");
		else
			kv_buf_printf(b, "unknown: its dirty rate decides");
	}
}

/* Where r's completionTimeoutPerGiB came from, in words. */
static char *
timeout_source(const kv_analysis *a, const kv_vmires *r)
{
	const char *src = a->cfg.source[CFGV_COMPLETION];

	if (r->completion_from != NULL)
		return xasprintf("MigrationPolicy %s's", r->completion_from);
	if (src == NULL || strcmp(src, "KubeVirt CR") == 0)
		return xstrdup("the KubeVirt CR's");
	if (strcmp(src, "KubeVirt default") == 0)
		return xstrdup(kv_word(a, KV_WORD_DEFAULTS));
	return xasprintf("from the %s", src);
}

char *
window_timeout_words(const kv_analysis *a, const kv_vmires *r)
{
	char *from, *s;

	if (r->completion_timeout > 0)
		return xasprintf("completion timeout %lld s",
		    (long long)r->completion_timeout);
	from = timeout_source(a, r);
	if (r->completion_per_gib <= 0)
		s = xasprintf("no completion timeout (completionTimeoutPerGiB "
		    "0, %s)", from);
	else if (r->completion_timeout < 0)
		s = xasprintf("completion timeout unknown (%lld s per GB, %s, "
		    "times the guest memory, which the VMI does not state)",
		    (long long)r->completion_per_gib, from);
	else	/* memory stated as 0: KubeVirt counts 0 GB, no deadline */
		s = xasprintf("no completion timeout (the VMI states 0 bytes "
		    "of memory, and %lld s per GB x 0 is none)",
		    (long long)r->completion_per_gib);
	free(from);
	return s;
}

char *
window_vmi_line(const kv_analysis *a, size_t i)
{
	const kv_migest *e = &a->est[i];
	char *mem = kv_fmt_bytes(e->bytes), *rate = fmt_rate_range(e->rate);
	char *copy = fmt_range(e->copy), *x;
	kv_buf b = {0};
	const char *help = help_of(e);

	if (e->no_memory)
		kv_buf_printf(&b, "memory not stated in the VMI, at %s", rate);
	else
		kv_buf_printf(&b, "%s at %s", mem, rate);
	if (e->history != NULL && e->basis == BASIS_HISTORY)
		kv_buf_printf(&b, ", as its last migration");
	else if (e->dirty[1] >= 0) {
		x = fmt_mbs(e->dirty[1]);
		kv_buf_printf(&b, ", dirtying up to %s", x);
		free(x);
	} else
		kv_buf_printf(&b, ", dirty rate unknown");
	if (e->no_memory)
		kv_buf_printf(&b, ": copy and deadline unknown");
	else if (e->deadline > 0) {
		x = fmt_count((size_t)e->deadline);
		kv_buf_printf(&b, ": copy %s against a deadline of %s s "
		    "(%lld s per GB x %lld)", copy, x, (long long)e->per_gib,
		    (long long)(e->per_gib > 0 ? e->deadline / e->per_gib :
		    0));
		free(x);
	} else
		kv_buf_printf(&b, ": copy %s, no deadline", copy);
	kv_buf_printf(&b, ": ");
	outcome_words(&b, e);
	if (help != NULL)
		kv_buf_printf(&b, "; %s", help);
	free(mem);
	free(rate);
	free(copy);
	return b.data;
}

/* "guest paused 0.2-0.5 s; established connections drop" or NULL */
char *
window_pause_words(const kv_migest *e)
{
	kv_buf b = {0};

	if (e->outcome == MIG_WILL_ABORT)
		return NULL;
	kv_buf_printf(&b, "guest paused %.1f-%.1f s", e->pause_ms[0] / 1000,
	    e->pause_ms[1] / 1000);
	if (e->connections_drop)
		kv_buf_printf(&b, "; masquerade: the pod IP changes, "
		    "established connections drop and new ones wait for the "
		    "endpoint to move (a measured migration: 2.4 s)");
	return b.data;
}
