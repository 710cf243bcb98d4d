#!/usr/bin/env python3
"""gen.py - foreign inputs built from a kvscope sample snapshot.

    gen.py SAMPLE_DIR OUT_DIR

writes, from the objects of SAMPLE_DIR/resources/*.json:

  OUT_DIR/must-gather/       the layout of `oc adm inspect` / the KubeVirt
                             must-gather: one YAML per cluster-scoped
                             object, typed <Kind>List files per namespace
                             (items without kind), pods twice (per pod and
                             in the namespace's list: the same uid), noise
                             (logs, an HTML page, kinds kvscope does not
                             read, a multi-document file with a leading ---)
  OUT_DIR/must-gather.tar.gz the same tree as a tar.gz
  OUT_DIR/no-pods/           the must-gather without any pod
  OUT_DIR/bundle.zip         a Harvester-style support bundle: a zip of
                             yamls/cluster/<group>/<version>/<plural>.yaml
                             and yamls/namespaced/<ns>/..., metadata.yaml
                             and logs
  OUT_DIR/plain/             `kubectl get <plural> -A -o yaml` Lists, one
                             resource as multi-document YAML without a
                             leading ---, one with it, one as -o json

The output is a pure function of the sample.
"""
import io
import json
import os
import shutil
import sys
import tarfile
import zipfile

import yaml


def load_sample(d):
    """[(plural, group, [objects])] in file order."""
    out = []
    rdir = os.path.join(d, "resources")
    for name in sorted(os.listdir(rdir)):
        if not name.endswith(".json"):
            continue
        base = name[:-5]
        plural, _, group = base.partition(".")
        text = open(os.path.join(rdir, name), encoding="utf-8").read()
        try:
            doc = json.loads(text)
            objs = doc["items"] if isinstance(doc, dict) else doc
        except json.JSONDecodeError:
            objs = [json.loads(l) for l in text.splitlines() if l.strip()]
        out.append((plural, group, objs))
    return out


def ydump(obj):
    return yaml.safe_dump(obj, default_flow_style=False, sort_keys=False,
                          allow_unicode=True, width=100)


def ydump_all(objs, lead):
    text = yaml.safe_dump_all(objs, default_flow_style=False,
                              sort_keys=False, allow_unicode=True,
                              explicit_start=True)
    return text if lead else text[len("---\n"):]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def kind_of(objs, plural):
    for o in objs:
        if o.get("kind"):
            return o["kind"], o.get("apiVersion", "v1")
    return plural, "v1"


def typed_list(kind, api, objs):
    """A <Kind>List as typed clients write it: items without kind."""
    items = []
    for o in objs:
        o = dict(o)
        o.pop("kind", None)
        o.pop("apiVersion", None)
        items.append(o)
    return {"apiVersion": api, "kind": kind + "List",
            "metadata": {"resourceVersion": "1"}, "items": items}


def must_gather(res, top, pods=True):
    root = os.path.join(top, "must-gather.local.4242",
                        "quay-io-kubevirt-must-gather-sha256-0f0f")
    # the capture time: oc adm inspect's timestamp file in the image's
    # folder and oc adm must-gather's own above it (start and end, Go's
    # time.Time "%v"); the newest line, in UTC, is 2026-10-31T09:12:44Z
    write(os.path.join(root, "timestamp"),
          "2026-10-31 09:11:03.101 +0000 UTC m=+0.012\n")
    write(os.path.join(os.path.dirname(root), "timestamp"),
          "2026-10-31 09:10:02.512345678 +0000 UTC m=+0.061234567\n"
          "2026-10-31 11:12:44.932 +0200 EET m=+162.300000001\n")
    write(os.path.join(root, "event-filter.html"),
          "<html><body>events</body></html>\n")
    for plural, group, objs in res:
        if plural == "pods" and not pods:
            continue
        gdir = group or "core"
        kind, api = kind_of(objs, plural)
        by_ns = {}
        for o in objs:
            ns = o.get("metadata", {}).get("namespace")
            name = o["metadata"]["name"]
            if ns is None:
                if plural == "namespaces":
                    write(os.path.join(root, "namespaces", name,
                                       name + ".yaml"), ydump(o))
                else:
                    write(os.path.join(root, "cluster-scoped-resources",
                                       gdir, plural, name + ".yaml"),
                          ydump(o))
                continue
            by_ns.setdefault(ns, []).append(o)
            if plural == "pods":
                write(os.path.join(root, "namespaces", ns, "pods", name,
                                   name + ".yaml"), ydump(o))
                write(os.path.join(root, "namespaces", ns, "pods", name,
                                   "compute", "compute", "logs",
                                   "current.log"),
                      '{"level":"info","msg":"kind: Node"}\n')
            elif plural == "virtualmachines":
                write(os.path.join(root, "namespaces", ns, gdir, plural,
                                   name + ".yaml"), ydump(o))
        for ns, items in sorted(by_ns.items()):
            if plural in ("persistentvolumeclaims", "pods"):
                write(os.path.join(root, "namespaces", ns, "core",
                                   plural + ".yaml"),
                      ydump(typed_list(kind, api, items)))
            elif plural == "virtualmachineinstances":
                write(os.path.join(root, "namespaces", ns, gdir,
                                   plural + ".yaml"),
                      ydump({"apiVersion": "v1", "kind": "List",
                             "items": items}))
            elif plural != "virtualmachines":
                for o in items:
                    write(os.path.join(root, "namespaces", ns, "crs",
                                       plural + "." + gdir,
                                       o["metadata"]["name"] + ".yaml"),
                          ydump(o))
    # kinds kvscope does not read, and a repeated node, in one stream
    first_node = next((objs[0] for p, g, objs in res
                       if p == "nodes" and objs), None)
    noise = [{"apiVersion": "apps/v1", "kind": "Deployment",
              "metadata": {"name": "virt-api", "namespace": "kubevirt"},
              "spec": {"replicas": 2}},
             {"apiVersion": "v1", "kind": "ConfigMap",
              "metadata": {"name": "kubevirt-ca", "namespace": "kubevirt"},
              "data": {"ca.crt": "x"}}]
    if first_node:
        noise.append(first_node)
    write(os.path.join(root, "namespaces", "kubevirt", "apps",
                       "mixed.yaml"), ydump_all(noise, True))


