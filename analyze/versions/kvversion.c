/*
 * kvversion.c - the version a snapshot states (kvversion.h) and the
 * distribution table that maps downstream builds to upstream KubeVirt.
 *
 * Sources of the rows: docs/versions.md(HCO
 * hack/config KUBEVIRT_VERSION per release branch, openshift/release
 * ci-operator configs; Harvester deploy/charts/harvester/values.yaml
 * virt-operator tags; deckhouse/virtualization build/components/
 * versions.yml).
 */
#include "analyze/versions/kvversion.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model/model.h"

const char *const kv_ver_basis_names[VBASIS_COUNT] = {
	[VBASIS_CR_OBSERVED] = "KubeVirt CR status.observedKubeVirtVersion",
	[VBASIS_CR_OPERATOR] = "KubeVirt CR status.operatorVersion",
	[VBASIS_MANIFEST] = "manifest",
	[VBASIS_LAUNCHER] = "launcher image tag",
	[VBASIS_DEFAULT] = "default",
};

const kv_ver kv_ver_newest = { 1, 9, 0 };
const kv_ver kv_ver_oldest = { 0, 36, 0 };

/* OpenShift Virtualization 4.N: the KubeVirt its HCO branch pins (HCO
 * release-1.(N-4) hack/config; pairing 4.12 openshift-docs PR #63411,
 * 4.14/4.18/4.20 openshift/release ci-operator configs, the rest by the
 * N+4 pattern). */
static const struct ocp_row {
	int minor;
	kv_ver kv;
} ocp_rows[] = {
	/* HCO release-1.4 .. 1.7 hack/config: v0.41.4, v0.44.3, v0.49.0,
	 * v0.53.2 (4.8-4.11, the same N+4 pattern) */
	{ 8, { 0, 41, 4 } }, { 9, { 0, 44, 3 } }, { 10, { 0, 49, 0 } },
	{ 11, { 0, 53, 2 } },
	{ 12, { 0, 58, 2 } }, { 13, { 0, 59, 2 } }, { 14, { 1, 0, 1 } },
	{ 15, { 1, 1, 1 } }, { 16, { 1, 2, 2 } }, { 17, { 1, 3, 1 } },
	{ 18, { 1, 4, 1 } }, { 19, { 1, 5, 3 } }, { 20, { 1, 6, 6 } },
	{ 21, { 1, 7, 4 } }, { 22, { 1, 8, 4 } }, { 23, { 1, 9, 0 } },
};

/* OpenShift Virtualization 2.N (on OpenShift 4.(N-1)): HCO release-1.1
 * .. 1.3 hack/config pin v0.30.4, v0.34.0, v0.36.0; the pairing of HCO
 * 1.(N-5) with 2.N is inferred, not read in a source. */
static const struct cnv2_row {
	int minor;
	kv_ver kv;
} cnv2_rows[] = {
	{ 4, { 0, 30, 4 } }, { 5, { 0, 34, 0 } }, { 6, { 0, 36, 0 } },
};

/* Harvester releases by the SUSE KubeVirt build they ship (Harvester
 * deploy/charts/harvester/values.yaml, tags v1.0.0 .. v1.8.2; 1.0.0
 * ships 0.45.0-8.4.3, 1.0.1-1.0.3 0.49.0-2, builds whose suffix names
 * no SLE release: named from Harvester's server-version setting or the
 * KubeVirt CR's namespace harvester-system). */
static const struct harvester_row {
	kv_ver kv;
	const char *releases;
} harvester_rows[] = {
	{ { 0, 45, 0 }, "1.0.0" }, { { 0, 49, 0 }, "1.0.1-1.0.3" },
	{ { 0, 54, 0 }, "1.1-1.2.1" }, { { 1, 1, 0 }, "1.3.0" },
	{ { 1, 1, 1 }, "1.2.2/1.3.1/1.3.2" }, { { 1, 2, 2 }, "1.4.0/1.4.1" },
	{ { 1, 3, 1 }, "1.4.2/1.4.3" }, { { 1, 4, 0 }, "1.5.0/1.5.1" },
	{ { 1, 4, 1 }, "1.5.2" }, { { 1, 5, 2 }, "1.6.0/1.6.1" },
	{ { 1, 6, 3 }, "1.7.0/1.7.1" }, { { 1, 6, 6 }, "1.7.2/1.7.3" },
	{ { 1, 7, 0 }, "1.8.0/1.8.1" }, { { 1, 7, 4 }, "1.8.2" },
};

#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

