#!/usr/bin/env python3
"""A small fake Kubernetes API server for the kvscope-collect tests.

Standard library only. Plain HTTP on 127.0.0.1 (never another address), on
a free port that it writes to --port-file once it listens. It serves:

  * /version, legacy discovery (/api, /api/v1, /apis, /apis/<g>/<v>) and
    aggregated discovery (apidiscovery.k8s.io/v2) when the client asks for it;
  * list endpoints, cluster-wide and per namespace, with labelSelector and
    limit/continue paging;
  * single objects (kubectl exec fetches the pod first);
  * 403 with a Status object for forbidden resources and for pod exec;
  * a fixture set with secrets planted in it (cloud-init user data, pod
    environment values) so that the tests can check they never leave.

Fault injection for the tests: --forbid, --error-on (always 500),
--fail-once (one 500 or 503), --throttle (one 429 with Retry-After),
--gone-on-continue (410 on the first continue token), --reset-on (the
connection is reset instead of an answer, once), --hang-on (never answers),
--die-on (the server disappears mid-list), --delay-on, --broken-group
(discovery fails for it).  Every request is appended to --log.

Prometheus (the collector's --with-metrics): --prometheus NS/SCHEME:SVC:PORT
names the services whose service-proxy path (/api/v1/namespaces/NS/
services/SCHEME:SVC:PORT/proxy/api/v1/query) answers instant queries with
the canned series of PROM_SERIES; the same answers come from /prom/api/v1/query
(a --prometheus URL).  --prometheus-refuse names services that exist but
answer 503 (no endpoints); any other service is 404.  --prometheus-no-dirty
answers the dirty-rate queries with no series (KubeVirt before v1.6).

--from-snapshot serves the resources of a snapshot (a directory or a
.tar.gz such as tools/gen-large.py writes) instead of the fixtures, kept as
serialized bytes, for the collector benchmark.
"""

import argparse
import base64
import http.server
import json
import os
import socket
import struct
import sys
import tarfile
import threading
import time
import urllib.parse

# Planted secrets.  The tests import these names; they must never reach an
# archive written with redaction on.
CLOUD_PASSWORD = "Sup3r-S3cret-Cl0ud-7731"
B64_PASSWORD = "B64-Hidden-Passw0rd-4410"
NETDATA_SECRET = "NetData-Wifi-Key-5562"
DVP_PASSWORD = "DVP-Pr0v-Secret-8803"
ENV_VALUE = "EnvValue-Tok3n-9f8e7d"
INIT_ENV_VALUE = "InitEnv-Val-5521aa"
NON_LAUNCHER_ENV = "NotALauncher-Pa55-0017"
NON_LAUNCHER_ARG = "NotALauncher-Arg-Pw-6610"
# Canaries in the places issue 21 item 7 found unredacted.
VMI_BEARER = "VmiLabel-Bearer-Canary-2291"
NODE_TOKEN = "NodeLabel-Token-Canary-3382"
NODE_CREDS = "NodeAnn-Creds-Canary-4473"
INIT_ARG = "InitArgs-Passw0rd-Canary-5564"
PV_ATTR = "PvCsiAttr-Passw0rd-Canary-6655"
SC_KEY = "ScParam-Key-Canary-7746"
# Disk image imports: a password in a URL, an Authorization header, a
# signed query (CDI DataVolume templates, CDI's PVC annotations, a DVP
# VirtualDisk, and a condition message that echoes the URL).
IMPORT_PASS = "ImportUrl-Passw0rd-Canary-8837"
IMPORT_HEADER = "ImportHeader-Token-Canary-9928"
PVC_IMPORT_PASS = "PvcImport-Passw0rd-Canary-1039"
PVC_IMPORT_HEADER = "PvcImport-Header-Canary-1140"
VD_SIGNATURE = "VdUrl-Signature-Canary-2140"
# A VMI's probes (a guest command, an HTTP header), its hook sidecar's
# arguments, and Harvester's registry mirror credentials.
PROBE_COMMAND = "ProbeExec-Passw0rd-Canary-3251"
PROBE_HEADER = "ProbeHeader-Bearer-Canary-4362"
HOOK_ARG = "HookSidecar-Arg-Canary-5473"
REGISTRY_PASS = "HarvRegistry-Passw0rd-Canary-6584"
SECRETS = [CLOUD_PASSWORD, B64_PASSWORD, NETDATA_SECRET, DVP_PASSWORD,
           ENV_VALUE, INIT_ENV_VALUE, NON_LAUNCHER_ENV, NON_LAUNCHER_ARG,
           VMI_BEARER, NODE_TOKEN, NODE_CREDS, INIT_ARG, PV_ATTR, SC_KEY,
           IMPORT_PASS, IMPORT_HEADER, PVC_IMPORT_PASS, PVC_IMPORT_HEADER,
           VD_SIGNATURE, PROBE_COMMAND, PROBE_HEADER, HOOK_ARG, REGISTRY_PASS]
# Label values the redaction replaces (the node's token label is also the
# VMI's node selector, so both must get the same marker).
VMI_BEARER_LABEL = "Bearer " + VMI_BEARER

USER_DATA = ("#cloud-config\nuser: admin\npassword: %s\n"
             "chpasswd: {expire: False}\n" % CLOUD_PASSWORD)
USER_DATA_B64 = base64.b64encode(
    ("#cloud-config\npassword: %s\n" % B64_PASSWORD).encode()).decode()
NETWORK_DATA = "version: 2\nwifis: {wlan0: {password: %s}}\n" % NETDATA_SECRET
DVP_USER_DATA = "#cloud-config\npassword: %s\n" % DVP_PASSWORD

KUBE_VERSION = {"major": "1", "minor": "30", "gitVersion": "v1.30.4",
                "gitCommit": "fake", "gitTreeState": "clean",
                "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.22",
                "compiler": "gc", "platform": "linux/amd64"}

AGG_V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

_uid = [0]


def uid():
    _uid[0] += 1
    return "00000000-0000-4000-8000-%012d" % _uid[0]


def meta(name, ns=None, labels=None, annotations=None, **extra):
    m = {"name": name, "uid": uid(), "resourceVersion": str(1000 + _uid[0]),
         "creationTimestamp": "2026-10-01T10:00:00Z",
         "managedFields": [{"manager": "kubectl-client-side-apply",
                            "operation": "Update", "apiVersion": "v1",
                            "fieldsType": "FieldsV1",
                            "fieldsV1": {"f:metadata": {"f:labels": {}}}}]}
    if ns is not None:
        m["namespace"] = ns
    if labels:
        m["labels"] = labels
    if annotations:
        m["annotations"] = annotations
    m.update(extra)
    return m


