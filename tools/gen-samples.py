#!/usr/bin/env python3
"""Regenerate the sample snapshots under samples/.

Usage:  tools/gen-samples.py [--shared DIR] [--out DIR]

    --shared  the shared reference folder (default ../shared); the CPU data
              is read from DIR/data/real-cpus and DIR/data/libvirt-cpu-models.json
    --out     where the sample directories are written (default samples/)

Python 3 standard library only.  The output is deterministic: no clock, no
randomness; every UID, digest, pod-name suffix and timestamp is derived from
fixed strings, and every JSON object is written with sorted keys.

Each sample is a directory in the kvscope snapshot layout
(shared/spec/snapshot-format.md): manifest.json, resources/<plural>[.<group>].json
as kubectl `List` objects (one file of the `mixed` sample is JSON Lines instead),
and a README.md with the expected verdict of every VMI.

Node CPU labels follow KubeVirt v1.9's node labeller
(shared/spec/cpu-models-and-labels.md section 4, rules-kubevirt.md section 1):

* host-model-cpu.node.kubevirt.io/<M>, cpu-vendor.node.kubevirt.io/<V>: the
  host-model <model> / <vendor>;
* host-model-required-features.node.kubevirt.io/<f>: the host-model `require`
  features as listed in the file;
* cpu-feature.node.kubevirt.io/<f>: features of <M> in libvirt-cpu-models.json
  minus its added_features (vmx-*), plus `require`, minus `disable`;
* cpu-model.node.kubevirt.io/<m> (usable) and
  cpu-model-migration.node.kubevirt.io/<m> (known), both minus KubeVirt's
  default obsolete list (rules-kubevirt.md 1.4):
  - full domcapabilities files: from <mode name='custom'>, every <model>
    with a `usable` attribute is known, those with usable != 'no' are usable;
  - host-model-only files (libvirt cputestdata) have no per-model data, so it
    is SYNTHESIZED: known = every model of libvirt-cpu-models.json, usable =
    the models whose features (minus added_features, i.e. minus vmx-*) are
    all among the host's cpu-feature set.  Real libvirt/QEMU may disagree for
    individual models (QEMU's own model definitions differ slightly, see
    cpu-models-and-labels.md section 3).
* kubevirt.io/tdx, kubevirt.io/sev(-es) from the domcapabilities <features>.

Everything else (machine types, Hyper-V capabilities, TSC frequencies,
allocatable resources, node info) is invented but kept realistic and
consistent with the VMIs' status.machine.type and topology hints.

The generator also evaluates the placement rules of rules-kubevirt.md 2.2/2.3
for every VMI and checks the hand-written expectations of each sample against
them (a double-entry check); a mismatch stops the generator.
"""

import argparse
import datetime
import hashlib
import json
import math
import os
import shutil
import sys
import uuid
import xml.etree.ElementTree as ET

CREATED_AT = "2026-10-31T09:12:44Z"
GENERATOR_VERSION = "1.0.0"
K8S_VERSION = "v1.34.2"
KUBEVIRT_VERSION = "v1.9.0"
UID_NAMESPACE = uuid.UUID("6f1c3c52-8d0e-5a1b-9c47-2b7e4d1f0a93")

LAUNCHER_IMAGE = "quay.io/kubevirt/virt-launcher:" + KUBEVIRT_VERSION
MACHINE_TYPE = "pc-q35-rhel9.6.0"
MACHINE_TYPES = ["pc-i440fx-rhel7.6.0", "pc", "pc-q35-rhel8.6.0",
                 "pc-q35-rhel9.0.0", "pc-q35-rhel9.2.0", "pc-q35-rhel9.4.0",
                 MACHINE_TYPE, "q35"]
HYPERV_CAPS = ["base", "frequencies", "ipi", "reenlightenment", "reset",
               "runtime", "synic", "synic2", "synictimer", "time", "tlbflush",
               "vpindex"]

# KubeVirt v1.9 DefaultObsoleteCPUModels (rules-kubevirt.md 1.4).
OBSOLETE = frozenset("""
486 486-v1 pentium pentium-v1 pentium2 pentium2-v1 pentium3 pentium3-v1
pentiumpro pentiumpro-v1 coreduo coreduo-v1 n270 n270-v1 core2duo core2duo-v1
Conroe Conroe-v1 athlon athlon-v1 phenom phenom-v1 qemu64 qemu64-v1 qemu32
qemu32-v1 kvm64 kvm64-v1 kvm32 kvm32-v1 Opteron_G1 Opteron_G1-v1 Opteron_G2
Opteron_G2-v1""".split())

D = "node.kubevirt.io/"
P_FEATURE = "cpu-feature." + D
P_MODEL = "cpu-model." + D
P_MIGRATION = "cpu-model-migration." + D
P_HOSTMODEL = "host-model-cpu." + D
P_REQUIRED = "host-model-required-features." + D
P_VENDOR = "cpu-vendor." + D
CPU_PREFIXES = (P_FEATURE, P_MODEL, P_MIGRATION, P_HOSTMODEL, P_REQUIRED,
                P_VENDOR)
L_SCHEDULABLE = "kubevirt.io/schedulable"
L_TSC_SCHED = "scheduling.node.kubevirt.io/tsc-frequency-"
A_ALLOW_BRIDGE = "kubevirt.io/allow-pod-bridge-network-live-migration"
A_SKIP_NODE = "node-labeller.kubevirt.io/skip-node"
A_UNSCHED_TIMEOUT = "kubevirt.io/migrationUnschedulablePodTimeoutSeconds"
A_PENDING_TIMEOUT = "kubevirt.io/migrationPendingPodTimeoutSeconds"
GIB = 1024 ** 3
MIB = 1024 ** 2

# The snapshot-format.md resource table, in its order.
RESOURCES = [
    ("nodes", ""), ("namespaces", ""), ("pods", ""),
    ("persistentvolumeclaims", ""), ("persistentvolumes", ""),
    ("storageclasses", "storage.k8s.io"),
    ("virtualmachineinstances", "kubevirt.io"),
    ("virtualmachines", "kubevirt.io"),
    ("virtualmachineinstancemigrations", "kubevirt.io"),
    ("kubevirts", "kubevirt.io"),
    ("migrationpolicies", "migrations.kubevirt.io"),
    ("datavolumes", "cdi.kubevirt.io"), ("storageprofiles", "cdi.kubevirt.io"),
    ("virtualmachines", "virtualization.deckhouse.io"),
    ("virtualmachineclasses", "virtualization.deckhouse.io"),
    ("virtualdisks", "virtualization.deckhouse.io"),
    ("virtualmachineoperations", "virtualization.deckhouse.io"),
    ("virtualmachineblockdeviceattachments", "virtualization.deckhouse.io"),
    ("internalvirtualizationvirtualmachineinstances",
     "internal.virtualization.deckhouse.io"),
    ("internalvirtualizationvirtualmachines",
     "internal.virtualization.deckhouse.io"),
    ("internalvirtualizationvirtualmachineinstancemigrations",
     "internal.virtualization.deckhouse.io"),
    ("internalvirtualizationkubevirts", "internal.virtualization.deckhouse.io"),
]
# Groups that exist in the sample clusters; the others are reported absent.
PRESENT_GROUPS = ("", "storage.k8s.io", "kubevirt.io", "migrations.kubevirt.io")


def fail(msg):
    sys.stderr.write("gen-samples: %s\n" % msg)
    sys.exit(2)


# --------------------------------------------------------------------------
# deterministic helpers

_EPOCH = datetime.datetime.strptime(CREATED_AT, "%Y-%m-%dT%H:%M:%SZ")


def ts(seconds_before):
    """RFC 3339 time `seconds_before` seconds before the snapshot."""
    t = _EPOCH - datetime.timedelta(seconds=seconds_before)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def uid(*parts):
    return str(uuid.uuid5(UID_NAMESPACE, "\x1f".join(parts)))


def hexdigest(*parts):
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def suffix(*parts, n=5):
    """A pod-name suffix in the alphabet of the Kubernetes name generator."""
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    h = int(hexdigest(*parts), 16)
    out = ""
    for _ in range(n):
        h, r = divmod(h, len(alphabet))
        out += alphabet[r]
    return out


def mac(*parts):
    h = hexdigest(*parts)
    return "02:%s:%s:%s:%s:%s" % (h[0:2], h[2:4], h[4:6], h[6:8], h[8:10])


def qty_bytes(q):
    """Bytes of a Kubernetes quantity such as "4Gi" or "512Mi"."""
    units = {"Ki": 1024, "Mi": MIB, "Gi": GIB, "Ti": 1024 * GIB}
    for u, m in units.items():
        if q.endswith(u):
            return int(q[:-2]) * m
    return int(q)


def mi(nbytes):
    return "%dMi" % (nbytes // MIB)


# --------------------------------------------------------------------------
# JSON output (kubectl-like)

def go_escape(text):
    """Escape as Go's encoding/json does (what kubectl prints): <, >, & and
    U+2028/U+2029 become \\u escapes.  JSON structure never contains these
    characters, so replacing them anywhere only touches string contents."""
    return (text.replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026").replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029"))


def dump_pretty(obj):
    return go_escape(json.dumps(obj, indent=2, sort_keys=True,
                                ensure_ascii=False)) + "\n"


def dump_line(obj):
    return go_escape(json.dumps(obj, sort_keys=True, ensure_ascii=False,
                                separators=(",", ":")))


# --------------------------------------------------------------------------
# CPU data and node labels

class Host:
    """One real host of shared/data/real-cpus and what the labeller makes of it."""

    def __init__(self, path, models):
        self.path = path
        self.file = os.path.basename(path)
        root = ET.parse(path).getroot()
        self.tdx = self.sev = self.sev_es = False
        if root.tag == "cpu":                # libvirt cputestdata: host-model only
            hm, custom = root, None
        elif root.tag == "domainCapabilities":
            cpu = root.find("cpu")
            modes = {m.get("name"): m for m in cpu.findall("mode")}
            hm, custom = modes.get("host-model"), modes.get("custom")
            feats = root.find("features")
            if feats is not None:
                tdx = feats.find("tdx")
                self.tdx = tdx is not None and tdx.get("supported") == "yes"
                sev = feats.find("sev")
                self.sev = sev is not None and sev.get("supported") == "yes"
                es = sev.find("maxESGuests") if sev is not None else None
                self.sev_es = (self.sev and es is not None
                               and int(es.text or "0") > 0)
        else:
            fail("%s: unknown root element <%s>" % (path, root.tag))
        if hm is None or hm.find("model") is None:
            fail("%s: no host-model CPU" % path)
        self.model = hm.find("model").text
        self.vendor = hm.find("vendor").text
        self.require = [f.get("name") for f in hm.findall("feature")
                        if f.get("policy") == "require"]
        disable = [f.get("name") for f in hm.findall("feature")
                   if f.get("policy") == "disable"]
        if self.model not in models:
            fail("%s: host model %s unknown to libvirt-cpu-models.json"
                 % (path, self.model))
        base = set(models[self.model]["features"]) - set(
            models[self.model]["added_features"])
        self.features = sorted((base | set(self.require)) - set(disable))
        fset = set(self.features)
        if custom is not None:
            self.synthesized = False
            named = [m for m in custom.findall("model")
                     if m.get("usable") is not None and (m.text or "").strip()]
            self.known = sorted({m.text.strip() for m in named})
            self.usable = sorted({m.text.strip() for m in named
                                  if m.get("usable") != "no"})
        else:
            self.synthesized = True
            self.known = sorted(models)
            self.usable = sorted(
                n for n, m in models.items()
                if set(m["features"]) - set(m["added_features"]) <= fset)

    def labels(self):
        lab = {P_HOSTMODEL + self.model: "true", P_VENDOR + self.vendor: "true"}
        for f in self.require:
            lab[P_REQUIRED + f] = "true"
        for f in self.features:
            lab[P_FEATURE + f] = "true"
        for m in self.usable:
            if m not in OBSOLETE:
                lab[P_MODEL + m] = "true"
        for m in self.known:
            if m not in OBSOLETE:
                lab[P_MIGRATION + m] = "true"
        if self.tdx:
            lab["kubevirt.io/tdx"] = "true"
        if self.sev:
            lab["kubevirt.io/sev"] = "true"
        if self.sev_es:
            lab["kubevirt.io/sev-es"] = "true"
        return lab


class CpuData:
    def __init__(self, shared):
        mpath = os.path.join(shared, "data", "libvirt-cpu-models.json")
        rdir = os.path.join(shared, "data", "real-cpus")
        if not os.path.isfile(mpath) or not os.path.isdir(rdir):
            fail("%s: no data/libvirt-cpu-models.json or data/real-cpus "
                 "(use --shared)" % shared)
        with open(mpath, encoding="utf-8") as f:
            self.models = json.load(f)
        self.rdir = rdir
        self._hosts = {}

    def host(self, relpath):
        if relpath not in self._hosts:
            self._hosts[relpath] = Host(os.path.join(self.rdir, relpath),
                                        self.models)
        return self._hosts[relpath]


# --------------------------------------------------------------------------
# the cluster model

