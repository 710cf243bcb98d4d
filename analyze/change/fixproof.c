/*
 * fixproof.c - every group's fix proven by applying it (fixproof.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/change/diff.h"
#include "analyze/change/fixcopy.h"
#include "analyze/change/fixapply.h"
#include "analyze/change/fixproof.h"
#include "analyze/pipeline.h"

/* One part of a group's fix to prove: the change (pick per VMI of the
 * analysis) and the group's VMIs lo..hi of those it reaches, measured.
 * A group larger than a batch is proven in parts, each on its own copy
 * (a VMI's verdict in a copy reads only its own facts and the whole
 * analysis's nodes and placements), so no copy holds more than
 * batches.most; a VMI no change reaches keeps its verdict and is not
 * copied. */
typedef struct job {
	kv_group *g;
	kv_change *chs;			/* kv_fix_changes' (the first part
					 * owns chs, pick, vmis and shared) */
	size_t nch;
	bool *pick;
	size_t *vmis;			/* the group's VMIs the change
					 * reaches (the others keep their
					 * verdicts: none of them is fixed) */
	size_t nvmis;
	size_t lo, hi;			/* vmis[lo..hi) */
	bool first;			/* the group's first part */
	size_t batch;
	bool failed;			/* the change could not be written */
	char *why;			/* then: the error */
	char *unproven;			/* the copy's analysis failed: why */
	const char *assume;		/* what the changes assume, or NULL */
	bool *shared;			/* per VMI: outside the group, it
					 * shares a claim the fix recreates
					 * (in the copy, counted in worse) */
	/* measured on the part's copy */
	size_t fixes, worse;
	size_t nstop;			/* stops whose restart turned unknown */
	char *stop_why;			/* the first one's reason */
	char *still;			/* g->vmis[0]'s blocker message */
} job;

/* Whether y (after the change) is worse than x: kv_vmi_compare's
 * meaning, the one kvscope diff and what-if count (diff.h). */
static bool
made_worse(const kv_vmires *x, const kv_vmires *y)
{
	return kv_vmi_compare(x, y) == CMP_WORSE;
}

/* The message of the blocker of code that VMI k of b still has, or
 * NULL (the drain codes have none). */
static const char *
still_message(const kv_analysis *b, size_t k, const char *code)
{
	const kv_vmires *r = &b->vmis[k];

	for (size_t i = 0; i < r->nblockers; i++)
		if (strcmp(r->blockers[i].rule->code, code) == 0)
			return r->blockers[i].message;
	return NULL;
}

/* The flavor's word for n VMIs ("VMI", "VirtualMachines"). */
static const char *
vms(const kv_analysis *a, size_t n)
{
	const kv_vocab *w = a->m->flavor->vocab;

	return n == 1 ? w->vm : w->vms;
}

/* Whether r is a stop whose restart is unknown (the input lacks the
 * VMs, decide/restart.c). */
static bool
restart_unknown(const kv_vmires *r)
{
	return r->on_drain == DRAIN_SHUTDOWN && r->restarts < 0 &&
	    r->restart_why != NULL;
}

/* The stops of j's part whose restart the fix makes unknown (they did
 * not stop so before): whether they come back is what such a fix
 * trades on, so it is not proven (settle). */
static void
unknown_stops(const kv_analysis *a, const kv_analysis *b, const kv_subset *s,
    job *j)
{
	for (size_t i = j->lo; i < j->hi; i++) {
		size_t v = j->vmis[i];
		const kv_vmires *y = &b->vmis[s->sub[v]];

		if (!j->pick[v] || !restart_unknown(y) ||
		    restart_unknown(&a->vmis[v]))
			continue;
		if (j->stop_why == NULL)
			j->stop_why = xstrdup(y->restart_why);
		j->nstop++;
	}
}

