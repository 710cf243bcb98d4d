/*
 * whatif_fix.c - the changes only a group's fix makes (--fix G, see
 * fixapply.h), written into the objects as the fix text says:
 *
 *  claim-rwx CLASS   the group's claims recreated ReadWriteMany on CLASS
 *                    (its volumeMode kept), the VMIs' volumeStatus too;
 *  binding masquerade  the pod network interface bound with masquerade
 *                    (declared as "default" when the VMI declared none);
 *  operation-done    the group's VirtualMachineOperations of that type
 *                    and phase finished (phase Completed);
 *  image-digest      the containerDisk image re-pulled (or referenced by
 *                    digest): the launcher pods of the VMIs record its
 *                    image ID as REPO@sha256:HEX, the form the check
 *                    judges (HEX: the recorded one, else zeros; the
 *                    value is the registry's);
 *  node-label K=V    the subject node carries label K=V (a relabel-node
 *                    fix whose value a VMI's selector names): no restart;
 *  migration-policy F  a MigrationPolicy named the subject, with setting
 *                    F over those of the policy the VMIs have (from),
 *                    selecting the label kvscope.io/migration-policy=
 *                    SUBJECT the VMIs get (estimate.h kv_fix_policy):
 *                    no restart, it acts on their next migration.
 *
 * Each acts on the VMIs of the change's scope (the group's) and restarts
 * the running ones where the fix says so (not for operation-done).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "analyze/change/whatif.h"
#include "analyze/change/whatif_int.h"
#include "analyze/estimate/estimate.h"

static bool
picked(const kv_change *ch, size_t i)
{
	return ch->scope != SC_PICK || ch->pick[i];
}

/* Whether claim p (of VMI v's namespace) is one the change recreates:
 * not ReadWriteMany, on the subject class or the subject NS/CLAIM. */
static bool
claim_hit(const kv_change *ch, const kv_pvc *p)
{
	const char *slash = strchr(ch->subject, '/');

	if (p == NULL || (p->modes & AM_RWX))
		return false;
	if (slash == NULL)
		return p->storage_class != NULL &&
		    strcmp(p->storage_class, ch->subject) == 0;
	return strncmp(p->ns, ch->subject, (size_t)(slash - ch->subject)) ==
	    0 && p->ns[slash - ch->subject] == '\0' &&
	    strcmp(p->name, slash + 1) == 0;
}

/* The volumeStatus of VMI v's volume name as ReadWriteMany. */
static void
volstatus_rwx(kv_model *m, kv_vmi *v, const char *name)
{
	for (size_t s = 0; s < v->nvolstatus; s++)
		if (v->volstatus[s].name == name) {
			v->volstatus[s].rwx = true;
			v->volstatus[s].modes = kv_intern_str(m->strs,
			    "ReadWriteMany");
		}
}

/* The claims of the scope's VMIs the change recreates, marked in hit
 * (per claim of m); their count. */
static size_t
claim_hits(const kv_model *m, const kv_change *ch, bool *hit)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nvmis; i++) {
		const kv_vmi *v = &m->vmis[i];

		for (size_t k = 0; picked(ch, i) && k < v->nvolumes; k++) {
			const kv_pvc *p = v->volumes[k].claim ?
			    kv_model_pvc(m, v->ns, v->volumes[k].claim) : NULL;

			if (claim_hit(ch, p) && !hit[p - m->pvcs]) {
				hit[p - m->pvcs] = true;
				n++;
			}
		}
	}
	return n;
}

/* Whether VMI v uses a claim hit marks. */
static bool
uses_hit(const kv_model *m, const kv_vmi *v, const bool *hit)
{
	for (size_t k = 0; k < v->nvolumes; k++) {
		const kv_pvc *p = v->volumes[k].claim ?
		    kv_model_pvc(m, v->ns, v->volumes[k].claim) : NULL;

		if (p != NULL && hit[p - m->pvcs])
			return true;
	}
	return false;
}

size_t
kv_whatif_claim_sharers(const kv_model *m, const kv_change *ch,
    bool *shared)
{
	bool *hit = xcalloc(m->npvcs + 1, sizeof(bool));
	size_t n = 0;

	if (ch->kind == CH_CLAIM_RWX && claim_hits(m, ch, hit) > 0)
		for (size_t i = 0; i < m->nvmis; i++)
			if (!picked(ch, i) && uses_hit(m, &m->vmis[i], hit)) {
				shared[i] = true;
				n++;
			}
	free(hit);
	return n;
}

