#!/usr/bin/env bash
# html-scale.sh - the HTML report's structure, on samples/mixed, a hostile
# snapshot and a generated 10,000-VMI snapshot (tools/gen-large.py):
#
#   * the sections in order: summary, groups, drain plan, VMIs that need
#     attention, the CPU sections, the nodes, every VMI, the glossary; the
#     long lists (nodes, named models) are collapsed <details>;
#   * the full VMI list's data (<script type="application/json"
#     id="vmi-data">) parses, holds no "<" (nothing in it can end the
#     element), and has one row per VMI of findings.json with its anchor
#     id vmi-<namespace>-<name>;
#   * the static attention table lists exactly the running VMIs that are
#     not ok and those a drain stops or holds, each with its anchor;
#   * the Content-Security-Policy allows the inline script by its hash,
#     nothing loads from elsewhere;
#   * findings.json of the 10,000 VMIs is the same written by one thread
#     and by two.
#
# No browser is needed (`make browser-check` measures one).  KVSCOPE is
# the kvscope binary; SHARED the shared data (gen-large.py's CPU data).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# the generated 10,000-VMI cluster runs the optimised build (make check
# passes it): the same code, ASan covers it on the samples and the fuzzers
FAST=${KVSCOPE_FAST:-$KVSCOPE}
SHARED=${SHARED:-../shared}
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"


cat > "$tmp/structure.py" <<'EOF'
import base64, hashlib, json, re, sys, urllib.parse
from html.parser import HTMLParser

d = sys.argv[1]
html = open(d + "/report.html", encoding="utf-8").read()
f = json.load(open(d + "/findings.json", encoding="utf-8"))
errors = []

ORDER = ["summary", "groups", "drain", "window", "attention", "classes",
         "models", "tradeoff", "cluster", "vms", "glossary"]

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sections = []
        self.stack = []
        self.attention = []     # row ids of the attention table
        self.details = []       # the section of each <details>, and its summary
        self.in_summary = False
        self.cur = None
        self.raw = {"script": "", "data": ""}
        self.csp = None
        self.urls = []
        self.links = []         # fragments linked to, decoded
        self.ids = set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(a.get("id"))
        if tag == "tr" and self.sections[-1:] == ["attention"] and "id" in a:
            self.attention.append(a["id"])
        if tag == "details":
            self.details.append([self.sections[-1], ""])
        if tag == "summary":
            self.in_summary = True
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a.get("content")
        if tag == "script":
            self.cur = "data" if a.get("type") == "application/json" else "script"
        if "id" in a:
            self.ids.add(a["id"])
        for k, v in attrs:
            if k in ("href", "src") and v and not v.startswith("#"):
                self.urls.append(v)
            elif k == "href" and v:
                self.links.append(urllib.parse.unquote(v[1:]))
    def handle_endtag(self, tag):
        if tag == "script":
            self.cur = None
        if tag == "summary":
            self.in_summary = False
    def handle_data(self, data):
        if self.cur:
            self.raw[self.cur] += data
        elif self.in_summary:
            self.details[-1][1] += data

p = P()
p.feed(html)
if p.sections != ORDER:
    errors.append("sections %s, expected %s" % (p.sections, ORDER))

# the script is allowed by its hash; nothing from elsewhere
h = base64.b64encode(hashlib.sha256(p.raw["script"].encode()).digest()).decode()
if p.csp is None or "script-src 'sha256-%s'" % h not in p.csp:
    errors.append("the CSP does not allow the inline script by its hash")
if p.csp is not None and ("unsafe-inline" in p.csp or "http" in p.csp):
    errors.append("CSP: " + p.csp)
if p.urls or re.search(r"https?://", html):
    errors.append("external references: %s" % p.urls[:3])

# the data of the full list
if "<" in p.raw["data"]:
    errors.append("a '<' in the JSON data")
data = json.loads(p.raw["data"])
C = {c: i for i, c in enumerate(data["cols"])}
rows = data["rows"]
def anchor(r, v):  # names and namespaces may hold "/": split by the row's namespace
    ns = data["strs"][r[C["ns"]]]
    if not v["name"].startswith(ns + "/"):
        return None
    return "vmi-%s-%s" % (ns, v["name"][len(ns) + 1:])
want = [anchor(r, v) for r, v in zip(rows, f["vmis"])]
got = [r[C["id"]] for r in rows]
if len(rows) != len(f["vmis"]):
    errors.append("%d rows for %d VMIs" % (len(rows), len(f["vmis"])))
elif got != want:
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    errors.append("row ids differ from the VMIs: %s" % bad[:3])
for r, v in zip(rows, f["vmis"]):
    if r[C["name"]] != v["name"] or \
            data["verdicts"][r[C["verdict"]]] != v["verdict"] or \
            (r[C["node"]] >= 0 and data["nodes"][r[C["node"]]] or None) != v["node"]:
        errors.append("row %r is not %s" % (r[:5], v["name"]))
        break

# the attention table: exactly the VMIs that need it, with their anchors
need = [w for w, v in zip(want, f["vmis"])
        if v["verdict"] not in ("ok", "not-running")
        or v["onDrain"] in ("shutdown", "block")]
if sorted(p.attention) != sorted(need):
    errors.append("attention rows: %d, expected %d (%s)" % (
        len(p.attention), len(need),
        sorted(set(p.attention) ^ set(need))[:3]))