/* j's fixes and worse from b, the analysis of s after its changes. */
static void
measure(const kv_analysis *a, const kv_analysis *b, const kv_subset *s,
    job *j)
{
	const kv_group *g = j->g;
	const char *msg;

	for (size_t i = j->lo; i < j->hi; i++) {
		size_t v = j->vmis[i], k = s->sub[v];

		j->fixes += !kv_vmires_in_code(&b->vmis[k], g->code);
		j->worse += j->pick[v] && made_worse(&a->vmis[v], &b->vmis[k]);
	}
	for (size_t v = 0; j->first && j->shared != NULL && v < a->nvmis;
	    v++)
		j->worse += j->shared[v] && made_worse(&a->vmis[v],
		    &b->vmis[s->sub[v]]);
	unknown_stops(a, b, s, j);
	if (j->lo == 0 && j->vmis[0] == g->vmis[0] &&
	    (msg = still_message(b, s->sub[g->vmis[0]], g->code)) != NULL)
		j->still = xstrdup(msg);
}

/* g's fix, which kvscope cannot write, kept with the reason. */
static void
unproven(kv_group *g, const char *why)
{
	bool said = g->fix.text != NULL && strstr(g->fix.text, why) != NULL;
	char *t = xasprintf("%s (kvscope cannot apply this fix to prove it%s"
	    "%s)", g->fix.text ? g->fix.text : "", said ? "" : ": ",
	    said ? "" : why);

	free(g->fix.text);
	g->fix.text = t;
}

/* Group g's proof from its parts jobs[0..n): fixes and worse summed, or
 * why it is not proven (a part's change not written, its copy not
 * analysed, nothing fixed: demoted by the caller through why). */
static void
settle(const kv_analysis *a, job *jobs, size_t n)
{
	kv_group *g = jobs[0].g;
	size_t fixes = 0, worse = 0, nstop = 0;
	const char *stop_why = NULL, *msg;
	char *t;

	for (size_t k = 0; k < n; k++) {
		if (jobs[k].failed)
			return;		/* jobs[k].why: demoted */
		if (jobs[k].unproven != NULL) {
			unproven(g, jobs[k].unproven);
			return;
		}
		fixes += jobs[k].fixes;
		worse += jobs[k].worse;
		nstop += jobs[k].nstop;
		stop_why = stop_why ? stop_why : jobs[k].stop_why;
	}
	g->fix.fixes = fixes;
	g->fix.worse = worse;
	g->fix.proven = g->fix.checked = true;
	if (jobs[0].assume != NULL) {
		t = xasprintf("%s (applied %s)", g->fix.text ? g->fix.text :
		    "", jobs[0].assume);
		free(g->fix.text);
		g->fix.text = t;
	}
	if (fixes == 0) {
		if (jobs[0].still == NULL && (msg = still_message(a,
		    g->vmis[0], g->code)) != NULL)	/* not changed */
			jobs[0].still = xstrdup(msg);
		jobs[0].why = xasprintf("applied to the %s and analysed again, "
		    "every one is still %s%s%s%s", vms(a, g->nvmis), g->code,
		    jobs[0].still ? " (" : "", jobs[0].still ? jobs[0].still :
		    "", jobs[0].still ? ")" : "");
		return;
	}
	if (nstop == 0)
		return;
	g->fix.proven = false;
	t = xasprintf("%s (not proven: a drain then stops %zu %s, and "
	    "whether %s again is unknown: %s)", g->fix.text ? g->fix.text :
	    "", nstop, vms(a, nstop), nstop == 1 ? "it starts" :
	    "they start", stop_why);
	free(g->fix.text);
	g->fix.text = t;
}

/* j's change written into s; j->failed and why when it cannot be. */
static void
apply_one(kv_subset *s, job *j)
{
	bool *pick = xcalloc(s->m.nvmis + 1, sizeof(bool));
	kv_change *chs = xcalloc(j->nch + 1, sizeof(kv_change));
	kv_whatif w = {0};
	kv_err err = {0};

	for (size_t i = j->lo; i < j->hi; i++)
		pick[s->sub[j->vmis[i]]] = j->pick[j->vmis[i]];
	for (size_t i = 0; i < j->nch; i++) {
		chs[i] = j->chs[i];
		chs[i].pick = pick;
	}
	if (kv_whatif_apply(&s->m, chs, j->nch, &w, &err) != KV_OK) {
		j->failed = true;
		j->why = xasprintf("it cannot be written: %s", err.msg);
	}
	kv_whatif_free(&w);
	free(chs);
	free(pick);
}

