#!/usr/bin/env python3
"""Assertions on `helm template` output that schema validation cannot make.

Usage: assert_manifests.py CHART SCENARIO RENDERED.yaml
SCENARIO is one of: default, all-on, existing-secret, import-pvc (the last two
use secrets.existingSecret: <chart>-env).
Prints one line per check; exits 1 if any failed.
"""
import sys

import yaml

chart, scenario, path = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = chart.upper().replace("-", "_")
with open(path, encoding="utf-8") as fh:
    docs = [d for d in yaml.safe_load_all(fh) if d]

failures = 0


def check(ok, what):
    global failures
    print(f"    [{'ok' if ok else 'FAIL'}] {chart}/{scenario}: {what}")
    if not ok:
        failures += 1


def kind(k):
    return [d for d in docs if d.get("kind") == k]


def hook(d):
    return (d.get("metadata", {}).get("annotations") or {}).get("helm.sh/hook", "")


def weight(d):
    return int((d["metadata"].get("annotations") or {}).get("helm.sh/hook-weight", "0"))


deployments = kind("Deployment")
check(len(deployments) == 1, "exactly one Deployment")
dep = deployments[0]
pod = dep["spec"]["template"]
spec = pod["spec"]
ann = pod["metadata"].get("annotations") or {}
containers = spec["containers"]
c = containers[0]
plain_secrets = [d for d in kind("Secret") if not hook(d)]
hook_secrets = [d for d in kind("Secret") if hook(d)]
jobs = kind("Job")
migrate = [j for j in jobs if "pre-install" in hook(j)]

# --- pod template -----------------------------------------------------------
check("checksum/config" in ann, "pod template has the checksum/config annotation")
external_secret = scenario in ("existing-secret", "import-pvc")
if external_secret:
    check(not plain_secrets and not hook_secrets, "no Secret rendered when secrets.existingSecret is set")
    check("checksum/secret" not in ann, "no checksum/secret annotation for an external Secret")
    refs = [e["secretRef"]["name"] for e in c.get("envFrom", []) if "secretRef" in e]
    check(refs == [f"{chart}-env"], f"Deployment reads the existing Secret ({refs})")
    mrefs = [e["secretRef"]["name"] for j in migrate for e in j["spec"]["template"]["spec"]["containers"][0].get("envFrom", []) if "secretRef" in e]
    check(mrefs == [f"{chart}-env"], f"migration Job reads the existing Secret ({mrefs})")
else:
    check(len(plain_secrets) == 1, "the chart renders its Secret")
    check("checksum/secret" in ann, "pod template has the checksum/secret annotation")
