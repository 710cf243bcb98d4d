/*
 * model.h - the compact cluster model kvscope analyses.
 *
 * Loading (load.c) turns each API object into one of the structs below and
 * drops the jansson tree at once.  Every string is interned in the model's
 * table (kv_model.strs): equal strings are the same pointer, so compare
 * with ==, and never free one.  Arrays are owned by the model and released
 * by kv_model_free(); label lists are sorted by key.
 *
 * Only the fields the analysis reads are kept (rules-kubevirt.md §6).
 */
#ifndef KV_MODEL_H
#define KV_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/model/flavor.h"
#include "analyze/model/intern.h"
#include "analyze/model/labels.h"
#include "analyze/read/limits.h"
#include "analyze/read/manifest.h"

/*
 * Pod placement facts (the scheduler's InterPodAffinity and
 * PodTopologySpread inputs; podaffinity.h evaluates them).
 */
typedef struct kv_podsel {		/* a metav1.LabelSelector */
	bool set;			/* false: null, matches no pod */
	kv_labels match;		/* matchLabels */
	size_t nreqs;
	kv_nsreq *reqs;			/* matchExpressions: In, NotIn,
					   Exists, DoesNotExist */
	size_t nkeys;
	const char **keys;		/* matchLabelKeys, then
					   mismatchLabelKeys */
	size_t nmatch_keys;		/* how many are matchLabelKeys */
} kv_podsel;

typedef struct kv_podterm {		/* a required PodAffinityTerm */
	bool anti;			/* from podAntiAffinity */
	const char *topology_key;
	kv_podsel sel;			/* labelSelector */
	size_t nnamespaces;
	const char **namespaces;
	kv_podsel ns_sel;		/* namespaceSelector (set: {} = all) */
} kv_podterm;

typedef struct kv_spread {		/* a topologySpreadConstraint */
	int64_t max_skew;
	const char *topology_key;
	bool do_not_schedule;		/* whenUnsatisfiable DoNotSchedule */
	int64_t min_domains;		/* -1 unset */
	bool affinity_ignore;		/* nodeAffinityPolicy Ignore */
	bool taints_honor;		/* nodeTaintsPolicy Honor */
	kv_podsel sel;
} kv_spread;

typedef struct kv_podplace {
	size_t nterms;
	kv_podterm *terms;		/* required pod (anti-)affinity */
	size_t ndropped;		/* a what-if's: terms[nterms..
					   +ndropped) made preferred, kept
					   for the free */
	size_t nspreads;
	kv_spread *spreads;
} kv_podplace;

/* Release what a kv_podplace owns (load_podaffinity.c). */
void kv_podplace_free(kv_podplace *p);

/* A resource beyond CPU, memory and pods, as a node's status.allocatable
 * lists it or a pod requests it: an extended resource (device plugins:
 * devices.kubevirt.io/kvm, SR-IOV VFs, GPUs), hugepages-<size> (bytes) or
 * ephemeral-storage (bytes).  load_capacity.c fills them. */
typedef struct kv_qty {
	const char *name;		/* interned */
	int64_t value;
} kv_qty;

/* The distinct such resources the pods of one snapshot may request. */
#define KV_MAX_RESNAMES 32

typedef struct kv_node {
	const char *name;
	kv_labels labels;
	bool unschedulable;		/* spec.unschedulable */
	bool skip_labeller;		/* node-labeller skip-node annotation */
	size_t ntaints;
	kv_taint *taints;
	int64_t alloc_memory;		/* bytes; -1 when unknown */
	const char *kernel;		/* status.nodeInfo.kernelVersion */
	const char *os_image;		/* status.nodeInfo.osImage */
	int64_t alloc_cpu, alloc_pods;	/* status.allocatable cpu (millis)
					   and pods; -1 when unknown */
	size_t nalloc_ext;
	kv_qty *alloc_ext;		/* the rest of status.allocatable */
} kv_node;

