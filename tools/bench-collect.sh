#!/usr/bin/env bash
# bench-collect.sh - the collector at scale (`make bench-collect`).
#
# For each size NODES:VMIS it generates a cluster with tools/gen-large.py
# (cached in build/bench/), serves it from tests/collector/fakekube.py on
# 127.0.0.1 (pages of 500, nothing leaves the machine), and measures with
# /usr/bin/time -v, one after the other against the same server:
#   collect   snapshot/kvscope-collect (every resource, redaction on)
#   kubectl   plain `kubectl get RESOURCE -A -o json` of the same resources,
#             one after the other (what an operator would do by hand)
# It prints a markdown table: wall seconds and peak RSS (the largest single
# process) of each, and the collect/kubectl time ratio. Targets: ratio
# <= 2 and collector RSS < 300 MB; the exit status is 1 when one is missed.
#
# Environment: BENCH_COLLECT_SIZES="500:10000" (default; add 5000:100000
# for the large one), BENCH_DIR=build/bench, SHARED=../shared.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${BENCH_COLLECT_SIZES:-"500:10000"}
DIR=${BENCH_DIR:-build/bench}
SHARED=${SHARED:-../shared}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench-collect: $TIME missing (make deps installs 'time')" >&2; exit 2; }
command -v kubectl >/dev/null || { echo "bench-collect: kubectl missing" >&2; exit 2; }
mkdir -p "$DIR"
WORK=$(mktemp -d "$PWD/$DIR/collect.XXXXXX")
SERVER_PID=
cleanup() {
	[ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; }
	rm -rf "$WORK"
}
trap cleanup EXIT

# measure NAME CMD...: wall seconds and peak RSS (MiB) into M_SECS, M_RSS
measure() {
	local name=$1
	shift
	if ! "$TIME" -v -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"; then
		echo "bench-collect: $name failed:" >&2
		tail -n 5 "$WORK/$name.err" >&2
		exit 1
	fi
	M_SECS=$(awk -F ': ' '/Elapsed \(wall clock\)/ {
		n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.1f", s }' \
		"$WORK/$name.time")
	M_RSS=$(awk -F ': ' '/Maximum resident set size/ { printf "%d", $2 / 1024 }' "$WORK/$name.time")
}

start_server() {
	rm -f "$WORK/port"
	python3 tests/collector/fakekube.py --port-file "$WORK/port" --forbid '' \
		--from-snapshot "$1" &
	SERVER_PID=$!
	local i
	for ((i = 0; i < 600; i++)); do
		[ -s "$WORK/port" ] && break
		sleep 0.1
	done
	[ -s "$WORK/port" ] || { echo "bench-collect: fake server did not start" >&2; exit 1; }
	cat >"$WORK/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: bench
  cluster:
    server: http://127.0.0.1:$(cat "$WORK/port")
users:
- name: bench
  user: {}
contexts:
- name: bench
  context: {cluster: bench, user: bench}
current-context: bench
EOF
}

# The plain kubectl run: every resource the snapshot has, one after the
# other, as the collector asks for them.
KUBECTL_ALL='k=$1; c=$2; shift 2
for f in "$@"; do kubectl --kubeconfig "$k" --cache-dir "$c" get "$f" -A -o json >/dev/null || exit 1; done'

status=0
echo "| cluster | objects | collect s | kubectl s | ratio | collect RSS MB | kubectl RSS MB | archive MB |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for size in $SIZES; do
	nodes=${size%%:*} vmis=${size##*:}
	snap=$DIR/collect-$nodes-$vmis.tar.gz
	if [ ! -s "$snap" ] || [ tools/gen-large.py -nt "$snap" ]; then
		python3 tools/gen-large.py --nodes "$nodes" --vmis "$vmis" --no-node-files \
			--shared "$SHARED" --out "$snap" >&2
	fi
	mapfile -t res < <(tar -tzf "$snap" | sed -n 's|^[^/]*/resources/\(.*\)\.json$|\1|p' | LC_ALL=C sort)
	objects=$(tar -xzf "$snap" -O --wildcards '*/manifest.json' |
		jq '[.resources[]? | .count // 0] | add // 0')
	start_server "$snap"
	# warm up discovery and the page cache for both
	kubectl --kubeconfig "$WORK/kubeconfig" --cache-dir "$WORK/kcache" get --raw /version >/dev/null
	measure collect env TMPDIR="$WORK" snapshot/kvscope-collect -q \
		--kubeconfig "$WORK/kubeconfig" --output "$WORK/out.tar.gz"
	c_secs=$M_SECS c_rss=$M_RSS
	measure kubectl bash -c "$KUBECTL_ALL" _ "$WORK/kubeconfig" "$WORK/kcache" "${res[@]}"
	k_secs=$M_SECS k_rss=$M_RSS
	kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
	ratio=$(awk -v c="$c_secs" -v k="$k_secs" 'BEGIN { printf "%.2f", (k > 0 ? c / k : 0) }')
	mb=$(awk -v b="$(stat -c %s "$WORK/out.tar.gz")" 'BEGIN { printf "%.1f", b / 1048576 }')
	echo "| $nodes nodes / $vmis VMIs | $objects | $c_secs | $k_secs | $ratio | $c_rss | $k_rss | $mb |"
	if awk -v r="$ratio" 'BEGIN { exit !(r > 2) }' || [ "$c_rss" -ge 300 ]; then
		echo "bench-collect: $size misses a target (ratio <= 2, RSS < 300 MB)" >&2
		status=1
	fi
	rm -f "$WORK/out.tar.gz"
done
exit "$status"
