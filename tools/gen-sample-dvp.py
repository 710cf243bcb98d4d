#!/usr/bin/env python3
"""Regenerate samples/deckhouse, a Deckhouse Virtualization Platform snapshot.

Usage:  tools/gen-sample-dvp.py [--shared DIR] [--out DIR]

    --shared  the shared reference folder (default ../shared)
    --out     where the sample directory is written (default samples/)

Python 3 standard library only, deterministic (no clock, no randomness).
The KubeVirt half of the cluster (nodes, launcher pods, VMIs, PVCs) is built
with tools/gen-samples.py, imported as a module, exactly as for the KubeVirt
samples; it is then renamed the way DVP's kube-api-rewriter stores it
(shared/spec/rules-deckhouse.md section 1): group internal.virtualization.
deckhouse.io, kinds prefixed InternalVirtualization, label and annotation
keys kubevirt.io/ -> kubevirt.internal.virtualization.deckhouse.io/, node
CPU labels *.node.kubevirt.io/ -> *.node.virtualization.deckhouse.io/.
DVP's own objects (VirtualMachine, VirtualMachineClass, VirtualDisk,
VirtualMachineOperation, VirtualMachineBlockDeviceAttachment) are written
here, following sections 3, 4, 6 and 7 of that spec:

* the KVVMI CPU of each VM is its class mapped as kvbuilder does (6.1):
  Host -> host-model, HostPassthrough -> host-passthrough, Model -> the
  model, Discovery/Features -> qemu64 with the class's enabled features
  (invtsc and svm optional, svm appended);
* class status (availableNodes, cpuFeatures.enabled) is computed from the
  node labels as the class controller does (6.2);
* the VM's Migratable condition is derived from the KVVMI's LiveMigratable
  as the VM controller does (3.2), with the VolumeMigration gate on (EE).
"""

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "gen_samples", os.path.join(HERE, "gen-samples.py"))
gs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gs)

NAME = "deckhouse"
CONTEXT = "dvp-prod"
DVP_KUBEVIRT_VERSION = "v1.6.2-v12n.92"
DVP = "virtualization.deckhouse.io"
INTERNAL = "internal." + DVP
KV_INT = "kubevirt." + INTERNAL          # kubevirt.io after the rewrite
NODE_DOMAIN = "node." + DVP
LOCAL_PROVISIONER = "local.csi.storage.deckhouse.io"

RESOURCES = gs.RESOURCES     # the snapshot-format.md table
ABSENT_GROUPS = ("kubevirt.io", "migrations.kubevirt.io", "cdi.kubevirt.io")


# --------------------------------------------------------------------------
# the kube-api-rewriter's renaming (rules-deckhouse.md section 1)

def rename_key(k):
    if k == "kubevirt.io":
        return KV_INT
    for old, new in (("node-labeller.kubevirt.io/skip-node",
                      "node-labeller." + DVP + "/skip-node"),
                     ("node-labeller.kubevirt.io/",
                      "node-labeller." + INTERNAL + "/"),
                     ("kubevirt.io/", KV_INT + "/"),
                     ("vm.kubevirt.io/", "vm." + KV_INT + "/"),
                     ("operator.kubevirt.io/", "operator." + KV_INT + "/"),
                     ("prometheus.kubevirt.io/", "prometheus." + KV_INT + "/")):
        if k.startswith(old):
            return new + k[len(old):]
    dom = ".node.kubevirt.io/"
    i = k.find(dom)
    if i > 0 and "/" not in k[:i]:
        return k[:i] + "." + NODE_DOMAIN + "/" + k[i + len(dom):]
    return k


LABEL_MAPS = ("labels", "annotations", "nodeSelector", "matchLabels")