class Resource:
    def __init__(self, group, version, plural, kind, namespaced, items=None,
                 short=None):
        self.group, self.version, self.plural = group, version, plural
        self.kind, self.namespaced = kind, namespaced
        self.raw = None  # [(namespace, serialized item)] when served from a snapshot
        self.items = items or []
        self.short = short or []
        for it in self.items:
            it.setdefault("apiVersion",
                          "%s/%s" % (group, version) if group else version)
            it.setdefault("kind", kind)

    @property
    def gv(self):
        return "%s/%s" % (self.group, self.version) if self.group else self.version


# --- fixtures ----------------------------------------------------------------

NODES = ["worker-a.corp.example", "worker-b.corp.example",
         "worker-c.corp.example"]
# worker-c's hostname label differs from its node name (short form).
HOSTNAME = {"worker-a.corp.example": "worker-a.corp.example",
            "worker-b.corp.example": "worker-b.corp.example",
            "worker-c.corp.example": "worker-c"}


def node(name, flavor):
    pre = ("node.virtualization.deckhouse.io" if flavor == "deckhouse"
           else "node.kubevirt.io")
    labels = {"kubernetes.io/hostname": HOSTNAME[name],
              "kubernetes.io/os": "linux",
              "cpu-model.%s/Skylake-Server" % pre: "true",
              "cpu-model-migration.%s/Skylake-Server" % pre: "true",
              "cpu-feature.%s/avx512f" % pre: "true",
              "host-model-cpu.%s/Skylake-Server-IBRS" % pre: "true",
              "vault.example.com/token": NODE_TOKEN}
    ann = {"example.com/bmc-credentials": "admin:" + NODE_CREDS,
           "node-labeller.kubevirt.io/skip-node": "false"} if name == NODES[0] else None
    return {"metadata": meta(name, labels=labels, annotations=ann),
            "spec": {"podCIDR": "10.244.0.0/24"},
            "status": {"nodeInfo": {"kernelVersion": "6.8.0-45-generic",
                                    "kubeletVersion": "v1.30.4"},
                       "addresses": [{"type": "Hostname",
                                      "address": HOSTNAME[name]}],
                       "allocatable": dict(ALLOCATABLE)}}


# Extended resources and hugepages: the cut-down and the redaction keep them.
ALLOCATABLE = {"cpu": "32", "memory": "128Gi", "hugepages-1Gi": "16Gi",
               "hugepages-2Mi": "512Mi", "devices.kubevirt.io/kvm": "1k",
               "devices.kubevirt.io/vhost-net": "1k", "nvidia.com/gpu": "2"}


def cloudinit_volumes():
    return [
        {"name": "rootdisk", "persistentVolumeClaim": {"claimName": "payroll-db-disk"}},
        {"name": "cloudinitdisk",
         "cloudInitNoCloud": {"userData": USER_DATA,
                              "networkData": NETWORK_DATA}},
        {"name": "cloudinitdisk2",
         "cloudInitNoCloud": {"userDataSecretRef": {"name": "payroll-db-cloudinit"}}},
        {"name": "sshkeys", "secret": {"secretName": "payroll-db-ssh-keys"}},
    ]


def configdrive_volumes():
    return [
        {"name": "rootdisk", "persistentVolumeClaim": {"claimName": "web-1-disk"}},
        {"name": "cloudinitdisk",
         "cloudInitConfigDrive": {"userDataBase64": USER_DATA_B64}},
    ]


def launcher_pod(name, ns, vm, nodename, label_key, container_env=True):
    env = [{"name": "SECRET_TOKEN", "value": ENV_VALUE},
           {"name": "FROM_SECRET",
            "valueFrom": {"secretKeyRef": {"name": "vm-secret", "key": "k"}}}]
    return {"metadata": meta(name, ns, generateName="virt-launcher-%s-" % vm,
                             annotations={"k8s.v1.cni.cncf.io/resourceName": "intel.com/sriov"},
                             labels={label_key: "virt-launcher",
                                               "vm.kubevirt.io/name": vm,
                                               "kubevirt.io/nodeName": nodename},
                             ownerReferences=[{"apiVersion": "kubevirt.io/v1",
                                               "kind": "VirtualMachineInstance",
                                               "name": vm, "uid": uid(),
                                               "controller": True}]),
            "spec": {"nodeName": nodename,
                     "nodeSelector": {"kubernetes.io/hostname": nodename},
                     "containers": [{"name": "compute",
                                     "image": "quay.io/kubevirt/virt-launcher:v1.9.0",
                                     "command": ["/usr/bin/virt-launcher-monitor", "--qemu-timeout", "321s"],
                                     "resources": {"requests": {"cpu": "100m", "memory": "2294Mi"}},
                                     "env": env if container_env else []}],
                     "initContainers": [{"name": "container-disk-binary",
                                         "image": "quay.io/kubevirt/virt-launcher:v1.9.0",
                                         "args": ["--password", INIT_ARG],
                                         "env": [{"name": "INIT_X",
                                                  "value": INIT_ENV_VALUE}]}]},
            "status": {"phase": "Running",
                       "containerStatuses": [{"name": "compute",
                                              "imageID": "quay.io/kubevirt/virt-launcher@sha256:" + "ab" * 32}]}}


def other_pods(label_key, kv_ns):
    pods = [{"metadata": meta("postgres-0", "payroll-prod", labels={"app": "postgres"},
                              deletionTimestamp="2026-10-01T11:00:00Z"),
             "spec": {"nodeName": NODES[1], "priorityClassName": "db", "priority": 1000,
                      "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                          {"labelSelector": {"matchLabels": {"app": "postgres"}},
                           "topologyKey": "kubernetes.io/hostname"}]}},
                      "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "pg-data"}}],
                      "containers": [{"name": "pg", "image": "postgres:16",
                                      "args": ["--password=" + NON_LAUNCHER_ARG],
                                      "resources": {"requests": {"cpu": "2", "memory": "4Gi"}},
                                      "env": [{"name": "POSTGRES_PASSWORD",
                                               "value": NON_LAUNCHER_ENV}]}]},
             "status": {"phase": "Running", "podIP": "10.0.0.9"}}]
    for i, n in enumerate(NODES):
        pods.append({"metadata": meta("virt-handler-%s" % "xyz"[i], kv_ns,
                                      labels={label_key: "virt-handler"}),
                     "spec": {"nodeName": n,
                              "containers": [{"name": "virt-handler",
                                              "image": "virt-handler:v1.9.0"}]},
                     "status": {"phase": "Running"}})
    # one being deleted: the collector keeps metadata.deletionTimestamp
    pods[-1]["metadata"]["deletionTimestamp"] = "2026-10-31T09:00:00Z"
    return pods


def last_applied(obj):
    return json.dumps(obj, sort_keys=True)


