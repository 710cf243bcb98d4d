#!/usr/bin/env bash
# Each version-aware row (analyze/versions/versions.c) judged on snapshots derived
# from samples/pitfalls and samples/mixed by mkversion.py at the versions
# before and after it, with the node labels each version's labeller
# writes: verdicts, codes, selectors and defaults per version.
set -euo pipefail
cd "$(dirname "$0")/../.."
# answers compared, on the optimised binary (docs/testing.md)
KVSCOPE=${KVSCOPE_FAST:-${KVSCOPE:-./kvscope}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

snap() {	# name sample version [mkversion options]
	python3 tests/versions/mkversion.py "samples/$2" "$tmp/$1" "$3" \
	    "${@:4}"
	"$KVSCOPE" report "$tmp/$1" --format json --output-dir "$tmp/$1.out" \
	    >/dev/null 2>"$tmp/$1.err" || [ $? -eq 1 ] ||
	    { cat "$tmp/$1.err"; exit 1; }
}
expect() {	# description, snapshot name, jq filter, expected compact JSON
	local got
	got=$(jq -c "$3" "$tmp/$2.out/findings.json")
	if [ "$got" = "$4" ]; then
		pass=$((pass + 1)); echo "PASS $1"
	else
		fail=$((fail + 1)); echo "FAIL $1: got $got, want $4"
	fi
}
vmi() { echo ".vmis[]|select(.name==\"$1\")|$2"; }
mt='[.vmis[].targetSelectors|keys[]|select(startswith("machine-type."))]|length'

snap p11 pitfalls v1.1.0
snap p14 pitfalls v1.4.1
snap p163 pitfalls v1.6.3
snap p18 pitfalls v1.8.0
snap p19 pitfalls v1.9.0
snap p059 pitfalls v0.59.2
snap r14 pitfalls v1.4.1 --realtime
snap r19 pitfalls v1.9.0 --realtime
for v in v1.0.1 v1.3.1 v1.4.1 v1.8.4 v1.9.0; do
	snap "o$v" pitfalls $v --old-reasons
done
snap n114 pitfalls v1.14.0
snap unk pitfalls latest
snap k11 pitfalls v1.1.0 --keep-labels
snap a14 pitfalls v1.4.1 --added-selector
snap a16 pitfalls v1.6.0 --added-selector
snap h11 pitfalls v1.1.1 --hco 4.15.2
snap m163 mixed v1.6.3
snap m164 mixed v1.6.4
snap m170 mixed v1.7.0
snap m18 mixed v1.8.0

expect "v1.1: rulesVersion and basis" p11 \
    '.config|[.rulesVersion,.rulesBasis]' \
    '["v1.1.0","KubeVirt CR status.observedKubeVirtVersion"]'
# machine-type selector: never before v1.5.1 (R9)
for s in p11 p14; do
	expect "$s: no machine-type selector" $s "$mt" '0'
	# the 6 ok VMIs of v1.9, and pit/move-to-gone: its VMIM's
	# addedNodeSelector does not exist before v1.6.0 (R37)
	expect "$s: the ok VMIs stay ok without machine-type labels" $s \
	    '[.vmis[]|select(.verdict=="ok")|.name]|length' '7'
	expect "$s: move-to-gone without addedNodeSelector" $s \
	    "$(vmi pit/move-to-gone '.verdict')" '"ok"'
	expect "$s: cd-config-digest still will-fail" $s \
	    "$(vmi pit/cd-config-digest '.verdict')" '"will-fail"'
done
expect "v1.6.3: machine-type selector" p163 \
    "$(vmi pit/evict-live '.targetSelectors|keys|map(select(startswith("machine-type.")))')" \
    '["machine-type.node.kubevirt.io/pc-q35-rhel9.6.0"]'
expect "v1.9 summary as the golden" p19 '.summary.verdicts' \
    "$(jq -c .summary.verdicts tests/golden/pitfalls.findings.json)"
expect "v1.8 summary as v1.9" p18 '.summary.verdicts' \
    "$(jq -c .summary.verdicts tests/golden/pitfalls.findings.json)"
# completion timeout default 800 up to v1.3, 150 from v1.4.0 (R31); the
# pitfalls CR does not set it
expect "v1.1: completion default 800" p11 '.config.completionTimeoutPerGiB' \
    '800'
expect "v1.4.1: completion default 150" p14 \
    '.config.completionTimeoutPerGiB' '150'
# pod-network bridge + annotation migrates only since v1.0.0 (R12)
expect "v1.1: bridge-allowed ok" p11 "$(vmi pit/bridge-allowed '.verdict')" \
    '"ok"'
expect "v0.59.2: bridge-allowed blocked" p059 \
    "$(vmi pit/bridge-allowed '[.verdict,[.blockers[].code]]')" \
    '["blocked",["network-pod-bridge"]]'
# CPU-vendor selector: v1.6.4 in 1.6, v1.7.1 in 1.7, v1.8.0 (R4); the
# passthrough VMI on Intel w5 may go to AMD a1 before (cp1 counts among
# the CPU targets only: no KubeVirt node)
for s in m163 m170; do
	expect "$s: passthrough may go to the AMD node" $s \
	    "$(vmi dev/build-runner '[.cpuTargetCount,.targetCount,(.targetSelectors|has("cpu-vendor.node.kubevirt.io/Intel"))]')" \
	    '[6,4,false]'
done
for s in m164 m18; do
	expect "$s: vendor selector" $s \
	    "$(vmi dev/build-runner '[.cpuTargetCount,.targetCount,(.targetSelectors|has("cpu-vendor.node.kubevirt.io/Intel"))]')" \
	    '[4,3,true]'
done

# reasons older versions report, as rule rows with codes (R15-R18)
old='[.vmis[]|select(.name=="pit/evict-external" or .name=="pit/evict-none" or .name=="pit/evict-ifpossible" or .name=="db/migrated-once")|[.verdict,[.blockers[].code]]]'
expect "v1.0.1: virtiofs, dedicated emulator thread, reservation" ov1.0.1 \
    "$old" '[["ok",[]],["blocked",["virtiofs"]],["blocked",["persistent-reservation"]],["blocked",["dedicated-cpu-emulator-thread"]]]'
expect "v1.3.1: backend storage RWO, virtiofs, reservation" ov1.3.1 \
    "$old" '[["blocked",["backend-storage-rwo"]],["blocked",["virtiofs"]],["blocked",["persistent-reservation"]],["ok",[]]]'
expect "v1.4.1: virtiofs, reservation" ov1.4.1 "$old" \
    '[["ok",[]],["blocked",["virtiofs"]],["blocked",["persistent-reservation"]],["ok",[]]]'
expect "v1.8.4: reservation only" ov1.8.4 "$old" \
    '[["ok",[]],["ok",[]],["blocked",["persistent-reservation"]],["ok",[]]]'
expect "v1.9.0: none" ov1.9.0 "$old" \
    '[["ok",[]],["ok",[]],["ok",[]],["ok",[]]]'
expect "v1.0.1: the virtiofs message" ov1.0.1 \
    "$(vmi pit/evict-external '.blockers[0].message')" \
    '"filesystem shared is shared with virtiofs, which this KubeVirt version (before v1.5.0) does not migrate"'

# the CPU manager label key: cpumanager up to v1.7, kubevirt.io/cpumanager
# from v1.8.0 (cpumanager-label-key)
cm="$(vmi pit/evict-none '[.targetSelectors.cpumanager,.targetSelectors["kubevirt.io/cpumanager"],.targetCount>0]')"
expect "v1.4.1: dedicated CPUs select cpumanager" ov1.4.1 "$cm" \
    '["true",null,true]'
expect "v1.8.4: dedicated CPUs select kubevirt.io/cpumanager" ov1.8.4 \
    "$cm" '[null,"true",true]'

# the distribution named where the snapshot shows it
"$KVSCOPE" explain "$tmp/h11" pit/evict-live >"$tmp/h11.explain" 2>&1
if grep -q "judged by the rules of KubeVirt v1.1 (OpenShift Virtualization 4.15)" \
    "$tmp/h11.explain"; then
	pass=$((pass + 1)); echo "PASS HCO 4.15.2: explain names the product"
else
	fail=$((fail + 1)); echo "FAIL HCO 4.15.2: $(grep judged "$tmp/h11.explain")"
fi
"$KVSCOPE" report "$tmp/h11" --format html --output-dir "$tmp/h11.html" \
    >/dev/null 2>&1 || true
if grep -rq "rules of KubeVirt v1.1 (OpenShift Virtualization 4.15)" \
    "$tmp/h11.html"; then
	pass=$((pass + 1)); echo "PASS HCO 4.15.2: the masthead names it"
else
	fail=$((fail + 1)); echo "FAIL HCO 4.15.2: masthead"
fi

# unknown is said: one snapshot warning and the same line on stderr
warn() {	# description, snapshot, expected warning (grep -F), count
	local n e
	n=$(jq '[.snapshot.warnings[]|select(contains("'"$3"'"))]|length' \
	    "$tmp/$2.out/findings.json")
	e=$(grep -F "$3" "$tmp/$2.err" | grep -c "^kvscope: warning: " ||
	    true)
	if [ "$n" = "$4" ] && [ "$e" = "$4" ]; then
		pass=$((pass + 1)); echo "PASS $1"
	else
		fail=$((fail + 1)); echo "FAIL $1: $n warnings, $e stderr lines, want $4"
	fi
}
warn "v1.14.0: newer than the rules" n114 \
    "KubeVirt v1.14.0 is newer than the rules kvscope has (v1.9): answers follow v1.9" 1
expect "v1.14.0: judged as v1.9" n114 '.config.rulesVersion' '"v1.9.0"'
warn "latest: version unknown" unk "KubeVirt version unknown" 1
expect "latest: basis default" unk '.config|[.rulesVersion,.rulesBasis]' \
    '["v1.9.0","default"]'
warn "v0.59.2: within the rows, no warning" p059 "KubeVirt" 0
warn "v1.1.0 with machine-type labels: mismatch" k11 \
    "KubeVirt v1.1.0 (KubeVirt CR status.observedKubeVirtVersion) contradicts the cluster: nodes carry machine-type.node.kubevirt.io/* labels (v1.5.1 and later)" 1
warn "v1.4.1 with addedNodeSelector: mismatch" a14 \
    "a migration has spec.addedNodeSelector (v1.6.0 and later)" 1
warn "v1.6.0 with addedNodeSelector: no mismatch" a16 "contradicts" 0
warn "v1.9.0: no version warning" p19 "KubeVirt" 0
warn "v1.1.0 with its own labels: no warning" p11 "KubeVirt" 0

# realtime selector value: "" before v1.5.0, "true" since (R10)
expect "v1.4.1: realtime selector \"\"" r14 \
    "$(vmi pit/evict-live '[.verdict,.targetSelectors["kubevirt.io/realtime"]]')" \
    '["ok",""]'
expect "v1.9.0: realtime selector true" r19 \
    "$(vmi pit/evict-live '[.verdict,.targetSelectors["kubevirt.io/realtime"]]')" \
    '["ok","true"]'
# drains up to v1.5 meet PodDisruptionBudgets (R29)
"$KVSCOPE" check "$tmp/p11" --drain p2 >"$tmp/d11" 2>&1 || true
"$KVSCOPE" check "$tmp/p19" --drain p2 >"$tmp/d19" 2>&1 || true
if grep -q <"$tmp/d11" \
    "As KubeVirt's PodDisruptionBudgets (kubevirt-disruption-budget-\*"; then
	pass=$((pass + 1)); echo "PASS v1.1: drains described with PDBs"
else
	fail=$((fail + 1)); echo "FAIL v1.1: drains not described with PDBs"
fi
if grep -q <"$tmp/d19" \
    "As KubeVirt's pod eviction webhook"; then
	pass=$((pass + 1)); echo "PASS v1.9: drains by the eviction webhook"
else
	fail=$((fail + 1)); echo "FAIL v1.9: drains not by the webhook"
fi

# addedNodeSelector: read only since v1.6.0 (R37). A v1.4.1 snapshot whose
# VMIM still carries one (kubernetes.io/hostname=p6, a node that is gone):
# v1.4's controller never reads the field, so the targets stay open.
snap k14 pitfalls v1.4.1 --keep-added-selector
snap k16 pitfalls v1.6.0 --keep-added-selector
gone="$(vmi pit/move-to-gone \
    '[.verdict,.targetSelectors["kubernetes.io/hostname"]]')"
expect "v1.4.1: addedNodeSelector not applied" k14 "$gone" '["ok",null]'
expect "v1.6.0: addedNodeSelector applied" k16 "$gone" '["no-target","p6"]'

# DVP before v1.4.0: a fork of KubeVirt 1.3.1 (docs/versions.md), whose
# labeller writes no machine-type labels: its rules, no machine-type
# selector, the v1.6.2 sample's verdicts.
snap d131 deckhouse v1.3.1-v12n.21
verdicts='[.vmis[]|[.name,.verdict]]'
expect "DVP v1.3.1 fork: rulesVersion" d131 .config.rulesVersion '"v1.3.1"'
expect "DVP v1.3.1 fork: no machine-type selector" d131 "$mt" '0'
expect "DVP v1.3.1 fork: verdicts as v1.6.2" d131 "$verdicts" \
    "$(jq -c "$verdicts" tests/golden/deckhouse.findings.json)"
# A Migrate VirtualMachineOperation's spec.migrate.nodeSelector becomes
# the VMIM's addedNodeSelector only where the fork has that field
# (versions.c SINCE_VMOP_SELECTOR): not on the 1.3.1 forks
snap ds131 deckhouse v1.3.1-v12n.21 --vmop-selector
snap ds162 deckhouse v1.6.2-v12n.92 --vmop-selector
busy="$(vmi prod/vm-busy '.targetSelectors["kubernetes.io/hostname"]')"
expect "DVP v1.3.1 fork: the operation's nodeSelector not applied" ds131 \
    "$busy" 'null'
expect "DVP v1.6.2 fork: the operation's nodeSelector applied" ds162 \
    "$busy" '"gone"'

# Harvester: its settings make it the harvester flavor; its migrate
# action's checks by release (docs/rules.md, harvester/checks.c). $hv
# lists "VMI verdict code" for each Harvester blocker.
snap hv111 pitfalls v0.54.0 --harvester v1.1.1
snap hv112 pitfalls v0.54.0 --harvester v1.1.2
snap hv131 pitfalls v1.1.1 --harvester v1.3.1
snap hv140 pitfalls v1.2.2 --harvester v1.4.0
snap hv171 pitfalls v1.6.3 --harvester v1.7.1
snap hv180 pitfalls v1.7.0 --harvester v1.8.0
snap hvkv pitfalls v1.6.3 --harvester ''
hv='[.vmis[] | .name as $n | .verdict as $v | .blockers[]?
    | select(.code | startswith("harvester-"))
    | "\($n) \($v) \(.code | ltrimstr("harvester-"))"]'