enum kv_volkind {
	VOL_PVC, VOL_DATAVOLUME, VOL_HOSTDISK, VOL_CONTAINERDISK,
	VOL_LOCAL		/* emptyDisk, cloudInit*, configMap, ... */
};

typedef struct kv_volume {
	const char *name;
	enum kv_volkind kind;
	const char *claim;		/* PVC / DataVolume name */
	const char *image;		/* containerDisk image */
	bool hostdisk_shared;
	const char *source;		/* the volume's source key */
} kv_volume;

typedef struct kv_volstatus {
	const char *name;
	const char *claim;
	bool has_pvcinfo;
	bool rwx;
	const char *modes;		/* "ReadWriteOnce,ReadOnlyMany" */
} kv_volstatus;

typedef struct kv_disk {
	const char *name;
	bool cdrom;
	bool cdrom_readonly;		/* nil counts as read-only */
	bool lun_reservation;
} kv_disk;

enum kv_binding {
	BIND_NONE, BIND_MASQUERADE, BIND_BRIDGE, BIND_PASST, BIND_SRIOV,
	BIND_SLIRP, BIND_MACVTAP, BIND_PLUGIN, BIND_OTHER
};

/* The binding's key in an interface ("binding" for a plugin, "none",
 * "other"; template.c). */
extern const char *const kv_binding_names[BIND_OTHER + 1];

typedef struct kv_iface {
	const char *name;
	enum kv_binding binding;
	const char *plugin;		/* binding.name */
} kv_iface;

typedef struct kv_cpufeat {
	const char *name;
	const char *policy;		/* "" require force optional
					   disable forbid */
} kv_cpufeat;

/* Hyper-V features that may add node selectors (HypervStrictCheck). */
enum {
	HV_VPINDEX = 1 << 0, HV_RUNTIME = 1 << 1, HV_RESET = 1 << 2,
	HV_SYNIC = 1 << 3, HV_SYNICTIMER = 1 << 4, HV_FREQUENCIES = 1 << 5,
	HV_REENLIGHTENMENT = 1 << 6, HV_TLBFLUSH = 1 << 7, HV_IPI = 1 << 8
};

/* One migration as the cluster recorded it (load_history.c): a VMI's
 * status.migrationState (its latest) or a VMIM's status.  Times are the
 * RFC 3339 strings as written; NULL when absent. */
typedef struct kv_mighist {
	const char *uid;		/* migrationUid / the VMIM's uid */
	const char *start, *end;	/* migrationState start/endTimestamp:
					   the copy, what the deadline
					   watches */
	const char *created;		/* VMIM: creationTimestamp */
	const char *scheduled;		/* VMIM: phase TargetReady, else
					   Scheduled, else Running: when the
					   target was ready */
	const char *source, *target;	/* nodes */
	const char *failure;		/* failureReason */
	const char *mode;		/* PreCopy | PostCopy | Paused */
	bool completed, failed;
} kv_mighist;

