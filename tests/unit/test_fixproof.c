/*
 * test_fixproof.c - every group's fix proven by applying it
 * (analyze/change/fixproof.h).
 *
 * The restricted re-analysis (a model copy holding only the group's
 * VMIs, groups of disjoint VMIs sharing one) must give the numbers the
 * full one gives: on every sample, each group's change is applied to
 * the whole snapshot loaded again, analysed, and its fixes and worse
 * counted; they must equal what kv_fix_prove wrote.  And a fix whose
 * old reasoning claimed a VMI but that helps none once applied (a VMI
 * with claims of two storage classes: recreating one class's claims
 * leaves it disk-not-shared) becomes `none`, with the reason.  A
 * relabel-node fix is applied when a selector names the label (the
 * launcher pod of a migrated host-model VMI), else stays unproven.
 */
#include "kvtest.h"

#include <unistd.h>

#include "kvsnap.h"
#include "analyze/change/fixapply.h"
#include "analyze/change/fixproof.h"
#include "analyze/decide/groups.h"
#include "analyze/pipeline.h"
#include "analyze/read/limits.h"
#include "analyze/rules/place.h"

#include "kvbase.h"

static bool
in_code(const kv_analysis *b, size_t i, const char *code)
{
	for (size_t k = 0; k < b->vmis[i].ngroups; k++)
		if (strcmp(b->groups[b->vmis[i].groups[k]].code, code) == 0)
			return true;
	return false;
}

static bool
moves(enum kv_on_drain d)
{
	return d == DRAIN_MIGRATE || d == DRAIN_EXTERNAL;
}

/* fixproof.h's "worse", written out again here. */
static bool
worse(const kv_vmires *x, const kv_vmires *y)
{
	if (x->verdict == V_NOT_JUDGED || y->verdict == V_NOT_JUDGED)
		return false;
	if (y->vmi->nostart != NULL || (x->verdict == V_OK &&
	    y->verdict != V_OK) || (moves(x->on_drain) &&
	    !moves(y->on_drain) && y->on_drain != DRAIN_NONE))
		return true;
	for (size_t k = 0; k < y->nblockers; k++) {
		bool had = false;

		for (size_t j = 0; j < x->nblockers; j++)
			had |= x->blockers[j].rule == y->blockers[k].rule;
		if (!had)
			return true;
	}
	return false;
}

/* Group i of a0 (unproven) applied to the whole snapshot at path:
 * *fixes and *nworse as the full re-analysis counts them; false when
 * the fix gives no change. */
static bool
full_proof(const char *path, const kv_analysis *a0, size_t i,
    size_t *fixes, size_t *nworse)
{
	const kv_group *g = &a0->groups[i];
	bool *pick = xcalloc(a0->nvmis + 1, sizeof(bool));
	const char *why;
	size_t nch;
	kv_whatif w = {0};
	kv_limits lim;
	kv_err err = {0};
	kv_model *m = NULL;
	kv_analysis *b = NULL;
	kv_change *chs = kv_fix_changes(a0, g, pick, &nch, &why);
	bool ok = chs != NULL;

	*fixes = *nworse = 0;
	if (ok) {
		if (kv_limits_init(&lim, &err) != KV_OK ||
		    kv_model_load(path, &lim, &m, &err) != KV_OK)
			fail_msg("%s: %s", path, err.msg);
		/* a change that cannot be written fixes none */
		if (kv_whatif_apply(m, chs, nch, &w, &err) != KV_OK ||
		    kv_analyze(m, &b, &err) != KV_OK) {
			kv_analysis_free(b);
			b = NULL;
		}
		for (size_t k = 0; b != NULL && k < g->nvmis; k++) {
			size_t v = g->vmis[k];

			*fixes += !in_code(b, v, g->code);
			*nworse += pick[v] && worse(&a0->vmis[v], &b->vmis[v]);
		}
	}
	kv_whatif_free(&w);
	kv_analysis_free(b);
	kv_model_free(m);
	free(chs);
	free(pick);
	return ok;
}

