#!/usr/bin/env bash
# full-disk.sh - a report onto a full disk (issue #25): a small tmpfs
# that fills at the findings, the HTML, the figures or in the middle of
# the PDF (typed on its own thread), with every format and with the PDF
# alone.  Each run exits 2 with one stderr line naming the file and the
# system's reason, and leaves nothing: no temporary file, no folder the
# report created.  Needs a tmpfs mount (root); skipped (passes, says
# so) where none can be mounted.  The same contract without a mount is
# test_output.c's test_full_disk_bg_and_main (a failing write hook).
set -u
cd "$(dirname "$0")/../.."
KVSCOPE=${KVSCOPE:-./kvscope}
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
mnt=$(mktemp -d)
trap 'umount "$mnt" 2>/dev/null; rmdir "$mnt"' EXIT
if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
	echo "SKIP no tmpfs can be mounted here"
	exit 0
fi
umount "$mnt"
pass=0 fail=0
check() {	# size formats
	local size=$1 fmt=$2 err rc lines left
	mount -t tmpfs -o "size=$size" tmpfs "$mnt" || exit 1
	err=$("$KVSCOPE" report samples/mixed ${fmt:+--format "$fmt"} \
	    -d "$mnt/a/b/report" 2>&1 >/dev/null)
	rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	left=$(cd "$mnt" && find . -mindepth 1 | head -5 | tr '\n' ' ')
	umount "$mnt"
	if [ "$rc" != 2 ] || [ "$lines" != 1 ] ||
	    [[ $err != "kvscope: $mnt/a/b/report/"*": write error: No space left on device" ]] ||
	    [ -n "$left" ]; then
		echo "FAIL $size ${fmt:-all}: exit $rc, $lines lines: ${err:0:300}; left: $left"
		fail=$((fail + 1))
	else
		echo "PASS $size ${fmt:-all}: ${err#kvscope: $mnt/}"
		pass=$((pass + 1))
	fi
}
# samples/mixed: findings 48 KB, HTML 122 KB, SVGs 37 KB, PDF 115 KB
for size in 24k 96k 180k 200k 260k 300k; do
	check "$size" ""
done
for size in 24k 40k; do
	check "$size" pdf
	check "$size" json
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
