#!/usr/bin/env bash
# tools/lint.sh, the "lint" suite of make check, catches what it is for:
# in a scratch repository holding a copy of it, a line of 81 columns
# (a tab counting to column 8), a file of 800 lines, a function of 81
# lines, a header that does not compile alone and a unit test header
# that does not each make it exit 1 naming file and line or header; the
# clean tree passes.  The product itself is linted by the suite, not here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cc=${LINT_CC:-cc}

r=$tmp/repo
mkdir -p "$r/tools" "$r/analyze/util" "$r/render" "$r/tests/unit"
cp tools/lint.sh "$r/tools/"
printf '#ifndef A_H\n#define A_H\n#include <stddef.h>\n' >"$r/analyze/util/a.h"
printf 'size_t a_len(const char *s);\n#endif\n' >>"$r/analyze/util/a.h"
printf '#include "analyze/util/a.h"\n\tint x;\n' >"$r/analyze/util/a.c"
git -C "$r" init -q
git -C "$r" add -A
lint() {
	(cd "$r" && bash tools/lint.sh "$cc" "-std=c11 -I.") >"$tmp/out" 2>&1
}
# fails NAME WANT: lint exits 1 and its output has the line WANT
fails() {
	local rc=0

	git -C "$r" add -A
	lint || rc=$?
	if [ $rc = 1 ] && grep -qxF -- "$2" "$tmp/out"; then
		ok "$1"
	else
		bad "$1" "rc $rc: $(cat "$tmp/out")"
	fi
}

rc=0; lint || rc=$?
if [ $rc = 0 ] && grep -q '^lint: ok (2 files' "$tmp/out"; then
	ok "clean tree passes"
else
	bad "clean tree" "rc $rc: $(cat "$tmp/out")"
fi

# a tab (8 columns) and 73 characters: 81 columns
printf '\t/* %s */\n' "$(printf '%067d' 0)" >>"$r/analyze/util/a.c"
fails "a line of 81 columns fails, named with its column count" \
    'analyze/util/a.c:3: 81 columns'
sed -i '3d' "$r/analyze/util/a.c"

# 798 more lines: 800 in all
for _ in $(seq 798); do echo; done >>"$r/analyze/util/a.c"
fails "a file of 800 lines fails, named with its count" \
    'analyze/util/a.c: 800 lines (fewer than 800)'
sed -i '3,$d' "$r/analyze/util/a.c"

# a function of 81 lines from its name to its closing brace; one of 80
# beside it passes
{
	printf 'int\nshort_one(void)\n{\n'
	for _ in $(seq 76); do printf '\tx++;\n'; done
	printf '\treturn x;\n}\n\nint\nlong_one(void)\n{\n'
	for _ in $(seq 77); do printf '\tx++;\n'; done
	printf '\treturn x;\n}\n'
} >>"$r/analyze/util/a.c"
fails "a function of 81 lines fails, named; one of 80 passes" \
    'analyze/util/a.c:86: long_one() is 81 lines (at most 80)'
if grep -q short_one "$tmp/out"; then
	bad "a function of 80 lines passes" "$(cat "$tmp/out")"
fi
sed -i '3,$d' "$r/analyze/util/a.c"

# uses a type whose header it does not include
printf '#ifndef B_H\n#define B_H\nbool b(void);\n#endif\n' \
    >"$r/render/b.h"
fails "a header that does not compile alone fails, named" \
    'lint: render/b.h does not compile on its own:'
if grep -q 'a.h does not' "$tmp/out"; then
	bad "only the bad header is named" "$(cat "$tmp/out")"
fi
rm "$r/render/b.h"

# a unit test header that leans on what its includer brought
printf 'static inline json_t *t(void) { return 0; }\n' \
    >"$r/tests/unit/t.h"
fails "a unit test header that does not compile alone fails, named" \
    'lint: tests/unit/t.h does not compile on its own:'

test_done
