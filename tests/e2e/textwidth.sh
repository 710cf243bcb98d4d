#!/usr/bin/env bash
# textwidth.sh - the text views at any size (issue 41 item 4):
#
#   * check, check --groups, check --drain, what-if and plan wrap every
#     line to COLUMNS (80 when unset or not a number), continuation lines
#     indented under their item; only a single word wider than the line
#     (a JSON patch, a long path) may stand out;
#   * each opens with its totals: check and check --groups with the
#     count, check --drain with "N of M VMIs on the drained node would
#     stop or block the drain" (and the window's fit), plan with "Total:";
#   * a code once per VMI, no line twice in what-if --fix all.
#
# On the samples and on a generated 30-node, 300-VMI snapshot
# (tools/gen-large.py; the optimised build, KVSCOPE_FAST, as make check
# passes it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
FAST=${KVSCOPE_FAST:-$KVSCOPE}
SHARED=${SHARED:-../shared}
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
M=samples/mixed

# The lines of FILE wider than W that are more than one word.
wide() {	# W FILE
	awk -v w="$1" 'length > w && !/^ *[^ ]+$/' "$2"
}

# Each view at COLUMNS=60, at COLUMNS unset (80) and at COLUMNS=x (80).
views() {	# KVSCOPE SNAPSHOT DRAIN-NODE
	local kv=$1 s=$2 node=$3 n=0

	for args in "check $s" "check $s --groups" "check $s --drain $node" \
	    "what-if $s --fix all" "plan $s --drain-selector kubernetes.io/os=linux --allow-block"; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # args are words
		COLUMNS=60 "$kv" $args -q >"$tmp/v60-$n" 2>/dev/null || true
		# shellcheck disable=SC2086
		env -u COLUMNS "$kv" $args -q >"$tmp/v80-$n" 2>/dev/null || true
		# shellcheck disable=SC2086
		COLUMNS=x "$kv" $args -q >"$tmp/vx-$n" 2>/dev/null || true
		[ -s "$tmp/v60-$n" ] || { bad "$args: no output"; continue; }
		[ -z "$(wide 60 "$tmp/v60-$n")" ] &&
		    ok "$args: within COLUMNS=60 ($(wc -l <"$tmp/v60-$n") lines)" ||
		    bad "$args: wider than 60" "$(wide 60 "$tmp/v60-$n" | head -2)"
		[ -z "$(wide 80 "$tmp/v80-$n")" ] &&
		    ok "$args: within 80, COLUMNS unset" ||
		    bad "$args: wider than 80, COLUMNS unset" \
		    "$(wide 80 "$tmp/v80-$n" | head -2)"
		cmp -s "$tmp/v80-$n" "$tmp/vx-$n" &&
		    ok "$args: COLUMNS=x is 80" || bad "$args: COLUMNS=x is not 80"
	done
}

views "$KVSCOPE" $M w2

# continuation lines under their item: G1's summary and fix go on at 4
COLUMNS=60 run "groups at 60" 1 check $M --groups
has "$tmp/out" "groups at 60: summary goes on under G1" \
    "G1 drain-block: 4 VMIs make a drain of their node wait
    forever"
has "$tmp/out" "groups at 60: fix goes on under its line" \
    "  fix set-eviction-strategy (proven: fixes 1 of 4): 1 VMI
    KubeVirt does not report LiveMigratable"
COLUMNS=60 run "drain at 60" 1 check $M --drain w2
has "$tmp/out" "drain at 60: a VMI's line goes on 4 under it" \
    "    prod/cache-0: stops, starts again on a1, room not
        checked"
# colour: an SGR sequence takes no column, and a colour in force at a
# break is ended before it
COLUMNS=60 "$KVSCOPE" check $M --groups --color=always >"$tmp/color" 2>/dev/null || true
sed 's/\x1b\[[0-9;]*m//g' "$tmp/color" >"$tmp/plain"
COLUMNS=60 "$KVSCOPE" check $M --groups >"$tmp/nocolor" 2>/dev/null || true
cmp -s "$tmp/plain" "$tmp/nocolor" && ok "colour wraps as plain text" ||
    bad "colour wraps differently" "$(diff "$tmp/plain" "$tmp/nocolor" | head -4)"