/* Whether change c leaves the nodes, the pods' requests and the
 * cluster's configuration as they are: then the copy borrows the node
 * phases of the analysis (kv_analyze_verdicts' nodes_of). */
static bool
keeps_nodes(const kv_change *c)
{
	switch (c->kind) {
	case CH_CPU_MODEL:
	case CH_CLAIM_RWX:
	case CH_BINDING:
	case CH_OPERATION_DONE:
	case CH_IMAGE_DIGEST:
	case CH_RELAX:
	case CH_MIGRATION_POLICY:
		return true;
	case CH_EVICTION:
		return c->scope != SC_ALL;
	default:
		return false;
	}
}

/* The kinds of change of batch bi's jobs into kinds; whether they all
 * keep the nodes (keeps_nodes). */
static bool
batch_kinds(const job *jobs, size_t nj, size_t bi, bool kinds[CH_COUNT])
{
	bool keep = true;

	memset(kinds, 0, CH_COUNT * sizeof(bool));
	for (size_t j = 0; j < nj; j++)
		for (size_t c = 0; jobs[j].batch == bi && c < jobs[j].nch;
		    c++) {
			kinds[jobs[j].chs[c].kind] = true;
			keep &= keeps_nodes(&jobs[j].chs[c]);
		}
	return keep;
}

/* The jobs of batch bi (their VMIs marked in mark) applied to one copy
 * and measured. */
static void
run_batch(const kv_analysis *a, job *jobs, size_t nj, size_t bi,
    const bool *mark)
{
	bool kinds[CH_COUNT], keep = batch_kinds(jobs, nj, bi, kinds);
	kv_subset s;
	kv_analysis *b = NULL;
	kv_err err = {0};

	kv_subset_make(a->m, mark, kinds, &s);
	for (size_t j = 0; j < nj; j++)
		if (jobs[j].batch == bi)
			apply_one(&s, &jobs[j]);
	if (kv_analyze_verdicts(&s.m, keep ? a : NULL, &b, &err) != KV_OK) {
		for (size_t j = 0; j < nj; j++)
			if (jobs[j].batch == bi && !jobs[j].failed)
				jobs[j].unproven = xstrdup(err.msg);
	} else {
		for (size_t j = 0; j < nj; j++)
			if (jobs[j].batch == bi && !jobs[j].failed)
				measure(a, b, &s, &jobs[j]);
	}
	kv_analysis_free(b);
	kv_subset_free(a->m, &s);
}

/* The other groups of g's code that hold one of g's VMIs, "G2, G5",
 * or NULL. */
static char *
same_code(const kv_analysis *a, const kv_group *g)
{
	bool *in = xcalloc(a->ngroups + 1, sizeof(bool));
	kv_buf b = {0};

	for (size_t k = 0; k < g->nvmis; k++) {
		const kv_vmires *r = &a->vmis[g->vmis[k]];

		for (size_t j = 0; j < r->ngroups; j++)
			in[r->groups[j]] = true;
	}
	for (size_t j = 0; j < a->ngroups; j++)
		if (in[j] && &a->groups[j] != g &&
		    strcmp(a->groups[j].code, g->code) == 0)
			kv_buf_printf(&b, "%s%s", b.data ? ", " : "",
			    a->groups[j].id);
	free(in);
	return b.data;
}

/* What would help g's VMIs instead: the rule's remedy, or for a drain
 * group the groups that keep its VMIs from migrating; and the other
 * groups of the code, whose changes they need as well. */
static char *
what_helps(const kv_analysis *a, const kv_group *g)
{
	const char *remedy = kv_group_remedy(a, g);
	char *also = same_code(a, g), *ids;
	kv_buf b = {0};

	if (*remedy != '\0')
		kv_buf_printf(&b, "%s", remedy);
	else {
		ids = kv_drain_blockers(a, g, NULL);
		if (strcmp(ids, "none") == 0)
			kv_buf_printf(&b, "nothing kvscope can name");
		else
			kv_buf_printf(&b, "fixing what keeps them from "
			    "migrating (groups %s)", ids);
		free(ids);
	}
	if (also != NULL)
		kv_buf_printf(&b, "; they are also in this code's groups %s, "
		    "whose changes they need as well", also);
	free(also);
	return b.data;
}

