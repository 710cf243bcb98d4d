#!/usr/bin/env python3
"""Regenerate samples/capacity, a snapshot that holds every pod.

Usage:  tools/gen-sample-capacity.py [--shared DIR] [--out DIR]

    --shared  the shared reference folder (default ../shared)
    --out     where the sample directory is written (default samples/)

Python 3 standard library only, deterministic (no clock, no randomness).
The cluster (nodes, launcher pods, VMIs, PVCs) is built with
tools/gen-samples.py, imported as a module, exactly as for the other
KubeVirt samples.  Then every other pod of the cluster is added to
resources/pods.json, cut down as snapshot-format.md says (metadata name,
namespace, uid, labels, ownerReferences kind/name; spec nodeName,
priorityClassName, priority, overhead, affinity,
topologySpreadConstraints; containers and initContainers with name and
resources only; status.phase), and the manifest's pods entry says
"scope": "all".  So kvscope knows what every node has left
(findings.md "nodes": requested = per pod max(sum of containers, largest
init container) + spec.overhead, for pods not Succeeded or Failed).
"""

import argparse
import hashlib
import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "gen_samples", os.path.join(HERE, "gen-samples.py"))
gs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gs)

NAME = "capacity"
CONTEXT = "lab-capacity"
GI = 1 << 30
# required anti-affinity to the database's pods, on the node
PG_ANTI = {"labelSelector": {"matchLabels": {"app": "pg"}},
           "namespaces": ["db"], "topologyKey": "kubernetes.io/hostname"}


def build(cpu):
    c = gs.Cluster(NAME, CONTEXT, cpu)
    gs.common_namespaces(c)
    c.add_namespace("prod", {"env": "prod"})
    c.add_namespace("db", {"env": "prod"})
    gs.control_plane(c)
    c.add_node("c1", gs.CASCADE, cpus=32, mem_gib=128, zone="zone-a",
               desc="Xeon Platinum 8268 (Cascade Lake)")
    c.add_node("c2", gs.CASCADE, cpus=32, mem_gib=128, zone="zone-a",
               desc="twin of c1; a database pod holds almost all its memory")
    c.add_node("g1", gs.GENOA, cpus=64, mem_gib=256, zone="zone-b",
               desc="AMD EPYC 9334 (Genoa)")
    c.add_node("g2", gs.GENOA, cpus=64, mem_gib=256, zone="zone-b",
               desc="twin of g1, with room")
    c.add_storageclass("ceph-rbd", "rbd.csi.ceph.com", default=True)
    c.kubevirt_conf = {
        "evictionStrategy": "LiveMigrate",
        "migrations": {"parallelMigrationsPerCluster": 5,
                       "parallelOutboundMigrationsPerNode": 2},
    }
    for name, node in (("stuck-vm", "c1"), ("fits-vm", "g1")):
        c.add_pvc("prod", name + "-root", "ceph-rbd", gs.RWX, "40Gi",
                  "Block")
        exp = dict(warnings=["pod-network-reconnect"],
                   cpuTargets=["c2"] if node == "c1" else ["g2"],
                   why="see the table above")
        if node == "g1":
            exp.update(verdict="ok", targets=["g2"])
        c.add_vm(ns="prod", name=name, node=node, memory="16Gi", cores=4,
                 labels={"app": name},
                 disks=[{"name": "rootdisk", "type": "pvc",
                         "claim": name + "-root"}], expect=exp)
    # anti-affine to the database: g1, its only CPU-compatible node and
    # one with room, runs pg-1 (the rules of gen-samples.py do not judge
    # pod affinity, so only the CPU targets are expected here)
    c.add_pvc("prod", "apart-vm-root", "ceph-rbd", gs.RWX, "20Gi", "Block")
    c.add_vm(ns="prod", name="apart-vm", node="g2", memory="8Gi", cores=2,
             labels={"app": "apart-vm"}, affinity={"podAntiAffinity": {
                 "requiredDuringSchedulingIgnoredDuringExecution": [
                     PG_ANTI]}},
             disks=[{"name": "rootdisk", "type": "pvc",
                     "claim": "apart-vm-root"}],
             expect=dict(warnings=["pod-network-reconnect"],
                         cpuTargets=["g1"], why="see the table above"))
    return c


# the database's replicas keep apart from each other
PG_AFFINITY = {"podAntiAffinity": {
    "requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "pg"}},
         "topologyKey": "kubernetes.io/hostname"}]}}


def container(name, cpu, mem):
    return {"name": name, "resources": {"requests": {"cpu": cpu,
                                                     "memory": mem}}}


