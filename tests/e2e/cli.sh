#!/usr/bin/env bash
# tests/e2e/cli.sh - `kvscope check` and `kvscope explain` end to end, on
# directory snapshots this script writes, plus --help and --version.
#
# Environment: KVSCOPE = the kvscope binary under test (make check passes
# the sanitized one); defaults to ./kvscope.  Run from the repository root.
#
# The snapshot (docs/snapshot-format.md, directory form):
#   nodes  w1 w2 w3  Intel twins (w3 cordoned), a1 AMD, cp1 no KubeVirt
#   prod/ok-vm      on w2  host-model, migrates to w1          ok
#   prod/bridge-vm  on w1  no interface (default bridge) + RWO  blocked
#   prod/amd-vm     on a1  host-model, the only AMD node        no-target
#   dev/cd-vm       on w1  containerDisk with a config digest   will-fail
#   prod/stopped    -      Succeeded                            not judged
# Then, for every sample under samples/, check must print exactly the
# failing VMIs of its findings.json (needs jq).
set -u

. "$(dirname "$0")/lib.sh"
# answers compared, on the optimised binary (docs/testing.md: the same
# code runs under the sanitizers in the unit tests, samples, hostile,
# foreign and the fuzz harnesses, fuzz_pipeline's every view and writer)
KVSCOPE=${KVSCOPE_FAST:-$KVSCOPE}

# --- the snapshot ---------------------------------------------------------

V3="abm avx avx2 bmi1 bmi2 cmov cx16 cx8 f16c fma fpu fxsr lahf_lm lm mmx movbe pni popcnt sse sse2 sse4.1 sse4.2 ssse3 syscall xsave"

# labels KIND NAMES...: "kind.node.kubevirt.io/name": "true" lines
labels() {
	local kind=$1 n
	shift
	for n in "$@"; do
		printf ',\n        "%s.node.kubevirt.io/%s": "true"' "$kind" "$n"
	done
}

# node NAME VENDOR HOSTMODEL "FEATURES" "REQUIRED" "MODELS" [unschedulable]
node() {
	local name=$1 vendor=$2 hm=$3 feats=$4 req=$5 models=$6 unsched=${7:-false}
	# shellcheck disable=SC2086
	cat <<EOF
    {"apiVersion": "v1", "kind": "Node",
     "metadata": {"name": "$name", "labels": {
        "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": "$name",
        "kubevirt.io/schedulable": "true"$(labels machine-type q35)$(labels cpu-vendor "$vendor")$(labels host-model-cpu "$hm")$(labels cpu-feature $feats)$(labels host-model-required-features $req)$(labels cpu-model $models)$(labels cpu-model-migration $(printf '%s\n' $models "$hm" | sort -u))}},
     "spec": {"unschedulable": $unsched},
     "status": {"allocatable": {"cpu": "32", "memory": "64Gi"}}}
EOF
}

# vmi NS NAME UID NODE PHASE COND EXTRA_SPEC VOLUMES VOLSTATUS
vmi() {
	cat <<EOF
    {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
     "metadata": {"name": "$2", "namespace": "$1", "uid": "$3",
                  "labels": {"app": "$2"}},
     "spec": {"evictionStrategy": "LiveMigrate",
              "domain": {"cpu": {"model": "host-model"},
                         "memory": {"guest": "2Gi"},
                         "machine": {"type": "q35"},
                         "devices": {$7}},
              "volumes": [$8]},
     "status": {"phase": "$5", "nodeName": "$4",
                "conditions": [$6],
                "volumeStatus": [$9]}}
EOF
}

pod() {
	cat <<EOF
    {"apiVersion": "v1", "kind": "Pod",
     "metadata": {"name": "virt-launcher-$2", "namespace": "$1",
                  "creationTimestamp": "2026-10-01T10:00:00Z",
                  "labels": {"kubevirt.io": "virt-launcher",
                             "kubevirt.io/created-by": "$3"}},
     "spec": {"nodeName": "$4",
              "containers": [{"name": "compute",
                              "resources": {"requests": {"memory": "2300Mi"}}}]},
     "status": {"phase": "Running", "containerStatuses": [$5]}}
EOF
}

list() {
	local first=1 item
	printf '{"apiVersion": "v1", "kind": "List", "items": [\n'
	for item in "$@"; do
		[ $first = 1 ] || printf ',\n'
		first=0
		printf '%s' "$item"
	done
	printf '\n]}\n'
}

TRUE='{"type": "LiveMigratable", "status": "True"}'
ROOT_RWX='{"name": "root", "persistentVolumeClaim": {"claimName": "root"}}'
STATUS_RWX='{"name": "root", "persistentVolumeClaimInfo": {"claimName": "root", "accessModes": ["ReadWriteMany"]}}'
STATUS_RWO='{"name": "root", "persistentVolumeClaimInfo": {"claimName": "root", "accessModes": ["ReadWriteOnce"]}}'
NOPODNET='"autoattachPodInterface": false'
HEX=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

INTEL_FEATS="$V3 md-clear spec-ctrl vmx"
INTEL_MODELS="Westmere Haswell-noTSX"

