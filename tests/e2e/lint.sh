#!/usr/bin/env bash
# tools/lint.sh, the "lint" suite of make check, catches what it is for:
# in a scratch repository holding a copy of it, a line of 81 columns
# (a tab counting to column 8) and a header that does not compile alone
# each make it exit 1 naming file and line or header; the clean tree
# passes.  The product itself is linted by the suite, not here.
set -euo pipefail
cd "$(dirname "$0")/../.."
cc=${LINT_CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

r=$tmp/repo
mkdir -p "$r/tools" "$r/analyze/util" "$r/render"
cp tools/lint.sh "$r/tools/"
printf '#ifndef A_H\n#define A_H\n#include <stddef.h>\n' >"$r/analyze/util/a.h"
printf 'size_t a_len(const char *s);\n#endif\n' >>"$r/analyze/util/a.h"
printf '#include "analyze/util/a.h"\n\tint x;\n' >"$r/analyze/util/a.c"
git -C "$r" init -q
git -C "$r" add -A
lint() {
	(cd "$r" && bash tools/lint.sh "$cc" "-std=c11 -I.") >"$tmp/out" 2>&1
}

rc=0; lint || rc=$?
if [ $rc = 0 ] && grep -q '^lint: ok (2 files' "$tmp/out"; then
	ok "clean tree passes"
else
	bad "clean tree: rc $rc: $(cat "$tmp/out")"
fi

# a tab (8 columns) and 73 characters: 81 columns
printf '\t/* %s */\n' "$(printf '%067d' 0)" >>"$r/analyze/util/a.c"
git -C "$r" add -A
rc=0; lint || rc=$?
if [ $rc = 1 ] && grep -qx 'analyze/util/a.c:3: 81 columns' "$tmp/out"; then
	ok "a line of 81 columns fails, named with its column count"
else
	bad "long line: rc $rc: $(cat "$tmp/out")"
fi
sed -i '3d' "$r/analyze/util/a.c"

# uses a type whose header it does not include
printf '#ifndef B_H\n#define B_H\nbool b(void);\n#endif\n' \
    >"$r/render/b.h"
git -C "$r" add -A
rc=0; lint || rc=$?
if [ $rc = 1 ] &&
    grep -q '^lint: render/b.h does not compile on its own' "$tmp/out" &&
    ! grep -q 'a.h does not' "$tmp/out"; then
	ok "a header that does not compile alone fails, named"
else
	bad "bad header: rc $rc: $(cat "$tmp/out")"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
