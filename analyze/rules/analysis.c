/*
 * analysis.c - the first and the last step of the analysis (analysis.h):
 * the effective configuration, the snapshot's warnings, the summary
 * counts.  The order of all steps is analyze/pipeline.c's.
 */
#include "analyze/rules/analysis.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/capacity.h"
#include "analyze/model/index.h"
#include "analyze/rules/place.h"
#include "analyze/rules/podaffinity.h"
#include "analyze/rules/target.h"

/* KubeVirt's default obsolete models (node-labeller util.go:29-64). */
static const char *const default_obsolete[] = {
	"486", "486-v1", "Conroe", "Conroe-v1", "Opteron_G1",
	"Opteron_G1-v1", "Opteron_G2", "Opteron_G2-v1", "athlon", "athlon-v1",
	"core2duo", "core2duo-v1", "coreduo", "coreduo-v1", "kvm32",
	"kvm32-v1", "kvm64", "kvm64-v1", "n270", "n270-v1", "pentium",
	"pentium-v1", "pentium2", "pentium2-v1", "pentium3", "pentium3-v1",
	"pentiumpro", "pentiumpro-v1", "phenom", "phenom-v1", "qemu32",
	"qemu32-v1", "qemu64", "qemu64-v1",
};

/* Assumed per-node migration link when bandwidth is unlimited: 10 Gbit/s
 * (1192 MiB/s).  Stated in the report. */
#define ASSUMED_LINK_MIBPS 1192

/* The version table's rows for the snapshot's version; a row with a
 * label fingerprint is off when no node has such a label (the labeller
 * predates it, whatever the version string says). */
static void
version_rows(kv_analysis *a)
{
	kv_config *c = &a->cfg;

	kv_rules_version_find(a->m, &c->rules);
	for (size_t i = 0; i < SINCE_COUNT; i++) {
		const kv_since *r = &kv_since_rows[i];

		c->since[i] = kv_since_has(r, c->rules.v);
		if (c->since[i] && r->fingerprint != NULL &&
		    a->m->nnodes > 0) {
			char *p = xasprintf("%s%s/", r->fingerprint,
			    a->m->flavor->label_domain);

			c->since[i] = kv_model_node_key_prefix(a->m, p);
			free(p);
		}
	}
}

const char *const kv_cfg_value_names[CFGV_COUNT] = {
	[CFGV_PARALLEL_CLUSTER] = "parallelMigrationsPerCluster",
	[CFGV_PARALLEL_NODE] = "parallelOutboundMigrationsPerNode",
	[CFGV_BANDWIDTH] = "bandwidthPerMigrationMiBps",
	[CFGV_COMPLETION] = "completionTimeoutPerGiB",
	[CFGV_PROGRESS] = "progressTimeout",
	[CFGV_GATES] = "featureGates",
};

/* "KubeVirt CR" for what the CR sets, else "KubeVirt default". */
static void
config_sources(kv_config *c, const kv_cluster *k)
{
	const bool set[CFGV_COUNT] = {
		[CFGV_PARALLEL_CLUSTER] = k->parallel_cluster >= 0,
		[CFGV_PARALLEL_NODE] = k->parallel_node >= 0,
		[CFGV_BANDWIDTH] = k->bandwidth >= 0,
		[CFGV_COMPLETION] = k->completion_per_gib >= 0,
		[CFGV_PROGRESS] = k->progress_timeout >= 0,
		[CFGV_GATES] = k->gates_set,
	};

	for (size_t i = 0; i < CFGV_COUNT; i++)
		c->source[i] = set[i] ? "KubeVirt CR" : "KubeVirt default";
}