static const char *
digits(const char *s, int *out)
{
	long n = 0;

	if (!isdigit((unsigned char)*s))
		return NULL;
	while (isdigit((unsigned char)*s) && n < 100000)
		n = n * 10 + (*s++ - '0');
	*out = (int)n;
	return s;
}

bool
kv_ver_parse(const char *s, kv_ver *out)
{
	kv_ver v = { 0, 0, 0 };

	if (s == NULL)
		return false;
	if (*s == 'v' || *s == 'V')
		s++;
	if ((s = digits(s, &v.major)) == NULL || *s++ != '.' ||
	    (s = digits(s, &v.minor)) == NULL)
		return false;
	if (*s == '.' && digits(s + 1, &v.patch) == NULL)
		v.patch = 0;
	else if (*s == '.')
		digits(s + 1, &v.patch);
	*out = v;
	return true;
}

int
kv_ver_cmp(kv_ver a, kv_ver b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.patch != b.patch)
		return a.patch < b.patch ? -1 : 1;
	return 0;
}

void
kv_ver_format(kv_ver v, char *buf, size_t size)
{
	snprintf(buf, size, "v%d.%d.%d", v.major, v.minor, v.patch);
}

/* A SUSE build suffix: "-150700.3.5.2" (SLE 15 SPx release numbers). */
static bool
suse_build(const char *raw)
{
	const char *d = strchr(raw, '-');

	return d != NULL && strncmp(d + 1, "150", 3) == 0 &&
	    isdigit((unsigned char)d[4]);
}

static void
name_openshift(kv_rules_version *rv, int ocp_minor)
{
	snprintf(rv->product, sizeof(rv->product),
	    "OpenShift Virtualization 4.%d", ocp_minor);
	rv->openshift_minor = ocp_minor;
}

/* An OpenShift Virtualization 2.N release: named, its pin stated. */
static bool
cnv2(kv_rules_version *rv, int minor, bool build)
{
	for (size_t i = 0; i < NROWS(cnv2_rows); i++)
		if (cnv2_rows[i].minor == minor) {
			snprintf(rv->product, sizeof(rv->product),
			    "OpenShift Virtualization 2.%d", minor);
			if (build) {
				rv->stated = cnv2_rows[i].kv;
				rv->by_minor = true;
			}
			return true;
		}
	return false;
}

/* The OpenShift release whose pin has the stated minor. */
static void
openshift_by_kubevirt(kv_rules_version *rv)
{
	for (size_t i = 0; i < NROWS(cnv2_rows); i++)
		if (cnv2_rows[i].kv.major == rv->stated.major &&
		    cnv2_rows[i].kv.minor == rv->stated.minor)
			cnv2(rv, cnv2_rows[i].minor, false);
	for (size_t i = 0; i < NROWS(ocp_rows); i++)
		if (ocp_rows[i].kv.major == rv->stated.major &&
		    ocp_rows[i].kv.minor == rv->stated.minor)
			name_openshift(rv, ocp_rows[i].minor);
}

/* A CNV-style "v4.N.z": the upstream version of its pin. */
static bool
openshift_build(kv_rules_version *rv)
{
	if (rv->stated.major == 2)	/* CNV-style "v2.6.z" */
		return cnv2(rv, rv->stated.minor, true);
	for (size_t i = 0; i < NROWS(ocp_rows); i++)
		if (rv->stated.major == 4 &&
		    ocp_rows[i].minor == rv->stated.minor) {
			name_openshift(rv, ocp_rows[i].minor);
			rv->stated = ocp_rows[i].kv;
			rv->by_minor = true;
			return true;
		}
	return false;
}

static void
name_harvester(kv_rules_version *rv)
{
	const char *rel = NULL;

	for (size_t i = 0; i < NROWS(harvester_rows); i++)
		if (kv_ver_cmp(harvester_rows[i].kv, rv->stated) == 0)
			rel = harvester_rows[i].releases;
	snprintf(rv->product, sizeof(rv->product), "Harvester%s%s",
	    rel ? " " : "", rel ? rel : "");
}

/* The product named by the distribution's own version object: the
 * HyperConverged operator ("4.18.3" downstream, "1.14.0" community: HCO
 * release-1.N is OpenShift Virtualization 4.(N+4)) or Harvester's
 * server-version setting. */
static bool
product_object(const kv_model *m, kv_rules_version *rv)
{
	kv_ver h;

	if (m->harvester_version != NULL) {
		snprintf(rv->product, sizeof(rv->product), "Harvester %.40s",
		    m->harvester_version);
		return true;
	}
	if (!m->hco_present)
		return false;
	if (m->hco_version != NULL && kv_ver_parse(m->hco_version, &h) &&
	    (h.major == 4 || h.major == 1))
		name_openshift(rv, h.major == 4 ? h.minor : h.minor + 4);
	else
		openshift_by_kubevirt(rv);
	return true;
}