typedef struct kv_vmi {
	const char *ns, *name, *uid;
	const char *fullname;		/* "ns/name" */
	kv_labels labels;
	const char *phase;		/* status.phase or "" */
	const char *node;		/* status.nodeName or NULL */
	const char *arch;		/* spec.architecture or NULL */

	const char *cpu_model;		/* spec.domain.cpu.model or NULL */
	size_t nfeatures;
	kv_cpufeat *features;
	const char *machine_spec, *machine_status;

	size_t nhostdevices, ngpus;
	const char *gpu_device;		/* first gpus[].deviceName */

	size_t nifaces;
	kv_iface *ifaces;
	const char *pod_network;	/* name of the network with pod: {} */
	size_t nnetworks;

	size_t nvolumes;
	kv_volume *volumes;
	size_t ndisks;
	kv_disk *disks;
	size_t nfilesystems;
	const char **filesystems;
	size_t nvolstatus;
	kv_volstatus *volstatus;
	size_t nmigrated;
	const char **migrated;		/* status.migratedVolumes[].
					   volumeName */

	int64_t memory;			/* guest or requests.memory; -1 */
	/* what virt-controller renders into the launcher pod's requests
	 * (podreq.c), for a VMI whose launcher is not in the input */
	int64_t req_cpu;		/* resources.requests.cpu, millis;
					   -1 */
	int64_t req_memory;		/* resources.requests.memory, else
					   .limits.memory; -1 */
	int64_t guest_memory;		/* memory.guest; -1 */
	const char *hugepages;		/* memory.hugepages.pageSize */
	int64_t vcpus;			/* sockets x cores x threads */
	size_t ndevnames;
	const char **devnames;		/* gpus[], hostDevices[]
					   deviceName (device plugins) */
	size_t nmultus;
	const char **multus;		/* networks[].multus.networkName */
	kv_labels node_selector;
	kv_affinity affinity;
	kv_podplace pod_place;		/* spec.affinity pod (anti-)affinity,
					   spec.topologySpreadConstraints:
					   the target pod's (§2.2) */
	size_t ntolerations;
	kv_toleration *tolerations;
	const char *eviction;		/* spec.evictionStrategy or NULL */

	const char *cond_reason, *cond_message;	/* with cond, below */
	const char *nostart;		/* what-if: why its restart would
					   not start it again, or NULL */
	int64_t tsc_hint;		/* status.topologyHints.tscFrequency */
	const char *migration_source;	/* status.migrationState.sourceNode */
	const char *migration_target;	/* ...migrationState.targetNode */
	kv_mighist last_migration;	/* status.migrationState */
	/* what records the guest OS (guestos.h); NULL when absent */
	const char *os_id, *os_version;	/* status.guestOSInfo.id, versionId */
	const char *os_kernel;		/* status.guestOSInfo.kernelRelease */
	const char *os_annotation;	/* vm.kubevirt.io/os (annotation or
					   label) */
	const char *os_preference;	/* kubevirt.io/(cluster-)
					   preference-name */

	/* the small fields together, with no padding between them */
	unsigned hyperv_enabled;	/* HV_* explicitly enabled */
	int autoattach;			/* -1 unset, 0 false, 1 true */
	char cond;			/* 'T', 'F', or 0 when absent */
	bool allow_pod_bridge;		/* allow-pod-bridge annotation */
	bool cpu_from_class;		/* DVP: model and features derived
					   from the VirtualMachineClass */
	bool dedicated_cpu, realtime;
	bool isolate_emulator;		/* spec.domain.cpu.isolateEmulator... */
	bool evmcs;			/* present with enabled nil or true */
	bool hyperv_passthrough;
	bool sev, sev_es, snp, tdx, any_launch_security;
	bool virtio_iface;		/* an interface of model virtio */
	bool vsock;			/* autoattachVSOCK */
	bool restarted;			/* by a what-if: the condition is
					   virt-controller's to compute */
	bool migration_completed;
} kv_vmi;

typedef struct kv_imageid {
	const char *container;		/* "volumerootdisk" */
	const char *image;		/* the status's image */
	const char *image_id;
} kv_imageid;

typedef struct kv_pod {
	const char *ns, *name;
	const char *node;		/* spec.nodeName */
	const char *created_by;		/* kubevirt.io/created-by */
	const char *created;		/* creationTimestamp */
	const char *phase;
	const char *migration_job;	/* kubevirt.io/migrationJobUID */
	kv_labels node_selector;
	int64_t req_memory;		/* sum over containers; -1 */
	const char *image;		/* the compute container's image */
	size_t nimageids;
	kv_imageid *imageids;		/* container + init statuses */
	size_t nimagerefs;
	kv_label *imagerefs;		/* spec.volumes[].image.reference */
	size_t npr;
	const char **pr;		/* pr.kubevirt.io/<pvc uid> label
					   keys */
	/* resource facts of every pod (load_capacity.c) */
	bool launcher;			/* a virt-launcher pod */
	bool terminating;		/* metadata.deletionTimestamp set */
	int64_t res_cpu, res_memory;	/* millis, bytes: max(sum of
					   containers, largest init
					   container) + spec.overhead */
	size_t nres_ext;
	kv_qty *res_ext;		/* the other resources, the same way */
	int64_t priority;		/* spec.priority, 0 when unset */
	/* placement facts of every pod (load_podaffinity.c) */
	kv_labels labels;		/* metadata.labels */
	kv_podplace place;
} kv_pod;