def rename(obj, parent=None):
    """Rename label-like keys in maps that hold labels, selector keys of
    matchExpressions, finalizers, and KubeVirt apiVersions and kinds."""
    if isinstance(obj, list):
        if parent == "finalizers":
            return [rename_key(x) for x in obj]
        return [rename(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    out = {}
    for k, v in obj.items():
        if parent in LABEL_MAPS:
            out[rename_key(k)] = v
            continue
        if k == "key" and isinstance(v, str) and "operator" in obj:
            out[k] = rename_key(v)
        elif k == "apiVersion" and v.startswith("kubevirt.io/"):
            out[k] = INTERNAL + "/" + v.split("/", 1)[1]
        elif k == "kind" and v in ("VirtualMachine", "VirtualMachineInstance",
                                   "VirtualMachineInstanceMigration",
                                   "KubeVirt") and "apiVersion" in obj:
            out[k] = "InternalVirtualization" + v
        elif k == "conditionType" and v.startswith("kubevirt.io/"):
            out[k] = rename_key(v)
        else:
            out[k] = rename(v, k)
    return out


def dkey(kind, name):
    return "%s.%s/%s" % (kind, NODE_DOMAIN, name)


# --------------------------------------------------------------------------
# VirtualMachineClass (section 6)

def workers(c):
    return [n for n in c.nodes
            if n["metadata"]["labels"].get("kubevirt.io/schedulable") == "true"]


def feature_set(node):
    p = gs.P_FEATURE
    return {k[len(p):] for k, v in node["metadata"]["labels"].items()
            if k.startswith(p) and v == "true"}


def class_status(c, spec):
    """status of a class as the vmclass controller computes it (6.2)."""
    cpu = spec["cpu"]
    cand = workers(c)
    if cpu["type"] == "Model":
        cand = [n for n in cand if n["metadata"]["labels"].get(
            gs.P_MODEL + cpu["model"]) == "true"]
    if cpu["type"] == "Features":
        cand = [n for n in cand if set(cpu["features"]) <= feature_set(n)]
    sel = spec.get("nodeSelector", {}).get("matchLabels", {})
    avail = [n for n in cand if all(n["metadata"]["labels"].get(k) == v
                                    for k, v in sel.items())]
    st = {"phase": "Ready"}
    if cpu["type"] in ("Discovery", "Features"):
        if cpu["type"] == "Discovery":
            pool = workers(c)
            enabled = sorted(set.intersection(*[feature_set(n) for n in pool]))
            avail = [n for n in avail if set(enabled) <= feature_set(n)]
        else:
            enabled = sorted(cpu["features"])
        common = (set.intersection(*[feature_set(n) for n in avail])
                  if avail else set())
        st["cpuFeatures"] = {"enabled": enabled,
                             "notEnabledCommon": sorted(common - set(enabled))}
        if not avail:
            st["phase"] = "Pending"
    names = sorted(n["metadata"]["name"] for n in avail)
    st["availableNodes"] = names
    if avail:
        st["maxAllocatableResources"] = {
            "cpu": max((n["status"]["allocatable"]["cpu"] for n in avail),
                       key=lambda q: int(q.rstrip("m"))),
            "memory": max((n["status"]["allocatable"]["memory"] for n in avail),
                          key=gs.qty_bytes)}
    st["conditions"] = [{"lastTransitionTime": gs.ts(30 * 86400),
                         "reason": "SuitableNodesFound" if avail else
                         "NoSuitableNodesFound",
                         "status": "True" if avail else "False",
                         "type": "Ready"}]
    return st


def class_cpu(cls):
    """kvbuilder: the KVVMI domain CPU of a VM of this class (6.1)."""
    cpu, st = cls["spec"]["cpu"], cls["status"]
    t = cpu["type"]
    if t == "Host":
        return "host-model", None
    if t == "HostPassthrough":
        return "host-passthrough", None
    if t == "Model":
        return cpu["model"], None
    feats = [{"name": f, "policy": "optional" if f in ("invtsc", "svm")
              else "require"} for f in st["cpuFeatures"]["enabled"]]
    if "svm" not in st["cpuFeatures"]["enabled"]:
        feats.append({"name": "svm", "policy": "optional"})
    return "qemu64", feats


def vmclass(c, name, cpu, node_selector=None, idx=0):
    spec = {"cpu": cpu,
            "sizingPolicies": [{"cores": {"min": 1, "max": 16},
                                "coreFractions": [5, 10, 20, 50, 100],
                                "dedicatedCores": [False],
                                "memory": {"min": "1Gi", "max": "64Gi",
                                           "step": "1Gi"}}]}
    if node_selector:
        spec["nodeSelector"] = {"matchLabels": node_selector}
    cls = {"apiVersion": DVP + "/v1alpha2", "kind": "VirtualMachineClass",
           "metadata": {"creationTimestamp": gs.ts(150 * 86400 - 600 * idx),
                        "finalizers": [DVP + "/vmclass-cleanup"],
                        "generation": 1, "name": name,
                        "resourceVersion": str(700000 + idx),
                        "uid": gs.uid(NAME, "VirtualMachineClass", name)},
           "spec": spec}
    cls["status"] = class_status(c, spec)
    return cls


# --------------------------------------------------------------------------
# storage

def add_local_storage(c):
    c.storageclasses["local-thin"] = {
        "apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"creationTimestamp": gs.ts(170 * 86400), "name": "local-thin",
                     "resourceVersion": "5201",
                     "uid": gs.uid(NAME, "StorageClass", "local-thin")},
        "parameters": {LOCAL_PROVISIONER + "/lvm-type": "Thin",
                       LOCAL_PROVISIONER + "/lvm-volume-groups":
                           "- name: vg-w1\n  thin:\n    poolName: thin\n"},
        "provisioner": LOCAL_PROVISIONER, "reclaimPolicy": "Delete",
        "volumeBindingMode": "WaitForFirstConsumer"}


def local_pv(c, pvc, node):
    """add_pvc renders a generic CSI volume; make it an LVM one pinned to
    its node, as sds-local-volume provisions it."""
    pv = next(p for p in c.pvs
              if p["spec"]["claimRef"]["name"] == pvc["metadata"]["name"])
    pv["metadata"]["annotations"]["pv.kubernetes.io/provisioned-by"] = \
        LOCAL_PROVISIONER
    pv["spec"]["csi"] = {"driver": LOCAL_PROVISIONER, "fsType": "ext4",
                         "volumeHandle": pv["metadata"]["name"],
                         "volumeAttributes": {
                             LOCAL_PROVISIONER + "/lvm-type": "Thin",
                             LOCAL_PROVISIONER + "/lvm-volume-group": "vg-w1"}}
    pv["spec"]["nodeAffinity"] = {"required": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "kubernetes.io/hostname",
                               "operator": "In", "values": [node]}]}]}}
    pvc["metadata"]["annotations"]["volume.kubernetes.io/selected-node"] = node


