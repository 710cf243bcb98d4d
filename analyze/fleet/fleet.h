/*
 * fleet.h - many snapshots of many clusters: the fleet index (kvscope
 * fleet, docs/fleet.md) and the per-snapshot summary the Prometheus
 * exposition of check is written from.
 *
 * Snapshots are read one at a time: the caller loads and analyses one,
 * kv_fleet_summarize() copies the little the index needs out of the
 * analysis (counts, the worst drain node, the drain window's counts and
 * longest drain, the top groups, every VMI
 * problem as (VMI uid, namespace/name, code)), and the caller frees the
 * analysis and the model before the next; kv_fleet_trim() then keeps the
 * problems of the two newest snapshots of each cluster only.  A snapshot
 * that could not be read is kept as its path and reason
 * (kv_fleet_unreadable).
 *
 * kv_fleet_build() then groups the summaries by cluster (the cluster uid
 * diff uses, kv_cluster_uid; else the context), orders each cluster's
 * snapshots by capture time, counts new / still / fixed problems of the
 * newest against the one before it (matched by VMI uid and code, then
 * by namespace/name and code) and sorts the clusters worst first.
 *
 * Ownership: the kv_fleet owns every summary and every string in it,
 * but the codes, which are the rule table's (static); kv_fleet_free()
 * releases it all.
 */
#ifndef KV_FLEET_H
#define KV_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/change/diff.h"
#include "analyze/rules/analysis.h"

/* One VMI problem: a blocker or warning code of a running VMI. */
typedef struct kv_fleet_problem {
	const char *uid;		/* the VMI's metadata.uid, or NULL */
	const char *vmi;		/* "namespace/name" */
	const char *code;		/* the rule table's */
	enum kv_severity severity;
} kv_fleet_problem;

/* How many running VMIs carry one code. */
typedef struct kv_fleet_code {
	const char *code;
	enum kv_severity severity;
	size_t vmis;
} kv_fleet_code;

/* What a drain of one node (holding running VMIs) does. */
typedef struct kv_fleet_node {
	char *name;
	size_t vmis, migrate, block, shutdown;
	double secs[2];			/* its migrations' time, low, high
					 * (analyze/estimate) */
} kv_fleet_node;

/* One of the largest groups (findings "groups"). */
typedef struct kv_fleet_group {
	char id[24];
	const char *code;
	char *subject;			/* kind and name: "claim prod/db" */
	size_t vmis;
} kv_fleet_group;

#define KV_FLEET_TOP 3

typedef struct kv_fleet_snap {
	char *path;			/* as given */
	char *unreadable;		/* why not, or NULL when read */
	/* the cluster: its uid (cluster_from says whose), else the
	 * context (cluster_from UID_NONE) */
	char *cluster;
	enum kv_uid_from cluster_from;
	char *context, *flavor, *product, *version, *rules;
	char *taken_at;			/* manifest createdAt */
	int64_t taken;			/* its Unix seconds, or -1 */
	size_t nodes, running;
	size_t verdicts[V_COUNT];
	size_t not_migrate;		/* blocked, no-target, will-fail,
					   stuck */
	size_t drain_blockers;		/* VMIs a drain of their node waits
					   on forever */
	size_t ndrain;
	kv_fleet_node *drain;		/* by name */
	size_t worst;			/* index into drain, or SIZE_MAX */
	/* the drain window (docs/window.md): of the VMIs that would
	 * migrate, those whose migration will be aborted and those at
	 * risk; the node whose drain's migrations take longest (high end
	 * of the estimate, then low end, then name), an index into drain
	 * or SIZE_MAX when no drain migrates a VMI */
	size_t will_abort, at_risk;
	size_t longest;
	size_t ngroups, ntop;
	kv_fleet_group top[KV_FLEET_TOP];
	size_t ncodes;
	kv_fleet_code *codes;		/* by code */
	/* kept for the two newest snapshots of each cluster read so far
	 * (kv_fleet_trim), else freed: 0 and NULL */
	size_t nproblems;
	kv_fleet_problem *problems;	/* by vmi, code */
	char *strings;			/* their uids and names */
	bool trimmed;			/* problems freed (kv_fleet_trim) */
	char *report;			/* its report's folder, or NULL */
	/* kv_fleet_build: the newest snapshot of a cluster against the one
	 * before it (has_prev), counts of problems */
	bool has_prev;
	size_t nnew, nstill, nfixed;
} kv_fleet_snap;

/* The newest snapshot's problems against the previous one's. */
typedef struct kv_fleet_cluster {
	size_t nsnaps;
	size_t *snaps;			/* indexes into kv_fleet.snaps,
					   oldest first */
	size_t newest, prev;		/* indexes; prev SIZE_MAX: none */
	size_t ncontexts;
	const char **contexts;		/* distinct, newest first */
	/* when prev: pointers into the newest's problems (new, still) and
	 * the previous one's (fixed), each by vmi, code */
	size_t nnew, nstill, nfixed;
	const kv_fleet_problem **newp, **stillp, **fixedp;
} kv_fleet_cluster;

typedef struct kv_fleet {
	size_t nsnaps, cap;
	kv_fleet_snap *snaps;		/* in the order added */
	size_t nclusters;
	kv_fleet_cluster *clusters;	/* worst first (kv_fleet_build) */
	size_t nread;			/* snapshots read */
} kv_fleet;

void kv_fleet_init(kv_fleet *f);
/* A new zeroed summary for path (copied), at the end of f->snaps; the
 * pointer is valid until the next kv_fleet_add. */
kv_fleet_snap *kv_fleet_add(kv_fleet *f, const char *path);
/* What the index keeps of a's snapshot: a may be freed after. */
void kv_fleet_summarize(const kv_analysis *a, kv_fleet_snap *s);
/* After the summary of f's last snapshot: the problems of its cluster's
 * snapshots but the two newest are freed (only those two are compared),
 * so the index grows by counts, not by problems, per snapshot. */
void kv_fleet_trim(kv_fleet *f);
/* s could not be read: reason (copied) says why. */
void kv_fleet_unreadable(kv_fleet_snap *s, const char *reason);
/* Group, order, compare and sort (see above).  Once, after the adds. */
void kv_fleet_build(kv_fleet *f);
/* Whether a cluster's newest snapshot has a VMI that would not
 * migrate. */
bool kv_fleet_fails(const kv_fleet *f);
void kv_fleet_free(kv_fleet *f);

#endif
