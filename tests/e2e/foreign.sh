#!/usr/bin/env bash
# Foreign inputs give the sample's own answers.  tests/foreign/gen.py builds
# from samples/mixed and samples/pitfalls (and the others) a must-gather
# tree (also as .tar.gz), a Harvester-style support bundle zip and a
# folder of plain kubectl YAML; the findings of each, without the
# snapshot facts that legitimately differ (.snapshot: createdAt and the
# warnings saying what the input was, and the same facts coded in the
# top-level warnings), must equal the sample's.  Then:
# the warnings name the input kind and the missing pods; `kvscope
# convert` writes a snapshot (deterministic, redacted, checked against its
# manifest) with the same findings; convert refuses a snapshot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
strip() { jq -S 'del(.snapshot, .warnings)' "$1"; }

for s in mixed pitfalls deckhouse hostile same-host-model; do
	python3 tests/foreign/gen.py "samples/$s" "$tmp/$s"
	"$KVSCOPE" report "samples/$s" --format json --output-dir "$tmp/$s.want" \
	    >/dev/null
	for input in must-gather must-gather.tar.gz bundle.zip plain; do
		out=$tmp/$s.$input.out
		if ! "$KVSCOPE" report "$tmp/$s/$input" --format json \
		    --output-dir "$out" >/dev/null 2>"$tmp/err"; then
			bad "$s $input: $(cat "$tmp/err")"
		elif [ "$(strip "$out/findings.json")" = \
		    "$(strip "$tmp/$s.want/findings.json")" ]; then
			ok "$s $input: same findings as the sample"
		else
			bad "$s $input: findings differ"
			diff <(strip "$out/findings.json") \
			    <(strip "$tmp/$s.want/findings.json") | head -10
		fi
	done
done

warn() {	# description, findings.json, substring of a warning
	if jq -e --arg w "$3" '[.snapshot.warnings[] | contains($w)] | any' \
	    "$2" >/dev/null; then ok "$1"; else bad "$1: no warning \"$3\""; fi
}
m=$tmp/mixed
warn "must-gather named" "$m.must-gather.out/findings.json" \
    "input: a must-gather, not a kvscope snapshot; no manifest, so no integrity check"
warn "duplicates counted" "$m.must-gather.out/findings.json" "13 seen twice"
warn "support bundle named" "$m.bundle.zip.out/findings.json" "input: a support bundle"
warn "plain files named" "$m.plain.out/findings.json" "input: plain kubectl output"
# the capture time: a must-gather's timestamp files, else said unknown
got=$(jq -r .snapshot.createdAt "$m.must-gather.out/findings.json")
[ "$got" = 2026-10-31T09:12:44Z ] &&
    ok "must-gather: taken when its timestamp files say" ||
    bad "must-gather: createdAt $got"
jq -e '[.snapshot.warnings[] | contains("capture time")] | any | not' \
    "$m.must-gather.out/findings.json" >/dev/null &&
    ok "must-gather: no capture time warning" ||
    bad "must-gather: a capture time warning"
warn "plain files: capture time unknown" "$m.plain.out/findings.json" \
    "capture time unknown (newest object 2026-10-28T06:12:45Z)"
"$KVSCOPE" report "$m/plain" --format html --output-dir "$tmp/ph" \
    >/dev/null 2>&1 || true
grep -q "Cluster (unnamed) · capture time unknown (newest object \
2026-10-28T06:12:45Z) · kvscope" "$tmp/ph/report.html" &&
    ok "plain files: the report's masthead says so" ||
    bad "plain files: masthead $(grep -o 'Cluster [^<]*' "$tmp/ph/report.html")"
"$KVSCOPE" report "$m/no-pods" --format json --output-dir "$tmp/np" >/dev/null
warn "absent pods said" "$tmp/np/findings.json" \
    "pods: not in the input; room on the nodes, containerDisk digests and \
host-model history not judged"

# convert: a snapshot with a manifest, the same findings, the same bytes
"$KVSCOPE" convert "$m/must-gather.tar.gz" --output-file "$tmp/c/snap.tar.gz" \
    2>/dev/null && bad "convert into a missing directory succeeded" ||
    ok "convert into a missing directory fails"
mkdir -p "$tmp/c1" "$tmp/c2"
"$KVSCOPE" convert "$m/must-gather.tar.gz" --output-file "$tmp/c1/snap.tar.gz"
"$KVSCOPE" convert "$m/must-gather" --output-file "$tmp/c2/snap.tar.gz"
cmp -s "$tmp/c1/snap.tar.gz" "$tmp/c2/snap.tar.gz" &&
    ok "convert is deterministic" || bad "convert output differs"
[ "$(ls -A "$tmp/c1")" = snap.tar.gz ] && ok "convert leaves no temporary" ||
    bad "convert left: $(ls -A "$tmp/c1")"