def pv_pin(node):
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [
            {"key": "kubernetes.io/hostname", "operator": "In",
             "values": [node]}]}]}}}


def vd_claim(ns, disk):
    return "vd-%s-%s" % (disk, gs.uid(NAME, "VirtualDisk", ns, disk))


# --------------------------------------------------------------------------
# the cluster

CASCADE = gs.CASCADE
ICELAKE = gs.ICELAKE
GENOA = gs.GENOA
SAPPHIRE = "libvirt-cputestdata/x86_64-cpuid-Xeon-w7-3465X-json.xml"


def build(cpu):
    c = gs.Cluster(NAME, CONTEXT, cpu)
    for ns in ("d8-virtualization", "default", "kube-node-lease",
               "kube-public", "kube-system"):
        c.add_namespace(ns)
    c.add_namespace("prod", {"env": "prod"})
    c.add_namespace("dev", {"env": "dev"})
    c.add_node("master-0", cpus=8, mem_gib=32, zone="zone-a",
               role="control-plane", desc="control plane, no virtualization")
    kvm = {"virtualization.deckhouse.io/kvm-enabled": "true"}
    c.add_node("w1", CASCADE, cpus=96, mem_gib=384, zone="zone-a",
               extra_labels=kvm, desc="Xeon Platinum 8268 (Cascade Lake)")
    c.add_node("w2", CASCADE, cpus=96, mem_gib=384, zone="zone-b",
               extra_labels=kvm, desc="Xeon Platinum 8268 (Cascade Lake), "
                                      "twin of w1")
    c.add_node("w3", ICELAKE, cpus=64, mem_gib=256, zone="zone-a",
               extra_labels=kvm, desc="Ice Lake Server")
    c.add_node("w4", GENOA, cpus=64, mem_gib=512, zone="zone-b",
               extra_labels=kvm, desc="AMD EPYC 9334 (Genoa)")
    c.add_node("w5", SAPPHIRE, cpus=48, mem_gib=256, zone="zone-c",
               extra_labels=kvm, desc="Xeon w7-3465X (Sapphire Rapids), the "
                                      "only node with AMX")
    c.add_storageclass("ceph-rbd", "rbd.csi.ceph.com", default=True)
    add_local_storage(c)
    c.kubevirt_conf = {
        "evictionStrategy": "LiveMigrate",
        "vmRolloutStrategy": "LiveUpdate",
        "migrations": {"bandwidthPerMigration": "640Mi",
                       "completionTimeoutPerGiB": 800,
                       "parallelMigrationsPerCluster": 5,
                       "parallelOutboundMigrationsPerNode": 2,
                       "progressTimeout": 150},
        "developerConfiguration": {"featureGates": [
            "HotplugVolumes", "GPU", "Snapshot", "ExpandDisks", "Root",
            "VMLiveUpdateFeatures", "CPUManager", "Sidecar",
            "VolumeSnapshotDataSource", "VolumesUpdateStrategy",
            "VolumeMigration"]},
    }
    classes = [
        vmclass(c, "host", {"type": "Host"}, idx=0),
        vmclass(c, "host-passthrough", {"type": "HostPassthrough"}, idx=1),
        vmclass(c, "generic", {"type": "Model", "model": "Nehalem"}, idx=2),
        vmclass(c, "discovery", {"type": "Discovery",
                                 "discovery": {"nodeSelector": {}}}, idx=3),
        vmclass(c, "amx", {"type": "Features",
                           "features": ["amx-bf16", "amx-int8", "amx-tile"]},
                idx=4),
    ]
    c.dvp_classes = {k["metadata"]["name"]: k for k in classes}
    c.dvp_disks = []
    c.dvp_ops = []
    c.dvp_bdas = []
    c.dvp_vms_extra = []
    return c


