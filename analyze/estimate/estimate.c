/*
 * estimate.c - one estimate per VMI that would migrate (estimate.h).
 *
 * The deadline is KubeVirt's: completionTimeoutPerGiB x the data in
 * started decimal GB (kubevirt v1.9.0 pkg/virt-launcher/virtwrap/
 * manager.go:796-815 getVMIMigrationDataSize, ScaledValue(Giga) rounds
 * up: 1 GiB counts 2, 16 GiB counts 18; live-migration-source.go:450),
 * counted from the start of the copy, not from the migration object.
 * Past it (live-migration-source.go:730-815, the path without the
 * MigrationStallDetection gate): with allowWorkloadDisruption, post-copy
 * when allowPostCopy (and no VFIO device), else the guest is paused;
 * otherwise the migration is aborted.  A copy that makes no progress
 * for progressTimeout is aborted too (:794-803).
 *
 * The copy time comes, best first, from the VMI's own last migration
 * (basis history), from the pre-copy model with the dirty rate the
 * collector's Prometheus extract gives (basis metrics) or with a stated
 * dirty rate (basis assumed); the link from --link, else the rate the
 * cluster's past migrations show, else the assumed 10 Gbit/s.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/estimate/estimate_int.h"
#include "analyze/util/runs.h"

const char *const kv_mig_outcome_names[MIG_OUTCOME_COUNT] = {
	"converges", "at-risk", "will-abort", "unknown",
};
const char *const kv_mig_basis_names[BASIS_COUNT] = {
	"history", "metrics", "assumed",
};
const char *const kv_mig_end_names[END_COUNT] = {
	"pre-copy", "post-copy", "paused", "aborted",
};
const char *const kv_assumption_names[AS_COUNT] = {
	"link-assumed", "link-flag", "link-history", "bandwidth-limit",
	"link-shared", "dirty-rate-unknown", "dirty-rate-flag",
	"dirty-rate-metrics", "all-memory-sent", "setup-assumed",
	"setup-history", "own-history", "own-history-failed",
	"stall-detection", "block-migration-disks",
};

#define GB 1000000000.0
#define MIB 1048576.0
#define BUSY_BPS (30.0 * 1000 * 1000)	/* migration-window.md §3 */
#define SETUP_LO 3.0			/* measured: target pod ready 2-4 s */
#define SETUP_HI 10.0
#define SWITCH_LO 0.2			/* device state and resume, s */
#define SWITCH_HI 0.5			/* measured pause 0.34 s */
#define DOWNTIME 0.3			/* QEMU's default target, s */
#define DOWNTIME_STALL 0.9		/* maxDowntimeMs default */

/* What one estimate is computed from. */
typedef struct input {
	kv_migset_eff set;
	double mem[2];			/* bytes to send, lo and hi */
	double rate[2];			/* bytes/s: [0] shared, [1] alone */
	double dirty[2];
	double downtime;
	bool dirty_known;
} input;

static bool
fails_by_time(const char *reason)
{
	return reason != NULL && (strstr(reason, "not completed") != NULL ||
	    strstr(reason, "timeout") != NULL ||
	    strstr(reason, "stuck") != NULL ||
	    strstr(reason, "progress") != NULL);
}

/* Outbound migrations of the VMI's node that share its link at most. */
static size_t
lanes_of(const kv_analysis *a, const kv_vmires *r, const size_t *on_node)
{
	const kv_node *n = kv_model_node(a->m, r->vmi->node);
	size_t k = n != NULL ? on_node[n - a->m->nodes] : 1;
	kv_mig_limits lim;

	kv_schedule_limits(a, &lim);	/* the same per-node lanes */
	return k < 1 ? 1 : k < lim.per_source ? k : lim.per_source;
}

/* The data the deadline counts and the deadline itself. */
static void
deadline_of(const kv_vmires *r, const input *in, kv_migest *e)
{
	int64_t units;

	e->bytes = r->memory > 0 ? r->memory : 0;
	units = e->bytes / 1000000000 + (e->bytes % 1000000000 != 0);
	e->per_gib = in->set.completion_per_gib;
	e->deadline = kv_sat_addmul(0, in->set.completion_per_gib, units);
	e->progress_timeout = in->set.progress_timeout;
	if (r->method != NULL && strcmp(r->method, "BlockMigration") == 0)
		e->assume |= 1u << AS_BLOCK_DISKS;
	if (in->set.stall) {
		/* completionTimeoutFactor 2 (virt-config.go:62) */
		e->deadline = kv_sat_addmul(0, e->deadline, 2);
		e->assume |= 1u << AS_STALL;
	}
}

