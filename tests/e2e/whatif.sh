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

. "$(dirname "$0")/lib.sh"
# answers compared, on the optimised binary (docs/testing.md: the same
# code runs under the sanitizers in the unit tests, samples, hostile,
# foreign and the fuzz harnesses, fuzz_pipeline's every view and writer)
KVSCOPE=${KVSCOPE_FAST:-$KVSCOPE}
# the reports (--report, the trade-off check) reach fontconfig through
# pango: its configuration lives as long as the process (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
S=samples/mixed
RUN_TAIL=-q	# every run of kvscope is quiet

# edit SRC DST OP...: copy snapshot SRC to DST, apply the operations
# (drop NODE LABEL | cordon NODE | label NODE KEY VALUE | taint NODE KEY
# VALUE EFFECT | cpu NODE ALLOCATABLE | annotate NS/NAME KEY VALUE | date ISO:
# the manifest's createdAt | context NAME: the manifest's cluster.context |
# nsuid NS UID: namespace NS's metadata.uid, UID - drops the namespace |
# kvuid UID: the KubeVirt CR's metadata.uid, UID - drops it).
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
nss = "resources/namespaces.json"
kvs = "resources/kubevirts.kubevirt.io.json"
context = None
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
    elif op in ("label", "taint", "cpu"):
        doc = files.setdefault(nodes, load(nodes))
        for n in doc["items"]:
            if n["metadata"]["name"] != ops[i + 1]:
                continue
            if op == "label":
                n["metadata"]["labels"][ops[i + 2]] = ops[i + 3]
            elif op == "taint":
                n.setdefault("spec", {}).setdefault("taints", []).append(
                    {"key": ops[i + 2], "value": ops[i + 3],
                     "effect": ops[i + 4]})
            else:
                n["status"]["allocatable"]["cpu"] = ops[i + 2]
        i += {"label": 4, "taint": 5, "cpu": 3}[op]
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
    elif op == "context":
        context = ops[i + 1]
        i += 2
    elif op == "nsuid":
        doc = files.setdefault(nss, load(nss))
        if ops[i + 2] == "-":
            doc["items"] = [n for n in doc["items"]
                            if n["metadata"]["name"] != ops[i + 1]]
        for n in doc["items"]:
            if n["metadata"]["name"] == ops[i + 1]:
                n["metadata"]["uid"] = ops[i + 2]
        i += 3
    elif op == "kvuid":
        doc = files.setdefault(kvs, load(kvs))
        for k in doc["items"]:
            if ops[i + 1] == "-":
                del k["metadata"]["uid"]
            else:
                k["metadata"]["uid"] = ops[i + 1]
        i += 2
    else:
        sys.exit("edit: unknown operation " + op)
mf = load("manifest.json")
if created:
    mf["createdAt"] = created
if context:
    mf["cluster"]["context"] = context
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
has "$tmp/out" "model fixes" "cpu-model Haswell-noTSX on 1 VMI (VMI prod/web-0): takes effect after a restart, 1 running VMI restart"
has "$tmp/out" "model fixes" "prod/web-0: no-target -> ok, targets 0 -> 3, drain block -> migrate (-eviction-blocks-drain -no-cpu-target)"
has "$tmp/out" "model fixes" "w1: 1/1/0 -> 2/0/0"
has "$tmp/out" "model fixes" "VMIs: 1 changed, 1 better, 0 worse"
has "$tmp/out" "model fixes" "result: nothing gets worse"
# the group that fix removes is said so, by code and subject
has "$tmp/out" "model fixes" "resolved no-cpu-target (CPU class: C3): 1 -> 0 VMIs"
run "model fixes json" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0 -o json
jq_is "model fixes json" '.groups[] | select(.code == "no-cpu-target") | "\(.change) \(.ids[0]) \(.vmis.after)"' "resolved G4 0"

# a model only the VMI's own node runs leaves it without a target
run "model breaks" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner
has "$tmp/out" "model breaks" "dev/build-runner: ok -> no-target, targets 3 -> 0, drain migrate -> block (+eviction-blocks-drain +no-cpu-target -passthrough-cpu-differs)  WORSE"
has "$tmp/out" "model breaks" "result: worse"

# JSON of the same
run "model breaks json" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner -o json
jq_is "json kind" '.kind' kvscope-whatif
jq_is "json restarts" '.restarts' 1
jq_is "json vmi" '.vmis[0] | "\(.name) \(.verdict.before) \(.verdict.after) \(.targetCount.after) \(.worse) \(.codesAdded|join(","))"' \
    "dev/build-runner ok no-target 0 true eviction-blocks-drain,no-cpu-target"
jq_is "json worse" '.worse' 1

# cordoning both of prod/db-0's targets: exit 1
run "cordon" 1 what-if $S --cordon w4 --cordon w5
has "$tmp/out" "cordon" "prod/db-0: ok -> no-target, targets 2 -> 0"
has "$tmp/out" "cordon" "+no-placement-target"

# cordon then uncordon: nothing changes
run "uncordon" 0 what-if $S --cordon w4 --uncordon w4
has "$tmp/out" "uncordon" "VMIs: 0 changed, 0 better, 0 worse"

# w2 is cordoned in the sample and carries the cordon's taint: uncordon
# removes both, so w2 becomes a target (dev/legacy-app, dev/build-runner)
run "uncordon w2" 0 what-if $S --uncordon w2
has "$tmp/out" "uncordon w2" "taint node.kubernetes.io/unschedulable:NoSchedule removed"
# (their only change, their targets: folded by cause, issue 41)
has "$tmp/out" "uncordon w2" "2 VMIs gained 1 target: w2 uncordoned"

# a second AMD node gives the lone AMD VMI a target
run "add node" 0 what-if $S --add-node-like a1=2 -o yaml
has "$tmp/out" "add node" "kind: kvscope-whatif"
run "add node text" 0 what-if $S --add-node-like a1=2
has "$tmp/out" "add node text" "added: a1-whatif-1 a1-whatif-2"
has "$tmp/out" "add node text" "prod/analytics: no-target -> ok, targets 0 -> 2"

