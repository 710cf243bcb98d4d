/*
 * test_drain.c - drains simulated (drain.h): the placement order and the
 * room each placement uses up ("the third VMI finds no room"), the nodes
 * drained together being no targets for each other, and the rolling plan
 * of a pool of three nodes where only one order works.  Snapshots are
 * built in a temporary directory; room is set on the analysis (capacity
 * known) as the capacity loader would set it.
 */
#include "kvtest.h"
#include "kvsnap.h"

#include "analyze/decide/drain.h"

#define VMIS "virtualmachineinstances", "kubevirt.io"
#define GI (1024LL * 1024 * 1024)

#define FEAT "abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr " \
	"lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 " \
	"syscall xsave"

static void
twin(kvsnap *s, const char *name, const char *labels)
{
	const kvcpu cpu = { "Intel", "Skylake-Client-IBRS", FEAT " vmx",
	    "vmx", "Nehalem Haswell-noTSX",
	    "Nehalem Haswell-noTSX Skylake-Client-IBRS" };
	json_t *n = kvsnap_kvnode(s, name, &cpu);
	char *copy = xstrdup(labels), *save = NULL;

	for (char *w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		kvj_label(n, w, "yes");
	free(copy);
}

/* A running host-model VMI on node, with a nodeSelector key=yes (key may
 * be NULL) and a launcher pod of priority prio. */
static void
vm(kvsnap *s, const char *name, const char *node, const char *key,
    int prio)
{
	char *v = xasprintf("{\"apiVersion\": \"kubevirt.io/v1\", \"kind\": "
	    "\"VirtualMachineInstance\", \"metadata\": {\"name\": \"%s\", "
	    "\"namespace\": \"prod\", \"uid\": \"uid-%s\"}, \"spec\": {"
	    "\"evictionStrategy\": \"LiveMigrate\", \"domain\": {\"cpu\": "
	    "{\"model\": \"host-model\"}, \"resources\": {\"requests\": "
	    "{\"memory\": \"2Gi\"}}, \"devices\": {\"interfaces\": "
	    "[{\"name\": \"vlan\", \"bridge\": {}}]}}, \"networks\": "
	    "[{\"name\": \"vlan\", \"multus\": {\"networkName\": \"v\"}}]}, "
	    "\"status\": {\"phase\": \"Running\", \"nodeName\": \"%s\", "
	    "\"migrationMethod\": \"LiveMigration\", \"conditions\": "
	    "[{\"type\": \"LiveMigratable\", \"status\": \"True\"}]}}",
	    name, name, node);
	char *p = xasprintf("{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
	    "\"metadata\": {\"name\": \"virt-launcher-%s\", \"namespace\": "
	    "\"prod\", \"creationTimestamp\": \"2026-10-01T10:00:01Z\", "
	    "\"labels\": {\"kubevirt.io\": \"virt-launcher\", "
	    "\"kubevirt.io/created-by\": \"uid-%s\"}}, \"spec\": "
	    "{\"nodeName\": \"%s\", \"priority\": %d, \"containers\": [{"
	    "\"name\": \"compute\", \"image\": \"virt-launcher:v1.9.0\"}]}, "
	    "\"status\": {\"phase\": \"Running\"}}", name, name, node, prio);
	json_t *o = kvsnap_addj(s, VMIS, v);

	if (key != NULL)
		kvj_key(o, "spec.nodeSelector", key, "yes");
	kvsnap_addj(s, "pods", "", p);
	free(v);
	free(p);
}

static size_t
node_ix(const kv_analysis *a, const char *name)
{
	const kv_node *n = kv_model_node(a->m, name);

	assert_non_null(n);
	return (size_t)(n - a->m->nodes);
}

static kv_vmires *
res(const kvres *r, const char *name)
{
	return (kv_vmires *)kvres_vmires(r, name);
}

/* Room as the capacity loader would leave it: plenty of CPU and pods. */
static void
room(kvres *r, const char *node, int64_t gib)
{
	kv_nodeinfo *ni = &r->a->nodes[node_ix(r->a, node)];

	r->a->capacity_known = true;
	ni->free = (kv_res){ .cpu_millis = 32000, .memory = gib * GI,
	    .pods = 100 };
}

static void
need(kvres *r, const char *vmi, int64_t gib)
{
	/* kv_vmires.need points to a need that outlives it */
	static kv_res pool[64];
	static size_t next;
	kv_res *n = &pool[next++ % 64];

	*n = (kv_res){ .cpu_millis = 100, .memory = gib * GI, .pods = 1 };
	res(r, vmi)->need = n;
}

static const kv_drain_row *
row_of(const kv_drain *d, const kv_analysis *a, const char *vmi)
{
	for (size_t k = 0; k < d->nplan; k++)
		if (strcmp(a->vmis[d->plan[k].vmi].vmi->fullname, vmi) == 0)
			return &d->plan[k];
	fail_msg("no plan row for %s", vmi);
	return NULL;
}

static void
assert_row(const kv_analysis *a, const kv_drain *d, const char *vmi,
    enum kv_on_drain action, const char *target, const char *reason)
{
	const kv_drain_row *r = row_of(d, a, vmi);

	assert_string_equal(kv_on_drain_names[r->action],
	    kv_on_drain_names[action]);
	if (target == NULL)
		assert_true(r->target == SIZE_MAX);
	else
		assert_string_equal(a->m->nodes[r->target].name, target);
	if (reason == NULL)
		assert_null(r->reason);
	else
		assert_string_equal(r->reason, reason);
}

static kvres
three_on_w1(void)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	twin(s, "w1", "");
	twin(s, "w2", "");
	twin(s, "w3", "");
	vm(s, "a", "w1", NULL, 0);
	vm(s, "b", "w1", NULL, 0);
	vm(s, "c", "w1", NULL, 0);
	r = kvsnap_run(s);
	kvsnap_free(s);
	return r;
}

