#!/usr/bin/env bash
# Sample snapshots: manifests, hashes and JSON are valid, and the committed
# samples are exactly what tools/gen-samples.py produces (when the shared
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
python3 tools/gen-samples.py --shared "$shared" --out "$tmp/one" >/dev/null
python3 tools/gen-samples.py --shared "$shared" --out "$tmp/two" >/dev/null
diff -r "$tmp/one" "$tmp/two" >/dev/null || {
	echo "gen-samples.py is not deterministic"; exit 1; }
diff -r samples "$tmp/one" || {
	echo "samples/ differs from tools/gen-samples.py output: re-run it"; exit 1; }
echo "samples match tools/gen-samples.py"
