#!/usr/bin/env bash
# Facts about samples/deckhouse known independently of kvscope (from
# samples/deckhouse/README.md and docs/rules.md): the
# DVP settings, each VM's verdict and codes, the Migratable condition, the
# class CPU mapping and the selectors DVP's fork renders.  Guards the golden
# file tests/golden/deckhouse.findings.json against a wrong regeneration.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# the HTML report's fontconfig keeps a few bytes for the life of the process
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
"$KVSCOPE" report samples/deckhouse --format json --output-dir "$tmp/report" \
    2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
f=$tmp/report/findings.json
expect() {	# description, jq filter, expected compact JSON
	local got
	got=$(jq -c "$2" "$f")
	if [ "$got" = "$3" ]; then
		ok "$1"
	else
		bad "$1" "got $got, want $3"
	fi
}
vm() {	# name -> [verdict, blockers, warnings]
	echo ".vmis[]|select(.name==\"$1\")|[.verdict,[.blockers[].code],[.warnings[].code]]"
}
expect "flavor" '.snapshot.flavor' '"deckhouse"'
expect "DVP settings: 800 s/GB, 640Mi, 5 parallel, LiveMigrate" \
    '.config|[.completionTimeoutPerGiB,.bandwidthPerMigrationMiBps,.parallelMigrationsPerCluster,.evictionStrategy]' \
    '[800,640,5,"LiveMigrate"]'
expect "completion timeout 800 x ceil(4Gi / 1e9)" \
    '[.vmis[].completionTimeoutSeconds]|unique' '[4000]'
expect "nodes: DVP label domain" \
    '[.nodes[]|select(.kubevirt)|.name]' '["w1","w2","w3","w4","w5"]'
expect "vm-host: Host -> host-model, ok" "$(vm prod/vm-host)" '["ok",[],[]]'
expect "vm-host cpu" '.vmis[]|select(.name=="prod/vm-host")|.cpu' \
    '{"mode":"host-model","model":"host-model"}'
expect "vm-passthrough" "$(vm prod/vm-passthrough)" \
    '["ok",[],["passthrough-cpu-differs"]]'
expect "vm-passthrough: no CPU constraint, no vendor selector" \
    '.vmis[]|select(.name=="prod/vm-passthrough")|[.targetSelectors|keys[]|select(startswith("cpu-"))]' '[]'
expect "vm-model: Model -> named with the model label" \
    '.vmis[]|select(.name=="prod/vm-model")|[.cpu.model,.targetSelectors["cpu-model.node.virtualization.deckhouse.io/Nehalem"],.verdict]' \
    '["Nehalem","true","ok"]'
expect "vm-discovery: qemu64, no cpu-model selector, features required" \
    '.vmis[]|select(.name=="prod/vm-discovery")|[.cpu.model,([.targetSelectors|keys[]|select(startswith("cpu-model"))]|length),.targetSelectors["cpu-feature.node.virtualization.deckhouse.io/sse4.2"],.targetSelectors["cpu-feature.node.virtualization.deckhouse.io/svm"],.verdict]' \
    '["qemu64",0,"true",null,"ok"]'
expect "vm-features" "$(vm prod/vm-features)" \
    '["no-target",["no-cpu-target"],["eviction-blocks-drain"]]'
expect "vm-features: Migratable True, mismatch" \
    '.vmis[]|select(.name=="prod/vm-features")|[.condition.status,.conditionMismatch]' \
    '["True",true]'
expect "vm-local-disk" "$(vm prod/vm-local-disk)" \
    '["ok",[],["block-migration","disks-should-be-migrating"]]'
expect "vm-local-disk: DisksShouldBeMigrating, block migration" \
    '.vmis[]|select(.name=="prod/vm-local-disk")|[.condition.reason,.migrationMethod]' \
    '["VirtualMachineDisksShouldBeMigrating","BlockMigration"]'
expect "vm-busy" "$(vm prod/vm-busy)" '["blocked",["vmop-in-progress"],[]]'
expect "vm-busy: a drain still moves it" \
    '.vmis[]|select(.name=="prod/vm-busy")|.onDrain' '"migrate"'
expect "vm-safe-force" "$(vm prod/vm-safe-force)" \
    '["blocked",["live-migration-policy-force"],[]]'
expect "vm-safe-force: mismatch" \
    '.vmis[]|select(.name=="prod/vm-safe-force")|.conditionMismatch' 'true'
