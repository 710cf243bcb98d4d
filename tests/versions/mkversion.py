#!/usr/bin/env python3
"""mkversion.py - a sample snapshot as an older KubeVirt would show it.

    mkversion.py SRC DST VERSION [--added-selector] [--realtime]
                 [--old-reasons] [--keep-labels] [--hco OPERATOR]
                 [--keep-added-selector] [--harvester RELEASE]
                 [--hco-lm K=V,...] [--no-kv-config] [--vmop-selector]
                 [--sriov] [--cdrom] [--no-model] [--status-image]
                 [--gate NAME]

Copies the snapshot directory SRC (samples/pitfalls, samples/mixed, ...;
its KubeVirt is v1.9.0; samples/deckhouse: DVP's fork, with VERSION
such as v1.3.1-v12n.21) to DST and makes it look collected from a cluster
running KubeVirt VERSION (e.g. v1.1.0): the KubeVirt CR's status
(observedKubeVirtVersion, targetKubeVirtVersion, operatorVersion), the
launcher pods' image tags and the manifest's cluster.kubevirtVersion say
VERSION, and the nodes carry the labels that version's node labeller
writes (docs/versions.md):

* no machine-type.node.kubevirt.io/* labels before v1.5.1 (1.5) / v1.6.0
  (never in 1.4.x) - R9;
* kubevirt.io/realtime, sev, sev-es labels "" up to v1.5.2 - R10;
* no kubevirt.io/cpumanager label before v1.8.0 (only cpumanager).
* no cpu-model-migration.* labels before v0.54.0, no host-model-cpu.* or
  host-model-required-features.* before v0.43.0, and before v0.40.0
  node-feature-discovery's feature.node.kubernetes.io/cpu-model-<M> and
  cpu-feature-<F> instead of cpu-model.* and cpu-feature.* (docs/
  versions.md, "Before v1.0").

Before v1.0 (pit/evict-live, samples/pitfalls): --sriov gives it an
SR-IOV interface on a Multus network; --cdrom a read-only CD-ROM on a
cloudInitNoCloud volume; --no-model drops its spec.domain.cpu.model (as
the webhook left it before v0.48.0).  --status-image makes the launcher
of pit/cd-config-digest report its containerDisk as image "sha256:<id>"
(a containerd image ID) with a pullable repository digest as imageID.
--gate NAME adds NAME to the KubeVirt CR's featureGates.

--hco OPERATOR adds an OpenShift Virtualization HyperConverged CR whose
status.versions[operator] is OPERATOR (e.g. 4.15.2) and moves the
KubeVirt CR to namespace openshift-cnv.  --hco-lm K=V,... gives that CR
a spec.liveMigrationConfig (completionTimeoutPerGiB=300,
bandwidthPerMigration=64Mi: numbers stay numbers); --no-kv-config
drops the KubeVirt CR's spec.configuration (what HCO would write there
is then judged from the HyperConverged CR and HCO's defaults).
Before v1.6.0 the VMIMs lose spec.addedNodeSelector (the field does not
exist there, R37) unless --keep-added-selector keeps them (a
field that version's controller never reads).  --keep-labels leaves
the node labels as SRC has them (v1.9's), to contradict VERSION.
--added-selector gives the first VMIM (made if none) a
spec.addedNodeSelector, a field that exists only since v1.6.0 (R37).
--realtime makes pit/evict-live a realtime VMI (spec.domain.cpu.realtime)
and labels every schedulable node kubevirt.io/realtime ("true", or ""
up to v1.5.2); up to v1.4.x the VMI webhook has written
kubevirt.io/realtime: "" into the VMI's own nodeSelector (R10).
--old-reasons (samples/pitfalls) gives four VMIs what older versions
refuse, with the LiveMigratable=False condition VERSION reports for it
(R15-R18): pit/evict-external a virtiofs filesystem (<= v1.4.x),
pit/evict-none dedicated CPUs with isolateEmulatorThread (v0.58.1-v1.0.1;
the nodes get cpumanager=true, and from v1.8.0 kubevirt.io/cpumanager=true), pit/evict-ifpossible a LUN disk with
reservation (v1.0.0-v1.8.4), db/migrated-once a persistent TPM whose
backend PVC is RWO (v1.3.x: DisksNotLiveMigratable "Backend storage PVC
is not RWX").
--harvester RELEASE adds Harvester's settings.harvesterhci.io
server-version setting (e.g. v1.7.1): kvscope then reads the snapshot
as Harvester's.
--vmop-selector (samples/deckhouse) gives prod/vm-busy's pending Migrate
VirtualMachineOperation spec.migrate.nodeSelector
kubernetes.io/hostname: gone (a node that does not exist).
The manifest's files[] (bytes, sha256) are recomputed.  The output is a
pure function of the arguments.
"""
import hashlib
import json
import os
import re
import shutil
import sys