check(c.get("args") == ["serve"], "server container runs `serve`")
check(c.get("command") is None, "image ENTRYPOINT (the binary) is kept")
psc = spec.get("securityContext") or {}
sc = c.get("securityContext") or {}
check(psc.get("runAsNonRoot") is True and psc.get("runAsUser") == 10001, "pod runs as non-root UID 10001")
check((psc.get("seccompProfile") or {}).get("type") == "RuntimeDefault", "seccomp RuntimeDefault")
check(sc.get("readOnlyRootFilesystem") is True, "read-only root filesystem")
check(sc.get("allowPrivilegeEscalation") is False, "no privilege escalation")
check((sc.get("capabilities") or {}).get("drop") == ["ALL"], "all capabilities dropped")
mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
vols = {v["name"]: v for v in spec.get("volumes", [])}
check(mounts.get("/tmp") == "tmp" and "emptyDir" in vols.get("tmp", {}), "/tmp is an emptyDir")
probes = {p: (c.get(p) or {}).get("httpGet", {}).get("path") for p in ("livenessProbe", "readinessProbe", "startupProbe")}
check(probes == {"livenessProbe": "/healthz", "readinessProbe": "/readyz", "startupProbe": "/healthz"}, f"probes {probes}")
check(bool((c.get("resources") or {}).get("requests")) and bool((c.get("resources") or {}).get("limits")), "resource requests and limits")
pre_stop = (((c.get("lifecycle") or {}).get("preStop") or {}).get("exec") or {}).get("command") or []
sleep = int(pre_stop[1]) if len(pre_stop) == 2 and pre_stop[0] == "sleep" else 0
env_cm = [e["configMapRef"]["name"] for e in c.get("envFrom", []) if "configMapRef" in e]
cms = [d for d in kind("ConfigMap") if d["metadata"]["name"] in env_cm]
cm = cms[0]["data"] if cms else {}
grace = int(cm.get(f"{prefix}__HTTP__SHUTDOWN_GRACE_SECONDS", "20"))
tgp = spec.get("terminationGracePeriodSeconds", 30)
check(sleep > 0, f"preStop sleep ({sleep}s)")
check(tgp > grace + sleep, f"terminationGracePeriodSeconds {tgp} > shutdown grace {grace} + preStop {sleep}")
port = int(cm.get(f"{prefix}__HTTP__PORT", "0"))
expected_port = {"citizen-api": 8080, "platform-messages": 8081, "streets-api": 8082}[chart]
check(port == expected_port and c["ports"][0]["containerPort"] == expected_port, f"listens on {expected_port}")
check(cm.get(f"{prefix}__DATABASE__MIGRATE_ON_START") == "false", "migrate_on_start is false (the hook migrates)")
check(all(k.startswith(prefix + "__") for k in cm), f"every ConfigMap key has the {prefix}__ prefix")
check(not any("PASSWORD" in k or "__DATABASE__URL" in k for k in cm), "no secret in the ConfigMap")
if chart == "streets-api":
    # The OGC API's absolute links start with it, never with a request's Forwarded/X-Forwarded-*
    # (docs/deployment.md, "Public URL"); without it they would name the pod's localhost.
    public_url = cm.get(f"{prefix}__HTTP__PUBLIC_URL", "")
    check(public_url.startswith("https://"), f"http.public_url is set ({public_url!r})")
    check(cm.get(f"{prefix}__HTTP__TRUST_FORWARDED_HEADERS", "false") == "false",
          "http.trust_forwarded_headers stays off")
check(spec.get("automountServiceAccountToken") is False, "no ServiceAccount token in the pods")

# --- migration hook ------------------------------------------------------------
check(len(migrate) == 1, "one migration Job")
if migrate:
    j = migrate[0]
    a = j["metadata"]["annotations"]
    check(a.get("helm.sh/hook") == "pre-install,pre-upgrade", "migration Job is a pre-install,pre-upgrade hook")
    check("before-hook-creation" in a.get("helm.sh/hook-delete-policy", ""), "migration Job has a hook-delete-policy")
    jc = j["spec"]["template"]["spec"]["containers"][0]
    check(jc.get("args") == ["migrate"], "migration Job runs `migrate`")
    check(jc["image"] == c["image"], "migration Job uses the service image")
    check(j["spec"]["template"]["spec"].get("restartPolicy") == "Never", "migration Job restartPolicy Never")
    jenv = {e["name"]: e.get("value") for e in jc.get("env", [])}
    check(all(jenv.get(k) == v for k, v in cm.items()), "migration Job carries the ConfigMap's settings inline")
    check(not any("configMapRef" in e for e in jc.get("envFrom", [])), "migration Job does not need the (not yet created) ConfigMap")
    sa = j["spec"]["template"]["spec"].get("serviceAccountName")
    created_sa = [d["metadata"]["name"] for d in kind("ServiceAccount")]
    check(sa not in created_sa, "migration Job does not use the ServiceAccount the release has not created yet")
    if not external_secret:
        ref = [e["secretRef"]["name"] for e in jc.get("envFrom", []) if "secretRef" in e]
        hs = [s for s in hook_secrets if s["metadata"]["name"] in ref]
        check(len(hs) == 1, "migration Job reads a hook Secret")
        if hs:
            check(hook(hs[0]) == "pre-install,pre-upgrade" and weight(hs[0]) < weight(j),
                  f"hook Secret is created before the Job (weight {weight(hs[0])} < {weight(j)})")
            check(hs[0].get("stringData") == plain_secrets[0].get("stringData"), "hook Secret holds the same values as the Secret")

