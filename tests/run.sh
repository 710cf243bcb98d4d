#!/usr/bin/env bash
# Run every test of `make check`: the cmocka unit binaries given as
# arguments, then each tests/e2e/*.sh and tests/*/run-tests.sh suite.
# Environment: KVSCOPE = the (sanitized) kvscope binary, SHARED = ../shared,
# JOBS = how many suites run at once (default: the number of CPUs);
# LINT_CC and LINT_CPPFLAGS, when set, add the "lint" suite
# (tools/lint.sh: 80 columns, every header on its own); BUILD, when set, is
# the command that builds what the suites run (make check: the sanitized
# tree): it runs first, as the "build" line, with only the collector's
# suite beside it (it needs none of it); the others start once it has
# passed; when it fails, the suite beside it is stopped and no other runs.
# Suites are independent (each makes its own temporary directory and picks
# its own ports), so they run side by side; the longest known ones start
# first. One line per suite as it ends, with its wall and CPU seconds (user
# and system, all its processes); a failing suite's log follows its line.
# Then the "leftovers" line: it fails when a process any suite started is
# still running after all have ended (each is named, then killed), then
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
# python3 is Python itself for every suite: a version manager's shim in
# front of it (pyenv's is a bash script) costs five times Python's own
# start-up, some 0.5 s of CPU a call, and the suites start Python a few
# hundred times. The shim's choice is kept: its sys.executable.
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
    [ -x "$py" ] && [ "$(command -v python3)" != "$py" ]; then
	mkdir -p "$log/bin" && ln -s "$py" "$log/bin/python3" &&
	    PATH=$log/bin:$PATH
	export PATH
fi
# Every process a suite starts carries this mark in its environment; when
# the suites have ended, none may be left (the "leftovers" line below).
KVSCOPE_CHECK_RUN="$$.$(date +%s%N)"
export KVSCOPE_CHECK_RUN

names=()
cmds=()
add() {
	names+=("$1")
	cmds+=("$2")
}

# The build, then the suites that can run beside it (early: they need no
# binary it makes; the collector's suite reads its archives with
# KVSCOPE_FAST, built before), then the slow suites, so the pool does not
# end waiting on one of them. The early suites run niced: the build has
# the CPUs when it wants them, they have what it leaves. BUILD is the
# run's, not the suites' (tests/e2e/leftovers.sh runs this script).
early=0
if [ -n "${BUILD:-}" ]; then
	add build "$BUILD"
	early=1
fi
unset BUILD
slow="collector samples versions fuzz hostile"
for s in $slow; do
	[ -e "tests/$s/run-tests.sh" ] || continue
	if [ "$s" = collector ] && [ "$early" -gt 0 ]; then
		add "$s" "nice -n 10 bash tests/$s/run-tests.sh"
		early=$((early + 1))
	else
		add "$s" "bash tests/$s/run-tests.sh"
	fi
done
if [ -n "${LINT_CC:-}" ]; then
	# shellcheck disable=SC2016 # expanded by the suite's own bash
	add lint 'bash tools/lint.sh "$LINT_CC" "${LINT_CPPFLAGS:-}"'
fi
for t in "$@"; do
	add "unit/$(basename "$t")" "$t"
done
for t in tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	[ "$(basename "$t")" = lib.sh ] && continue	# sourced, not a suite
	add "e2e/$(basename "$t" .sh)" "bash $t"
