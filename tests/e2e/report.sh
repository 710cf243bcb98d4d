#!/usr/bin/env bash
# report.sh - `kvscope report`: HTML, SVG and PDF of the bundled samples
# (mixed, hostile, deckhouse) and of snapshots written by mksnap.py (more
# hostile names; a cluster of 230 CPU classes).
#
#   KVSCOPE  the kvscope binary (make check passes the sanitized one;
#            this suite runs KVSCOPE_FAST when set, docs/testing.md)
#
# Checks: the HTML parses with libxml2's HTML parser and loads nothing
# from anywhere (no http:// or https://, a Content-Security-Policy whose
# hashes match the inline style and script); hostile names, namespaces and
# label values (<script>, quotes, &, non-ASCII) come out escaped in the
# HTML text and attributes and in the SVG, and every VMI and node name of
# samples/hostile reads back as text; a Deckhouse snapshot is reported in
# DVP's words; the SVG files are well-formed
# XML; the PDF has a plausible page count, embeds every font and shows the
# summary numbers; two runs give identical bytes; SOURCE_DATE_EPOCH sets
# the PDF dates; a cluster beyond 200 CPU classes is aggregated.
# Prints one PASS/FAIL line per check; exits 1 when any failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# answers compared, on the optimised binary (docs/testing.md: the same
# code runs under the sanitizers in the unit tests, samples, hostile,
# foreign and the fuzz harnesses, fuzz_pipeline's every view and writer)
KVSCOPE=${KVSCOPE_FAST:-$KVSCOPE}
# the 230-class cluster runs the optimised build (make check passes it)
FAST=${KVSCOPE_FAST:-$KVSCOPE}
# fontconfig keeps a few bytes for the life of the process
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
unset SOURCE_DATE_EPOCH

snap_hostile=$(fresh); python3 tests/e2e/mksnap.py "$snap_hostile/s" --hostile

report() {	# report SNAPSHOT OUTDIR [format]
	"$KVSCOPE" report "$1" --format "${3:-html,svg,pdf,json}" \
	    --output-dir "$2" >/dev/null
}

# the checks after a report need its files: without them, stop at once
need_report() {	# need_report NAME SNAPSHOT OUTDIR [format]
	local name=$1 res; shift
	if res=$(report "$@" 2>&1); then
		ok "$name"
	else
		bad "$name" "$res"
		echo "cannot check the report without it; stopping"
		exit 1
	fi
}

# --- the mixed sample ---------------------------------------------------------

out=$(fresh)
need_report "report writes every format" samples/mixed "$out"
for f in report.html report.pdf findings.json verdicts.svg \
    hostmodel-matrix.svg tradeoff.svg drain.svg; do
	[ -s "$out/$f" ] || bad "report writes $f" "missing or empty"
done

# libxml2's HTML parser (2.9) knows HTML 4 only: the HTML5 sectioning
# elements and inline SVG are reported as unknown tags, nothing else may be
html_parses() {
	local errs
	errs=$(xmllint --html --noout "$1" 2>&1 | grep 'parser error :' |
	    grep -Ev 'Tag (header|nav|main|section|figure|figcaption|footer|svg|rect|text|title|desc|details|summary|wbr) invalid' || true)
	[ -z "$errs" ] || { echo "$errs" | head -5; return 1; }
	xmllint --html --noout "$1" 2>/dev/null
}
check "html parses with libxml2's HTML parser" html_parses "$out/report.html"
# at 420 px the drain table reads as one labelled block per node (#41):
# every cell carries its heading, and the narrow-screen CSS lays it out
has "$out/report.html" "html: drain table as cards" '<table class="sort cards">'
has "$out/report.html" "html: drain cells labelled" \
    'data-label="Estimate">'
has "$out/report.html" "html: narrow css lays cards out" \
    'table.cards td[data-label]::before'
# a long path in prose breaks after its dots and slashes, not inside a word
has "$out/report.html" "html: a long path breaks after its dots" \
    'spec.<wbr></wbr>template.<wbr></wbr>spec.<wbr></wbr>evictionStrategy'
check "html starts with <!DOCTYPE html>" \
    sh -c "head -c 15 '$out/report.html' | grep -qx '<!DOCTYPE html>'"
if grep -Eiq 'https?://' "$out/report.html"; then
	bad "html references no http:// or https:// resource" \
	    "$(grep -Eio '.{20}https?://.{20}' "$out/report.html" | head -3)"
else
	ok "html references no http:// or https:// resource"
fi

# structure of the HTML: the CSP, its hashes, no external references
cat > "$tmp/html_check.py" <<'EOF'
import base64, hashlib, re, sys
from html.parser import HTMLParser

