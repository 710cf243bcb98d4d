#!/usr/bin/env bash
# The item scanner skips subtrees the loader never reads (the table of
# analyze/read/jsonskip.c: managedFields, ownerReferences and finalizers of
# every object; nodes' images, conditions and addresses; of pods, VMIs
# and PVCs every key of metadata, spec and status their loaders do not
# read (keep lists), and container fields beyond the ones read (of a
# pod's containers' resources only the requests, of an init container
# nothing else); of VMIs
# the firmware, cloud-init data, and of tolerations, disks and volume
# statuses the keys not read (with those read planted beside them);
# VirtualMachines' annotations and status but their conditions, and of
# their templates all but the CPU model and the eviction strategy: the
# template goes aside whole, for the VMs that are halted or must restart).  Each sample is copied with such subtrees planted in every
# object (large, nested, with brackets and quotes in strings); the
# findings with skipping on, with it off (KVSCOPE_NO_SKIP=1) and of the
# sample itself must be the same bytes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
changed= read_changed=
# The copy $1 of sample $n with more planted ($2 says what): skipped =
# not skipped; $n joins the list named $3 when its findings are not the
# sample's.
planted() {
	local d=$1 what=$2 list=$3
	"$KVSCOPE" report "$d" --format json --output-dir "$d.skip" >/dev/null
	KVSCOPE_NO_SKIP=1 "$KVSCOPE" report "$d" --format json \
	    --output-dir "$d.noskip" >/dev/null
	cmp -s "$d.skip/findings.json" "$tmp/$n.orig/findings.json" ||
	    printf -v "$list" '%s %s' "${!list}" "$n"
	if cmp -s "$d.skip/findings.json" "$d.noskip/findings.json"; then
		ok "$n, $what: skipped = not skipped"
	else
		bad "$n, $what" "findings differ"
		diff <(jq -S . "$d.skip/findings.json") \
		    <(jq -S . "$d.noskip/findings.json") | head -20 || true
	fi
}
for s in samples/*/; do
	n=$(basename "$s")
	[ -f "$s/manifest.json" ] || continue
	python3 - "$s" "$tmp/$n" <<'PY'
import hashlib, json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
shutil.copytree(src, dst)
mf = {"manager": "kubectl", "operation": "Update", "fieldsType": "FieldsV1",
      "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:x]\"{": {}}},
                   "f:spec": {"f:containers": [{"k:{\"name\":\"c\"}": {}}]}}}
odd = [{"kind": "X", "name": "n]\"{", "uid": "u"}]
def plant(o, plural):
    if not isinstance(o, dict):
        return
    meta = o.setdefault("metadata", {})
    meta["managedFields"] = [mf, mf]
    meta["ownerReferences"] = odd
    meta["finalizers"] = ["a]{\"", "b"]
    if plural in ("virtualmachineinstances",
                  "internalvirtualizationvirtualmachineinstances"):
        st = o.setdefault("status", {})
        st["phaseTransitionTimestamps"] = [{"phase": "x]", "t": "{"}] * 3
        st["interfaces"] = [{"name": "default", "ipAddress": "1]"}]
        st["launcherContainerImageVersion"] = "q\"@sha256:]{"
        st["memory"] = {"guestAtBoot": "1Gi"}
        for c in st.get("conditions", []):
            c["lastProbeTime"] = "t]{"
            c["lastTransitionTime"] = "t\"]"
        # below spec.domain, the tolerations, the volumes and the
        # volume statuses: keys load_vmi does not read
        spec = o.setdefault("spec", {})
        dom = spec.setdefault("domain", {})
        dom["firmware"] = {"uuid": "]{\"", "bootloader": {"efi": {}}}
        for d in dom.setdefault("devices", {}).get("disks", []):
            d["serial"] = "s]{"
        for t in spec.get("tolerations", []):
            t["tolerationSeconds"] = 30
        for v in spec.get("volumes", []):
            if "cloudInitNoCloud" in v:
                v["cloudInitNoCloud"]["userData"] = "#cloud-config ]{\""
        for vs in st.get("volumeStatus", []):
            vs["target"] = "v]"
            info = vs.get("persistentVolumeClaimInfo")
            if info is not None:
                info["filesystemOverhead"] = "0.055"
                info["requests"] = {"storage": "]{"}
    if plural == "virtualmachines" and "kubevirt.io/v1" in o.get(
            "apiVersion", ""):
        meta.setdefault("annotations", {})[
            "kubectl.kubernetes.io/last-applied-configuration"] = "{]\"x"
        st = o.setdefault("status", {})
        st["printableStatus"] = "R]{"
        st["volumeSnapshotStatuses"] = [{"name": "d", "reason": "]{"}]
        for c in st.get("conditions", []):
            c["lastTransitionTime"] = "t\"]"
            c["reason"] = "r]{"
    if plural == "nodes":
        st = o.setdefault("status", {})
        st["conditions"] = [{"type": "Ready", "status": "x]{"}]
        st["addresses"] = [{"type": "InternalIP", "address": "]["}]
    if plural == "pods":
        if not meta.get("annotations"):
            meta["annotations"] = {"k": "v]{"}
        spec = o.setdefault("spec", {})
        spec["securityContext"] = {"runAsUser": 107, "x": "]["}
        st = o.setdefault("status", {})
        st["conditions"] = [{"type": "Ready", "status": "]{"}]
        for c in st.get("containerStatuses", []):
            c["state"] = {"running": {"startedAt": "]{\""}}
            c["restartCount"] = 3
    if plural == "nodes":
        o.setdefault("status", {})["images"] = [
            {"names": ["quay.io/x@sha256:%064d" % i], "sizeBytes": 10**20 + i}
            for i in range(20)]
    if plural == "pods":
        spec = o.setdefault("spec", {})
        for key in ("containers", "initContainers"):
            for c in spec.get(key, []):
                c["env"] = [{"name": "E%d" % i, "value": "v]}\"%d" % i}
                            for i in range(10)]
                c["volumeMounts"] = [{"name": "m", "mountPath": "/x"}]
                c["securityContext"] = {"capabilities": {"add": ["NET_ADMIN"]}}
                c["livenessProbe"] = {"exec": {"command": ["sh", "-c", "[ ]"]}}
    # keys the keep lists of pods, VMIs and PVCs drop: strings, objects
    # and scalars, before and after the ones read
    if plural in ("pods", "virtualmachineinstances",
                  "internalvirtualizationvirtualmachineinstances",
                  "persistentvolumeclaims"):
        meta["resourceVersion"] = "9]{"
        meta["generation"] = 12
        for part in ("spec", "status"):
            d = o.setdefault(part, {})
            o[part] = dict([("zFirst", "]{\""), ("aNull", None)] +
                           list(d.items()) +
                           [("hostname", "h]"), ("grace", 30),
                            ("flag", False), ("dnsConfig", {"o": ["]{"]})])
files = []
for root, _, names in os.walk(os.path.join(dst, "resources")):
    for name in names:
        p = os.path.join(root, name)
        plural = name.split(".")[0]
        text = open(p, encoding="utf-8").read()
        try:
            doc = json.loads(text)
            items = doc["items"] if isinstance(doc, dict) else doc
            for it in items:
                plant(it, plural)
            out = json.dumps(doc, indent=1, ensure_ascii=False)
        except json.JSONDecodeError:
            objs = [json.loads(l) for l in text.splitlines() if l.strip()]
            for it in objs:
                plant(it, plural)
            out = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in objs)
        open(p, "w", encoding="utf-8").write(out)
def rehash(d):
    man_path = os.path.join(d, "manifest.json")
    man = json.load(open(man_path, encoding="utf-8"))
    for f in man.get("files", []):
        data = open(os.path.join(d, f["path"]), "rb").read()
        f["bytes"] = len(data)
        f["sha256"] = hashlib.sha256(data).hexdigest()
    json.dump(man, open(man_path, "w", encoding="utf-8"), indent=1)
rehash(dst)
# DST-read: what load_vmi reads beside the keys the rows above drop: a
# CD-ROM, a LUN with a reservation, a toleration with a value (every node
# tainted with it), a cloud-init config drive (findings change; skipped =
# not skipped)
def plant_read(o):
    spec = o.setdefault("spec", {})
    devs = spec.setdefault("domain", {}).setdefault("devices", {})
    devs.setdefault("disks", []).extend([
        {"bootOrder": 9, "name": "cd", "cdrom": {"readonly": False}},
        {"name": "lun1", "serial": "]", "lun": {"reservation": True}}])
    spec.setdefault("tolerations", []).append(
        {"tolerationSeconds": 5, "key": "k]", "operator": "Equal",
         "value": "v{", "effect": "NoSchedule"})
    spec.setdefault("volumes", []).append(
        {"name": "ci", "cloudInitConfigDrive": {"userData": "]"}})
shutil.copytree(dst, dst + "-read")
for name in ("virtualmachineinstances.kubevirt.io.json",
             "internalvirtualizationvirtualmachineinstances."
             "internal.virtualization.deckhouse.io.json"):
    p = os.path.join(dst + "-read", "resources", name)
    if not os.path.exists(p):
        continue
    doc = json.load(open(p, encoding="utf-8"))
    for it in (doc["items"] if isinstance(doc, dict) else doc):
        plant_read(it)
    json.dump(doc, open(p, "w", encoding="utf-8"), indent=1)
# every node tainted with what the planted toleration tolerates
p = os.path.join(dst + "-read", "resources", "nodes.json")
doc = json.load(open(p, encoding="utf-8"))
for it in (doc["items"] if isinstance(doc, dict) else doc):
    it.setdefault("spec", {}).setdefault("taints", []).append(
        {"key": "k]", "value": "v{", "effect": "NoSchedule"})
json.dump(doc, open(p, "w", encoding="utf-8"), indent=1)
rehash(dst + "-read")
# DST-vms: VirtualMachines that need their template whole (set aside by
# the scanner, parsed by load_vm): every other one halted, the rest
# waiting for a restart into a template with another CPU model and
# eviction strategy
p = os.path.join(dst, "resources", "virtualmachines.kubevirt.io.json")
if os.path.exists(p):
    shutil.copytree(dst, dst + "-vms")
    p = os.path.join(dst + "-vms", "resources",
                     "virtualmachines.kubevirt.io.json")
    doc = json.load(open(p, encoding="utf-8"))
    items = doc["items"] if isinstance(doc, dict) else doc
    for i, vm in enumerate(items):
        spec = vm.setdefault("spec", {})
        tmpl = spec.setdefault("template", {}).setdefault("spec", {})
        spec["template"].setdefault("metadata", {})["labels"] = {"x": "]}\""}
        if i % 2 == 0:
            spec.pop("running", None)
            spec["runStrategy"] = "Halted"
            continue
        tmpl.setdefault("domain", {}).setdefault("cpu", {})["model"] = "Haswell"
        tmpl["evictionStrategy"] = "None"
        vm.setdefault("status", {}).setdefault("conditions", []).append(
            {"type": "RestartRequired", "status": "True", "reason": "]{",
             "message": "a non-live-updatable field was changed"})
    json.dump(doc, open(p, "w", encoding="utf-8"), indent=1)
    rehash(dst + "-vms")
PY
	"$KVSCOPE" report "$s" --format json --output-dir "$tmp/$n.orig" >/dev/null
	"$KVSCOPE" report "$tmp/$n" --format json --output-dir "$tmp/$n.skip" >/dev/null
	KVSCOPE_NO_SKIP=1 "$KVSCOPE" report "$tmp/$n" --format json \
	    --output-dir "$tmp/$n.noskip" >/dev/null
	if cmp -s "$tmp/$n.skip/findings.json" "$tmp/$n.noskip/findings.json" &&
	    cmp -s "$tmp/$n.skip/findings.json" "$tmp/$n.orig/findings.json"; then
		ok "$n: skipped = not skipped = sample"
	else
		bad "$n" "findings differ"
		diff <(jq -S . "$tmp/$n.skip/findings.json") \
		    <(jq -S . "$tmp/$n.noskip/findings.json") | head -20 || true
		diff <(jq -S . "$tmp/$n.skip/findings.json") \
		    <(jq -S . "$tmp/$n.orig/findings.json") | head -20 || true
	fi
	# the copy with what load_vmi reads beside the dropped keys, and the
	# one whose VMs need their templates whole (above)
	planted "$tmp/$n-read" "VMIs with CD-ROMs, LUNs, tolerations" \
	    read_changed
	[ -d "$tmp/$n-vms" ] || continue
	planted "$tmp/$n-vms" "VMs halted or to restart" changed
done
# KVSCOPE_TIMING's parse line: the bytes jansson read, the same with one
# thread and two, fewer than with skipping off
parsed() {
	env "$@" KVSCOPE_TIMING=1 "$KVSCOPE" report samples/mixed --format json \
	    --output-dir "$tmp/timing" 2>&1 >/dev/null |
	    sed -n 's/^kvscope: timing: parse (jansson) cpu [0-9.]*, \([0-9]*\) bytes$/\1/p'
}
two=$(parsed KVSCOPE_THREADS=2)
one=$(parsed KVSCOPE_THREADS=1)
all=$(parsed KVSCOPE_THREADS=2 KVSCOPE_NO_SKIP=1)
if [ -n "$two" ] && [ "$two" -gt 0 ] && [ "$two" = "$one" ] &&
    [ -n "$all" ] && [ "$two" -lt "$all" ]; then
	ok "jansson read $two bytes with skipping (one thread and two), $all without"
else
	bad "KVSCOPE_TIMING's parse line" "two threads '$two', one '$one', no skipping '$all'"
fi
# the planted fields were read: they changed some findings
[ -n "$read_changed" ] &&
    ok "CD-ROMs, LUNs, tolerations changed the findings of:$read_changed" ||
    bad "VMIs with CD-ROMs, LUNs, tolerations" "no sample's findings changed"
# the templates were read: the VMs' states changed some findings
[ -n "$changed" ] && ok "the VMs' states changed the findings of:$changed" ||
    bad "VMs halted or to restart" "no sample's findings changed"
test_done