/* The groups of the sample at path whose proof (in copies of at most
 * most VMIs, on up to threads threads) matches the full re-analysis;
 * how many copies were proven at once into *together. */
static size_t
check_sample(const char *path, size_t most, int threads, size_t *together)
{
	kv_model *m0, *m1;
	kv_analysis *a0, *a1;
	size_t n = 0, t;

	kvsnap_load_dir(path, &m0, &a0);
	kvsnap_load_dir(path, &m1, &a1);
	t = kv_fix_prove_parts(a1, most, threads);
	if (together != NULL)
		*together += t;
	assert_int_equal(a0->ngroups, a1->ngroups);
	for (size_t i = 0; i < a0->ngroups; i++) {
		const kv_fix *f = &a1->groups[i].fix;
		size_t fixes, nworse;

		if (!full_proof(path, a0, i, &fixes, &nworse)) {
			assert_false(f->proven && f->action != FIX_NONE);
			continue;
		}
		if (fixes != f->fixes || nworse != f->worse || !f->proven)
			fail_msg("%s %s (%s): restricted fixes %zu worse %zu, "
			    "full %zu, %zu", path, a1->groups[i].id,
			    a1->groups[i].code, f->fixes, f->worse, fixes,
			    nworse);
		assert_true(fixes > 0 || f->action == FIX_NONE);
		n++;
	}
	kv_analysis_free(a0);
	kv_analysis_free(a1);
	kv_model_free(m0);
	kv_model_free(m1);
	return n;
}

static const char *const samples[] = { "samples/mixed",
    "samples/pitfalls", "samples/deckhouse", "samples/capacity",
    "samples/hostile" };

static void
test_restricted_equals_full(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(samples) / sizeof(*samples); i++)
		n += check_sample(samples[i], 8192, 1, NULL);
	/* 28 groups of the samples give a change (tests/e2e/fixproof.py
	 * applies them too): 20 single-change fixes, relax-placement (5:
	 * capacity G3, hostile G6, mixed G6, pitfalls G12, G13),
	 * free-capacity (2: capacity G2, pitfalls G14) and a relabel from a
	 * node like it (pitfalls G15) */
	assert_int_equal(n, 28);
}

/* A group larger than a copy is proven in parts, their numbers summed:
 * in parts of one VMI (pitfalls G1 of 6 VMIs, G3 of 3, mixed G1 of 4
 * are split; a shared claim's or a node's change stays whole) every
 * group still gives the full re-analysis' numbers. */
static void
test_parts_equal_full(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(samples) / sizeof(*samples); i++)
		n += check_sample(samples[i], 1, 1, NULL);
	assert_int_equal(n, 28);
}

/* The copies that lend nothing are proven at once on two threads
 * (parts of one VMI: dozens of copies); every group still gives the
 * full re-analysis' numbers, and every fix the same words as when
 * proven one after another. */
static void
test_parts_on_threads(void **state)
{
	size_t n = 0, together = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(samples) / sizeof(*samples); i++) {
		kv_model *m1, *m2;
		kv_analysis *a1, *a2;

		n += check_sample(samples[i], 1, 2, &together);
		kvsnap_load_dir(samples[i], &m1, &a1);
		kvsnap_load_dir(samples[i], &m2, &a2);
		assert_int_equal(kv_fix_prove_parts(a1, 1, 1), 0);
		kv_fix_prove_parts(a2, 1, 2);
		for (size_t g = 0; g < a1->ngroups; g++) {
			const kv_fix *f1 = &a1->groups[g].fix;
			const kv_fix *f2 = &a2->groups[g].fix;

			assert_int_equal(f1->action, f2->action);
			assert_int_equal(f1->fixes, f2->fixes);
			assert_int_equal(f1->worse, f2->worse);
			assert_int_equal(f1->proven, f2->proven);
			assert_string_equal(f1->text ? f1->text : "",
			    f2->text ? f2->text : "");
		}
		kv_analysis_free(a1);
		kv_analysis_free(a2);
		kv_model_free(m1);
		kv_model_free(m2);
	}
	assert_int_equal(n, 28);
	assert_true(together >= 20);
}

