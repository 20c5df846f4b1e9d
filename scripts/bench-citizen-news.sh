#!/usr/bin/env bash
# citizen-api news read benchmark (part of `make bench`, docs/benchmarks.md "citizen-api news").
# BENCH_NEWS_SIZE news items (default 100000; 80 % with a location, every date shared by two
# items, 12 categories in a tree) on SQLite and PostgreSQL+PostGIS (skipped when unreachable),
# generated in bulk SQL (bench/citizen_news_pg.sql, bench/citizen_news_sqlite.sql) into databases
# migrated by the service, beside 10 000 reports for the ceiling. wrk --latency, back to back in
# one run:
#   - the one-query ceiling (crates/citizen-api/examples/one_query.rs: one SELECT by primary key
#     of a report through sqlx, same database, pool and workers),
#   - GET /api/v1/news (default limit 100), ?limit=20, ?location=<random point>&limit=20 (nearest
#     first), ?category=<a parent>&limit=20 (with its children), and a second page
#     (?limit=20&pagecursor=… of the first page's nextCursor).
# Requests per second and p99, each as a ratio to the ceiling. Goal: >= 0.3 of the ceiling with
# and without location. The pages come from the replica's news read model (docs/citizen-api.md);
# the run also gives the time from start to ready (the first model built), the server's anonymous
# RSS after the run, and the location page from the database alone (news.cache.max_items = 0). Results: bench-results/citizen-news.md (and stdout). Knobs:
# BENCH_NEWS_SIZE, BENCH_DURATION (s, default 8), BENCH_CONNECTIONS (default 16), BENCH_BACKENDS
# ("sqlite postgres"), BENCH_CITIZEN_BIN_DIR (prebuilt release citizen-api and one_query).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
SIZE="${BENCH_NEWS_SIZE:-100000}"
BACKENDS="${BENCH_BACKENDS:-sqlite postgres}"
REPORTS=10000
POOL=8
PORT=18291
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed: apt-get install -y sqlite3" >&2; exit 1; }
if [ -n "${BENCH_CITIZEN_BIN_DIR:-}" ]; then
  BIN="$BENCH_CITIZEN_BIN_DIR/citizen-api"; ONE="$BENCH_CITIZEN_BIN_DIR/one_query"
else
  cargo build --release --locked -p citizen-api --bin citizen-api --example one_query -q
  TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
  BIN="$TARGET_DIR/release/citizen-api"
  ONE="$TARGET_DIR/release/examples/one_query"
fi
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p bench-results
report=bench-results/citizen-news.md
pg_url() { echo "${PG_ADMIN%/*}/$1"; }

python3 -c "
import random; r = random.Random(10)
for _ in range(2000): print(f'{14.33 + r.random() * 0.27:.5f},{50.02 + r.random() * 0.11:.5f}')
" > "$work/points"
QUERIES="default date location category page2"

