#!/usr/bin/env bash
# `make bench`: HTTP throughput of the services under wrk, each figure as a ratio to a baseline
# measured in the same run on the same machine:
#   - the trivial handler of the same server (GET /healthz: same stack, no I/O),
#   - on PostgreSQL, `pgbench -S` (select-only) with as many connections as the server's pool.
# Streets: generated cities of BENCH_SIZES streets (default 1000 and 100000) on SQLite and
# PostgreSQL+PostGIS (skipped when unreachable); GET /streets/{number} for 20 000 random streets
# (from the read model, and with the model off, `cache.max_entries = 0`, i.e. the database
# path), a 300 m radius query at 2 000 random points and a name-prefix query. Per run: start-up
# time (process start to /readyz 200, i.e. the first read model built) and the peak anonymous
# resident memory (RssAnon sampled every 50 ms from start to stop: the heap, without the mapped
# SQLite file pages that VmHWM counts).
# Results: bench-results/streets.md (and stdout). Knobs: BENCH_DURATION (s, default 8),
# BENCH_CONNECTIONS (default 16), BENCH_SIZES, BENCH_BACKENDS ("sqlite postgres"), BENCH_ROUNDS
# (default 3: interleaved rounds of the four streets reads; figures are medians over the rounds).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
SIZES="${BENCH_SIZES:-1000 100000}"
BACKENDS="${BENCH_BACKENDS:-sqlite postgres}"
ROUNDS="${BENCH_ROUNDS:-3}"
POOL=8
PORT=18282
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
# The allocator as the image runs it (deploy/docker/Dockerfile, docs/operations.md); the citizen
# benchmarks set it in scripts/bench-citizen-lib.sh.
export MIMALLOC_PURGE_DELAY="${MIMALLOC_PURGE_DELAY:-10}"
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
cargo build --release --locked -p streets-api -q
cargo build --release --locked -p service-kit --example ceiling -q
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
BIN="$TARGET_DIR/release/streets-api"
CEILING="$TARGET_DIR/release/examples/ceiling"
work=$(mktemp -d)
server=""
pg_dbs=""
# Also on failure: the streets and pgbench databases (a few hundred MB) are dropped, since CI runs on
# the same machine and a full disk fails it.
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"
  for db in $pg_dbs; do psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
mkdir -p bench-results
report=bench-results/streets.md
pg_url() { echo "${PG_ADMIN%/*}/$1"; }

echo "# streets-api benchmark ($(date -u +%F), $(nproc) cores, wrk -t2 -c$CONNECTIONS -d${DURATION}s, pool $POOL, medians of $ROUNDS interleaved rounds)" | tee "$report"
echo | tee -a "$report"
echo "| backend | streets | trivial rps | id rps, read model (ratio) | id rps, database (ratio) | radius 300 m rps (ratio) | q prefix rps (ratio) | start-up s | peak RssAnon MiB | import s |" | tee -a "$report"
echo "|---|---|---|---|---|---|---|---|---|---|" | tee -a "$report"

rps() { # path-list-file
  WRK_TARGETS="$1" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" \
    | awk '/Requests\/sec/ {print int($2)}'
}