def kubevirt_vms(group):
    vm = {"apiVersion": group + "/v1", "kind": "VirtualMachine",
          "metadata": {"name": "payroll-db", "namespace": "payroll-prod"},
          "spec": {"runStrategy": "Always",
                   "template": {"spec": {"domain": {"cpu": {"model": "host-model"}},
                                         "volumes": cloudinit_volumes()}}}}
    vm1 = json.loads(json.dumps(vm))
    vm1["metadata"] = meta("payroll-db", "payroll-prod", annotations={
        "kubectl.kubernetes.io/last-applied-configuration": last_applied(vm)})
    url = "https://importer:%s@images.example.com/web.qcow2" % IMPORT_PASS
    vm2 = {"metadata": meta("web-1", "web-stage"),
           "spec": {"runStrategy": "Always",
                    "dataVolumeTemplates": [{
                        "metadata": {"name": "web-1-disk"},
                        "spec": {"source": {"http": {
                            "url": url,
                            "extraHeaders": ["Authorization: Basic " + IMPORT_HEADER]}},
                            "storage": {"resources": {"requests": {"storage": "10Gi"}}}}}],
                    "template": {"spec": {"domain": {"cpu": {"model": "Skylake-Server"}},
                                          "volumes": configdrive_volumes()}}}}
    return [vm1, vm2]


def kubevirt_vmis(label_prefix):
    return [
        {"metadata": meta("payroll-db", "payroll-prod",
                          labels={label_prefix + "/nodeName": NODES[0],
                                  "monitoring.example.com/auth": VMI_BEARER_LABEL}),
         "spec": {"domain": {"cpu": {"model": "host-model"}},
                  "nodeSelector": {"vault.example.com/token": NODE_TOKEN,
                                   "kubernetes.io/os": "linux"},
                  "networks": [{"name": "default", "pod": {}}],
                  "volumes": cloudinit_volumes()},
         "status": {"phase": "Running", "nodeName": NODES[0],
                    "conditions": [{"type": "LiveMigratable", "status": "False",
                                    "reason": "DisksNotLiveMigratable",
                                    "message": "cannot migrate VMI: PVC payroll-db-disk is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)"}],
                    "migrationState": {"sourceNode": NODES[2],
                                       "targetNode": NODES[0],
                                       "completed": True}}},
        {"metadata": meta("web-1", "web-stage",
                          labels={label_prefix + "/nodeName": NODES[1]},
                          annotations={"hooks.kubevirt.io/hookSidecars": json.dumps(
                              [{"image": "registry.example/hook:1",
                                "args": ["--password", HOOK_ARG]}])}),
         "spec": {"domain": {"cpu": {"model": "Skylake-Server"}},
                  "readinessProbe": {"exec": {"command": ["check-db", "-p", PROBE_COMMAND]}},
                  "livenessProbe": {"httpGet": {"port": 80, "httpHeaders": [
                      {"name": "Authorization", "value": "Basic " + PROBE_HEADER}]}},
                  "volumes": configdrive_volumes()},
         "status": {"phase": "Running", "nodeName": NODES[1]}},
    ]


# Canned Prometheus series (namespace, name, metric key, value as Prometheus
# writes it). ghost is no VMI of the fixtures: the collector drops it; web-1
# has no dirty rate but a NaN, and its used memory in exponent form.
PROM_SERIES = [
    ("payroll-prod", "payroll-db", "avg", "31457280.4"),
    ("payroll-prod", "payroll-db", "max", "52428800"),
    ("payroll-prod", "payroll-db", "res", "8589934592"),
    ("payroll-prod", "payroll-db", "used", "7516192768"),
    ("web-stage", "web-1", "avg", "NaN"),
    ("web-stage", "web-1", "res", "2147483648"),
    ("web-stage", "web-1", "used", "1.5e9"),
    ("other-ns", "ghost", "avg", "1048576"),
    ("other-ns", "ghost", "res", "1073741824"),
]


def prom_answer(query, at, no_dirty):
    """(HTTP code, body) of an instant query, as Prometheus answers."""
    if query == "vector(1)":
        return 200, {"status": "success", "data": {"resultType": "vector", "result": [
            {"metric": {}, "value": [at, "1"]}]}}
    if "avg_over_time(kubevirt_vmi_dirty_rate_bytes_per_second[" in query:
        key = "avg"
    elif "max_over_time(kubevirt_vmi_dirty_rate_bytes_per_second[" in query:
        key = "max"
    elif "kubevirt_vmi_memory_resident_bytes" in query:
        key = "res"
    elif "kubevirt_vmi_memory_used_bytes" in query:
        key = "used"
    else:
        return 400, {"status": "error", "errorType": "bad_data",
                     "error": "1:1: parse error: unknown query"}
    if no_dirty and key in ("avg", "max"):
        rows = []
    else:
        rows = [{"metric": {"namespace": ns, "name": n}, "value": [at, v]}
                for ns, n, k, v in PROM_SERIES if k == key]
    return 200, {"status": "success", "data": {"resultType": "vector", "result": rows}}


# The launcher pod a migration left (deleted since): its name holds the
# VM's, which --anonymize must not leave.
GONE_POD = "virt-launcher-payroll-db-old99"


def kubevirt_vmims():
    return [{"metadata": meta("payroll-db-migration-abc12", "payroll-prod"),
             "spec": {"vmiName": "payroll-db"},
             "status": {"phase": "Succeeded",
                        "migrationState": {"sourceNode": NODES[2],
                                           "targetNode": NODES[0],
                                           "sourcePod": GONE_POD,
                                           "targetPod": "virt-launcher-payroll-db-q7x2m"}}}]


# --history: the migration history a VMIM and a VMI carry (KubeVirt's
# status.phaseTransitionTimestamps and status.migrationState), and a failed
# migration beside the completed one.
MIGRATION_CONFIG = {"allowAutoConverge": False, "allowPostCopy": False,
                    "bandwidthPerMigration": "64Mi",
                    "completionTimeoutPerGiB": 150,
                    "nodeDrainTaintKey": "kubevirt.io/drain",
                    "parallelMigrationsPerCluster": 5,
                    "parallelOutboundMigrationsPerNode": 2,
                    "progressTimeout": 150}


def history_state(src, dst, start, end, failed=False, reason=None):
    ms = {"startTimestamp": start, "endTimestamp": end,
          "sourceNode": src, "targetNode": dst,
          "targetPod": "virt-launcher-payroll-db-q7x2m",
          "completed": True, "failed": failed, "mode": "PreCopy",
          "migrationUid": uid(), "migrationConfiguration": MIGRATION_CONFIG}
    if reason:
        ms["failureReason"] = reason
    return ms