/* A recreated claim is a new PVC: every VMI that uses one, in the
 * change's scope or not, moves to it and restarts. */
int
kv_wi_claim_rwx(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const char *cls = kv_intern_str(m->strs, ch->value);
	bool *hit = xcalloc(m->npvcs + 1, sizeof(bool));
	size_t nclaims = claim_hits(m, ch, hit), nvmis = 0, nr = 0, nout = 0;
	char out[64];

	for (size_t i = 0; i < m->nvmis; i++) {
		kv_vmi *v = &m->vmis[i];
		bool any = false;

		for (size_t k = 0; k < v->nvolumes; k++) {
			const kv_pvc *p = v->volumes[k].claim ?
			    kv_model_pvc(m, v->ns, v->volumes[k].claim) : NULL;

			if (p == NULL || !hit[p - m->pvcs])
				continue;
			volstatus_rwx(m, v, v->volumes[k].name);
			any = true;
		}
		nvmis += any;
		nout += any && !picked(ch, i);
		if (any)
			kv_wi_restart(c, i, &nr);
	}
	for (size_t i = 0; i < m->npvcs; i++)
		if (hit[i]) {
			m->pvcs[i].storage_class = cls;
			m->pvcs[i].modes = AM_RWX;
			m->pvcs[i].volume = NULL;	/* a new PV */
		}
	free(hit);
	if (nclaims == 0)
		return kv_seterr(c->err, "claim-rwx %s: no claim of %s that is "
		    "not ReadWriteMany in %s %s", ch->value, ch->subject,
		    kv_wi_scope_text(c, ch), ch->scope_value ? ch->scope_value :
		    "");
	snprintf(out, sizeof(out), " (%zu outside the change's scope)", nout);
	kv_wi_note(c->w, xasprintf("claims of %s recreated ReadWriteMany on "
	    "storage class %s (volumeMode kept): %zu claim%s of %zu VMI%s%s, "
	    "%zu running VMI%s stop for it", ch->subject, ch->value, nclaims,
	    nclaims == 1 ? "" : "s", nvmis, nvmis == 1 ? "" : "s", nout ?
	    out : "", nr, nr == 1 ? "" : "s"));
	return KV_OK;
}

/* VMI v's pod network interface bound with b; an interface "default"
 * on the pod network when v declared no network and no interface. */
static void
bind_pod(kv_model *m, kv_vmi *v, enum kv_binding b)
{
	if (v->nnetworks == 0 && v->nifaces == 0) {
		v->ifaces = xcalloc(2, sizeof(kv_iface));
		v->ifaces[0].name = kv_intern_str(m->strs, "default");
		v->nifaces = 1;
		v->nnetworks = 1;
		v->pod_network = v->ifaces[0].name;
	}
	for (size_t k = 0; v->pod_network && k < v->nifaces; k++)
		if (v->ifaces[k].name &&
		    strcmp(v->ifaces[k].name, v->pod_network) == 0) {
			v->ifaces[k].binding = b;
			v->ifaces[k].plugin = NULL;
		}
}

int
kv_wi_binding(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	size_t n = 0, nr = 0;

	if (strcmp(ch->value, "masquerade") != 0)
		return kv_seterr(c->err, "binding %s: only masquerade is a "
		    "binding kvscope writes", ch->value);
	for (size_t i = 0; i < m->nvmis; i++) {
		if (!picked(ch, i))
			continue;
		/* the restart first: it may bring the template's interfaces */
		kv_wi_restart(c, i, &nr);
		bind_pod(m, &m->vmis[i], BIND_MASQUERADE);
		n++;
	}
	kv_wi_note(c->w, xasprintf("pod network interface bound with "
	    "masquerade: {} on %zu VMI%s (%s %s): takes effect after a "
	    "restart, %zu running VMI%s restart", n, n == 1 ? "" : "s",
	    kv_wi_scope_text(c, ch), ch->scope_value ? ch->scope_value : "", nr,
	    nr == 1 ? "" : "s"));
	return KV_OK;
}

int
kv_wi_operation_done(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const kv_fixrow *fr = m->flavor->fix;
	size_t n = 0;

	for (size_t i = 0; fr->finish_ops != NULL && i < m->nvmis; i++)
		if (picked(ch, i))
			n += fr->finish_ops(m, m->vmis[i].ns, m->vmis[i].name,
			    ch->subject);
	kv_wi_note(c->w, xasprintf("VirtualMachineOperations %s finished "
	    "(phase Completed): %zu", ch->subject, n));
	return KV_OK;
}

