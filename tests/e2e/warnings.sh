#!/usr/bin/env bash
# tests/e2e/warnings.sh - every warning names its consequence (issue 41
# item 7; the convention is docs/findings.md, "Every warning names its
# consequence"): the fact, then after "; " or ": " what kvscope does
# because of it or cannot judge, in one of the words listed there.
#
# The warnings come from `kvscope check` on every hostile snapshot
# (tests/hostile/gen.py), every foreign input of every sample
# (tests/foreign/gen.py), two snapshots whose every resource but the nodes
# and the VMIs is forbidden (KubeVirt from samples/mixed, DVP from
# samples/deckhouse; with an unknown resource and the collector's kinds of
# notes), and `kvscope fleet` over an unreadable input.
#
# Environment: KVSCOPE = the kvscope binary (default ./kvscope).
set -u

. "$(dirname "$0")/lib.sh"
# answers compared, on the optimised binary (docs/testing.md: the same
# code runs under the sanitizers in the unit tests, samples, hostile,
# foreign and the fuzz harnesses, fuzz_pipeline's every view and writer)
KVSCOPE=${KVSCOPE_FAST:-$KVSCOPE}

export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
err=$tmp/all.err
: >"$err"

python3 tests/hostile/gen.py "$tmp/h" >/dev/null
for s in samples/*/; do
	s=$(basename "$s")
	python3 tests/foreign/gen.py "samples/$s" "$tmp/f-$s" >/dev/null
done

# forbid SRC DST KEEP: a copy of the sample SRC whose every resource of
# resources.def but those of KEEP (comma-separated plural or plural.group)
# is forbidden, plus a resource kvscope does not know, and the notes the
# collector writes (snapshot-format.md, notes).
forbid() {
	python3 - "$@" <<'PY'
import json, os, re, shutil, sys
src, dst, keep = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
shutil.copytree(src, dst)
m = json.load(open(dst + "/manifest.json"))
rows = [r.groups() for r in (re.match(r'KV_RESOURCE\("([^"]*)", "([^"]*)"', l)
        for l in open("analyze/read/resources.def")) if r]
have = {(e["resource"], e["group"]): e for e in m["resources"]}
out = []
for plural, group in rows + [("foos", "example.com")]:
    e = have.get((plural, group), {"resource": plural, "group": group})
    if plural in keep or plural + "." + group in keep:
        if e.get("status") == "ok":
            out.append(e)
        continue
    f = e.pop("file", None)
    if f:
        os.unlink(os.path.join(dst, f))
        m["files"] = [x for x in m["files"] if x["path"] != f]
    e.pop("count", None)
    e["status"] = "forbidden"
    e["message"] = "cannot list resource %s" % plural
    out.append(e)
m["resources"] = out
m["notes"] = ["node files: node-002: capabilities.xml: No such file",
              "libvirt CPU map: no running virt-launcher pod",
              "vmimetrics: no Prometheus reachable: none answered",
              "partial snapshot: pods: forbidden"]
json.dump(m, open(dst + "/manifest.json", "w"), indent=1)
PY
}
forbid samples/mixed "$tmp/forbid-kubevirt" \
    nodes,virtualmachineinstances.kubevirt.io
forbid samples/deckhouse "$tmp/forbid-dvp" nodes,\
internalvirtualizationvirtualmachineinstances.internal.virtualization.deckhouse.io,\
virtualmachines.virtualization.deckhouse.io

n=0
for x in samples/*/ "$tmp"/h/* "$tmp"/f-*/* "$tmp"/forbid-*; do
	"$KVSCOPE" check "$x" >/dev/null 2>>"$err"
	n=$((n + 1))
done
printf 'not a snapshot\n' >"$tmp/broken.tar.gz"
"$KVSCOPE" fleet samples/mixed "$tmp/broken.tar.gz" -d "$tmp/fleet" -q \
    >/dev/null 2>>"$err"
[ "$n" -ge 100 ] && ok "read $n inputs" || bad "only $n inputs"

# Each distinct warning (numbers folded) once.
grep '^kvscope: warning: ' "$err" | sed 's/[0-9][0-9]*/N/g' | sort -u \
    >"$tmp/warnings"
count=$(wc -l <"$tmp/warnings")
[ "$count" -ge 50 ] && ok "$count distinct warnings" ||
    bad "only $count distinct warnings" "$(cat "$tmp/warnings")"

# The check of docs/findings.md: after the first "; " or ": ", a word of
# consequence.
python3 - "$tmp/warnings" >"$tmp/verdicts" <<'PY'
import re, sys
words = re.compile(r"\b(judged|unjudged|unknown|assumed|answers|applied|"
                   r"counted|checked|named|used|uses|read|seen|taken from|"
                   r"in the analysis|depends on|dated|undated|left out)\b|"
                   r"\bso ")
for line in open(sys.argv[1]):
    msg = line.rstrip("\n")[len("kvscope: warning: "):]
    cut = [i for i in (msg.find("; "), msg.find(": ")) if i >= 0]
    rest = msg[min(cut) + 2:] if cut else ""
    print(("ok" if words.search(rest) else "bad") + "\t" + msg)
PY
while IFS=$'\t' read -r v msg; do
	if [ "$v" = ok ]; then
		ok "consequence: $msg"
	else
		bad "no consequence: $msg"
	fi
done <"$tmp/verdicts"

# The ones issue 41 named, word for word.
has "$err" "collector note" "kvscope: warning: libvirt CPU map: no running virt-launcher pod; kvscope uses its built-in libvirt CPU map"
has "$err" "unknown resource" "kvscope: warning: foos.example.com: forbidden; kvscope does not read it, so no answer depends on it"
has "$err" "DVP: a kubevirt.io resource" "kvscope: warning: kubevirts.kubevirt.io: forbidden; kvscope does not read it on a Deckhouse cluster, so no answer depends on it"
has "$err" "persistentvolumes" "kvscope: warning: persistentvolumes: forbidden; a disk's PersistentVolume node affinity (local or zonal storage) does not limit its VMI's targets, and rwx-node-local is not judged"
has "$err" "capture time" "kvscope: warning: capture time unknown (newest object 2026-10-28T06:12:45Z); the report is dated by that object, and fleet and diff order the snapshot by it"
has "$err" "ignored files" "kvscope: warning: 2 files the manifest does not list (.DS_Store, notes.txt); kvscope does not read them, so no answer depends on them"
has "$err" "fleet" "kubectl output; its findings are left out of the index, which lists it as unreadable"
test_done