pinned='"db/pinned blocked hostname-selector"'
gpu='"pit/gpu blocked device"'
cds='"pit/cd-config-digest blocked cdrom-containerdisk",'
cds+='"pit/cd-no-digest blocked cdrom-containerdisk"'
expect "Harvester detected from its settings" hv171 .snapshot.flavor \
    '"harvester"'
expect "plain KubeVirt: no Harvester codes" p19 \
    "[.snapshot.flavor,$hv]" '["kubevirt",[]]'
expect "Harvester v1.1.1: no Migrate action gate yet" hv111 "$hv" "[]"
expect "Harvester v1.1.2: the Migrate action refuses CD-ROM, containerDisk" \
    hv112 "$hv" "[$cds]"
expect "Harvester v1.3.1: hostname selector, containerDisk" hv131 "$hv" \
    "[$pinned,$cds]"
# maintenance mode's own row: from v1.4.0 its scheduling check reads the
# nodeSelector, so the VM pinned to its node is listed (needs Force)
mm='[.vmis[]|select(any(.warnings[]?;.code=="harvester-maintenance"))|.name]'
expect "Harvester v1.3.1: maintenance lists the containerDisk VMs" hv131 \
    "$mm" '["pit/cd-config-digest","pit/cd-no-digest"]'
expect "Harvester v1.4.0: maintenance lists the pinned VM too" hv140 \
    "$(vmi db/pinned '[.warnings[].code]|index("harvester-maintenance")!=null')" \
    'true'