/* "REPO@sha256:HEX" for image (without tag or digest) and the hex of
 * the recorded image ID id (NULL or without one: 64 zeros). */
static char *
digest_id(const char *image, const char *id)
{
	const char *sha = id ? strstr(id, "sha256:") : NULL;
	const char *at = strchr(image, '@');
	size_t len = at ? (size_t)(at - image) : strlen(image);
	const char *slash = memrchr(image, '/', len);
	const char *colon = memrchr(slash ? slash : image, ':', len -
	    (size_t)(slash ? slash - image : 0));

	if (colon != NULL)
		len = (size_t)(colon - image);
	return xasprintf("%.*s@sha256:%s", (int)len, image, sha ? sha + 7 :
	    "0000000000000000000000000000000000000000000000000000000000000000");
}

/* Whether volume k of VMI v is the change's containerDisk image. */
static bool
digest_hit(const kv_change *ch, const kv_vmi *v, size_t k)
{
	return v->volumes[k].kind == VOL_CONTAINERDISK &&
	    v->volumes[k].image != NULL &&
	    strcmp(v->volumes[k].image, ch->value) == 0;
}

/* The image IDs of pod's containers volume<name> for the volumes of v
 * that are the change's image, re-pulled; how many. */
static size_t
repull_pod(kv_model *m, const kv_change *ch, const kv_vmi *v, kv_pod *pod)
{
	size_t n = 0;

	for (size_t k = 0; k < v->nvolumes; k++) {
		const kv_volume *vol = &v->volumes[k];

		if (!digest_hit(ch, v, k))
			continue;
		for (size_t i = 0; i < pod->nimageids; i++) {
			kv_imageid *id = &pod->imageids[i];
			char *d;

			if (strncmp(id->container, "volume", 6) != 0 ||
			    strcmp(id->container + 6, vol->name) != 0)
				continue;
			d = digest_id(vol->image, id->image_id);
			id->image_id = kv_intern_str(m->strs, d);
			free(d);
			n++;
		}
	}
	return n;
}

/* hits[i]: the image IDs re-pulled in the pods of VMI i (picked, with a
 * volume of the image).  One pass over the pods, their VMIs found by
 * UID: a pod list of 100,000 is not walked once per VMI. */
static void
repull_pods(kv_model *m, const kv_change *ch, size_t *hits)
{
	GHashTable *by_uid = g_hash_table_new(g_str_hash, g_str_equal);

	for (size_t i = 0; i < m->nvmis; i++) {
		const kv_vmi *v = &m->vmis[i];
		bool any = false;

		for (size_t k = 0; picked(ch, i) && k < v->nvolumes; k++)
			any |= digest_hit(ch, v, k);
		if (any && v->uid != NULL &&
		    !g_hash_table_contains(by_uid, v->uid))
			g_hash_table_insert(by_uid, (void *)v->uid,
			    GSIZE_TO_POINTER(i + 1));
	}
	for (size_t p = 0; g_hash_table_size(by_uid) > 0 && p < m->npods;
	    p++) {
		kv_pod *pod = &m->pods[p];
		size_t i = pod->created_by == NULL ? 0 :
		    GPOINTER_TO_SIZE(g_hash_table_lookup(by_uid,
		    pod->created_by));

		if (i > 0)
			hits[i - 1] += repull_pod(m, ch, &m->vmis[i - 1], pod);
	}
	g_hash_table_destroy(by_uid);
}

int
kv_wi_image_digest(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	size_t n = 0, nr = 0;
	size_t *hits = xcalloc(m->nvmis + 1, sizeof(size_t));

	repull_pods(m, ch, hits);
	for (size_t i = 0; i < m->nvmis; i++) {
		n += hits[i];
		if (hits[i] > 0)
			kv_wi_restart(c, i, &nr);
	}
	free(hits);
	/* the scope names the group: two groups of one image (two codes,
	 * other VMIs) give two lines that differ */
	kv_wi_note(c->w, xasprintf("containerDisk %s re-pulled (%s%s%s): "
	    "%zu image ID%s recorded as REPO@sha256:DIGEST (the digest's "
	    "value is the registry's), %zu running VMI%s restart", ch->value,
	    kv_wi_scope_text(c, ch), ch->scope_value ? " " : "",
	    ch->scope_value ? ch->scope_value : "", n, n == 1 ? "" : "s", nr,
	    nr == 1 ? "" : "s"));
	return KV_OK;
}

