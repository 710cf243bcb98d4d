#!/usr/bin/env bash
# run-tests.sh - the hostile corpus: every snapshot gen.py makes is given
# to `$KVSCOPE report <snap> --format json --output-dir <fresh dir>`, which
# must exit with the status in expected.tsv and print exactly one line on
# stderr, "kvscope: <snapshot path>: ..." containing the listed substring
# (besides any "kvscope: warning: " lines of what the input lacks).
# A refused snapshot must leave its output directory empty and the
# scratch tree around it unchanged (no half-written file, nothing written
# outside); a case expected to succeed must write only findings.json.
# Runs from a directory three levels below the scratch root, so that a
# "../../x" written anyway would land inside what is checked.
# KVSCOPE_WRAP runs kvscope under a tool (valgrind).  Prints one line per
# case and "N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
KVSCOPE=${KVSCOPE:-$here/../../kvscope}
KVSCOPE_WRAP=${KVSCOPE_WRAP:-}	# e.g. "valgrind -q --error-exitcode=23"
case $KVSCOPE in /*) ;; *) KVSCOPE=$PWD/$KVSCOPE ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus=$tmp/corpus
log=$tmp/log
work=$tmp/a/b/c
mkdir -p "$work" "$log"
python3 "$here/gen.py" "$corpus" >/dev/null || { echo "gen.py failed"; exit 1; }

pass=0 fail=0
declare -A seen
while IFS=$'\t' read -r name status want; do
	case $name in ''|'#'*) continue ;; esac
	seen[$name]=1
	path=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' \
	    "$corpus/index.tsv")
	if [ -z "$path" ]; then
		echo "FAIL $name: gen.py made no such case"
		fail=$((fail + 1))
		continue
	fi
	snap=$corpus/$path
	out=$work/out-$name
	mkdir "$out"
	before=$(cd "$tmp" && find . \( -path ./corpus -o -path ./log \) -prune -o -print |
	    sort)
	# shellcheck disable=SC2086
	(cd "$work" && $KVSCOPE_WRAP "$KVSCOPE" report "$snap" --format json \
	    --output-dir "$out" >"$log/stdout" 2>"$log/stderr")
	rc=$?
	after=$(cd "$tmp" && find . \( -path ./corpus -o -path ./log \) -prune -o -print |
	    sort)
	why=
	# what the input lacks is said as "kvscope: warning: " lines
	# (issue #25); they are not the one line of a refusal
	grep -v '^kvscope: warning: ' "$log/stderr" >"$log/stderr.x"
	mv "$log/stderr.x" "$log/stderr"
	lines=$(wc -l <"$log/stderr")
	line=$(head -n 1 "$log/stderr")
	if [ "$rc" != "$status" ]; then
		why="exit status $rc, expected $status"
	elif [ "$status" = 0 ]; then
		[ "$lines" = 0 ] || why="stderr not empty: $line"
		[ -n "$why" ] || [ "$(ls -A "$out")" = findings.json ] ||
		    why="output is not findings.json alone: $(ls -A "$out")"
	elif [ "$lines" != 1 ] || [ -n "$(tail -c 1 "$log/stderr")" ]; then
		why="stderr is not one line ($lines lines): $(head -c 300 \
		    "$log/stderr" | tr '\n' '|')"
	elif [[ $line != "kvscope: $snap: "* ]]; then
		why="message does not start with \"kvscope: <snapshot>: \": $line"
	elif [[ $line != *"$want"* ]]; then
		why="message lacks \"$want\": $line"
	elif [ -n "$(ls -A "$out")" ]; then
		why="output directory not empty: $(ls -A "$out" | head -3)"
	elif [ "$before" != "$after" ]; then
		why="files appeared: $(diff <(echo "$before") \
		    <(echo "$after") | grep '^>' | head -3 | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name: $why"
		fail=$((fail + 1))
	fi
	rm -rf "$out"
done <"$here/expected.tsv"

# Every case the generator makes has an expectation.
while IFS=$'\t' read -r name _; do
	if [ -z "${seen[$name]:-}" ]; then
		echo "FAIL $name: not in expected.tsv"
		fail=$((fail + 1))
	fi
done <"$corpus/index.tsv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