def bundle(res, path):
    top = "supportbundle_0e5f_2026-10-31T09-12-44Z/"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        def add(name, text):
            info = zipfile.ZipInfo(top + name, (2026, 10, 31, 9, 12, 44))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text)
        add("metadata.yaml", ydump({"projectName": "harvester",
                                    "bundleVersion": "0.0.1"}))
        add("logs/cattle-system/rancher.log", "starting\n")
        for plural, group, objs in res:
            kind, api = kind_of(objs, plural)
            ver = api.split("/")[-1]
            gpath = (group + "/" if group else "") + ver
            cluster = [o for o in objs
                       if "namespace" not in o.get("metadata", {})]
            if cluster:
                add("yamls/cluster/%s/%s.yaml" % (gpath, plural),
                    ydump({"apiVersion": "v1", "kind": kind + "List",
                           "items": cluster}))
            by_ns = {}
            for o in objs:
                ns = o.get("metadata", {}).get("namespace")
                if ns is not None:
                    by_ns.setdefault(ns, []).append(o)
            for ns, items in sorted(by_ns.items()):
                add("yamls/namespaced/%s/%s/%s.yaml" % (ns, gpath, plural),
                    ydump({"apiVersion": "v1", "kind": kind + "List",
                           "items": items}))


def plain(res, d):
    os.makedirs(d, exist_ok=True)
    for plural, group, objs in res:
        name = plural + ("." + group if group else "")
        if plural == "nodes":
            write(os.path.join(d, name + ".yaml"), ydump_all(objs, False))
        elif plural == "persistentvolumeclaims":
            write(os.path.join(d, name + ".yaml"), ydump_all(objs, True))
        elif plural == "storageclasses":
            write(os.path.join(d, name + ".json"),
                  json.dumps({"apiVersion": "v1", "kind": "List",
                              "items": objs}, indent=4))
        else:
            write(os.path.join(d, name + ".yaml"),
                  ydump({"apiVersion": "v1", "kind": "List", "items": objs,
                         "metadata": {"resourceVersion": ""}}))


def tar_gz(src, path):
    def clean(ti):
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = ""
        ti.mtime = 1793000000
        return ti
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for root, dirs, files in os.walk(src):
            dirs.sort()
            for n in sorted(files):
                p = os.path.join(root, n)
                t.add(p, arcname=os.path.relpath(p, src), filter=clean)
    import gzip
    with open(path, "wb") as f:
        f.write(gzip.compress(buf.getvalue(), mtime=0))


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: gen.py SAMPLE_DIR OUT_DIR")
    res = load_sample(argv[1])
    out = argv[2]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    must_gather(res, os.path.join(out, "must-gather"))
    tar_gz(os.path.join(out, "must-gather"),
           os.path.join(out, "must-gather.tar.gz"))
    must_gather(res, os.path.join(out, "no-pods"), pods=False)
    bundle(res, os.path.join(out, "bundle.zip"))
    plain(res, os.path.join(out, "plain"))


if __name__ == "__main__":
    main(sys.argv)