def add_history(resources):
    """The VMIMs and the VMI of payroll-db get their history."""
    phases = ["Pending", "Scheduling", "Scheduled", "PreparingTarget",
              "TargetReady", "Running", "Succeeded"]
    for r in resources:
        if r.plural == "virtualmachineinstancemigrations":
            done = r.items[0]
            done["status"]["phaseTransitionTimestamps"] = [
                {"phase": p, "phaseTransitionTimestamp": "2026-09-21T13:50:%02dZ" % (i * 2)}
                for i, p in enumerate(phases)]
            done["status"]["migrationState"] = history_state(
                NODES[2], NODES[0], "2026-09-21T13:50:06Z", "2026-09-21T13:50:16Z")
            failed = {"apiVersion": done["apiVersion"], "kind": done["kind"],
                      "metadata": meta("payroll-db-migration-f41d9", "payroll-prod"),
                      "spec": {"vmiName": "payroll-db"},
                      "status": {"phase": "Failed",
                                 "phaseTransitionTimestamps": [
                                     {"phase": "Pending",
                                      "phaseTransitionTimestamp": "2026-09-21T12:00:00Z"},
                                     {"phase": "Running",
                                      "phaseTransitionTimestamp": "2026-09-21T12:00:05Z"},
                                     {"phase": "Failed",
                                      "phaseTransitionTimestamp": "2026-09-21T12:05:05Z"}],
                                 "migrationState": history_state(
                                     NODES[0], NODES[1], "2026-09-21T12:00:05Z",
                                     "2026-09-21T12:05:05Z", True,
                                     "Live migration of payroll-db to worker-b.corp.example "
                                     "aborted: progress timeout 150 s")}}
            r.items.append(failed)
        if r.plural == "virtualmachineinstances" and r.group == "kubevirt.io":
            r.items[0]["status"]["migrationState"] = history_state(
                NODES[2], NODES[0], "2026-09-21T13:50:06Z", "2026-09-21T13:50:16Z")


def core_resources(flavor, big):
    label_key = ("kubevirt.internal.virtualization.deckhouse.io"
                 if flavor == "deckhouse" else "kubevirt.io")
    kv_ns = "d8-virtualization" if flavor == "deckhouse" else "kubevirt"
    namespaces = ["default", "kube-system", kv_ns, "payroll-prod", "web-stage"]
    if big:
        namespaces.append("bulk")
    pods = [launcher_pod("virt-launcher-payroll-db-q7x2m", "payroll-prod",
                         "payroll-db", NODES[0], label_key),
            launcher_pod("virt-launcher-web-1-h8k4p", "web-stage", "web-1",
                         NODES[1], label_key)]
    pods += other_pods(label_key, kv_ns)
    pvcs = [{"metadata": meta("payroll-db-disk", "payroll-prod", annotations={
                "cdi.kubevirt.io/storage.import.endpoint":
                    "https://backup:%s@images.example.com/db.img" % PVC_IMPORT_PASS,
                "cdi.kubevirt.io/storage.import.extraHeaders": "X-Auth: " + PVC_IMPORT_HEADER,
                "cdi.kubevirt.io/storage.import.source": "http"}),
             "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "local-path",
                      "volumeName": "pvc-11111111", "volumeMode": "Filesystem"},
             "status": {"phase": "Bound", "capacity": {"storage": "20Gi"}}},
            {"metadata": meta("web-1-disk", "web-stage"),
             "spec": {"accessModes": ["ReadWriteMany"], "storageClassName": "ceph-rbd",
                      "volumeName": "pvc-22222222", "volumeMode": "Block"},
             "status": {"phase": "Bound", "capacity": {"storage": "10Gi"}}}]
    for i in range(big):
        pvcs.append({"metadata": meta("bulk-pvc-%05d" % i, "bulk"),
                     "spec": {"accessModes": ["ReadWriteOnce"],
                              "storageClassName": "local-path"},
                     "status": {"phase": "Pending"}})
    pvs = [{"metadata": meta("pvc-11111111"),
            "spec": {"claimRef": {"namespace": "payroll-prod", "name": "payroll-db-disk"},
                     "csi": {"driver": "rbd.csi.ceph.com", "volumeHandle": "0001-rbd-11111111",
                             "volumeAttributes": {"pool": "rbd", "password": PV_ATTR},
                             "nodeStageSecretRef": {"name": "csi-rbd-secret",
                                                    "namespace": "ceph-csi"}},
                     "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                         {"key": "kubernetes.io/hostname", "operator": "In",
                          "values": [HOSTNAME[NODES[2]]]}]}]}}}}]
    return [
        Resource("", "v1", "nodes", "Node", False, [node(n, flavor) for n in NODES], ["no"]),
        Resource("", "v1", "namespaces", "Namespace", False,
                 [{"metadata": meta(n, labels={"kubernetes.io/metadata.name": n})}
                  for n in namespaces], ["ns"]),
        Resource("", "v1", "pods", "Pod", True, pods, ["po"]),
        Resource("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", True, pvcs, ["pvc"]),
        Resource("", "v1", "persistentvolumes", "PersistentVolume", False, pvs, ["pv"]),
        Resource("", "v1", "configmaps", "ConfigMap", True,
                 [{"metadata": meta("app-config", "payroll-prod"),
                   "data": {"db-password": "ConfigMap-Never-Collected"}}], ["cm"]),
        Resource("storage.k8s.io", "v1", "storageclasses", "StorageClass", False,
                 [{"metadata": meta("local-path"), "provisioner": "rancher.io/local-path",
                   "volumeBindingMode": "WaitForFirstConsumer",
                   "parameters": {"local.csi.storage.deckhouse.io/lvm-type": "Thick",
                                  "encryptionKey": SC_KEY}},
                  {"metadata": meta("ceph-rbd"), "provisioner": "rbd.csi.ceph.com",
                   "volumeBindingMode": "Immediate"}], ["sc"]),
    ]


def kubevirt_resources():
    return [
        Resource("kubevirt.io", "v1", "virtualmachineinstances", "VirtualMachineInstance",
                 True, kubevirt_vmis("kubevirt.io"), ["vmi"]),
        Resource("kubevirt.io", "v1", "virtualmachines", "VirtualMachine", True,
                 kubevirt_vms("kubevirt.io"), ["vm"]),
        Resource("kubevirt.io", "v1", "virtualmachineinstancemigrations",
                 "VirtualMachineInstanceMigration", True, kubevirt_vmims(), ["vmim"]),
        Resource("kubevirt.io", "v1", "kubevirts", "KubeVirt", True,
                 [{"metadata": meta("kubevirt", "kubevirt"),
                   "spec": {"configuration": {"migrations": {"bandwidthPerMigration": "64Mi"}}},
                   "status": {"phase": "Deployed", "observedKubeVirtVersion": "v1.9.0",
                              "operatorVersion": "v1.9.0"}}], ["kv"]),
        Resource("migrations.kubevirt.io", "v1alpha1", "migrationpolicies", "MigrationPolicy",
                 False, [{"metadata": meta("payroll-slow"),
                          "spec": {"allowAutoConverge": True,
                                   "selectors": {"namespaceSelector": {"kubernetes.io/metadata.name": "payroll-prod"}}}}]),
        # cdi.kubevirt.io is deliberately missing: a missing API group.
    ]


