#!/usr/bin/env python3
"""mkcross.py - a copy of a sample snapshot edited into another cluster,
for tests/e2e/crosscheck.sh.

    mkcross.py SRC DST OP...

OPs, applied in order (the manifest's bytes and sha256 rewritten for
every file changed or added):

    context NAME        the manifest's cluster context
    uid UID             namespace kube-system's and the KubeVirt CR's uid
    gate                the KubeVirt CR enables DecentralizedLiveMigration
    version V           the KubeVirt version (CR status and manifest)
    drop-feature F      no node has the label cpu-feature.../F
    drop-machine-types  no node has a machine-type.* label
    only-nodes A,B      every other node is gone
    drop-namespace NS   the namespace NS is gone
    profiles-rwo        StorageProfiles: every class offers only RWO
    drop-class NAME     the storage class NAME is gone
    drop-vmclass NAME   the (DVP) VirtualMachineClass NAME is gone
    vmclass-nowhere NAME  its status lists no available node
    nad NS/NAME         a NetworkAttachmentDefinition
    multus NS/VMI NET   the VMI and its VM get a bridge interface on the
                        multus network NET
    stop NS/NAME        the VM is Halted: its VMI and pods are gone
    rename-nodes P      every node is P + its name (hostname label, pods'
                        and VMIs' node names too)

The output is a pure function of the arguments.
"""
import hashlib
import json
import os
import shutil
import sys

R = "resources/"
FILES = {
    "nodes": R + "nodes.json",
    "ns": R + "namespaces.json",
    "kv": R + "kubevirts.kubevirt.io.json",
    "sc": R + "storageclasses.storage.k8s.io.json",
    "sp": R + "storageprofiles.cdi.kubevirt.io.json",
    "nad": R + "network-attachment-definitions.k8s.cni.cncf.io.json",
    "vmi": R + "virtualmachineinstances.kubevirt.io.json",
    "vm": R + "virtualmachines.kubevirt.io.json",
    "pods": R + "pods.json",
    "vmclass": R + "virtualmachineclasses.virtualization.deckhouse.io.json",
}
ADDED = {
    "sp": ("storageprofiles", "cdi.kubevirt.io"),
    "nad": ("network-attachment-definitions", "k8s.cni.cncf.io"),
}


def load(dst, path):
    p = os.path.join(dst, path)
    if not os.path.exists(p):
        return {"apiVersion": "v1", "kind": "List", "items": []}
    text = open(p).read()
    try:
        return json.loads(text)
    except ValueError:      # JSON Lines
        return {"apiVersion": "v1", "kind": "List",
                "items": [json.loads(l) for l in text.splitlines() if l]}


def nsname(s):
    ns, name = s.split("/")
    return ns, name


def named(items, ns, name):
    return [o for o in items if o["metadata"]["name"] == name and
            o["metadata"].get("namespace") == ns]


def rename_nodes(get, prefix):
    for n in get("nodes")["items"]:
        n["metadata"]["name"] = prefix + n["metadata"]["name"]
        lab = n["metadata"]["labels"]
        if "kubernetes.io/hostname" in lab:
            lab["kubernetes.io/hostname"] = n["metadata"]["name"]
    for p in get("pods")["items"]:
        if p["spec"].get("nodeName"):
            p["spec"]["nodeName"] = prefix + p["spec"]["nodeName"]
    for v in get("vmi")["items"]:
        st = v.get("status", {})
        if st.get("nodeName"):
            st["nodeName"] = prefix + st["nodeName"]
        ms = st.get("migrationState")
        for k in ("sourceNode", "targetNode"):
            if ms and ms.get(k):
                ms[k] = prefix + ms[k]


