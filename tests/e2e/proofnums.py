#!/usr/bin/env python3
"""proofnums.py - one meaning of fixes and worse (issue 41 item 5).

Usage: proofnums.py KVSCOPE SNAPSHOT...

For every group G of `kvscope check SNAPSHOT -o json`, the proof's
numbers (fix.fixes of the group's vmis, fix.worse: "proven: fixes N of
M, K worse") against `kvscope what-if SNAPSHOT --fix G -o json`: its
"fixes" entry for G (fixes N' of vmis M', in no group of G's code in
the snapshot after; its "proof" as check's) and its worse count K'.
N' = N, M' = M and K' = K, its line "after fix G: N' of its M' ..."
says so, or a mismatch (docs/findings.md
"Worse, better and fixes" gives the one definition of each).  A group
whose fix what-if cannot apply (exit 2, "nothing to apply") must be
`none` fixing 0, or not proven (kvscope cannot write the change).
Prints one line per group ("G3 fixes 727 of 749, 0 worse: what-if
727 of 749, 0 worse, 731 better"), one per mismatch, and "proofnums:
N groups, M mismatches"; exit 1 on any mismatch.
"""
import json
import re
import subprocess
import sys


def run(kv, args):
    r = subprocess.run([kv] + args + ["-q"], capture_output=True,
                       text=True)
    return r.returncode, r.stdout, r.stderr


def check_snapshot(kv, snap, bad):
    rc, out, err = run(kv, ["check", snap, "-o", "json"])
    if rc not in (0, 1):
        bad.append("%s: check exit %d: %s" % (snap, rc, err.strip()))
        return 0
    groups = json.loads(out)["groups"]
    for g in groups:
        gid, fix = g["id"], g["fix"]
        name = "%s %s (%s, %s)" % (snap, gid, g["code"], fix["action"])
        want = "fixes %d of %d, %d worse" % (fix["fixes"], g["vmis"],
                                             fix["worse"])
        rc, out, err = run(kv, ["what-if", snap, "--fix", gid, "-o",
                                "json"])
        if rc == 2:
            if "nothing to apply" not in err:
                bad.append("%s: what-if exit 2: %s" % (name, err.strip()))
            elif fix["proven"] and (fix["fixes"] or
                                    fix["action"] != "none"):
                bad.append("%s: cannot be applied, but proven %s" %
                           (name, want))
            else:
                print("%s %s: nothing to apply" % (name, want))
            continue
        if rc not in (0, 1):
            bad.append("%s: what-if exit %d" % (name, rc))
            continue
        d = json.loads(out)
        mine = [f for f in d.get("fixes", []) if f["group"] == gid]
        if len(mine) != 1:
            bad.append("%s: what-if's fixes holds %d entries of %s" %
                       (name, len(mine), gid))
            continue
        f = mine[0]
        got = "fixes %d of %d, %d worse" % (f["fixes"], f["vmis"],
                                            d["worse"])
        print("%s %s: what-if %s, %d better" % (name, want, got,
                                                d["better"]))
        if got != want or f["code"] != g["code"]:
            bad.append("%s: proof %s, what-if %s (%s)" % (name, want, got,
                                                          f["code"]))
        if f["proof"] != {k: fix[k] for k in ("fixes", "worse", "proven")}:
            bad.append("%s: what-if's proof %s is not check's" %
                       (name, f["proof"]))
        # the line a person reads says the same
        line = "after fix %s: %d of its %d " % (gid, f["fixes"], f["vmis"])
        if not any(c.startswith(line) for c in d["changes"]):
            bad.append("%s: no change line '%s...'" % (name, line))
    return len(groups)


def main():
    kv, bad, n = sys.argv[1], [], 0
    for snap in sys.argv[2:]:
        n += check_snapshot(kv, snap, bad)
    for b in bad:
        print("mismatch: " + b)
    print("proofnums: %d groups, %d mismatches" % (n, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
