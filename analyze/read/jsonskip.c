/*
 * jsonskip.c - the subtrees of an item no model loader reads, found by
 * tracking the keys of an item's first levels and cut out of its text
 * (key, comma and value; null for an object's first member) before
 * jansson builds them (see jsonitems.c).  The rules are rows
 * of one table, by resource file; every path in it was checked against
 * the loaders (load*.c, dvp/load.c, guestos.c), and tests/e2e/skip-
 * subtrees.sh compares the findings with and without skipping.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/jsonscan.h"

static const char *const key_names[K_KEYS] = {
	[K_METADATA] = "metadata", [K_SPEC] = "spec", [K_STATUS] = "status",
	[K_MANAGED] = "managedFields", [K_FINALIZERS] = "finalizers",
	[K_OWNERS] = "ownerReferences", [K_IMAGES] = "images",
	[K_CONDITIONS] = "conditions", [K_ADDRESSES] = "addresses",
	[K_VOLINUSE] = "volumesInUse", [K_VOLATTACHED] = "volumesAttached",
	[K_DAEMON] = "daemonEndpoints", [K_CONTAINERS] = "containers",
	[K_INITCONTAINERS] = "initContainers",
	[K_CSTATUSES] = "containerStatuses",
	[K_ICSTATUSES] = "initContainerStatuses", [K_NAME] = "name",
	[K_IMAGE] = "image", [K_IMAGEID] = "imageID",
	[K_RESOURCES] = "resources", [K_ANNOTATIONS] = "annotations",
	[K_VOLUMES] = "volumes", [K_TYPE] = "type", [K_REASON] = "reason",
	[K_MESSAGE] = "message", [K_TEMPLATE] = "template",
	[K_DOMAIN] = "domain", [K_CPU] = "cpu", [K_MODEL] = "model",
	[K_EVICTION] = "evictionStrategy", [K_NAMESPACE] = "namespace",
	[K_LABELS] = "labels", [K_CREATED] = "creationTimestamp",
	[K_DELETED] = "deletionTimestamp", [K_UID] = "uid",
	[K_OVERHEAD] = "overhead", [K_PRIORITY] = "priority",
	[K_NODENAME] = "nodeName", [K_NODESELECTOR] = "nodeSelector",
	[K_AFFINITY] = "affinity", [K_SPREAD] = "topologySpreadConstraints",
	[K_PHASE] = "phase", [K_ARCH] = "architecture",
	[K_NETWORKS] = "networks", [K_TOLERATIONS] = "tolerations",
	[K_MACHINE] = "machine", [K_HINTS] = "topologyHints",
	[K_MIGSTATE] = "migrationState", [K_GUESTOS] = "guestOSInfo",
	[K_VOLSTATUS] = "volumeStatus", [K_MIGVOLS] = "migratedVolumes",
	[K_SCNAME] = "storageClassName", [K_VOLMODE] = "volumeMode",
	[K_VOLNAME] = "volumeName", [K_ACCESSMODES] = "accessModes",
	[K_CAPACITY] = "capacity", [K_FIRMWARE] = "firmware",
	[K_DEVICES] = "devices", [K_DISKS] = "disks", [K_CDROM] = "cdrom",
	[K_LUN] = "lun", [K_CLOUDINIT] = "cloudInitNoCloud",
	[K_CONFIGDRIVE] = "cloudInitConfigDrive", [K_USERDATA] = "userData",
	[K_PVCINFO] = "persistentVolumeClaimInfo", [K_CLAIMNAME] = "claimName",
	[K_KEY] = "key", [K_OPERATOR] = "operator", [K_VALUE] = "value",
	[K_EFFECT] = "effect", [K_REQUESTS] = "requests",
};

/*
 * A subtree no loader reads: the value at path (keys from the item's top
 * level down, K_ELEM for every element of an array) is dropped; or, with
 * keep, every key of the object at path but those.  K_ASIDE among the
 * kept: the object at path also goes whole, as text, beside the item
 * (jsonitems.h json_aside), for the loader to parse when it needs more
 * than the rows below it leave.  A keep list names every key its
 * loader reads there (jget paths, and what it iterates): a key missing
 * from it reads as absent, with no error.
 */
typedef struct skip_rule {
	enum profile profile;		/* P_ANY: every resource file */
	enum key path[MAXLV];		/* K_NONE ends it */
	enum key keep[10];		/* K_NONE ends it; none: drop path */
} skip_rule;