# the KubeVirt CR default: VMIs without their own model restart
run "cluster model" 0 what-if $S --cluster-cpu-model Haswell-noTSX -o json
jq_is "cluster model" '[.restarts > 0, (.vmis | map(select(.name == "prod/web-0"))[0].verdict.after)] | join(" ")' "true ok"

# eviction strategy None on a namespace: drains stop the VMs (worse)
run "eviction" 1 what-if $S --eviction-strategy None -n dev
has "$tmp/out" "eviction" "drain migrate -> shutdown"

# a CPU model no one knows is a usage error with the nearest names
# (libvirt's names are case-sensitive)
run "model typo" 2 what-if $S --cpu-model Haswel --vmi prod/web-0
has "$tmp/err" "model typo" "--cpu-model Haswel: no CPU model of that name"
has "$tmp/err" "model typo" "did you mean Haswell?"
run "model case" 2 what-if $S --cpu-model haswell-notsx --vmi prod/web-0
has "$tmp/err" "model case" "did you mean Haswell-noTSX?"
# a model KubeVirt knows but no node runs: the VM would not start again
# after its restart, which is worse even for a VMI without a target
run "model nowhere" 1 what-if $S --cpu-model SapphireRapids --vmi prod/web-0
has "$tmp/out" "model nowhere" "1 would not start again after the restart: no node runs SapphireRapids"
has "$tmp/out" "model nowhere" "would not start: no node runs SapphireRapids  WORSE"
run "model nowhere json" 1 what-if $S --cpu-model SapphireRapids --vmi prod/db-0 -o json
jq_is "model nowhere json" '.vmis[] | select(.name == "prod/db-0") | "\(.wouldNotStart) \(.worse)"' "no node runs SapphireRapids true"

# a VM's evictionStrategy reaches its VMI with a restart (no live
# update): what G1's fix says for prod/files-rwo (LiveMigratable=False),
# and the drain of w4 then evicts it instead of waiting
run "eviction restart" 0 what-if $S --eviction-strategy LiveMigrateIfPossible --vmi prod/files-rwo
has "$tmp/out" "eviction restart" "takes effect after a restart, 1 running VMI restart"
has "$tmp/out" "eviction restart" "restarts: 1 running VMI"
has "$tmp/out" "eviction restart" "prod/files-rwo: blocked -> blocked, drain block -> shutdown"
# prod/web-0 is LiveMigratable: LiveMigrateIfPossible still waits, None ends it
run "eviction tried" 0 what-if $S --eviction-strategy LiveMigrateIfPossible --vmi prod/web-0
has "$tmp/out" "eviction tried" "VMIs: 0 changed"
run "eviction none" 0 what-if $S --eviction-strategy None --vmi prod/web-0
has "$tmp/out" "eviction none" "drain block -> shutdown"

# a local-path claim as if recreated RWX: the VMI's stored
# DisksNotLiveMigratable is computed again after the restart
run "storage rwx" 0 what-if samples/pitfalls --storage-class-rwx local-path
has "$tmp/out" "storage rwx" "1 claim recreated ReadWriteMany, 1 running VMI stop for it"
has "$tmp/out" "storage rwx" "pit/local-path: blocked -> ok"

# ceph-rbd (rbd.csi.ceph.com) gives ReadWriteMany for Block only: its one
# claim that is not RWX is Filesystem (prod/files-rwo), so it cannot be
run "storage rwx block only" 2 what-if $S --storage-class-rwx ceph-rbd
has "$tmp/err" "storage rwx block only" "the class gives ReadWriteMany for Block only (per its provisioner rbd.csi.ceph.com)"
has "$tmp/err" "storage rwx block only" "its 1 claim not ReadWriteMany is of another volume mode"

# a removed node's VMIs leave with it; the others lose it as a target
run "remove node" 0 what-if samples/pitfalls --remove-node p2
has "$tmp/out" "remove node" "removed: p2"
lacks "$tmp/out" "remove node" "pit/local-path"

# --- Deckhouse: the CPU is the VirtualMachineClass's ------------------------
# samples/deckhouse: prod/vm-features (class amx, type Features: three AMX
# features only w5 has) has no CPU target; Cascadelake-Server-noTSX runs on
# every Intel worker.  Class discovery (dev/vm-evacuating on w3,
# prod/vm-discovery on w2) runs on every worker; Icelake-Server on w3 alone.
D=samples/deckhouse
run "dvp model" 0 what-if $D --cpu-model Cascadelake-Server-noTSX --vmi prod/vm-features
has "$tmp/out" "dvp model" "prod/vm-features: no-target -> ok, targets 0 -> 4"
has "$tmp/out" "dvp model" "1 VM given a class of type Model with spec.cpu.model Cascadelake-Server-noTSX"
run "dvp class" 0 what-if $D --class-cpu amx=Cascadelake-Server-noTSX
has "$tmp/out" "dvp class" "VirtualMachineClass amx as type Model with spec.cpu.model Cascadelake-Server-noTSX, for its 1 VM"
has "$tmp/out" "dvp class" "prod/vm-features: no-target -> ok, targets 0 -> 4"
has "$tmp/out" "dvp class" "resolved no-cpu-target (CPU model: VirtualMachineClass amx): 1 -> 0 VirtualMachines"
# every VM of the class changes: both of class discovery lose targets
run "dvp class worse" 1 what-if $D --class-cpu discovery=Icelake-Server -o json
jq_is "dvp class worse" '[.restarts, (.vmis | map("\(.name) \(.targetCount.after)") | join(","))] | join(" ")' \
    "2 dev/vm-evacuating 0,prod/vm-discovery 1"
run "dvp class unknown" 2 what-if $D --class-cpu nope=Nehalem
has "$tmp/err" "dvp class unknown" "--class-cpu nope=Nehalem: no VirtualMachineClass nope"
run "dvp class form" 2 what-if $D --class-cpu amx
has "$tmp/err" "dvp class form" '--class-cpu: "amx" is not CLASS=MODEL'
run "class on kubevirt" 2 what-if $S --class-cpu generic=Nehalem

# --- the guest's floor -----------------------------------------------------

