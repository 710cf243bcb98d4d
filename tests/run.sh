#!/usr/bin/env bash
# Run every test of `make check`: the cmocka unit binaries given as
# arguments, then each tests/e2e/*.sh and tests/*/run-tests.sh suite.
# Environment: KVSCOPE = the (sanitized) kvscope binary, SHARED = ../shared.
# Prints one line per suite and a final "N passed, N failed" line.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
failed=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

run() {
	local name=$1; shift
	local start=$SECONDS
	if "$@" >"$log/out" 2>&1; then
		pass=$((pass + 1))
		printf 'PASS %-40s %3ds\n' "$name" $((SECONDS - start))
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %-40s %3ds\n' "$name" $((SECONDS - start))
		sed 's/^/    | /' "$log/out" | tail -n 60
	fi
}

for t in "$@"; do
	run "unit/$(basename "$t")" "$t"
done
for t in tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	run "e2e/$(basename "$t" .sh)" bash "$t"
done
for t in tests/*/run-tests.sh; do
	[ -e "$t" ] || continue
	run "$(basename "$(dirname "$t")")" bash "$t"
done

echo
[ ${#failed[@]} -eq 0 ] || printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
