#!/usr/bin/env python3
"""A fake API server that pages like kube-apiserver does.

Standard library only; 127.0.0.1 only; it stops by itself after --lifetime
seconds. Where tests/collector/fakekube.py answers as cheaply as it can,
this one behaves like the real server in what a list client pays for:

  * continue tokens as the API server writes them: base64url (no padding)
    of {"v":"meta.k8s.io/v1","rv":N,"start":"<key>\\u0000"}, where key is
    <namespace>/<name> of the last item sent (kubernetes v1.30
    staging/src/k8s.io/apiserver/pkg/storage/continue.go, EncodeContinue);
    pages in key order; remainingItemCount;
  * resourceVersion and resourceVersionMatch validated as the API server
    does (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/
    validation.go, ValidateListOptions): a resourceVersion or a
    resourceVersionMatch beside a continue token is 400, a
    resourceVersionMatch without a resourceVersion is 400;
    resourceVersion=0 is served "from the watch cache": the limit is
    ignored and the whole list comes in one answer;
  * 410 Expired on a continue token older than the last compaction, with an
    inconsistent-continue token in the Status, as etcd3's store answers
    (--compact-after-pages N: one compaction after N pages were served);
  * gzip for answers of 128 KiB and more when the client accepts it
    (apiserver responsewriters/writers.go, defaultGzipThresholdBytes),
    level 1 like the API server;
  * a latency per request (--latency-ms, default 5: admission, etcd);
  * a discovery as large as a real cluster's (--extra-groups N groups of
    CRDs with no objects beside the served ones), aggregated (v2) and
    legacy;
  * optional TLS (--tls: a throw-away self-signed certificate made with
    openssl), since each new kubectl process pays a handshake.

It serves the fixtures of fakekube.py (--flavor) or a snapshot
(--from-snapshot). Every request is appended to --log.
"""

import argparse
import base64
import gzip
import http.server
import json
import os
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakekube  # noqa: E402  (the fixtures, discovery shapes, selectors)

GZIP_THRESHOLD = 128 * 1024
EXPIRED = ("The provided continue parameter is too old to display a "
           "consistent list result. You can start a new list without the "
           "continue parameter, or use the continue token in this response "
           "to retrieve the remainder of the results. Continuing with the "
           "provided token results in an inconsistent list - objects that "
           "were created, modified, or deleted between the time the first "
           "chunk was returned and now may show up in the list.")


class Item:
    """One object: its key, labels and serialized bytes."""
    __slots__ = ("key", "ns", "labels", "raw")

    def __init__(self, ns, name, labels, raw):
        self.key = "%s/%s" % (ns, name) if ns else name
        self.ns, self.labels, self.raw = ns, labels, raw


def items_of(r):
    out = []
    if r.raw is not None:
        for ns, b in r.raw:
            m = json.loads(b).get("metadata", {})
            out.append(Item(ns, m.get("name", ""), m.get("labels") or {}, b))
        r.raw = None
    else:
        for it in r.items:
            m = it["metadata"]
            out.append(Item(m.get("namespace"), m["name"], m.get("labels") or {},
                            json.dumps(it).encode()))
    out.sort(key=lambda i: i.key)
    return out


def encode_continue(rv, key):
    tok = json.dumps({"v": "meta.k8s.io/v1", "rv": rv, "start": key + "\x00"},
                     separators=(",", ":"))
    return base64.urlsafe_b64encode(tok.encode()).decode().rstrip("=")


def decode_continue(s):
    try:
        s += "=" * (-len(s) % 4)
        tok = json.loads(base64.urlsafe_b64decode(s.encode()))
        if tok.get("v") != "meta.k8s.io/v1" or not isinstance(tok.get("rv"), int):
            return None
        return tok
    except (ValueError, TypeError):
        return None


def extra_groups(n):
    """Discovery-only groups of a real cluster (no objects)."""
    out = []
    for i in range(n):
        g = "extra%02d.example.io" % i
        for k in ("Alpha", "Beta", "Gamma", "Delta"):
            r = fakekube.Resource(g, "v1", k.lower() + "s", k, True)
            r.pitems = []
            out.append(r)
    return out