# explain names the path of each answer
ex=$("$KVSCOPE" explain "$tmp/hv140" db/pinned 2>/dev/null || true)
case $ex in
*"(Harvester: the Migrate action's answer)"*"a kubectl drain waits"*)
	pass=$((pass + 1)); echo "PASS Harvester explain names the paths" ;;
*)	fail=$((fail + 1)); echo "FAIL Harvester explain names the paths" ;;
esac
expect "Harvester v1.7.1: hostname, containerDisk, vGPU" hv171 "$hv" \
    "[$pinned,$cds,$gpu]"
expect "Harvester v1.8.0: containerDisks migrate again" hv180 "$hv" \
    "[$pinned,$gpu]"
expect "Harvester without server-version: by its KubeVirt v1.6.3" hvkv \
    "[.snapshot.flavor,($hv|length)]" '["harvester",4]'
expect "Harvester v1.7.1: Harvester's words" hv171 \
    "$(vmi pit/gpu '.blockers[]|select(.code=="harvester-device").message')" \
    '"Harvester v1.7.1'"'"'s Migrate action refuses: the VM is not live '\
'migratable as vGPU devices are attached (nvidia.com/GRID_T4-4Q)"'

# OpenShift Virtualization: a flavor row detected from the HyperConverged
# CR; what the KubeVirt CR leaves unset follows that CR's
# spec.liveMigrationConfig, then HCO's defaults of the release
# (openshift/config.c); config.sources says which
snap os17 pitfalls v1.3.1 --hco 4.17.1 --no-kv-config
snap os18 pitfalls v1.4.1 --hco 4.18.2 --no-kv-config
snap os23 pitfalls v1.9.0 --hco 1.19.0 --no-kv-config
snap os18s pitfalls v1.4.1 --hco 4.18.2 --no-kv-config \
    --hco-lm completionTimeoutPerGiB=300,bandwidthPerMigration=64Mi