class Cluster:
    """Objects of one sample plus the bookkeeping needed to render them."""

    def __init__(self, name, context, cpu):
        self.name = name
        self.context = context
        self.cpu = cpu
        self.nodes = []          # Node objects, in order of definition
        self.node_meta = {}      # name -> dict(host=Host|None, desc=...)
        self.namespaces = []
        self.storageclasses = {}
        self.pvcs = {}           # (ns, name) -> PVC object
        self.pvs = []
        self.vms = []            # VM definitions (dicts), in order
        self.kubevirt_conf = {}
        self.policies = []
        self.jsonl = set()       # resource files written as JSON Lines
        self.readme_intro = ""
        self.readme_notes = []

    # ---- nodes ----------------------------------------------------------
    def add_node(self, name, host=None, *, cpus, mem_gib, zone, role="worker",
                 tsc=None, cordoned=False, runtime="containerd://2.1.4",
                 extra_labels=None, annotations=None, taints=None,
                 label_filter=None, extra_allocatable=None, desc=""):
        """host: relative path in real-cpus, or None for a node without
        KubeVirt (control plane).  tsc: (Hz, scalable)."""
        h = self.cpu.host(host) if host else None
        created = ts(200 * 86400 + 3600 * len(self.nodes))
        labels = {
            "beta.kubernetes.io/arch": "amd64",
            "beta.kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64",
            "kubernetes.io/hostname": name,
            "kubernetes.io/os": "linux",
            "topology.kubernetes.io/zone": zone,
        }
        ann = {
            "node.alpha.kubernetes.io/ttl": "0",
            "volumes.kubernetes.io/controller-managed-attach-detach": "true",
        }
        spec = {"podCIDR": "10.244.%d.0/24" % len(self.nodes),
                "podCIDRs": ["10.244.%d.0/24" % len(self.nodes)]}
        alloc = {"cpu": "%dm" % (cpus * 1000 - 500),
                 "ephemeral-storage": "846291746605",
                 "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                 "memory": "%dMi" % (mem_gib * 1024 - 6656),
                 "pods": "250"}
        cap = {"cpu": str(cpus), "ephemeral-storage": "918271488Ki",
               "hugepages-1Gi": "0", "hugepages-2Mi": "0",
               "memory": "%dKi" % (mem_gib * 1024 * 1024 - 1876),
               "pods": "250"}
        if role == "control-plane":
            labels["node-role.kubernetes.io/control-plane"] = ""
            labels["node.kubernetes.io/exclude-from-external-load-balancers"] = ""
            spec["taints"] = [{"effect": "NoSchedule",
                               "key": "node-role.kubernetes.io/control-plane"}]
        else:
            labels["node-role.kubernetes.io/worker"] = ""
            labels["kubevirt.io/schedulable"] = "true"
            labels["kubevirt.io/ksm-enabled"] = "false"
            labels["kubevirt.io/cpumanager"] = "false"
            labels["cpumanager"] = "false"
            ann["kubevirt.io/heartbeat"] = ts(46 + 7 * len(self.nodes))
            ann["csi.volume.kubernetes.io/nodeid"] = json.dumps(
                {"nfs.csi.k8s.io": name, "rbd.csi.ceph.com": name},
                sort_keys=True, separators=(",", ":"))
            for d in ("kvm", "tun", "vhost-net"):
                alloc["devices.kubevirt.io/" + d] = "1k"
                cap["devices.kubevirt.io/" + d] = "1k"
            if h is not None:
                labels.update(h.labels())
                for m in MACHINE_TYPES:
                    labels["machine-type." + D + m] = "true"
                for c in HYPERV_CAPS:
                    labels["hyperv." + D + c] = "true"
            if tsc is not None:
                labels["cpu-timer." + D + "tsc-frequency"] = str(tsc[0])
                labels["cpu-timer." + D + "tsc-scalable"] = \
                    "true" if tsc[1] else "false"
        if extra_allocatable:
            alloc.update(extra_allocatable)
            cap.update(extra_allocatable)
        if extra_labels:
            labels.update(extra_labels)
        if label_filter:
            labels = {k: v for k, v in labels.items() if label_filter(k)}
        if annotations:
            ann.update(annotations)
        if cordoned:
            spec["unschedulable"] = True
            spec.setdefault("taints", []).append(
                {"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable",
                 "timeAdded": ts(3 * 86400)})
        if taints:
            spec.setdefault("taints", []).extend(taints)
        ip = "10.20.0.%d" % (11 + len(self.nodes))
        node = {
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"annotations": ann, "creationTimestamp": created,
                         "labels": labels, "name": name,
                         "resourceVersion": str(4100000 + 17 * len(self.nodes)),
                         "uid": uid(self.name, "Node", name)},
            "spec": spec,
            "status": {
                "addresses": [{"address": ip, "type": "InternalIP"},
                              {"address": name, "type": "Hostname"}],
                "allocatable": alloc, "capacity": cap,
                "conditions": node_conditions(),
                "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                "nodeInfo": {
                    "architecture": "amd64",
                    "bootID": uid(self.name, "boot", name),
                    "containerRuntimeVersion": runtime,
                    "kernelVersion": "6.8.0-85-generic",
                    "kubeletVersion": K8S_VERSION,
                    "machineID": hexdigest(self.name, "machine", name)[:32],
                    "operatingSystem": "linux",
                    "osImage": "Ubuntu 24.04.3 LTS",
                    "systemUUID": uid(self.name, "system", name),
                },
            },
        }
        self.nodes.append(node)
        self.node_meta[name] = {"host": h, "desc": desc, "ip": ip,
                                "runtime": runtime.split(":")[0], "tsc": tsc}
        return node

    def node(self, name):
        for n in self.nodes:
            if n["metadata"]["name"] == name:
                return n
        fail("%s: no node %s" % (self.name, name))

    # ---- namespaces, storage -------------------------------------------
    def add_namespace(self, name, labels=None, annotations=None):
        lab = {"kubernetes.io/metadata.name": name}
        lab.update(labels or {})
        meta = {"creationTimestamp": ts(190 * 86400 - 60 * len(self.namespaces)),
                "labels": lab, "name": name,
                "resourceVersion": str(3000 + 11 * len(self.namespaces)),
                "uid": uid(self.name, "Namespace", name)}
        if annotations:
            meta["annotations"] = annotations
        self.namespaces.append({
            "apiVersion": "v1", "kind": "Namespace", "metadata": meta,
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"}})

    def ns_labels(self, name):
        for n in self.namespaces:
            if n["metadata"]["name"] == name:
                return n["metadata"]["labels"]
        fail("%s: no namespace %s" % (self.name, name))

    def add_storageclass(self, name, provisioner, default=False):
        params = {
            "rbd.csi.ceph.com": {
                "clusterID": "rook-ceph", "imageFeatures": "layering",
                "imageFormat": "2", "pool": "replicapool",
                "csi.storage.k8s.io/fstype": "ext4",
                "csi.storage.k8s.io/node-stage-secret-name": "rook-csi-rbd-node",
                "csi.storage.k8s.io/node-stage-secret-namespace": "rook-ceph",
                "csi.storage.k8s.io/provisioner-secret-name": "rook-csi-rbd-provisioner",
                "csi.storage.k8s.io/provisioner-secret-namespace": "rook-ceph"},
            "nfs.csi.k8s.io": {"server": "nfs.storage.svc.cluster.local",
                               "share": "/export/kubernetes"},
            "rancher.io/local-path": None,
        }[provisioner]
        meta = {"creationTimestamp": ts(180 * 86400 - 60 * len(self.storageclasses)),
                "name": name, "resourceVersion": str(5100 + len(self.storageclasses)),
                "uid": uid(self.name, "StorageClass", name)}
        if default:
            meta["annotations"] = {
                "storageclass.kubernetes.io/is-default-class": "true"}
        sc = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
              "metadata": meta, "provisioner": provisioner,
              "reclaimPolicy": "Delete",
              "volumeBindingMode": ("WaitForFirstConsumer"
                                    if provisioner == "rancher.io/local-path"
                                    else "Immediate")}
        if params:
            sc["parameters"] = params
        if provisioner != "rancher.io/local-path":
            sc["allowVolumeExpansion"] = True
        if provisioner == "nfs.csi.k8s.io":
            sc["mountOptions"] = ["nfsvers=4.1"]
        self.storageclasses[name] = sc

    def add_pvc(self, ns, name, sc, modes, size, volume_mode="Filesystem",
                node=None):
        """node: the node a local-path volume lives on."""
        provisioner = self.storageclasses[sc]["provisioner"]
        pvc_uid = uid(self.name, "PersistentVolumeClaim", ns, name)
        pv_name = "pvc-" + pvc_uid
        ann = {"pv.kubernetes.io/bind-completed": "yes",
               "pv.kubernetes.io/bound-by-controller": "yes",
               "volume.beta.kubernetes.io/storage-provisioner": provisioner,
               "volume.kubernetes.io/storage-provisioner": provisioner}
        if node:
            ann["volume.kubernetes.io/selected-node"] = node
        created = ts(40 * 86400 - 3600 * len(self.pvcs))
        pvc = {
            "apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"annotations": ann, "creationTimestamp": created,
                         "finalizers": ["kubernetes.io/pvc-protection"],
                         "name": name, "namespace": ns,
                         "resourceVersion": str(200000 + 13 * len(self.pvcs)),
                         "uid": pvc_uid},
            "spec": {"accessModes": list(modes),
                     "resources": {"requests": {"storage": size}},
                     "storageClassName": sc, "volumeMode": volume_mode,
                     "volumeName": pv_name},
            "status": {"accessModes": list(modes),
                       "capacity": {"storage": size}, "phase": "Bound"},
        }
        self.pvcs[(ns, name)] = pvc
        pv_spec = {
            "accessModes": list(modes), "capacity": {"storage": size},
            "claimRef": {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                         "name": name, "namespace": ns, "uid": pvc_uid,
                         "resourceVersion": str(200000 + 13 * len(self.pvcs) - 12)},
            "persistentVolumeReclaimPolicy": "Delete",
            "storageClassName": sc, "volumeMode": volume_mode}
        if provisioner == "rancher.io/local-path":
            pv_spec["hostPath"] = {
                "path": "/opt/local-path-provisioner/%s_%s_%s" % (pv_name, ns, name),
                "type": "DirectoryOrCreate"}
            pv_spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "kubernetes.io/hostname",
                                       "operator": "In", "values": [node]}]}]}}
        elif provisioner == "rbd.csi.ceph.com":
            pv_spec["csi"] = {
                "driver": provisioner,
                "volumeHandle": "0001-0009-rook-ceph-0000000000000002-"
                                + uid(self.name, "rbd", ns, name),
                "volumeAttributes": {"clusterID": "rook-ceph",
                                     "imageFeatures": "layering",
                                     "imageName": "csi-vol-" + uid(self.name, "rbd", ns, name),
                                     "pool": "replicapool"}}
            if volume_mode == "Filesystem":
                pv_spec["csi"]["fsType"] = "ext4"
        else:
            pv_spec["csi"] = {
                "driver": provisioner,
                "volumeHandle": "nfs.storage.svc.cluster.local#export/kubernetes#%s##" % pv_name,
                "volumeAttributes": {"server": "nfs.storage.svc.cluster.local",
                                     "share": "/export/kubernetes",
                                     "subdir": pv_name}}
        pv_ann = {"pv.kubernetes.io/provisioned-by": provisioner}
        if provisioner == "rancher.io/local-path":
            pv_ann["local.path.provisioner/selected-node"] = node
        self.pvs.append({
            "apiVersion": "v1", "kind": "PersistentVolume",
            "metadata": {"annotations": pv_ann, "creationTimestamp": created,
                         "finalizers": ["kubernetes.io/pv-protection"],
                         "name": pv_name,
                         "resourceVersion": str(200001 + 13 * len(self.pvcs)),
                         "uid": uid(self.name, "PersistentVolume", pv_name)},
            "spec": pv_spec, "status": {"phase": "Bound"}})
        return pvc

    # ---- cluster configuration -----------------------------------------
    def kubevirt_cr(self):
        conf = self.kubevirt_conf
        meta = {"annotations": {"kubevirt.io/latest-observed-api-version": "v1",
                                "kubevirt.io/storage-observed-api-version": "v1"},
                "creationTimestamp": ts(185 * 86400),
                "finalizers": ["foregroundDeleteKubeVirt"], "generation": 7,
                "name": "kubevirt", "namespace": "kubevirt",
                "resourceVersion": "4020911",
                "uid": uid(self.name, "KubeVirt", "kubevirt")}
        cond_t = ts(30 * 86400)
        return {
            "apiVersion": "kubevirt.io/v1", "kind": "KubeVirt", "metadata": meta,
            "spec": {"certificateRotateStrategy": {}, "configuration": conf,
                     "customizeComponents": {}, "imagePullPolicy": "IfNotPresent",
                     "workloadUpdateStrategy": {
                         "workloadUpdateMethods": ["LiveMigrate"]}},
            "status": {
                "conditions": [
                    {"lastProbeTime": cond_t, "lastTransitionTime": cond_t,
                     "message": "All components are ready.",
                     "reason": "AllComponentsReady", "status": "True",
                     "type": "Available"},
                    {"lastProbeTime": cond_t, "lastTransitionTime": cond_t,
                     "message": "All components are ready.",
                     "reason": "AllComponentsReady", "status": "False",
                     "type": "Progressing"},
                    {"lastProbeTime": cond_t, "lastTransitionTime": cond_t,
                     "message": "All components are ready.",
                     "reason": "AllComponentsReady", "status": "False",
                     "type": "Degraded"},
                    {"lastProbeTime": cond_t, "lastTransitionTime": cond_t,
                     "message": "All resources were created.",
                     "reason": "AllResourcesCreated", "status": "True",
                     "type": "Created"}],
                "defaultArchitecture": "amd64",
                "observedKubeVirtRegistry": "quay.io/kubevirt",
                "observedKubeVirtVersion": KUBEVIRT_VERSION,
                "operatorVersion": KUBEVIRT_VERSION,
                "outdatedVirtualMachineInstanceWorkloads": 0,
                "phase": "Deployed",
                "targetKubeVirtRegistry": "quay.io/kubevirt",
                "targetKubeVirtVersion": KUBEVIRT_VERSION}}

    def add_policy(self, name, ns_selector=None, vmi_selector=None, **spec):
        sel = {}
        if ns_selector is not None:
            sel["namespaceSelector"] = ns_selector
        if vmi_selector is not None:
            sel["virtualMachineInstanceSelector"] = vmi_selector
        body = {"selectors": sel}
        body.update(spec)
        self.policies.append({
            "apiVersion": "migrations.kubevirt.io/v1alpha1",
            "kind": "MigrationPolicy",
            "metadata": {"creationTimestamp": ts(20 * 86400 - 600 * len(self.policies)),
                         "generation": 1, "name": name,
                         "resourceVersion": str(900000 + len(self.policies)),
                         "uid": uid(self.name, "MigrationPolicy", name)},
            "spec": body})

    # ---- VMs ------------------------------------------------------------
    def add_vm(self, **vm):
        vm.setdefault("model", "host-model")
        vm.setdefault("cores", 2)
        vm.setdefault("memory", "4Gi")
        vm.setdefault("memory_style", "guest")
        vm.setdefault("net", "masquerade")
        vm.setdefault("eviction", "LiveMigrate")
        vm.setdefault("labels", {})
        vm.setdefault("annotations", {})
        vm.setdefault("disks", [])
        vm.setdefault("phase", "Running")
        vm["index"] = len(self.vms)
        self.vms.append(vm)


def node_conditions():
    t = ts(12 * 86400)
    conds = []
    for typ, status, reason, msg in (
            ("MemoryPressure", "False", "KubeletHasSufficientMemory",
             "kubelet has sufficient memory available"),
            ("DiskPressure", "False", "KubeletHasNoDiskPressure",
             "kubelet has no disk pressure"),
            ("PIDPressure", "False", "KubeletHasSufficientPID",
             "kubelet has sufficient PID available"),
            ("Ready", "True", "KubeletReady", "kubelet is posting ready status")):
        conds.append({"lastHeartbeatTime": ts(31), "lastTransitionTime": t,
                      "message": msg, "reason": reason, "status": status,
                      "type": typ})
    return conds


# --------------------------------------------------------------------------
# KubeVirt behaviour needed to render consistent objects

def tsc_labels(cluster, hint_frequencies):
    """scheduling.node.kubevirt.io/tsc-frequency-<f> labels of the topology
    updater (rules-kubevirt.md 2.6, CalculateTSCLabelDiff)."""
    nodes = [n for n in cluster.nodes
             if "cpu-timer." + D + "tsc-frequency" in n["metadata"]["labels"]]
    for n in nodes:
        lab = n["metadata"]["labels"]
        own = int(lab["cpu-timer." + D + "tsc-frequency"])
        scalable = lab.get("cpu-timer." + D + "tsc-scalable") == "true"
        tol = own * 250 // 1000000
        for f in sorted({f for f in hint_frequencies if f} | {own}):
            if not scalable and abs(f - own) > tol:
                continue
            if not scalable or f <= own or abs(f - own) <= tol:
                lab[L_TSC_SCHED + str(f)] = "true"


def needs_tsc(vm):
    """Hyper-V reenlightenment (our Windows VMs): TSC required for migration."""
    return bool(vm.get("windows"))


def lowest_tsc(cluster):
    """LowestTSCFrequencyOnCluster: nodes with a TSC label that are
    schedulable or run VMIs (every node with a label here does one or both)."""
    running_on = {vm["node"] for vm in cluster.vms if vm.get("node")}
    freqs = []
    for n in cluster.nodes:
        lab = n["metadata"]["labels"]
        key = "cpu-timer." + D + "tsc-frequency"
        if key in lab and (lab.get(L_SCHEDULABLE) == "true"
                           or n["metadata"]["name"] in running_on):
            freqs.append(int(lab[key]))
    return min(freqs) if freqs else None


def default_network_binding(cluster):
    return cluster.kubevirt_conf.get("network", {}).get(
        "defaultNetworkInterface", "bridge")


def pod_interface(vm, cluster, as_stored=True):
    """Binding of the interface on the pod network: 'masquerade', 'bridge',
    ... or None when there is no pod network.  With as_stored=False a VMI
    without networks and interfaces gets the webhook default (pod network
    'default' bound with network.defaultNetworkInterface)."""
    if vm["net"] == "none":
        return None if as_stored else default_network_binding(cluster)
    return vm["net"]


def volume_claim_modes(vm, cluster, disk):
    pvc = cluster.pvcs.get((vm["ns"], disk["claim"]))
    return None if pvc is None else pvc["spec"]["accessModes"]


def check_volumes(vm, cluster):
    """virt-handler checkVolumesForMigration: (block, error message)."""
    block = False
    for d in vm["disks"]:
        if d["type"] == "pvc":
            modes = volume_claim_modes(vm, cluster, d)
            if modes is None:
                return True, ("cannot migrate VMI: Unable to determine if PVC %s "
                              "is shared, live migration requires that all PVCs "
                              "must be shared (using ReadWriteMany access mode)"
                              % d["claim"])
            if "ReadWriteMany" not in modes:
                return True, ("cannot migrate VMI: PVC %s is not shared, live "
                              "migration requires that all PVCs must be shared "
                              "(using ReadWriteMany access mode)" % d["claim"])
        elif d["type"] == "hostdisk":
            if not d.get("shared"):
                return True, "cannot migrate VMI with non-shared HostDisk"
        elif d.get("cdrom"):
            continue
        else:
            block = True
    return block, None


NET_MSG = ("cannot migrate VMI which does not use masquerade or a migratable "
           "plugin to connect to the pod network")


def migratable_reasons(vm, cluster):
    """All LiveMigratable failures in KubeVirt's order: [(reason, message)],
    plus the block-migration flag (vm.go calculateLiveMigrationCondition)."""
    block, disk_err = check_volumes(vm, cluster)
    out = []
    binding = pod_interface(vm, cluster)   # as virt-handler sees the object
    if binding == "bridge" and A_ALLOW_BRIDGE not in vm["annotations"]:
        out.append(("InterfaceNotLiveMigratable", NET_MSG))
    elif binding not in (None, "bridge", "masquerade", "passt"):
        out.append(("InterfaceNotLiveMigratable", NET_MSG))
    gates = cluster.kubevirt_conf.get("developerConfiguration", {}).get(
        "featureGates", [])
    gpus = vm.get("gpus", [])
    if len(gpus) > 1:
        out.append(("HostDeviceNotLiveMigratable", "VMI specifies too many GPUs"))
    elif len(gpus) == 1 and "VGPULiveMigration" not in gates:
        out.append(("HostDeviceNotLiveMigratable",
                    "VMI specifies a GPU but feature gate VGPULiveMigration "
                    "is not enabled"))
    if disk_err:
        out.append(("DisksNotLiveMigratable", disk_err))
    return out, block


