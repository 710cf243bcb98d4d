#!/usr/bin/env bash
# kvscope fleet (issue 42): the index of many snapshots of many clusters,
# new / still / fixed against each cluster's snapshot before, the
# unreadable input as a row, fleet.json field by field against
# docs/fleet.md, the trend figure, --reports; -o prom of fleet and check
# through promtool; -o sarif of check against the SARIF 2.1.0 schema.
. "$(dirname "$0")/lib.sh"

fx=$tmp/fx
python3 tests/e2e/mkfleet.py "$fx"
out=$tmp/idx

# --- the index ----------------------------------------------------------------
run "fleet: a cluster has VMIs that would not migrate" 1 \
    fleet "$fx" -d "$out" -q
has "$tmp/err" "fleet: the unreadable input is a warning" \
    "kvscope: warning: unreadable: $fx/zz-broken.tar.gz: not a snapshot"
has "$tmp/err" "fleet: the warning names its consequence" \
    "; its findings are left out of the index, which lists it as unreadable"
has "$tmp/out" "fleet: prints fleet.json" "$out/fleet.json"
has "$tmp/out" "fleet: prints fleet.html" "$out/fleet.html"
has "$tmp/out" "fleet: prints history.html" "$out/history.html"
j=$out/fleet.json
cp "$j" "$tmp/out"
jq_is "fleet.json: kind, version" '"\(.kind) \(.version)"' "kvscope-fleet 1"
jq_is "fleet.json: 6 inputs, 5 read" '"\(.snapshots) \(.read)"' "6 5"
jq_is "fleet.json: three clusters, worst first" \
    '[.clusters[].contexts[0]] | join(",")' \
    "lab-pitfalls,lab-mixed,lab-capacity"
jq_is "fleet.json: would not migrate per cluster" \
    '[.clusters[].wouldNotMigrate] | join(",")' "11,4,2"
jq_is "fleet.json: the cluster is the kube-system uid" \
    '.clusters[1] | "\(.cluster) \(.clusterFrom)"' \
    "45f57963-f4ea-5cb2-a29c-6dd3142c01b5 namespace kube-system"
# the same uid under two contexts is one cluster, newest context first
jq_is "same uid, two contexts: one cluster" \
    '.clusters[0].contexts | join(",")' "lab-pitfalls,lab-pitfalls-old"
jq_is "same uid, two contexts: both snapshots, oldest first" \
    '[.clusters[0].history[].takenAt] | join(",")' \
    "2026-09-01T08:00:00Z,2026-10-15T08:00:00Z"
# 41: pitfalls' problems, pit/local-path's no-placement-target (its PV) among them
jq_is "same snapshot twice: nothing new, nothing fixed" \
    '.clusters[0].changes | "\(.new | length) \(.still | length) \(.fixed | length)"' \
    "0 41 0"
# lab-mixed: files-rwo gone (4 codes fixed), analytics restarted under a
# new uid (still, by name), db-0 bound with bridge (2 new, 1 fixed)
jq_is "new / still / fixed counted exactly" \
    '.clusters[1].history[1] | "\(.new) \(.still) \(.fixed)"' "2 22 5"
jq_is "the lists hold the counts" \
    '.clusters[1].changes | "\(.new | length) \(.still | length) \(.fixed | length)"' \
    "2 22 5"
jq_is "new: db-0's bridge and what it does to a drain" \
    '[.clusters[1].changes.new[] | "\(.vmi):\(.code):\(.severity)"] | join(",")' \
    "prod/db-0:eviction-blocks-drain:warning,prod/db-0:network-pod-bridge:blocker"
jq_is "fixed: files-rwo's four and db-0's reconnect" \
    '[.clusters[1].changes.fixed[] | "\(.vmi):\(.code)"] | join(",")' \
    "prod/db-0:pod-network-reconnect,prod/files-rwo:block-migration,prod/files-rwo:disk-not-shared,prod/files-rwo:eviction-blocks-drain,prod/files-rwo:pod-network-reconnect"
jq_is "still: the restarted VMI matched by name" \
    '[.clusters[1].changes.still[] | select(.vmi == "prod/analytics") | "\(.uid):\(.code)"] | join(",")' \
    "0ed1d92c-0000-4000-8000-restarted0001:eviction-blocks-drain,0ed1d92c-0000-4000-8000-restarted0001:no-cpu-target,0ed1d92c-0000-4000-8000-restarted0001:pod-network-reconnect"
