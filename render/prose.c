/*
 * prose.c - the words of the report, shared by the HTML and PDF writers
 * (report.h): section sentences that give the answer first, number and
 * date formatting without the locale, verdict tones, and the class-matrix
 * view that aggregates beyond KV_MATRIX_MAX classes.
 *
 * Every function reads the analysis only; returned strings are the
 * caller's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "report.h"

#define W(w) kv_word(a, KV_WORD_##w)

/* --- dates and numbers ------------------------------------------------ */

static bool
parse_epoch(const char *s, time_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0 || v > 253402300799LL)
		return false;
	*out = (time_t)v;
	return true;
}

/* "2026-10-31T09:12:44Z", fractions and a numeric offset allowed. */
static bool
parse_iso(const char *s, time_t *out)
{
	struct tm tm = {0};
	int n = 0, oh = 0, om = 0;
	const char *p;
	char sign;

	if (s == NULL || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year,
	    &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
	    &n) != 6 || n != 19)
		return false;
	p = s + n;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	sign = *p;
	if (sign == 'Z' && p[1] == '\0')
		;
	else if ((sign == '+' || sign == '-') &&
	    sscanf(p + 1, "%2d:%2d%n", &oh, &om, &n) == 2 && p[1 + n] == '\0')
		;
	else
		return false;
	if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = timegm(&tm) - (sign == '-' ? -1 : sign == '+' ? 1 : 0) *
	    (time_t)(oh * 3600 + om * 60);
	return *out >= 0;
}

void
snapshot_date(const kv_analysis *a, char buf[21])
{
	time_t t;

	if (parse_iso(a->m->manifest.created_at, &t))
		report_isodate(t, buf);
	else
		snprintf(buf, 21, "(unknown)");
}

time_t
report_date(const kv_analysis *a)
{
	time_t t;

	if (parse_epoch(getenv("SOURCE_DATE_EPOCH"), &t))
		return t;
	if (parse_iso(a->m->manifest.created_at, &t))
		return t;
	return 0;
}

void
report_isodate(time_t t, char buf[21])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	if (strftime(buf, 21, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, 21, "1970-01-01T00:00:00Z");
}

