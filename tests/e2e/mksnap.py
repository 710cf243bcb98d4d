#!/usr/bin/env python3
"""mksnap.py - write a small synthetic kvscope snapshot directory.

    mksnap.py DIR [--hostile] [--nodes N] [--classes K] [--date ISO]
                  [--long N [--spaced]] [--bidi] [--formula]
    mksnap.py DIR --nodes N [--vmis-per-node V] [--failing F] [--anti]
    mksnap.py DIR --unique-classes N

The snapshot follows docs/snapshot-format.md: manifest.json with
files[] (bytes and sha256 of every member) and resources/*.json lists.

Default: a mixed cluster of Intel and AMD node kinds with VMIs that cover
every verdict.  --hostile gives the VMIs, namespaces, label values and one
node names with markup, quotes, ampersands and non-ASCII text.  --nodes N
(with --classes K) builds a large cluster for scale tests: N nodes spread
over K CPU classes, V VMIs per node (default 2); --failing F makes F of
them, spread evenly, fail in a few large groups (each a ReadWriteOnce
disk, and a third of them a bridge binding on the pod network, another
third evictionStrategy None); --anti puts every VMI and its launcher pod in
one of 16 tiers (label app) whose VMIs keep apart, in every namespace,
by required pod anti-affinity per host.  --unique-classes N gives N lean nodes with a CPU
feature each of its own (N classes from a small file).  --long N makes the
cluster context, a node, a VMI, a namespace, a CPU model, a storage class
and a condition message N characters long (legal but unreadable, without
white space; with --spaced, the context and message are words with
spaces).  --bidi puts bidi controls and zero-width characters into names
(U+202E in a VMI name that then reads "w1admpdf.exe", in a node name and
in the context, and noncharacters: U+FFFE, U+FFFF, U+FDD0, U+10FFFF).
--formula adds VMIs whose names a spreadsheet would take
for formulas and one with a comma, a quote and a line break in its name.
The output is a pure function of the arguments.
"""
import functools
import hashlib
import json
import os
import sys

V1 = "cmov cx8 fpu fxsr mmx syscall sse sse2 lm".split()
V2 = "cx16 lahf_lm popcnt pni sse4.1 sse4.2 ssse3".split()
V3 = "avx avx2 bmi1 bmi2 f16c fma abm movbe xsave".split()
V4 = "avx512f avx512bw avx512cd avx512dq avx512vl".split()

OLD_INTEL = ["Nehalem", "Nehalem-IBRS", "Westmere", "Westmere-IBRS",
             "SandyBridge", "SandyBridge-IBRS", "IvyBridge", "IvyBridge-IBRS",
             "Penryn"]
HSW = ["Haswell-noTSX", "Haswell-noTSX-IBRS", "Broadwell-noTSX",
       "Broadwell-noTSX-IBRS"]
SKX = ["Skylake-Client-noTSX-IBRS", "Skylake-Server-noTSX-IBRS",
       "Skylake-Server-v4", "Skylake-Server-v5"]
CLX = ["Cascadelake-Server-noTSX", "Cascadelake-Server-v4"]
ICX = ["Icelake-Server-noTSX", "Icelake-Server-v4"]
OLD_AMD = ["Opteron_G3", "EPYC", "EPYC-IBPB", "EPYC-v2"]
ROME = ["EPYC-Rome", "EPYC-Rome-v2"]
GENOA = ["EPYC-Milan", "EPYC-Genoa"]

