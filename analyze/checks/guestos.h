/*
 * guestos.h - the guest operating system a VMI runs, as clusters commonly
 * record it, and the minimum x86-64 psABI level that OS needs (the
 * guest-cpu-floor rule, findings.md "Warning codes").
 *
 * The OS comes from, first to last: the guest agent's status.guestOSInfo
 * (id, versionId), the vm.kubevirt.io/os annotation or label (common
 * templates), an os.template.kubevirt.io/<os> label, the preference name
 * the VMI was expanded with (kubevirt.io/preference-name or
 * kubevirt.io/cluster-preference-name, e.g. rhel.10), and for Deckhouse the
 * VirtualMachine's osType.  The one OS->level table is in guestos.c.
 * Returned strings are static or interned in the model: never free them.
 */
#ifndef KV_GUESTOS_H
#define KV_GUESTOS_H

#include "analyze/rules/analysis.h"

typedef struct kv_guestos {
	const char *family;	/* "RHEL", "AlmaLinux", ... (static) */
	int major;		/* major version */
	int level;		/* x86-64 level the OS needs (1..4) */
	const char *from;	/* where it was read ("status.guestOSInfo") */
	const char *value;	/* the value read there */
} kv_guestos;

/* The guest OS of r's VMI when the table knows its floor: true and *out
 * filled; false when no source names an OS of the table. */
bool kv_guest_os(const kv_analysis *a, const kv_vmires *r, kv_guestos *out);

/* The x86-64 level the VMI's effective CPU gives the guest: a named
 * model's level (with required features added, disabled ones removed),
 * the source node's level for host-model and host-passthrough; -1 when
 * unknown (model not in the CPU data, no source node). */
int kv_guest_cpu_level(const kv_analysis *a, const kv_vmires *r);

/* VMIs (running or not) whose guest OS needs a level above level. */
size_t kv_guests_above(const kv_analysis *a, int level);

#endif