# The framework ceiling: a bare actix-web App (no middleware) serving the same trivial JSON as
# /healthz, against streets-api's /healthz through the whole shared stack, same run, same workers.
FW_CONNECTIONS="${BENCH_FW_CONNECTIONS:-32}"
fw_rps() { # url
  wrk -t2 -c"$FW_CONNECTIONS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ {print int($2)}'
}
"$CEILING" "$PORT" & server=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
ceiling=$(fw_rps "http://127.0.0.1:$PORT/healthz")
kill "$server"; wait "$server" 2>/dev/null || true; server=""
fw_stack() { # telemetry filter
  STREETS_API__HTTP__PORT=$PORT STREETS_API__HTTP__HOST=127.0.0.1 STREETS_API__TELEMETRY__FILTER="$1" \
    STREETS_API__DATABASE__URL="sqlite://$work/framework.db" "$BIN" serve > /dev/null & server=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done
  fw_rps "http://127.0.0.1:$PORT/healthz"
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
}
stack_info=$(fw_stack info)
stack_warn=$(fw_stack warn)
fw_ratio() { awk -v a="$1" -v b="$ceiling" 'BEGIN {printf "%.2f", a/b}'; }
{
  echo "Framework ceiling (wrk -t2 -c$FW_CONNECTIONS -d${DURATION}s, $(nproc) workers):"
  echo
  echo "| what | rps | ratio to the ceiling |"
  echo "|---|---|---|"
  echo "| bare actix-web App, trivial JSON handler (ceiling) | $ceiling | 1.00 |"
  echo "| streets-api /healthz, whole stack, JSON request log (info, production default) | $stack_info | $(fw_ratio "$stack_info") |"
  echo "| streets-api /healthz, whole stack, request log off (warn) | $stack_warn | $(fw_ratio "$stack_warn") |"
  echo
} | tee -a "$report"

declare -A radius_rate id_rate
for size in $SIZES; do
  city="$work/city-$size.geojson"
  python3 bench/generate_city.py "$size" "$city"
  echo "/healthz" > "$work/trivial-$size"
  python3 -c "import random; r=random.Random(1); [print(f'/api/v1/streets/{r.randint(1,$size)}') for _ in range(20000)]" > "$work/id-$size"
  awk '{printf "/api/v1/streets?longitude=%s&latitude=%s&radius=300\n", $1, $2}' "$city.points.txt" > "$work/radius-$size"
  awk '{printf "/api/v1/streets?q=%s&limit=20\n", $1}' "$city.prefixes.txt" > "$work/q-$size"
done

pg_ok=""
if psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then pg_ok=1; fi