snap osw mixed v1.4.1 --hco 4.18.2 --no-kv-config
snap osb mixed v1.4.1 --hco 4.18.2 \
    --hco-lm completionTimeoutPerGiB=300,parallelOutboundMigrationsPerNode=4
cfg='.config|[.completionTimeoutPerGiB,.parallelOutboundMigrationsPerNode,'
cfg+='.bandwidthPerMigrationMiBps,.sources.completionTimeoutPerGiB]'
expect "OpenShift detected from the HyperConverged CR" os18 \
    .snapshot.flavor '"openshift"'
expect "HCO 1.13 (4.17): 800 s/GiB" os17 "$cfg" \
    '[800,2,0,"HCO 1.8-1.13 default, OpenShift Virtualization 4.12-4.17"]'
expect "HCO 1.14 (4.18): 150 s/GiB" os18 "$cfg" \
    '[150,2,0,"HCO 1.14-1.18 default, OpenShift Virtualization 4.18-4.22"]'
expect "HCO 1.19: 20 s/GiB, one outbound migration per node" os23 "$cfg" \
    '[20,1,0,"HCO 1.19 default, OpenShift Virtualization 4.23"]'
expect "HyperConverged CR spec.liveMigrationConfig" os18s \
    "${cfg%]},.sources.bandwidthPerMigrationMiBps]" \
    '[300,2,64,"HyperConverged CR spec.liveMigrationConfig",'\
