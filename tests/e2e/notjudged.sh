#!/usr/bin/env bash
# notjudged.sh - what is missing is never judged (issue #25, items 1-4):
# the VMIs of samples/mixed alone are all not-judged (notJudged names
# nodes), check exits 2 with the warning line; without the pods only the
# VMIs whose checks read pods are, and check's status counts the judged
# ones; without the StorageClasses the disk-not-shared fix says the input
# lacks them, never "none in this cluster"; convert records them missing.
set -u
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
want() {	# name, want, got
	if [ "$2" = "$3" ]; then ok "$1"
	else bad "$1" "got [$3], want [$2]"; fi
}
# samples/mixed's resources as plain kubectl output, without some files
without() {	# folder, file names to leave out...
	local d=$tmp/$1 f
	shift
	mkdir "$d"
	cp samples/mixed/resources/*.json "$d/"
	for f in "$@"; do rm "$d/$f"; done
}

# the VMIs alone: no VMI is judged
mkdir "$tmp/vmionly"
cp samples/mixed/resources/virtualmachineinstances.kubevirt.io.json \
    "$tmp/vmionly/"
rc=0
$KVSCOPE check "$tmp/vmionly" >"$tmp/out" 2>"$tmp/err" || rc=$?
want "vmionly: check exits 2" 2 "$rc"
grep -qx "kvscope: warning: the input has no nodes: no VMI is judged" \
    "$tmp/err" && ok "vmionly: the warning line" ||
    bad "vmionly" "stderr: $(head -c 300 "$tmp/err")"
want "vmionly: the count line" "0 of 11 running VMIs would not migrate; 11 \
not judged: the input lacks what their checks need" "$(head -n 1 "$tmp/out")"
want "vmionly: each line not-judged" 11 \
    "$(grep -c ': not-judged (not in the input: nodes' "$tmp/out")"
rc=0
$KVSCOPE check "$tmp/vmionly" -o json >"$tmp/doc" 2>/dev/null || rc=$?
want "vmionly: check -o json exits 2" 2 "$rc"
want "vmionly: check -o json summary" \
    '{"running":11,"wouldNotMigrate":0,"notJudged":11}' \
    "$(jq -c .summary "$tmp/doc")"
$KVSCOPE report "$tmp/vmionly" --format json -d "$tmp/r" >/dev/null 2>&1
f=$tmp/r/findings.json
want "vmionly: every running VMI not-judged" "11 11 11" \
    "$(jq -r '[.summary.running, .summary.notJudged,
    ([.vmis[] | select(.verdict == "not-judged")] | length)] | join(" ")' "$f")"
want "vmionly: notJudged names nodes" "nodes: not in the input; no source \
or target node can be judged" "$(jq -r '[.vmis[] | select(.verdict ==
    "not-judged") | .notJudged[] | select(.resource == "nodes") |
    .message] | unique | join("|")' "$f")"
want "vmionly: outcome none, onDrain null, no groups" "none null 0" \
    "$(jq -r '[([.vmis[] | select(.verdict == "not-judged") |
    .outcome.kind] | unique | join(",")), ([.vmis[] | select(.verdict ==
    "not-judged") | .onDrain] | unique | map(tostring) | join(",")),
    (.groups | length)] | join(" ")' "$f")"
want "vmionly: not-running keeps notJudged []" "[]" \
    "$(jq -c '[.vmis[] | select(.verdict == "not-running") |
    .notJudged[]]' "$f")"

# without the pods: per check.  Room (no-capacity) reads the pods for
# every VMI, so a VMI is judged only when a check that ran fails it:
# web-0 (a containerDisk, so its digest checks are skipped) is no-target
# by no-cpu-target, ledger by no-placement-target (which reads pods only
# for pod affinity); the other 7 are not judged.
without nopods pods.json
rc=0
$KVSCOPE check "$tmp/nopods" >"$tmp/out" 2>/dev/null || rc=$?
want "nopods: check exits 1 (judged failures)" 1 "$rc"
want "nopods: the count line" "4 of 11 running VMIs would not migrate; 7 \
not judged: the input lacks what their checks need" \
    "$(grep "running VMIs would not migrate" "$tmp/out")"
grep -qx "prod/web-0 on w1: no-target (no-cpu-target; not in the input: \
pods) \[LiveMigratable=True\]" "$tmp/out" &&
    ok "nopods: web-0 judged by the check that ran" ||
    bad "nopods: web-0" "$(grep web-0 "$tmp/out")"
$KVSCOPE report "$tmp/nopods" --format json -d "$tmp/np" >/dev/null 2>&1
want "nopods: verdicts per VMI" "dev/build-runner=not-judged \
dev/legacy-app=not-judged dev/win-app=not-judged infra/ledger=no-target \
prod/analytics=no-target prod/cache-0=not-judged prod/db-0=not-judged \
prod/db-1=not-judged prod/files-rwo=blocked prod/reporting=not-judged \
prod/web-0=no-target" "$(jq -r '[.vmis[] | select(.phase == "Running") |
    "\(.name)=\(.verdict)"] | join(" ")' "$tmp/np/findings.json")"
want "nopods: ledger's blocker, the checks skipped" \
    "no-placement-target|no-capacity,multiple-launcher-pods" "$(jq -r '.vmis[] |
    select(.name == "infra/ledger") | [.blockers[0].code,
    (.unchecked[0].checks | join(","))] | join("|")' "$tmp/np/findings.json")"
want "nopods: web-0's checks skipped" "pods:no-capacity,\
containerdisk-config-digest,containerdisk-no-digest,multiple-launcher-pods" "$(jq -r '.vmis[] |
    select(.name == "prod/web-0") | .unchecked[] |
    "\(.resource):\(.checks | join(","))"' "$tmp/np/findings.json")"
want "nopods: a judged VMI's notJudged stays []" "0" "$(jq '[.vmis[] |
    select(.verdict != "not-judged") | .notJudged[]] | length' \
    "$tmp/np/findings.json")"
want "nopods: summary counts" "1 3 7" "$(jq -r '[.summary.blocked,
    .summary["no-target"], .summary.notJudged] | join(" ")' \
    "$tmp/np/findings.json")"
rc=0
$KVSCOPE check -n dev "$tmp/nopods" >"$tmp/out" 2>/dev/null || rc=$?
want "nopods: check -n dev exits 2 (none judged)" 2 "$rc"
grep -q "^dev/build-runner on w5: not-judged (not in the input: pods)$" \
    "$tmp/out" && ok "nopods: dev/build-runner not judged" ||
    bad "nopods" "$(cat "$tmp/out")"

rc=0
$KVSCOPE check "$tmp/nopods" --drain w5 >/dev/null 2>"$tmp/err" || rc=$?
want "nopods: check --drain w5 fails on its not-judged VMI" 1 "$rc"
grep -qx "kvscope: check: 1 VMI on the drained nodes is not judged (the \
input lacks what its checks need): what the drain does with it is not known" \
    "$tmp/err" && ok "nopods: the drain's not-judged line" ||
    bad "nopods: drain" "$(cat "$tmp/err")"
rc=0
$KVSCOPE plan "$tmp/nopods" --drain w5 >/dev/null 2>"$tmp/err" || rc=$?
want "nopods: plan --drain w5 fails on its not-judged VMI" 1 "$rc"
grep -q "^kvscope: plan: 1 VMI on the drained nodes is not judged" \
    "$tmp/err" && ok "nopods: plan's not-judged line" ||
    bad "nopods: plan" "$(cat "$tmp/err")"

# without the StorageClasses: the fix says so
without nosc storageclasses.storage.k8s.io.json
rc=0
$KVSCOPE report "$tmp/nosc" --format json -d "$tmp/s" >/dev/null \
    2>"$tmp/err" || rc=$?
f=$tmp/s/findings.json
want "nosc: report exits 0" 0 "$rc"
want "nosc: prod/files-rwo judged as the rule says (VMI status)" blocked \
    "$(jq -r '.vmis[] | select(.name == "prod/files-rwo") | .verdict' "$f")"
fix=$(jq -r '.groups[] | select(.code == "disk-not-shared") | .fix.text' "$f")
case $fix in
"storage classes are not in the input; on the cluster, look for a class \
that gives ReadWriteMany Filesystem"*) ok "nosc: the fix names the input" ;;
*) bad "nosc: the fix" "$fix" ;;
esac
grep -q "none in this cluster" "$f" && bad "nosc" "none in this cluster" ||
    ok "nosc: never none in this cluster"
grep -qx "kvscope: warning: storageclasses.storage.k8s.io: not in the \
input; no storage class can be named for a fix" "$tmp/err" && ok "nosc: the warning line" ||
    bad "nosc: warning" "$(head -c 300 "$tmp/err")"
mkdir "$tmp/cv"
$KVSCOPE convert "$tmp/nosc" --output-file "$tmp/cv/s.tar.gz" >/dev/null
tar -xzf "$tmp/cv/s.tar.gz" -C "$tmp/cv"
want "convert: storageclasses missing" missing "$(jq -r '.resources[] |
    select(.resource == "storageclasses") | .status' "$tmp"/cv/*/manifest.json)"