enum { AM_RWO = 1, AM_ROX = 2, AM_RWX = 4, AM_RWOP = 8 };

typedef struct kv_pvc {
	const char *ns, *name;
	const char *uid;
	unsigned modes;			/* spec.accessModes */
	const char *storage_class;
	const char *volume_mode;
	const char *phase;
	const char *volume;		/* spec.volumeName: its PV, or NULL */
	int64_t size;			/* status.capacity.storage, else
					   spec.resources.requests.storage,
					   bytes; -1 */
} kv_pvc;

/* A PersistentVolume: what limits the nodes a pod that mounts it may run
 * on (the scheduler's VolumeBinding and VolumeZone filters, place.h). */
typedef struct kv_pv {
	const char *name;
	const char *driver;		/* spec.csi.driver, or NULL */
	kv_affinity affinity;		/* spec.nodeAffinity.required */
	kv_labels zones;		/* its zone and region labels (GA and
					   failure-domain beta keys) */
} kv_pv;

typedef struct kv_storageclass {
	const char *name;
	const char *provisioner;
} kv_storageclass;

/* A CDI StorageProfile (named after its storage class): which volume
 * modes its status.claimPropertySets offer as ReadWriteMany. */
enum { RWX_BLOCK = 1, RWX_FILESYSTEM = 2 };

typedef struct kv_sprofile {
	const char *name;
	unsigned rwx;			/* RWX_* */
} kv_sprofile;

typedef struct kv_namespace {
	const char *name;
	const char *uid;		/* metadata.uid, or NULL */
	kv_labels labels;
} kv_namespace;

typedef struct kv_policy {
	const char *name;
	bool has_selectors;		/* selectors non-null */
	kv_labels ns_selector, vmi_selector;
	int64_t completion_per_gib;	/* -1 unset */
	int64_t bandwidth;		/* bytes/s; -1 unset */
	int allow_postcopy;		/* -1 unset */
	int allow_autoconverge;		/* -1 unset */
	int allow_disruption;		/* allowWorkloadDisruption; -1 */
} kv_policy;

/* A NetworkAttachmentDefinition (k8s.cni.cncf.io): the device-plugin
 * resource its annotation k8s.v1.cni.cncf.io/resourceName names. */
typedef struct kv_nad {
	const char *ns, *name;
	const char *resource;		/* NULL: none */
} kv_nad;

typedef struct kv_vmim {
	const char *ns, *name, *vmi;
	const char *uid;		/* metadata.uid, or NULL: its target
					   pod's kubevirt.io/migrationJobUID */
	const char *phase;
	const char *created;
	int64_t unschedulable_timeout;	/* annotation override; -1 */
	int64_t pending_timeout;	/* annotation override; -1 */
	kv_labels added_selector;	/* spec.addedNodeSelector */
	kv_mighist hist;		/* its status (load_history.c) */
} kv_vmim;

/* What the cluster's Prometheus said of one VMI over a window
 * (resources/vmimetrics.kvscope.io.json, docs/snapshot-format.md);
 * -1 where it had no series.  Sorted by namespace, name. */
typedef struct kv_vmimetrics {
	const char *ns, *name;
	const char *from, *to;		/* window.start, window.end */
	int64_t dirty_avg, dirty_max;	/* bytes/s */
	int64_t resident, used;		/* bytes */
} kv_vmimetrics;

/*
 * A VirtualMachine's spec.runStrategy (spec.running true = Always, false
 * or neither = Halted: kubevirt v1.9.0 staging/src/kubevirt.io/api/core/
 * v1/types.go:1957-1970).  RS_OTHER: a value this kvscope does not know.
 */
