#!/usr/bin/env bash
# browser-check.sh - the HTML report in a real headless Chromium
# (`make browser-check`; not part of `make check`).
#
# Installs Debian's chromium when missing (apt-get), generates snapshots
# with tools/gen-large.py (cached in build/bench/ as tools/bench.sh does),
# renders report.html and prints, per size:
#   ready ms    performance.now() when report.js has drawn the VMI list
#               (the script writes it into <html data-ready>; the page is
#               parsed by then: the script is the last element)
#   painted ms  the first frame after that (data-painted)
#   filtered    the same with a filtered view in the address (#vms?...)
#   wall s      the whole chromium --dump-dom run (start-up included)
# and writes 420-px and 1280-px screenshots of samples/pitfalls and of
# each size to build/browser/.  Targets: usable (painted) within 1500 ms
# at 10,000 VMIs and 5000 ms at 100,000; the run exits 1 when one misses.
#
# Environment: BROWSER_SIZES="500:10000 5000:100000", KVSCOPE=./kvscope,
# SHARED=../shared, BENCH_DIR=build/bench, CHROMIUM=chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${BROWSER_SIZES:-"500:10000 5000:100000"}
KVSCOPE=${KVSCOPE:-./kvscope}
SHARED=${SHARED:-../shared}
DIR=${BENCH_DIR:-build/bench}
OUT=build/browser
CHROMIUM=${CHROMIUM:-chromium}

if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
	SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends chromium
fi
mkdir -p "$DIR" "$OUT"
cr() { timeout 600 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
    --hide-scrollbars --no-first-run --user-data-dir="$OUT/profile" "$@" \
    2>/dev/null; }

# ready and painted of one load: "ready painted wall"
load() {	# load URL
	local t0 t1 dom
	t0=$(date +%s.%N)
	dom=$(cr --dump-dom "$1" | head -c 400)
	t1=$(date +%s.%N)
	echo "$(echo "$dom" | grep -o 'data-ready="[0-9]*"' | grep -o '[0-9]*' || echo '?')" \
	    "$(echo "$dom" | grep -o 'data-painted="[0-9]*"' | grep -o '[0-9]*' || echo '?')" \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
}
shots() {	# shots HTML NAME
	for w in 420 1280; do
		cr --window-size=$w,2400 --screenshot="$OUT/$2-$w.png" \
		    "file://$PWD/$1" >/dev/null
	done
}

rm -rf "$OUT/pitfalls"
"$KVSCOPE" report samples/pitfalls --format html --output-dir "$OUT/pitfalls" >/dev/null
shots "$OUT/pitfalls/report.html" pitfalls

status=0
echo "| nodes | VMIs | report.html MB | ready ms | painted ms | filtered: ready / painted ms | wall s | target ms |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for size in $SIZES; do
	nodes=${size%%:*} vmis=${size##*:}
	snap=$DIR/snap-${nodes}n-${vmis}v-s1.tar.gz
	if [ ! -s "$snap" ] || [ tools/gen-large.py -nt "$snap" ]; then
		python3 tools/gen-large.py --nodes "$nodes" --vmis "$vmis" \
		    --seed 1 --shared "$SHARED" --out "$snap" >/dev/null 2>&1
	fi
	o=$OUT/r-$vmis
	rm -rf "$o"
	"$KVSCOPE" report "$snap" --format html --output-dir "$o" >/dev/null
	mb=$(awk -v s="$(stat -c %s "$o/report.html")" 'BEGIN { printf "%.1f", s / 1e6 }')
	read -r ready painted wall <<<"$(load "file://$PWD/$o/report.html")"
	read -r fready fpainted _ <<<"$(load "file://$PWD/$o/report.html#vms?verdict=2&sort=node&dir=desc")"
	target=$([ "$vmis" -le 10000 ] && echo 1500 || echo 5000)
	echo "| $nodes | $vmis | $mb | $ready | $painted | $fready / $fpainted | $wall | $target |"
	case $painted in ''|*[!0-9]*) status=1;; *) [ "$painted" -le "$target" ] || status=1;; esac
	shots "$o/report.html" "r-$vmis"
done
echo
echo "screenshots: $(ls "$OUT"/*.png | tr '\n' ' ')"
exit $status