edit $S "$tmp/rhel" annotate dev/legacy-app vm.kubevirt.io/os rhel10
run "floor v2" 1 what-if "$tmp/rhel" --cpu-model Nehalem --vmi dev/legacy-app
has "$tmp/out" "floor v2" "dev/legacy-app: ok -> ok"
has "$tmp/out" "floor v2" "+guest-cpu-floor"
run "floor v3" 0 what-if "$tmp/rhel" --cpu-model Haswell-noTSX --vmi dev/legacy-app
lacks "$tmp/out" "floor v3" "guest-cpu-floor"
run "floor check" 0 explain "$tmp/rhel" dev/legacy-app -o json
"$KVSCOPE" report "$tmp/rhel" --format json --output-dir "$tmp/rep" -q >/dev/null ||
    bad "report of the RHEL copy"
jq -e '.vmis[] | select(.name == "dev/legacy-app") | .warnings | map(.code) | index("guest-cpu-floor") == null' \
    "$tmp/rep/findings.json" >/dev/null || bad "host-model on a v3 node: no floor warning"
# the trade-off table: the tiers below x86-64-v3 leave the RHEL 10 guest
# behind (the any and x86-64-v2 rows of the three scopes), the others do not
"$KVSCOPE" report "$tmp/rhel" --format html,pdf --output-dir "$tmp/rep2" -q >/dev/null ||
    bad "report html of the RHEL copy"
n=$(grep -oF "guests that need x86-64-v3: 1 VMI<" "$tmp/rep2/report.html" | wc -l)
[ "$n" = 6 ] || bad "trade-off: $n rows with \"guests that need x86-64-v3: 1 VMI\", want 6"
pdftotext "$tmp/rep2/report.pdf" - | tr -s " \n" "  " | grep -qF "guests that need x86-64-v3: 1 VMI" ||
    bad "trade-off: no guests line in the PDF"
"$KVSCOPE" report $S --format html --output-dir "$tmp/rep3" -q >/dev/null
! grep -qF "Guests it is too old for" "$tmp/rep3/report.html" ||
    bad "trade-off: a guests column without a guest that needs it"

# --- the free-capacity fix, proven: the what-if its text names -------------------
# samples/capacity: prod/stuck-vm's only placeable node c2 has no room.

run "capacity groups" 1 check samples/capacity --groups
has "$tmp/out" "capacity groups" "no-capacity: 1 VMI would be placed on c2 but finds no room"
has "$tmp/out" "capacity groups" "fix free-capacity (proven: fixes 1 of 1): Make room for the target pod of prod/stuck-vm (it requests up to 400m CPU, 16.3 GiB, 1 pod; kvscope explain shows what each node has free): so that c2 takes them: free 922.0 MiB of memory on c2 (move or scale down other pods there)"
has "$tmp/out" "capacity groups" "--add-node-like c2"
run "capacity fix proven" 0 what-if samples/capacity --add-node-like c2
has "$tmp/out" "capacity fix proven" "prod/stuck-vm: no-target -> ok"
run "capacity json" 1 check samples/capacity -o json
"$KVSCOPE" report samples/capacity --format json --output-dir "$tmp/cap" -q >/dev/null 2>&1
jq -e '.groups[] | select(.code == "no-capacity") |
    .subject == {"kind": "node", "name": "c2"} and .fix.action == "free-capacity"' \
    "$tmp/cap/findings.json" >/dev/null || bad "capacity group in findings.json"

# --- usage errors: exit 2, one message ----------------------------------

run "no change" 2 what-if $S
has "$tmp/err" "no change" "kvscope: what-if: no change given"
run "unknown node" 2 what-if $S --cordon nope
has "$tmp/err" "unknown node" "--cordon nope: no such node in the snapshot"
run "scope first" 2 what-if $S -n dev --cpu-model Nehalem
has "$tmp/err" "scope first" "--namespace scopes the --cpu-model"
run "bad strategy" 2 what-if $S --eviction-strategy Sometimes
run "bad count" 2 what-if $S --add-node-like a1=0
run "no vmi" 2 what-if $S --cpu-model Nehalem --vmi prod/nope
has "$tmp/err" "no vmi" "no VMI in VMI prod/nope"
run "no class" 2 what-if $S --storage-class-rwx nope
# issue 28: no such StorageClass, not "no claim of that storage class"
has "$tmp/err" "no class: named" "--storage-class-rwx nope: no StorageClass nope in the snapshot (its classes: ceph-rbd, local-path, nfs-csi)"
lines "$tmp/err" "no class: one line and the usage" 2
run "class without such claims" 2 what-if $S --storage-class-rwx nfs-csi
has "$tmp/err" "class without such claims" "--storage-class-rwx nfs-csi: no claim of that storage class in the snapshot that is not ReadWriteMany already"
[ -s "$tmp/out" ] && bad "usage error wrote stdout"

# --- diff ----------------------------------------------------------------

run "diff same" 0 diff $S $S
has "$tmp/out" "diff same" "VMIs: 0 changed, 0 better, 0 worse"

# an "upgrade": w4 loses cpu-feature pku; its class splits off w3's
edit $S "$tmp/new" drop w4 cpu-feature.node.kubevirt.io/pku
run "diff upgrade" 0 diff $S "$tmp/new"
has "$tmp/out" "diff upgrade" "features lost: pku"
has "$tmp/out" "diff upgrade" "1 VMI lost 1 target: w4 lost CPU feature pku"
# prod/web-0's class (w1) is renumbered by the split, not changed: its
# group is matched by the class's content, so no group changes
lacks "$tmp/out" "diff upgrade" "no-cpu-target"
lacks "$tmp/out" "diff upgrade" "prod/web-0"
run "diff upgrade json" 0 diff $S "$tmp/new" -o json
jq_is "diff json" '.nodes.cpuChanged[0] | "\(.name) \(.featuresLost|join(",")) \(.featuresGained|length)"' "w4 pku 0"
jq_is "diff split" '.cpuClasses[0] | "\(.kind) \(.after|length)"' "split 2"
jq_is "diff kind" '.kind' kvscope-diff