# --------------------------------------------------------------------------
# rendering VMIs, VMs, pods

def disk_bus(vm):
    return "sata" if vm.get("windows") else "virtio"


def vmi_spec(vm, cluster, for_vm_template=False):
    """The VMI spec as stored (after the mutating webhook), or, with
    for_vm_template, the VM template as the user wrote it."""
    dom = {"cpu": {"cores": vm["cores"], "sockets": 1, "threads": 1},
           "devices": {"disks": [], "rng": {}},
           "features": {"acpi": {"enabled": True}},
           "machine": {"type": "q35"},
           "resources": {"requests": {"memory": vm["memory"]}}}
    if not for_vm_template:
        dom["cpu"]["model"] = vm["model"]
        dom["firmware"] = {"uuid": uid(cluster.name, "firmware", vm["ns"], vm["name"])}
        dom["cpu"]["maxSockets"] = 4
    elif vm["model"] != "host-model":
        dom["cpu"]["model"] = vm["model"]
    if vm.get("cpu_features"):
        dom["cpu"]["features"] = vm["cpu_features"]
    if vm["memory_style"] == "guest":
        dom["memory"] = {"guest": vm["memory"]}
        if not for_vm_template:
            dom["memory"]["maxGuest"] = mi(4 * qty_bytes(vm["memory"]))
    bus = disk_bus(vm)
    for i, d in enumerate(vm["disks"]):
        entry = {"name": d["name"]}
        if d.get("cdrom"):
            entry["cdrom"] = {"bus": "sata", "readonly": True, "tray": "closed"}
        else:
            entry["disk"] = {"bus": "virtio" if d["type"] == "cloudinit" else bus}
        if i == 0:
            entry["bootOrder"] = 1
        dom["devices"]["disks"].append(entry)
    if vm["net"] != "none":
        iface = {"name": "default", vm["net"]: {}}
        if not for_vm_template:
            iface["macAddress"] = mac(cluster.name, vm["ns"], vm["name"])
        if vm.get("windows"):
            iface["model"] = "e1000e"
        dom["devices"]["interfaces"] = [iface]
    if vm.get("gpus"):
        dom["devices"]["gpus"] = [{"deviceName": g, "name": "gpu%d" % (i + 1)}
                                  for i, g in enumerate(vm["gpus"])]
    if vm.get("windows"):
        on = {"enabled": True}
        dom["features"] = {
            "acpi": dict(on), "apic": dict(on), "smm": dict(on),
            "hyperv": {"frequencies": dict(on), "ipi": dict(on),
                       "reenlightenment": dict(on), "relaxed": dict(on),
                       "reset": dict(on), "runtime": dict(on),
                       "spinlocks": {"enabled": True, "spinlocks": 8191},
                       "synic": dict(on), "synictimer": {"enabled": True,
                                                         "direct": dict(on)},
                       "tlbflush": dict(on), "vapic": dict(on),
                       "vpindex": dict(on)}}
        dom["clock"] = {"timer": {"hpet": {"present": False},
                                  "hyperv": {"present": True},
                                  "pit": {"present": True, "tickPolicy": "delay"},
                                  "rtc": {"present": True, "tickPolicy": "catchup"}},
                        "utc": {}}
        dom["firmware"] = dict(dom.get("firmware", {}),
                               bootloader={"efi": {"secureBoot": True}})
        dom["devices"]["tpm"] = {}
        dom["devices"]["inputs"] = [{"bus": "usb", "name": "tablet",
                                     "type": "tablet"}]
    spec = {"domain": dom, "terminationGracePeriodSeconds": 180, "volumes": []}
    if vm["net"] != "none":
        spec["networks"] = [{"name": "default", "pod": {}}]
    if not for_vm_template:
        spec["architecture"] = "amd64"
        spec["evictionStrategy"] = vm["eviction"]
    elif vm.get("eviction_in_template", True):
        spec["evictionStrategy"] = vm["eviction"]
    for d in vm["disks"]:
        v = {"name": d["name"]}
        if d["type"] == "pvc":
            v["persistentVolumeClaim"] = {"claimName": d["claim"]}
        elif d["type"] == "containerdisk":
            v["containerDisk"] = {"image": d["image"]}
            if not for_vm_template:
                v["containerDisk"]["imagePullPolicy"] = (
                    "Always" if d["image"].endswith(":latest") else "IfNotPresent")
        elif d["type"] == "cloudinit":
            v["cloudInitNoCloud"] = {"secretRef": {"name": vm["name"] + "-cloudinit"}}
        elif d["type"] == "hostdisk":
            v["hostDisk"] = {"capacity": d["capacity"], "path": d["path"],
                             "type": "DiskOrCreate"}
        spec["volumes"].append(v)
    for k in ("nodeSelector", "affinity", "tolerations"):
        if vm.get(k):
            spec[k] = vm[k]
    return spec


def volume_status(vm, cluster):
    out = []
    targets = iter("vd%s" % c for c in "abcdefgh")
    sata = iter("sd%s" % c for c in "abcdefgh")
    for d in vm["disks"]:
        if d.get("cdrom") or (vm.get("windows") and d["type"] != "cloudinit"):
            tgt = next(sata)
        else:
            tgt = next(targets)
        st = {"name": d["name"], "target": tgt}
        if d["type"] == "pvc":
            pvc = cluster.pvcs.get((vm["ns"], d["claim"]))
            if pvc is not None:
                fs = pvc["spec"]["volumeMode"] == "Filesystem"
                st["persistentVolumeClaimInfo"] = {
                    "accessModes": list(pvc["spec"]["accessModes"]),
                    "capacity": dict(pvc["status"]["capacity"]),
                    "claimName": d["claim"],
                    "filesystemOverhead": "0.055" if fs else "0",
                    "requests": dict(pvc["spec"]["resources"]["requests"]),
                    "volumeMode": pvc["spec"]["volumeMode"]}
        elif d["type"] == "containerdisk":
            st["containerDiskVolume"] = {
                "checksum": int(hexdigest(d["image"], "crc")[:8], 16)}
        elif d["type"] == "cloudinit":
            st["size"] = 1048576
        elif d["type"] == "hostdisk":
            st["size"] = qty_bytes(d["capacity"])
        out.append(st)
    return out


def image_repo(image):
    """The image reference without tag or digest (toImageWithDigest)."""
    if "@sha256:" in image:
        return image.split("@sha256:")[0]
    colon = image.rfind(":")
    if colon > image.rfind("/"):
        return image[:colon]
    return image


def image_id(cluster, node_name, image, kind="repo"):
    """status.containerStatuses[].imageID as the node's runtime reports it.
    kind: 'repo' = repository digest (normal), 'config' = bare config digest
    (image side-loaded without a repository digest)."""
    digest = hexdigest(cluster.name, "image", image, kind)
    if cluster.node_meta[node_name]["runtime"] == "cri-o":
        return digest                    # CRI-O >= 1.28: bare hex, no sha256:
    if kind == "config":
        return "sha256:" + digest
    return "%s@sha256:%s" % (image_repo(image), digest)


def runtime_prefix(cluster, node_name):
    return cluster.node_meta[node_name]["runtime"] + "://"