# --- service -----------------------------------------------------------------
svc = kind("Service")
check(len(svc) == 1 and svc[0]["spec"]["selector"].get("app.kubernetes.io/component") == "server",
      "Service selects only the server pods (not Job pods)")
check(svc and svc[0]["spec"]["ports"][0]["targetPort"] == "http", "Service targets the named http port")

# --- optional objects ----------------------------------------------------------
optional = ["Ingress", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ServiceMonitor"]
if scenario == "default":
    present = [k for k in optional if kind(k)]
    check(not present, f"optional objects off by default (present: {present})")
    check(not [j for j in jobs if "post-install" in hook(j)], "no import Job by default")
    check(dep["spec"].get("replicas") == 2, "2 replicas by default")
if chart == "citizen-api":
    city = [d for d in kind("ConfigMap") if d["metadata"]["name"].endswith("-city")]
    boundary = cm.get(f"{prefix}__CITY__BOUNDARY_FILE", "")
    check(cm.get(f"{prefix}__CAPTCHA__ENABLED") == "true", "the CAPTCHA is on")
    check(cm.get(f"{prefix}__WEB__DEV_SIGN_IN") == "false", "the web app's dev sign-in is off")
    if scenario == "all-on":
        check(len(city) == 1 and list(city[0]["data"]) == [boundary.rsplit("/", 1)[-1]],
              "the territory ConfigMap holds the boundary file")
        check(mounts.get(boundary.rsplit("/", 1)[0]) == "city", f"the territory is mounted at {boundary}")
        check("checksum/city" in ann, "a changed territory rolls the pods (checksum/city)")
    else:
        check(not city, "no territory ConfigMap without city.boundaryGeoJson")

if scenario == "all-on":
    missing = [k for k in optional if not kind(k)]
    check(not missing, f"every optional object rendered (missing: {missing})")
    check("replicas" not in dep["spec"], "no fixed replicas while the HPA scales")
    sm = kind("ServiceMonitor")
    if sm:
        ep = sm[0]["spec"]["endpoints"][0]
        check(ep.get("port") == "http" and ep.get("path") == "/metrics", "ServiceMonitor scrapes http /metrics")
    check(c["image"].endswith("@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), "image pinned by digest")

# --- NetworkPolicy (on by default) ----------------------------------------------------
np = kind("NetworkPolicy")
check(len(np) == 1, "one NetworkPolicy (on by default)")
if np:
    nps = np[0]["spec"]
    sel = nps["podSelector"]["matchLabels"]
    job_labels = [j["spec"]["template"]["metadata"]["labels"] for j in jobs]
    check(all(pod["metadata"]["labels"].get(k) == v for k, v in sel.items())
          and all(l.get(k) == v for l in job_labels for k, v in sel.items()),
          "NetworkPolicy covers the server pods and the Job pods")
    check(sorted(nps.get("policyTypes", [])) == ["Egress", "Ingress"], "NetworkPolicy restricts ingress and egress")
    ingress = nps.get("ingress", [])
    check(len(ingress) == 1 and ingress[0].get("ports") == [{"port": "http", "protocol": "TCP"}],
          "ingress only to the http port")
    peers = ingress[0].get("from", []) if ingress else []
    ns_names = [p.get("namespaceSelector", {}).get("matchLabels", {}).get("kubernetes.io/metadata.name") for p in peers]
    check("ingress-nginx" in ns_names and "monitoring" in ns_names and len(peers) >= 2,
          f"ingress from the ingress controller and Prometheus namespaces ({ns_names})")
    egress = nps.get("egress", [])
    check(all(r.get("ports") for r in egress), "every egress rule names its ports (none opens all ports)")
    check(egress and sorted((p["port"], p["protocol"]) for p in egress[0]["ports"]) == [(53, "TCP"), (53, "UDP")],
          "egress: DNS 53/UDP+TCP first")
    tcp = {p["port"] for r in egress[1:] for p in r["ports"] if p.get("protocol", "TCP") == "TCP"}
    need = {"streets-api": {5432}, "platform-messages": {5432, 1883, 8883, 443},
            "citizen-api": {5432, 443, 587, 465}}[chart]
    if scenario == "all-on":
        need = {"streets-api": {5432, 9000}, "platform-messages": {5432, 8883, 443, 9000},
                "citizen-api": {5432, 443, 587, 465, 8883, 9000}}[chart]
    check(tcp == need, f"egress TCP ports {sorted(tcp)} == {sorted(need)}")
    if scenario == "default":
        proxy = [p for p in peers if "podSelector" in p and "namespaceSelector" not in p]
        check(proxy == [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "citizen-services-proxy"}}}],
              "ingress from the reverse proxy pods in the release namespace")
    if scenario == "all-on":
        check(len(peers) == 2 and all("podSelector" in p and "namespaceSelector" in p for p in peers),
              "ingressFrom entries can be narrowed and dropped (reverseProxy: null)")
        db = [r for r in egress if any(p["port"] == 5432 for p in r["ports"])]
        check(db and db[0].get("to") == [{"ipBlock": {"cidr": "10.20.0.0/24"}}], "database egress narrowed to its CIDR")
        check(egress[0].get("to", [{}])[0].get("podSelector") == {"matchLabels": {"k8s-app": "kube-dns"}},
              "DNS egress narrowed to kube-dns")

