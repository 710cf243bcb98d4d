#!/usr/bin/env bash
# Tests of snapshot/kvscope-collect: the real kubectl against the fake API
# server in tests/collector/fakekube.py, which each test starts on 127.0.0.1
# (a free port) and stops again. One line per test, then "N passed, N failed".
#
# tests/collector/run-tests.sh [TEST...] runs only the tests named.
# Environment: KVSCOPE = a kvscope binary; when set, every archive written
# here must be readable by `kvscope check` (exit status 0 or 1), run as
# KVSCOPE_FAST when that is set (the optimised build: what is tested here
# is what kvscope answers, and the sanitizers read the same snapshots in
# tests/samples, tests/hostile and the fuzz harnesses). The suite
# sets KUBECTL for the collector itself (see the runner below). COLLECT = a
# collector to test instead of snapshot/kvscope-collect; KEEP_ARCHIVES = a
# directory that gets every archive the tests wrote, named TEST-N.tar.gz
# (two runs can then be compared file by file).

# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
HERE=$ROOT/tests/collector
COLLECT=${COLLECT:-$ROOT/snapshot/kvscope-collect}
# the kvscope that reads the archives (see above)
KVSCOPE=${KVSCOPE_FAST:-${KVSCOPE:-}}
export SOURCE_DATE_EPOCH=1790000000   # 2026-09-21T14:13:20Z