# kind: vendor, host model, features, required features, usable models,
# migration models
KINDS = {
    "icx": ("Intel", "Icelake-Server", V1 + V2 + V3 + V4 +
            ["gfni", "vaes", "md-clear", "ibrs-all", "spec-ctrl"],
            ["ibrs-all", "md-clear"], OLD_INTEL + HSW + SKX + CLX + ICX,
            OLD_INTEL + HSW + SKX + CLX + ICX +
            ["Icelake-Server", "Skylake-Server-IBRS", "Haswell-noTSX-IBRS"]),
    "skx": ("Intel", "Skylake-Server-IBRS", V1 + V2 + V3 + V4 +
            ["md-clear", "spec-ctrl"], ["md-clear"],
            OLD_INTEL + HSW + SKX, OLD_INTEL + HSW + SKX + CLX + ICX +
            ["Skylake-Server-IBRS", "Haswell-noTSX-IBRS"]),
    "skx-old": ("Intel", "Skylake-Server-IBRS", V1 + V2 + V3 + V4 +
                ["spec-ctrl"], ["spec-ctrl"],
                OLD_INTEL + HSW + SKX, OLD_INTEL + HSW + SKX +
                ["Skylake-Server-IBRS", "Haswell-noTSX-IBRS"]),
    "hsw": ("Intel", "Haswell-noTSX-IBRS", V1 + V2 + V3 +
            ["spec-ctrl"], ["spec-ctrl"], OLD_INTEL + HSW,
            OLD_INTEL + HSW + SKX + ["Haswell-noTSX-IBRS"]),
    "rome": ("AMD", "EPYC-Rome", V1 + V2 + V3 + ["ibpb", "clzero"],
             ["ibpb"], OLD_AMD + ROME, OLD_AMD + ROME + GENOA),
    "genoa": ("AMD", "EPYC-Genoa", V1 + V2 + V3 + V4 +
              ["ibpb", "clzero", "vaes"], ["ibpb", "vaes"],
              OLD_AMD + ROME + GENOA, OLD_AMD + ROME + GENOA),
}

D = "node.kubevirt.io"
LONG = 0        # --long N
BIDI = False    # --bidi
SPACED = False  # --spaced: the long strings are words with spaces
FORMULA = False  # --formula


@functools.lru_cache(maxsize=None)
def long_name(prefix):
    """prefix followed by letters and digits, LONG characters in all
    (made once per prefix: at a million characters each, the 21 names of a
    snapshot took two seconds)."""
    sep = " " if SPACED else ""
    body = sep.join("%s%d" % (prefix, i) for i in range(LONG // 4 + 2))
    return (prefix + "-" + body)[:LONG]
GI = 1024 ** 3


def node(name, kind, extra_labels=None, unschedulable=False, extra=()):
    vendor, hm, feats, req, usable, migr = KINDS[kind]
    labels = {"kubernetes.io/hostname": name, "kubevirt.io/schedulable": "true"}
    for f in list(feats) + list(extra):
        labels["cpu-feature.%s/%s" % (D, f)] = "true"
    for m in usable:
        labels["cpu-model.%s/%s" % (D, m)] = "true"
    for m in migr:
        labels["cpu-model-migration.%s/%s" % (D, m)] = "true"
    for f in req:
        labels["host-model-required-features.%s/%s" % (D, f)] = "true"
    labels["cpu-vendor.%s/%s" % (D, vendor)] = "true"
    labels["host-model-cpu.%s/%s" % (D, hm)] = "true"
    labels.update(extra_labels or {})
    n = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": name, "labels": labels},
         "spec": {}, "status": {"allocatable": {"memory": "256Gi"}}}
    if unschedulable:
        n["spec"]["unschedulable"] = True
    return n


def vmi(ns, name, nodename, uid, model=None, binding="masquerade",
        claim=None, cond=("True", ""), phase="Running", memory="4Gi",
        eviction=None, labels=None, selector=None):
    iface = {"name": "default", binding: {}}
    spec = {"domain": {"cpu": {}, "memory": {"guest": memory},
                       "devices": {"interfaces": [iface],
                                   "disks": [{"name": "root"}]}},
            "networks": [{"name": "default", "pod": {}}],
            "volumes": [{"name": "root", "persistentVolumeClaim":
                         {"claimName": claim or (name + "-root")}}]}
    if model:
        spec["domain"]["cpu"]["model"] = model
    if eviction:
        spec["evictionStrategy"] = eviction
    if selector:
        spec["nodeSelector"] = selector
    status = {"phase": phase}
    if phase == "Running":
        status["nodeName"] = nodename
        status["conditions"] = [{"type": "LiveMigratable",
                                 "status": cond[0], "reason": cond[1]}]
    return {"apiVersion": "kubevirt.io/v1", "kind":
            "VirtualMachineInstance",
            "metadata": {"namespace": ns, "name": name, "uid": uid,
                         "labels": labels or {"app": name}},
            "spec": spec, "status": status}


def launcher(v, host_model_sel):
    md = v["metadata"]
    sel = {"kubevirt.io/schedulable": "true"}
    sel.update(host_model_sel)
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"namespace": md["namespace"],
                         "name": "virt-launcher-" + md["name"] + "-abcde",
                         "creationTimestamp": "2026-10-01T00:00:00Z",
                         "labels": {"kubevirt.io": "virt-launcher",
                                    "kubevirt.io/created-by": md["uid"]}},
            "spec": {"nodeName": v["status"]["nodeName"],
                     "nodeSelector": sel,
                     "containers": [{"name": "compute", "resources": {
                         "requests": {"memory": "4400Mi"}}}]},
            "status": {"phase": "Running"}}


