#!/usr/bin/env python3
"""mkfleet.py - write the fleet fixture (tests/e2e/fleet.sh) into DIR.

    mkfleet.py DIR

Three clusters built from the bundled samples, each snapshot a folder
whose manifest.json files[] is recomputed (docs/snapshot-format.md):

  a-1, a-2   samples/mixed, taken 2026-10-01 and 2026-10-31.  In a-2
             prod/files-rwo is gone (its problems fixed), prod/analytics
             was restarted (a new VMI uid, the same name: still), and
             prod/db-0's pod network is bound with bridge (new).
  b-1, b-2   samples/pitfalls under two contexts (lab-pitfalls-old on
             2026-09-01, lab-pitfalls on 2026-10-15): one cluster by its
             kube-system uid, nothing changed.
  c-1        samples/capacity, one snapshot.
  zz-broken.tar.gz  not an archive: unreadable.

The output is a pure function of the samples.
"""
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "samples")


def load(d, name):
    with open(os.path.join(d, "resources", name)) as f:
        return json.load(f)


def save(d, name, doc):
    with open(os.path.join(d, "resources", name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def finish(d, created, context):
    """Set createdAt and the context, recompute files[]."""
    path = os.path.join(d, "manifest.json")
    with open(path) as f:
        mf = json.load(f)
    mf["createdAt"] = created
    mf["cluster"]["context"] = context
    files = []
    for e in mf["files"]:
        with open(os.path.join(d, e["path"]), "rb") as f:
            data = f.read()
        files.append({"path": e["path"], "bytes": len(data),
                      "sha256": hashlib.sha256(data).hexdigest()})
    mf["files"] = files
    with open(path, "w") as f:
        json.dump(mf, f, indent=2)
        f.write("\n")


def copy(sample, out, name):
    d = os.path.join(out, name)
    shutil.copytree(os.path.join(SAMPLES, sample), d)
    return d


def mutate_a2(d):
    vmis = "virtualmachineinstances.kubevirt.io.json"
    doc = load(d, vmis)
    doc["items"] = [v for v in doc["items"]
                    if v["metadata"]["name"] != "files-rwo"]
    old_uid = None
    for v in doc["items"]:
        md = v["metadata"]
        if md["namespace"] == "prod" and md["name"] == "analytics":
            old_uid = md["uid"]
            md["uid"] = "0ed1d92c-0000-4000-8000-restarted0001"
        if md["namespace"] == "prod" and md["name"] == "db-0":
            for i in v["spec"]["domain"]["devices"]["interfaces"]:
                i["bridge"] = i.pop("masquerade")
    save(d, vmis, doc)
    pods = load(d, "pods.json")
    for p in pods["items"]:
        lab = p["metadata"].get("labels", {})
        if lab.get("kubevirt.io/created-by") == old_uid:
            lab["kubevirt.io/created-by"] = \
                "0ed1d92c-0000-4000-8000-restarted0001"
    save(d, "pods.json", pods)


def main(out):
    os.makedirs(out, exist_ok=True)
    finish(copy("mixed", out, "a-1"), "2026-10-01T08:00:00Z", "lab-mixed")
    d = copy("mixed", out, "a-2")
    mutate_a2(d)
    finish(d, "2026-10-31T08:00:00Z", "lab-mixed")
    finish(copy("pitfalls", out, "b-1"), "2026-09-01T08:00:00Z",
           "lab-pitfalls-old")
    finish(copy("pitfalls", out, "b-2"), "2026-10-15T08:00:00Z",
           "lab-pitfalls")
    finish(copy("capacity", out, "c-1"), "2026-10-20T08:00:00Z",
           "lab-capacity")
    with open(os.path.join(out, "zz-broken.tar.gz"), "w") as f:
        f.write("this is not a tar archive\n")


if __name__ == "__main__":
    main(sys.argv[1])
