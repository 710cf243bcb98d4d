#!/usr/bin/env bash
# tests/e2e/window.sh - the maintenance window end to end (docs/window.md):
# `check --drain --window` and `plan --window` exit codes, --link and
# --dirty-rate, the estimate in explain and in -o json, and a copy of
# samples/mixed given a Prometheus extract (resources/vmimetrics.kvscope.io
# .json) in which dev/build-runner (32 GiB, 512 MiB/s per migration, on
# w5) dirties more than it can send: it will be aborted at its deadline.
#
# Environment: KVSCOPE = the kvscope binary (default ./kvscope); needs jq.
set -u

. "$(dirname "$0")/lib.sh"
# answers compared, on the optimised binary (docs/testing.md; the same
# code runs under the sanitizers in the unit tests, samples, drain,
# window-report and the fuzz harnesses)
KVSCOPE=${KVSCOPE_FAST:-$KVSCOPE}

M=samples/mixed

run "drain w5 fits 2h" 0 check $M --drain w5 --window 2h
has "$tmp/out" "fits 2h" "Window 2 h 0 min: fits (the drain takes 1 min 7 s - 1 min 18 s)"
has "$tmp/out" "fits 2h" "1 migration whose dirty rate decides"
run "drain w5 misses 1m" 1 check $M --drain w5 --window 1m
has "$tmp/out" "misses 1m" "Window 1 min 0 s: does not fit"
run "window json" 1 check $M --drain w5 --window 60s -o json
jq_is "window json: fits" '.window.fits' "false"
jq_is "window json: seconds" '.window.seconds | join(",")' "67,78"
jq_is "window json: drain range" '.drain[0].seconds | join(",")' "67,78"
run "no window: no verdict on time" 0 check $M --drain w5 -o json
jq_is "no window: fits null" '.window.fits' "null"
run "bad window" 2 check $M --drain w5 --window 5x
has "$tmp/err" "bad window" "--window: \"5x\" is not a duration"
run "bad link" 2 check $M --drain w5 --link fast
has "$tmp/err" "bad link" "--link: \"fast\" is not a rate"

# a 1 Gbit/s link: 32 GiB over 119 MiB/s, not the 512 MiB/s cap
run "link 1Gbit" 0 check $M --drain w5 --link 1Gbit -o json
jq_is "link 1Gbit: copy" '.drain[0].seconds[0] > 270' "true"
# a stated dirty rate decides: converges, basis assumed
run "dirty rate" 0 explain $M dev/build-runner --dirty-rate 40MB/s
has "$tmp/out" "dirty rate" "migration converges (basis assumed)"
has "$tmp/out" "dirty rate" "the dirty rate --dirty-rate states"
run "explain unknown" 0 explain $M dev/build-runner
has "$tmp/out" "explain unknown" "migration unknown (basis assumed)"
has "$tmp/out" "explain unknown" "finishes in time if the guest dirties less than 530 MB/s"
has "$tmp/out" "explain unknown" "masquerade: the pod IP changes"

# plan: each step's range and the window
run "plan window" 1 plan $M --drain-selector kubernetes.io/os=linux --allow-block --window 30s
has "$tmp/out" "plan window" "Window 30 s: does not fit"

# a Prometheus extract: build-runner dirties 600 MB/s of its 512 MiB/s
s=$(fresh)
cp -r $M/. "$s/"
python3 tests/e2e/mkmetrics.py "$s" dev build-runner 550000000 600000000 \
    17179869184
run "metrics: will abort" 1 check "$s" --drain w5 --window 2h
has "$tmp/out" "metrics: will abort" "dev/build-runner: 32.0 GiB at 512 MiB/s, dirtying up to 600 MB/s"
has "$tmp/out" "metrics: will abort" "will be aborted: the guest dirties memory faster than it is sent, so the copy stops making progress and is aborted after progressTimeout (150 s)"
has "$tmp/out" "metrics: will abort" "Window 2 h 0 min: does not fit"
run "metrics json" 0 explain "$s" dev/build-runner -o json
jq_is "metrics json: outcome" '.vmi.migration.outcome' "will-abort"
jq_is "metrics json: basis" '.vmi.migration.basis' "metrics"
jq_is "metrics json: dirty" '.vmi.migration.dirtyBytesPerSecond | join(",")' "550000000,600000000"
jq_is "metrics json: ends" '.vmi.migration.ends' "aborted"
run "metrics junit" 1 check "$s" --drain w5 --window 2h -o junit
has "$tmp/out" "metrics junit: the case fails" 'type="will-abort"'
has "$tmp/out" "metrics junit: its arithmetic" "migration will be aborted: 32.0 GiB at 512 MiB/s"
run "junit without window" 0 check "$s" --drain w5 -o junit
lacks "$tmp/out" "junit without window" 'will-abort'