def pvc(ns, name, mode):
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"namespace": ns, "name": name},
            "spec": {"accessModes": [mode], "storageClassName":
                     long_name("sc") if LONG else "ceph-rbd",
                     "volumeMode": "Block"},
            "status": {"phase": "Bound", "accessModes": [mode]}}


def mixed(hostile):
    nodes = []
    names = {}
    plan = [("icx", 1), ("skx", 3), ("skx-old", 1), ("hsw", 2),
            ("rome", 2), ("genoa", 1)]
    for kind, count in plan:
        for i in range(count):
            nm = "%s-%02d" % (kind.replace("-old", "o"), i + 1)
            if LONG and kind == "icx":
                nm = long_name("node")
            if BIDI and kind == "rome" and i == 1:
                nm = "rome-\u202e20-\u200b"
            names.setdefault(kind, []).append(nm)
            nodes.append(node(nm, kind, unschedulable=(kind == "hsw"
                                                        and i == 1)))
    # a control-plane node without KubeVirt
    nodes.append({"apiVersion": "v1", "kind": "Node",
                  "metadata": {"name": "cp-01", "labels": {
                      "node-role.kubernetes.io/control-plane": ""}},
                  "spec": {"taints": [{"key":
                                       "node-role.kubernetes.io/control-plane",
                                       "effect": "NoSchedule"}]},
                  "status": {"allocatable": {"memory": "16Gi"}}})
    if hostile:
        nodes.append(node('gpu-<b>&"x\'-ü', "skx",
                          extra_labels={"rack": "<script>alert(1)</script>"}))
        names["skx"].append(nodes[-1]["metadata"]["name"])

    ns_a = "prod" if not hostile else 'prod-"q"&<script>alert(1)</script>'
    ns_b = "dev" if not hostile else "разработка-开发"
    if LONG:
        ns_b = long_name("ns")
    vmis, pods, pvcs = [], [], []
    n = [0]

    def add(ns, name, kind_or_node, idx=0, **kw):
        n[0] += 1
        nodename = names[kind_or_node][idx] if kind_or_node in names \
            else kind_or_node
        v = vmi(ns, name, nodename, "uid-%04d" % n[0], **kw)
        vmis.append(v)
        claim = v["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"]
        if not any(p["metadata"]["name"] == claim and
                   p["metadata"]["namespace"] == ns for p in pvcs):
            pvcs.append(pvc(ns, claim, "ReadWriteMany"))
        if v["status"]["phase"] == "Running":
            sel = {}
            model = kw.get("model")
            kind = [k for k, l in names.items() if nodename in l][0]
            if model is None:
                sel["cpu-model-migration.%s/%s" % (D, KINDS[kind][1])] = \
                    "true"
            elif model != "host-passthrough":
                sel["cpu-model.%s/%s" % (D, model)] = "true"
            pods.append(launcher(v, sel))
        return v

    h = hostile
    web = 'web-<script>alert("x")</script>&amp;' if h else "web"
    add(ns_a, web + "-0", "skx", 0)
    add(ns_a, web + "-1", "skx", 1, model="Haswell-noTSX-IBRS")
    add(ns_a, "db-0" if not h else "db-ÄÖÜ-数据库-0", "skx", 2,
        binding="bridge", cond=("False", "InterfaceNotLiveMigratable"))
    add(ns_a, long_name("vm") if LONG else "cache-0", "icx", 0)
    add(ns_a, "cache-1", "skx-old", 0)
    add(ns_a, "batch-0", "hsw", 0, model="host-passthrough")
    add(ns_a, "legacy-0", "hsw", 0, eviction="None", memory="16Gi")
    add(ns_b, "ci-runner-0", "rome", 0, model="EPYC-Rome")
    if LONG:
        add(ns_b, "long-model-0", "rome", 0, model=long_name("Model"),
            cond=("False", "CPUModelMissing " + long_name("msg")))
    if FORMULA:
        add(ns_b, "=HYPERLINK(\"http://x\",\"y\")", "rome", 1)
        add(ns_b, "+1+2", "rome", 1)
        add(ns_b, "@SUM(1)", "rome", 1)
        add(ns_b, "-3", "rome", 1)
        add(ns_b, 'a,b"c\r\nd', "rome", 1)
    if BIDI:
        add(ns_b, "w1adm\u202eexe.fdp", "rome", 1)
        add(ns_b, "zw\u200b\u200d\u2060\ufeffsp\u2066a\u2069\u200f"
            "\u061c", "rome", 1)
        # noncharacters (valid UTF-8 that cairo refuses): shown as codes
        add(ns_b, "nc\ufffe\uffff\ufdd0\U0010ffff", "rome", 1)
    add(ns_b, "ci-runner-1", "rome", 1)
    add(ns_b, "ml-train-0", "genoa", 0, memory="64Gi")
    add(ns_b, "builder-0", "rome", 0, phase="Succeeded")
    add(ns_b, "pinned-0", "skx", 0, selector={
        "rack": "<img src=x onerror=alert(1)>" if h else "r7"},
        labels={"team": "<img src=x onerror=alert(2)>" if h else "ml"})
    if h:
        add(ns_b, "квм-\"q\"-'s'-&-<i>", names["skx"][-1], 0)
        add(ns_b, "nocpu-<x>", "skx", 1, cond=("True", ""),
            model="Cooperlake")
    # one RWO disk: a blocker
    vmis[2]["spec"]["volumes"].append({"name": "data",
                                       "persistentVolumeClaim":
                                       {"claimName": "db-data"}})
    pvcs.append(pvc(ns_a, "db-data", "ReadWriteOnce"))
    return nodes, vmis, pods, pvcs


