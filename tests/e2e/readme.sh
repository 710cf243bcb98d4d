#!/usr/bin/env bash
# The README is a front door that tells the truth (#41 items 9 and 11):
#  1. it is at most 400 lines;
#  2. its commands table matches `--help`: each synopsis is a command's
#     usage line (or one of its alternatives), every command of
#     `kvscope --help` has a row; docs/cli.md's table names only options
#     its command's --help knows;
#  3. every ```sh block runs (unless marked "<!-- readme: not run ...
#     -->"): each `kvscope ...` line on the samples, in a scratch folder,
#     exits 0 or 1, and the ```text block right after a block is what its
#     last command prints ("..." stands for lines left out);
#  4. `make report` prints what the README shows, each file once;
#  5. `man ./build/man/kvscope.1` reads without installing;
#  6. tools/gen-large.py --help documents every option.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# answers compared, on the optimised binary (docs/testing.md; the same
# code runs under the sanitizers in the unit tests, samples, drain,
# window-report and the fuzz harnesses)
KVSCOPE=${KVSCOPE_FAST:-$KVSCOPE}
KVSCOPE=$(cd "$(dirname "$KVSCOPE")" && pwd)/$(basename "$KVSCOPE")
repo=$PWD
export COLUMNS=80

# 1. the length
n=$(wc -l <README.md)
[ "$n" -le 400 ] && ok "README.md is $n lines (at most 400)" ||
    bad "README.md is $n lines, more than 400"

# 2. the commands tables against --help.  The table rows, one per line:
# the first cell's code span, \| unescaped.
rows() {
	sed -n 's/^| `\(kvscope [^`]*\)` |.*/\1/p' "$1" | sed 's/\\|/|/g'
}
rows README.md >"$tmp/readme.rows"
cmds=$("$KVSCOPE" --help | awk '/^commands:/ { on = 1; next }
	on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(echo "$cmds" | wc -w)" -ge 10 ] && ok "kvscope --help lists commands" ||
    bad "kvscope --help: no command list found"
for c in $cmds; do
	grep -q "^kvscope $c " "$tmp/readme.rows" &&
	    ok "README table has a row for $c" ||
	    bad "README table has no row for $c"
done
while IFS= read -r syn; do
	c=$(echo "$syn" | awk '{ print $2 }')
	usage=$("$KVSCOPE" "$c" --help | sed -n 's/^usage: kvscope //p')
	# the usage line, or one of its alternatives " | <command> ..."
	alts=$(printf '%s\n' "$usage" | awk -v c="$c" '{
		n = split($0, p, " \\| " c " ")
		print $0
		for (i = 1; i <= n && n > 1; i++)
			print (i == 1 ? p[i] : c " " p[i]) }')
	if printf '%s\n' "$alts" | grep -qxF "${syn#kvscope }"; then
		ok "README row of $c is its --help usage"
	else
		bad "README row \"$syn\" is not kvscope $c --help's usage" \
		    "\"$usage\""
	fi
done <"$tmp/readme.rows"
rows docs/cli.md >"$tmp/cli.rows"
[ -s "$tmp/cli.rows" ] && ok "docs/cli.md has a commands table" ||
    bad "docs/cli.md: no commands table"
while IFS= read -r syn; do
	c=$(echo "$syn" | awk '{ print $2 }')
	case $c in -*|COMMAND) continue ;; esac
	"$KVSCOPE" "$c" --help >"$tmp/help" 2>&1 ||
	    bad "docs/cli.md: kvscope $c --help fails"
	for opt in $(printf '%s\n' "$syn" |
	    grep -oE '(^|[ [|])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[ [|]//'); do
		grep -qE -- "(^|[^a-zA-Z-])$opt([^a-zA-Z-]|\$)" "$tmp/help" ||
		    bad "docs/cli.md: $c $opt is not in kvscope $c --help"
	done
done <"$tmp/cli.rows"
ok "docs/cli.md's table names only options --help knows"