def launcher_pod(cluster, vm, vmi, node_name, *, name_seed, created_ago,
                 node_selector, affinity, phase="Running", migration=None,
                 finished_ago=None):
    """A virt-launcher pod for `vmi` (rules-kubevirt.md 2.2, template.go)."""
    ns, name = vm["ns"], vm["name"]
    pod_name = "virt-launcher-%s-%s" % (name, suffix(cluster.name, name_seed))
    pod_uid = uid(cluster.name, "Pod", ns, pod_name)
    labels = dict(vm["labels"])
    labels.update({"kubevirt.io": "virt-launcher",
                   "kubevirt.io/created-by": vmi["metadata"]["uid"],
                   "vm.kubevirt.io/name": name, "vmi.kubevirt.io/id": name})
    ann = {k: v for k, v in vm["annotations"].items()
           if not k.startswith("kubectl.kubernetes.io")}
    ann.update({"descheduler.alpha.kubernetes.io/request-evict-only": "",
                "kubectl.kubernetes.io/default-container": "compute",
                "kubevirt.io/domain": name,
                "kubevirt.io/migrationTransportUnix": "true",
                "post.hook.backup.velero.io/command":
                    '["/usr/bin/virt-freezer", "--unfreeze", "--name", "%s", '
                    '"--namespace", "%s"]' % (name, ns),
                "pre.hook.backup.velero.io/command":
                    '["/usr/bin/virt-freezer", "--freeze", "--name", "%s", '
                    '"--namespace", "%s"]' % (name, ns)})
    if migration is not None:
        labels["kubevirt.io/migrationJobUID"] = migration["metadata"]["uid"]
        ann["kubevirt.io/migrationJobName"] = migration["metadata"]["name"]
    guest = qty_bytes(vm["memory"])
    overhead = 250 * MIB + (guest // GIB) * 2 * MIB
    req = {"cpu": "%dm" % (100 * vm["cores"]), "ephemeral-storage": "50M",
           "memory": mi(guest + overhead),
           "devices.kubevirt.io/kvm": "1", "devices.kubevirt.io/tun": "1",
           "devices.kubevirt.io/vhost-net": "1"}
    lim = {"devices.kubevirt.io/kvm": "1", "devices.kubevirt.io/tun": "1",
           "devices.kubevirt.io/vhost-net": "1"}
    for g in vm.get("gpus", []):
        req[g] = "1"
        lim[g] = "1"
    compute = {
        "command": ["/usr/bin/virt-launcher-monitor", "--qemu-timeout", "268s",
                    "--name", name, "--uid", vmi["metadata"]["uid"],
                    "--namespace", ns, "--kubevirt-share-dir", "/var/run/kubevirt",
                    "--ephemeral-disk-dir", "/var/run/kubevirt-ephemeral-disks",
                    "--container-disk-dir", "/var/run/kubevirt/container-disks",
                    "--grace-period-seconds", "195", "--hook-sidecars", "0",
                    "--ovmf-path", "/usr/share/OVMF", "--run-as-nonroot"],
        "env": [{"name": "POD_NAME",
                 "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                            "fieldPath": "metadata.name"}}}],
        "image": LAUNCHER_IMAGE, "imagePullPolicy": "IfNotPresent",
        "name": "compute",
        "resources": {"limits": lim, "requests": req},
        "securityContext": {"allowPrivilegeEscalation": False,
                            "capabilities": {"add": ["NET_BIND_SERVICE"],
                                             "drop": ["ALL"]},
                            "privileged": False, "runAsGroup": 107,
                            "runAsNonRoot": True, "runAsUser": 107},
    }
    containers = [compute]
    init = [{
        "command": ["/usr/bin/cp", "--preserve=all", "/usr/bin/container-disk",
                    "/init/usr/bin/container-disk"],
        "image": LAUNCHER_IMAGE, "imagePullPolicy": "IfNotPresent",
        "name": "container-disk-binary",
        "resources": {"limits": {"cpu": "100m", "memory": "40M"},
                      "requests": {"cpu": "10m", "memory": "1M"}},
    }]
    volumes = [{"emptyDir": {}, "name": "private"},
               {"emptyDir": {}, "name": "public"},
               {"emptyDir": {}, "name": "container-disks"},
               {"emptyDir": {}, "name": "virt-bin-share-dir"}]
    for i, d in enumerate(vm["disks"]):
        if d["type"] == "pvc":
            volumes.append({"name": d["name"], "persistentVolumeClaim":
                            {"claimName": d["claim"]}})
        elif d["type"] == "hostdisk":
            volumes.append({"hostPath": {"path": os.path.dirname(d["path"]),
                                         "type": "DirectoryOrCreate"},
                            "name": d["name"]})
        elif d["type"] == "containerdisk":
            img = d["image"]
            base = {"image": img,
                    "imagePullPolicy": "Always" if img.endswith(":latest") else "IfNotPresent",
                    "resources": {"limits": {"cpu": "10m", "memory": "40M"},
                                  "requests": {"cpu": "1m", "ephemeral-storage": "50M",
                                               "memory": "1M"}}}
            c = dict(base, name="volume" + d["name"],
                     command=["/usr/bin/container-disk"],
                     args=["--copy-path", "/var/run/kubevirt-ephemeral-disks/"
                           "container-disk-data/%s/disk_%d" % (vmi["metadata"]["uid"], i)])
            containers.append(c)
            init.append(dict(base, name="volume" + d["name"] + "-init",
                             command=["/usr/bin/container-disk"], args=["--no-op"]))
    spec = {
        "automountServiceAccountToken": False, "containers": containers,
        "dnsPolicy": "ClusterFirst", "enableServiceLinks": False,
        "hostname": name, "initContainers": init,
        "nodeSelector": node_selector,
        "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
        "readinessGates": [{"conditionType": "kubevirt.io/virtual-machine-unpaused"}],
        "restartPolicy": "Never", "schedulerName": "default-scheduler",
        "securityContext": {"fsGroup": 107, "runAsGroup": 107,
                            "runAsNonRoot": True, "runAsUser": 107},
        "serviceAccount": "default", "serviceAccountName": "default",
        "terminationGracePeriodSeconds": 210,
        "tolerations": list(vm.get("tolerations", [])) + [
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready",
             "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable",
             "operator": "Exists", "tolerationSeconds": 300}],
        "volumes": volumes,
    }
    if node_name:
        spec["nodeName"] = node_name
    if affinity:
        spec["affinity"] = affinity
    meta = {"annotations": ann, "creationTimestamp": ts(created_ago),
            "generateName": "virt-launcher-%s-" % name, "labels": labels,
            "name": pod_name, "namespace": ns,
            "ownerReferences": [{"apiVersion": "kubevirt.io/v1",
                                 "blockOwnerDeletion": True, "controller": True,
                                 "kind": "VirtualMachineInstance", "name": name,
                                 "uid": vmi["metadata"]["uid"]}],
            "resourceVersion": str(3000000 + 101 * vm["index"] + len(name_seed)),
            "uid": pod_uid}
    status = pod_status(cluster, vm, node_name, containers, init, phase,
                        created_ago, name_seed, finished_ago)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": spec, "status": status}


def pod_status(cluster, vm, node_name, containers, init, phase, created_ago,
               seed, finished_ago=None):
    started = ts(created_ago - 4)
    if phase == "Pending":
        st = {"phase": "Pending", "qosClass": "Burstable"}
        if node_name is None:
            st["conditions"] = [{
                "lastProbeTime": None, "lastTransitionTime": ts(created_ago - 1),
                "message": vm["unschedulable_message"],
                "reason": "Unschedulable", "status": "False",
                "type": "PodScheduled"}]
        return st
    ip = "10.244.%d.%d" % (
        [n["metadata"]["name"] for n in cluster.nodes].index(node_name),
        20 + 7 * vm["index"] % 200)
    rt = runtime_prefix(cluster, node_name)
    kinds = {d["name"]: d.get("image_kind", "repo") for d in vm["disks"]
             if d["type"] == "containerdisk"}

    def cstatus(c, terminated):
        vol = c["name"][len("volume"):].split("-init")[0] \
            if c["name"].startswith("volume") else None
        if vol in kinds:
            iid = image_id(cluster, node_name, c["image"], kinds[vol])
            img = c["image"]
        else:
            iid = image_id(cluster, node_name, c["image"])
            img = c["image"]
        s = {"containerID": rt + hexdigest(cluster.name, seed, c["name"]),
             "image": img, "imageID": iid, "lastState": {},
             "name": c["name"], "ready": not terminated, "restartCount": 0}
        if terminated:
            s["state"] = {"terminated": {
                "containerID": s["containerID"], "exitCode": 0,
                "finishedAt": started if finished_ago is None else ts(finished_ago),
                "reason": "Completed", "startedAt": ts(created_ago - 3)}}
            s["started"] = False
        else:
            s["state"] = {"running": {"startedAt": started}}
            s["started"] = True
        return s

    done = phase == "Succeeded"
    conds = []
    for typ, status in (("PodReadyToStartContainers", "False" if done else "True"),
                        ("Initialized", "True"),
                        ("kubevirt.io/virtual-machine-unpaused", "True"),
                        ("Ready", "False" if done else "True"),
                        ("ContainersReady", "False" if done else "True"),
                        ("PodScheduled", "True")):
        c = {"lastProbeTime": None,
             "lastTransitionTime": ts(finished_ago if status == "False" else created_ago - 2),
             "status": status, "type": typ}
        if done and status == "False" and typ in ("Ready", "ContainersReady"):
            c["reason"] = "PodCompleted"
        conds.append(c)
    return {
        "conditions": conds,
        "containerStatuses": [cstatus(c, done) for c in containers],
        "hostIP": cluster.node_meta[node_name]["ip"],
        "hostIPs": [{"ip": cluster.node_meta[node_name]["ip"]}],
        "initContainerStatuses": [cstatus(c, True) for c in init],
        "phase": phase, "podIP": ip, "podIPs": [{"ip": ip}],
        "qosClass": "Burstable", "startTime": ts(created_ago - 1)}


def source_node_selector(vm, cluster, machine_type, tsc_hint):
    """The nodeSelector KubeVirt renders for a launcher pod (2.2)."""
    sel = {L_SCHEDULABLE: "true", "kubernetes.io/arch": "amd64"}
    sel.update(cluster.kubevirt_conf.get("developerConfiguration", {})
               .get("nodeSelectors", {}))
    sel.update(vm.get("nodeSelector", {}))
    if vm["model"] not in ("host-model", "host-passthrough"):
        sel[P_MODEL + vm["model"]] = "true"
    sel["machine-type." + D + machine_type] = "true"
    for f in vm.get("cpu_features", []):
        if f.get("policy", "") in ("", "require"):
            sel[P_FEATURE + f["name"]] = "true"
    if tsc_hint:
        sel[L_TSC_SCHED + str(tsc_hint)] = "true"
    return sel


def pod_affinity(vm, migration_target=False, vmi_uid=None):
    """VMI affinity + obsolete-host-model DoesNotExist for host-model (2.2)."""
    aff = json.loads(json.dumps(vm.get("affinity") or {}))
    if vm["model"] == "host-model":
        req = {"key": "node-labeller.kubevirt.io/obsolete-host-model",
               "operator": "DoesNotExist"}
        na = aff.setdefault("nodeAffinity", {})
        rd = na.setdefault("requiredDuringSchedulingIgnoredDuringExecution",
                           {"nodeSelectorTerms": []})
        if rd["nodeSelectorTerms"]:
            for t in rd["nodeSelectorTerms"]:
                t.setdefault("matchExpressions", []).append(dict(req))
        else:
            rd["nodeSelectorTerms"].append({"matchExpressions": [req]})
    if migration_target:
        aff.setdefault("podAntiAffinity", {}).setdefault(
            "requiredDuringSchedulingIgnoredDuringExecution", []).append(
            {"labelSelector": {"matchLabels": {"kubevirt.io/created-by": vmi_uid}},
             "topologyKey": "kubernetes.io/hostname"})
    return aff or None


def host_model_selectors(node_labels):
    """getHostCpuModelFromMap: None when the node has no host-model label."""
    out = {}
    model = None
    for k, v in sorted(node_labels.items()):
        if k.startswith(P_HOSTMODEL):
            model = (k[len(P_HOSTMODEL):], v)
        if k.startswith(P_REQUIRED):
            out[P_FEATURE + k[len(P_REQUIRED):]] = v
    if model is None:
        return None
    out[P_MIGRATION + model[0]] = model[1]
    return out


def vendor_key(labels):
    keys = sorted(k for k in labels if k.startswith(P_VENDOR))
    return keys[0] if keys else None


def build_vm_objects(cluster):
    """VMIs, VMs, launcher pods and VMIMs of every VM definition."""
    # the topology updater labels every TSC node for the cluster's lowest
    # frequency (and the node's own); VMIs needing a TSC get it as their hint
    hint = lowest_tsc(cluster)
    tsc_labels(cluster, [hint])
    vmis, vms_out, pods, vmims = [], [], [], []
    for vm in cluster.vms:
        ns, name = vm["ns"], vm["name"]
        idx = vm["index"]
        vmi_uid = uid(cluster.name, "VirtualMachineInstance", ns, name)
        vm_uid = uid(cluster.name, "VirtualMachine", ns, name)
        started_ago = vm.get("started_ago", (9 - idx % 7) * 86400 + 1800 * idx)
        running = vm["phase"] == "Running"
        node_name = vm.get("node")
        reasons, block = migratable_reasons(vm, cluster)
        vm["_reasons"] = reasons
        vm["_block"] = block
        vm_tsc = hint if needs_tsc(vm) else None
        labels = dict(vm["labels"])
        labels["kubevirt.io/domain"] = name
        vm["labels"] = labels           # pod labels copy these
        vmi_labels = dict(labels)
        if node_name and running:
            vmi_labels["kubevirt.io/nodeName"] = node_name
        ann = {"kubevirt.io/latest-observed-api-version": "v1",
               "kubevirt.io/storage-observed-api-version": "v1",
               "kubevirt.io/vm-generation": "1"}
        ann.update(vm["annotations"])
        spec = vmi_spec(vm, cluster)
        vmi = {
            "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
            "metadata": {"annotations": ann, "creationTimestamp": ts(started_ago),
                         "finalizers": ["kubevirt.io/virtualMachineControllerFinalize",
                                        "foregroundDeleteVirtualMachine"],
                         "generation": 12, "labels": vmi_labels, "name": name,
                         "namespace": ns,
                         "ownerReferences": [{"apiVersion": "kubevirt.io/v1",
                                              "blockOwnerDeletion": True,
                                              "controller": True,
                                              "kind": "VirtualMachine",
                                              "name": name, "uid": vm_uid}],
                         "resourceVersion": str(3500000 + 97 * idx),
                         "uid": vmi_uid},
            "spec": spec}
        # --- launcher pods -----------------------------------------------
        machine = MACHINE_TYPE
        vm_pods = []
        migration_state = None
        if running and vm.get("migrated_from"):
            orig = vm["migrated_from"]
            # first pod, on the original node: completed after the migration
            mig_ago = vm["migrated_ago"]
            first = launcher_pod(
                cluster, vm, vmi, orig, name_seed=name + "/0",
                created_ago=started_ago - 1, phase="Succeeded",
                node_selector=source_node_selector(vm, cluster, "q35", vm_tsc),
                affinity=pod_affinity(vm), finished_ago=mig_ago - 59)
            mig = {
                "apiVersion": "kubevirt.io/v1",
                "kind": "VirtualMachineInstanceMigration",
                "metadata": {"annotations": {"kubevirt.io/evacuationMigration": orig,
                                             "kubevirt.io/latest-observed-api-version": "v1",
                                             "kubevirt.io/storage-observed-api-version": "v1"},
                             "creationTimestamp": ts(mig_ago),
                             "generateName": "kubevirt-evacuation-",
                             "generation": 1,
                             "labels": {"kubevirt.io/vmi-name": name},
                             "name": "kubevirt-evacuation-" + suffix(cluster.name, "evac", name),
                             "namespace": ns,
                             "resourceVersion": str(3600000 + idx),
                             "uid": uid(cluster.name, "VMIM", ns, name, "evac")},
                "spec": {"priority": "system-critical", "vmiName": name},
                "status": {"migrationState": None, "phase": "Succeeded",
                           "phaseTransitionTimestamps": [
                               {"phase": p, "phaseTransitionTimestamp": ts(mig_ago - s)}
                               for p, s in (("Pending", 0), ("Scheduling", 1),
                                            ("Scheduled", 9), ("PreparingTarget", 9),
                                            ("TargetReady", 11), ("Running", 11),
                                            ("Succeeded", 58))]}}
            # the current pod is the migration target pod: its nodeSelector
            # carries the host-model selectors derived from the first node
            sel = source_node_selector(vm, cluster, machine, vm_tsc)
            orig_labels = cluster.node(orig)["metadata"]["labels"]
            sel.update(host_model_selectors(orig_labels))
            sel[vendor_key(orig_labels)] = "true"
            cur = launcher_pod(
                cluster, vm, vmi, node_name, name_seed=name + "/1",
                created_ago=mig_ago - 1, node_selector=sel,
                affinity=pod_affinity(vm, True, vmi_uid), migration=mig)
            vm["_vmi"] = vmi
            conf, policy = migration_configuration(cluster, vm)
            migration_state = {
                "completed": True, "endTimestamp": ts(mig_ago - 58),
                "migrationConfiguration": conf,
                "migrationUid": mig["metadata"]["uid"], "mode": "PreCopy",
                "sourceNode": orig, "sourcePod": first["metadata"]["name"],
                "startTimestamp": ts(mig_ago - 11), "targetNode": node_name,
                "targetNodeAddress": cluster.node_meta[node_name]["ip"],
                "targetNodeDomainDetected": True,
                "targetNodeDomainReadyTimestamp": ts(mig_ago - 57),
                "targetPod": cur["metadata"]["name"]}
            if policy:
                migration_state["migrationPolicyName"] = policy
            mig["status"]["migrationState"] = {
                k: migration_state[k] for k in (
                    "completed", "endTimestamp", "migrationUid", "mode",
                    "sourceNode", "sourcePod", "startTimestamp", "targetNode",
                    "targetPod")}
            vm_pods = [first, cur]
            vmims.append(mig)
        elif running:
            vm_pods = [launcher_pod(
                cluster, vm, vmi, node_name, name_seed=name + "/0",
                created_ago=started_ago - 1,
                node_selector=source_node_selector(vm, cluster, "q35", vm_tsc),
                affinity=pod_affinity(vm))]
        else:
            vm_pods = [launcher_pod(
                cluster, vm, vmi, None, name_seed=name + "/0",
                created_ago=started_ago - 1, phase="Pending",
                node_selector=source_node_selector(vm, cluster, "q35", vm_tsc),
                affinity=pod_affinity(vm))]
        if running and vm.get("vmim"):
            vm_pods_extra, vmim = in_flight_migration(cluster, vm, vmi, vm_pods[-1],
                                                      machine, vm_tsc)
            vmims.append(vmim)
            vm_pods = vm_pods + vm_pods_extra
        pods.extend(vm_pods)
        vm["_pods"] = vm_pods
        vm["_vmi"] = vmi
        vmi["status"] = vmi_status(cluster, vm, vm_pods, machine,
                                   migration_state, vm_tsc, started_ago)
        vmis.append(vmi)
        vms_out.append(vm_object(cluster, vm, vm_uid, vmi, started_ago))
    return vmis, vms_out, pods, vmims


def in_flight_migration(cluster, vm, vmi, source_pod, machine, vm_tsc):
    """A user-created VMIM with timeout overrides whose target pod does not
    schedule (phase Scheduling, target pod Pending/Unschedulable)."""
    spec_m = vm["vmim"]
    ns, name = vm["ns"], vm["name"]
    ago = spec_m["ago"]
    ann = {"kubevirt.io/latest-observed-api-version": "v1",
           "kubevirt.io/storage-observed-api-version": "v1"}
    ann.update(spec_m["annotations"])
    mig = {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstanceMigration",
        "metadata": {"annotations": ann, "creationTimestamp": ts(ago),
                     "generation": 1, "labels": {"kubevirt.io/vmi-name": name},
                     "name": spec_m["name"], "namespace": ns,
                     "resourceVersion": str(3700000 + vm["index"]),
                     "uid": uid(cluster.name, "VMIM", ns, spec_m["name"])},
        "spec": dict({"vmiName": name},
                     **({"addedNodeSelector": spec_m["added"]}
                        if spec_m.get("added") else {})),
        "status": {"phase": "Scheduling",
                   "phaseTransitionTimestamps": [
                       {"phase": "Pending", "phaseTransitionTimestamp": ts(ago)},
                       {"phase": "Scheduling", "phaseTransitionTimestamp": ts(ago - 1)}]}}
    sel = source_node_selector(vm, cluster, machine, vm_tsc)
    # addedNodeSelector merges under the template (migration.go L957-960)
    for k, v in sorted((spec_m.get("added") or {}).items()):
        sel.setdefault(k, v)
    src_labels = cluster.node(vm["node"])["metadata"]["labels"]
    if vm["model"] == "host-model":
        copied = {k: v for k, v in source_pod["spec"]["nodeSelector"].items()
                  if P_FEATURE in k or P_MIGRATION in k}
        sel.update(copied or host_model_selectors(src_labels))
    if not any(k.startswith(P_VENDOR) for k in sel):
        sel[vendor_key(src_labels)] = "true"
    vm["unschedulable_message"] = spec_m["scheduler_message"]
    target = launcher_pod(cluster, vm, vmi, None, name_seed=name + "/target",
                          created_ago=ago - 1, phase="Pending", node_selector=sel,
                          affinity=pod_affinity(vm, True, vmi["metadata"]["uid"]),
                          migration=mig)
    return [target], mig


def vmi_status(cluster, vm, pods, machine, migration_state, vm_tsc,
               started_ago):
    name = vm["name"]
    if vm["phase"] != "Running":
        return {
            "activePods": {p["metadata"]["uid"]: p["spec"].get("nodeName", "")
                           for p in pods},
            "conditions": [{"lastProbeTime": None,
                            "lastTransitionTime": ts(started_ago - 1),
                            "message": vm["unschedulable_message"],
                            "reason": "Unschedulable", "status": "False",
                            "type": "PodScheduled"}],
            "guestOSInfo": {}, "phase": vm["phase"],
            "phaseTransitionTimestamps": [
                {"phase": "Pending", "phaseTransitionTimestamp": ts(started_ago)},
                {"phase": "Scheduling", "phaseTransitionTimestamp": ts(started_ago - 1)}],
            "qosClass": "Burstable", "runtimeUser": 107,
            "virtualMachineRevisionName": "revision-start-vm-%s-1"
                                          % uid(cluster.name, "VirtualMachine",
                                                vm["ns"], name)}
    reasons = vm["_reasons"]
    ready_t = ts(started_ago - 40)
    conds = [{"lastProbeTime": None, "lastTransitionTime": ready_t,
              "status": "True", "type": "Ready"}]
    if reasons:
        conds.append({"lastProbeTime": None, "lastTransitionTime": None,
                      "message": reasons[0][1], "reason": reasons[0][0],
                      "status": "False", "type": "LiveMigratable"})
    else:
        conds.append({"lastProbeTime": None, "lastTransitionTime": None,
                      "status": "True", "type": "LiveMigratable"})
    storage = [r for r in reasons if r[0] != "DisksNotLiveMigratable"]
    if storage:
        conds.append({"lastProbeTime": None, "lastTransitionTime": None,
                      "message": ", ".join("%s: %s" % r for r in storage),
                      "reason": "NotMigratable", "status": "False",
                      "type": "StorageLiveMigratable"})
    else:
        conds.append({"lastProbeTime": None, "lastTransitionTime": None,
                      "status": "True", "type": "StorageLiveMigratable"})
    if not vm.get("windows"):
        conds.append({"lastProbeTime": None, "lastTransitionTime": ts(started_ago - 60),
                      "status": "True", "type": "AgentConnected"})
    mem = vm["memory"]
    st = {
        "activePods": {p["metadata"]["uid"]: p["spec"].get("nodeName", "")
                       for p in pods},
        "conditions": conds,
        "currentCPUTopology": {"cores": vm["cores"], "sockets": 1, "threads": 1},
        "guestOSInfo": guest_os(vm),
        "launcherContainerImageVersion": LAUNCHER_IMAGE,
        "machine": {"type": machine},
        "memory": {"guestAtBoot": mem, "guestCurrent": mem, "guestRequested": mem},
        "migrationMethod": "BlockMigration" if vm["_block"] else "LiveMigration",
        "migrationTransport": "Unix",
        "nodeName": vm["node"],
        "phase": "Running",
        "phaseTransitionTimestamps": [
            {"phase": p, "phaseTransitionTimestamp": ts(started_ago - s)}
            for p, s in (("Pending", 0), ("Scheduling", 1), ("Scheduled", 9),
                         ("Running", 14))],
        "qosClass": "Burstable", "runtimeUser": 107, "selinuxContext": "none",
        "virtualMachineRevisionName": "revision-start-vm-%s-1"
                                      % uid(cluster.name, "VirtualMachine",
                                            vm["ns"], name),
        "volumeStatus": volume_status(vm, cluster)}
    if vm["net"] != "none":
        # masquerade: the guest sits behind NAT; bridge: the guest takes the
        # pod IP by DHCP.  Either way status reports the pod IP.
        ip = next(p["status"]["podIP"] for p in pods
                  if p["spec"].get("nodeName") == vm["node"]
                  and p["status"]["phase"] == "Running")
        st["interfaces"] = [{"infoSource": "domain, guest-agent",
                             "interfaceName": "eth0", "ipAddress": ip,
                             "ipAddresses": [ip], "linkState": "up",
                             "mac": mac(cluster.name, vm["ns"], name),
                             "name": "default", "podInterfaceName": "eth0",
                             "queueCount": 1}]
    if migration_state:
        st["migrationState"] = migration_state
    if vm_tsc:
        st["topologyHints"] = {"tscFrequency": vm_tsc}
    return st


def guest_os(vm):
    if vm.get("windows"):
        return {"id": "mswindows", "kernelRelease": "26100",
                "kernelVersion": "10.0", "machine": "x86_64",
                "name": "Microsoft Windows Server 2025 Datacenter",
                "prettyName": "Microsoft Windows Server 2025 Datacenter",
                "version": "2025", "versionId": "2025"}
    return {"id": "fedora", "kernelRelease": "6.14.0-63.fc42.x86_64",
            "kernelVersion": "#1 SMP PREEMPT_DYNAMIC", "machine": "x86_64",
            "name": "Fedora Linux", "prettyName": "Fedora Linux 42 (Cloud Edition)",
            "version": "42 (Cloud Edition)", "versionId": "42"}


def vm_object(cluster, vm, vm_uid, vmi, started_ago):
    ns, name = vm["ns"], vm["name"]
    running = vm["phase"] == "Running"
    template_labels = dict(vm["labels"])
    tmpl = {"metadata": {"creationTimestamp": None, "labels": template_labels},
            "spec": vmi_spec(vm, cluster, for_vm_template=True)}
    tmpl_ann = {k: v for k, v in vm["annotations"].items()}
    if tmpl_ann:
        tmpl["metadata"]["annotations"] = tmpl_ann
    conds = []
    if running:
        conds = [c for c in vmi["status"]["conditions"]
                 if c["type"] in ("Ready", "LiveMigratable",
                                  "StorageLiveMigratable", "AgentConnected")]
        printable = "Running"
    else:
        conds = [{"lastProbeTime": None, "lastTransitionTime": ts(started_ago - 1),
                  "message": vm["unschedulable_message"],
                  "reason": "Unschedulable", "status": "False",
                  "type": "PodScheduled"},
                 {"lastProbeTime": None, "lastTransitionTime": ts(started_ago - 1),
                  "message": "Guest VM is not reported as running",
                  "reason": "GuestNotRunning", "status": "False", "type": "Ready"}]
        printable = "ErrorUnschedulable"
    status = {"conditions": conds, "created": True, "desiredGeneration": 2,
              "observedGeneration": 2, "printableStatus": printable,
              "runStrategy": "Always",
              "volumeSnapshotStatuses": [
                  {"enabled": d["type"] == "pvc", "name": d["name"]}
                  | ({} if d["type"] == "pvc" else
                     {"reason": "Snapshot is not supported for this volumeSource "
                                "type [%s]" % d["name"]})
                  for d in vm["disks"]]}
    if running:
        status["ready"] = True
    ann = {"kubevirt.io/latest-observed-api-version": "v1",
           "kubevirt.io/storage-observed-api-version": "v1"}
    ann.update(vm.get("vm_annotations", {}))
    return {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
        "metadata": {"annotations": ann,
                     "creationTimestamp": ts(started_ago + 86400 * (3 + vm["index"] % 5)),
                     "finalizers": ["kubevirt.io/virtualMachineControllerFinalize"],
                     "generation": 2, "labels": dict(vm.get("vm_labels", vm["labels"])),
                     "name": name, "namespace": ns,
                     "resourceVersion": str(3400000 + 89 * vm["index"]),
                     "uid": vm_uid},
        "spec": {"runStrategy": "Always", "template": tmpl},
        "status": status}


# --------------------------------------------------------------------------
# the double-entry check: placement rules of rules-kubevirt.md 2.2 / 2.3

def match_expr(labels, e):
    op, key = e["operator"], e["key"]
    if op == "In":
        return key in labels and labels[key] in e["values"]
    if op == "NotIn":
        return key not in labels or labels[key] not in e["values"]
    if op == "Exists":
        return key in labels
    if op == "DoesNotExist":
        return key not in labels
    fail("operator %s not supported by the checker" % op)


def affinity_ok(labels, affinity):
    terms = (((affinity or {}).get("nodeAffinity") or {})
             .get("requiredDuringSchedulingIgnoredDuringExecution") or {}
             ).get("nodeSelectorTerms")
    if not terms:
        return True
    return any(all(match_expr(labels, e) for e in t.get("matchExpressions", []))
               for t in terms)


def tolerated(taint, tolerations):
    for t in tolerations:
        if t.get("effect") and t["effect"] != taint["effect"]:
            continue
        if t.get("operator") == "Exists":
            if not t.get("key") or t["key"] == taint["key"]:
                return True
        elif t.get("key") == taint["key"] and t.get("value") == taint.get("value"):
            return True
    return False


def offers(node, pod):
    """Whether node's allocatable lists every extended resource and
    hugepages size pod requests (the scheduler's NodeResourcesFit: a
    resource not listed is none; kvscope's capacity.h)."""
    alloc = node["status"].get("allocatable", {})
    for c in pod["spec"].get("containers", []):
        for k, v in c.get("resources", {}).get("requests", {}).items():
            if k in ("cpu", "memory", "ephemeral-storage"):
                continue
            if alloc.get(k, "0") in ("0", "0Gi", "0Mi"):
                return False
    return True


def placement(cluster, vm):
    """(target selectors, cpuTargets, targets) of a migration of vm, or
    (None, None, None) when KubeVirt cannot render the target pod."""
    src_node = cluster.node(vm["node"])
    src_labels = src_node["metadata"]["labels"]
    src_pod = next(p for p in vm["_pods"]
                   if p["spec"].get("nodeName") == vm["node"]
                   and p["status"]["phase"] == "Running")
    vm_tsc = vm["_vmi"]["status"].get("topologyHints", {}).get("tscFrequency")
    sel = source_node_selector(vm, cluster, MACHINE_TYPE, vm_tsc)
    # a pending VMIM's addedNodeSelector, under the template's
    for k, v in sorted(((vm.get("vmim") or {}).get("added") or {}).items()):
        sel.setdefault(k, v)
    if vm["model"] == "host-model":
        copied = {k: v for k, v in src_pod["spec"]["nodeSelector"].items()
                  if P_FEATURE in k or P_MIGRATION in k}
        if copied:
            sel.update(copied)
        else:
            derived = host_model_selectors(src_labels)
            if derived is None:
                return None, None, None
            sel.update(derived)
    if not any(k.startswith(P_VENDOR) for k in sel) and vendor_key(src_labels):
        sel[vendor_key(src_labels)] = "true"
    aff = pod_affinity(vm)
    tolerations = src_pod["spec"]["tolerations"]
    busy = {p["spec"]["nodeName"] for p in vm["_pods"]
            if p["spec"].get("nodeName")
            and p["status"]["phase"] not in ("Succeeded", "Failed")}
    cpu_t, targets = [], []
    for n in cluster.nodes:
        name = n["metadata"]["name"]
        lab = n["metadata"]["labels"]
        if name == vm["node"]:
            continue
        cpu_ok = all(lab.get(k) == v for k, v in sel.items()
                     if k.startswith(CPU_PREFIXES))
        if cpu_ok:
            cpu_t.append(name)
        ok = (cpu_ok and all(lab.get(k) == v for k, v in sel.items())
              and affinity_ok(lab, aff) and name not in busy
              and offers(n, src_pod)
              and not n["spec"].get("unschedulable")
              and all(tolerated(t, tolerations) for t in n["spec"].get("taints", [])
                      if t["effect"] in ("NoSchedule", "NoExecute")))
        if ok:
            targets.append(name)
    return sel, sorted(cpu_t), sorted(targets)


def cpu_features(labels):
    return {k for k in labels if k.startswith(P_FEATURE)}


BLOCKING = {"network-pod-bridge", "network-binding", "disk-not-shared",
            "disk-claim-unknown", "hostdisk-not-shared", "host-device",
            "launch-security", "tsc-frequency", "hyperv-passthrough",
            "host-model-unsupported"}


def derive(cluster, vm):
    """What the rules say about vm; compared with the sample's expectations."""
    if vm["phase"] != "Running":
        return {"verdict": "not-running", "blockers": [], "warnings": [],
                "onDrain": None, "cpuTargets": None, "targets": None}
    blockers, warnings = set(), set()
    if pod_interface(vm, cluster, as_stored=False) == "bridge" and \
            A_ALLOW_BRIDGE not in vm["annotations"]:
        blockers.add("network-pod-bridge")
    for d in vm["disks"]:
        if d["type"] == "pvc":
            modes = volume_claim_modes(vm, cluster, d)
            if modes is None:
                blockers.add("disk-claim-unknown")
            elif "ReadWriteMany" not in modes:
                blockers.add("disk-not-shared")
        elif d["type"] == "hostdisk" and not d.get("shared"):
            blockers.add("hostdisk-not-shared")
        elif d["type"] == "containerdisk":
            kind = d.get("image_kind", "repo")
            iid = image_id(cluster, vm["node"], d["image"], kind)
            if "sha256:" not in iid:
                blockers.add("containerdisk-no-digest")
            elif "@sha256:" not in iid:
                blockers.add("containerdisk-config-digest")
    if any(r[0] == "HostDeviceNotLiveMigratable" for r in vm["_reasons"]):
        blockers.add("host-device")
    sel, cpu_t, targets = placement(cluster, vm)
    if sel is None:
        blockers.add("source-host-model-label-missing")
    elif not cpu_t:
        blockers.add("no-cpu-target")
    elif not targets:
        blockers.add("no-placement-target")
    condition_true = not vm["_reasons"]
    if not condition_true or blockers & BLOCKING:
        verdict = "blocked"
    elif blockers & {"source-host-model-label-missing", "containerdisk-no-digest"}:
        verdict = "stuck"
    elif blockers & {"no-cpu-target", "no-placement-target"}:
        verdict = "no-target"
    elif "containerdisk-config-digest" in blockers:
        verdict = "will-fail"
    else:
        verdict = "ok"
    src_labels = cluster.node(vm["node"])["metadata"]["labels"]
    if vm["model"] == "host-passthrough" and targets and any(
            cpu_features(cluster.node(t)["metadata"]["labels"]) != cpu_features(src_labels)
            for t in targets):
        warnings.add("passthrough-cpu-differs")
    if vm["_block"]:
        warnings.add("block-migration")
    if pod_interface(vm, cluster, as_stored=False) in ("masquerade", "passt"):
        warnings.add("pod-network-reconnect")
    ev = vm["eviction"]
    if ev == "None":
        on_drain = "shutdown"
        warnings.add("eviction-shutdown")
    elif ev == "External":
        on_drain = "external"
    elif ev == "LiveMigrateIfPossible" and not condition_true:
        on_drain = "shutdown"
    else:
        on_drain = "migrate" if verdict == "ok" else "block"
        if on_drain == "block":
            warnings.add("eviction-blocks-drain")
    if len([k for k in src_labels if k.startswith(P_VENDOR)]) > 1:
        warnings.add("stale-vendor-label")
    return {"verdict": verdict, "blockers": sorted(blockers),
            "warnings": sorted(warnings), "onDrain": on_drain,
            "cpuTargets": cpu_t, "targets": targets, "selectors": sel}


def check_expectations(cluster):
    problems = []
    for vm in cluster.vms:
        got = derive(cluster, vm)
        vm["_derived"] = got
        exp = vm["expect"]
        for key in ("verdict", "blockers", "warnings", "onDrain", "cpuTargets",
                    "targets"):
            if key not in exp:
                continue
            want = sorted(exp[key]) if isinstance(exp[key], list) else exp[key]
            if got[key] != want:
                problems.append("%s %s/%s: %s expected %r, rules give %r" % (
                    cluster.name, vm["ns"], vm["name"], key, want, got[key]))
    if problems:
        fail("expectations disagree with the rules:\n  " + "\n  ".join(problems))


# --------------------------------------------------------------------------
# migration policies and timeouts (rules-kubevirt.md 4.2, 4.3)

def matching_policy(cluster, vm):
    best = None
    nsl = cluster.ns_labels(vm["ns"])
    vmil = vm["_vmi"]["metadata"]["labels"]
    for p in cluster.policies:
        sel = p["spec"].get("selectors")
        if sel is None:
            continue
        nss = sel.get("namespaceSelector", {})
        vms = sel.get("virtualMachineInstanceSelector", {})
        if any(nsl.get(k) != v for k, v in nss.items()):
            continue
        if any(vmil.get(k) != v for k, v in vms.items()):
            continue
        key = (-(len(nss) + len(vms)), -len(vms), p["metadata"]["name"])
        if best is None or key < best[0]:
            best = (key, p)
    return best[1] if best else None


def migration_configuration(cluster, vm):
    """The resolved configuration stored in status.migrationState (4.1, 4.2)."""
    conf = {"allowAutoConverge": False, "allowPostCopy": False,
            "allowWorkloadDisruption": False, "bandwidthPerMigration": "0Mi",
            "completionTimeoutPerGiB": 150, "nodeDrainTaintKey": "kubevirt.io/drain",
            "parallelMigrationsPerCluster": 5, "parallelOutboundMigrationsPerNode": 2,
            "progressTimeout": 150, "unsafeMigrationOverride": False}
    conf.update(cluster.kubevirt_conf.get("migrations", {}))
    pol = matching_policy(cluster, vm)
    if pol is not None:
        for k, v in pol["spec"].items():
            if k != "selectors":
                conf[k] = v
        if "allowPostCopy" in pol["spec"] and "allowWorkloadDisruption" not in pol["spec"]:
            conf["allowWorkloadDisruption"] = pol["spec"]["allowPostCopy"]
    return conf, pol["metadata"]["name"] if pol else None


def completion_timeout(cluster, vm):
    pol = matching_policy(cluster, vm)
    per = cluster.kubevirt_conf.get("migrations", {}).get("completionTimeoutPerGiB", 150)
    if pol is not None and "completionTimeoutPerGiB" in pol["spec"]:
        per = pol["spec"]["completionTimeoutPerGiB"]
    units = math.ceil(qty_bytes(vm["memory"]) / 10 ** 9)
    return per * units, pol["metadata"]["name"] if pol else None


# --------------------------------------------------------------------------
# CPU classes (findings.md) for the README

def cpu_classes(cluster):
    groups = {}
    for n in cluster.nodes:
        lab = n["metadata"]["labels"]
        key = tuple(sorted((k, v) for k, v in lab.items()
                           if k.startswith(CPU_PREFIXES)))
        if not key:
            continue
        groups.setdefault(key, []).append(n["metadata"]["name"])
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), sorted(kv[1])[0]))
    return [("C%d" % (i + 1), sorted(members), dict(key))
            for i, (key, members) in enumerate(ordered)]