jq_is "changes: since the previous snapshot" \
    '.clusters[1].changes | "\(.since) \(.previous)"' \
    "2026-10-01T08:00:00Z $fx/a-1"
jq_is "first snapshot: no changes, nulls in its history" \
    '.clusters[2] | "\(.changes) \(.history[0].new) \(.history | length)"' \
    "null null 1"
jq_is "the newest row: taken at, nodes, running, drain blockers" \
    '.clusters[1] | "\(.takenAt) \(.nodes) \(.running) \(.drainBlockers) \(.notJudged)"' \
    "2026-10-31T08:00:00Z 7 10 4 0"
jq_is "the worst node to drain" \
    '.clusters[0].worstDrain | "\(.node) \(.block) \(.shutdown) \(.vmis)"' \
    "p1 3 2 5"
jq_is "the top 3 groups" \
    '[.clusters[0].topGroups[] | "\(.id):\(.code):\(.vmis)"] | join(",")' \
    "G1:drain-block:6,G2:drain-shutdown:3,G3:drain-shutdown:3"
jq_is "the unreadable input is a row" \
    '.unreadable[] | "\(.path)|\(.reason)"' \
    "$fx/zz-broken.tar.gz|$fx/zz-broken.tar.gz: not a snapshot, tarball, zip, must-gather or kubectl output"
has "$out/fleet.html" "fleet.html: the unreadable row" \
    "unreadable: $fx/zz-broken.tar.gz: not a snapshot"
has "$out/fleet.html" "fleet.html: new / still / fixed" \
    "<td>2 / 22 / 5</td>"
has "$out/history.html" "history.html: the new list" \
    "<td>prod/db-0</td><td>network-pod-bridge</td><td>blocker</td>"
# the trend: one line per cluster, a point per snapshot
count "trend: one line per cluster" 3 "$out/fleet.html" "<polyline"
pts=$(grep -o 'points="[^"]*"' "$out/fleet.html" |
    awk -F'[" ]' '{ print NF - 2 }' | sort | tr '\n' ' ')
same "trend: a point per snapshot" "$pts" "1 2 2 "

# three snapshots of one cluster, the oldest given last: only the two
# newest keep their problems (kv_fleet_trim), the comparison is the same
cp -r "$fx/a-1" "$tmp/a-0"
jq '.createdAt = "2026-09-01T08:00:00Z"' "$fx/a-1/manifest.json" \
    >"$tmp/a-0/manifest.json"
run "fleet: three snapshots of one cluster" 1 fleet "$fx/a-2" "$fx/a-1" \
    "$tmp/a-0" -o json -q
jq_is "three snapshots: oldest first, counts for the newest only" \
    '[.clusters[0].history[] | "\(.takenAt[5:10]):\(.new)/\(.still)/\(.fixed)"] | join(",")' \
    "09-01:null/null/null,10-01:null/null/null,10-31:2/22/5"
jq_is "three snapshots: against the one before" \
    '.clusters[0].changes.previous' "$fx/a-1"

# --- fleet.json, field by field against docs/fleet.md ---------------------------
jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")]
    | map(gsub("\\.\\[\\]"; "[]")) | unique[]' "$j" >"$tmp/got"
sed -n 's/^| `\([^`]*\)` |.*/\1/p' docs/fleet.md | sort -u >"$tmp/doc"
same "docs/fleet.md documents every field of fleet.json" \
    "$(comm -23 "$tmp/got" "$tmp/doc" | tr '\n' ' ')" ""
same "docs/fleet.md documents no field fleet.json lacks" \
    "$(comm -13 "$tmp/got" "$tmp/doc" | tr '\n' ' ')" ""

# --- the drain window ---------------------------------------------------------
# samples/mixed given a Prometheus extract in which dev/build-runner (on
# w5) dirties 600 MB/s of its 512 MiB/s: its migration will be aborted
dw=$tmp/dw
mkdir -p "$dw/mixed-abort"
cp -r samples/mixed/. "$dw/mixed-abort/"
python3 tests/e2e/mkmetrics.py "$dw/mixed-abort" dev build-runner \
    550000000 600000000 17179869184
cp -r samples/capacity "$dw/capacity"
run "fleet drain window: text" 1 fleet "$dw" -q -d "$tmp/dwout"
has "$tmp/out" "fleet drain window: text columns" \
    "FIXED ABORT RISK LONGEST-DRAIN"