static const kv_group *group_of_code(const kv_analysis *a,
    const char *code);

/* A copy reads the whole analysis' placement context and writes none of
 * it (copies proven at once on threads share it).  prod/web runs a named
 * model on w1, its root claim ReadWriteOnce, and its VirtualMachine's
 * template, which a restart applies, says host-model: the whole analysis
 * never asks which targets lack w1's vmx-* labels (no nested guest on
 * w1); the claim's copy, where web restarts on the new claim as
 * host-model on a vmx node, does, and builds that entry in its own
 * table, not in the lender's (two threads building it there at once
 * read it half made). */
static void
test_lender_place_unwritten(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	json_t *pvc = kvsnap_find(s, "persistentvolumeclaims", "", "web-root");
	char *dir;
	kv_model *m;
	kv_analysis *a;
	const kv_group *g;
	size_t w1 = 0;

	(void)state;
	kvj_setj(pvc, "spec.accessModes", "[\"ReadWriteOnce\"]");
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadWriteOnce\"]");
	kvj_sets(vmi(s), "spec.domain.cpu.model", "Haswell-noTSX");
	kvsnap_addj(s, "virtualmachines", "kubevirt.io", "{\"apiVersion\": "
	    "\"kubevirt.io/v1\", \"kind\": \"VirtualMachine\", \"metadata\": "
	    "{\"name\": \"web\", \"namespace\": \"prod\", \"uid\": "
	    "\"uid-vm-web\"}, \"spec\": {\"runStrategy\": \"Always\", "
	    "\"template\": {\"spec\": {\"domain\": {\"cpu\": {\"model\": "
	    "\"host-model\", \"cores\": 2}, \"memory\": {\"guest\": "
	    "\"2Gi\"}}}}}, \"status\": {\"conditions\": [{\"type\": "
	    "\"RestartRequired\", \"status\": \"True\"}]}}");
	dir = kvsnap_write(s);
	kvsnap_load_dir(dir, &m, &a);
	while (strcmp(m->nodes[w1].name, "w1") != 0)
		w1++;
	g = group_of_code(a, "disk-not-shared");
	assert_int_equal(g->fix.action, FIX_RECREATE_CLAIM_RWX);
	assert_int_equal(a->place->vmx[w1].nwords, 0);
	kv_fix_prove(a);
	assert_true(g->fix.proven);
	assert_int_equal(g->fix.fixes, 1);
	assert_int_equal(a->place->vmx[w1].nwords, 0);
	kv_analysis_free(a);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	kvsnap_free(s);
}

/* The image-digest fixes (pitfalls G4, G5) write the image IDs of
 * their launcher pods in the copy; the model's pods keep theirs: each
 * pod's array and every ID in it as before the proof. */
static void
test_pods_given_back(void **state)
{
	kv_model *m;
	kv_analysis *a;
	const kv_imageid **arr;
	const char **ids;
	size_t nids = 0, k = 0;

	(void)state;
	kvsnap_load_dir("samples/pitfalls", &m, &a);
	arr = xcalloc(m->npods + 1, sizeof(*arr));
	for (size_t i = 0; i < m->npods; i++) {
		arr[i] = m->pods[i].imageids;
		nids += m->pods[i].nimageids;
	}
	ids = xcalloc(nids + 1, sizeof(*ids));
	for (size_t i = 0; i < m->npods; i++)
		for (size_t j = 0; j < m->pods[i].nimageids; j++)
			ids[k++] = m->pods[i].imageids[j].image_id;
	kv_fix_prove(a);
	assert_string_equal(a->groups[3].code, "containerdisk-config-digest");
	assert_true(a->groups[3].fix.proven);
	assert_int_equal(a->groups[3].fix.fixes, 1);
	assert_int_equal(a->groups[4].fix.fixes, 1);
	k = 0;
	for (size_t i = 0; i < m->npods; i++) {
		assert_ptr_equal(m->pods[i].imageids, arr[i]);
		for (size_t j = 0; j < m->pods[i].nimageids; j++)
			assert_ptr_equal(m->pods[i].imageids[j].image_id,
			    ids[k++]);
	}
	free(ids);
	free(arr);
	kv_analysis_free(a);
	kv_model_free(m);
}

