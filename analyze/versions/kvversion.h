/*
 * kvversion.h - which KubeVirt version's rules a snapshot is judged by.
 *
 * The version is read once (kv_rules_version_find): the KubeVirt CR's
 * status.observedKubeVirtVersion, then status.operatorVersion, then the
 * manifest's cluster.kubevirtVersion, then the launcher pods' image tags,
 * else the newest rules kvscope has.  Strings are parsed leniently
 * (optional "v", any build suffix: "v1.6.2-v12n.61", Harvester's
 * "1.5.2-150700.3.5.2", "v1.9.0-123-gabc").  A distribution table
 * (kvversion.c, rows with their sources) maps downstream builds to the
 * upstream version and names the product ("OpenShift Virtualization
 * 4.15").  The behaviours that differ by version are rows of the version
 * table (kv_since, versions.c), never comparisons in the checks.
 */
#ifndef KV_KVVERSION_H
#define KV_KVVERSION_H

#include <stdbool.h>
#include <stddef.h>

struct kv_model;

typedef struct kv_ver {
	int major, minor, patch;
} kv_ver;

/* Where the version came from (findings config.rulesBasis). */
enum kv_ver_basis {
	VBASIS_CR_OBSERVED, VBASIS_CR_OPERATOR, VBASIS_MANIFEST,
	VBASIS_LAUNCHER, VBASIS_DEFAULT, VBASIS_COUNT
};
extern const char *const kv_ver_basis_names[VBASIS_COUNT];

/* How the stated version relates to the rows kvscope has. */
enum kv_ver_range {
	VRANGE_KNOWN,		/* oldest .. newest row */
	VRANGE_NEWER,		/* newer than the newest row: its rules */
	VRANGE_OLDER,		/* before the oldest row: what differs by
				   version is not judged */
	VRANGE_UNREADABLE,	/* nothing readable: the newest rules */
	VRANGE_COUNT
};

typedef struct kv_rules_version {
	kv_ver v;		/* the upstream version whose rules apply */
	kv_ver stated;		/* as read (upstream numbering) */
	enum kv_ver_basis basis;
	enum kv_ver_range range;
	const char *raw;	/* the string read, or NULL */
	char product[96];	/* "OpenShift Virtualization 4.15", or "" */
	int openshift_minor;	/* 15 for OpenShift Virtualization 4.15,
				   else 0 */
	/* the stated product version named only its minor's KubeVirt (a
	 * CNV-style "v4.18.3" judged as the pin of 4.18): a z-stream may
	 * carry a later KubeVirt patch release */
	bool by_minor;
} kv_rules_version;

/*
 * The version table (versions.c): one row per behaviour that differs by
 * version.  A version has the behaviour when it is at least one of the
 * row's `since` entries of its own minor line (backports), or at least
 * the last entry (the mainline).  Before, `before` applies (and for a
 * default, value_before).  fingerprint: when set, a node label key with
 * this prefix (+ the label domain) means the labeller has the behaviour:
 * none on any node turns it off (a labeller that predates it).
 */
enum kv_since_id {
	SINCE_MACHINE_TYPE,	/* machine-type selector on launcher pods */
	SINCE_VENDOR,		/* cpu-vendor selector on target pods */
	SINCE_SELECTOR_TRUE,	/* realtime/sev selectors want "true" */
	SINCE_LABEL_TRUE,	/* realtime/sev node labels are "true" */
	SINCE_POD_BRIDGE,	/* bridge + allow annotation migrates */
	SINCE_BINDING_PLUGINS,	/* plugins with a migration setting */
	SINCE_PASST,		/* passtBinding migrates */
	SINCE_COMPLETION_150,	/* completionTimeoutPerGiB default */
	SINCE_NO_PDB,		/* drains without PodDisruptionBudgets */
	SINCE_ADDED_SELECTOR,	/* VMIM spec.addedNodeSelector */
	SINCE_VIRTIOFS_OK,	/* virtiofs no longer blocks */
	SINCE_DEDICATED_OK,	/* dedicated CPUs + emulator thread */
	SINCE_PR_OK,		/* SCSI persistent reservation */
	SINCE_VMOP_SELECTOR,	/* DVP: a Migrate operation's nodeSelector
				   becomes the VMIM's addedNodeSelector */
	SINCE_DISRUPTION,	/* allowWorkloadDisruption: past the
				   deadline, pause the guest */
	SINCE_CPUMANAGER_KEY,	/* dedicated CPUs select kubevirt.io/
				   cpumanager, not cpumanager */
	SINCE_ACTIVE_PODS,	/* no target pod while > 1 active pod */
	SINCE_DECENTRALIZED,	/* migration to another cluster (VMIM
				   sendTo/receive, feature gate
				   DecentralizedLiveMigration) */
	/* before v1.0 (docs/versions.md, "Before v1.0") */
	SINCE_KUBEVIRT_CPU_LABELS, /* cpu-model.<domain> keys, not NFD's */
	SINCE_CPU_UNGATED,	/* named-model selectors without the
				   CPUNodeDiscovery gate */
	SINCE_HOST_MODEL_SELECTOR, /* host-model targets select on the
				   source's host-model labels */
	SINCE_CPU_MODEL_MIGRATION, /* ... on cpu-model-migration.<M> */
	SINCE_DEFAULT_CPU_MODEL, /* the webhook writes host-model */
	SINCE_SRIOV_CHECKED,	/* LiveMigratable looks at SR-IOV */
	SINCE_SRIOV_GATE,	/* SR-IOV migrates with SRIOVLiveMigration */
	SINCE_SRIOV_OK,		/* SR-IOV migrates */
	SINCE_CDROM_NOT_COPIED,	/* read-only CD-ROMs are not copied */
	SINCE_CDROM_NO_BLOCK,	/* ... nor make it a block migration */
	SINCE_CD_SPEC_IMAGE,	/* containerDisk target image from the
				   VMI spec */
	SINCE_COUNT
};

#define KV_SINCE_MAX 3

typedef struct kv_since {
	enum kv_since_id id;
	const char *name;
	kv_ver since[KV_SINCE_MAX];	/* {0,0,0}-padded, oldest first */
	const char *now, *before;	/* what applies from / before it */
	long long value, value_before;	/* a default's values, else 0 */
	const char *fingerprint;	/* node label key prefix, or NULL */
	const char *source;		/* upstream tag path:line */
} kv_since;

extern const kv_since kv_since_rows[SINCE_COUNT];

/* Whether version v has the behaviour of row r. */
bool kv_since_has(const kv_since *r, kv_ver v);
/* The first version of row r (the mainline entry), e.g. "v1.6.0", and
 * its backports ("v1.5.1, v1.6.0") into buf. */
void kv_since_format(const kv_since *r, char *buf, size_t size);

/* The newest and oldest versions the rows describe. */
extern const kv_ver kv_ver_newest;	/* v1.9.0 */
extern const kv_ver kv_ver_oldest;	/* v0.36.0 */

/* Parse s leniently into out; false when s holds no major.minor. */
bool kv_ver_parse(const char *s, kv_ver *out);
/* <0, 0, >0 as a is older, equal, newer than b. */
int kv_ver_cmp(kv_ver a, kv_ver b);
/* The version the model states and the rules that follow from it. */
void kv_rules_version_find(const struct kv_model *m, kv_rules_version *out);
/* "v1.1.0" into buf (size >= 32). */
void kv_ver_format(kv_ver v, char *buf, size_t size);
/* "rules of KubeVirt v1.1 (OpenShift Virtualization 4.15)" into buf. */
void kv_rules_version_describe(const kv_rules_version *rv, char *buf,
    size_t size);

#endif
