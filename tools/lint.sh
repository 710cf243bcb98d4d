#!/usr/bin/env bash
# make lint: the product's C sources keep to 80 columns (tabs count to the
# next multiple of 8, as git's and the kernel's checkers count them), each
# stays under 800 lines and each function within 80 (from the line of its
# name to its closing brace: the body opens and closes at column 0, as
# style(9) writes it), and every header compiles on its own (git's
# hdr-check), the unit tests' own headers (tests/unit/*.h) too.
# cpudb_builtin.c is generated (tools/gen-cpudb.c) and exempt.
# Usage: tools/lint.sh "CC" "CPPFLAGS"
set -u
cd "$(dirname "$0")/.."
cc=${1:-cc}
cppflags=${2:-}
status=0
files=$(git ls-files 'analyze/*.[ch]' 'render/*.[ch]' 'cli/*.[ch]' \
    'tools/*.c' | grep -v 'cpudb_builtin\.c$')

# report WHAT LINES: print the offending lines and their count
report() {
	[ -n "$2" ] || return 0
	echo "$2"
	echo "lint: $(echo "$2" | wc -l) $1"
	status=1
}

report "lines over 80 columns" "$(for f in $files; do
	expand -t 8 "$f" | awk -v f="$f" 'length($0) > 80 {
	    printf "%s:%d: %d columns\n", f, NR, length($0) }'
done)"
report "files of 800 lines or more" "$(for f in $files; do
	n=$(wc -l <"$f")
	[ "$n" -lt 800 ] || echo "$f: $n lines (fewer than 800)"
done)"
# a function: a name at column 0 followed by "(", its body from "{" to
# "}" at column 0
report "functions over 80 lines" "$(for f in $files; do
	awk -v f="$f" '
	/^[A-Za-z_][A-Za-z0-9_]*\(/ { name = $0; sub(/\(.*/, "", name)
	    start = NR }
	/^}/ && name != "" { if (NR - start + 1 > 80)
	    printf "%s:%d: %s() is %d lines (at most 80)\n", f, start,
	    name, NR - start + 1
	    name = "" }' "$f"
done)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# hdr HEADER FLAGS...: HEADER compiles alone
hdr() {
	local h=$1

	shift
	printf '#include "%s"\n' "$h" > "$tmp/hdr.c"
	# shellcheck disable=SC2086
	if ! $cc $cppflags "$@" -Wall -Wextra -Werror -fsyntax-only \
	    "$tmp/hdr.c" 2> "$tmp/err"; then
		echo "lint: $h does not compile on its own:"
		sed 's/^/    /' "$tmp/err" | head -n 8
		status=1
	fi
}
for h in $(git ls-files 'analyze/*.h' 'render/*.h' 'cli/*.h'); do
	hdr "$h"
done
# the unit tests' headers, with the flags the tests build with
for h in $(git ls-files 'tests/unit/*.h'); do
	hdr "$h" -Itests/unit -Wno-unused-parameter
done
[ $status = 0 ] && echo "lint: ok ($(echo "$files" | wc -w) files: 80" \
    "columns, under 800 lines, functions within 80; every header on its" \
    "own)"
exit $status