static const skip_rule rules[] = {
	{ P_ANY, { K_METADATA, K_MANAGED }, { K_NONE } },
	{ P_ANY, { K_METADATA, K_FINALIZERS }, { K_NONE } },
	{ P_ANY, { K_METADATA, K_OWNERS }, { K_NONE } },
	{ P_NODES, { K_STATUS, K_IMAGES }, { K_NONE } },
	{ P_NODES, { K_STATUS, K_CONDITIONS }, { K_NONE } },
	{ P_NODES, { K_STATUS, K_ADDRESSES }, { K_NONE } },
	{ P_NODES, { K_STATUS, K_VOLINUSE }, { K_NONE } },
	{ P_NODES, { K_STATUS, K_VOLATTACHED }, { K_NONE } },
	{ P_NODES, { K_STATUS, K_DAEMON }, { K_NONE } },
	/* pods: load_pod, load_pod_resources and load_pod_place
	 * (load_objects.c, load_capacity.c, load_podaffinity.c) */
	{ P_PODS, { K_METADATA }, { K_NAME, K_NAMESPACE, K_LABELS, K_CREATED,
	    K_DELETED } },
	{ P_PODS, { K_SPEC }, { K_CONTAINERS, K_INITCONTAINERS, K_OVERHEAD,
	    K_PRIORITY, K_NODENAME, K_NODESELECTOR, K_AFFINITY, K_SPREAD,
	    K_VOLUMES } },
	{ P_PODS, { K_SPEC, K_CONTAINERS, K_ELEM },
	    { K_NAME, K_IMAGE, K_RESOURCES } },
	/* of a container's resources only the requests, and of an init
	 * container nothing else (load_pod_resources, pod_memory) */
	{ P_PODS, { K_SPEC, K_INITCONTAINERS, K_ELEM }, { K_RESOURCES } },
	{ P_PODS, { K_SPEC, K_CONTAINERS, K_ELEM, K_RESOURCES },
	    { K_REQUESTS } },
	{ P_PODS, { K_SPEC, K_INITCONTAINERS, K_ELEM, K_RESOURCES },
	    { K_REQUESTS } },
	{ P_PODS, { K_SPEC, K_VOLUMES, K_ELEM }, { K_NAME, K_IMAGE } },
	{ P_PODS, { K_STATUS }, { K_PHASE, K_CSTATUSES, K_ICSTATUSES } },
	{ P_PODS, { K_STATUS, K_CSTATUSES, K_ELEM },
	    { K_NAME, K_IMAGE, K_IMAGEID } },
	{ P_PODS, { K_STATUS, K_ICSTATUSES, K_ELEM },
	    { K_NAME, K_IMAGE, K_IMAGEID } },
	/* VMIs: load_vmi, load_vmi_spec, load_vmi_status (load_vmi.c) */
	{ P_VMIS, { K_METADATA }, { K_NAME, K_NAMESPACE, K_LABELS,
	    K_ANNOTATIONS, K_UID } },
	{ P_VMIS, { K_SPEC }, { K_ARCH, K_DOMAIN, K_NODESELECTOR,
	    K_EVICTION, K_AFFINITY, K_SPREAD, K_TOLERATIONS, K_VOLUMES,
	    K_NETWORKS } },
	{ P_VMIS, { K_STATUS }, { K_PHASE, K_NODENAME, K_MACHINE, K_HINTS,
	    K_MIGSTATE, K_GUESTOS, K_CONDITIONS, K_VOLSTATUS, K_MIGVOLS } },
	{ P_VMIS, { K_STATUS, K_CONDITIONS, K_ELEM },
	    { K_TYPE, K_STATUS, K_REASON, K_MESSAGE } },
	/* and below those: of a toleration the four keys load_tolerations
	 * (load_objects.c) reads, of a disk its name, cdrom and lun, of a
	 * volume status its name and claim's name and access modes; no
	 * firmware, and a cloud-init volume told by its key alone */
	{ P_VMIS, { K_SPEC, K_DOMAIN, K_FIRMWARE }, { K_NONE } },
	{ P_VMIS, { K_SPEC, K_TOLERATIONS, K_ELEM },
	    { K_KEY, K_OPERATOR, K_VALUE, K_EFFECT } },
	{ P_VMIS, { K_SPEC, K_DOMAIN, K_DEVICES, K_DISKS, K_ELEM },
	    { K_NAME, K_CDROM, K_LUN } },
	{ P_VMIS, { K_SPEC, K_VOLUMES, K_ELEM, K_CLOUDINIT, K_USERDATA },
	    { K_NONE } },
	{ P_VMIS, { K_SPEC, K_VOLUMES, K_ELEM, K_CONFIGDRIVE, K_USERDATA },
	    { K_NONE } },
	{ P_VMIS, { K_STATUS, K_VOLSTATUS, K_ELEM }, { K_NAME, K_PVCINFO } },
	{ P_VMIS, { K_STATUS, K_VOLSTATUS, K_ELEM, K_PVCINFO },
	    { K_CLAIMNAME, K_ACCESSMODES } },
	/* KubeVirt's VirtualMachines: load_vm reads the name and namespace,
	 * spec, the conditions' type, status and message, and of the
	 * template the CPU model and the eviction strategy; the template
	 * goes aside whole, parsed only for a VM that is halted or must
	 * restart (a template is most of a VM's bytes and of its objects) */
	{ P_VMS, { K_METADATA, K_ANNOTATIONS }, { K_NONE } },
	{ P_VMS, { K_SPEC, K_TEMPLATE }, { K_SPEC, K_ASIDE } },
	{ P_VMS, { K_SPEC, K_TEMPLATE, K_SPEC }, { K_DOMAIN, K_EVICTION } },
	{ P_VMS, { K_SPEC, K_TEMPLATE, K_SPEC, K_DOMAIN }, { K_CPU } },
	{ P_VMS, { K_SPEC, K_TEMPLATE, K_SPEC, K_DOMAIN, K_CPU },
	    { K_MODEL } },
	{ P_VMS, { K_STATUS }, { K_CONDITIONS } },
	{ P_VMS, { K_STATUS, K_CONDITIONS, K_ELEM },
	    { K_TYPE, K_STATUS, K_MESSAGE } },
	/* PersistentVolumeClaims: load_pvc (load_objects.c) */
	{ P_PVCS, { K_METADATA }, { K_NAME, K_NAMESPACE, K_UID } },
	{ P_PVCS, { K_SPEC }, { K_SCNAME, K_VOLMODE, K_VOLNAME, K_RESOURCES,
	    K_ACCESSMODES } },
	{ P_PVCS, { K_STATUS }, { K_PHASE, K_CAPACITY } },
	/* DataVolumes: counted (load_datavolume) */
	{ P_DVS, { K_METADATA }, { K_NAME, K_NAMESPACE } },
	{ P_DVS, { K_SPEC }, { K_NONE } },
	{ P_DVS, { K_STATUS }, { K_NONE } },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))