# with w5 cordoned before and after, the upgrade takes db-0's last target
edit $S "$tmp/old2" cordon w5
edit "$tmp/old2" "$tmp/new2" drop w4 cpu-feature.node.kubevirt.io/pku
run "diff worse" 1 diff "$tmp/old2" "$tmp/new2"
has "$tmp/out" "diff worse" "prod/db-0: ok -> no-target, targets 1 -> 0"
has "$tmp/out" "diff worse" "result: worse"
run "diff yaml" 1 diff "$tmp/old2" "$tmp/new2" -o yaml
has "$tmp/out" "diff yaml" "kind: kvscope-diff"
run "diff one arg" 2 diff $S

# issue 41: the counts first, then WORSE, then the changes folded by their
# cause; node changes name the cordon, taints, allocatable and labels.
# w4 and w5 cordoned take prod/db-0's and prod/reporting's targets (worse);
# the other VMIs that could go to w5 only lose it (folded); w1 gains a
# label and a PreferNoSchedule taint, w3 less CPU (no target lost)
edit $S "$tmp/scale" cordon w4 cordon w5 label w1 rack r9 \
    taint w1 team blue PreferNoSchedule cpu w3 90
run "diff scale" 1 diff $S "$tmp/scale"
has "$tmp/out" "diff scale: counts" "VMIs: 8 changed, 0 better, 2 worse; 12 in old, 12 in new"
has "$tmp/out" "diff scale: nodes" "nodes: 4 changed (2 cordoned or uncordoned), 0 added, 0 removed"
has "$tmp/out" "diff scale: cause" "prod/db-0: ok -> no-target, targets 2 -> 0, drain migrate -> block (+eviction-blocks-drain +no-placement-target), lost 2 targets: w4, w5 cordoned  WORSE"
has "$tmp/out" "diff scale: fold" "  3 VMIs lost 1 target: w5 cordoned"
has "$tmp/out" "diff scale: cordon" "    cordoned (spec.unschedulable false -> true)"
has "$tmp/out" "diff scale: taint" "    taints gained: team=blue:PreferNoSchedule"
has "$tmp/out" "diff scale: label" "    labels gained: rack=r9"
has "$tmp/out" "diff scale: allocatable" "    allocatable: cpu 95500m -> 90"
# the order: counts, WORSE (each line), the folds, the rest
order=$(grep -n -e '^VMIs: ' -e '^WORSE (2 VMIs):' -e 'WORSE$' \
    -e '^targets changed, by cause' -e '^node changes:' "$tmp/out" |
    cut -d: -f2- | cut -c1-12 | tr '\n' '|')
[ "$order" = "VMIs: 8 chan|WORSE (2 VMI|  prod/db-0:|  prod/repor|targets chan|node changes|" ] &&
    ok "diff scale: order" || bad "diff scale: order" "$order"
lacks "$tmp/out" "diff scale: folded VMIs are not listed" "prod/cache-0"
run "diff scale json" 1 diff $S "$tmp/scale" -o json
jq_is "diff scale json: fold" '.targetFolds[0] | "\(.vmis) \(.targetsLost|join(","))"' "3 w5"
jq_is "diff scale json: node" '.nodes.changed[] | select(.name == "w1") | "\(.taintsGained[0]) \(.labelsGained[0]) \(.cpuLabelsChanged)"' "team=blue:PreferNoSchedule rack=r9 false"
jq_is "diff scale json: cpuChanged keeps CPU changes" '.nodes.cpuChanged | length' 0
jq_is "diff scale json: vmi" '.vmis[] | select(.name == "prod/db-0") | "\(.targetsLost|join(",")) \(.worse) \(.better)"' "w4,w5 true false"