class State:
    def __init__(self, args):
        self.args = args
        if args.from_snapshot:
            res = fakekube.load_snapshot(args.from_snapshot)
        else:
            res = fakekube.build(args.flavor, args.big, args.distro)
        for r in res:
            r.pitems = items_of(r)
        self.resources = res + extra_groups(args.extra_groups)
        self.lock = threading.Lock()
        self.rv = 100000
        self.compacted = 0
        self.pages = 0
        self.logf = open(args.log, "a") if args.log else None

    def log(self, line):
        if self.logf:
            with self.lock:
                self.logf.write(line + "\n")
                self.logf.flush()

    def find(self, group, version, plural):
        for r in self.resources:
            if (r.group, r.version, r.plural) == (group, version, plural):
                return r
        return None

    def groups(self):
        out = {}
        for r in self.resources:
            out.setdefault(r.group, {}).setdefault(r.version, []).append(r)
        return out

    def served_page(self):
        """Count a page; compact once after --compact-after-pages."""
        with self.lock:
            self.pages += 1
            if self.args.compact_after_pages and \
                    self.pages == self.args.compact_after_pages:
                self.rv += 1
                self.compacted = self.rv
                return True
        return False


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "pagingkube/1"

    def log_message(self, fmt, *args):
        pass

    @property
    def st(self):
        return self.server.state

    def send_body(self, code, body, ctype="application/json"):
        time.sleep(self.st.args.latency_ms / 1000.0)
        enc = self.headers.get("Accept-Encoding", "")
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        if len(body) >= GZIP_THRESHOLD and "gzip" in enc:
            body = gzip.compress(body, compresslevel=1)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, code, obj, ctype="application/json"):
        self.send_body(code, json.dumps(obj).encode(), ctype)

    def fail(self, code, reason, message, meta=None):
        s = fakekube.status(code, reason, message)
        if meta:
            s["metadata"] = meta
        self.send_json(code, s)

    def not_found(self):
        self.fail(404, "NotFound", "the server could not find the requested resource")

    def do_GET(self):
        u = urllib.parse.urlsplit(self.path)
        q = {k: v[0] for k, v in urllib.parse.parse_qs(u.query).items()}
        self.st.log("GET %s" % self.path)
        parts = [p for p in u.path.split("/") if p]
        try:
            self.route(parts, q, self.headers.get("Accept", ""))
        except (BrokenPipeError, ConnectionResetError):
            pass

    def route(self, parts, q, accept):
        st = self.st
        agg = "as=APIGroupDiscoveryList" in accept and "v=v2" in accept
        if parts == ["version"]:
            return self.send_json(200, fakekube.KUBE_VERSION)
        if parts == ["api"]:
            if agg:
                return self.send_aggregated([""])
            return self.send_json(200, {"kind": "APIVersions", "versions": ["v1"]})
        if parts == ["apis"]:
            if agg:
                return self.send_aggregated([g for g in st.groups() if g])
            groups = []
            for g, vers in st.groups().items():
                if g:
                    vs = [{"groupVersion": "%s/%s" % (g, v), "version": v} for v in vers]
                    groups.append({"name": g, "versions": vs, "preferredVersion": vs[0]})
            return self.send_json(200, {"kind": "APIGroupList", "apiVersion": "v1",
                                        "groups": groups})
        if parts[:1] == ["api"] and len(parts) == 2:
            return self.send_resource_list("", parts[1])
        if parts[:1] == ["apis"] and len(parts) == 3:
            return self.send_resource_list(parts[1], parts[2])
        if parts[:1] == ["api"] and len(parts) >= 3:
            group, version, rest = "", parts[1], parts[2:]
        elif parts[:1] == ["apis"] and len(parts) >= 4:
            group, version, rest = parts[1], parts[2], parts[3:]
        else:
            return self.not_found()
        ns = None
        if len(rest) >= 3 and rest[0] == "namespaces":
            ns, rest = rest[1], rest[2:]
        r = st.find(group, version, rest[0])
        if r is None or len(rest) > 2:
            return self.not_found()
        if len(rest) == 2:
            for it in r.pitems:
                if it.key.rsplit("/", 1)[-1] == rest[1] and (ns is None or it.ns == ns):
                    return self.send_body(200, it.raw)
            return self.fail(404, "NotFound", '%s "%s" not found' % (r.plural, rest[1]))
        return self.list(r, ns, q)

    def send_aggregated(self, names):
        items = []
        for g in names:
            vers = self.st.groups()[g]
            items.append({"metadata": {"name": g, "creationTimestamp": None},
                          "versions": [{"version": v,
                                        "resources": [fakekube.agg_resource(r) for r in rs],
                                        "freshness": "Current"}
                                       for v, rs in vers.items()]})
        self.send_json(200, {"kind": "APIGroupDiscoveryList",
                             "apiVersion": "apidiscovery.k8s.io/v2",
                             "metadata": {}, "items": items}, ctype=fakekube.AGG_V2)

    def send_resource_list(self, group, version):
        rs = self.st.groups().get(group, {}).get(version)
        if rs is None:
            return self.not_found()
        gv = "%s/%s" % (group, version) if group else version
        self.send_json(200, {"kind": "APIResourceList", "apiVersion": "v1",
                             "groupVersion": gv,
                             "resources": [fakekube.api_resource(r) for r in rs]})

    def list(self, r, ns, q):
        st = self.st
        rv, match, cont = q.get("resourceVersion", ""), q.get("resourceVersionMatch", ""), \
            q.get("continue", "")
        if match and match not in ("Exact", "NotOlderThan"):
            return self.fail(400, "BadRequest", "resourceVersionMatch: Unsupported value: %r" % match)
        if match and cont:
            return self.fail(400, "BadRequest",
                             "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided")
        if match and not rv:
            return self.fail(400, "BadRequest",
                             "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided")
        if cont and rv not in ("", "0"):
            return self.fail(400, "BadRequest",
                             "specifying resource version is not allowed when using continue")
        try:
            limit = int(q.get("limit", "0") or 0)
        except ValueError:
            return self.fail(400, "BadRequest", "limit: Invalid value")
        terms = fakekube.parse_selector(q.get("labelSelector", ""))
        with st.lock:
            now = st.rv
        start, list_rv = "", now
        if cont:
            tok = decode_continue(cont)
            if tok is None:
                return self.fail(400, "BadRequest", "continue key is not valid")
            if tok["rv"] < st.compacted:
                st.log("GONE %s" % r.plural)
                return self.fail(410, "Expired", EXPIRED,
                                 {"continue": encode_continue(-1, tok["start"][:-1])})
            start, list_rv = tok["start"], tok["rv"]
        elif rv == "0" and match != "Exact":
            limit = 0   # served from the watch cache, which does not page
        elif rv:
            try:
                want = int(rv)
            except ValueError:
                return self.fail(400, "BadRequest", "resourceVersion: Invalid value: %r" % rv)
            if want > now:
                return self.fail(504, "Timeout", "Too large resource version: %d, current: %d"
                                 % (want, now))
            if match == "Exact":
                if want < st.compacted:
                    return self.fail(410, "Expired", "The resourceVersion for the provided list is too old.")
                list_rv = want
        sel = [it for it in r.pitems
               if (ns is None or it.ns == ns) and it.key >= start
               and fakekube.matches({"metadata": {"labels": it.labels}}, terms)]
        meta = {"resourceVersion": str(list_rv)}
        out = sel
        if limit and len(sel) > limit:
            out = sel[:limit]
            meta["continue"] = encode_continue(list_rv, out[-1].key)
            meta["remainingItemCount"] = len(sel) - limit
        body = (b'{"kind":"%sList","apiVersion":"%s","metadata":%s,"items":[' % (
            r.kind.encode(), r.gv.encode(), json.dumps(meta).encode())
            + b",".join(it.raw for it in out) + b"]}")
        self.send_body(200, body)
        if st.served_page():
            st.log("COMPACTED")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def tls_context(workdir):
    key, crt = os.path.join(workdir, "key.pem"), os.path.join(workdir, "crt.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                    "-keyout", key, "-out", crt, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(crt, key)
    return ctx


def watch_parent():
    """Stop when the process that started the server is gone (its
    parent becomes another): a test that ends without stopping it leaves
    nothing running."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log")
    ap.add_argument("--flavor", choices=["kubevirt", "deckhouse"], default="kubevirt")
    ap.add_argument("--big", type=int, default=0)
    ap.add_argument("--distro", choices=["", "openshift", "harvester"], default="")
    ap.add_argument("--from-snapshot", default="")
    ap.add_argument("--latency-ms", type=float, default=5)
    ap.add_argument("--extra-groups", type=int, default=40)
    ap.add_argument("--compact-after-pages", type=int, default=0)
    ap.add_argument("--tls", action="store_true")
    ap.add_argument("--lifetime", type=float, default=1800,
                    help="seconds after which the server stops by itself")
    args = ap.parse_args()
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    watch_parent()
    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = State(args)
    scheme = "http"
    if args.tls:
        with tempfile.TemporaryDirectory() as d:
            srv.socket = tls_context(d).wrap_socket(srv.socket, server_side=True)
        scheme = "https"
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %s\n" % (srv.server_address[1], scheme))
    os.rename(tmp, args.port_file)
    try:
        srv.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