doc = open(sys.argv[1], encoding="utf-8").read()
errors = []

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.csp = None
        self.scripts = 0
        self.data = 0
        self.raw = {}
        self.cur = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a.get("content")
        if tag == "script":
            if "src" in a:
                errors.append("script with src")
            if a.get("type") == "application/json":
                self.data += 1	# data, not run: needs no hash
                tag = "data"
            else:
                self.scripts += 1
        if tag in ("style", "script", "data"):
            self.cur = tag
            self.raw[tag] = ""
        for k, v in attrs:
            if k in ("href", "src", "action") and v and not v.startswith("#"):
                errors.append("%s=%r on <%s>" % (k, v, tag))
            if k == "style" or k.startswith("on"):
                errors.append("attribute %s on <%s>" % (k, tag))
    def handle_endtag(self, tag):
        if tag == self.cur or (tag == "script" and self.cur == "data"):
            self.cur = None
    def handle_data(self, data):
        if self.cur:
            self.raw[self.cur] += data

p = P()
p.feed(doc)
if p.csp is None:
    errors.append("no Content-Security-Policy meta")
else:
    if "default-src 'none'" not in p.csp:
        errors.append("CSP does not forbid by default: " + p.csp)
    for tag, key in (("style", "style-src"), ("script", "script-src")):
        h = base64.b64encode(hashlib.sha256(
            p.raw.get(tag, "").encode()).digest()).decode()
        if "%s 'sha256-%s'" % (key, h) not in p.csp:
            errors.append("%s hash does not match the inline %s" % (key, tag))
if p.scripts != 1:
    errors.append("%d <script> elements, expected the one inline" % p.scripts)
if p.data > 1:
    errors.append("%d data <script> elements, expected one" % p.data)
if "<" in p.raw.get("data", ""):
    errors.append("a '<' in the JSON data")
if errors:
    print("\n".join(errors))
    sys.exit(1)
EOF
check "html: CSP forbids remote loads, hashes match, no external refs" \
    python3 "$tmp/html_check.py" "$out/report.html"