same "fleet drain window: text row" \
    "$(grep '^lab-mixed' "$tmp/out" | sed 's/.* - *- *- *//')" \
    "1    0 w5 3 min 5 s - 3 min 44 s"
same "fleet drain window: no abort in capacity" \
    "$(grep '^lab-capacity' "$tmp/out" | sed 's/.* - *- *- *//')" \
    "0    0 g1 16-25 s"
run "fleet drain window: json" 1 fleet "$dw" -q -o json
jq_is "fleet drain window: json of lab-mixed" \
    '.clusters[] | select(.contexts[0] == "lab-mixed") | .drainWindow | "\(.willAbort) \(.atRisk) \(.longestDrain.node) \(.longestDrain.migrate) \(.longestDrain.seconds | join("-"))"' \
    "1 0 w5 1 185-224"
jq_is "fleet drain window: json of lab-capacity" \
    '.clusters[] | select(.contexts[0] == "lab-capacity") | .drainWindow | "\(.willAbort) \(.atRisk) \(.longestDrain.node)"' \
    "0 0 g1"
has "$tmp/dwout/fleet.html" "fleet drain window: html" \
    '<th>drain window</th>'
has "$tmp/dwout/fleet.html" "fleet drain window: html cell" \
    '<td class="w">1 will abort, 0 at risk; longest drain: w5, 3 min 5 s - 3 min 44 s</td>'

# --- exit status ------------------------------------------------------------------
run "fleet: none readable is exit 2" 2 fleet "$fx/zz-broken.tar.gz" \
    -o json
same "fleet: none readable, one line" "$(tail -n 1 "$tmp/err")" \
    "kvscope: fleet: none of the 1 inputs could be read"
run "fleet: no VMI that would not migrate is exit 0" 0 \
    fleet samples/same-host-model -o json
jq_is "fleet -o json: the document on stdout" '.clusters | length' "1"
[ ! -e kvscope-fleet ] && ok "fleet -o json: no files without -d" ||
    bad "fleet -o json wrote kvscope-fleet/"

# --- --reports ----------------------------------------------------------------
rep=$tmp/rep
run "fleet --reports" 1 fleet "$fx/a-1" "$fx/c-1" -d "$rep" --reports -q
r=$rep/45f57963-f4ea-5cb2-a29c-6dd3142c01b5/2026-10-01T08_00_00Z
[ -s "$r/report.html" ] && [ -s "$r/findings.json" ] &&
    ok "--reports: the report beside the index" ||
    bad "--reports: no report in $r"
cp "$rep/fleet.json" "$tmp/out"
jq_is "--reports: the row links it" '.clusters[0].report' \
    "45f57963-f4ea-5cb2-a29c-6dd3142c01b5/2026-10-01T08_00_00Z"
has "$rep/fleet.html" "--reports: fleet.html links it" \
    'href="45f57963-f4ea-5cb2-a29c-6dd3142c01b5/2026-10-01T08_00_00Z/report.html"'

# --- -o prom ----------------------------------------------------------------
run "fleet -o prom" 1 fleet "$fx" -o prom -q
check "fleet -o prom: promtool check metrics" promtool check metrics \
    <"$tmp/out"
has "$tmp/out" "prom: VMIs by verdict" \
    'kvscope_vmis{cluster="lab-mixed",verdict="no-target"} 3'
has "$tmp/out" "prom: findings by code" \
    'kvscope_findings{cluster="lab-mixed",code="network-pod-bridge",severity="blocker"} 1'
has "$tmp/out" "prom: drain blocked per node" \
    'kvscope_drain_blocked_vmis{cluster="lab-pitfalls",node="p1"} 3'
has "$tmp/out" "prom: snapshot time" \
    'kvscope_snapshot_timestamp_seconds{cluster="lab-mixed"} 1793433600'
has "$tmp/out" "prom: the unreadable input" \
    'kvscope_unreadable_snapshots 1'
lacks "$tmp/out" "prom: no timestamps, no run ids" '} 3 1'
bad_labels=$(grep -v '^#' "$tmp/out" | grep -o '[a-z_]*="' | sort -u |
    grep -vE '^(cluster|node|code|severity|verdict|flavor)="$' || true)
same "prom: only bounded labels" "$bad_labels" ""
pd=$tmp/prom
mkdir "$pd"
run "check -o prom -f FILE" 1 check samples/mixed -o prom -f "$pd/kvscope.prom"
same "check -o prom -f: nothing on stdout" "$(cat "$tmp/out")" ""
same "check -o prom -f: only the file is left" "$(ls -A "$pd")" \
    "kvscope.prom"