static const kv_drain *
drain_of(const kv_analysis *a, const char *node)
{
	for (size_t i = 0; i < a->ndrain; i++)
		if (strcmp(a->m->nodes[a->drain[i].node].name, node) == 0)
			return &a->drain[i];
	fail_msg("no drain entry for %s", node);
	return NULL;
}

/* findings.md: placed by priority, memory, name; each on the target with
 * the most free memory; each placement uses up room. */
static void
test_third_finds_no_room(void **state)
{
	kvres r = three_on_w1();
	const kv_drain *d;
	json_t *j;

	(void)state;
	assert_string_equal(kv_verdict_names[res(&r, "prod/a")->verdict],
	    "ok");
	room(&r, "w1", 0);
	room(&r, "w2", 6);
	room(&r, "w3", 4);
	need(&r, "prod/a", 4);
	need(&r, "prod/b", 3);
	need(&r, "prod/c", 3);
	kv_drain_analyze(r.a);
	d = drain_of(r.a, "w1");
	assert_row(r.a, d, "prod/a", DRAIN_MIGRATE, "w2", NULL);
	assert_row(r.a, d, "prod/b", DRAIN_MIGRATE, "w3", NULL);
	assert_row(r.a, d, "prod/c", DRAIN_BLOCK, NULL, "no-capacity");
	assert_int_equal(d->migrate, 2);
	assert_int_equal(d->block, 1);
	assert_int_equal(d->no_capacity, 1);
	assert_int_equal(d->nblocking, 1);
	assert_string_equal(d->blocking[0], "prod/c");
	j = kv_json_drain(r.a, d);
	assert_string_equal(json_string_value(json_object_get(j,
	    "capacity")), "known");
	assert_int_equal(json_integer_value(json_object_get(j,
	    "noCapacity")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "plan"), 2), "reason")), "no-capacity");
	json_decref(j);

	/* a higher priority goes first: c takes w2, a w3, b the rest of w2 */
	((kv_pod *)res(&r, "prod/c")->source_pod)->priority = 100;
	kv_drain_analyze(r.a);
	d = drain_of(r.a, "w1");
	assert_row(r.a, d, "prod/c", DRAIN_MIGRATE, "w2", NULL);
	assert_row(r.a, d, "prod/a", DRAIN_MIGRATE, "w3", NULL);
	assert_row(r.a, d, "prod/b", DRAIN_MIGRATE, "w2", NULL);
	assert_int_equal(d->no_capacity, 0);
	kvres_free(&r);
}

/* Equal room: the first node by name; capacity unknown: the first target,
 * room not used up. */
