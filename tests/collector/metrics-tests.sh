# shellcheck shell=bash
# Tests of kvscope-collect --with-metrics and of the migration history a
# snapshot keeps (issue 38). Sourced by run-tests.sh, whose helpers
# (start_server, collect, expect_rc, jq_is, die, ...) they use; each test is
# a function test_NAME, listed in METRICS_TESTS. fakekube.py answers the
# service-proxy Prometheus path with the canned series of PROM_SERIES.

# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016,SC2034,SC2154
METRICS_TESTS=(metrics_present metrics_absent metrics_anonymized
	migration_history)

# member ARCHIVE PATH: one member of an archive (PATH under the top).
member() { tar -xzf "$1" -O --wildcards "*/$2"; }

# The file the canned series give, at createdAt 2026-09-21T14:13:20Z with
# a 30-minute window: payroll-db with every value (the mean rounded to
# whole bytes), web-1 without a dirty rate (its series is NaN) and its used
# memory written 1.5e9; ghost, no VMI of the cluster, left out.
METRICS_WANT='{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[
{"apiVersion":"kvscope.io/v1","kind":"VMIMetrics","metadata":{"namespace":"payroll-prod","name":"payroll-db"},"window":{"start":"2026-09-21T13:43:20Z","end":"2026-09-21T14:13:20Z","source":"prometheus"},"dirtyRateBytesPerSecond":{"avg":31457280,"max":52428800},"memoryResidentBytes":8589934592,"memoryUsedBytes":7516192768},
{"apiVersion":"kvscope.io/v1","kind":"VMIMetrics","metadata":{"namespace":"web-stage","name":"web-1"},"window":{"start":"2026-09-21T13:43:20Z","end":"2026-09-21T14:13:20Z","source":"prometheus"},"memoryResidentBytes":2147483648,"memoryUsedBytes":1500000000}
]}'

