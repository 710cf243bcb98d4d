#!/usr/bin/env bash
# inputs.sh - inputs as support receives them (issue #25): what the input
# lacks is said on every command, one "kvscope: warning: " line per fact
# on stderr, and as the top-level warnings [{code, message}] of
# findings.json and of every -o json|yaml document; a complete sample
# prints no warning line.
set -u
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"

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

# one kubectl file of samples/mixed's objects (a List as JSON and YAML, a
# multi-document YAML stream), and standard input: the sample's verdicts
python3 - "$tmp" <<'PY'
import glob, json, sys, yaml
items = []
for f in sorted(glob.glob("samples/mixed/resources/*.json")):
    t = open(f).read()
    try:
        items += json.loads(t)["items"]
    except json.JSONDecodeError:
        items += [json.loads(l) for l in t.splitlines() if l.strip()]
lst = {"apiVersion": "v1", "kind": "List", "items": items,
       "metadata": {"resourceVersion": ""}}
json.dump(lst, open(sys.argv[1] + "/all.json", "w"), indent=4)
yaml.safe_dump(lst, open(sys.argv[1] + "/all.yaml", "w"))
with open(sys.argv[1] + "/multi.yaml", "w") as f:
    yaml.safe_dump_all(items, f)
PY
verdicts() {
	jq -c '.summary, (.vmis[] | [.name, .verdict, [.blockers[]?.code]])' \
	    "$1"
}
$KVSCOPE check samples/mixed -o json >"$tmp/ref.json" 2>/dev/null
verdicts "$tmp/ref.json" >"$tmp/ref.v"
[ "$(wc -l <"$tmp/ref.v")" -eq 5 ] || bad "reference" "$(head -3 "$tmp/ref.v")"
tar czf "$tmp/mixed.tar.gz" -C samples mixed
for f in all.json all.yaml multi.yaml "<all.json" "<mixed.tar.gz"; do
	case $f in
	"<"*) $KVSCOPE check - -o json <"$tmp/${f#<}" ;;
	*) $KVSCOPE check "$tmp/$f" -o json ;;
	esac >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	verdicts "$tmp/out.json" >"$tmp/out.v" 2>&1
	if [ "$rc" -eq 1 ] && cmp -s "$tmp/ref.v" "$tmp/out.v"; then
		ok "check $f: the verdicts of samples/mixed"
	else
		bad "check $f" "exit $rc, $(diff "$tmp/ref.v" "$tmp/out.v" |
		    head -c 300) $(head -c 300 "$tmp/err")"
	fi
done
# what-if reads its input twice: standard input is kept
if $KVSCOPE what-if - --cordon w3 <"$tmp/mixed.tar.gz" 2>"$tmp/err" |
    grep -q "^  cordon w3"; then
	ok "what-if -: reads standard input twice"
else
	bad "what-if -" "$(head -c 300 "$tmp/err")"
fi

# what kvscope cannot read: one line saying what it reads, exit 2
printf 'hello world\n' >"$tmp/notes.txt"
: >"$tmp/empty.json"
printf '\177ELF\002\001\001\000\000\000binary' >"$tmp/noise.bin"
for f in notes.txt empty.json noise.bin -; do
	case $f in
	-) $KVSCOPE check - </dev/null ;;
	*) $KVSCOPE check "$tmp/$f" ;;
	esac >/dev/null 2>"$tmp/err"
	rc=$?
	want="kvscope: $([ "$f" = - ] || printf '%s/' "$tmp")$f: not a \
snapshot, tarball, zip, must-gather or kubectl output"
	if [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ]; then
		ok "check $f: not an input, one line"
	else
		bad "check $f" "exit $rc, $(head -c 300 "$tmp/err")"
	fi
done

# a YAML error names the line of the field, not of the document's start
printf 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node
  metadata:\n    name: n0\n- apiVersion: v1\n  kind: Node\n  metadata:
    name: n1\n    labels: 7\n' >"$tmp/list.yaml"
printf 'apiVersion: v1\nkind: Node\nmetadata:\n  labels:\n    a: b
  labels:\n    c: d\n  name: x\n' >"$tmp/dup.yaml"