enum kv_run_strategy {
	RS_ALWAYS, RS_RERUN_ON_FAILURE, RS_ONCE, RS_MANUAL, RS_HALTED,
	RS_WAIT_AS_RECEIVER, RS_OTHER, RS_COUNT
};
extern const char *const kv_run_strategy_names[RS_COUNT];

typedef struct kv_vm {			/* virtualmachines.kubevirt.io */
	const char *ns, *name;
	const char *fullname;		/* "ns/name" */
	enum kv_run_strategy run;
	const char *run_text;		/* as written, for RS_OTHER */
	bool restart_required;		/* condition RestartRequired */
	const char *restart_message;	/* its message, or NULL */
	/* what a restart brings from spec.template.spec (load_vm.c) */
	bool has_template;
	const char *tmpl_cpu_model;	/* domain.cpu.model or NULL */
	const char *tmpl_eviction;	/* evictionStrategy or NULL */
	/* with RestartRequired and a template: the VMI the restart
	 * creates (template.c): the template's metadata and spec, the
	 * running VMI's name, node and status; owned; NULL otherwise */
	kv_vmi *after;
	/* runStrategy Halted with a template: the VMI a start creates
	 * (spec.template; ns, name and fullname the VM's, no node, phase
	 * ""), for crosscheck's stopped VMs; owned; NULL otherwise */
	kv_vmi *stopped;
	const char *stopped_why;	/* with stopped: what says so,
					   "runStrategy Halted" (static) */
	unsigned differs;		/* 1u << kv_tmpl_field where the
					   template differs from the VMI */
} kv_vm;

/* The fields of a template that a rule reads and that may differ from
 * the running VMI (kv_vm.differs; names: kv_tmpl_field_names). */
enum kv_tmpl_field {
	TF_CPU_MODEL, TF_CPU_FEATURES, TF_EVICTION, TF_NODE_SELECTOR,
	TF_AFFINITY, TF_TOLERATIONS, TF_INTERFACES, TF_NETWORKS,
	TF_VOLUMES, TF_DEVICES, TF_MEMORY, TF_MACHINE, TF_COUNT
};
extern const char *const kv_tmpl_field_names[TF_COUNT];


/* KubeVirt CR spec.configuration, raw (defaults applied in analysis). */
typedef struct kv_cluster {
	bool present;
	const char *name;
	const char *cpu_model;
	bool obsolete_set;
	size_t nobsolete;
	const char **obsolete;		/* sorted */
	const char *eviction;
	int64_t parallel_cluster, parallel_node;	/* -1 unset */
	int64_t bandwidth;		/* bytes/s, -1 unset */
	int64_t completion_per_gib, progress_timeout;	/* -1 unset */
	int allow_postcopy, allow_autoconverge;	/* -1 unset */
	int allow_disruption;		/* allowWorkloadDisruption; -1 */
	size_t ngates;
	const char **gates;
	size_t ndisabled_gates;
	const char **disabled_gates;
	kv_labels node_selectors;	/* developerConfiguration */
	int64_t min_tsc;		/* -1 unset */
	int use_emulation;		/* developerConfiguration.
					   useEmulation: -1 unset */
	int64_t cpu_ratio;		/* ...cpuAllocationRatio; -1 */
	int64_t mem_overcommit;		/* ...memoryOvercommit; -1 */
	const char *default_iface;	/* network.defaultNetworkInterface */
	size_t nmigratable_bindings;
	const char **migratable_bindings;	/* binding.X with migration */
	size_t nmdev;
	const char **mdev_resources;	/* permitted mediated devices */
	const char *version;		/* status.observedKubeVirtVersion */
	const char *operator_version;	/* status.operatorVersion */
	const char *ns;			/* metadata.namespace */
	const char *uid;		/* metadata.uid, or NULL */
	bool gates_set;			/* developerConfiguration.featureGates
					   is in the CR */
} kv_cluster;

/* Migration settings a distribution's own object states (-1: unset):
 * the HyperConverged CR's spec.liveMigrationConfig (load_distro.c). */
