/*
 * prose.c - the section sentences of the report, shared by the HTML and
 * PDF writers (report.h): each gives the answer first, then the detail.
 *
 * Every function reads the analysis only; returned strings are the
 * caller's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/guestos.h"
#include "analyze/estimate/estimate.h"
#include "render/render.h"
#include "render/report.h"

#define W(w) kv_word(a, KV_WORD_##w)

/* --- section sentences -------------------------------------------------- */

static size_t
not_migrating(const kv_summary *s)
{
	return s->verdicts[V_BLOCKED] + s->verdicts[V_NO_TARGET] +
	    s->verdicts[V_WILL_FAIL] + s->verdicts[V_STUCK];
}

/* The headline when some running VMIs are not judged (nj of them). */
static char *
headline_unjudged(const kv_analysis *a, size_t bad, size_t nj)
{
	const kv_summary *s = &a->summary;

	if (nj == s->running)
		return xasprintf("No running %s is judged: the input lacks "
		    "what %s checks need (see the warnings).", W(VM),
		    nj == 1 ? "its" : "their");
	return xasprintf("%zu of %zu running %s would migrate and %zu "
	    "would not; %zu %s not judged: the input lacks what %s checks "
	    "need.", s->verdicts[V_OK], s->running, W(VMS), bad, nj,
	    nj == 1 ? "is" : "are", nj == 1 ? "its" : "their");
}

char *
prose_headline(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	size_t bad = not_migrating(s);

	if (s->running == 0)
		return xasprintf("No %s is running: there is nothing to "
		    "migrate.", W(VM));
	if (s->verdicts[V_NOT_JUDGED] > 0)
		return headline_unjudged(a, bad, s->verdicts[V_NOT_JUDGED]);
	if (bad == 0)
		return xasprintf("%s %zu running %s would migrate.",
		    s->running == 1 ? "The" : "All", s->running,
		    plural(s->running, W(VM), W(VMS)));
	if (s->mismatch == 0)
		return xasprintf("%zu of %zu running %s would not migrate; "
		    "none of them claims %s=True.", bad, s->running, W(VMS),
		    W(CONDITION));
	return xasprintf("%zu of %zu running %s would not migrate; %zu of "
	    "them %s %s=True.", bad, s->running, W(VMS), s->mismatch,
	    plural(s->mismatch, "reports", "report"), W(CONDITION));
}

char *
prose_oneline(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	const char *ctx = a->m->manifest.context;
	size_t nj = s->verdicts[V_NOT_JUDGED];
	char *line = xasprintf("cluster %s, %zu running %s, %zu would not "
	    "migrate", ctx != NULL ? ctx : "(unnamed)", s->running,
	    plural(s->running, W(VM), W(VMS)), not_migrating(s));

	if (nj > 0) {
		char *more = xasprintf("%s, %zu not judged", line, nj);

		free(line);
		line = more;
	}
	return line;
}

char *
prose_verdicts(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	kv_buf b = {0};

	for (int v = 0; v < V_COUNT; v++)
		if (s->verdicts[v] > 0)
			kv_buf_printf(&b, "%s%zu %s", b.len ? ", " : "",
			    s->verdicts[v], kv_verdict_names[v]);
	if (b.data == NULL)
		kv_buf_printf(&b, "no %s", W(VMS));
	return b.data;
}

char *
prose_cluster(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	size_t sched = 0;

	for (size_t i = 0; i < a->m->nnodes; i++)
		if (a->nodes[i].kubevirt && a->nodes[i].schedulable)
			sched++;
	return xasprintf("%zu %s, %zu of them virtualization %s (%zu "
	    "schedulable for VMs), in %zu CPU %s; %zu %s, %zu running.",
	    s->nodes, plural(s->nodes, "node", "nodes"), s->kubevirt_nodes,
	    plural(s->kubevirt_nodes, "node", "nodes"), sched, s->classes,
	    plural(s->classes, "class", "classes"), s->vmis,
	    plural(s->vmis, W(VM), W(VMS)), s->running);
}

char *
prose_lacked(const kv_analysis *a)
{
	if (a->nwarnings == 0)
		return xstrdup("The snapshot holds everything the analysis "
		    "reads.");
	return xasprintf("The snapshot lacked %zu %s; what that leaves "
	    "unjudged:", a->nwarnings, plural(a->nwarnings, "item",
	    "items"));
}

/* Resources of the other flavor are absent as a rule: not worth a line. */
static bool
other_flavor(const kv_analysis *a, const snap_resource *r)
{
	return kv_flavor_foreign_group(a->m->flavor, r->group);
}