def disk(c, ns, name, sc, size, node=None):
    claim = vd_claim(ns, name)
    modes = ["ReadWriteMany"] if sc == "ceph-rbd" else ["ReadWriteOnce"]
    pvc = c.add_pvc(ns, claim, sc, modes, size, volume_mode="Block"
                    if sc == "ceph-rbd" else "Filesystem", node=node)
    pvc["metadata"].setdefault("labels", {})[DVP + "/virtual-disk-name"] = name
    if sc == "local-thin":
        local_pv(c, pvc, node)
    c.dvp_disks.append({"ns": ns, "name": name, "sc": sc, "size": size,
                        "claim": claim})
    return {"name": "vd-" + name, "type": "pvc", "claim": claim,
            "vd": name}


def add_vm(c, name, ns, cls, node, **kw):
    model, feats = class_cpu(c.dvp_classes[cls])
    disks = kw.pop("disks", None) or [disk(c, ns, name + "-root", "ceph-rbd",
                                           "20Gi")]
    vm = dict(name=name, ns=ns, node=node, model=model, net="bridge",
              annotations={gs.A_ALLOW_BRIDGE: ""}, disks=disks, cls=cls,
              memory_style="guest")
    if feats:
        vm["cpu_features"] = feats
    vm.update(kw)
    c.add_vm(**vm)


def scenario(c):
    add_vm(c, "vm-host", "prod", "host", "w1",
           expect=("ok", [], [], "Host -> host-model; w2 has the same CPU, "
                   "w3 and w5 carry its host model and required features"))
    add_vm(c, "vm-passthrough", "prod", "host-passthrough", "w3",
           expect=("ok", [], ["passthrough-cpu-differs"],
                   "HostPassthrough has no placement constraint in DVP; "
                   "every other worker has other CPU features"))
    add_vm(c, "vm-model", "prod", "generic", "w4",
           expect=("ok", [], [], "Model Nehalem: every worker carries "
                   "the model label"))
    add_vm(c, "vm-discovery", "prod", "discovery", "w2",
           expect=("ok", [], [], "Discovery -> qemu64 + the features "
                   "common to all workers, no model selector"))
    add_vm(c, "vm-features", "prod", "amx", "w5",
           expect=("no-target", ["no-cpu-target"], ["eviction-blocks-drain"],
                   "Features amx-*: no other node has AMX; Migratable is "
                   "True (conditionMismatch)"))
    add_vm(c, "vm-local-disk", "prod", "generic", "w1",
           disks=[disk(c, "prod", "vm-local-disk-root", "local-thin", "30Gi",
                       node="w1")],
           # kvbuilder puts the local PV's pin into the KVVMI (section 5)
           affinity=pv_pin("w1"), migration_terms=[],
           expect=("ok", [], ["block-migration", "disks-should-be-migrating"],
                   "RWO local VirtualDisk pinned to w1 by its PV; Migratable "
                   "True / VirtualMachineDisksShouldBeMigrating (VolumeMigration "
                   "on), so no disk-not-shared, and the KVVM's "
                   "migration-node-affinity-terms drop the pin: targets on "
                   "other nodes"))
    add_vm(c, "vm-busy", "prod", "generic", "w2",
           vmop={"name": "vm-busy-m8x2q", "type": "Migrate", "phase": "Pending",
                 "reason": "MigrationPending", "ago": 40},
           expect=("blocked", ["vmop-in-progress"], [],
                   "a Migrate operation is queued; a drain still moves it "
                   "(onDrain migrate)"))
    add_vm(c, "vm-safe-force", "prod", "generic", "w3", policy="AlwaysSafe",
           vmop={"name": "vm-safe-force-k7d4w", "type": "Migrate",
                 "force": True, "phase": "Pending", "ago": 2},
           expect=("blocked", ["live-migration-policy-force"], [],
                   "force=true against liveMigrationPolicy AlwaysSafe; "
                   "Migratable True (conditionMismatch)"))
    add_vm(c, "vm-evacuating", "dev", "discovery", "w3",
           vmop={"name": "evacuation-vm-evacuating-x2n9c", "type": "Evict",
                 "phase": "InProgress", "reason": "TargetScheduling",
                 "ago": 25, "annotations": {DVP + "/evacuation": ""}},
           expect=("blocked", ["vmop-in-progress"], [],
                   "a system Evict operation (evacuation-, node drain) is "
                   "in progress"))
    add_vm(c, "vm-attach", "dev", "host", "w2",
           bda={"name": "vm-attach-data", "disk": "vm-attach-data",
                "phase": "InProgress", "reason": "AttachmentRequestSent"},
           expect=("ok", [], ["block-device-attachment-pending"],
                   "a disk attachment is in progress"))
    add_vm(c, "vm-windows", "dev", "generic", "w4", windows=True,
           expect=("blocked", ["tsc-frequency"], ["eviction-blocks-drain"],
                   "Windows: Hyper-V reenlightenment and no node has a TSC "
                   "frequency; Migratable False / VirtualMachineNonMigratable"))
    # a finished system operation: ignored
    c.dvp_ops.append({"vm": "vm-host", "ns": "prod",
                      "name": "firmware-update-vm-host-q4z8t", "type": "Evict",
                      "phase": "Completed", "reason": "Completed", "ago": 86400,
                      "annotations": {DVP + "/workload-update": ""}})
    c.dvp_vms_extra.append({"name": "vm-stopped", "ns": "dev", "cls": "host",
                            "expect": ("—", [], [], "Stopped: no KVVMI, "
                                       "not in findings")})
    c.readme_intro = (
        "A Deckhouse Virtualization Platform cluster (flavor `deckhouse`): "
        "master-0 and five workers with different CPUs, one "
        "VirtualMachineClass per CPU type, VirtualDisks on Ceph RBD (RWX) "
        "and on local LVM (RWO, with volume migration), operations in "
        "progress, a liveMigrationPolicy/force conflict, a system Evict "
        "operation and a disk attachment in progress.")


