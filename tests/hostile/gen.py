#!/usr/bin/env python3
# gen.py - the hostile snapshot corpus: snapshots a stranger could send,
# each of which kvscope must refuse with exit status 2 and one line that
# names the problem (tests/hostile/expected.tsv), without writing anything.
#
#   tests/hostile/gen.py OUTDIR     writes every case into OUTDIR and an
#                                   index OUTDIR/index.tsv (name, path)
#
# Tar archives are built here block by block (tarfile's header encoder,
# our own member list), so that a header can lie: declare 10 GB, name a
# path outside the archive, be a link or a device.  Everything is
# deterministic: fixed times, owners and gzip headers; the same run gives
# the same bytes.  Cases that need a directory (a symlink or a FIFO on
# disk) are written as directory snapshots.  Standard library only.
import bz2
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile
import zipfile

TOP = "snap"
MTIME = 1793438000
BLOCK = 512

NODES = "resources/nodes.json"
VMIS = "resources/virtualmachineinstances.kubevirt.io.json"
VMS = "resources/virtualmachines.kubevirt.io.json"


def node(name, **extra):
    o = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": name,
                      "labels": {"kubevirt.io/schedulable": "true"}},
         "status": {"allocatable": {"memory": "64Gi"}}}
    for k, v in extra.items():
        o[k] = v
    return o


def jlist(items):
    return json.dumps({"apiVersion": "v1", "kind": "List",
                       "items": items}).encode()


def good_files():
    return {NODES: jlist([node("n1"), node("n2")]),
            VMIS: json.dumps({"metadata": {"name": "v", "namespace": "ns"},
                              "status": {"phase": "Running",
                                         "nodeName": "n1"}}).encode()
            + b"\n"}


def manifest(files, version=1, lie=None, drop=(), extra=()):
    """manifest.json for files; lie maps a path to (bytes, sha256)
    overrides, drop leaves paths out, extra lists paths that do not
    exist."""
    lie = lie or {}
    entries = []
    for p in sorted(files):
        if p in drop:
            continue
        b = files[p]
        n, sha = len(b), hashlib.sha256(b).hexdigest()
        if p in lie:
            n = lie[p][0] if lie[p][0] is not None else n
            sha = lie[p][1] or sha
        entries.append({"path": p, "bytes": n, "sha256": sha})
    for p in extra:
        entries.append({"path": p, "bytes": 2, "sha256": "0" * 64})
    return json.dumps({"kind": "kvscope-snapshot", "formatVersion": version,
                       "createdAt": "2026-10-31T09:12:44Z",
                       "collector": {"name": "kvscope-collect",
                                     "version": "0.1.0"},
                       "cluster": {"context": "hostile",
                                   "flavor": "kubevirt"},
                       "files": entries}, indent=1).encode()


# --- tar, block by block ---------------------------------------------------

def header(name, size, type=tarfile.REGTYPE, linkname="",
           fmt=tarfile.PAX_FORMAT, dev=(0, 0)):
    info = tarfile.TarInfo(name)
    info.type = type
    info.size = size
    info.mtime = MTIME
    info.mode = 0o755 if type == tarfile.DIRTYPE else 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = "kvscope"
    info.linkname = linkname
    info.devmajor, info.devminor = dev
    return info.tobuf(fmt, "utf-8", "surrogateescape")


def entry(name, data=b"", **kw):
    pad = (-len(data)) % BLOCK
    return header(name, len(data), **kw) + data + b"\0" * pad


def tar(members, end=True):
    """members: (name, data) pairs or raw entry bytes; names are under
    the top directory unless they start with '!' (taken as they are)."""
    out = [entry(TOP + "/", type=tarfile.DIRTYPE)]
    for m in members:
        if isinstance(m, bytes):
            out.append(m)
            continue
        name, data = m
        name = name[1:] if name.startswith("!") else TOP + "/" + name
        out.append(entry(name, data))
    if end:
        out.append(b"\0" * (2 * BLOCK))
    return b"".join(out)


def snapshot(files, man=None, more=()):
    """A tar with manifest.json first, then files, then more entries."""
    members = [("manifest.json", man if man is not None
                else manifest(files))]
    members += sorted(files.items())
    members += list(more)
    return tar(members)


