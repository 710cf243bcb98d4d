#!/usr/bin/env python3
"""gen-large.py - write a large, realistic synthetic kvscope snapshot.

    tools/gen-large.py --nodes 5000 --vmis 100000 --out build/bench/s.tar.gz

The snapshot follows docs/snapshot-format.md: a gzip'd tar with
one top directory, manifest.json first (files[] with size and SHA-256 of
every other member), resources/*.json as kubectl List objects, and
nodes/<node>/domcapabilities.xml per KubeVirt node.

The cluster:
  * N nodes in node pools (general, db, windows, gpu, infra, control
    plane); KubeVirt nodes are drawn from the real CPU classes of
    ../shared/data/real-cpus, each pool from a handful of them, and carry
    the labels KubeVirt's node labeller derives from that host's CPU data
    (cpu-feature, cpu-model, cpu-model-migration, host-model-cpu,
    host-model-required-features, cpu-vendor; spec cpu-models-and-labels.md
    §4), plus machine-type, hyperv, cpu-timer, tsc, schedulable and the
    usual Kubernetes labels.  Tainted pools, a few cordoned nodes.
  * M VMIs over a few hundred namespaces: mostly host-model, some named
    models (usable on their node), some host-passthrough; masquerade,
    bridge (with and without the allow annotation), a few SR-IOV; RWX and
    RWO PVCs, DataVolumes, containerDisks with digests (and a few
    side-loaded images without one); eviction strategies; node selectors,
    tolerations and affinity for the pools; Windows VMs with Hyper-V and a
    TSC hint; some already migrated once (launcher pods then carry the
    host-model selectors of the node they booted on).
  * One virt-launcher pod per running VMI (plus old Succeeded ones up to
    --pods), PVCs (up to --pvcs), storage classes, DataVolumes, VMIMs,
    MigrationPolicies and the KubeVirt CR.

Deterministic: the same arguments and seed give the same bytes.  Python 3
standard library only.  Output goes where --out says (the bench uses
build/bench/, which git ignores); never commit a generated snapshot.
"""

import argparse
import collections
import gc
import gzip
import hashlib
import io
import json
import os
import random
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
DOM = "node.kubevirt.io"
# what virt-handler's device plugins advertise on every KubeVirt node; the
# launchers request one of each (kvscope counts them as the scheduler does)
DEVICES = {"devices.kubevirt.io/kvm": "1k", "devices.kubevirt.io/tun": "1k",
           "devices.kubevirt.io/vhost-net": "1k"}

# KubeVirt's default obsolete models (node-labeller util.go:29-64).
OBSOLETE = set("""486 486-v1 Conroe Conroe-v1 Opteron_G1 Opteron_G1-v1
Opteron_G2 Opteron_G2-v1 athlon athlon-v1 core2duo core2duo-v1 coreduo
coreduo-v1 kvm32 kvm32-v1 kvm64 kvm64-v1 n270 n270-v1 pentium pentium-v1
pentium2 pentium2-v1 pentium3 pentium3-v1 pentiumpro pentiumpro-v1 phenom
phenom-v1 qemu32 qemu32-v1 qemu64 qemu64-v1""".split())

# The real hosts (../shared/data/real-cpus/README.md), one CPU class each.
CPU_FILES = [
    ("skx", "virt-manager-testdata/kvm-x86_64-domcaps-latest.xml", 3000000000),
    ("cpl", "virt-manager-testdata/kvm-x86_64-domcaps-oldfirmware.xml", 3000000000),
    ("hsw", "libvirt-cputestdata/x86_64-cpuid-Xeon-E5-2650-v3-json.xml", 2300000000),
    ("bdw", "libvirt-cputestdata/x86_64-cpuid-Xeon-E5-2650-v4-json.xml", 2200000000),
    ("clx", "libvirt-cputestdata/x86_64-cpuid-Xeon-Platinum-8268-json.xml", 2900000000),
    ("icx", "libvirt-cputestdata/x86_64-cpuid-Ice-Lake-Server-json.xml", 2600000000),
    ("spr", "libvirt-cputestdata/x86_64-cpuid-Xeon-w7-3465X-json.xml", 2500000000),
    ("srf", "libvirt-cputestdata/x86_64-cpuid-Xeon-6731E-json.xml", 2200000000),
    ("gnr", "libvirt-cputestdata/x86_64-cpuid-Xeon-6788P-json.xml", 2000000000),
    ("gnt", "kubevirt-testdata/domcapabilities_tdx.xml", 2100000000),
    ("nap", "kubevirt-testdata/domcapabilities_sev.xml", 2200000000),
    ("mil", "virt-manager-testdata/kvm-x86_64-domcaps-amd-sev.xml", 2450000000),
    ("gen", "libvirt-cputestdata/x86_64-cpuid-EPYC-9334-32-Core-json.xml", 2700000000),
    ("zn5", "libvirt-cputestdata/x86_64-cpuid-Ryzen-9-9950X-16-Core-json.xml", 4300000000),
]

# Node pools: name, share of nodes, taint, CPU classes (by key).
POOLS = [
    ("gp", 0.62, None, ["icx", "spr", "clx", "gnr", "srf", "skx", "cpl"]),
    ("amd", 0.14, None, ["mil", "gen", "nap", "zn5"]),
    ("db", 0.10, ("dedicated", "db", "NoSchedule"), ["icx", "spr", "gnt"]),
    ("win", 0.07, ("os", "windows", "NoSchedule"), ["clx", "icx", "hsw", "bdw"]),
    ("gpu", 0.03, ("nvidia.com/gpu", "", "NoSchedule"), ["spr", "gen"]),
    ("infra", 0.03, None, None),   # no KubeVirt
]

MACHINES = ["q35", "pc-q35-rhel9.6.0", "pc-q35-rhel9.4.0", "pc-q35-rhel9.2.0",
            "pc-q35-rhel9.0.0", "pc-q35-rhel8.6.0", "pc-q35-rhel8.4.0",
            "pc-q35-rhel8.2.0", "pc-q35-rhel8.1.0", "pc-q35-rhel8.0.0",
            "pc-q35-rhel7.6.0"]
HYPERV = ["base", "time", "vpindex", "tlbflush", "ipi", "synic", "synic2",
          "frequencies", "reset", "runtime", "synictimer", "reenlightenment"]
ZONES = ["zone-a", "zone-b", "zone-c"]
IMAGES = ["quay.io/containerdisks/fedora", "quay.io/containerdisks/centos-stream",
          "quay.io/containerdisks/ubuntu", "quay.io/containerdisks/debian",
          "registry.example.com/vm/windows-2022", "registry.example.com/vm/rhel9"]
LAUNCHER_IMG = "quay.io/kubevirt/virt-launcher"
LAUNCHER_DIGEST = "sha256:" + "4f" * 32
BASE_TS = 1790000000  # 2026-09-21


def ts(sec):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(BASE_TS + sec))


# --- CPU classes -----------------------------------------------------------

def load_models(shared):
    with open(os.path.join(shared, "data", "libvirt-cpu-models.json")) as f:
        return json.load(f)


def model_features(models, name):
    m = models.get(name)
    if m is None:
        return set()
    return set(m["features"]) - set(m["added_features"])


class CpuClass:
    def __init__(self, key, tsc):
        self.key = key
        self.tsc = tsc
        self.labels = {}        # CPU labels, "true"
        self.features = set()
        self.usable = []
        self.host_model = None
        self.vendor = None
        self.required = []
        self.xml = b""


