#!/usr/bin/env python3
# make-seeds.py - seed corpora for the libFuzzer harnesses, from samples/
# (every sample snapshot directory), the shared libvirt cpu_map when
# $SHARED names it, the hostile corpus (tests/hostile/gen.py), a small
# built-in cluster, so that the seeds exist even before any sample does,
# and for fuzz_pipeline that cluster again with hostile strings (long,
# bidi controls, noncharacters, markup/formula/terminal injection) in
# every name, label and message the writers print.
#
#   tests/fuzz/make-seeds.py OUTDIR      writes OUTDIR/<harness>/<seed>
#   tests/fuzz/make-seeds.py --print-load-files
#                                        the fuzz_load file order, one a line
#
# Deterministic: the same inputs give the same files (tar and gzip headers
# carry fixed times and owners).  Standard library only.
import gzip
import hashlib
import io
import json
import os
import re
import sys
import tarfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAX_SEED = 256 * 1024

ROW = re.compile(r'^KV_RESOURCE\("([a-z0-9.-]+)", "([a-z0-9.]*)", [A-Z]+, '
                 r'"[a-z]+", [0-9]+, [a-z_]+, [A-Z]+\)$')


def resource_files():
    """The resource files of analyze/read/resources.def, in its order."""
    out = []
    with open(os.path.join(ROOT, "analyze", "read", "resources.def")) as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if m:
                plural, group = m.groups()
                out.append("resources/%s%s.json" % (plural, "." + group if group else ""))
            elif line.startswith("KV_RESOURCE"):
                sys.exit("make-seeds.py: resources.def: cannot read row: " + line.strip())
    return out


# The order of fuzz_files[] in fuzz.h: every row of resources.def, then the
# CPU map (fuzz.h builds its list from the same table).
LOAD_FILES = resource_files() + ["libvirt/cpu_map/x86_Fuzz.xml"]


def node(name, model, features, extra=None):
    labels = {
        "kubernetes.io/hostname": name,
        "kubevirt.io/schedulable": "true",
        "cpu-vendor.node.kubevirt.io/Intel": "true",
        "host-model-cpu.node.kubevirt.io/" + model: "true",
        "cpu-model.node.kubevirt.io/" + model: "true",
        "cpu-model-migration.node.kubevirt.io/" + model: "true",
        "cpu-model.node.kubevirt.io/Haswell-noTSX": "true",
        "cpu-timer.node.kubevirt.io/tsc-frequency": "2400000000",
    }
    for f in features:
        labels["cpu-feature.node.kubevirt.io/" + f] = "true"
        labels["host-model-required-features.node.kubevirt.io/" + f] = "true"
    labels.update(extra or {})
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": labels,
                         "annotations": {"a": "b"}},
            "spec": {"taints": [{"key": "k", "value": "v",
                                 "effect": "NoSchedule"}]},
            "status": {"allocatable": {"memory": "64Gi", "cpu": "16"}}}


def vmi(ns, name, nodename, model="host-model", volumes=None):
    return {
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": name, "namespace": ns, "uid": "u-" + name,
                     "labels": {"app": name}},
        "spec": {
            "evictionStrategy": "LiveMigrate",
            "nodeSelector": {"kubevirt.io/schedulable": "true"},
            "affinity": {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{"matchExpressions": [
                        {"key": "kubernetes.io/hostname",
                         "operator": "NotIn", "values": ["x"]}]}]}}},
            "tolerations": [{"key": "k", "operator": "Exists"}],
            "domain": {
                "cpu": {"model": model, "features": [
                    {"name": "avx2", "policy": "require"}]},
                "memory": {"guest": "4Gi"},
                "resources": {"requests": {"memory": "4Gi"}},
                "machine": {"type": "q35"},
                "features": {"hyperv": {"vpindex": {"enabled": True}}},
                "devices": {
                    "disks": [{"name": "root", "disk": {}}],
                    "interfaces": [{"name": "default", "masquerade": {}}]}},
            "networks": [{"name": "default", "pod": {}}],
            "volumes": volumes or [{"name": "root",
                                    "persistentVolumeClaim": {
                                        "claimName": name + "-root"}}]},
        "status": {"phase": "Running", "nodeName": nodename,
                   "machine": {"type": "pc-q35-rhel9.2.0"},
                   "conditions": [{"type": "LiveMigratable",
                                   "status": "True"}],
                   "volumeStatus": [{"name": "root",
                                     "persistentVolumeClaimInfo": {
                                         "claimName": name + "-root",
                                         "accessModes": ["ReadWriteMany"]}}]}}


