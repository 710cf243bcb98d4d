/*
 * format.c - formatting and wording shared by the HTML and PDF writers
 * (report.h): dates and numbers without the locale, verdict words and
 * tones, name lists, the fact tables, section titles and the grouping of
 * VMIs by node.
 *
 * Every function reads the analysis only; returned strings are the
 * caller's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/entities.h>
#include <libxml/xmlmemory.h>

#include "analyze/decide/groups.h"
#include "render/fleet.h"
#include "render/render.h"
#include "render/report.h"

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

char *
fmt_count(size_t n)
{
	char digits[32], out[48];
	size_t len = (size_t)snprintf(digits, sizeof(digits), "%zu", n), o = 0;

	for (size_t i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return xstrdup(out);
}

const char *
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
	case V_NOT_JUDGED:
		return TONE_WARN;
	default:
		return TONE_FAIL;
	}
}

/* The worse of two tones: fail, then warn, then ok, then none. */
static enum kv_tone
tone_worse(enum kv_tone x, enum kv_tone y)
{
	static const int rank[] = { [TONE_NONE] = 0, [TONE_OK] = 1,
		[TONE_WARN] = 2, [TONE_FAIL] = 3 };

	return rank[y] > rank[x] ? y : x;
}

enum kv_tone
drain_tone(enum kv_on_drain d)
{
	switch (d) {
	case DRAIN_MIGRATE:
		return TONE_OK;
	case DRAIN_SHUTDOWN:
		return TONE_WARN;
	case DRAIN_BLOCK:
		return TONE_FAIL;
	default:
		return TONE_NONE;
	}
}

/* A drain that stops or waits on a VMI is never ok, whatever its
 * verdict (it may migrate when asked to). */
enum kv_tone
vmi_tone(enum kv_verdict v, enum kv_on_drain d)
{
	enum kv_tone t = verdict_tone(v);

	if (d == DRAIN_SHUTDOWN || d == DRAIN_BLOCK)
		t = tone_worse(t, drain_tone(d));
	return t;
}

enum kv_tone
group_tone(const kv_group *g)
{
	return vmi_tone(g->verdict, g->drain);
}

const char *
verdict_symbol(enum kv_verdict v)
{
	return tone_symbol(verdict_tone(v));
}

const char *
tone_symbol(enum kv_tone t)
{
	switch (t) {
	case TONE_OK:
		return SYM_OK;
	case TONE_NONE:
		return SYM_NONE;
	case TONE_WARN:
		return SYM_WARN;
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
		"Running, but the input lacks a resource its checks need "
		"(the warnings name it); nothing was judged.",
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

/* --- facts -------------------------------------------------------------- */

static void
fact_add(kv_fact **v, size_t *n, const char *key, char *value)
{
	*v = xreallocarray(*v, *n + 1, sizeof(kv_fact));
	(*v)[(*n)++] = (kv_fact){ key, value, NULL, 0 };
}

/* A fact whose value is the list names[0..nn), "none" when empty. */
static void
fact_names(kv_fact **v, size_t *n, const char *key,
    const char *const *names, size_t nn)
{
	if (nn == 0) {
		fact_add(v, n, key, xstrdup("none"));
		return;
	}
	fact_add(v, n, key, NULL);
	(*v)[*n - 1].names = names;
	(*v)[*n - 1].nnames = nn;
}

kv_fact *
snapshot_facts(const kv_analysis *a, size_t *n)
{
	const snap_manifest *mf = &a->m->manifest;
	const kv_summary *s = &a->summary;
	kv_fact *v = NULL;
	char date[21], rules[128];

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
	kv_rules_version_describe(&a->cfg.rules, rules, sizeof(rules));
	fact_add(&v, n, "Rules", xasprintf("%s, from the %s", rules,
	    kv_ver_basis_names[a->cfg.rules.basis]));
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

/* value, followed by its source when a flavor's operator supplied some
 * (kv_config.sources_said). */
static char *
sourced(const kv_config *c, enum kv_cfg_value i, char *value)
{
	char *s;

	if (!c->sources_said)
		return value;
	s = xasprintf("%s (%s)", value, c->source[i]);
	free(value);
	return s;
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
	fact_add(&v, n, "Parallel migrations per cluster", sourced(c,
	    CFGV_PARALLEL_CLUSTER, xasprintf("%lld",
	    (long long)c->parallel_cluster)));
	fact_add(&v, n, "Parallel outbound migrations per node", sourced(c,
	    CFGV_PARALLEL_NODE, xasprintf("%lld",
	    (long long)c->parallel_node)));
	fact_add(&v, n, "Bandwidth per migration", sourced(c, CFGV_BANDWIDTH,
	    c->bandwidth_mibps > 0 ? xasprintf("%lld MiB/s",
	    (long long)c->bandwidth_mibps) : xstrdup("unlimited (estimates "
	    "assume a 10 Gbit/s link)")));
	fact_add(&v, n, "Completion timeout per GiB", sourced(c,
	    CFGV_COMPLETION, xasprintf("%lld s",
	    (long long)c->completion_per_gib)));
	fact_add(&v, n, "Progress timeout", sourced(c, CFGV_PROGRESS,
	    xasprintf("%lld s", (long long)c->progress_timeout)));
	fact_add(&v, n, "Unschedulable timeout", xasprintf("%lld s",
	    (long long)c->unschedulable_timeout));
	fact_add(&v, n, "Pending timeout", xasprintf("%lld s",
	    (long long)c->pending_timeout));
	fact_names(&v, n, "Obsolete CPU models", c->obsolete, c->nobsolete);
	return v;
}

void
facts_free(kv_fact *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].value);
	free(v);
}

/* --- fixed explanations ------------------------------------------------- */

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
	[SEC_WINDOW] = { "window", "Maintenance window" },
	[SEC_GLOSSARY] = { "glossary", "Glossary" },
	[SEC_CHANGES] = { "changes", "Changes" },	/* diff_title() */
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

char *
kv_fix_badge(const kv_group *g)
{
	const kv_fix *f = &g->fix;

	if (f->action == FIX_NONE)
		return xstrdup("");
	if (!f->proven)
		return xstrdup(" (not proven)");
	if (f->worse > 0)
		return xasprintf(" (proven: fixes %zu of %zu, %zu worse)",
		    f->fixes, g->nvmis, f->worse);
	return xasprintf(" (proven: fixes %zu of %zu)", f->fixes, g->nvmis);
}

void
kv_fleet_esc(FILE *f, const char *s)
{
	xmlChar *e = xmlEncodeSpecialChars(NULL, (const xmlChar *)(s != NULL ?
	    s : ""));

	if (e == NULL)
		kv_fatal("out of memory");
	fputs((const char *)e, f);
	xmlFree(e);
}