def edit(docs, get, ops):
    i = 0
    while i < len(ops):
        op = ops[i]
        if op == "context":
            docs["__context"] = ops[i + 1]
            i += 2
        elif op == "uid":
            for n in get("ns")["items"]:
                if n["metadata"]["name"] == "kube-system":
                    n["metadata"]["uid"] = ops[i + 1]
            for k in get("kv")["items"]:
                k["metadata"]["uid"] = ops[i + 1] + "-kv"
            i += 2
        elif op == "gate":
            for k in get("kv")["items"]:
                dc = k["spec"].setdefault("configuration", {}).setdefault(
                    "developerConfiguration", {})
                dc.setdefault("featureGates", []).append(
                    "DecentralizedLiveMigration")
            i += 1
        elif op == "version":
            for k in get("kv")["items"]:
                st = k.setdefault("status", {})
                st["observedKubeVirtVersion"] = ops[i + 1]
                st["operatorVersion"] = ops[i + 1]
            docs["__version"] = ops[i + 1]
            i += 2
        elif op == "drop-feature":
            for n in get("nodes")["items"]:
                n["metadata"]["labels"].pop(
                    "cpu-feature.node.kubevirt.io/" + ops[i + 1], None)
            i += 2
        elif op == "drop-machine-types":
            for n in get("nodes")["items"]:
                lab = n["metadata"]["labels"]
                for k in [k for k in lab if k.startswith("machine-type.")]:
                    del lab[k]
            i += 1
        elif op == "drop-namespace":
            d = get("ns")
            d["items"] = [n for n in d["items"]
                          if n["metadata"]["name"] != ops[i + 1]]
            i += 2
        elif op == "only-nodes":
            keep = ops[i + 1].split(",")
            d = get("nodes")
            d["items"] = [n for n in d["items"]
                          if n["metadata"]["name"] in keep]
            i += 2
        elif op == "profiles-rwo":
            get("sp")["items"] = [{
                "apiVersion": "cdi.kubevirt.io/v1beta1",
                "kind": "StorageProfile",
                "metadata": {"name": s["metadata"]["name"]},
                "status": {"claimPropertySets": [
                    {"accessModes": ["ReadWriteOnce"],
                     "volumeMode": "Filesystem"},
                    {"accessModes": ["ReadWriteOnce"],
                     "volumeMode": "Block"}]}}
                for s in get("sc")["items"]]
            i += 1
        elif op == "drop-class":
            d = get("sc")
            d["items"] = [s for s in d["items"]
                          if s["metadata"]["name"] != ops[i + 1]]
            i += 2
        elif op == "drop-vmclass":
            d = get("vmclass")
            d["items"] = [c for c in d["items"]
                          if c["metadata"]["name"] != ops[i + 1]]
            i += 2
        elif op == "vmclass-nowhere":
            for c in get("vmclass")["items"]:
                if c["metadata"]["name"] == ops[i + 1]:
                    c.setdefault("status", {})["availableNodes"] = []
            i += 2
        elif op == "nad":
            ns, name = nsname(ops[i + 1])
            get("nad")["items"].append({
                "apiVersion": "k8s.cni.cncf.io/v1",
                "kind": "NetworkAttachmentDefinition",
                "metadata": {"name": name, "namespace": ns},
                "spec": {"config": "{}"}})
            i += 2
        elif op == "multus":
            ns, name = nsname(ops[i + 1])
            net = ops[i + 2]
            specs = [o["spec"] for o in named(get("vmi")["items"], ns, name)]
            specs += [o["spec"]["template"]["spec"]
                      for o in named(get("vm")["items"], ns, name)]
            for sp in specs:
                sp.setdefault("networks", []).append(
                    {"name": "sec", "multus": {"networkName": net}})
                sp["domain"]["devices"].setdefault("interfaces", []).append(
                    {"name": "sec", "bridge": {}})
            i += 3
        elif op == "stop":
            ns, name = nsname(ops[i + 1])
            for vm in named(get("vm")["items"], ns, name):
                vm["spec"].pop("running", None)
                vm["spec"]["runStrategy"] = "Halted"
                vm.pop("status", None)
            d = get("vmi")
            uids = [v["metadata"].get("uid")
                    for v in named(d["items"], ns, name)]
            d["items"] = [v for v in d["items"]
                          if v not in named(d["items"], ns, name)]
            p = get("pods")
            p["items"] = [q for q in p["items"]
                          if q["metadata"].get("labels", {}).get(
                              "kubevirt.io/created-by") not in uids]
            i += 2
        elif op == "rename-nodes":
            rename_nodes(get, ops[i + 1])
            i += 2
        else:
            sys.exit("mkcross: unknown operation " + op)


def main():
    src, dst, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.copytree(src, dst)
    dvp_kv = (R + "internalvirtualizationkubevirts.internal."
              "virtualization.deckhouse.io.json")
    if not os.path.exists(os.path.join(dst, FILES["kv"])) and \
            os.path.exists(os.path.join(dst, dvp_kv)):
        FILES["kv"] = dvp_kv      # DVP's KubeVirt CR
    docs = {}

    def get(key):
        if key not in docs:
            docs[key] = load(dst, FILES[key])
        return docs[key]
    edit(docs, get, ops)
    mf = json.load(open(os.path.join(dst, "manifest.json")))
    if "__context" in docs:
        mf["cluster"]["context"] = docs.pop("__context")
    if "__version" in docs:
        mf["cluster"]["kubevirtVersion"] = docs.pop("__version")
    for key, doc in sorted(docs.items()):
        path = FILES[key]
        if key not in ADDED and not os.path.exists(os.path.join(dst, path)):
            continue        # not in this flavor's snapshot
        data = (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()
        open(os.path.join(dst, path), "wb").write(data)
        if not any(f["path"] == path for f in mf["files"]):
            mf["files"].append({"path": path})
            res, group = ADDED[key]
            mf["resources"].append({"resource": res, "group": group,
                                    "file": path, "status": "ok",
                                    "count": len(doc["items"])})
        for f in mf["files"]:
            if f["path"] == path:
                f["bytes"] = len(data)
                f["sha256"] = hashlib.sha256(data).hexdigest()
        for r in mf["resources"]:
            if r.get("file") == path:
                r["count"] = len(doc["items"])
    open(os.path.join(dst, "manifest.json"), "w").write(
        json.dumps(mf, indent=2) + "\n")


main()
