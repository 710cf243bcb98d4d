#!/usr/bin/env bash
# tests/e2e/crosscheck.sh - `kvscope crosscheck SOURCE TARGET` end to end
# on samples/mixed and on copies of it that mkcross.py edits into other
# clusters (another kube-system uid, the gate DecentralizedLiveMigration
# on):
#
#   B       the same hardware: every running VMI live
#   nopku   no node has cpu-feature pku: the host-model VMIs of the Cascade
#           Lake nodes w3/w4 (whose host model requires it) only cold
#   amd     only the AMD node a1: prod/analytics (EPYC-Genoa) live, the
#           Intel ones cold, infra/ledger (affinity to zone-a) not at all
#   rwo     StorageProfiles offer no ReadWriteMany: live all the same (the
#           decentralized migration copies every volume), said per VM
#   old     KubeVirt v1.5.3: no migration between clusters, all cold
#   nad     SOURCE's prod/db-0 has a multus network TARGET lacks: no
#
# Environment: KVSCOPE = the kvscope binary (default ./kvscope); needs jq.
set -u
export COLUMNS=300

. "$(dirname "$0")/lib.sh"
# fontconfig's caches (tests/lsan.supp), as report.sh
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
S=samples/mixed
MK="python3 tests/e2e/mkcross.py"
X=$tmp/x
mkdir -p "$X"
# the TARGET nodes of VM $v in the document: its targets name a targetSets
# element, or are null
TGT='def tgt($v): if $v.targets == null then "" else (first(.targetSets[] |
	select(.id == $v.targets)) | .nodes | join(",")) end;'
$MK $S "$X/A" gate
$MK $S "$X/B" context lab-b uid bbbb gate rename-nodes b-
$MK $S "$X/nopku" context lab-b uid bbbb gate rename-nodes b- drop-feature pku
$MK $S "$X/amd" context lab-b uid bbbb gate rename-nodes b- only-nodes b-cp1,b-a1
$MK $S "$X/rwo" context lab-b uid bbbb gate rename-nodes b- profiles-rwo
$MK $S "$X/nomt" context lab-b uid bbbb gate rename-nodes b- \
	drop-machine-types
$MK $S "$X/old" context lab-b uid bbbb gate rename-nodes b- version v1.5.3
$MK $S "$X/nogate" context lab-b uid bbbb rename-nodes b-
$MK $S "$X/same" context lab-b uid bbbb gate
$MK $S "$X/S2" gate nad prod/storage-net multus prod/db-0 storage-net \
	stop prod/web-0
$MK $S "$X/other" context lab-b uid bbbb gate rename-nodes b- nad prod/other-net \
	drop-class ceph-rbd

# --- the same hardware both ways ------------------------------------------

run "both ways A->B" 0 crosscheck "$X/A" "$X/B"
has "$tmp/out" "summary line" \
	"11 of 11 VMs could live-migrate to lab-b, 0 only cold, 0 not"
has "$tmp/out" "db-0 live" "prod/db-0: live, on b-w3 b-w4 b-w5"
lacks "$tmp/err" "not one cluster" "warning"
run "both ways B->A" 0 crosscheck "$X/B" "$X/A"
has "$tmp/out" "B->A live" "prod/db-0: live, on w3 w4 w5"
has "$tmp/out" "B->A summary" "11 of 11 VMs could live-migrate to lab-mixed"

# --- TARGET's nodes named as SOURCE's: the decentralized target pod
# requires kubernetes.io/hostname NotIn the source node's name

run "same names" 0 crosscheck "$X/A" "$X/same" -o json
jq_is "same names db-0" "$TGT"' . as $d | .vms[] | select(.name == "db-0") | . as $v | "\($v.answer) \($d | tgt($v))"' "live w4,w5"
jq_is "same names analytics" '.vms[] | select(.name == "analytics") | "\(.answer) \([.reasons[].code] | join(","))"' "cold cross-hostname"
jq_is "same names message" '.vms[] | select(.name == "analytics") | .reasons[0].message' "its only TARGET node has the hostname a1 of its source node, which a decentralized target pod excludes"
# what TARGET would need: another node like a1 (what-if's change)
run "add node" 0 crosscheck "$X/A" "$X/same" --add-node-like a1 -o json
jq_is "add node analytics" "$TGT"' . as $d | .vms[] | select(.name == "analytics") | . as $v | "\($v.answer) \($d | tgt($v))"' "live a1-whatif-1"
jq_is "add node said" '.targetChanges[0]' "add-node-like a1: 1 new node with its labels, taints and allocatable (a1-whatif-1)"
run "add node text" 0 crosscheck "$X/A" "$X/same" --add-node-like a1=2
has "$tmp/out" "add node text" "TARGET changed: add-node-like a1: 2 new nodes"
run "change unknown node" 2 crosscheck "$X/A" "$X/same" --cordon nope
has "$tmp/err" "change unknown node" "kvscope: crosscheck: TARGET: --cordon nope: no such node in the snapshot"

