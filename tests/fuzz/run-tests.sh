#!/usr/bin/env bash
# run-tests.sh - the fuzz smoke run of `make check` (also `make fuzz-smoke`).
#
# Each libFuzzer harness in $FUZZ_DIR (default build/fuzz) runs once over
# its regression inputs (tests/fuzz/regress/<name>/: inputs that once
# crashed) and its seed corpus (seeds/<name>-smoke/ instead when there is
# one: a harness whose inputs take a second each): libFuzzer first runs
# every one of them (whatever the time limit), then fuzzes into a scratch
# corpus until FUZZ_SMOKE_SECONDS (default 3) have passed since its
# start; two harnesses run at a time.  Prints one line per harness
# and "N passed, M failed"; a crash, leak, timeout or out-of-memory fails
# the run and its input is kept in $FUZZ_DIR/artifacts/<name>/.  When the
# harnesses could not be built (clang without libFuzzer) it prints a SKIP
# line and succeeds.
set -u
cd "$(dirname "$0")/../.."
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
secs=${FUZZ_SMOKE_SECONDS:-3}
names="archive load items cpumap pipeline"

for n in $names; do
	if [ ! -x "$FUZZ_DIR/fuzz_$n" ]; then
		echo "SKIP fuzz smoke: no harness $FUZZ_DIR/fuzz_$n" \
		    "(clang cannot link -fsanitize=fuzzer; \`make deps\`" \
		    "installs clang and libclang-rt)"
		echo "0 passed, 0 failed"
		exit 0
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# fontconfig's caches, reached by the PDF and HTML writers (fuzz_pipeline)
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
export LSAN_OPTIONS=${LSAN_OPTIONS%:print_suppressions=0}:print_suppressions=0
common="-rss_limit_mb=2048 -print_final_stats=1"
# a hang, in seconds of wall time: fuzz_pipeline's inputs take 2 s of CPU
# each (PDF and HTML twice), 30 s on a machine loaded twentyfold
hang() { [ "$1" = pipeline ] && echo 60 || echo 10; }

# one NAME: replay and fuzz; writes $tmp/NAME.result (one line). A
# failure before libFuzzer's INITED line is one of the given inputs.
one() {
	local n=$1 bin=$FUZZ_DIR/fuzz_$1 out=$tmp/$1 art
	local seeds=$FUZZ_DIR/seeds/$1 regress=tests/fuzz/regress/$1
	[ -d "$seeds-smoke" ] && seeds=$seeds-smoke
	art=$FUZZ_DIR/artifacts/$n
	mkdir -p "$out/corpus" "$art" "$seeds"
	# shellcheck disable=SC2086
	if ! "$bin" $common -timeout="$(hang "$n")" -max_total_time="$secs" \
	    -dict="tests/fuzz/fuzz_$n.dict" -artifact_prefix="$art/" \
	    "$out/corpus" "$seeds" "$regress" >"$out/fuzz.log" 2>&1; then
		if grep -q -E '^#[0-9]+[[:space:]]+INITED' "$out/fuzz.log"; then
			echo "FAIL fuzz_$n: $(grep -m1 -E 'SUMMARY|ERROR' \
			    "$out/fuzz.log"); input in $art/"
		else
			echo "FAIL fuzz_$n: a regression or seed input fails:" \
			    "$(grep -m1 -E 'SUMMARY|ERROR' "$out/fuzz.log")"
		fi >"$tmp/$n.result"
		cp "$out/fuzz.log" "$art/fuzz.log"
		return
	fi
	printf 'PASS fuzz_%-8s %3d s %9s runs  cov %-5s corpus %s\n' "$n" \
	    "$secs" \
	    "$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")" \
	    "$(sed -n 's/.*DONE *cov: \([0-9]*\).*/\1/p' "$out/fuzz.log")" \
	    "$(find "$out/corpus" -type f | wc -l)" >"$tmp/$n.result"
}

set -- $names
while [ $# -gt 0 ]; do
	one "$1" &
	[ $# -gt 1 ] && one "$2" &
	wait
	shift; [ $# -gt 0 ] && shift
done

pass=0 fail=0
for n in $names; do
	cat "$tmp/$n.result"
	case $(cat "$tmp/$n.result") in
	PASS*) pass=$((pass + 1)) ;;
	*) fail=$((fail + 1))
	   sed 's/^/    | /' "$FUZZ_DIR/artifacts/$n/"*.log 2>/dev/null |
	       grep -v '^    | INFO\|^    | #' | head -40 ;;
	esac
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
