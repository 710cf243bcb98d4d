#!/usr/bin/env python3
"""Assertions on kvscope-collect archives, for tests/collector/run-tests.sh.

  check.py layout ARCHIVE          format, member order, manifest, sizes, SHA-256
  check.py secrets ARCHIVE         no planted secret anywhere (compressed or not),
                                   redaction markers exactly as the spec says
  check.py leaks ARCHIVE           the opposite, for --no-redact: the secrets are there
  check.py anon PLAIN ANON MAPPING --anonymize against a plain run of the same cluster
  check.py paged ARCHIVE LOG N [restarted]
                                   the PVC list is complete and came in pages
                                   (restarted: once more after a 410)
  check.py kept ARCHIVE            what the analysis reads survives redaction;
                                   credential labels and their selectors agree
  check.py pods ARCHIVE all|launchers
                                   launcher pods whole, the rest cut down
  check.py same SNAPSHOT ARCHIVE   the archive holds the snapshot's objects

Each prints what it checked, or the first failures, and exits 0 or 1.
"""

import base64
import calendar
import gzip
import hashlib
import io
import json
import os
import re
import stat
import sys
import tarfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakekube  # noqa: E402  (the planted secrets)

STATUSES = {"ok", "absent", "forbidden", "error"}
errors = []


def fail(msg):
    errors.append(msg)


def done(what):
    if errors:
        for e in errors[:20]:
            print("FAIL: " + e)
        sys.exit(1)
    print("ok: " + what)
    sys.exit(0)


def top_of(path):
    name = os.path.basename(path)
    for suf in (".tar.gz", ".tgz", ".gz", ".tar"):
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def read_archive(path):
    """(members in order, {relative path: bytes}, manifest) of an archive."""
    raw = open(path, "rb").read()
    tar_bytes = gzip.decompress(raw)
    tf = tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:")
    members = tf.getmembers()
    data = {}
    top = top_of(path)
    for m in members:
        rel = m.name[len(top) + 1:] if m.name.startswith(top + "/") else None
        if rel is not None and m.isfile():
            data[rel] = tf.extractfile(m).read()
    manifest = json.loads(data.get("manifest.json", b"null"))
    return members, data, manifest, raw, tar_bytes