_Static_assert(NRULES <= 64, "rule sets are 64-bit masks");

static const struct {
	const char *name;
	enum profile profile;
} files[] = {
	{ "nodes.json", P_NODES }, { "pods.json", P_PODS },
	{ "virtualmachineinstances.kubevirt.io.json", P_VMIS },
	{ "virtualmachines.kubevirt.io.json", P_VMS },
	{ "persistentvolumeclaims.json", P_PVCS },
	{ "datavolumes.cdi.kubevirt.io.json", P_DVS },
	{ "internalvirtualizationvirtualmachineinstances."
	    "internal.virtualization.deckhouse.io.json", P_VMIS },
};

/* --- skipping ----------------------------------------------------------- */

/* The key names by a hash of their length and first and last bytes,
 * open addressing: one or two compares a key, however many names. */
#define KEY_SLOTS 256
static unsigned char key_slot[KEY_SLOTS];	/* enum key; K_NONE: empty */
static size_t key_len[K_KEYS];
static unsigned rule_len[NRULES];	/* the keys in each row's path */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

_Static_assert(K_KEYS < 256, "key slots are bytes");

static unsigned
key_hash(const char *k, size_t n)
{
	return ((unsigned)n * 37u + (unsigned char)k[0] * 7u +
	    (unsigned char)k[n - 1]) % KEY_SLOTS;
}

static unsigned path_len(const skip_rule *r);

static void
key_table(void)
{
	for (size_t i = 0; i < NRULES; i++)
		rule_len[i] = path_len(&rules[i]);
	for (unsigned k = K_METADATA; k < K_KEYS; k++) {
		unsigned h;

		key_len[k] = strlen(key_names[k]);
		h = key_hash(key_names[k], key_len[k]);

		while (key_slot[h] != K_NONE)
			h = (h + 1) % KEY_SLOTS;
		key_slot[h] = (unsigned char)k;
	}
}