def gz(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


# --- the cases -----------------------------------------------------------------

def archive_cases():
    """(name, file name, bytes) of every archive case."""
    f = good_files()
    cases = []

    def add(name, data, ext=".tar.gz", compress=True):
        cases.append((name, name + ext, gz(data) if compress else data))

    add("path-traversal", snapshot(f, more=[("resources/../../../x",
                                              b"pwned")]))
    add("path-dotdot-top", snapshot(f, more=[("!../../x", b"pwned")]))
    add("path-absolute", snapshot(f, more=[("!/etc/x", b"pwned")]))
    add("symlink", snapshot(f, more=[entry(
        TOP + "/resources/pods.json", type=tarfile.SYMTYPE,
        linkname="/etc/passwd")]))
    add("hardlink", snapshot(f, more=[entry(
        TOP + "/resources/pods.json", type=tarfile.LNKTYPE,
        linkname=TOP + "/" + NODES)]))
    add("device-char", snapshot(f, more=[entry(
        TOP + "/dev/mem", type=tarfile.CHRTYPE, dev=(1, 1))]))
    add("device-block", snapshot(f, more=[entry(
        TOP + "/dev/sda", type=tarfile.BLKTYPE, dev=(8, 0))]))
    add("fifo", snapshot(f, more=[entry(TOP + "/fifo",
                                        type=tarfile.FIFOTYPE)]))
    add("duplicate-member", snapshot(f, more=[(NODES, b"{}")]))
    add("outside-top", snapshot(f, more=[("!other/x.json", b"{}")]))
    add("name-not-utf8", snapshot(f, more=[entry(
        TOP + "/resources/\udcff\udcfe.json", b"{}",
        fmt=tarfile.GNU_FORMAT)]))
    add("name-control-char", snapshot(f, more=[
        ("resources/a\x1b[2Jb.json", b"{}")]))
    # manifest problems
    add("no-manifest", tar(sorted(f.items())))
    add("format-version-2", snapshot(f, manifest(f, version=2)))
    add("manifest-not-json", snapshot(f, b"{\"kind\": kvscope"))
    add("manifest-lies-size", snapshot(
        f, manifest(f, lie={NODES: (999999, None)})))
    add("manifest-lies-sha256", snapshot(
        f, manifest(f, lie={VMIS: (None, "ab" * 32)})))
    add("manifest-lies-both", snapshot(
        f, manifest(f, lie={NODES: (7, None), VMIS: (None, "cd" * 32)})))
    add("manifest-missing-file", snapshot(
        f, manifest(f, extra=["resources/pods.json"])))
    add("member-not-in-manifest", snapshot(
        f, manifest(f, drop=[VMIS])))
    # sizes and compression
    big = header(TOP + "/resources/pods.json", 10 << 30,
                 fmt=tarfile.GNU_FORMAT) + b"{\"items\":["
    add("declared-10gb", snapshot(f, more=[big])[:-2 * BLOCK],
        ext=".tar", compress=False)
    whole = gz(snapshot(f, more=[("libvirt/blob.bin",
                                  bytes(range(256)) * 4096)]))
    cases.append(("truncated-gzip", "truncated-gzip.tar.gz",
                  whole[:len(whole) * 2 // 3]))
    zeros = snapshot(f, manifest(f), more=[("libvirt/zeros.bin",
                                            b"\0" * (64 << 20))])
    cases.append(("gzip-bomb", "gzip-bomb.tar.gz.gz", gz(gz(zeros))))
    cases.append(("bzip2-bomb", "bzip2-bomb.tar.bz2",
                  bz2.compress(zeros, 9)))
    cases.append(("not-an-archive", "not-an-archive.tar.gz",
                  b"kvscope-snapshot, honest\n"))
    # not hostile: the same snapshot intact must be read, analysed and
    # written (and, under LeakSanitizer, leak nothing on the way)
    add("good-snapshot", snapshot(f))
    add("bom-in-manifest", snapshot(f, b"\xef\xbb\xbf" + manifest(f)))
    # content
    cases += content_cases()
    return cases


def with_files(changes):
    f = good_files()
    f.update(changes)
    return snapshot(f)


def content_cases():
    deep = (b"{\"metadata\":{\"name\":\"deep\"},\"x\":" + b"[" * 100000
            + b"]" * 100000 + b"}\n")
    labels = b",".join(b"\"%07d\":\"\"" % i for i in range(1000000))
    million = (b"{\"metadata\":{\"name\":\"n1\",\"labels\":{" + labels
               + b"}}}\n")
    qty = {
        "quantity-unknown-suffix": "1.5Xi",
        "quantity-negative": "-4Gi",
        "quantity-overflow": "1e400",
    }
    cases = []

    def add(name, changes):
        cases.append((name, name + ".tar.gz", gz(with_files(changes))))

    add("member-not-json", {NODES: b"this is not JSON\n"})
    add("member-truncated-json", {NODES: jlist([node("n1")])[:-9]})
    add("nul-in-string", {NODES: b"{\"metadata\":{\"name\":\"n\0x\"}}\n"})
    add("nul-escaped", {NODES: b"{\"metadata\":{\"name\":\"n\\u0000x\"}}\n"})
    add("string-not-utf8", {NODES: b"{\"metadata\":{\"name\":\"\xff\"}}\n"})
    add("nesting-100000", {NODES: deep})
    add("million-labels", {NODES: million})
    add("labels-as-list", {NODES: jlist([node("n1", metadata={
        "name": "n1", "labels": ["kubevirt.io/schedulable=true"]})])})
    add("name-as-number", {NODES: jlist([node("n1", metadata={
        "name": 7})])})
    add("duplicate-node", {NODES: jlist([node("n1"), node("n2"),
                                         node("n1")])})
    add("duplicate-vmi", {VMIS: b"{\"metadata\":{\"name\":\"v\","
                          b"\"namespace\":\"ns\"}}\n" * 2})
    # a halted VM's template is parsed from the text set aside: a
    # number jansson refuses in it is named, with the field
    add("vm-template-not-json", {VMS: b"{\"metadata\":{\"name\":\"vm\","
                                 b"\"namespace\":\"ns\"},\"spec\":"
                                 b"{\"runStrategy\":\"Halted\","
                                 b"\"template\":{\"metadata\":{\"x\":01},"
                                 b"\"spec\":{}}}}\n"})
    add("item-not-object", {NODES: b"{\"items\":[{\"metadata\":{\"name\":"
                            b"\"n1\"}},42]}"})
    add("data-after-list", {NODES: jlist([node("n1")]) + b"\n{}\n"})
    add("list-not-json", {NODES: b"{\"items\":[{\"metadata\":{\"name\":"
                          b"\"n1\"}}] trailing garbage}"})
    add("escape-in-name", {NODES: jlist([node("\x1b[2J\x1b]0;pwned\x07",
                                              metadata={
        "name": "\x1b[2J\x1b]0;pwned\x07", "labels": 7})])})
    for name, q in qty.items():
        n = node("n1")
        n["status"]["allocatable"]["memory"] = q
        add(name, {NODES: jlist([n])})
    # legal forms other tools write (#21.5): accepted
    add("bom-in-resource", {NODES: b"\xef\xbb\xbf" + jlist([node("n1")])})
    add("bare-array", {NODES: json.dumps([node("n1"), node("n2")]).encode()})
    n0 = node("n1")
    n0["status"]["allocatable"]["memory"] = "-0"
    add("quantity-negative-zero", {NODES: jlist([n0])})
    add("integer-huge-unused", {NODES: jlist([node("n1")]).replace(
        b'"status": {', b'"status": {"x": 123456789012345678901234567890, ')})
    # ... but a number kvscope reads must still fit
    add("integer-huge-used", {VMIS: b"{\"metadata\":{\"name\":\"v\","
        b"\"namespace\":\"ns\"},\"status\":{\"phase\":\"Running\","
        b"\"nodeName\":\"n1\",\"topologyHints\":{\"tscFrequency\":"
        b"123456789012345678901234567890}}}\n"})
    # the crashes of #25, built from their causes
    add("quantity-int64-max", {NODES: jlist([node("n1", status={
        "allocatable": {"memory": "9223372036854775807"}})])})
    add("quantity-7ei", {NODES: jlist([node("n1", status={
        "allocatable": {"memory": "7Ei"}})])})
    big_vmi = {"metadata": {"name": "v", "namespace": "ns"},
               "spec": {"domain": {"memory": {"guest": "4Ei"}}},
               "status": {"phase": "Running", "nodeName": "n1"}}
    add("completion-timeout-overflow", {
        VMIS: json.dumps(big_vmi).encode() + b"\n",
        "resources/kubevirts.kubevirt.io.json": jlist([{
            "metadata": {"name": "kubevirt", "namespace": "kubevirt"},
            "spec": {"configuration": {"migrations": {
                "completionTimeoutPerGiB": 9223372036854775807,
                "bandwidthPerMigration": "4Ei"}}}}])})
    ctr = {"name": "c", "resources": {"requests": {"memory": "4Ei",
                                                   "cpu": "4P"}}}
    add("requests-sum-overflow", {"resources/pods.json": jlist([{
        "metadata": {"name": "p", "namespace": "ns"},
        "spec": {"nodeName": "n1", "containers": [ctr, ctr, ctr],
                 "overhead": {"memory": "4Ei"}},
        "status": {"phase": "Running"}}] * 1)})
    add("disks-condition-no-rwo", {
        VMIS: json.dumps({"metadata": {"name": "v", "namespace": "ns"},
                          "status": {"phase": "Running", "nodeName": "n1",
                                     "conditions": [{
                                         "type": "LiveMigratable",
                                         "status": "False",
                                         "reason": "DisksNotLiveMigratable"
                                     }]}}).encode() + b"\n",
        "resources/storageclasses.storage.k8s.io.json": jlist([{
            "metadata": {"name": "local"},
            "provisioner": "rancher.io/local-path"}])})
    add("profile-volumemode-number", {
        "resources/storageprofiles.cdi.kubevirt.io.json": jlist([{
            "metadata": {"name": "p"}, "status": {"claimPropertySets": [{
                "accessModes": ["ReadWriteMany"], "volumeMode": 7}]}}])})
    add("noncharacter-in-name", {NODES: jlist([node("n\ufffe\uffff"
                                                    "\ufdd0\U0010ffff")])})
    add("cpumap-doctype", {"libvirt/cpu_map/x86_Evil.xml":
                           b"<?xml version='1.0'?><!DOCTYPE cpus [<!ENTITY "
                           b"a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;'>]>"
                           b"<cpus><model name='&b;'/></cpus>"})
    add("cpumap-cycle", {"libvirt/cpu_map/x86_A.xml":
                         b"<cpus><model name='A'><model name='B'/></model>"
                         b"<model name='B'><model name='A'/></model></cpus>"})
    return cases


def dir_cases(out):
    """Directory snapshots: (name, path relative to out)."""
    cases = []

    def make(name, files, man=None):
        top = os.path.join(out, name)
        os.makedirs(top)
        for p, b in sorted(files.items()):
            full = os.path.join(top, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as fh:
                fh.write(b)
        with open(os.path.join(top, "manifest.json"), "wb") as fh:
            fh.write(man if man is not None else manifest(files))
        cases.append((name, name))
        return top

    f = good_files()
    top = make("dir-symlink", f)
    os.symlink("/etc/passwd", os.path.join(top, "resources", "pods.json"))
    top = make("dir-symlink-to-dir", f)
    os.symlink("/etc", os.path.join(top, "etc"))
    top = make("dir-fifo", f)
    os.mkfifo(os.path.join(top, "resources", "pods.json"))
    top = make("dir-name-not-utf8", f)
    with open(os.path.join(top.encode(), b"resources", b"\xff.json"),
              "wb") as fh:
        fh.write(b"{}")
    deep = "/".join(["d"] * 20)
    make("dir-nested-too-deep", dict(f, **{deep + "/x.json": b"{}"}))
    make("dir-manifest-lies", f, manifest(f, lie={NODES: (1, None)}))
    make("empty-snapshot", {}, manifest({}))
    # what macOS and people add to an unpacked snapshot: not listed, not
    # read, so ignored with a warning (#25) ...
    top = make("dir-unlisted-extras", f)
    for extra in (".DS_Store", "notes.txt"):
        with open(os.path.join(top, extra), "wb") as fh:
            fh.write(b"\0\0\0\1Bud1")
    # ... but an unlisted file kvscope reads stays fatal
    top = make("dir-unlisted-resource", f)
    with open(os.path.join(top, "resources", "pods.json"), "wb") as fh:
        fh.write(jlist([]))
    return cases


def zip_bytes(entries):
    """A zip of (name, bytes, mode) entries, names taken as given."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo("x", (2026, 10, 31, 9, 12, 44))
            info.filename = name        # no sanitising: hostile on purpose
            info.external_attr = mode << 16
            z.writestr(info, data)
    return buf.getvalue()


NODE_YAML = b"""apiVersion: v1
kind: Node
metadata:
  name: n1
  labels:
    kubevirt.io/schedulable: "true"
status:
  allocatable:
    memory: 64Gi
"""


def foreign_cases(out):
    """Inputs without a manifest (must-gathers, support bundles, kubectl
    output): (name, path relative to out)."""
    cases = []

    def make(name, files):
        top = os.path.join(out, name)
        os.makedirs(top)
        for p, b in sorted(files.items()):
            full = os.path.join(top, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as fh:
                fh.write(b)
        cases.append((name, name))
        return top

    def add_zip(name, entries):
        with open(os.path.join(out, name + ".zip"), "wb") as fh:
            fh.write(zip_bytes(entries))
        cases.append((name, name + ".zip"))

    laughs = [b"a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 10):
        laughs.append(b"a%d: &a%d [" % (i, i) +
                      b", ".join(b"*a%d" % (i - 1) for _ in range(9)) + b"]")
    make("yaml-billion-laughs", {"laughs.yaml": NODE_YAML + b"---\n" +
                                 b"\n".join(laughs) + b"\n"})
    make("yaml-deep-nesting", {"deep.yaml": b"apiVersion: v1\nkind: Node\n"
                               b"x: " + b"[" * 100000 + b"]" * 100000 +
                               b"\n"})
    make("yaml-not-yaml", {"nodes.yaml": NODE_YAML + b"  bad: [unclosed\n"})
    make("yaml-duplicate-key", {"n.yaml": NODE_YAML + b"kind: Pod\n"})
    make("yaml-alias-unknown", {"n.yaml": NODE_YAML + b"spec: *nowhere\n"})
    make("yaml-field-wrong", {
        "cluster-scoped-resources/core/nodes/n1.yaml":
        NODE_YAML.replace(b"  labels:\n    kubevirt.io/schedulable: "
                          b"\"true\"\n", b"  labels: [x]\n")})
    make("foreign-no-objects", {"metadata.yaml": b"projectName: x\n",
                                "logs/a.log": b"kind: Node\n"})
    make("foreign-json-truncated", {"nodes.json": jlist([node("n1")])[:-9]})
    top = make("foreign-dir-symlink", {"nodes.yaml": NODE_YAML})
    os.symlink("/etc/passwd", os.path.join(top, "pods.yaml"))
    for name, entries in ZIPS:
        add_zip(name, entries)
    return cases


ZIPS = [
    ("zip-dotdot", [("bundle/yamls/nodes.yaml", NODE_YAML, 0o644),
                    ("bundle/../../evil.yaml", NODE_YAML, 0o644)]),
    ("zip-absolute", [("/etc/evil.yaml", NODE_YAML, 0o644)]),
    ("zip-symlink", [("bundle/yamls/nodes.yaml", NODE_YAML, 0o644),
                     ("bundle/yamls/pods.yaml", b"/etc/passwd", 0o120777)]),
    ("zip-good", [("bundle/yamls/nodes.yaml", NODE_YAML, 0o644)]),
]


def foreign_seeds():
    """Foreign inputs as archives, for the fuzz seeds: the zips above and
    a small must-gather tree (List, typed List, multi-document YAML)."""
    lst = (b"apiVersion: v1\nkind: PodList\nitems:\n- metadata:\n"
           b"    name: virt-launcher-v\n    namespace: ns\n    labels:\n"
           b"      kubevirt.io: virt-launcher\n  spec:\n    nodeName: n1\n")
    vmis = (b"---\napiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\n"
            b"metadata: {name: v, namespace: ns, uid: u1}\n"
            b"status: {phase: Running, nodeName: n1}\n---\n"
            b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n")
    mg = tar([("mg/cluster-scoped-resources/core/nodes/n1.yaml", NODE_YAML),
              ("mg/namespaces/ns/core/pods.yaml", lst),
              ("mg/namespaces/ns/kubevirt.io/vmis.yaml", vmis)])
    return [(name + ".zip", zip_bytes(e)) for name, e in ZIPS] + \
        [("must-gather.tar.gz", gz(mg))]


def archives():
    """(name, bytes) of every archive case (for the fuzz seeds)."""
    return [(fname, data) for _, fname, data in archive_cases()] + \
        foreign_seeds()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    index = []
    for name, fname, data in archive_cases():
        with open(os.path.join(out, fname), "wb") as fh:
            fh.write(data)
        index.append((name, fname))
    index += dir_cases(out)
    index += foreign_cases(out)
    with open(os.path.join(out, "index.tsv"), "w") as fh:
        for name, path in sorted(index):
            fh.write("%s\t%s\n" % (name, path))
    print("hostile corpus: %d cases in %s" % (len(index), out))


if __name__ == "__main__":
    main()