# the warning (verdict stays ok), its group and the MigrationPolicy fix,
# proven by writing the policy into a copy and analysing it again
run "abort warning" 0 explain "$s" dev/build-runner
has "$tmp/out" "abort warning" "verdict ok, outcome migrates"
has "$tmp/out" "abort warning" "migration-will-abort             aborted after 182-214 s of copy (deadline 5250 s: completionTimeoutPerGiB 150; progressTimeout 150 s; the cluster's settings)"
run "abort json" 0 explain "$s" dev/build-runner -o json
jq_is "abort json: verdict" '.vmi.verdict' "ok"
jq_is "abort json: warning" '[.vmi.warnings[].code] | index("migration-will-abort") != null' "true"
run "abort group" 1 check "$s" --groups
has "$tmp/out" "abort group" "migration-will-abort: 1 VMI under the cluster's settings: Migration aborted at its deadline"
has "$tmp/out" "abort group" "fix set-migration-policy (proven: fixes 1 of 1): Create this MigrationPolicy and label the VMIs (dev/build-runner) kvscope.io/migration-policy=kvscope-g4"
has "$tmp/out" "abort group" "spec: {allowPostCopy: true, selectors: {virtualMachineInstanceSelector: {kvscope.io/migration-policy: kvscope-g4}}}"
run "abort group json" 1 check "$s" -o json
jq_is "abort group json: fix" '[.groups[] | select(.code == "migration-will-abort") | .subject.kind, .verdict, .fix.action, .fix.value, .fix.fixes] | map(tostring) | join(",")' "migrationPolicy,ok,set-migration-policy,allowPostCopy: true,1"
jq_is "abort group json: proven" '[.groups[] | select(.code == "migration-will-abort") | .fix.proven, .fix.worse] | map(tostring) | join(",")' "true,0"

# what-if --fix writes the MigrationPolicy and the label: the migration
# converges (better), the same numbers as the group's proof
run "what-if policy fix" 0 what-if "$s" --fix G4
has "$tmp/out" "what-if policy fix: better" "VMIs: 1 changed, 1 better, 0 worse"
has "$tmp/out" "what-if policy fix: converges" "dev/build-runner: ok -> ok, migration will-abort -> converges (-migration-will-abort)"
has "$tmp/out" "what-if policy fix: the policy" "MigrationPolicy kvscope-g4 created (allowPostCopy: true), 1 VMI labelled kvscope.io/migration-policy=kvscope-g4: takes effect at their next migration, without a restart"
has "$tmp/out" "what-if policy fix: proof" "after fix G4: 1 of its 1 VMI in no migration-will-abort group (fix.fixes 1)"
run "what-if policy fix json" 0 what-if "$s" --fix G4 -o json
jq_is "what-if policy fix json: outcome" '.vmis[] | select(.name == "dev/build-runner") | [.migration.before, .migration.after, .better] | map(tostring) | join(",")' "will-abort,converges,true"

# under a MigrationPolicy of its own (ci: 64Mi, 20 s per GB, no
# auto-converge), dirtying 30 MB/s: the fix's policy keeps ci's settings
# and selectors, one label more, so that it outranks ci
s2=$(fresh)
cp -r $M/. "$s2/"
python3 - "$s2" <<'PY'
import hashlib, json, os, sys
d = sys.argv[1]
path = "resources/migrationpolicies.migrations.kubevirt.io.json"
with open(os.path.join(d, path)) as f:
    doc = json.load(f)
doc["items"].append({"apiVersion": "migrations.kubevirt.io/v1alpha1",
    "kind": "MigrationPolicy", "metadata": {"name": "ci"},
    "spec": {"allowAutoConverge": False, "bandwidthPerMigration": "64Mi",
             "completionTimeoutPerGiB": 20,
             "selectors": {"namespaceSelector": {"env": "dev"},
                           "virtualMachineInstanceSelector":
                           {"app": "ci-runner"}}}})
data = json.dumps(doc).encode()
with open(os.path.join(d, path), "wb") as f:
    f.write(data)
with open(os.path.join(d, "manifest.json")) as f:
    m = json.load(f)
for e in m["files"]:
    if e["path"] == path:
        e["bytes"], e["sha256"] = len(data), hashlib.sha256(data).hexdigest()
with open(os.path.join(d, "manifest.json"), "w") as f:
    json.dump(m, f, indent=1)
PY
python3 tests/e2e/mkmetrics.py "$s2" dev build-runner 30000000 30000000 \
    34359738368
run "policy group" 1 check "$s2" --groups
has "$tmp/out" "policy group" "migration-will-abort: 1 VMI under MigrationPolicy ci: Migration aborted at its deadline"
has "$tmp/out" "policy group: proven" "fix set-migration-policy (proven: fixes 1 of 1)"
has "$tmp/out" "policy group: ci kept" "spec: {allowAutoConverge: false, allowPostCopy: true, bandwidthPerMigration: 64Mi, completionTimeoutPerGiB: 20, selectors: {namespaceSelector: {env: dev}, virtualMachineInstanceSelector: {app: ci-runner, kvscope.io/migration-policy: kvscope-g4}}}"
run "policy what-if" 0 what-if "$s2" --fix G4
has "$tmp/out" "policy what-if: converges" "dev/build-runner: ok -> ok, migration will-abort -> converges"
has "$tmp/out" "policy what-if: over ci" "MigrationPolicy kvscope-g4 created (allowPostCopy: true over the settings of MigrationPolicy ci)"
run "policy what-if report" 0 what-if "$s2" --fix G4 --report "$tmp/after" --format json -q
same "policy what-if: after" "$(jq -r '.vmis[] | select(.name == "dev/build-runner") | [.migration.outcome, .migration.ends, .migration.migrationPolicy] | join(",")' "$tmp/after/findings.json")" "converges,post-copy,kvscope-g4"

# one meaning: the proof of every group of both copies is what-if's
mkdir -p "$tmp/proof"
python3 tests/e2e/fixproof.py "$KVSCOPE" "$tmp/proof" "$s" "$s2" \
    >"$tmp/proof.out" || { bad "fixproof window"; sed 's/^/    | /' \
    "$tmp/proof.out"; }

test_done