/* The claim changes of G6 and G7 (recreate-claim-rwx) are written in
 * the model's claims while their copy lives: every claim is given back
 * as it was (fixcopy.c lend_claims). */
static void
test_claims_given_back(void **state)
{
	kv_model *m;
	kv_analysis *a;
	kv_pvc *was;
	size_t nrwo = 0;

	(void)state;
	kvsnap_load_dir("samples/pitfalls", &m, &a);
	was = xcalloc(m->npvcs + 1, sizeof(kv_pvc));
	memcpy(was, m->pvcs, m->npvcs * sizeof(kv_pvc));
	kv_fix_prove(a);
	for (size_t g = 5; g <= 6; g++) {
		assert_string_equal(a->groups[g].code, "disk-not-shared");
		assert_true(a->groups[g].fix.proven);
		assert_int_equal(a->groups[g].fix.fixes, 1);
	}
	for (size_t i = 0; i < m->npvcs; i++) {
		assert_ptr_equal(m->pvcs[i].storage_class,
		    was[i].storage_class);
		assert_int_equal(m->pvcs[i].modes, was[i].modes);
		assert_ptr_equal(m->pvcs[i].volume, was[i].volume);
	}
	for (size_t i = 0; i < m->npvcs; i++)
		nrwo += was[i].modes != AM_RWX;
	assert_true(nrwo >= 2);		/* the two the fixes recreate */
	free(was);
	kv_analysis_free(a);
	kv_model_free(m);
}

/* ---- a fix the old reasoning claimed, which helps none ------------------- */

/* prod/web with its root claim RWO Block on ceph-rbd (RBD serves RWX
 * Block) and a second claim, RWO Filesystem, on nfs-csi. */
static void
two_classes(kvsnap *s)
{
	json_t *pvc = kvsnap_find(s, "persistentvolumeclaims", "", "web-root");

	kvj_setj(pvc, "spec.accessModes", "[\"ReadWriteOnce\"]");
	kvj_setj(vmi(s), "status.volumeStatus[0].persistentVolumeClaimInfo."
	    "accessModes", "[\"ReadWriteOnce\"]");
	kvsnap_addj(s, "storageclasses", "storage.k8s.io", "{\"apiVersion\": "
	    "\"storage.k8s.io/v1\", \"kind\": \"StorageClass\", \"metadata\": "
	    "{\"name\": \"nfs-csi\"}, \"provisioner\": \"nfs.csi.k8s.io\"}");
	kvsnap_addj(s, "persistentvolumeclaims", "", "{\"apiVersion\": \"v1\","
	    "\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": "
	    "\"web-data\", \"namespace\": \"prod\"}, \"spec\": {\"accessModes\":"
	    " [\"ReadWriteOnce\"], \"storageClassName\": \"nfs-csi\", "
	    "\"volumeMode\": \"Filesystem\"}, \"status\": {\"phase\": "
	    "\"Bound\"}}");
	add_disk(s, "data", "{\"name\": \"data\", \"persistentVolumeClaim\": "
	    "{\"claimName\": \"web-data\"}}");
	kvj_pushj(vmi(s), "status.volumeStatus", "{\"name\": \"data\", "
	    "\"target\": \"vdb\", \"persistentVolumeClaimInfo\": {\"claimName\":"
	    " \"web-data\", \"accessModes\": [\"ReadWriteOnce\"], "
	    "\"volumeMode\": \"Filesystem\"}}");
}