def deckhouse_resources():
    ig = "internal.virtualization.deckhouse.io"
    dg = "virtualization.deckhouse.io"
    vd_url = ("https://bucket.s3.example.com/root.img?X-Amz-Expires=600&"
              "X-Amz-Signature=" + VD_SIGNATURE)
    vm = {"metadata": meta("payroll-db", "payroll-prod"),
          "spec": {"virtualMachineClassName": "generic", "runPolicy": "AlwaysOn",
                   "liveMigrationPolicy": "PreferSafe",
                   "provisioning": {"type": "UserData", "userData": DVP_USER_DATA},
                   "blockDeviceRefs": [{"kind": "VirtualDisk", "name": "payroll-db-root"}]},
          "status": {"phase": "Running", "nodeName": NODES[0],
                     "migrationState": {"source": {"node": NODES[2]},
                                        "target": {"node": NODES[0]},
                                        "result": "Succeeded"}}}
    return [
        Resource(dg, "v1alpha2", "virtualmachines", "VirtualMachine", True, [vm], ["vm"]),
        Resource(dg, "v1alpha2", "virtualmachineclasses", "VirtualMachineClass", False,
                 [{"metadata": meta("generic"),
                   "spec": {"cpu": {"type": "Model", "model": "Skylake-Server"}}}], ["vmclass"]),
        Resource(dg, "v1alpha2", "virtualdisks", "VirtualDisk", True,
                 [{"metadata": meta("payroll-db-root", "payroll-prod"),
                   "spec": {"dataSource": {"type": "HTTP", "http": {"url": vd_url}}},
                   "status": {"target": {"persistentVolumeClaimName": "payroll-db-disk"},
                              "conditions": [{"type": "Ready", "status": "False",
                                              "message": "importing " + vd_url}]}}], ["vd"]),
        Resource(dg, "v1alpha2", "virtualmachineoperations", "VirtualMachineOperation", True,
                 [{"metadata": meta("evacuation-payroll-db-x1", "payroll-prod"),
                   "spec": {"type": "Evict", "virtualMachineName": "payroll-db"},
                   "status": {"phase": "Completed"}}], ["vmop"]),
        Resource(dg, "v1alpha2", "virtualmachineblockdeviceattachments",
                 "VirtualMachineBlockDeviceAttachment", True, [], ["vmbda"]),
        Resource(ig, "v1", "internalvirtualizationvirtualmachineinstances",
                 "InternalVirtualizationVirtualMachineInstance", True,
                 kubevirt_vmis("kubevirt.internal.virtualization.deckhouse.io"), ["intvirtvmi"]),
        Resource(ig, "v1", "internalvirtualizationvirtualmachines",
                 "InternalVirtualizationVirtualMachine", True,
                 [{"metadata": meta("payroll-db", "payroll-prod", annotations={
                     "virtualization.deckhouse.io/migration-node-affinity-terms":
                         '[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["%s"]}]}]' % NODES[1],
                     "example.com/deploy-notes": "owner admin " + NODE_CREDS}),
                   "spec": {"runStrategy": "Always",
                            "template": {"spec": {"volumes": cloudinit_volumes()}}},
                   "status": {"printableStatus": "Running"}}], ["intvirtvm"]),
        Resource(ig, "v1", "internalvirtualizationvirtualmachineinstancemigrations",
                 "InternalVirtualizationVirtualMachineInstanceMigration", True,
                 [{"metadata": meta("vmop-evacuation-payroll-db-x1", "payroll-prod"),
                   "spec": {"vmiName": "payroll-db"},
                   "status": {"phase": "Succeeded",
                              "migrationState": {"sourceNode": NODES[2],
                                                 "targetNode": NODES[0]}}}], ["intvirtvmim"]),
        Resource(ig, "v1", "internalvirtualizationkubevirts", "InternalVirtualizationKubeVirt",
                 True, [{"metadata": meta("config", "d8-virtualization"),
                         "status": {"phase": "Deployed",
                                    "observedKubeVirtVersion": "v1.6.2-v12n.92"}}]),
    ]


def json_docs(text):
    """The JSON values of a file: one list or object, or a stream of
    objects (one a line, as a snapshot may hold them)."""
    dec, out, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)


def load_snapshot(path):
    """The resources of a snapshot, each item kept as serialized bytes."""
    files = {}
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for n in names:
                if "/resources/" in os.path.join(root, n) + "/" or root.endswith("resources"):
                    files[n] = lambda p=os.path.join(root, n): open(p, "rb").read()
    else:
        tf = tarfile.open(path, "r:*")
        for m in tf:
            if m.isfile() and "/resources/" in m.name:
                files[os.path.basename(m.name)] = (lambda m=m: tf.extractfile(m).read())
    out = []
    for fname in sorted(files):
        if not fname.endswith(".json"):
            continue
        plural, _, group = fname[:-len(".json")].partition(".")
        doc = json_docs(files[fname]().decode())
        if len(doc) == 1 and isinstance(doc[0], list):
            items = doc[0]
        elif len(doc) == 1 and isinstance(doc[0], dict) and "items" in doc[0]:
            items = doc[0]["items"]
        else:
            items = doc
        first = items[0] if items else {}
        gv = first.get("apiVersion", "v1")
        version = gv.rsplit("/", 1)[-1]
        kind = first.get("kind") or plural.capitalize()
        namespaced = any("namespace" in it.get("metadata", {}) for it in items)
        r = Resource(group, version, plural, kind, namespaced)
        r.raw = [(it.get("metadata", {}).get("namespace"), json.dumps(it).encode())
                 for it in items]
        del doc, items
        out.append(r)
    return out


# A private key in a Harvester setting: replaced by the redaction.
HARVESTER_KEY = "-----BEGIN PRIVATE KEY-----\nHarvKey-Canary-8817\n-----END PRIVATE KEY-----"