'"HyperConverged CR spec.liveMigrationConfig"]'
expect "both CRs: the KubeVirt CR wins" osb "$cfg" \
    '[150,2,512,"KubeVirt CR"]'
expect "plain KubeVirt: no sources" p14 '.config|has("sources")' 'false'
# HCO writes HypervStrictCheck: without the KubeVirt CR's featureGates
# the Hyper-V VMI's targets need its hyperv.* labels (target.c)
hv='.vmis[]|select(.name=="dev/win-app")|[.targetSelectors|keys[]'
hv+='|select(startswith("hyperv."))]|length'
expect "HCO's HypervStrictCheck: hyperv selectors" osw "$hv" '9'
expect "HCO's HypervStrictCheck: its source" osw '.config.sources.featureGates' \
    '"HCO mandatory feature gates: HypervStrictCheck"'
expect "the KubeVirt CR's gates win: no hyperv selectors" osb "$hv" '0'

# the manifest's cluster.flavor: every flavor row's name (load.c
# check_flavor); anything else one line naming the file and field, exit 2
for f in harvester openshift bogus; do
	cp -r "$tmp/p19" "$tmp/mf-$f"
	jq --arg f "$f" '.cluster.flavor = $f' "$tmp/p19/manifest.json" \
	    >"$tmp/mf-$f/manifest.json"
done
for f in harvester openshift; do
	"$KVSCOPE" report "$tmp/mf-$f" --format json \
	    --output-dir "$tmp/mf-$f.out" >/dev/null 2>&1 || [ $? -eq 1 ]
	expect "manifest flavor $f accepted" "mf-$f" .snapshot.flavor "\"$f\""
done
rc=0
"$KVSCOPE" report "$tmp/mf-bogus" --format json \
    --output-dir "$tmp/mf-bogus.out" >/dev/null 2>"$tmp/mf-bogus.err" || rc=$?