# --- one cluster twice: a warning, not an error ---------------------------

run "A A warns" 0 crosscheck "$X/A" "$X/A"
has "$tmp/err" "A A warns" "kvscope: warning: crosscheck: SOURCE and TARGET are one cluster (namespace kube-system uid"
run "sample twice" 0 crosscheck $S $S
has "$tmp/err" "sample twice warns" "are one cluster"
has "$tmp/out" "gate off said" "cross-gate: 11 VMs (rules out live)"

# --- a feature missing on every TARGET node --------------------------------

run "no pku" 0 crosscheck "$X/A" "$X/nopku"
has "$tmp/out" "no pku summary" "6 of 11 VMs could live-migrate to lab-b, 5 only cold, 0 not"
has "$tmp/out" "no pku db-0" "prod/db-0: cold, on b-a1 b-w1 b-w3 b-w4 b-w5"
has "$tmp/out" "no pku reason" "its target pod selects CPU labels no TARGET node has: cpu-feature.node.kubevirt.io/pku"
has "$tmp/out" "no pku group" "no-cpu-target: 5 VMs (rules out live)"
run "--live exits 1" 1 crosscheck "$X/A" "$X/nopku" --live
run "--live and --cold" 2 crosscheck "$X/A" "$X/nopku" --live --cold
has "$tmp/err" "contradict" "--live and --cold contradict each other"

# --- only AMD nodes --------------------------------------------------------

run "amd only" 1 crosscheck "$X/A" "$X/amd" -o json
jq_is "amd summary" '.summary | "\(.live) \(.cold) \(.no)"' "1 9 1"
jq_is "amd analytics" "$TGT"' . as $d | .vms[] | select(.name == "analytics") | . as $v | "\($v.answer) \($d | tgt($v))"' "live b-a1"
jq_is "amd ledger" '.vms[] | select(.name == "ledger") | "\(.answer) \([.reasons[].code] | join(","))"' "no cross-no-node,no-cpu-target"
jq_is "amd web-0 vendor" '.vms[] | select(.name == "web-0") | .reasons[0].message' "its target pod selects CPU labels no TARGET node has: cpu-feature.node.kubevirt.io/ss, cpu-feature.node.kubevirt.io/vmx, cpu-vendor.node.kubevirt.io/Intel"
jq_is "amd web-0 cold" '.vms[] | select(.name == "web-0") | .answer' "cold"

# --- no ReadWriteMany class -----------------------------------------------

run "no rwx" 0 crosscheck "$X/A" "$X/rwo"
has "$tmp/out" "no rwx live" "11 of 11 VMs could live-migrate"
has "$tmp/out" "no rwx said" "cross-storage-rwo: 8 VMs (said)"
has "$tmp/out" "no rwx message" "volume rootdisk: TARGET's storage class ceph-rbd offers no ReadWriteMany Block"

# --- TARGET's nodes without machine-type labels: unknown, said

run "no machine types" 0 crosscheck "$X/A" "$X/nomt" --vmi prod/db-0 -o json
jq_is "no machine types" '.vms[0] | "\(.answer) \(.reasons[0].code)"' "live cross-machine-type-unknown"
jq_is "no machine types message" '.vms[0].reasons[0].message' "machine type pc-q35-rhel9.6.0: TARGET's nodes carry no machine-type labels (or its KubeVirt selects none)"
run "machine types" 0 crosscheck "$X/A" "$X/B" --vmi prod/db-0 -o json
jq_is "machine types known" '.vms[0].reasons | length' "0"

# --- one version too old, the gate off -------------------------------------

run "too old" 0 crosscheck "$X/A" "$X/old" -o json
jq_is "too old answers" '[.vms[].answer] | unique | join(",")' "cold"
jq_is "too old reason" '.vms[0].reasons[0].message' "TARGET runs KubeVirt v1.5.3; migration between clusters came with v1.6.0"
jq_is "too old side" '.target | "\(.kubevirtVersion) \(.decentralizedMigration)"' "v1.5.3 false"
run "gate off" 0 crosscheck "$X/A" "$X/nogate" -o json
jq_is "gate off reason" '.groups[0] | "\(.code) \(.count)"' "cross-gate 11"

