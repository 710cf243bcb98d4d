#!/usr/bin/env bash
# tests/e2e/whatif.sh - `kvscope what-if` and `kvscope diff` end to end on
# samples/mixed and on copies of it that a small Python step edits the way
# an upgrade or an operator would (one node loses a cpu-feature label, a
# node is cordoned, a VMI records a RHEL 10 guest), rewriting the
# manifest's bytes and sha256 of the files it changes.
#
# samples/mixed: prod/web-0 (host-model on w1) has no CPU target; the named
# model Haswell-noTSX runs on every Intel node.  dev/build-runner (on w5)
# migrates; Icelake-Server runs on w5 alone.  prod/db-0 (host-model on w3)
# migrates to w4 and w5, whose labels include cpu-feature pku.
# prod/analytics is on a1, the only AMD node.
#
# Environment: KVSCOPE = the kvscope binary (default ./kvscope); needs jq.
set -u

KVSCOPE=${KVSCOPE:-./kvscope}
# the reports (--report, the trade-off check) reach fontconfig through
# pango: its configuration lives as long as the process (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
checks=0
S=samples/mixed

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# run NAME WANT_RC CMD...: stdout in $work/out, stderr in $work/err.
run() {
	local name=$1 want=$2 rc
	shift 2
	checks=$((checks + 1))
	"$KVSCOPE" "$@" -q >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name: exit $rc, want $want"
		sed 's/^/    out| /' "$work/out" | head -20
		sed 's/^/    err| /' "$work/err" | head -5
	fi
}

# has NAME TEXT: the last stdout holds TEXT (a fixed string).
has() {
	grep -qF -- "$2" "$work/out" || { fail "$1: no \"$2\" in"; \
	    sed 's/^/    out| /' "$work/out" | head -20; }
}

has_err() { grep -qF -- "$2" "$work/err" || fail "$1: stderr lacks \"$2\""; }

lacks() {
	! grep -qF -- "$2" "$work/out" || fail "$1: \"$2\" printed"
}

# jqis NAME FILTER WANT: jq -r FILTER of the last stdout is WANT.
jqis() {
	local got
	got=$(jq -r "$2" "$work/out" 2>&1)
	[ "$got" = "$3" ] || fail "$1: $2 = \"$got\", want \"$3\""
}

