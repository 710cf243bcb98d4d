/*
 * prom.c - the Prometheus text exposition (render/fleet.h,
 * docs/metrics.md) of every cluster's newest snapshot: gauges without
 * timestamps, labels only of bounded sets (cluster, node, code,
 * severity, verdict), each metric's samples together under its HELP and
 * TYPE lines, as the text format 0.0.4 asks.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/util/util.h"
#include "render/fleet.h"

/* A label value: backslash, double quote and line feed escaped. */
static void
value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void
head(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The cluster label: the newest context, or the cluster key when the
 * snapshot has none or another cluster has the same one. */
static const char *
cluster_label(const kv_fleet *fl, size_t ci)
{
	const kv_fleet_cluster *c = &fl->clusters[ci];
	const kv_fleet_snap *s = &fl->snaps[c->newest];

	if (s->context == NULL)
		return s->cluster;
	for (size_t i = 0; i < fl->nclusters; i++) {
		const kv_fleet_snap *o = &fl->snaps[fl->clusters[i].newest];

		if (i != ci && o->context != NULL &&
		    strcmp(o->context, s->context) == 0)
			return s->cluster;
	}
	return s->context;
}

/* One sample: name{cluster="..", k=v...} n; kv: NULL-ended pairs. */
static void
sample(FILE *f, const char *name, const char *cluster,
    const char *const *kv, double n)
{
	fprintf(f, "%s{cluster=", name);
	value(f, cluster);
	for (size_t i = 0; kv != NULL && kv[i] != NULL; i += 2) {
		fprintf(f, ",%s=", kv[i]);
		value(f, kv[i + 1]);
	}
	fprintf(f, "} %.17g\n", n);
}

static void
vmis(const kv_fleet *fl, FILE *f)
{
	head(f, "kvscope_vmis", "VMIs of the newest snapshot by verdict.");
	for (size_t i = 0; i < fl->nclusters; i++) {
		const kv_fleet_snap *s = &fl->snaps[fl->clusters[i].newest];

		for (int v = 0; v < V_COUNT; v++) {
			const char *kv[] = { "verdict", kv_verdict_names[v],
				NULL };

			sample(f, "kvscope_vmis", cluster_label(fl, i), kv,
			    (double)s->verdicts[v]);
		}
	}
}

static void
findings(const kv_fleet *fl, FILE *f)
{
	head(f, "kvscope_findings", "Running VMIs with a finding code.");
	for (size_t i = 0; i < fl->nclusters; i++) {
		const kv_fleet_snap *s = &fl->snaps[fl->clusters[i].newest];

		for (size_t k = 0; k < s->ncodes; k++) {
			const char *kv[] = { "code", s->codes[k].code,
				"severity", s->codes[k].severity ==
				SEV_BLOCKER ? "blocker" : "warning", NULL };

			sample(f, "kvscope_findings", cluster_label(fl, i), kv,
			    (double)s->codes[k].vmis);
		}
	}
}

static void
drains(const kv_fleet *fl, FILE *f)
{
	head(f, "kvscope_drain_blocked_vmis", "VMIs a drain of the node "
	    "would wait on forever, per node with running VMIs.");
	for (size_t i = 0; i < fl->nclusters; i++) {
		const kv_fleet_snap *s = &fl->snaps[fl->clusters[i].newest];

		for (size_t k = 0; k < s->ndrain; k++) {
			const char *kv[] = { "node", s->drain[k].name, NULL };

			sample(f, "kvscope_drain_blocked_vmis",
			    cluster_label(fl, i), kv,
			    (double)s->drain[k].block);
		}
	}
}

int
kv_write_prom(const kv_analysis *a, FILE *f, void *arg, kv_err *err)
{
	const kv_fleet *fl = arg;
	size_t unreadable = fl->nsnaps - fl->nread;

	(void)a;
	vmis(fl, f);
	findings(fl, f);
	drains(fl, f);
	head(f, "kvscope_snapshot_timestamp_seconds", "When the newest "
	    "snapshot was taken (manifest createdAt), Unix seconds.");
	for (size_t i = 0; i < fl->nclusters; i++) {
		const kv_fleet_snap *s = &fl->snaps[fl->clusters[i].newest];

		if (s->taken >= 0)
			sample(f, "kvscope_snapshot_timestamp_seconds",
			    cluster_label(fl, i), NULL, (double)s->taken);
	}
	head(f, "kvscope_unreadable_snapshots", "Inputs that could not be "
	    "read.");
	fprintf(f, "kvscope_unreadable_snapshots %zu\n", unreadable);
	if (ferror(f))
		return kv_seterr(err, "prom: cannot write the exposition");
	return KV_OK;
}
