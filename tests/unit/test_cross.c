/*
 * test_cross.c - kvscope crosscheck's answers (analyze/crosscheck/
 * crosscheck.h) on two copies of the base cluster of kvbase.h (prod/web,
 * host-model on the Intel twin w1, an RWX claim of class ceph-rbd, a
 * multus network vlan10), both with the gate DecentralizedLiveMigration
 * and the NetworkAttachmentDefinition prod/vlan10 unless a test edits
 * them: live to w2 (w1 of TARGET has the source node's hostname, which a
 * decentralized target pod excludes), cold when TARGET is too old or has
 * only the AMD node, no without the storage class or the NAD, and the
 * maps that mend them.
 */
#include "kvtest.h"

#include "kvsnap.h"
#include "analyze/crosscheck/crosscheck.h"
#include "analyze/read/limits.h"

#include "kvbase.h"

#define NADS "network-attachment-definitions", "k8s.cni.cncf.io"

static kvsnap *
side(void)
{
	kvsnap *s = build_base();
	json_t *kv = kvsnap_find(s, KVS, "kubevirt");

	(void)base;	/* kvbase.h's, for the rule tests */
	kvj_setj(kv, "spec.configuration.developerConfiguration.featureGates",
	    "[\"DecentralizedLiveMigration\"]");
	kvsnap_addj(s, NADS, "{\"apiVersion\": \"k8s.cni.cncf.io/v1\", "
	    "\"kind\": \"NetworkAttachmentDefinition\", \"metadata\": "
	    "{\"name\": \"vlan10\", \"namespace\": \"prod\"}}");
	return s;
}

/* The cross-check of src against tgt (both freed) with o. */
static kv_cross *
cross(kvsnap *src, kvsnap *tgt, const kv_cross_opts *o)
{
	char *sd = kvsnap_write(src), *td = kvsnap_write(tgt);
	kv_limits lim;
	kv_err err = {0};
	kv_model *s = NULL, *t = NULL;
	kv_cross *x = NULL;

	assert_int_equal(kv_limits_init(&lim, &err), KV_OK);
	if (kv_model_load(td, &lim, &t, &err) != KV_OK ||
	    kv_model_load_shared(sd, &lim, t->strs, &s, &err) != KV_OK)
		fail_msg("load: %s", err.msg);
	if (kv_cross_run(s, t, sd, td, o, &x, &err) != KV_OK)
		fail_msg("crosscheck: %s", err.msg);
	kvsnap_rmtree(sd);
	kvsnap_rmtree(td);
	free(sd);
	free(td);
	kvsnap_free(src);
	kvsnap_free(tgt);
	return x;
}

static const kv_xvm *
web(const kv_cross *x)
{
	assert_int_equal(x->nvms, 1);
	assert_string_equal(x->vms[0].fullname, WEB);
	return &x->vms[0];
}

static bool
has_code(const kv_xvm *vm, const char *code)
{
	for (size_t i = 0; i < vm->nreasons; i++)
		if (strcmp(vm->reasons[i].code, code) == 0)
			return true;
	return false;
}

static void
test_live_not_own_hostname(void **state)
{
	kv_cross_opts o = {0};
	kv_cross *x;

	(void)state;
	x = cross(side(), side(), &o);
	assert_int_equal(web(x)->answer, XA_LIVE);
	assert_int_equal(web(x)->ntargets, 1);
	assert_string_equal(web(x)->targets[0], "w2");
	assert_string_equal(web(x)->source_node, "w1");
	assert_int_equal(x->counts[XA_LIVE], 1);
	assert_null(x->same_cluster);
	kv_cross_free(x);
}

static void
test_too_old_is_cold(void **state)
{
	kv_cross_opts o = {0};
	kvsnap *t = side();
	kv_cross *x;

	(void)state;
	kvj_sets(kvsnap_find(t, KVS, "kubevirt"),
	    "status.observedKubeVirtVersion", "v1.5.3");
	x = cross(side(), t, &o);
	assert_int_equal(web(x)->answer, XA_COLD);
	assert_string_equal(web(x)->reasons[0].code, "cross-version");
	assert_string_equal(web(x)->reasons[0].message, "TARGET runs KubeVirt "
	    "v1.5.3; migration between clusters came with v1.6.0");
	assert_false(x->side[1].decentralized);
	kv_cross_free(x);
}

static void
test_amd_only_is_cold(void **state)
{
	kv_cross_opts o = {0};
	kvsnap *t = side();
	kv_cross *x;

	(void)state;
	assert_true(kvsnap_remove(t, "nodes", "", "w1"));
	assert_true(kvsnap_remove(t, "nodes", "", "w2"));
	x = cross(side(), t, &o);
	assert_int_equal(web(x)->answer, XA_COLD);
	assert_true(has_code(web(x), "no-cpu-target"));
	assert_string_equal(web(x)->targets[0], "a1");
	kv_cross_free(x);
}

static void
test_class_and_nad(void **state)
{
	kv_cross_opts o = {0};
	char *scmap[] = { "ceph-rbd=fast" };
	kvsnap *t = side();
	kv_cross *x;

	(void)state;
	assert_true(kvsnap_remove(t, NADS, "vlan10"));
	kvj_sets(kvsnap_find(t, "storageclasses", "storage.k8s.io",
	    "ceph-rbd"), "metadata.name", "fast");
	x = cross(side(), kvsnap_copy(t), &o);
	assert_int_equal(web(x)->answer, XA_NO);
	assert_true(has_code(web(x), "cross-storage-class"));
	assert_true(has_code(web(x), "cross-network"));
	kv_cross_free(x);
	kvsnap_addj(t, NADS, "{\"apiVersion\": \"k8s.cni.cncf.io/v1\", "
	    "\"kind\": \"NetworkAttachmentDefinition\", \"metadata\": "
	    "{\"name\": \"other\", \"namespace\": \"prod\"}}");
	o.scmap = scmap;
	o.nscmap = 1;
	o.netmap = (char *[]){ "vlan10=other" };
	o.nnetmap = 1;
	x = cross(side(), t, &o);
	assert_int_equal(web(x)->answer, XA_LIVE);
	assert_int_equal(web(x)->nreasons, 0);
	kv_cross_free(x);
}

static void
test_map(void **state)
{
	const char *rows[] = { "a=b", "ab=c" };
	char buf[16];

	(void)state;
	assert_string_equal(kv_cross_map(rows, 2, "a", buf, sizeof(buf)),
	    "b");
	assert_string_equal(kv_cross_map(rows, 2, "ab", buf, sizeof(buf)),
	    "c");
	assert_string_equal(kv_cross_map(rows, 2, "abc", buf, sizeof(buf)),
	    "abc");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_not_own_hostname),
		cmocka_unit_test(test_too_old_is_cold),
		cmocka_unit_test(test_amd_only_is_cold),
		cmocka_unit_test(test_class_and_nad),
		cmocka_unit_test(test_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
