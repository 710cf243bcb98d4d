/*
 * test_harvester.c - Harvester's three paths off a node, on the base
 * cluster of kvbase.h given Harvester's server-version setting: the
 * Migrate action's rows by release (the verdict), `kubectl drain`
 * (onDrain, which none of the action's checks reach) and maintenance
 * mode's row (harvester-maintenance) by release.  Sources in
 * analyze/harvester/checks.c and maintenance.c.
 */
#include "kvtest.h"

#include "kvsnap.h"
#include "analyze/rules/rule.h"

#include "kvbase.h"
#include "kvrules.h"
#include "kvmut.h"

static const char *release;	/* the server-version of the next run */

static void
harvester(kvsnap *s)
{
	char *j = xasprintf("{\"apiVersion\": \"harvesterhci.io/v1beta1\", "
	    "\"kind\": \"Setting\", \"metadata\": {\"name\": "
	    "\"server-version\"}, \"value\": \"%s\"}", release);

	kvsnap_addj(s, "settings", "harvesterhci.io", j);
	free(j);
}

/* A read-only cloud-init CD-ROM: KubeVirt migrates it (no block
 * migration), Harvester's Migrate action refuses it from v1.1.2. */
static void
hv_cdrom(kvsnap *s)
{
	harvester(s);
	m_cloudinit_cdrom(s);
}

static kvres
run_at(const char *rel, mutation mut)
{
	release = rel;
	return run(mut);
}

/* The Migrate action gates the verdict by release; a drain still
 * migrates the VM (before: onDrain block and eviction-blocks-drain). */
static void
test_migrate_action_not_drain(void **state)
{
	kvres r = run_at("v1.1.1", hv_cdrom);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_jstr(r.findings, "snapshot.flavor", "harvester");
	assert_verdict(v, "ok");
	assert_codes(v, "blockers", "");
	kvres_free(&r);
	r = run_at("v1.1.2", hv_cdrom);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "blocked");
	assert_codes(v, "blockers", "harvester-cdrom-containerdisk");
	assert_string_equal(message(v, "harvester-cdrom-containerdisk"),
	    "Harvester v1.1.2's Migrate action refuses: the VM has a CD-ROM "
	    "or container disk (CD-ROM disk cloudinit), which must be "
	    "ejected or removed before migration");
	assert_jstr(v, "onDrain", "migrate");
	assert_codes(v, "warnings", "");
	kvres_free(&r);
	r = run_at("v1.8.0", hv_cdrom);
	v = kvres_vmi(&r, WEB);
	assert_verdict(v, "ok");
	kvres_free(&r);
}

/* Pinned to w1 by its nodeSelector: maintenance mode's scheduling check
 * reads the nodeSelector from v1.4.0 (v1.3.2: required affinity only). */
static void
hv_pinned(kvsnap *s)
{
	harvester(s);
	kvj_setj(vmi(s), "spec.nodeSelector",
	    "{\"kubernetes.io/hostname\": \"w1\"}");
	kvj_label(node(s, "w1"), "kubernetes.io/hostname", "w1");
	kvj_label(node(s, "w2"), "kubernetes.io/hostname", "w2");
}

static void
test_maintenance_pinned(void **state)
{
	kvres r = run_at("v1.3.2", hv_pinned);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_false(has_code(v, "warnings", "harvester-maintenance"));
	kvres_free(&r);
	r = run_at("v1.4.0", hv_pinned);
	v = kvres_vmi(&r, WEB);
	assert_string_equal(message(v, "harvester-maintenance"),
	    "Harvester v1.4.0's maintenance mode lists the VM as not "
	    "migratable (NodeSchedulingRequirementsNotMet: no other "
	    "schedulable node meets its node affinity or node selector): "
	    "maintenance of w1 needs Force, which stops it (runStrategy "
	    "Halted) before the drain");
	kvres_free(&r);
}

static void
hv_unmigratable(kvsnap *s)
{
	harvester(s);
	set_cond(s, "False", "HostDeviceNotLiveMigratable", "host device");
}