# write_snapshot DIR full|good
write_snapshot() {
	local dir=$1 kind=$2 f files="" sep="" res=""
	mkdir -p "$dir/resources"
	list "$(node w1 Intel Skylake-Client-IBRS "$INTEL_FEATS" "md-clear spec-ctrl" "$INTEL_MODELS")" \
	     "$(node w2 Intel Skylake-Client-IBRS "$INTEL_FEATS" "md-clear spec-ctrl" "$INTEL_MODELS")" \
	     "$(node w3 Intel Skylake-Client-IBRS "$INTEL_FEATS" "md-clear spec-ctrl" "$INTEL_MODELS" true)" \
	     "$(node a1 AMD EPYC-Rome "$V3 svm" "svm" "Westmere EPYC-Rome")" \
	     '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "cp1"}}' \
	     >"$dir/resources/nodes.json"
	if [ "$kind" = good ]; then
		list "$(vmi prod ok-vm uid-ok w2 Running "$TRUE" "$NOPODNET" "$ROOT_RWX" "$STATUS_RWX")" \
		     >"$dir/resources/virtualmachineinstances.kubevirt.io.json"
		list "$(pod prod ok-vm uid-ok w2 "")" >"$dir/resources/pods.json"
	else
		list "$(vmi prod ok-vm uid-ok w2 Running "$TRUE" "$NOPODNET" "$ROOT_RWX" "$STATUS_RWX")" \
		     "$(vmi prod bridge-vm uid-br w1 Running \
			'{"type": "LiveMigratable", "status": "False", "reason": "InterfaceNotLiveMigratable"}' \
			"" "$ROOT_RWX" "$STATUS_RWO")" \
		     "$(vmi prod amd-vm uid-amd a1 Running "$TRUE" "$NOPODNET" "$ROOT_RWX" "$STATUS_RWX")" \
		     "$(vmi dev cd-vm uid-cd w1 Running "$TRUE" "$NOPODNET" \
			'{"name": "cd", "containerDisk": {"image": "registry.local/cd:1.0"}}' "")" \
		     "$(vmi prod stopped uid-st w1 Succeeded "$TRUE" "$NOPODNET" "$ROOT_RWX" "$STATUS_RWO")" \
		     ${twin:+"$(vmi dev ok-vm uid-ok2 w2 Running "$TRUE" "$NOPODNET" "$ROOT_RWX" "$STATUS_RWX")"} \
		     >"$dir/resources/virtualmachineinstances.kubevirt.io.json"
		list "$(pod prod ok-vm uid-ok w2 "")" \
		     "$(pod prod bridge-vm uid-br w1 "")" \
		     "$(pod prod amd-vm uid-amd a1 "")" \
		     "$(pod dev cd-vm uid-cd w1 "{\"name\": \"volumecd\", \"imageID\": \"sha256:$HEX\"}")" \
		     ${twin:+"$(pod dev ok-vm uid-ok2 w2 "")"} \
		     >"$dir/resources/pods.json"
	fi
	list '{"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt",
	       "metadata": {"name": "kubevirt", "namespace": "kubevirt"},
	       "spec": {"configuration": {"evictionStrategy": "LiveMigrate"}},
	       "status": {"phase": "Deployed"}}' \
	     >"$dir/resources/kubevirts.kubevirt.io.json"
	# every claim is in its VMI's volumeStatus; listed, so not lacking
	list >"$dir/resources/persistentvolumeclaims.json"
	list >"$dir/resources/storageclasses.storage.k8s.io.json"
	list >"$dir/resources/virtualmachines.kubevirt.io.json"	# none
	for f in nodes.json virtualmachineinstances.kubevirt.io.json \
	    pods.json kubevirts.kubevirt.io.json persistentvolumeclaims.json \
	    storageclasses.storage.k8s.io.json \
	    virtualmachines.kubevirt.io.json; do
		files="$files$sep{\"path\": \"resources/$f\", \"bytes\": $(stat -c %s "$dir/resources/$f"), \"sha256\": \"$(sha256sum "$dir/resources/$f" | cut -d' ' -f1)\"}"
		sep=", "
	done
	res='{"resource": "nodes", "group": "", "file": "resources/nodes.json", "status": "ok"},
	     {"resource": "pods", "group": "", "file": "resources/pods.json", "status": "ok"},
	     {"resource": "virtualmachineinstances", "group": "kubevirt.io", "file": "resources/virtualmachineinstances.kubevirt.io.json", "status": "ok"},
	     {"resource": "kubevirts", "group": "kubevirt.io", "file": "resources/kubevirts.kubevirt.io.json", "status": "ok"},
	     {"resource": "persistentvolumeclaims", "group": "", "file": "resources/persistentvolumeclaims.json", "status": "ok"},
	     {"resource": "storageclasses", "group": "storage.k8s.io", "file": "resources/storageclasses.storage.k8s.io.json", "status": "ok"},
	     {"resource": "virtualmachines", "group": "kubevirt.io", "file": "resources/virtualmachines.kubevirt.io.json", "status": "ok"}'
	cat >"$dir/manifest.json" <<EOF
{"kind": "kvscope-snapshot", "formatVersion": 1,
 "createdAt": "2026-10-31T09:12:44Z",
 "collector": {"name": "cli.sh", "version": "0"},
 "cluster": {"context": "e2e", "kubevirtVersion": "v1.9.0", "flavor": "kubevirt"},
 "resources": [$res],
 "files": [$files]}
EOF
}

snap=$tmp/snap
good=$tmp/good
write_snapshot "$snap" full
twin=1 write_snapshot "$tmp/twin" full	# also dev/ok-vm
write_snapshot "$good" good

# --- check ------------------------------------------------------------------

run "check" 1 check "$snap"
# issue 41: the count first, the groups after a blank line, then the VMI
# lines after another, the rules applied last
vmi_block() { awk '/^$/ { s = 1; b = ""; next } /^(judged by|rules version from) / { exit } s { b = b $0 "\n" } END { printf "%s", b }' "$1"; }
sed '/^$/,$d' "$tmp/out" >"$tmp/head"
lines "$tmp/head" "check" 1
vmi_block "$tmp/out" >"$tmp/vmis"
lines "$tmp/vmis" "check: VMI lines" 3
has "$tmp/out" "check" "groups, largest first:"
has "$tmp/out" "check" "fix change-binding (proven: fixes 1 of 1): "
has "$tmp/out" "check" "dev/cd-vm on w1: will-fail (containerdisk-config-digest) [LiveMigratable=True]"
has "$tmp/out" "check" "prod/amd-vm on a1: no-target (no-cpu-target) [LiveMigratable=True]"
has "$tmp/out" "check" "prod/bridge-vm on w1: blocked (disk-not-shared, network-pod-bridge)"
has "$tmp/out" "check" "3 of 4 running VMIs would not migrate"
lacks "$tmp/out" "check" "ok-vm"
lacks "$tmp/out" "check" "stopped"
sort -c "$tmp/vmis" 2>/dev/null || bad "check: VMI lines not sorted"

run "check --node w1" 1 check "$snap" --node w1
vmi_block "$tmp/out" >"$tmp/head"
lines "$tmp/head" "check --node w1" 2
has "$tmp/out" "check --node w1" "(2 selected)"

has "$tmp/out" "check --node w1" "2 of 2 running VMIs would not migrate"
lacks "$tmp/out" "check --node w1" "amd-vm"

run "check --groups" 1 check "$snap" --groups
has "$tmp/out" "check --groups" "groups, largest first:"
has "$tmp/out" "check --groups" "  VMIs: prod/bridge-vm"
# issue 41: --groups opens with the count, as check does
[ "$(head -1 "$tmp/out")" = "3 of 4 running VMIs would not migrate" ] &&
    ok "check --groups: the count first" ||
    bad "check --groups: first line" "$(head -1 "$tmp/out")"

run "check --node w1 --node a1" 1 check "$snap" --node w1 --node a1
has "$tmp/out" "check --node w1 --node a1" "3 of 3 running VMIs would not migrate"

run "check --node w2" 0 check "$snap" --node w2
lines "$tmp/out" "check --node w2" 3	# the count, the rules (whence, which)
has "$tmp/out" "check --node w2" "0 of 1 running VMI would not migrate"

run "check --node a1" 1 check "$snap" --node a1
has "$tmp/out" "check --node a1" "1 of 1 running VMI would not migrate"

run "check good" 0 check "$good"
has "$tmp/out" "check good" "0 of 1 running VMI would not migrate"

run "check --node nosuch" 2 check "$snap" --node nosuch
has "$tmp/err" "check --node nosuch" 'no node "nosuch" in the snapshot'
lines "$tmp/out" "check --node nosuch" 0

run "check without a snapshot" 2 check
has "$tmp/err" "check without a snapshot" "usage: kvscope check"
run "check, two snapshots" 2 check "$snap" "$good"
run "check, unknown option" 2 check "$snap" --bogus
run "check, missing snapshot" 2 check "$tmp/nothing-here"
has "$tmp/err" "check, missing snapshot" "$tmp/nothing-here"

# a member edited after the manifest was written
cp -r "$snap" "$tmp/edited"
sed -i 's/"2Gi"/"3Gi"/' "$tmp/edited/resources/virtualmachineinstances.kubevirt.io.json"
run "check, edited snapshot" 2 check "$tmp/edited"
has "$tmp/err" "check, edited snapshot" "virtualmachineinstances.kubevirt.io.json"
has "$tmp/err" "check, edited snapshot" "differs"

# --- explain ----------------------------------------------------------------