def load_class(shared, models, key, rel, tsc):
    path = os.path.join(shared, "data", "real-cpus", rel)
    with open(path, "rb") as f:
        raw = f.read()
    root = ET.fromstring(raw)
    c = CpuClass(key, tsc)
    c.xml = raw
    if root.tag == "domainCapabilities":
        hm = root.find("./cpu/mode[@name='host-model']")
        custom = root.find("./cpu/mode[@name='custom']")
    else:
        hm, custom = root, None
    c.host_model = hm.find("model").text
    c.vendor = hm.find("vendor").text
    req, dis = [], []
    for fe in hm.findall("feature"):
        (req if fe.get("policy") == "require" else dis).append(fe.get("name"))
    c.required = req
    c.features = (model_features(models, c.host_model) | set(req)) - set(dis)
    if custom is not None:
        known = [m.text for m in custom.findall("model") if m.get("usable")]
        usable = [m.text for m in custom.findall("model")
                  if m.get("usable") and m.get("usable") != "no"]
    else:
        # host-model data only: the models an older libvirt knows (no
        # -vN versions, like the older full files), usable when the host
        # has all of a model's features (what QEMU's unavailable-features
        # amounts to)
        known = sorted(m for m in models if "-v" not in m)
        usable = [m for m in known
                  if models[m]["features"] and
                  model_features(models, m) <= c.features]
    known = [m for m in known if m not in OBSOLETE]
    usable = [m for m in usable if m not in OBSOLETE]
    c.usable = usable
    lab = {}
    for f in sorted(c.features):
        lab["cpu-feature.%s/%s" % (DOM, f)] = "true"
    for m in usable:
        lab["cpu-model.%s/%s" % (DOM, m)] = "true"
    for m in known:
        lab["cpu-model-migration.%s/%s" % (DOM, m)] = "true"
    for f in req:
        lab["host-model-required-features.%s/%s" % (DOM, f)] = "true"
    lab["cpu-vendor.%s/%s" % (DOM, c.vendor)] = "true"
    lab["host-model-cpu.%s/%s" % (DOM, c.host_model)] = "true"
    c.labels = lab
    return c


def compatible(src, tgt):
    """Can a host-model VMI booted on src move to tgt (CPU rules)?"""
    t = tgt.labels
    if "cpu-model-migration.%s/%s" % (DOM, src.host_model) not in t:
        return False
    if "cpu-vendor.%s/%s" % (DOM, src.vendor) not in t:
        return False
    return all("cpu-feature.%s/%s" % (DOM, f) in t for f in src.required)


# --- writer ----------------------------------------------------------------

class Member:
    """A resource file written to a temporary file while hashed."""

    def __init__(self, tmpdir, path):
        self.path = path
        self.tmp = os.path.join(tmpdir, path.replace("/", "_"))
        self.f = open(self.tmp, "wb", buffering=1 << 20)
        self.h = hashlib.sha256()
        self.n = 0
        self.count = 0

    def write(self, s):
        b = s.encode()
        self.f.write(b)
        self.h.update(b)
        self.n += len(b)

    def close(self):
        self.f.close()


class ListWriter(Member):
    """kubectl get -A -o json: a List, written one item at a time (one per
    line; kubectl's indentation is irrelevant to readers), so the
    generator never holds 100,000 objects."""

    def __init__(self, tmpdir, path, resource, group):
        Member.__init__(self, tmpdir, path)
        self.resource, self.group = resource, group
        self.full = None        # --full: fuller(item, n) before writing
        self.dumps = json.JSONEncoder(separators=(",", ":"),
                                      ensure_ascii=False).encode
        self.write('{"apiVersion":"v1","items":[')

    def add(self, item):
        if self.full is not None:
            item = self.full(item, self.count)
        self.write(("\n" if self.count == 0 else ",\n") + self.dumps(item))
        self.count += 1

    def close(self):
        self.write('\n],"kind":"List","metadata":{"resourceVersion":""}}\n')
        Member.close(self)


RESOURCES = [  # key, file, group, resource
    ("nodes", "resources/nodes.json", "", "nodes"),
    ("namespaces", "resources/namespaces.json", "", "namespaces"),
    ("pods", "resources/pods.json", "", "pods"),
    ("pvcs", "resources/persistentvolumeclaims.json", "", "persistentvolumeclaims"),
    ("scs", "resources/storageclasses.storage.k8s.io.json", "storage.k8s.io",
     "storageclasses"),
    ("dvs", "resources/datavolumes.cdi.kubevirt.io.json", "cdi.kubevirt.io",
     "datavolumes"),
    ("vmis", "resources/virtualmachineinstances.kubevirt.io.json", "kubevirt.io",
     "virtualmachineinstances"),
    ("vmims", "resources/virtualmachineinstancemigrations.kubevirt.io.json",
     "kubevirt.io", "virtualmachineinstancemigrations"),
    ("kv", "resources/kubevirts.kubevirt.io.json", "kubevirt.io", "kubevirts"),
    ("pol", "resources/migrationpolicies.migrations.kubevirt.io.json",
     "migrations.kubevirt.io", "migrationpolicies"),
]


# what --full adds: the VirtualMachine of every VMI
VM_RESOURCE = ("vms", "resources/virtualmachines.kubevirt.io.json",
               "kubevirt.io", "virtualmachines")


# --- --full: objects as a real kubectl dump has them -------------------------

# the field managers a real cluster's objects carry, by kind
MANAGERS = {
    "Node": [("kubelet", "Update", "status"), ("virt-handler", "Update", None),
             ("kube-controller-manager", "Update", "status")],
    "Pod": [("virt-controller", "Update", None), ("kubelet", "Update",
                                                  "status")],
    "VirtualMachineInstance": [("virt-controller", "Update", None),
                               ("virt-handler", "Update", None)],
    "VirtualMachine": [("kubectl-client-side-apply", "Update", None),
                       ("virt-controller", "Update", "status")],
    "PersistentVolumeClaim": [("kube-controller-manager", "Update", None),
                              ("kube-controller-manager", "Update",
                               "status")],
}


def fields_v1(obj, depth=0):
    """managedFields' fieldsV1 of obj: every key as "f:KEY", nested."""
    out = {}
    if not isinstance(obj, dict) or depth > 5:
        return out
    for k, v in obj.items():
        out["f:" + k] = fields_v1(v, depth + 1) if isinstance(v, dict) else {}
    return out


def fuller(item, n):
    """item as kubectl get -o json shows it on a real cluster: its
    managedFields (one entry per field manager, fieldsV1 of the parts
    each writes) and status conditions with times, reasons and
    messages."""
    md = item.setdefault("metadata", {})
    kind = item.get("kind", "")
    when = md.get("creationTimestamp") or ts(n)
    mf = []
    for mgr, op, sub in MANAGERS.get(kind, [("kubectl", "Update", None)]):
        part = item.get(sub, {}) if sub else {
            "metadata": {k: v for k, v in md.items()
                         if k in ("labels", "annotations", "finalizers",
                                  "ownerReferences")},
            "spec": item.get("spec", {})}
        e = {"manager": mgr, "operation": op, "apiVersion":
             item.get("apiVersion", "v1"), "time": when,
             "fieldsType": "FieldsV1",
             "fieldsV1": fields_v1({sub: part} if sub else part)}
        if sub:
            e["subresource"] = sub
        mf.append(e)
    md["managedFields"] = mf
    st = item.get("status")
    if isinstance(st, dict):
        conds = st.setdefault("conditions", [])
        have = {c.get("type") for c in conds}
        for t in ("Initialized", "ContainersReady", "PodScheduled",
                  "Synchronized"):
            if t not in have and kind in ("Pod", "VirtualMachine",
                                          "VirtualMachineInstance"):
                conds.append({"type": t, "status": "True",
                              "lastProbeTime": None,
                              "lastTransitionTime": when,
                              "reason": t, "message": "%s at %s" % (t, when)})
    return item


