#!/usr/bin/env bash
# bench-collect.sh - the collector at scale (`make bench-collect`).
#
# For each size NODES:VMIS it generates a cluster with tools/gen-large.py
# (cached in build/bench/) and serves it on 127.0.0.1 (nothing leaves the
# machine) from two fake API servers in turn:
#   fakekube    tests/collector/fakekube.py: pre-serialized pages, no more
#   pagingkube  tests/collector/pagingkube.py: pages like kube-apiserver
#               (continue tokens, gzip above 128 KiB, TLS, a discovery of
#               40 more groups, 5 ms a request)
# Against each, one after the other, it measures with /usr/bin/time -v:
#   collect   snapshot/kvscope-collect (every resource, redaction on)
#   kubectl   plain `kubectl get RESOURCE -A -o json` of the same resources,
#             one after the other (what an operator would do by hand)
# It prints, per server, a markdown table of the time per resource (so that
# the slow part shows: the collector's fetch, its redaction, and from its
# first request to the end of its redaction, which overlaps the next
# resource's fetch and includes the wait for the one before) and the
# totals: wall seconds, the collect/kubectl ratio measured in the same run,
# and peak RSS (the largest single process). Targets: ratio <= 2 on every
# server and collector RSS < 300 MB; the exit status is 1 when one is
# missed.
#
# Environment: BENCH_COLLECT_SIZES="500:10000" (default; add 5000:100000
# for the large one), BENCH_COLLECT_SERVERS="fakekube pagingkube",
# BENCH_DIR=build/bench, SHARED=../shared, COLLECT=snapshot/kvscope-collect
# (another collector to measure, e.g. an older one; a copy is run, so that
# editing the script during a run does not change it).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${BENCH_COLLECT_SIZES:-"500:10000"}
SERVERS=${BENCH_COLLECT_SERVERS:-"fakekube pagingkube"}
DIR=${BENCH_DIR:-build/bench}
SHARED=${SHARED:-../shared}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench-collect: $TIME missing (make deps installs 'time')" >&2; exit 2; }
command -v kubectl >/dev/null || { echo "bench-collect: kubectl missing" >&2; exit 2; }
mkdir -p "$DIR"
WORK=$(mktemp -d "$PWD/$DIR/collect.XXXXXX")
SERVER_PID=
stop_server() {
	[ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null || true; }
	SERVER_PID=
}
cleanup() { stop_server; rm -rf "$WORK"; }
trap cleanup EXIT
cp "${COLLECT:-snapshot/kvscope-collect}" "$WORK/kvscope-collect"

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

# start_server KIND SNAPSHOT: serve it (the server stops by itself after an
# hour at most); writes $WORK/kubeconfig.
start_server() {
	local port scheme i
	rm -f "$WORK/port"
	case $1 in
	fakekube) python3 tests/collector/fakekube.py --port-file "$WORK/port" --forbid '' \
		--lifetime 3600 --from-snapshot "$2" & ;;
	pagingkube) python3 tests/collector/pagingkube.py --port-file "$WORK/port" --tls \
		--lifetime 3600 --from-snapshot "$2" & ;;
	*) echo "bench-collect: unknown server '$1'" >&2; exit 2 ;;
	esac
	SERVER_PID=$!
	for ((i = 0; i < 1200; i++)); do
		[ -s "$WORK/port" ] && break
		sleep 0.1
	done
	[ -s "$WORK/port" ] || { echo "bench-collect: $1 did not start" >&2; exit 1; }
	read -r port scheme <"$WORK/port"
	cat >"$WORK/kubeconfig" <<EOC
apiVersion: v1
kind: Config
clusters:
- name: bench
  cluster:
    server: ${scheme:-http}://127.0.0.1:$port
    insecure-skip-tls-verify: true
users:
- name: bench
  user: {token: bench}
contexts:
- name: bench
  context: {cluster: bench, user: bench}
current-context: bench
EOC
}

# The plain kubectl run: every resource the snapshot has, one after the
# other, as the collector asks for them; "RESOURCE SECONDS" lines to $3.
KUBECTL_ALL='k=$1; c=$2; t=$3; shift 3
for f in "$@"; do
	a=${EPOCHREALTIME/[.,]/}
	kubectl --kubeconfig "$k" --cache-dir "$c" get "$f" -A -o json >/dev/null </dev/null || exit 1
	b=${EPOCHREALTIME/[.,]/}
	printf "%s %d.%06d\n" "$f" $(((b - a) / 1000000)) $(((b - a) % 1000000)) >>"$t"
done'

status=0
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
	for server in $SERVERS; do
		start_server "$server" "$snap"
		# warm up discovery and the page cache for both
		kubectl --kubeconfig "$WORK/kubeconfig" --cache-dir "$WORK/kcache" get --raw /version \
			>/dev/null </dev/null
		: >"$WORK/c.times"
		: >"$WORK/k.times"
		measure collect env TMPDIR="$WORK" KVSCOPE_COLLECT_TIMING="$WORK/c.times" \
			"$WORK/kvscope-collect" -q --kubeconfig "$WORK/kubeconfig" --output "$WORK/out.tar.gz"
		c_secs=$M_SECS c_rss=$M_RSS
		measure kubectl bash -c "$KUBECTL_ALL" _ "$WORK/kubeconfig" "$WORK/kcache" \
			"$WORK/k.times" "${res[@]}"
		k_secs=$M_SECS k_rss=$M_RSS
		stop_server
		ratio=$(awk -v c="$c_secs" -v k="$k_secs" 'BEGIN { printf "%.2f", (k > 0 ? c / k : 0) }')
		mb=$(awk -v b="$(stat -c %s "$WORK/out.tar.gz")" 'BEGIN { printf "%.1f", b / 1048576 }')
		echo
		echo "### $server: $nodes nodes / $vmis VMIs, $objects objects"
		echo
		printf '| %s ' resource objects 'fetch s' 'redact s' \
			'collect s' 'kubectl s' ratio
		echo '|'
		echo "| --- | --- | --- | --- | --- | --- | --- |"
		awk 'NR == FNR { k[$1] = $2; next }
		     { r = ($1 in k && k[$1] > 0) ? sprintf("%.2f", $3 / k[$1]) : "-"
		       f += $4; d += $5
		       printf "| %s | %d | %.1f | %.1f | %.1f | %s | %s |\n",
		              $1, $2, $4, $5, $3,
		              ($1 in k ? sprintf("%.1f", k[$1]) : "-"), r }
		     END { printf "| sum of the lists | | %.1f | %.1f |", f, d
		           print " | | |" }' \
			"$WORK/k.times" "$WORK/c.times"
		printf '| **total** (incl. discovery, archive) | %s ' "$objects"
		printf '| | '
		printf '| %s | %s | %s |\n' "$c_secs" "$k_secs" "$ratio"
		echo
		echo "collect RSS $c_rss MB, kubectl RSS $k_rss MB, archive $mb MB"
		if awk -v r="$ratio" 'BEGIN { exit !(r > 2) }' || [ "$c_rss" -ge 300 ]; then
			echo "bench-collect: $server at $size misses a target (ratio <= 2, RSS < 300 MB)" >&2
			status=1
		fi
		rm -f "$WORK/out.tar.gz"
	done
done
exit "$status"