/* The link one migration gets: --link, the cluster's history, or the
 * assumption; capped by bandwidthPerMigration; shared by the lanes. */
static void
rate_of(const kv_analysis *a, const kv_migest *e0, input *in, unsigned *as)
{
	const kv_assume *u = a->m->assume;
	const kv_window *w = a->window;
	double lo, hi;

	if (u != NULL && u->link_bps > 0) {
		lo = hi = u->link_bps;
		*as |= 1u << AS_LINK_FLAG;
	} else if (w->observed > 0) {
		lo = w->link_bps[0];
		hi = w->link_bps[1];
		*as |= 1u << AS_LINK_HISTORY;
	} else {
		lo = hi = (double)a->cfg.assumed_mibps * MIB;
		*as |= 1u << AS_LINK_ASSUMED;
	}
	if (e0->lanes > 1) {
		lo /= (double)e0->lanes;
		*as |= 1u << AS_SHARED;
	}
	if (in->set.bandwidth > 0 && (in->set.bandwidth < hi ||
	    in->set.bandwidth < lo)) {
		*as |= 1u << AS_BANDWIDTH;
		lo = fmin(lo, in->set.bandwidth);
		hi = fmin(hi, in->set.bandwidth);
	}
	in->rate[0] = lo;
	in->rate[1] = hi;
}