# --- networks, storage classes and the maps --------------------------------

run "missing NAD" 1 crosscheck "$X/S2" "$X/B"
has "$tmp/out" "missing NAD answer" "prod/db-0: no"
has "$tmp/out" "missing NAD reason" "network storage-net: TARGET has no NetworkAttachmentDefinition prod/storage-net"
has "$tmp/out" "stopped VM" "prod/web-0: cold (stopped), on b-a1 b-w1 b-w3 b-w4 b-w5"
run "class missing" 1 crosscheck "$X/S2" "$X/other" --vmi prod/db-0 \
	--network-map storage-net=other-net
has "$tmp/out" "class missing" "volume rootdisk: PVC db-0-root of storage class ceph-rbd: TARGET has no storage class ceph-rbd"
run "both maps" 0 crosscheck "$X/S2" "$X/other" --vmi prod/db-0 \
	--network-map storage-net=other-net --storage-class-map ceph-rbd=nfs-csi
has "$tmp/out" "both maps" "prod/db-0: live, on b-w3 b-w4 b-w5"
run "bad map" 2 crosscheck "$X/S2" "$X/other" --storage-class-map ceph-rbd
has "$tmp/err" "bad map" "--storage-class-map: \"ceph-rbd\" is not SOURCE=TARGET"
run "no such vmi" 2 crosscheck "$X/A" "$X/B" --vmi prod/nope
has "$tmp/err" "no such vmi" "--vmi prod/nope: no running VMI or stopped VM"

# --- the CPU figure: SOURCE's classes as rows, TARGET's as columns

run "figure" 1 crosscheck "$X/A" "$X/amd" --figure "$tmp/cpu.svg"
has "$tmp/cpu.svg" "figure title" "<title>Host-model migration: SOURCE classes (rows) to TARGET's</title>"
has "$tmp/cpu.svg" "figure source row" "Intel Cascadelake-Server, x86-64-v4, 2 nodes: source/w3, source/w4</title>"
has "$tmp/cpu.svg" "figure pair" "missing 2 labels: cpu-feature.node.kubevirt.io/ss, cpu-vendor.node.kubevirt.io/Intel</title>"
has "$tmp/cpu.svg" "figure target column" "C1: AMD EPYC-Genoa, x86-64-v4, 2 nodes: b-a1, source/a1</title>"
count "one column" 1 "$tmp/cpu.svg" "rotate(-90"

# --- DVP: the VirtualMachineClass on TARGET, with a node for its CPU

$MK samples/deckhouse "$X/DA" gate
$MK samples/deckhouse "$X/DB" context dvp-b uid dddd gate drop-vmclass amx \
	vmclass-nowhere generic
run "dvp classes" 1 crosscheck "$X/DA" "$X/DB" -o json
jq_is "dvp class missing" '.vms[] | select(.name == "vm-features") | "\(.answer) \(.reasons[] | select(.code == "cross-vm-class") | .message)"' "no TARGET has no VirtualMachineClass amx"
jq_is "dvp class no node" '.vms[] | select(.name == "vm-model") | "\(.answer) \(.reasons[0].message)"' "no TARGET's VirtualMachineClass generic (CPU type Model) lists no available node"
jq_is "dvp host class" '.vms[] | select(.name == "vm-host") | .answer' "live"
# a stopped DVP VirtualMachine (no KVVM, no KVVMI in the snapshot) is
# listed as a stopped KubeVirt VM is: its class's CPU, its VirtualDisk
jq_is "dvp stopped listed" '.vms[] | select(.name == "vm-stopped") | "\(.running) \(.answer) \(.cpuMode) \(.copyBytes) \(.sourceNode)"' "false cold host-model 21474836480 null"
jq_is "dvp stopped reason" '.vms[] | select(.name == "vm-stopped") | .reasons[0].message' "the VM is stopped (phase Stopped)"
jq_is "dvp count" '.summary.vms' "12"
$MK samples/deckhouse "$X/DN" context dvp-b uid dddd gate drop-vmclass host
run "dvp stopped no" 1 crosscheck "$X/DA" "$X/DN" -o json --vmi dev/vm-stopped
jq_is "dvp stopped no" '.vms[0] | "\(.answer) \([.reasons[].code] | join(","))"' "no cross-stopped,cross-vm-class"
run "dvp stopped text" 1 crosscheck "$X/DA" "$X/DN" --vmi dev/vm-stopped
has "$tmp/out" "dvp stopped text" "dev/vm-stopped: no"
run "dvp live leaves stopped out" 1 crosscheck "$X/DA" "$X/DB" --live -o json
jq_is "dvp live leaves stopped out" '[.vms[] | select(.name == "vm-stopped")] | length' "0"