def class_pairs(classes):
    out = []
    for sid, _, slab in classes:
        model = next((k[len(P_HOSTMODEL):] for k in slab if k.startswith(P_HOSTMODEL)), None)
        vendor = next((k for k in slab if k.startswith(P_VENDOR)), None)
        req = [k[len(P_REQUIRED):] for k in slab if k.startswith(P_REQUIRED)]
        for tid, _, tlab in classes:
            if model is None:
                continue
            need = [P_MIGRATION + model] + [P_FEATURE + f for f in req]
            if vendor:
                need.append(vendor)
            missing = sorted(k for k in need if k not in tlab)
            out.append((sid, tid, missing))
    return out


# --------------------------------------------------------------------------
# writing a sample

def write_sample(cluster, outdir):
    vmis, vms, pods, vmims = build_vm_objects(cluster)
    check_expectations(cluster)
    objs = {
        ("nodes", ""): cluster.nodes,
        ("namespaces", ""): cluster.namespaces,
        ("pods", ""): pods,
        ("persistentvolumeclaims", ""): list(cluster.pvcs.values()),
        ("persistentvolumes", ""): cluster.pvs,
        ("storageclasses", "storage.k8s.io"): list(cluster.storageclasses.values()),
        ("virtualmachineinstances", "kubevirt.io"): vmis,
        ("virtualmachines", "kubevirt.io"): vms,
        ("virtualmachineinstancemigrations", "kubevirt.io"): vmims,
        ("kubevirts", "kubevirt.io"): [cluster.kubevirt_cr()],
        ("migrationpolicies", "migrations.kubevirt.io"): cluster.policies,
    }
    sdir = os.path.join(outdir, cluster.name)
    if os.path.isdir(sdir):
        shutil.rmtree(sdir)
    os.makedirs(os.path.join(sdir, "resources"))
    files = {}
    entries = []
    for plural, group in RESOURCES:
        if group not in PRESENT_GROUPS:
            entries.append({"resource": plural, "group": group, "status": "absent"})
            continue
        items = objs.get((plural, group))
        if items is None:
            fail("%s: no objects for %s.%s" % (cluster.name, plural, group))
        items = sorted(items, key=lambda o: (o["metadata"].get("namespace", ""),
                                             o["metadata"]["name"]))
        fname = "resources/%s.json" % (plural if not group else plural + "." + group)
        if fname in cluster.jsonl:
            text = "".join(dump_line(o) + "\n" for o in items)
        else:
            text = dump_pretty({"apiVersion": "v1", "items": items, "kind": "List",
                                "metadata": {"resourceVersion": ""}})
        files[fname] = text.encode("utf-8")
        entries.append({"resource": plural, "group": group, "file": fname,
                        "status": "ok", "count": len(items)})
    files["README.md"] = readme(cluster).encode("utf-8")
    manifest = {
        "kind": "kvscope-snapshot",
        "formatVersion": 1,
        "createdAt": CREATED_AT,
        "collector": {"name": "kvscope-samples", "version": GENERATOR_VERSION},
        "cluster": {"context": cluster.context, "kubernetesVersion": K8S_VERSION,
                    "kubevirtVersion": KUBEVIRT_VERSION, "flavor": "kubevirt"},
        "options": {"namespaces": [], "redact": True, "anonymize": False},
        "resources": entries,
        "redactions": [],
        "files": [{"path": p, "bytes": len(b), "sha256": hashlib.sha256(b).hexdigest()}
                  for p, b in sorted(files.items())],
    }
    files["manifest.json"] = (json.dumps(manifest, indent=2, ensure_ascii=False)
                              + "\n").encode("utf-8")
    for p, b in sorted(files.items()):
        with open(os.path.join(sdir, p), "wb") as f:
            f.write(b)
    return sorted(files)


