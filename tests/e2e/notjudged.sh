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
not judged: the input lacks what their checks need" "$(tail -n 1 "$tmp/out")"
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

# without the pods: only the VMIs whose checks read pods are not judged
without nopods pods.json
rc=0
$KVSCOPE check "$tmp/nopods" >"$tmp/out" 2>/dev/null || rc=$?
want "nopods: check exits 1 (judged failures)" 1 "$rc"
want "nopods: the count line" "3 of 11 running VMIs would not migrate; 3 \
not judged: the input lacks what their checks need" \
    "$(grep "running VMIs would not migrate" "$tmp/out")"
rc=0
$KVSCOPE check -n dev "$tmp/nopods" >"$tmp/out" 2>/dev/null || rc=$?
want "nopods: check -n dev exits 0 (none judged failing)" 0 "$rc"
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
input; storage classes not named" "$tmp/err" && ok "nosc: the warning line" ||
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
grep -q "^dev/vm-windows on w4: blocked (tsc-frequency)" "$tmp/out" &&
    ok "novmop: vm-windows judged" || bad "novmop" "vm-windows"
want "novmop: the count line" "1 of 11 running VirtualMachines would not \
migrate; 10 not judged: the input lacks what their checks need" \
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
# a KubeVirt input needs no DVP resource
$KVSCOPE report samples/mixed --format json -d "$tmp/kv" >/dev/null 2>&1
want "kubevirt: no DVP resource lacking" 0 "$(jq '[.vmis[] |
    .notJudged[]] | length' "$tmp/kv/findings.json")"

test_done