static void
test_helps_none_becomes_none(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	char *dir;
	kv_model *m;
	kv_analysis *a;
	size_t n = 0;

	(void)state;
	two_classes(s);
	dir = kvsnap_write(s);
	kvsnap_load_dir(dir, &m, &a);
	/* before the proof: two groups, each claiming its VMI */
	for (size_t i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i].code, "disk-not-shared") == 0) {
			assert_int_equal(a->groups[i].fix.action,
			    FIX_RECREATE_CLAIM_RWX);
			assert_int_equal(a->groups[i].fix.fixes, 1);
			n++;
		}
	assert_int_equal(n, 2);
	kv_fix_prove(a);
	for (size_t i = 0; i < a->ngroups; i++) {
		const kv_group *g = &a->groups[i];
		const char *other = strcmp(g->id, "G1") == 0 ? "G2" : "G1";

		if (strcmp(g->code, "disk-not-shared") != 0)
			continue;
		assert_int_equal(g->fix.action, FIX_NONE);
		assert_int_equal(g->fix.fixes, 0);
		assert_null(g->fix.value);
		assert_true(g->fix.proven);
		assert_non_null(strstr(g->fix.text, "No fix offered: "
		    "recreate-claim-rwx "));
		assert_non_null(strstr(g->fix.text, "every one is still "
		    "disk-not-shared"));
		assert_non_null(strstr(g->fix.text, other));
	}
	kv_analysis_free(a);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	kvsnap_free(s);
}

/* ---- a claim other VMIs use too ---------------------------------------- */

/* web's claim recreated for web alone: prod/twin, which uses the same
 * claim, is marked as sharing it, moves to the new claim and restarts
 * too (a recreated claim is a new PVC). */
static void
test_claim_sharers(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	json_t *twin;
	char *dir;
	kv_model *m;
	kv_analysis *a;
	bool *pick, *shared;
	kv_whatif w = {0};
	kv_err err = {0};
	kv_change ch;
	size_t web, tw;

	(void)state;
	two_classes(s);
	twin = json_deep_copy(vmi(s));
	kvj_sets(twin, "metadata.name", "twin");
	kvj_sets(twin, "metadata.uid", "uid-twin");
	kvsnap_add(s, VMIS, twin);
	dir = kvsnap_write(s);
	kvsnap_load_dir(dir, &m, &a);
	for (web = 0; strcmp(m->vmis[web].name, "web") != 0; web++)
		;
	for (tw = 0; strcmp(m->vmis[tw].name, "twin") != 0; tw++)
		;
	pick = xcalloc(m->nvmis + 1, sizeof(bool));
	shared = xcalloc(m->nvmis + 1, sizeof(bool));
	pick[web] = true;
	ch = (kv_change){ .kind = CH_CLAIM_RWX, .value = "nfs-csi",
	    .count = 1, .scope = SC_PICK, .pick = pick,
	    .subject = "prod/web-data" };
	assert_int_equal(kv_whatif_claim_sharers(m, &ch, shared), 1);
	assert_true(shared[tw]);
	assert_false(shared[web]);
	assert_int_equal(kv_whatif_apply(m, &ch, 1, &w, &err), KV_OK);
	assert_int_equal(w.restarts, 2);
	assert_non_null(strstr(w.notes[0], "1 claim of 2 VMIs (1 outside "
	    "the change's scope), 2 running VMIs stop for it"));
	kv_whatif_free(&w);
	free(pick);
	free(shared);
	kv_analysis_free(a);
	kv_model_free(m);
	kvsnap_rmtree(dir);
	free(dir);
	kvsnap_free(s);
}