/* g's fix, which helps none of its VMIs (why), as `none`. */
static void
demote(const kv_analysis *a, kv_group *g, const char *why)
{
	char *helps = what_helps(a, g);
	char *edits = g->fix.nsteps > 0 ? kv_relax_words(a, g) : NULL;
	const char *tried = g->fix.value ? g->fix.value : edits;
	char *text = xasprintf("No fix offered: %s%s%s%s helps none of these "
	    "%zu %s (%s); what would help: %s", kv_fix_names[g->fix.action],
	    tried ? " (" : "", tried ? tried : "", tried ? ")" : "",
	    g->nvmis, vms(a, g->nvmis), why, helps);

	bool checked = g->fix.checked;

	free(helps);
	free(edits);
	kv_fix_release(&g->fix);
	g->fix = (kv_fix){ .action = FIX_NONE, .text = text, .proven = true,
	    .checked = checked };
}

/* The VMIs of the copies proven at once, together, at most: the copies
 * and their analyses are the proof's memory (12 MiB at 8,192 of
 * 100,000); with two copies at once each holds half. */
#define BATCH_MAX 8192

/* The batches so far: marks[b] marks batch b's VMIs (marks[b][nvmis]:
 * nothing else joins it), size[b] counts them. */
typedef struct batches {
	bool **marks;
	size_t *size;
	size_t n;
	size_t most;			/* VMIs a batch holds at most */
} batches;

/* Whether n VMIs vmis (and extra) can join batch b: none of them is in
 * it and it stays within bs->most. */
static bool
fits(const kv_analysis *a, const size_t *vmis, size_t n, const bool *extra,
    const batches *bs, size_t b)
{
	const bool *mark = bs->marks[b];

	if (mark[a->nvmis] || bs->size[b] + n > bs->most)
		return false;
	for (size_t i = 0; i < n; i++)
		if (mark[vmis[i]])
			return false;
	for (size_t v = 0; extra != NULL && v < a->nvmis; v++)
		if (extra[v] && mark[v])
			return false;
	return true;
}

/* The batch of n VMIs vmis (and extra): the first they fit, else a new
 * one.  A change of a node (alone) may touch any VMI of it: its batch is
 * its own. */
static size_t
place(const kv_analysis *a, const size_t *vmis, size_t n, bool alone,
    const bool *extra, batches *bs)
{
	size_t b = alone ? bs->n : 0;
	bool *mark;

	while (!alone && b < bs->n && !fits(a, vmis, n, extra, bs, b))
		b++;
	if (b == bs->n) {
		bs->marks = xreallocarray(bs->marks, bs->n + 1,
		    sizeof(bool *));
		bs->size = xreallocarray(bs->size, bs->n + 1, sizeof(size_t));
		bs->marks[bs->n] = xcalloc(a->nvmis + 1, sizeof(bool));
		bs->size[bs->n++] = 0;
	}
	mark = bs->marks[b];
	for (size_t i = 0; i < n; i++)
		bs->size[b] += !mark[vmis[i]];
	for (size_t i = 0; i < n; i++)
		mark[vmis[i]] = true;
	for (size_t v = 0; extra != NULL && v < a->nvmis; v++) {
		bs->size[b] += extra[v] && !mark[v];
		mark[v] |= extra[v];
	}
	if (alone)		/* nothing else joins it */
		mark[a->nvmis] = true;
	return b;
}

/* The VMIs of j's group its changes reach, into j->vmis: the picked
 * ones when every change is for picked VMIs only, else (or with all:
 * a node's change, a shared claim's) all. */