# --------------------------------------------------------------------------
# README of a sample

def md(text):
    """Markdown-safe inline code for names that may contain anything."""
    text = text.replace("|", "\\|")
    return "``%s``" % text if "`" in text else "`%s`" % text


def codes(lst):
    return ", ".join(lst) if lst else "—"


def nodes_list(lst):
    if lst is None:
        return "(not asserted)"
    return ", ".join(md(x) for x in lst) if lst else "—"


def readme(cluster):
    out = ["# Sample `%s`" % cluster.name, "", cluster.readme_intro.strip(), "",
           "Generated by `tools/gen-samples.py`; do not edit by hand (re-run the "
           "generator). Snapshot time %s, KubeVirt %s, Kubernetes %s."
           % (CREATED_AT, KUBEVIRT_VERSION, K8S_VERSION), "",
           "## Nodes", "",
           "| node | CPU data (shared/data/real-cpus) | host-model | vendor | notes |",
           "| --- | --- | --- | --- | --- |"]
    for n in cluster.nodes:
        name = n["metadata"]["name"]
        meta = cluster.node_meta[name]
        h = meta["host"]
        lab = n["metadata"]["labels"]
        hm = next((k[len(P_HOSTMODEL):] for k in lab if k.startswith(P_HOSTMODEL)), None)
        ven = next((k[len(P_VENDOR):] for k in lab if k.startswith(P_VENDOR)), None)
        src = "—"
        if h is not None:
            src = "`%s/%s`%s" % (os.path.basename(os.path.dirname(h.path)), h.file,
                                 " (models synthesized)" if h.synthesized else "")
        out.append("| %s | %s | %s | %s | %s |" % (
            md(name), src, hm or "—", ven or "—", meta["desc"] or ""))
    classes = cpu_classes(cluster)
    out += ["", "## CPU classes and host-model pairs", "",
            "Classes as findings.md defines them (identical CPU labels):", ""]
    for cid, members, _ in classes:
        out.append("* %s: %s" % (cid, ", ".join(md(m) for m in members)))
    out += ["", "host-model pairs (source → target: missing label keys):", ""]
    for s, t, missing in class_pairs(classes):
        if not missing:
            out.append("* %s → %s: ok" % (s, t))
        else:
            shown = ", ".join("`%s`" % m for m in missing[:6])
            more = " … (%d in all)" % len(missing) if len(missing) > 6 else ""
            out.append("* %s → %s: not ok, missing %s%s" % (s, t, shown, more))
    out += ["", "## VMIs and the expected kvscope verdicts", "",
            "Sorted by namespace, then name, as in findings.json. `condition` is the "
            "stored LiveMigratable condition; codes are findings.md codes "
            "(blockers and warnings are sorted). cpuTargets / targets are the "
            "expected `cpuTargets` / `targets` lists.", "",
            "| VMI | node | cpu | condition | verdict | blockers | warnings | cpuTargets | targets | onDrain |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    vms = sorted(cluster.vms, key=lambda v: (v["ns"], v["name"]))
    for vm in vms:
        got = vm["_derived"]
        conds = vm["_vmi"]["status"].get("conditions", [])
        lm = next((c for c in conds if c["type"] == "LiveMigratable"), None)
        cond = "absent" if lm is None else (
            lm["status"] + ((" " + lm["reason"]) if lm.get("reason") else ""))
        cpu = vm["model"]
        cpu_t = vm["expect"].get("cpuTargets")
        tgt = vm["expect"].get("targets")
        out.append("| %s | %s | %s | %s | **%s** | %s | %s | %s | %s | %s |" % (
            md(vm["ns"] + "/" + vm["name"]), md(vm["node"]) if vm.get("node") else "—",
            cpu, cond, got["verdict"], codes(got["blockers"]),
            codes(got["warnings"]), nodes_list(cpu_t), nodes_list(tgt),
            got["onDrain"] or "—"))
    out += ["", "Why:", ""]
    for vm in vms:
        out.append("* %s — %s" % (md(vm["ns"] + "/" + vm["name"]),
                                  vm["expect"]["why"].strip()))
    out += ["", "## Migration settings per VMI", "",
            "`completionTimeoutSeconds` = completionTimeoutPerGiB (policy, else "
            "cluster, else 150) × ceil(guest memory / 10^9). For a "
            "BlockMigration VMI KubeVirt also adds the size of the local disks, "
            "which a snapshot does not show: those rows (marked *) give the "
            "memory part only.", "",
            "| VMI | migrationMethod | evictionStrategy | policy | completionTimeoutSeconds | outcome |",
            "| --- | --- | --- | --- | --- | --- |"]
    for vm in vms:
        if vm["phase"] != "Running":
            out.append("| %s | — | %s | — | — | none |" % (
                md(vm["ns"] + "/" + vm["name"]), vm["eviction"]))
            continue
        secs, pol = completion_timeout(cluster, vm)
        method = vm["_vmi"]["status"]["migrationMethod"]
        out.append("| %s | %s | %s | %s | %d%s | %s |" % (
            md(vm["ns"] + "/" + vm["name"]), method, vm["eviction"],
            md(pol) if pol else "—", secs, "*" if method == "BlockMigration" else "",
            outcome(vm)))
    out += ["", "## Drain (per node running VMIs)", "",
            "| node | vmis | migrate | block | shutdown | external | blocking |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for n in cluster.nodes:
        name = n["metadata"]["name"]
        on = [vm for vm in cluster.vms if vm.get("node") == name
              and vm["phase"] == "Running"]
        if not on:
            continue
        cnt = {k: sum(1 for vm in on if vm["_derived"]["onDrain"] == k)
               for k in ("migrate", "block", "shutdown", "external")}
        blocking = sorted(vm["ns"] + "/" + vm["name"] for vm in on
                          if vm["_derived"]["onDrain"] == "block")
        out.append("| %s | %d | %d | %d | %d | %d | %s |" % (
            md(name), len(on), cnt["migrate"], cnt["block"], cnt["shutdown"],
            cnt["external"], ", ".join(md(b) for b in blocking) or "—"))
    if cluster.readme_notes:
        out += ["", "## Notes", ""]
        for note in cluster.readme_notes:
            out.append("* " + note.strip())
    return "\n".join(out) + "\n"


def outcome(vm):
    v = vm["_derived"]["verdict"]
    over = (vm.get("vmim") or {}).get("annotations", {})
    if v == "ok":
        return "migrates"
    if v == "blocked":
        return "rejected after 0 s"
    if v == "stuck":
        return "pending-forever"
    if v == "no-target":
        return "unschedulable after %s s" % over.get(A_UNSCHED_TIMEOUT, "300")
    if v == "will-fail":
        return "pending-timeout after %s s" % over.get(A_PENDING_TIMEOUT, "900")
    return "none"


# --------------------------------------------------------------------------
# the samples

HASWELL = "libvirt-cputestdata/x86_64-cpuid-Xeon-E5-2650-v3-json.xml"
BROADWELL = "libvirt-cputestdata/x86_64-cpuid-Xeon-E5-2650-v4-json.xml"
CASCADE = "libvirt-cputestdata/x86_64-cpuid-Xeon-Platinum-8268-json.xml"
ICELAKE = "libvirt-cputestdata/x86_64-cpuid-Ice-Lake-Server-json.xml"
GENOA = "libvirt-cputestdata/x86_64-cpuid-EPYC-9334-32-Core-json.xml"
GNR_TDX = "kubevirt-testdata/domcapabilities_tdx.xml"
GNR_6788P = "libvirt-cputestdata/x86_64-cpuid-Xeon-6788P-json.xml"

FEDORA = "quay.io/containerdisks/fedora:42"
CENTOS = "quay.io/containerdisks/centos-stream:9"
RWX = ["ReadWriteMany"]
RWO = ["ReadWriteOnce"]


def common_namespaces(c):
    for ns in ("default", "kube-node-lease", "kube-public", "kube-system"):
        c.add_namespace(ns)
    c.add_namespace("kubevirt", {"kubevirt.io": "",
                                 "pod-security.kubernetes.io/enforce": "privileged"})


def control_plane(c):
    c.add_node("cp1", cpus=8, mem_gib=32, zone="zone-a", role="control-plane",
               desc="control plane, no KubeVirt labels, tainted "
                    "`node-role.kubernetes.io/control-plane:NoSchedule`")


def mixed_cluster(name, context, cpu, n):
    """The mixed-hardware cluster; n maps the plain names to the names used
    (identity for `mixed`, hostile strings for `hostile`)."""
    c = Cluster(name, context, cpu)
    common_namespaces(c)
    c.add_namespace(n["prod"], {"env": n["env-prod"], "team": n["team-pay"]},
                    n.get("ns-ann"))
    c.add_namespace(n["dev"], {"env": "dev"})
    c.add_namespace(n["infra"], {"env": n["env-prod"], "team": "infra"})
    zone_a, zone_b = n["zone-a"], n["zone-b"]
    control_plane(c)
    c.add_node("w1", HASWELL, cpus=40, mem_gib=256, zone=zone_a,
               tsc=(2299968000, False),
               desc="Xeon E5-2650 v3 (Haswell-EP); no TSC scaling")
    c.add_node("w2", BROADWELL, cpus=48, mem_gib=256, zone=zone_a,
               tsc=(2199996000, False), cordoned=True,
               desc="Xeon E5-2650 v4 (Broadwell-EP); **cordoned** "
                    "(`spec.unschedulable` + `node.kubernetes.io/unschedulable:NoSchedule`)")
    c.add_node("w3", CASCADE, cpus=96, mem_gib=768, zone=zone_a,
               tsc=(2893202000, True), desc="Xeon Platinum 8268 (Cascade Lake); twin of w4")
    c.add_node("w4", CASCADE, cpus=96, mem_gib=768, zone=zone_b,
               tsc=(2893198000, True), desc="Xeon Platinum 8268 (Cascade Lake); twin of w3")
    c.add_node("w5", ICELAKE, cpus=112, mem_gib=512, zone=zone_b,
               tsc=(1995312000, True), desc="Xeon 3rd gen (Ice Lake-SP)")
    c.add_node("a1", GENOA, cpus=128, mem_gib=768, zone=zone_b,
               tsc=(2695620000, True), desc="AMD EPYC 9334 (Genoa)")
    c.add_storageclass("ceph-rbd", "rbd.csi.ceph.com", default=True)
    c.add_storageclass("nfs-csi", "nfs.csi.k8s.io")
    c.add_storageclass("local-path", "rancher.io/local-path")
    c.kubevirt_conf = {
        "developerConfiguration": {"featureGates": ["ExpandDisks", "HotplugVolumes",
                                                    "Snapshot"],
                                   "disabledFeatureGates": ["ImageVolume"]},
        "evictionStrategy": "LiveMigrate",
        "migrations": {"bandwidthPerMigration": "512Mi",
                       "completionTimeoutPerGiB": 150,
                       "parallelMigrationsPerCluster": 5,
                       "parallelOutboundMigrationsPerNode": 2,
                       "progressTimeout": 150},
        "network": {"defaultNetworkInterface": "masquerade"},
        "vmStateStorageClass": "ceph-rbd",
    }
    c.add_policy(n["policy"], ns_selector={"env": n["env-prod"]},
                 completionTimeoutPerGiB=300, bandwidthPerMigration="1Gi",
                 allowAutoConverge=True)
    prod, dev, infra = n["prod"], n["dev"], n["infra"]

    def pvc(ns, vm, size="40Gi", modes=RWX, mode="Block"):
        claim = n.get("pvc:" + vm, n[vm] + "-root")
        c.add_pvc(ns, claim, "ceph-rbd", modes, size, mode)
        return {"name": "rootdisk", "type": "pvc", "claim": claim}

    cloudinit = {"name": "cloudinitdisk", "type": "cloudinit"}
    app = n["label-app"]
    c.add_vm(ns=prod, name=n["db-0"], node="w3", memory="16Gi", cores=8,
             labels={"app": "postgres", "workload": "db", "app.kubernetes.io/part-of": app},
             annotations={"description": n["ann-db"]},
             disks=[pvc(prod, "db-0", "200Gi"), cloudinit],
             expect=dict(verdict="ok", cpuTargets=["w4", "w5"], targets=["w4", "w5"],
                         warnings=["block-migration", "pod-network-reconnect"],
                         why="host-model on Cascade Lake w3: w4 (twin) and w5 (Ice Lake has every "
                             "Cascade Lake required feature) qualify; cloud-init disk makes it a "
                             "BlockMigration; masquerade."))
    c.add_vm(ns=prod, name=n["db-1"], node="w4", memory="16Gi", cores=8,
             labels={"app": "postgres", "workload": "db", "app.kubernetes.io/part-of": app},
             annotations={"description": n["ann-db"]},
             disks=[pvc(prod, "db-1", "200Gi"), cloudinit],
             expect=dict(verdict="ok", cpuTargets=["w3", "w5"], targets=["w3", "w5"],
                         warnings=["block-migration", "pod-network-reconnect"],
                         why="host-model on w4: its twin w3 and w5 qualify."))
    c.add_vm(ns=prod, name=n["web-0"], node="w1", memory="4Gi",
             labels={"app": "nginx", "app.kubernetes.io/part-of": app},
             disks=[{"name": "containerdisk", "type": "containerdisk", "image": FEDORA},
                    cloudinit],
             expect=dict(verdict="no-target", blockers=["no-cpu-target"], cpuTargets=[],
                         targets=[], warnings=["block-migration", "eviction-blocks-drain",
                                               "pod-network-reconnect"],
                         why="host-model on Haswell w1 requires `cpu-feature…/vmx` (a w1 "
                             "host-model required feature) that no other Intel node has; "
                             "LiveMigratable is True because it ignores the destination; "
                             "LiveMigrate strategy so a drain of w1 waits forever."))
    c.add_vm(ns=prod, name=n["cache-0"], node="w2", memory="8Gi",
             eviction="None", labels={"app": "redis"},
             disks=[{"name": "containerdisk", "type": "containerdisk", "image": FEDORA}],
             expect=dict(verdict="ok", cpuTargets=["w3", "w4", "w5"],
                         targets=["w3", "w4", "w5"],
                         warnings=["block-migration", "eviction-shutdown",
                                   "pod-network-reconnect"],
                         why="host-model on the cordoned Broadwell w2 (cordon does not stop "
                             "running VMs): Cascade Lake and Ice Lake carry all its required "
                             "features; containerDisk with a repository digest; evictionStrategy "
                             "None, so a drain stops it."))
    c.add_vm(ns=prod, name=n["reporting"], node="w3", model="Haswell-noTSX-IBRS",
             memory="8Gi", labels={"app": "reporting"},
             disks=[pvc(prod, "reporting", "60Gi")],
             expect=dict(verdict="ok", cpuTargets=["w4", "w5"], targets=["w4", "w5"],
                         warnings=["pod-network-reconnect"],
                         why="named model Haswell-noTSX-IBRS is usable on w3, w4, w5 and a1; "
                             "a1 is AMD (vendor selector); only RWX PVC so LiveMigration."))
    c.add_vm(ns=dev, name=n["legacy-app"], node="w1", model="Haswell-noTSX",
             memory="2Gi", labels={"app": "legacy"},
             disks=[pvc(dev, "legacy-app", "30Gi")],
             expect=dict(verdict="ok", cpuTargets=["w2", "w3", "w4", "w5"],
                         targets=["w3", "w4", "w5"], warnings=["pod-network-reconnect"],
                         why="named model Haswell-noTSX is usable on every Intel node; w2 "
                             "satisfies the CPU selectors but is cordoned."))
    c.add_vm(ns=dev, name=n["build-runner"], node="w5", model="host-passthrough",
             cores=16, memory="32Gi", labels={"app": "ci-runner"},
             disks=[{"name": "containerdisk", "type": "containerdisk", "image": FEDORA},
                    cloudinit],
             expect=dict(verdict="ok", cpuTargets=["w1", "w2", "w3", "w4"],
                         targets=["w1", "w3", "w4"],
                         warnings=["block-migration", "passthrough-cpu-differs",
                                   "pod-network-reconnect"],
                         why="host-passthrough: only the vendor selector applies, so every "
                             "other Intel node is a CPU target (w2 cordoned); all of them have "
                             "a different CPU than Ice Lake w5."))
    c.add_vm(ns=prod, name=n["analytics"], node="a1", model="EPYC-Genoa",
             cores=16, memory="64Gi", labels={"app": "analytics"},
             disks=[pvc(prod, "analytics", "500Gi")],
             expect=dict(verdict="no-target", blockers=["no-cpu-target"], cpuTargets=[],
                         targets=[], warnings=["eviction-blocks-drain",
                                               "pod-network-reconnect"],
                         why="named model EPYC-Genoa is usable only on a1, and the migration "
                             "target needs the source's vendor label (AMD): no other node."))
    zone_aff = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [
            {"key": "topology.kubernetes.io/zone", "operator": "In",
             "values": [zone_a]}]}]}}}
    c.add_vm(ns=infra, name=n["ledger"], node="w3", memory="8Gi",
             labels={"app": "ledger"}, affinity=zone_aff,
             disks=[pvc(infra, "ledger", "100Gi")],
             expect=dict(verdict="no-target", blockers=["no-placement-target"],
                         cpuTargets=["w4", "w5"], targets=[],
                         warnings=["eviction-blocks-drain", "pod-network-reconnect"],
                         why="host-model on w3 with required node affinity to zone-a: the CPU "
                             "targets w4 and w5 are in zone-b, the zone-a nodes w1/w2 lack the "
                             "Cascade Lake features (and w2 is cordoned)."))
    c.add_vm(ns=prod, name=n["files-rwo"], node="w4", memory="4Gi",
             labels={"app": "fileserver"},
             disks=[pvc(prod, "files-rwo", "1Ti", RWO, "Filesystem")],
             expect=dict(verdict="blocked", blockers=["disk-not-shared"],
                         cpuTargets=["w3", "w5"], targets=["w3", "w5"],
                         warnings=["block-migration", "eviction-blocks-drain",
                                   "pod-network-reconnect"],
                         why="RWO ceph-rbd Filesystem PVC: LiveMigratable False "
                             "DisksNotLiveMigratable (virt-handler then also reports "
                             "migrationMethod BlockMigration); LiveMigrate strategy blocks a "
                             "drain of w4."))
    c.add_vm(ns=dev, name=n["win-app"], node="w4", memory="8Gi", cores=4,
             memory_style="requests", windows=True, labels={"app": "windows-app",
                                                           "os.template.kubevirt.io/windows2k25": "true"},
             disks=[pvc(dev, "win-app", "120Gi")],
             expect=dict(verdict="ok", cpuTargets=["w3", "w5"], targets=["w3", "w5"],
                         warnings=["pod-network-reconnect"],
                         why="Windows with Hyper-V reenlightenment: topologyHints.tscFrequency = "
                             "lowest cluster TSC (w5); the target needs "
                             "`scheduling.node.kubevirt.io/tsc-frequency-1995312000`, which the "
                             "TSC-scalable w3 and w5 carry; e1000e + masquerade."))
    c.add_vm(ns=dev, name=n["batch-big"], node=None, phase="Scheduling",
             cores=64, memory="1000Gi", labels={"app": "batch"},
             unschedulable_message=(
                 "0/7 nodes are available: 1 node(s) had untolerated taint "
                 "{node-role.kubernetes.io/control-plane: }, 1 node(s) were "
                 "unschedulable, 5 Insufficient memory. preemption: 0/7 nodes are "
                 "available: 2 Preemption is not helpful for scheduling, 5 No "
                 "preemption victims found for incoming pod."),
             disks=[{"name": "containerdisk", "type": "containerdisk", "image": FEDORA}],
             expect=dict(verdict="not-running", blockers=[], warnings=[],
                         why="phase Scheduling: asks for 1000Gi, more than any node has; "
                             "its launcher pod is Pending/Unschedulable; nothing judged."))
    return c


