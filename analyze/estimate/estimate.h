/*
 * estimate.h - whether a live migration finishes before KubeVirt aborts
 * it, and how long it and a drain take (docs/window.md).
 *
 * Per VMI that would migrate (verdict ok), kv_estimate_analyze() fills
 * a->est[i] from KubeVirt's own arithmetic: the completion deadline
 * (completionTimeoutPerGiB x the data in started decimal GB), what
 * happens past it (post-copy, a paused guest, or the abort), and a
 * pre-copy model (precopy.c) fed, best first, by the VMI's own past
 * migrations, the collector's Prometheus extract (dirty rate, touched
 * memory), the cluster's other migrations (the rate its links gave),
 * and stated assumptions that the user may replace (--link,
 * --dirty-rate: kv_assume).  Every figure is a range [lo, hi]; every
 * assumption is a bit of kv_migest.assume, worded by the writers.
 *
 * The floor: below decide/ (drains and plans schedule with
 * kv_schedule_run), above rules/ (it reads the verdicts).  The analysis
 * owns a->est and a->window; kv_estimate_free() releases them.
 */
#ifndef KV_ESTIMATE_H
#define KV_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/rules/analysis.h"

/* What the user says that no snapshot shows (model.h kv_model.assume).
 * Zero / negative: not said. */
typedef struct kv_assume {
	double link_bps;		/* --link, bytes/s */
	double dirty_lo, dirty_hi;	/* --dirty-rate, bytes/s; -1 */
} kv_assume;

/* Parse "25Gbit", "10Gbps", "1250MB/s", "800MiB/s" (a link) or
 * "40MB/s", "10MB/s-60MB/s" (a dirty rate, range allowed) into bytes/s.
 * false for anything else. */
bool kv_parse_rate(const char *s, double *lo, double *hi, bool range);
/* "2h", "90m", "1h30m", "600s" or "600" (seconds) into *out; false for
 * anything else or nothing. */
bool kv_parse_duration(const char *s, double *out);

enum kv_mig_outcome {
	MIG_CONVERGES, MIG_AT_RISK, MIG_WILL_ABORT, MIG_UNKNOWN,
	MIG_OUTCOME_COUNT
};
extern const char *const kv_mig_outcome_names[MIG_OUTCOME_COUNT];

enum kv_mig_basis { BASIS_HISTORY, BASIS_METRICS, BASIS_ASSUMED,
	BASIS_COUNT };
extern const char *const kv_mig_basis_names[BASIS_COUNT];

/* How the migration ends: pre-copy switch-over, post-copy started at the
 * deadline, the guest paused at the deadline, or the abort. */
enum kv_mig_end { END_PRECOPY, END_POSTCOPY, END_PAUSE, END_ABORT,
	END_COUNT };
extern const char *const kv_mig_end_names[END_COUNT];

/* The assumptions an estimate rests on (kv_migest.assume bits); the
 * writers word them with the figures of kv_window. */
enum kv_assumption {
	AS_LINK_ASSUMED,	/* link speed assumed (no history, no --link) */
	AS_LINK_FLAG,		/* link from --link */
	AS_LINK_HISTORY,	/* link from the cluster's past migrations */
	AS_BANDWIDTH,		/* capped by bandwidthPerMigration */
	AS_SHARED,		/* the link shared by the node's lanes */
	AS_DIRTY_UNKNOWN,	/* dirty rate unknown: idle .. busy */
	AS_DIRTY_FLAG,		/* dirty rate from --dirty-rate */
	AS_DIRTY_METRICS,	/* dirty rate from Prometheus */
	AS_TOUCHED_ALL,		/* every guest byte sent (no metrics) */
	AS_SETUP_ASSUMED,	/* target pod start assumed */
	AS_SETUP_HISTORY,	/* target pod start as observed */
	AS_OWN_HISTORY,		/* its own last migration */
	AS_OWN_FAILED,		/* its own last migration was aborted */
	AS_STALL,		/* MigrationStallDetection gate */
	AS_BLOCK_DISKS,		/* block migration: disk bytes unknown */
	AS_COUNT
};
extern const char *const kv_assumption_names[AS_COUNT];

/* One VMI's estimate (findings "vmis[].migration"). */
typedef struct kv_migest {
	bool present;			/* verdict ok; else null */
	enum kv_mig_outcome outcome;
	enum kv_mig_basis basis;
	enum kv_mig_end end;		/* at the high end */
	unsigned assume;		/* 1u << kv_assumption */
	int64_t bytes;			/* counted for the deadline */
	int64_t deadline;		/* seconds; 0: none */
	int64_t per_gib;		/* completionTimeoutPerGiB applied */
	int64_t progress_timeout;
	double seconds[2];		/* setup + copy */
	double copy[2];			/* what the deadline watches */
	double setup[2];
	double pause_ms[2];
	double rate[2];			/* bytes/s one migration gets */
	double dirty[2];		/* bytes/s; -1: unknown */
	double max_dirty;		/* bytes/s that still finish in time
					 * (unknown dirty rate); -1 */
	size_t lanes;			/* outbound migrations sharing the
					 * source's link at most */
	bool postcopy, disruption, autoconverge;
	bool stalls;			/* the low end's pre-copy never
					 * converges: aborted for lack of
					 * progress (progressTimeout) */
	bool connections_drop;		/* masquerade: the pod IP changes */
	bool no_memory;			/* the VMI states no memory: its
					 * copy and deadline are unknown, so
					 * is the outcome (not will-abort) */
	const char *settings;		/* where the settings came from:
					 * "MigrationPolicy NAME" or the
					 * cluster's (a->cfg.source) */
	const kv_mighist *history;	/* own migration used, or NULL */
} kv_migest;