BASE=$(mktemp -d "${TMPDIR:-/tmp}/kvscope-collect-tests.XXXXXX")
mkdir -p "$BASE/keep"
# On the way out, pass or fail or interrupted: every server a test started
# and did not stop (its server.pid is removed when it is stopped) and
# every test still running (no verdict yet) is killed by its PID, and the
# folder goes.
cleanup() {
	local d
	for d in "$BASE"/*/; do
		[ -s "$d/server.pid" ] && kill "$(cat "$d/server.pid")" 2>/dev/null
		[ -s "$d/test.pid" ] && [ ! -s "$d/verdict" ] &&
			kill "$(cat "$d/test.pid")" 2>/dev/null
	done
	[ -z "${KEEP_ARCHIVES:-}" ] || cp "$BASE"/keep/*.tar.gz "$KEEP_ARCHIVES"/
	rm -rf "$BASE"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0
fail=0

# --- helpers (run inside a test's subshell; T is its fresh directory) ------

die() { echo "assertion failed: $*"; exit 1; }

# start_server [fakekube options]: start the fake server, write $T/kubeconfig.
# Python is started as the background job itself ($PY, not the python3
# function below), so SERVER_PID is the server's and stop_server's kill
# reaches it (a function run with & is a subshell: killing it orphaned
# the server). The servers also stop when their parent, the test, ends.
start_server() {
	rm -f "$T/port" "$T/server.log"
	"$PY" "$HERE/fakekube.py" --port-file "$T/port" --log "$T/server.log" "$@" &
	SERVER_PID=$!
	echo "$SERVER_PID" >"$T/server.pid"
	local i
	for ((i = 0; i < 100; i++)); do
		[ -s "$T/port" ] && break
		kill -0 "$SERVER_PID" 2>/dev/null || die "fake server did not start"
		sleep 0.05
	done
	[ -s "$T/port" ] || die "fake server did not start"
	PORT=$(cat "$T/port")
	write_kubeconfig "$PORT"
}

# start_paging [pagingkube options]: the server that pages like
# kube-apiserver (tests/collector/pagingkube.py), over TLS.
start_paging() {
	rm -f "$T/port" "$T/server.log"
	"$PY" "$HERE/pagingkube.py" --port-file "$T/port" --log "$T/server.log" \
		--tls --latency-ms 0 --lifetime 600 "$@" &
	SERVER_PID=$!
	echo "$SERVER_PID" >"$T/server.pid"
	local i scheme
	for ((i = 0; i < 200; i++)); do
		[ -s "$T/port" ] && break
		kill -0 "$SERVER_PID" 2>/dev/null || die "paging server did not start"
		sleep 0.05
	done
	[ -s "$T/port" ] || die "paging server did not start"
	read -r PORT scheme <"$T/port"
	write_kubeconfig "$PORT" "$scheme"
}

# write_kubeconfig PORT [https]
write_kubeconfig() {
	local server="http://127.0.0.1:$1" user='{}'
	if [ "${2:-}" = https ]; then
		server="https://127.0.0.1:$1
    insecure-skip-tls-verify: true"
		user='{token: support-token}'
	fi
	cat >"$T/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: $server
users:
- name: support
  user: $user
contexts:
- name: test-ctx
  context: {cluster: fake, user: support}
current-context: test-ctx
EOF
}

stop_server() {
	if [ -n "${SERVER_PID:-}" ]; then
		kill "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
		rm -f "$T/server.pid"
		SERVER_PID=
	fi
	return 0
}

# collect [options]: run the collector with the test's kubeconfig; status in
# RC. Every archive it writes is kept for the kvscope-read test.
collect() {
	RC=0
	TMPDIR=$T/tmp "$COLLECT" --kubeconfig "$T/kubeconfig" "$@" >"$T/stdout" 2>"$T/stderr" || RC=$?
	if [ "$RC" = 0 ]; then
		keep "$(cat "$T/stdout")"
	fi
	return 0
}

expect_rc() {
	[ "$RC" = "$1" ] || { sed 's/^/    stderr: /' "$T/stderr" | tail -n 20; die "exit status $RC, want $1"; }
}

# keep ARCHIVE: for the kvscope-read test.
KEPT=0
keep() {
	KEPT=$((KEPT + 1))
	cp "$1" "$BASE/keep/$(basename "$T")-$KEPT.tar.gz"
}

manifest() { tar -xzf "$1" -O --wildcards '*/manifest.json'; }

# jq_is ARCHIVE FILTER WANT: the manifest's FILTER (compact) equals WANT.
# (Tests run with pipefail: no pipe here ends in a reader that quits early,
# such as head or grep -q, which would let a SIGPIPE decide the result.)
jq_is() {
	local got
	got=$(manifest "$1" | jq -c "$2")
	[ "$got" = "$3" ] || die "manifest $2 is $got, want $3"
}

# nothing_left DIR: no archive, temporary file or mapping in DIR, and the
# collector's own temporary directory is gone.
nothing_left() {
	[ -z "$(ls -A "$1")" ] || die "left behind in $1: $(ls -A "$1")"
	[ -z "$(ls -A "$T/tmp")" ] || die "left behind in TMPDIR: $(ls -A "$T/tmp")"
}

# --- tests -----------------------------------------------------------------

test_usage() {
	"$COLLECT" --help >"$T/help" || die "--help failed"
	for o in --kubeconfig --context --namespace --output --no-redact --anonymize \
		--with-node-files --launchers-only --request-timeout --timeout --allow-partial \
		--quiet --version; do
		grep -q -- "$o" "$T/help" || die "--help does not mention $o"
	done
	[ "$("$COLLECT" --version)" = "kvscope-collect 0.1.0" ] || die "--version"
	for bad in "--bogus" "--output" "-n Bad_Name" "--request-timeout soon" "--timeout 0" "extra" \
		"--kubeconfig $T/none"; do
		# shellcheck disable=SC2086
		collect $bad
		expect_rc 2
		if [ "$(wc -l <"$T/stderr")" != 1 ] || ! grep -q '^kvscope-collect: .* (see --help)$' "$T/stderr"; then
			die "not one clear line for '$bad': $(cat "$T/stderr")"
		fi
	done
	write_kubeconfig 9
	collect --context nosuch --output "$T/out/x.tar.gz"
	expect_rc 2
	grep -q "context 'nosuch' not found" "$T/stderr" || die "unknown context message"
}

# A PATH with everything the collector needs but one tool.
path_without() {
	local dir=$T/bin-no-$1 t p
	mkdir -p "$dir"
	for t in bash env kubectl jq tar gzip sha256sum stat base64 mktemp date dirname basename \
		tr grep sed awk sort cut wc head tail cat cp mv rm mkdir ls find touch chmod sleep; do
		[ "$t" = "$1" ] && continue
		p=$(command -v "$t") && ln -sf "$p" "$dir/$t"
	done
	echo "$dir"
}

test_missing_tools() {
	local t
	for t in jq kubectl; do
		RC=0
		PATH=$(path_without "$t") KUBECTL=kubectl "$COLLECT" \
			--output "$T/out/x.tar.gz" >"$T/stdout" 2>"$T/stderr" || RC=$?
		expect_rc 2
		grep -q "$t not found" "$T/stderr" || die "no clear message for missing $t: $(cat "$T/stderr")"
	done
	nothing_left "$T/out"
}

test_kubectl_plugin() {
	start_server
	mkdir -p "$T/plugins"
	ln -s "$COLLECT" "$T/plugins/kubectl-kvscope_collect"
	[ "$(PATH=$T/plugins:$PATH kubectl kvscope-collect --version)" = "kvscope-collect 0.1.0" ] ||
		die "kubectl kvscope-collect --version"
	# no --output: kvscope-<context>-<UTC time>.tar.gz in the working directory
	local a=kvscope-test-ctx-20260921T141320Z.tar.gz
	RC=0
	(cd "$T/out" && PATH=$T/plugins:$PATH TMPDIR=$T/tmp KUBECTL=kubectl \
		kubectl kvscope-collect \
		--kubeconfig "$T/kubeconfig" -q) >"$T/stdout" 2>"$T/stderr" || RC=$?
	expect_rc 0
	[ "$(cat "$T/stdout")" = "$a" ] || die "stdout is not the archive path: $(cat "$T/stdout")"
	[ ! -s "$T/stderr" ] || die "--quiet printed: $(cat "$T/stderr")"
	[ -f "$T/out/$a" ] || die "default name: $(ls "$T/out")"
	python3 "$HERE/check.py" layout "$T/out/$a" || die "layout"
	keep "$T/out/$a"
	[ "$(tar -tzf "$T/out/$a" | sed -n 1p)" = "${a%.tar.gz}/manifest.json" ] || die "top directory"
}

test_unreachable() {
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	write_kubeconfig "$port"
	collect --output "$T/out/x.tar.gz"
	expect_rc 3
	grep -q 'cannot reach the cluster' "$T/stderr" || die "no message: $(cat "$T/stderr")"
	nothing_left "$T/out"
}

test_layout_manifest() {
	start_server
	collect --output "$T/out/snap.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" layout "$T/out/snap.tar.gz" || die "layout"
	local a=$T/out/snap.tar.gz
	jq_is "$a" '.createdAt' '"2026-09-21T14:13:20Z"'
	jq_is "$a" '.cluster' '{"context":"test-ctx","kubernetesVersion":"v1.30.4","kubevirtVersion":"v1.9.0","flavor":"kubevirt"}'
	jq_is "$a" '.options' '{"namespaces":[],"redact":true,"anonymize":false,"withNodeFiles":false,"withMetrics":false}'
	jq_is "$a" '[.resources[] | select(.status == "ok") | [.resource, .count]]' \
		'[["nodes",3],["namespaces",5],["pods",6],["persistentvolumeclaims",2],["storageclasses",2],["virtualmachineinstances",2],["virtualmachines",2],["virtualmachineinstancemigrations",1],["kubevirts",1],["migrationpolicies",1]]'
	jq_is "$a" '.resources[] | select(.resource == "pods") | [.scope, .labelSelector]' '["all",null]'
	# every resource of the table that is collected has its entry, in table order
	grep '^KV_RESOURCE(' analyze/read/resources.def | grep -v ', NONE, ' |
		sed -E 's/^KV_RESOURCE\("([^"]*)", "([^"]*)".*/\1 \2/' >"$T/want-rows"
	manifest "$a" | jq -r '.resources[] | "\(.resource) \(.group)"' >"$T/got-rows"
	cmp -s "$T/want-rows" "$T/got-rows" || die "manifest resources differ from resources.def: $(diff "$T/want-rows" "$T/got-rows")"
	jq_is "$a" '.resources[] | select(.resource == "persistentvolumes") | [.status, (.message | test("cannot list resource \"persistentvolumes\""))]' \
		'["forbidden",true]'
	# the missing API groups (cdi, the NADs' k8s.cni.cncf.io) and the
	# Deckhouse groups
	jq_is "$a" '[.resources[] | select(.status == "absent") | .group] | unique' \
		'["cdi.kubevirt.io","harvesterhci.io","hco.kubevirt.io","internal.virtualization.deckhouse.io","k8s.cni.cncf.io","virtualization.deckhouse.io"]'
	jq_is "$a" '[.resources[] | select(.message) | .resource]' '["persistentvolumes"]'
	jq_is "$a" '.files | map(.path)' '["resources/kubevirts.kubevirt.io.json","resources/migrationpolicies.migrations.kubevirt.io.json","resources/namespaces.json","resources/nodes.json","resources/persistentvolumeclaims.json","resources/pods.json","resources/storageclasses.storage.k8s.io.json","resources/virtualmachineinstancemigrations.kubevirt.io.json","resources/virtualmachineinstances.kubevirt.io.json","resources/virtualmachines.kubevirt.io.json"]'
	# progress: which resource, how many objects
	grep -q '^kvscope-collect: persistentvolumeclaims: 2 objects$' "$T/stderr" || die "progress"
	grep -q '^kvscope-collect: persistentvolumes: forbidden' "$T/stderr" || die "progress (forbidden)"
	[ "$(cat "$T/stdout")" = "$a" ] || die "stdout is not the archive path"
	# not a terminal: one line a phase, no steps, the resources not served
	# are one fact of the summary
	! grep -q -E ': (absent|not served|listing)' "$T/stderr" || die "noise: $(cat "$T/stderr")"
	grep -q -E '^kvscope-collect: 10 resource types, 25 objects, 15 not served \(2 CDI, 9 Deckhouse, 2 Harvester, 1 Multus, 1 OpenShift\), [0-9]+ kB, ([0-9]+ m )?[0-9]+ s$' \
		"$T/stderr" || die "no summary: $(tail -n 1 "$T/stderr")"
	# a second run gives the same bytes; on a terminal its phases are
	# rewritten in place and only the summary and the path stay
	if command -v script >/dev/null 2>&1; then
		TMPDIR=$T/tmp script -qec "'$COLLECT' --kubeconfig '$T/kubeconfig' --output '$T/out2/snap.tar.gz'" \
			"$T/tty.log" >/dev/null </dev/null || die "collect on a terminal failed: $(cat "$T/tty.log")"
		grep -q $'\r\033\[Kkvscope-collect: pods: listing' "$T/tty.log" || die "no phase rewritten in place"
		tr '\r' '\n' <"$T/tty.log" | grep -v -e '^$' -e $'^\033\\[K' | grep -v '^Script' >"$T/tty.kept" || true
		[ "$(tail -n 1 "$T/tty.kept")" = "$T/out2/snap.tar.gz" ] || die "the path is not the last line: $(cat -A "$T/tty.log" | tail -n 3)"
		grep -q -E '^kvscope-collect: 10 resource types, 25 objects' "$T/tty.kept" || die "no summary on the terminal"
	else
		collect --output "$T/out2/snap.tar.gz"
		expect_rc 0
	fi
	cmp -s "$a" "$T/out2/snap.tar.gz" || die "two runs differ"
	# the same server and archive: every pod (test_all_pods), the
	# pseudonyms (test_anonymize)
	all_pods "$a"
	anonymize "$a"
}

test_redaction() {
	start_server --forbid ''
	collect --output "$T/out/snap.tar.gz"
	expect_rc 0
	local a=$T/out/snap.tar.gz
	# every planted secret and canary (fakekube.SECRETS), in the archive and
	# in the gunzipped tar, also base64-encoded
	python3 "$HERE/check.py" secrets "$a" kubevirt || die "secrets"
	# managedFields: on every object but the four pods that are cut down
	jq_is "$a" '[.redactions[] | select(.field == "metadata.managedFields") | .count] == [([.resources[].count // 0] | add) - 4]' true
	jq_is "$a" '[.redactions[] | select(.field != "metadata.managedFields")]' '[{"field":"metadata.annotations[\"kubectl.kubernetes.io/last-applied-configuration\"]","count":1},{"field":"metadata.annotations[*]","count":4},{"field":"metadata.labels[*]","count":4},{"field":"parameters[*]","count":1},{"field":"spec.containers[].env[].value","count":2},{"field":"spec.csi.volumeAttributes[*]","count":2},{"field":"spec.dataVolumeTemplates[].spec.source.http.extraHeaders[]","count":1},{"field":"spec.dataVolumeTemplates[].spec.source.http.url","count":1},{"field":"spec.initContainers[].args","count":2},{"field":"spec.initContainers[].env[].value","count":2},{"field":"spec.livenessProbe.httpGet.httpHeaders[].value","count":1},{"field":"spec.nodeSelector[*]","count":1},{"field":"spec.readinessProbe.exec.command","count":1},{"field":"spec.template.spec.volumes[].cloudInitConfigDrive.userDataBase64","count":1},{"field":"spec.template.spec.volumes[].cloudInitNoCloud.networkData","count":1},{"field":"spec.template.spec.volumes[].cloudInitNoCloud.userData","count":1},{"field":"spec.volumes[].cloudInitConfigDrive.userDataBase64","count":1},{"field":"spec.volumes[].cloudInitNoCloud.networkData","count":1},{"field":"spec.volumes[].cloudInitNoCloud.userData","count":1}]'
	# names and references stay: env names, valueFrom
	tar -xzf "$a" -O snap/resources/pods.json |
		jq -e '[.items[].spec.containers[].env[]?] | map(.name) == ["SECRET_TOKEN","FROM_SECRET","SECRET_TOKEN","FROM_SECRET"]
		       and (map(select(.valueFrom)) | length) == 2 and all(has("value") | not)' >/dev/null ||
		die "env names or valueFrom lost"
	# what the analysis reads stays: the compute container's command, the
	# annotations it reads, selector labels, secret names, the DVP storage key;
	# a credential label and the node selector on it get the same marker
	python3 "$HERE/check.py" kept "$a" || die "kept"
	# the Multus annotation a NetworkAttachmentDefinition's capacity needs
	tar -xzf "$a" -O snap/resources/pods.json |
		jq -e '[.items[].metadata.annotations["k8s.v1.cni.cncf.io/resourceName"] // empty]
		       == ["intel.com/sriov","intel.com/sriov"]' >/dev/null ||
		die "k8s.v1.cni.cncf.io/resourceName lost"
	# --no-redact keeps them (so the search above would have found them)
	collect --no-redact --output "$T/out/raw.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" leaks "$T/out/raw.tar.gz" || die "no-redact"
}

# all_pods ARCHIVE (of the default server, by test_layout_manifest):
# every pod, launchers whole, the rest cut down to the spec's field list.
all_pods() {
	python3 "$HERE/check.py" pods "$1" all || die "pods (all)"
	! grep -q 'labelSelector' "$T/server.log" || die "a label selector was sent"
	collect --launchers-only --output "$T/out/launchers.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" pods "$T/out/launchers.tar.gz" launchers || die "pods (launchers)"
	jq_is "$T/out/launchers.tar.gz" '.resources[] | select(.resource == "pods") | [.count, .scope, .labelSelector]' \
		'[2,"launchers","kubevirt.io=virt-launcher"]'
	grep -q -E '^GET /api/v1/pods\?(.*&)?labelSelector=kubevirt.io%3Dvirt-launcher(&|$)' "$T/server.log" ||
		die "no server-side selector with --launchers-only"
}

# The collector's copy of the resource table, the fuzz harness and the seed
# generator all follow analyze/read/resources.def.
test_resource_table() {
	grep '^KV_RESOURCE(' analyze/read/resources.def >"$T/def"
	[ -s "$T/def" ] || die "no rows in analyze/read/resources.def"
	sed -n "/^RESOURCES_DEF='$/,/^'$/p" "$COLLECT" | grep '^KV_RESOURCE(' >"$T/collector"
	cmp -s "$T/def" "$T/collector" ||
		die "snapshot/kvscope-collect's RESOURCES_DEF differs from analyze/read/resources.def: $(diff "$T/def" "$T/collector")"
	grep -q '#include "analyze/read/resources.def"' tests/fuzz/fuzz.h || die "fuzz.h does not take its files from resources.def"
	python3 tests/fuzz/make-seeds.py --print-load-files >"$T/seeds" || die "make-seeds.py --print-load-files"
	sed -E 's/^KV_RESOURCE\("([^"]*)", "([^"]*)".*/\1 \2/' "$T/def" |
		awk '{ print "resources/" $1 ($2 == "" ? "" : "." $2) ".json" } END { print "libvirt/cpu_map/x86_Fuzz.xml" }' >"$T/want"
	cmp -s "$T/want" "$T/seeds" || die "make-seeds.py's files differ: $(diff "$T/want" "$T/seeds")"
}

# A server that never answers: bounded by the request timeout.
test_no_answer() {
	start_server --hang-on ALL
	local t0=$SECONDS
	collect --request-timeout 2s --output "$T/out/x.tar.gz"
	expect_rc 3
	[ $((SECONDS - t0)) -lt 20 ] || die "took $((SECONDS - t0)) s"
	grep -q 'cannot reach the cluster' "$T/stderr" || die "message: $(cat "$T/stderr")"
	nothing_left "$T/out"
	stop_server
	# one resource hangs: retried once, then the run fails naming it
	start_server --hang-on virtualmachineinstances.kubevirt.io
	collect --request-timeout 2s --output "$T/out/x.tar.gz"
	expect_rc 5
	grep -q 'needed by the analysis and not collected: virtualmachineinstances.kubevirt.io: error: no answer within 2s' "$T/stderr" ||
		die "message: $(cat "$T/stderr")"
	[ "$(grep -c 'HANG virtualmachineinstances' "$T/server.log")" = 2 ] || die "not asked twice"
	nothing_left "$T/out"
	# --allow-partial: the archive, and the manifest says what is missing
	collect --request-timeout 2s --allow-partial --output "$T/out/p.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" layout "$T/out/p.tar.gz" || die "layout"
	jq_is "$T/out/p.tar.gz" '.resources[] | select(.resource == "virtualmachineinstances") | [.status, (.message | startswith("no answer within 2s"))]' \
		'["error",true]'
	jq_is "$T/out/p.tar.gz" '[.notes[] | startswith("partial snapshot: virtualmachineinstances.kubevirt.io: error")]' '[true]'
}

# The deadline passes while the nodes list hangs (the server never
# answers it): the run stops at the deadline, not at the 60 s request
# timeout, and names what it was collecting: nodes once the server has
# seen the request; under load the start-up (or kubectl's own start)
# may outlast the deadline, and the message may then name the start.
test_deadline() {
	start_server --hang-on nodes
	local t0=$SECONDS what='(the start|nodes)'
	collect --timeout 8s --output "$T/out/x.tar.gz"
	expect_rc 5
	[ $((SECONDS - t0)) -lt 40 ] || die "took $((SECONDS - t0)) s"
	! grep -q 'HANG nodes' "$T/server.log" || what=nodes
	grep -qE "deadline \(--timeout 8s\) passed while collecting $what;" \
		"$T/stderr" || die "message: $(cat "$T/stderr")"
	grep -q 'no archive written' "$T/stderr" || die "an archive?"
	nothing_left "$T/out"
}

# Transient errors are retried: one 500, one 429 with Retry-After, a
# connection reset, a 410 on a stale continue token (the list restarts).
test_transient() {
	start_server --big 1200 --fail-once virtualmachineinstances.kubevirt.io:500,nodes:503 \
		--throttle pods:2 --reset-on virtualmachines.kubevirt.io \
		--gone-on-continue persistentvolumeclaims
	collect --output "$T/out/t.tar.gz"
	expect_rc 0
	local a=$T/out/t.tar.gz
	python3 "$HERE/check.py" layout "$a" || die "layout"
	jq_is "$a" '[.resources[] | select(.status == "ok") | [.resource, .count]]' \
		'[["nodes",3],["namespaces",6],["pods",6],["persistentvolumeclaims",1202],["storageclasses",2],["virtualmachineinstances",2],["virtualmachines",2],["virtualmachineinstancemigrations",1],["kubevirts",1],["migrationpolicies",1]]'
	for w in 'FAIL-ONCE virtualmachineinstances.kubevirt.io 500' 'FAIL-ONCE nodes 503' '429 pods' \
		'RESET virtualmachines.kubevirt.io' 'GONE persistentvolumeclaims'; do
		grep -q "^$w" "$T/server.log" || die "no '$w' in the server log"
	done
	awk '$1 == "AFTER-429" && $2 == "pods" && $3 >= 1.95 { ok = 1 } END { exit !ok }' "$T/server.log" ||
		die "Retry-After not honoured: $(grep AFTER-429 "$T/server.log")"
	# the PVC list started again without the token: two first pages in all
	[ "$(grep -c -E '^GET /api/v1/persistentvolumeclaims\?limit=500(&timeout=[^&]*)?$' "$T/server.log")" = 2 ] ||
		die "PVC list not restarted: $(grep persistentvolumeclaims "$T/server.log")"
	python3 "$HERE/check.py" paged "$a" "$T/server.log" 1200 restarted || die "paging"
}

# A needed resource that keeps failing: no archive, unless --allow-partial.
test_needed_fails() {
	start_server --error-on pods
	collect --output "$T/out/x.tar.gz"
	expect_rc 5
	grep -q '^kvscope-collect: needed by the analysis and not collected: pods: error: .*etcdserver: request timed out' "$T/stderr" ||
		die "message: $(cat "$T/stderr")"
	[ "$(grep -c '^GET /api/v1/pods?' "$T/server.log")" = 5 ] || die "not tried 5 times"
	nothing_left "$T/out"
}

# A generated cluster (tools/gen-large.py) served page by page: the archive
# has every object and kvscope reads it.
test_generated_cluster() {
	python3 tools/gen-large.py --nodes 12 --vmis 600 --no-node-files --out "$T/gen.tar.gz" >/dev/null ||
		die "gen-large"
	start_server --from-snapshot "$T/gen.tar.gz" --forbid ''
	KVSCOPE_COLLECT_TIMING=$T/times collect -q --output "$T/out/gen.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" layout "$T/out/gen.tar.gz" || die "layout"
	# make bench-collect's times: a line a list, "NAME COUNT SECONDS FETCH
	# REDACT", the fetch and the redaction each within the whole
	awk '$1 == "virtualmachineinstances.kubevirt.io" && $2 == 600 { v++ }
	     NF != 5 || $4 > $3 || $5 > $3 { bad++ }
	     END { exit !(v == 1 && !bad && NR >= 8) }' "$T/times" ||
		die "timing lines: $(cat "$T/times")"
	python3 "$HERE/check.py" same "$T/gen.tar.gz" "$T/out/gen.tar.gz" || die "not the same objects"
	[ "$(grep -c '^GET /apis/kubevirt.io/v1/virtualmachineinstances?' "$T/server.log")" = 2 ] ||
		die "VMIs not in 2 pages"
}

# Each sample cluster served by the fake API and collected reads back to
# the sample's own findings: byte for byte, once the collection time is
# the sample's (SOURCE_DATE_EPOCH) and the pods' scope is the sample's
# (--launchers-only unless its manifest says "all"). What may differ is
# the manifest's own: kubernetesVersion (the fake server's), the
# collector's name and version, redactions and notes; findings.json
# carries none of them but the context (snapshot.context), left out of
# the comparison.
test_samples_read_back() {
	[ -n "${KVSCOPE:-}" ] || { echo "KVSCOPE not set"; return 0; }
	local s n scope rc epoch v out
	for s in "$ROOT"/samples/*/; do
		[ -f "$s/manifest.json" ] || continue
		n=$(basename "$s")
		scope=$(jq -r '[.resources[] | select(.resource == "pods")
			| .scope // "launchers"][0]' "$s/manifest.json")
		epoch=$(date -d "$(jq -r .createdAt "$s/manifest.json")" +%s)
		start_server --from-snapshot "$s" --forbid ''
		SOURCE_DATE_EPOCH=$epoch collect -q \
			--output "$T/out/$n.tar.gz" \
			$([ "$scope" = all ] || echo --launchers-only)
		expect_rc 0
		stop_server
		for v in a b; do
			rc=0
			out=$T/$n-$v
			if [ $v = a ]; then set -- "$s"
			else set -- "$T/out/$n.tar.gz"; fi
			"$KVSCOPE" report "$1" --format json \
				--output-dir "$out" >/dev/null \
				2>"$T/report.err" || rc=$?
			[ "$rc" -le 1 ] || die "$n: kvscope report: $rc:" \
				"$(cat "$T/report.err")"
		done
		# snapshot.context is the collector's kubectl context
		for v in a b; do
			jq -S 'del(.snapshot.context)' \
			    "$T/$n-$v/findings.json" >"$T/$n-$v.cmp"
		done
		cmp -s "$T/$n-a.cmp" "$T/$n-b.cmp" ||
			die "$n: the collected snapshot's findings differ: $(
			    diff "$T/$n-a.cmp" "$T/$n-b.cmp" | head -n 20)"
		echo "ok: $n reads back to its findings"
	done
}

# anonymize PLAIN (an archive of the default server, whose test it runs
# in: test_layout_manifest)
anonymize() {
	local o=$T/anon/snap.tar.gz o2=$T/anon2/snap.tar.gz
	mkdir -p "$T/anon" "$T/anon2" || die "mkdir"
	collect --anonymize --output "$o"
	expect_rc 0
	[ -f "$o.mapping.json" ] || die "no mapping beside the archive"
	[ "$(find "$T/anon" -mindepth 1 | wc -l)" = 2 ] || die "unexpected files: $(ls -A "$T/anon")"
	python3 "$HERE/check.py" layout "$o" || die "layout"
	python3 "$HERE/check.py" secrets "$o" kubevirt || die "secrets"
	python3 "$HERE/check.py" anon "$1" "$o" \
		"$o.mapping.json" || die "anon"
	tar -xzf "$o" -O >"$T/members.txt"
	! grep -q 'test-ctx' "$T/members.txt" || die "context name in the archive"
	jq -e '.nodes["worker-c"] == .nodes["worker-c.corp.example"]' "$o.mapping.json" \
		>/dev/null || die "hostname label and node name differ"
	# stable: a second run gives the same pseudonyms and the same bytes
	collect --anonymize --output "$o2"
	expect_rc 0
	cmp -s "$o.mapping.json" "$o2.mapping.json" || die "mapping differs"
	cmp -s "$o" "$o2" || die "archives differ"
}

test_deckhouse() {
	start_server --flavor deckhouse --no-aggregated
	collect --anonymize --output "$T/out/dvp.tar.gz"
	expect_rc 0
	collect --output "$T/out/plain.tar.gz"
	expect_rc 0
	local a=$T/out/plain.tar.gz
	python3 "$HERE/check.py" layout "$a" || die "layout"
	python3 "$HERE/check.py" secrets "$a" deckhouse || die "secrets"
	python3 "$HERE/check.py" secrets "$T/out/dvp.tar.gz" deckhouse || die "secrets (anonymized)"
	jq_is "$a" '.cluster' '{"context":"test-ctx","kubernetesVersion":"v1.30.4","kubevirtVersion":"v1.6.2-v12n.92","flavor":"deckhouse"}'
	jq_is "$a" '.resources[] | select(.resource == "pods") | [.count, .scope]' '[6,"all"]'
	jq_is "$a" '[.resources[] | select(.group | endswith("deckhouse.io")) | [.resource, .status, .count]]' \
		'[["virtualmachines","ok",1],["virtualmachineclasses","ok",1],["virtualdisks","ok",1],["virtualmachineoperations","ok",1],["virtualmachineblockdeviceattachments","ok",0],["internalvirtualizationvirtualmachineinstances","ok",2],["internalvirtualizationvirtualmachines","ok",1],["internalvirtualizationvirtualmachineinstancemigrations","ok",1],["internalvirtualizationkubevirts","ok",1]]'
	# the KVVM keeps the migration's own node affinity, anonymized consistently
	tar -xzf "$T/out/dvp.tar.gz" -O dvp/resources/internalvirtualizationvirtualmachines.internal.virtualization.deckhouse.io.json |
		jq -e '.items[0].metadata.annotations | keys == ["virtualization.deckhouse.io/migration-node-affinity-terms"]
		       and (.[] | fromjson | .[0].matchExpressions[0].values | . == ["node-002"])' >/dev/null ||
		die "KVVM annotations"
	jq_is "$a" '[.resources[] | select(.group == "kubevirt.io") | .status] | unique' '["absent"]'
	jq_is "$a" '[.redactions[] | select(.field == "spec.provisioning.userData") | .count]' '[1]'
	# discovery went the legacy way (the server refused aggregated discovery)
	grep -q '^GET /apis/internal.virtualization.deckhouse.io/v1' "$T/server.log" || die "no legacy discovery"
	# anonymized: the system VMOP keeps its prefix and vmop-<op> still names it
	{
		tar -xzf "$T/out/dvp.tar.gz" -O dvp/resources/virtualmachineoperations.virtualization.deckhouse.io.json
		tar -xzf "$T/out/dvp.tar.gz" -O \
			dvp/resources/internalvirtualizationvirtualmachineinstancemigrations.internal.virtualization.deckhouse.io.json
	} | jq -s -e '.[0].items[0].metadata.name as $op | ($op | startswith("evacuation-"))
		          and .[1].items[0].metadata.name == "vmop-" + $op
		          and (.[0].items[0].spec.virtualMachineName | test("^vm-[0-9]+$"))' >/dev/null ||
		die "VMOP pseudonyms"
}

test_paging_5000() {
	start_server --big 5000
	collect -q --output "$T/out/big.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" layout "$T/out/big.tar.gz" || die "layout"
	python3 "$HERE/check.py" paged "$T/out/big.tar.gz" "$T/server.log" 5000 || die "paging"
}

# The server that pages like kube-apiserver: real continue tokens, a
# compaction in the middle of the PVC list (410 Expired, listed again), gzip
# and TLS; every object arrives once, in key order.
test_paging_server() {
	# pages before the PVCs: nodes, namespaces, pods; the first PVC page is
	# the 4th, so its continue token dates from before the compaction
	start_paging --big 1200 --compact-after-pages 4
	collect -q --output "$T/out/p.tar.gz"
	expect_rc 0
	local a=$T/out/p.tar.gz
	python3 "$HERE/check.py" layout "$a" || die "layout"
	python3 "$HERE/check.py" secrets "$a" || die "secrets"
	jq_is "$a" '[.resources[] | select(.status == "ok") | [.resource, .count]]' \
		'[["nodes",3],["namespaces",6],["pods",6],["persistentvolumeclaims",1202],["persistentvolumes",1],["storageclasses",2],["virtualmachineinstances",2],["virtualmachines",2],["virtualmachineinstancemigrations",1],["kubevirts",1],["migrationpolicies",1]]'
	grep -q '^GONE persistentvolumeclaims' "$T/server.log" || die "no 410 on the PVC list"
	[ "$(grep -c -E '^GET /api/v1/persistentvolumeclaims\?limit=500(&timeout=[^&]*)?$' "$T/server.log")" = 2 ] ||
		die "PVC list not restarted: $(grep persistentvolumeclaims "$T/server.log")"
	python3 "$HERE/check.py" paged "$a" "$T/server.log" 1200 restarted || die "paging"
	# a continue token is sent back as the server wrote it, and no request
	# sends a resourceVersion (which a continue token forbids)
	grep -q 'continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEi' "$T/server.log" || die "no real continue token sent"
	! grep -q 'resourceVersion' "$T/server.log" || die "a request sent a resourceVersion"
	tar -xzf "$a" -O p/resources/persistentvolumeclaims.json |
		jq -e '[.items[].metadata | "\(.namespace)/\(.name)"] | . == sort' >/dev/null ||
		die "PVCs not in key order"
}

# The version objects of OpenShift Virtualization and Harvester: taken,
# names kept under --anonymize, a private key in a setting replaced.
test_distributions() {
	start_server --distro openshift
	collect --anonymize --output "$T/out/hco.tar.gz"
	expect_rc 0
	local a=$T/out/hco.tar.gz
	jq_is "$a" '[.resources[] | select(.group == "hco.kubevirt.io" or .group == "harvesterhci.io") | [.resource, .status, .count]]' \
		'[["hyperconvergeds","ok",1],["settings","absent",null],["versions","absent",null]]'
	tar -xzf "$a" -O hco/resources/hyperconvergeds.hco.kubevirt.io.json |
		jq -e '.items[0] | .metadata.name == "kubevirt-hyperconverged"
		       and .spec.liveMigrationConfig.parallelMigrationsPerCluster == 5
		       and .status.versions[0].version == "4.16.3"' >/dev/null || die "HyperConverged CR"
	# the flavor row's name (analyze/flavor.c), which kvscope accepts
	jq_is "$a" '.cluster.flavor' '"openshift"'
	grep -q -E 'not served \(2 CDI, 9 Deckhouse, 2 Harvester, 1 Multus\)' "$T/stderr" || die "summary: $(tail -n 1 "$T/stderr")"
	stop_server
	start_server --distro harvester
	collect --anonymize --output "$T/out/hv.tar.gz"
	expect_rc 0
	a=$T/out/hv.tar.gz
	jq_is "$a" '[.resources[] | select(.group == "harvesterhci.io") | [.resource, .status, .count]]' \
		'[["settings","ok",4],["versions","ok",1]]'
	jq_is "$a" '.cluster.flavor' '"harvester"'
	tar -xzf "$a" -O hv/resources/settings.harvesterhci.io.json |
		jq -e '[.items[] | {key: .metadata.name, value: (.value // .default)}] | from_entries
		       | .["server-version"] == "v1.3.1" and (.["overcommit-config"] | fromjson | .cpu) == 1600
		       and (.["ssl-certificates"] | startswith("<redacted: "))' >/dev/null || die "Harvester settings"
	tar -xzf "$a" -O hv/resources/versions.harvesterhci.io.json |
		jq -e '.items[0] | .metadata.name == "v1.3.1" and .spec.minUpgradableVersion == "v1.2.1"' >/dev/null ||
		die "Harvester version object"
	! tar -xzf "$a" -O | grep -q 'HarvKey-Canary' || die "the setting's private key left the cluster"
	! tar -xzf "$a" -O | grep -q 'HarvRegistry-Passw0rd-Canary' ||
		die "the registry mirror's password left the cluster"
}

test_namespaces() {
	start_server --big 20 --forbid ''
	collect -n payroll-prod --namespace=bulk --output "$T/out/ns.tar.gz"
	expect_rc 0
	local a=$T/out/ns.tar.gz
	python3 "$HERE/check.py" layout "$a" || die "layout"
	jq_is "$a" '.options.namespaces' '["bulk","payroll-prod"]'
	local ok='[["nodes",3],["namespaces",2],["pods",2],'
	ok+='["persistentvolumeclaims",21],["persistentvolumes",1],'
	ok+='["storageclasses",2],["virtualmachineinstances",1],'
	ok+='["virtualmachines",1],["virtualmachineinstancemigrations",1],'
	ok+='["kubevirts",1],["migrationpolicies",1]]'
	jq_is "$a" '[.resources[] | select(.status == "ok")
		| [.resource, .count]]' "$ok"
	tar -xzf "$a" -O ns/resources/pods.json ns/resources/virtualmachineinstances.kubevirt.io.json |
		jq -s -e '[.[].items[].metadata.namespace] | unique == ["payroll-prod"]' >/dev/null ||
		die "objects from other namespaces"
	grep -q 'GET /api/v1/namespaces/bulk/pods?' "$T/server.log" || die "no per-namespace list"
	# persistent volumes: only those bound to a claim in the namespaces
	# (above: payroll-prod's one)
	collect -n web-stage --output "$T/out/web.tar.gz"
	expect_rc 0
	jq_is "$T/out/web.tar.gz" '.resources[]
		| select(.resource == "persistentvolumes") | .count' 0
	[ -n "${KVSCOPE:-}" ] || return 0
	# kvscope says which answers the namespaces limit, once, coded
	local rc=0 want
	want='namespaces: collected from bulk, payroll-prod only '
	want+='(--namespace); pod (anti-)affinity'
	"$KVSCOPE" check "$a" -o json >"$T/check.json" \
		2>"$T/check.err" || rc=$?
	[ "$rc" -le 1 ] || die "kvscope check exited $rc: $(cat "$T/check.err")"
	jq -e --arg w "$want" '[.warnings[] | select(.code == "partial-resource"
		and (.message | startswith($w)))] | length == 1' \
		"$T/check.json" >/dev/null ||
		die "no namespaces warning: $(jq -c .warnings "$T/check.json")"
	[ "$(grep -cF "$want" "$T/check.err")" = 1 ] ||
		die "not one stderr line: $(cat "$T/check.err")"
}

test_error_status() {
	start_server --error-on virtualmachineinstancemigrations.kubevirt.io --garbage-on kubevirts
	collect --output "$T/out/err.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" layout "$T/out/err.tar.gz" || die "layout"
	jq_is "$T/out/err.tar.gz" '.resources[] | select(.resource == "virtualmachineinstancemigrations") | [.status, (.message | test("etcdserver: request timed out"))]' \
		'["error",true]'
	jq_is "$T/out/err.tar.gz" '.resources[] | select(.resource == "kubevirts") | [.status, (.message | startswith("the server'"'"'s answer is not a list: parse error"))]' \
		'["error",true]'
	jq_is "$T/out/err.tar.gz" '[.resources[] | select(.status == "ok")] | length' 8
	# discovery of one group fails: its resources are errors, the rest is taken
	stop_server
	start_server --no-aggregated --broken-group migrations.kubevirt.io
	collect --output "$T/out/disc.tar.gz"
	expect_rc 0
	jq_is "$T/out/disc.tar.gz" '.resources[] | select(.resource == "migrationpolicies") | [.status, (.message | test("^discovery failed: .*migrations.kubevirt.io/v1alpha1"))]' \
		'["error",true]'
	jq_is "$T/out/disc.tar.gz" '[.resources[] | select(.status == "ok")] | length' 9
}

# The server vanishes at the third page of claims: 1202 claims make three
# pages of 500, and more would only be generated, never asked for.
test_server_vanishes() {
	start_server --big 1200 --die-on persistentvolumeclaims:3
	collect --output "$T/out/gone.tar.gz"
	expect_rc 3
	grep -q 'lost the cluster while collecting persistentvolumeclaims' "$T/stderr" ||
		die "no message naming the resource: $(tail -n 3 "$T/stderr")"
	grep -q VANISH "$T/server.log" || die "the server did not vanish"
	nothing_left "$T/out"
}

# SIGINT and SIGTERM while the claims are listed (the server never
# answers; the pods' redaction may still run behind): exit 4, nothing
# left. interrupt.py signals once the server has seen the request.
test_interrupted() {
	start_server --hang-on persistentvolumeclaims
	local sig
	for sig in INT TERM; do
		: >"$T/server.log"
		python3 "$HERE/interrupt.py" "$sig" "$T/server.log" \
			"HANG persistentvolumeclaims" "$T/rc" \
			env TMPDIR="$T/tmp" "$COLLECT" --kubeconfig "$T/kubeconfig" \
			--output "$T/out/int.tar.gz" 2>"$T/stderr" ||
			die "interrupt helper"
		RC=$(cat "$T/rc")
		expect_rc 4
		grep -q 'interrupted; no archive written' "$T/stderr" ||
			die "no message on SIG$sig"
		nothing_left "$T/out"
	done
}

test_node_files() {
	start_server
	collect --with-node-files --output "$T/out/nf.tar.gz"
	expect_rc 0
	python3 "$HERE/check.py" layout "$T/out/nf.tar.gz" || die "layout"
	jq_is "$T/out/nf.tar.gz" '.options.withNodeFiles' true
	jq_is "$T/out/nf.tar.gz" '[.notes[] | select(startswith("node files: exec into virt-handler-"))] | length' 3
	jq_is "$T/out/nf.tar.gz" '[.notes[] | select(startswith("node files: libvirt CPU map from payroll-prod/virt-launcher-payroll-db-"))] | length' 1
	tar -tzf "$T/out/nf.tar.gz" >"$T/members.txt"
	! grep -q -e '/nodes/' -e '/libvirt/' "$T/members.txt" || die "node files from nowhere"
	stop_server
	start_server --exec forbid
	collect --with-node-files --output "$T/out/nf2.tar.gz"
	expect_rc 0
	jq_is "$T/out/nf2.tar.gz" '[.notes[] | startswith("node files: exec forbidden (")]' '[true]'
	grep -q 'virt-handler-x/exec' "$T/server.log" || die "no exec tried"
	grep '/exec' "$T/server.log" | grep -v 'virt-handler-x/exec' >"$T/other-exec" || true
	[ ! -s "$T/other-exec" ] || die "went on trying exec after a 403: $(cat "$T/other-exec")"
}

# The fake server cannot exec, so this test puts a stand-in for kubectl in
# front of the real one: it answers `kubectl exec` as virt-handler and
# virt-launcher would (one node lacks capabilities.xml; the CPU map tar
# also holds a symlink and a non-XML file, which must not be copied) and
# passes everything else to kubectl.
test_node_files_copied() {
	start_server
	mkdir -p "$T/cpumap/src"
	echo '<cpus><arch name="x86"/></cpus>' >"$T/cpumap/src/index.xml"
	echo '<cpus><model name="Skylake-Server"/></cpus>' >"$T/cpumap/src/x86_Skylake-Server.xml"
	echo 'not a cpu map' >"$T/cpumap/src/README"
	ln -s /etc/passwd "$T/cpumap/src/x86_evil.xml"
	tar -C "$T/cpumap/src" -cf "$T/cpumap/map.tar" .
	sed -e "s|@REAL@|$(command -v "$KUBECTL")|" -e "s|@MAP@|$T/cpumap/map.tar|" \
		"$HERE/exec-stub.sh" >"$T/kubectl"
	chmod +x "$T/kubectl"
	KUBECTL=$T/kubectl collect --with-node-files --anonymize --output "$T/out/nf.tar.gz"
	expect_rc 0
	local a=$T/out/nf.tar.gz
	python3 "$HERE/check.py" layout "$a" || die "layout"
	jq_is "$a" '[.files[].path | select(startswith("nodes/") or startswith("libvirt/"))]' \
		'["libvirt/cpu_map/index.xml","libvirt/cpu_map/x86_Skylake-Server.xml","nodes/node-001/capabilities.xml","nodes/node-001/domcapabilities.xml","nodes/node-001/supported_features.xml","nodes/node-002/domcapabilities.xml","nodes/node-002/supported_features.xml","nodes/node-003/capabilities.xml","nodes/node-003/domcapabilities.xml","nodes/node-003/supported_features.xml"]'
	jq_is "$a" '.notes' '["node files: node-002: capabilities.xml: cat: /var/lib/kubevirt-node-labeller/capabilities.xml: No such file or directory"]'
	[ "$(tar -xzf "$a" -O nf/nodes/node-003/domcapabilities.xml)" = "<virsh_domcapabilities.xml pod='virt-handler-z'/>" ] ||
		die "node-003's file is not virt-handler-z's"
	jq -e '.nodes["worker-c.corp.example"] == "node-003"' "$a.mapping.json" >/dev/null || die "mapping"
}

test_kvscope_read() {
	local n=0 a rc
	for a in "$BASE"/keep/*.tar.gz; do
		rc=0
		"$KVSCOPE" check "$a" >"$T/check.out" 2>&1 || rc=$?
		# 2 only for an archive whose VMIs could not be read at all:
		# nothing to judge is exit 2, as kubectl's "No resources found"
		if [ "$rc" = 2 ] && grep -q "check: no VMIs found" "$T/check.out" &&
		    grep -q "virtualmachineinstances.kubevirt.io: error" "$T/check.out"; then
			rc=0
		fi
		case $rc in
		0|1) n=$((n + 1)) ;;
		*) sed 's/^/    /' "$T/check.out" | tail -n 10; die "kvscope check $(basename "$a") exited $rc" ;;
		esac
	done
	[ "$n" -ge 10 ] || die "only $n archives kept"
	echo "kvscope read $n archives"
}

# issue 41 item 12: what kvscope says of the collector's own snapshot
# (the fake server's fixture: cpu-feature labels that name avx512f only,
# no cpu-vendor label, no cpu-model-migration label for the host model
# Skylake-Server-IBRS, VMIs without memory) contradicts nothing: no
# "x86-64-v0" beside AVX-512, a class refused to itself says why, no
# "different CPU vendors" without a vendor label, no "completion timeout
# 0 s".
test_kvscope_words() {
	# the default server's archive (test_layout_manifest kept it)
	local a=$BASE/keep/layout_manifest-1.tar.gz
	[ -s "$a" ] || die "no archive of test_layout_manifest"
	"$KVSCOPE" pairs "$a" >"$T/pairs" 2>/dev/null || die "pairs failed"
	grep -q 'Skylake-Server-IBRS (x86-64-v4, AVX2, AVX-512):' "$T/pairs" ||
		die "level: $(grep C1 "$T/pairs")"
	! grep -q 'x86-64-v0' "$T/pairs" || die "x86-64-v0: $(cat "$T/pairs")"
	COLUMNS=200 "$KVSCOPE" pairs "$a" >"$T/pairs" 2>/dev/null
	grep -q '^    within one class: the nodes of C1 lack the label their own host model asks of a target, so a host-model VMI on C1 finds no target there either' \
		"$T/pairs" || die "C1 -> C1 unexplained: $(cat "$T/pairs")"
	"$KVSCOPE" explain "$a" payroll-prod/payroll-db >"$T/explain" 2>/dev/null
	grep -q 'BlockMigration, completion timeout unknown (150 s per GB, the KubeVirt default as the KubeVirt CR sets none, times the guest memory, which the VMI does not state), eviction None' \
		"$T/explain" || die "timeout: $(grep -i timeout "$T/explain")"
	! grep -q 'timeout 0 s' "$T/explain" || die "timeout 0 s"
	"$KVSCOPE" check "$a" >"$T/check" 2>/dev/null
	grep -q 'fix none: The source nodes (worker-a.corp.example) carry no' \
		"$T/check" || die "vendor: $(grep -A3 G5 "$T/check")"
	! grep -q 'different CPU vendors' "$T/check" || die "different vendors"
	# exit 1: its VMIs would not migrate
	"$KVSCOPE" report "$a" --format html -d "$T/report" -q >/dev/null 2>&1
	grep -q 'C1 → C1: missing 1 label: cpu-model-migration.node.kubevirt.io/Skylake-Server-IBRS; within one class: the nodes of C1 lack' \
		"$T/report/report.html" || die "report: C1 -> C1 unexplained"
}

# --with-metrics and the migration history: tests/collector/metrics-tests.sh
# shellcheck source=tests/collector/metrics-tests.sh
. "$HERE/metrics-tests.sh"

# --- runner ----------------------------------------------------------------

for tool in kubectl jq python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "FAIL prerequisites: $tool not found (make deps installs it)"
		echo "0 passed, 1 failed"
		exit 1
	fi
done

# The kubectl the collector runs here (exported as KUBECTL). Google Cloud
# SDK's kubectl is a dispatcher: each call starts it and then the
# kubectl.X.Y it picks for the server's version, one more Go start-up per
# request, half the kubectl CPU time of the suite. The fake servers say
# v1.30.4 (fakekube.KUBE_VERSION), which picks kubectl.1.30: run that one
# directly. test_missing_tools and test_kubectl_plugin run without it.
KUBECTL=$(command -v kubectl)
case $("$KUBECTL" version --client 2>/dev/null) in
*-dispatcher*)
	k=$(dirname "$(readlink -f "$KUBECTL")")/kubectl.1.30
	[ ! -x "$k" ] || KUBECTL=$k
	;;
esac
export KUBECTL
# python3 here is Python itself, not a version manager's shim in front of
# it (pyenv's is a shell script that costs three times what Python's own
# start-up does; the suite starts Python some 70 times).
PYTHON=$(command python3 -c 'import sys; print(sys.executable)') || PYTHON=
PY=python3
if [ -x "$PYTHON" ]; then
	PY=$PYTHON
	python3() { "$PYTHON" "$@"; }
fi

# run NAME: one test in its own directory, in the background; its verdict
# goes to $T/verdict and its output to $T/log.
run() {
	local name=$1
	T=$BASE/$name
	mkdir -p "$T/tmp" "$T/out" "$T/out2" "$T/plain"
	(
		start=$SECONDS
		(
			trap stop_server EXIT
			set -o pipefail
			"test_$name"
		) >"$T/log" 2>&1
		rc=$?
		[ -s "$T/server.pid" ] && kill "$(cat "$T/server.pid")" 2>/dev/null
		times >"$T/times"
		printf '%s %s %s\n' "$rc" $((SECONDS - start)) \
			"$(awk -f "$ROOT/tests/cpu-seconds.awk" "$T/times")" >"$T/verdict"
	) &
	echo $! >"$T/test.pid"
}

# report NAME: print its line (and its log on failure); it must have ended.
report() {
	local name=$1 rc secs cpu
	read -r rc secs cpu <"$BASE/$name/verdict"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		printf 'PASS %-22s %3ds %3s CPU s\n' "$name" "$secs" "$cpu"
	else
		fail=$((fail + 1))
		printf 'FAIL %-22s %3ds %3s CPU s\n' "$name" "$secs" "$cpu"
		sed 's/^/    | /' "$BASE/$name/log" | tail -n 40
	fi
}

# Tests run COLLECTOR_JOBS at a time (each has its own server and port;
# default twice JOBS, as a test spends part of its time waiting on a
# timeout, a Retry-After or a hanging server); the lines come in this
# order whatever order they finish in.
JOBS=${COLLECTOR_JOBS:-$((${JOBS:-2} * 2))}
TESTS=(usage missing_tools kubectl_plugin unreachable layout_manifest redaction
	resource_table deckhouse paging_5000 paging_server distributions namespaces error_status server_vanishes
	interrupted node_files node_files_copied no_answer deadline transient needed_fails
	generated_cluster samples_read_back)
TESTS+=("${METRICS_TESTS[@]}")
# run-tests.sh NAME...: only these tests
[ $# -eq 0 ] || TESTS=("$@")
next=0
flush() { # report the finished tests at the head of the list
	while [ "$next" -lt ${#TESTS[@]} ] && [ -s "$BASE/${TESTS[next]}/verdict" ]; do
		report "${TESTS[next]}"
		next=$((next + 1))
	done
}
for t in "${TESTS[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; flush; done
	run "$t"
	flush
done
wait
flush
# Last, as it reads what the others kept.
if [ $# -gt 0 ]; then
	echo "SKIP kvscope-read (only some tests ran)"
elif [ -n "${KVSCOPE:-}" ] && [ -x "${KVSCOPE:-}" ]; then
	run kvscope_read
	run kvscope_words
	wait
	report kvscope_read
	report kvscope_words
else
	echo "SKIP kvscope-read (KVSCOPE not set)"
	echo "SKIP kvscope-words (KVSCOPE not set)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