char *
prose_absent(const kv_analysis *a)
{
	const snap_manifest *mf = &a->m->manifest;
	kv_buf b = {0};
	char *s;

	for (size_t i = 0; i < mf->nresources; i++) {
		const snap_resource *r = &mf->resources[i];

		if (strcmp(r->status, "absent") != 0 || other_flavor(a, r))
			continue;
		kv_buf_printf(&b, "%s%s%s%s", b.len ? ", " : "", r->resource,
		    *r->group ? "." : "", r->group);
	}
	if (b.data == NULL)
		return NULL;
	s = xasprintf("Not served by this cluster's API (normal when the "
	    "add-on is not installed): %s.", b.data);
	kv_buf_free(&b);
	return s;
}

/* Can a host-model VM leave class c: another class takes it, or a second
 * node of its own class does. */
static bool
class_can_leave(const kv_analysis *a, size_t c)
{
	for (size_t t = 0; t < a->nclasses; t++) {
		const kv_pair *p = &a->pairs[c * a->nclasses + t];

		if (p->ok && (t != c || a->classes[c].nnodes > 1))
			return true;
	}
	return false;
}

/* Its own nodes lack what its host model asks of a target (kubevirt
 * v1.9.0 migration target selector: cpu-model-migration.<domain>/<host
 * model> and each host-model-required-features label as cpu-feature),
 * which the node labeller sets on every node whose host model libvirt
 * knows and KubeVirt does not call obsolete
 * (pkg/virt-handler/node-labeller/node_labeller.go:243-288). */
char *
prose_self_refused(const kv_analysis *a, const kv_pair *p)
{
	const char *id = a->classes[p->src].id;
	bool one = p->nmissing == 1;

	return xasprintf("within one class: the nodes of %s lack %s their "
	    "own host model asks of a target, so a host-model VMI on %s "
	    "finds no target there either; the node labeller sets %s unless "
	    "the host model is obsolete (node label %s) or unknown to "
	    "libvirt, or the labels were edited", id, one ? "the label" :
	    "the labels", id, one ? "it" : "them",
	    a->m->flavor->obsolete_key);
}

char *
prose_matrix(const kv_analysis *a)
{
	size_t n = a->nclasses, leave = 0, okpairs = 0, stuck = 0;
	kv_buf b = {0};
	char *s;

	if (n == 0)
		return xstrdup("No node carries the node labeller's CPU "
		    "labels: there is no CPU class to compare.");
	for (size_t c = 0; c < n; c++) {
		if (class_can_leave(a, c))
			leave++;
		for (size_t t = 0; t < n; t++)
			if (t != c && a->pairs[c * n + t].ok)
				okpairs++;
	}
	for (size_t c = 0; c < n; c++)
		if (!class_can_leave(a, c))
			stuck++;
	for (size_t c = 0, k = 0; c < n && k < 8; c++) {
		if (class_can_leave(a, c))
			continue;
		k++;
		kv_buf_printf(&b, "%s%s", k == 1 ? "" : k == stuck ? " and " :
		    ", ", a->classes[c].id);
	}
	if (stuck > 8)
		kv_buf_printf(&b, " and %zu more", stuck - 8);
	if (stuck == 0)
		s = xasprintf("A host-model VM can move off every one of the "
		    "%zu CPU %s (by the CPU rules alone); %zu of the %zu "
		    "ordered pairs of different classes are compatible.", n,
		    plural(n, "class", "classes"), okpairs, n * (n - 1));
	else
		s = xasprintf("A host-model VM can move off %zu of the %zu CPU "
		    "%s (by the CPU rules alone); on %s it has no other node "
		    "to go to. %zu of the %zu ordered pairs of different "
		    "classes are compatible.", leave, n,
		    plural(n, "class", "classes"), b.data, okpairs,
		    n * (n - 1));
	kv_buf_free(&b);
	return s;
}

static int
model_level(const kv_analysis *a, const char *model)
{
	const cpudb_model *m = kv_cpu_lookup(a, model);

	return m != NULL ? m->level : -1;
}