# OpenShift Virtualization 4.N: the KubeVirt its HCO branch pins (the
# labels a CNV-style VERSION such as v4.18.3 gets; kvversion.c ocp_rows)
OCP_PINS = {8: (0, 41, 4), 9: (0, 44, 3), 10: (0, 49, 0), 11: (0, 53, 2),
            12: (0, 58, 2), 13: (0, 59, 2), 14: (1, 0, 1), 15: (1, 1, 1), 16: (1, 2, 2), 17: (1, 3, 1),
            18: (1, 4, 1), 19: (1, 5, 3), 20: (1, 6, 6), 21: (1, 7, 4),
            22: (1, 8, 4)}


def parse(v):
    m = re.match(r"v?(\d+)\.(\d+)(?:\.(\d+))?", v)
    if not m:
        return (1, 9, 0)    # unreadable ("latest"): v1.9's labels
    t = tuple(int(x or 0) for x in m.groups())
    return OCP_PINS.get(t[1], t) if t[0] == 4 else t


def has(v, since):
    """since: the first version of each minor line, mainline last."""
    for s in since:
        if s[:2] == v[:2]:
            return v >= s
    return v >= since[-1]


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def save(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def items(doc):
    return doc["items"] if isinstance(doc, dict) and "items" in doc else doc


# the machine-type label prefixes of KubeVirt and of DVP's fork
MACHINE_TYPE = ("machine-type.node.kubevirt.io/",
                "machine-type.node.virtualization.deckhouse.io/")
# the KubeVirt CR files of KubeVirt and of DVP
CR_FILES = ("kubevirts.kubevirt.io.json",
            "internalvirtualizationkubevirts."
            "internal.virtualization.deckhouse.io.json")


NFD = "feature.node.kubernetes.io/"


def old_cpu_label(k, v):
    """The key v's labeller writes for k, or None (before v1.0)."""
    if k.startswith("cpu-model-migration.") and v < (0, 54, 0):
        return None
    if (k.startswith(("host-model-cpu.", "host-model-required-features."))
            and v < (0, 43, 0)):
        return None
    for kind in ("cpu-model", "cpu-feature"):
        if k.startswith(kind + ".node.kubevirt.io/") and v < (0, 40, 0):
            return NFD + kind + "-" + k.split("/", 1)[1]
    return k


def relabel_nodes(path, v):
    doc = load(path)
    for n in items(doc):
        labels = n["metadata"].setdefault("labels", {})
        for k in list(labels):
            nk = old_cpu_label(k, v)
            if nk != k:
                val = labels.pop(k)
                if nk is not None:
                    labels[nk] = val
                continue
            if (k.startswith(MACHINE_TYPE) and
                    not has(v, [(1, 5, 1), (1, 6, 0)])):
                del labels[k]
            elif (k in ("kubevirt.io/realtime", "kubevirt.io/sev",
                        "kubevirt.io/sev-es") and
                  not has(v, [(1, 5, 3), (1, 6, 0)])):
                labels[k] = ""
            elif (k == "kubevirt.io/cpumanager" and
                  not has(v, [(1, 8, 0)])):
                del labels[k]
    save(path, doc)


def retag(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.replace("virt-launcher:" + old, "virt-launcher:" + new)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def set_cr(path, version):
    doc = load(path)
    for k in items(doc):
        st = k.setdefault("status", {})
        for f in ("observedKubeVirtVersion", "targetKubeVirtVersion",
                  "operatorVersion"):
            st[f] = version
    save(path, doc)


def drop_added_selector(path):
    if not os.path.exists(path):
        return
    doc = load(path)
    for vmim in items(doc):
        vmim.get("spec", {}).pop("addedNodeSelector", None)
    save(path, doc)


def added_selector(path):
    doc = load(path) if os.path.exists(path) else []
    lst = items(doc)
    if not lst:
        lst.append({"apiVersion": "kubevirt.io/v1",
                    "kind": "VirtualMachineInstanceMigration",
                    "metadata": {"name": "mig-added", "namespace": "pit",
                                 "creationTimestamp":
                                 "2026-10-31T09:00:00Z"},
                    "spec": {"vmiName": "evict-live"},
                    "status": {"phase": "Succeeded"}})
    lst[0]["spec"]["addedNodeSelector"] = {"kubernetes.io/os": "linux"}
    save(path, doc)


def realtime(res, v):
    npath = os.path.join(res, "nodes.json")
    doc = load(npath)
    for n in items(doc):
        labels = n["metadata"].setdefault("labels", {})
        if labels.get("kubevirt.io/schedulable") == "true":
            labels["kubevirt.io/realtime"] = (
                "true" if has(v, [(1, 5, 3), (1, 6, 0)]) else "")
    save(npath, doc)
    vpath = os.path.join(res, "virtualmachineinstances.kubevirt.io.json")
    doc = load(vpath)
    for vmi in items(doc):
        md = vmi["metadata"]
        if (md.get("namespace"), md.get("name")) != ("pit", "evict-live"):
            continue
        vmi["spec"]["domain"].setdefault("cpu", {})["realtime"] = {}
        if not has(v, [(1, 5, 0)]):
            vmi["spec"].setdefault("nodeSelector", {})[
                "kubevirt.io/realtime"] = ""
    save(vpath, doc)


OLD_REASONS = [
    # (ns, name, spec edit, reason, message, reported in)
    ("pit", "evict-external", "virtiofs", "VirtIOFSNotLiveMigratable",
     "VMI uses virtiofs", lambda v: v < (1, 5, 0)),
    ("pit", "evict-none", "dedicated", "DedicatedCPUNotLiveMigratable",
     "VMI uses dedicated CPUs and emulator thread isolation",
     lambda v: (0, 58, 1) <= v and not has(v, [(0, 59, 2), (1, 1, 0)])),
    ("pit", "evict-ifpossible", "reservation",
     "PersistentReservationNotLiveMigratable",
     "VMI uses SCSI persistent reservation",
     lambda v: (1, 0, 0) <= v < (1, 9, 0)),
    ("db", "migrated-once", "tpm", "DisksNotLiveMigratable",
     "cannot migrate VMI: Backend storage PVC is not RWX",
     lambda v: v[:2] == (1, 3)),
]


def spec_edit(vmi, what):
    dom = vmi["spec"]["domain"]
    dev = dom.setdefault("devices", {})
    if what == "virtiofs":
        dev.setdefault("filesystems", []).append(
            {"name": "shared", "virtiofs": {}})
    elif what == "dedicated":
        dom.setdefault("cpu", {}).update(
            {"dedicatedCpuPlacement": True, "isolateEmulatorThread": True})
    elif what == "reservation":
        dev.setdefault("disks", []).append(
            {"name": "shared-lun", "lun": {"reservation": True}})
    elif what == "tpm":
        dev["tpm"] = {"persistent": True}


def old_reasons(res, v):
    npath = os.path.join(res, "nodes.json")
    doc = load(npath)
    for n in items(doc):
        labels = n["metadata"].setdefault("labels", {})
        if labels.get("kubevirt.io/schedulable") == "true":
            labels["cpumanager"] = "true"
            if has(v, [(1, 8, 0)]):
                labels["kubevirt.io/cpumanager"] = "true"
    save(npath, doc)
    vpath = os.path.join(res, "virtualmachineinstances.kubevirt.io.json")
    doc = load(vpath)
    for vmi in items(doc):
        md = vmi["metadata"]
        for ns, name, what, reason, msg, reported in OLD_REASONS:
            if (md.get("namespace"), md.get("name")) != (ns, name):
                continue
            spec_edit(vmi, what)
            if not reported(v):
                continue
            for cond in vmi["status"].get("conditions", []):
                if cond["type"] == "LiveMigratable":
                    cond.update({"status": "False", "reason": reason,
                                 "message": msg})
    save(vpath, doc)


def edit_vmi(res, ns, name, fn):
    vpath = os.path.join(res, "virtualmachineinstances.kubevirt.io.json")
    doc = load(vpath)
    for vmi in items(doc):
        md = vmi["metadata"]
        if (md.get("namespace"), md.get("name")) == (ns, name):
            fn(vmi)
    save(vpath, doc)


def sriov(vmi):
    vmi["spec"]["domain"]["devices"]["interfaces"].append(
        {"name": "sriov-net", "sriov": {}})
    vmi["spec"]["networks"].append(
        {"name": "sriov-net", "multus": {"networkName": "sriov-a"}})


def cdrom(vmi):
    vmi["spec"]["domain"]["devices"].setdefault("disks", []).append(
        {"name": "cidata", "cdrom": {"bus": "sata"}})
    vmi["spec"]["volumes"].append(
        {"name": "cidata", "cloudInitNoCloud": {"userData": "#cloud-config"}})


def no_model(vmi):
    vmi["spec"]["domain"].get("cpu", {}).pop("model", None)


def status_image(res):
    ppath = os.path.join(res, "pods.json")
    doc = load(ppath)
    for pod in items(doc):
        if not pod["metadata"]["name"].startswith(
                "virt-launcher-cd-config-digest-"):
            continue
        for st in pod["status"].get("containerStatuses", []):
            if st["name"] == "volumecontainerdisk":
                hexid = st["imageID"].split("sha256:")[-1]
                st["image"] = "sha256:" + hexid
                st["imageID"] = ("registry.lab.local/vm-images/alpine@"
                                 "sha256:" + hexid)
    save(ppath, doc)


def add_gate(res, gate):
    kpath = os.path.join(res, "kubevirts.kubevirt.io.json")
    doc = load(kpath)
    for k in items(doc):
        dev = k.setdefault("spec", {}).setdefault(
            "configuration", {}).setdefault("developerConfiguration", {})
        dev.setdefault("featureGates", []).append(gate)
    save(kpath, doc)


def pairs(arg):
    out = {}
    for kv in arg.split(","):
        k, v = kv.split("=", 1)
        out[k] = int(v) if v.isdigit() else v
    return out


def add_hco(dst, res, operator, lm):
    name = "hyperconvergeds.hco.kubevirt.io.json"
    hco = {
        "apiVersion": "hco.kubevirt.io/v1beta1", "kind": "HyperConverged",
        "metadata": {"name": "kubevirt-hyperconverged",
                     "namespace": "openshift-cnv"},
        "status": {"versions": [{"name": "operator",
                                 "version": operator}]}}
    if lm is not None:
        hco["spec"] = {"liveMigrationConfig": pairs(lm)}
    save(os.path.join(res, name), [hco])
    kpath = os.path.join(res, "kubevirts.kubevirt.io.json")
    doc = load(kpath)
    for k in items(doc):
        k["metadata"]["namespace"] = "openshift-cnv"
    save(kpath, doc)
    mpath = os.path.join(dst, "manifest.json")
    m = load(mpath)
    m["resources"].append({"resource": "hyperconvergeds",
                           "group": "hco.kubevirt.io",
                           "file": "resources/" + name, "status": "ok",
                           "count": 1})
    m["files"].append({"path": "resources/" + name})
    with open(mpath, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=2)


def add_harvester(dst, res, release):
    name = "settings.harvesterhci.io.json"
    save(os.path.join(res, name), [{
        "apiVersion": "harvesterhci.io/v1beta1", "kind": "Setting",
        "metadata": {"name": "server-version"}, "value": release}])
    mpath = os.path.join(dst, "manifest.json")
    m = load(mpath)
    m["resources"].append({"resource": "settings",
                           "group": "harvesterhci.io",
                           "file": "resources/" + name, "status": "ok",
                           "count": 1})
    m["files"].append({"path": "resources/" + name})
    with open(mpath, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=2)


def refresh_manifest(dst, version):
    mpath = os.path.join(dst, "manifest.json")
    m = load(mpath)
    m["cluster"]["kubevirtVersion"] = version
    for f in m.get("files", []):
        with open(os.path.join(dst, f["path"]), "rb") as fh:
            data = fh.read()
        f["bytes"] = len(data)
        f["sha256"] = hashlib.sha256(data).hexdigest()
    with open(mpath, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=2)
        f.write("\n")


def main(argv):
    if len(argv) < 4 or argv[-1] in ("--hco", "--harvester", "--hco-lm",
                                     "--gate"):
        sys.exit(__doc__)
    src, dst, version = argv[1:4]
    v = parse(version)
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    res = os.path.join(dst, "resources")
    old = load(os.path.join(dst, "manifest.json"))["cluster"][
        "kubevirtVersion"]
    if "--keep-labels" not in argv[4:]:
        relabel_nodes(os.path.join(res, "nodes.json"), v)
    retag(os.path.join(res, "pods.json"), old, version)
    for cr in CR_FILES:
        if os.path.exists(os.path.join(res, cr)):
            set_cr(os.path.join(res, cr), version)
    vmims = os.path.join(
        res, "virtualmachineinstancemigrations.kubevirt.io.json")
    if v < (1, 6, 0) and "--keep-labels" not in argv[4:] and \
            "--keep-added-selector" not in argv[4:]:
        drop_added_selector(vmims)
    if "--added-selector" in argv[4:]:
        added_selector(vmims)
    if "--realtime" in argv[4:]:
        realtime(res, v)
    if "--old-reasons" in argv[4:]:
        old_reasons(res, v)
    for opt, fn in (("--sriov", sriov), ("--cdrom", cdrom),
                    ("--no-model", no_model)):
        if opt in argv[4:]:
            edit_vmi(res, "pit", "evict-live", fn)
    if "--status-image" in argv[4:]:
        status_image(res)
    if "--gate" in argv[4:]:
        add_gate(res, argv[argv.index("--gate") + 1])
    if "--vmop-selector" in argv[4:]:
        vpath = os.path.join(
            res, "virtualmachineoperations.virtualization.deckhouse.io.json")
        doc = load(vpath)
        for op in items(doc):
            if op["metadata"]["name"] == "vm-busy-m8x2q":
                op["spec"]["migrate"] = {
                    "nodeSelector": {"kubernetes.io/hostname": "gone"}}
        save(vpath, doc)
    if "--no-kv-config" in argv[4:]:
        kpath = os.path.join(res, "kubevirts.kubevirt.io.json")
        doc = load(kpath)
        for k in items(doc):
            k.get("spec", {}).pop("configuration", None)
        save(kpath, doc)
    if "--hco" in argv[4:]:
        lm = argv[argv.index("--hco-lm") + 1] if "--hco-lm" in argv \
            else None
        add_hco(dst, res, argv[argv.index("--hco") + 1], lm)
    if "--harvester" in argv[4:]:
        add_harvester(dst, res, argv[argv.index("--harvester") + 1])
    refresh_manifest(dst, version)


if __name__ == "__main__":
    main(sys.argv)
