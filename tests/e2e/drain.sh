#!/usr/bin/env bash
# tests/e2e/drain.sh - `kvscope check --drain` and `kvscope plan` end to
# end on the bundled samples: exit status, the rows, the JSON document,
# DVP's words, usage errors.
#
# samples/mixed: w2 runs prod/cache-0 (evictionStrategy None: a drain stops
# it, and its VM starts it again where a fresh launcher pod can go: a1
# first by name, though a1 is AMD and no migration target of the Intel
# host-model VM); w5 runs dev/build-runner, which migrates; w3 and w4 each
# hold a VMI that cannot move.
#
# Environment: KVSCOPE = the kvscope binary (default ./kvscope); needs jq.
set -u

. "$(dirname "$0")/lib.sh"

M=samples/mixed

run "drain w2 stops a VM" 1 check $M --drain w2
has "$tmp/out" "drain w2" "prod/cache-0: stops, starts again on a1, room not checked (runStrategy Always; eviction-shutdown)"
has "$tmp/out" "drain w2" "w2: 1 VMI, 0 migrate, 1 stop (1 starts again), 0 block"
has "$tmp/out" "drain w2" "1 of 1 VMI on the drained node would stop or block the drain"
has "$tmp/out" "drain w2" "Room on the targets not checked"
run "drain w2 --allow-shutdown" 0 check $M --drain w2 --allow-shutdown
has "$tmp/out" "allow-shutdown" "0 of 1 VMI on the drained node would block the drain (1 stop accepted)"
run "drain w2 --allow-restart" 0 check $M --drain w2 --allow-restart
has "$tmp/out" "allow-restart" "0 of 1 VMI on the drained node would stop or block the drain (1 stop accepted)"
# issue 41: kubectl output without the VirtualMachines (the README's
# recipe before it fetched `vm`): the restart is unknown, never "stays
# down"; a warning says what is then unknown; --allow-restart refuses it
# in one line; the JSON says null and why.
mkdir "$tmp/novm"
cp $M/resources/*.json "$tmp/novm/"
rm "$tmp/novm/virtualmachines.kubevirt.io.json"
run "no VMs: restart unknown" 1 check "$tmp/novm" --drain w2 --allow-restart
has "$tmp/out" "no VMs: row" "prod/cache-0: stops; whether it starts again is unknown (VirtualMachines not in the input; eviction-shutdown)"
has "$tmp/out" "no VMs: one line" "--allow-restart: 1 stop whose restart is unknown (VirtualMachines not in the input) is not accepted"
lacks "$tmp/out" "no VMs: not stays down" "stays down"
has "$tmp/err" "no VMs: warning" "kvscope: warning: virtualmachines.kubevirt.io: not in the input; whether a VMI a drain stops starts again is unknown (its VirtualMachine's runStrategy decides)"
run "no VMs: json" 1 check "$tmp/novm" --drain w2 -o json
jq_is "no VMs: restartUnknown" '.summary.restart' "0"
jq_is "no VMs: restartOn" '.drain[0].plan[0].restartOn' "null"
jq_is "no VMs: drain restartUnknown" '.drain[0].restartUnknown' "1"
run "no VMs: findings" 0 report "$tmp/novm" --format json --output-dir "$tmp/novm-r"
RUN_JSON="$tmp/novm-r/findings.json"
check "no VMs: findings restarts null" test "$(jq -c '.vmis[] | select(.name == "prod/cache-0") | [.restarts, .restartWhy]' "$RUN_JSON")" = '[null,"VirtualMachines not in the input"]'
check "no VMs: findings proof" test "$(jq -r '.groups[] | select(.code == "drain-block") | .fix.proven' "$RUN_JSON")" = false
run "drain w2 -o json" 1 check $M --drain w2 -o json
jq_is "drain json" '.drain[0].plan[0].restartOn' "a1"
jq_is "drain json" '.summary.restart' "1"
jq_is "drain json" '.allowRestart' "false"
run "fixes name the VM" 1 check $M --groups
has "$tmp/out" "fixes name the VM" "in the VirtualMachines (prod/web-0) and restart them (for prod/web-0: kubectl patch vm web-0 -n prod --type merge -p"
run "explain names the VM" 0 explain $M prod/cache-0
# issue 41 item 7: explain says the words check --drain says (no room
# data in samples/mixed: "room not checked" beside the node)
has "$tmp/out" "explain names the VM" "a drain stops it, and it starts again on a1, room not checked (runStrategy Always)"
has "$tmp/out" "explain names the VM" "VirtualMachine prod/cache-0, runStrategy Always"
run "--node keeps its meaning" 0 check $M --node w2

# A VM restarted by a drain starts where a fresh launcher pod can: no
# host-model, vendor or migration selector (kubevirt v1.9.0 template.go:355
# RenderLaunchManifest; migration.go:965-1005 adds them to target pods
# only).  samples/mixed with prod/web-0 (host-model Haswell-noTSX on w1,
# no migration target) evictionStrategy None; then also pinned to w1.
# $1: the directory; $2: a nodeSelector for web-0 as JSON, or "".
none_copy() {
	cp -r $M "$1"
	python3 - "$1" "$2" <<'PY'
import hashlib, json, os, sys
d, sel = sys.argv[1], sys.argv[2]
for f in ("virtualmachineinstances.kubevirt.io.json",
          "virtualmachines.kubevirt.io.json"):
    p = d + "/resources/" + f
    doc = json.load(open(p))
    for i in doc["items"]:
        if i["metadata"]["name"] != "web-0":
            continue
        spec = i["spec"] if "VirtualMachineInstance" == i["kind"] else \
            i["spec"]["template"]["spec"]
        spec["evictionStrategy"] = "None"
        if sel:
            spec["nodeSelector"] = json.loads(sel)
    json.dump(doc, open(p, "w"), indent=1)
m = json.load(open(d + "/manifest.json"))
for e in m["files"]:
    b = open(os.path.join(d, e["path"]), "rb").read()
    e["bytes"], e["sha256"] = len(b), hashlib.sha256(b).hexdigest()
json.dump(m, open(d + "/manifest.json", "w"), indent=2)
PY
}
none_copy "$tmp/none" ""
run "restart: fresh pod" 1 check "$tmp/none" --drain w1
has "$tmp/out" "restart: fresh pod" "prod/web-0: stops, starts again on a1, room not checked (runStrategy Always; eviction-shutdown)"
lacks "$tmp/out" "restart: not stays down" "stays down"
run "restart: fresh pod json" 1 check "$tmp/none" --drain w1 -o json
jq_is "restart: fresh pod json" '.drain[0].plan[] | select(.vmi == "prod/web-0") | .restartOn' "a1"
run "restart: explain" 0 explain "$tmp/none" prod/web-0
has "$tmp/out" "restart: explain" "a drain stops it, and it starts again on a1, room not checked (runStrategy Always)"
none_copy "$tmp/pinned" '{"kubernetes.io/hostname": "w1"}'
run "restart: no node" 1 check "$tmp/pinned" --drain w1
has "$tmp/out" "restart: no node" "prod/web-0: stops and stays down (runStrategy Always, but no node can run it; eviction-shutdown)"
run "drain w5 migrates" 0 check $M --drain w5
has "$tmp/out" "drain w5" "dev/build-runner: migrates to "
run "drain together" 1 check $M --drain w3,w4
has "$tmp/out" "together" "kubectl drain of 2 nodes together"
has "$tmp/out" "together" "prod/files-rwo: blocks the drain, waits forever (disk-not-shared)"
if grep -q "migrates to w[34]" "$tmp/out"; then
	bad "together: a VMI migrates to a node drained with it"
fi
# issue 41 item 6: a target chosen without room data says so beside its
# name; two VMIs on one node are a nominal placement; a drain of more
# nodes than can drain at once points to plan
run "drain w3: room" 1 check $M --drain w3
has "$tmp/out" "room not checked beside the target" \
    "    prod/db-0: migrates to w4, room not checked"
has "$tmp/out" "placement nominal" \
    "Placement nominal: 2 VMIs (24.0 GiB) go to w4, the first target of each; room was not checked, so the drain may spread them or find no room."
lacks "$tmp/out" "one drain, no plan pointer" "kvscope plan"
run "drain all: plan" 1 check $M --drain w1,w2,w3,w4,w5,a1
has "$tmp/out" "drain of every node points to plan" \
    "7 VMIs that migrate when their node drains alone find no node left here: 6 nodes cannot drain at once; \`kvscope plan SNAPSHOT --drain LIST --max-unavailable N\` drains them in batches."
lacks "$tmp/out" "nothing migrates, nothing is nominal" "Placement nominal"
C=samples/capacity
run "room known" 1 check $C --drain c1
lacks "$tmp/out" "room known: no room-not-checked" "room not checked"
run "drain json" 1 check $M --drain w2,w3 -o json
jq_is "drain json" '.kind' kvscope-drain
jq_is "drain json" '.capacity' unknown
jq_is "drain json" '.summary.shutdown' 1
jq_is "drain json" '.drain[0].plan[0] | "\(.vmi) \(.action) \(.target) \(.reason)"' \
    "prod/cache-0 shutdown null eviction-shutdown"
jq_is "drain json" '[.drain[1].plan[] | select(.action == "migrate") | .target] | unique | join(",")' "w4"
run "drain yaml" 1 check $M --drain w2 -o yaml
has "$tmp/out" "drain yaml" "kind: kvscope-drain"
run "drain selector" 1 check $M --drain-selector kubernetes.io/hostname=w2
has "$tmp/out" "drain selector" "prod/cache-0: stops"

# plan: the whole pool, then a pool that drains cleanly
run "plan pool" 1 plan $M --drain-selector kubernetes.io/os=linux --allow-block
has "$tmp/out" "plan" "Order: Nodes with a VM that blocks the drain go last (fix their groups first: their drain waits forever); before them, nodes whose VMs have the most alternatives go first"
has "$tmp/out" "plan" "Nodes whose drain cannot succeed:"
has "$tmp/out" "plan" "w4 (step "
has "$tmp/out" "plan" "prod/files-rwo waits forever (disk-not-shared)"
has "$tmp/out" "plan" "Total: 7 steps"
# a step where nothing migrates says so, not "about 0 s"
has "$tmp/out" "plan: nothing to move" "step 2: w2 (no VM migrates)"
has "$tmp/out" "plan: a step's time" "step 3: w5 (1 min 7 s - 1 min 18 s)"
lacks "$tmp/out" "plan: no step of 0 s" "(0 s)"
run "plan w5" 0 plan $M --drain w5
has "$tmp/out" "plan w5" "Every node's drain can finish."
run "plan json" 1 plan $M --drain-selector kubernetes.io/os=linux --max-unavailable 2 --allow-block -o json
jq_is "plan json" '.kind' kvscope-plan
jq_is "plan json" '.maxUnavailable' 2
jq_is "plan json" '.steps | length' 4
jq_is "plan json" '[.cannotDrain[].node] | join(",")' "a1,w1,w3,w4"
# nodes whose drain waits forever go after every drain that finishes
# (samples/mixed workers: a1, w1, w3, w4 each hold a blocking VM)
run "plan blocked last" 1 plan $M --drain-selector node-role.kubernetes.io/worker= --allow-block -o json
jq_is "plan blocked last" '[.steps[].nodes[]] | join(",")' "w2,w5,a1,w1,w3,w4"
jq_is "plan moved twice" '.movedTwice' 2
# a migrating VM goes to a node drained before when one can take it:
# dev/legacy-app leaves w1 once, for w5 (drained in step 2), and prod/db-0
# and prod/reporting leave w3 once (not w3 -> w4 -> w3)
jq_is "plan drained first" '[.steps[].drain[].plan[] | select(.vmi == "dev/legacy-app" or .vmi == "prod/db-0" or .vmi == "prod/reporting") | "\(.vmi)>\(.target)"] | join(",")' "dev/legacy-app>w5,prod/db-0>w5,prod/reporting>w5"
run "plan twice text" 1 plan $M --drain-selector node-role.kubernetes.io/worker= --allow-block
has "$tmp/out" "plan twice text" "2 VMs move twice: at their first move no node drained before could take them"
run "plan capacity" 1 plan samples/capacity --drain-selector kubernetes.io/os=linux --allow-block -o json
jq_is "plan capacity" '[.steps[].nodes[]] | join(",")' "c2,cp1,g1,c1,g2"
jq_is "plan capacity" '.fixFirst | length' 0
# without --allow-block the nodes a VM blocks are no steps: fix first
run "plan fix first" 1 plan $M --drain-selector node-role.kubernetes.io/worker= -o json
jq_is "plan fix first" '[.steps[].nodes[]] | join(",")' "w2,w5"
jq_is "plan fix first" '[.fixFirst[] | "\(.node):\(.vmis | join("+")):\(.groups | join("+"))"] | join(",")' \
    "a1:prod/analytics:G5,w1:prod/web-0:G4,w3:infra/ledger:G6,w4:prod/files-rwo:G2"
jq_is "plan fix first" '.cannotDrain | length' 0
jq_is "plan fix first" '.nodes' 6
run "plan fix first text" 1 plan $M --drain-selector node-role.kubernetes.io/worker=
has "$tmp/out" "plan fix first text" "Order: Nodes with a VM that blocks the drain are no steps: fix their groups first"
has "$tmp/out" "plan fix first text" "Fix first (not drained: a VM blocks the drain; --allow-block drains them last):"
has "$tmp/out" "plan fix first text" "  a1: prod/analytics blocks (groups G5)"
has "$tmp/out" "plan fix first text" "  w4: prod/files-rwo blocks (groups G2)"
has "$tmp/out" "plan fix first text" "Total: 2 steps"
grep -qF "step 3:" "$tmp/out" && bad "plan fix first text: a blocked node is a step"
run "plan wide moves" 1 plan $M --drain-selector node-role.kubernetes.io/worker= --allow-block -o wide
has "$tmp/out" "plan wide moves" "Moves of each VM across the plan:"
has "$tmp/out" "plan wide moves" "  dev/build-runner: w5 -> w1 (step 2), w1 -> w5 (step 4)"
has "$tmp/out" "plan wide moves" "  prod/cache-0: w2 -> a1 (step 1, stops and starts again), a1 -> w5 (step 3, stops and starts again)"
has "$tmp/out" "plan wide moves" "  prod/db-0: w3 -> w5 (step 5)"
run "plan text no moves" 1 plan $M --drain-selector node-role.kubernetes.io/worker= --allow-block
grep -qF "Moves of each VM" "$tmp/out" && bad "plan text: the moves are -o wide's"
run "plan capacity fix first" 1 plan samples/capacity --drain-selector kubernetes.io/os=linux -o json
jq_is "plan capacity fix first" '[.steps[].nodes[]] | join(",")' "c2,cp1,g1"
jq_is "plan capacity fix first" '[.fixFirst[] | "\(.node):\(.vmis | join("+")):\(.groups | join("+"))"] | join(",")' \
    "c1:prod/stuck-vm:G2,g2:prod/apart-vm:G3"
"$KVSCOPE" plan $M --drain-selector kubernetes.io/os=linux >"$tmp/a" 2>/dev/null
"$KVSCOPE" plan $M --drain-selector kubernetes.io/os=linux >"$tmp/b" 2>/dev/null
cmp -s "$tmp/a" "$tmp/b" || bad "plan is not deterministic"

# DVP words
# every node at once: no VM has a target left
run "dvp drain" 1 check samples/deckhouse --drain-selector kubernetes.io/os=linux --allow-shutdown -o json
jq_is "dvp drain" '.kind' kvscope-drain
jq_is "dvp drain" '.summary.block' 11
jq_is "dvp drain" '[.drain[].plan[].reason] | unique | join(",")' "no-cpu-target,no-placement-target,tsc-frequency"
run "dvp text" 1 check samples/deckhouse --drain-selector kubernetes.io/os=linux
has "$tmp/out" "dvp text" "Evict operations"
has "$tmp/out" "dvp text" "within 5 minutes"
has "$tmp/out" "dvp text" "liveMigrationPolicy"

# usage
run "allow-shutdown alone" 2 check $M --allow-shutdown
run "drain with node" 2 check $M --drain w2 --node w1
run "drain unknown node" 2 check $M --drain nope
grep -qF 'no node "nope"' "$tmp/err" || bad "unknown node: $(cat "$tmp/err")"
run "plan without pool" 2 plan $M
run "plan bad count" 2 plan $M --drain w1 --max-unavailable 0
run "plan no match" 2 plan $M --drain-selector no=such

test_done