char *
prose_named(const kv_analysis *a)
{
	kv_buf b = {0};

	if (a->nscopes == 0)
		return xstrdup("No virtualization node offers a named CPU "
		    "model.");
	for (size_t i = 0; i < a->nscopes; i++) {
		const kv_scope *s = &a->scopes[i];
		const char *where = strcmp(s->name, "all") == 0 ?
		    "every virtualization node" : s->name;
		int level;

		if (kv_startswith(s->name, "vendor:"))
			where = s->name + strlen("vendor:");
		if (s->nbest == 0) {
			kv_buf_printf(&b, "%sNo named model runs on %s%s.",
			    b.len ? " " : "", strcmp(s->name, "all") == 0 ?
			    "" : "every node of ", where);
			continue;
		}
		level = model_level(a, s->best[0]);
		kv_buf_printf(&b, "%sBest on %s%s: %s", b.len ? " " : "",
		    strcmp(s->name, "all") == 0 ? "" : "every ", where,
		    s->best[0]);
		if (level >= 1)
			kv_buf_printf(&b, " (x86-64-v%d)", level);
		if (s->nbest > 1)
			kv_buf_printf(&b, ", or %zu equally good",
			    s->nbest - 1);
		kv_buf_printf(&b, "%s", ".");
	}
	return b.data;
}

const char *
prose_vendor_rule(const kv_analysis *a)
{
	bool all = false, vendor = false;

	for (size_t i = 0; i < a->nscopes; i++) {
		if (strcmp(a->scopes[i].name, "all") == 0)
			all = true;
		else if (kv_startswith(a->scopes[i].name, "vendor:"))
			vendor = true;
	}
	if (!all || !vendor)
		return NULL;
	if (!a->m->flavor->vendor_selector)
		return a->m->flavor->vocab->no_vendor_note;
	return "Since KubeVirt v1.8 every migration target also needs the "
	    "source node's vendor label, so VMs never move between Intel and "
	    "AMD nodes, whatever their CPU model: the \"all\" scope says where "
	    "a VM can start, the vendor scopes say where it can move.";
}

static const kv_tradeoff *
tier_of(const kv_analysis *a, size_t scope, const char *tier)
{
	for (size_t i = 0; i < a->ntradeoff; i++)
		if (a->tradeoff[i].scope == scope &&
		    strcmp(a->tradeoff[i].tier, tier) == 0)
			return &a->tradeoff[i];
	return NULL;
}

/* The model to name for tier t: the first of its scope's
 * vendor when there is one (an AMD scope names EPYC-Genoa rather than an
 * Intel model that reaches the same nodes), else the first. */
const char *
tradeoff_model(const kv_analysis *a, const kv_tradeoff *t)
{
	const kv_scope *s = &a->scopes[t->scope];
	const char *vendor = kv_startswith(s->name, "vendor:") ?
	    s->name + strlen("vendor:") : NULL;

	for (size_t i = 0; vendor != NULL && i < t->nmodels; i++) {
		const cpudb_model *m = kv_cpu_lookup(a, t->models[i]);

		if (m != NULL && m->vendor != NULL &&
		    strcmp(m->vendor, vendor) == 0)
			return t->models[i];
	}
	return t->nmodels > 0 ? t->models[0] : NULL;
}

/* Whether tiers p and q say the same: the same nodes, the same models. */
static bool
same_tier(const kv_tradeoff *p, const kv_tradeoff *q)
{
	if (p == NULL || q == NULL || p->nodes != q->nodes ||
	    p->nmodels != q->nmodels)
		return false;
	for (size_t i = 0; i < p->nmodels; i++)
		if (strcmp(p->models[i], q->models[i]) != 0)
			return false;
	return true;
}

/* One scope's sentence: AVX2 (named with x86-64-v3 when that tier is the
 * same), then AVX-512, merged into one when AVX-512 reaches as many
 * nodes as AVX2. */
static void
tradeoff_scope(kv_buf *b, const kv_analysis *a, size_t i)
{
	const kv_scope *s = &a->scopes[i];
	const kv_tradeoff *t3 = tier_of(a, i, "x86-64-v3");
	const kv_tradeoff *t2 = tier_of(a, i, "avx2");
	const kv_tradeoff *t4 = tier_of(a, i, "x86-64-v4");
	const char *name = kv_startswith(s->name, "vendor:") ?
	    s->name + strlen("vendor:") : "all nodes";
	const char *avx2 = same_tier(t3, t2) ? "AVX2 (x86-64-v3)" : "AVX2";
	const char *m2 = tradeoff_model(a, t2), *m4 = tradeoff_model(a, t4);

	if (t4->nodes > 0 && t4->nodes == t2->nodes) {
		kv_buf_printf(b, "%s%s: %s and AVX-512 in the guest on %zu of "
		    "%zu %s (%s).", b->len ? " " : "", name, avx2, t4->nodes,
		    t4->of, plural(t4->of, "node", "nodes"), m4);
		return;
	}
	kv_buf_printf(b, "%s%s: %s in the guest on %zu of %zu %s",
	    b->len ? " " : "", name, avx2, t2->nodes, t2->of,
	    plural(t2->of, "node", "nodes"));
	if (m2 != NULL)
		kv_buf_printf(b, " (%s)", m2);
	kv_buf_printf(b, ", AVX-512 on %zu of %zu", t4->nodes, t4->of);
	if (m4 != NULL)
		kv_buf_printf(b, " (%s)", m4);
	kv_buf_printf(b, "%s", ".");
}

