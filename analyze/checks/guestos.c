/*
 * guestos.c - guest OS detection and the one table of OS CPU floors
 * (guestos.h).
 *
 * Floors, from the vendors' release notes:
 *  - RHEL 10 needs x86-64-v3: "Red Hat Enterprise Linux 10 ... requires
 *    x86-64-v3" (RHEL 10.0 Release Notes, "Architectures"; Considerations
 *    in adopting RHEL 10, "Hardware").  RHEL 9 needs x86-64-v2 (RHEL 9.0
 *    Release Notes, "Architectures").
 *  - The rebuilds follow: CentOS Stream 10 and 9 (the RHEL sources),
 *    Rocky Linux 10 / 9 and Oracle Linux 10 / 9 (their release notes'
 *    minimum hardware), AlmaLinux 10 / 9 (AlmaLinux OS 10.0 release notes:
 *    the default x86_64 build is x86-64-v3; a separate x86_64_v2 build
 *    exists, recognised here by its kernel release "...x86_64_v2").
 * Windows and other systems have no row: no floor is judged for them
 * (DVP's osType says only Windows or Generic).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/guestos.h"

typedef struct os_floor {
	const char *family;	/* shown */
	const char *const *ids;	/* spellings, lower case, longest first */
	int major, level;
} os_floor;

static const char *const ids_rhel[] = { "redhat", "rhel", NULL };
static const char *const ids_centos[] = { "centos.stream", "centos-stream",
	"centosstream", "centos", NULL };
static const char *const ids_alma[] = { "almalinux", "alma", NULL };
static const char *const ids_rocky[] = { "rockylinux", "rocky", NULL };
static const char *const ids_oracle[] = { "oraclelinux", "oracle", "ol",
	NULL };

static const os_floor floors[] = {
	{ "RHEL", ids_rhel, 10, 3 }, { "RHEL", ids_rhel, 9, 2 },
	{ "CentOS Stream", ids_centos, 10, 3 },
	{ "CentOS Stream", ids_centos, 9, 2 },
	{ "AlmaLinux", ids_alma, 10, 3 }, { "AlmaLinux", ids_alma, 9, 2 },
	{ "Rocky Linux", ids_rocky, 10, 3 }, { "Rocky Linux", ids_rocky, 9, 2 },
	{ "Oracle Linux", ids_oracle, 10, 3 },
	{ "Oracle Linux", ids_oracle, 9, 2 },
};
#define NFLOORS (sizeof(floors) / sizeof(floors[0]))

/* "rhel10", "rhel.10", "rhel9.4", "centos.stream10", "rhel" + "10.0":
 * the row of the table it names, or NULL.  The id must end where the
 * version starts (after an optional '.', '-' or '_'). */
static const os_floor *
parse_os(const char *id, const char *version)
{
	for (size_t i = 0; i < NFLOORS; i++)
		for (const char *const *p = floors[i].ids; *p != NULL; p++) {
			size_t n = strlen(*p);
			const char *s;
			char *end;
			long major;

			if (strncasecmp(id, *p, n) != 0)
				continue;
			s = id + n;
			if (version != NULL && *s == '\0')
				s = version;
			else if (*s == '.' || *s == '-' || *s == '_')
				s++;
			if (!isdigit((unsigned char)*s))
				continue;
			major = strtol(s, &end, 10);
			if (*end != '\0' && *end != '.' && *end != '-' &&
			    *end != '_')
				continue;
			for (size_t k = 0; k < NFLOORS; k++)
				if (floors[k].ids == floors[i].ids &&
				    floors[k].major == major)
					return &floors[k];
			return NULL;
		}
	return NULL;
}

static bool
found(kv_guestos *out, const os_floor *f, const char *from,
    const char *value)
{
	if (f == NULL)
		return false;
	out->family = f->family;
	out->major = f->major;
	out->level = f->level;
	out->from = from;
	out->value = value;
	return true;
}