static enum key
key_id(const json_items *s)
{
	unsigned h;

	if (s->key_escaped)
		return K_ESCAPED;
	if (s->key_overflow || s->key_len == 0)
		return K_OTHER;
	for (h = key_hash(s->key, s->key_len); key_slot[h] != K_NONE;
	    h = (h + 1) % KEY_SLOTS) {
		enum key k = (enum key)key_slot[h];

		if (key_len[k] == s->key_len &&
		    memcmp(key_names[k], s->key, s->key_len) == 0)
			return k;
	}
	return K_OTHER;
}

enum profile
skip_profile(const char *file)
{
	const char *env = getenv("KVSCOPE_NO_SKIP");
	const char *base = strrchr(file, '/');

	pthread_once(&key_once, key_table);
	if (env != NULL && *env != '\0' && strcmp(env, "0") != 0)
		return P_OFF;
	base = base != NULL ? base + 1 : file;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (strcmp(base, files[i].name) == 0)
			return files[i].profile;
	return P_ANY;
}

static unsigned
path_len(const skip_rule *r)
{
	unsigned n = 0;

	while (n < MAXLV && r->path[n] != K_NONE)
		n++;
	return n;
}

/* The rules of the file's profile, as a set of indexes. */
static rule_set
profile_rules(enum profile p)
{
	rule_set set = 0;

	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].profile == P_ANY || rules[i].profile == p)
			set |= (rule_set)1 << i;
	return set;
}

static bool
kept(const skip_rule *r, enum key k)
{
	for (size_t i = 0; i < sizeof(r->keep) / sizeof(r->keep[0]) &&
	    r->keep[i] != K_NONE; i++)
		if (r->keep[i] == k)
			return true;
	return false;
}

/* Does the value starting at level rel (under key k of an object, or an
 * element of an array) follow rule r's path? */
static bool
step_matches(const skip_rule *r, const level *l, unsigned rel)
{
	return rel <= MAXLV && (l->is_obj ? r->path[rel - 1] == l->key :
	    r->path[rel - 1] == K_ELEM);
}

/* A value starts at level rel: is it dropped?  Else, the rules that
 * reach below it go to the container it may open. */
static bool
skip_value(json_items *s, unsigned rel)
{
	const level *l = &s->lv[rel];
	rule_set below = 0;

	s->aside_next = false;
	for (rule_set set = l->rules; set != 0; set &= set - 1) {
		size_t k = (size_t)__builtin_ctzll(set);
		const skip_rule *r = &rules[k];
		unsigned n = rule_len[k];

		if (r->keep[0] != K_NONE && n + 1 == rel) {
			if (l->is_obj && l->key != K_ESCAPED &&
			    !kept(r, l->key))
				return true;
			continue;
		}
		if (!step_matches(r, l, rel))
			continue;
		if (r->keep[0] == K_NONE && n == rel)
			return true;
		if (n == rel && kept(r, K_ASIDE))
			s->aside_next = true;
		below |= set & -set;
	}
	s->child_rules = below;
	return false;
}

/* The value about to start at byte i is dropped: the item's text so far
 * is taken, less its member from member_at (the comma before the key)
 * when it has one, so jansson builds no key either; else the item keeps
 * "null" in its place (the first member of an object, an element of an
 * array).  The value's bytes are not taken (in->seg unset). */
static void
cut_value(json_items *s, chunk_in *in, size_t i, uint64_t member_at)
{
	kv_buf_append(&s->item, in->buf + in->seg, i - in->seg);
	if (member_at != NO_MEMBER)
		s->item.len = member_at;
	else
		kv_buf_append(&s->item, "null", 4);
	in->seg = SIZE_MAX;
}

/* A container or string value starts at byte i and is dropped. */
static void
begin_skip(json_items *s, chunk_in *in, size_t i, uint64_t member_at,
    bool str)
{
	cut_value(s, in, i, member_at);
	s->skipping = true;
	s->skip_str = str;
	s->skip_depth = s->depth;
}

void
end_skip(json_items *s, chunk_in *in, size_t i)
{
	s->skipping = false;
	s->skip_str = false;
	in->seg = i + 1;
}

