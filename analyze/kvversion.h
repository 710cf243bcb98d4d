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
	VRANGE_KNOWN,		/* v1.0 .. newest row */
	VRANGE_NEWER,		/* newer than the newest row: its rules */
	VRANGE_OLDER,		/* before v1.0: the oldest rows' answers */
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
} kv_rules_version;

/* The newest and oldest versions the rows describe. */
extern const kv_ver kv_ver_newest;	/* v1.9.0 */
extern const kv_ver kv_ver_oldest;	/* v1.0.0 */

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