/* What the cluster's past migrations and the user's flags give
 * (a->window; findings "window"). */
typedef struct kv_window {
	double link_bps[2];		/* per migration, alone on the link */
	size_t observed;		/* past migrations with times */
	double setup[2];		/* VMIM created to target ready */
	double busy_bps;		/* the busy class's dirty rate */
	size_t converges, at_risk, will_abort, unknown;
	size_t *outbound;		/* per node of the model: its VMIs
					 * that would migrate (the lanes that
					 * share its link) */
} kv_window;

/* Fill a->est (parallel to a->vmis) and a->window.  Call after the
 * verdicts (kv_vmis_analyze), before the drains. */
void kv_estimate_analyze(kv_analysis *a);
void kv_estimate_free(kv_analysis *a);

/* A trial of other migration settings for some VMIs (the fix of a
 * migration group, decide/fix_migration.c): what a MigrationPolicy with
 * these fields would set over each VMI's own.  0 / -1: as is. */
typedef struct kv_migtry {
	bool postcopy;			/* allowPostCopy: true */
	bool autoconverge;		/* allowAutoConverge: true */
	int64_t per_gib;		/* completionTimeoutPerGiB; 0 */
	double bandwidth;		/* bytes/s, 0 unlimited; -1 */
} kv_migtry;

/* Re-estimate VMIs vmis[0..n) of a (verdict ok) under t: how many then
 * converge; out[k] (may be NULL) gets each outcome.  a->est untouched. */
size_t kv_estimate_try(const kv_analysis *a, const size_t *vmis, size_t n,
    const kv_migtry *t, enum kv_mig_outcome *out);

/* --- the MigrationPolicy of a migration group's fix (policyfix.c) ----- */

/* The label the VMIs of a set-migration-policy fix get, NAME its value. */
#define KV_FIX_POLICY_LABEL "kvscope.io/migration-policy"

/* The MigrationPolicy of m named name, or NULL. */
const kv_policy *kv_policy_named(const kv_model *m, const char *name);
/* The MigrationPolicy a set-migration-policy fix creates, named name:
 * base's settings (the policy the VMIs have; NULL: none) with field (the
 * fix's value: "allowPostCopy: true", "allowAutoConverge: true",
 * "completionTimeoutPerGiB: N", "bandwidthPerMigration: \"0\"") over
 * them; selectors: base's when carry (every VMI it is for has labels),
 * plus KV_FIX_POLICY_LABEL=name, so that it outranks base.  Strings are
 * borrowed; out's two label arrays are the caller's to free.  false
 * when field is none of those. */
bool kv_fix_policy(const kv_policy *base, const char *field,
    const char *name, bool carry, kv_policy *out);
/* p's spec as YAML flow text, "{allowPostCopy: true, selectors: {...}}"
 * (the caller frees it). */
char *kv_policy_spec_text(const kv_policy *p);

/* The warnings migration-will-abort and migration-at-risk (warn.c): the
 * rule rows of phase PHASE_ESTIMATE run on every VMI of verdict ok with
 * an estimate.  Call after kv_estimate_analyze, before the drains and
 * the groups.  The verdicts do not change. */
void kv_estimate_warnings(kv_analysis *a);
struct rule_ctx;
struct kv_rule;
void kv_check_migration_will_abort(struct rule_ctx *c,
    const struct kv_rule *r);
void kv_check_migration_at_risk(struct rule_ctx *c,
    const struct kv_rule *r);

/* --- the pre-copy model (precopy.c) ---------------------------------- */

typedef struct kv_precopy {
	double copy;			/* seconds to the switch-over's end;
					 * INFINITY: never converges */
	double remaining;		/* bytes at the switch-over */
	int rounds;
} kv_precopy;

/* Rounds of what the guest dirtied at rate bps while the last round was
 * sent, until the rest fits downtime seconds (Clark et al. 2005; QEMU's
 * auto-converge throttle when allowed).  mem: bytes to send first. */
void kv_precopy_run(double mem, double bps, double dirty, double downtime,
    bool autoconverge, kv_precopy *out);

/* --- scheduling (schedule.c) ----------------------------------------- */

typedef struct kv_mig_job {
	size_t source, target;		/* node ids; target SIZE_MAX: any */
	double dur[2];			/* seconds, lo and hi */
} kv_mig_job;

typedef struct kv_mig_limits {
	size_t cluster;			/* parallelMigrationsPerCluster */
	size_t per_source;		/* parallelOutbound...PerNode */
	size_t per_target;		/* inbound per node; 0: no limit */
} kv_mig_limits;

typedef struct kv_slot {
	size_t job;			/* index into jobs */
	size_t lane;			/* 0 .. cluster limit */
	double start[2], end[2];
} kv_slot;

/* Run jobs[0..n) in that order under lim, each as soon as a lane, its
 * source and its target allow: once with the low durations, once with
 * the high.  slots[k] answers jobs[k] (lane from the high run);
 * span[0..1] is the end of the last.  slots may be NULL. */
void kv_schedule_run(const kv_mig_job *jobs, size_t n,
    const kv_mig_limits *lim, kv_slot *slots, double span[2]);

/* The limits the analysis's configuration sets. */
void kv_schedule_limits(const kv_analysis *a, kv_mig_limits *lim);

#endif
