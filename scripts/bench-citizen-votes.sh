#!/usr/bin/env bash
# citizen-api vote-pool benchmark (part of `make bench`, docs/benchmarks.md "Vote pool").
# PostgreSQL+PostGIS (skipped when unreachable): BENCH_VOTES_REPORTS reports (default 100000,
# bench/citizen_pg.sql) and BENCH_VOTES_TOKENS vote tokens (default 10000000) over
# BENCH_VOTES_ACCOUNTS accounts (default 1000000, bench/citizen_votes_pg.sql). Back to back in one
# run, wrk --latency:
#   - the one-query ceiling (crates/citizen-api/examples/one_query.rs: a bare actix-web handler,
#     one SELECT by primary key through sqlx, same database, pool and workers), -c16;
#   - placing and revoking (bench/wrk_votes.lua: a place of one token, then a revoke on the same
#     account and target) for 1 000 of the generated accounts at random, -c16 and -c64;
#   - the same for one account (a fresh one: every request of it is serialised on its pool row),
#     -c64.
# Requests per second (half places, half revokes), p99, refused requests (non-2xx), and the rate
# as a ratio to the ceiling. `votes.max_count` is 100 so the pool never refuses a place here.
# Results: bench-results/citizen-votes.md (and stdout). Knobs: BENCH_DURATION (s, default 8),
# BENCH_VOTES_*, BENCH_CITIZEN_BIN_DIR (prebuilt release citizen-api and one_query),
# BENCH_CITIZEN_KEEP=1 keeps the database bench_citizen_votes, BENCH_CITIZEN_REUSE=1 measures a
# kept one again.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
REPORTS="${BENCH_VOTES_REPORTS:-100000}"
TOKENS="${BENCH_VOTES_TOKENS:-10000000}"
ACCOUNTS="${BENCH_VOTES_ACCOUNTS:-1000000}"
POOL=8
PORT=18291
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
report=bench-results/citizen-votes.md
if ! psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then
  echo "vote-pool benchmark skipped: PostgreSQL with PostGIS unreachable at $PG_ADMIN" | tee "$report"
  exit 0
fi
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
db=bench_citizen_votes
url="${PG_ADMIN%/*}/$db"
export CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__DATABASE__MAX_CONNECTIONS=$POOL \
  CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__TELEMETRY__FILTER=warn \
  CITIZEN_API__AUTH__DEV_SECRET="$SECRET" CITIZEN_API__VOTES__MAX_COUNT=100 \
  CITIZEN_API__VOTES__EXPIRY=days CITIZEN_API__VOTES__EXPIRY_DAYS=30

t0=$(date +%s)
if [ "${BENCH_CITIZEN_REUSE:-0}" != 1 ] || ! psql "$url" -Atc "SELECT 1" >/dev/null 2>&1; then
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
  psql "$url" -qc "CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pg_trgm" >/dev/null
  "$BIN" migrate >/dev/null
  psql "$url" -q -v n="$REPORTS" -f bench/citizen_pg.sql >/dev/null
  psql "$url" -q -v tokens="$TOKENS" -v accounts="$ACCOUNTS" -f bench/citizen_votes_pg.sql >/dev/null
fi
"$BIN" migrate >/dev/null # a kept database may predate this binary's migrations
load_s=$(( $(date +%s) - t0 ))
counts=$(psql "$url" -Atc "SELECT count(*) || ' tokens (' || count(*) FILTER (WHERE revoked_at IS NULL AND expires_at > now()) || ' active) over ' || count(DISTINCT subject) || ' accounts' FROM citizen_api.vote_tokens")

psql "$url" -Atc "SELECT id FROM citizen_api.reports ORDER BY random() LIMIT 2000" > "$work/targets"
head -1 "$work/targets" > "$work/one-target"
sed 's|^|/one/|' "$work/targets" > "$work/one"
for i in $(seq 1 1000); do "$BIN" dev-token --sub "bench-$((i * 997 % ACCOUNTS + 1))" --ttl-minutes 600; done > "$work/many"
"$BIN" dev-token --sub bench-solo --ttl-minutes 600 > "$work/solo"

wait_up() { for _ in $(seq 1 300); do curl -fs "$1" >/dev/null && return 0; sleep 0.1; done; echo "not up: $1" >&2; return 1; }
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
# wrk's summary -> "rps p99_ms non2xx"
summary() {
  awk '
    /Requests\/sec/ { rps = int($2) }
    /Non-2xx or 3xx responses/ { bad = $5 }
    /^ +99%/ { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
               p99 = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : v }
    END { printf "%d %.1f %d\n", rps, p99, bad + 0 }'
}
votes() { # connections tokens-file targets-file
  WRK_TOKENS="$2" WRK_TARGETS="$3" wrk -t2 -c"$1" -d"${DURATION}s" --timeout 10s --latency \
    -s bench/wrk_votes.lua "http://127.0.0.1:$PORT" | summary
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

"$ONE" "$PORT" "$url" "$POOL" & server=$!
wait_up "http://127.0.0.1:$PORT/one/$(head -1 "$work/targets")"
WRK_TARGETS="$work/one" wrk -t1 -c4 -d2s -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" >/dev/null
read -r ceiling ceiling_p99 _ < <(WRK_TARGETS="$work/one" wrk -t2 -c16 -d"${DURATION}s" --timeout 10s --latency \
  -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" | summary)
stop_server
"$BIN" serve >> "$work/server.log" 2>&1 & server=$!
wait_up "http://127.0.0.1:$PORT/readyz"
votes 4 "$work/many" "$work/targets" >/dev/null
read -r many16 many16_p99 many16_bad < <(votes 16 "$work/many" "$work/targets")
read -r many64 many64_p99 many64_bad < <(votes 64 "$work/many" "$work/targets")
read -r solo64 solo64_p99 solo64_bad < <(votes 64 "$work/solo" "$work/one-target")
stop_server
after=$(psql "$url" -Atc "SELECT count(*) FILTER (WHERE revoked_at IS NULL AND expires_at > now()) FROM citizen_api.vote_tokens WHERE subject = 'bench-solo'")

{
  echo "# citizen-api vote-pool benchmark ($(date -u +%F), $(nproc) cores shared with other work, pool $POOL, workers $(nproc))"
  echo
  echo "PostgreSQL, $REPORTS reports, $counts (load ${load_s} s). wrk -t2 -d${DURATION}s --latency; requests alternate place (1 token) and revoke."
  echo
  echo "| what | connections | rps | p99 ms | refused | ratio to the ceiling |"
  echo "|---|---|---|---|---|---|"
  echo "| one-query ceiling | 16 | $ceiling | $ceiling_p99 | - | 1.00 |"
  echo "| place/revoke, 1 000 accounts | 16 | $many16 | $many16_p99 | $many16_bad | $(ratio "$many16" "$ceiling") |"
  echo "| place/revoke, 1 000 accounts | 64 | $many64 | $many64_p99 | $many64_bad | $(ratio "$many64" "$ceiling") |"
  echo "| place/revoke, one account | 64 | $solo64 | $solo64_p99 | $solo64_bad | $(ratio "$solo64" "$ceiling") |"
  echo
  echo "Active tokens of the single account after its run: $after (at most max_count = 100)."
  echo "Goals: many accounts >= 0.3 of the ceiling; one account p99 < 50 ms at 64 connections."
} | tee "$report"
if [ "${BENCH_CITIZEN_KEEP:-0}" != 1 ]; then psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" >/dev/null; fi