# edit SRC DST OP...: copy snapshot SRC to DST, apply the operations
# (drop NODE LABEL | cordon NODE | annotate NS/NAME KEY VALUE | date ISO:
# the manifest's createdAt).
edit() {
	rm -rf "$2"
	cp -r "$1" "$2"
	python3 - "$@" <<'PY'
import hashlib, json, os, sys
dst, ops = sys.argv[2], sys.argv[3:]
def load(f):
    return json.load(open(os.path.join(dst, f)))
files = {}
created = None
nodes = "resources/nodes.json"
vmis = "resources/virtualmachineinstances.kubevirt.io.json"
i = 0
while i < len(ops):
    op = ops[i]
    if op == "drop":
        doc = files.setdefault(nodes, load(nodes))
        for n in doc["items"]:
            if n["metadata"]["name"] == ops[i + 1]:
                del n["metadata"]["labels"][ops[i + 2]]
        i += 3
    elif op == "cordon":
        doc = files.setdefault(nodes, load(nodes))
        for n in doc["items"]:
            if n["metadata"]["name"] == ops[i + 1]:
                n.setdefault("spec", {})["unschedulable"] = True
        i += 2
    elif op == "annotate":
        doc = files.setdefault(vmis, load(vmis))
        ns, name = ops[i + 1].split("/")
        for v in doc["items"]:
            md = v["metadata"]
            if md["namespace"] == ns and md["name"] == name:
                md.setdefault("annotations", {})[ops[i + 2]] = ops[i + 3]
        i += 4
    elif op == "date":
        created = ops[i + 1]
        i += 2
    else:
        sys.exit("edit: unknown operation " + op)
mf = load("manifest.json")
if created:
    mf["createdAt"] = created
for path, doc in files.items():
    data = (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode()
    open(os.path.join(dst, path), "wb").write(data)
    for f in mf["files"]:
        if f["path"] == path:
            f["bytes"] = len(data)
            f["sha256"] = hashlib.sha256(data).hexdigest()
open(os.path.join(dst, "manifest.json"), "w").write(
    json.dumps(mf, indent=2) + "\n")
PY
}

# --- what-if -------------------------------------------------------------

# a named model gives the blocked host-model VMI a target
run "model fixes" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0
has "model fixes" "cpu-model Haswell-noTSX on 1 VMI (VMI prod/web-0): takes effect after a restart, 1 running VMI restart"
has "model fixes" "prod/web-0: no-target -> ok, targets 0 -> 3, drain block -> migrate (-eviction-blocks-drain -no-cpu-target)"
has "model fixes" "w1: 1/1/0 -> 2/0/0"
has "model fixes" "VMIs: 1 changed, 1 better, 0 worse"
has "model fixes" "result: nothing gets worse"
# the group that fix removes is said so, by code and subject
has "model fixes" "resolved no-cpu-target (CPU class: C3): 1 -> 0 VMIs"
run "model fixes json" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0 -o json
jqis "model fixes json" '.groups[] | select(.code == "no-cpu-target") | "\(.change) \(.ids[0]) \(.vmis.after)"' "resolved G4 0"

# a model only the VMI's own node runs leaves it without a target
run "model breaks" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner
has "model breaks" "dev/build-runner: ok -> no-target, targets 3 -> 0, drain migrate -> block (+eviction-blocks-drain +no-cpu-target -passthrough-cpu-differs)  WORSE"
has "model breaks" "result: worse"

# JSON of the same
run "model breaks json" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner -o json
jqis "json kind" '.kind' kvscope-whatif
jqis "json restarts" '.restarts' 1
jqis "json vmi" '.vmis[0] | "\(.name) \(.verdict.before) \(.verdict.after) \(.targetCount.after) \(.worse) \(.codesAdded|join(","))"' \
    "dev/build-runner ok no-target 0 true eviction-blocks-drain,no-cpu-target"
jqis "json worse" '.worse' 1

# cordoning both of prod/db-0's targets: exit 1
run "cordon" 1 what-if $S --cordon w4 --cordon w5
has "cordon" "prod/db-0: ok -> no-target, targets 2 -> 0"
has "cordon" "+no-placement-target"

# cordon then uncordon: nothing changes
run "uncordon" 0 what-if $S --cordon w4 --uncordon w4
has "uncordon" "VMIs: 0 changed, 0 better, 0 worse"

# w2 is cordoned in the sample and carries the cordon's taint: uncordon
# removes both, so w2 becomes a target (dev/legacy-app, dev/build-runner)
run "uncordon w2" 0 what-if $S --uncordon w2
has "uncordon w2" "taint node.kubernetes.io/unschedulable:NoSchedule removed"
has "uncordon w2" "dev/legacy-app: ok -> ok, targets 3 -> 4"

# a second AMD node gives the lone AMD VMI a target
run "add node" 0 what-if $S --add-node-like a1=2 -o yaml
has "add node" "kind: kvscope-whatif"
run "add node text" 0 what-if $S --add-node-like a1=2
has "add node text" "added: a1-whatif-1 a1-whatif-2"
has "add node text" "prod/analytics: no-target -> ok, targets 0 -> 2"

# the KubeVirt CR default: VMIs without their own model restart
run "cluster model" 0 what-if $S --cluster-cpu-model Haswell-noTSX -o json
jqis "cluster model" '[.restarts > 0, (.vmis | map(select(.name == "prod/web-0"))[0].verdict.after)] | join(" ")' "true ok"

# eviction strategy None on a namespace: drains stop the VMs (worse)
run "eviction" 1 what-if $S --eviction-strategy None -n dev
has "eviction" "drain migrate -> shutdown"

# a CPU model no one knows is a usage error with the nearest names
# (libvirt's names are case-sensitive)
run "model typo" 2 what-if $S --cpu-model Haswel --vmi prod/web-0
has_err "model typo" "--cpu-model Haswel: no CPU model of that name"
has_err "model typo" "did you mean Haswell?"
run "model case" 2 what-if $S --cpu-model haswell-notsx --vmi prod/web-0
has_err "model case" "did you mean Haswell-noTSX?"
# a model KubeVirt knows but no node runs: the VM would not start again
# after its restart, which is worse even for a VMI without a target
run "model nowhere" 1 what-if $S --cpu-model SapphireRapids --vmi prod/web-0
has "model nowhere" "1 would not start again after the restart: no node runs SapphireRapids"
has "model nowhere" "would not start: no node runs SapphireRapids  WORSE"
run "model nowhere json" 1 what-if $S --cpu-model SapphireRapids --vmi prod/db-0 -o json
jqis "model nowhere json" '.vmis[] | select(.name == "prod/db-0") | "\(.wouldNotStart) \(.worse)"' "no node runs SapphireRapids true"

# a VM's evictionStrategy reaches its VMI with a restart (no live
# update): what G1's fix says for prod/files-rwo (LiveMigratable=False),
# and the drain of w4 then evicts it instead of waiting
run "eviction restart" 0 what-if $S --eviction-strategy LiveMigrateIfPossible --vmi prod/files-rwo
has "eviction restart" "takes effect after a restart, 1 running VMI restart"
has "eviction restart" "restarts: 1 running VMI"
has "eviction restart" "prod/files-rwo: blocked -> blocked, drain block -> shutdown"
# prod/web-0 is LiveMigratable: LiveMigrateIfPossible still waits, None ends it
run "eviction tried" 0 what-if $S --eviction-strategy LiveMigrateIfPossible --vmi prod/web-0
has "eviction tried" "VMIs: 0 changed"
run "eviction none" 0 what-if $S --eviction-strategy None --vmi prod/web-0
has "eviction none" "drain block -> shutdown"

# a local-path claim as if recreated RWX: the VMI's stored
# DisksNotLiveMigratable is computed again after the restart
run "storage rwx" 0 what-if samples/pitfalls --storage-class-rwx local-path
has "storage rwx" "1 claim recreated ReadWriteMany, 1 running VMI stop for it"
has "storage rwx" "pit/local-path: blocked -> ok"

# ceph-rbd (rbd.csi.ceph.com) gives ReadWriteMany for Block only: its one
# claim that is not RWX is Filesystem (prod/files-rwo), so it cannot be
run "storage rwx block only" 2 what-if $S --storage-class-rwx ceph-rbd
has_err "storage rwx block only" "the class gives ReadWriteMany for Block only (per its provisioner rbd.csi.ceph.com)"
has_err "storage rwx block only" "its 1 claim not ReadWriteMany is of another volume mode"

# a removed node's VMIs leave with it; the others lose it as a target
run "remove node" 0 what-if samples/pitfalls --remove-node p2
has "remove node" "removed: p2"
lacks "remove node" "pit/local-path"

# --- Deckhouse: the CPU is the VirtualMachineClass's ------------------------
# samples/deckhouse: prod/vm-features (class amx, type Features: three AMX
# features only w5 has) has no CPU target; Cascadelake-Server-noTSX runs on
# every Intel worker.  Class discovery (dev/vm-evacuating on w3,
# prod/vm-discovery on w2) runs on every worker; Icelake-Server on w3 alone.
D=samples/deckhouse
run "dvp model" 0 what-if $D --cpu-model Cascadelake-Server-noTSX --vmi prod/vm-features
has "dvp model" "prod/vm-features: no-target -> ok, targets 0 -> 4"
has "dvp model" "1 VM given a class of type Model with spec.cpu.model Cascadelake-Server-noTSX"
run "dvp class" 0 what-if $D --class-cpu amx=Cascadelake-Server-noTSX
has "dvp class" "VirtualMachineClass amx as type Model with spec.cpu.model Cascadelake-Server-noTSX, for its 1 VM"
has "dvp class" "prod/vm-features: no-target -> ok, targets 0 -> 4"
has "dvp class" "resolved no-cpu-target (CPU model: VirtualMachineClass amx): 1 -> 0 VirtualMachines"
# every VM of the class changes: both of class discovery lose targets
run "dvp class worse" 1 what-if $D --class-cpu discovery=Icelake-Server -o json
jqis "dvp class worse" '[.restarts, (.vmis | map("\(.name) \(.targetCount.after)") | join(","))] | join(" ")' \
    "2 dev/vm-evacuating 0,prod/vm-discovery 1"
run "dvp class unknown" 2 what-if $D --class-cpu nope=Nehalem
has_err "dvp class unknown" "--class-cpu nope=Nehalem: no VirtualMachineClass nope"
run "dvp class form" 2 what-if $D --class-cpu amx
has_err "dvp class form" '--class-cpu: "amx" is not CLASS=MODEL'
run "class on kubevirt" 2 what-if $S --class-cpu generic=Nehalem

# --- the guest's floor -----------------------------------------------------

edit $S "$work/rhel" annotate dev/legacy-app vm.kubevirt.io/os rhel10
run "floor v2" 1 what-if "$work/rhel" --cpu-model Nehalem --vmi dev/legacy-app
has "floor v2" "dev/legacy-app: ok -> ok"
has "floor v2" "+guest-cpu-floor"
run "floor v3" 0 what-if "$work/rhel" --cpu-model Haswell-noTSX --vmi dev/legacy-app
lacks "floor v3" "guest-cpu-floor"
run "floor check" 0 explain "$work/rhel" dev/legacy-app -o json
checks=$((checks + 1))
"$KVSCOPE" report "$work/rhel" --format json --output-dir "$work/rep" -q >/dev/null ||
    fail "report of the RHEL copy"
jq -e '.vmis[] | select(.name == "dev/legacy-app") | .warnings | map(.code) | index("guest-cpu-floor") == null' \
    "$work/rep/findings.json" >/dev/null || fail "host-model on a v3 node: no floor warning"
# the trade-off table: the tiers below x86-64-v3 leave the RHEL 10 guest
# behind (the any and x86-64-v2 rows of the three scopes), the others do not
checks=$((checks + 1))
"$KVSCOPE" report "$work/rhel" --format html,pdf --output-dir "$work/rep2" -q >/dev/null ||
    fail "report html of the RHEL copy"
n=$(grep -oF "guests that need x86-64-v3: 1 VMI<" "$work/rep2/report.html" | wc -l)
[ "$n" = 6 ] || fail "trade-off: $n rows with \"guests that need x86-64-v3: 1 VMI\", want 6"
pdftotext "$work/rep2/report.pdf" - | tr -s " \n" "  " | grep -qF "guests that need x86-64-v3: 1 VMI" ||
    fail "trade-off: no guests line in the PDF"
"$KVSCOPE" report $S --format html --output-dir "$work/rep3" -q >/dev/null
! grep -qF "Guests it is too old for" "$work/rep3/report.html" ||
    fail "trade-off: a guests column without a guest that needs it"

# --- the free-capacity fix, proven: the what-if its text names -------------------
# samples/capacity: prod/stuck-vm's only placeable node c2 has no room.

run "capacity groups" 1 check samples/capacity --groups
has "capacity groups" "no-capacity: 1 VMI would be placed on c2 but finds no room"
has "capacity groups" "fix free-capacity: Make room on c2"
has "capacity groups" "--add-node-like c2"
run "capacity fix proven" 0 what-if samples/capacity --add-node-like c2
has "capacity fix proven" "prod/stuck-vm: no-target -> ok"
run "capacity json" 1 check samples/capacity -o json
checks=$((checks + 1))
"$KVSCOPE" report samples/capacity --format json --output-dir "$work/cap" -q >/dev/null 2>&1
jq -e '.groups[] | select(.code == "no-capacity") |
    .subject == {"kind": "node", "name": "c2"} and .fix.action == "free-capacity"' \
    "$work/cap/findings.json" >/dev/null || fail "capacity group in findings.json"

# --- usage errors: exit 2, one message ----------------------------------

run "no change" 2 what-if $S
has_err "no change" "kvscope: what-if: no change given"
run "unknown node" 2 what-if $S --cordon nope
has_err "unknown node" "--cordon nope: no such node in the snapshot"
run "scope first" 2 what-if $S -n dev --cpu-model Nehalem
has_err "scope first" "--namespace scopes the --cpu-model"
run "bad strategy" 2 what-if $S --eviction-strategy Sometimes
run "bad count" 2 what-if $S --add-node-like a1=0
run "no vmi" 2 what-if $S --cpu-model Nehalem --vmi prod/nope
has_err "no vmi" "no VMI in VMI prod/nope"
run "no class" 2 what-if $S --storage-class-rwx nope
[ -s "$work/out" ] && fail "usage error wrote stdout"

# --- diff ----------------------------------------------------------------

run "diff same" 0 diff $S $S
has "diff same" "VMIs: 0 changed, 0 better, 0 worse"

# an "upgrade": w4 loses cpu-feature pku; its class splits off w3's
edit $S "$work/new" drop w4 cpu-feature.node.kubevirt.io/pku
run "diff upgrade" 0 diff $S "$work/new"
has "diff upgrade" "features lost: pku"
has "diff upgrade" "prod/db-0: ok -> ok, targets 2 -> 1"
# prod/web-0's class (w1) is renumbered by the split, not changed: its
# group is matched by the class's content, so no group changes
lacks "diff upgrade" "no-cpu-target"
lacks "diff upgrade" "prod/web-0"
run "diff upgrade json" 0 diff $S "$work/new" -o json
jqis "diff json" '.nodes.cpuChanged[0] | "\(.name) \(.featuresLost|join(",")) \(.featuresGained|length)"' "w4 pku 0"
jqis "diff split" '.cpuClasses[0] | "\(.kind) \(.after|length)"' "split 2"
jqis "diff kind" '.kind' kvscope-diff

# with w5 cordoned before and after, the upgrade takes db-0's last target
edit $S "$work/old2" cordon w5
edit "$work/old2" "$work/new2" drop w4 cpu-feature.node.kubevirt.io/pku
run "diff worse" 1 diff "$work/old2" "$work/new2"
has "diff worse" "prod/db-0: ok -> no-target, targets 1 -> 0"
has "diff worse" "result: worse"
run "diff yaml" 1 diff "$work/old2" "$work/new2" -o yaml
has "diff yaml" "kind: kvscope-diff"
run "diff one arg" 2 diff $S

# the newer input lacks the nodes: its VMIs are not judged, which is
# "cannot tell", neither worse nor better (exit 0)
mkdir "$work/nj-old" "$work/nj-new"
cp $S/resources/*.json "$work/nj-old/"
cp $S/resources/*.json "$work/nj-new/"
rm "$work/nj-new/nodes.json"
run "diff not judged" 0 diff "$work/nj-old" "$work/nj-new"
has "diff not judged" "VMIs: 11 changed, 0 better, 0 worse, 11 cannot tell"
has "diff not judged" \
    "    not judged in new: 11 VMIs (nodes: not in the input)"
has "diff not judged" "prod/db-0: ok -> not-judged"
lacks "diff not judged" "WORSE"
has "diff not judged" "result: nothing gets worse (cannot tell for 11 VMIs)"
run "diff not judged json" 0 diff "$work/nj-old" "$work/nj-new" -o json
jqis "diff not judged json" '"\(.worse) \(.better) \(.cannotTell.vmis)"' \
    "0 0 11"
jqis "diff not judged json" '.cannotTell.notJudged | "\(.before) \(.after)"' \
    "0 11"
jqis "diff not judged json" '.cannotTell.lines[0]' \
    "not judged in new: 11 VMIs (nodes: not in the input)"
jqis "diff not judged json" \
    '[.vmis[] | select(.cannotTell and (.worse | not))] | length' 11
run "diff not judged back" 0 diff "$work/nj-new" "$work/nj-old" -o yaml
has "diff not judged back" \
    "- 'not judged in old: 11 VMIs (nodes: not in the input)'"
run "diff not judged report" 0 diff "$work/nj-old" "$work/nj-new" \
    --report "$work/njr" --format html
grep -qF "Nothing got worse: 0 VMIs better, 0 worse, 11 changed in all; \
cannot tell for 11 VMIs; not judged in new: 11 VMIs (nodes: not in the \
input)." "$work/njr/report.html" || fail "diff not judged report: answer"
# the same on DVP: its words in the terminal and the HTML alike, the
# cannot-tell mark of each VM in both
mkdir "$work/dnj-old" "$work/dnj-new"
cp samples/deckhouse/resources/*.json "$work/dnj-old/"
cp samples/deckhouse/resources/*.json "$work/dnj-new/"
rm "$work/dnj-new/nodes.json"
run "DVP check without nodes" 2 check "$work/dnj-new"
has_err "DVP check without nodes" \
    "kvscope: warning: the input has no nodes: no VirtualMachine is judged"
run "DVP diff not judged" 0 diff "$work/dnj-old" "$work/dnj-new"
has "DVP diff not judged" \
    "    not judged in new: 11 VirtualMachines (nodes: not in the input)"
has "DVP diff not judged" "prod/vm-host: ok -> not-judged"
run "DVP diff not judged report" 0 diff "$work/dnj-old" "$work/dnj-new" \
    --report "$work/dnjr" --format html
sed -n '/<section id="changes">/,/<\/section>/p' "$work/dnjr/report.html" \
    >"$work/sec"
grep -qF "cannot tell for 11 VirtualMachines; not judged in new: 11 \
VirtualMachines (nodes: not in the input)." "$work/sec" ||
    fail "DVP diff report: answer not in DVP words"
! grep -q "VMI" "$work/sec" || fail "DVP diff report: says VMI"
[ "$(grep -c '> cannot tell</span>' "$work/sec")" = 11 ] ||
    fail "DVP diff report: not 11 VMs marked cannot tell"
# a group's subject in words, not its JSON kind, in both views
run "DVP what-if groups" 0 what-if samples/deckhouse --cpu-model Nehalem \
    --vmi prod/vm-features --report "$work/dwi" --format html
has "DVP what-if groups" \
    "resolved no-cpu-target (CPU model: VirtualMachineClass amx): 1 -> 0"
has "DVP what-if groups" \
    "changed drain-block (eviction strategy: LiveMigrate): 2 -> 1"
sed -n '/<section id="changes">/,/<\/section>/p' "$work/dwi/report.html" \
    >"$work/sec"
grep -qF '<td class="wrap">CPU model: VirtualMachineClass amx</td>' \
    "$work/sec" || fail "DVP what-if report: subject not in words"
! grep -qE "cpuModel|evictionStrategy" "$work/sec" ||
    fail "DVP what-if report: a JSON kind in the groups"

# the header names both inputs; other clusters and swapped dates are one
# warning line each, and --strict makes them a usage error
run "diff header" 0 diff $S $S
has "diff header" "old: samples/mixed (context lab-mixed, collected 2026-10-31T09:12:44Z, collector kvscope-samples 1.0.0)"
has "diff header" "new: samples/mixed (context lab-mixed"
lacks "diff header" "warning:"
run "diff clusters" 0 diff $S samples/same-host-model
has "diff clusters" "warning: OLD and NEW are of different clusters (context lab-mixed, context lab-gnr)"
run "diff clusters strict" 2 diff $S samples/same-host-model --strict
has_err "diff clusters strict" "--strict: OLD and NEW are of different clusters"
[ -s "$work/out" ] && fail "diff --strict wrote stdout"
edit $S "$work/older" date 2026-09-30T08:00:00Z
run "diff backwards" 0 diff $S "$work/older" -o json
jqis "diff backwards" '.warnings | length' 1
jqis "diff backwards text" '.warnings[0]' "NEW (collected 2026-09-30T08:00:00Z) is older than OLD (collected 2026-10-31T09:12:44Z): the changes read backwards"
run "diff backwards strict" 2 diff $S "$work/older" --strict
run "diff forwards strict" 0 diff "$work/older" $S --strict

# --- --report DIR: the report after the change, opening with it -----------

# section SECTION FILE: the HTML of section id SECTION (to the next one)
section() {
	sed -n "/<section id=\"$1\">/,/<\/section>/p" "$2"
}
R=$work/wi-report
run "report what-if" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner --report "$R"
has "report what-if" "dev/build-runner: ok -> no-target"
has "report what-if" "report: $R/report.html"
has "report what-if" "report: $R/diff.json"
checks=$((checks + 1))
section changes "$R/report.html" >"$work/sec"
grep -qF "<span class=\"secno\">1</span>  What the change does</h2>" "$work/sec" || fail "report: no section 1 What the change does"
grep -qF "<td class=\"name\">dev/build-runner</td>" "$work/sec" || fail "report: dev/build-runner not in the Changes section"
grep -qF "no-target</span>" "$work/sec" || fail "report: the verdict after not in the Changes section"
grep -qF "cpu-model Icelake-Server on 1 VMI" "$work/sec" || fail "report: the change applied not named"
grep -qF "<span class=\"secno\">2</span>  Summary</h2>" "$R/report.html" || fail "report: the summary is not section 2"
# the title says it is hypothetical: <title>, masthead, PDF title page,
# running head and metadata
checks=$((checks + 1))
wt="What if: cpu-model Icelake-Server on 1 VMI"
grep -qF "<title>$wt: lab-mixed," "$R/report.html" || fail "report: <title> not '$wt'"
grep -qF "<h1>$wt</h1>" "$R/report.html" || fail "report: masthead not '$wt'"
pdftotext -l 1 "$R/report.pdf" - | tr -s " \n" "  " | grep -qF "$wt" ||
    fail "pdf: title page not '$wt'"
pdftotext -f 3 -l 3 "$R/report.pdf" - | head -1 | grep -qxF "$wt · lab-mixed" ||
    fail "pdf: running head not '$wt'"
pdfinfo "$R/report.pdf" | grep -qF "Title:           $wt: lab-mixed" ||
    fail "pdf: metadata title not '$wt'"
checks=$((checks + 1))
pdftotext "$R/report.pdf" - | tr -s " \n" "  " >"$work/pdf"
grep -qF "1 What the change does" "$work/pdf" || fail "pdf: no section 1 What the change does"
grep -qF "dev/build-runner" "$work/pdf" || fail "pdf: no dev/build-runner"
grep -qF "3 What to change: the groups" "$work/pdf" || fail "pdf: the groups are not section 3"
# the PDF lists the VMIs whose verdict, drain or codes change; those whose
# target count alone moves are counted (cordoning w4 takes a target from
# five), and listed with --pdf-detail all
R2=$work/wi-cordon
run "report cordon" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0 --cordon w4 --report "$R2" --format pdf
checks=$((checks + 1))
# page 3 is section 1 (title page, contents, then the changes)
pdftotext -f 3 -l 3 "$R2/report.pdf" - | tr -s " \n" "  " >"$work/pdf2"
grep -qF "What the change does" "$work/pdf2" || fail "pdf cordon: page 3 is not section 1"
grep -qF "prod/web-0" "$work/pdf2" || fail "pdf cordon: prod/web-0 (no-target -> ok) not listed"
grep -qF "dev/build-runner" "$work/pdf2" && fail "pdf cordon: a VMI whose target count alone changed is listed"
grep -qF "Besides, 5 VMIs changed only their number of targets" "$work/pdf2" || fail "pdf cordon: the target-only changes are not counted"
run "report cordon all" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0 --cordon w4 --report "$R2" --format pdf --pdf-detail all
checks=$((checks + 1))
pdftotext -f 3 -l 3 "$R2/report.pdf" - | tr -s " \n" "  " >"$work/pdf2"
grep -qF "dev/build-runner" "$work/pdf2" || fail "pdf cordon all: dev/build-runner not listed"
grep -qF "changed only their number" "$work/pdf2" && fail "pdf cordon all: target-only VMIs counted, not listed"
run "report what-if json" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner -o json
checks=$((checks + 1))
cmp -s "$work/out" "$R/diff.json" || fail "diff.json differs from -o json"
# the report is of the snapshot after the change: findings.json says so
jqis "report after" '.kind' kvscope-whatif
checks=$((checks + 1))
[ "$(jq -r '.vmis[] | select(.name == "dev/build-runner") | .verdict' "$R/findings.json")" = no-target ] ||
    fail "report: findings.json is not of the snapshot after the change"
# with -o json stdout stays the one document
run "report json stdout" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner --report "$R" -o json
jqis "report json stdout" '.kind' kvscope-whatif
# written again over itself (its own diff.json is no foreign file), html only
run "report again" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner --report "$R" --format html
checks=$((checks + 1))
[ "$(ls "$R" | tr '\n' ' ')" = "diff.json report.html " ] || fail "report again: $(ls "$R" | tr '\n' ' ')"

# a diff: both snapshots' dates
edit $S "$work/old3" date 2026-09-30T08:00:00Z
edit $S "$work/new3" drop w4 cpu-feature.node.kubevirt.io/pku date 2026-10-31T10:00:00Z
run "report diff" 0 diff "$work/old3" "$work/new3" --report "$work/dr" --format html,pdf
has "report diff" "report: $work/dr/report.pdf"
checks=$((checks + 1))
section changes "$work/dr/report.html" >"$work/sec"
grep -qF "<span class=\"secno\">1</span>  Since the older snapshot</h2>" "$work/sec" || fail "diff report: no section 1"
grep -qF "taken 2026-09-30T08:00:00Z, the snapshot of this report 2026-10-31T10:00:00Z" "$work/sec" ||
    fail "diff report: not both dates"
grep -qF "<td class=\"name\">w4</td>" "$work/sec" || fail "diff report: node w4 not listed"
grep -qF "pku" "$work/sec" || fail "diff report: feature pku not listed"
pdftotext "$work/dr/report.pdf" - | tr -s " \n" "  " | grep -qF "2026-09-30T08:00:00Z" ||
    fail "diff report pdf: no older date"
checks=$((checks + 1))
dt="Difference: 2026-09-30T08:00:00Z → 2026-10-31T10:00:00Z"
grep -qF "<h1>$dt</h1>" "$work/dr/report.html" || fail "diff report: masthead not '$dt'"
grep -qF "<title>$dt: " "$work/dr/report.html" || fail "diff report: <title> not '$dt'"
pdftotext -f 3 -l 3 "$work/dr/report.pdf" - | head -1 | grep -qF "$dt" ||
    fail "diff report pdf: running head not '$dt'"
# three changes and more: the first two, then how many more
run "report what-if 3" 0 what-if $S --cordon w4 --uncordon w4 --cordon w3 --report "$work/wi3" --format html
checks=$((checks + 1))
grep -qF "<h1>What if: cordon w4; uncordon w4 and 1 more change</h1>" "$work/wi3/report.html" ||
    fail "report 3 changes: $(grep -o '<h1>[^<]*' "$work/wi3/report.html")"

# a foreign non-empty folder: exit 2, nothing written, no answer
mkdir -p "$work/foreign"
echo keep >"$work/foreign/notes.txt"
run "report foreign" 2 what-if $S --cordon w4 --report "$work/foreign"
has_err "report foreign" "not empty and not a kvscope report"
checks=$((checks + 1))
[ "$(ls "$work/foreign")" = notes.txt ] || fail "report foreign: wrote $(ls "$work/foreign")"
[ -s "$work/out" ] && fail "report foreign: an answer on stdout"
run "report foreign force" 0 what-if $S --cordon w4 --uncordon w4 --report "$work/foreign" --force --format json
checks=$((checks + 1))
[ "$(ls "$work/foreign" | tr '\n' ' ')" = "diff.json findings.json notes.txt " ] ||
    fail "report force: $(ls "$work/foreign" | tr '\n' ' ')"
run "report diff foreign" 2 diff $S $S --report "$work/foreign"

# --report is what-if's and diff's; its companions need it
run "report on check" 2 check $S --report "$work/x"
has_err "report on check" 'unknown option "--report"'
run "report on report" 2 report $S --report "$work/x"
has_err "report on report" 'unknown option "--report"'
run "format without report" 2 what-if $S --cordon w4 --format html
has_err "format without report" "--format, --pdf-detail and --force go with --report DIR"
run "force without report" 2 diff $S $S --force
checks=$((checks + 1))
[ -e "$work/x" ] && fail "a rejected --report created its folder"

# --fix: a group's fix applied as its text says
run "fix G4" 0 what-if $S --fix G4
has "fix G4" "fix G4 (no-cpu-target, C3): set-cpu-model Haswell-noTSX, as its fix says"
has "fix G4" "cpu-model Haswell-noTSX on 1 VMI (the VMIs of group G4)"
has "fix G4" "prod/web-0: no-target -> ok, targets 0 -> 3"
has "fix G4" "resolved no-cpu-target (CPU class: C3): 1 -> 0 VMIs"
has "fix G4" "after fix G4: 1 of its 1 VMI in no no-cpu-target group (fix.fixes 1)"
# G1's value is for the one VMI KubeVirt does not report LiveMigratable
run "fix G1" 0 what-if $S --fix G1 -o json
jqis "fix G1" '.vmis | map(.name) | join(",")' "prod/files-rwo"
jqis "fix G1" '.vmis[0].onDrain.after' "shutdown"
jqis "fix G1" '.restarts' "1"
jqis "fix G1" '.changes[-1]' "after fix G1: 1 of its 4 VMIs in no drain-block group (fix.fixes 1)"
run "fix G2" 0 what-if $S --fix G2 -o yaml
has "fix G2" "claims of ceph-rbd recreated ReadWriteMany on storage class nfs-csi"
run "fix commas" 0 what-if $S --fix G2,G4
has "fix commas" "prod/files-rwo: blocked -> ok"
has "fix commas" "prod/web-0: no-target -> ok"
run "fix all" 0 what-if $S --fix all -o json
jqis "fix all" '[.changes[] | select(test("nothing to apply"))] | length' "2"
jqis "fix all" '[.vmis[] | select(.verdict.after == "ok")] | length' "3"
jqis "fix all" '[.groups[] | select(.change == "resolved") | .code] | join(",")' \
    "disk-not-shared,drain-shutdown,no-cpu-target"
run "fix none" 2 what-if $S --fix G5
has_err "fix none" "fix G5 (no-cpu-target, EPYC-Genoa): nothing to apply"
run "fix none and one" 0 what-if $S --fix G5 --fix G4
has "fix none and one" "fix G5 (no-cpu-target, EPYC-Genoa): nothing to apply"
run "fix unknown" 2 what-if $S --fix G99
has_err "fix unknown" "--fix G99: no such group (the groups: G1, G2, G3, G4, G5, G6)"
run "fix report" 0 what-if $S --fix G4 --report "$work/fixrep" --format json
checks=$((checks + 1))
[ "$(jq -r '.vmis[] | select(.name == "prod/web-0") | .verdict' \
    "$work/fixrep/findings.json")" = ok ] || fail "fix report: web-0 not ok after"
# every group of every sample: fix.fixes is what the after-state shows
checks=$((checks + 1))
mkdir -p "$work/proof"
python3 tests/e2e/fixproof.py "$KVSCOPE" "$work/proof" samples/mixed \
    samples/capacity samples/deckhouse samples/hostile samples/pitfalls \
    samples/same-host-model >"$work/proof.out" ||
    { fail "fixproof"; sed 's/^/    | /' "$work/proof.out"; }

echo "$((checks - fails)) of $checks checks passed"
[ "$fails" -eq 0 ]