wait_up() { # url
  for _ in $(seq 1 300); do curl -fs "$1" >/dev/null && return 0; sleep 0.1; done
  echo "not up: $1" >&2; return 1
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
measure() { # targets-file base-url -> "rps p99_ms"
  WRK_TARGETS="$1" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency \
    -s bench/wrk_requests.lua "$2" | awk '
      /Requests\/sec/ { rps = int($2) }
      /^ +99%/ { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
                 ms = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : v; p99 = ms }
      END { printf "%d %.1f\n", rps, p99 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
sql() { # backend url-or-file query
  if [ "$1" = sqlite ]; then sqlite3 "$2" "$3"; else psql "$2" -Atqc "SET search_path = citizen_api, public" -c "$3"; fi
}

{
  echo "# citizen-api news benchmark ($(date -u +%F), $(nproc) cores shared with other work, $SIZE news items, wrk -t2 -c$CONNECTIONS -d${DURATION}s --latency, pool $POOL)"
  echo
  echo "| backend | load s | ceiling rps (p99 ms) | news (limit 100) | limit 20 | location, limit 20 | category, limit 20 | second page, limit 20 | start to ready s | RssAnon MiB | location, limit 20, database only |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} | tee "$report"

pg_ok=""
if psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then pg_ok=1; fi

for backend in $BACKENDS; do
  if [ "$backend" = postgres ] && [ -z "$pg_ok" ]; then
    echo "| postgres | skipped: PostgreSQL with PostGIS unreachable at $PG_ADMIN | | | | | | |" | tee -a "$report"
    continue
  fi
  t0=$(date +%s.%N)
  if [ "$backend" = sqlite ]; then
    file="$PWD/bench-results/citizen-news.db"; rm -f "$file" "$file-wal" "$file-shm"
    url="sqlite://$file"; target="$file"
    CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" migrate >/dev/null
    { echo "CREATE TEMP TABLE arg AS SELECT $REPORTS AS n;"; cat bench/citizen_sqlite.sql; } | sqlite3 "$file" >/dev/null
    { echo "CREATE TEMP TABLE arg AS SELECT $SIZE AS n;"; cat bench/citizen_news_sqlite.sql; } | sqlite3 "$file" >/dev/null
  else
    db=bench_citizen_news; url=$(pg_url "$db"); target="$url"
    psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
    psql "$url" -qc "CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pg_trgm" >/dev/null
    CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" migrate >/dev/null
    psql "$url" -q -v n="$REPORTS" -f bench/citizen_pg.sql >/dev/null
    psql "$url" -q -v n="$SIZE" -f bench/citizen_news_pg.sql >/dev/null
  fi
  load_s=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.0f", a - b }')

  sql "$backend" "$target" "SELECT id FROM reports ORDER BY random() LIMIT 5000" | sed 's|^|/one/|' > "$work/one"
  echo "/api/v1/news" > "$work/default"
  echo "/api/v1/news?limit=20" > "$work/date"
  sed 's|^\(.*\)$|/api/v1/news?location=\1\&limit=20|' "$work/points" > "$work/location"
  sql "$backend" "$target" "SELECT '/api/v1/news?limit=20&category=' || id FROM news_categories WHERE parent_id IS NULL ORDER BY name" > "$work/category"

  "$ONE" "$PORT" "$url" "$POOL" & server=$!
  wait_up "http://127.0.0.1:$PORT$(head -1 "$work/one")"
  WRK_TARGETS="$work/one" wrk -t1 -c4 -d2s -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" >/dev/null
  read -r ceiling ceiling_p99 < <(measure "$work/one" "http://127.0.0.1:$PORT")
  stop_server
  serve() { # extra env assignments...
    env "$@" CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__DATABASE__MAX_CONNECTIONS=$POOL \
      CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" serve >> "$work/server.log" 2>&1 & server=$!
  }
  t0=$(date +%s.%N)
  serve
  wait_up "http://127.0.0.1:$PORT/readyz"
  ready_s=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }')
  # The second page: the nextCursor of the first page of limit 20.
  curl -fs "http://127.0.0.1:$PORT/api/v1/news?limit=20" | python3 -c "
import json, sys, urllib.parse
c = json.load(sys.stdin)['nextCursor']
print('/api/v1/news?limit=20' + ''.join('&pagecursor=' + urllib.parse.quote(s) for s in c))" > "$work/page2"
  WRK_TARGETS="$work/location" wrk -t1 -c4 -d2s -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" >/dev/null
  cells=""
  for query in $QUERIES; do
    read -r r p < <(measure "$work/$query" "http://127.0.0.1:$PORT")
    cells="$cells | $r ($p ms; $(ratio "$r" "$ceiling"))"
  done
  rss=$(awk '/RssAnon/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
  stop_server
  serve CITIZEN_API__NEWS__CACHE__MAX_ITEMS=0
  wait_up "http://127.0.0.1:$PORT/readyz"
  WRK_TARGETS="$work/location" wrk -t1 -c4 -d2s -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" >/dev/null
  read -r r p < <(measure "$work/location" "http://127.0.0.1:$PORT")
  stop_server
  cells="$cells | $ready_s | $rss | $r ($p ms; $(ratio "$r" "$ceiling"))"
  echo "| $backend | $load_s | $ceiling ($ceiling_p99)$cells |" | tee -a "$report"
  if [ "${BENCH_CITIZEN_KEEP:-0}" != 1 ]; then
    if [ "$backend" = sqlite ]; then rm -f "$file" "$file-wal" "$file-shm"
    else psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" >/dev/null; fi
  fi
done

{
  echo
  echo "Cells: rps (p99; ratio to the ceiling of the same run). Goal: the news list >= 0.3 of the ceiling"
  echo "with and without location."
} | tee -a "$report"
echo "Written to $report"