char *
prose_tradeoff(const kv_analysis *a)
{
	kv_buf b = {0};
	size_t vendors = 0;

	for (size_t i = 0; i < a->nscopes; i++)
		if (kv_startswith(a->scopes[i].name, "vendor:"))
			vendors++;
	for (size_t i = 0; i < a->nscopes; i++) {
		/* where VMs can move is the vendor scopes' answer, except
		 * under DVP, which has no vendor selector */
		if (vendors && a->m->flavor->vendor_selector &&
		    strcmp(a->scopes[i].name, "all") == 0)
			continue;
		if (tier_of(a, i, "avx2") == NULL ||
		    tier_of(a, i, "x86-64-v4") == NULL)
			continue;
		tradeoff_scope(&b, a, i);
	}
	if (b.data == NULL)
		kv_buf_printf(&b, "No named model of any tier is usable.");
	else if (vendors > 1 && a->m->flavor->vendor_selector)
		kv_buf_printf(&b, " VMs never move between vendors.");
	return b.data;
}

void
guest_floor_counts(const kv_analysis *a, size_t above[5])
{
	for (int l = 0; l < 5; l++)
		above[l] = kv_guests_above(a, l);
}

/* The x86-64 level every model of tier t gives the guest: the tier's
 * own for the level tiers, the lowest of its models' for avx2; -1 when
 * it lists none. */
static int
tier_level(const kv_analysis *a, const kv_tradeoff *t)
{
	int lv = -1;

	if (strcmp(t->tier, "any") == 0)
		return t->nmodels ? 1 : -1;
	if (kv_startswith(t->tier, "x86-64-v"))
		return t->nmodels ? t->tier[8] - '0' : -1;
	for (size_t k = 0; k < t->nmodels; k++)
		for (size_t i = 0; i < a->nnamed; i++)
			if (strcmp(a->named[i].model, t->models[k]) == 0 &&
			    a->named[i].info != NULL && (lv < 0 ||
			    a->named[i].info->level < lv))
				lv = a->named[i].info->level;
	return lv;
}

char *
tradeoff_guests(const kv_analysis *a, const kv_tradeoff *t,
    const size_t above[5])
{
	int lv = tier_level(a, t);
	kv_buf b = {0};
	bool first = true;

	if (lv < 0 || lv >= 4 || above[lv] == 0)
		return NULL;
	kv_buf_printf(&b, "guests that need ");
	for (int need = lv + 1; need <= 4; need++) {
		size_t n = above[need - 1] - above[need];

		if (n > 0)
			kv_buf_printf(&b, "%sx86-64-v%d: %zu %s", first ? "" :
			    "; ", need, n, n == 1 ? W(VM) : W(VMS));
		first = first && n == 0;
	}
	return b.data;
}

char *
prose_vmis(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	size_t warned = 0, bad = not_migrating(s);

	for (size_t i = 0; i < a->nvmis; i++)
		if (a->vmis[i].nwarnings > 0 &&
		    a->vmis[i].verdict != V_NOT_RUNNING)
			warned++;
	if (s->verdicts[V_NOT_JUDGED] > 0)
		return xasprintf("%zu of %zu running %s would migrate and "
		    "%zu would not; %zu %s not judged (the input lacks what "
		    "the checks need); %zu %s a warning.", s->verdicts[V_OK],
		    s->running, W(VMS), bad, s->verdicts[V_NOT_JUDGED],
		    s->verdicts[V_NOT_JUDGED] == 1 ? "is" : "are", warned,
		    plural(warned, "carries", "carry"));
	return xasprintf("%zu of %zu running %s would migrate and %zu "
	    "would not; %zu %s a warning.", s->verdicts[V_OK], s->running,
	    W(VMS), bad, warned, plural(warned, "carries", "carry"));
}

