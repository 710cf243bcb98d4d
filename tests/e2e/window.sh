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
# checked by estimating the VMI again under it
run "abort warning" 0 explain "$s" dev/build-runner
has "$tmp/out" "abort warning" "verdict ok, outcome migrates"
has "$tmp/out" "abort warning" "migration-will-abort             aborted after 182-214 s of copy (deadline 5250 s: completionTimeoutPerGiB 150; progressTimeout 150 s; the cluster's settings)"
run "abort json" 0 explain "$s" dev/build-runner -o json
jq_is "abort json: verdict" '.vmi.verdict' "ok"
jq_is "abort json: warning" '[.vmi.warnings[].code] | index("migration-will-abort") != null' "true"
run "abort group" 1 check "$s" --groups
has "$tmp/out" "abort group" "migration-will-abort: 1 VMI under the cluster's settings: Migration aborted at its deadline"
has "$tmp/out" "abort group" "fix set-migration-policy (not proven): Create this MigrationPolicy and label the VMIs (dev/build-runner) kvscope.io/migration-policy=kvscope-g4"
has "$tmp/out" "abort group" "spec: {allowPostCopy: true, selectors: {virtualMachineInstanceSelector: {kvscope.io/migration-policy: kvscope-g4}}}"
run "abort group json" 1 check "$s" -o json
jq_is "abort group json: fix" '[.groups[] | select(.code == "migration-will-abort") | .subject.kind, .verdict, .fix.action, .fix.value, .fix.fixes] | map(tostring) | join(",")' "migrationPolicy,ok,set-migration-policy,allowPostCopy: true,1"

test_done