# --- between flavors: each side's node labels read by its own flavor.
# SOURCE's nodes (KubeVirt, node.kubevirt.io) keep their host model,
# features and vendor in the crossing model of a DVP TARGET
# (node.virtualization.deckhouse.io): no source-host-model-label-missing,
# and no "host model unknown"; a host-model VMI is cold, since TARGET's
# KubeVirt reads the recorded host model only in its own domain

$MK samples/deckhouse "$X/DG" context dvp-b uid dddd gate
run "kubevirt to dvp" 1 crosscheck "$X/A" "$X/DG" -o json --figure "$tmp/kd.svg"
jq_is "kubevirt to dvp no label-missing" '[.vms[].reasons[] | select(.code == "source-host-model-label-missing")] | length' "0"
jq_is "kubevirt to dvp db-0" '.vms[] | select(.name == "db-0") | "\(.answer) \([.reasons[].code] | join(","))"' "cold cross-label-domain,cross-version-skew"
jq_is "kubevirt to dvp message" '.vms[] | select(.name == "db-0") | .reasons[0].message' "SOURCE's nodes are labelled in node.kubevirt.io, TARGET's in node.virtualization.deckhouse.io: TARGET's KubeVirt finds no host-model-cpu.node.virtualization.deckhouse.io label among the source node's and creates no target pod"
jq_is "kubevirt to dvp passthrough" '.vms[] | select(.name == "build-runner") | "\(.answer) \([.reasons[].code] | join(","))"' "live cross-version-skew"
jq_is "kubevirt to dvp named" '.vms[] | select(.name == "analytics") | .answer' "live"
has "$tmp/kd.svg" "kubevirt to dvp source class" "<title>C1: Intel Cascadelake-Server, x86-64-v4, 4 nodes: source/w3, source/w4, w1, w2</title>"
run "dvp to kubevirt" 1 crosscheck "$X/DA" "$X/B" -o json
jq_is "dvp to kubevirt no label-missing" '[.vms[].reasons[] | select(.code == "source-host-model-label-missing")] | length' "0"
jq_is "dvp to kubevirt host" '.vms[] | select(.name == "vm-host") | [.reasons[].code] | join(",")' "cross-label-domain,cross-vm-class,cross-version-skew"
jq_is "dvp to kubevirt passthrough" '[.vms[] | select(.name == "vm-passthrough") | .reasons[].code] | join(",")' "cross-vm-class,cross-version-skew"

# --- a namespace TARGET lacks: said, with its fix

$MK $S "$X/nodev" context lab-b uid bbbb gate rename-nodes b- \
	drop-namespace dev
run "no namespace" 0 crosscheck "$X/A" "$X/nodev" -n dev -o json
jq_is "no namespace said" '[.vms[] | "\(.answer) \(.reasons[0].code)"] | unique | join(",")' "live cross-namespace"
jq_is "no namespace message" '.vms[0].reasons[0].message' "TARGET has no namespace dev"

# --- the data to copy, the scope ------------------------------------------

run "target sets" 0 crosscheck "$X/A" "$X/B" -o json
jq_is "target sets shared" '"\(.targetSets | length) \([.vms[] | select(.targets == "T1")] | length) \(.targetSets[0].count)"' "5 2 4"
jq_is "target count" '.vms[] | select(.name == "db-0") | .targetCount' "3"
run "namespace" 0 crosscheck "$X/A" "$X/B" -n dev -o json
jq_is "namespace vms" '[.vms[].name] | join(",")' "build-runner,legacy-app,win-app"
jq_is "copy bytes" '.vms[] | select(.name == "legacy-app") | .copyBytes' "32212254720"

# --- the report: --report DIR writes report.html, report.pdf, the CPU
# figure and crosscheck.json, all or nothing

R=$tmp/rep
run "report" 1 crosscheck "$X/A" "$X/amd" --report "$R"
has "$tmp/out" "report listed" "report: $R/report.html"
has "$tmp/out" "report pdf listed" "report: $R/report.pdf"
for f in report.html report.pdf crosscheck-cpu.svg crosscheck.json; do
	check "report writes $f" test -s "$R/$f"
