#!/usr/bin/env bash
# citizen-api soak (`make soak`, not in CI): the release binary on PostgreSQL (a fresh database
# at TEST_DATABASE_URL's server) with a local media folder, driven by the soak example
# (crates/citizen-api/examples/soak.rs): the mix's capacity first, then SOAK_MINUTES (30) at half
# of it (or SOAK_RPS), printing per minute the requests, errors, p50/p99, and the server's RSS,
# open files and pool connections, and comparing the first and last five minutes (within 10 %,
# 0 errors, else exit 1). Results: bench-results/citizen-soak.md (and stdout).
# Knobs: SOAK_MINUTES, SOAK_RPS, SOAK_CITIZENS, BENCH_CITIZEN_BIN_DIR (a prebuilt release
# citizen-api and examples/soak).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=18291
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
PG_DB=soak_citizen
SECRET=soak-dev-secret-0123456789abcdef
if [ -z "${BENCH_CITIZEN_BIN_DIR:-}" ]; then
  cargo build --release --locked -p citizen-api --example soak -q
fi
# shellcheck source=scripts/bench-citizen-lib.sh
source scripts/bench-citizen-lib.sh
SOAK="$(dirname "$BIN")/examples/soak"
report=bench-results/citizen-soak.md

psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB" >/dev/null
db_url="${PG_ADMIN%/*}/$PG_DB"
CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__HTTP__WORKERS=2 CITIZEN_API__TELEMETRY__FILTER=warn \
CITIZEN_API__DATABASE__URL="$db_url" CITIZEN_API__DATABASE__MIGRATE_ON_START=true \
CITIZEN_API__MEDIA__DIR="$work/media" CITIZEN_API__AUTH__DEV_SECRET=$SECRET \
  "$BIN" serve >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

{
  echo "# citizen-api soak, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "PostgreSQL, release build $(git rev-parse --short HEAD), $(nproc) cores, 2 HTTP workers, pool 10."
  echo
} > "$report"
status=0
SOAK_BASE="http://127.0.0.1:$PORT" SOAK_PID=$server SOAK_DEV_SECRET=$SECRET \
  "$SOAK" | tee -a "$report" || status=$?
warnings=$(grep -c '"level":"WARN"\|"level":"ERROR"' "$work/server.log" || true)
{
  echo "server log: $warnings lines at warn or error"
  grep '"level":"WARN"\|"level":"ERROR"' "$work/server.log" | cut -c1-300 | sort | uniq -c | sort -rn | head -5
} | tee -a "$report"
exit $status