want="kvscope: $tmp/mf-bogus: manifest.json: cluster.flavor: expected "
want+='"kubevirt", "deckhouse", "harvester" or "openshift", got "bogus"'
if [ $rc -eq 2 ] && [ "$(cat "$tmp/mf-bogus.err")" = "$want" ] &&
    [ ! -e "$tmp/mf-bogus.out/findings.json" ]; then
	pass=$((pass + 1)); echo "PASS manifest flavor bogus refused"
else
	fail=$((fail + 1))
	echo "FAIL manifest flavor bogus: rc $rc, $(cat "$tmp/mf-bogus.err")"
fi

# z-streams: a CNV-style version is judged by its minor's pin, and said
snap z418 pitfalls v4.18.3 --hco 4.18.3
expect "v4.18.3: rules of the 4.18 pin, by its minor" z418 \
    '.config|[.rulesVersion,.rulesByMinor]' '["v1.4.1",true]'
expect "an upstream version with the product: exact" h11 \
    '.config|has("rulesByMinor")' 'false'
"$KVSCOPE" explain "$tmp/z418" pit/evict-live >"$tmp/z418.explain" 2>&1 ||
    true
z='rules of KubeVirt v1.4 (OpenShift Virtualization 4.18, by its minor: '
z+='a z-stream may carry a later KubeVirt patch release)'
if grep -qF "$z" "$tmp/z418.explain"; then
	pass=$((pass + 1)); echo "PASS v4.18.3: explain says by its minor"
else
	fail=$((fail + 1)); echo "FAIL v4.18.3: $(grep judged "$tmp/z418.explain")"
fi

# Before v1.0 (docs/versions.md "Before v1.0"): each row at the versions
# before and after it, on pit/evict-live (ok at v1.9) unless said
ev="$(vmi pit/evict-live '[.verdict,[.blockers[].code]]')"
hm="$(vmi pit/evict-live '.targetSelectors|keys|map(select(test("host-model|cpu-model")))')"
snap q35 pitfalls v0.35.0
warn "v0.35.0: older than the oldest row, said once" q35 \
    "KubeVirt v0.35.0 is older than the rules kvscope has (v0.36): checks that differ by version are not judged" 1
expect "v0.35.0: version-dependent checks not judged" q35 \
    "$(vmi pit/evict-live '[.verdict,.notJudged[0].resource]')" \
    '["not-judged","kubevirt-version"]'
expect "v0.35.0: a check that needs no row still judges" q35 \
    "$(vmi pit/hostdisk '[.verdict,[.blockers[].code]]')" \
    '["blocked",["hostdisk-not-shared"]]'
snap q36 pitfalls v0.36.3
warn "v0.36.3: the oldest row, no warning" q36 "KubeVirt" 0
expect "v0.36.3: judged" q36 "$ev" '["ok",[]]'
# host-model selector: none before v0.43.0, host-model-cpu until v0.53,
# cpu-model-migration from v0.54.0
for v in v0.42.0 v0.43.0 v0.53.0 v0.54.0; do snap "h$v" pitfalls $v; done
expect "v0.42.0: no host-model selector" hv0.42.0 "$hm" '[]'
expect "v0.42.0: no host-model label needed" hv0.42.0 \
    "$(vmi pit/no-hostmodel-label .verdict)" '"ok"'
expect "v0.43.0: host-model-cpu selector" hv0.43.0 "$hm" \
    '["host-model-cpu.node.kubevirt.io/Cascadelake-Server"]'
expect "v0.43.0: host-model label needed" hv0.43.0 \
    "$(vmi pit/no-hostmodel-label .verdict)" '"stuck"'
expect "v0.53.0: host-model-cpu selector" hv0.53.0 "$hm" \
    '["host-model-cpu.node.kubevirt.io/Cascadelake-Server"]'
expect "v0.54.0: cpu-model-migration selector" hv0.54.0 "$hm" \
    '["cpu-model-migration.node.kubevirt.io/Cascadelake-Server"]'
snap k53 pitfalls v0.53.0 --keep-labels
warn "v0.53.0 with cpu-model-migration labels: mismatch" k53 \
    "nodes carry cpu-model-migration.node.kubevirt.io/* labels (v0.54.0 and later)" 1