typedef struct kv_migset {
	int64_t parallel_cluster, parallel_node;
	int64_t bandwidth;		/* bytes/s */
	int64_t completion_per_gib, progress_timeout;
} kv_migset;

/* The Deckhouse objects (dvp_model.h): the model reaches them only
 * through this pointer, which dvp/ alone dereferences. */
struct kv_dvp;

typedef struct kv_model {
	kv_intern *strs;
	bool strs_borrowed;		/* kv_model_load_shared: strs is
					   another model's, not freed here */
	snap_manifest manifest;
	const kv_flavor *flavor;	/* its row (flavor.h) */
	bool flavor_inferred;		/* no manifest flavor: from the files */

	size_t nnodes;
	kv_node *nodes;			/* sorted by name */
	size_t nvmis;
	kv_vmi *vmis;			/* sorted by namespace, name */
	/* distribution version objects (load_distro.c) */
	bool hco_present, harvester_present;
	const char *hco_version;	/* HyperConverged operator version */
	const char *harvester_version;	/* Harvester server-version */
	kv_migset hco_migrations;	/* spec.liveMigrationConfig */
	size_t npods;
	kv_pod *pods;			/* every pod in the snapshot; only
					   launchers unless pods_all */
	bool pods_all;			/* manifest pods scope "all" */
	size_t nresnames;		/* the kv_qty names pods request, */
	const char *resnames[KV_MAX_RESNAMES];	/* sorted (kv_res.ext) */
	uint64_t max_cpu_classes;	/* KVSCOPE_MAX_CPU_CLASSES, for the
					   analysis */
	size_t npvcs;
	kv_pvc *pvcs;			/* sorted by namespace, name */
	size_t npvs;
	kv_pv *pvs;			/* sorted by name */
	size_t nscs;
	kv_storageclass *scs;
	size_t nprofiles;
	kv_sprofile *profiles;		/* StorageProfiles, sorted by name */
	size_t nnamespaces;
	kv_namespace *namespaces;
	size_t npolicies;
	kv_policy *policies;		/* sorted by name */
	size_t nvmims;
	kv_vmim *vmims;
	size_t nmetrics;
	kv_vmimetrics *metrics;		/* sorted by namespace, name */
	/* what the user says of the cluster that no snapshot shows
	 * (--link, --dirty-rate); NULL: nothing.  Borrowed: set by the
	 * caller before the analysis, kept by model copies. */
	const struct kv_assume *assume;
	size_t nnads;
	kv_nad *nads;			/* in input order */
	size_t nvms;
	kv_vm *vms;			/* VirtualMachines, sorted by
					   namespace, name */
	kv_cluster cluster;
	struct kv_dvp *dvp;		/* Deckhouse objects (dvp_model.h),
					   set once loading ends */

	struct cpudb *cpumap;		/* snapshot's own cpu_map, or NULL */
	size_t ndv;			/* DataVolumes seen (informational) */

	/* resources the snapshot lacks: "persistentvolumeclaims: forbidden" */
	size_t nmissing;
	const char **missing;
} kv_model;

/* Load the snapshot at path.  On error *out is NULL and err says why. */
int kv_model_load(const char *path, const kv_limits *lim, kv_model **out,
    kv_err *err);
/* The same, its strings interned in strs (another model's table, which
 * must outlive this one): equal strings of the two models are the same
 * pointer (crosscheck reads two snapshots as one). */
int kv_model_load_shared(const char *path, const kv_limits *lim,
    kv_intern *strs, kv_model **out, kv_err *err);
void kv_model_free(kv_model *m);

const kv_node *kv_model_node(const kv_model *m, const char *name);
/* Whether any node carries a label key that starts with prefix. */
bool kv_model_node_key_prefix(const kv_model *m, const char *prefix);
const kv_pvc *kv_model_pvc(const kv_model *m, const char *ns,
    const char *name);
