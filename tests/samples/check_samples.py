#!/usr/bin/env python3
"""Check the sample snapshots under samples/: every manifest lists every
resource of the snapshot-format table and every other file with its size and
SHA-256, every resource file parses (kubectl List or JSON Lines) and holds as
many objects as the manifest says.  Prints one line per problem; exit 1 on any."""

import hashlib
import json
import os
import sys

RESOURCES = 22          # rows of the resource table in snapshot-format.md


def load_objects(path):
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    try:
        doc = json.loads(text)
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if doc.get("kind") != "List" or doc.get("apiVersion") != "v1":
        raise ValueError("not a v1 List")
    return doc["items"]


def check(sample):
    problems = []
    with open(os.path.join(sample, "manifest.json"), encoding="utf-8") as f:
        man = json.load(f)
    if man.get("kind") != "kvscope-snapshot" or man.get("formatVersion") != 1:
        problems.append("bad kind/formatVersion")
    listed = {e["path"]: e for e in man["files"]}
    present = set()
    for root, _, names in os.walk(sample):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), sample)
            if rel != "manifest.json":
                present.add(rel)
    for rel in sorted(present - set(listed)):
        problems.append("%s: not in manifest files[]" % rel)
    for rel, e in sorted(listed.items()):
        p = os.path.join(sample, rel)
        if not os.path.isfile(p):
            problems.append("%s: listed but missing" % rel)
            continue
        with open(p, "rb") as f:
            b = f.read()
        if len(b) != e["bytes"] or hashlib.sha256(b).hexdigest() != e["sha256"]:
            problems.append("%s: size or sha256 differs from the manifest" % rel)
    seen = set()
    for r in man["resources"]:
        key = (r["resource"], r["group"])
        if key in seen:
            problems.append("resource %s.%s listed twice" % key)
        seen.add(key)
        if r["status"] != "ok":
            continue
        try:
            objs = load_objects(os.path.join(sample, r["file"]))
        except (OSError, ValueError) as exc:
            problems.append("%s: %s" % (r["file"], exc))
            continue
        if len(objs) != r["count"]:
            problems.append("%s: %d objects, manifest says %d"
                            % (r["file"], len(objs), r["count"]))
        for o in objs:
            if not (o.get("apiVersion") and o.get("kind")
                    and o.get("metadata", {}).get("name")
                    and o["metadata"].get("uid")):
                problems.append("%s: object without apiVersion/kind/name/uid"
                                % r["file"])
                break
    if len(seen) != RESOURCES:
        problems.append("%d resources in the manifest, expected %d"
                        % (len(seen), RESOURCES))
    return problems


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "samples"
    bad = 0
    samples = sorted(d for d in os.listdir(top)
                     if os.path.isfile(os.path.join(top, d, "manifest.json")))
    if not samples:
        print("no samples under %s" % top)
        return 1
    for s in samples:
        for p in check(os.path.join(top, s)):
            print("%s: %s" % (s, p))
            bad += 1
    print("%d samples checked, %d problems" % (len(samples), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