char *
fmt_duration(int64_t s)
{
	if (s < 0)
		return xstrdup("unknown");
	if (s < 60)
		return xasprintf("%lld s", (long long)s);
	if (s < 3600)
		return xasprintf("%lld min %lld s", (long long)(s / 60),
		    (long long)(s % 60));
	return xasprintf("%lld h %lld min", (long long)(s / 3600),
	    (long long)(s % 3600 / 60));
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* --- verdicts ----------------------------------------------------------- */

enum kv_tone
verdict_tone(enum kv_verdict v)
{
	switch (v) {
	case V_OK:
		return TONE_OK;
	case V_NOT_RUNNING:
		return TONE_NONE;
	default:
		return TONE_FAIL;
	}
}

const char *
verdict_symbol(enum kv_verdict v)
{
	switch (verdict_tone(v)) {
	case TONE_OK:
		return SYM_OK;
	case TONE_NONE:
		return SYM_NONE;
	default:
		return SYM_FAIL;
	}
}

const char *
verdict_meaning(enum kv_verdict v)
{
	static const char *const m[V_COUNT] = {
		"A target exists and nothing blocks: the VM migrates.",
		"Not Running; nothing was judged.",
		"The migration is refused at once.",
		"Accepted, but the target pod never schedules; the migration "
		"fails after the unschedulable timeout (300 s by default).",
		"The target pod schedules but never starts; the migration "
		"fails after the pending timeout (900 s by default).",
		"The migration object stays Pending forever: no target pod "
		"is created.",
	};

	return (unsigned)v < V_COUNT ? m[v] : "";
}

uint32_t
tone_ink(enum kv_tone t)
{
	return t == TONE_OK ? COL_OK : t == TONE_WARN ? COL_WARN :
	    t == TONE_FAIL ? COL_FAIL : COL_MUTED;
}

uint32_t
tone_bg(enum kv_tone t)
{
	return t == TONE_OK ? COL_OK_BG : t == TONE_WARN ? COL_WARN_BG :
	    t == TONE_FAIL ? COL_FAIL_BG : COL_SHADE;
}

/* --- lists -------------------------------------------------------------- */

static void
list_tail(kv_buf *b, size_t shown, size_t n)
{
	if (shown < n)
		kv_buf_printf(b, " and %zu more", n - shown);
	if (b->data == NULL)
		kv_buf_append(b, "", 0);
}

char *
node_list(const kv_analysis *a, const size_t *idx, size_t n, size_t max)
{
	kv_buf b = {0};
	size_t i;

	for (i = 0; i < n && i < max; i++)
		kv_buf_printf(&b, "%s%s", i ? ", " : "",
		    a->m->nodes[idx[i]].name);
	list_tail(&b, i, n);
	return b.data;
}

/* node_list() for a kv_nodeset (a VMI's targets). */
char *
nodeset_list(const kv_analysis *a, const kv_nodeset *set, size_t max)
{
	kv_buf b = {0};
	size_t i = 0;

	KV_NODESET_FOREACH(set, n) {
		if (i == max)
			break;
		kv_buf_printf(&b, "%s%s", i++ ? ", " : "", a->m->nodes[n].name);
	}
	list_tail(&b, i, set->n);
	return b.data;
}

char *
str_list(const char *const *v, size_t n, size_t max)
{
	kv_buf b = {0};
	size_t i;

	for (i = 0; i < n && i < max; i++)
		kv_buf_printf(&b, "%s%s", i ? ", " : "", v[i]);
	list_tail(&b, i, n);
	return b.data;
}

const char *
node_class(const kv_analysis *a, size_t node)
{
	int c = a->nodes[node].cls;

	return c >= 0 ? a->classes[c].id : SYM_NONE;
}

/* --- section sentences -------------------------------------------------- */

static size_t
not_migrating(const kv_summary *s)
{
	return s->verdicts[V_BLOCKED] + s->verdicts[V_NO_TARGET] +
	    s->verdicts[V_WILL_FAIL] + s->verdicts[V_STUCK];
}

char *
prose_headline(const kv_analysis *a)
{
	const kv_summary *s = &a->summary;
	size_t bad = not_migrating(s);

	if (s->running == 0)
		return xasprintf("No %s is running: there is nothing to "
		    "migrate.", W(VM));
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

char *
prose_matrix(const kv_analysis *a)
{
	size_t n = a->nclasses, leave = 0, okpairs = 0, stuck = 0;
	kv_buf b = {0};
	char *s;

	if (n == 0)
		return xstrdup("No node carries the node labeller's CPU labels: "
		    "there is no CPU class to compare.");
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
			kv_buf_printf(&b, ", or %zu equally good", s->nbest - 1);
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
		return "DVP's KubeVirt (a fork of v1.6) gives a migration target "
		    "no CPU-vendor selector: a VM of a Model, Discovery or "
		    "Features class can move between Intel and AMD nodes that "
		    "both offer its CPU, so the \"all\" scope holds for moves "
		    "too; the vendor scopes show the choice within one vendor.";
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

char *
prose_tradeoff(const kv_analysis *a)
{
	kv_buf b = {0};
	bool vendors = false;

	for (size_t i = 0; i < a->nscopes; i++)
		if (kv_startswith(a->scopes[i].name, "vendor:"))
			vendors = true;
	for (size_t i = 0; i < a->nscopes; i++) {
		const kv_scope *s = &a->scopes[i];
		const kv_tradeoff *t2 = tier_of(a, i, "avx2");
		const kv_tradeoff *t4 = tier_of(a, i, "x86-64-v4");
		const char *name = kv_startswith(s->name, "vendor:") ?
		    s->name + strlen("vendor:") : "all nodes";

		/* where VMs can move is the vendor scopes' answer, except
		 * under DVP, which has no vendor selector */
		if (vendors && a->m->flavor->vendor_selector &&
		    strcmp(s->name, "all") == 0)
			continue;
		if (t2 == NULL || t4 == NULL)
			continue;
		kv_buf_printf(&b, "%s%s: AVX2 in the guest on %zu of %zu %s",
		    b.len ? " " : "", name, t2->nodes, t2->of,
		    plural(t2->of, "node", "nodes"));
		if (t2->nmodels > 0)
			kv_buf_printf(&b, " (%s)", t2->models[0]);
		kv_buf_printf(&b, ", AVX-512 on %zu of %zu", t4->nodes,
		    t4->of);
		if (t4->nmodels > 0)
			kv_buf_printf(&b, " (%s)", t4->models[0]);
		kv_buf_printf(&b, "%s", ".");
	}
	if (b.data == NULL)
		kv_buf_printf(&b, "No named model of any tier is usable.");
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
	int64_t lanes = c->parallel_node < c->parallel_cluster ?
	    c->parallel_node : c->parallel_cluster;
	const char *sync = "";

	/* the same lanes as drain.c's estimate */
	if (c->sync_per_node > 0 && c->sync_per_node < lanes) {
		lanes = c->sync_per_node;
		sync = " (DVP syncs one migration at a time per source node)";
	}
	if (lanes < 1)
		lanes = 1;
	if (c->bandwidth_mibps > 0)
		return xasprintf("Times assume each node is drained alone: up "
		    "to %lld %s at once%s, each limited to the configured %lld "
		    "MiB/s, plus 10 s per VM to start its target pod.",
		    (long long)lanes, plural((size_t)lanes, "migration",
		    "migrations"), sync, (long long)c->bandwidth_mibps);
	return xasprintf("Times assume each node is drained alone: up to %lld "
	    "%s at once%s sharing a 10 Gbit/s link (%lld MiB/s), because the "
	    "cluster sets no bandwidth limit per migration, plus 10 s per VM "
	    "to start its target pod.", (long long)lanes,
	    plural((size_t)lanes, "migration", "migrations"), sync,
	    (long long)c->assumed_mibps);
}

/* --- facts ------------------------------------------------------------------ */

static void
fact_add(kv_fact **v, size_t *n, const char *key, char *value)
{
	*v = xreallocarray(*v, *n + 1, sizeof(kv_fact));
	(*v)[*n].key = key;
	(*v)[(*n)++].value = value;
}

kv_fact *
snapshot_facts(const kv_analysis *a, size_t *n)
{
	const snap_manifest *mf = &a->m->manifest;
	const kv_summary *s = &a->summary;
	kv_fact *v = NULL;
	char date[21];

	*n = 0;
	snapshot_date(a, date);
	fact_add(&v, n, "Cluster context", xstrdup(mf->context ? mf->context :
	    "(unnamed)"));
	fact_add(&v, n, "Snapshot taken", xstrdup(date));
	fact_add(&v, n, "Kubernetes", xstrdup(mf->kubernetes_version ?
	    mf->kubernetes_version : "(unknown)"));
	fact_add(&v, n, W(PRODUCT), xstrdup(mf->kubevirt_version ?
	    mf->kubevirt_version : a->m->cluster.version ?
	    a->m->cluster.version : "(unknown)"));
	fact_add(&v, n, "Flavor", xstrdup(a->m->flavor->name));
	fact_add(&v, n, "Nodes", xasprintf("%zu, %zu of them virtualization "
	    "nodes, in %zu CPU %s", s->nodes, s->kubevirt_nodes, s->classes,
	    plural(s->classes, "class", "classes")));
	fact_add(&v, n, W(VMS), xasprintf("%zu, %zu running", s->vmis,
	    s->running));
	fact_add(&v, n, "Collected by", xasprintf("%s %s%s",
	    mf->collector_name ? mf->collector_name : "(unknown)",
	    mf->collector_version ? mf->collector_version : "",
	    mf->redact ? ", redacted" : ""));
	fact_add(&v, n, "CPU model data", xstrdup(strcmp(a->cpu_model_source,
	    "snapshot") == 0 ? "the snapshot's own libvirt CPU map" :
	    "kvscope's built-in libvirt CPU map"));
	fact_add(&v, n, "Snapshot gaps", a->nwarnings ? xasprintf("%zu (see "
	    "\"What the snapshot lacked\")", a->nwarnings) : xstrdup("none"));
	return v;
}

kv_fact *
settings_facts(const kv_analysis *a, size_t *n)
{
	const kv_config *c = &a->cfg;
	kv_fact *v = NULL;

	*n = 0;
	fact_add(&v, n, "Default CPU model", xstrdup(*c->cpu_model ?
	    c->cpu_model : "(unset: host-model)"));
	fact_add(&v, n, "Eviction strategy", xstrdup(c->eviction));
	fact_add(&v, n, "Parallel migrations per cluster", xasprintf("%lld",
	    (long long)c->parallel_cluster));
	fact_add(&v, n, "Parallel outbound migrations per node",
	    xasprintf("%lld", (long long)c->parallel_node));
	fact_add(&v, n, "Bandwidth per migration", c->bandwidth_mibps > 0 ?
	    xasprintf("%lld MiB/s", (long long)c->bandwidth_mibps) :
	    xstrdup("unlimited (estimates assume a 10 Gbit/s link)"));
	fact_add(&v, n, "Completion timeout per GiB", xasprintf("%lld s",
	    (long long)c->completion_per_gib));
	fact_add(&v, n, "Progress timeout", xasprintf("%lld s",
	    (long long)c->progress_timeout));
	fact_add(&v, n, "Unschedulable timeout", xasprintf("%lld s",
	    (long long)c->unschedulable_timeout));
	fact_add(&v, n, "Pending timeout", xasprintf("%lld s",
	    (long long)c->pending_timeout));
	fact_add(&v, n, "Obsolete CPU models", c->nobsolete ?
	    str_list(c->obsolete, c->nobsolete, c->nobsolete) :
	    xstrdup("none"));
	return v;
}

void
facts_free(kv_fact *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].value);
	free(v);
}

/* --- fixed explanations ------------------------------------------------------ */

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

/* --- the glossary ---------------------------------------------------------- */

size_t *
code_counts(const kv_analysis *a)
{
	size_t *n = xcalloc(kv_nrules + 1, sizeof(size_t));

	for (size_t i = 0; i < a->nvmis; i++) {
		const kv_vmires *r = &a->vmis[i];

		for (size_t k = 0; k < r->nblockers; k++)
			n[r->blockers[k].rule - kv_rules]++;
		for (size_t k = 0; k < r->nwarnings; k++)
			n[r->warnings[k].rule - kv_rules]++;
	}
	return n;
}

/* --- sections ------------------------------------------------------------ */

static const struct {
	const char *id, *title;
} sections[SEC_COUNT] = {
	[SEC_SUMMARY] = { "summary", "Summary" },
	[SEC_CLUSTER] = { "cluster", "Cluster and snapshot" },
	[SEC_CLASSES] = { "classes", "Host-model CPU classes" },
	[SEC_MODELS] = { "models", "Named CPU models" },
	[SEC_TRADEOFF] = { "tradeoff", "AVX2 and AVX-512 trade-off" },
	[SEC_VMS] = { "vms", NULL },		/* "<VMs> by node" */
	[SEC_DRAIN] = { "drain", "Drain plan" },
	[SEC_GLOSSARY] = { "glossary", "Glossary" },
};

char *
report_title(const kv_analysis *a)
{
	return xasprintf("%s live-migration report", W(PRODUCT));
}

const char *
section_id(enum kv_section sec)
{
	return sections[sec].id;
}

char *
section_title(const kv_analysis *a, enum kv_section sec)
{
	if (sections[sec].title == NULL)
		return xasprintf("%d  %s by node", (int)sec + 1, W(VMS));
	return xasprintf("%d  %s", (int)sec + 1, sections[sec].title);
}

/* --- VMIs ---------------------------------------------------------------- */

static int
by_node_cmp(const void *x, const void *y, void *arg)
{
	const kv_analysis *a = arg;
	const kv_vmi *p = a->vmis[*(const size_t *)x].vmi;
	const kv_vmi *q = a->vmis[*(const size_t *)y].vmi;
	int c;

	if ((p->node == NULL) != (q->node == NULL))
		return p->node == NULL ? 1 : -1;
	if (p->node != NULL && (c = strcmp(p->node, q->node)) != 0)
		return c;
	c = strcmp(p->fullname, q->fullname);
	return c != 0 ? c : (*(const size_t *)x > *(const size_t *)y) -
	    (*(const size_t *)x < *(const size_t *)y);
}

size_t *
vmis_by_node(const kv_analysis *a)
{
	size_t *order = xcalloc(a->nvmis + 1, sizeof(size_t));

	for (size_t i = 0; i < a->nvmis; i++)
		order[i] = i;
	qsort_r(order, a->nvmis, sizeof(size_t), by_node_cmp, (void *)a);
	return order;
}

size_t
vmi_group(const kv_analysis *a, const size_t *order, size_t k,
    const char **head, char **meta)
{
	const char *node = a->vmis[order[k]].vmi->node;
	const kv_node *n = node ? kv_model_node(a->m, node) : NULL;
	size_t cnt = 0;
	char *where;

	while (k + cnt < a->nvmis && a->vmis[order[k + cnt]].vmi->node == node)
		cnt++;
	*head = node ? node : "not scheduled on a node";
	where = n ? xasprintf(" \u00b7 class %s", node_class(a,
	    (size_t)(n - a->m->nodes))) : xstrdup(node ? " \u00b7 node not in "
	    "the snapshot" : "");
	*meta = xasprintf("%s \u00b7 %zu %s", where, cnt,
	    plural(cnt, W(VM), W(VMS)));
	free(where);
	return cnt;
}

char *
vmi_targets(const kv_analysis *a, const kv_vmires *r, size_t max)
{
	char *names, *s;

	if (r->verdict == V_NOT_RUNNING)
		return xstrdup(SYM_NONE);
	if (r->ntargets == 0)
		return xasprintf("none (%zu CPU-compatible)",
		    r->ncpu_targets);
	names = nodeset_list(a, &r->targets, max);
	s = xasprintf("%zu: %s", r->ntargets, names);
	free(names);
	return s;
}

char *
vmi_outcome(const kv_vmires *r)
{
	switch (r->outcome) {
	case OUT_MIGRATES:
		return xstrdup("migrates");
	case OUT_NONE:
		return xstrdup("not judged");
	case OUT_REJECTED:
		return xstrdup("rejected at once");
	case OUT_UNSCHEDULABLE:
		return xasprintf("target pod unschedulable; fails after "
		    "%lld s", (long long)r->after);
	case OUT_PENDING_TIMEOUT:
		return xasprintf("target pod never starts; fails after %lld s",
		    (long long)r->after);
	case OUT_PENDING_FOREVER:
		return xstrdup("stays Pending forever");
	default:
		return xstrdup("unknown");
	}
}

const char *
drain_word(enum kv_on_drain on_drain)
{
	static const char *const words[DRAIN_COUNT] = {
		[DRAIN_NONE] = "not drained", [DRAIN_MIGRATE] = "migrates",
		[DRAIN_BLOCK] = "waits forever", [DRAIN_SHUTDOWN] = "VM stops",
		[DRAIN_EXTERNAL] = "external controller",
	};

	return words[on_drain];
}

/* --- the class matrix view ------------------------------------------------ */

void
mview_init(kv_mview *v, const kv_analysis *a)
{
	v->nclasses = a->nclasses;
	v->aggregated = a->nclasses > KV_MATRIX_MAX;
	v->n = v->aggregated ? KV_MATRIX_MAX : a->nclasses;
}

void
mview_range(const kv_mview *v, size_t i, size_t *first, size_t *last)
{
	*first = i;
	*last = v->aggregated && i == v->n - 1 ? v->nclasses : i + 1;
}

void
mview_cell(const kv_mview *v, const kv_analysis *a, size_t i, size_t j,
    bool *ok, size_t *missing, size_t *nfail, size_t *npairs,
    const kv_pair **pair)
{
	size_t s0, s1, t0, t1;

	mview_range(v, i, &s0, &s1);
	mview_range(v, j, &t0, &t1);
	*ok = true;
	*missing = *nfail = *npairs = 0;
	*pair = NULL;
	for (size_t s = s0; s < s1; s++)
		for (size_t t = t0; t < t1; t++) {
			const kv_pair *p = &a->pairs[s * a->nclasses + t];

			(*npairs)++;
			*pair = p;
			if (p->ok)
				continue;
			*ok = false;
			(*nfail)++;
			if (p->nmissing > *missing)
				*missing = p->nmissing;
		}
	if (*npairs != 1)
		*pair = NULL;
}

char *
mview_label(const kv_mview *v, const kv_analysis *a, size_t i)
{
	size_t first, last;

	mview_range(v, i, &first, &last);
	if (last - first == 1)
		return xasprintf("%s %s", a->classes[first].id,
		    a->classes[first].host_model ?
		    a->classes[first].host_model : "(no host model)");
	return xasprintf("%s\u2013%s (%zu classes)", a->classes[first].id,
	    a->classes[last - 1].id, last - first);
}

char *
mview_cell_title(const kv_mview *v, const kv_analysis *a, size_t i, size_t j)
{
	const kv_pair *p;
	bool ok;
	size_t missing, nfail, npairs, s0, s1, t0, t1;
	char *from, *to, *list, *s;

	mview_cell(v, a, i, j, &ok, &missing, &nfail, &npairs, &p);
	mview_range(v, i, &s0, &s1);
	mview_range(v, j, &t0, &t1);
	from = s1 - s0 == 1 ? xstrdup(a->classes[s0].id) :
	    mview_label(v, a, i);
	to = t1 - t0 == 1 ? xstrdup(a->classes[t0].id) : mview_label(v, a, j);
	if (p == NULL)
		s = xasprintf("%s \u2192 %s: %zu of %zu class pairs fail, at "
		    "worst %zu missing %s", from, to, nfail, npairs, missing,
		    plural(missing, "label", "labels"));
	else if (p->ok)
		s = xasprintf("%s \u2192 %s: ok", from, to);
	else if (p->nmissing == 0)
		s = xasprintf("%s \u2192 %s: the source class has no host-model "
		    "CPU", from, to);
	else {
		list = str_list(p->missing, p->nmissing, p->nmissing);
		s = xasprintf("%s \u2192 %s: missing %zu %s: %s", from, to,
		    p->nmissing, plural(p->nmissing, "label", "labels"), list);
		free(list);
	}
	free(from);
	free(to);
	return s;
}