def vm_item(vmi):
    """The VirtualMachine a VMI was started from: its template is the
    VMI's spec, as virt-controller copied it."""
    md = vmi["metadata"]
    owner = md["ownerReferences"][0]
    running = vmi["status"]["phase"] == "Running"
    tmpl_md = {"labels": dict(md.get("labels") or {}),
               "annotations": {k: v for k, v in
                               (md.get("annotations") or {}).items()
                               if not k.startswith("kubevirt.io/")},
               "creationTimestamp": None}
    conds = [{"type": "Ready", "status": "True" if running else "False",
              "lastProbeTime": None,
              "lastTransitionTime": md["creationTimestamp"]}]
    for c in vmi["status"].get("conditions", []):
        if c["type"] in ("LiveMigratable", "AgentConnected"):
            conds.append(dict(c))
    return {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
        "metadata": {
            "name": md["name"], "namespace": md["namespace"],
            "uid": owner["uid"], "generation": 3,
            "resourceVersion": str(int(md["resourceVersion"]) + 7),
            "creationTimestamp": md["creationTimestamp"],
            "labels": dict(md.get("labels") or {}),
            "annotations": {
                "kubevirt.io/latest-observed-api-version": "v1",
                "kubevirt.io/storage-observed-api-version": "v1",
                "kubectl.kubernetes.io/last-applied-configuration":
                    json.dumps({"kind": "VirtualMachine",
                                "metadata": {"name": md["name"],
                                             "namespace": md["namespace"]}},
                               separators=(",", ":"))},
            "finalizers": ["kubevirt.io/virtualMachineControllerFinalize"]},
        "spec": {"runStrategy": "Always" if running else "Halted",
                 "template": {"metadata": tmpl_md, "spec": vmi["spec"]}},
        "status": {"created": running, "ready": running,
                   "printableStatus": "Running" if running else "Stopped",
                   "desiredGeneration": 3, "observedGeneration": 3,
                   "runStrategy": "Always" if running else "Halted",
                   "conditions": conds,
                   "volumeSnapshotStatuses": [
                       {"name": v["name"], "enabled": False,
                        "reason": "No VolumeSnapshotClass: Volume snapshots "
                                  "are not configured for this StorageClass"}
                       for v in vmi["spec"].get("volumes", [])]},
    }


# --- the cluster -----------------------------------------------------------