# --------------------------------------------------------------------------
# DVP objects

def vm_migratable(vm):
    """The VM controller's Migratable condition from LiveMigratable (3.2),
    VolumeMigration on."""
    reasons = vm["_reasons"]
    if not reasons:
        return "True", "VirtualMachineMigratable", None
    reason, msg = reasons[0]
    if reason == "DisksNotLiveMigratable":
        return "True", "VirtualMachineDisksShouldBeMigrating", None
    if reason == "HostDeviceNotLiveMigratable":
        return "False", "VirtualMachineHostDevicesNotMigratable", (
            "Live migration is blocked because the VirtualMachine has a "
            "device that cannot be migrated. Remove it to enable live "
            "migration.")
    return "False", "VirtualMachineNonMigratable", msg


def windows_reasons(c):
    """migratable_reasons of gen-samples.py does not know Hyper-V TSC:
    add virt-handler's NoTSCFrequencyNotLiveMigratable (order 6)."""
    for vm in c.vms:
        if vm.get("windows") and not vm["_vmi"]["status"].get("topologyHints"):
            msg = ("HyperV Reenlightenment VMIs cannot migrate when TSC "
                   "Frequency is not exposed on the cluster: guest timers "
                   "might be inconsistent")
            vm["_reasons"] = [("NoTSCFrequencyNotLiveMigratable", msg)] + \
                vm["_reasons"]
            for cond in vm["_vmi"]["status"]["conditions"]:
                if cond["type"] == "LiveMigratable":
                    cond.update(status="False", message=msg,
                                reason="NoTSCFrequencyNotLiveMigratable")


def dvp_vm(c, vm):
    ns, name = vm["ns"], vm["name"]
    running = vm.get("phase", "Running") == "Running"
    idx = vm.get("index", 50)
    mem = vm.get("memory", "4Gi")
    refs = [{"kind": "VirtualDisk", "name": d["vd"]} for d in vm.get("disks", [])
            if d.get("vd")]
    spec = {"bootloader": "EFI" if vm.get("windows") else "BIOS",
            "cpu": {"coreFraction": "100%", "cores": vm.get("cores", 2)},
            "disruptions": {"restartApprovalMode": "Automatic"},
            "enableParavirtualization": True,
            "liveMigrationPolicy": vm.get("policy", "PreferSafe"),
            "memory": {"size": mem},
            "osType": "Windows" if vm.get("windows") else "Generic",
            "runPolicy": "AlwaysOnUnlessStoppedManually",
            "virtualMachineClassName": vm["cls"],
            "blockDeviceRefs": refs}
    t = gs.ts(3 * 86400)
    status = {"phase": "Running" if running else "Stopped"}
    if running:
        st, reason, msg = vm_migratable(vm)
        mig = {"lastTransitionTime": t, "reason": reason, "status": st,
               "type": "Migratable"}
        if msg:
            mig["message"] = msg
        status.update({
            "nodeName": vm["node"],
            "conditions": [
                {"lastTransitionTime": t, "reason": "VirtualMachineClassReady",
                 "status": "True", "type": "VirtualMachineClassReady"},
                mig,
                {"lastTransitionTime": t, "reason": "VirtualMachineRunning",
                 "status": "True", "type": "Running"}],
            "blockDeviceRefs": [dict(r, attached=True, size="20Gi")
                                for r in refs],
            "resources": {"cpu": {"coreFraction": "100%",
                                  "cores": vm.get("cores", 2),
                                  "requestedCores": "%d" % vm.get("cores", 2),
                                  "runtimeOverhead": "0",
                                  "topology": "1x%d" % vm.get("cores", 2)},
                          "memory": {"runtimeOverhead": "265Mi", "size": mem}},
            "versions": {"libvirt": "10.9.0", "qemu": "9.2.0"},
            "virtualMachinePods": [{"active": True,
                                    "name": p["metadata"]["name"]}
                                   for p in vm.get("_pods", [])]})
        for b in c.dvp_bdas:
            if b["vm"] == name and b["ns"] == ns:
                status["blockDeviceRefs"].append(
                    {"attached": False, "hotplugged": True,
                     "kind": "VirtualDisk", "name": b["disk"],
                     "virtualMachineBlockDeviceAttachmentName": b["name"]})
    return {"apiVersion": DVP + "/v1alpha2", "kind": "VirtualMachine",
            "metadata": {"creationTimestamp": gs.ts(20 * 86400 - 3600 * idx),
                         "finalizers": [DVP + "/vm-protection"],
                         "generation": 1, "labels": {"vm": name},
                         "name": name, "namespace": ns,
                         "resourceVersion": str(800000 + idx),
                         "uid": gs.uid(NAME, "DVPVirtualMachine", ns, name)},
            "spec": spec, "status": status}