# Prometheus found through the service proxy, after the services before it
# in the order (OpenShift's: one missing, one without endpoints); then the
# same answers from --prometheus URL, with curl.
test_metrics_present() {
	start_server --prometheus monitoring/http:prometheus-operated:9090 \
		--prometheus-refuse openshift-monitoring/https:thanos-querier:9091
	collect --with-metrics --metrics-window 30m --output "$T/out/m.tar.gz"
	expect_rc 0
	local a=$T/out/m.tar.gz got
	python3 "$HERE/check.py" layout "$a" || die "layout"
	got=$(member "$a" resources/vmimetrics.kvscope.io.json)
	[ "$got" = "$(jq -c '.items[]' <<<"$METRICS_WANT" |
		awk 'BEGIN { print "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"},\"items\":[" }
		     NR > 1 { print prev "," } { prev = $0 } END { print prev; print "]}" }')" ] ||
		die "vmimetrics file: $got"
	# field by field, as the format says
	jq -e '.items[0] | .apiVersion == "kvscope.io/v1" and .kind == "VMIMetrics"
		and .metadata == {"namespace": "payroll-prod", "name": "payroll-db"}
		and .window == {"start": "2026-09-21T13:43:20Z", "end": "2026-09-21T14:13:20Z", "source": "prometheus"}
		and .dirtyRateBytesPerSecond.avg == 31457280 and .dirtyRateBytesPerSecond.max == 52428800
		and .memoryResidentBytes == 8589934592 and .memoryUsedBytes == 7516192768' \
		<<<"$got" >/dev/null || die "payroll-db's metrics"
	jq -e '.items[1] | (has("dirtyRateBytesPerSecond") | not)
		and .memoryUsedBytes == 1500000000 and .metadata.name == "web-1"' \
		<<<"$got" >/dev/null || die "web-1's metrics"
	jq_is "$a" '.resources[] | select(.resource == "vmimetrics")' \
		'{"resource":"vmimetrics","group":"kvscope.io","status":"ok","file":"resources/vmimetrics.kvscope.io.json","count":2}'
	jq_is "$a" '[.files[].path | select(startswith("resources/vmi"))]' \
		'["resources/vmimetrics.kvscope.io.json"]'
	jq_is "$a" '.options.withMetrics' true
	jq_is "$a" '.notes' '[]'
	# the services in order, each asked vector(1) first; the queries at
	# createdAt over the window (kubectl writes a space as +)
	grep -o -E '/namespaces/[a-z-]+/services/[a-z]+:[a-z0-9-]+:[0-9]+/proxy/api/v1/query\?query=vector%281%29' \
		"$T/server.log" | cut -d / -f 3,5 >"$T/tried"
	[ "$(tr '\n' ' ' <"$T/tried")" = "openshift-monitoring/https:prometheus-k8s:9091 openshift-monitoring/https:thanos-querier:9091 monitoring/http:prometheus-operated:9090 " ] ||
		die "services tried: $(cat "$T/tried")"
	grep -F 'prometheus-operated:9090/proxy/api/v1/query?query=max+by+%28namespace%2C+name%29+%28avg_over_time%28kubevirt_vmi_dirty_rate_bytes_per_second%5B30m%5D%29%29&time=1790000000' \
		"$T/server.log" >/dev/null || die "no dirty-rate query over 30m at createdAt"
	[ "$(grep -c 'prometheus-operated:9090/proxy/api/v1/query' "$T/server.log")" = 5 ] ||
		die "not 1 + 4 queries"
	grep -q '^kvscope-collect: metrics: 2 VMIs from monitoring/prometheus-operated:9090$' \
		"$T/stderr" || die "progress: $(cat "$T/stderr")"
	# --prometheus URL: the same file, through curl; the URL's password is
	# never written
	command -v curl >/dev/null 2>&1 || return 0
	collect --prometheus "http://scott:Tig3r-Pw-0071@127.0.0.1:$PORT/prom" \
		--metrics-window 30m --output "$T/out/u.tar.gz"
	expect_rc 0
	[ "$(member "$T/out/u.tar.gz" resources/vmimetrics.kvscope.io.json)" = "$got" ] ||
		die "--prometheus URL gives another file"
	grep -q '^GET /prom/api/v1/query?query=max%20by' "$T/server.log" || die "curl did not ask /prom"
	! tar -xzf "$T/out/u.tar.gz" -O | grep -q 'Tig3r' || die "the URL's password is in the archive"
	# no dirty rate (KubeVirt before v1.6): the memory still, and a note
	stop_server
	start_server --prometheus monitoring/http:prometheus-operated:9090 --prometheus-no-dirty
	collect --with-metrics --output "$T/out/nd.tar.gz"
	expect_rc 0
	member "$T/out/nd.tar.gz" resources/vmimetrics.kvscope.io.json |
		jq -e '[.items[] | has("dirtyRateBytesPerSecond")] == [false, false]
		       and .items[0].window.start == "2026-09-21T13:13:20Z"' >/dev/null ||
		die "no-dirty file"
	jq_is "$T/out/nd.tar.gz" '.notes' \
		'["vmimetrics: monitoring/prometheus-operated:9090 has no series of kubevirt_vmi_dirty_rate_bytes_per_second (KubeVirt exports it from v1.6)"]'
}

# No Prometheus: a note (the manifest's and stderr's), exit 0, no file and
# no manifest entry. Also a service without endpoints, an unreachable
# --prometheus URL, and the usage errors of the options.
test_metrics_absent() {
	start_server
	collect --with-metrics --output "$T/out/n.tar.gz"
	expect_rc 0
	local a=$T/out/n.tar.gz want
	python3 "$HERE/check.py" layout "$a" || die "layout"
	want='vmimetrics: no Prometheus reachable: no namespace of the usual services exists (openshift-monitoring, monitoring, prometheus, cattle-monitoring-system, d8-monitoring); --prometheus URL names one'
	jq_is "$a" '.notes' "$(jq -c -n --arg w "$want" '[$w]')"
	grep -qxF "kvscope-collect: note: $want" "$T/stderr" || die "no stderr note: $(cat "$T/stderr")"
	jq_is "$a" '[.resources[] | select(.resource == "vmimetrics")]' '[]'
	jq_is "$a" '[.files[].path | select(contains("vmimetrics"))]' '[]'
	! grep -q '/proxy/' "$T/server.log" || die "asked a service of a namespace the cluster lacks"
	stop_server
	start_server --prometheus-refuse monitoring/http:prometheus-operated:9090
	collect --with-metrics -q --output "$T/out/r.tar.gz"
	expect_rc 0
	[ ! -s "$T/stderr" ] || die "--quiet printed: $(cat "$T/stderr")"
	want='vmimetrics: no Prometheus reachable: tried monitoring/prometheus-operated:9090 (Error from server (ServiceUnavailable): no endpoints available for service \"http:prometheus-operated:9090\"); monitoring/prometheus-k8s:9090 (Error from server (NotFound): services \"prometheus-k8s\" not found); monitoring/kube-prometheus-stack-prometheus:9090 (Error from server (NotFound): services \"kube-prometheus-stack-prometheus\" not found); --prometheus URL names one'
	jq_is "$T/out/r.tar.gz" '.notes' "[\"$want\"]"
	jq_is "$T/out/r.tar.gz" '[.files[].path | select(contains("vmimetrics"))]' '[]'
	if command -v curl >/dev/null 2>&1; then
		collect --prometheus "http://127.0.0.1:9/" --output "$T/out/c.tar.gz"
		expect_rc 0
		jq_is "$T/out/c.tar.gz" '.notes[] | test("^vmimetrics: no Prometheus reachable: http://127.0.0.1:9/: curl: \\(7\\) ")' true
		jq_is "$T/out/c.tar.gz" '.options.withMetrics' true
		# a password holding / or @, a token in the query: never
		# written, whatever curl makes of the URL
		for u in "http://admin:Pr0m/Secret-77@127.0.0.1:9/p?token=Tok-55" \
			"http://admin:Pr0m@Secret-88@127.0.0.1:9/p#Tok-55"; do
			collect --prometheus "$u" --output "$T/out/p.tar.gz"
			expect_rc 0
			! tar -xzf "$T/out/p.tar.gz" -O |
				grep -q -E 'Pr0m|Secret-|Tok-55' ||
				die "$u: its credentials are in the archive"
			jq_is "$T/out/p.tar.gz" '.notes[] | test("^vmimetrics: no Prometheus reachable: http://127.0.0.1:9/p: ")' true
			rm -f "$T/out/p.tar.gz"
		done
	fi
	local bad
	for bad in "--metrics-window 1h" "--with-metrics --metrics-window 90" \
		"--with-metrics --metrics-window 0m" "--prometheus ftp://x"; do
		# shellcheck disable=SC2086
		collect $bad --output "$T/out/x.tar.gz"
		expect_rc 2
		grep -q '^kvscope-collect: .* (see --help)$' "$T/stderr" || die "'$bad': $(cat "$T/stderr")"
	done
	# --prometheus without curl: exit 2 at once, naming curl
	local dir t
	dir=$(path_without curl)
	for t in split truncate od xargs paste; do
		ln -sf "$(command -v "$t")" "$dir/$t"
	done
	RC=0
	PATH=$dir "$COLLECT" --kubeconfig "$T/kubeconfig" --prometheus http://p:9090 \
		--output "$T/out/x.tar.gz" >"$T/stdout" 2>"$T/stderr" || RC=$?
	expect_rc 2
	grep -q 'curl not found on PATH; --prometheus needs it' "$T/stderr" || die "no curl message: $(cat "$T/stderr")"
	"$COLLECT" --help >"$T/help"
	grep -q -e '--with-metrics' "$T/help" || die "--help"
	[ ! -e "$T/out/x.tar.gz" ] || die "an archive after a usage error"
}

# --anonymize: a metric's namespace and name are its VMI's pseudonyms; the
# archive holds no real name (check.py anon against the plain run); the
# window's source stays "prometheus" even when a namespace of that name
# gets a pseudonym.
test_metrics_anonymized() {
	start_server --prometheus monitoring/http:prometheus-operated:9090
	collect --with-metrics --output "$T/plain/p.tar.gz"
	expect_rc 0
	collect --with-metrics --anonymize --output "$T/out/a.tar.gz"
	expect_rc 0
	local a=$T/out/a.tar.gz map=$T/out/a.tar.gz.mapping.json
	python3 "$HERE/check.py" anon "$T/plain/p.tar.gz" "$a" "$map" || die "anon"
	member "$a" resources/vmimetrics.kvscope.io.json >"$T/metrics.json"
	member "$a" resources/virtualmachineinstances.kubevirt.io.json >"$T/vmis.json"
	jq -e --slurpfile m "$map" --slurpfile v "$T/vmis.json" '
		[.items[].metadata | [.namespace, .name]] as $got
		| $got == [[$m[0].namespaces["payroll-prod"], $m[0].names["payroll-db"]],
		           [$m[0].namespaces["web-stage"], $m[0].names["web-1"]]]
		  and ($got - [$v[0].items[].metadata | [.namespace, .name]] == [])' \
		"$T/metrics.json" >/dev/null || die "metrics names: $(jq -c '[.items[].metadata]' "$T/metrics.json")"
	jq -e '[.items[].metadata[]] | all(test("^(ns|vm)-[0-9]{3}$"))' "$T/metrics.json" >/dev/null ||
		die "not pseudonyms: $(jq -c '[.items[].metadata]' "$T/metrics.json")"
	stop_server
	start_server --prometheus prometheus/http:prometheus-operated:9090
	collect --with-metrics --anonymize --output "$T/out/b.tar.gz"
	expect_rc 0
	jq -e '.namespaces.prometheus | test("^ns-[0-9]{3}$")' "$T/out/b.tar.gz.mapping.json" >/dev/null ||
		die "namespace prometheus has no pseudonym"
	member "$T/out/b.tar.gz" resources/vmimetrics.kvscope.io.json |
		jq -e '[.items[].window.source] == ["prometheus", "prometheus"]' >/dev/null ||
		die "window.source mapped"
}

# The migration history stays: every VMIM's status.phaseTransitionTimestamps
# and status.migrationState (and the VMI's migrationState), whole, with
# redaction on; under --anonymize with the nodes' pseudonyms and the
# timestamps as they were.
test_migration_history() {
	start_server --history
	collect --output "$T/out/h.tar.gz"
	expect_rc 0
	local a=$T/out/h.tar.gz
	jq_is "$a" '.resources[] | select(.resource == "virtualmachineinstancemigrations") | .count' 2
	member "$a" resources/virtualmachineinstancemigrations.kubevirt.io.json >"$T/vmims.json"
	jq -e '.items[0].status as $s
		| ($s.phaseTransitionTimestamps | map(.phase)) == ["Pending","Scheduling","Scheduled","PreparingTarget","TargetReady","Running","Succeeded"]
		and ($s.phaseTransitionTimestamps | map(.phaseTransitionTimestamp)) == ["2026-09-21T13:50:00Z","2026-09-21T13:50:02Z","2026-09-21T13:50:04Z","2026-09-21T13:50:06Z","2026-09-21T13:50:08Z","2026-09-21T13:50:10Z","2026-09-21T13:50:12Z"]
		and ($s.migrationState | .startTimestamp == "2026-09-21T13:50:06Z" and .endTimestamp == "2026-09-21T13:50:16Z"
		     and .sourceNode == "worker-c.corp.example" and .targetNode == "worker-a.corp.example"
		     and .completed == true and .failed == false and .mode == "PreCopy"
		     and .migrationConfiguration == {"allowAutoConverge":false,"allowPostCopy":false,"bandwidthPerMigration":"64Mi","completionTimeoutPerGiB":150,"nodeDrainTaintKey":"kubevirt.io/drain","parallelMigrationsPerCluster":5,"parallelOutboundMigrationsPerNode":2,"progressTimeout":150})' \
		"$T/vmims.json" >/dev/null || die "completed VMIM: $(jq -c '.items[0].status' "$T/vmims.json")"
	jq -e '.items[1] | .status.phase == "Failed"
		and (.status.phaseTransitionTimestamps | map(.phaseTransitionTimestamp)) == ["2026-09-21T12:00:00Z","2026-09-21T12:00:05Z","2026-09-21T12:05:05Z"]
		and .status.migrationState.failed == true and .status.migrationState.completed == true
		and .status.migrationState.failureReason == "Live migration of payroll-db to worker-b.corp.example aborted: progress timeout 150 s"' \
		"$T/vmims.json" >/dev/null || die "failed VMIM: $(jq -c '.items[1].status' "$T/vmims.json")"
	member "$a" resources/virtualmachineinstances.kubevirt.io.json |
		jq -e '.items[0].status.migrationState | .startTimestamp == "2026-09-21T13:50:06Z"
		       and .endTimestamp == "2026-09-21T13:50:16Z" and .mode == "PreCopy"
		       and .migrationConfiguration.completionTimeoutPerGiB == 150 and .completed == true' \
		>/dev/null || die "VMI migrationState"
	collect --anonymize --output "$T/out/ha.tar.gz"
	expect_rc 0
	local map=$T/out/ha.tar.gz.mapping.json
	member "$T/out/ha.tar.gz" resources/virtualmachineinstancemigrations.kubevirt.io.json |
		jq -e --slurpfile m "$map" '$m[0].nodes as $n | $m[0].names as $o
		  | .items[1].status.migrationState as $f
		  | .items[0].status.migrationState.sourceNode == $n["worker-c.corp.example"]
		  and .items[0].status.migrationState.targetNode == $n["worker-a.corp.example"]
		  and .items[0].status.migrationState.endTimestamp == "2026-09-21T13:50:16Z"
		  and (.items[0].status.phaseTransitionTimestamps | length) == 7
		  and $f.failureReason == "Live migration of \($o["payroll-db"]) to \($n["worker-b.corp.example"]) aborted: progress timeout 150 s"' \
		>/dev/null || die "anonymized history"
}