for backend in $BACKENDS; do
  if [ "$backend" = postgres ] && [ -z "$pg_ok" ]; then
    echo "| postgres | skipped: PostgreSQL with PostGIS unreachable at $PG_ADMIN | | | | | | | | |" | tee -a "$report"
    continue
  fi
  for size in $SIZES; do
    if [ "$backend" = sqlite ]; then
      url="sqlite://$work/streets-$size.db"
    else
      db="bench_streets_$size"; pg_dbs="$pg_dbs $db"
      psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null 2>&1
      url=$(pg_url "$db")
    fi
    export STREETS_API__DATABASE__URL="$url" STREETS_API__DATABASE__MIGRATE_ON_START=true \
      STREETS_API__DATABASE__MAX_CONNECTIONS=$POOL STREETS_API__HTTP__PORT=$PORT \
      STREETS_API__HTTP__HOST=127.0.0.1 STREETS_API__TELEMETRY__FILTER=warn
    t0=$(date +%s.%N)
    "$BIN" import "$work/city-$size.geojson" >/dev/null
    import_s=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN {print a - b}')
    start_server() { # sets server, startup_s; samples RssAnon into $work/rss until the process ends
      local t0; t0=$(date +%s.%N)
      "$BIN" serve & server=$!
      (while [ -r "/proc/$server/status" ]; do awk '/RssAnon/ {print $2}' "/proc/$server/status" 2>/dev/null; sleep 0.05; done) > "$work/rss" 2>/dev/null &
      for _ in $(seq 1 6000); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.01; done
      startup_s=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN {printf "%.2f", a - b}')
    }
    stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
    warm() { WRK_TARGETS="$1" wrk -t1 -c4 -d2s -s bench/wrk_requests.lua "http://127.0.0.1:$PORT" >/dev/null; }
    STREETS_API__CACHE__MAX_ENTRIES=0 start_server
    warm "$work/id-$size"
    id_nocache=$(rps "$work/id-$size")
    stop_server
    start_server
    warm "$work/id-$size"
    # ROUNDS interleaved rounds of trivial, id, radius, q: each ratio is the median over the rounds
    # of the ratio within a round (seconds apart), so a burst of other load on the 2 cores moves
    # one round, not the figure.
    declare -A got=()
    for round in $(seq 1 "$ROUNDS"); do
      for what in trivial id radius q; do got["$what-$round"]=$(rps "$work/$what-$size"); done
    done
    stop_server
    wait 2>/dev/null || true
    median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
    med() { # what: median rps over the rounds
      local v=(); for round in $(seq 1 "$ROUNDS"); do v+=("${got[$1-$round]}"); done; median "${v[@]}"
    }
    mratio() { # what: median over the rounds of rps / trivial rps of the same round
      local v=(); for round in $(seq 1 "$ROUNDS"); do
        v+=("$(awk -v a="${got[$1-$round]}" -v b="${got[trivial-$round]}" 'BEGIN {printf "%.4f", a/b}')")
      done
      median "${v[@]}" | awk '{printf "%.2f", $1}'
    }
    trivial=$(med trivial); radius=$(med radius)
    peak=$(sort -n "$work/rss" | tail -1 | awk '{printf "%.0f", $1/1024}')
    radius_rate["$backend-$size"]=$radius
    id_rate["$backend-$size"]=$id_nocache
    printf '| %s | %s | %s | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s | %s | %.1f |\n' "$backend" "$size" "$trivial" \
      "$(med id)" "$(mratio id)" "$id_nocache" "$(awk -v a="$id_nocache" -v b="$trivial" 'BEGIN {printf "%.2f", a/b}')" \
      "$radius" "$(mratio radius)" "$(med q)" "$(mratio q)" \
      "$startup_s" "$peak" "$import_s" | tee -a "$report"
  done
  if [ "$backend" = postgres ]; then
    pg_dbs="$pg_dbs bench_pgbench"
    psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS bench_pgbench" -c "CREATE DATABASE bench_pgbench" >/dev/null 2>&1
    pgbench -i -q -s 10 "$(pg_url bench_pgbench)" >/dev/null 2>&1
    pgb=$(pgbench -S -n -c "$POOL" -j 2 -T "$DURATION" "$(pg_url bench_pgbench)" 2>/dev/null | awk '/^tps/ {print int($3); exit}')
    echo | tee -a "$report"
    echo "pgbench -S -c $POOL -j 2 -T $DURATION (scale 10) on the same server: $pgb tps" | tee -a "$report"
    for size in $SIZES; do
      printf -- '- postgres, %s streets: id (no cache) = %s, radius = %s of pgbench -S\n' "$size" \
        "$(awk -v a="${id_rate[postgres-$size]}" -v b="$pgb" 'BEGIN {printf "%.2f", a/b}')" \
        "$(awk -v a="${radius_rate[postgres-$size]}" -v b="$pgb" 'BEGIN {printf "%.2f", a/b}')" | tee -a "$report"
    done
  fi
done

echo | tee -a "$report"
for backend in $BACKENDS; do
  small="${radius_rate[$backend-${SIZES%% *}]:-}"; large="${radius_rate[$backend-${SIZES##* }]:-}"
  [ -n "$small" ] && [ -n "$large" ] && printf -- '- %s: radius rate at %s streets = %s of the rate at %s streets\n' \
    "$backend" "${SIZES##* }" "$(awk -v a="$large" -v b="$small" 'BEGIN {printf "%.2f", a/b}')" "${SIZES%% *}" | tee -a "$report"
done
echo "Written to $report"
[ "${BENCH_STREETS_IMPORT:-1}" = 0 ] || bash scripts/bench-streets-import.sh # the import against ogr2ogr (BENCH_STREETS_IMPORT=0 skips it)

# platform-messages: write-to-notice latency against the broker's own publish-to-receive time, and
# the public read endpoint against a trivial handler (crates/platform-messages/benches/notices.rs).
if [ "${BENCH_MESSAGES:-1}" = 0 ]; then
  echo "platform-messages bench skipped (BENCH_MESSAGES=0)"