def dvp_disk(d, attached_to):
    return {"apiVersion": DVP + "/v1alpha2", "kind": "VirtualDisk",
            "metadata": {"creationTimestamp": gs.ts(21 * 86400),
                         "finalizers": [DVP + "/vd-protection"],
                         "generation": 1, "name": d["name"],
                         "namespace": d["ns"], "resourceVersion": "810000",
                         "uid": gs.uid(NAME, "VirtualDisk", d["ns"], d["name"])},
            "spec": {"persistentVolumeClaim": {"size": d["size"],
                                               "storageClassName": d["sc"]}},
            "status": {"attachedToVirtualMachines": [
                           {"mounted": True, "name": v} for v in attached_to],
                       "capacity": d["size"], "phase": "Ready",
                       "storageClassName": d["sc"],
                       "target": {"persistentVolumeClaimName": d["claim"]}}}


def dvp_vmop(op, vm_uid):
    meta = {"creationTimestamp": gs.ts(op["ago"]), "generation": 1,
            "labels": {DVP + "/virtual-machine-uid": vm_uid},
            "name": op["name"], "namespace": op["ns"],
            "resourceVersion": str(820000 + op["ago"]),
            "uid": gs.uid(NAME, "VMOP", op["ns"], op["name"])}
    if op.get("annotations"):
        meta["annotations"] = op["annotations"]
    if not any(op["name"].startswith(p) for p in (
            "evacuation-", "firmware-update-", "nodeplacement-update-",
            "hotplug-resources-", "volume-migration-")):
        meta["generateName"] = op["vm"] + "-"
    spec = {"type": op["type"], "virtualMachineName": op["vm"]}
    if "force" in op:
        spec["force"] = op["force"]
    t = gs.ts(op["ago"] - 1)
    done = op["phase"] == "Completed"
    cond = {"lastTransitionTime": t, "type": "Completed",
            "status": "True" if done else "False"}
    if op.get("reason"):
        cond["reason"] = op["reason"]
    else:
        cond["status"] = "Unknown"        # not processed yet (4.3 step 1)
    status = {"phase": op["phase"], "conditions": [cond]}
    if op["phase"] == "InProgress":
        status["progress"] = "2%"
    return {"apiVersion": DVP + "/v1alpha2",
            "kind": "VirtualMachineOperation", "metadata": meta,
            "spec": spec, "status": status}


def dvp_vmim(op, vmi):
    """The VMIM DVP creates for an operation past the readiness handshake
    (4.4), in the rewritten group."""
    phase = {"Pending": "Pending", "InProgress": "Scheduling"}[op["phase"]]
    return {"apiVersion": INTERNAL + "/v1",
            "kind": "InternalVirtualizationVirtualMachineInstanceMigration",
            "metadata": {"annotations": dict(op.get("annotations", {})),
                         "creationTimestamp": gs.ts(op["ago"] - 1),
                         "generation": 1,
                         "labels": {KV_INT + "/vmi-name": op["vm"]},
                         "name": "vmop-" + op["name"], "namespace": op["ns"],
                         "ownerReferences": [{
                             "apiVersion": DVP + "/v1alpha2",
                             "blockOwnerDeletion": True, "controller": True,
                             "kind": "VirtualMachineOperation",
                             "name": op["name"],
                             "uid": gs.uid(NAME, "VMOP", op["ns"], op["name"])}],
                         "resourceVersion": str(830000 + op["ago"]),
                         "uid": gs.uid(NAME, "VMIM", op["ns"], op["name"])},
            "spec": {"vmiName": op["vm"]},
            "status": {"phase": phase,
                       "phaseTransitionTimestamps": [
                           {"phase": "Pending",
                            "phaseTransitionTimestamp": gs.ts(op["ago"] - 1)}]}}


def dvp_bda(b, vm_ns):
    return {"apiVersion": DVP + "/v1alpha2",
            "kind": "VirtualMachineBlockDeviceAttachment",
            "metadata": {"creationTimestamp": gs.ts(90), "generation": 1,
                         "name": b["name"], "namespace": vm_ns,
                         "resourceVersion": "840000",
                         "uid": gs.uid(NAME, "VMBDA", vm_ns, b["name"])},
            "spec": {"blockDeviceRef": {"kind": "VirtualDisk",
                                        "name": b["disk"]},
                     "virtualMachineName": b["vm"]},
            "status": {"conditions": [{"lastTransitionTime": gs.ts(89),
                                       "reason": b["reason"],
                                       "status": "False",
                                       "type": "Attached"}],
                       "phase": b["phase"], "virtualMachineName": b["vm"]}}


