#!/usr/bin/env bash
# threads.sh - the same answers with one thread and two.  With two
# threads and 1,024 VMIs or more, a second thread judges every other run
# of 64 VMIs with a place of its own (analyze/rules/vmi.c judge_all): the
# verdicts, findings.json, the CSV and `explain` must not tell which
# thread judged a VMI.  The snapshot: 600 nodes, 1,200 VMIs in 16 tiers
# that keep apart by required pod anti-affinity (tests/e2e/mksnap.py
# --anti).  ns-003/vm-00003-0 sorts 73rd, in the second run: the second
# thread's; its nodes that run a pod of its tier fail by that pod, a
# reason the second thread's place keeps (podexplain.c eval_of).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"

snap=$tmp/anti
python3 tests/e2e/mksnap.py "$snap" --nodes 600 --anti

for t in 1 2; do
	KVSCOPE_THREADS=$t "$KVSCOPE" explain "$snap" ns-003/vm-00003-0 \
	    --all -q --color never >"$tmp/explain$t" 2>"$tmp/err$t"
	KVSCOPE_THREADS=$t "$KVSCOPE" report "$snap" -q --format json,csv \
	    -d "$tmp/out$t" >/dev/null 2>>"$tmp/err$t"
done
count "explain: 24 nodes fail by a pod of tier-06" 24 "$tmp/explain2" \
    "(node(s) didn't match pod anti-affinity rules)"
has "$tmp/explain2" "explain: the culprit pod on node-00027" \
    "pod ns-027/virt-launcher-vm-00027-0-abcde runs in kubernetes.io/hostname=node-00027"
has "$tmp/explain2" "explain: an empty namespaceSelector reads as every namespace" \
    "pod anti-affinity app=tier-06, kubevirt.io=virt-launcher in every namespace on kubernetes.io/hostname"
check "explain: the same text with one thread and two" \
    cmp "$tmp/explain1" "$tmp/explain2"
for f in findings.json vmis.csv drain.csv; do
	check "$f: the same bytes with one thread and two" \
	    cmp "$tmp/out1/$f" "$tmp/out2/$f"
done
check "no sanitizer report" sh -c "! grep -l 'Sanitizer' $tmp/err1 $tmp/err2"

# The fix proof's copies that lend the model's own claims are made one at
# a time, and their verdicts then run on both threads (copies_alone):
# 1,200 VMIs whose ReadWriteOnce disk is one group, proven on one copy.
rwo=$tmp/rwo
python3 tests/e2e/mksnap.py "$rwo" --nodes 600 --failing 1200
for t in 1 2; do
	KVSCOPE_THREADS=$t "$KVSCOPE" report "$rwo" -q --format json \
	    -d "$tmp/rwo$t" >/dev/null 2>"$tmp/rwoerr$t"
done
has "$tmp/rwo2/findings.json" "the claims' fix is proven on all of them" \
    '"path":"spec.accessModes","restart":true,"fixes":1200,"worse":0,"proven":true'
check "proof copies in two parts: the same findings as one thread" \
    cmp "$tmp/rwo1/findings.json" "$tmp/rwo2/findings.json"
check "no sanitizer report (proof)" \
    sh -c "! grep -l 'Sanitizer' $tmp/rwoerr1 $tmp/rwoerr2"

test_done