run "explain bridge-vm" 0 explain "$snap" prod/bridge-vm
out=$tmp/out
has "$out" "explain" "VMI prod/bridge-vm"
has "$out" "explain" "LiveMigratable False InterfaceNotLiveMigratable"
has "$out" "explain" "verdict blocked, outcome rejected after 0 s"
# the selector, from w1's host model
has "$out" "explain" "target pod node selector:"
has "$out" "explain" "  cpu-model-migration.node.kubevirt.io/Skylake-Client-IBRS=true"
has "$out" "explain" "  cpu-feature.node.kubevirt.io/md-clear=true"
has "$out" "explain" "  cpu-vendor.node.kubevirt.io/Intel=true"
has "$out" "explain" "  kubevirt.io/schedulable=true"
has "$out" "explain" "  affinity term 1: node-labeller.kubevirt.io/obsolete-host-model DoesNotExist"
# every node with the first constraint it fails
has "$out" "explain" "  no   a1: label cpu-feature.node.kubevirt.io/md-clear=true missing"
has "$out" "explain" "  no   cp1: label cpu-feature.node.kubevirt.io/md-clear=true missing"
has "$out" "explain" "  no   w1: source node"
has "$out" "explain" "  OK   w2"
has "$out" "explain" "  cpu  w3: cordoned: taint node.kubernetes.io/unschedulable:NoSchedule not tolerated"
[ "$(sed -n '/^nodes/,/^$/p' "$out" | grep -c '^  ')" = 5 ] || bad "explain: not one line per node"
# every blocker with its fix
has "$out" "explain" "blockers:"
has "$out" "explain" "  disk-not-shared                  volume root: PVC root is ReadWriteOnce"
has "$out" "explain" "  network-pod-bridge               no network is declared"
[ "$(sed -n '/^blockers:/,/^warnings:/p' "$out" | grep -c 'fix: ')" = 2 ] || bad "explain: not one fix per blocker"
has "$out" "explain" "fix: Move the disk to a ReadWriteMany PVC"
has "$out" "explain" "fix: Bind the pod network with masquerade"
has "$out" "explain" "warnings:"
has "$out" "explain" "  eviction-blocks-drain"

run "explain ok-vm" 0 explain "$snap" prod/ok-vm
has "$tmp/out" "explain ok-vm" "verdict ok, outcome migrates"
has "$tmp/out" "explain ok-vm" "  OK   w1"
has "$tmp/out" "explain ok-vm" "  no   w2: source node"
has "$tmp/out" "explain ok-vm" "blockers: none"
has "$tmp/out" "explain ok-vm" "warnings: none"
has "$tmp/out" "explain ok-vm" "LiveMigration, completion timeout 450 s, eviction LiveMigrate: a drain migrates it"

run "explain cd-vm" 0 explain "$snap" dev/cd-vm
has "$tmp/out" "explain cd-vm" "verdict will-fail, outcome pending-timeout after 900 s  (LiveMigratable says True: mismatch)"
has "$tmp/out" "explain cd-vm" "would pull registry.local/cd@sha256:$HEX"

run "explain amd-vm" 0 explain "$snap" prod/amd-vm
has "$tmp/out" "explain amd-vm" "verdict no-target, outcome unschedulable after 300 s"
has "$tmp/out" "explain amd-vm" "  no-cpu-target"

run "explain stopped" 0 explain "$snap" prod/stopped
has "$tmp/out" "explain stopped" "verdict not-running, outcome none"
lacks "$tmp/out" "explain stopped" "target pod node selector:"

run "explain unknown VMI" 2 explain "$snap" prod/nosuch
has "$tmp/err" "explain unknown VMI" 'no VMI "prod/nosuch" in the snapshot'
lines "$tmp/out" "explain unknown VMI" 0
# a NAME without namespace is looked up in every namespace
run "explain without namespace" 0 explain "$snap" bridge-vm
has "$tmp/out" "explain without namespace" "VMI prod/bridge-vm"
run "explain, missing argument" 2 explain "$snap"
has "$tmp/err" "explain, missing argument" "usage: kvscope explain"

# --- check agrees with findings.json on every sample ---------------------------