/* Which product the snapshot comes from, and its upstream version. */
static void
distribution(const kv_model *m, kv_rules_version *rv)
{
	const char *ns = m->cluster.ns;

	if (rv->raw == NULL)
		return;
	if (openshift_build(rv) || product_object(m, rv))
		return;
	if (suse_build(rv->raw))
		name_harvester(rv);
	else if (strstr(rv->raw, "-v12n.") != NULL)
		snprintf(rv->product, sizeof(rv->product),
		    "Deckhouse Virtualization, fork %.*s", 40, rv->raw);
	else if (ns != NULL && (strcmp(ns, "openshift-cnv") == 0 ||
	    strcmp(ns, "kubevirt-hyperconverged") == 0))
		openshift_by_kubevirt(rv);
	else if (ns != NULL && strcmp(ns, "harvester-system") == 0)
		name_harvester(rv);	/* 1.0's builds: no SLE suffix */
}

/* The tag of an image reference ("…/virt-launcher:v1.9.0"), or NULL. */
static const char *
image_tag(const char *image)
{
	const char *slash = strrchr(image, '/');
	const char *colon = strchr(slash ? slash : image, ':');

	return colon ? colon + 1 : NULL;
}

/* The newest version among the launcher pods' image tags (during an
 * upgrade old launchers keep the old image), or NULL. */
static const char *
launcher_tag(const kv_model *m)
{
	const char *best = NULL;
	kv_ver bv = { 0, 0, 0 }, v;

	for (size_t i = 0; i < m->npods; i++) {
		const char *t = m->pods[i].launcher && m->pods[i].image ?
		    image_tag(m->pods[i].image) : NULL;

		if (t != NULL && kv_ver_parse(t, &v) &&
		    (best == NULL || kv_ver_cmp(v, bv) > 0)) {
			best = t;
			bv = v;
		}
	}
	return best;
}

/* The first readable version string, in the order of kvversion.h. */
static void
read_stated(const kv_model *m, kv_rules_version *rv)
{
	const char *cand[VBASIS_DEFAULT] = {
		[VBASIS_CR_OBSERVED] = m->cluster.version,
		[VBASIS_CR_OPERATOR] = m->cluster.operator_version,
		[VBASIS_MANIFEST] = m->manifest.kubevirt_version,
		[VBASIS_LAUNCHER] = launcher_tag(m),
	};

	rv->basis = VBASIS_DEFAULT;
	for (int b = 0; b < VBASIS_DEFAULT; b++)
		if (cand[b] != NULL && kv_ver_parse(cand[b], &rv->stated)) {
			rv->basis = (enum kv_ver_basis)b;
			rv->raw = cand[b];
			return;
		}
	rv->stated = kv_ver_newest;
}

void
kv_rules_version_find(const kv_model *m, kv_rules_version *rv)
{
	memset(rv, 0, sizeof(*rv));
	read_stated(m, rv);
	distribution(m, rv);
	rv->v = rv->stated;
	if (rv->basis == VBASIS_DEFAULT) {
		rv->range = VRANGE_UNREADABLE;
	} else if (kv_ver_cmp((kv_ver){ rv->stated.major, rv->stated.minor,
	    0 }, (kv_ver){ kv_ver_newest.major, kv_ver_newest.minor, 0 }) > 0) {
		rv->range = VRANGE_NEWER;
		rv->v = kv_ver_newest;
	} else if (kv_ver_cmp(rv->stated, kv_ver_oldest) < 0) {
		rv->range = VRANGE_OLDER;
	}
}

void
kv_rules_version_describe(const kv_rules_version *rv, char *buf,
    size_t size)
{
	if (rv->range == VRANGE_OLDER) {
		snprintf(buf, size, "rules of KubeVirt v%d.%d+ where they do "
		    "not differ by version (v%d.%d is older%s%s)",
		    kv_ver_oldest.major, kv_ver_oldest.minor, rv->v.major,
		    rv->v.minor, *rv->product ? ", " : "", rv->product);
		return;
	}
	snprintf(buf, size, "rules of KubeVirt v%d.%d%s%s%s%s", rv->v.major,
	    rv->v.minor, *rv->product ? " (" : "", rv->product,
	    rv->by_minor ? ", by its minor: a z-stream may carry a later "
	    "KubeVirt patch release" : "", *rv->product ? ")" : "");
}
