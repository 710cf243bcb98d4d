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
. "$(dirname "$0")/lib.sh"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
mnt=$tmp/mnt
mkdir "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
	echo "SKIP no tmpfs can be mounted here"
	exit 0
fi
umount "$mnt"
fill() {	# size formats
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
		bad "$size ${fmt:-all}" \
		    "exit $rc, $lines lines: ${err:0:300}; left: $left"
	else
		ok "$size ${fmt:-all}: ${err#kvscope: $mnt/}"
	fi
}
# samples/mixed: findings 48 KB, HTML 122 KB, SVGs 37 KB, PDF 115 KB
for size in 24k 96k 180k 200k 260k 300k; do
	fill "$size" ""
done
for size in 24k 40k; do
	fill "$size" pdf
	fill "$size" json
done
test_done