def distro_resources(distro):
    """The version objects of a distribution: OpenShift Virtualization's
    HyperConverged CR, Harvester's settings and version object."""
    if distro == "openshift":
        return [Resource("hco.kubevirt.io", "v1beta1", "hyperconvergeds", "HyperConverged",
                         True, [{"metadata": meta("kubevirt-hyperconverged", "openshift-cnv"),
                                 "spec": {"liveMigrationConfig": {"parallelMigrationsPerCluster": 5,
                                                                  "completionTimeoutPerGiB": 150},
                                          "workloadUpdateStrategy": {"workloadUpdateMethods": ["LiveMigrate"]}},
                                 "status": {"versions": [{"name": "operator", "version": "4.16.3"}]}}])]
    if distro == "harvester":
        return [Resource("harvesterhci.io", "v1beta1", "settings", "Setting", False,
                         [{"metadata": meta("server-version"), "value": "v1.3.1"},
                          {"metadata": meta("overcommit-config"),
                           "default": '{"cpu":1600,"memory":150,"storage":200}'},
                          {"metadata": meta("ssl-certificates"),
                           "value": '{"privateKey":"%s"}' % HARVESTER_KEY.replace("\n", "\\n")},
                          {"metadata": meta("containerd-registry"),
                           "value": json.dumps({"Configs": {"registry.example": {"Auth": {
                               "Username": "mirror", "Password": REGISTRY_PASS}}}})}]),
                Resource("harvesterhci.io", "v1beta1", "versions", "Version", True,
                         [{"metadata": meta("v1.3.1", "harvester-system"),
                           "spec": {"isoURL": "https://releases.example/v1.3.1/harvester.iso",
                                    "minUpgradableVersion": "v1.2.1"}}])]
    return []


def build(flavor, big, distro=""):
    res = core_resources(flavor, big)
    res += deckhouse_resources() if flavor == "deckhouse" else kubevirt_resources()
    return res + distro_resources(distro)


# --- selectors ---------------------------------------------------------------

def parse_selector(s):
    """Equality, inequality and existence terms, plus 'in'/'notin' sets."""
    terms = []
    if not s:
        return terms
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for p in parts:
        p = p.strip()
        if " notin " in p or " in " in p:
            op = "notin" if " notin " in p else "in"
            k, v = p.split(" %s " % op, 1)
            vals = [x.strip() for x in v.strip()[1:-1].split(",")]
            terms.append((k.strip(), op, vals))
        elif "!=" in p:
            k, v = p.split("!=", 1)
            terms.append((k, "!=", v))
        elif "==" in p:
            k, v = p.split("==", 1)
            terms.append((k, "=", v))
        elif "=" in p:
            k, v = p.split("=", 1)
            terms.append((k, "=", v))
        elif p.startswith("!"):
            terms.append((p[1:], "!exists", None))
        else:
            terms.append((p, "exists", None))
    return terms


def matches(obj, terms):
    labels = obj.get("metadata", {}).get("labels") or {}
    for k, op, v in terms:
        have = labels.get(k)
        if op == "=" and have != v:
            return False
        if op == "!=" and have == v:
            return False
        if op == "exists" and k not in labels:
            return False
        if op == "!exists" and k in labels:
            return False
        if op == "in" and have not in v:
            return False
        if op == "notin" and have in v:
            return False
    return True


# --- server ------------------------------------------------------------------

class State:
    def __init__(self, args):
        self.args = args
        self.resources = build(args.flavor, args.big, args.distro)
        self.forbid = set(filter(None, args.forbid.split(",")))
        self.error_on = set(filter(None, args.error_on.split(",")))
        self.die_on = None
        if args.die_on:
            r, _, page = args.die_on.partition(":")
            self.die_on = (r, int(page or 1))
        self.delay_on = {}
        for d in filter(None, args.delay_on.split(",")):
            r, _, sec = d.partition(":")
            self.delay_on[r] = float(sec or 5)
        self.broken_groups = set(filter(None, args.broken_group.split(",")))
        self.fail_once = {}
        for d in filter(None, args.fail_once.split(",")):
            r, _, code = d.partition(":")
            self.fail_once[r] = int(code or 500)
        self.throttle = {}
        for d in filter(None, args.throttle.split(",")):
            r, _, sec = d.partition(":")
            self.throttle[r] = int(sec or 1)
        self.throttled_at = {}
        self.gone = set(filter(None, args.gone_on_continue.split(",")))
        self.generation = {}
        self.reset = set(filter(None, args.reset_on.split(",")))
        self.hang = set(filter(None, args.hang_on.split(",")))
        self.garbage = set(filter(None, args.garbage_on.split(",")))
        self.once_lock = threading.Lock()
        if args.from_snapshot:
            self.resources = load_snapshot(args.from_snapshot)
        if args.history:
            add_history(self.resources)
        # the namespaces of the Prometheus services
        prom_ns = sorted({sid.split("/")[0] for sid in
                          (args.prometheus + "," + args.prometheus_refuse).split(",") if sid})
        nsr = self.find("", "v1", "namespaces")
        for n in prom_ns:
            if nsr is not None and all(it["metadata"]["name"] != n for it in nsr.items):
                nsr.items.append({"apiVersion": "v1", "kind": "Namespace",
                                  "metadata": meta(n, labels={"kubernetes.io/metadata.name": n})})
        self.log_lock = threading.Lock()
        self.logf = open(args.log, "a") if args.log else None
        self.pages = {}

    def log(self, line):
        if self.logf:
            with self.log_lock:
                self.logf.write(line + "\n")
                self.logf.flush()

    def find(self, group, version, plural):
        for r in self.resources:
            if r.group == group and r.version == version and r.plural == plural:
                return r
        return None

    def groups(self):
        out = {}
        for r in self.resources:
            out.setdefault(r.group, {}).setdefault(r.version, []).append(r)
        return out


def status(code, reason, message, details=None):
    s = {"kind": "Status", "apiVersion": "v1", "metadata": {},
         "status": "Failure", "message": message, "reason": reason, "code": code}
    if details:
        s["details"] = details
    return s


def api_resource(r):
    verbs = ["get", "list", "watch", "create", "update", "patch", "delete"]
    d = {"name": r.plural, "singularName": r.kind.lower(), "namespaced": r.namespaced,
         "kind": r.kind, "verbs": verbs}
    if r.short:
        d["shortNames"] = r.short
    return d