static void
reached(job *j, bool all)
{
	const kv_group *g = j->g;

	for (size_t c = 0; c < j->nch; c++)
		all |= j->chs[c].scope != SC_PICK;
	j->vmis = xcalloc(g->nvmis + 1, sizeof(size_t));
	for (size_t i = 0; i < g->nvmis; i++)
		if (all || j->pick[g->vmis[i]])
			j->vmis[j->nvmis++] = g->vmis[i];
	if (j->nvmis > 0)
		return;
	/* none: written for all of them, it fails (the reason said) */
	memcpy(j->vmis, g->vmis, g->nvmis * sizeof(size_t));
	j->nvmis = g->nvmis;
}

/* Part j placed in a batch and appended to *jobs; the next part of its
 * group is not its first. */
static void
add_job(const kv_analysis *a, job *j, bool alone, job **jobs, size_t *nj,
    batches *bs)
{
	j->batch = place(a, j->vmis + j->lo, j->hi - j->lo, alone,
	    j->first ? j->shared : NULL, bs);
	*jobs = xreallocarray(*jobs, *nj + 1, sizeof(job));
	(*jobs)[(*nj)++] = *j;
	j->first = false;
}

/* Group g's change as jobs (one per part) appended to *jobs; how many.
 * A change of a node, or one whose claims other VMIs share, is proven
 * whole; any other in parts of at most bs->most VMIs. */
static size_t
group_jobs(kv_analysis *a, kv_group *g, job **jobs, size_t *nj,
    batches *bs)
{
	job j = { .g = g, .first = true };
	bool alone = false;
	const char *why;
	size_t step, n = 0;

	j.pick = xcalloc(a->nvmis + 1, sizeof(bool));
	if ((j.chs = kv_fix_changes(a, g, j.pick, &j.nch, &why)) == NULL) {
		free(j.pick);
		if (!g->fix.proven)
			unproven(g, why);
		return 0;
	}
	for (size_t c = 0; c < j.nch; c++) {
		alone |= kv_change_on_node(&j.chs[c]);
		if (j.chs[c].kind != CH_CLAIM_RWX)
			continue;
		if (j.shared == NULL)
			j.shared = xcalloc(a->nvmis + 1, sizeof(bool));
		kv_whatif_claim_sharers(a->m, &j.chs[c], j.shared);
	}
	j.assume = why;
	reached(&j, alone || j.shared != NULL);
	step = alone || j.shared != NULL ? j.nvmis : bs->most;
	for (size_t lo = 0; lo < j.nvmis; lo += step, n++) {
		j.lo = lo;
		j.hi = lo + step < j.nvmis ? lo + step : j.nvmis;
		add_job(a, &j, alone, jobs, nj, bs);
	}
	return n;
}

/* The groups whose fix gives a change, as jobs; the others unproven
 * (none changes nothing: its 0 is exact). */
static size_t
make_jobs(kv_analysis *a, job **jobs, batches *bs)
{
	size_t nj = 0;

	for (size_t i = 0; i < a->ngroups; i++) {
		kv_group *g = &a->groups[i];

		g->fix.proven = g->fix.action == FIX_NONE;
		if (g->nvmis > 0)
			group_jobs(a, g, jobs, &nj, bs);
	}
	return nj;
}

/* Each group's parts settled, demoted when nothing is fixed, freed. */
static void
settle_all(kv_analysis *a, job *jobs, size_t nj)
{
	for (size_t j = 0, k; j < nj; j = k) {
		for (k = j + 1; k < nj && jobs[k].g == jobs[j].g; k++)
			;
		settle(a, jobs + j, k - j);
		for (size_t p = j; p < k; p++)
			if (jobs[p].why != NULL) {
				demote(a, jobs[p].g, jobs[p].why);
				break;
			}
		for (size_t p = j; p < k; p++) {
			free(jobs[p].why);
			free(jobs[p].unproven);
			free(jobs[p].stop_why);
			free(jobs[p].still);
		}
		free(jobs[j].pick);
		free(jobs[j].vmis);
		free(jobs[j].chs);
		free(jobs[j].shared);
	}
}

/* The batches run at once, each on its own copy, by the threads asked
 * for (the caller's one of them): todo[next++] until none is left.
 * A copy reads the analysis and the model (and the lender's place,
 * whose lazily built tables it builds for itself: place.c), and writes
 * its own arrays, the jobs of its batch and the model's intern table
 * (shared meanwhile);
 * what a batch finds does not depend on which thread ran it or when. */