$KVSCOPE check "$tmp/cv/s.tar.gz" 2>/dev/null | grep -q "storage classes \
are not in the input" && ok "converted: the fix names the input" ||
    bad "converted" "the fix does not name the input"

# DVP: the checks of a DVP VMI read its VirtualMachineOperations and the
# VirtualDisks behind its claims; without them it is not judged
dvp() {	# folder, file to leave out
	mkdir "$tmp/$1"
	cp samples/deckhouse/resources/*.json "$tmp/$1/"
	rm "$tmp/$1/$2.virtualization.deckhouse.io.json"
}
dvp novmop virtualmachineoperations
rc=0
$KVSCOPE check "$tmp/novmop" >"$tmp/out" 2>"$tmp/err" || rc=$?
want "novmop: check exits 1 (dev/vm-windows still judged blocked)" 1 "$rc"
grep -q "^prod/vm-busy on w2: not-judged (not in the input: \
virtualmachineoperations)$" "$tmp/out" && ok "novmop: vm-busy not judged" ||
    bad "novmop" "$(grep vm-busy "$tmp/out")"
grep -q "^dev/vm-windows on w4: blocked (tsc-frequency; not in the input: \
virtualmachineoperations)" "$tmp/out" &&
    ok "novmop: vm-windows judged" || bad "novmop" "vm-windows"
grep -q "^prod/vm-features on w5: no-target (no-cpu-target; not in the \
input: virtualmachineoperations)" "$tmp/out" &&
    ok "novmop: vm-features judged" || bad "novmop" "vm-features"
want "novmop: the count line" "2 of 11 running VirtualMachines would not \
migrate; 9 not judged: the input lacks what their checks need" \
    "$(grep "would not migrate" "$tmp/out")"
grep -q "^kvscope: warning: virtualmachineoperations.virtualization.\
deckhouse.io: not in the input" "$tmp/err" && ok "novmop: warning line" ||
    bad "novmop: warning" "$(head -c 300 "$tmp/err")"
$KVSCOPE report "$tmp/novmop" --format json -d "$tmp/dv" >/dev/null 2>&1
want "novmop: notJudged names virtualmachineoperations" \
    "virtualmachineoperations: not in the input; operations in progress \
cannot be judged" "$(jq -r '[.vmis[] | select(.name == "prod/vm-busy") |
    .notJudged[] | .message] | join("|")' "$tmp/dv/findings.json")"
dvp novdisk virtualdisks
$KVSCOPE check "$tmp/novdisk" >"$tmp/out" 2>/dev/null
grep -q "^prod/vm-local-disk on w1: not-judged (not in the input: \
virtualdisks)$" "$tmp/out" && ok "novdisk: vm-local-disk not judged" ||
    bad "novdisk" "$(grep vm-local-disk "$tmp/out")"
# DVP without its VirtualMachineClasses: a VM whose KVVMI names its CPU
# is judged (vm-features, no-cpu-target), and the fix says the classes
# are not in the input; one whose CPU comes from its class (vm-model,
# its KVVMI's cpu taken out) is not judged
dvp nocls virtualmachineclasses
f=internalvirtualizationvirtualmachineinstances.internal.virtualization.\
deckhouse.io.json
jq '(.items[] | select(.metadata.name == "vm-model") | .spec.domain) |=
    del(.cpu)' "$tmp/nocls/$f" >"$tmp/kvvmi" && mv "$tmp/kvvmi" "$tmp/nocls/$f"
cp -r "$tmp/nocls" "$tmp/cls"
cp samples/deckhouse/resources/virtualmachineclasses.*.json "$tmp/cls/"
$KVSCOPE report "$tmp/cls" --format json -d "$tmp/c1" >/dev/null 2>&1
want "classes: vm-model's CPU from its class" "ok Nehalem" \
    "$(jq -r '.vmis[] | select(.name == "prod/vm-model") |
    "\(.verdict) \(.cpu.model)"' "$tmp/c1/findings.json")"
$KVSCOPE report "$tmp/nocls" --format json -d "$tmp/c2" >/dev/null 2>&1
want "nocls: vm-model not judged, naming the classes" "not-judged \
virtualmachineclasses: not in the input; a CPU that comes from the VM's \
class cannot be judged" "$(jq -r '.vmis[] | select(.name ==
    "prod/vm-model") | "\(.verdict) \(.notJudged[0].message)"' \
    "$tmp/c2/findings.json")"
want "nocls: vm-features judged" no-target "$(jq -r '.vmis[] |
    select(.name == "prod/vm-features") | .verdict' "$tmp/c2/findings.json")"
want "nocls: the others as with the classes" "$(jq -r '[.vmis[] |
    select(.name != "prod/vm-model") | .verdict] | join(",")' \
    "$tmp/c1/findings.json")" "$(jq -r '[.vmis[] | select(.name !=
    "prod/vm-model") | .verdict] | join(",")' "$tmp/c2/findings.json")"
fix=$(jq -r '.groups[] | select(.code == "no-cpu-target") | .fix.text' \
    "$tmp/c2/findings.json")
case $fix in
"VirtualMachineClasses are not in the input; on the cluster, look for a \
class of type Model with spec.cpu.model "*) ok "nocls: the fix names the input" ;;
*) bad "nocls: the fix" "$fix" ;;
esac
case $fix in
*"the current class requires"*) bad "nocls: the fix names a class" "$fix" ;;
*) ok "nocls: the fix claims no class it cannot see" ;;
esac

# pods missing from a snapshot (samples/capacity): no room is claimed
cp -r samples/capacity "$tmp/capm"
rm "$tmp/capm/resources/pods.json"
jq '(.resources[] | select(.resource == "pods")) |= (.status = "missing" |
    del(.file) | del(.count) | del(.scope)) |
    .files |= map(select(.path != "resources/pods.json"))' \
    samples/capacity/manifest.json >"$tmp/capm/manifest.json"
rc=0
$KVSCOPE check "$tmp/capm" --drain c1 >"$tmp/out" 2>"$tmp/err" || rc=$?
want "capm: drain of c1 fails on its not-judged VMI" 1 "$rc"
grep -qx "Room on the targets not checked: pods are not in the input, so \
each VMI goes to the first of its targets (in a plan, of those drained \
before if any)." "$tmp/out" && ok "capm: the room note names the input" ||
    bad "capm: room note" "$(grep Room "$tmp/out")"
grep -q "launcher pods only" "$tmp/out" "$tmp/err" &&
    bad "capm" "says the snapshot holds launcher pods" ||
    ok "capm: no launcher-pods claim"
$KVSCOPE report "$tmp/capm" --format json -d "$tmp/cm" >/dev/null 2>&1
want "capm: no capacity group without the pods" 0 "$(jq '[.groups[] |
    select(.code == "no-capacity")] | length' "$tmp/cm/findings.json")"

# a KubeVirt input needs no DVP resource
$KVSCOPE report samples/mixed --format json -d "$tmp/kv" >/dev/null 2>&1
want "kubevirt: no DVP resource lacking" 0 "$(jq '[.vmis[] |
    .notJudged[], .unchecked[]] | length' "$tmp/kv/findings.json")"

test_done
