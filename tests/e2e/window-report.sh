#!/usr/bin/env bash
# tests/e2e/window-report.sh - the report's "Maintenance window" section
# (render/html/sec_window.c, render/pdf/pdf_window.c, fig_window.c): on a
# copy of samples/mixed whose Prometheus extract makes dev/build-runner's
# migration abort (the recipe of window.sh), the section, its timeline's
# lanes, the will-abort row with its arithmetic, in HTML and PDF, the same
# bytes twice; and the section on samples/mixed itself.
#
# Environment: KVSCOPE = the kvscope binary (default ./kvscope); needs
# pdftotext (poppler-utils).
set -u

. "$(dirname "$0")/lib.sh"
# fontconfig keeps what it caches for the process lifetime (as report.sh)
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"

M=samples/mixed

# the lines of report.html from the window section to the next section
section() {
	sed -n '/<section id="window"/,/<section id="attention"/p' "$1"
}

s=$(fresh)
cp -r $M/. "$s/"
python3 tests/e2e/mkmetrics.py "$s" dev build-runner 550000000 600000000 \
    17179869184

r=$(fresh)
run "abort: report" 0 report "$s" -o html,pdf -d "$r/a"
section "$r/a/report.html" >"$tmp/win"
has "$tmp/win" "abort: heading" "</span>  Maintenance window"
has "$tmp/win" "abort: answer" "the slowest node, w5, takes 3 min 5 s - 3 min 44 s to move its 1 VMI"
has "$tmp/win" "abort: counts" "0 are at risk, 1 will be aborted and 6 have an unknown outcome"
# the timeline: w5's one migration in one lane, in the fail colour, its
# deadline (5,250 s after the copy starts) beyond the axis
count "abort: figure lanes" 1 "$tmp/win" '>lane '
has "$tmp/win" "abort: lane count said" "one lane per migration slot (1 lane)"
has "$tmp/win" "abort: bar" "<title>dev/build-runner: 3 min 5 s - 3 min 44 s, will-abort</title>"
has "$tmp/win" "abort: fail colour" 'fill="#f6d2cf"'
has "$tmp/win" "abort: deadline" "deadline 87.7 min"
has "$tmp/win" "abort: axis" ">3.5 min<"
# the table: the will-abort row with its arithmetic
has "$tmp/win" "abort: row outcome" "will-abort</span>"
has "$tmp/win" "abort: row line" "32.0 GiB at 512 MiB/s, dirtying up to 600 MB/s: copy 3 min 2 s - 3 min 34 s against a deadline of 5,250 s (150 s per GB x 35): will be aborted"
has "$tmp/win" "abort: unknown" "6 migrations have an unknown outcome: their guests' dirty rate decides. The tightest, dev/win-app, finishes in time if its guest dirties less than 531 MB/s."
has "$tmp/win" "abort: facts" "One migration alone on its link moves 1,192 MiB/s of guest memory (assumed"
has "$tmp/win" "abort: assumption" "dirty rate average and peak from the cluster's Prometheus"
has "$r/a/report.html" "abort: contents" 'href="#window">4  Maintenance window'
# the PDF: the same section, the same row, after the drain
pdftotext -layout "$r/a/report.pdf" "$tmp/pdf.txt"
has "$tmp/pdf.txt" "pdf: heading" "4 Maintenance window"
has "$tmp/pdf.txt" "pdf: figure" "The slowest drain in time: w5"
has "$tmp/pdf.txt" "pdf: row" "will-abort"
has "$tmp/pdf.txt" "pdf: table head" "Migrations at risk or aborted"
# deterministic: the same snapshot gives the same bytes
run "abort: again" 0 report "$s" -o html,pdf -d "$r/b"
check "abort: html same bytes" cmp "$r/a/report.html" "$r/b/report.html"
check "abort: pdf same bytes" cmp "$r/a/report.pdf" "$r/b/report.pdf"

# samples/mixed: the section, every outcome unknown, nothing flagged
run "mixed: report" 0 report $M -o html,pdf -d "$r/m"
section "$r/m/report.html" >"$tmp/win"
has "$tmp/win" "mixed: heading" "</span>  Maintenance window"
has "$tmp/win" "mixed: answer" "the slowest node, w5, takes 1 min 7 s - 1 min 18 s"
count "mixed: figure lanes" 1 "$tmp/win" '>lane '
has "$tmp/win" "mixed: none flagged" "none is at risk or will be aborted"
has "$tmp/win" "mixed: unknown" "7 migrations have an unknown outcome"
pdftotext -layout "$r/m/report.pdf" "$tmp/pdf.txt"
has "$tmp/pdf.txt" "mixed pdf: heading" "4 Maintenance window"

# the drain's assumption names the lanes the schedule used
# (kv_schedule_limits): DVP syncs one per source and admits one inbound
run "deckhouse: report" 0 report samples/deckhouse -o html -d "$r/d"
has "$r/d/report.html" "deckhouse: lanes" "up to 1 migration at once (DVP \
syncs one migration at a time per source node), at most 1 arriving on a \
node at once"
has "$r/m/report.html" "mixed: lanes" "up to 2 migrations at once, each"

test_done