def pod(ns, name, vminame, nodename):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns,
                         "creationTimestamp": "2026-10-30T10:00:00Z",
                         "labels": {"kubevirt.io": "virt-launcher",
                                    "kubevirt.io/created-by": "u-" + vminame}},
            "spec": {"nodeName": nodename,
                     "nodeSelector": {"kubevirt.io/schedulable": "true"},
                     "containers": [{"name": "compute", "resources": {
                         "requests": {"memory": "4400Mi"}}}]},
            "status": {"phase": "Running"}}


def builtin_cluster():
    """A small cluster that exercises most loaders."""
    nodes = [node("n1", "Skylake-Client-IBRS", ["avx2", "avx512f"]),
             node("n2", "Haswell-noTSX-IBRS", ["avx2"]),
             node("n3", "Haswell-noTSX-IBRS", ["avx2"],
                  {"kubevirt.io/schedulable": "false"})]
    vmis = [vmi("ns1", "a", "n1"), vmi("ns1", "b", "n2", "Haswell-noTSX"),
            vmi("ns2", "c", "n1", volumes=[
                {"name": "root", "containerDisk": {"image": "i"}},
                {"name": "hd", "hostDisk": {"shared": False}}])]
    pods = [pod("ns1", "virt-launcher-a-x", "a", "n1"),
            pod("ns1", "virt-launcher-b-y", "b", "n2")]
    kv = {"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt",
          "metadata": {"name": "kubevirt", "namespace": "kubevirt"},
          "spec": {"configuration": {
              "cpuModel": "Haswell-noTSX",
              "obsoleteCPUModels": {"486": True},
              "migrations": {"parallelMigrationsPerCluster": 5,
                             "bandwidthPerMigration": "64Mi",
                             "completionTimeoutPerGiB": 150},
              "developerConfiguration": {
                  "featureGates": ["LiveMigration"]}}},
          "status": {"phase": "Deployed",
                     "observedKubeVirtVersion": "v1.6.0"}}
    pvcs = [{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
             "metadata": {"name": n + "-root", "namespace": "ns1"},
             "spec": {"accessModes": ["ReadWriteMany"],
                      "storageClassName": "ceph", "volumeMode": "Block"},
             "status": {"phase": "Bound"}} for n in ("a", "b")]
    scs = [{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
            "metadata": {"name": "ceph"}, "provisioner": "rbd.csi.ceph.com"}]
    nss = [{"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": n, "labels": {"team": n}}}
           for n in ("ns1", "ns2")]
    pol = [{"apiVersion": "migrations.kubevirt.io/v1alpha1",
            "kind": "MigrationPolicy", "metadata": {"name": "p"},
            "spec": {"selectors": {"namespaceSelector": {"team": "ns1"}},
                     "allowPostCopy": True,
                     "bandwidthPerMigration": "1Gi"}}]
    vmim = [{"apiVersion": "kubevirt.io/v1",
             "kind": "VirtualMachineInstanceMigration",
             "metadata": {"name": "m", "namespace": "ns1",
                          "creationTimestamp": "2026-10-30T11:00:00Z"},
             "spec": {"vmiName": "a"}, "status": {"phase": "Failed"}}]
    cpu_map = ("<cpus>\n  <model name='Fuzz'>\n    <model name='Fuzzbase'/>\n"
               "    <vendor name='Intel'/>\n    <feature name='avx2'/>\n"
               "    <feature name='sse2' removed='yes'/>\n  </model>\n"
               "  <model name='Fuzzbase'>\n    <feature name='sse2'/>\n"
               "    <feature name='fpu'/>\n  </model>\n</cpus>\n")

    def lst(items):
        return json.dumps({"apiVersion": "v1", "kind": "List",
                           "items": items}, indent=1)

    def lines(items):
        return "".join(json.dumps(i) + "\n" for i in items)

    return {
        "resources/nodes.json": lst(nodes),
        "resources/virtualmachineinstances.kubevirt.io.json": lines(vmis),
        "resources/pods.json": lst(pods),
        "resources/kubevirts.kubevirt.io.json": lst([kv]),
        "resources/persistentvolumeclaims.json": lines(pvcs),
        "resources/storageclasses.storage.k8s.io.json": lst(scs),
        "resources/namespaces.json": lst(nss),
        "resources/migrationpolicies.migrations.kubevirt.io.json": lst(pol),
        "resources/virtualmachineinstancemigrations.kubevirt.io.json":
            lst(vmim),
        "libvirt/cpu_map/x86_Fuzz.xml": cpu_map,
    }