# One line per running VMI whose verdict is neither ok nor not-running, in
# the VMI order of findings.json, with its verdict and blocker codes.
if command -v jq >/dev/null; then
	for sample in samples/*/; do
		sample=${sample%/}
		[ -e "$sample/manifest.json" ] || continue
		name=$(basename "$sample")
		"$KVSCOPE" report "$sample" --format json --output-dir "$tmp/r-$name" \
		    >/dev/null 2>&1 || { bad "report $sample"; continue; }
		jq -r '.vmis[] | select(.verdict != "ok" and .verdict != "not-running")
		    | "\(.name) on \(.node): \(.verdict)" +
		      (if (.blockers | length) > 0 then
		         " (" + ([.blockers[].code] | unique | join(", ")) + ")" else "" end)' \
		    "$tmp/r-$name/findings.json" >"$tmp/want"
		run "check $sample" "$([ -s "$tmp/want" ] && echo 1 || echo 0)" \
		    check "$sample"
		# issue 41: the count first, then the groups, then one line
		# per VMI (a code once), the rules applied last
		vmi_block "$tmp/out" |
		    sed 's/ \[[A-Za-z]*=True\]$//' >"$tmp/got"
		diff -u "$tmp/want" "$tmp/got" >"$tmp/diff" ||
		    { bad "check $sample disagrees with findings.json"; cat "$tmp/diff"; }
		running=$(jq '[.vmis[] | select(.verdict != "not-running")] | length' \
		    "$tmp/r-$name/findings.json")
		head -n 1 "$tmp/out" | grep -qE "^$(wc -l <"$tmp/want") of $running running [A-Za-z]+ would not migrate\$" ||
		    bad "check $sample: summary line \"$(head -n 1 "$tmp/out")\""
		tail -n 1 "$tmp/out" | grep -q "^judged by the rules of KubeVirt v[0-9]" ||
		    bad "check $sample: the last line does not name the rules version: $(tail -n 1 "$tmp/out")"
		! grep -E '^[^ ]+ on [^ ]+: ' "$tmp/out" | grep -qE '\(([a-z-]+), \1[,)]' ||
		    bad "check $sample: a code twice on a VMI's line"
		[ "$name" = mixed ] && COLUMNS=80 "$KVSCOPE" check "$sample" 2>/dev/null |
		    awk 'length > 80 && !/^ *[^ ]+$/' >"$tmp/wide" && [ -s "$tmp/wide" ] &&
		    bad "check $sample: a line wider than 80 columns: $(head -1 "$tmp/wide")"
	done
else
	echo "jq not found: samples not cross-checked"
fi

# --- output formats, namespaces, selectors (issue 17) --------------------------

# json FILE EXPR WANT: python's value of EXPR over the JSON document in FILE
json() {
	local got
	got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>&1)
	if [ "$got" = "$3" ]; then
		ok "json $2"
	else
		bad "json $2" "got \"$got\", want \"$3\""
		head -c 600 "$1"
	fi
}

run "check -o json" 1 check "$snap" -o json
json "$tmp/out" 'd["kind"]' kvscope-check
json "$tmp/out" 'd["summary"]' \
    "{'running': 4, 'wouldNotMigrate': 3, 'notJudged': 0}"
json "$tmp/out" '[v["name"] for v in d["vmis"]]' "['dev/cd-vm', 'prod/amd-vm', 'prod/bridge-vm']"
json "$tmp/out" '[b["code"] for b in d["vmis"][2]["blockers"]]' "['disk-not-shared', 'network-pod-bridge']"
json "$tmp/out" 'd["vmis"][1]["cpuTargets"]' "{'set': 'N3', 'minus': ['a1']}"
json "$tmp/out" '[s for s in d["nodeSets"] if s["id"] == "N3"][0]["nodes"]' "['a1']"
json "$tmp/out" '[d["vmis"][1]["cpuTargetCount"], d["vmis"][1]["targetCount"]]' "[0, 0]"
json "$tmp/out" 'all(g["fix"]["text"] for g in d["groups"])' True
cp "$tmp/out" "$tmp/check.json"
if python3 -c 'import yaml' 2>/dev/null; then
	run "check -o yaml" 1 check "$snap" -o yaml
	python3 -c 'import json, sys, yaml; sys.exit(yaml.safe_load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
	    "$tmp/out" "$tmp/check.json" || bad "check -o yaml differs from -o json"
	has "$tmp/out" "check -o yaml" "kind: kvscope-check"
	has "$tmp/out" "check -o yaml" "status: 'True'"
else
	echo "python3 yaml not found: YAML compared by kind only"
	run "check -o yaml" 1 check "$snap" -o yaml
	has "$tmp/out" "check -o yaml" "kind: kvscope-check"
fi
run "check -o wide" 1 check "$snap" -o wide
has "$tmp/out" "check -o wide" "VMI"
has "$tmp/out" "check -o wide" "prod/ok-vm"
lines "$tmp/out" "check -o wide" 8	# and the rules (whence, which)
run "explain -o json" 0 explain "$snap" prod/bridge-vm -o json
json "$tmp/out" 'd["vmi"]["verdict"]' blocked
json "$tmp/out" 'sorted({d["vmi"]["cpuTargets"]["set"], d["vmi"]["targets"]["set"]}) == [s["id"] for s in d["nodeSets"]]' True
json "$tmp/out" '[(n["name"], n["fit"]) for n in d["nodes"]]' "[('a1', 'no'), ('cp1', 'no'), ('w1', 'no'), ('w2', 'ok'), ('w3', 'cpu')]"
run "models -o json" 0 models "$snap" --nodes w1,w2 -o json
json "$tmp/out" 'd["nodes"]' "['w1', 'w2']"
json "$tmp/out" '[m["model"] for m in d["common"]]' "['Haswell-noTSX', 'Westmere']"
run "pairs -o json" 0 pairs "$snap" -o json
json "$tmp/out" 'sorted(d)' "['cpuClasses', 'hostModelPairs', 'kind', 'warnings']"
json "$tmp/out" 'len(d["hostModelPairs"]) == len(d["cpuClasses"]) ** 2' True
run "pairs -o xml" 2 pairs "$snap" -o xml
has "$tmp/err" "pairs -o xml" 'kvscope: pairs: --output: unknown format "xml"'

run "check -n prod" 1 check "$snap" -n prod
has "$tmp/out" "check -n prod" "2 of 3 running VMIs would not migrate"
run "check -n prod,dev" 1 check "$snap" --namespace prod,dev
has "$tmp/out" "check -n prod,dev" "3 of 4 running VMIs would not migrate"
run "check -n dev -n prod" 1 check "$snap" -n dev -n prod
has "$tmp/out" "check -n dev -n prod" "3 of 4 running VMIs would not migrate"
run "check -A" 1 check "$snap" -A
has "$tmp/out" "check -A" "3 of 4 running VMIs would not migrate"
run "check -n nosuch" 2 check "$snap" -n nosuch
has "$tmp/err" "check -n nosuch" 'kvscope: check: --namespace: no VMI in namespace "nosuch"'
run "check --selector" 0 check "$snap" --selector app=ok-vm
has "$tmp/out" "check --selector" "0 of 1 running VMI would not migrate"
run "check -l app=bridge-vm,app=x" 2 check "$snap" -l app=bridge-vm,app=x
has "$tmp/err" "check -l no match" "kvscope: check: no VMIs found"
run "check --node w2,w1" 1 check "$snap" --node w2,w1
has "$tmp/out" "check --node w2,w1" "2 of 3 running VMIs would not migrate"
run "explain -n prod NAME" 0 explain "$snap" -n prod bridge-vm
has "$tmp/out" "explain -n prod NAME" "VMI prod/bridge-vm"
run "explain -n dev NAME" 2 explain "$snap" -n dev bridge-vm
has "$tmp/err" "explain -n dev NAME" 'kvscope: explain: no VMI "bridge-vm" in namespace dev'

# --- usage errors: each its own reason, then the usage line --------------------

# usage NAME REASON ARGS...: exit 2, two stderr lines, the reason then usage
usage() {
	local name=$1 reason=$2
	shift 2
	run "$name" 2 "$@"
	same "$name: first line" "$(sed -n 1p "$tmp/err")" "$reason"
	check "$name: usage line" grep -q '^usage: kvscope ' <(sed -n 2p "$tmp/err")
	lines "$tmp/err" "$name" 2
	lines "$tmp/out" "$name" 0
}
usage "pairs --bogus" 'kvscope: pairs: unknown option "--bogus"' pairs "$snap" --bogus
usage "check -x" 'kvscope: check: unknown option "-x"' check "$snap" -x
usage "check --format" 'kvscope: check: unknown option "--format"' check "$snap" --format json
usage "check --node" 'kvscope: check: option "--node" needs a value (LIST)' check "$snap" --node
usage "check -o" 'kvscope: check: option "-o" needs a value (FORMAT)' check "$snap" -o
usage "explain extra" 'kvscope: explain: unexpected argument "extra"' explain "$snap" prod/ok-vm extra
usage "explain no name" 'kvscope: explain: missing NAME' explain "$snap"
usage "report no snapshot" 'kvscope: report: missing SNAPSHOT' report
usage "check no snapshot" 'kvscope: check: missing SNAPSHOT' check
usage "check two snapshots" "kvscope: check: unexpected argument \"$good\"" check "$snap" "$good"
usage "format html,,pdf" 'kvscope: report: --format: empty element in "html,,pdf"' report "$snap" --format html,,pdf
usage "format doc" 'kvscope: report: --format: unknown value "doc" (one of: html svg pdf json csv all)' report "$snap" --format doc
usage "node w1," 'kvscope: check: --node: empty element in "w1,"' check "$snap" --node w1,
usage "selector pool in" 'kvscope: models: --selector: "pool in": found '"''"', expected: '"'('"'' models "$snap" --selector "pool in"
usage "color sometimes" 'kvscope: check: --color: unknown value "sometimes" (one of: auto always never)' check "$snap" --color sometimes
usage "-A and -n" 'kvscope: check: --all-namespaces and --namespace exclude each other' check "$snap" -A -n prod
usage "completion tcsh" 'kvscope: completion: unknown shell "tcsh" (bash, zsh or fish)' completion tcsh
run "models no node matches" 2 models "$snap" --selector pool=gpu
has "$tmp/err" "models no node matches" "kvscope: models: --selector: no node matches"
lines "$tmp/out" "models no node matches" 0
run "models --nodes w3,w1" 0 models "$snap" --nodes w3,w1
has "$tmp/out" "models --nodes w3,w1" "2 nodes: w1 w3"
# issue 41: a selector that catches the control plane gives "(none)"
# and says why
COLUMNS=80 run "models over the control plane" 0 models samples/mixed -l kubernetes.io/os=linux
has "$tmp/out" "models: (none) says why" \
    "  (none): 1 chosen node has no CPU labels of KubeVirt's node labeller (no"
has "$tmp/out" "models: (none) names the node" \
    "    only (-l kubevirt.io/schedulable=true): cp1"
run "models --nodes nosuch" 2 models "$snap" --nodes w1,nosuch
has "$tmp/err" "models --nodes nosuch" 'kvscope: models: --nodes: no node "nosuch" in the snapshot'

# --- colour, progress, width ----------------------------------------------------

ESC=$(printf '\033')
run "--color always" 1 check "$snap" --color always
has "$tmp/out" "--color always" "${ESC}[31mblocked${ESC}[0m"
run "not a terminal" 1 check "$snap"
lacks "$tmp/out" "not a terminal" "$ESC"
lines "$tmp/err" "not a terminal: no progress" 0
NO_COLOR=1 run "NO_COLOR + always" 1 check "$snap" --color always
has "$tmp/out" "NO_COLOR + always" "$ESC["
if command -v script >/dev/null; then
	# on a terminal (script(1) gives one): colour and progress
	tty() { script -qec "$*" /dev/null </dev/null >"$tmp/tty" 2>&1; }
	tty "env -u NO_COLOR $KVSCOPE check $snap -n prod"
	has "$tmp/tty" "tty" "${ESC}[31mblocked"
	has "$tmp/tty" "tty: progress" "kvscope: load: 5 nodes, 5 VMIs"
	has "$tmp/tty" "tty: progress rewritten in place" "${ESC}[K"
	tty "NO_COLOR=1 $KVSCOPE check $snap -n prod --quiet"
	lacks "$tmp/tty" "tty NO_COLOR" "${ESC}[31m"
	lacks "$tmp/tty" "tty --quiet" "kvscope: load:"
	tty "env -u NO_COLOR $KVSCOPE check $snap --color never"
	lacks "$tmp/tty" "tty --color never" "${ESC}[31m"
else
	echo "script(1) not found: terminal colour and progress not tested"
fi

# long lists: wrapped to COLUMNS, cut with "... and N more", whole with --all
COLUMNS=60 run "pairs wrapped" 0 pairs samples/mixed
[ "$(sed -n '/^refused pairs:/,$p' "$tmp/out" | awk 'length > 60' | wc -l)" = 0 ] ||
    bad "pairs: refused-pair lines wider than COLUMNS=60"
has "$tmp/out" "pairs wrapped" "... and "
COLUMNS=60 run "pairs --all" 0 pairs samples/mixed --all
lacks "$tmp/out" "pairs --all" "... and "
[ "$(grep -o 'cpu-feature.node.kubevirt.io/[a-z0-9_.-]*' "$tmp/out" | wc -l)" -gt \
  "$(COLUMNS=60 "$KVSCOPE" pairs samples/mixed | grep -o 'cpu-feature.node.kubevirt.io/[a-z0-9_.-]*' | wc -l)" ] ||
    bad "pairs --all: not more labels than the cut list"

# --- help and version ---------------------------------------------------------

run "--version" 0 --version
grep -qE '^kvscope [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" || bad "--version: $(cat "$tmp/out")"
run "--help" 0 --help
has "$tmp/out" "--help: what a SNAPSHOT may be" \
    "or - for any of these on standard input."
has "$tmp/out" "--help: kubectl files" "kubectl get -o json|yaml file"
cmds=$(sed -n '/^commands:/,/^$/p' "$tmp/out" | awk 'NR > 1 && NF { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 5 ] || bad "--help lists too few commands: $cmds"
for c in $cmds; do
	run "$c --help" 0 "$c" --help
	has "$tmp/out" "$c --help" "usage: kvscope $c"
	run "$c -h" 0 "$c" -h
done
run "no command" 2
run "unknown command" 2 frobnicate
has "$tmp/err" "unknown command" 'unknown command "frobnicate"'

# --- issue 30: -o is the format everywhere ---------------------------------

# one_line NAME TEXT: exit 2 was checked; stderr is exactly this one line
one_line() {
	same "$1: stderr" "$(cat "$tmp/err")" "$2"
}
run "report -o json -d" 0 report "$snap" -o json -d "$tmp/r30" -q
has "$tmp/out" "report -o json -d" "$tmp/r30/findings.json"
lines "$tmp/out" "report -o json -d: only findings.json" 1
run "report --output-dir=" 0 report "$snap" --output=json,csv \
    --output-dir="$tmp/r30b" -q
lines "$tmp/out" "report -o json,csv" 3
run "report -o DIR (old)" 2 report "$snap" -o "$tmp/r30c"
one_line "report -o DIR (old)" "kvscope: report: --output: \"$tmp/r30c\" is no format (html, svg, pdf, json, csv or all); the folder to write into is --output-dir DIR (-d DIR)"
[ ! -e "$tmp/r30c" ] || bad "report -o DIR (old): wrote the folder"
python3 tests/foreign/gen.py "$good" "$tmp/fg" >/dev/null 2>&1 ||
    python3 tests/foreign/gen.py samples/mixed "$tmp/fg" >/dev/null
mkdir -p "$tmp/c30" "$tmp/c30f"
run "convert IN OUT" 0 convert "$tmp/fg/plain" "$tmp/c30/s.tar.gz"
[ -s "$tmp/c30/s.tar.gz" ] || bad "convert IN OUT: no snapshot written"
run "convert -f" 0 convert "$tmp/fg/plain" -f "$tmp/c30f/s.tar.gz"
cmp -s "$tmp/c30/s.tar.gz" "$tmp/c30f/s.tar.gz" || bad "convert -f differs"
run "convert -o (old)" 2 convert "$tmp/fg/plain" -o "$tmp/c30o.tar.gz"
one_line "convert -o (old)" "kvscope: convert: -o is no longer accepted: the snapshot to write is --output-file FILE (-f FILE) or the second argument"
run "convert --output (old)" 2 convert "$tmp/fg/plain" --output="$tmp/x"
has "$tmp/err" "convert --output (old)" "kvscope: convert: --output is no longer accepted"
run "convert no SNAP" 2 convert "$tmp/fg/plain"
has "$tmp/err" "convert no SNAP" "kvscope: convert: missing SNAP"
run "completion: report -o formats" 0 completion bash
has "$tmp/out" "completion report -o" 'report:-o|report:--output) COMPREPLY=($(compgen -W "html svg pdf json csv all"'
lacks "$tmp/out" "completion: convert -o" 'convert) opts="-o'

# --- issue 30: label selectors, -o=FORMAT, commas, bare names --------------

# sel NAME WANT_RC SUMMARY SELECTOR: check -l SELECTOR ends in SUMMARY
sel() {
	run "check -l $4" "$2" check "$snap" -l "$4"
	has "$tmp/out" "check -l $4" "$3"
}
sel "!=" 1 "2 of 3 running VMIs would not migrate" 'app!=bridge-vm'
sel "==" 0 "0 of 1 running VMI would not migrate" 'app==ok-vm'
sel "in" 1 "1 of 2 running VMIs would not migrate" 'app in (ok-vm, amd-vm)'
sel "notin" 1 "2 of 2 running VMIs would not migrate" 'app notin (ok-vm,amd-vm)'
sel "exists" 1 "3 of 4 running VMIs would not migrate" 'app'
sel "AND" 1 "1 of 1 running VMI would not migrate" 'app,app in (amd-vm,x),app!=ok-vm'
sel "!key and =" 1 "1 of 1 running VMI would not migrate" '!nolabel,app=cd-vm'
run "check -l app in (" 2 check "$snap" -l 'app in (ok-vm'
has "$tmp/err" "check -l app in (" "kvscope: check: --selector: \"app in (ok-vm\": found '', expected: ',' or ')'"
run "check -l bad key" 2 check "$snap" -l 'a/b/c=d'
has "$tmp/err" "check -l bad key" 'key "a/b/c": the prefix must be a DNS subdomain'
run "check -l bad value" 2 check "$snap" -l 'app=-x'
has "$tmp/err" "check -l bad value" 'value "-x" of app'
run "check -l !k=v" 2 check "$snap" -l '!app=x'
has "$tmp/err" "check -l !k=v" "found '=', expected: ',' or 'end of string'"
run "--drain-selector exists" 1 check "$snap" --drain-selector \
    cpu-vendor.node.kubevirt.io/AMD
has "$tmp/out" "--drain-selector exists" "prod/amd-vm"
lacks "$tmp/out" "--drain-selector exists" "prod/ok-vm"
run "-o=json" 1 check "$snap" -o=json
json "$tmp/out" 'd["kind"]' kvscope-check
run "--namespace=prod -ojson" 1 check "$snap" --namespace=prod -ojson
json "$tmp/out" 'd["summary"]["running"]' 3
run "what-if -n a,b" 1 what-if "$snap" --eviction-strategy None -n prod,dev -o json
has "$tmp/out" "what-if -n a,b" "on 5 VMIs"
run "what-if --vmi bare,list" 1 what-if "$snap" --eviction-strategy None \
    --vmi ok-vm,dev/cd-vm -o json
has "$tmp/out" "what-if --vmi bare" "on 2 VMIs"
run "what-if -l in" 1 what-if "$snap" --eviction-strategy None \
    -l 'app in (ok-vm,cd-vm)' -o json
has "$tmp/out" "what-if -l in" "on 2 VMIs"
run "what-if --vmi ambiguous" 2 what-if "$tmp/twin" --cpu-model Westmere --vmi ok-vm
has "$tmp/err" "what-if --vmi ambiguous" "--vmi ok-vm: 2 VMIs have that name (dev/ok-vm, prod/ok-vm): give NAMESPACE/NAME"
run "explain ambiguous" 2 explain "$tmp/twin" ok-vm
has "$tmp/err" "explain ambiguous" 'kvscope: explain: 2 VMIs are named "ok-vm" (dev/ok-vm, prod/ok-vm): give NAMESPACE/NAME or --namespace'

# --- issue 30: help and errors from the one table ---------------------------

"$KVSCOPE" completion bash >"$tmp/comp.bash"
for c in report check plan explain models pairs what-if diff completion convert; do
	h=$("$KVSCOPE" "$c" --help | grep -oE '(^|[ ,])--[a-z-]+' | tr -d ' ,' | sort -u | tr '\n' ' ')
	tb=$(grep "^	$c) opts=" "$tmp/comp.bash" | grep -oE -- '--[a-z-]+' | grep -vx -- '--help' | sort -u | tr '\n' ' ')
	[ "$h" = "$tb" ] || bad "$c --help lists \"$h\", the option table \"$tb\""
done
run "help check" 0 help check
"$KVSCOPE" check --help >"$tmp/help2"
cmp -s "$tmp/out" "$tmp/help2" || bad "kvscope help check differs from check --help"
run "help nosuch" 2 help chek
has "$tmp/err" "help nosuch" 'kvscope: unknown command "chek" (did you mean check?)'
usage "--namspace" 'kvscope: check: unknown option "--namspace" (did you mean --namespace?)' check "$snap" --namspace prod
usage "--drian" 'kvscope: plan: unknown option "--drian" (did you mean --drain?)' plan "$snap" --drian w1
usage "--zzz" 'kvscope: check: unknown option "--zzz"' check "$snap" --zzz
run "unknown command" 2 chek "$snap"
has "$tmp/err" "unknown command" 'kvscope: unknown command "chek" (did you mean check?)'
usage "explain -o wide" 'kvscope: explain: --output: unknown format "wide" (one of: text json yaml)' explain "$snap" ok-vm -o wide
usage "models -o wide" 'kvscope: models: --output: unknown format "wide" (one of: text json yaml)' models "$snap" -o wide
run "check --all" 1 check "$snap" --all
run "--help exit status" 0 --help
has "$tmp/out" "--help exit status" "a drain (check --drain, plan) would stop or block one, or what-if or diff found something worse"
run "check -n default (exists, no VMI)" 2 check samples/mixed -n default
has "$tmp/err" "check -n default" "kvscope: check: no VMIs found"
lines "$tmp/out" "check -n default: no stdout" 0
run "check -n default -o json" 2 check samples/mixed -n default -o json
json "$tmp/out" 'd["summary"]["running"]' 0
run "check -l none" 2 check samples/mixed -l app=nosuch
has "$tmp/err" "check -l none" "kvscope: check: no VMIs found"
# --- issue 41: kubectl habits ---------------------------------------------------
# a selector kubectl refuses is a usage error; "-l=x" is "-l x", "-l '=x'"
# is no selector (k8s.io/apimachinery selector.go parse: "found '=',
# expected: !, identifier"); "app in ()" is valid there (parseValues
# reads "()" as the set {""}) and here
usage "-l '=x'" 'kvscope: check: --selector: "=x": found '"'='"', expected: identifier' check samples/mixed -l '=x'
run "-l=app=nosuch" 2 check samples/mixed -l=app=nosuch
has "$tmp/err" "-l=app=nosuch: attached" "kvscope: check: no VMIs found"
run "-l 'app in ()'" 2 check samples/mixed -l 'app in ()'
has "$tmp/err" "-l 'app in ()': valid, matches none" "kvscope: check: no VMIs found"
# an input without VMIs: nothing judged, exit 2 (not "0 of 0", exit 0)
mkdir "$tmp/novmi"
cp samples/mixed/resources/nodes.json samples/mixed/resources/pods.json "$tmp/novmi/"
run "no VMIs in the input" 2 check "$tmp/novmi"
has "$tmp/err" "no VMIs in the input" "kvscope: check: no VMIs found"
lacks "$tmp/out" "no VMIs in the input: no 0 of 0" "0 of 0"
# a write error on stdout: one line, exit 2
"$KVSCOPE" check samples/mixed >/dev/full 2>"$tmp/err"
same "stdout full: exit" "$?" 2
lines "$tmp/err" "stdout full: one line" 1
has "$tmp/err" "stdout full" "kvscope: stdout: write error: No space left on device"
usage "allow-shutdown and allow-restart" "kvscope: check: --allow-shutdown and --allow-restart contradict each other: give one (--allow-shutdown accepts every stop, --allow-restart only those their VirtualMachine starts again)" check samples/mixed --drain w2 --allow-shutdown --allow-restart
run "--max-unavailable capped" 1 plan samples/mixed --drain-selector kubernetes.io/os=linux --max-unavailable 99
has "$tmp/err" "--max-unavailable capped: note" "kvscope: plan: note: --max-unavailable 99 is more than the pool's 7 nodes: 7 at a time"
has "$tmp/out" "--max-unavailable capped" "Rolling drain of the pool kubernetes.io/os=linux: 7 nodes, 7 at a time,"
run "explain: did you mean" 2 explain samples/mixed prod/web
has "$tmp/err" "explain: did you mean" 'kvscope: explain: no VMI "prod/web" in the snapshot (give NAMESPACE/NAME, or NAME with --namespace); did you mean prod/web-0?'
run "explain: did you mean (name)" 2 explain samples/mixed web
has "$tmp/err" "explain: did you mean (name)" "did you mean web-0?"
run "check --drain --groups" 1 check samples/mixed --drain w3 --groups
has "$tmp/out" "check --drain --groups" "VMIs: infra/ledger"
lacks "$tmp/out" "check --drain --groups" "kubectl drain of"
lacks "$tmp/out" "check --drain --groups: only the VMIs it holds" "prod/db-0"

# --- issue 30: one document answers: the groups its VMIs refer to -----------

run "check -o json groups" 1 check samples/mixed -o json
json "$tmp/out" '{x for v in d["vmis"] for x in v["groups"]} <= {g["id"] for g in d["groups"]} and len(d["groups"]) > 0' True
# issue 28: every group the text lists, a drain-shutdown one of VMIs that
# migrate (not in "vmis") too
json "$tmp/out" '[g["id"] for g in d["groups"]]' "['G1', 'G2', 'G3', 'G4', 'G5', 'G6']"
json "$tmp/out" 'all(g["fix"]["text"] for g in d["groups"])' True
cp "$tmp/out" "$tmp/check.json"
run "check text groups" 1 check samples/mixed
same "check -o json: the text's groups" \
    "$(python3 -c 'import json, sys; print(" ".join(g["id"] for g in json.load(open(sys.argv[1]))["groups"]))' "$tmp/check.json")" \
    "$(grep -o '^G[0-9]* ' "$tmp/out" | tr -d ' ' | paste -sd' ')"
run "explain -o yaml groups" 0 explain samples/mixed infra/ledger -o json
json "$tmp/out" '[g["id"] for g in d["groups"]] == d["vmi"]["groups"] and len(d["groups"]) > 0' True
run "check --drain -o json groups" 1 check samples/mixed --drain w3 -o json
json "$tmp/out" '[g["id"] for g in d["groups"]]' "['G1', 'G6']"
run "plan -o json groups" 1 plan samples/mixed --drain w3 -o json
json "$tmp/out" '[g["id"] for g in d["groups"]]' "['G1', 'G6']"

# --- issue 30: a screen-sized answer on a terminal ----------------------------

run "explain: working nodes first" 0 explain samples/mixed prod/db-0
[ "$(sed -n '/^nodes/{n;p;}' "$tmp/out" | awk '{print $1}')" = OK ] ||
    bad "explain: the first node listed does not work: $(sed -n '/^nodes/,/^$/p' "$tmp/out")"
if command -v script >/dev/null; then
	nocol() { sed 's/\x1b\[[0-9;]*[mK]//g; s/\r$//' "$1"; }
	script -qec "env COLUMNS=100 $KVSCOPE check $snap -q" /dev/null </dev/null >"$tmp/tty"
	[ "$(nocol "$tmp/tty" | sed -n 1p)" = "3 of 4 running VMIs would not migrate" ] ||
	    bad "tty check: the summary is not first: $(nocol "$tmp/tty" | head -3)"
	[ "$(nocol "$tmp/tty" | grep -n 'prod/bridge-vm on' | cut -d: -f1)" -gt \
	  "$(nocol "$tmp/tty" | grep -n '^G1 ' | cut -d: -f1)" ] ||
	    bad "tty check: the VMI lines come before the groups"
	big=$tmp/big.tar.gz
	if [ -n "${SHARED:-}" ] && python3 tools/gen-large.py --nodes 500 \
	    --vmis 10000 --seed 1 --shared "$SHARED" --out "$big" >/dev/null 2>&1; then
		# the optimised build: the same code, without ASan's 3 minutes
		rel=./kvscope; [ -x "$rel" ] || rel=$KVSCOPE
		script -qec "env COLUMNS=100 $rel check $big -q" /dev/null \
		    </dev/null >"$tmp/bigtty"
		nocol "$tmp/bigtty" >"$tmp/bigtty.txt"
		n=$(wc -l <"$tmp/bigtty.txt")
		[ "$n" -le 200 ] || bad "10,000 VMIs on a 100-column tty: $n lines (at most 200)"
		w=$(awk '{ if (length > m) m = length } END { print m }' "$tmp/bigtty.txt")
		[ "$w" -le 400 ] || bad "10,000 VMIs on a tty: a line of $w characters (at most 400)"
		has "$tmp/bigtty.txt" "tty: cut per verdict" "more blocked (--all, or -o wide | less)"
		has "$tmp/bigtty.txt" "tty: node lists cut" " in all)"
		! grep -E "more and [0-9]+ more" "$tmp/bigtty.txt" ||
		    bad "10,000 VMIs on a tty: a list cut twice, two counts"
		"$rel" check "$big" -q >"$tmp/bigpipe"
		bad=$(grep -E '^[0-9]+ of [0-9]+ running VMIs would not migrate$' "$tmp/bigpipe" | cut -d' ' -f1)
		[ "$(grep -cE '^[^ ]+/[^ ]+ on [^ ]+: ' "$tmp/bigpipe")" = "$bad" ] ||
		    bad "piped check at 10,000: not one line per failing VMI ($bad)"
		w=$(awk '{ if (length > m) m = length } END { print m }' "$tmp/bigpipe")
		[ "$w" -le 1000 ] || bad "piped check at 10,000: a line of $w characters"
		echo "10,000 VMIs: tty $n lines, piped lines at most $w characters"
	else
		echo "tools/gen-large.py (SHARED) unavailable: the 10,000-VMI screen not tested"
	fi
fi

# --- issue 30: -o junit for CI gates, --fail-on -------------------------------

# junit NAME FILE [FAILING...]: valid JUnit (tests/e2e/junit_check.py)
junit() {
	local name=$1
	shift
	if python3 tests/e2e/junit_check.py "$@" 2>"$tmp/jerr"; then
		ok "$name"
	else
		bad "$name" "$(tail -1 "$tmp/jerr")"
		head -20 "$1"
	fi
}
run "check -o junit" 1 check "$snap" -o junit
junit "check -o junit" "$tmp/out" dev/cd-vm prod/amd-vm prod/bridge-vm
has "$tmp/out" "check -o junit: skipped" '<skipped message="not running: not judged"/>'
has "$tmp/out" "check -o junit: the fix" "fix "
run "check --drain -o junit" 1 check "$snap" --drain w1 -o junit
junit "check --drain -o junit" "$tmp/out" dev/cd-vm prod/bridge-vm
has "$tmp/out" "check --drain junit message" 'message="holds on the drain of w1'
run "plan -o junit" 1 plan "$snap" --drain w1,a1 -o junit
junit "plan -o junit" "$tmp/out" dev/cd-vm prod/amd-vm prod/bridge-vm
run "check --fail-on code" 1 check "$snap" -o junit --fail-on disk-not-shared
junit "check --fail-on code" "$tmp/out" prod/bridge-vm
run "check --fail-on verdict, text" 0 check "$snap" --fail-on stuck
run "check --drain --fail-on migrate" 1 check "$snap" --drain w2 --fail-on migrate -o junit
junit "check --drain --fail-on" "$tmp/out" prod/ok-vm
run "check --fail-on bogus" 2 check "$snap" --fail-on bogus
has "$tmp/err" "--fail-on bogus" 'kvscope: check: --fail-on: "bogus" is no verdict'
run "what-if -o junit" 1 what-if "$snap" --eviction-strategy None -n prod,dev -o junit
junit "what-if -o junit" "$tmp/out" prod/ok-vm
has "$tmp/out" "what-if junit: what got worse" 'message="after the change: ok; on a drain: shutdown (was migrate); adds eviction-shutdown" type="worse"'
has "$tmp/out" "what-if junit: the fix" "fix set-eviction-strategy (proven: fixes "
has "$tmp/out" "what-if junit: skipped" '<skipped message="not running after the change: not judged"/>'
run "what-if --fail-on" 1 what-if "$snap" --eviction-strategy None -n prod,dev -o junit --fail-on worse,blocked
junit "what-if --fail-on worse,blocked" "$tmp/out" prod/ok-vm prod/bridge-vm
has "$tmp/out" "what-if --fail-on codes" "disk-not-shared: volume root"
run "what-if --fail-on, text" 0 what-if "$snap" --eviction-strategy None -n prod,dev --fail-on stuck
run "what-if --fail-on bogus" 2 what-if "$snap" --cordon w1 --fail-on bogus
has "$tmp/err" "what-if --fail-on bogus" 'kvscope: what-if: --fail-on: "bogus" is no "worse", verdict'
usage "explain -o junit" 'kvscope: explain: --output: unknown format "junit" (one of: text json yaml)' explain "$snap" ok-vm -o junit

# --- issue 30: words and colour ------------------------------------------------

run "drain-shutdown not green" 1 check samples/mixed --color always
has "$tmp/out" "drain-shutdown yellow" "${ESC}[33mdrain-shutdown"
lacks "$tmp/out" "drain-shutdown not green" "${ESC}[32mdrain-"
run "nothing to move" 1 check "$snap" --drain a1
has "$tmp/out" "nothing to move" "a1: 1 VMI, 0 migrate, 0 stop, 1 block, 0 external; nothing to move"
run "1 migrates" 0 check "$snap" --drain w2
has "$tmp/out" "1 migrates" "; 1 migrates in 4-12 s"
run "no JSON key in prose" 0 explain "$snap" prod/amd-vm
lacks "$tmp/out" "no JSON key in prose" "namedModels"
has "$tmp/out" "no JSON key: words" "(the report's table of named models and their trade-offs, or kvscope models SNAPSHOT, lists them)"
run "durations" 0 explain "$snap" prod/ok-vm
lacks "$tmp/out" "durations: one style" "450s"
if command -v scdoc >/dev/null && command -v man >/dev/null; then
	scdoc <docs/man/kvscope.1.scd >"$tmp/kvscope.1"
	MANWIDTH=200 man -l "$tmp/kvscope.1" 2>/dev/null | col -b >"$tmp/man.txt"
	sed -n '/^EXAMPLES/,/^SEE ALSO/p' "$tmp/man.txt" |
	    grep -qE '^[[:space:]]+kvscope check cluster.tar.gz --drain worker-3,worker-4[[:space:]]*$' ||
	    { bad "man EXAMPLES: not one example per line"; sed -n '/^EXAMPLES/,/^SEE ALSO/p' "$tmp/man.txt"; }
else
	echo "scdoc or man missing: the man page's EXAMPLES not rendered"
fi
# DVP words in DVP mode (samples/deckhouse, flavor deckhouse): the
# text views say VirtualMachine, never VMI
D=samples/deckhouse
: >"$tmp/dvp"
for args in "check $D" "check $D -o wide" "check $D --groups" \
    "check $D --drain w4" "check $D --drain w4 --groups" \
    "plan $D --drain w1,w4" "explain $D prod/vm-features" \
    "explain $D dev/vm-windows" "explain $D nosuch" "check $D -n nosuch"; do
	# shellcheck disable=SC2086
	"$KVSCOPE" $args -q >>"$tmp/dvp" 2>&1
done
! grep -nwE 'VMIs?' "$tmp/dvp" ||
    bad "DVP words: VMI in the text of a DVP snapshot"
"$KVSCOPE" what-if "$D" --cpu-model Westmere -q >"$tmp/dvpw" 2>&1
"$KVSCOPE" what-if "$D" --cpu-model Westmere --vmi nosuch -q >>"$tmp/dvpw" 2>&1
! grep -nwE 'VMIs?' "$tmp/dvpw" ||
    bad "DVP words: VMI in what-if's text of a DVP snapshot"
has "$tmp/dvpw" "DVP what-if" "cpu-model Westmere on 11 VirtualMachines (every VirtualMachine): takes effect after a restart, 11 running VirtualMachines restart"
has "$tmp/dvpw" "DVP what-if restarts" "restarts: 11 running VirtualMachines"
has "$tmp/dvpw" "DVP what-if --vmi" "--vmi nosuch: no VirtualMachine of that name"
has "$tmp/dvp" "DVP wide head" "VIRTUALMACHINE "
has "$tmp/dvp" "DVP --groups" "  VirtualMachines: dev/vm-windows prod/vm-features"
has "$tmp/dvp" "DVP eviction-blocks-drain" "but the VirtualMachine cannot migrate: a drain of w5 waits forever"
has "$tmp/dvp" "DVP explain nosuch" 'kvscope: explain: no VirtualMachine "nosuch" in the snapshot'
has "$tmp/dvp" "DVP -n nosuch" 'kvscope: check: --namespace: no VirtualMachine in namespace "nosuch"'
run "completion: convert -f files, no formats" 0 completion bash
has "$tmp/out" "completion: check -o" 'check:-o|check:--output) COMPREPLY=($(compgen -W "text json yaml wide junit prom sarif"'
has "$tmp/out" "completion: explain -o" 'explain:-o|explain:--output) COMPREPLY=($(compgen -W "text json yaml"'
lacks "$tmp/out" "completion: convert -o" 'convert:-o'

# complete NAME WANT WORD...: bash's _kvscope (kvscope completion bash)
# with COMP_WORDS = kvscope WORD... offers exactly WANT (sorted, spaces)
complete_is() {
	local name=$1 want=$2 got
	shift 2
	got=$(bash -c 'source <("$1" completion bash); COMP_WORDS=("$@")
	    COMP_CWORD=$(($# - 1)); _kvscope
	    printf "%s\n" "${COMPREPLY[@]}"' _ "$KVSCOPE" "$@" |
	    sort | tr '\n' ' ')
	same "$name: offers" "$got" "$want "
}
complete_is "complete --drain: nodes" "a1 cp1 w1 w2 w3" check "$snap" --drain ""
complete_is "complete --drain LIST" "w1,w2 w1,w3" check "$snap" --drain w1,w
complete_is "complete --node=" "w1 w2 w3" check "$snap" --node = w
complete_is "complete -n: namespaces" "dev prod" check "$snap" -n ""
complete_is "complete explain NAME" "prod/amd-vm prod/bridge-vm prod/ok-vm prod/stopped" \
    explain "$snap" p
complete_is "complete explain -n NS NAME" "ok-vm" explain "$snap" -n prod o
complete_is "complete --vmi: no bare twin" "amd-vm bridge-vm cd-vm dev/cd-vm dev/ok-vm prod/amd-vm prod/bridge-vm prod/ok-vm prod/stopped stopped" \
    what-if "$tmp/twin" --cpu-model Westmere --vmi ""
complete_is "complete --vmi LIST" "prod/ok-vm,prod/amd-vm prod/ok-vm,prod/bridge-vm prod/ok-vm,prod/stopped" \
    what-if "$snap" --eviction-strategy None --vmi prod/ok-vm,prod/
complete_is "complete --cpu-model" "Westmere" what-if "$snap" --cpu-model W
complete_is "complete --cordon" "a1" what-if "$snap" --cordon a
complete_is "complete check -o: formats" "json junit prom sarif text wide yaml" check "$snap" -o ""
complete_is "complete -n, no snapshot yet" "" check -n ""
complete_is "complete --fix: group ids" "G1 G2 G3 G4 G5 all" \
    what-if "$snap" --fix ""
complete_is "complete --fix LIST" "G4,G1 G4,G2 G4,G3 G4,G5" \
    what-if "$snap" --fix G4,G
complete_is "complete --fix=" "all" what-if "$snap" --fix = a
complete_is "complete --fix, no snapshot yet" "" what-if --fix ""
run "completion zsh" 0 completion zsh
has "$tmp/out" "completion zsh: names" "'--drain=:LIST:{_kvscope_names}'"
has "$tmp/out" "completion zsh: explain NAME" "'2:VMI:{_kvscope_names}'"
run "completion fish" 0 completion fish
has "$tmp/out" "completion fish: names" "-l drain -x -a '(__kvscope_names)'"
run "__complete: not a name" 1 __complete check "$snap" -o ""

test_done