void
kv_effective_config(kv_analysis *a)
{
	const kv_model *m = a->m;
	const kv_cluster *k = &m->cluster;
	kv_config *c = &a->cfg;

	version_rows(a);
	c->domain = m->flavor->label_domain;
	c->kv_prefix = m->flavor->kv_prefix;
	c->cpu_model = k->cpu_model ? k->cpu_model : "";
	c->eviction = k->eviction && *k->eviction ? k->eviction : "None";
	c->parallel_cluster = k->parallel_cluster >= 0 ?
	    k->parallel_cluster : 5;
	c->parallel_node = k->parallel_node >= 0 ? k->parallel_node : 2;
	c->bandwidth_mibps = k->bandwidth > 0 ? k->bandwidth / (1 << 20) +
	    (k->bandwidth % (1 << 20) != 0) : 0;
	c->completion_per_gib = k->completion_per_gib >= 0 ?
	    k->completion_per_gib : c->since[SINCE_COMPLETION_150] ?
	    kv_since_rows[SINCE_COMPLETION_150].value :
	    kv_since_rows[SINCE_COMPLETION_150].value_before;
	c->progress_timeout = k->progress_timeout >= 0 ?
	    k->progress_timeout : 150;
	c->allow_postcopy = k->allow_postcopy == 1;
	c->allow_autoconverge = k->allow_autoconverge == 1;
	c->allow_disruption = k->allow_disruption >= 0 ?
	    k->allow_disruption == 1 : c->allow_postcopy;
	c->stall_detection = kv_gate_on(k, "MigrationStallDetection");
	c->unschedulable_timeout = 300;
	c->pending_timeout = 900;
	if (k->obsolete_set) {
		c->obsolete = xcalloc(k->nobsolete + 1, sizeof(char *));
		for (size_t i = 0; i < k->nobsolete; i++)
			c->obsolete[i] = k->obsolete[i];
		c->nobsolete = k->nobsolete;
	} else {
		size_t n = sizeof(default_obsolete) / sizeof(char *);

		c->obsolete = xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++)
			c->obsolete[i] = default_obsolete[i];
		c->nobsolete = n;
	}
	kv_qsort(c->obsolete, c->nobsolete, sizeof(char *), kv_strptrcmp);
	c->gate_hyperv_strict = kv_gate_on(k, "HypervStrictCheck");
	c->gate_vgpu = kv_gate_on(k, "VGPULiveMigration");
	c->gate_cpu_discovery = kv_gate_on(k, "CPUNodeDiscovery");
	c->gate_sriov = kv_gate_on(k, "SRIOVLiveMigration");
	c->default_iface = k->default_iface && *k->default_iface ?
	    k->default_iface : "bridge";
	c->assumed_mibps = ASSUMED_LINK_MIBPS;
	config_sources(c, k);
	if (m->flavor->config != NULL)
		m->flavor->config(a);
}

/* What the lack of resource r leaves unjudged, from the flavors' notes;
 * NULL when no flavor says. */
static const char *
lack_note(const snap_resource *r)
{
	for (size_t f = 0; f < KV_NFLAVORS; f++)
		for (const kv_lack_note *n = kv_flavors[f]->lack_notes;
		    n != NULL && n->resource != NULL; n++)
			if (strcmp(n->resource, r->resource) == 0 &&
			    strcmp(n->group, r->group) == 0)
				return n->consequence;
	return NULL;
}

/* Whether the manifest already says the pods could not be read. */
static bool
pods_lacking(const kv_model *m)
{
	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];

		if (strcmp(r->resource, "pods") == 0 && *r->group == '\0')
			return strcmp(r->status, "ok") != 0;
	}
	return false;
}

const char *const kv_warning_names[KV_WARN_COUNT] = {
	"missing-resource", "partial-resource", "version-unknown",
	"version-newer", "version-mismatch", "flavor-inferred", "input-note",
	"pods-launchers", "version-older",
};
const bool kv_warning_said[KV_WARN_COUNT] = {
	true, true, true, true, true, true, true, false, true,
};

void
kv_analysis_warn(kv_analysis *a, enum kv_warning_code code,
    const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		kv_fatal("out of memory");
	va_end(ap);
	KV_GROW(a->coded, a->capcoded, a->ncoded + 1);
	a->coded[a->ncoded].code = code;
	a->coded[a->ncoded++].message = s;
}

/* One snapshot warning (the string, kept as snapshot.warnings for
 * compatibility) and the same fact coded. */
static void
snap_warn(kv_analysis *a, size_t *cap, enum kv_warning_code code, char *s)
{
	KV_GROW(a->warnings, *cap, a->nwarnings + 1);
	a->warnings[a->nwarnings++] = s;
	kv_analysis_warn(a, code, "%s", s);
}

