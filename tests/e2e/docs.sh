#!/usr/bin/env bash
# The project's own documentation stays true and self-contained:
#  1. no tracked Markdown file links into ../shared (the research notes
#     outside the repository: in a clone such links are broken);
#  2. every jq example of docs/findings.md marked "<!-- jq: runnable -->"
#     runs against the findings of samples/mixed, and where a ```text
#     block follows it, prints exactly that;
#  3. every ```sh block of docs/findings.md that calls jq carries a
#     marker (runnable, or "new in this release, not run"), so no example
#     escapes the check;
#  4. the docs the READMEs point to exist.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
KVSCOPE=$(cd "$(dirname "$KVSCOPE")" && pwd)/$(basename "$KVSCOPE")

# 1. links into ../shared
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	if hits=$(git grep -n '\.\./shared' -- '*.md'); then
		bad "tracked .md files link into ../shared:"
		printf '%s\n' "$hits" | sed 's/^/    /'
	else
		ok "no tracked .md links into ../shared"
	fi
else
	hits=$(grep -rn --include='*.md' '\.\./shared' . || true)
	if [ -n "$hits" ]; then
		bad "Markdown files link into ../shared:"
		printf '%s\n' "$hits" | sed 's/^/    /'
	else
		ok "no .md links into ../shared"
	fi
fi

# 4. the documents exist and are linked from README.md
for d in docs/findings.md docs/snapshot-format.md docs/rules.md \
    docs/limits.md; do
	if [ -s "$d" ] && grep -q "$d" README.md; then
		ok "$d exists and README.md links it"
	else
		bad "$d missing or not linked from README.md"
	fi
done

# Relative links of the pages this round wrote or pointed at resolve.
for md in README.md samples/README.md samples/*/README.md \
    snapshot/README.md docs/*.md; do
	dir=$(dirname "$md")
	{ grep -o '](\([^)#:]*\)\(#[^)]*\)\?)' "$md" || true; } |
	    sed 's/^](//; s/[#)].*//' |
	    while read -r target; do
		[ -n "$target" ] || continue
		[ -e "$dir/$target" ] || echo "$md: $target"
	    done
done >"$tmp/broken"
if [ -s "$tmp/broken" ]; then
	bad "broken relative links:"; sed 's/^/    /' "$tmp/broken"
else
	ok "relative links of the READMEs and docs/ resolve"
fi

# 2. and 3. the jq examples
"$KVSCOPE" report samples/mixed --format json --output-dir "$tmp/x" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
[ -s "$tmp/x/findings.json" ] || { echo "no findings.json"; exit 1; }
# Split docs/findings.md into numbered examples: ex.N.sh (the command),
# ex.N.want (the output block after it, if any), ex.N.mark.
awk -v dir="$tmp" '
	/^<!-- jq: / { mark = $0; next }
	/^```sh$/ && !inblk { inblk = "sh"; n++; f = dir "/ex." n ".sh";
		printf "" > f; printf "%s\n", mark > (dir "/ex." n ".mark");
		mark = ""; last = n; next }
	/^```text$/ && !inblk && last && !seen[last] {
		inblk = "text"; seen[last] = 1; f = dir "/ex." last ".want";
		printf "" > f; next }
	/^```/ && inblk { inblk = ""; close(f); next }
	inblk { print > f; next }
	/[^ \t]/ { if (last) seen[last] = 1 }
' docs/findings.md
nrun=0 nskip=0
for sh in $(ls "$tmp"/ex.*.sh | sort -V); do
	n=${sh%.sh}; n=${n##*.}
	grep -q '\bjq\b' "$sh" || continue
	mark=$(cat "$tmp/ex.$n.mark")
	first=$(head -n 1 "$sh")
	case $mark in
	'<!-- jq: runnable -->') ;;
	'<!-- jq: new in this release, not run -->')
		nskip=$((nskip + 1)); continue ;;
	*)	bad "example $n ($first) has no runnable / not-run marker"
		continue ;;
	esac
	nrun=$((nrun + 1))
	if ! got=$(cd "$tmp/x" && bash -o pipefail -e "$sh" 2>"$tmp/jqerr"); then
		bad "example $n ($first) fails: $(head -c 300 "$tmp/jqerr")"
		continue
	fi
	if [ -z "$got" ]; then
		bad "example $n ($first) prints nothing"
	elif [ -e "$tmp/ex.$n.want" ] &&
	    [ "$got" != "$(cat "$tmp/ex.$n.want")" ]; then
		bad "example $n ($first) prints other than documented:"
		diff <(cat "$tmp/ex.$n.want") <(printf '%s\n' "$got") |
		    sed 's/^/    /' || true
	else
		ok "example $n runs ($first)"
	fi
done
# The page has examples of both kinds; a parser that found none would
# pass vacuously.
[ "$nrun" -ge 15 ] && ok "$nrun runnable examples run" ||
    bad "only $nrun runnable examples found"
[ "$nskip" -ge 5 ] && ok "$nskip examples marked not run" ||
    bad "only $nskip not-run examples found"

test_done
