#!/usr/bin/env python3
"""mkmetrics.py - give a snapshot directory a Prometheus extract.

    mkmetrics.py DIR NAMESPACE NAME AVG MAX [USED]

Writes resources/vmimetrics.kvscope.io.json (docs/snapshot-format.md)
with one VMIMetrics object for NAMESPACE/NAME: a dirty rate of AVG
average and MAX peak bytes per second, and USED bytes of guest memory
in use when given; lists it in manifest.json with its size and SHA-256.
"""
import hashlib
import json
import os
import sys

d, ns, name, avg, peak = sys.argv[1:6]
item = {"apiVersion": "kvscope.io/v1", "kind": "VMIMetrics",
        "metadata": {"namespace": ns, "name": name},
        "window": {"start": "2026-10-31T08:00:00Z",
                   "end": "2026-10-31T09:00:00Z", "source": "prometheus"},
        "dirtyRateBytesPerSecond": {"avg": int(avg), "max": int(peak)}}
if len(sys.argv) > 6:
    item["memoryUsedBytes"] = int(sys.argv[6])
path = "resources/vmimetrics.kvscope.io.json"
text = json.dumps({"apiVersion": "v1", "kind": "List", "items": [item]})
with open(os.path.join(d, path), "w") as f:
    f.write(text + "\n")
with open(os.path.join(d, "manifest.json")) as f:
    m = json.load(f)
m["resources"].append({"resource": "vmimetrics", "group": "kvscope.io",
                       "file": path, "status": "ok", "count": 1})
with open(os.path.join(d, path), "rb") as f:
    data = f.read()
m["files"].append({"path": path, "bytes": len(data),
                   "sha256": hashlib.sha256(data).hexdigest()})
with open(os.path.join(d, "manifest.json"), "w") as f:
    json.dump(m, f, indent=1)
