#!/usr/bin/env bash
# make lint: the product's C sources keep to 80 columns (tabs count to the
# next multiple of 8, as git's and the kernel's checkers count them), and
# every header compiles on its own (git's hdr-check).
# Usage: tools/lint.sh "CC" "CPPFLAGS"
set -u
cd "$(dirname "$0")/.."
cc=${1:-cc}
cppflags=${2:-}
status=0
files=$(git ls-files 'analyze/*.[ch]' 'render/*.[ch]' 'cli/*.[ch]' \
    'tools/*.c' | grep -v 'cpudb_builtin\.c$')
long=$(for f in $files; do
	expand -t 8 "$f" | awk -v f="$f" 'length($0) > 80 {
	    printf "%s:%d: %d columns\n", f, NR, length($0) }'
done)
if [ -n "$long" ]; then
	echo "$long"
	echo "lint: $(echo "$long" | wc -l) lines over 80 columns"
	status=1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in $(git ls-files 'analyze/*.h' 'render/*.h' 'cli/*.h'); do
	printf '#include "%s"\n' "$h" > "$tmp/hdr.c"
	# shellcheck disable=SC2086
	if ! $cc $cppflags -Wall -Wextra -Werror -fsyntax-only \
	    "$tmp/hdr.c" 2> "$tmp/err"; then
		echo "lint: $h does not compile on its own:"
		sed 's/^/    /' "$tmp/err" | head -n 8
		status=1
	fi
done
[ $status = 0 ] && echo "lint: ok ($(echo "$files" | wc -w) files, 80 columns," \
    "every header on its own)"
exit $status
