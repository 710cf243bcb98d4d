#!/usr/bin/env bash
# tests/run.sh's "leftovers" line, in a scratch tree holding a copy of
# it: a suite that leaves a process running (in the background, its
# parent gone) makes the run fail, naming the process, which is then
# killed; a tree whose suites leave nothing passes.  Every process of
# make check itself is checked by the run, not here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

r=$tmp/repo
mkdir -p "$r/tests/e2e"
cp tests/run.sh "$r/tests/"
printf 'true\n' >"$r/tests/e2e/clean.sh"
# scratch: runs the tree's tests/run.sh, as make check does, with one
# core and no lint suite; its output in $tmp/out, status in rc
scratch() {
	rc=0
	(unset LINT_CC LINT_CPPFLAGS; JOBS=1 bash "$r/tests/run.sh") \
	    >"$tmp/out" 2>&1 || rc=$?
}

scratch
if [ $rc = 0 ] && grep -q '^PASS leftovers ' "$tmp/out" &&
    grep -qx '2 passed, 0 failed' "$tmp/out"; then
	ok "nothing left: passes"
else
	bad "nothing left" "rc $rc: $(cat "$tmp/out")"
fi

# a sleep with a word no other process has, orphaned by its suite
word=kvscope-leftover-$$-$RANDOM
printf '(exec -a %s sleep 300) >/dev/null 2>&1 &\ntrue\n' "$word" \
    >"$r/tests/e2e/leaky.sh"
scratch
if [ $rc = 1 ] && grep -q '^FAIL leftovers ' "$tmp/out" &&
    grep -q "still running: pid [0-9]*, parent [0-9]*: $word 300" \
    "$tmp/out" && grep -qx '2 passed, 1 failed' "$tmp/out"; then
	ok "a process left: fails, named"
else
	bad "a process left" "rc $rc: $(cat "$tmp/out")"
fi
pid=$(sed -n "s/.*still running: pid \([0-9]*\),.*$word.*/\1/p" "$tmp/out")
sleep 0.5
if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
    grep -q "^$word"; then
	bad "the process left is killed" "pid $pid"
	kill "$pid"
else
	ok "the process left is killed"
fi

test_done
