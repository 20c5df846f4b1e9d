#!/usr/bin/env bash
# The default public list through the reverse proxy (deploy/proxy/nginx.conf, Debian's nginx),
# micro-cached, against the same nginx serving the same bytes from a file, same run
# (docs/benchmarks.md). The service must be listening on 127.0.0.1:PORT.
#
# Usage: bench-citizen-proxy.sh PORT WORK_DIR   (knobs BENCH_DURATION, BENCH_CONNECTIONS)
# Prints "<cached list rps> <file rps>".
set -euo pipefail
cd "$(dirname "$0")/.."
port=$1 work=$2
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
mkdir -p "$work"
proxy_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
curl -fs "http://127.0.0.1:$port/api/v1/reports" > "$work/default.json"
# The shipped config with local addresses and paths, and one more location: the same bytes from
# a file, with the headers the cached answer has.
sed -e "s#server citizen-api:8080;#server 127.0.0.1:$port;#" \
    -e "s#server platform-messages:8081;#server 127.0.0.1:9;#" \
    -e "s#server streets-api:8082;#server 127.0.0.1:9;#" \
    -e "s#server mosquitto:9001;#server 127.0.0.1:9;#" \
    -e "s#listen 8000;#listen 127.0.0.1:$proxy_port;#" -e '/listen \[::\]:8000;/d' \
    -e "s#/tmp/nginx#$work/nginx#g" -e "s#access_log /dev/stdout json;#access_log off;#" \
    -e "s#error_log /dev/stderr warn;#error_log $work/error.log warn;#" \
    -e "s#location = /proxy-healthz {#location = /bench-file { default_type application/json; add_header Cache-Control \"public, max-age=5\"; alias $work/default.json; }\n        location = /proxy-healthz {#" \
    deploy/proxy/nginx.conf > "$work/nginx.conf"
if [ "$(id -u)" = 0 ]; then sed -i '1i user root;' "$work/nginx.conf"; fi
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$proxy_port/proxy-healthz" >/dev/null && break; sleep 0.1; done
rps() { wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ { print int($2) }'; }
curl -fs "http://127.0.0.1:$proxy_port/api/v1/reports" >/dev/null
cached=$(rps "http://127.0.0.1:$proxy_port/api/v1/reports")
file=$(rps "http://127.0.0.1:$proxy_port/bench-file")
kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
echo "$cached $file"
