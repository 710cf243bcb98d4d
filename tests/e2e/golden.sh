#!/usr/bin/env bash
# Golden findings: for every sample under samples/ with a golden file
# tests/golden/<sample>.findings.json, `kvscope report --format json` must
# reproduce it byte for byte, from the directory and from a .tar.gz of it,
# twice in a row (determinism).  Regenerate after an intended change with
# `make golden` and review the diff.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
for golden in tests/golden/*.findings.json; do
	[ -e "$golden" ] || continue
	name=$(basename "$golden" .findings.json)
	sample=samples/$name
	if [ ! -d "$sample" ]; then
		bad "$name" "no sample $sample"
		continue
	fi
	tar -C samples -czf "$tmp/$name.tar.gz" "$name"
	ok=1
	for src in "$sample" "$tmp/$name.tar.gz" "$sample"; do
		out=$tmp/out-$name-$RANDOM
		if ! "$KVSCOPE" report "$src" --format json --output-dir "$out" \
		    2>"$tmp/err"; then
			echo "FAIL $name ($src): exit $?"; cat "$tmp/err"; ok=0
			break
		fi
		if ! cmp -s "$out/findings.json" "$golden"; then
			echo "FAIL $name ($src): findings differ from $golden"
			diff <(tr ',' '\n' <"$golden") \
			    <(tr ',' '\n' <"$out/findings.json") | head -20
			ok=0
			break
		fi
	done
	if [ $ok = 1 ]; then
		ok "$name"
	else
		fail=$((fail + 1))
	fi
done
test_done