svg_wellformed() {
	for f in "$1"/*.svg; do
		xmllint --noout "$f" || return 1
		grep -q '<title>' "$f" || { echo "$f: no <title>"; return 1; }
		if grep -q '<image' "$f"; then echo "$f: raster image"; return 1; fi
	done
}
check "svg files are well-formed XML with titles" svg_wellformed "$out"

# the key numbers, from findings.json
running=$(jq '.summary.running' "$out/findings.json")
okc=$(jq '.summary.ok' "$out/findings.json")
mism=$(jq '.summary.conditionMismatch' "$out/findings.json")
bad=$((running - okc))
headline="$bad of $running running VMIs would not migrate; $mism of"

pages=$(pdfinfo "$out/report.pdf" | awk '/^Pages:/ { print $2 }')
if [ "$pages" -ge 10 ] && [ "$pages" -le 24 ]; then
	ok "pdf has $pages pages (10..24)"
else
	bad "pdf page count" "$pages pages, expected 10..24"
fi
fonts_embedded() {
	local list
	list=$(pdffonts "$1" | tail -n +3)
	[ -n "$list" ] || { echo "no fonts"; return 1; }
	# column "emb" is the fourth field from the right
	echo "$list" | awk '{ if ($(NF-4) != "yes") { print; bad = 1 } }
	    END { exit bad }'
}
check "pdf embeds every font" fonts_embedded "$out/report.pdf"
pdftotext -layout "$out/report.pdf" "$tmp/mixed.txt"
pdf_has() {	# pdf_has FILE STRING...
	local f=$1; shift
	for s in "$@"; do
		grep -qF -- "$s" "$f" || { echo "missing: $s"; return 1; }
	done
}
check "pdf shows the summary numbers" pdf_has "$tmp/mixed.txt" \
    "$headline" "$okc ok" "Page 1 of $pages" "Page $pages of $pages" \
    "Contents" "Times assume each node is drained alone"
check "html shows the same headline" pdf_has "$out/report.html" "$headline"

# --- the trade-off headline ------------------------------------------------------

# a vendor scope names a model of its vendor when one reaches the same
# nodes (EPYC-Genoa, not Cascadelake-Server-noTSX, for AMD); AVX2 that is
# x86-64-v3 exactly, and AVX-512 reaching the AVX2 nodes, are one phrase;
# the headline says VMs never move between vendors
tradeoff_headline() {	# tradeoff_headline FILE
	local h
	h=$(grep -o '<p class="answer">[^<]*AVX2[^<]*' "$1") ||
	    { echo "no trade-off headline"; return 1; }
	for s in "AMD: AVX2 (x86-64-v3) and AVX-512 in the guest on 1 of 1 node (EPYC-Genoa)." \
	    "Intel: AVX2 (x86-64-v3) in the guest on 5 of 5 nodes (Haswell-noTSX), AVX-512 on 3 of 5 (Cascadelake-Server)." \
	    "VMs never move between vendors"; do
		case $h in *"$s"*) ;; *) echo "missing: $s in: $h"; return 1;; esac
	done
	case $h in *AMD:*Cascadelake*Intel:*) echo "AMD names Intel: $h"; return 1;; esac
}
check "trade-off headline: vendor models, merged tiers, no moves between vendors" \
    tradeoff_headline "$out/report.html"
pdftotext -raw "$out/report.pdf" - | tr -d ' \n' > "$tmp/mixed.flat"
check "pdf trade-off headline names EPYC-Genoa for AMD" pdf_has \
    "$tmp/mixed.flat" "AMD:AVX2(x86-64-v3)andAVX-512inthegueston1of1node(EPYC-Genoa)."

# --- long lists -------------------------------------------------------------

# vendor:AMD's 60 common models: six, "and 54 more (all in
# findings.json)", all 60 folded (HTML); twelve and the rest counted
# (PDF); names and labels whole (each a nowrap span; in the PDF's lines)
long_html() {
	python3 - "$1" <<'PY'
import sys
h = open(sys.argv[1], encoding="utf-8").read().replace("\n", "")
i = h.find('<td class="nowrap">vendor:AMD</td>')
want = ('Cascadelake-Server-v3</span> and 54 more (all in findings.json)'
        '<details class="more"><summary>All 60</summary>')
if i < 0 or want not in h[i:i + 6000]:
    print("vendor:AMD row: " + h[i:i + 300])
    sys.exit(1)
PY
}
check "html: a long model list names 6, folds all 60" long_html \
    "$out/report.html"
check "pdf: a long model list is cut, names whole" pdf_has \
    "$tmp/mixed.txt" "EPYC-Genoa-v1 and 48 more (all in findings.json)" \
    "v-vmsave-vmload" "pschange-mc-no" "overflow-recov"
# the settings table's 34 obsolete models (KubeVirt's defaults and their
# -v1 aliases): twelve, "and 22 more", all 34 folded in the HTML
obsolete_html() {
	python3 - "$1" <<'PY'
import sys
h = open(sys.argv[1], encoding="utf-8").read().replace("\n", "")
i = h.find('<th scope="row">Obsolete CPU models</th>')
want = ('core2duo-v1</span> and 22 more (all in findings.json)'
        '<details class="more"><summary>All 34</summary>')
if i < 0 or want not in h[i:i + 4000] or "qemu64-v1" not in h[i:i + 4000]:
    print("obsolete row: " + h[i:i + 300])
    sys.exit(1)
PY
}
check "html: the obsolete models name 12, fold all 34" obsolete_html \
    "$out/report.html"
obsolete_pdf() {
	tr -s ' \n' '  ' <"$1" | grep -qF "Obsolete CPU models 486, 486-v1," &&
	    tr -s ' \n' '  ' <"$1" | grep -qF "core2duo-v1 and 22 more (all" &&
	    ! grep -qF "qemu64-v1" "$1"
}
check "pdf: the obsolete models are cut at twelve" obsolete_pdf \
    "$tmp/mixed.txt"

# --- determinism and dates ----------------------------------------------------

again=$(fresh)
report samples/mixed "$again"
same_bytes() {
	for f in report.pdf report.html verdicts.svg hostmodel-matrix.svg \
	    tradeoff.svg drain.svg; do
		cmp "$1/$f" "$2/$f" || return 1
	done
}
check "two runs give identical PDF, HTML and SVG bytes" same_bytes "$out" "$again"
# the PDF is typeset on a thread of its own beside the other writers;
# on one thread (KVSCOPE_THREADS=1) every file is the same, and listed in
# the same order
one=$(fresh)
KVSCOPE_THREADS=1 "$KVSCOPE" report samples/mixed --output-dir "$one" \
    >"$tmp/list.one"
"$KVSCOPE" report samples/mixed --output-dir "$again" >"$tmp/list.bg"
check "PDF beside the others = PDF on the main thread" same_bytes "$out" "$one"
check "files listed in the same order either way" sh -c \
    "sed 's|^.*: ||; s|^$one/||' '$tmp/list.one' >'$tmp/l1'; sed 's|^.*: ||; s|^$again/||' '$tmp/list.bg' >'$tmp/l2'; cmp -s '$tmp/l1' '$tmp/l2' && head -3 '$tmp/l1' | tr '\\n' ' ' | grep -q '^report.html findings.json report.pdf '"
check "pdf dates are the snapshot's createdAt" sh -c \
    "pdfinfo -isodates '$out/report.pdf' | grep -q '^CreationDate: *2026-10-31T09:12:44Z'"
epoch=$(fresh)
SOURCE_DATE_EPOCH=1700000000 "$KVSCOPE" report samples/mixed \
    --format pdf --output-dir "$epoch" >/dev/null
check "SOURCE_DATE_EPOCH sets the pdf dates" sh -c \
    "pdfinfo -isodates '$epoch/report.pdf' | grep -q '^CreationDate: *2023-11-14T22:13:20Z' &&
     pdfinfo -isodates '$epoch/report.pdf' | grep -q '^ModDate: *2023-11-14T22:13:20Z'"
if cmp -s "$out/report.pdf" "$epoch/report.pdf"; then
	bad "SOURCE_DATE_EPOCH changes the pdf" "identical bytes"
else
	ok "SOURCE_DATE_EPOCH changes the pdf"
fi

# --- hostile names ---------------------------------------------------------------

hout=$(fresh)
need_report "report of a hostile snapshot" "$snap_hostile/s" "$hout"
check "hostile html parses" html_parses "$hout/report.html"
check "hostile html: CSP and one script" \
    python3 "$tmp/html_check.py" "$hout/report.html"

cat > "$tmp/hostile_check.py" <<'EOF'
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

HOSTILE = ['<script>alert(1)</script>', '<script>alert("x")</script>&amp;',
           'gpu-<b>&"x\'-ü', '<img src=x onerror=alert(1)>',
           'квм-"q"-\'s\'-&-<i>', 'nocpu-<x>', 'ÄÖÜ-数据库', 'разработка-开发',
           'lab-"<b>&ü</b>"']
# elements the report writes; a hostile string parsed as markup would add
# others (b, i, img, x) or a second script
HTML_TAGS = set("""html head meta title style body header nav h1 h2 h3 p ol
    ul li a main section figure div figcaption table thead tbody tr th td
    span br wbr footer script svg desc rect text details summary""".split())
SVG_TAGS = {"svg", "title", "desc", "rect", "text"}
errors = []

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []
        self.attrs = []
    def handle_starttag(self, tag, attrs):
        if tag not in HTML_TAGS:
            errors.append("html: unexpected element <%s>" % tag)
        for k, v in attrs:
            if k.startswith("on"):
                errors.append("html: event attribute %s" % k)
            self.attrs.append(v or "")
    def handle_data(self, data):
        self.text.append(data)

html = open(sys.argv[1], encoding="utf-8").read()
p = P()
p.feed(html)
text = "".join(p.text)
for h in HOSTILE:
    if h not in text:
        errors.append("html: %r not shown as text" % h)
# the executable script and the JSON data of the VMI list
if html.count("<script") != 2:
    errors.append("html: %d '<script' in the source" % html.count("<script"))

for f in sys.argv[2:]:
    root = ET.parse(f).getroot()
    seen = []
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag not in SVG_TAGS:
            errors.append("%s: unexpected element <%s>" % (f, tag))
        if any(k.startswith("on") for k in el.attrib):
            errors.append("%s: event attribute" % f)
        seen.append(el.text or "")
    if f.endswith("drain.svg"):
        if not any('gpu-<b>&"x\'-ü' in s for s in seen):
            errors.append("%s: hostile node name not shown as text" % f)
if errors:
    print("\n".join(errors[:10]))
    sys.exit(1)
EOF
check "hostile names escaped in html text, attributes and svg" \
    python3 "$tmp/hostile_check.py" "$hout/report.html" "$hout"/*.svg
check "hostile svg files are well-formed" svg_wellformed "$hout"
# table cells wrap at spaces or anywhere: compare in content order with
# all white space removed
pdftotext -raw "$hout/report.pdf" - | tr -d ' \n' > "$tmp/hostile.txt"
check "hostile pdf shows the names as text" pdf_has "$tmp/hostile.txt" \
    'lab-"<b>&ü</b>"' 'разработка-开发' 'ÄÖÜ-数据库' \
    '<script>alert(1)</script>' '<imgsrc=xonerror=alert(1)>'
# no bandwidth limit in that cluster: the drain estimate says what it assumes
check "pdf states the assumed link for unlimited bandwidth" pdf_has \
    "$tmp/hostile.txt" "10Gbit/slink"
check "hostile pdf embeds every font" fonts_embedded "$hout/report.pdf"

# every VMI, namespace and node name of samples/hostile, read back as text
sout=$(fresh)
need_report "report of samples/hostile" samples/hostile "$sout"
cat > "$tmp/names_check.py" <<'EOF'
import json, re, sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []
        self.tags = set()
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
    def handle_data(self, data):
        self.text.append(data)

f = json.load(open(sys.argv[1], encoding="utf-8"))
html = open(sys.argv[2], encoding="utf-8").read()
p = P()
p.feed(html)
text = "".join(p.text)
# the full VMI list is data the script shows with textContent
data = re.search(r'<script type="application/json" id="vmi-data">(.*?)</script>',
                 html, re.S)
text += "\n".join(r[1] for r in json.loads(data.group(1))["rows"])
errors = []
names = [v["name"] for v in f["vmis"]] + [n["name"] for n in f["nodes"]]
for n in names:
    if n not in text:
        errors.append("html: %r not shown as text" % n)
for t in ("b", "i", "img", "iframe", "object", "embed"):
    if t in p.tags:
        errors.append("html: a <%s> element" % t)
if html.count("<script") != 2:
    errors.append("html: %d '<script' in the source" % html.count("<script"))
svgtext = ""
for g in sys.argv[3:]:
    for el in ET.parse(g).getroot().iter():
        svgtext += (el.text or "") + "\n"
for d in f["drain"][:40]:
    if d["node"] not in svgtext:
        errors.append("svg: node %r not shown as text" % d["node"])
if errors:
    print("\n".join(errors[:10]))
    sys.exit(1)
EOF
check "samples/hostile: every VMI and node name shown as text" \
    python3 "$tmp/names_check.py" "$sout/findings.json" \
    "$sout/report.html" "$sout"/*.svg
check "samples/hostile html parses" html_parses "$sout/report.html"
check "samples/hostile svg files are well-formed" svg_wellformed "$sout"

# a Deckhouse snapshot speaks DVP
dout=$(fresh)
need_report "report of samples/deckhouse" samples/deckhouse "$dout"
check "samples/deckhouse html parses" html_parses "$dout/report.html"
pdftotext -raw "$dout/report.pdf" "$tmp/dvp.txt"
check "samples/deckhouse in DVP's words" pdf_has "$tmp/dvp.txt" \
    "Deckhouse Virtualization Platform live-migration report" \
    "VirtualMachines that need attention" "Migratable=True"
check "samples/deckhouse pdf embeds every font" fonts_embedded \
    "$dout/report.pdf"

# --- all or nothing, and write errors -----------------------------------------

state() { (cd "$1" && find . -printf '%p %y\n' | sort &&
    find . -type f -exec sha256sum {} + | sort); }
dir_in_the_way() {
	local d err rc=0
	d=$(fresh)
	report samples/mixed "$d" html,svg,json
	mkdir "$d/report.pdf"
	state "$d" > "$d.before"
	"$KVSCOPE" report samples/mixed --output-dir "$d" 2>"$d.err" >/dev/null ||
	    rc=$?
	[ "$rc" = 2 ] || { echo "exit $rc, expected 2"; return 1; }
	[ "$(wc -l < "$d.err")" = 1 ] || { cat "$d.err"; return 1; }
	grep -q "report.pdf: cannot rename into place: Is a directory" \
	    "$d.err" || { cat "$d.err"; return 1; }
	state "$d" | diff "$d.before" - || return 1
}
check "report.pdf/ a directory: exit 2, the folder exactly as before" \
    dir_in_the_way

# a full disk: a 64 KiB tmpfs (needs root; skipped when mount fails)
full_disk() {	# full_disk FORMAT
	local d rc=0
	d=$(fresh)
	"$KVSCOPE" report samples/mixed --format "$1" --output-dir "$mnt" \
	    2>"$d/err" >/dev/null || rc=$?
	[ "$rc" = 2 ] || { echo "exit $rc, expected 2"; return 1; }
	[ "$(wc -l < "$d/err")" = 1 ] || { cat "$d/err"; return 1; }
	grep -Eq "^kvscope: $mnt/[a-z.]+: write error: No space left on device\$" \
	    "$d/err" || { cat "$d/err"; return 1; }
	[ -z "$(ls -A "$mnt")" ] || { ls -A "$mnt"; return 1; }
}
mnt=$(fresh)
if mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
	for fmt in html pdf json,html,svg,pdf; do
		check "full disk ($fmt): one line with path and reason, nothing left" \
		    full_disk "$fmt"
	done
	umount "$mnt"
else
	echo "SKIP full disk: cannot mount a tmpfs here"
fi

# --- long strings --------------------------------------------------------------

# names of 10^2..10^6 characters (cluster context, node, VMI, namespace,
# model, storage class, condition message): the PDF is written, shows an
# ellipsis where a name is cut, and the run ends well within the guard
# (a hang guard, not a benchmark): 20 s more than four times the JSON
# alone, which reads and analyses the same strings, so that a loaded
# machine does not fail it
long_report() {	# long_report N [--spaced]
	local n=$1 d t0 t1 t2
	d=$(fresh)
	python3 tests/e2e/mksnap.py "$d/s" --long "$n" ${2:-}
	t0=$(date +%s)
	timeout 300 "$KVSCOPE" report "$d/s" --format json --output-dir "$d/j" \
	    >/dev/null || { echo "json: exit $?"; return 1; }
	t1=$(date +%s)
	timeout 300 "$KVSCOPE" report "$d/s" --format html,svg,pdf,json \
	    --output-dir "$d/o" >/dev/null || { echo "exit $?"; return 1; }
	t2=$(date +%s)
	[ $((t2 - t1)) -le $((4 * (t1 - t0) + 20)) ] ||
	    { echo "took $((t2 - t1)) s, json alone $((t1 - t0)) s"; return 1; }
	[ -s "$d/o/report.pdf" ] || { echo "no report.pdf"; return 1; }
	pdftotext -raw "$d/o/report.pdf" "$d/pdf.txt"
	grep -q "context-context0" "$d/pdf.txt" ||
	    { echo "context not shown"; return 1; }
	if [ "$n" -gt 300 ]; then
		grep -q "…" "$d/pdf.txt" || { echo "no ellipsis"; return 1; }
	fi
	# every line of text within the page (an A4 line holds ~130)
	awk 'length($0) > 160 { print "line of " length($0); exit 1 }' \
	    "$d/pdf.txt"
}
for n in 100 1000 10000 100000 1000000; do
	check "pdf of names of $n characters" long_report "$n"
done
check "pdf of spaced strings of 1000000 characters" long_report 1000000 \
    --spaced

# --- bidi controls and zero-width characters ----------------------------------

# a VMI named "w1adm<U+202E>exe.fdp" would display as "w1admpdf.exe": in
# HTML text such a name sits in an isolating <bdi> and shows the
# character as "<U+202E>", as attribute values, the SVG and the PDF do
bidi=$(fresh)
python3 tests/e2e/mksnap.py "$bidi/s" --bidi
need_report "report of names with bidi controls" "$bidi/s" "$bidi/o"
cat > "$tmp/bidi_check.py" <<'EOF'
import re, subprocess, sys
from html.parser import HTMLParser

ODD = re.compile("[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060"
                 "\u061c\ufeff\ufdd0-\ufdef\ufffe\uffff\U0010fffe"
                 "\U0010ffff]")
VOID = {"meta", "br", "rect", "img", "input", "link", "hr"}
errors = []

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.isolated = 0
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if v and ODD.search(v):
                errors.append("html: raw %r in attribute %s" % (v, k))
        if tag not in VOID:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop() == tag:
                break
    def handle_data(self, data):
        if ODD.search(data):
            errors.append("html: raw %r (in %s)" %
                          (data, "/".join(self.stack[-3:])))
        if "<U+" in data and self.stack[-1:] == ["bdi"]:
            self.isolated += 1

d = sys.argv[1]
p = P()
html = open(d + "/report.html", encoding="utf-8").read()
p.feed(html)
# <title> is text only: an element there would show as its markup
for t in re.findall(r"<title>(.*?)</title>", html, re.S):
    if "<" in t or ODD.search(t):
        errors.append("html: <title>%s</title>" % t[:80])
if p.isolated < 3:
    errors.append("html: the names are not shown in <bdi> (%d)" %
                  p.isolated)
if "w1adm&lt;U+202E&gt;exe.fdp" not in html:
    errors.append("html: w1adm<U+202E>exe.fdp not shown")
for f in ("verdicts", "hostmodel-matrix", "tradeoff", "drain"):
    t = open("%s/%s.svg" % (d, f), encoding="utf-8").read()
    if ODD.search(t):
        errors.append("%s.svg: a raw bidi or zero-width character" % f)
pdf = subprocess.run(["pdftotext", "-raw", d + "/report.pdf", "-"],
                     capture_output=True, text=True).stdout
if ODD.search(pdf):
    errors.append("pdf: a raw bidi or zero-width character")
flat = re.sub(r"\s", "", pdf)
for shown in ("w1adm<U+202E>exe.fdp", "prod-<U+202E>east<U+200B><U+FDD0>",
              "nc<U+FFFE><U+FFFF><U+FDD0><U+10FFFF>",
              "rome-<U+202E>20-<U+200B>",
              "zw<U+200B><U+200D><U+2060><U+FEFF>sp<U+2066>a<U+2069>"):
    if shown not in flat:
        errors.append("pdf: %r not shown" % shown)
if "rome-&lt;U+202E&gt;20-&lt;U+200B&gt;" not in open(
        d + "/drain.svg", encoding="utf-8").read():
    errors.append("drain.svg: the node name not shown with <U+202E>")
if errors:
    print("\n".join(errors[:10]))
    sys.exit(1)
EOF
check "bidi and zero-width characters isolated in html, visible in svg and pdf" \
    python3 "$tmp/bidi_check.py" "$bidi/o"

# --- CSV exports -------------------------------------------------------------------

# vmis.csv and drain.csv parse with Python's csv module and say what
# findings.json says; CRLF line ends; a formula-looking name is text
csvd=$(fresh)
python3 tests/e2e/mksnap.py "$csvd/s" --formula
need_report "report --format csv,json" "$csvd/s" "$csvd/o" csv,json
cat > "$tmp/csv_check.py" <<'EOF'
import csv, json, sys

d = sys.argv[1]
f = json.load(open(d + "/findings.json", encoding="utf-8"))
errors = []

def rows(name):
    raw = open("%s/%s" % (d, name), "rb").read()
    if raw.count(b"\r\n") != raw.count(b"\n") or not raw.endswith(b"\r\n"):
        errors.append("%s: line ends are not CRLF" % name)
    with open("%s/%s" % (d, name), newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))

def cell(v):	# what a cell says, without the formula guard
    return v[1:] if v[:1] == "'" and v[1:2] in ("=", "+", "-", "@") else v

fixes = {g["id"]: g["fix"]["action"] for g in f["groups"]}
heads = {"vmis.csv": "namespace,name,node,verdict,blockers,warnings,"
         "groups,fix,onDrain,targets",
         "drain.csv": "namespace,name,action,target,reason"}
for name, want in heads.items():
    got = open("%s/%s" % (d, name), "rb").readline().decode().rstrip()
    if name == "drain.csv":
        got = got.split(",", 1)[1]	# node first, then the VMI
    if got != want:
        errors.append("%s: header %r, want %r" % (name, got, want))
vm = rows("vmis.csv")
if not any(r["groups"] for r in vm) and f["groups"]:
    errors.append("vmis.csv: no groups although findings has %d" %
                  len(f["groups"]))
if len(vm) != len(f["vmis"]):
    errors.append("vmis.csv: %d rows, %d VMIs" % (len(vm), len(f["vmis"])))
for r, v in zip(vm, f["vmis"]):
    want = {"fullname": v["name"], "node": v["node"] or "",
            "verdict": v["verdict"], "onDrain": v["onDrain"] or "",
            "blockers": "; ".join(b["code"] for b in v["blockers"]),
            "warnings": "; ".join(w["code"] for w in v["warnings"]),
            "targets": str(v["targetCount"]),
            "groups": " ".join(v["groups"]),
            "fix": " ".join("%s:%s" % (g, fixes[g]) for g in v["groups"])}
    got = {k: cell(r[k]) for k in want if k != "fullname"}
    got["fullname"] = cell(r["namespace"]) + "/" + cell(r["name"])
    if got != want:
        errors.append("vmis.csv: %r != %r" % (got, want))
    if r["name"][:1] in "=+-@":
        errors.append("vmis.csv: formula cell %r" % r["name"])
names = {r["name"] for r in vm}
for n in [] if len(sys.argv) < 3 else ("'=HYPERLINK(\"http://x\",\"y\")", "'+1+2", "'@SUM(1)", "'-3",
          'a,b"c\r\nd'):
    if n not in names:
        errors.append("vmis.csv: %r not read back" % n)

dr = rows("drain.csv")
want = [{"node": x["node"], "vmi": p["vmi"], "action": p["action"],
         "target": p["target"] or "", "reason": p["reason"] or ""}
        for x in f["drain"] for p in x["plan"]]
got = [{"node": r["node"], "vmi": cell(r["namespace"]) + "/" +
        cell(r["name"]), "action": r["action"], "target": r["target"],
        "reason": r["reason"]} for r in dr]
if got != want:
    bad = [(g, w) for g, w in zip(got, want) if g != w][:3]
    errors.append("drain.csv: %d rows, plan %d; first differences %r" %
                  (len(got), len(want), bad))
if errors:
    print("\n".join(errors[:10]))
    sys.exit(1)
EOF
check "csv: vmis.csv and drain.csv parse and match findings.json" \
    python3 "$tmp/csv_check.py" "$csvd/o" formula
for s in mixed deckhouse hostile; do
	o=$(fresh)
	report "samples/$s" "$o" csv,json
	check "csv of samples/$s matches findings.json" \
	    python3 "$tmp/csv_check.py" "$o"
done

# --- page fill ------------------------------------------------------------------

# no PDF page of the body holds fewer than five lines (its running head
# and footer aside), unless the section on the next page needs a page of
# its own for a figure; the last page may be the end of the glossary
cat > "$tmp/fill.py" <<'EOF'
import re, subprocess, sys

pdf = sys.argv[1]
FIGURES = ("Host-model CPU classes", "AVX2 and AVX-512 trade-off")

def run(*a):
    return subprocess.run(a, capture_output=True, text=True,
                          check=True).stdout

n = int(re.search(r"Pages:\s+(\d+)", run("pdfinfo", pdf)).group(1))
first = int(re.search(r"^1 .*? (\d+)$", run("pdftotext", "-raw", "-f",
                      "2", "-l", "2", pdf, "-"), re.M).group(1))
body = {}
for p in range(first, n + 1):
    lines = [l for l in run("pdftotext", "-layout", "-f", str(p), "-l",
                            str(p), pdf, "-").splitlines() if l.strip()]
    body[p] = lines[1:-1]		# the running head, the footer
bad = []
for p in range(first, n):
    if len(body[p]) >= 5:
        continue
    nxt = body[p + 1][0].strip() if body[p + 1] else ""
    if not any(re.match(r"\d+ +" + re.escape(f) + "$", nxt)
               for f in FIGURES):
        bad.append("page %d: %d lines (%r), then %r" %
                   (p, len(body[p]), body[p][:2], nxt[:40]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
EOF
if command -v pdftotext >/dev/null; then
	for s in samples/*/; do
		s=$(basename "$s")
		o=$(fresh)
		report "samples/$s" "$o" pdf
		check "pdf of samples/$s: no page of fewer than five lines" \
		    python3 "$tmp/fill.py" "$o/report.pdf"
	done
fi

# --- colour follows consequence ------------------------------------------------

# a refused class pair is a refusal colour (reds, darker with more missing
# labels), never the warning's yellow nor orange
matrix_reds() {
	python3 - "$1" <<'EOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
REDS = {"#f6d2cf": 1, "#e8908a": 2, "#b3261e": 4}
bad = []
cells = re.findall(r'<rect [^>]*width="16" height="16" fill="(#[0-9a-f]+)"'
                   r'[^>]*>.*?<text [^>]*>([^<]*)</text>', svg, re.S)
for fill, label in cells:
    if label.isdigit():
        n = int(label)
        want = "#f6d2cf" if n == 1 else "#e8908a" if n <= 3 else "#b3261e"
        if fill != want:
            bad.append("%s missing: %s, want %s" % (label, fill, want))
if not any(l.isdigit() for _, l in cells):
    bad.append("no refused cell found")
if bad:
    print("\n".join(sorted(set(bad))[:5]))
    sys.exit(1)
EOF
}
cold=$(fresh)
report samples/mixed "$cold" svg
check "matrix: refused pairs in reds graded by missing labels" \
    matrix_reds "$cold/hostmodel-matrix.svg"

# --- beyond 200 CPU classes ------------------------------------------------------

big=$(fresh)
python3 tests/e2e/mksnap.py "$big/s" --nodes 230 --classes 230
bout=$(fresh)
KVSCOPE=$FAST need_report "report of 230 CPU classes" "$big/s" "$bout" \
    html,svg,pdf
check "matrix aggregates beyond 200 classes" pdf_has "$bout/report.html" \
    "aggregates the other 31 into its last row and column" \
    "C200–C230 (31 classes)"
bpages=$(pdfinfo "$bout/report.pdf" | awk '/^Pages:/ { print $2 }')
if [ "$bpages" -ge 40 ] && [ "$bpages" -le 400 ]; then
	ok "pdf of 230 classes has $bpages pages (tiles, tables paginate)"
else
	bad "pdf of 230 classes" "$bpages pages, expected 40..400"
fi
check "svg of 230 classes is well-formed" svg_wellformed "$bout"

# issue 41: a group's heading in the PDF's attention list gives the
# verdict its listed VMIs read: pitfalls' drain-shutdown group lists only
# pit/evict-none (ok; its other VMIs are under their own causes), so it
# is not "✗ blocked" above a VMI that reads "(ok)"
pit=$(fresh)
"$KVSCOPE" report samples/pitfalls --format pdf --output-dir "$pit" >/dev/null
pdftotext "$pit/report.pdf" - >"$tmp/pit.txt"
if grep -A4 '^G3 drain-shutdown · ' "$tmp/pit.txt" | head -5 |
    tr '\n' '|' | grep -q '^G3 drain-shutdown · ⚠ ok · drain stops · 1 VMI|p1||pit/evict-none|'; then
	ok "pdf: drain-shutdown group heading agrees with its VMIs"
else
	bad "pdf: drain-shutdown group heading" \
	    "$(grep -A4 '^G3 drain-shutdown · ' "$tmp/pit.txt" | head -5 | tr '\n' '|')"
fi

# issue 41: a cell of the groups tables cut for length ends at a clause
# (". ", "; ", ": ", ", "), with " …", never inside one ("for a…")
grep '…' "$tmp/pit.txt" | grep -v '^A cell ends in' | grep -v 'blocking the drain' >"$tmp/cuts" || true
if [ -s "$tmp/cuts" ] && ! grep -qv '[.;:,)] …$' "$tmp/cuts"; then
	ok "pdf: $(wc -l <"$tmp/cuts") cut cells, each at a clause"
else
	bad "pdf: a cell cut inside a clause (or none cut)" \
	    "$(grep -v '[.;:,)] …$' "$tmp/cuts" | head -3 | tr '\n' '|')"
fi

test_done