static const kv_vmimetrics *
metrics_of(const kv_model *m, const kv_vmi *v)
{
	size_t lo = 0, hi = m->nmetrics;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(m->metrics[mid].ns, v->ns);

		if (c == 0)
			c = strcmp(m->metrics[mid].name, v->name);
		if (c == 0)
			return &m->metrics[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Memory to send and the dirty rate: Prometheus, --dirty-rate, or
 * unknown (idle .. the busy class). */
static void
traffic_of(const kv_analysis *a, const kv_vmires *r, input *in,
    kv_migest *e)
{
	const kv_vmimetrics *x = metrics_of(a->m, r->vmi);
	const kv_assume *u = a->m->assume;
	double guest = (double)e->bytes;

	in->mem[0] = in->mem[1] = guest;
	if (x != NULL && (x->used >= 0 || x->resident >= 0)) {
		double touched = (double)(x->used >= 0 ? x->used :
		    x->resident);

		in->mem[0] = touched < guest ? touched : guest;
	} else
		e->assume |= 1u << AS_TOUCHED_ALL;
	in->dirty_known = true;
	if (x != NULL && x->dirty_avg >= 0) {
		in->dirty[0] = (double)x->dirty_avg;
		in->dirty[1] = (double)(x->dirty_max >= x->dirty_avg ?
		    x->dirty_max : x->dirty_avg);
		e->assume |= 1u << AS_DIRTY_METRICS;
		e->basis = BASIS_METRICS;
	} else if (u != NULL && u->dirty_lo >= 0) {
		in->dirty[0] = u->dirty_lo;
		in->dirty[1] = u->dirty_hi;
		e->assume |= 1u << AS_DIRTY_FLAG;
	} else {
		in->dirty[0] = 0;
		in->dirty[1] = a->window->busy_bps;
		in->dirty_known = false;
		e->assume |= 1u << AS_DIRTY_UNKNOWN;
	}
}

/* How one end of the range finishes (k 0: low, 1: high): pre-copy in
 * time, or what acts past the deadline. */
static enum kv_mig_end
finish(const input *in, const kv_vmi *v, kv_migest *e, int k)
{
	double rate = in->rate[1 - k], dl = e->deadline > 0 ?
	    (double)e->deadline : INFINITY;
	kv_precopy p;

	kv_precopy_run(in->mem[k], rate, in->dirty[k], in->downtime,
	    in->set.autoconverge, &p);
	if (p.copy <= dl) {
		e->copy[k] = p.copy;
		e->pause_ms[k] = 1000 * (p.remaining / rate +
		    (k ? SWITCH_HI : SWITCH_LO));
		return END_PRECOPY;
	}
	if (in->set.disruption) {
		bool vfio = v->nhostdevices + v->ngpus > 0;

		e->copy[k] = dl + p.remaining / rate;
		if (in->set.postcopy && !vfio) {
			e->pause_ms[k] = 1000 * (k ? SWITCH_HI : SWITCH_LO);
			return END_POSTCOPY;
		}
		e->pause_ms[k] = 1000 * (p.remaining / rate +
		    (k ? SWITCH_HI : SWITCH_LO));
		return END_PAUSE;
	}
	/* aborted at the deadline, or earlier when the copy stops making
	 * progress (what is left never shrinks) for progressTimeout */
	e->copy[k] = dl;
	if (isinf(p.copy) && e->progress_timeout > 0) {
		e->copy[k] = fmin(dl, in->mem[k] / rate +
		    (double)e->progress_timeout);
		e->stalls = e->stalls || (k == 0 && e->copy[k] < dl);
	}
	e->pause_ms[k] = 0;
	return END_ABORT;
}

/* The highest dirty rate whose high end still finishes by pre-copy in
 * time (bisection over the pre-copy model); -1 when none. */
static double
max_dirty_of(const input *in, const kv_migest *e)
{
	double lo = 0, hi = in->rate[0], dl = e->deadline > 0 ?
	    (double)e->deadline : INFINITY;
	kv_precopy p;

	kv_precopy_run(in->mem[1], in->rate[0], 0, in->downtime,
	    in->set.autoconverge, &p);
	if (p.copy > dl)
		return -1;
	for (int i = 0; i < 20; i++) {
		double mid = (lo + hi) / 2;

		kv_precopy_run(in->mem[1], in->rate[0], mid, in->downtime,
		    in->set.autoconverge, &p);
		if (p.copy <= dl)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Its own last migration decides: the copy as timed, +-1 s. */
static bool
from_own_history(const kv_obs *o, kv_migest *e)
{
	double dl = e->deadline > 0 ? (double)e->deadline : INFINITY;

	if (o == NULL)
		return false;
	if (o->h->failed && fails_by_time(o->h->failure)) {
		e->basis = BASIS_HISTORY;
		e->assume |= 1u << AS_OWN_FAILED;
		e->history = o->h;
		e->outcome = MIG_WILL_ABORT;
		e->end = END_ABORT;
		e->copy[0] = e->copy[1] = dl;
		return true;
	}
	if (!o->h->completed || o->copy < 0)
		return false;
	e->basis = BASIS_HISTORY;
	e->assume |= 1u << AS_OWN_HISTORY;
	e->history = o->h;
	e->copy[0] = o->copy > 1 ? o->copy - 1 : 0;
	e->copy[1] = o->copy + 1;
	if (o->setup >= 0) {
		e->setup[0] = o->setup > 1 ? o->setup - 1 : 0;
		e->setup[1] = o->setup + 1;
	}
	e->rate[0] = (double)e->bytes / e->copy[1];
	e->rate[1] = e->copy[0] > 0 ? (double)e->bytes / e->copy[0] :
	    e->rate[0];
	e->pause_ms[0] = 1000 * SWITCH_LO;
	e->pause_ms[1] = 1000 * SWITCH_HI;
	e->end = END_PRECOPY;
	e->outcome = e->copy[1] <= dl ? MIG_CONVERGES : e->copy[0] > dl ?
	    MIG_WILL_ABORT : MIG_AT_RISK;
	return true;
}

static enum kv_mig_outcome
outcome_of(enum kv_mig_end lo, enum kv_mig_end hi, bool dirty_known)
{
	if (lo == END_ABORT)
		return MIG_WILL_ABORT;
	if (!dirty_known)
		return MIG_UNKNOWN;
	return hi == END_ABORT ? MIG_AT_RISK : MIG_CONVERGES;
}

static bool
masquerade(const kv_analysis *a, const kv_vmi *v)
{
	for (size_t i = 0; i < v->nifaces; i++)
		if (v->ifaces[i].binding == BIND_MASQUERADE &&
		    v->pod_network != NULL && v->ifaces[i].name != NULL &&
		    strcmp(v->ifaces[i].name, v->pod_network) == 0)
			return true;
	return v->nifaces == 0 && v->nnetworks == 0 && v->autoattach != 0 &&
	    strcmp(a->cfg.default_iface, "masquerade") == 0;
}

/* The settings a trial (kv_estimate_try) puts over the VMI's own. */
static void
try_over(const kv_migtry *t, kv_migset_eff *s)
{
	if (t == NULL)
		return;
	if (t->postcopy) {
		/* a policy's allowPostCopy sets allowWorkloadDisruption
		 * when it leaves that unset (settings.c) */
		s->postcopy = s->disruption = true;
	}
	if (t->autoconverge)
		s->autoconverge = true;
	if (t->per_gib > 0)
		s->completion_per_gib = t->per_gib;
	if (t->bandwidth >= 0)
		s->bandwidth = t->bandwidth;
}

static void
estimate_one(const kv_analysis *a, const kv_history *hs, size_t i,
    const size_t *on_node, const kv_migtry *t, kv_migest *e)
{
	const kv_vmires *r = &a->vmis[i];
	input in = {0};
	enum kv_mig_end lo, hi;

	e->present = true;
	e->basis = BASIS_ASSUMED;
	e->max_dirty = -1;
	e->dirty[0] = e->dirty[1] = -1;
	kv_settings_of(a, r, &in.set);
	try_over(t, &in.set);
	e->settings = in.set.source;
	e->postcopy = in.set.postcopy;
	e->disruption = in.set.disruption;
	e->autoconverge = in.set.autoconverge;
	e->connections_drop = masquerade(a, r->vmi);
	e->lanes = lanes_of(a, r, on_node);
	in.downtime = in.set.stall ? DOWNTIME_STALL : DOWNTIME;
	deadline_of(r, &in, e);
	e->setup[0] = a->window->setup[0];
	e->setup[1] = a->window->setup[1];
	e->assume |= 1u << (a->window->observed > 0 ? AS_SETUP_HISTORY :
	    AS_SETUP_ASSUMED);
	if (!from_own_history(kv_history_of(hs, r->vmi->ns,
	    r->vmi->name), e)) {
		rate_of(a, e, &in, &e->assume);
		traffic_of(a, r, &in, e);
		lo = finish(&in, r->vmi, e, 0);
		hi = finish(&in, r->vmi, e, 1);
		e->end = hi;
		e->rate[0] = in.rate[0];
		e->rate[1] = in.rate[1];
		e->outcome = outcome_of(lo, hi, in.dirty_known);
		if (in.dirty_known) {
			e->dirty[0] = in.dirty[0];
			e->dirty[1] = in.dirty[1];
		} else
			e->max_dirty = max_dirty_of(&in, e);
	}
	if (r->vmi->memory < 0) {	/* vmi.c completion_timeout */
		e->no_memory = true;
		e->max_dirty = -1;
		if (e->outcome != MIG_WILL_ABORT)
			e->outcome = MIG_UNKNOWN;
	}
	for (int k = 0; k < 2; k++)
		e->seconds[k] = e->setup[k] + e->copy[k];
}

static int
vmi_key_cmp(const void *key, const void *p)
{
	const kv_obs *o = key;
	const kv_vmi *v = p;
	int c = strcmp(o->ns, v->ns);

	return c != 0 ? c : strcmp(o->vmi, v->name);
}

/* What the cluster's past migrations show: the rate a link gave one
 * migration (guest memory over the copy, +-1 s) and the target pod's
 * start. */
static void
window_build(const kv_model *m, const kv_history *hs, kv_window *w)
{
	double slo = INFINITY, shi = 0;

	w->link_bps[0] = INFINITY;
	w->link_bps[1] = 0;
	w->busy_bps = BUSY_BPS;
	for (size_t i = 0; i < hs->n; i++) {
		const kv_obs *o = &hs->obs[i];
		const kv_vmi *v = bsearch(o, m->vmis, m->nvmis,
		    sizeof(kv_vmi), vmi_key_cmp);

		if (o->setup >= 0) {
			slo = fmin(slo, o->setup > 1 ? o->setup - 1 : 0);
			shi = fmax(shi, o->setup + 1);
		}
		if (!o->h->completed || o->copy < 0 || v == NULL ||
		    v->memory <= 0)
			continue;
		w->observed++;
		w->link_bps[0] = fmin(w->link_bps[0],
		    (double)v->memory / (o->copy + 1));
		w->link_bps[1] = fmax(w->link_bps[1],
		    (double)v->memory / fmax(o->copy - 1, 0.5));
	}
	if (w->observed == 0)
		w->link_bps[0] = w->link_bps[1] = 0;
	w->setup[0] = shi > 0 ? slo : SETUP_LO;
	w->setup[1] = shi > 0 ? shi : SETUP_HI;
}

static int
vmi_cmp(const void *key, const void *p)
{
	const kv_vmi *x = key, *y = p;
	int c = strcmp(x->ns, y->ns);

	return c != 0 ? c : strcmp(x->name, y->name);
}

/* Count in on_node, by +1 or -1, the VMIs of b that would migrate, or
 * with only (a VMI of another model) the one of b named as it is. */
static void
count_ok(const kv_analysis *b, const kv_vmi *only, int by,
    size_t *on_node)
{
	const kv_model *m = b->m;
	size_t i = 0, n = b->nvmis;

	if (only != NULL) {
		const kv_vmi *v = bsearch(only, m->vmis, m->nvmis,
		    sizeof(kv_vmi), vmi_cmp);

		if (v == NULL)
			return;
		i = (size_t)(v - m->vmis);
		n = i + 1;
	}
	for (; i < n; i++) {
		const kv_node *nd = kv_model_node(m, b->vmis[i].vmi->node);

		if (nd != NULL && b->vmis[i].verdict == V_OK)
			on_node[nd - m->nodes] += (size_t)by;
	}
}

/* The source nodes' counts of VMIs that would migrate (lanes_of).  For
 * a part of the snapshot (a->lender: the proof's copy), the whole's, its
 * VMIs of this part counted as they are here: the VMIs of the part are
 * the ones the copy's changes touch. */
static size_t *
count_on_node(const kv_analysis *a)
{
	size_t *on_node = xcalloc(a->m->nnodes + 1, sizeof(size_t));

	count_ok(a, NULL, 1, on_node);
	if (a->lender == NULL)
		return on_node;
	for (size_t n = 0; n < a->m->nnodes; n++)
		on_node[n] += a->lender->window->outbound[n];
	for (size_t i = 0; i < a->nvmis; i++)
		count_ok(a->lender, a->vmis[i].vmi, -1, on_node);
	return on_node;
}

#define EST_RUN 256		/* VMIs in a row one thread estimates */

typedef struct estimating {
	kv_analysis *a;
	const kv_history *hs;
} estimating;

/* The estimates of a run of VMIs (runs.h): each reads the analysis and
 * writes its own a->est[i] alone. */
static void
estimate_run(void *arg, int part, size_t from, size_t to)
{
	const estimating *x = arg;
	kv_analysis *a = x->a;

	(void)part;
	for (size_t i = from; i < to; i++)
		if (a->vmis[i].verdict == V_OK)
			estimate_one(a, x->hs, i, a->window->outbound, NULL,
			    &a->est[i]);
}

/* Every running VMI's estimate (in kv_analysis_parts parts), then the
 * window's counts. */
void
kv_estimate_analyze(kv_analysis *a)
{
	const kv_model *m = a->m;
	kv_history hs;
	kv_window *w = xcalloc(1, sizeof(kv_window));
	estimating each;

	a->window = w;
	a->est = xcalloc(a->nvmis + 1, sizeof(kv_migest));
	kv_history_build(m, &hs);
	if (a->lender != NULL) {
		/* the past migrations' rates of the whole snapshot */
		*w = *a->lender->window;
		w->converges = w->at_risk = w->will_abort = w->unknown = 0;
	} else
		window_build(m, &hs, w);
	w->outbound = count_on_node(a);
	each.a = a;
	each.hs = &hs;
	kv_runs(a->nvmis, EST_RUN, kv_analysis_parts(a), estimate_run, &each);
	for (size_t i = 0; i < a->nvmis; i++) {
		if (a->vmis[i].verdict != V_OK)
			continue;
		a->vmis[i].will_abort = a->est[i].outcome == MIG_WILL_ABORT;
		switch (a->est[i].outcome) {
		case MIG_CONVERGES: w->converges++; break;
		case MIG_AT_RISK: w->at_risk++; break;
		case MIG_WILL_ABORT: w->will_abort++; break;
		default: w->unknown++; break;
		}
	}
	kv_history_free(&hs);
}

size_t
kv_estimate_try(const kv_analysis *a, const size_t *vmis, size_t n,
    const kv_migtry *t, enum kv_mig_outcome *out)
{
	kv_history hs;
	size_t good = 0;

	kv_history_build(a->m, &hs);
	for (size_t k = 0; k < n; k++) {
		kv_migest e = {0};

		estimate_one(a, &hs, vmis[k], a->window->outbound, t, &e);
		if (out != NULL)
			out[k] = e.outcome;
		good += e.outcome == MIG_CONVERGES;
	}
	kv_history_free(&hs);
	return good;
}

void
kv_estimate_free(kv_analysis *a)
{
	if (a->window != NULL)
		free(a->window->outbound);
	free(a->est);
	free(a->window);
	a->est = NULL;
	a->window = NULL;
}