/* The need.h row of manifest entry r, or NEED_COUNT. */
static enum kv_need
need_of(const snap_resource *r)
{
	for (int n = 0; n < NEED_COUNT; n++)
		if (strcmp(r->resource, kv_need_rows[n].resource) == 0 &&
		    strcmp(r->group, kv_need_rows[n].group) == 0)
			return n;
	return NEED_COUNT;
}

/* The input has no nodes: no VMI is judged (findings "not-judged"). */
static char *
no_nodes(const kv_model *m)
{
	const char *w = kv_model_lack_words(m, NEED_NODES);
	const char *vm = m->flavor->vocab->vm;	/* DVP: VirtualMachine */

	if (strcmp(w, "not in the input") == 0)
		return xasprintf("the input has no nodes: no %s is judged", vm);
	return xasprintf("the input has no nodes (nodes: %s): no %s is "
	    "judged", w, vm);
}

/* A resource a file of which was skipped (status partial, its message
 * "partial: PATH skipped: why"): the file, the resource and what it
 * leaves unjudged (a need.h row's words, else the objects left out). */
static void
partial_warning(kv_analysis *a, size_t *cap, const snap_resource *r,
    enum kv_need n)
{
	const char *why = lack_note(r);

	if (n != NEED_COUNT && a->lack_msg[n] != NULL) {
		snap_warn(a, cap, KV_WARN_PARTIAL_RESOURCE,
		    xasprintf("%s; checks that need it are not judged for "
		    "the VMIs they concern", a->lack_msg[n]));
		return;
	}
	snap_warn(a, cap, KV_WARN_PARTIAL_RESOURCE, xasprintf("%s%s%s: %s; "
	    "its objects in that file are not in the analysis%s%s",
	    r->resource, *r->group ? "." : "", r->group, r->message ?
	    r->message : "partial", why ? "; " : "", why ? why : ""));
}

/* Whether group is one flavor f names as another's (DVP: kubevirt.io,
 * whose objects it reads from its internal groups). */
static bool
foreign_group(const kv_flavor *f, const char *group)
{
	for (size_t i = 0; f->foreign_groups[i] != NULL; i++)
		if (strcmp(f->foreign_groups[i], group) == 0)
			return true;
	return false;
}

/* One warning per manifest entry neither ok nor absent, in its words
 * ("missing" is "not in the input"), then one per resource checks need
 * that the manifest does not list. */
static void
resource_warnings(kv_analysis *a, size_t *cap)
{
	const kv_model *m = a->m;
	unsigned listed = 0;

	for (size_t i = 0; i < m->manifest.nresources; i++) {
		const snap_resource *r = &m->manifest.resources[i];
		enum kv_need n = need_of(r);
		const char *why, *st;

		if (n != NEED_COUNT)
			listed |= KV_NEED_BIT(n);
		if (strcmp(r->status, "ok") == 0 ||
		    strcmp(r->status, "absent") == 0)
			continue;
		why = lack_note(r);
		if (strcmp(r->status, "partial") == 0) {
			partial_warning(a, cap, r, n);
			continue;
		}
		st = strcmp(r->status, "missing") == 0 ? "not in the input" :
		    r->status;
		/* every row of resources.def has a note or a need row; a
		 * resource kvscope does not know it does not read, nor a
		 * group this flavor leaves to another (DVP: kubevirt.io) */
		snap_warn(a, cap, KV_WARN_MISSING_RESOURCE, n == NEED_NODES ?
		    no_nodes(m) : foreign_group(m->flavor, r->group) ?
		    xasprintf("%s.%s: %s; kvscope does not read it on a %s "
		    "cluster, so no answer depends on it", r->resource,
		    r->group, st, m->flavor->short_name) :
		    xasprintf("%s%s%s: %s; %s", r->resource, *r->group ? "." :
		    "", r->group, st, why ? why : "kvscope does not read it, "
		    "so no answer depends on it"));
	}
	listed |= KV_NEED_BIT(NEED_VERSION);	/* version_warn.c's */
	for (int n = 0; n < NEED_COUNT; n++)
		if ((a->lacking & ~listed & KV_NEED_BIT(n)) != 0)
			snap_warn(a, cap, KV_WARN_MISSING_RESOURCE,
			    n == NEED_NODES ? no_nodes(m) :
			    xstrdup(a->lack_msg[n]));
}

