#!/usr/bin/env bash
# tones.sh - colour follows consequence: a VMI a drain stops or waits on
# is never green, whatever its verdict.  samples/mixed: prod/cache-0 is ok
# but stops on a drain of w2 (group drain-shutdown, G3); four VMIs block
# their node's drain (G1 drain-block).  Checked in the HTML (groups,
# summary, attention rows, the list's script), the drain figure (SVG) and
# the terminal; the PDF's inks come from the same functions (test_term),
# its attention list's symbols are checked here.
#
#   KVSCOPE  the kvscope binary (make check passes the sanitized one)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"


"$KVSCOPE" report samples/mixed --format html,svg --output-dir "$tmp/m" \
    >/dev/null
h=$tmp/m/report.html
# the groups section and the summary's brief: the code in the group's tone
count "drain-shutdown group warn (groups, summary)" 2 "$h" \
    '<span class="badge tone-warn">⚠ drain-shutdown</span>'
count "drain-block group fail (groups, summary)" 2 "$h" \
    '<span class="badge tone-fail">✗ drain-block</span>'
count "no group badge is green" 0 "$h" '<span class="badge tone-ok">✓ drain-'
# the attention row of the ok VMI a drain stops
sed -n '/<tr id="vmi-prod-cache-0">/,/<\/tr>/p' "$h" > "$tmp/row"
count "prod/cache-0 (ok, stops) attention badge warn" 1 "$tmp/row" \
    '<span class="badge tone-warn">⚠ ok</span>'
count "prod/cache-0 attention badge not green" 0 "$tmp/row" 'tone-ok'
count "prod/cache-0 on drain warn" 1 "$tmp/row" \
    '<td class="tone-warn" data-label="On drain">'
# (the list's script: fragments.sh runs it, prod/cache-0's badge warn)
# the drain figure: w2's words (1 stopped) in the warn ink, not ink
d=$tmp/m/drain.svg
count "drain.svg: w2 1 stopped in warn #9a5b00" 1 "$d" \
    'fill="#9a5b00" pointer-events="none">1 stopped</text>'
count "drain.svg: blocking words in fail #b3261e" 4 "$d" \
    'fill="#b3261e" pointer-events="none">'
# the terminal: the ok VMI a drain stops is yellow, not green
ESC=$(printf '\033')
"$KVSCOPE" check samples/mixed --color always -o wide > "$tmp/wide" || true
grep -F "prod/cache-0" "$tmp/wide" > "$tmp/cache" || true
count "terminal: prod/cache-0 ok in yellow" 1 "$tmp/cache" "${ESC}[33mok"
count "terminal: prod/cache-0 not green" 0 "$tmp/cache" "${ESC}[32m"
# the PDF's attention list: the stop group's symbol is its tone's (⚠),
# not the ok verdict's ✓
"$KVSCOPE" report samples/mixed --format pdf --output-dir "$tmp/p" \
    >/dev/null
pdftotext -layout "$tmp/p/report.pdf" "$tmp/p.txt"
count "pdf: drain-shutdown group ⚠ ok in the attention list" 1 "$tmp/p.txt" \
    'G3 drain-shutdown · ⚠ ok · drain stops'
count "pdf: no ✓ beside a stop or block" 0 "$tmp/p.txt" '· ✓ ok · drain st'

test_done
