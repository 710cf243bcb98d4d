#!/usr/bin/env bash
# inputs.sh - inputs as support receives them (issue #25): what the input
# lacks is said on every command, one "kvscope: warning: " line per fact
# on stderr, and as the top-level warnings [{code, message}] of
# findings.json and of every -o json|yaml document; a complete sample
# prints no warning line.
set -u
cd "$(dirname "$0")/../.."
KVSCOPE=${KVSCOPE:-./kvscope}
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }

# a folder with the VMIs of samples/mixed alone (no nodes, pods, PVCs)
mkdir "$tmp/vmionly"
cp samples/mixed/resources/virtualmachineinstances.kubevirt.io.json \
    "$tmp/vmionly/"
for cmd in "check" "check --groups" "check --drain w1" "explain" \
    "report --format json -d $tmp/r"; do
	set -- $cmd
	# shellcheck disable=SC2086
	case $1 in
	explain) $KVSCOPE explain "$tmp/vmionly" dev/batch-big ;;
	*) $KVSCOPE "$1" "$tmp/vmionly" "${@:2}" ;;
	esac >/dev/null 2>"$tmp/err"
	if grep -qx "kvscope: warning: the input has no nodes: no VMI is judged" \
	    "$tmp/err"; then
		ok "$cmd: the missing nodes are a warning line"
	else
		bad "$cmd" "no nodes warning: $(head -c 300 "$tmp/err")"
	fi
done

for cmd in "check -o json" "check -o yaml" "check --groups -o json"; do
	# shellcheck disable=SC2086
	set -- $cmd
	$KVSCOPE "$1" "$tmp/vmionly" "${@:2}" >"$tmp/doc" 2>/dev/null
	case $cmd in
	*yaml) got=$(python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
print(d["warnings"][0]["code"], d["warnings"][0]["message"][:5])' \
	    "$tmp/doc" 2>&1) ;;
	*) got=$(jq -r '.warnings[0] | "\(.code) \(.message[:5])"' \
	    "$tmp/doc" 2>&1) ;;
	esac
	if [ "$got" = "missing-resource the i" ]; then
		ok "$cmd: top-level warnings"
	else
		bad "$cmd" "warnings[0] = $got"
	fi
done
got=$(jq -r '[.warnings[].code] | join(",")' "$tmp/r/findings.json")
case $got in
missing-resource,*) ok "findings.json: top-level warnings ($got)" ;;
*) bad "findings.json" "warnings codes: $got" ;;
esac

# a complete sample: no warning line (pods-launchers is not said)
$KVSCOPE check samples/mixed >/dev/null 2>"$tmp/err"
if [ ! -s "$tmp/err" ]; then
	ok "samples/mixed: stderr empty"
else
	bad "samples/mixed" "stderr: $(head -c 300 "$tmp/err")"
fi
got=$(jq -r '[.warnings[].code] | join(",")' \
    tests/golden/mixed.findings.json)
[ "$got" = pods-launchers ] && ok "golden mixed: warnings pods-launchers" ||
    bad "golden mixed" "warnings codes: $got"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