elif (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null; then
  cargo bench --locked -p platform-messages --bench notices 2>/dev/null | tee bench-results/platform-messages.txt
else
  echo "platform-messages bench skipped: no MQTT broker at 127.0.0.1:1883"
fi

# citizen-api: detail and public-list reads over generated cities of 100 000 and 1 000 000
# reports against a one-query ceiling, each list's statement alone, and the default list through
# the reverse proxy (scripts/bench-citizen.sh; BENCH_CITIZEN=0 skips it).
if [ "${BENCH_CITIZEN:-1}" = 0 ]; then
  echo "citizen-api bench skipped (BENCH_CITIZEN=0)"
else
  bash scripts/bench-citizen.sh
fi

# citizen-api: the news list with and without location over 100 000 news items against the same
# one-query ceiling (scripts/bench-citizen-news.sh; BENCH_CITIZEN_NEWS=0 skips it).
if [ "${BENCH_CITIZEN_NEWS:-1}" = 0 ]; then
  echo "citizen-api news bench skipped (BENCH_CITIZEN_NEWS=0)"
else
  bash scripts/bench-citizen-news.sh
fi

# citizen-api: filing with a 5 MB photo, memory growth per upload in flight
# (scripts/bench-citizen-filing.sh; BENCH_CITIZEN_FILING=0 skips it).
if [ "${BENCH_CITIZEN_FILING:-1}" = 0 ]; then
  echo "citizen-api filing bench skipped (BENCH_CITIZEN_FILING=0)"
else
  bash scripts/bench-citizen-filing.sh
fi

# citizen-api: a citizen's data export of 1 000 reports and 2 000 photos, memory growth while it
# downloads (scripts/bench-citizen-export.sh; BENCH_CITIZEN_EXPORT=0 skips it).
if [ "${BENCH_CITIZEN_EXPORT:-1}" = 0 ]; then
  echo "citizen-api export bench skipped (BENCH_CITIZEN_EXPORT=0)"
else
  bash scripts/bench-citizen-export.sh
fi

# citizen-api: the retention sweep deleting 1 000 000 feed entries past their time, against one
# unbatched DELETE (scripts/bench-citizen-retention.sh; BENCH_CITIZEN_RETENTION=0 skips it).
if [ "${BENCH_CITIZEN_RETENTION:-1}" = 0 ]; then
  echo "citizen-api retention bench skipped (BENCH_CITIZEN_RETENTION=0)"
else
  bash scripts/bench-citizen-retention.sh
fi

# citizen-api: placing and revoking votes with 10 000 000 vote tokens, many accounts and one
# (scripts/bench-citizen-votes.sh; BENCH_CITIZEN_VOTES=0 skips it).
if [ "${BENCH_CITIZEN_VOTES:-1}" = 0 ]; then
  echo "citizen-api vote bench skipped (BENCH_CITIZEN_VOTES=0)"
else
  bash scripts/bench-citizen-votes.sh
fi

# citizen-api: the notification feed and unread count with 10 000 000 feed entries
# (scripts/bench-citizen-feed.sh; BENCH_CITIZEN_FEED=0 skips it).
if [ "${BENCH_CITIZEN_FEED:-1}" = 0 ]; then
  echo "citizen-api feed bench skipped (BENCH_CITIZEN_FEED=0)"
else
  bash scripts/bench-citizen-feed.sh
fi

# citizen-api: web pushes one delivery worker sends per second to the local stand-in push service,
# encryption and VAPID included (an ignored measurement in the behaviour suite, release build;
# goal >= 1 000 per second; BENCH_CITIZEN_PUSH=0 skips it).
if [ "${BENCH_CITIZEN_PUSH:-1}" = 0 ]; then
  echo "citizen-api push delivery rate skipped (BENCH_CITIZEN_PUSH=0)"
else
  cargo test --release --locked -p citizen-api --test api -- --ignored delivery_rate --nocapture 2>&1 \
    | grep -E 'delivered|test result' | tee bench-results/citizen-push-rate.txt
fi