expect "vm-evacuating" "$(vm dev/vm-evacuating)" \
    '["blocked",["vmop-in-progress"],[]]'
expect "vm-evacuating: the system Evict is named by its prefix" \
    '.vmis[]|select(.name=="dev/vm-evacuating")|.blockers[0].message|test("node drain")' 'true'
expect "vm-attach" "$(vm dev/vm-attach)" \
    '["ok",[],["block-device-attachment-pending"]]'
expect "vm-windows" "$(vm dev/vm-windows)" \
    '["blocked",["tsc-frequency"],["eviction-blocks-drain"]]'
expect "vm-windows: Migratable False" \
    '.vmis[]|select(.name=="dev/vm-windows")|[.condition.status,.condition.reason,.conditionMismatch]' \
    '["False","VirtualMachineNonMigratable",false]'
expect "vm-stopped is not listed" '[.vmis[]|select(.name=="dev/vm-stopped")]' '[]'
expect "summary" '.summary|[.vmis,.ok,.blocked,.["no-target"],.conditionMismatch]' \
    '[11,6,4,1,4]'
# the CPU fix in DVP's commands (kv_fixrow.patch_cli, restart_cli): the
# VirtualMachine's spec.virtualMachineClassName, then d8 v restart
d8fix="for prod/vm-features: kubectl patch virtualmachines.virtualization.deckhouse.io vm-features -n prod --type merge -p '{\"spec\":{\"virtualMachineClassName\":\"%s\"}}' && d8 v restart vm-features -n prod)"
cpufix='.groups[]|select(.code=="no-cpu-target")|.fix.text'
# shellcheck disable=SC2059
has_fix() {	# description, findings.json, class name
	if jq -r "$cpufix" "$2" | grep -qF "$(printf "$d8fix" "$3")"; then
		ok "$1"
	else
		bad "$1" "$(jq -r "$cpufix" "$2")"
	fi
}
has_fix "DVP CPU fix: d8 words, a class to create" "$f" NEW-CLASS
expect "DVP CPU fix: no KubeVirt command" \
    "[.groups[].fix.text|test(\"virtctl|patch vm \")]|any" 'false'
"$KVSCOPE" check samples/deckhouse --groups >"$tmp/text" || true
has "$tmp/text" "DVP CPU fix in check --groups" \
    "&& d8 v restart vm-features -n prod)"
"$KVSCOPE" report samples/deckhouse --format html --output-dir "$tmp/html" \
    -q >/dev/null || bad "DVP html report"
# the text as a reader sees it: a long path's break points (<wbr>) dropped
sed 's|<wbr></wbr>||g' "$tmp/html/report.html" >"$tmp/html.txt"
has "$tmp/html.txt" "DVP CPU fix in the HTML" \
    "kubectl patch virtualmachines.virtualization.deckhouse.io vm-features"
# with a class of type Model that gives the model, the fix names it
cp -r samples/deckhouse "$tmp/cls"
python3 - "$tmp/cls" <<'PY'
import hashlib, json, os, sys
d = sys.argv[1]
p = d + "/resources/virtualmachineclasses.virtualization.deckhouse.io.json"
doc = json.load(open(p))
c = json.loads(json.dumps([i for i in doc["items"]
                           if i["metadata"]["name"] == "generic"][0]))
c["metadata"]["name"] = "cascade"
c["metadata"]["uid"] = "uid-cascade"
c["spec"]["cpu"]["model"] = "Cascadelake-Server-noTSX"
doc["items"].append(c)
json.dump(doc, open(p, "w"), indent=1)
m = json.load(open(d + "/manifest.json"))
for e in m["files"]:
    b = open(os.path.join(d, e["path"]), "rb").read()
    e["bytes"], e["sha256"] = len(b), hashlib.sha256(b).hexdigest()
for r in m["resources"]:
    if r["resource"] == "virtualmachineclasses":
        r["count"] += 1
json.dump(m, open(d + "/manifest.json", "w"), indent=2)
PY
"$KVSCOPE" report "$tmp/cls" --format json --output-dir "$tmp/clsr" -q \
    >/dev/null ||
    bad "report of the copy with a Model class"
has_fix "DVP CPU fix names the class that gives the model" \
    "$tmp/clsr/findings.json" cascade
test_done