tar -xzf "$tmp/c1/snap.tar.gz" -C "$tmp/c1"
man=$tmp/c1/snap/manifest.json
[ "$(jq -r '.kind, .source.kind, (.files | length > 5)' "$man" | tr '\n' ' ')" \
    = "kvscope-snapshot must-gather true " ] && ok "converted manifest" ||
    bad "converted manifest: $(jq -c '{kind, source}' "$man")"
jq -e '[.redactions[].field] | index("spec.containers[].command") != null' \
    "$man" >/dev/null && ok "redactions counted" || bad "no redactions"
if grep -q managedFields "$tmp"/c1/snap/resources/*.json ||
    grep -q last-applied-configuration "$tmp"/c1/snap/resources/*.json; then
	bad "converted members keep managedFields or last-applied"
else
	ok "converted members redacted"
fi
"$KVSCOPE" report "$tmp/c1/snap.tar.gz" --format json --output-dir "$tmp/cr" \
    >/dev/null
[ "$(strip "$tmp/cr/findings.json")" = "$(strip "$m.want/findings.json")" ] &&
    ok "converted snapshot: same findings" || bad "converted findings differ"
# a damaged converted snapshot is caught by its manifest
printf '{"kind":"Node"}\n' >>"$tmp/c1/snap/resources/nodes.json"
if "$KVSCOPE" report "$tmp/c1/snap" --format json --output-dir "$tmp/cd" \
    2>"$tmp/err"; then bad "edited converted snapshot accepted"
else
	grep -q "resources/nodes.json.*size differs" "$tmp/err" &&
	    ok "edited converted snapshot refused" || bad "$(cat "$tmp/err")"
fi
# every input form converts, with the sanitized build and with the
# release one (whose parse arenas ASan does not see), to the same answers
for bin in "$KVSCOPE" ./kvscope; do
	[ -x "$bin" ] || continue
	for input in plain bundle.zip must-gather; do
		rm -rf "$tmp/cv" && mkdir "$tmp/cv"
		if "$bin" convert "$m/$input" --output-file "$tmp/cv/s.tar.gz" \
		    >/dev/null 2>"$tmp/err" && "$bin" report "$tmp/cv/s.tar.gz" \
		    --format json --output-dir "$tmp/cv/o" >/dev/null 2>>"$tmp/err" &&
		    [ "$(strip "$tmp/cv/o/findings.json")" = \
		    "$(strip "$m.want/findings.json")" ]; then
			ok "convert $input ($bin): same findings"
		else
			bad "convert $input ($bin): $(head -c 300 "$tmp/err")"
		fi
	done
done
if "$KVSCOPE" convert samples/mixed --output-file "$tmp/x.tar.gz" 2>"$tmp/err"; then
	bad "convert of a snapshot succeeded"
else
	grep -q "already a kvscope snapshot" "$tmp/err" &&
	    ok "convert refuses a snapshot" || bad "$(cat "$tmp/err")"
fi
# convert as a new user tries it (#25): a missing input, a wrong output
# name, an existing output (--force replaces it), one line on success
mg=$tmp/mixed/must-gather
conv() {	# name, want on stderr ("" = success), args...
	local name=$1 want=$2 rc
	shift 2
	rc=0
	"$KVSCOPE" convert "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ -z "$want" ]; then
		[ "$rc" = 0 ] && [ "$(wc -l <"$tmp/out")" = 1 ] &&
		    grep -q "^wrote .*: [0-9]* nodes, [0-9]* VMIs; redacted: " \
		    "$tmp/out" && ok "convert $name: $(cat "$tmp/out")" ||
		    bad "convert $name: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	elif [ "$rc" = 2 ] && grep -qF "$want" "$tmp/err" &&
	    [ "$(wc -l <"$tmp/err")" = 1 ]; then
		ok "convert $name: $(cat "$tmp/err")"
	else
		bad "convert $name: exit $rc, want \"$want\": $(cat "$tmp/err")"
	fi
}
conv "of a missing input" "nosuch.tgz: no such file" "$tmp/nosuch.tgz" \
    --output-file "$tmp/y.tar.gz"
conv "to a .zip name" "a snapshot is a .tar.gz" "$mg" --output-file "$tmp/x.zip"
[ ! -e "$tmp/x.zip" ] && ok "convert to .zip wrote nothing" ||
    bad "convert to .zip wrote $tmp/x.zip"
conv "to a new file" "" "$mg" --output-file "$tmp/new.tgz"
conv "over an existing file" "exists; use --force" "$mg" \
    --output-file "$tmp/new.tgz"
conv "over an existing file with --force" "" "$mg" --output-file \
    "$tmp/new.tgz" --force
test_done