done
for t in tests/*/run-tests.sh; do
	[ -e "$t" ] || continue
	s=$(basename "$(dirname "$t")")
	case " $slow " in *" $s "*) continue ;; esac
	add "$s" "bash $t"
done

# run I: one suite in the background; its status and time go to files.
run() {
	local i=$1 start=$SECONDS rc=0
	bash -c "${cmds[$i]}" >"$log/$i.out" 2>&1 </dev/null || rc=$?
	times >"$log/$i.times"
	echo "$rc $((SECONDS - start))" >"$log/$i.rc"
}

pass=0
fail=0
failed=()
# report I: print the line of a suite that has ended.
report() {
	local i=$1 rc secs cpu
	read -r rc secs <"$log/$i.rc"
	cpu=$(awk -f tests/cpu-seconds.awk "$log/$i.times")
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		printf 'PASS %-40s %3ds %4s CPU s\n' "${names[$i]}" "$secs" "$cpu"
	else
		fail=$((fail + 1))
		failed+=("${names[$i]}")
		printf 'FAIL %-40s %3ds %4s CPU s\n' "${names[$i]}" "$secs" "$cpu"
		sed 's/^/    | /' "$log/$i.out" | tail -n 60
	fi
}

# marked: the PIDs of the processes that carry the run's mark (every
# process a suite started; the scan's own grep does not when the mark is
# not exported, as in the subshell of stop_beside).
marked() {
	grep -l -s -z -x "KVSCOPE_CHECK_RUN=$KVSCOPE_CHECK_RUN" \
	    /proc/[0-9]*/environ | cut -d/ -f3 | grep -v -x "$$"
}

# stop_beside: the build failed; the suites beside it stop (TERM to every
# process of the run: their traps clean up), and their lines say FAIL.
stop_beside() {
	local p
	p=$(export -n KVSCOPE_CHECK_RUN; marked) || true
	# shellcheck disable=SC2086 # one PID a word
	[ -z "$p" ] || kill $p 2>/dev/null || true
}

declare -A running=()
next=0
total=${#names[@]}
# building: the build is still running (then only the first $early
# entries, the build and the suites beside it, may start); built: it
# passed (or there is none).
building=0
built=1
[ "$early" -eq 0 ] || { building=1; built=0; }
while [ "$next" -lt "$total" ] || [ ${#running[@]} -gt 0 ]; do
	while [ "$next" -lt "$total" ] && [ ${#running[@]} -lt "$jobs" ]; do
		[ "$building" -eq 0 ] || [ "$next" -lt "$early" ] || break
		[ "$built" -eq 1 ] || [ "$next" -lt "$early" ] || {
			next=$total	# the build failed: nothing more starts
			break
		}
		run "$next" &
		running[$next]=$!
		next=$((next + 1))
	done
	wait -n 2>/dev/null || true
	for i in "${!running[@]}"; do
		if [ -e "$log/$i.rc" ]; then
			wait "${running[$i]}" 2>/dev/null || true
			unset "running[$i]"
			report "$i"
			if [ "$early" -gt 0 ] && [ "$i" -eq 0 ]; then
				building=0
				read -r rc _ <"$log/0.rc"
				if [ "$rc" -eq 0 ]; then
					built=1
				else
					stop_beside
				fi
			fi
		fi
	done
done

[ "$built" -eq 1 ] ||
	echo "(the build failed: the suites beside it were stopped, no other ran)"

# leftovers: the processes still alive that carry the mark (marked, above),
# after a grace of up to 5 s for those on their way out; each is named and
# then killed by its PID, and the line fails.
export -n KVSCOPE_CHECK_RUN
start=$SECONDS
while left=$(marked) || true; [ -n "$left" ] &&
    [ $((SECONDS - start)) -lt 5 ]; do
	sleep 1
done
if [ -z "$left" ]; then
	pass=$((pass + 1))
	printf 'PASS %-40s %3ds\n' leftovers $((SECONDS - start))
else
	fail=$((fail + 1))
	failed+=(leftovers)
	printf 'FAIL %-40s %3ds\n' leftovers $((SECONDS - start))
	for p in $left; do
		printf '    | still running: pid %s, parent %s: %s\n' "$p" \
		    "$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null)" \
		    "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-160)"
		kill "$p" 2>/dev/null
	done
fi

echo
[ ${#failed[@]} -eq 0 ] || printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