# the totals first
run "drain totals" 1 check $M --drain w2
[ "$(head -1 "$tmp/out")" = "1 of 1 VMI on the drained node would stop or block the drain; 0 migrate in 0 s" ] &&
    ok "check --drain: the totals first" ||
    bad "check --drain: first line" "$(head -1 "$tmp/out")"
[ "$(sed -n 2p "$tmp/out")" = "kubectl drain of 1 node:" ] &&
    ok "check --drain: then each node" ||
    bad "check --drain: second line" "$(sed -n 2p "$tmp/out")"
run "drain window" 1 check $M --drain w3 --window 30m
sed -n 2p "$tmp/out" | grep -q '^Window 30 min 0 s: fits' &&
    ok "check --drain --window: the fit second" ||
    bad "check --drain --window: second line" "$(sed -n 2p "$tmp/out")"
run "plan totals" 1 plan $M --drain-selector kubernetes.io/os=linux --allow-block
sed -n 2p "$tmp/out" | grep -q '^Total: [0-9]* steps' &&
    ok "plan: Total second, after the pool" ||
    bad "plan: second line" "$(sed -n 2p "$tmp/out")"
run "groups count" 1 check $M --groups
same "check --groups: the count first" "$(head -1 "$tmp/out")" \
    "4 of 11 running VMIs would not migrate"

# a generated snapshot: every view within its width, the counts first,
# no code twice on a line, no line twice in what-if --fix all
python3 tools/gen-large.py --nodes 30 --vmis 300 --shared "$SHARED" \
    --out "$tmp/gen.tar.gz" >/dev/null 2>&1
"$FAST" check "$tmp/gen.tar.gz" -o wide >"$tmp/gwide" 2>/dev/null || true
node=$(awk 'NR > 1 && $2 != "-" { print $2; exit }' "$tmp/gwide")
views "$FAST" "$tmp/gen.tar.gz" "$node"
head -1 "$tmp/v80-1" | grep -qE '^[0-9]+ of [0-9]+ running VMIs would not migrate' &&
    ok "generated check: the count first" ||
    bad "generated check: first line" "$(head -1 "$tmp/v80-1")"
head -1 "$tmp/v80-3" | grep -qE '^[0-9]+ of [0-9]+ VMIs? on the drained node would' &&
    ok "generated check --drain: the totals first" ||
    bad "generated check --drain: first line" "$(head -1 "$tmp/v80-3")"
head -1 "$tmp/v80-4" | grep -qE '^after every fix: [0-9]+ of [0-9]+ VMIs would not migrate, [0-9]+ worse$' &&
    ok "generated what-if --fix all: the end result first" ||
    bad "generated what-if --fix all: first line" "$(head -1 "$tmp/v80-4")"
"$FAST" check "$tmp/gen.tar.gz" -q >"$tmp/gcheck" 2>/dev/null || true
"$FAST" what-if "$tmp/gen.tar.gz" --fix all -q >"$tmp/gall" 2>/dev/null || true
twice=$(grep -E ': [a-z-]+ \(' "$tmp/gcheck" |
    grep -E '\(([a-z-]+)(, [a-z-]+)*, \1[,)]|, ([a-z-]+)(, [a-z-]+)*, \3[,)]' | head -2 || true)
[ -z "$twice" ] && ok "generated check: a code once per VMI" ||
    bad "generated check: a code twice" "$twice"
dup=$(sort "$tmp/gall" | uniq -d | head -3)
[ -z "$dup" ] && ok "generated what-if --fix all: no line twice" ||
    bad "generated what-if --fix all: a line twice" "$dup"
test_done