def sample_mixed(cpu):
    ident = {k: k for k in (
        "prod", "dev", "infra", "db-0", "db-1", "web-0", "cache-0", "reporting",
        "legacy-app", "build-runner", "analytics", "ledger", "files-rwo",
        "win-app", "batch-big")}
    ident.update({"env-prod": "prod", "team-pay": "payments", "zone-a": "zone-a",
                  "zone-b": "zone-b", "policy": "prod-migrations",
                  "label-app": "shop", "ann-db": "primary database of the shop"})
    c = mixed_cluster("mixed", "lab-mixed", cpu, ident)
    c.jsonl.add("resources/persistentvolumeclaims.json")
    c.readme_intro = """
Mixed hardware: a control plane node without KubeVirt, four Intel generations
(Haswell w1, Broadwell w2, two identical Cascade Lake nodes w3/w4, Ice Lake w5)
and one AMD EPYC Genoa node a1. w2 is cordoned. Zones: w1, w2, w3 in `zone-a`;
w4, w5, a1 in `zone-b`. Storage: Ceph RBD (RWX only with `volumeMode: Block`).
The KubeVirt CR sets `evictionStrategy: LiveMigrate` and
`network.defaultNetworkInterface: masquerade`; MigrationPolicy `prod-migrations`
matches the namespaces labelled `env=prod` (`prod`, `infra`).

`resources/persistentvolumeclaims.json` is written as JSON Lines (one object per
line) so that readers exercise both forms.
"""
    c.readme_notes = [
        "All CPU data of this cluster comes from host-model-only files, so "
        "`cpu-model.*` / `cpu-model-migration.*` labels are synthesized (see the "
        "generator's docstring): every node knows every libvirt model name.",
        "w1's host model (Haswell-noTSX) requires `vmx`, which no other node "
        "reports: host-model VMIs on w1 can go nowhere. w5's (Ice Lake) require "
        "`avx512ifma`, `sha-ni`, ... that Cascade Lake lacks: host-model VMIs "
        "on w5 could not move either (none is placed there).",
        "Cascade Lake host-model VMIs are not limited to their twin: Ice Lake w5 "
        "carries every Cascade Lake required feature.",
    ]
    return c


def sample_hostile(cpu):
    x = "<script>alert(1)</script>"
    n = {
        "prod": "prod" + x,
        "dev": "dev \"quoted\" 'single' &amp; --",
        "infra": "инфра-ВМ",
        "db-0": "ВМ-база-данных",
        "db-1": "数据库-1",
        "web-0": "web" + x,
        "cache-0": "cache&amp;0 ]]>",
        "reporting": "report\"ing'",
        "legacy-app": "legacy]]><!--app-->",
        "build-runner": "build--runner-🚀",
        "analytics": "analytics <b>bold</b>",
        "ledger": "ledger😈'\"",
        "files-rwo": "files-rwo&lt;x&gt;",
        "win-app": "win-app-Ünïcödé",
        "batch-big": "batch</td><td>big",
        "env-prod": "prod\"><img src=x onerror=alert(1)>",
        "team-pay": "payments & co",
        "zone-a": "zone-a'--",
        "zone-b": "zone-b]]>",
        "policy": "policy" + x,
        "label-app": "shop\"><svg onload=alert(1)>",
        "ann-db": "база данных <i>\"главная\"</i> & 主数据库 🚀 ]]> -- '",
        "pvc:files-rwo": "pvc-<b>rwo</b>&'\"",
        "ns-ann": {"description": "namespace " + x + " & \"quotes\""},
    }
    c = mixed_cluster("hostile", "lab-hostile" + x, cpu, n)
    c.readme_intro = """
The `mixed` cluster's shape (same nodes, same VMs, same expected verdicts), but
namespace and VM names, label values, annotation values, zone names, PVC and
MigrationPolicy names contain markup, quotes, `&amp;`, `]]>`, `--`, Cyrillic,
Chinese and emoji — also where Kubernetes would reject them, because a hostile
or hand-edited snapshot can contain anything. Reports must escape every one of
them. All files are valid UTF-8 JSON; like kubectl (Go's encoding/json), the
generator writes `<`, `>` and `&` as `\\u003c`, `\\u003e`, `\\u0026`.
"""
    c.readme_notes = [
        "The PVC of the RWO VMI is named `pvc-<b>rwo</b>&'\"`, so the stored "
        "LiveMigratable message contains markup too.",
        "Node names are plain (w1 ... a1); zone label values are hostile and the "
        "zone affinity of the ledger VMI uses them.",
    ]
    return c


def sample_same_host_model(cpu):
    c = Cluster("same-host-model", "lab-gnr", cpu)
    common_namespaces(c)
    c.add_namespace("gnr", {"env": "prod"})
    control_plane(c)
    c.add_node("g1", GNR_TDX, cpus=288, mem_gib=1024, zone="zone-a",
               tsc=(2000000000, True),
               desc="Xeon 6 P-core (Granite Rapids) with TDX; full domcapabilities")
    c.add_node("g2", GNR_TDX, cpus=288, mem_gib=1024, zone="zone-a",
               tsc=(2000002000, True), desc="twin of g1")
    c.add_node("g3", GNR_6788P, cpus=344, mem_gib=1024, zone="zone-b",
               tsc=(2000006000, True),
               desc="Xeon 6788P (Granite Rapids, AVX10); host-model-only data")
    c.add_node("g4", GNR_6788P, cpus=344, mem_gib=1024, zone="zone-b",
               tsc=(1999998000, True), desc="twin of g3")
    c.add_storageclass("ceph-rbd", "rbd.csi.ceph.com", default=True)
    c.kubevirt_conf = {
        "developerConfiguration": {"featureGates": ["Snapshot"],
                                   "disabledFeatureGates": ["ImageVolume"]},
        "evictionStrategy": "LiveMigrate",
        "migrations": {"parallelMigrationsPerCluster": 5,
                       "parallelOutboundMigrationsPerNode": 2},
    }
    for i, (node, peers) in enumerate((("g1", ["g2"]), ("g1", ["g2"]),
                                       ("g2", ["g1"]), ("g3", ["g4"]),
                                       ("g4", ["g3"]), ("g4", ["g3"]))):
        name = "app-%d" % (i + 1)
        c.add_pvc("gnr", name + "-root", "ceph-rbd", RWX, "50Gi", "Block")
        c.add_vm(ns="gnr", name=name, node=node, memory="8Gi", cores=4,
                 labels={"app": "app"},
                 disks=[{"name": "rootdisk", "type": "pvc", "claim": name + "-root"}],
                 expect=dict(verdict="ok", cpuTargets=peers, targets=peers,
                             warnings=["pod-network-reconnect"],
                             why="host-model GraniteRapids on %s: only its twin %s carries "
                                 "every required feature of %s's host model." % (
                                     node, peers[0], node)))
    c.add_pvc("gnr", "named-csl-root", "ceph-rbd", RWX, "50Gi", "Block")
    c.add_vm(ns="gnr", name="named-csl", node="g3", model="Cascadelake-Server-v5",
             memory="8Gi", cores=4, labels={"app": "app"},
             disks=[{"name": "rootdisk", "type": "pvc", "claim": "named-csl-root"}],
             expect=dict(verdict="ok", cpuTargets=["g1", "g2", "g4"],
                         targets=["g1", "g2", "g4"], warnings=["pod-network-reconnect"],
                         why="named model Cascadelake-Server-v5 is usable on all four "
                             "Granite Rapids nodes, so it crosses the two host-model classes."))
    c.add_pvc("gnr", "named-spr-root", "ceph-rbd", RWX, "50Gi", "Block")
    c.add_vm(ns="gnr", name="named-spr", node="g2", model="SapphireRapids",
             memory="8Gi", cores=4, labels={"app": "app"},
             disks=[{"name": "rootdisk", "type": "pvc", "claim": "named-spr-root"}],
             expect=dict(verdict="ok", cpuTargets=["g1"], targets=["g1"],
                         warnings=["pod-network-reconnect"],
                         why="named model SapphireRapids: usable on the TDX hosts (libvirt "
                             "says so in domcapabilities) but not on the 6788P hosts, whose "
                             "synthesized usability fails on `hle`, `rtm` and `taa-no` (the "
                             "6788P disables them)."))
    c.readme_intro = """
Two kinds of Granite Rapids host with the **same host-model name**
(`GraniteRapids`) but different required features, two nodes of each:
g1/g2 from KubeVirt's `domcapabilities_tdx.xml` (full domcapabilities, TDX) and
g3/g4 from libvirt's `x86_64-cpuid-Xeon-6788P-json.xml` (host-model only).
host-model VMIs can only move to their twin: the host-model name matches
everywhere, the required features do not. Named models cross over.
"""
    c.readme_notes = [
        "g1/g2 → g3/g4 fails on `invtsc` and `vmx-encls-exit`; g3/g4 → g1/g2 "
        "fails on `avx10*`, `bhi-ctrl`, `ddpd-u`, `ipred-ctrl`, `its-no`, "
        "`rrsba-ctrl` (see the pairs above).",
        "g1/g2 also carry `kubevirt.io/tdx` (domcapabilities `<tdx supported='yes'/>`).",
    ]
    return c