def other_pods(c):
    """Pods that are not launchers, already cut down."""
    pods = []

    def pod(ns, name, node, phase, containers, init=None, overhead=None,
            owner=("ReplicaSet", None), priority=0, pclass=None,
            affinity=None):
        spec = {"nodeName": node, "containers": containers}
        if affinity:
            spec["affinity"] = affinity
        if init:
            spec["initContainers"] = init
        if overhead:
            spec["overhead"] = overhead
        if pclass:
            spec["priorityClassName"] = pclass
        spec["priority"] = priority
        meta = {"name": name, "namespace": ns, "uid": gs.uid("pod", ns, name),
                "labels": {"app": name.rsplit("-", 1)[0]}}
        if owner[0]:
            meta["ownerReferences"] = [{"kind": owner[0], "name": owner[1] or
                                        name.rsplit("-", 1)[0]}]
        pods.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta,
                     "spec": spec, "status": {"phase": phase}})

    for n in c.nodes:
        node = n["metadata"]["name"]
        pod("kube-system", "node-exporter-" + gs.suffix(node), node,
            "Running", [container("exporter", "100m", "128Mi")],
            owner=("DaemonSet", "node-exporter"), priority=2000001000,
            pclass="system-node-critical")
    # c2: a database whose init container (a restore) asks for more than
    # its containers, plus its overhead: 104Gi + 2Gi of c2's 128Gi
    pod("db", "pg-0", "c2", "Running",
        [container("postgres", "8", "96Gi"), container("exporter", "200m",
                                                       "256Mi")],
        init=[container("restore", "2", "104Gi")],
        overhead={"cpu": "250m", "memory": "2Gi"},
        owner=("StatefulSet", "pg"), affinity=PG_AFFINITY)
    # g1: the database's second replica, apart from the first
    pod("db", "pg-1", "g1", "Running",
        [container("postgres", "8", "32Gi")],
        owner=("StatefulSet", "pg"), affinity=PG_AFFINITY)
    # g2: a finished job's pod holds nothing
    pod("db", "backup-29348160-x7k2p", "g2", "Succeeded",
        [container("backup", "16", "200Gi")], owner=("Job", "backup-29348160"))
    return pods


def write(c, outdir):
    gs.write_sample(c, outdir)
    sdir = os.path.join(outdir, NAME)
    path = os.path.join(sdir, "resources/pods.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["items"] = sorted(doc["items"] + other_pods(c), key=lambda o: (
        o["metadata"].get("namespace", ""), o["metadata"]["name"]))
    with open(path, "w", encoding="utf-8") as f:
        f.write(gs.dump_pretty(doc))
    with open(os.path.join(sdir, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme(c))
    mpath = os.path.join(sdir, "manifest.json")
    with open(mpath, encoding="utf-8") as f:
        man = json.load(f)
    for e in man["resources"]:
        if e["resource"] == "pods" and e["group"] == "":
            e["count"] = len(doc["items"])
            e["scope"] = "all"
    for e in man["files"]:
        with open(os.path.join(sdir, e["path"]), "rb") as f:
            b = f.read()
        e["bytes"] = len(b)
        e["sha256"] = hashlib.sha256(b).hexdigest()
    with open(mpath, "w", encoding="utf-8") as f:
        f.write(json.dumps(man, indent=2, ensure_ascii=False) + "\n")


def readme(c):
    return """# Sample `capacity`: a snapshot with every pod

Written by `tools/gen-sample-capacity.py` (do not edit). The manifest's
pods entry says `"scope": "all"`: `resources/pods.json` holds every pod,
the virt-launcher pods whole and every other pod cut down to what
placement needs ([docs/snapshot-format.md](../../docs/snapshot-format.md#pods-and-their-scope)). So kvscope knows
what each node has left: `nodes[].requested` is the sum over the node's
pods that hold resources (phase not Succeeded or Failed) of max(sum of
the containers, the largest init container) plus `spec.overhead`, and a
node without room for the target pod's requests is not a target.

| node | CPU | allocatable | what runs there |
| --- | --- | --- | --- |
| cp1 | none (control plane) | 7.5 CPU, 25.5 GiB | node-exporter |
| c1 | Cascade Lake | 31.5 CPU, 125.5 GiB | node-exporter, the launcher of prod/stuck-vm |
| c2 | Cascade Lake (twin of c1) | 31.5 CPU, 125.5 GiB | node-exporter, db/pg-0: init container 104Gi > containers 96.25Gi, plus 2Gi overhead: 106 GiB + 128 MiB requested |
| g1 | EPYC Genoa | 63.5 CPU, 253.5 GiB | node-exporter, the launcher of prod/fits-vm, db/pg-1 (32 GiB, 8 CPU) |
| g2 | EPYC Genoa (twin of g1) | 63.5 CPU, 253.5 GiB | node-exporter, the launcher of prod/apart-vm, a Succeeded backup pod (200Gi, holds nothing) |

Expected verdicts:

| VMI | node | verdict | blockers | cpuTargets | targets |
| --- | --- | --- | --- | --- | --- |
| prod/apart-vm | g2 | no-target | `no-placement-target` | g1 | - |
| prod/fits-vm | g1 | ok | - | g2 | g2 |
| prod/stuck-vm | c1 | no-target | `no-capacity` | c2 | - |

* prod/stuck-vm (host-model Cascadelake-Server) can only move to its twin
  c2 by the CPU rules, and c2 takes the pod by every other constraint,
  but its database pod leaves 15.4 GiB free while the target pod needs
  what the source launcher pod requests (16.3 GiB, 400m CPU): no room, so
  the blocker is `no-capacity`, not `no-placement-target`. Freeing
  memory on c2 (or adding a Cascade Lake node) fixes it.
* prod/fits-vm on g1 moves to g2: the Succeeded backup pod's 200Gi
  request does not count.
* prod/apart-vm (host-model EPYC-Genoa) on g2 has a required pod
  anti-affinity to the database's pods (`app=pg` in namespace db,
  topology `kubernetes.io/hostname`), which KubeVirt copies to the target
  pod. Its only CPU-compatible node g1 has room, but runs db/pg-1: the
  scheduler's "node(s) didn't match pod anti-affinity rules", so the
  blocker is `no-placement-target`, and `kvscope explain` names the term
  and the pod. The database pods' own anti-affinity (to each other) does
  not match the VMI's pods and changes nothing.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--out", default="samples")
    args = ap.parse_args()
    cpu = gs.CpuData(args.shared)
    write(build(cpu), args.out)
    print("%s: written" % NAME)


if __name__ == "__main__":
    main()