def failing_kind(i, nfail, total):
    """For --failing: None, or which of a few large groups VMI i of total
    joins (spread evenly over the cluster, nfail in all)."""
    if nfail <= 0 or (i * nfail) // total == ((i + 1) * nfail) // total:
        return None
    return ("bridge", "rwo", "noevict", "bridge", "rwo")[
        ((i * nfail) // total) % 5]


def keep_apart(v, pod, k):
    """--anti: VMI v and its launcher pod in tier k % 16, which keeps
    apart per host (required pod anti-affinity, copied to the pod)."""
    tier = "tier-%02d" % (k % 16)
    v["metadata"]["labels"]["app"] = tier
    pod["metadata"]["labels"]["app"] = tier
    v["spec"]["affinity"] = {"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [{
            "labelSelector": {"matchLabels": {
                "app": tier, "kubevirt.io": "virt-launcher"}},
            "namespaceSelector": {},
            "topologyKey": "kubernetes.io/hostname"}]}}


def scale(count, classes, per_node=2, nfail=0, anti=False):
    nodes = []
    kinds = sorted(KINDS)
    extras = ["x%03d" % i for i in range(classes)]
    for i in range(count):
        kind = kinds[i % len(kinds)]
        c = i % classes
        nodes.append(node("node-%05d" % i, kind, extra=[extras[c]]))
    vmis, pods, pvcs = [], [], []
    total = count * per_node
    for i in range(count):
        nm = nodes[i]["metadata"]["name"]
        kind = kinds[i % len(kinds)]
        for j in range(per_node):
            # with --failing, names as long as a real cluster's
            ns = ("team-analytics-prod-%03d" if nfail else "ns-%03d") % \
                (i % 50)
            why = failing_kind(i * per_node + j, nfail, total)
            kw = {"binding": "bridge", "cond":
                  ("False", "InterfaceNotLiveMigratable")} \
                if why == "bridge" else {"eviction": "None"} \
                if why == "noevict" else {}
            v = vmi(ns, ("postgres-replica-%05d-%d" if nfail else
                         "vm-%05d-%d") % (i, j), nm, "u-%05d-%d" % (i, j),
                    claim="rwo" if why else "shared", **kw)
            vmis.append(v)
            pods.append(launcher(v, {"cpu-model-migration.%s/%s" %
                                     (D, KINDS[kind][1]): "true"}))
            if anti:
                keep_apart(v, pods[-1], i * per_node + j)
    for k in range(50):
        ns = ("team-analytics-prod-%03d" if nfail else "ns-%03d") % k
        pvcs.append(pvc(ns, "shared", "ReadWriteMany"))
        pvcs.append(pvc(ns, "rwo", "ReadWriteOnce"))
    return nodes, vmis, pods, pvcs


