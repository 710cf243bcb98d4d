#!/usr/bin/env bash
# Sample snapshots: manifests, hashes and JSON are valid, and the committed
# samples are exactly what tools/gen-samples.py, tools/gen-sample-dvp.py
# (samples/deckhouse) and tools/gen-sample-capacity.py (samples/capacity)
# produce (when the shared
# reference data is available: $SHARED, default ../shared).
set -eu
cd "$(dirname "$0")/../.."
python3 tests/samples/check_samples.py samples
shared=${SHARED:-../shared}
if [ ! -d "$shared/data/real-cpus" ]; then
	echo "skip regeneration check: no $shared/data/real-cpus"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for out in one two; do
	python3 tools/gen-samples.py --shared "$shared" --out "$tmp/$out" >/dev/null
	python3 tools/gen-sample-dvp.py --shared "$shared" --out "$tmp/$out" \
	    >/dev/null
	python3 tools/gen-sample-capacity.py --shared "$shared" \
	    --out "$tmp/$out" >/dev/null
done
diff -r "$tmp/one" "$tmp/two" >/dev/null || {
	echo "gen-samples.py or gen-sample-dvp.py is not deterministic"; exit 1; }
diff -r samples "$tmp/one" || {
	echo "samples/ differs from tools/gen-samples.py and" \
	    "tools/gen-sample-dvp.py output: re-run them"; exit 1; }
echo "samples match tools/gen-samples.py, tools/gen-sample-dvp.py and tools/gen-sample-capacity.py"