typedef struct runner {
	const kv_analysis *a;
	job *jobs;
	size_t nj;
	const batches *bs;
	size_t *todo;
	size_t ntodo;
	atomic_size_t next;
} runner;

static void *
run_some(void *arg)
{
	runner *r = arg;
	size_t i;

	while ((i = atomic_fetch_add(&r->next, 1)) < r->ntodo)
		run_batch(r->a, r->jobs, r->nj, r->todo[i],
		    r->bs->marks[r->todo[i]]);
	return NULL;
}

/* Whether batch bi's copy may be analysed beside others: it lends none
 * of the model's own arrays (the image IDs of pods or the claims,
 * fixcopy.h, which other copies read), borrows the whole analysis' node
 * phases (a change of nodes builds its own, and its batch holds every
 * VMI the change reaches) and holds at most bs->most VMIs, so that two
 * copies at once hold what one did. */
static bool
at_once(const job *jobs, size_t nj, const batches *bs, size_t bi)
{
	bool kinds[CH_COUNT], keep = batch_kinds(jobs, nj, bi, kinds);

	return keep && !kinds[CH_IMAGE_DIGEST] && !kinds[CH_CLAIM_RWX] &&
	    bs->size[bi] <= bs->most;
}

/* Every batch run: those at_once() allows on up to want threads, then
 * the others one by one, each copy's verdicts on up to want threads
 * (copies_alone); how many ran at once. */
static size_t
run_batches(kv_analysis *a, job *jobs, size_t nj, const batches *bs,
    int want)
{
	runner r = { .a = a, .jobs = jobs, .nj = nj, .bs = bs };
	pthread_t th[4];
	int nth = 0;
	size_t together;
	bool *now = xcalloc(bs->n + 1, sizeof(bool));

	r.todo = xcalloc(bs->n + 1, sizeof(size_t));
	for (size_t b = 0; b < bs->n; b++)
		if ((now[b] = at_once(jobs, nj, bs, b)))
			r.todo[r.ntodo++] = b;
	atomic_init(&r.next, 0);
	kv_intern_share(a->m->strs, want > 1 && r.ntodo > 1);
	for (; nth + 1 < want && nth < 3 && (size_t)nth + 1 < r.ntodo; nth++)
		if (pthread_create(&th[nth], NULL, run_some, &r) != 0)
			break;
	run_some(&r);
	for (int i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	kv_intern_share(a->m->strs, false);
	a->copies_alone = want > 1;
	for (size_t b = 0; b < bs->n; b++)
		if (!now[b])
			run_batch(a, jobs, nj, b, bs->marks[b]);
	a->copies_alone = false;
	together = nth > 0 ? r.ntodo : 0;
	free(r.todo);
	free(now);
	return together;
}

/* The copies proven at once at most: each has a part that does not
 * shrink with its share of VMIs (~6 MiB at 5,000 nodes), so two keep the
 * peak where one copy of 8,192 had it, and four put the fuller 5,000-node
 * / 100,000-VMI snapshot at 497 MiB (KVSCOPE_THREADS=4; 474 with two). */
#define COPIES_AT_ONCE 2

void
kv_fix_prove(kv_analysis *a)
{
	int threads = kv_threads();

	if (threads > COPIES_AT_ONCE)
		threads = COPIES_AT_ONCE;
	kv_fix_prove_parts(a, BATCH_MAX / (size_t)threads, threads);
}

size_t
kv_fix_prove_parts(kv_analysis *a, size_t most, int threads)
{
	job *jobs = NULL;
	batches bs = { NULL, NULL, 0, most > 0 ? most : 1 };
	size_t nj, together;

	kv_timing_hold(true);
	nj = make_jobs(a, &jobs, &bs);
	together = run_batches(a, jobs, nj, &bs, threads);
	settle_all(a, jobs, nj);
	for (size_t b = 0; b < bs.n; b++)
		free(bs.marks[b]);
	free(bs.marks);
	free(bs.size);
	free(jobs);
	kv_timing_hold(false);
	kv_timing("proof");
	return together;
}