static void
test_ties_and_unknown_room(void **state)
{
	kvres r = three_on_w1();
	const kv_drain *d;

	(void)state;
	d = drain_of(r.a, "w1");
	assert_false(r.a->capacity_known);
	assert_row(r.a, d, "prod/a", DRAIN_MIGRATE, "w2", NULL);
	assert_row(r.a, d, "prod/c", DRAIN_MIGRATE, "w2", NULL);
	room(&r, "w2", 8);
	room(&r, "w3", 8);
	need(&r, "prod/a", 1);
	need(&r, "prod/b", 1);
	need(&r, "prod/c", 1);
	kv_drain_analyze(r.a);
	d = drain_of(r.a, "w1");
	/* a: w2 (tie, name); b: w3 (8 > 7); c: w2 (tie again) */
	assert_row(r.a, d, "prod/a", DRAIN_MIGRATE, "w2", NULL);
	assert_row(r.a, d, "prod/b", DRAIN_MIGRATE, "w3", NULL);
	assert_row(r.a, d, "prod/c", DRAIN_MIGRATE, "w2", NULL);
	kvres_free(&r);
}

/* kv_drain_stops (the proof's copies): only the nodes holding a VMI the
 * drain stops are drained, and that VMI's restart (here unknown, with
 * its reason) is what the drain of every node gives it. */
static void
test_stops_only(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;
	kv_vmires *d;
	size_t node;
	int restarts;
	const char *why;

	(void)state;
	twin(s, "w1", "");
	twin(s, "w2", "");
	twin(s, "w3", "");
	vm(s, "a", "w1", NULL, 0);
	vm(s, "b", "w1", NULL, 0);
	vm(s, "c", "w2", NULL, 0);
	vm(s, "d", "w2", NULL, 0);
	r = kvsnap_run(s);
	kvsnap_free(s);
	d = res(&r, "prod/d");
	d->on_drain = DRAIN_SHUTDOWN;
	kv_drain_analyze(r.a);
	assert_int_equal(r.a->ndrain, 2);
	/* no VirtualMachines: the restart is unknown, and says why */
	assert_int_equal(d->restarts, -1);
	assert_non_null(d->restart_why);
	node = d->restart_node;
	restarts = d->restarts;
	why = d->restart_why;
	d->restart_node = SIZE_MAX;
	d->restarts = -2;
	d->restart_why = NULL;
	kv_drain_stops(r.a);
	assert_int_equal(r.a->ndrain, 1);
	assert_string_equal(r.a->m->nodes[r.a->drain[0].node].name, "w2");
	assert_row(r.a, &r.a->drain[0], "prod/c", DRAIN_MIGRATE, "w1", NULL);
	assert_int_equal(d->restart_node, node);
	assert_int_equal(d->restarts, restarts);
	assert_ptr_equal(d->restart_why, why);
	kvres_free(&r);
}

/* check --drain: nodes drained together are no targets for each other. */
static void
test_drained_together(void **state)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kv_bits set;
	kv_drain *d;
	size_t n;
	double secs[2] = {0, 0};
	kvres r;

	(void)state;
	twin(s, "w1", "");
	twin(s, "w2", "only2");
	twin(s, "w3", "");
	vm(s, "a", "w1", NULL, 0);
	vm(s, "b", "w2", NULL, 0);
	vm(s, "c", "w1", "only2", 0);
	r = kvsnap_run(s);
	kvsnap_free(s);
	assert_row(r.a, drain_of(r.a, "w1"), "prod/a", DRAIN_MIGRATE, "w2",
	    NULL);
	assert_row(r.a, drain_of(r.a, "w1"), "prod/c", DRAIN_MIGRATE, "w2",
	    NULL);
	kv_bits_init(&set, r.a->m->nnodes);
	kv_bits_set(&set, node_ix(r.a, "w1"));
	kv_bits_set(&set, node_ix(r.a, "w2"));
	d = kv_drain_nodes(r.a, &set, &n, secs);
	assert_int_equal(n, 2);
	assert_row(r.a, &d[0], "prod/a", DRAIN_MIGRATE, "w3", NULL);
	assert_row(r.a, &d[0], "prod/c", DRAIN_BLOCK, NULL,
	    "no-placement-target");
	assert_row(r.a, &d[1], "prod/b", DRAIN_MIGRATE, "w3", NULL);
	assert_true(kv_drain_fails(d, n, true));
	assert_true(secs[1] > 0 && secs[0] <= secs[1]);
	kv_drain_list_free(d, n);
	kv_bits_free(&set);
	kvres_free(&r);
}

