#!/usr/bin/env bash
# Facts about samples/mixed known independently of kvscope (from the
# hardware each node was generated from, see samples/mixed/README.md):
# vendors, host models, schedulability, VMI counts, CPU classes.  Guards
# the golden file against being regenerated with a wrong answer.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$KVSCOPE" report samples/mixed --format json --output-dir "$tmp/report" 2>"$tmp/err" ||
	{ cat "$tmp/err"; exit 1; }
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
expect "node facts w1 (Xeon E5-2650 v3)" \
    '.nodes[]|select(.name=="w1")|[.kubevirt,.schedulable,.vendor,.hostModel,.level,.avx2,.avx512f,.vmis]' \
    '[true,true,"Intel","Haswell-noTSX",3,true,false,2]'
expect "node facts w2 (Broadwell, cordoned)" \
    '.nodes[]|select(.name=="w2")|[.schedulable,.vendor,.hostModel,.level,.vmis]' \
    '[false,"Intel","Broadwell",3,1]'
expect "node facts w3/w4 (Cascade Lake twins)" \
    '[.nodes[]|select(.name=="w3" or .name=="w4")|[.hostModel,.level,.avx512f,.cpuClass]]|unique' \
    '[["Cascadelake-Server",4,true,"C1"]]'
expect "node facts w5 (Ice Lake)" \
    '.nodes[]|select(.name=="w5")|[.vendor,.hostModel,.level,.vmis]' \
    '["Intel","Icelake-Server",4,1]'
expect "node facts a1 (EPYC 9334)" \
    '.nodes[]|select(.name=="a1")|[.vendor,.hostModel,.level,.avx512f,.vmis]' \
    '["AMD","EPYC-Genoa",4,true,1]'
expect "control plane is not a KubeVirt node" \
    '.nodes[]|select(.name=="cp1")|[.kubevirt,.schedulable,.vendor,.cpuClass,.level,.vmis]' \
    '[false,false,null,null,null,0]'
expect "classes: twins share one, the rest one each" \
    '[.cpuClasses[]|.nodes]' '[["w3","w4"],["a1"],["w1"],["w2"],["w5"]]'
expect "summary counts" '.summary|[.nodes,.kubevirtNodes,.cpuClasses,.vmis,.running]' \
    '[7,6,5,12,11]'
expect "Haswell host-model goes nowhere (vmx required)" \
    '[.hostModelPairs[]|select(.source=="C3" and .ok)|.target]' '["C3"]'
expect "Intel and AMD never pair" \
    '[.hostModelPairs[]|select((.source=="C2") != (.target=="C2"))|select(.ok)]' '[]'
expect "vendor scopes" '[.namedModels.scopes[].scope]' '["all","vendor:AMD","vendor:Intel"]'
expect "v4 tier excludes the Haswell and Broadwell nodes" \
    '.tradeoff[]|select(.scope=="vendor:Intel" and .tier=="x86-64-v4")|[.nodes,.of,.excluded]' \
    '[3,5,["w1","w2"]]'
test_done