done
html_parses() {
	local errs
	errs=$(xmllint --html --noout "$1" 2>&1 | grep 'parser error :' |
	    grep -Ev 'Tag (header|main|section|figure|figcaption|footer|svg|rect|text|title|desc|details|summary|wbr) invalid' || true)
	[ -z "$errs" ] || { echo "$errs" | head -5; return 1; }
}
check "report html parses" html_parses "$R/report.html"
H=$R/report.html
has "$H" "html title" "<title>Crosscheck: lab-mixed → lab-b</title>"
has "$H" "html summary" "1 of 11 VMs could live-migrate to lab-b, 9 only cold, 1 not"
has "$H" "html side" "TARGET: lab-b (KubeVirt v1.9.0, DecentralizedLiveMigration on)"
has "$H" "html group fix" "Fix: Give TARGET a node that matches its node selector"
has "$H" "html no-node group" "1 VM (rules out cold): No TARGET node could start it"
# the figure: SOURCE's five classes as rows, TARGET's one (AMD) column
count "html one column" 1 "$H" "rotate(-90"
has "$H" "html figure cell" "<title>C2 → C1: missing 2 labels: cpu-feature.node.kubevirt.io/ss, cpu-vendor.node.kubevirt.io/Intel</title>"
has "$H" "html figure ok cell" "<title>C1 → C1: ok</title>"
has "$H" "html figure row" "<title>C5: Intel Icelake-Server, x86-64-v4, 1 node: source/w5</title>"
count "html figure cells" 5 "$H" "→ C1: "
count "html answers" 11 "$H" '<td class="name">'
has "$H" "html vm reason" "cross-no-node</span>"
lacks "$H" "html no script" "<script"
pdftotext "$R/report.pdf" "$tmp/rep.txt"
has "$tmp/rep.txt" "pdf summary" "1 of 11 VMs could live-migrate to lab-b, 9 only cold, 1 not"
has "$tmp/rep.txt" "pdf refused pair" "1 C2 → C1"
has "$tmp/rep.txt" "pdf pair labels" "cpu-feature.node.kubevirt.io/{ss, vmx}; cpu-vendor.node.kubevirt.io/Intel"
has "$tmp/rep.txt" "pdf groups" "2 The groups by cause"
has "$tmp/rep.txt" "pdf every vm" "infra/ledger"
has "$tmp/rep.txt" "pdf footer" "SOURCE taken 2026-10-31T09:12:44Z"
check "pdf pages" sh -c "pdfinfo '$R/report.pdf' | grep -q '^Pages: *3$'"
jq -r '.summary | "\(.live) \(.cold) \(.no)"' "$R/crosscheck.json" > "$tmp/out"
has "$tmp/out" "report json" "1 9 1"
has "$R/crosscheck-cpu.svg" "report svg" "<title>Host-model migration: SOURCE classes (rows) to TARGET's</title>"
# the same snapshots, the same bytes
run "report again" 1 crosscheck "$X/A" "$X/amd" --report "$tmp/rep2" -o json
for f in report.html report.pdf crosscheck-cpu.svg crosscheck.json; do
	check "report deterministic: $f" cmp -s "$R/$f" "$tmp/rep2/$f"
done
# one format; the older report's other files do not stay behind
run "report pdf only" 1 crosscheck "$X/A" "$X/amd" --report "$R" \
	--format pdf -q
check "report pdf only: no html left" test ! -e "$R/report.html"
check "report pdf only: pdf" test -s "$R/report.pdf"
run "report csv" 2 crosscheck "$X/A" "$X/amd" --report "$R" --format csv
has "$tmp/err" "report csv" "--format csv: crosscheck's report has no CSV table"
run "format without report" 2 crosscheck "$X/A" "$X/amd" --format html
has "$tmp/err" "format without report" "--format and --force go with --report DIR"
mkdir -p "$tmp/foreign" && echo x > "$tmp/foreign/notes.txt"
run "report foreign dir" 2 crosscheck "$X/A" "$X/amd" --report "$tmp/foreign"
check "report foreign dir untouched" test ! -e "$tmp/foreign/report.html"

# onto a full disk (a 40 KiB tmpfs, where one can be mounted): exit 2,
# one line naming the file, nothing left behind
mkdir "$tmp/mnt"
if mount -t tmpfs -o size=40k tmpfs "$tmp/mnt" 2>/dev/null; then
	run "report full disk" 2 crosscheck "$X/A" "$X/amd" \
		--report "$tmp/mnt/a/b" -q
	has "$tmp/err" "report full disk said" "write error: No space left on device"
	check "report full disk leaves nothing" \
		test -z "$(find "$tmp/mnt" -mindepth 1)"
	umount "$tmp/mnt"
else
	echo "SKIP report full disk: no tmpfs can be mounted here"
fi

test_done