static void
hv_strategy(kvsnap *s)
{
	harvester(s);
	kvj_label(vmi(s), "harvesterhci.io/maintain-mode-strategy",
	    "ShutdownAndRestartAfterDisable");
}

static void
hv_evict_none(kvsnap *s)
{
	harvester(s);
	m_evict_none(s);
}

static void
hv_hostdev(kvsnap *s)
{
	harvester(s);
	m_hostdev(s);
}

/* The other checks of maintenance mode, each at a release that has it
 * and one that has not. */
static void
test_maintenance_checks(void **state)
{
	kvres r = run_at("v1.3.2", hv_unmigratable);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_message_has(v, "harvester-maintenance", "not migratable "
	    "(HostDeviceNotLiveMigratable): maintenance of w1 needs Force");
	kvres_free(&r);
	r = run_at("v1.4.0", hv_strategy);
	assert_string_equal(message(kvres_vmi(&r, WEB),
	    "harvester-maintenance"), "Harvester v1.4.0's maintenance mode "
	    "of w1 stops the VM before the drain (label harvesterhci.io/"
	    "maintain-mode-strategy=ShutdownAndRestartAfterDisable), "
	    "whatever the drain would do");
	kvres_free(&r);
	r = run_at("v1.3.2", hv_strategy);
	assert_false(has_code(kvres_vmi(&r, WEB), "warnings",
	    "harvester-maintenance"));
	kvres_free(&r);
	/* v1.1.1: a kubevirt.io/drain taint, no eviction: strategy None
	 * keeps running; v1.1.2 drains (onDrain shutdown, no row) */
	r = run_at("v1.1.1", hv_evict_none);
	assert_message_has(kvres_vmi(&r, WEB), "harvester-maintenance",
	    "nothing evicts this one (evictionStrategy None), and the "
	    "maintenance of w1 never completes");
	kvres_free(&r);
	r = run_at("v1.1.2", hv_evict_none);
	assert_false(has_code(kvres_vmi(&r, WEB), "warnings",
	    "harvester-maintenance"));
	kvres_free(&r);
	r = run_at("v1.2.0", hv_hostdev);
	assert_message_has(kvres_vmi(&r, WEB), "harvester-maintenance",
	    "asks to power the VM off (PCI devices attached)");
	kvres_free(&r);
	r = run_at("v1.2.0", hv_cdrom);
	assert_message_has(kvres_vmi(&r, WEB), "harvester-maintenance",
	    "asks to detach the CD-ROM or containerDisk");
	kvres_free(&r);
	r = run_at("v1.4.0", hv_cdrom);	/* listed, Force stops it */
	assert_message_has(kvres_vmi(&r, WEB), "harvester-maintenance",
	    "(CDRomOrContainerDiskPresent: a CD-ROM or container disk)");
	kvres_free(&r);
	r = run_at("v1.8.0", hv_cdrom);	/* no longer listed */
	assert_false(has_code(kvres_vmi(&r, WEB), "warnings",
	    "harvester-maintenance"));
	kvres_free(&r);
}

/* Plain KubeVirt: no Harvester row runs. */
static void
test_plain_kubevirt(void **state)
{
	kvres r = run(m_cloudinit_cdrom);
	json_t *v = kvres_vmi(&r, WEB);

	(void)state;
	assert_verdict(v, "ok");
	assert_codes(v, "warnings", "");
	assert_true(kv_rule_find("harvester-device")->flags &
	    RULE_ACTION_SCOPED);
	assert_int_equal(kv_rule_find("harvester-maintenance")->severity,
	    SEV_WARNING);
	kvres_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrate_action_not_drain),
		cmocka_unit_test(test_maintenance_pinned),
		cmocka_unit_test(test_maintenance_checks),
		cmocka_unit_test(test_plain_kubevirt),
	};

	return cmocka_run_group_tests_name("harvester", tests, group_setup,
	    group_teardown);
}