/* A --namespace snapshot: which answers the other namespaces' absence
 * limits (docs/snapshot-format.md, options.namespaces). */
static char *
namespaces_note(const snap_manifest *mf)
{
	kv_buf b = { 0 };

	kv_buf_printf(&b, "namespaces: collected from ");
	for (size_t i = 0; i < mf->nnamespaces; i++)
		kv_buf_printf(&b, "%s%s", i > 0 ? ", " : "",
		    mf->namespaces[i]);
	kv_buf_printf(&b, " only (--namespace); pod (anti-)affinity and "
	    "topology spread were judged against these namespaces' pods, "
	    "room on the nodes leaves out other namespaces' pods, and "
	    "drains count only these namespaces' VMIs");
	return b.data;
}

/* What kvscope does about a note of the input (the collector's words,
 * snapshot-format.md "notes", and the foreign reader's), by its start:
 * the note says the fact, the row its consequence. */
static const struct {
	const char *prefix, *consequence;
} note_rows[] = {
	{ "libvirt CPU map: ", "kvscope uses its built-in libvirt CPU map" },
	{ "node files: ", "kvscope reads no node labeller file, and without "
	  "the snapshot's libvirt CPU map it uses its built-in one" },
	{ "vmimetrics: ", "migration estimates take the dirty rate as "
	  "unknown (idle to busy) instead of measured" },
	{ "partial snapshot: ", "checks that need those resources are not "
	  "judged (their own warnings say which)" },
	{ "capture time unknown (newest object ", "the report is dated by "
	  "that object, and fleet and diff order the snapshot by it" },
	{ "capture time unknown (no object", "the report is undated, and "
	  "fleet puts the snapshot before its cluster's dated ones" },
};

static char *
note_warning(const char *note)
{
	for (size_t i = 0; i < sizeof(note_rows) / sizeof(note_rows[0]); i++)
		if (kv_startswith(note, note_rows[i].prefix))
			return xasprintf("%s; %s", note,
			    note_rows[i].consequence);
	return xstrdup(note);
}

void
kv_snapshot_warnings(kv_analysis *a)
{
	const kv_model *m = a->m;
	size_t cap = 0;

	resource_warnings(a, &cap);
	if (m->flavor_inferred)
		snap_warn(a, &cap, KV_WARN_FLAVOR_INFERRED, xasprintf("the "
		    "manifest names no flavor; %s inferred from the %s "
		    "resource files and the absence of kubevirt.io VMIs, so "
		    "the answers follow %s's rules", m->flavor->name,
		    m->flavor->short_name, m->flavor->short_name));
	if (!m->pods_all && !pods_lacking(m))
		snap_warn(a, &cap, KV_WARN_PODS_LAUNCHERS, xstrdup("pods: "
		    "launcher pods only (scope launchers); room on the nodes "
		    "was not checked beyond allocatable memory less the "
		    "launcher pods' requests"));
	if (m->manifest.nnamespaces > 0)
		snap_warn(a, &cap, KV_WARN_PARTIAL_RESOURCE,
		    namespaces_note(&m->manifest));
	if (!m->cluster.present)
		snap_warn(a, &cap, KV_WARN_MISSING_RESOURCE,
		    xstrdup(m->flavor->no_config));
	for (size_t i = 0; i < m->manifest.nnotes; i++)
		snap_warn(a, &cap, KV_WARN_INPUT_NOTE,
		    note_warning(m->manifest.notes[i]));
}

void
kv_summarize(kv_analysis *a)
{
	kv_summary *s = &a->summary;

	s->nodes = a->m->nnodes;
	for (size_t i = 0; i < a->m->nnodes; i++)
		s->kubevirt_nodes += a->nodes[i].kubevirt;
	s->classes = a->nclasses;
	s->vmis = a->nvmis;
	for (size_t i = 0; i < a->nvmis; i++) {
		s->verdicts[a->vmis[i].verdict]++;
		s->running += strcmp(a->vmis[i].vmi->phase, "Running") == 0;
		s->mismatch += a->vmis[i].mismatch;
	}
}