def d8_kubevirt(c):
    kv = c.kubevirt_cr()
    kv["metadata"].update(name="config", namespace="d8-virtualization")
    kv["status"]["observedKubeVirtVersion"] = DVP_KUBEVIRT_VERSION
    kv["status"]["operatorVersion"] = DVP_KUBEVIRT_VERSION
    kv["status"]["targetKubeVirtVersion"] = DVP_KUBEVIRT_VERSION
    return kv


def collect(c):
    """Every object of the snapshot, by (plural, group)."""
    for vm in c.vms:
        if vm.get("vmop"):
            c.dvp_ops.append(dict(vm["vmop"], vm=vm["name"], ns=vm["ns"]))
        if vm.get("bda"):
            b = dict(vm["bda"], vm=vm["name"], ns=vm["ns"])
            c.dvp_bdas.append(b)
            disk(c, vm["ns"], b["disk"], "ceph-rbd", "10Gi")
    vmis, kvvms, pods, _ = gs.build_vm_objects(c)
    kvvms = rename(kvvms)
    terms = {(vm["ns"], vm["name"]): vm["migration_terms"] for vm in c.vms
             if "migration_terms" in vm}
    for k in kvvms:
        t = terms.get((k["metadata"]["namespace"], k["metadata"]["name"]))
        if t is not None:
            k["metadata"].setdefault("annotations", {})[
                DVP + "/migration-node-affinity-terms"] = json.dumps(t)
    windows_reasons(c)
    for p in pods:
        # the DVP fork gives qemu64 no model selector (patch 030)
        p["spec"]["nodeSelector"].pop(gs.P_MODEL + "qemu64", None)
    vmims = []
    vmis_by_name = {(v["metadata"]["namespace"], v["metadata"]["name"]): v
                    for v in vmis}
    for op in c.dvp_ops:
        if op["phase"] in ("Pending", "InProgress") and op.get("reason"):
            vmims.append(dvp_vmim(op, vmis_by_name[(op["ns"], op["vm"])]))
    vms = [dvp_vm(c, vm) for vm in c.vms]
    vms += [dvp_vm(c, dict(vm, phase="Stopped", index=60 + i,
                           disks=[disk(c, vm["ns"], vm["name"] + "-root",
                                       "ceph-rbd", "20Gi")]))
            for i, vm in enumerate(c.dvp_vms_extra)]
    users = {}
    for vm in c.vms:
        for d in vm["disks"]:
            if d.get("vd"):
                users.setdefault((vm["ns"], d["vd"]), []).append(vm["name"])
    for b in c.dvp_bdas:
        users.setdefault((b["ns"], b["disk"]), [])
    disks = [dvp_disk(d, users.get((d["ns"], d["name"]), []))
             for d in c.dvp_disks]
    vm_uids = {(v["metadata"]["namespace"], v["metadata"]["name"]):
               v["metadata"]["uid"] for v in vms}
    ops = [dvp_vmop(op, vm_uids[(op["ns"], op["vm"])]) for op in c.dvp_ops]
    bdas = [dvp_bda(b, b["ns"]) for b in c.dvp_bdas]
    return {
        ("nodes", ""): rename(c.nodes),
        ("namespaces", ""): c.namespaces,
        ("pods", ""): rename(pods),
        ("persistentvolumeclaims", ""): list(c.pvcs.values()),
        ("persistentvolumes", ""): c.pvs,
        ("storageclasses", "storage.k8s.io"): list(c.storageclasses.values()),
        ("virtualmachines", DVP): vms,
        ("virtualmachineclasses", DVP): list(c.dvp_classes.values()),
        ("virtualdisks", DVP): disks,
        ("virtualmachineoperations", DVP): ops,
        ("virtualmachineblockdeviceattachments", DVP): bdas,
        ("internalvirtualizationvirtualmachineinstances", INTERNAL):
            rename(vmis),
        ("internalvirtualizationvirtualmachineinstancemigrations", INTERNAL):
            vmims,
        ("internalvirtualizationvirtualmachines", INTERNAL): kvvms,
        ("internalvirtualizationkubevirts", INTERNAL): [rename(d8_kubevirt(c))],
    }


# --------------------------------------------------------------------------
# README and writing