bool
kv_guest_os(const kv_analysis *a, const kv_vmires *r, kv_guestos *out)
{
	const kv_vmi *v = r->vmi;
	const char *pfx = "os.template.kubevirt.io/";

	(void)a;
	memset(out, 0, sizeof(*out));
	if (v->os_id != NULL && found(out, parse_os(v->os_id, v->os_version),
	    "status.guestOSInfo", v->os_version ? v->os_version : v->os_id)) {
		/* AlmaLinux's x86_64_v2 build of a v3 release */
		if (v->os_kernel != NULL && out->level > 2 &&
		    strstr(v->os_kernel, "x86_64_v2") != NULL)
			out->level = 2;
		return true;
	}
	if (v->os_annotation != NULL && found(out,
	    parse_os(v->os_annotation, NULL), "vm.kubevirt.io/os",
	    v->os_annotation))
		return true;
	for (size_t i = 0; i < v->labels.n; i++)
		if (kv_startswith(v->labels.v[i].key, pfx) && found(out,
		    parse_os(v->labels.v[i].key + strlen(pfx), NULL), "label",
		    v->labels.v[i].key))
			return true;
	if (v->os_preference != NULL && found(out,
	    parse_os(v->os_preference, NULL), "preference", v->os_preference))
		return true;
	if (r->facts.os_type != NULL && found(out,
	    parse_os(r->facts.os_type, NULL), "osType", r->facts.os_type))
		return true;
	return false;
}

typedef struct feat_arg {
	const cpudb_model *cm;
	const kv_vmi *v;
} feat_arg;

/* The model's feature, or one the VMI requires; not one it disables. */
static bool
guest_has(const char *feature, void *arg)
{
	const feat_arg *fa = arg;
	bool has = cpudb_model_has(fa->cm, feature);

	for (size_t i = 0; i < fa->v->nfeatures; i++) {
		const kv_cpufeat *f = &fa->v->features[i];

		if (strcmp(f->name, feature) != 0)
			continue;
		if (strcmp(f->policy, "disable") == 0 ||
		    strcmp(f->policy, "forbid") == 0)
			has = false;
		else if (strcmp(f->policy, "optional") != 0)
			has = true;
	}
	return has;
}

int
kv_guest_cpu_level(const kv_analysis *a, const kv_vmires *r)
{
	const kv_model *m = a->m;
	const kv_node *n;

	if (r->mode == MODE_NAMED) {
		feat_arg fa = { kv_cpu_lookup(a, r->model), r->vmi };

		if (fa.cm == NULL)
			return -1;
		return fa.v->nfeatures == 0 ? fa.cm->level :
		    cpudb_level(guest_has, &fa);
	}
	n = r->vmi->node ? kv_model_node(m, r->vmi->node) : NULL;
	return n ? a->nodes[n - m->nodes].level : -1;
}

size_t
kv_guests_above(const kv_analysis *a, int level)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nvmis; i++) {
		kv_guestos os;

		if (kv_guest_os(a, &a->vmis[i], &os) && os.level > level)
			n++;
	}
	return n;
}

/* findings.md guest-cpu-floor: the guest OS needs a higher level than the
 * VMI's effective CPU gives. */
void
check_guest_cpu_floor(rule_ctx *c, const kv_rule *r)
{
	kv_guestos os;
	int have;

	if (!kv_guest_os(c->a, c->r, &os))
		return;
	have = kv_guest_cpu_level(c->a, c->r);
	if (have < 0 || have >= os.level)
		return;
	if (c->r->mode == MODE_NAMED)
		rule_emit(c, r, "guest %s %d (%s %s) needs x86-64-v%d; CPU "
		    "model %s gives x86-64-v%d", os.family, os.major, os.from,
		    os.value, os.level, c->r->model, have);
	else
		rule_emit(c, r, "guest %s %d (%s %s) needs x86-64-v%d; %s on "
		    "%s gives x86-64-v%d", os.family, os.major, os.from,
		    os.value, os.level, kv_mode_names[c->r->mode],
		    c->r->vmi->node, have);
}
