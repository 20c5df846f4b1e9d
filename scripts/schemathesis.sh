#!/usr/bin/env bash
# Property-based tests of each running service against its own served OpenAPI description
# (schemathesis, from PyPI). Fails on any 5xx, any response that does not match the description
# (status, content type, schema, headers) and any invalid request that is not refused.
#
# Excluded check: positive_data_acceptance. OpenAPI cannot express "longitude needs latitude"
# (parameter dependencies), so a schema-valid request with only one of them is rightly refused.
#
# SCHEMATHESIS_MAX_TIME bounds each service's run (seconds, default 90).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${CI_VENV:-$HOME/.cache/citizen-ci-venv}"
MAX_TIME="${SCHEMATHESIS_MAX_TIME:-90}"
if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "schemathesis==4.32.5" "openapi-spec-validator==0.7.2"
fi
# The binaries as the api suites build them: after `make test` nothing is compiled again
# (`cargo build --bins` would rebuild a third of the tree with another feature set).
cargo test --workspace --test api --locked --no-run -q
# The binaries are where cargo put them (CARGO_TARGET_DIR or build.target-dir may move them).
BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug"
work=$(mktemp -d)
pids=()
cleanup() { [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

wait_ready() { # url
  for _ in $(seq 1 100); do
    curl -fsS "$1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "service at $1 did not become ready" >&2
  return 1
}

run_st() { # name port extra-args...
  local name=$1 port=$2; shift 2
  local schema="http://127.0.0.1:$port/api/v1/docs/openapi.json"
  curl -fsS "$schema" -o "$work/$name.json"
  "$VENV/bin/openapi-spec-validator" "$work/$name.json"
  "$VENV/bin/schemathesis" run "$schema" --url "http://127.0.0.1:$port/api/v1" \
    --checks all --exclude-checks positive_data_acceptance \
    --phases examples,coverage,fuzzing --max-examples 100 --max-time "$MAX_TIME" \
    --seed 20261121 --generation-deterministic --no-color "$@"
}

STREETS_API__HTTP__HOST=127.0.0.1 STREETS_API__HTTP__PORT=18182 STREETS_API__TELEMETRY__FILTER=error \
STREETS_API__DATABASE__URL="sqlite://$work/streets.db" STREETS_API__DEMO__LOAD_WHEN_EMPTY=true \
  "$BIN/streets-api" serve &
pids+=($!)
wait_ready http://127.0.0.1:18182/readyz
run_st streets-api 18182

if [ -x "$BIN/platform-messages" ] && [ -f scripts/schemathesis-platform-messages.sh ]; then
  # shellcheck source=/dev/null
  source scripts/schemathesis-platform-messages.sh
fi
if [ -x "$BIN/citizen-api" ] && [ -f scripts/schemathesis-citizen-api.sh ]; then
  # shellcheck source=/dev/null
  source scripts/schemathesis-citizen-api.sh
fi
echo "schemathesis: all services conform to their descriptions"