for c in "list.yaml|list.yaml line 12: nodes (n1): metadata.labels: \
expected an object, got a number" \
    "dup.yaml|dup.yaml: line 6: duplicate key \"labels\""; do
	f=${c%%|*} want=${c#*|}
	$KVSCOPE check "$tmp/$f" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "$want" "$tmp/err"; then
		ok "check $f: the field's line"
	else
		bad "check $f" "exit $rc, $(head -c 300 "$tmp/err")"
	fi
done

# issue 41: a file that cannot be parsed is skipped with a warning naming
# it and its resource, which counts as partial: the checks that need it
# are not judged for the VMIs they concern; --strict refuses (exit 2)
mkdir "$tmp/kf"
cp samples/mixed/resources/*.json "$tmp/kf/"
printf '{"apiVersion": "v1", "kind": "List", "items": [ {"api' \
    >"$tmp/kf/pods.json"
printf 'a: [b\n' >"$tmp/kf/extra.yaml"
$KVSCOPE check "$tmp/kf" -o json >"$tmp/kf.json" 2>"$tmp/err"
rc=$?
want="kvscope: warning: pods: partial: pods.json skipped: ends in the \
middle of a JSON value (truncated?); room on the nodes, containerDisk \
digests, pod affinity and the VMI's other launcher pods cannot be judged; \
checks that need it are not judged for the VMIs they concern"
if [ "$rc" -eq 1 ] && grep -qxF "$want" "$tmp/err"; then
	ok "partial: the skipped file and its resource"
else
	bad "partial" "exit $rc, $(head -c 400 "$tmp/err")"
fi
grep -qF "kvscope: warning: extra.yaml skipped: line 2: not valid YAML" \
    "$tmp/err" && ok "partial: a file of no known resource is said" ||
    bad "partial: unknown resource" "$(head -c 400 "$tmp/err")"
got=$(jq -r '[.summary.notJudged, (.warnings[] | select(.code ==
    "partial-resource") | .message[:14])] | join(" ")' "$tmp/kf.json")
[ "$got" = "7 pods: partial:" ] && ok "partial: 7 VMIs not judged" ||
    bad "partial: not judged" "$got"
$KVSCOPE check "$tmp/kf" --strict >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "kf: extra.yaml: line 2: not valid YAML" \
    "$tmp/err"; then
	ok "partial: --strict refuses"
else
	bad "partial: --strict" "exit $rc, $(head -c 300 "$tmp/err")"
fi
# a member the manifest lists that is missing: the same
cp -r samples/mixed "$tmp/miss"
rm "$tmp/miss/resources/persistentvolumeclaims.json"
$KVSCOPE check "$tmp/miss" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -qF "kvscope: warning: persistentvolumeclaims: \
partial: resources/persistentvolumeclaims.json skipped: listed in the \
manifest, missing from the snapshot" "$tmp/err"; then
	ok "missing member: skipped, partial"
else
	bad "missing member" "exit $rc, $(head -c 300 "$tmp/err")"
fi
# a forbidden resource's warning names what it costs, truly: kvscope
# reads PersistentVolumes (their node affinity pins targets)
pvf=$(fresh)
cp -r samples/mixed/. "$pvf"
python3 - "$pvf" <<'PY'
import json, os, sys
d = sys.argv[1]
m = json.load(open(d + "/manifest.json"))
for r in m["resources"]:
    if r["resource"] == "persistentvolumes":
        r["status"] = "forbidden"; r.pop("count", None); r.pop("file", None)
m["files"] = [f for f in m["files"] if "persistentvolumes.json" not in f["path"]]
os.remove(d + "/resources/persistentvolumes.json")
json.dump(m, open(d + "/manifest.json", "w"))
PY
$KVSCOPE check "$pvf" >/dev/null 2>"$tmp/err" || true
has "$tmp/err" "pv forbidden: its consequence" \
    "kvscope: warning: persistentvolumes: forbidden; a disk's PersistentVolume node affinity (local or zonal storage) does not limit its VMI's targets, and rwx-node-local is not judged"
# diff: each warning names its input, and one both inputs have is said
# once (issue 41)
w="persistentvolumeclaims: partial: resources/persistentvolumeclaims.json skipped"
$KVSCOPE diff samples/mixed "$tmp/miss" >/dev/null 2>"$tmp/err" || true
same "diff: the warning names its input" \
    "$(grep -c "^kvscope: warning: new ($tmp/miss): $w" "$tmp/err"),$(grep -c "$w" "$tmp/err")" "1,1"
$KVSCOPE diff "$tmp/miss" "$tmp/miss" >/dev/null 2>"$tmp/err" || true
same "diff: a warning of both inputs, once" \
    "$(grep -c "^kvscope: warning: old and new: $w" "$tmp/err"),$(grep -c "$w" "$tmp/err")" "1,1"
$KVSCOPE report "$tmp/miss" --strict -d "$tmp/rs" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "resources/persistentvolumeclaims.json \
(missing)" "$tmp/err"; then
	ok "missing member: --strict refuses"
else
	bad "missing member: --strict" "exit $rc, $(head -c 300 "$tmp/err")"
fi

# the same bad input, the same error, however many threads parse it:
# item 0 of a List is not JSON and the file passes KVSCOPE_MAX_MEMBER_BYTES
# in its second block of 64 KiB; item 0's error comes first in the file
# and is the one told, also when its batch of items was still with a
# parse worker, or not yet handed to one, as the limit stopped the read
python3 - "$tmp/badlist.json" <<'PY'
import sys
items = ['{"kind": "Pod", "metadata": {"name": "p%d", "namespace": "x"}, '
         '"pad": "%s"}' % (i, "x" * 4000) for i in range(100)]
items[0] = '{"kind": "Pod", "metadata": {"name": "p0"}, "bad": tru}'
with open(sys.argv[1], "w") as f:
    f.write('{"apiVersion": "v1", "kind": "List", "items": [' +
            ", ".join(items) + "]}")
PY
for th in 1 2 4; do
	rc=0
	KVSCOPE_THREADS=$th KVSCOPE_MAX_MEMBER_BYTES=100000 \
	    $KVSCOPE check "$tmp/badlist.json" >/dev/null 2>"$tmp/err" || rc=$?
	first=$(head -n 1 "$tmp/err")
	case "$rc $first" in
	"2 kvscope: $tmp/badlist.json: badlist.json: item 0 (byte "*"): not valid JSON: "*)
		ok "$th threads: item 0's error before the member limit" ;;
	*) bad "$th threads" "exit $rc: $first" ;;
	esac
done

test_done
