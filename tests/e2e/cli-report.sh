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

KVSCOPE=${KVSCOPE:-./kvscope}
# fontconfig's caches (HTML and PDF) are known leaks (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
S=samples/same-host-model
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
checks=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# same NAME GOT WANT
same() {
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: got \"$2\", want \"$3\""
}

run() {
	local name=$1 want=$2 rc
	shift 2
	"$KVSCOPE" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	same "$name: exit" "$rc" "$want"
	[ "$rc" = "$want" ] || sed 's/^/    err| /' "$work/err" | head -5
}

# --- report: files printed, parents created --------------------------------------

run "report a/b/c" 0 report "$S" --format json,html --output-dir "$work/a/b/c"
same "report prints its files" "$(cat "$work/out")" \
    "$work/a/b/c/findings.json
$work/a/b/c/report.html"
same "report: nothing on stderr" "$(cat "$work/err")" ""
same "report: the folder holds them" "$(ls "$work/a/b/c")" \
    "findings.json
report.html"

# --- a report over an older one leaves no stray file ----------------------------

run "all formats" 0 report "$S" --output-dir "$work/r"
checks=$((checks + 1))
ls "$work/r"/*.svg >/dev/null 2>&1 || fail "all formats: no SVG written"
same "all formats: one line per file" "$(wc -l <"$work/out")" \
    "$(ls "$work/r" | wc -l)"
# the default writes the CSV tables the PDF points to
same "all formats: the default file list" "$(ls "$work/r")" \
    "drain.csv
drain.svg
findings.json
hostmodel-matrix.svg
report.html
report.pdf
tradeoff.svg
verdicts.svg
vmis.csv"
run "json over all" 0 report "$S" --output-dir "$work/r" --format json
same "json over all: only findings.json left" "$(ls -A "$work/r")" findings.json
same "json over all: printed" "$(cat "$work/out")" "$work/r/findings.json"

# --- a folder that is not ours ---------------------------------------------------

mkdir "$work/mine"
echo keep >"$work/mine/notes.txt"
run "foreign folder" 2 report "$S" --output-dir "$work/mine" --format json
same "foreign folder: message" "$(cat "$work/err")" \
    "kvscope: report: $work/mine: not empty and not a kvscope report (it holds \"notes.txt\"); use --force to write into it"
same "foreign folder: untouched" "$(ls -A "$work/mine")" notes.txt
run "foreign folder --force" 0 report "$S" --output-dir "$work/mine" --format json --force
same "--force: written, the rest kept" "$(ls -A "$work/mine")" \
    "findings.json
notes.txt"
touch "$work/file"
run "output is a file" 2 report "$S" --output-dir "$work/file" --format json
same "output is a file: message" "$(cat "$work/err")" \
    "kvscope: report: $work/file: not a directory"

# --- a directory that is no snapshot --------------------------------------------

mkdir "$work/plain"
ln -s /etc "$work/plain/etc"
run "plain directory" 2 report "$work/plain" --output-dir "$work/out-plain"
same "plain directory: message" "$(cat "$work/err")" \
    "kvscope: $work/plain: etc: symbolic link; a snapshot holds only regular files and directories"
checks=$((checks + 1))
[ ! -e "$work/out-plain" ] || fail "plain directory: output folder created"

# --- completion ------------------------------------------------------------------

"$KVSCOPE" completion bash >"$work/kvscope.bash" || fail "completion bash"
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _kvscope; echo "${COMPREPLY[*]}"' \
	    _ "$work/kvscope.bash" "$@"
}
same "complete kvscope ch" "$(complete_words kvscope ch)" check
same "complete kvscope check -o" "$(complete_words kvscope check -o '')" \
    "text json yaml wide junit"
same "complete kvscope check --na" "$(complete_words kvscope check --na)" \
    --namespace
same "complete kvscope completion" "$(complete_words kvscope completion '')" \
    "bash zsh fish"
same "complete report --format" "$(complete_words kvscope report --format '')" \
    "html svg pdf json csv all"
for sh in zsh fish; do
	"$KVSCOPE" completion $sh >"$work/kvscope.$sh" || fail "completion $sh"
	checks=$((checks + 1))
	grep -qE -- '--namespace|-l namespace' "$work/kvscope.$sh" ||
	    fail "completion $sh: no --namespace"
	if command -v $sh >/dev/null; then
		checks=$((checks + 1))
		$sh -n "$work/kvscope.$sh" || fail "completion $sh: syntax"
	fi
done

# --- the man page documents every option the parser takes -----------------------

for opt in $(grep -o -- '--[a-z][a-z-]*' "$work/kvscope.bash" | sort -u); do
	checks=$((checks + 1))
	grep -qF -- "*$opt*" docs/man/kvscope.1.scd || fail "kvscope.1.scd: no $opt"
done
for cmd in $("$KVSCOPE" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
	checks=$((checks + 1))
	grep -qF -- "*$cmd*" docs/man/kvscope.1.scd || fail "kvscope.1.scd: no $cmd"
done
if command -v scdoc >/dev/null; then
	for page in docs/man/*.scd; do
		checks=$((checks + 1))
		scdoc <"$page" >"$work/page" && grep -q '^\.TH' "$work/page" ||
		    fail "$page: scdoc failed"
	done
else
	echo "scdoc not found: man pages not built"
fi

echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
