#!/usr/bin/env bash
# `make run`: builds the services and starts each on its embedded defaults — SQLite files under
# ./data, the in-process MQTT broker, demo data loaded into an empty database — on
# 8080 (citizen-api), 8081 (platform-messages) and 8082 (streets-api). Ctrl-C stops them all.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --bins --locked
mkdir -p data
export RUST_LOG="${RUST_LOG:-info,sqlx=warn}"
pids=()
stop() {
  trap - INT TERM EXIT
  [ ${#pids[@]} -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

start() { # name, then env assignments
  local name=$1; shift
  [ -x "target/debug/$name" ] || return 0
  env "$@" "target/debug/$name" serve &
  pids+=($!)
}

start streets-api \
  STREETS_API__HTTP__HOST=127.0.0.1 STREETS_API__TELEMETRY__FORMAT=pretty \
  STREETS_API__DATABASE__URL=sqlite://data/streets-api.db STREETS_API__DEMO__LOAD_WHEN_EMPTY=true
start platform-messages \
  PLATFORM_MESSAGES__HTTP__HOST=127.0.0.1 PLATFORM_MESSAGES__TELEMETRY__FORMAT=pretty \
  PLATFORM_MESSAGES__DATABASE__URL=sqlite://data/platform-messages.db \
  PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER=true \
  PLATFORM_MESSAGES__AUTH__DEV_SECRET="${PLATFORM_MESSAGES__AUTH__DEV_SECRET:-local-dev-secret-change-me}"
start citizen-api \
  CITIZEN_API__HTTP__HOST=127.0.0.1 CITIZEN_API__TELEMETRY__FORMAT=pretty \
  CITIZEN_API__DATABASE__URL=sqlite://data/citizen-api.db \
  CITIZEN_API__AUTH__DEV_SECRET="${CITIZEN_API__AUTH__DEV_SECRET:-local-dev-secret-change-me}"

cat <<TXT

  streets-api        http://127.0.0.1:8082/api/v1/streets?q=nam   docs: http://127.0.0.1:8082/api/v1/docs/
  platform-messages  http://127.0.0.1:8081/api/v1/docs/           MQTT: mqtt://127.0.0.1:1884 (in-process)
  citizen-api        http://127.0.0.1:8080/api/v1/docs/           (when built)
  Operator token:    target/debug/platform-messages dev-token --sub operator --scope platform:messages:manage
  Ctrl-C stops everything.

TXT
wait -n "${pids[@]}"