def manifest(files):
    entries = [{"path": p, "bytes": len(b),
                "sha256": hashlib.sha256(b).hexdigest()}
               for p, b in sorted(files.items())]
    res = []
    for p in sorted(files):
        if p.startswith("resources/") and p.endswith(".json"):
            base = p[len("resources/"):-len(".json")]
            r, _, g = base.partition(".")
            res.append({"resource": r, "group": g, "file": p,
                        "status": "ok", "count": 1})
    return json.dumps({"kind": "kvscope-snapshot", "formatVersion": 1,
                       "createdAt": "2026-10-31T09:12:44Z",
                       "collector": {"name": "kvscope-collect",
                                     "version": "0.1.0"},
                       "cluster": {"context": "seed", "flavor": "kubevirt"},
                       "options": {"redact": True, "anonymize": False},
                       "resources": res, "files": entries},
                      indent=1).encode()


def tar_bytes(top, files, compress=True):
    """A tar of top/<path> for every file (bytes), manifest first."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        members = [("manifest.json", manifest(files))]
        members += sorted(files.items())
        for p, b in members:
            info = tarfile.TarInfo(top + "/" + p)
            info.size = len(b)
            info.mtime = 1793438000
            info.mode = 0o644
            info.uname = info.gname = "kvscope"
            t.addfile(info, io.BytesIO(b))
    raw = buf.getvalue()
    return gzip.compress(raw, mtime=0) if compress else raw


def read_sample(d):
    files = {}
    for dirpath, _, names in os.walk(d):
        for n in names:
            full = os.path.join(dirpath, n)
            rel = os.path.relpath(full, d)
            if rel == "manifest.json" or os.path.islink(full):
                continue
            with open(full, "rb") as f:
                files[rel] = f.read()
    return files


def samples():
    """(name, files) for every sample snapshot directory."""
    sdir = os.path.join(ROOT, "samples")
    out = []
    if os.path.isdir(sdir):
        for name in sorted(os.listdir(sdir)):
            d = os.path.join(sdir, name)
            if os.path.isfile(os.path.join(d, "manifest.json")):
                out.append((name, read_sample(d)))
    return out


def load_input(files):
    """fuzz_load's format: sections "<file index byte><content>" joined
    by a line "---"."""
    parts = []
    for i, p in enumerate(LOAD_FILES):
        if p in files:
            parts.append(bytes([i]) + files[p][:MAX_SEED])
    return b"\n---\n".join(parts)


def cpumap_inputs():
    out = {}
    shared = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))
    cdir = os.path.join(shared, "data", "libvirt-cpu_map")
    if os.path.isdir(cdir):
        groups = [["x86_Haswell.xml", "x86_Haswell-v1.xml",
                   "x86_Haswell-v2.xml"],
                  ["x86_Skylake-Client.xml", "x86_Skylake-Client-v1.xml"],
                  ["x86_EPYC.xml", "x86_EPYC-v1.xml"],
                  ["x86_Westmere.xml"], ["x86_features.xml"],
                  ["x86_vendors.xml"], ["index.xml"]]
        for g in groups:
            blobs = []
            for n in g:
                p = os.path.join(cdir, n)
                if os.path.isfile(p):
                    with open(p, "rb") as f:
                        blobs.append(f.read())
            if blobs:
                out["shared-" + g[0]] = b"<!--next-->\n".join(blobs)
    out["builtin"] = builtin_cluster()["libvirt/cpu_map/x86_Fuzz.xml"].encode()
    out["tiny"] = b"<cpus><model name='A'><feature name='sse'/></model></cpus>"
    return out


def items_inputs(clusters):
    out = {
        "list": b"\x12\x34" + b'{"kind":"List","items":[{"a":1},{"b":[]}]}',
        "lines": b"\x00\x01" + b'{"a":"x\\"y"}\n{"b":{"c":null}}\n',
        "ws": b"\x55\xaa" + b' \r\n{ "items" :\t[ {"s":"]}{["} ] , "x":{} }',
    }
    for cname, files in clusters:
        for p, b in sorted(files.items()):
            if p.endswith(".json"):
                key = cname + "-" + os.path.basename(p)
                out[key] = b"\x5a\x5a" + b[:MAX_SEED]
    return out


def hostile_archives():
    """The hostile corpus (tests/hostile/gen.py), when it is there."""
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(ROOT, "tests", "hostile"))
    try:
        import gen
    except ImportError:
        return {}
    try:
        return {name: data for name, data in gen.archives()
                if len(data) <= MAX_SEED}
    finally:
        sys.path.pop(0)


def hostile_snapshots(archives):
    """The resource files of each hostile archive that is a tar of a
    snapshot (the others stop before the loader: fuzz_archive's)."""
    out = {}
    for name, data in sorted(archives.items()):
        try:
            t = tarfile.open(fileobj=io.BytesIO(data))
            members = t.getmembers()
        except (tarfile.TarError, EOFError, OSError, ValueError):
            continue
        files = {}
        for m in members:
            rel = m.name.split("/", 1)[1] if "/" in m.name else m.name
            if rel in LOAD_FILES and m.isfile() and rel not in files:
                try:
                    files[rel] = t.extractfile(m).read()
                except (tarfile.TarError, EOFError, OSError,
                        AttributeError, ValueError):
                    pass
        if files:
            out[name] = files
    return out


def small(files, keep=4):
    """The snapshot with its first `keep` items of each resource file
    (fuzz_pipeline typesets only small snapshots)."""
    out = {}
    for p, b in files.items():
        try:
            doc = json.loads(b)
        except ValueError:
            try:
                lines = [ln for ln in b.splitlines() if ln.strip()]
                out[p] = b"\n".join(lines[:keep]) + b"\n"
            except ValueError:
                out[p] = b
            continue
        if isinstance(doc, dict) and isinstance(doc.get("items"), list):
            doc["items"] = doc["items"][:keep]
            out[p] = json.dumps(doc).encode()
        elif isinstance(doc, list):
            out[p] = json.dumps(doc[:keep]).encode()
        else:
            out[p] = b
    return out


# Strings a writer must show safely, whatever the format.
HOSTILE_STRINGS = {
    "long": "x" * 5000,
    "longword": "-".join(["segment"] * 400),
    "bidi": "a\u202eevil\u202c\u2066b\u2069\u200f\u061c",
    "nonchar": "n\ufffe\uffff\ufdd0\ufdef\U0010ffff\U0001fffe",
    "html": "</script><script>alert(1)</script><!--&amp;\"'",
    "xml": "]]><![CDATA[<svg onload=x>]]>&#0;&lt;",
    "formula": "=HYPERLINK(\"http://x\",\"y\")",
    "csv": "+1,\"2\"\r\n-3\t@SUM(A1)",
    "term": "\x1b[2J\x1b]0;pwned\x07\r\x08\x7f\u009b31m",
    "yaml": "- &a !!binary *a\n? : {[}]#",
    "pdf": "(\\)) /Type /Catalog %PDF-1.4 \u0000",
    "wide": "\u6f22\u5b57\U0001f600\u0301\u0301\u0301\u200d",
}


def hostile_cluster(text):
    """The built-in cluster with text in every string the writers print:
    names, labels, images, classes, messages."""
    nodes = [node("n1" + text, "Skylake-Client-IBRS", ["avx2"],
                  {"role" + text: text}),
             node("n2", "Haswell-noTSX-IBRS", ["avx2"])]
    vmis = [vmi("ns" + text, "a" + text, "n1" + text),
            vmi("ns1", "b", "n2", text),
            vmi("ns1", "c", "n2", volumes=[
                {"name": "root", "containerDisk": {"image": text}},
                {"name": "d", "persistentVolumeClaim": {
                    "claimName": "c" + text}}])]
    vmis[1]["status"]["conditions"] = [{
        "type": "LiveMigratable", "status": "False",
        "reason": "InterfaceNotLiveMigratable", "message": text}]
    pvcs = [{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
             "metadata": {"name": "c" + text, "namespace": "ns1"},
             "spec": {"accessModes": ["ReadWriteOnce"],
                      "storageClassName": "sc" + text,
                      "volumeMode": "Filesystem"},
             "status": {"phase": "Bound"}}]
    scs = [{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
            "metadata": {"name": "sc" + text}, "provisioner": text}]
    files = {p: s.encode() for p, s in builtin_cluster().items()}
    files["resources/nodes.json"] = json.dumps(
        {"kind": "List", "items": nodes}).encode()
    files["resources/virtualmachineinstances.kubevirt.io.json"] = \
        json.dumps({"kind": "List", "items": vmis}).encode()
    files["resources/persistentvolumeclaims.json"] = json.dumps(
        {"kind": "List", "items": pvcs}).encode()
    files["resources/storageclasses.storage.k8s.io.json"] = json.dumps(
        {"kind": "List", "items": scs}).encode()
    files["resources/pods.json"] = b'{"kind":"List","items":[]}'
    return files


def write(outdir, harness, name, data):
    d = os.path.join(outdir, harness)
    os.makedirs(d, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    with open(os.path.join(d, safe), "wb") as f:
        f.write(data)


def main():
    if sys.argv[1:] == ["--print-load-files"]:
        print("\n".join(LOAD_FILES))
        return
    if len(sys.argv) != 2:
        sys.exit("usage: make-seeds.py OUTDIR | --print-load-files")
    outdir = sys.argv[1]
    builtin = {p: s.encode() for p, s in builtin_cluster().items()}
    clusters = [("builtin", builtin)] + samples()
    for name, files in clusters:
        write(outdir, "archive", name + ".tar.gz", tar_bytes(name, files))
        write(outdir, "load", name, load_input(files))
    write(outdir, "archive", "builtin.tar",
          tar_bytes("builtin", builtin, compress=False))
    for name, files in clusters:
        write(outdir, "pipeline", name, load_input(small(files)))
    hostile = hostile_archives()
    for name, data in hostile.items():
        write(outdir, "archive", "hostile-" + name, data)
    seen = set()
    for name, files in hostile_snapshots(hostile).items():
        data = load_input(files)
        if data not in seen:
            seen.add(data)
            write(outdir, "pipeline", "hostile-" + name, data)
    for name, text in HOSTILE_STRINGS.items():
        write(outdir, "pipeline", "strings-" + name,
              load_input(hostile_cluster(text)))
    # the smoke run of make check replays these few only (run-tests.sh)
    write(outdir, "pipeline-smoke", "builtin", load_input(builtin))
    write(outdir, "pipeline-smoke", "strings",
          load_input(hostile_cluster("".join(
              HOSTILE_STRINGS[k] for k in ("bidi", "nonchar", "html",
                                           "csv", "term", "wide")))))
    for name, data in items_inputs(clusters).items():
        write(outdir, "items", name, data)
    for name, data in cpumap_inputs().items():
        write(outdir, "cpumap", name, data)
    n = sum(len(fs) for _, _, fs in os.walk(outdir))
    print("fuzz seeds: %d files from %d snapshot(s) in %s"
          % (n, len(clusters), outdir))


if __name__ == "__main__":
    main()