char *
prose_drain(const kv_analysis *a)
{
	size_t blocknodes = 0, block = 0, shut = 0, mig = 0, ext = 0;
	int64_t mem = 0, worst = 0;
	const kv_drain *wd = NULL;
	char *m, *w, *s, *stop, *first;

	if (a->ndrain == 0)
		return xasprintf("No node runs a %s: a drain moves nothing.",
		    W(VM));
	for (size_t i = 0; i < a->ndrain; i++) {
		const kv_drain *d = &a->drain[i];

		blocknodes += d->block > 0;
		block += d->block;
		shut += d->shutdown;
		mig += d->migrate;
		ext += d->external;
		mem += d->memory;
		if (d->seconds > worst) {
			worst = d->seconds;
			wd = d;
		}
	}
	m = kv_fmt_bytes(mem);
	w = fmt_duration(worst);
	stop = shut ? xasprintf("stop %zu %s and ", shut,
	    plural(shut, "VM", "VMs")) : xstrdup("");
	first = blocknodes ? xasprintf("%zu of the %zu nodes that run %s would "
	    "not finish a drain (%zu %s would block it)", blocknodes,
	    a->ndrain, W(VMS), block, plural(block, W(VM), W(VMS))) :
	    xasprintf("Each of the %zu nodes that run %s would finish a "
	    "drain", a->ndrain, W(VMS));
	s = xasprintf("%s; draining them all would %smigrate %zu (%s in "
	    "all%s%s%s%s).%s", first, stop, mig, m,
	    wd ? ", the longest node " : "",
	    wd ? a->m->nodes[wd->node].name : "", wd ? " about " : "",
	    wd ? w : "", ext ? " Some leave their eviction to an external "
	    "controller." : "");
	free(stop);
	free(first);
	free(m);
	free(w);
	return s;
}

char *
prose_drain_assumption(const kv_analysis *a)
{
	const kv_config *c = &a->cfg;
	kv_mig_limits lim;
	size_t lanes;
	const char *sync = "";
	char *in, *s;

	kv_schedule_limits(a, &lim);	/* the lanes the drain times used */
	lanes = lim.per_source < lim.cluster ? lim.per_source : lim.cluster;
	if (c->sync_per_node > 0 && c->sync_per_node < c->parallel_node &&
	    (size_t)c->sync_per_node == lanes)
		sync = a->m->flavor->vocab->sync_note ?
		    a->m->flavor->vocab->sync_note : "";
	in = lim.per_target > 0 ? xasprintf(", at most %zu arriving on a "
	    "node at once", lim.per_target) : xstrdup("");
	/* the ranges come from each migration's estimate (estimate.h) */
	s = xasprintf("Times assume each node is drained alone: up to %zu "
	    "%s at once%s%s, each taking the range its migration estimate "
	    "gives (the target pod's start plus the copy, %s; the Maintenance "
	    "window section names every assumption).", lanes,
	    plural(lanes, "migration", "migrations"), sync, in,
	    c->bandwidth_mibps > 0 ? "capped by bandwidthPerMigration" :
	    "no bandwidth limit per migration");
	free(in);
	return s;
}
const char *
prose_matrix_howto(void)
{
	return "A host-model VM gets the CPU of the node it starts on; it can "
	    "move only to nodes that offer that CPU model for migration, every "
	    "feature the model requires and the same vendor. Read a row: the "
	    "VM runs on that class; a \u2713 column is a class it can move to. "
	    "A number counts the node labels the target lacks; the classes' "
	    "nodes are listed after the matrix.";
}

char *
prose_aggregated(const kv_analysis *a)
{
	if (a->nclasses <= KV_MATRIX_MAX)
		return NULL;
	return xasprintf("The cluster has %zu CPU classes; the matrix shows "
	    "the first %d one by one and aggregates the other %zu into its "
	    "last row and column.", a->nclasses, KV_MATRIX_MAX - 1,
	    a->nclasses - (KV_MATRIX_MAX - 1));
}

const char *
prose_tradeoff_howto(void)
{
	return "Read down a scope: the more the guest CPU offers, the fewer "
	    "nodes can run it. Each row names the models of that tier usable "
	    "on the most nodes of the scope, and the nodes none of them runs "
	    "on.";
}

const char *
prose_vmis_howto(void)
{
	return "Grouped by the node each runs on. Targets are the nodes that "
	    "satisfy every placement constraint; the outcome is what a "
	    "migration attempt would end in, and \"on drain\" what kubectl "
	    "drain of the node does.";
}

const char *
prose_glossary_intro(void)
{
	return "Every verdict and every code the analysis can report, with "
	    "what to do about it; the VMs column counts how often a code "
	    "occurs in this snapshot. The same codes appear in findings.json.";
}

char *
prose_mismatch(const kv_analysis *a)
{
	if (a->summary.mismatch == 0)
		return NULL;
	return xasprintf("%s %zu of the %s that would not migrate carry "
	    "%s=True: their migration is accepted, and then fails.", SYM_WARN,
	    a->summary.mismatch, W(VMS), W(CONDITION));
}

/* --- the glossary ------------------------------------------------------- */