def agg_resource(r):
    d = {"resource": r.plural,
         "responseKind": {"group": "", "version": "", "kind": r.kind},
         "scope": "Namespaced" if r.namespaced else "Cluster",
         "singularResource": r.kind.lower(),
         "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"]}
    if r.short:
        d["shortNames"] = r.short
    return d


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fakekube/1"

    def log_message(self, fmt, *args):
        pass

    @property
    def st(self):
        return self.server.state

    def send_json(self, code, obj, ctype="application/json"):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.handle_any()

    def do_GET(self):
        self.handle_any()

    def handle_any(self):
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query)
        self.st.log("%s %s" % (self.command, self.path))
        if "ALL" in self.st.hang:
            self.st.log("HANG")
            time.sleep(3600)
            return
        parts = [p for p in u.path.split("/") if p]
        accept = self.headers.get("Accept", "")
        try:
            self.route(parts, q, accept)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def prometheus(self, parts, q):
        """A service-proxy path (api v1 namespaces NS services SVC proxy
        ...) or /prom/...: the canned Prometheus."""
        args = self.st.args
        if parts[0] != "prom":
            ns, svc, rest = parts[3], parts[5], parts[7:]
            sid = "%s/%s" % (ns, svc)
            if sid in set(filter(None, args.prometheus_refuse.split(","))):
                return self.send_json(503, status(
                    503, "ServiceUnavailable",
                    'no endpoints available for service "%s"' % svc))
            if sid not in set(filter(None, args.prometheus.split(","))):
                name = svc.split(":")[1] if svc.count(":") == 2 else svc
                return self.send_json(404, status(
                    404, "NotFound", 'services "%s" not found' % name,
                    {"name": name, "kind": "services"}))
        else:
            rest = parts[1:]
        if rest != ["api", "v1", "query"]:
            return self.send_json(404, {"status": "error", "errorType": "not_found",
                                        "error": "no such endpoint"})
        at = float(q.get("time", ["0"])[0])
        code, body = prom_answer(q.get("query", [""])[0], at, args.prometheus_no_dirty)
        self.send_json(code, body)

    def route(self, parts, q, accept):
        st = self.st
        if (len(parts) >= 7 and parts[:3] == ["api", "v1", "namespaces"]
                and parts[4] == "services" and parts[6] == "proxy") \
                or parts[:1] == ["prom"]:
            return self.prometheus(parts, q)
        if parts == ["version"]:
            return self.send_json(200, KUBE_VERSION)
        if parts == ["api"]:
            if self.wants_aggregated(accept):
                return self.send_aggregated([""])
            return self.send_json(200, {"kind": "APIVersions", "versions": ["v1"],
                                        "serverAddressByClientCIDRs": [
                                            {"clientCIDR": "0.0.0.0/0",
                                             "serverAddress": self.server_address_str()}]})
        if parts == ["apis"]:
            if self.wants_aggregated(accept):
                return self.send_aggregated([g for g in st.groups() if g])
            groups = []
            for g, vers in st.groups().items():
                if not g:
                    continue
                vs = [{"groupVersion": "%s/%s" % (g, v), "version": v} for v in vers]
                groups.append({"name": g, "versions": vs, "preferredVersion": vs[0]})
            return self.send_json(200, {"kind": "APIGroupList", "apiVersion": "v1",
                                        "groups": groups})
        # /api/v1 or /apis/<g>/<v>: resource list
        if parts[:1] == ["api"] and len(parts) == 2:
            return self.send_resource_list("", parts[1])
        if parts[:1] == ["apis"] and len(parts) == 3:
            return self.send_resource_list(parts[1], parts[2])
        if parts[:1] == ["apis"] and len(parts) == 2:
            g = st.groups().get(parts[1])
            if g is None:
                return self.send_json(404, status(404, "NotFound", "the server could not find the requested resource"))
            vs = [{"groupVersion": "%s/%s" % (parts[1], v), "version": v} for v in g]
            return self.send_json(200, {"kind": "APIGroup", "apiVersion": "v1",
                                        "name": parts[1], "versions": vs,
                                        "preferredVersion": vs[0]})
        # object paths
        if parts[:1] == ["api"]:
            group, version, rest = "", parts[1], parts[2:]
        elif parts[:1] == ["apis"] and len(parts) >= 3:
            group, version, rest = parts[1], parts[2], parts[3:]
        else:
            return self.not_found()
        ns = None
        if len(rest) >= 3 and rest[0] == "namespaces":
            ns, rest = rest[1], rest[2:]
        if not rest:
            return self.not_found()
        r = st.find(group, version, rest[0])
        if r is None:
            return self.not_found()
        if len(rest) == 1:
            return self.list(r, ns, q)
        name = rest[1]
        if len(rest) == 3 and rest[2] == "exec" and r.plural == "pods":
            return self.exec_(ns, name)
        for it in r.items:
            m = it["metadata"]
            if m["name"] == name and (ns is None or m.get("namespace") == ns):
                return self.send_json(200, it)
        return self.send_json(404, status(404, "NotFound", '%s "%s" not found' % (r.plural, name),
                                          {"name": name, "kind": r.plural}))

    def server_address_str(self):
        return "127.0.0.1:%d" % self.server.server_address[1]

    def wants_aggregated(self, accept):
        return (not self.st.args.no_aggregated) and "as=APIGroupDiscoveryList" in accept \
            and "v=v2;" in accept.replace(" ", "") + ";"

    def send_aggregated(self, names):
        items = []
        for g in names:
            vers = self.st.groups()[g]
            items.append({"metadata": {"name": g, "creationTimestamp": None},
                          "versions": [{"version": v,
                                        "resources": [agg_resource(r) for r in rs],
                                        "freshness": "Current"}
                                       for v, rs in vers.items()]})
        self.send_json(200, {"kind": "APIGroupDiscoveryList",
                             "apiVersion": "apidiscovery.k8s.io/v2",
                             "metadata": {}, "items": items}, ctype=AGG_V2)

    def send_resource_list(self, group, version):
        rs = self.st.groups().get(group, {}).get(version)
        if rs is None:
            return self.not_found()
        if group in self.st.broken_groups:
            return self.send_json(503, status(503, "ServiceUnavailable",
                                              "the server is currently unable to handle the request"))
        gv = "%s/%s" % (group, version) if group else version
        self.send_json(200, {"kind": "APIResourceList", "apiVersion": "v1",
                             "groupVersion": gv,
                             "resources": [api_resource(r) for r in rs]})

    def not_found(self):
        self.send_json(404, status(404, "NotFound",
                                   "the server could not find the requested resource"))

    def exec_(self, ns, name):
        mode = self.st.args.exec
        if mode == "forbid":
            return self.send_json(403, status(
                403, "Forbidden",
                'pods "%s" is forbidden: User "support" cannot create resource '
                '"pods/exec" in API group "" in the namespace "%s"' % (name, ns),
                {"name": name, "kind": "pods"}))
        return self.send_json(400, status(400, "BadRequest",
                                          "exec is not supported by this fake server"))

    def list(self, r, ns, q):
        st = self.st
        key = r.plural if not r.group else "%s.%s" % (r.plural, r.group)
        if key in st.forbid or r.plural in st.forbid:
            where = ('in the namespace "%s"' % ns) if ns else "at the cluster scope"
            grp = r.group
            return self.send_json(403, status(
                403, "Forbidden",
                '%s is forbidden: User "support" cannot list resource "%s" in API group "%s" %s'
                % (key, r.plural, grp, where), {"kind": r.plural, "group": grp}))
        if key in st.error_on or r.plural in st.error_on:
            return self.send_json(500, status(500, "InternalError",
                                              "Internal error occurred: etcdserver: request timed out"))
        if key in st.delay_on or r.plural in st.delay_on:
            time.sleep(st.delay_on.get(key, st.delay_on.get(r.plural)))
        if key in st.garbage or r.plural in st.garbage:
            body = b"<html>proxy error</html>"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if key in st.hang or r.plural in st.hang:
            st.log("HANG %s" % key)
            time.sleep(3600)
            return
        with st.once_lock:
            k = key if key in st.fail_once else r.plural
            code = st.fail_once.pop(k, None)
            k = key if key in st.throttle else r.plural
            wait = st.throttle.pop(k, None)
            k = key if key in st.reset else r.plural
            reset = k in st.reset
            st.reset.discard(k)
            # 410: the first continue token, and every token issued before
            # it, is too old (as after a compaction); later ones are fine
            k = key if key in st.gone else r.plural
            gone = False
            if k in st.gone and q.get("continue"):
                try:
                    g = json.loads(base64.b64decode(q["continue"][0])).get("g", 0)
                except Exception:
                    g = 0
                gone = g < 1
                st.generation[key] = 1
            if key in st.throttled_at:
                st.log("AFTER-429 %s %.2f" % (key, time.time() - st.throttled_at.pop(key)))
        if code:
            st.log("FAIL-ONCE %s %d" % (key, code))
            reason = {500: "InternalError", 503: "ServiceUnavailable"}.get(code, "InternalError")
            return self.send_json(code, status(code, reason,
                                               "Internal error occurred: etcdserver: leader changed"))
        if wait:
            st.log("429 %s" % key)
            st.throttled_at[key] = time.time()
            body = json.dumps(status(429, "TooManyRequests", "Too many requests, please try again later.",
                                     {"retryAfterSeconds": wait})).encode()
            self.send_response(429)
            self.send_header("Content-Type", "application/json")
            self.send_header("Retry-After", str(wait))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if reset:
            st.log("RESET %s" % key)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        if gone:
            st.log("GONE %s" % key)
            return self.send_json(410, status(410, "Expired",
                                              "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter."))
        if r.raw is not None:
            return self.list_raw(r, ns, q)
        items = [it for it in r.items
                 if ns is None or it["metadata"].get("namespace") == ns]
        items = [it for it in items
                 if matches(it, parse_selector(q.get("labelSelector", [""])[0]))]
        items.sort(key=lambda it: (it["metadata"].get("namespace", ""), it["metadata"]["name"]))
        offset = 0
        if q.get("continue"):
            try:
                offset = json.loads(base64.b64decode(q["continue"][0]))["o"]
            except Exception:
                return self.send_json(400, status(400, "BadRequest", "invalid continue token"))
        limit = int(q.get("limit", ["0"])[0] or 0)
        page = offset // limit + 1 if limit else 1
        if st.die_on and (key == st.die_on[0] or r.plural == st.die_on[0]) \
                and page >= st.die_on[1]:
            self.vanish()
            return
        meta_ = {"resourceVersion": "5000"}
        if limit and offset + limit < len(items):
            out = items[offset:offset + limit]
            tok = {"o": offset + limit}
            if st.generation.get(key):
                tok["g"] = st.generation[key]
            meta_["continue"] = base64.b64encode(json.dumps(tok).encode()).decode()
            meta_["remainingItemCount"] = len(items) - offset - limit
        else:
            out = items[offset:]
        self.send_json(200, {"kind": r.kind + "List", "apiVersion": r.gv,
                             "metadata": meta_, "items": out})

    def list_raw(self, r, ns, q):
        items = [b for n, b in r.raw if ns is None or n == ns]
        offset = 0
        if q.get("continue"):
            offset = json.loads(base64.b64decode(q["continue"][0]))["o"]
        limit = int(q.get("limit", ["0"])[0] or 0)
        meta_ = {"resourceVersion": "5000"}
        if limit and offset + limit < len(items):
            out = items[offset:offset + limit]
            meta_["continue"] = base64.b64encode(json.dumps({"o": offset + limit}).encode()).decode()
            meta_["remainingItemCount"] = len(items) - offset - limit
        else:
            out = items[offset:]
        body = (b'{"kind":"%sList","apiVersion":"%s","metadata":%s,"items":[' % (
            r.kind.encode(), r.gv.encode(), json.dumps(meta_).encode())
            + b",".join(out) + b"]}")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def vanish(self):
        """The server goes away: drop this connection and stop listening."""
        self.st.log("VANISH")
        try:
            self.server.socket.close()
        except OSError:
            pass
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        os._exit(0)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


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
    ap.add_argument("--distro", choices=["", "openshift", "harvester"], default="",
                    help="also serve that distribution's version objects")
    ap.add_argument("--big", type=int, default=0,
                    help="add this many PVCs in namespace 'bulk'")
    ap.add_argument("--forbid", default="persistentvolumes",
                    help="comma list of resources that answer 403 ('' for none)")
    ap.add_argument("--error-on", default="", help="resources that answer 500")
    ap.add_argument("--die-on", default="",
                    help="RESOURCE[:PAGE]: vanish when that page is asked for")
    ap.add_argument("--delay-on", default="", help="RESOURCE:SECONDS,...")
    ap.add_argument("--fail-once", default="", help="RESOURCE[:CODE],...: one 500 (or CODE)")
    ap.add_argument("--throttle", default="", help="RESOURCE[:SECONDS],...: one 429 with Retry-After")
    ap.add_argument("--gone-on-continue", default="", help="resources whose first continue gets 410")
    ap.add_argument("--reset-on", default="", help="resources whose first list is a connection reset")
    ap.add_argument("--garbage-on", default="", help="resources that answer 200 with no JSON")
    ap.add_argument("--hang-on", default="", help="resources that never answer (ALL: every request)")
    ap.add_argument("--from-snapshot", default="", help="serve this snapshot (directory or .tar.gz)")
    ap.add_argument("--exec", choices=["forbid", "fail"], default="fail")
    ap.add_argument("--no-aggregated", action="store_true",
                    help="serve only legacy discovery")
    ap.add_argument("--broken-group", default="",
                    help="groups whose legacy discovery answers 503 (with --no-aggregated)")
    ap.add_argument("--history", action="store_true",
                    help="VMIMs and the VMI with their migration history")
    ap.add_argument("--prometheus", default="",
                    help="NS/SCHEME:SVC:PORT,...: services that answer as Prometheus")
    ap.add_argument("--prometheus-refuse", default="",
                    help="NS/SCHEME:SVC:PORT,...: services that answer 503")
    ap.add_argument("--prometheus-no-dirty", action="store_true",
                    help="no series of kubevirt_vmi_dirty_rate_bytes_per_second")
    ap.add_argument("--lifetime", type=float, default=1800,
                    help="seconds after which the server stops by itself")
    args = ap.parse_args()
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    watch_parent()
    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = State(args)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, args.port_file)
    try:
        srv.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
