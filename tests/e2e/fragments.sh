#!/usr/bin/env bash
# fragments.sh - the HTML report's links into its VMI list name what they
# filter by (verdict, namespace, node, code, group), so a link lasts
# across reports; an unknown name is said; an old numeric index and a
# group's id in this report still read.  The report's own script runs
# under Node on a stand-in DOM (tests/e2e/fragments.js); no browser
# (`make browser-check` runs the same fragments in Chromium).  Without
# node the script checks are skipped (the static checks still run).
#
#   KVSCOPE  the kvscope binary (make check passes the sanitized one)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"


"$KVSCOPE" report samples/mixed --format html --output-dir "$tmp/m" \
    >/dev/null
html=$tmp/m/report.html

# static: nodes are anchored by name, the data names each group
for n in w1 w4 a1; do
	if grep -q "id=\"node-$n\"" "$html" &&
	    grep -q "href=\"#node-$n\"" "$html"; then
		ok "node $n anchored and linked by name"
	else
		bad "node $n anchored and linked by name"
	fi
done
if grep -Eq '(id|href)="#?node-[0-9]+"' "$html"; then
	bad "no node anchor by index" \
	    "$(grep -Eo '(id|href)="#?node-[0-9]+"' "$html" | head -1)"
else
	ok "no node anchor by index"
fi
if grep -q '\["G4","set-cpu-model","no-cpu-target:C3"\]' "$html"; then
	ok "the data names group G4 no-cpu-target:C3"
else
	bad "the data names group G4 no-cpu-target:C3"
fi

if ! command -v node >/dev/null 2>&1; then
	echo "SKIP the script's fragments: no node"
	test_done
	exit
fi

# FRAGMENT <TAB> count line <TAB> rows shown <TAB> first row's node link
# <TAB> its verdict badge (prod/cache-0: ok, but a drain stops it: warn)
t=$'\t'
cat > "$tmp/want" <<WANT
${t}12 VMIs${t}12${t}-${t}badge tone-none
#vms?verdict=no-targett${t}no VMI with verdict 'no-targett' (of 12 VMIs)${t}0${t}-${t}-
#vms?verdict=no-target${t}3 of 12 VMIs${t}3${t}#node-w3${t}badge tone-fail
#vms?verdict=3${t}3 of 12 VMIs${t}3${t}#node-w3${t}badge tone-fail
#vms?ns=dev${t}4 of 12 VMIs${t}4${t}-${t}badge tone-none
#vms?ns=nosuch${t}no VMI with namespace 'nosuch' (of 12 VMIs)${t}0${t}-${t}-
#vms?node=w4${t}3 of 12 VMIs${t}3${t}#node-w4${t}badge tone-ok
#vms?node=w9${t}no VMI with node 'w9' (of 12 VMIs)${t}0${t}-${t}-
#vms?code=no-cpu-target${t}2 of 12 VMIs${t}2${t}#node-a1${t}badge tone-fail
#vms?code=nosuch${t}no VMI with code 'nosuch' (of 12 VMIs)${t}0${t}-${t}-
#vms?group=no-cpu-target:C3${t}1 of 12 VMIs${t}1${t}#node-w1${t}badge tone-fail
#vms?group=G4${t}1 of 12 VMIs${t}1${t}#node-w1${t}badge tone-fail
#vms?group=no-cpu-target:C9${t}no VMI with group 'no-cpu-target:C9' (of 12 VMIs)${t}0${t}-${t}-
#vms?verdict=no-target&node=w3${t}1 of 12 VMIs${t}1${t}#node-w3${t}badge tone-fail
#vms?q=cache-0${t}1 of 12 VMIs${t}1${t}#node-w2${t}badge tone-warn
WANT
frags=()
while IFS= read -r l; do frags+=("${l%%$t*}"); done < "$tmp/want"
if node tests/e2e/fragments.js "$html" "${frags[@]}" > "$tmp/got" 2>&1 &&
    diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok "the list's fragments by name (${#frags[@]} fragments)"
else
	bad "the list's fragments by name" "$(head -20 "$tmp/diff" "$tmp/got")"
fi

test_done