def unique(count):
    """count lean nodes with one CPU feature of their own each: count CPU
    classes from a small file (the hostile input of issue 20)."""
    nodes = []
    for i in range(count):
        nodes.append({"apiVersion": "v1", "kind": "Node", "metadata": {
            "name": "u%05d" % i, "uid": "u%05d" % i, "labels": {
                "kubevirt.io/schedulable": "true",
                "cpu-vendor.%s/Intel" % D: "true",
                "host-model-cpu.%s/Skylake-Client-IBRS" % D: "true",
                "cpu-feature.%s/u%05d" % (D, i): "true"}}})
    return nodes, [], [], []


USAGE = ("usage: mksnap.py DIR [--hostile] [--nodes N] [--classes N] "
         "[--vmis-per-node N] [--failing N] [--anti] [--unique-classes N] "
         "[--date D] [--long N] [--formula] [--spaced] [--bidi]")


def main(argv):
    global LONG, BIDI, SPACED, FORMULA
    out, hostile, count, classes = None, False, 0, 8
    per_node, nfail, anti = 2, 0, False
    lean = False
    date = "2026-10-31T09:12:44Z"
    it = iter(argv[1:])
    for a in it:
        if a == "--hostile":
            hostile = True
        elif a == "--nodes":
            count = int(next(it))
        elif a == "--classes":
            classes = int(next(it))
        elif a == "--vmis-per-node":
            per_node = int(next(it))
        elif a == "--failing":
            nfail = int(next(it))
        elif a == "--anti":
            anti = True
        elif a == "--unique-classes":
            count, lean = int(next(it)), True
        elif a == "--date":
            date = next(it)
        elif a == "--long":
            LONG = int(next(it))
        elif a == "--formula":
            FORMULA = True
        elif a == "--spaced":
            SPACED = True
        elif a == "--bidi":
            BIDI = True
        elif a.startswith("-") or out is not None:
            sys.exit(USAGE)
        else:
            out = a
    if out is None:
        sys.exit(USAGE)
    if lean:
        nodes, vmis, pods, pvcs = unique(count)
        context = "unique-%d" % count
    elif count:
        nodes, vmis, pods, pvcs = scale(count, classes, per_node, nfail,
                                       anti)
        context = "scale-%d" % count
    else:
        nodes, vmis, pods, pvcs = mixed(hostile)
        context = 'lab-"<b>&ü</b>"' if hostile else "prod-east"
        if LONG:
            context = long_name("context")
        if BIDI:
            context = "prod-\u202eeast\u200b\ufdd0"
    kv = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt",
          "metadata": {"namespace": "kubevirt", "name": "kubevirt"},
          "spec": {"configuration": {
              "evictionStrategy": "LiveMigrate", "migrations": {
              "parallelMigrationsPerCluster": 5,
              "parallelOutboundMigrationsPerNode": 2}}},
          "status": {"observedKubeVirtVersion": "v1.9.0"}}
    sc = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
          "metadata": {"name": long_name("sc") if LONG else "ceph-rbd"},
          "provisioner":
          "rbd.csi.ceph.com"}
    nss = sorted({v["metadata"]["namespace"] for v in vmis})
    files = {
        "resources/nodes.json": nodes,
        "resources/namespaces.json": [
            {"apiVersion": "v1", "kind": "Namespace",
             "metadata": {"name": s}} for s in nss],
        "resources/pods.json": pods,
        "resources/persistentvolumeclaims.json": pvcs,
        "resources/storageclasses.storage.k8s.io.json": [sc],
        "resources/virtualmachineinstances.kubevirt.io.json": vmis,
        # listed, none: as the collector writes it
        "resources/virtualmachines.kubevirt.io.json": [],
        "resources/kubevirts.kubevirt.io.json": [kv],
        # one policy that selects nothing (an empty list also trips a
        # sanitizer in the model loader: qsort of NULL)
        "resources/migrationpolicies.migrations.kubevirt.io.json": [
            {"apiVersion": "migrations.kubevirt.io/v1alpha1",
             "kind": "MigrationPolicy", "metadata": {"name": "slow-lane"},
             "spec": {"selectors": {"namespaceSelector": {"lane": "slow"}},
                      "bandwidthPerMigration": "64Mi"}}],
        "resources/virtualmachineinstancemigrations.kubevirt.io.json": [],
    }
    res = []
    for path, items in files.items():
        base = path.split("/")[1][:-5]
        r, _, g = base.partition(".")
        res.append({"resource": r, "group": g, "file": path, "status": "ok",
                    "count": len(items)})
    res.append({"resource": "persistentvolumes", "group": "",
                "status": "forbidden",
                "message": "persistentvolumes is forbidden"})
    res.append({"resource": "datavolumes", "group": "cdi.kubevirt.io",
                "status": "absent"})
    manifest = {"kind": "kvscope-snapshot", "formatVersion": 1,
                "createdAt": date,
                "collector": {"name": "mksnap.py", "version": "1"},
                "cluster": {"context": context,
                            "kubernetesVersion": "v1.36.1",
                            "kubevirtVersion": "v1.9.0",
                            "flavor": "kubevirt"},
                "options": {"namespaces": [], "redact": True,
                            "anonymize": False},
                "resources": res, "redactions": [], "files": []}
    os.makedirs(os.path.join(out, "resources"), exist_ok=True)
    for path, items in files.items():
        data = json.dumps({"apiVersion": "v1", "kind": "List",
                           "items": items}, ensure_ascii=False,
                          sort_keys=True).encode()
        with open(os.path.join(out, path), "wb") as f:
            f.write(data)
        manifest["files"].append({"path": path, "bytes": len(data),
                                  "sha256":
                                  hashlib.sha256(data).hexdigest()})
    with open(os.path.join(out, "manifest.json"), "w",
              encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main(sys.argv)