/*
 * Three nodes of 10 GiB where only one order works: a (3 GiB) on w2 may
 * go to w1 or w3, b (8 GiB) on w3 only to w2, c (7 GiB) on w1 only to w3.
 * Free: w1 3, w2 7, w3 2.  w2 first (a to w1, the only one with room),
 * then w3 (b to the emptied w2), then w1 (c to the emptied w3 first, the
 * larger, then a beside it: 3 GiB left there, 2 on w2).  Every other order
 * leaves b or c without room.
 */
static kvres
three_pool(void)
{
	kvsnap *s = kvsnap_new("kubevirt");
	kvres r;

	twin(s, "w1", "ta");
	twin(s, "w2", "tb");
	twin(s, "w3", "ta tc");
	vm(s, "a", "w2", "ta", 0);
	vm(s, "b", "w3", "tb", 0);
	vm(s, "c", "w1", "tc", 0);
	r = kvsnap_run(s);
	kvsnap_free(s);
	room(&r, "w1", 3);
	room(&r, "w2", 7);
	room(&r, "w3", 2);
	need(&r, "prod/a", 3);
	need(&r, "prod/b", 8);
	need(&r, "prod/c", 7);
	return r;
}

static void
test_only_one_order(void **state)
{
	static const char *const perms[6][3] = {
		{ "w1", "w2", "w3" }, { "w1", "w3", "w2" },
		{ "w2", "w1", "w3" }, { "w2", "w3", "w1" },
		{ "w3", "w1", "w2" }, { "w3", "w2", "w1" },
	};
	kvres r = three_pool();
	size_t works = 0, good = 6, order[3];
	kv_bits pool;
	kv_plan p;

	(void)state;
	assert_int_equal(res(&r, "prod/a")->targets.n, 2);
	assert_int_equal(res(&r, "prod/b")->targets.n, 1);
	for (size_t i = 0; i < 6; i++) {
		for (size_t k = 0; k < 3; k++)
			order[k] = node_ix(r.a, perms[i][k]);
		kv_plan_fixed(r.a, order, 3, 1, &p);
		if (p.block == 0) {
			works++;
			good = i;
		} else
			assert_int_equal(p.no_capacity, p.block);
		kv_plan_free(&p);
	}
	assert_int_equal(works, 1);
	assert_int_equal(good, 3);

	kv_bits_init(&pool, r.a->m->nnodes);
	kv_bits_fill(&pool);
	kv_plan_build(r.a, &pool, 1, &p);
	assert_int_equal(p.nsteps, 3);
	assert_string_equal(r.a->m->nodes[p.steps[0].nodes[0]].name, "w2");
	assert_string_equal(r.a->m->nodes[p.steps[1].nodes[0]].name, "w3");
	assert_string_equal(r.a->m->nodes[p.steps[2].nodes[0]].name, "w1");
	/* the rank put w1 (1 alternative, name) before w3: it had to wait */
	assert_int_equal(p.steps[1].deferred, 1);
	assert_int_equal(p.block, 0);
	assert_int_equal(p.migrate, 4);
	assert_row(r.a, &p.steps[0].drains[0], "prod/a", DRAIN_MIGRATE, "w1",
	    NULL);
	assert_row(r.a, &p.steps[1].drains[0], "prod/b", DRAIN_MIGRATE, "w2",
	    NULL);
	assert_row(r.a, &p.steps[2].drains[0], "prod/c", DRAIN_MIGRATE, "w3",
	    NULL);
	assert_row(r.a, &p.steps[2].drains[0], "prod/a", DRAIN_MIGRATE, "w3",
	    NULL);
	assert_false(kv_plan_fails(&p, false));
	kv_plan_free(&p);

	/* two at a time: w2 and w3 together leave b nowhere to go */
	kv_plan_build(r.a, &pool, 2, &p);
	assert_true(p.block > 0);
	assert_true(kv_plan_fails(&p, true));
	kv_plan_free(&p);
	kv_bits_free(&pool);
	kvres_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_third_finds_no_room),
		cmocka_unit_test(test_ties_and_unknown_room),
		cmocka_unit_test(test_stops_only),
		cmocka_unit_test(test_drained_together),
		cmocka_unit_test(test_only_one_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