flagged = sorted(r[C["id"]] for r in rows if r[C["attention"]])
if flagged != sorted(need):
    errors.append("the data marks %d rows for attention, expected %d" %
                  (len(flagged), len(need)))
# every anchor the groups link to exists (static) or is a row of the data
ids = p.ids | set(got)
for href in p.links:
    if href not in ids and not href.startswith("vms?"):
        errors.append("link to #%s without a target" % href)
        break
# links into the list name what they filter by (not an index), and that
# name is in the data: a link that lasts across reports
NAMED = {"node": data["nodes"], "verdict": data["verdicts"],
         "code": data["codes"], "group": [g[2] for g in data["groups"]],
         "ns": [data["strs"][r[C["ns"]]] for r in rows]}
vlinks = [h for h in p.links if h.startswith("vms?")]
for href in vlinks:
    for kv in href[4:].split("&"):
        k, _, v = kv.partition("=")
        if k in NAMED and v not in NAMED[k]:
            errors.append("link #%s: no %s %r in the data" % (href, k, v))
            break
if len(sys.argv) > 2 and not any(h.startswith("vms?node=") for h in vlinks):
    errors.append("the drain plans do not link to the list by node")

# long lists collapsed; nothing long between the summary and the problems
folded = {s for s, _ in p.details}
if len(f["nodes"]) >= 13 and not any(s == "cluster" and t.startswith("Every node")
                                     for s, t in p.details):
    errors.append("the nodes table is not collapsed: %s" % p.details[:4])
if "models" not in folded:
    errors.append("the named models are not collapsed")
if len(sys.argv) > 2:
    summary = html[html.index('<section id="summary"'):html.index('<section id="groups"')]
    if summary.count("<tr") > 20 or summary.count("<li") > 12:
        errors.append("the summary is long: %d rows, %d items" %
                      (summary.count("<tr"), summary.count("<li")))
# long lists summarised: a cell names at most 12 before "and N more
# (all in findings.json)", the rest folded in a <details>; a label is
# one unbroken span; a fix names at most 11 of its nodes
for m in re.finditer(r'<td class="(?:wrap mono|wrap)">(.*?)</td>', html, re.S):
    head = m.group(1).split("<details")[0]
    n = head.count('<span class="nw">')
    if n > 12:
        errors.append("a cell lists %d names unfolded" % n)
        break
    if "<details" in m.group(1) and "more (all in findings.json)" not in head:
        errors.append("a folded list without 'and N more': %s" % head[:80])
        break
if re.search(r'<td>vendor:', html):
    errors.append("a scope label (vendor:...) may wrap")
for g in f["groups"]:
    names = [n for n in g["nodes"] if n in g["fix"]["text"].split(", ") or
             g["fix"]["text"].count(n + ",") or g["fix"]["text"].count(n + " ")]
    if len(g["nodes"]) > 11 and len(names) > 11:
        errors.append("%s's fix names %d nodes" % (g["id"], len(names)))
        break
if errors:
    print("\n".join(errors[:10]))
    sys.exit(1)
print("%d rows, %d need attention" % (len(rows), len(need)))
EOF

report() {	# report SNAPSHOT OUTDIR [BINARY]
	"${3:-$KVSCOPE}" report "$1" --format html,json --output-dir "$2" >/dev/null
}

report samples/mixed "$tmp/mixed"
check "samples/mixed: order, data rows, attention table, CSP" \
    python3 "$tmp/structure.py" "$tmp/mixed"
report samples/pitfalls "$tmp/pitfalls"
check "samples/pitfalls: order, data rows, attention table, CSP" \
    python3 "$tmp/structure.py" "$tmp/pitfalls"

# names that try to end the data element or open a comment in it
python3 tests/e2e/mksnap.py "$tmp/hostile" --hostile
report "$tmp/hostile" "$tmp/hostile.out"
check "hostile names: the data stays one element and parses" \
    python3 "$tmp/structure.py" "$tmp/hostile.out"

big=$tmp/big.tar.gz
if python3 tools/gen-large.py --nodes 500 --vmis 10000 --seed 1 \
    --shared "$SHARED" --out "$big" >/dev/null 2>&1; then
	report "$big" "$tmp/big" "$FAST"
	check "10,000 VMIs: order, one data row per VMI, attention table, CSP" \
	    python3 "$tmp/structure.py" "$tmp/big" large
	size=$(stat -c %s "$tmp/big/report.html")
	if [ "$size" -le 8000000 ]; then
		ok "10,000 VMIs: report.html is $size bytes (at most 8 MB)"
	else
		bad "10,000 VMIs: report.html size" "$size bytes"
	fi
	report "$big" "$tmp/big2" "$FAST"
	check "10,000 VMIs: two runs give identical HTML" \
	    cmp "$tmp/big/report.html" "$tmp/big2/report.html"
	# findings.json's VMIs in blocks, every second one formatted by a
	# helper thread (findings_vmis.c): the bytes of one thread
	KVSCOPE_THREADS=1 report "$big" "$tmp/big1" "$FAST"
	KVSCOPE_THREADS=2 report "$big" "$tmp/big3" "$FAST"
	check "10,000 VMIs: findings.json the same with one thread and two" \
	    cmp "$tmp/big1/findings.json" "$tmp/big3/findings.json"
else
	bad "generate a 10,000-VMI snapshot" "tools/gen-large.py failed"
fi

test_done