static int
label_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_label *)x)->key, ((const kv_label *)y)->key);
}

int
kv_wi_node_label(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const kv_node *cn = kv_model_node(m, ch->subject);
	const char *eq = strchr(ch->value, '=');
	kv_node *n;
	const char *key;

	if (cn == NULL || eq == NULL)
		return kv_seterr(c->err, "node-label %s: no node %s in the "
		    "snapshot, or no KEY=VALUE", ch->value, ch->subject);
	n = &m->nodes[cn - m->nodes];
	key = kv_intern_strn(m->strs, ch->value, (size_t)(eq - ch->value));
	for (size_t i = 0; i < n->labels.n; i++)
		if (strcmp(n->labels.v[i].key, key) == 0) {
			n->labels.v[i].value = kv_intern_str(m->strs, eq + 1);
			goto done;
		}
	n->labels.v = xreallocarray(n->labels.v, n->labels.n + 2,
	    sizeof(kv_label));
	n->labels.v[n->labels.n++] = (kv_label){ key,
	    kv_intern_str(m->strs, eq + 1) };
	kv_qsort(n->labels.v, n->labels.n, sizeof(kv_label), label_cmp);
done:
	kv_wi_note(c->w, xasprintf("node %s labelled %s: takes effect "
	    "without a restart", n->name, ch->value));
	return KV_OK;
}

static int
policy_cmp(const void *x, const void *y)
{
	return strcmp(((const kv_policy *)x)->name,
	    ((const kv_policy *)y)->name);
}

/* VMI v labelled key=value (interned in m). */
static void
label_vmi(kv_model *m, kv_vmi *v, const char *key, const char *value)
{
	for (size_t i = 0; i < v->labels.n; i++)
		if (strcmp(v->labels.v[i].key, key) == 0) {
			v->labels.v[i].value = value;
			return;
		}
	v->labels.v = xreallocarray(v->labels.v, v->labels.n + 2,
	    sizeof(kv_label));
	v->labels.v[v->labels.n++] = (kv_label){ kv_intern_str(m->strs,
	    key), value };
	kv_qsort(v->labels.v, v->labels.n, sizeof(kv_label), label_cmp);
}

int
kv_wi_migration_policy(apply_ctx *c, const kv_change *ch)
{
	kv_model *m = c->m;
	const char *name = kv_intern_str(m->strs, ch->subject);
	const kv_policy *base = kv_policy_named(m, ch->from);
	const char *bname = base ? base->name : NULL;	/* base moves */
	bool carry = true;
	size_t n = 0;
	kv_policy p;

	if ((ch->from != NULL && base == NULL) ||
	    kv_policy_named(m, name) != NULL)
		return kv_seterr(c->err, "migration-policy %s: no "
		    "MigrationPolicy %s in the snapshot, or one named %s "
		    "already", ch->value, ch->from ? ch->from : "", name);
	for (size_t i = 0; i < m->nvmis; i++)
		carry &= !picked(ch, i) || m->vmis[i].labels.n > 0;
	if (!kv_fix_policy(base, ch->value, name, carry, &p))
		return kv_seterr(c->err, "migration-policy %s: not a setting "
		    "kvscope writes", ch->value);
	for (size_t i = 0; i < m->nvmis; i++)
		if (picked(ch, i)) {
			label_vmi(m, &m->vmis[i], KV_FIX_POLICY_LABEL, name);
			n++;
		}
	m->policies = xreallocarray(m->policies, m->npolicies + 2,
	    sizeof(kv_policy));
	m->policies[m->npolicies++] = p;
	kv_qsort(m->policies, m->npolicies, sizeof(kv_policy), policy_cmp);
	kv_wi_note(c->w, xasprintf("MigrationPolicy %s created (%s%s%s), "
	    "%zu VMI%s labelled %s=%s: takes effect at their next "
	    "migration, without a restart", name, ch->value, bname ?
	    " over the settings of MigrationPolicy " : "", bname ? bname : "",
	    n, n == 1 ? "" : "s", KV_FIX_POLICY_LABEL, name));
	return KV_OK;
}
