# tests/e2e/lib.sh - what the end-to-end scripts share, in the spirit of
# git's t/test-lib-functions.sh.  Source it first thing:
#
#	. "$(dirname "$0")/lib.sh"
#
# It moves to the repository root, sets KVSCOPE (default ./kvscope),
# makes a fresh temporary directory $tmp removed on exit, and keeps the
# pass and fail counters behind these helpers:
#
#	ok NAME              count a pass, print "PASS NAME"
#	bad NAME [DETAIL]    count a failure, print "FAIL NAME[: DETAIL]"
#	check NAME CMD...    ok NAME when CMD succeeds, else bad NAME
#	has FILE NAME TEXT   ok NAME when FILE contains TEXT (a fixed string)
#	test_done            print "N passed, M failed"; its status is the
#	                     script's (0 when nothing failed): end with it
#
# The caller's shell options (set -euo pipefail) are its own.
cd "$(dirname "$0")/../.." || exit 2
KVSCOPE=${KVSCOPE:-./kvscope}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() {
	pass=$((pass + 1))
	echo "PASS $1"
}

bad() {
	fail=$((fail + 1))
	echo "FAIL $1${2:+: $2}"
}

check() {
	local name=$1

	shift
	if "$@"; then
		ok "$name"
	else
		bad "$name"
	fi
}

has() {
	if grep -qF -- "$3" "$1" 2>/dev/null; then
		ok "$2"
	else
		bad "$2" "no \"$3\" in $1"
	fi
}

test_done() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