# default CPU model: none before v0.48.0 (the spec keeps no model)
snap nm47 pitfalls v0.47.0 --no-model
snap nm48 pitfalls v0.48.0 --no-model
expect "v0.47.0: no model, no host-model selector" nm47 "$hm" '[]'
expect "v0.48.0: no model is host-model" nm48 "$hm" \
    '["host-model-cpu.node.kubevirt.io/Cascadelake-Server"]'
# named-model selectors: only with CPUNodeDiscovery before v0.55.0; NFD
# keys before v0.40.0 (dev/legacy-app: Haswell-noTSX)
nmod="$(vmi dev/legacy-app '.targetSelectors|keys|map(select(test("cpu-model")))')"
snap g54 mixed v0.54.0
snap g54g mixed v0.54.0 --gate CPUNodeDiscovery
snap g55 mixed v0.55.0
snap g39g mixed v0.39.0 --gate CPUNodeDiscovery
expect "v0.54.0 without CPUNodeDiscovery: no model selector" g54 "$nmod" '[]'
expect "v0.54.0 with CPUNodeDiscovery: model selector" g54g "$nmod" \
    '["cpu-model.node.kubevirt.io/Haswell-noTSX"]'
expect "v0.55.0: model selector" g55 "$nmod" \
    '["cpu-model.node.kubevirt.io/Haswell-noTSX"]'
expect "v0.39.0: node-feature-discovery keys" g39g "$nmod" \
    '["feature.node.kubernetes.io/cpu-model-Haswell-noTSX"]'
# SR-IOV: unchecked before v0.39 (libvirt refuses), refused v0.39,
# behind SRIOVLiveMigration v0.40-v0.56, migrates from v0.57.0
for v in v0.38.0 v0.39.0 v0.40.0 v0.56.0 v0.57.0; do
	snap "s$v" pitfalls $v --sriov
done
snap sg40 pitfalls v0.40.0 --sriov --gate SRIOVLiveMigration
expect "v0.38.0: SR-IOV will fail" sv0.38.0 "$ev" \
    '["will-fail",["sriov-unchecked"]]'
expect "v0.39.0: SR-IOV refused" sv0.39.0 "$ev" \
    '["blocked",["sriov-interface"]]'
expect "v0.40.0: SR-IOV without the gate" sv0.40.0 "$ev" \
    '["blocked",["sriov-interface"]]'
expect "v0.40.0: SR-IOV with the gate" sg40 "$ev" '["ok",[]]'
expect "v0.56.0: SR-IOV without the gate" sv0.56.0 "$ev" \
    '["blocked",["sriov-interface"]]'
expect "v0.57.0: SR-IOV migrates" sv0.57.0 "$ev" '["ok",[]]'
# read-only CD-ROM (cloudInitNoCloud): copied and refused before
# v0.36.3 / v0.41.0, block migration before v0.49.0
for v in v0.36.2 v0.36.3 v0.40.0 v0.41.0 v0.48.0 v0.49.0; do
	snap "c$v" pitfalls $v --cdrom
done
cd="$(vmi pit/evict-live '[.verdict,[.blockers[].code],.migrationMethod]')"
expect "v0.36.2: CD-ROM copied, refused" cv0.36.2 "$cd" \
    '["will-fail",["cdrom-readonly-copied"],"BlockMigration"]'
expect "v0.36.3: CD-ROM skipped" cv0.36.3 "$cd" '["ok",[],"BlockMigration"]'
expect "v0.40.0: CD-ROM copied, refused" cv0.40.0 "$cd" \
    '["will-fail",["cdrom-readonly-copied"],"BlockMigration"]'
expect "v0.41.0: CD-ROM skipped" cv0.41.0 "$cd" '["ok",[],"BlockMigration"]'
expect "v0.48.0: block migration" cv0.48.0 "$cd" '["ok",[],"BlockMigration"]'
expect "v0.49.0: no block migration" cv0.49.0 "$cd" \
    '["ok",[],"LiveMigration"]'
# containerDisk: the launcher's status image before v0.58.0
snap i57 pitfalls v0.57.0 --status-image
snap i58 pitfalls v0.58.0 --status-image
cdi="$(vmi pit/cd-config-digest '[.verdict,[.blockers[].code]]')"
expect "v0.57.0: status image sha256:<id>" i57 "$cdi" \
    '["will-fail",["containerdisk-status-image"]]'
expect "v0.58.0: the spec's image" i58 "$cdi" '["ok",[]]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