# the newer input lacks the nodes: its VMIs are not judged, which is
# "cannot tell", neither worse nor better (exit 0)
mkdir "$tmp/nj-old" "$tmp/nj-new"
cp $S/resources/*.json "$tmp/nj-old/"
cp $S/resources/*.json "$tmp/nj-new/"
rm "$tmp/nj-new/nodes.json"
run "diff not judged" 0 diff "$tmp/nj-old" "$tmp/nj-new"
has "$tmp/out" "diff not judged" "VMIs: 11 changed, 0 better, 0 worse, 11 cannot tell"
has "$tmp/out" "diff not judged" \
    "    not judged in new: 11 VMIs (nodes: not in the input)"
has "$tmp/out" "diff not judged" "prod/db-0: ok -> not-judged"
lacks "$tmp/out" "diff not judged" "WORSE"
has "$tmp/out" "diff not judged" "result: nothing gets worse (cannot tell for 11 VMIs)"
run "diff not judged json" 0 diff "$tmp/nj-old" "$tmp/nj-new" -o json
jq_is "diff not judged json" '"\(.worse) \(.better) \(.cannotTell.vmis)"' \
    "0 0 11"
jq_is "diff not judged json" '.cannotTell.notJudged | "\(.before) \(.after)"' \
    "0 11"
jq_is "diff not judged json" '.cannotTell.lines[0]' \
    "not judged in new: 11 VMIs (nodes: not in the input)"
jq_is "diff not judged json" \
    '[.vmis[] | select(.cannotTell and (.worse | not))] | length' 11
run "diff not judged back" 0 diff "$tmp/nj-new" "$tmp/nj-old" -o yaml
has "$tmp/out" "diff not judged back" \
    "- 'not judged in old: 11 VMIs (nodes: not in the input)'"
run "diff not judged report" 0 diff "$tmp/nj-old" "$tmp/nj-new" \
    --report "$tmp/njr" --format html
grep -qF "Nothing got worse: 0 VMIs better, 0 worse, 11 changed in all; \
cannot tell for 11 VMIs; not judged in new: 11 VMIs (nodes: not in the \
input)." "$tmp/njr/report.html" || bad "diff not judged report: answer"
# the same on DVP: its words in the terminal and the HTML alike, the
# cannot-tell mark of each VM in both
mkdir "$tmp/dnj-old" "$tmp/dnj-new"
cp samples/deckhouse/resources/*.json "$tmp/dnj-old/"
cp samples/deckhouse/resources/*.json "$tmp/dnj-new/"
rm "$tmp/dnj-new/nodes.json"
run "DVP check without nodes" 2 check "$tmp/dnj-new"
has "$tmp/err" "DVP check without nodes" \
    "kvscope: warning: the input has no nodes: no VirtualMachine is judged"
run "DVP diff not judged" 0 diff "$tmp/dnj-old" "$tmp/dnj-new"
has "$tmp/out" "DVP diff not judged" \
    "    not judged in new: 11 VirtualMachines (nodes: not in the input)"
has "$tmp/out" "DVP diff not judged" "prod/vm-host: ok -> not-judged"
run "DVP diff not judged report" 0 diff "$tmp/dnj-old" "$tmp/dnj-new" \
    --report "$tmp/dnjr" --format html
sed -n '/<section id="changes">/,/<\/section>/p' "$tmp/dnjr/report.html" \
    >"$tmp/sec"
has "$tmp/sec" "DVP diff report: answer in DVP words" "cannot tell for 11 \
VirtualMachines; not judged in new: 11 VirtualMachines (nodes: not in the \
input)."
lacks "$tmp/sec" "DVP diff report: no VMI" "VMI"
count "DVP diff report: 11 VMs marked cannot tell" 11 "$tmp/sec" \
    '> cannot tell</span>'
# a group's subject in words, not its JSON kind, in both views
run "DVP what-if groups" 0 what-if samples/deckhouse --cpu-model Nehalem \
    --vmi prod/vm-features --report "$tmp/dwi" --format html
has "$tmp/out" "DVP what-if groups" \
    "resolved no-cpu-target (CPU model: VirtualMachineClass amx): 1 -> 0"
has "$tmp/out" "DVP what-if groups" \
    "changed drain-block (eviction strategy: LiveMigrate): 2 -> 1"
sed -n '/<section id="changes">/,/<\/section>/p' "$tmp/dwi/report.html" \
    >"$tmp/sec"
has "$tmp/sec" "DVP what-if report: subject in words" \
    '<td class="wrap">CPU model: VirtualMachineClass amx</td>'
lacks "$tmp/sec" "DVP what-if report: no cpuModel" "cpuModel"
lacks "$tmp/sec" "DVP what-if report: no evictionStrategy" "evictionStrategy"

# the header names both inputs; other clusters and swapped dates are one
# warning line each, and --strict makes them a usage error
ks=$(jq -r '.items[] | select(.metadata.name == "kube-system") | .metadata.uid' $S/resources/namespaces.json)
kv=$(jq -r '.items[0].metadata.uid' $S/resources/kubevirts.kubevirt.io.json)
run "diff header" 0 diff $S $S
has "$tmp/out" "diff header" "old: samples/mixed (context lab-mixed, collected 2026-10-31T09:12:44Z, collector kvscope-samples 1.0.0)"
has "$tmp/out" "diff header" "new: samples/mixed (context lab-mixed"
lacks "$tmp/out" "diff header" "warning:"
run "diff clusters" 0 diff $S samples/same-host-model
has "$tmp/out" "diff clusters" "warning: OLD and NEW are of different clusters (context lab-mixed, context lab-gnr; namespace kube-system uid $ks vs $(jq -r '.items[] | select(.metadata.name == "kube-system") | .metadata.uid' samples/same-host-model/resources/namespaces.json)): what differs is not a change of one cluster"
run "diff clusters strict" 2 diff $S samples/same-host-model --strict
has "$tmp/err" "diff clusters strict" "--strict: OLD and NEW are of different clusters"
[ -s "$tmp/out" ] && bad "diff --strict wrote stdout"
# the cluster is its uid (namespace kube-system's, else the KubeVirt
# CR's), the context only a kubeconfig's name for it: the same context
# with another uid is another cluster, another context with the same uid
# the same one; without a uid on both sides the context decides
edit $S "$tmp/uid" nsuid kube-system 9f8e0000-0000-4000-8000-000000000001
run "diff uid" 0 diff $S "$tmp/uid"
has "$tmp/out" "diff uid" "warning: OLD and NEW are of different clusters (namespace kube-system uid $ks vs 9f8e0000-0000-4000-8000-000000000001): what differs is not a change of one cluster"
run "diff uid strict" 2 diff $S "$tmp/uid" --strict
has "$tmp/err" "diff uid strict" "--strict: OLD and NEW are of different clusters (namespace kube-system uid $ks vs 9f8e0000-0000-4000-8000-000000000001)"
[ -s "$tmp/out" ] && bad "diff uid --strict wrote stdout"
edit $S "$tmp/ctx" context lab-mixed-admin
run "diff same uid other context" 0 diff $S "$tmp/ctx" --strict
lacks "$tmp/out" "diff same uid other context" "warning:"
# no kube-system on one side (a --namespace snapshot): the KubeVirt CR's
edit $S "$tmp/nons" nsuid kube-system - kvuid 57b57b1e-0000-4000-8000-000000000002
run "diff cr uid" 0 diff $S "$tmp/nons"
has "$tmp/out" "diff cr uid" "warning: OLD and NEW are of different clusters (KubeVirt CR uid $kv vs 57b57b1e-0000-4000-8000-000000000002)"
edit $S "$tmp/nons2" nsuid kube-system -
run "diff cr uid same" 0 diff $S "$tmp/nons2" --strict
lacks "$tmp/out" "diff cr uid same" "warning:"
# neither uid on one side: nothing to compare, the contexts agree
edit $S "$tmp/noid" nsuid kube-system - kvuid -
run "diff no uid" 0 diff $S "$tmp/noid" --strict -o json
jq_is "diff no uid" '.warnings | length' 0
jq_is "diff no uid input" '.inputs[1] | "\(.clusterUid) \(.clusterUidFrom)"' "null null"
edit "$tmp/noid" "$tmp/noid2" context lab-other
run "diff no uid other context" 0 diff $S "$tmp/noid2"
has "$tmp/out" "diff no uid other context" "warning: OLD and NEW are of different clusters (context lab-mixed, context lab-other): what differs"
# the document's inputs: objects, the header line kept as "line"
run "diff inputs json" 0 diff $S "$tmp/nons2" -o json
jq_is "diff inputs old" '.inputs[0] | "\(.which) \(.path) \(.context) \(.createdAt) \(.collector.name) \(.collector.version) \(.clusterUid) \(.clusterUidFrom)"' \
    "old samples/mixed lab-mixed 2026-10-31T09:12:44Z kvscope-samples 1.0.0 $ks namespace kube-system"
jq_is "diff inputs new" '.inputs[1] | "\(.which) \(.clusterUid) \(.clusterUidFrom)"' \
    "new $kv KubeVirt CR"
jq_is "diff inputs line" '.inputs[0].line' \
    "old: samples/mixed (context lab-mixed, collected 2026-10-31T09:12:44Z, collector kvscope-samples 1.0.0)"
edit $S "$tmp/older" date 2026-09-30T08:00:00Z
run "diff backwards" 0 diff $S "$tmp/older" -o json
jq_is "diff backwards" '.warnings | length' 1
jq_is "diff backwards text" '.warnings[0]' "NEW (collected 2026-09-30T08:00:00Z) is older than OLD (collected 2026-10-31T09:12:44Z): the changes read backwards"
run "diff backwards strict" 2 diff $S "$tmp/older" --strict
run "diff forwards strict" 0 diff "$tmp/older" $S --strict
# times compare as instants: 10:12:44+02:00 is 08:12:44Z, an hour before
# OLD's 09:12:44Z though its string sorts after; 09:00:00-01:00 is
# 10:00:00Z, after OLD though its string sorts before
edit $S "$tmp/offset" date 2026-10-31T10:12:44+02:00
run "diff offset older" 0 diff $S "$tmp/offset" -o json
jq_is "diff offset older" '.warnings[0]' "NEW (collected 2026-10-31T10:12:44+02:00) is older than OLD (collected 2026-10-31T09:12:44Z): the changes read backwards"
run "diff offset older strict" 2 diff $S "$tmp/offset" --strict
edit $S "$tmp/offset2" date 2026-10-31T09:00:00-01:00
run "diff offset newer" 0 diff $S "$tmp/offset2" --strict
lacks "$tmp/out" "diff offset newer" "warning:"

# --- --report DIR: the report after the change, opening with it -----------

# section SECTION FILE: the HTML of section id SECTION (to the next one)
section() {
	sed -n "/<section id=\"$1\">/,/<\/section>/p" "$2"
}
R=$tmp/wi-report
run "report what-if" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner --report "$R"
has "$tmp/out" "report what-if" "dev/build-runner: ok -> no-target"
has "$tmp/out" "report what-if" "report: $R/report.html"
has "$tmp/out" "report what-if" "report: $R/diff.json"
section changes "$R/report.html" >"$tmp/sec"
grep -qF "<span class=\"secno\">1</span>  What the change does</h2>" "$tmp/sec" || bad "report: no section 1 What the change does"
grep -qF "<td class=\"name\">dev/build-runner</td>" "$tmp/sec" || bad "report: dev/build-runner not in the Changes section"
grep -qF "no-target</span>" "$tmp/sec" || bad "report: the verdict after not in the Changes section"
grep -qF "cpu-model Icelake-Server on 1 VMI" "$tmp/sec" || bad "report: the change applied not named"
grep -qF "<span class=\"secno\">2</span>  Summary</h2>" "$R/report.html" || bad "report: the summary is not section 2"
# the title says it is hypothetical: <title>, masthead, PDF title page,
# running head and metadata
wt="What if: cpu-model Icelake-Server on 1 VMI"
grep -qF "<title>$wt: lab-mixed," "$R/report.html" || bad "report: <title> not '$wt'"
grep -qF "<h1>$wt</h1>" "$R/report.html" || bad "report: masthead not '$wt'"
pdftotext -l 1 "$R/report.pdf" - | tr -s " \n" "  " | grep -qF "$wt" ||
    bad "pdf: title page not '$wt'"
pdftotext -f 3 -l 3 "$R/report.pdf" - | head -1 | grep -qxF "$wt · lab-mixed" ||
    bad "pdf: running head not '$wt'"
pdfinfo "$R/report.pdf" | grep -qF "Title:           $wt: lab-mixed" ||
    bad "pdf: metadata title not '$wt'"
pdftotext "$R/report.pdf" - | tr -s " \n" "  " >"$tmp/pdf"
grep -qF "1 What the change does" "$tmp/pdf" || bad "pdf: no section 1 What the change does"
grep -qF "dev/build-runner" "$tmp/pdf" || bad "pdf: no dev/build-runner"
grep -qF "3 What to change: the groups" "$tmp/pdf" || bad "pdf: the groups are not section 3"
# the PDF lists the VMIs whose verdict, drain or codes change; those whose
# target count alone moves are counted (cordoning w4 takes a target from
# five), and listed with --pdf-detail all
R2=$tmp/wi-cordon
run "report cordon" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0 --cordon w4 --report "$R2" --format pdf
# page 3 is section 1 (title page, contents, then the changes)
pdftotext -f 3 -l 3 "$R2/report.pdf" - | tr -s " \n" "  " >"$tmp/pdf2"
grep -qF "What the change does" "$tmp/pdf2" || bad "pdf cordon: page 3 is not section 1"
grep -qF "prod/web-0" "$tmp/pdf2" || bad "pdf cordon: prod/web-0 (no-target -> ok) not listed"
grep -qF "dev/build-runner" "$tmp/pdf2" && bad "pdf cordon: a VMI whose target count alone changed is listed"
grep -qF "Besides, 5 VMIs changed only their number of targets" "$tmp/pdf2" || bad "pdf cordon: the target-only changes are not counted"
run "report cordon all" 0 what-if $S --cpu-model Haswell-noTSX --vmi prod/web-0 --cordon w4 --report "$R2" --format pdf --pdf-detail all
pdftotext -f 3 -l 3 "$R2/report.pdf" - | tr -s " \n" "  " >"$tmp/pdf2"
grep -qF "dev/build-runner" "$tmp/pdf2" || bad "pdf cordon all: dev/build-runner not listed"
grep -qF "changed only their number" "$tmp/pdf2" && bad "pdf cordon all: target-only VMIs counted, not listed"
run "report what-if json" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner -o json
cmp -s "$tmp/out" "$R/diff.json" || bad "diff.json differs from -o json"
# the report is of the snapshot after the change: findings.json says so
jq_is "report after" '.kind' kvscope-whatif
[ "$(jq -r '.vmis[] | select(.name == "dev/build-runner") | .verdict' "$R/findings.json")" = no-target ] ||
    bad "report: findings.json is not of the snapshot after the change"
# with -o json stdout stays the one document
run "report json stdout" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner --report "$R" -o json
jq_is "report json stdout" '.kind' kvscope-whatif
# written again over itself (its own diff.json is no foreign file), html only
run "report again" 1 what-if $S --cpu-model Icelake-Server --vmi dev/build-runner --report "$R" --format html
[ "$(ls "$R" | tr '\n' ' ')" = "diff.json report.html " ] || bad "report again: $(ls "$R" | tr '\n' ' ')"

# a diff: both snapshots' dates
edit $S "$tmp/old3" date 2026-09-30T08:00:00Z
edit $S "$tmp/new3" drop w4 cpu-feature.node.kubevirt.io/pku date 2026-10-31T10:00:00Z
run "report diff" 0 diff "$tmp/old3" "$tmp/new3" --report "$tmp/dr" --format html,pdf
has "$tmp/out" "report diff" "report: $tmp/dr/report.pdf"
section changes "$tmp/dr/report.html" >"$tmp/sec"
grep -qF "<span class=\"secno\">1</span>  Since the older snapshot</h2>" "$tmp/sec" || bad "diff report: no section 1"
grep -qF "taken 2026-09-30T08:00:00Z, the snapshot of this report 2026-10-31T10:00:00Z" "$tmp/sec" ||
    bad "diff report: not both dates"
grep -qF "<td class=\"name\">w4</td>" "$tmp/sec" || bad "diff report: node w4 not listed"
grep -qF "pku" "$tmp/sec" || bad "diff report: feature pku not listed"
pdftotext "$tmp/dr/report.pdf" - | tr -s " \n" "  " | grep -qF "2026-09-30T08:00:00Z" ||
    bad "diff report pdf: no older date"
dt="Difference: 2026-09-30T08:00:00Z → 2026-10-31T10:00:00Z"
grep -qF "<h1>$dt</h1>" "$tmp/dr/report.html" || bad "diff report: masthead not '$dt'"
grep -qF "<title>$dt: " "$tmp/dr/report.html" || bad "diff report: <title> not '$dt'"
pdftotext -f 3 -l 3 "$tmp/dr/report.pdf" - | head -1 | grep -qF "$dt" ||
    bad "diff report pdf: running head not '$dt'"
# three changes and more: the first two, then how many more
run "report what-if 3" 0 what-if $S --cordon w4 --uncordon w4 --cordon w3 --report "$tmp/wi3" --format html
grep -qF "<h1>What if: cordon w4; uncordon w4 and 1 more change</h1>" "$tmp/wi3/report.html" ||
    bad "report 3 changes: $(grep -o '<h1>[^<]*' "$tmp/wi3/report.html")"

# a foreign non-empty folder: exit 2, nothing written, no answer
mkdir -p "$tmp/foreign"
echo keep >"$tmp/foreign/notes.txt"
run "report foreign" 2 what-if $S --cordon w4 --report "$tmp/foreign"
has "$tmp/err" "report foreign" "not empty and not a kvscope report"
[ "$(ls "$tmp/foreign")" = notes.txt ] || bad "report foreign: wrote $(ls "$tmp/foreign")"
[ -s "$tmp/out" ] && bad "report foreign: an answer on stdout"
run "report foreign force" 0 what-if $S --cordon w4 --uncordon w4 --report "$tmp/foreign" --force --format json
[ "$(ls "$tmp/foreign" | tr '\n' ' ')" = "diff.json findings.json notes.txt " ] ||
    bad "report force: $(ls "$tmp/foreign" | tr '\n' ' ')"
run "report diff foreign" 2 diff $S $S --report "$tmp/foreign"

# --report is what-if's and diff's; its companions need it
run "report on check" 2 check $S --report "$tmp/x"
has "$tmp/err" "report on check" 'unknown option "--report"'
run "report on report" 2 report $S --report "$tmp/x"
has "$tmp/err" "report on report" 'unknown option "--report"'
run "format without report" 2 what-if $S --cordon w4 --format html
has "$tmp/err" "format without report" "--format, --pdf-detail and --force go with --report DIR"
run "force without report" 2 diff $S $S --force
[ -e "$tmp/x" ] && bad "a rejected --report created its folder"

# --fix: a group's fix applied as its text says
# issue 41: a recreate-claim-rwx fix that names no storage class (none
# in the input) says so, not "the fix is none"
cp -r samples/mixed "$tmp/nosc"
rm "$tmp/nosc/resources/storageclasses.storage.k8s.io.json"
run "fix without a storage class" 2 what-if "$tmp/nosc" --fix G2
has "$tmp/err" "recreate-claim-rwx without a class: why" \
    "kvscope: what-if: fix G2 (disk-not-shared, ceph-rbd): nothing to apply: it names no storage class (the input holds none that gives ReadWriteMany for the volume mode)"
lacks "$tmp/err" "no 'the fix is none' for a recreate-claim-rwx fix" \
    "the fix is none"
run "fix G4" 0 what-if $S --fix G4
has "$tmp/out" "fix G4" "fix G4 (no-cpu-target, C3): set-cpu-model Haswell-noTSX, as its fix says"
has "$tmp/out" "fix G4" "cpu-model Haswell-noTSX on 1 VMI (the VMIs of group G4)"
has "$tmp/out" "fix G4" "prod/web-0: no-target -> ok, targets 0 -> 3"
has "$tmp/out" "fix G4" "resolved no-cpu-target (CPU class: C3): 1 -> 0 VMIs"
has "$tmp/out" "fix G4" "after fix G4: 1 of its 1 VMI in no no-cpu-target group (fix.fixes 1)"
# G1's value is for the one VMI KubeVirt does not report LiveMigratable
run "fix G1" 0 what-if $S --fix G1 -o json
jq_is "fix G1" '.vmis | map(.name) | join(",")' "prod/files-rwo"
jq_is "fix G1" '.vmis[0].onDrain.after' "shutdown"
jq_is "fix G1" '.restarts' "1"
jq_is "fix G1" '.changes[-1]' "after fix G1: 1 of its 4 VMIs in no drain-block group (fix.fixes 1)"
run "fix G2" 0 what-if $S --fix G2 -o yaml
has "$tmp/out" "fix G2" "claims of ceph-rbd recreated ReadWriteMany on storage class nfs-csi"
run "fix commas" 0 what-if $S --fix G2,G4
has "$tmp/out" "fix commas" "prod/files-rwo: blocked -> ok"
has "$tmp/out" "fix commas" "prod/web-0: no-target -> ok"
run "fix all" 0 what-if $S --fix all -o json
jq_is "fix all" '[.changes[] | select(test("nothing to apply"))] | length' "1"
jq_is "fix all" '[.vmis[] | select(.verdict.after == "ok")] | length' "4"
jq_is "fix all" '[.groups[] | select(.change == "resolved") | .code] | join(",")' \
    "disk-not-shared,drain-shutdown,no-cpu-target,no-placement-target"
run "fix none" 2 what-if $S --fix G5
has "$tmp/err" "fix none" "fix G5 (no-cpu-target, EPYC-Genoa): nothing to apply"
run "fix none and one" 0 what-if $S --fix G5 --fix G4
has "$tmp/out" "fix none and one" "fix G5 (no-cpu-target, EPYC-Genoa): nothing to apply"
run "fix unknown" 2 what-if $S --fix G99
has "$tmp/err" "fix unknown" "--fix G99: no such group (the groups: G1, G2, G3, G4, G5, G6)"
run "fix report" 0 what-if $S --fix G4 --report "$tmp/fixrep" --format json
[ "$(jq -r '.vmis[] | select(.name == "prod/web-0") | .verdict' \
    "$tmp/fixrep/findings.json")" = ok ] || bad "fix report: web-0 not ok after"
# relax-placement and free-capacity: the edit the text names, applied
run "fix relax affinity" 0 what-if $S --fix G6
has "$tmp/out" "fix relax affinity" "relax node affinity on topology.kubernetes.io/zone on 1 VMI (the VMIs of group G6): takes effect after a restart, 1 running VMI restart"
has "$tmp/out" "fix relax affinity" "infra/ledger: no-target -> ok, targets 0 -> 2"
run "fix relax selector" 0 what-if samples/pitfalls --fix G13
has "$tmp/out" "fix relax selector" "relax nodeSelector kubernetes.io/hostname on 1 VMI"
has "$tmp/out" "fix relax selector" "db/pinned: no-target -> ok"
run "fix relax migration" 0 what-if samples/pitfalls --fix G14
has "$tmp/out" "fix relax migration" "relax addedNodeSelector of migration move-to-p6 on 1 VMI (the VMIs of group G14): no restart"
has "$tmp/out" "fix relax migration" "pit/move-to-gone: no-target -> ok"
run "fix free device" 0 what-if samples/pitfalls --fix G15
has "$tmp/out" "fix free device" "room freed on p1: 1 nvidia.com/GRID_T4-4Q"
has "$tmp/out" "fix free device" "resolved no-placement-target (placement: no room: no nvidia.com/GRID_T4-4Q): 1 -> 0 VMIs"
run "fix free room" 0 what-if samples/capacity --fix G2
has "$tmp/out" "fix free room" "room freed on c2: 922.0 MiB"
has "$tmp/out" "fix free room" "prod/stuck-vm: no-target -> ok, targets 0 -> 1"
run "fix relax anti" 0 what-if samples/capacity --fix G3
has "$tmp/out" "fix relax anti" "relax pod anti-affinity on 1 VMI"
has "$tmp/out" "fix relax anti" "prod/apart-vm: no-target -> ok"
run "fix peer relabel" 0 what-if samples/pitfalls --fix G16
has "$tmp/out" "fix peer relabel" "relabel-node host-model-cpu.node.kubevirt.io/Cascadelake-Server=true, as its fix says, assuming p4's host model is p1's, Cascadelake-Server: the two have the same CPU feature labels"
has "$tmp/out" "fix peer relabel" "after fix G16: 1 of its 1 VMI in no source-host-model-label-missing group (fix.fixes 1)"

# issue 41: what-if --fix all opens with the end result, and prints no
# line twice (two groups of one image re-pulled named their group)
for smp in mixed capacity deckhouse hostile pitfalls; do
	"$KVSCOPE" what-if samples/$smp --fix all -q >"$tmp/all" 2>/dev/null
	head -1 "$tmp/all" | grep -qE '^after every fix: [0-9]+ of [0-9]+ (VMIs|VirtualMachines) would not migrate, [0-9]+ worse$' &&
	    ok "fix all $smp: first line" ||
	    bad "fix all $smp: first line" "$(head -1 "$tmp/all")"
	dup=$(sort "$tmp/all" | uniq -d | head -3)
	[ -z "$dup" ] && ok "fix all $smp: no line twice" ||
	    bad "fix all $smp: no line twice" "$dup"
done
run "fix all mixed" 0 what-if $S --fix all
has "$tmp/out" "fix all mixed: end result" "after every fix: 1 of 11 VMIs would not migrate, 0 worse"

# every group of every sample: fix.fixes is what the after-state shows
mkdir -p "$tmp/proof"
python3 tests/e2e/fixproof.py "$KVSCOPE" "$tmp/proof" samples/mixed \
    samples/capacity samples/deckhouse samples/hostile samples/pitfalls \
    samples/same-host-model >"$tmp/proof.out" ||
    { bad "fixproof"; sed 's/^/    | /' "$tmp/proof.out"; }

test_done