def readme(c):
    md = gs.md
    out = ["# Sample `%s`" % NAME, "", c.readme_intro, "",
           "Generated by `tools/gen-sample-dvp.py` (which builds the KubeVirt "
           "half with `tools/gen-samples.py`); do not edit by hand. Snapshot "
           "time %s, DVP KubeVirt %s, Kubernetes %s."
           % (gs.CREATED_AT, DVP_KUBEVIRT_VERSION, gs.K8S_VERSION), "",
           "## Nodes", "", "| node | CPU | notes |", "| --- | --- | --- |"]
    for n in c.nodes:
        name = n["metadata"]["name"]
        meta = c.node_meta[name]
        h = meta["host"]
        out.append("| %s | %s | %s |" % (
            md(name), "%s %s" % (h.vendor, h.model) if h else "—",
            meta["desc"]))
    out += ["", "## VirtualMachineClasses", "",
            "| class | CPU type | KVVMI CPU | availableNodes |",
            "| --- | --- | --- | --- |"]
    for name, k in c.dvp_classes.items():
        model, feats = class_cpu(k)
        req = [f["name"] for f in feats or [] if f["policy"] == "require"]
        cpu = model + (" + %d required features" % len(req) if feats else "")
        out.append("| %s | %s | %s | %s |" % (
            md(name), k["spec"]["cpu"]["type"], cpu,
            ", ".join(k["status"]["availableNodes"]) or "—"))
    out += ["", "## VirtualMachines and expected verdicts", "",
            "| VM | class | node | verdict | blockers | warnings | why |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for vm in c.vms + c.dvp_vms_extra:
        verdict, blockers, warnings, why = vm["expect"]
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            md(vm["ns"] + "/" + vm["name"]), md(vm["cls"]),
            md(vm["node"]) if vm.get("node") else "—", verdict,
            gs.codes(blockers), gs.codes(warnings), why))
    out += ["", "## Operations", "",
            "| VirtualMachineOperation | VM | type | phase | note |",
            "| --- | --- | --- | --- | --- |"]
    for op in c.dvp_ops:
        note = ("system (`%s-`)" % op["name"].split("-vm-")[0]
                if op["type"] == "Evict" else "user")
        if op.get("force") is not None:
            note += ", force=%s" % str(op["force"]).lower()
        out.append("| %s | %s | %s | %s | %s |" % (
            md(op["name"]), md(op["vm"]), op["type"], op["phase"], note))
    out += ["", "Every running VM's KVVMI carries the "
            "`%s/allow-pod-bridge-network-live-migration` annotation, as DVP "
            "sets it on every VMI, so the bridge-bound pod network passes. "
            "The `InternalVirtualizationKubeVirt` config enables "
            "`VolumeMigration` (Enterprise Edition), which is why the local "
            "disk is not a blocker." % KV_INT, ""]
    return "\n".join(out)


def write(c, outdir):
    objs = collect(c)
    sdir = os.path.join(outdir, NAME)
    if os.path.isdir(sdir):
        shutil.rmtree(sdir)
    os.makedirs(os.path.join(sdir, "resources"))
    files, entries = {}, []
    for plural, group in RESOURCES:
        if group in ABSENT_GROUPS:
            entries.append({"resource": plural, "group": group,
                            "status": "absent"})
            continue
        items = sorted(objs[(plural, group)],
                       key=lambda o: (o["metadata"].get("namespace", ""),
                                      o["metadata"]["name"]))
        fname = "resources/%s.json" % (plural + "." + group if group
                                       else plural)
        files[fname] = gs.dump_pretty({"apiVersion": "v1", "items": items,
                                       "kind": "List",
                                       "metadata": {"resourceVersion": ""}}
                                      ).encode("utf-8")
        entries.append({"resource": plural, "group": group, "file": fname,
                        "status": "ok", "count": len(items)})
    files["README.md"] = readme(c).encode("utf-8")
    manifest = {
        "kind": "kvscope-snapshot", "formatVersion": 1,
        "createdAt": gs.CREATED_AT,
        "collector": {"name": "kvscope-samples",
                      "version": gs.GENERATOR_VERSION},
        "cluster": {"context": CONTEXT, "kubernetesVersion": gs.K8S_VERSION,
                    "kubevirtVersion": DVP_KUBEVIRT_VERSION,
                    "flavor": "deckhouse"},
        "options": {"namespaces": [], "redact": True, "anonymize": False},
        "resources": entries, "redactions": [],
        "files": [{"path": p, "bytes": len(b),
                   "sha256": hashlib.sha256(b).hexdigest()}
                  for p, b in sorted(files.items())],
    }
    files["manifest.json"] = (json.dumps(manifest, indent=2,
                                         ensure_ascii=False) + "\n").encode()
    for p, b in sorted(files.items()):
        with open(os.path.join(sdir, p), "wb") as f:
            f.write(b)
    return sorted(files)


def main():
    ap = argparse.ArgumentParser(description="Regenerate samples/deckhouse.")
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--out", default="samples")
    args = ap.parse_args()
    c = build(gs.CpuData(args.shared))
    scenario(c)
    files = write(c, args.out)
    print("%s: %d files" % (NAME, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