/* ---- relabel-node with the value a selector names ------------------------ */

/* w1 without its host-model-cpu label; with `named` the launcher pod
 * of prod/web (a migration target pod) selects it; with `alone` w1 has a
 * CPU feature label no other node has (no node like it). */
static kv_analysis *
relabel_run(bool named, bool alone, kv_model **m, char **dirp)
{
	kvsnap *s = kvsnap_copy(base);
	kv_analysis *a;
	char *dir;

	kvj_key(node(s, "w1"), "metadata.labels",
	    "host-model-cpu." DOM "/Skylake-Client-IBRS", NULL);
	if (alone)
		kvj_key(node(s, "w1"), "metadata.labels",
		    "cpu-feature." DOM "/only-here", "true");
	if (named)
		kvj_key(pod(s), "spec.nodeSelector",
		    "host-model-cpu." DOM "/Skylake-Client-IBRS", "true");
	dir = kvsnap_write(s);
	kvsnap_load_dir(dir, m, &a);
	kv_fix_prove(a);
	*dirp = dir;
	kvsnap_free(s);
	return a;
}

static void
rm_dir(char *dir)
{
	kvsnap_rmtree(dir);
	free(dir);
}

static const kv_group *
group_of_code(const kv_analysis *a, const char *code)
{
	for (size_t i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i].code, code) == 0)
			return &a->groups[i];
	fail_msg("no group %s", code);
	return NULL;
}

static void
test_relabel_proven(void **state)
{
	kv_model *m;
	char *dir;
	kv_analysis *a = relabel_run(true, false, &m, &dir);
	const kv_group *g = group_of_code(a,
	    "source-host-model-label-missing");
	bool *pick = xcalloc(a->nvmis + 1, sizeof(bool));
	kv_change *ch;
	const char *why;
	size_t fixes, nworse, nch;

	(void)state;
	assert_int_equal(g->fix.action, FIX_RELABEL_NODE);
	assert_true(g->fix.proven);
	assert_int_equal(g->fix.fixes, 1);
	assert_int_equal(g->fix.worse, 0);
	assert_non_null(ch = kv_fix_changes(a, g, pick, &nch, &why));
	assert_int_equal(nch, 1);
	assert_int_equal(ch->kind, CH_NODE_LABEL);
	assert_string_equal(ch->value,
	    "host-model-cpu." DOM "/Skylake-Client-IBRS=true");
	assert_string_equal(ch->subject, "w1");
	free(ch);
	/* the whole snapshot relabelled says the same */
	assert_true(full_proof(dir, a, (size_t)(g - a->groups), &fixes,
	    &nworse));
	assert_int_equal(fixes, 1);
	assert_int_equal(nworse, 0);
	free(pick);
	kv_analysis_free(a);
	kv_model_free(m);
	rm_dir(dir);
}

/* No selector names the value, but w2 has w1's CPU feature labels and
 * a host-model label: the fix is applied with w2's, and says so. */
static void
test_relabel_peer(void **state)
{
	kv_model *m;
	char *dir;
	kv_analysis *a = relabel_run(false, false, &m, &dir);
	const kv_group *g = group_of_code(a,
	    "source-host-model-label-missing");

	(void)state;
	assert_int_equal(g->fix.action, FIX_RELABEL_NODE);
	assert_true(g->fix.proven);
	assert_int_equal(g->fix.fixes, 1);
	assert_non_null(strstr(g->fix.text, "(applied assuming w1's host "
	    "model is "));
	assert_non_null(strstr(g->fix.text, "Skylake-Client-IBRS: the two "
	    "have the same CPU feature labels)"));
	kv_analysis_free(a);
	kv_model_free(m);
	rm_dir(dir);
}

