#!/usr/bin/env bash
# citizen-api notification feed benchmark (part of `make bench`, docs/benchmarks.md "citizen-api
# notification feed"). PostgreSQL+PostGIS (skipped when unreachable): BENCH_FEED_SIZE feed
# entries (default 10000000) over BENCH_FEED_ACCOUNTS accounts (default 100000, so 100 entries
# each), generated in bulk SQL (bench/citizen_feed_pg.sql) into a database migrated by the
# service, beside 10 000 reports for the ceiling. wrk --latency, 1 000 accounts at random, back
# to back in one run:
#   - the one-query ceiling (crates/citizen-api/examples/one_query.rs: one SELECT by primary key
#     through sqlx, same database, pool and workers),
#   - GET /api/v1/me/notifications (first page, default limit),
#   - GET /api/v1/me/notifications/unread-count.
# Requests per second and p99, each as a ratio to the ceiling. Goals: feed >= 0.3, unread count
# >= 0.6 of the ceiling. Results: bench-results/citizen-feed.md (and stdout). Knobs:
# BENCH_FEED_SIZE, BENCH_FEED_ACCOUNTS, BENCH_DURATION (s, default 8), BENCH_CONNECTIONS (16),
# BENCH_CITIZEN_BIN_DIR (prebuilt release citizen-api and one_query), BENCH_CITIZEN_KEEP=1 keeps
# the database bench_citizen_feed, BENCH_CITIZEN_REUSE=1 measures a kept one again (migrated to
# this build) instead of generating.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
SIZE="${BENCH_FEED_SIZE:-10000000}"
ACCOUNTS="${BENCH_FEED_ACCOUNTS:-100000}"
REPORTS=10000
POOL=8
PORT=18293
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
SECRET="bench-dev-secret-0123456789abcdef0123456789"
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
if [ -n "${BENCH_CITIZEN_BIN_DIR:-}" ]; then
  BIN="$BENCH_CITIZEN_BIN_DIR/citizen-api"; ONE="$BENCH_CITIZEN_BIN_DIR/one_query"
else
  cargo build --release --locked -p citizen-api --bin citizen-api --example one_query -q
  TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
  BIN="$TARGET_DIR/release/citizen-api"; ONE="$TARGET_DIR/release/examples/one_query"
fi
mkdir -p bench-results
report=bench-results/citizen-feed.md
if ! psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then
  echo "feed benchmark skipped: PostgreSQL with PostGIS unreachable at $PG_ADMIN" | tee "$report"
  exit 0
fi
work=$(mktemp -d)
server=""
db=bench_citizen_feed
url="${PG_ADMIN%/*}/$db"
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"
  # Ten million rows take about 3 GB: never leave them behind unless asked to.
  if [ "${BENCH_CITIZEN_KEEP:-0}" != 1 ]; then psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
export CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__DATABASE__MAX_CONNECTIONS=$POOL \
  CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__TELEMETRY__FILTER=warn \
  CITIZEN_API__AUTH__DEV_SECRET="$SECRET" CITIZEN_API__NOTIFICATIONS__WORKER__ENABLED=false

t0=$(date +%s)
if [ "${BENCH_CITIZEN_REUSE:-0}" = 1 ] && psql "$url" -Atc "SELECT 1" >/dev/null 2>&1; then
  "$BIN" migrate >/dev/null
  psql "$url" -qc "VACUUM ANALYZE citizen_api.notifications" >/dev/null
  load_s="kept database, not timed"
else
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
  psql "$url" -qc "CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pg_trgm" >/dev/null
  "$BIN" migrate >/dev/null
  psql "$url" -q -v n="$REPORTS" -f bench/citizen_pg.sql >/dev/null
  psql "$url" -q -v n="$SIZE" -v accounts="$ACCOUNTS" -f bench/citizen_feed_pg.sql >/dev/null
  load_s="$(( $(date +%s) - t0 )) s"
fi
counts=$(psql "$url" -Atc "SELECT count(*) || ' entries over ' || count(DISTINCT subject) || ' accounts' FROM citizen_api.notifications")

psql "$url" -Atc "SELECT id FROM citizen_api.reports ORDER BY random() LIMIT 2000" | sed 's|^|/one/|' > "$work/one"
for i in $(seq 1 1000); do "$BIN" dev-token --sub "bench-$((i * 97 % ACCOUNTS + 1))" --ttl-minutes 600; done > "$work/tokens"

wait_up() { for _ in $(seq 1 300); do curl -fs "$1" >/dev/null && return 0; sleep 0.1; done; echo "not up: $1" >&2; return 1; }
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
summary() { # wrk's output -> "rps p99_ms non2xx"
  awk '
    /Requests\/sec/ { rps = int($2) }
    /Non-2xx or 3xx responses/ { bad = $5 }
    /^ +99%/ { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
               p99 = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : v }
    END { printf "%d %.1f %d\n", rps, p99, bad + 0 }'
}
feed() { # path
  WRK_TOKENS="$work/tokens" WRK_PATH="$1" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s \
    --latency -s bench/wrk_feed.lua "http://127.0.0.1:$PORT" | summary
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

"$ONE" "$PORT" "$url" "$POOL" & server=$!
wait_up "http://127.0.0.1:$PORT$(head -1 "$work/one")"
WRK_TARGETS="$work/one" wrk -t1 -c4 -d2s -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" >/dev/null
read -r ceiling ceiling_p99 _ < <(WRK_TARGETS="$work/one" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" \
  --timeout 10s --latency -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" | summary)
stop_server
"$BIN" serve >> "$work/server.log" 2>&1 & server=$!
wait_up "http://127.0.0.1:$PORT/readyz"
# A page really holds entries (the tokens' accounts have them).
curl -fs -H "Authorization: Bearer $(head -1 "$work/tokens")" \
  "http://127.0.0.1:$PORT/api/v1/me/notifications" | python3 -c "
import json, sys; n = len(json.load(sys.stdin)['notifications']); assert n > 0, n"
feed /api/v1/me/notifications >/dev/null
read -r page page_p99 page_bad < <(feed /api/v1/me/notifications)
read -r unread unread_p99 unread_bad < <(feed /api/v1/me/notifications/unread-count)
stop_server
plan=$(psql "$url" -Atc "EXPLAIN (COSTS OFF) SELECT tag FROM citizen_api.notifications WHERE subject = 'bench-97' ORDER BY sent_at DESC, inserted_at DESC LIMIT 21" | tr '\n' ' ')

{
  echo "# citizen-api notification feed benchmark ($(date -u +%F), $(nproc) cores shared with other work, pool $POOL)"
  echo
  echo "PostgreSQL, $counts (load ${load_s}). wrk -t2 -c$CONNECTIONS -d${DURATION}s --latency, 1 000 accounts at random."
  echo
  echo "| what | rps | p99 ms | non-2xx | ratio to the ceiling | goal |"
  echo "|---|---|---|---|---|---|"
  echo "| one-query ceiling | $ceiling | $ceiling_p99 | - | 1.00 | |"
  echo "| GET /me/notifications | $page | $page_p99 | $page_bad | $(ratio "$page" "$ceiling") | >= 0.3 |"
  echo "| GET /me/notifications/unread-count | $unread | $unread_p99 | $unread_bad | $(ratio "$unread" "$ceiling") | >= 0.6 |"
  echo
  echo "Plan of a feed page: $plan"
} | tee "$report"
