/*
 * load.h - the loader's state and what an object loader may use.
 *
 * load.c streams each snapshot member to the loader its resources.def row
 * names; the core's loaders (load_objects.c, load_vmi.c) and every
 * flavor's (kv_flavor.loaders, e.g. dvp/load.c) have the kv_object_fn
 * signature of flavor.h.  A flavor's loader sees only the functions below;
 * the struct is for the core's loaders.  Everything allocated here is
 * freed when loading ends; the model owns what the loaders put in it.
 */
#ifndef KV_LOAD_H
#define KV_LOAD_H

/* GLib's hash table, by pointer: the header needs no more of GLib
 * (its users include <glib.h>). */
typedef struct _GHashTable GHashTable;

#include "analyze/model/cpudb.h"
#include "analyze/model/flavor.h"
#include "analyze/model/jget.h"
#include "analyze/model/model.h"

typedef struct kv_load {
	kv_model *m;
	const kv_limits *lim;
	const char *file;	/* the member being read, interned */
	GHashTable *sets;	/* what -> (interned key -> seen_at) */
	size_t cap_nodes, cap_vmis, cap_pods, cap_pvcs, cap_pvs, cap_scs,
	    cap_ns, cap_pol, cap_vmims, cap_profiles, cap_vms, cap_nads,
	    cap_metrics;
	cpumap_builder *cpumap;
	size_t ncpumap;
	void *state[KV_NFLAVORS];	/* kv_load_state() */
	bool saw[KV_NFLAVORS];	/* a file of the flavor's API groups */
	size_t kv_vmis;		/* VMIs from the kubevirt.io file */
	struct loader *loaders;	/* resources.def rows with a loader */
} kv_load;

/* The model being loaded. */
kv_model *kv_load_model(kv_load *ld);
/* Flavor f's loader state: size zeroed bytes on the first call, the same
 * block after; freed when loading ends. */
void *kv_load_state(kv_load *ld, enum kv_flavor_id f, size_t size);
/* key (interned) must be new among the `what`s seen so far: a second one
 * is an error naming both items ("a second VMI named ..."). */
int kv_load_unique(kv_load *ld, jctx *c, const char *what, const char *key);

/* The loader resources.def names name (the core's or a flavor's), or
 * NULL; "none" is NULL. */
kv_object_fn kv_load_resolve(const char *name);

/* The core's object loaders (load_objects.c, load_vmi.c). */
int load_node(kv_load *ld, jctx *c, json_t *o);
int load_namespace(kv_load *ld, jctx *c, json_t *o);
int load_pod(kv_load *ld, jctx *c, json_t *o);
int load_pvc(kv_load *ld, jctx *c, json_t *o);
int load_sc(kv_load *ld, jctx *c, json_t *o);
int load_pv(kv_load *ld, jctx *c, json_t *o);
int load_storageprofile(kv_load *ld, jctx *c, json_t *o);
int load_datavolume(kv_load *ld, jctx *c, json_t *o);
int load_vmi(kv_load *ld, jctx *c, json_t *o);
/* What a VMI and a VirtualMachine's spec.template both hold (o is either
 * object): metadata labels and annotations, and the spec. */
int load_vmi_spec(jctx *c, json_t *o, kv_vmi *v);
int load_vmim(kv_load *ld, jctx *c, json_t *o);
/* Migration history and metrics (load_history.c): the migrationState at
 * base ("status.migrationState") into h; a VMIM's status; one item of
 * resources/vmimetrics.kvscope.io.json. */
int load_mighist(jctx *c, json_t *o, const char *base, kv_mighist *h);
int load_vmim_history(jctx *c, json_t *o, kv_vmim *v);
int load_vmimetrics(kv_load *ld, jctx *c, json_t *o);
int load_nad(kv_load *ld, jctx *c, json_t *o);
int load_vm(kv_load *ld, jctx *c, json_t *o);	/* load_vm.c */
int load_kubevirt(kv_load *ld, jctx *c, json_t *o);
int load_policy(kv_load *ld, jctx *c, json_t *o);
/* the distributions' version objects (load_distro.c) */
int load_hco(kv_load *ld, jctx *c, json_t *o);
int load_harvester_setting(kv_load *ld, jctx *c, json_t *o);

/* The resource facts of one pod (load_capacity.c), and the manifest's
 * pods scope ("all" | "launchers" | absent = launchers) into
 * m->pods_all; an error names the field. */
int load_pod_resources(kv_model *m, jctx *c, json_t *o, kv_pod *p);
/* A node's status.allocatable beyond cpu, memory and pods (kv_qty). */
int load_node_allocatable(jctx *c, json_t *o, kv_node *n);
/* Add the names VMIs would request (podreq.c) to m->resnames and sort
 * them, once every pod and VMI is loaded. */
void load_resnames_finish(kv_model *m);
int load_pods_scope(kv_model *m, const char *path, kv_err *err);

/* The placement facts (load_podaffinity.c) of a pod's or a VMI's spec:
 * required pod (anti-)affinity and topology spread. */
int load_pod_place(jctx *c, json_t *o, kv_podplace *p);

/* Shared by the core's loaders (load_objects.c). */
int load_tolerations(jctx *c, json_t *o, const char *path,
    kv_toleration **out, size_t *n);
int load_affinity(jctx *c, json_t *o, kv_affinity *aff);
/* The same, of the nodeSelectorTerms array at path. */
int load_affinity_at(jctx *c, json_t *o, const char *path,
    kv_affinity *aff);

#endif