const kv_namespace *kv_model_namespace(const kv_model *m, const char *name);
/* The VirtualMachine ns/name (the VMI's owner has its name), or NULL. */
const kv_vm *kv_model_vm(const kv_model *m, const char *ns,
    const char *name);
/* The NetworkAttachmentDefinition a VMI of namespace ns names by
 * networkName ("name" or "ns/name"), or NULL. */
const kv_nad *kv_model_nad(const kv_model *m, const char *ns,
    const char *network_name);
/* What virt-controller requests for v's launcher pod (podreq.c): CPU
 * (millis), memory without the launcher's overhead (a lower bound), and
 * the extended resources and hugepages (kv_qty, interned names). */
typedef struct kv_podreq {
	int64_t cpu_millis, memory;
	size_t n;
	kv_qty q[KV_MAX_RESNAMES];
	size_t nunknown;		/* multus networks whose
					   NetworkAttachmentDefinition is
					   not in the input */
	const char *unknown;		/* the first of them */
} kv_podreq;
void kv_vmi_podreq(const kv_model *m, const kv_vmi *v, kv_podreq *p);
/* Add from's resource names (kv_model.resnames; from shares m's string
 * table) to m's, sorted again (load_capacity.c): for a model that takes
 * pods and VMIs of from. */
void kv_model_resnames_add(kv_model *m, const kv_model *from);

/* Link each VirtualMachine's after to its running VMI (template.c):
 * name and status from the VMI, volumeStatus only of the volumes whose
 * claim stays, and `differs`.  Once, after the arrays are sorted. */
void kv_model_link_templates(kv_model *m);
/* The names of vm->differs, comma-separated, or "nothing kvscope
 * reads" (caller frees). */
char *kv_vm_differs_text(const kv_vm *vm);
/* A what-if's restart of v, whose VM is vm: v becomes vm->after (what
 * a change already wrote into v's volumeStatus stays), vm->after holds
 * the old VMI until the model is freed, and RestartRequired is gone. */
void kv_vm_take_after(kv_vm *vm, kv_vmi *v);
/* Release what a kv_vmi owns (model.c); not v itself. */
void kv_vmi_release(kv_vmi *v);
const kv_storageclass *kv_model_sc(const kv_model *m, const char *name);
const kv_pv *kv_model_pv(const kv_model *m, const char *name);
/* Whether key is one of the zone and region labels the scheduler's
 * VolumeZone filter compares (topology.kubernetes.io/zone, /region and
 * the failure-domain.beta.kubernetes.io ones). */
bool kv_zone_key(const char *key);
const kv_sprofile *kv_model_profile(const kv_model *m, const char *name);
/* Order by namespace, then name. */
int kv_nscmp(const char *ans, const char *an, const char *bns,
    const char *bn);
/* The element of arr[0..n) (of size bytes, sorted by kv_nscmp of the
 * strings at offsets ns_at and name_at) that is ns/name, or NULL (also
 * when ns or name is NULL): the one binary search of the model's
 * namespaced objects.  KV_FIND_NSNAME(arr, n, type, want_ns, want_name)
 * takes the offsets of type's fields ns and name. */
const void *kv_find_nsname(const void *arr, size_t n, size_t size,
    size_t ns_at, size_t name_at, const char *ns, const char *name);
#define KV_FIND_NSNAME(arr, n, type, want_ns, want_name) \
	((const type *)kv_find_nsname((arr), (n), sizeof(type), \
	    offsetof(type, ns), offsetof(type, name), (want_ns), \
	    (want_name)))
/* Whether the KubeVirt config enables feature gate gate (rules §0: the
 * gates we read are Alpha, off unless named). */
bool kv_gate_on(const kv_cluster *k, const char *gate);
/* The value of key k in l in the first flavor's spelling present, or
 * NULL (the flavor is known only after loading). */
const char *kv_flavor_label(const kv_labels *l, enum kv_key k);
/* true when the manifest says the resource was taken (status ok). */
bool kv_model_has(const kv_model *m, const char *resource,
    const char *group);

#endif