def cmd_layout(path):
    members, data, man, raw, tar_bytes = read_archive(path)
    top = top_of(path)
    if raw[:2] != b"\x1f\x8b":
        fail("not gzip")
    # gzip header: no name, no timestamp (reproducible)
    if raw[3] & 0x08:
        fail("gzip header carries a file name")
    if raw[4:8] != b"\0\0\0\0":
        fail("gzip header carries a timestamp")
    if not members or members[0].name != top + "/manifest.json":
        fail("first member is %s, not %s/manifest.json" % (members[0].name if members else None, top))
    if man is None:
        done("layout")
    created = man.get("createdAt", "")
    try:
        epoch = calendar.timegm(time.strptime(created, "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        fail("createdAt %r is not YYYY-MM-DDTHH:MM:SSZ" % created)
        epoch = None
    for m in members:
        if not m.isfile():
            fail("member %s is not a regular file" % m.name)
        if not m.name.startswith(top + "/") or ".." in m.name.split("/"):
            fail("member %s is not under %s/" % (m.name, top))
        if epoch is not None and int(m.mtime) != epoch:
            fail("member %s mtime %s != createdAt %s" % (m.name, m.mtime, epoch))
        if m.uid != 0 or m.gid != 0:
            fail("member %s owner %d:%d" % (m.name, m.uid, m.gid))
        for k in m.pax_headers:
            if k in ("atime", "ctime"):
                fail("member %s has pax %s" % (m.name, k))
    rest = [m.name[len(top) + 1:] for m in members[1:]]
    if rest != sorted(rest):
        fail("members after the manifest are not in sorted order: %s" % rest)
    # manifest
    expect = {"kind": "kvscope-snapshot", "formatVersion": 1}
    for k, v in expect.items():
        if man.get(k) != v:
            fail("manifest %s = %r" % (k, man.get(k)))
    if man.get("collector", {}).get("name") != "kvscope-collect":
        fail("manifest collector.name")
    cl = man.get("cluster", {})
    for k in ("context", "kubernetesVersion", "kubevirtVersion", "flavor"):
        if k not in cl:
            fail("manifest cluster.%s missing" % k)
    if cl.get("flavor") not in ("kubevirt", "deckhouse"):
        fail("flavor %r" % cl.get("flavor"))
    for k in ("namespaces", "redact", "anonymize"):
        if k not in man.get("options", {}):
            fail("manifest options.%s missing" % k)
    files = man.get("files", [])
    listed = [f["path"] for f in files]
    if listed != rest:
        fail("manifest files %s != members %s" % (listed, rest))
    for f in files:
        body = data.get(f["path"])
        if body is None:
            continue
        if f.get("bytes") != len(body):
            fail("%s: manifest says %s bytes, member has %d" % (f["path"], f.get("bytes"), len(body)))
        if f.get("sha256") != hashlib.sha256(body).hexdigest():
            fail("%s: SHA-256 differs" % f["path"])
    seen_files = set()
    for r in man.get("resources", []):
        name = r["resource"] + ("." + r["group"] if r.get("group") else "")
        st = r.get("status")
        if st not in STATUSES:
            fail("%s: status %r" % (name, st))
        if st == "ok":
            want = "resources/%s.json" % name
            if r.get("file") != want:
                fail("%s: file %r, want %r" % (name, r.get("file"), want))
            body = data.get(want)
            if body is None:
                fail("%s: %s not in the archive" % (name, want))
                continue
            seen_files.add(want)
            doc = json.loads(body)
            if doc.get("kind") != "List" or not isinstance(doc.get("items"), list):
                fail("%s: not a List" % want)
            elif len(doc["items"]) != r.get("count"):
                fail("%s: count %s, file has %d" % (name, r.get("count"), len(doc["items"])))
        else:
            if "file" in r:
                fail("%s: status %s but a file" % (name, st))
            if st in ("forbidden", "error") and not r.get("message"):
                fail("%s: status %s without message" % (name, st))
    for p in data:
        if p.startswith("resources/") and p not in seen_files:
            fail("%s is in the archive but no resource names it" % p)
    done("layout of %s (%d members)" % (os.path.basename(path), len(members)))


def b64_fragments(secret):
    """Base64 text that appears whenever SECRET is base64-encoded at any offset."""
    out = []
    for pad in range(3):
        enc = base64.b64encode(b"\0" * pad + secret.encode()).decode()
        start = (pad * 4 + 2) // 3 + 1
        out.append(enc[start:-4])
    return [f for f in out if len(f) >= 8]


def redaction_marker(payload):
    b = payload.encode()
    return "<redacted: %d bytes, sha256:%s>" % (len(b), hashlib.sha256(b).hexdigest())


def needles():
    out = {}
    for s in fakekube.SECRETS + ["ConfigMap-Never-Collected"]:
        out[s] = s
        for i, f in enumerate(b64_fragments(s)):
            out["%s (base64 #%d)" % (s, i)] = f
    out["USER_DATA_B64"] = fakekube.USER_DATA_B64
    return out


def cmd_secrets(path, flavor):
    members, data, man, raw, tar_bytes = read_archive(path)
    hay = [("archive bytes", raw), ("gunzipped tar", tar_bytes)]
    for what, n in needles().items():
        for where, blob in hay:
            if n.encode() in blob:
                fail("%s found in %s" % (what, where))
    text = tar_bytes.decode("utf-8", "replace")
    if flavor == "kubevirt":
        payloads = [fakekube.USER_DATA, fakekube.NETWORK_DATA, fakekube.USER_DATA_B64]
    else:
        payloads = [fakekube.USER_DATA, fakekube.NETWORK_DATA, fakekube.USER_DATA_B64,
                    fakekube.DVP_USER_DATA]
    for p in payloads:
        if redaction_marker(p) not in text:
            fail("marker %s missing" % redaction_marker(p))
    for p, body in data.items():
        if p == "manifest.json":
            continue  # names the redacted fields
        if b"managedFields" in body:
            fail("managedFields in %s" % p)
        if b"last-applied-configuration" in body:
            fail("last-applied-configuration in %s" % p)
    if not man.get("options", {}).get("redact"):
        fail("options.redact is not true")
    done("no secret in %s; %d markers" % (os.path.basename(path), len(payloads)))


def cmd_leaks(path):
    members, data, man, raw, tar_bytes = read_archive(path)
    for s in (fakekube.CLOUD_PASSWORD, fakekube.ENV_VALUE, fakekube.INIT_ENV_VALUE,
              fakekube.USER_DATA_B64, fakekube.IMPORT_PASS, fakekube.PVC_IMPORT_HEADER):
        if s.encode() not in tar_bytes:
            fail("%s not found with --no-redact (the search would miss it)" % s)
    for s in (fakekube.NON_LAUNCHER_ENV, fakekube.NON_LAUNCHER_ARG):
        if s.encode() in tar_bytes:
            fail("a non-launcher pod was not cut down (%s)" % s)
    if man.get("options", {}).get("redact") is not False or man.get("redactions") != []:
        fail("options.redact / redactions wrong for --no-redact")
    done("--no-redact keeps the payloads")


# --- anonymization ---------------------------------------------------------

PREFIXES = ["firmware-update-", "evacuation-", "nodeplacement-update-", "volume-migration-",
            "hotplug-resources-", "vmop-", "virt-launcher-", "vd-", "vi-", "cvi-"]
WORD = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
FREE_KEYS = {"message", "failureReason", "annotations"}


def lookup(mapping):
    base = {}
    base.update(mapping["names"])
    base.update(mapping["namespaces"])
    base.update(mapping["nodes"])
    m = {p + k: p + v for k, v in base.items() for p in PREFIXES}
    m.update(base)
    return m


def is_ref(key):
    return (key.endswith(("SecretRef", "secretRef", "KeyRef", "MapRef"))
            or key in ("configMap", "secret"))


def expected(v, M, free, dashed):
    if v in M:
        return M[v]
    if dashed:
        for i in sorted((i for i, c in enumerate(v) if c == "-"), reverse=True):
            if v[:i] in M:
                return M[v[:i]] + v[i:]
        return v
    if free:
        return WORD.sub(lambda mo: M.get(mo.group(0), mo.group(0)), v)
    return v


def compare(plain, anon, M, path, free=False, ref=False, dashed=False):
    if isinstance(plain, dict):
        if not isinstance(anon, dict) or sorted(plain) != sorted(anon):
            fail("%s: keys differ" % path)
            return
        for k in plain:
            compare(plain[k], anon[k], M, path + "." + k, free or k in FREE_KEYS, is_ref(k),
                    k in ("generateName", "secretName") or (ref and k == "name"))
    elif isinstance(plain, list):
        if not isinstance(anon, list) or len(plain) != len(anon):
            fail("%s: list differs" % path)
            return
        for i, (a, b) in enumerate(zip(plain, anon)):
            compare(a, b, M, "%s[%d]" % (path, i), free, ref)
    elif isinstance(plain, str):
        want = expected(plain, M, free, dashed)
        if anon != want:
            fail("%s: %r became %r, want %r" % (path, plain, anon, want))
    elif plain != anon:
        fail("%s: %r != %r" % (path, plain, anon))


def items(data, name):
    body = data.get("resources/%s.json" % name)
    return json.loads(body)["items"] if body else []


def cmd_anon(plain_path, anon_path, mapping_path):
    _, pdata, pman, _, _ = read_archive(plain_path)
    _, adata, aman, _, atar = read_archive(anon_path)
    st = os.stat(mapping_path)
    if stat.S_IMODE(st.st_mode) != 0o600:
        fail("mapping mode %o, want 600" % stat.S_IMODE(st.st_mode))
    if os.path.dirname(os.path.abspath(mapping_path)) != os.path.dirname(os.path.abspath(anon_path)):
        fail("mapping not beside the archive")
    mapping = json.load(open(mapping_path))
    for p in adata:
        if "mapping" in p:
            fail("mapping-like member %s in the archive" % p)
    if not aman["options"]["anonymize"] or aman["cluster"]["context"] != "anonymized":
        fail("manifest does not say anonymized")
    # No real node, namespace or object name is left anywhere in the archive.
    # (Storage class names are left out of this search: they often echo the
    # provisioner, e.g. local-path and rancher.io/local-path, which stays.)
    for table in ("nodes", "namespaces", "names"):
        for real, pseudo in mapping[table].items():
            if pseudo.startswith("sc-"):
                continue
            if re.search(rb"(?<![A-Za-z0-9._-])" + re.escape(real.encode()) + rb"(?![A-Za-z0-9._])", atar):
                fail("real %s name %r is in the archive" % (table[:-1], real))
    for real in fakekube.NODES + list(fakekube.HOSTNAME.values()) + ["payroll-prod", "web-stage", "payroll-db"]:
        if real not in mapping["nodes"] and real not in mapping["namespaces"] and real not in mapping["names"]:
            fail("%r has no pseudonym" % real)
    # Every resource equals the plain one with names mapped.
    M = lookup(mapping)
    for p in sorted(pdata):
        if p.startswith("resources/"):
            compare(json.loads(pdata[p]), json.loads(adata.get(p, b"null")), M, p)
    # The analysis still holds: node references point at the nodes' pseudonyms.
    nodes = {n["metadata"]["name"] for n in items(adata, "nodes")}
    if len(nodes) != len(fakekube.NODES) or nodes & set(fakekube.NODES):
        fail("node names not pseudonymized: %s" % sorted(nodes))
    for n in items(adata, "nodes"):
        if n["metadata"]["labels"]["kubernetes.io/hostname"] != n["metadata"]["name"]:
            fail("hostname label of %s is %s" % (n["metadata"]["name"],
                                                 n["metadata"]["labels"]["kubernetes.io/hostname"]))
    vmis = {(v["metadata"]["namespace"], v["metadata"]["name"]): v
            for v in items(adata, "virtualmachineinstances.kubevirt.io")}
    refs = 0
    for v in vmis.values():
        refs += 1
        if v["status"]["nodeName"] not in nodes:
            fail("VMI status.nodeName %s is no node" % v["status"]["nodeName"])
        ms = v["status"].get("migrationState")
        if ms:
            refs += 2
            if ms["sourceNode"] not in nodes or ms["targetNode"] not in nodes:
                fail("VMI migrationState nodes %s/%s" % (ms["sourceNode"], ms["targetNode"]))
    for m in items(adata, "virtualmachineinstancemigrations.kubevirt.io"):
        ms = m["status"]["migrationState"]
        refs += 2
        for k in ("sourcePod", "targetPod"):
            if "payroll-db" in ms.get(k, ""):
                fail("VMIM migrationState.%s %s names the VM" % (k, ms[k]))
        if ms["sourceNode"] not in nodes or ms["targetNode"] not in nodes:
            fail("VMIM migrationState nodes")
        if (m["metadata"]["namespace"], m["spec"]["vmiName"]) not in vmis:
            fail("VMIM vmiName %s is no VMI" % m["spec"]["vmiName"])
    for pod in items(adata, "pods"):
        if "vm.kubevirt.io/name" not in pod["metadata"].get("labels", {}):
            continue  # not a launcher (cut down)
        refs += 1
        key = (pod["metadata"]["namespace"], pod["metadata"]["labels"]["vm.kubevirt.io/name"])
        if key not in vmis:
            fail("launcher pod label points at no VMI: %s" % (key,))
        elif pod["spec"]["nodeName"] != vmis[key]["status"]["nodeName"]:
            fail("pod spec.nodeName %s != VMI status.nodeName %s"
                 % (pod["spec"]["nodeName"], vmis[key]["status"]["nodeName"]))
        if pod["spec"]["nodeSelector"]["kubernetes.io/hostname"] != pod["spec"]["nodeName"]:
            fail("pod nodeSelector hostname != spec.nodeName")
    for pv in items(adata, "persistentvolumes"):
        for t in pv["spec"]["nodeAffinity"]["required"]["nodeSelectorTerms"]:
            for e in t["matchExpressions"]:
                refs += len(e["values"])
                if not set(e["values"]) <= nodes:
                    fail("PV node affinity %s" % e["values"])
    if refs < 8:
        fail("only %d node references checked" % refs)
    done("anonymized consistently (%d names mapped, %d node references checked)"
         % (sum(len(mapping[t]) for t in ("nodes", "namespaces", "names")), refs))


def one(data, name, ns, obj):
    for it in items(data, name):
        if it["metadata"]["name"] == obj and it["metadata"].get("namespace") == ns:
            return it
    fail("%s %s/%s not in the archive" % (name, ns, obj))
    return {"metadata": {}, "spec": {}}


def cmd_kept(path):
    _, data, man, _, _ = read_archive(path)
    mk = redaction_marker
    vmi = one(data, "virtualmachineinstances.kubevirt.io", "payroll-prod", "payroll-db")
    want_labels = {"kubevirt.io/nodeName": fakekube.NODES[0],
                   "monitoring.example.com/auth": mk(fakekube.VMI_BEARER_LABEL)}
    if vmi["metadata"].get("labels") != want_labels:
        fail("VMI labels %s" % vmi["metadata"].get("labels"))
    want_sel = {"vault.example.com/token": mk(fakekube.NODE_TOKEN), "kubernetes.io/os": "linux"}
    if vmi["spec"].get("nodeSelector") != want_sel:
        fail("VMI nodeSelector %s" % vmi["spec"].get("nodeSelector"))
    # what the new rules read: extended-resource and hugepage allocatable
    # on nodes, the VMs' runStrategy and templates
    for n in items(data, "nodes"):
        if n["status"].get("allocatable") != fakekube.ALLOCATABLE:
            fail("node %s allocatable %s" % (n["metadata"]["name"], n["status"].get("allocatable")))
    vm = one(data, "virtualmachines.kubevirt.io", "payroll-prod", "payroll-db")
    if vm["spec"].get("runStrategy") != "Always" or \
            vm["spec"]["template"]["spec"]["domain"]["cpu"]["model"] != "host-model":
        fail("VM runStrategy or template lost: %s" % json.dumps(vm["spec"])[:300])
    pg = one(data, "pods", "payroll-prod", "postgres-0")
    if pg["metadata"].get("deletionTimestamp") != "2026-10-01T11:00:00Z":
        fail("a cut-down pod lost its deletionTimestamp")
    for n in items(data, "nodes"):
        lab = n["metadata"]["labels"]
        if lab.get("vault.example.com/token") != mk(fakekube.NODE_TOKEN):
            fail("node %s token label %r" % (n["metadata"]["name"], lab.get("vault.example.com/token")))
        for k in ("kubernetes.io/hostname", "cpu-model.node.kubevirt.io/Skylake-Server",
                  "host-model-cpu.node.kubevirt.io/Skylake-Server-IBRS"):
            if k not in lab or lab[k].startswith("<redacted"):
                fail("node label %s lost" % k)
        ann = n["metadata"].get("annotations")
        if n["metadata"]["name"] == fakekube.NODES[0] and ann != {"node-labeller.kubevirt.io/skip-node": "false"}:
            fail("node annotations %s" % ann)
    pod = one(data, "pods", "payroll-prod", "virt-launcher-payroll-db-q7x2m")
    c = pod["spec"]["containers"][0]
    if c.get("command") != ["/usr/bin/virt-launcher-monitor", "--qemu-timeout", "321s"]:
        fail("compute container command %s" % c.get("command"))
    if "args" in pod["spec"]["initContainers"][0]:
        fail("initContainer args kept")
    pvs = items(data, "persistentvolumes")
    if len(pvs) != 1:
        fail("%d PVs" % len(pvs))
    for pv in pvs:
        csi = pv["spec"]["csi"]
        if csi["volumeAttributes"] != {"pool": mk("rbd"), "password": mk(fakekube.PV_ATTR)}:
            fail("PV volumeAttributes %s" % csi["volumeAttributes"])
        if csi["nodeStageSecretRef"] != {"name": "csi-rbd-secret", "namespace": "ceph-csi"}:
            fail("PV secret reference %s" % csi["nodeStageSecretRef"])
        if csi["volumeHandle"] != "0001-rbd-11111111":
            fail("PV volumeHandle")
    sc = [x for x in items(data, "storageclasses.storage.k8s.io") if x["metadata"]["name"] == "local-path"]
    if not sc or sc[0].get("parameters") != {"local.csi.storage.deckhouse.io/lvm-type": "Thick",
                                             "encryptionKey": mk(fakekube.SC_KEY)}:
        fail("storage class parameters %s" % (sc[0].get("parameters") if sc else None))
    done("what the analysis reads is kept")


PLACEMENT_META = ("name", "namespace", "uid", "labels", "deletionTimestamp")
PLACEMENT_SPEC = ("nodeName", "priorityClassName", "priority", "overhead", "affinity",
                  "topologySpreadConstraints")


def cut(pod):
    """The spec's field list of a pod that is not a launcher (written anew here)."""
    m, sp = pod["metadata"], pod.get("spec", {})
    out = {"metadata": {k: m[k] for k in PLACEMENT_META if k in m},
           "spec": {k: sp[k] for k in PLACEMENT_SPEC if k in sp},
           "status": {k: v for k, v in pod.get("status", {}).items() if k == "phase"}}
    if "ownerReferences" in m:
        out["metadata"]["ownerReferences"] = [{k: o[k] for k in ("kind", "name") if k in o}
                                              for o in m["ownerReferences"]]
    for ck in ("containers", "initContainers"):
        if ck in sp:
            out["spec"][ck] = [{k: c[k] for k in ("name", "resources") if k in c} for c in sp[ck]]
    return out


def cmd_pods(path, scope):
    _, data, man, _, _ = read_archive(path)
    entry = [r for r in man["resources"] if r["resource"] == "pods"][0]
    if entry.get("scope") != scope:
        fail("pods scope %r, want %r" % (entry.get("scope"), scope))
    got = {(p["metadata"]["namespace"], p["metadata"]["name"]): p for p in items(data, "pods")}
    fixture = [r for r in fakekube.build("kubevirt", 0) if r.plural == "pods"][0].items
    want = 0
    for p in fixture:
        key = (p["metadata"]["namespace"], p["metadata"]["name"])
        launcher = p["metadata"].get("labels", {}).get("kubevirt.io") == "virt-launcher"
        if not launcher and scope == "launchers":
            if key in got:
                fail("non-launcher pod %s/%s with --launchers-only" % key)
            continue
        want += 1
        if key not in got:
            fail("pod %s/%s missing" % key)
            continue
        g = got[key]
        if launcher:
            for k in ("generateName", "ownerReferences", "creationTimestamp"):
                if k not in g["metadata"]:
                    fail("launcher %s/%s lost metadata.%s" % (key + (k,)))
            if g["spec"]["containers"][0].get("image") != p["spec"]["containers"][0]["image"] \
                    or "nodeSelector" not in g["spec"] or "containerStatuses" not in g["status"]:
                fail("launcher %s/%s not whole" % key)
        elif g != cut(p):
            fail("pod %s/%s is %s, want %s" % (key + (json.dumps(g), json.dumps(cut(p)))))
    if len(got) != want or entry.get("count") != want:
        fail("%d pods (manifest %s), want %d" % (len(got), entry.get("count"), want))
    done("%d pods, scope %s" % (len(got), scope))


def snapshot_items(path):
    out = {}
    tf = tarfile.open(path, "r:*")
    for m in tf:
        if m.isfile() and "/resources/" in m.name:
            doc = json.loads(tf.extractfile(m).read())
            out[os.path.basename(m.name)] = [(i["metadata"].get("namespace"), i["metadata"]["name"])
                                            for i in doc["items"]]
    return out


def cmd_same(snap, path, order="as-served"):
    """The same objects as the snapshot; in its order, or (order "key", as
    pagingkube.py serves them) in namespace/name order."""
    _, data, man, _, _ = read_archive(path)
    orig = snapshot_items(snap)
    total = 0
    for fname, keys in orig.items():
        got = [(i["metadata"].get("namespace"), i["metadata"]["name"])
               for i in items(data, fname[:-len(".json")])]
        if order == "key":
            keys = sorted(keys, key=lambda k: "%s/%s" % k if k[0] else k[1])
        if got != keys:
            fail("%s: %d objects, want %d (or another order)" % (fname, len(got), len(keys)))
        total += len(keys)
    done("%d objects in %d resources" % (total, len(orig)))


def cmd_paged(path, log, n, restarted=False):
    _, data, man, _, _ = read_archive(path)
    pvcs = items(data, "persistentvolumeclaims")
    bulk = [p for p in pvcs if p["metadata"]["namespace"] == "bulk"]
    names = {p["metadata"]["name"] for p in bulk}
    if len(bulk) != n or len(names) != n:
        fail("bulk PVCs: %d objects, %d distinct, want %d" % (len(bulk), len(names), n))
    if names != {"bulk-pvc-%05d" % i for i in range(n)}:
        fail("bulk PVC names are not exactly bulk-pvc-00000..")
    entry = [r for r in man["resources"] if r["resource"] == "persistentvolumeclaims"][0]
    if entry["count"] != len(pvcs):
        fail("manifest count %s != %d" % (entry["count"], len(pvcs)))
    reqs = [l for l in open(log) if "/persistentvolumeclaims" in l and l.startswith("GET")]
    limits = [l for l in reqs if "limit=500" in l]
    conts = [l for l in reqs if "continue=" in l]
    pages = (len(pvcs) + 499) // 500
    # restarted: the first page twice, and the continue token that got 410
    want_limits, want_conts = (pages + 2, pages) if restarted else (pages, pages - 1)
    if len(limits) != want_limits or len(conts) != want_conts:
        fail("%d requests with limit=500 and %d with continue, want %d and %d"
             % (len(limits), len(conts), want_limits, want_conts))
    done("%d PVCs in %d pages" % (len(pvcs), len(limits)))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "layout":
        cmd_layout(*args)
    elif cmd == "secrets":
        cmd_secrets(args[0], args[1] if len(args) > 1 else "kubevirt")
    elif cmd == "leaks":
        cmd_leaks(*args)
    elif cmd == "anon":
        cmd_anon(*args)
    elif cmd == "paged":
        cmd_paged(args[0], args[1], int(args[2]), len(args) > 3 and args[3] == "restarted")
    elif cmd == "kept":
        cmd_kept(*args)
    elif cmd == "pods":
        cmd_pods(*args)
    elif cmd == "same":
        cmd_same(*args)
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
