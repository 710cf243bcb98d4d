#!/usr/bin/env bash
# tests/run.sh in a scratch tree holding a copy of it.  The "leftovers"
# line: a suite that leaves a process running (in the background, its
# parent gone) makes the run fail, naming the process, which is then
# killed; a tree whose suites leave nothing passes.  Every process of
# make check itself is checked by the run, not here.  The "build" line
# (BUILD): the collector's suite runs beside it, niced, the others after
# it; when it fails, the one beside it is stopped and no other runs.  Each
# line's CPU seconds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

r=$tmp/repo
mkdir -p "$r/tests/e2e"
cp tests/run.sh tests/cpu-seconds.awk "$r/tests/"
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

rm -f "$r/tests/e2e/leaky.sh"

# BUILD: a build that takes a second; the collector's suite starts while
# it runs (the build's mark is not there yet) and runs niced; the e2e
# suite starts after it (the mark is there); each line gives CPU seconds,
# and a suite that burns a second of CPU says so.
mkdir -p "$r/tests/collector"
printf '%s\n' '[ -e "$MARK" ] || echo beside >"$MARK.collector"' \
    'ps -o ni= $$ | tr -d " " >>"$MARK.collector"' \
    >"$r/tests/collector/run-tests.sh"
cat >"$r/tests/e2e/clean.sh" <<'EOF'
[ -z "${BUILD:-}" ] || exit 1	# the run's, not the suites'
[ -e "$MARK" ] && echo after >"$MARK.e2e"
# 1.2 s of CPU by the shell's own count (`times`), whatever the machine's
# speed: a loop of a fixed length took 0.4 to 1 s
while :; do
	for ((i = 0; i < 20000; i++)); do :; done
	times >"$MARK.times"
	awk 'NR == 1 { split($1, a, /[ms]/); split($2, b, /[ms]/)
	    exit !(a[1] * 60 + a[2] + b[1] * 60 + b[2] >= 1.2) }' \
	    "$MARK.times" && break
done
EOF
export MARK=$tmp/built
build() {	# build BUILD: the scratch run with that BUILD and two jobs
	rm -f "$MARK" "$MARK.collector" "$MARK.e2e" "$MARK.times"
	rc=0
	(unset LINT_CC LINT_CPPFLAGS; BUILD=$1 JOBS=2 bash "$r/tests/run.sh") \
	    >"$tmp/out" 2>&1 || rc=$?
}
build 'sleep 1; touch "$MARK"'
cpu=$(sed -n 's|^PASS e2e/clean  *[0-9]*s  *\([0-9]*\) CPU s$|\1|p' "$tmp/out")
if [ $rc = 0 ] && grep -q '^PASS build  *[0-9]*s  *[0-9]* CPU s$' "$tmp/out" &&
    [ "$(cat "$MARK.collector" 2>/dev/null | tr '\n' ' ')" = "beside 10 " ] &&
    [ "$(cat "$MARK.e2e" 2>/dev/null)" = after ] &&
    [ -n "$cpu" ] && [ "$cpu" -ge 1 ] &&
    grep -qx '4 passed, 0 failed' "$tmp/out"; then
	ok "build: the collector's suite beside it, niced; the rest after; CPU s"
else
	bad "build" "rc $rc, cpu '$cpu': $(cat "$tmp/out" "$MARK".* 2>&1)"
fi
# a failed build: the collector's suite beside it (here a minute's sleep)
# is stopped at once, and no other suite starts
printf '%s\n' 'sleep 60' >>"$r/tests/collector/run-tests.sh"
start=$SECONDS
build 'sleep 1; echo "no compiler" >&2; exit 1'
if [ $rc = 1 ] && grep -q '^FAIL build ' "$tmp/out" &&
    grep -q '| no compiler' "$tmp/out" &&
    grep -q '^FAIL collector ' "$tmp/out" &&
    grep -qx '(the build failed: the suites beside it were stopped, no other ran)' \
    "$tmp/out" && [ $((SECONDS - start)) -lt 30 ] &&
    [ ! -e "$MARK.e2e" ] && grep -qx '1 passed, 2 failed' "$tmp/out"; then
	ok "a failed build: named, the suite beside it stopped, no other runs"
else
	bad "a failed build" "rc $rc: $(cat "$tmp/out")"
fi

test_done
