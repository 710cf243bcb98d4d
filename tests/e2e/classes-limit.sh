#!/usr/bin/env bash
# hostModelPairs holds classes squared pairs: a small snapshot of 5,000
# nodes with one CPU feature of their own each is refused at once with
# one line naming KVSCOPE_MAX_CPU_CLASSES (exit 2, nothing written), and
# the variable raises the limit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

python3 tests/e2e/mksnap.py "$tmp/u5000" --unique-classes 5000
start=$(date +%s%N)
rc=0
"$KVSCOPE" report "$tmp/u5000" --format json --output-dir "$tmp/out" \
    2>"$tmp/err" >/dev/null || rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" = 2 ] && ok "5000 classes: exit 2" || bad "5000 classes: exit $rc"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q \
    "5000 CPU classes .*more than the limit of 1000 (KVSCOPE_MAX_CPU_CLASSES)" \
    "$tmp/err" && ok "one line naming the override" ||
	{ bad "error line"; cat "$tmp/err"; }
check "nothing written" test ! -e "$tmp/out/findings.json"
# under a second on an idle machine; sanitizers and a shared machine
# get room
[ "$ms" -lt 10000 ] && ok "refused in ${ms} ms" || bad "took ${ms} ms"

python3 tests/e2e/mksnap.py "$tmp/u40" --unique-classes 40
rc=0
KVSCOPE_MAX_CPU_CLASSES=39 "$KVSCOPE" report "$tmp/u40" --format json \
    --output-dir "$tmp/o39" 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" = 2 ] && grep -q "limit of 39 (KVSCOPE_MAX_CPU_CLASSES)" "$tmp/err" &&
	ok "40 classes over a limit of 39" || bad "limit 39: exit $rc"
KVSCOPE_MAX_CPU_CLASSES=40 "$KVSCOPE" report "$tmp/u40" --format json \
    --output-dir "$tmp/o40" >/dev/null 2>"$tmp/err" &&
	[ "$(jq '.hostModelPairs | length' "$tmp/o40/findings.json")" = 1600 ] &&
	ok "raised to 40: 1600 pairs" || { bad "raised limit"; cat "$tmp/err"; }
test_done