def gen(args, W):
    """Write the cluster's objects to the ListWriters W; return the
    nodes."""
    rnd = random.Random(args.seed)
    shared = args.shared
    models = load_models(shared)
    classes = {}
    for key, rel, tsc in CPU_FILES:
        classes[key] = load_class(shared, models, key, rel, tsc)
    if args.classes < len(CPU_FILES):
        keep = {k for k, _, _ in CPU_FILES[:args.classes]}
        classes = {k: v for k, v in classes.items() if k in keep}
    compat = {(a, b): compatible(classes[a], classes[b])
              for a in classes for b in classes}

    # -- nodes --
    nodes = []          # dicts: name, pool, cls (CpuClass or None), ...
    n_cp = 3 if args.nodes >= 20 else 1
    for i in range(n_cp):
        nodes.append({"name": "cp-%02d" % i, "pool": "cp", "cls": None})
    rest = args.nodes - n_cp
    counts = []
    for p in POOLS:
        counts.append(int(rest * p[1]))
    counts[0] += rest - sum(counts)
    for (pname, _, taint, ckeys), cnt in zip(POOLS, counts):
        ckeys = [k for k in (ckeys or []) if k in classes] if ckeys else None
        if ckeys == []:
            ckeys = sorted(classes)[:2]
        for i in range(cnt):
            cls = None
            if ckeys:
                # older generations are a smaller share of a pool
                w = [len(ckeys) - j + 2 for j in range(len(ckeys))]
                cls = classes[rnd.choices(ckeys, weights=w)[0]]
            nodes.append({"name": "%s-%05d" % (pname, i), "pool": pname,
                          "cls": cls, "taint": taint})
    byname = {n["name"]: n for n in nodes}
    pools = {}
    for n in nodes:
        if n["cls"] is not None:
            pools.setdefault(n["pool"], []).append(n)

    for idx, n in enumerate(nodes):
        cls = n["cls"]
        zone = ZONES[idx % 3]
        lab = {
            "beta.kubernetes.io/arch": "amd64",
            "beta.kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64",
            "kubernetes.io/hostname": n["name"],
            "kubernetes.io/os": "linux",
            "topology.kubernetes.io/region": "eu-central",
            "topology.kubernetes.io/zone": zone,
            "failure-domain.beta.kubernetes.io/zone": zone,
            "node.kubernetes.io/instance-type": "metal-%s" % (cls.key if cls else "std"),
            "node-pool": n["pool"],
        }
        taints = []
        unsched = False
        if n["pool"] == "cp":
            lab["node-role.kubernetes.io/control-plane"] = ""
            taints.append({"key": "node-role.kubernetes.io/control-plane",
                           "effect": "NoSchedule"})
        else:
            lab["node-role.kubernetes.io/worker"] = ""
        if n.get("taint"):
            k, v, e = n["taint"]
            t = {"key": k, "effect": e}
            if v:
                t["value"] = v
            taints.append(t)
        if cls is not None:
            lab.update(cls.labels)
            for mt in MACHINES:
                lab["machine-type.%s/%s" % (DOM, mt)] = "true"
            for h in HYPERV:
                lab["hyperv.%s/%s" % (DOM, h)] = "true"
            lab["cpu-timer.%s/tsc-frequency" % DOM] = str(cls.tsc)
            lab["cpu-timer.%s/tsc-scalable" % DOM] = "true"
            lab["scheduling.%s/tsc-frequency-%d" % (DOM, cls.tsc)] = "true"
            lab["kubevirt.io/schedulable"] = "true"
            lab["kubevirt.io/ksm-enabled"] = "false"
            cpuman = "true" if n["pool"] == "db" else "false"
            lab["kubevirt.io/cpumanager"] = cpuman
            lab["cpumanager"] = cpuman
            r = rnd.random()
            if r < 0.01:
                unsched = True
                taints.append({"key": "node.kubernetes.io/unschedulable",
                               "effect": "NoSchedule",
                               "timeAdded": ts(-3600)})
            elif r < 0.015:
                lab["kubevirt.io/schedulable"] = "false"
        n["unsched"] = unsched
        mem_gi = 512 if cls is not None else 64
        item = {
            "apiVersion": "v1", "kind": "Node",
            "metadata": {
                "name": n["name"], "uid": uid(rnd),
                "creationTimestamp": ts(-86400 * 400 + idx),
                "resourceVersion": str(1000000 + idx),
                "labels": dict(sorted(lab.items())),
                "annotations": {
                    "kubevirt.io/heartbeat": ts(-30),
                    "node.alpha.kubernetes.io/ttl": "0",
                    "volumes.kubernetes.io/controller-managed-attach-detach": "true",
                    "csi.volume.kubernetes.io/nodeid":
                        '{"rbd.csi.ceph.com":"%s"}' % n["name"],
                },
            },
            "spec": {"podCIDR": "10.%d.%d.0/24" % (idx // 256 % 256, idx % 256)},
            "status": {
                "capacity": dict(DEVICES, cpu="128",
                                 memory="%dGi" % mem_gi, pods="250"),
                "allocatable": dict(DEVICES, cpu="126",
                                    memory="%dGi" % (mem_gi - 8),
                                    pods="250"),
                "addresses": [{"type": "InternalIP",
                               "address": "10.0.%d.%d" % (idx // 250, idx % 250 + 1)},
                              {"type": "Hostname", "address": n["name"]}],
                "nodeInfo": {"architecture": "amd64", "kubeletVersion": "v1.36.1",
                             "containerRuntimeVersion": "containerd://2.1.0",
                             "kernelVersion": "6.12.0-55.el10.x86_64",
                             "operatingSystem": "linux",
                             "osImage": "Red Hat Enterprise Linux CoreOS"},
                "conditions": [{"type": "Ready", "status": "True",
                                "reason": "KubeletReady",
                                "lastHeartbeatTime": ts(-20),
                                "lastTransitionTime": ts(-86400)}],
            },
        }
        if taints:
            item["spec"]["taints"] = taints
        if n["name"] in args.cordon and not unsched:
            # cordoned after the VMIs were placed (kubectl cordon): the
            # rest of the cluster, and the random draws, stay as they are
            unsched = True
            taints.append({"key": "node.kubernetes.io/unschedulable",
                           "effect": "NoSchedule", "timeAdded": ts(-60)})
            item["spec"]["taints"] = taints
        if unsched:
            item["spec"]["unschedulable"] = True
        W["nodes"].add(item)

    # -- namespaces --
    nns = max(3, min(args.namespaces, args.vmis // 5 + 3))
    namespaces = ["tenant-%03d" % i for i in range(nns)]
    for i, ns in enumerate(namespaces):
        W["namespaces"].add({"apiVersion": "v1", "kind": "Namespace",
                         "metadata": {"name": ns, "uid": uid(rnd),
                                      "creationTimestamp": ts(-86400 * 300 + i),
                                      "labels": {"kubernetes.io/metadata.name": ns,
                                                 "team": "team-%02d" % (i % 40),
                                                 "env": ["prod", "stage", "dev"][i % 3]}},
                         "spec": {"finalizers": ["kubernetes"]},
                         "status": {"phase": "Active"}})

    # -- VMIs, pods, PVCs --
    recent = collections.deque(maxlen=4096)   # running VMIs, for padding
    pvc_budget = args.pvcs
    # named models per pool: usable on every class of the pool, plus the
    # occasional model of one class only (a real-world mistake)
    pool_named = {}
    for p, ns_ in pools.items():
        ks = sorted({n["cls"].key for n in ns_})
        common = set(classes[ks[0]].usable)
        for k in ks[1:]:
            common &= set(classes[k].usable)
        pool_named[p] = sorted(m for m in common if "-v" not in m)
    pool_list = [p for p in ("gp", "amd", "db", "win", "gpu") if p in pools]
    pool_w = {"gp": 70, "amd": 14, "db": 8, "win": 6, "gpu": 2}
    active_ok = [p for p in pool_list]
    node_load = {}

    for i in range(args.vmis):
        ns = namespaces[i % nns] if i < nns else rnd.choice(namespaces)
        pool = rnd.choices(active_ok, weights=[pool_w[p] for p in active_ok])[0]
        cand = pools[pool]
        node = cand[rnd.randrange(len(cand))]
        if node["unsched"] and rnd.random() < 0.7:
            node = cand[rnd.randrange(len(cand))]
        cls = node["cls"]
        vname = "vm-%06d" % i
        vuid = uid(rnd)
        windows = pool == "win"
        r = rnd.random()
        phase = "Running"
        if r < 0.02:
            phase = "Scheduling"
        elif r < 0.035:
            phase = "Succeeded"
        elif r < 0.04:
            phase = "Failed"
        # CPU
        r = rnd.random()
        features = []
        if r < 0.80:
            model = "host-model"
        elif r < 0.93 and pool_named.get(pool):
            if rnd.random() < 0.9:
                model = rnd.choice(pool_named[pool][-8:])
            else:
                model = rnd.choice(cls.usable)
        elif r < 0.98:
            model = "host-passthrough"
        else:
            model = "host-model"
            features = [{"name": "vmx", "policy": "require"}]
        if model != "host-passthrough" and rnd.random() < 0.02:
            features.append({"name": "pcid", "policy": "forbid"})
        mem = rnd.choice([2, 4, 4, 8, 8, 8, 16, 16, 32, 64])
        cores = rnd.choice([1, 2, 2, 4, 4, 8, 16])
        labels = {"kubevirt.io/vm": vname, "vm.kubevirt.io/name": vname,
                  "kubevirt.io/nodeName": node["name"],
                  "app": "app-%03d" % (i % 500),
                  "tier": rnd.choice(["web", "db", "batch", "cache"])}
        ann = {"kubevirt.io/latest-observed-api-version": "v1",
               "kubevirt.io/storage-observed-api-version": "v1",
               "kubevirt.io/vm-generation": "1"}
        # network
        r = rnd.random()
        nets = [{"name": "default", "pod": {}}]
        if r < 0.82:
            ifaces = [{"name": "default", "masquerade": {}}]
        elif r < 0.90:
            ifaces = [{"name": "default", "bridge": {}}]
            ann["kubevirt.io/allow-pod-bridge-network-live-migration"] = ""
        elif r < 0.94:
            ifaces = [{"name": "default", "bridge": {}}]
        elif r < 0.98:
            ifaces = [{"name": "default", "masquerade": {}},
                      {"name": "vlan", "bridge": {}}]
            nets.append({"name": "vlan", "multus": {"networkName": "%s/vlan-100" % ns}})
        else:
            ifaces = [{"name": "default", "masquerade": {}},
                      {"name": "sriov", "sriov": {}}]
            nets.append({"name": "sriov", "multus": {"networkName": "%s/sriov-net" % ns}})
        for f in ifaces:
            f["macAddress"] = "02:%02x:%02x:%02x:%02x:%02x" % tuple(
                rnd.randrange(256) for _ in range(5))
        # volumes
        disks = [{"name": "rootdisk", "disk": {"bus": "virtio"}, "bootOrder": 1},
                 {"name": "cloudinitdisk", "disk": {"bus": "virtio"}}]
        vols = []
        vstat = []
        cdisk = None
        r = rnd.random()
        rootsize = rnd.choice([20, 30, 50, 100])
        if r < 0.18 or pvc_budget <= 0:
            cdisk = rnd.choice(IMAGES)
            vols.append({"name": "rootdisk", "containerDisk": {
                "image": cdisk + ":latest", "imagePullPolicy": "IfNotPresent"}})
            vstat.append({"name": "rootdisk", "target": "vda",
                          "containerDiskVolume": {"checksum": rnd.randrange(1 << 32)}})
        else:
            claims = [("rootdisk", "%s-root" % vname, rootsize)]
            if rnd.random() < 0.25:
                claims.append(("datadisk", "%s-data" % vname, rnd.choice([100, 200, 500])))
                disks.append({"name": "datadisk", "disk": {"bus": "virtio"}})
            for dn, cname, size in claims:
                if pvc_budget <= 0:
                    break
                pvc_budget -= 1
                rwx = rnd.random() < 0.85
                sc = rnd.choice(["ceph-rbd", "ceph-rbd", "cephfs"]) if rwx else \
                    rnd.choice(["local-path", "ceph-rbd-rwo"])
                modes = ["ReadWriteMany"] if rwx else ["ReadWriteOnce"]
                vmode = "Block" if sc.startswith("ceph-rbd") else "Filesystem"
                if rnd.random() < 0.5:
                    vols.append({"name": dn, "dataVolume": {"name": cname}})
                    W["dvs"].add(dv_item(rnd, ns, cname, sc, modes, size, i))
                else:
                    vols.append({"name": dn, "persistentVolumeClaim": {"claimName": cname}})
                W["pvcs"].add(pvc_item(rnd, ns, cname, sc, modes, vmode, size, i))
                vstat.append({"name": dn, "target": "vd" + "abcdefgh"[len(vstat)],
                              "persistentVolumeClaimInfo": {
                                  "accessModes": modes,
                                  "capacity": {"storage": "%dGi" % size},
                                  "claimName": cname,
                                  "filesystemOverhead": "0" if vmode == "Block" else "0.055",
                                  "requests": {"storage": "%dGi" % size},
                                  "volumeMode": vmode}})
        vols.append({"name": "cloudinitdisk", "cloudInitNoCloud": {
            "userData": "<redacted: 412 bytes, sha256:%s>" % hexs(rnd, 64)}})
        vstat.append({"name": "cloudinitdisk", "target": "vd" + "abcdefgh"[len(vstat)],
                      "size": 1048576})
        spec = {
            "architecture": "amd64",
            "domain": {
                "cpu": {"cores": cores, "sockets": 1, "threads": 1,
                        "maxSockets": 4, "model": model},
                "devices": {"disks": disks, "interfaces": ifaces, "rng": {}},
                "features": {"acpi": {"enabled": True}},
                "firmware": {"uuid": vuid, "serial": uid(rnd)},
                "machine": {"type": "q35"},
                "memory": {"guest": "%dGi" % mem, "maxGuest": "%dGi" % (mem * 4)},
                "resources": {"requests": {"memory": "%dGi" % mem}},
            },
            "networks": nets,
            "terminationGracePeriodSeconds": 180,
            "volumes": vols,
        }
        if features:
            spec["domain"]["cpu"]["features"] = features
        r = rnd.random()
        ev = None
        if r < 0.70:
            ev = "LiveMigrate"
        elif r < 0.80:
            ev = "LiveMigrateIfPossible"
        elif r < 0.90:
            ev = "None"
        if ev:
            spec["evictionStrategy"] = ev
        tsc = None
        if windows:
            spec["domain"]["features"]["hyperv"] = {
                "relaxed": {}, "vapic": {}, "spinlocks": {"spinlocks": 8191},
                "vpindex": {}, "runtime": {}, "synic": {}, "synictimer": {"direct": {}},
                "reset": {}, "frequencies": {}, "reenlightenment": {},
                "tlbflush": {}, "ipi": {}}
            spec["domain"]["clock"] = {"timer": {"hpet": {"present": False},
                                                 "hyperv": {}, "pit": {"tickPolicy": "delay"},
                                                 "rtc": {"tickPolicy": "catchup"}},
                                       "utc": {}}
            if rnd.random() < 0.95:
                tsc = cls.tsc
        sel = {}
        if pool in ("db", "win", "gpu") or rnd.random() < 0.25:
            sel["node-pool"] = pool
        if pool == "db" and rnd.random() < 0.5:
            spec["domain"]["cpu"]["dedicatedCpuPlacement"] = True
        if sel:
            spec["nodeSelector"] = sel
        tol = [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                "effect": "NoExecute", "tolerationSeconds": 300},
               {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
                "effect": "NoExecute", "tolerationSeconds": 300}]
        taint = node.get("taint")
        if taint:
            t = {"key": taint[0], "operator": "Equal" if taint[1] else "Exists",
                 "effect": taint[2]}
            if taint[1]:
                t["value"] = taint[1]
            tol.append(t)
        spec["tolerations"] = tol
        r = rnd.random()
        terms = None
        if r < 0.07:
            terms = [{"matchExpressions": [
                {"key": "topology.kubernetes.io/zone", "operator": "In",
                 "values": sorted(rnd.sample(ZONES, 2))}]}]
        elif r < 0.09:
            terms = [{"matchExpressions": [
                {"key": "node-pool", "operator": "NotIn", "values": ["gpu", "infra"]},
                {"key": "kubevirt.io/schedulable", "operator": "Exists"}]}]
        elif r < 0.10:
            # two ORed terms, one with a numeric comparison
            terms = [{"matchExpressions": [
                {"key": "cpu-timer.%s/tsc-frequency" % DOM, "operator": "Gt",
                 "values": ["2400000000"]}]},
                {"matchExpressions": [
                    {"key": "cpu-vendor.%s/AMD" % DOM, "operator": "DoesNotExist"},
                    {"key": "topology.kubernetes.io/zone", "operator": "NotIn",
                     "values": [rnd.choice(ZONES)]}]}]
        if terms:
            spec["affinity"] = {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": terms}}}
        if rnd.random() < 0.05:
            spec.setdefault("affinity", {})["podAntiAffinity"] = {
                "preferredDuringSchedulingIgnoredDuringExecution": [{
                    "weight": 100, "podAffinityTerm": {
                        "labelSelector": {"matchLabels": {"app": labels["app"]}},
                        "topologyKey": "kubernetes.io/hostname"}}]}
        if pool == "gpu":
            spec["domain"]["devices"]["gpus"] = [{"name": "gpu1",
                                                  "deviceName": "nvidia.com/GRID_A100-8C"}]
        # where it booted: a compatible node (migrated once) or here
        boot = node
        migrated = phase == "Running" and model == "host-model" and \
            rnd.random() < 0.2
        if migrated:
            src = cand[rnd.randrange(len(cand))]
            if compat.get((src["cls"].key, cls.key)) and src is not node:
                boot = src
            else:
                migrated = False
        status = {"phase": phase, "guestOSInfo": {"id": "fedora" if not windows else "mswindows"},
                  "qosClass": "Burstable", "runtimeUser": 107,
                  "launcherContainerImageVersion": LAUNCHER_IMG + "@" + LAUNCHER_DIGEST,
                  "migrationMethod": "BlockMigration",  # the cloud-init disk is copied
                  "migrationTransport": "Unix", "selinuxContext": "none",
                  "currentCPUTopology": {"cores": cores, "sockets": 1, "threads": 1},
                  "memory": {"guestAtBoot": "%dGi" % mem, "guestCurrent": "%dGi" % mem,
                             "guestRequested": "%dGi" % mem},
                  "phaseTransitionTimestamps": [
                      {"phase": "Pending", "phaseTransitionTimestamp": ts(i)},
                      {"phase": "Scheduling", "phaseTransitionTimestamp": ts(i + 1)},
                      {"phase": "Scheduled", "phaseTransitionTimestamp": ts(i + 5)},
                      {"phase": "Running", "phaseTransitionTimestamp": ts(i + 9)}],
                  "virtualMachineRevisionName": "revision-start-vm-%s-1" % vuid}
        if phase in ("Running", "Succeeded", "Failed"):
            status["nodeName"] = node["name"]
            status["machine"] = {"type": "pc-q35-rhel9.6.0"}
            status["volumeStatus"] = vstat
            status["interfaces"] = [{"name": "default", "interfaceName": "eth0",
                                     "ipAddress": "10.128.%d.%d" % (i // 250 % 256, i % 250 + 2),
                                     "ipAddresses": ["10.128.%d.%d" % (i // 250 % 256, i % 250 + 2)],
                                     "mac": ifaces[0]["macAddress"], "queueCount": 1,
                                     "infoSource": "domain, guest-agent",
                                     "podInterfaceName": "eth0"}]
        if tsc:
            status["topologyHints"] = {"tscFrequency": tsc}
        lm_ok = not (cdisk is None and any(
            v.get("persistentVolumeClaimInfo", {}).get("accessModes") == ["ReadWriteOnce"]
            for v in vstat)) and ifaces[0].get("bridge") is None
        conds = [{"type": "Ready", "status": "True" if phase == "Running" else "False",
                  "lastProbeTime": None, "lastTransitionTime": ts(i + 9)}]
        if phase == "Running":
            if lm_ok:
                conds.append({"type": "LiveMigratable", "status": "True",
                              "lastProbeTime": None, "lastTransitionTime": None})
            else:
                conds.append({"type": "LiveMigratable", "status": "False",
                              "lastProbeTime": None, "lastTransitionTime": None,
                              "reason": "DisksNotLiveMigratable" if ifaces[0].get("bridge") is None
                              else "InterfaceNotLiveMigratable",
                              "message": "cannot migrate VMI"})
            conds.append({"type": "AgentConnected", "status": "True",
                          "lastProbeTime": None, "lastTransitionTime": ts(i + 30)})
        status["conditions"] = conds
        if migrated:
            status["migrationState"] = {
                "sourceNode": boot["name"], "targetNode": node["name"],
                "completed": True, "startTimestamp": ts(i + 100),
                "endTimestamp": ts(i + 140), "migrationUid": uid(rnd),
                "mode": "PreCopy", "targetPod": "virt-launcher-%s-%s" % (vname, rand5(rnd))}
        vmi = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
               "metadata": {"name": vname, "namespace": ns, "uid": vuid,
                            "labels": labels, "annotations": ann,
                            "creationTimestamp": ts(i), "generation": 12,
                            "resourceVersion": str(2000000 + i),
                            "finalizers": ["kubevirt.io/virtualMachineControllerFinalize",
                                           "foregroundDeleteVirtualMachine"],
                            "ownerReferences": [{"apiVersion": "kubevirt.io/v1",
                                                 "kind": "VirtualMachine", "name": vname,
                                                 "uid": uid(rnd), "controller": True,
                                                 "blockOwnerDeletion": True}]},
               "spec": spec, "status": status}
        W["vmis"].add(vmi)
        if "vms" in W:
            W["vms"].add(vm_item(vmi))
        if phase == "Running":
            recent.append(vmi)
        if phase in ("Running", "Scheduling"):
            psel = {"kubevirt.io/schedulable": "true",
                    "kubernetes.io/arch": "amd64"}
            psel.update(sel)
            if model not in ("host-model", "host-passthrough"):
                psel["cpu-model.%s/%s" % (DOM, model)] = "true"
            psel["machine-type.%s/pc-q35-rhel9.6.0" % DOM] = "true"
            for f in features:
                if f["policy"] == "require":
                    psel["cpu-feature.%s/%s" % (DOM, f["name"])] = "true"
            if spec["domain"]["cpu"].get("dedicatedCpuPlacement"):
                psel["kubevirt.io/cpumanager"] = "true"
            if tsc:
                psel["scheduling.%s/tsc-frequency-%d" % (DOM, tsc)] = "true"
            if migrated:
                bc = boot["cls"]
                psel["cpu-model-migration.%s/%s" % (DOM, bc.host_model)] = "true"
                for f in bc.required:
                    psel["cpu-feature.%s/%s" % (DOM, f)] = "true"
                psel["cpu-vendor.%s/%s" % (DOM, bc.vendor)] = "true"
            W["pods"].add(pod_item(rnd, vmi, node["name"] if phase == "Running" else None,
                                 psel, cdisk, mem, i, "Running" if phase == "Running" else "Pending"))
            if migrated and W["pods"].count + (args.vmis - i) < args.pods:
                W["pods"].add(pod_item(rnd, vmi, boot["name"], psel, cdisk, mem, i,
                                     "Succeeded"))
        if migrated and W["vmims"].count < 2000:
            W["vmims"].add(vmim_item(rnd, ns, vname, i))
        elif phase == "Running" and rnd.random() < 0.01:
            # an attempt that did not get a target pod
            W["vmims"].add(vmim_item(rnd, ns, vname, i, "Failed"))

    # pad the pod count with completed launcher pods of earlier migrations
    j = 0
    while W["pods"].count < args.pods and recent:
        v = recent[(j * 7919) % len(recent)]
        j += 1
        W["pods"].add(pod_item(rnd, v, v["status"]["nodeName"], {"kubevirt.io/schedulable": "true"},
                             None, 4, j, "Succeeded"))
    # PVCs not used by any VMI (images, golden disks) up to --pvcs
    k = 0
    while W["pvcs"].count < args.pvcs:
        ns = namespaces[k % nns]
        W["pvcs"].add(pvc_item(rnd, ns, "golden-image-%06d" % k, "ceph-rbd",
                             ["ReadWriteMany"], "Block", 30, k))
        k += 1

    scs = [sc_item("ceph-rbd", "rbd.csi.ceph.com", True),
           sc_item("ceph-rbd-rwo", "rbd.csi.ceph.com", False),
           sc_item("cephfs", "cephfs.csi.ceph.com", False),
           sc_item("local-path", "rancher.io/local-path", False)]
    policies = [
        {"apiVersion": "migrations.kubevirt.io/v1alpha1", "kind": "MigrationPolicy",
         "metadata": {"name": "prod-fast"},
         "spec": {"allowAutoConverge": True, "bandwidthPerMigration": "1Gi",
                  "completionTimeoutPerGiB": 200,
                  "selectors": {"namespaceSelector": {"env": "prod"}}}},
        {"apiVersion": "migrations.kubevirt.io/v1alpha1", "kind": "MigrationPolicy",
         "metadata": {"name": "db-postcopy"},
         "spec": {"allowPostCopy": True,
                  "selectors": {"virtualMachineInstanceSelector": {"tier": "db"}}}},
        {"apiVersion": "migrations.kubevirt.io/v1alpha1", "kind": "MigrationPolicy",
         "metadata": {"name": "batch-slow"},
         "spec": {"bandwidthPerMigration": "256Mi",
                  "selectors": {"namespaceSelector": {"env": "dev"},
                                "virtualMachineInstanceSelector": {"tier": "batch"}}}},
    ]
    kv = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt",
          "metadata": {"name": "kubevirt", "namespace": "kubevirt"},
          "spec": {"configuration": {
              "evictionStrategy": "LiveMigrate",
              "developerConfiguration": {"featureGates": [
                  "LiveMigration", "Snapshot", "HotplugVolumes", "ExpandDisks"]},
              "migrations": {"parallelMigrationsPerCluster": 10,
                             "parallelOutboundMigrationsPerNode": 2,
                             "bandwidthPerMigration": "0",
                             "completionTimeoutPerGiB": 150,
                             "progressTimeout": 150},
              "network": {"defaultNetworkInterface": "bridge"},
              "permittedHostDevices": {"mediatedDevices": [
                  {"mdevNameSelector": "GRID A100-8C",
                   "resourceName": "nvidia.com/GRID_A100-8C"}]}}},
          "status": {"phase": "Deployed", "observedKubeVirtVersion": "v1.9.0"}}

    for sc in scs:
        W["scs"].add(sc)
    W["kv"].add(kv)
    for p in policies:
        W["pol"].add(p)
    return nodes


def uid(rnd):
    h = "%032x" % rnd.getrandbits(128)
    return "%s-%s-4%s-a%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])


def hexs(rnd, n):
    return ("%0" + str(n) + "x") % rnd.getrandbits(n * 4)


def rand5(rnd):
    return "".join(rnd.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(5))


def pvc_item(rnd, ns, name, sc, modes, vmode, size, i):
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "namespace": ns, "uid": uid(rnd),
                         "creationTimestamp": ts(i - 100),
                         "resourceVersion": str(3000000 + i),
                         "annotations": {
                             "pv.kubernetes.io/bind-completed": "yes",
                             "pv.kubernetes.io/bound-by-controller": "yes",
                             "volume.beta.kubernetes.io/storage-provisioner": "rbd.csi.ceph.com"},
                         "finalizers": ["kubernetes.io/pvc-protection"]},
            "spec": {"accessModes": modes,
                     "resources": {"requests": {"storage": "%dGi" % size}},
                     "storageClassName": sc, "volumeMode": vmode,
                     "volumeName": "pvc-%s" % uid(rnd)},
            "status": {"phase": "Bound", "accessModes": modes,
                       "capacity": {"storage": "%dGi" % size}}}


def dv_item(rnd, ns, name, sc, modes, size, i):
    return {"apiVersion": "cdi.kubevirt.io/v1beta1", "kind": "DataVolume",
            "metadata": {"name": name, "namespace": ns, "uid": uid(rnd),
                         "creationTimestamp": ts(i - 200)},
            "spec": {"source": {"registry": {"url": "docker://quay.io/containerdisks/fedora:41"}},
                     "storage": {"accessModes": modes, "storageClassName": sc,
                                 "resources": {"requests": {"storage": "%dGi" % size}}}},
            "status": {"phase": "Succeeded", "progress": "100.0%"}}


def sc_item(name, prov, default):
    m = {"name": name}
    if default:
        m["annotations"] = {"storageclass.kubernetes.io/is-default-class": "true"}
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": m,
            "provisioner": prov, "reclaimPolicy": "Delete",
            "volumeBindingMode": "Immediate" if "ceph" in prov else "WaitForFirstConsumer",
            "allowVolumeExpansion": True}


def vmim_item(rnd, ns, vname, i, phase="Succeeded"):
    ann = {}
    if rnd.random() < 0.1:
        ann["kubevirt.io/migrationUnschedulablePodTimeoutSeconds"] = "600"
    if rnd.random() < 0.05:
        ann["kubevirt.io/migrationPendingPodTimeoutSeconds"] = "1800"
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstanceMigration",
            "metadata": {"name": "%s-migration-%s" % (vname, rand5(rnd)), "namespace": ns,
                         "uid": uid(rnd), "creationTimestamp": ts(i + 100),
                         "labels": {"kubevirt.io/vmi-name": vname},
                         "annotations": ann},
            "spec": {"vmiName": vname},
            "status": {"phase": phase,
                       "phaseTransitionTimestamps": [
                           {"phase": phase, "phaseTransitionTimestamp": ts(i + 140)}]}}


def pod_item(rnd, vmi, node, sel, cdisk, mem, i, phase):
    md = vmi["metadata"]
    vname, ns = md["name"], md["namespace"]
    labels = dict(md["labels"])
    labels.update({"kubevirt.io": "virt-launcher",
                   "kubevirt.io/created-by": md["uid"],
                   "vm.kubevirt.io/name": vname,
                   "vmi.kubevirt.io/id": vname})
    pname = "virt-launcher-%s-%s" % (vname, rand5(rnd))
    res_mem = "%dMi" % (mem * 1024 + 250)
    containers = [{
        "name": "compute", "image": LAUNCHER_IMG + "@" + LAUNCHER_DIGEST,
        "command": ["/usr/bin/virt-launcher-monitor", "--qemu-timeout", "321s",
                    "--name", vname, "--uid", md["uid"], "--namespace", ns,
                    "--kubevirt-share-dir", "/var/run/kubevirt",
                    "--ephemeral-disk-dir", "/var/run/kubevirt-ephemeral-disks",
                    "--container-disk-dir", "/var/run/kubevirt/container-disks",
                    "--grace-period-seconds", "195", "--hook-sidecars", "0",
                    "--ovmf-path", "/usr/share/OVMF", "--run-as-nonroot"],
        "env": [{"name": "XDG_CACHE_HOME", "value": "<redacted>"},
                {"name": "XDG_CONFIG_HOME", "value": "<redacted>"},
                {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
        "resources": {"limits": {"devices.kubevirt.io/kvm": "1",
                                 "devices.kubevirt.io/tun": "1",
                                 "devices.kubevirt.io/vhost-net": "1"},
                      "requests": {"cpu": "100m", "memory": res_mem,
                                   "devices.kubevirt.io/kvm": "1",
                                   "devices.kubevirt.io/tun": "1",
                                   "devices.kubevirt.io/vhost-net": "1",
                                   "ephemeral-storage": "50M"}},
        "securityContext": {"capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["ALL"]},
                            "privileged": False, "runAsGroup": 107, "runAsNonRoot": True,
                            "runAsUser": 107},
        "volumeMounts": [{"mountPath": "/var/run/kubevirt-private", "name": "private"},
                         {"mountPath": "/var/run/kubevirt", "name": "public"},
                         {"mountPath": "/var/run/kubevirt-ephemeral-disks",
                          "name": "ephemeral-disks"},
                         {"mountPath": "/var/run/libvirt", "name": "libvirt-runtime"},
                         {"mountPath": "/var/run/kubevirt/sockets", "name": "sockets"}],
    }]
    statuses = [{"name": "compute", "image": LAUNCHER_IMG + "@" + LAUNCHER_DIGEST,
                 "imageID": LAUNCHER_IMG + "@" + LAUNCHER_DIGEST,
                 "containerID": "containerd://" + hexs(rnd, 64), "ready": phase == "Running",
                 "restartCount": 0, "started": phase == "Running",
                 "state": {"running": {"startedAt": ts(i + 7)}}}]
    vols = [{"name": "private", "emptyDir": {}}, {"name": "public", "emptyDir": {}},
            {"name": "sockets", "emptyDir": {}},
            {"name": "virt-bin-share-dir", "emptyDir": {}},
            {"name": "libvirt-runtime", "emptyDir": {}},
            {"name": "ephemeral-disks", "emptyDir": {}},
            {"name": "container-disks", "emptyDir": {}}]
    init = [{"name": "container-disk-binary", "image": LAUNCHER_IMG + "@" + LAUNCHER_DIGEST,
             "command": ["/usr/bin/cp", "/usr/bin/container-disk", "/init/usr/bin/container-disk"],
             "resources": {"limits": {"cpu": "100m", "memory": "40M"},
                           "requests": {"cpu": "10m", "memory": "1M"}}}]
    if cdisk:
        digest = "sha256:" + hexs(rnd, 64)
        r = rnd.random()
        if r < 0.95:
            image_id = "%s@%s" % (cdisk, digest)
        elif r < 0.98:
            image_id = digest            # side-loaded: config digest only
        else:
            image_id = "%s:latest" % cdisk
        containers.append({"name": "volumerootdisk", "image": cdisk + ":latest",
                           "command": ["/usr/bin/container-disk"],
                           "args": ["--copy-path", "/var/run/kubevirt-ephemeral-disks/"
                                    "container-disk-data/%s/disk_0" % md["uid"]],
                           "resources": {"limits": {"cpu": "10m", "memory": "40M"},
                                         "requests": {"cpu": "1m", "memory": "1M"}}})
        statuses.append({"name": "volumerootdisk", "image": cdisk + ":latest",
                         "imageID": image_id,
                         "containerID": "containerd://" + hexs(rnd, 64),
                         "ready": phase == "Running", "restartCount": 0,
                         "state": {"running": {"startedAt": ts(i + 6)}}})
    for v in vmi["spec"]["volumes"]:
        if "persistentVolumeClaim" in v:
            vols.append({"name": v["name"], "persistentVolumeClaim":
                         {"claimName": v["persistentVolumeClaim"]["claimName"]}})
        elif "dataVolume" in v:
            vols.append({"name": v["name"], "persistentVolumeClaim":
                         {"claimName": v["dataVolume"]["name"]}})
    spec = {"automountServiceAccountToken": False, "containers": containers,
            "initContainers": init, "volumes": vols,
            "nodeSelector": dict(sorted(sel.items())),
            "dnsPolicy": "ClusterFirst", "enableServiceLinks": False,
            "hostname": vname, "priority": 0, "restartPolicy": "Never",
            "schedulerName": "default-scheduler",
            "securityContext": {"fsGroup": 107, "runAsGroup": 107, "runAsNonRoot": True,
                                "runAsUser": 107},
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 210,
            "tolerations": vmi["spec"].get("tolerations", [])}
    if "affinity" in vmi["spec"]:
        spec["affinity"] = vmi["spec"]["affinity"]
    if node:
        spec["nodeName"] = node
    status = {"phase": phase, "qosClass": "Burstable",
              "startTime": ts(i + 3), "hostIP": "10.0.0.1",
              "podIP": "10.128.0.1", "containerStatuses": statuses,
              "conditions": [{"type": "Ready", "status": "True" if phase == "Running" else "False",
                              "lastTransitionTime": ts(i + 8)}]}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": pname, "namespace": ns, "uid": uid(rnd),
                         "generateName": "virt-launcher-%s-" % vname,
                         "creationTimestamp": ts(i + 2 + (0 if phase != "Succeeded" else -50)),
                         "resourceVersion": str(4000000 + i),
                         "labels": labels,
                         "annotations": {"kubevirt.io/domain": vname,
                                         "kubevirt.io/migrationTransportUnix": "true",
                                         "kubectl.kubernetes.io/default-container": "compute",
                                         "descheduler.alpha.kubernetes.io/request-evict-only": ""},
                         "ownerReferences": [{"apiVersion": "kubevirt.io/v1",
                                              "kind": "VirtualMachineInstance", "name": vname,
                                              "uid": md["uid"], "controller": True,
                                              "blockOwnerDeletion": True}]},
            "spec": spec, "status": status}


# --- archive -----------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=500,
                    help="nodes, in pools (3 control-plane nodes from 20 "
                    "on; default 500)")
    ap.add_argument("--vmis", type=int, default=10000,
                    help="VirtualMachineInstances (default 10000)")
    ap.add_argument("--pods", type=int, default=None,
                    help="launcher pods (default: as many as VMIs)")
    ap.add_argument("--pvcs", type=int, default=None,
                    help="PVCs (default: as many as VMIs)")
    ap.add_argument("--namespaces", type=int, default=300,
                    help="namespaces the VMIs spread over (at most "
                    "VMIs / 5 + 3; default 300)")
    ap.add_argument("--classes", type=int, default=len(CPU_FILES),
                    help="CPU classes to draw from (default and max %d)" %
                    len(CPU_FILES))
    ap.add_argument("--seed", type=int, default=1,
                    help="random seed: the same arguments and seed give "
                    "the same bytes (default 1)")
    ap.add_argument("--no-node-files", action="store_true",
                    help="leave out nodes/<node>/domcapabilities.xml")
    ap.add_argument("--full", action="store_true",
                    help="fuller objects, as a real kubectl dump has them: "
                    "managedFields on every object, more status conditions "
                    "(with reasons and messages), and a VirtualMachine per "
                    "VMI (resources/virtualmachines.kubevirt.io.json) whose "
                    "template is the VMI's spec")
    ap.add_argument("--level", type=int, default=6, help="gzip level (default 6)")
    ap.add_argument("--shared", default=os.environ.get(
        "SHARED", os.path.join(HERE, "..", "..", "shared")),
        help="the shared data folder (data/real-cpus, "
        "data/libvirt-cpu-models.json; default $SHARED, else ../shared "
        "beside the repository)")
    ap.add_argument("--cordon", action="append", default=[],
                    metavar="NODE",
                    help="cordon NODE (spec.unschedulable and its taint) "
                    "after the VMIs are placed, to diff against the "
                    "same cluster uncordoned; may be repeated")
    ap.add_argument("--out", required=True,
                    help="the archive to write (.tar.gz); its name without "
                    "the suffix is the top directory")
    args = ap.parse_args()
    if args.pods is None:
        args.pods = args.vmis
    if args.pvcs is None:
        args.pvcs = args.vmis
    if args.nodes < 2 or args.vmis < 1:
        ap.error("need at least 2 nodes and 1 VMI")

    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    top = os.path.basename(args.out)
    for suf in (".tar.gz", ".tgz", ".tar"):
        if top.endswith(suf):
            top = top[:-len(suf)]
    # Nothing here is cyclic garbage; the collector would only walk the
    # objects again and again.
    gc.disable()
    with tempfile.TemporaryDirectory(dir=out_dir) as tmpdir:
        resources = RESOURCES + ([VM_RESOURCE] if args.full else [])
        W = {key: ListWriter(tmpdir, path, resource, group)
             for key, path, group, resource in resources}
        if args.full:
            for w in W.values():
                w.full = fuller
        nodes = gen(args, W)
        members = [W[key] for key, _, _, _ in resources]
        for m in members:
            m.close()
        xml_members = []
        if not args.no_node_files:
            for n in nodes:
                if n["cls"] is None:
                    continue
                data = n["cls"].xml
                xml_members.append(("nodes/%s/domcapabilities.xml" % n["name"], data,
                                    hashlib.sha256(data).hexdigest()))
        manifest = {
            "kind": "kvscope-snapshot", "formatVersion": 1,
            "createdAt": "2026-10-31T09:12:44Z",
            "collector": {"name": "gen-large.py", "version": "1"},
            "cluster": {"context": "synthetic-%dn-%dv" % (args.nodes, args.vmis),
                        "kubernetesVersion": "v1.36.1", "kubevirtVersion": "v1.9.0",
                        "flavor": "kubevirt"},
            "options": {"namespaces": [], "redact": True, "anonymize": False},
            "resources": [
                {"resource": m.resource, "group": m.group, "file": m.path,
                 "status": "ok", "count": m.count} for m in members] + [
                {"resource": "persistentvolumes", "group": "", "status": "forbidden",
                 "message": "persistentvolumes is forbidden: User \"support\" cannot "
                            "list resource \"persistentvolumes\""},
                {"resource": "virtualmachines", "group": "virtualization.deckhouse.io",
                 "status": "absent"}],
            "redactions": [{"field": "spec.volumes[].cloudInitNoCloud.userData",
                            "count": args.vmis}],
            "files": [{"path": m.path, "bytes": m.n, "sha256": m.h.hexdigest()}
                      for m in members] +
                     [{"path": p, "bytes": len(d), "sha256": h} for p, d, h in xml_members],
        }
        mbytes = json.dumps(manifest, indent=1).encode() + b"\n"
        tmp_out = args.out + ".part"
        with open(tmp_out, "wb") as raw:
            gz = gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                               compresslevel=args.level, mtime=0)
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                def add(path, size, fobj):
                    ti = tarfile.TarInfo(path)
                    ti.size = size
                    ti.mtime = BASE_TS
                    ti.mode = 0o644
                    tar.addfile(ti, fobj)

                def adddir(path):
                    ti = tarfile.TarInfo(path)
                    ti.type = tarfile.DIRTYPE
                    ti.mtime = BASE_TS
                    ti.mode = 0o755
                    tar.addfile(ti)
                adddir(top)
                add(top + "/manifest.json", len(mbytes), io.BytesIO(mbytes))
                adddir(top + "/resources")
                for m in members:
                    with open(m.tmp, "rb") as f:
                        add(top + "/" + m.path, m.n, f)
                    os.unlink(m.tmp)
                for p, d, _ in xml_members:
                    add(top + "/" + p, len(d), io.BytesIO(d))
            gz.close()
        os.replace(tmp_out, args.out)
    total = sum(m.n for m in members) + sum(len(d) for _, d, _ in xml_members)
    print("%s: %d nodes, %d VMIs, %d pods, %d PVCs, %.0f MB uncompressed, %.0f MB"
          % (args.out, args.nodes, args.vmis,
             next(m.count for m in members if m.resource == "pods"),
             next(m.count for m in members if m.resource == "persistentvolumeclaims"),
             total / 1e6, os.path.getsize(args.out) / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