# --- image pull policy --------------------------------------------------------------
policies = {x["imagePullPolicy"] for x in containers + [jc for j in jobs for jc in j["spec"]["template"]["spec"]["containers"]]}
want = "IfNotPresent" if scenario == "all-on" else "Always"
check(policies == {want}, f"imagePullPolicy {want} ({'pinned by digest' if scenario == 'all-on' else 'image by tag'}): {sorted(policies)}")

# --- chart specifics ---------------------------------------------------------------
env_names = [e["name"] for e in c.get("env", [])]
if chart == "platform-messages":
    check("PLATFORM_MESSAGES__MQTT__CLIENT_ID" in env_names, "MQTT client id is unique per pod")
    check(cm.get("PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER") == "false", "embedded MQTT broker off")
    if scenario == "all-on":
        check(cm.get("PLATFORM_MESSAGES__MQTT__URL", "").startswith("mqtts://"), "MQTT URL from config")
        check(cm.get("PLATFORM_MESSAGES__MQTT__CA_FILE") == "/etc/platform-messages/mqtt-ca/ca.crt", "MQTT CA mounted and configured")
        check("PLATFORM_MESSAGES__MQTT__PASSWORD" in (plain_secrets[0].get("stringData") or {}), "MQTT password in the Secret")
if chart == "citizen-api" and scenario == "all-on":
    check(cm.get("CITIZEN_API__HTTP__MAX_BODY_BYTES") == "26214400", "large integers stay integers (26214400)")
    check(cm.get("CITIZEN_API__HTTP__CORS_ALLOWED_ORIGINS") == "https://citizen.example.city,https://admin.example.city", "lists are comma joined")
if chart == "streets-api" and scenario in ("all-on", "import-pvc"):
    imp = [j for j in jobs if "post-install" in hook(j)]
    check(len(imp) == 1, "import Job rendered")
    if imp:
        a = imp[0]["metadata"]["annotations"]
        check(a.get("helm.sh/hook") == "post-install,post-upgrade", "import Job runs after install/upgrade (after migrations)")
        container = imp[0]["spec"]["template"]["spec"]["containers"][0]
        args = container["args"]
        batch = ["--batch-size", "5000"]
        if scenario == "all-on":
            check(args == ["import", "/import/streets.geojson", "--source-crs", "EPSG:5514", *batch], f"import args {args}")
        else:
            check(args == ["import", "/import/exports/streets.geojson", *batch], f"import args {args}")
            vol = [v for v in imp[0]["spec"]["template"]["spec"]["volumes"] if v["name"] == "import-data"]
            check(vol and vol[0].get("persistentVolumeClaim", {}).get("claimName") == "streets-data", "import volume from the PVC")
        # A million streets import within 256 MiB (docs/streets-api.md, measured under a cgroup).
        limit = container.get("resources", {}).get("limits", {}).get("memory")
        check(limit == "256Mi", f"import Job memory limit {limit}")

print(f"    {chart}/{scenario}: {failures} failed")
sys.exit(1 if failures else 0)
