#!/usr/bin/env bash
# tests/e2e/cli-report.sh - `kvscope report` and its output folder: the
# files written printed one per line, missing parents created, a foreign
# non-empty folder refused unless --force, no stray file of an older
# report left, a directory without manifest.json named as no snapshot;
# and `kvscope completion`: the bash script sourced by bash completes.
#
# Environment: KVSCOPE = the kvscope binary under test (default ./kvscope).
# Run from the repository root.
set -u

. "$(dirname "$0")/lib.sh"
# fontconfig's caches (HTML and PDF) are known leaks (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
S=samples/same-host-model

# --- report: files printed, parents created --------------------------------------

run "report a/b/c" 0 report "$S" --format json,html --output-dir "$tmp/a/b/c"
# one line: the answer and the file to open; then the other files
same "report prints its headline, then its files" "$(cat "$tmp/out")" \
    "cluster lab-gnr, 8 running VMIs, 0 would not migrate: $tmp/a/b/c/report.html
$tmp/a/b/c/findings.json"
same "report: nothing on stderr" "$(cat "$tmp/err")" ""
same "report: the folder holds them" "$(ls "$tmp/a/b/c")" \
    "findings.json
report.html"

# --- a report over an older one leaves no stray file ----------------------------

run "all formats" 0 report "$S" --output-dir "$tmp/r"
check "all formats: an SVG written" ls "$tmp/r"/*.svg
same "all formats: one line per file" "$(wc -l <"$tmp/out")" \
    "$(ls "$tmp/r" | wc -l)"
# the default writes the CSV tables the PDF points to
same "all formats: the default file list" "$(ls "$tmp/r")" \
    "drain.csv
drain.svg
findings.json
hostmodel-matrix.svg
report.html
report.pdf
tradeoff.svg
verdicts.svg
vmis.csv"
run "json over all" 0 report "$S" --output-dir "$tmp/r" --format json
same "json over all: only findings.json left" "$(ls -A "$tmp/r")" findings.json
same "json over all: printed" "$(cat "$tmp/out")" \
    "cluster lab-gnr, 8 running VMIs, 0 would not migrate: $tmp/r/findings.json"
same "json over all: the same cluster's report replaced in silence" \
    "$(cat "$tmp/err")" ""

# --- over another cluster's report: said, on stderr ------------------------------

run "another cluster's report" 0 report samples/mixed --output-dir "$tmp/r" \
    --format json
same "another cluster: its headline" "$(cat "$tmp/out")" \
    "cluster lab-mixed, 11 running VMIs, 4 would not migrate: $tmp/r/findings.json"
same "another cluster: what it replaced" "$(cat "$tmp/err")" \
    "kvscope: report: note: $tmp/r: replaced the report of cluster lab-gnr (snapshot taken $(jq -r .createdAt "$S/manifest.json"))"

# --- a folder that is not ours ---------------------------------------------------

mkdir "$tmp/mine"
echo keep >"$tmp/mine/notes.txt"
run "foreign folder" 2 report "$S" --output-dir "$tmp/mine" --format json
same "foreign folder: message" "$(cat "$tmp/err")" \
    "kvscope: report: $tmp/mine: not empty and not a kvscope report (it holds \"notes.txt\"); use --force to write into it"
same "foreign folder: untouched" "$(ls -A "$tmp/mine")" notes.txt
run "foreign folder --force" 0 report "$S" --output-dir "$tmp/mine" --format json --force
same "--force: written, the rest kept" "$(ls -A "$tmp/mine")" \
    "findings.json
notes.txt"
touch "$tmp/file"
run "output is a file" 2 report "$S" --output-dir "$tmp/file" --format json
same "output is a file: message" "$(cat "$tmp/err")" \
    "kvscope: report: $tmp/file: not a directory"

# --- a directory that is no snapshot --------------------------------------------

mkdir "$tmp/plain"
ln -s /etc "$tmp/plain/etc"
run "plain directory" 2 report "$tmp/plain" --output-dir "$tmp/out-plain"
same "plain directory: message" "$(cat "$tmp/err")" \
    "kvscope: $tmp/plain: etc: symbolic link; a snapshot holds only regular files and directories"
check "plain directory: no output folder created" test ! -e "$tmp/out-plain"

# --- completion ------------------------------------------------------------------

"$KVSCOPE" completion bash >"$tmp/kvscope.bash" || bad "completion bash"
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _kvscope; echo "${COMPREPLY[*]}"' \
	    _ "$tmp/kvscope.bash" "$@"
}
same "complete kvscope ch" "$(complete_words kvscope ch)" check
same "complete kvscope check -o" "$(complete_words kvscope check -o '')" \
    "text json yaml wide junit prom sarif"
same "complete kvscope check --na" "$(complete_words kvscope check --na)" \
    --namespace
same "complete kvscope completion" "$(complete_words kvscope completion '')" \
    "bash zsh fish"
same "complete report --format" "$(complete_words kvscope report --format '')" \
    "html svg pdf json csv all"
for sh in zsh fish; do
	"$KVSCOPE" completion $sh >"$tmp/kvscope.$sh" || bad "completion $sh"
	check "completion $sh: --namespace" \
	    grep -qE -- '--namespace|-l namespace' "$tmp/kvscope.$sh"
	if command -v $sh >/dev/null; then
		check "completion $sh: syntax" $sh -n "$tmp/kvscope.$sh"
	fi
done

# --- the man page documents every option the parser takes -----------------------

for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/kvscope.bash" | sort -u); do
	check "kvscope.1.scd: $opt" grep -qF -- "*$opt*" docs/man/kvscope.1.scd
done
for cmd in $("$KVSCOPE" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
	check "kvscope.1.scd: $cmd" grep -qF -- "*$cmd*" docs/man/kvscope.1.scd
done
if command -v scdoc >/dev/null; then
	for page in docs/man/*.scd; do
		check "$page: scdoc" sh -c \
		    'scdoc <"$1" >"$2" && grep -q "^\.TH" "$2"' _ "$page" \
		    "$tmp/page"
	done
else
	echo "scdoc not found: man pages not built"
fi

test_done