/* No selector names it and no node has w1's CPU labels: unproven. */
static void
test_relabel_unknown(void **state)
{
	kv_model *m;
	char *dir;
	kv_analysis *a = relabel_run(false, true, &m, &dir);
	const kv_group *g = group_of_code(a,
	    "source-host-model-label-missing");

	(void)state;
	assert_int_equal(g->fix.action, FIX_RELABEL_NODE);
	assert_false(g->fix.proven);
	assert_non_null(strstr(g->fix.text, "kvscope cannot apply this fix "
	    "to prove it: the label's value is the node's own"));
	kv_analysis_free(a);
	kv_model_free(m);
	rm_dir(dir);
}

/* A change of nodes builds its copy's own node phases and reaches every
 * VMI of the change: its batch is proven alone, never beside another
 * (the copies at once hold what one held).  w1 and w2 without their
 * host-model-cpu label, prod/web on w1 and prod/twin on w2, each
 * launcher pod selecting it: two relabel fixes, proven, neither beside
 * another copy. */
static void
test_node_changes_alone(void **state)
{
	kvsnap *s = kvsnap_copy(base);
	json_t *twin = json_deep_copy(vmi(s)), *tpod = json_deep_copy(pod(s));
	kv_model *m;
	kv_analysis *a;
	char *dir;
	size_t nrelabel = 0;

	(void)state;
	for (int i = 1; i <= 2; i++)
		kvj_key(node(s, i == 1 ? "w1" : "w2"), "metadata.labels",
		    "host-model-cpu." DOM "/Skylake-Client-IBRS", NULL);
	kvj_key(pod(s), "spec.nodeSelector",
	    "host-model-cpu." DOM "/Skylake-Client-IBRS", "true");
	kvj_sets(twin, "metadata.name", "twin");
	kvj_sets(twin, "metadata.uid", "uid-twin");
	kvj_sets(twin, "status.nodeName", "w2");
	kvj_key(twin, "metadata.labels", "kubevirt.io/nodeName", "w2");
	kvsnap_add(s, VMIS, twin);
	kvj_sets(tpod, "metadata.name", "virt-launcher-twin-abcde");
	kvj_key(tpod, "metadata.labels", "kubevirt.io/created-by", "uid-twin");
	kvj_key(tpod, "metadata.labels", "vm.kubevirt.io/name", "twin");
	kvj_key(tpod, "metadata.annotations", "kubevirt.io/domain", "twin");
	kvj_sets(tpod, "spec.nodeName", "w2");
	kvj_key(tpod, "spec.nodeSelector",
	    "host-model-cpu." DOM "/Skylake-Client-IBRS", "true");
	kvsnap_add(s, "pods", "", tpod);
	dir = kvsnap_write(s);
	kvsnap_load_dir(dir, &m, &a);
	/* drain-block's two VMIs in two parts, at once; each relabel
	 * alone after them */
	assert_int_equal(kv_fix_prove_parts(a, 1, 2), 2);
	for (size_t i = 0; i < a->ngroups; i++)
		nrelabel += a->groups[i].fix.action == FIX_RELABEL_NODE &&
		    a->groups[i].fix.proven;
	assert_int_equal(nrelabel, 2);
	kv_analysis_free(a);
	kv_model_free(m);
	rm_dir(dir);
	kvsnap_free(s);
}

static int
setup(void **state)
{
	(void)state;
	base = build_base();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	kvsnap_free(base);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restricted_equals_full),
		cmocka_unit_test(test_parts_equal_full),
		cmocka_unit_test(test_parts_on_threads),
		cmocka_unit_test(test_lender_place_unwritten),
		cmocka_unit_test(test_pods_given_back),
		cmocka_unit_test(test_claims_given_back),
		cmocka_unit_test(test_helps_none_becomes_none),
		cmocka_unit_test(test_claim_sharers),
		cmocka_unit_test(test_relabel_proven),
		cmocka_unit_test(test_relabel_peer),
		cmocka_unit_test(test_relabel_unknown),
		cmocka_unit_test(test_node_changes_alone),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