# 3. the sh blocks: split README.md into blocks, in order, each with the
# text block that follows it (only blank lines between) and its mark.
awk -v dir="$tmp" '
	/^<!-- readme: / { mark = $0; next }
	/^```sh$/ && !inblk { inblk = "sh"; n++; f = dir "/blk." n ".sh";
		printf "" > f; printf "%s\n", mark > (dir "/blk." n ".mark");
		mark = ""; last = n; seen = 0; next }
	/^```text$/ && !inblk && last && !seen {
		inblk = "text"; seen = 1; f = dir "/blk." last ".want";
		printf "" > f; next }
	/^```/ && inblk { inblk = ""; close(f); next }
	inblk { print > f; next }
	/[^ \t]/ { seen = 1 }
' README.md
# "want" (with "..." lines) holds in "got": its runs of lines appear in
# got, in order, each run contiguous.
python_holds='
import sys
want = open(sys.argv[1]).read().rstrip("\n").split("\n")
got = open(sys.argv[2]).read().rstrip("\n").split("\n")
runs, cur = [], []
for l in want:
    if l == "...":
        runs.append(cur); cur = []
    else:
        cur.append(l)
runs.append(cur)
pos = 0
for r in runs:
    if not r:
        continue
    for i in range(pos, len(got) - len(r) + 1):
        if got[i:i + len(r)] == r:
            pos = i + len(r)
            break
    else:
        print("not found in order: " + r[0]); sys.exit(1)
'
work=$(fresh)
ln -s "$repo/samples" "$work/samples"
nrun=0
for sh in $(ls "$tmp"/blk.*.sh | sort -V); do
	b=${sh%.sh}
	case $(cat "$b.mark") in
	'<!-- readme: not run'*) continue ;;
	esac
	lastout=
	while IFS= read -r line; do
		line=${line%%  #*}
		case $line in
		'make '*)
			for t in ${line#make }; do
				case $t in *=*|-*) continue ;; esac
				grep -q "^$t:" Makefile &&
				    ok "make $t is a target" ||
				    bad "README: make $t is no target"
			done
			continue ;;
		'kvscope '*) ;;
		'') continue ;;
		*) bad "README: a runnable block has \"$line\" (mark it not run)"
			continue ;;
		esac
		nrun=$((nrun + 1))
		lastout=$tmp/run.$nrun
		rc=0
		(cd "$work" && eval "\"\$KVSCOPE\" ${line#kvscope }") \
		    >"$lastout" 2>"$lastout.err" || rc=$?
		if [ "$rc" -le 1 ]; then
			ok "README runs: $line (exit $rc)"
		else
			bad "README: $line: exit $rc:" "$(head -c 300 "$lastout.err")"
		fi
	done <"$sh"
	if [ -e "$b.want" ] && [ -n "$lastout" ]; then
		if err=$(python3 -c "$python_holds" "$b.want" "$lastout"); then
			ok "README shows what it prints: $(tail -n 1 "$sh")"
		else
			bad "README output of \"$(tail -n 1 "$sh")\" differs: $err"
		fi
	fi
done
[ "$nrun" -ge 10 ] && ok "$nrun README commands ran" ||
    bad "only $nrun README commands found"

# 4. make report: the README's lines, each file once
mr=$(fresh)
if make -s --no-print-directory report REPORT_DIR="$mr" >"$tmp/mr" \
    2>"$tmp/mr.err"; then
	sed "s|$mr/|out/|g" "$tmp/mr" >"$tmp/mr.out"
	awk '/^```text$/ { n++; if (n == 1) { on = 1; next } }
		on && /^```/ { exit } on' README.md >"$tmp/mr.want"
	python3 -c "$python_holds" "$tmp/mr.want" "$tmp/mr.out" &&
	    ok "make report prints what the README shows" ||
	    bad "make report prints other than the README:" "$(cat "$tmp/mr")"
	dups=$(grep -o 'out/[a-z.-]*' "$tmp/mr.out" | sort | uniq -d)
	[ -z "$dups" ] && ok "make report lists each file once" ||
	    bad "make report lists twice:" "$dups"
else
	bad "make report failed:" "$(tail -n 3 "$tmp/mr.err")"
fi

# 5. the manual without installing, as the README says
grep -qF 'man ./build/man/kvscope.1' README.md &&
    ok "README says man ./build/man/kvscope.1" ||
    bad "README does not say how to read the manual uninstalled"
if make -s --no-print-directory man >/dev/null 2>"$tmp/man.err" &&
    MANPAGER=cat MANWIDTH=80 man ./build/man/kvscope.1 2>/dev/null |
    grep -q 'kvscope check'; then
	ok "man ./build/man/kvscope.1 reads"
else
	bad "man ./build/man/kvscope.1 does not read:" "$(cat "$tmp/man.err")"
fi

# 6. gen-large.py --help: an option line with nothing after its
# metavar, and no indented line under it, is undocumented
python3 tools/gen-large.py --help >"$tmp/gl"
undoc=$(awk '/^options:/ { on = 1; next } !on { next }
	/^  -/ { if (pend) print pend; pend = ""
		if ($0 !~ /  [^ -].*  +[^ ]/ && $0 !~ /   +[^ -]/ || \
		    $0 ~ /^  -[^ ]*( [A-Z_]+)?(, -[^ ]*( [A-Z_]+)?)?$/) \
			pend = $1
		next }
	/^                / { pend = ""; next }
	END { if (pend) print pend }' "$tmp/gl")
[ -z "$undoc" ] && ok "gen-large.py --help documents every option" ||
    bad "gen-large.py --help: undocumented:" "$undoc"

test_done