/* The container opening at byte i goes aside whole (its row's aside). */
static void
begin_aside(json_items *s, chunk_in *in, size_t i)
{
	s->aside_on = true;
	s->aside_depth = s->depth;
	s->aside.len = 0;
	in->aside_seg = i;
}

/* It closed with byte i. */
void
end_aside(json_items *s, chunk_in *in, size_t i)
{
	kv_buf_append(&s->aside, in->buf + in->aside_seg,
	    i + 1 - in->aside_seg);
	s->aside_on = false;
	in->aside_seg = SIZE_MAX;
}

/* A value starts at byte i at tracked level rel: skip it, or say
 * whether a container it opens is tracked. */
bool
value_starts(json_items *s, chunk_in *in, size_t i, unsigned rel, bool str,
    bool *child)
{
	level *l = &s->lv[rel];
	uint64_t member_at = l->member_at;

	*child = false;
	l->comma_fresh = false;
	l->member_at = NO_MEMBER;	/* a member has one value */
	if (l->is_obj && !l->want_value)
		return false;
	l->want_value = false;
	if (skip_value(s, rel)) {
		begin_skip(s, in, i, member_at, str);
		return true;
	}
	*child = s->child_rules != 0;
	if (s->aside_next && !str)
		begin_aside(s, in, i);
	return false;
}

/* After structural() opened a container inside an item. */
void
opened(json_items *s, bool is_obj, bool tracked)
{
	unsigned rel = s->depth - s->item_depth;

	if (rel < 1 || rel > MAXLV || s->skipping)
		return;
	s->lv[rel] = (level){ .is_obj = is_obj, .tracked = tracked,
	    .want_key = is_obj, .key = K_NONE, .member_at = NO_MEMBER,
	    .rules = !tracked ? 0 : rel == 1 ? profile_rules(s->profile) :
	    s->child_rules };
}

/* A byte a scalar may hold (letters, digits, signs, points): any but
 * whitespace, the structure's and a string's. */
static bool
scalar_byte(char c)
{
	switch (c) {
	case ' ': case '\t': case '\n': case '\r': case ',': case ':':
	case '{': case '}': case '[': case ']': case '"': case '\0':
		return false;
	default:
		return true;
	}
}

/* ',', ':' and scalars at a tracked level: byte i of in.  A scalar
 * member no loader reads is dropped with its comma, as a container is
 * (a first member's scalar stays: null would be no shorter).  A comma
 * counts for the member after it only when a member came before it,
 * and a colon repeated keeps the member: jansson is to refuse both. */
void
track_byte(json_items *s, chunk_in *in, size_t i, unsigned rel, char c)
{
	level *l = &s->lv[rel];

	if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return;
	l->comma_fresh = false;
	if (c == ',') {
		l->want_key = l->is_obj;
		l->comma_fresh = l->is_obj && l->had_member;
		l->want_value = false;
		l->member_at = NO_MEMBER;
		if (l->is_obj)
			l->comma_at = item_at(s, in, i);
	} else if (c == ':') {
		if (l->want_value)
			l->member_at = NO_MEMBER;
		l->want_value = l->is_obj;
	} else {
		bool drop = l->want_value && l->member_at != NO_MEMBER &&
		    scalar_byte(c) && skip_value(s, rel);

		l->want_value = false;		/* a scalar */
		if (drop) {
			cut_value(s, in, i, l->member_at);
			s->skip_scalar = true;
		}
		l->member_at = NO_MEMBER;
	}
}

/* Byte i while a scalar is dropped: true when it is one of the scalar's,
 * else the drop ends before it. */
bool
scalar_skipped(json_items *s, chunk_in *in, size_t i, char c)
{
	if (scalar_byte(c))
		return true;
	s->skip_scalar = false;
	in->seg = i;
	return false;
}

/* A key opens: its member starts at the comma right before it, if one
 * is (only then can the member be dropped whole: a comma missing or
 * doubled stays for jansson to refuse). */
void
key_starts(json_items *s, unsigned rel)
{
	level *l = &s->lv[rel];

	l->want_key = false;
	l->had_member = true;
	l->member_at = l->comma_fresh ? l->comma_at : NO_MEMBER;
	l->comma_fresh = false;
}

/* A key string ended: remember which it is. */
void
key_done(json_items *s)
{
	s->lv[s->depth - s->item_depth].key = key_id(s);
}
