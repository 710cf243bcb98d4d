#!/usr/bin/env bash
# proof.sh - one meaning of fixes and worse (issue 41 item 5): for every
# group of every sample and of a small generated snapshot, the group's
# proof in `check -o json` ("proven: fixes N of M, K worse") is what
# `what-if --fix G -o json` finds: its "fixes" entry for G (and the line
# "after fix G: N of its M VMIs ...") and its worse count
# (tests/e2e/proofnums.py).
#
# Two runs of kvscope per group: the optimised build (make check passes
# it as KVSCOPE_FAST; whatif.sh runs what-if --fix under ASan), about 20
# s in all.  PROOF_LARGE=NODES:VMIS adds a snapshot of that size
# (e.g. PROOF_LARGE=500:10000, about 14 minutes; docs/testing.md).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
FAST=${KVSCOPE_FAST:-$KVSCOPE}
SHARED=${SHARED:-../shared}
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"

proof() {	# NAME KVSCOPE SNAPSHOT...
	local name=$1 kv=$2

	shift 2
	if python3 tests/e2e/proofnums.py "$kv" "$@" >"$tmp/proof.out"; then
		ok "$name: $(tail -1 "$tmp/proof.out")"
	else
		bad "$name" "$(grep -E '^(mismatch|proofnums)' "$tmp/proof.out" |
		    head -20)"
	fi
}

samples=()
for s in samples/*/; do
	[ -e "$s/manifest.json" ] && samples+=("${s%/}")
done
proof "every sample's groups" "$FAST" "${samples[@]}"
grep -q 'fixes 1 of 4, 0 worse: what-if fixes 1 of 4, 0 worse' \
    "$tmp/proof.out" && ok "mixed G1: the proof's numbers, what-if's" ||
    bad "mixed G1: no 'fixes 1 of 4' line"

python3 tools/gen-large.py --nodes 30 --vmis 300 --shared "$SHARED" \
    --out "$tmp/gen.tar.gz" >/dev/null 2>&1
proof "a generated snapshot's groups (30 nodes, 300 VMIs)" "$FAST" \
    "$tmp/gen.tar.gz"
grep -q 'what-if fixes [1-9]' "$tmp/proof.out" &&
    ok "generated: a fix what-if applies" ||
    bad "generated: no fix applied"

if [ -n "${PROOF_LARGE:-}" ]; then
	python3 tools/gen-large.py --nodes "${PROOF_LARGE%%:*}" \
	    --vmis "${PROOF_LARGE##*:}" --shared "$SHARED" \
	    --out "$tmp/large.tar.gz" >/dev/null 2>&1
	proof "a generated snapshot's groups ($PROOF_LARGE)" "$FAST" \
	    "$tmp/large.tar.gz"
	sed 's/^/    | /' "$tmp/proof.out"
fi
test_done