check "check -o prom: promtool check metrics" promtool check metrics \
    <"$pd/kvscope.prom"
has "$pd/kvscope.prom" "check -o prom: the cluster" \
    'kvscope_vmis{cluster="lab-mixed",verdict="ok"} 7'
run "check -o prom -n: refused" 2 check samples/mixed -o prom -n prod
run "check -f without prom: refused" 2 check samples/mixed -f "$pd/x"
has "$tmp/err" "check -f: says with what" \
    "kvscope: check: --output-file: only with -o prom or -o sarif"

# --- -o sarif ---------------------------------------------------------------
# the SARIF 2.1.0 schema make deps fetches (Makefile SARIF_SCHEMA)
schema=${SARIF_SCHEMA:-build/deps/sarif/sarif-2.1.0-rtm.5.json}
# Debian's python3-jsonschema (make deps) is /usr/bin/python3's; another
# python3 first on PATH may lack it
py=python3
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null && py=/usr/bin/python3
validate() {
	"$py" - "$schema" "$1" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
errs = list(jsonschema.Draft4Validator(schema).iter_errors(doc))
for e in errs[:5]:
    print("%s at %s" % (e.message, "/".join(map(str, e.path))))
sys.exit(1 if errs else 0)
PY
}
run "check -o sarif" 1 check "$fx/a-2" -o sarif -q
cp "$tmp/out" "$tmp/a2.sarif"
check "check -o sarif: valid against the SARIF 2.1.0 schema" \
    validate "$tmp/a2.sarif"
jq '.runs[0].results[0].level = "fatal"' "$tmp/a2.sarif" >"$tmp/bad.sarif"
if validate "$tmp/bad.sarif" >/dev/null; then
	bad "sarif: the schema check rejects a bad level"
else
	ok "sarif: the schema check rejects a bad level"
fi
jq_is "sarif: version 2.1.0, one run" \
    '"\(.version) \(.runs | length) \(.runs[0].tool.driver.name)"' \
    "2.1.0 1 kvscope"
jq_is "sarif: one rule per code of the rule table" \
    '[.runs[0].tool.driver.rules[].id] | (length == (unique | length))' \
    "true"
jq_is "sarif: every result's ruleIndex names its rule" \
    '.runs[0] as $r | [$r.results[] | $r.tool.driver.rules[.ruleIndex].id == .ruleId] | all' \
    "true"
jq_is "sarif: one result per VMI and code (24 problems in a-2)" \
    '[.runs[0].results[] | .locations[0].logicalLocations[0].fullyQualifiedName + " " + .ruleId] | "\(length) \(unique | length)"' \
    "24 24"
jq_is "sarif: the pseudo-path and the object" \
    '.runs[0].results[] | select(.ruleId == "network-pod-bridge") | .locations[0] | "\(.physicalLocation.artifactLocation.uri) \(.logicalLocations[0].fullyQualifiedName)"' \
    "namespaces/prod/virtualmachineinstances/db-0 prod/db-0"
jq_is "sarif: a blocker is an error" \
    '.runs[0].results[] | select(.ruleId == "network-pod-bridge") | .level' \
    "error"
fp() {
	jq -r '.runs[0].results[] | select(.ruleId == "no-cpu-target" and .locations[0].logicalLocations[0].name == "web-0") | .partialFingerprints["kvscope/v1"]' "$1"
}
run "check -o sarif a-1" 1 check "$fx/a-1" -o sarif -q
cp "$tmp/out" "$tmp/a1.sarif"
same "sarif: the fingerprint stays from one snapshot to the next" \
    "$(fp "$tmp/a1.sarif")" "$(fp "$tmp/a2.sarif")"
want=$(printf '45f57963-f4ea-5cb2-a29c-6dd3142c01b5\0009f2e5563-a56f-5478-9f5e-2604016696da\000no-cpu-target' |
    sha256sum | cut -d' ' -f1)
same "sarif: the fingerprint is of cluster uid, VMI uid and code" \
    "$(fp "$tmp/a1.sarif")" "$want"
run "check -o sarif -n dev: the chosen VMIs" 0 check "$fx/a-2" -o sarif \
    -n dev -q
jq_is "sarif -n dev: only dev's" \
    '[.runs[0].results[].locations[0].logicalLocations[0].fullyQualifiedName | startswith("dev/")] | all' \
    "true"

test_done
