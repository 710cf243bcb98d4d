# tests/e2e/lib.sh - what the end-to-end scripts share, in the spirit of
# git's t/test-lib-functions.sh.  Source it first thing:
#
#	. "$(dirname "$0")/lib.sh"
#
# It moves to the repository root, sets KVSCOPE (default ./kvscope),
# COLUMNS=1000,
# makes a fresh temporary directory $tmp removed on exit, and keeps the
# pass and fail counters behind these helpers:
#
#	ok NAME              count a pass, print "PASS NAME"
#	bad NAME [DETAIL]    count a failure, print "FAIL NAME[: DETAIL]"
#	check NAME CMD...    ok NAME when CMD succeeds, else bad NAME with
#	                     what CMD printed (CMD runs in a subshell)
#	run NAME WANT ARG... run $KVSCOPE ARG... $RUN_TAIL (words, unset:
#	                     none), stdout in $tmp/out, stderr in $tmp/err;
#	                     ok NAME when it exits WANT, else bad NAME and
#	                     the first lines of both
#	has FILE NAME TEXT   ok NAME when FILE contains TEXT (a fixed string)
#	lacks FILE NAME TEXT ok NAME when FILE does not contain TEXT
#	lines FILE NAME N    ok NAME when FILE has exactly N lines
#	count NAME N FILE TEXT  ok NAME when TEXT stands N times in FILE
#	same NAME GOT WANT   ok NAME when the two strings are equal
#	jq_is NAME FILTER WANT  ok NAME when jq -r FILTER of $tmp/out
#	                     prints WANT
#	fresh                print a new empty directory under $tmp
#	test_done            print "N passed, M failed"; its status is the
#	                     script's (0 when nothing failed): end with it
#
# The caller's shell options (set -euo pipefail) are its own; no helper
# stops a script that runs under set -e.
cd "$(dirname "$0")/../.." || exit 2
# text views wrap to COLUMNS (80 unset): the cases read whole lines, so
# a wide terminal unless a case sets its own (COLUMNS=60 cmd ...)
export COLUMNS=1000
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
	local name=$1 res

	shift
	if res=$("$@" 2>&1); then
		ok "$name"
	else
		bad "$name" "$res"
	fi
}

run() {
	local name=$1 want=$2 rc=0

	shift 2
	# shellcheck disable=SC2086 # RUN_TAIL is words
	"$KVSCOPE" "$@" ${RUN_TAIL:-} >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$name"
	else
		bad "$name" "exit $rc, want $want"
		sed 's/^/    out| /' "$tmp/out" | head -20
		sed 's/^/    err| /' "$tmp/err" | head -20
	fi
}

has() {
	if grep -qF -- "$3" "$1" 2>/dev/null; then
		ok "$2"
	else
		bad "$2" "no \"$3\" in $1"
		sed 's/^/    | /' "$1" 2>/dev/null | head -40
	fi
}

lacks() {
	if grep -qF -- "$3" "$1" 2>/dev/null; then
		bad "$2" "unexpected \"$3\" in $1"
	else
		ok "$2"
	fi
}

lines() {
	local n

	n=$(wc -l <"$1")
	if [ "$n" = "$3" ]; then
		ok "$2"
	else
		bad "$2" "$n lines, want $3"
		sed 's/^/    | /' "$1"
	fi
}

count() {
	local n

	n=$({ grep -oF -- "$4" "$3" || true; } | wc -l)
	if [ "$n" -eq "$2" ]; then
		ok "$1"
	else
		bad "$1" "$n, want $2"
	fi
}

same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		bad "$1" "got \"$2\", want \"$3\""
	fi
}

jq_is() {
	local got

	got=$(jq -r "$2" "$tmp/out" 2>&1)
	same "$1" "$got" "$3"
}

fresh() {
	mktemp -d "$tmp/t.XXXXXX"
}

test_done() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
