#!/usr/bin/env python3
"""fixproof.py - every group's fix, applied, against its `fixes` count.

Usage: fixproof.py KVSCOPE WORKDIR SAMPLE...

For each sample: `kvscope report --format json` gives the groups and each
VMI's groups; then for every group G, `kvscope what-if SAMPLE --fix G
--report DIR --format json` writes the snapshot after G's fix.  The VMIs
of G that are in no group of G's code afterwards are what the fix fixes:
their count must equal G's fix.fixes (which kvscope proves on a copy
holding only G's VMIs: this is the full re-analysis it must agree with),
and the VMIs of G made worse (docs/findings.md "worse and better": they
would not start again, verdict ok before and not after, a drain that
moved them and no longer does, guest-cpu-floor gained) must equal
fix.worse (and a VMI that migrates on both sides whose migration will be
aborted after only).  One meaning: what-if's own count, diff.json's `worse` over
the whole snapshot, and the line "after fix G: N of its M VMIs in no
CODE group" it prints must give the same numbers as fix.worse and
fix.fixes.  A fix what-if cannot apply (exit 2, "nothing to apply") must
count 0 and be `none`, except fix.proven false (a relabel-node whose
value kvscope cannot know, a placement no edit removes): printed as
"unproven", not failed.  Prints one line per mismatch and "fixproof: N
groups, M mismatches"; exit 1 on any.
"""
import json
import os
import re
import subprocess
import sys

MOVES = {"migrate", "external"}

def findings(kv, args, out):
    dest = ["-d", out] if args[0] == "report" else ["--report", out]
    r = subprocess.run([kv] + args + dest + ["--format", "json", "-q"],
                       capture_output=True, text=True)
    path = os.path.join(out, "findings.json")
    if not os.path.exists(path):
        return r, None
    with open(path) as f:
        return r, json.load(f)


def by_group(doc):
    """VMI names of each group id; code of each id."""
    members, codes = {}, {}
    for g in doc["groups"]:
        codes[g["id"]] = g["code"]
        members[g["id"]] = []
    for v in doc["vmis"]:
        for gid in v.get("groups", []):
            members.setdefault(gid, []).append(v["name"])
    return members, codes


def after_count(doc, vmis, code):
    """How many of vmis are in no group of code in doc."""
    members, codes = by_group(doc)
    still = set()
    for gid, names in members.items():
        if codes.get(gid) == code:
            still.update(names)
    return sum(1 for n in vmis if n not in still)


def codes(v):
    return {i["code"] for i in v["blockers"] + v["warnings"]}


def outcome(v):
    """The outcome of v's migration estimate, or None."""
    return (v.get("migration") or {}).get("outcome")


def worse_count(before, after, vmis):
    """How many of vmis after is worse for than before (diff.h
    kv_vmi_compare; would not start is diff.json's, not findings')."""
    b = {v["name"]: v for v in before["vmis"]}
    a = {v["name"]: v for v in after["vmis"]}
    n = 0
    for name in vmis:
        x, y = b[name], a.get(name)
        if y is None or "not-judged" in (x["verdict"], y["verdict"]):
            continue
        floor = "guest-cpu-floor" in codes(y) - codes(x)
        aborts = (x["verdict"] == "ok" and outcome(x) != "will-abort"
                  and outcome(y) == "will-abort")
        n += bool((x["verdict"] == "ok" and y["verdict"] != "ok") or
                  (x["onDrain"] in MOVES and y["onDrain"] not in MOVES
                   and y["onDrain"] is not None) or floor or aborts)
    return n


def whatif_counts(out, gid):
    """what-if's own numbers: diff.json's worse, and N of "after fix G:
    N of its M VMIs in no CODE group"."""
    with open(os.path.join(out, "diff.json")) as f:
        d = json.load(f)
    left = None
    for line in d.get("changes", []):
        m = re.match(r"after fix %s: (\d+) of its" % gid, line)
        if m:
            left = int(m.group(1))
    return d["worse"], left, d


def check_sample(kv, work, sample, bad):
    base = os.path.join(work, os.path.basename(sample.rstrip("/")))
    _, before = findings(kv, ["report", sample], base + "-before")
    members, _ = by_group(before)
    n = 0
    for g in before["groups"]:
        n += 1
        gid, fix = g["id"], g["fix"]
        out = "%s-%s" % (base, gid)
        r, after = findings(kv, ["what-if", sample, "--fix", gid], out)
        name = "%s %s (%s, fix %s)" % (sample, gid, g["code"],
                                       fix["action"])
        if r.returncode == 2:
            if "nothing to apply" not in r.stderr:
                bad.append("%s: what-if exit 2: %s" % (name,
                           r.stderr.strip().splitlines()[0]))
            elif not fix["proven"]:
                print("unproven: %s: fixes %d" % (name, fix["fixes"]))
            elif fix["fixes"] != 0 or fix["action"] != "none":
                bad.append("%s: cannot be applied, but fixes %d" %
                           (name, fix["fixes"]))
            continue
        if after is None:
            bad.append("%s: what-if exit %d, no report" %
                       (name, r.returncode))
            continue
        got = after_count(after, members.get(gid, []), g["code"])
        if got != fix["fixes"]:
            bad.append("%s: fixes %d, the after-state shows %d" %
                       (name, fix["fixes"], got))
        # not proven though applied: a drain then stops VMIs whose
        # restart is unknown (no VirtualMachines in the input)
        unknown = "whether they start again is unknown" in fix["text"] or \
            "whether it starts again is unknown" in fix["text"]
        if (not fix["proven"] and not unknown) or got == 0:
            bad.append("%s: applied, fixes %d, but proven %s, action %s" %
                       (name, got, fix["proven"], fix["action"]))
        worse = worse_count(before, after, members.get(gid, []))
        if worse != fix["worse"]:
            bad.append("%s: worse %d, the after-state shows %d" %
                       (name, fix["worse"], worse))
        wworse, left, _ = whatif_counts(out, gid)
        if wworse != fix["worse"] or left != fix["fixes"]:
            bad.append("%s: proof fixes %d, %d worse; what-if --fix %s "
                       "says fixes %s, %d worse" % (name, fix["fixes"],
                       fix["worse"], gid, left, wworse))
    return n


def main():
    kv, work = sys.argv[1], sys.argv[2]
    bad, n = [], 0
    for s in sys.argv[3:]:
        n += check_sample(kv, work, s, bad)
    for b in bad:
        print("mismatch: " + b)
    print("fixproof: %d groups, %d mismatches" % (n, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