def sample_pitfalls(cpu):
    c = Cluster("pitfalls", "lab-pitfalls", cpu)
    common_namespaces(c)
    c.add_namespace("pit", {"team": "platform"})
    c.add_namespace("db", {"team": "db"})
    control_plane(c)
    for i, name in enumerate(("p1", "p2", "p3")):
        extra = {}
        desc = "Xeon Platinum 8268 (Cascade Lake)"
        if name == "p3":
            extra = {"nvidia.com/GRID_T4-4Q": "4"}
            desc += "; 4 × NVIDIA T4 vGPU (`nvidia.com/GRID_T4-4Q`)"
        c.add_node(name, CASCADE, cpus=96, mem_gib=768, zone="zone-a",
                   tsc=(2893202000 + 2000 * i, True), extra_allocatable=extra,
                   desc=desc)

    def p4_filter(key):
        return not key.startswith((P_HOSTMODEL, P_REQUIRED, P_MIGRATION,
                                   "cpu-timer.", "hyperv."))

    c.add_node("p4", CASCADE, cpus=96, mem_gib=768, zone="zone-b",
               annotations={A_SKIP_NODE: "true"}, label_filter=p4_filter,
               desc="Cascade Lake, annotated `node-labeller.kubevirt.io/skip-node`; "
                    "its labels were maintained by hand and lack `host-model-cpu.*`, "
                    "`host-model-required-features.*`, `cpu-model-migration.*`, "
                    "`cpu-timer.*` and `hyperv.*`")
    c.add_node("p5", BROADWELL, cpus=48, mem_gib=256, zone="zone-b",
               tsc=(2199996000, False), runtime="cri-o://1.34.1",
               desc="Xeon E5-2650 v4 (Broadwell); **CRI-O** runtime "
                    "(imageIDs are bare hex, no `sha256:`)")
    c.add_storageclass("ceph-rbd", "rbd.csi.ceph.com", default=True)
    c.add_storageclass("nfs-csi", "nfs.csi.k8s.io")
    c.add_storageclass("local-path", "rancher.io/local-path")
    c.kubevirt_conf = {
        "developerConfiguration": {"featureGates": ["GPU", "HostDisk"],
                                   "disabledFeatureGates": ["ImageVolume"]},
        "evictionStrategy": "LiveMigrate",
        "permittedHostDevices": {"mediatedDevices": [
            {"mdevNameSelector": "GRID T4-4Q", "resourceName": "nvidia.com/GRID_T4-4Q"}]},
    }
    c.add_policy("db-namespace", ns_selector={"team": "db"},
                 completionTimeoutPerGiB=250)
    c.add_policy("db-slow", ns_selector={"team": "db"},
                 vmi_selector={"workload": "database"},
                 completionTimeoutPerGiB=400, bandwidthPerMigration="256Mi")

    def rwx(ns, name, size="40Gi"):
        c.add_pvc(ns, name + "-root", "ceph-rbd", RWX, size, "Block")
        return {"name": "rootdisk", "type": "pvc", "claim": name + "-root"}

    # storage
    c.add_pvc("pit", "nfs-rwo-root", "nfs-csi", RWO, "40Gi")
    c.add_vm(ns="pit", name="nfs-rwo", node="p1",
             disks=[{"name": "rootdisk", "type": "pvc", "claim": "nfs-rwo-root"}],
             expect=dict(verdict="blocked", blockers=["disk-not-shared"],
                         cpuTargets=["p2", "p3"], targets=["p2", "p3"],
                         warnings=["block-migration", "eviction-blocks-drain",
                                   "pod-network-reconnect"],
                         why="PVC on NFS but requested ReadWriteOnce: only the access mode "
                             "counts, LiveMigratable False DisksNotLiveMigratable; with "
                             "LiveMigrate a drain of p1 waits forever."))
    c.add_pvc("pit", "local-path-root", "local-path", RWO, "40Gi", node="p2")
    c.add_vm(ns="pit", name="local-path", node="p2", eviction="LiveMigrateIfPossible",
             disks=[{"name": "rootdisk", "type": "pvc", "claim": "local-path-root"}],
             expect=dict(verdict="blocked", blockers=["disk-not-shared"],
                         cpuTargets=["p1", "p3"], targets=["p1", "p3"],
                         warnings=["block-migration", "pod-network-reconnect"],
                         why="local-path (rancher.io/local-path) RWO PVC pinned to p2; "
                             "LiveMigrateIfPossible and not migratable, so a drain evicts "
                             "(stops) it."))
    c.add_vm(ns="pit", name="hostdisk", node="p1", eviction="None",
             disks=[{"name": "hostdisk", "type": "hostdisk", "capacity": "20Gi",
                     "path": "/var/lib/vm-disks/hostdisk/disk.img"}],
             expect=dict(verdict="blocked", blockers=["hostdisk-not-shared"],
                         cpuTargets=["p2", "p3"], targets=["p2", "p3"],
                         warnings=["block-migration", "eviction-shutdown",
                                   "pod-network-reconnect"],
                         why="hostDisk without `shared: true`: LiveMigratable False "
                             "DisksNotLiveMigratable \"cannot migrate VMI with non-shared "
                             "HostDisk\"."))
    # network
    c.add_vm(ns="pit", name="no-iface", node="p2", net="none", eviction="None",
             disks=[rwx("pit", "no-iface")],
             expect=dict(verdict="blocked", blockers=["network-pod-bridge"],
                         cpuTargets=["p1", "p3"], targets=["p1", "p3"],
                         warnings=["eviction-shutdown"],
                         why="no interfaces and no networks in the stored spec. KubeVirt's "
                             "webhook would have added pod network `default` bound with "
                             "`network.defaultNetworkInterface` (unset here → bridge), so kvscope "
                             "applies that default → network-pod-bridge. The stored condition is "
                             "what virt-handler computes for THIS object: True (VerifyVMIMigratable "
                             "returns nil when there are no interfaces) → conditionMismatch true."))
    c.add_vm(ns="pit", name="bridge", node="p3", net="bridge",
             eviction="LiveMigrateIfPossible", disks=[rwx("pit", "bridge")],
             expect=dict(verdict="blocked", blockers=["network-pod-bridge"],
                         cpuTargets=["p1", "p2"], targets=["p1", "p2"], warnings=[],
                         why="explicit `bridge: {}` on the pod network without the "
                             "allow-pod-bridge annotation: LiveMigratable False "
                             "InterfaceNotLiveMigratable."))
    c.add_vm(ns="pit", name="bridge-allowed", node="p3", net="bridge",
             annotations={A_ALLOW_BRIDGE: ""}, disks=[rwx("pit", "bridge-allowed")],
             expect=dict(verdict="ok", cpuTargets=["p1", "p2"], targets=["p1", "p2"],
                         warnings=[],
                         why="bridge on the pod network WITH "
                             "`kubevirt.io/allow-pod-bridge-network-live-migration`: migratable; "
                             "no masquerade so no reconnect warning."))
    # containerDisk digests
    c.add_vm(ns="pit", name="cd-config-digest", node="p1",
             disks=[{"name": "containerdisk", "type": "containerdisk",
                     "image": "registry.lab.local/vm-images/alpine:3.20",
                     "image_kind": "config"}],
             expect=dict(verdict="will-fail", blockers=["containerdisk-config-digest"],
                         cpuTargets=["p2", "p3"], targets=["p2", "p3"],
                         warnings=["block-migration", "eviction-blocks-drain",
                                   "pod-network-reconnect"],
                         why="image side-loaded into containerd: imageID is `sha256:<config "
                             "digest>` only; the target pulls "
                             "`registry.lab.local/vm-images/alpine@sha256:<config digest>`, "
                             "which no registry has → target Pending → 900 s catch-all."))
    c.add_vm(ns="pit", name="cd-no-digest", node="p5",
             disks=[{"name": "containerdisk", "type": "containerdisk", "image": CENTOS}],
             expect=dict(verdict="stuck", blockers=["containerdisk-no-digest"],
                         cpuTargets=["p1", "p2", "p3"], targets=["p1", "p2", "p3"],
                         warnings=["block-migration", "eviction-blocks-drain",
                                   "pod-network-reconnect"],
                         why="p5 runs CRI-O ≥ 1.28: imageID is bare hex without `sha256:`; "
                             "virt-controller cannot render the target pod (\"no reproducible "
                             "image digest\"), the VMIM stays Pending forever."))
    # devices
    c.add_vm(ns="pit", name="gpu", node="p3", eviction="LiveMigrateIfPossible",
             gpus=["nvidia.com/GRID_T4-4Q"], disks=[rwx("pit", "gpu")],
             expect=dict(verdict="blocked",
                         blockers=["host-device", "no-placement-target"],
                         cpuTargets=["p1", "p2"], targets=[],
                         warnings=["pod-network-reconnect"],
                         why="one vGPU and feature gate VGPULiveMigration off: "
                             "LiveMigratable False HostDeviceNotLiveMigratable \"VMI specifies "
                             "a GPU but feature gate VGPULiveMigration is not "
                             "enabled\"; no other node offers "
                             "`nvidia.com/GRID_T4-4Q`, so no target pod (and "
                             "no restart after a drain of p3) fits "
                             "elsewhere."))
    # CPU
    c.add_vm(ns="db", name="migrated-once", node="p2", migrated_from="p5",
             migrated_ago=2 * 86400, started_ago=6 * 86400,
             labels={"workload": "database", "app": "mariadb"},
             disks=[rwx("db", "migrated-once")],
             expect=dict(verdict="ok", cpuTargets=["p1", "p3", "p5"],
                         targets=["p1", "p3", "p5"], warnings=["pod-network-reconnect"],
                         why="host-model VMI started on Broadwell p5 and evacuated to p2. Its "
                             "current launcher pod (the former target pod) carries "
                             "`cpu-model-migration…/Broadwell` + Broadwell's required features, "
                             "which KubeVirt copies again: p5 qualifies (deriving from p2's "
                             "Cascade Lake labels would wrongly exclude it). p4 lacks "
                             "`cpu-model-migration.*`. The Completed pod on p5 does not hold "
                             "the anti-affinity."))
    c.add_vm(ns="pit", name="no-hostmodel-label", node="p4",
             disks=[rwx("pit", "no-hostmodel-label")],
             expect=dict(verdict="stuck", blockers=["source-host-model-label-missing"],
                         warnings=["eviction-blocks-drain", "pod-network-reconnect"],
                         why="host-model VMI on p4, whose node has no `host-model-cpu.*` "
                             "label (labeller skipped): virt-controller cannot derive the "
                             "target selectors and never creates a target pod. LiveMigratable "
                             "is True (virt-handler on p4 knows its host model). cpuTargets "
                             "and targets are undefined and not asserted."))
    c.add_vm(ns="db", name="pinned", node="p3", memory="8Gi",
             labels={"workload": "cache", "app": "memcached"},
             nodeSelector={"kubernetes.io/hostname": "p3"},
             disks=[rwx("db", "pinned")],
             vmim={"name": "pinned-maintenance", "ago": 54,
                   "annotations": {A_UNSCHED_TIMEOUT: "120", A_PENDING_TIMEOUT: "600"},
                   "scheduler_message": (
                       "0/6 nodes are available: 1 node(s) didn't match pod anti-affinity "
                       "rules, 1 node(s) had untolerated taint "
                       "{node-role.kubernetes.io/control-plane: }, 4 node(s) didn't match "
                       "Pod's node affinity/selector. preemption: 0/6 nodes are available: "
                       "1 No preemption victims found for incoming pod, 5 Preemption is "
                       "not helpful for scheduling.")},
             expect=dict(verdict="no-target", blockers=["no-placement-target"],
                         cpuTargets=["p1", "p2"], targets=[],
                         warnings=["eviction-blocks-drain", "pod-network-reconnect"],
                         why="VMI nodeSelector `kubernetes.io/hostname: p3` pins it to its "
                             "own node. A VMIM `pinned-maintenance` with "
                             "`migrationUnschedulablePodTimeoutSeconds: 120` is in flight "
                             "(phase Scheduling, target pod Pending/Unschedulable): the "
                             "outcome is unschedulable after 120 s, not 300."))
    c.add_vm(ns="pit", name="move-to-gone", node="p1", memory="2Gi",
             disks=[rwx("pit", "move-to-gone")],
             vmim={"name": "move-to-p6", "ago": 30, "annotations": {},
                   "added": {"kubernetes.io/hostname": "p6"},
                   "scheduler_message": (
                       "0/6 nodes are available: 1 node(s) didn't match pod anti-affinity "
                       "rules, 1 node(s) had untolerated taint "
                       "{node-role.kubernetes.io/control-plane: }, 4 node(s) didn't match "
                       "Pod's node affinity/selector.")},
             expect=dict(verdict="no-target", blockers=["no-placement-target"],
                         cpuTargets=["p2", "p3"], targets=[],
                         warnings=["eviction-blocks-drain", "pod-network-reconnect"],
                         why="A pending VMIM `move-to-p6` adds `kubernetes.io/hostname: p6` "
                             "(spec.addedNodeSelector, as `virtctl migrate` writes it), "
                             "merged under the template's selectors; no node p6 exists, so "
                             "the CPU-compatible p2 and p3 are ruled out by the migration's "
                             "own selector."))
    # eviction strategies (all migratable)
    for node, strat, name, on in (("p1", "None", "evict-none", "shutdown"),
                                  ("p2", "LiveMigrate", "evict-live", "migrate"),
                                  ("p3", "LiveMigrateIfPossible", "evict-ifpossible",
                                   "migrate"),
                                  ("p3", "External", "evict-external", "external")):
        peers = sorted({"p1", "p2", "p3"} - {node})
        warn = ["pod-network-reconnect"] + (["eviction-shutdown"] if strat == "None" else [])
        c.add_vm(ns="pit", name=name, node=node, eviction=strat, memory="2Gi",
                 disks=[rwx("pit", name, "20Gi")],
                 expect=dict(verdict="ok", cpuTargets=peers, targets=peers,
                             warnings=warn, onDrain=on,
                             why="migratable host-model VMI with evictionStrategy %s → on "
                                 "drain: %s." % (strat, on)))
    c.readme_intro = """
One VMI per pitfall. Nodes p1-p3 are identical Cascade Lake hosts, p4 is the
same hardware with hand-maintained labels (labeller skipped), p5 a Broadwell
host running CRI-O. The KubeVirt CR leaves `network.defaultNetworkInterface`
unset (→ bridge), enables HostDisk and GPU but not VGPULiveMigration, and
permits the `nvidia.com/GRID_T4-4Q` mediated device. Two MigrationPolicies
match the `db` namespace (`team=db`): `db-slow` (also needs VMI label
`workload=database`, completionTimeoutPerGiB 400) and `db-namespace`
(completionTimeoutPerGiB 250); the more specific one wins.
"""
    c.readme_notes = [
        "`db/migrated-once` has a Succeeded evacuation VMIM and two launcher pods: "
        "the Completed one on p5 and the Running one on p2 (current pod = the "
        "Running pod on `status.nodeName`).",
        "`db/pinned` has an in-flight VMIM `pinned-maintenance` and a third kind "
        "of launcher pod: its Pending migration target (label "
        "`kubevirt.io/migrationJobUID`, no `spec.nodeName`). It must not be taken "
        "for the source pod.",
        "`pit/no-iface`: see the row. Alternative reading: if a snapshot shows "
        "no interfaces, the VM really has no NIC and would migrate; kvscope "
        "follows the webhook default because a real stored VMI always has it.",
        "Expected `completionTimeoutSeconds`: `db/migrated-once` (4Gi, db-slow) "
        "2000; `db/pinned` (8Gi, db-namespace) 2250; the `pit/evict-*` VMIs "
        "(2Gi, cluster default 150) 450.",
    ]
    return c


SAMPLES = [("mixed", sample_mixed), ("same-host-model", sample_same_host_model),
           ("pitfalls", sample_pitfalls), ("hostile", sample_hostile)]


def samples_readme():
    return """# Sample snapshots

Each directory is a kvscope snapshot in directory form
([docs/snapshot-format.md](../docs/snapshot-format.md)) plus a README.md
that describes the cluster and gives, for every VMI, the verdict, blocker
and warning codes ([docs/findings.md](../docs/findings.md),
[docs/rules.md](../docs/rules.md)) that kvscope is expected to report.

| sample | what it shows |
| --- | --- |
| [`mixed`](mixed/README.md) | 7 nodes: control plane, Intel Haswell / Broadwell (cordoned) / 2 × Cascade Lake / Ice Lake, AMD Genoa; host-model, named-model and host-passthrough VMIs, RWX and RWO PVCs, containerDisk, Windows with TSC hint, a VMI not Running; one resource file in JSON Lines |
| [`same-host-model`](same-host-model/README.md) | two Granite Rapids kinds with the same host-model name and different required features, two nodes each |
| [`pitfalls`](pitfalls/README.md) | one VMI per pitfall: RWO NFS / local-path PVC, hostDisk, default and explicit pod-network bridge, containerDisk without repository digest and without any digest, vGPU, host-model after a migration, source node without host-model label, eviction strategies, in-flight VMIM with timeout overrides, MigrationPolicies |
| [`hostile`](hostile/README.md) | `mixed` with markup, quotes, entities, CDATA ends, comment dashes and non-ASCII in names, labels and annotations |
| [`deckhouse`](deckhouse/README.md) | a Deckhouse Virtualization Platform cluster (flavor `deckhouse`, written by `tools/gen-sample-dvp.py`): one VirtualMachineClass per CPU type, a local-disk VM with volume migration, operations in progress, a liveMigrationPolicy/force conflict, a system Evict operation, a disk attachment in progress |
| [`capacity`](capacity/README.md) | every pod in the snapshot (pods scope `all`, written by `tools/gen-sample-capacity.py`): a VMI whose only CPU-compatible node is full (`no-capacity`), another that fits; an init container larger than its containers, pod overhead, a Succeeded pod that holds nothing |

All samples are regenerated from the shared CPU data by

    python3 tools/gen-samples.py            # --shared $SHARED --out samples
    python3 tools/gen-sample-dvp.py         # samples/deckhouse
    python3 tools/gen-sample-capacity.py    # samples/capacity

which is deterministic (run it twice: byte-identical output). Do not edit the
samples by hand. `tests/samples/run-tests.sh` checks JSON validity, the
manifest hashes and that the committed samples match the generator.

Conventions used in every sample README:

* Warnings describe the VMI whatever its verdict (e.g. a blocked VMI on a
  masquerade interface still gets `pod-network-reconnect`), except
  `passthrough-cpu-differs`, which needs targets.
* `onDrain`: `None` → shutdown; `External` → external; `LiveMigrate` →
  migrate if the verdict is `ok`, else block (with `eviction-blocks-drain`);
  `LiveMigrateIfPossible` → shutdown when LiveMigratable is False, else like
  `LiveMigrate`. `eviction-shutdown` is only raised for strategy `None`.
* The node CPU labels of host-model-only CPU files are synthesized (usable =
  every model whose features the host has, known = every libvirt model); see
  the docstring of `tools/gen-samples.py`.
* The launcher pods use the classic containerDisk layout (containers
  `volume<name>`); the KubeVirt CRs therefore disable the `ImageVolume` gate.
* A sample's README.md is a member of the snapshot directory, so the
  manifest's `files[]` lists it too (every file but manifest.json).
* No sample has `nodes/<node>/*.xml` or `libvirt/cpu_map/` members: the
  shared CPU data is not copied into the repository, so kvscope uses its
  built-in CPU-model table (`cpuModelSource: builtin`).
"""


def main():
    ap = argparse.ArgumentParser(description="Regenerate the kvscope sample snapshots.")
    ap.add_argument("--shared", default="../shared",
                    help="shared reference folder (default ../shared)")
    ap.add_argument("--out", default="samples",
                    help="output folder (default samples)")
    args = ap.parse_args()
    cpu = CpuData(args.shared)
    os.makedirs(args.out, exist_ok=True)
    for name, fn in SAMPLES:
        files = write_sample(fn(cpu), args.out)
        print("%s: %d files" % (name, len(files)))
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8") as f:
        f.write(samples_readme())


if __name__ == "__main__":
    main()
