#!/usr/bin/env bash
# citizen-api read benchmark (part of `make bench`, docs/benchmarks.md "citizen-api").
# Generated cities of BENCH_CITIZEN_SIZES reports (default 100000 and 1000000, with one vote token
# a report on average, 0.6 of them active) on SQLite and
# PostgreSQL+PostGIS (skipped when unreachable), loaded in bulk SQL (bench/citizen_pg.sql,
# bench/citizen_sqlite.sql) into databases migrated by the service itself. For each: wrk --latency
# on, back to back in one run,
#   - the one-query ceiling (crates/citizen-api/examples/one_query.rs: a bare actix-web handler,
#     one SELECT by primary key through sqlx, same database, pool and workers),
#   - the detail GET /api/v1/reports/{id} (20 000 random ids; before the ceiling and the detail
#     each id is read once, bench/wrk_each_once.lua, so both are measured warm),
#   - the public list: default, q (common title words), a 500 m radius and the location order
#     (random points in the city), one category, one status;
#   - the admin list GET /api/v1/admin/reports (dev tokens): as access-all by default, with
#     overdue=true and with one category, and as an officer of one category (a second table);
#   - Open311's GET /api/v1/open311/v2/requests.json (docs/open311.md): the generated city's
#     last 90 days (its reports are filed 2023-2025) as the standard's default answers them (up
#     to 1 000 requests), the same window's first 20, and a sync (updated_after its last two
#     days) and servicerequestupdates of its last month, each against the public list's default
#     page of the same run (a third table);
#   - `orderBy=votes` (issue 55), both directions, with a category or a status filter, on the
#     public list, the admin list (access-all) and a citizen's own list, each against the same
#     list's default (date) order of the same run (a fourth table);
#   - the officers' figures GET /api/v1/admin/stats (issue 56) over the city's last month and its
#     last year, as access-all (a note, against the admin list's default of the same run).
# Requests per second and p99; the detail and the lists as ratios to the ceiling, and each
# rate at the largest size to the smallest. On PostgreSQL, EXPLAIN (ANALYZE, BUFFERS) of each
# list query at the largest size. Results: bench-results/citizen.md (and stdout); plans:
# bench-results/citizen-plans.txt. Knobs: BENCH_CITIZEN_SIZES, BENCH_DURATION (s, default 8),
# BENCH_CONNECTIONS (default 16), BENCH_BACKENDS ("sqlite postgres"), BENCH_CITIZEN_BIN_DIR (prebuilt
# release binaries citizen-api and one_query instead of building), BENCH_CITIZEN_KEEP=1 keeps
# the generated databases (bench-results/citizen-*.db, PostgreSQL bench_citizen_*),
# BENCH_CITIZEN_REUSE=1 measures kept ones again instead of generating. At the largest size, on
# PostgreSQL each list's statement alone (scripts/bench-citizen-statements.sh, pgbench -M
# prepared) and, where nginx is installed, the default list through deploy/proxy/nginx.conf
# against nginx serving the same bytes from a file (scripts/bench-citizen-proxy.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
SIZES="${BENCH_CITIZEN_SIZES:-100000 1000000}"
BACKENDS="${BENCH_BACKENDS:-sqlite postgres}"
POOL=8
PORT=18290
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed: apt-get install -y sqlite3" >&2; exit 1; }
if [ -n "${BENCH_CITIZEN_BIN_DIR:-}" ]; then
  # Prebuilt release binaries (citizen-api and one_query) instead of building them here.
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
report=bench-results/citizen.md
plans=bench-results/citizen-plans.txt
pg_url() { echo "${PG_ADMIN%/*}/$1"; }
largest="${SIZES##* }"
smallest="${SIZES%% *}"

# The generators' words (same syllables): title word k < 100 is s[k % 20] s[k / 20].
syl=(pra ho ve mi lo sta kra ny do ce zi bu tre vy la ko ne ru po ska)
q_words=()
for k in 21 34 47 58 63 76 85 92; do q_words+=("${syl[k % 20]}${syl[k / 20]}"); done
python3 -c "
import random; r = random.Random(8)
for _ in range(2000): print(f'{14.33 + r.random() * 0.27:.5f},{50.02 + r.random() * 0.11:.5f}')
" > "$work/points"
# Location last: on SQLite its slow queries outlive wrk's time-out and would starve what follows.
QUERIES="default q category status radius location"

wait_up() { # url [tries, default 300]
  for _ in $(seq 1 "${2:-300}"); do curl -fs "$1" >/dev/null && return 0; sleep 0.1; done
  echo "not up: $1" >&2; return 1
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
ADMIN_SECRET="bench-citizen-admin-dev-secret-0123456789"
ADMIN_QUERIES="admin_default admin_overdue admin_category admin_officer"
OPEN311_QUERIES="open311_window open311_page open311_sync open311_updates"
# Each with the date order it is compared with: "query:reference".
VOTES_QUERIES="votes:default votes_asc:default votes_category:category votes_status:status admin_votes:admin_default admin_votes_asc:admin_default admin_votes_category:admin_category own_votes:own"
OPEN311_KEY="bench-open311-key-0123456789"
OPEN311_WINDOW="start_date=2025-10-03T00:00:00Z&end_date=2025-12-31T23:59:59Z"
token() { # sub scope... (a dev token valid for an hour)
  local sub=$1 scopes=(); shift
  for scope in "$@"; do scopes+=(--scope "$scope"); done
  CITIZEN_API__AUTH__DEV_SECRET="$ADMIN_SECRET" "$BIN" dev-token --sub "$sub" \
    "${scopes[@]}" --ttl-minutes 60
}
measure() { # targets-file base-url [token] -> "rps p99_ms"
  local script=bench/wrk_requests.lua
  [ -n "${3:-}" ] && script=bench/wrk_admin_requests.lua
  WRK_TOKEN="${3:-}" WRK_TARGETS="$1" wrk -t"$(( CONNECTIONS < 2 ? CONNECTIONS : 2 ))" -c"$CONNECTIONS" \
    -d"${DURATION}s" --timeout 10s --latency \
    -s "$script" "$2" | awk '
      /Requests\/sec/ { rps = int($2) }
      /^ +99%/ { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
                 ms = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : v; p99 = ms }
      END { printf "%d %.1f\n", rps, p99 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

generate_sqlite() { # size file
  local file=$2 drops creates triggers
  CITIZEN_API__DATABASE__URL="sqlite://$file" CITIZEN_API__HTTP__PORT=$PORT \
    CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" serve >> "$work/server.log" 2>&1 & server=$!
  wait_up "http://127.0.0.1:$PORT/readyz"
  stop_server
  local tables="tbl_name IN ('reports', 'issues', 'issue_changes', 'media', 'vote_tokens')"
  drops=$(sqlite3 "$file" "SELECT 'DROP INDEX ' || name || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND $tables")
  creates=$(sqlite3 "$file" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND $tables")
  # The triggers that copy report columns onto issues (migration 0014) would probe unindexed
  # tables row by row during the load: off, then the copies are filled in one pass.
  local copy="name IN ('issues_copy_report', 'reports_copy_to_issues', 'media_insert_copy_to_issues', 'media_delete_copy_to_issues',
    'vote_tokens_count_insert', 'vote_tokens_count_update', 'vote_tokens_count_delete', 'reports_votes_to_issues', 'issues_copy_votes')"
  triggers=$(sqlite3 "$file" "SELECT sql || ';' FROM sqlite_master WHERE type = 'trigger' AND $copy")
  # Read before the load starts: a read inside the pipe below raced the load's first writes
  # ("database is locked").
  local untrigger
  untrigger=$(sqlite3 "$file" "SELECT 'DROP TRIGGER ' || name || ';' FROM sqlite_master WHERE type = 'trigger' AND $copy")
  { echo "CREATE TEMP TABLE arg AS SELECT $1 AS n;"; echo "$drops"; echo "$untrigger"
    cat bench/citizen_sqlite.sql; echo "$creates"; cat bench/citizen_sqlite_copies.sql
    echo "$triggers"; echo "ANALYZE;"; } | sqlite3 "$file" >/dev/null
}
generate_postgres() { # size db
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $2" -c "CREATE DATABASE $2" >/dev/null
  psql "$(pg_url "$2")" -qc "CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pg_trgm" >/dev/null
  CITIZEN_API__DATABASE__URL="$(pg_url "$2")" CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" migrate >/dev/null
  psql "$(pg_url "$2")" -q -v n="$1" -f bench/citizen_pg.sql >/dev/null
}
sql() { # backend url-or-file query
  if [ "$1" = sqlite ]; then sqlite3 "$2" "$3"; else psql "$2" -Atqc "SET search_path = citizen_api, public" -c "$3"; fi
}

# `search` must be exactly the service's fold of "title description id": checked on a sample.
check_search() { # backend url-or-file
  sql "$1" "$2" "SELECT title || '|' || description || '|' || id || '|' || search FROM reports ORDER BY random() LIMIT 500" |
    python3 -c "
import re, sys
for line in sys.stdin:
    title, description, rid, search = line.rstrip('\n').split('|')
    folded = re.sub('[^0-9a-z]+', ' ', f'{title} {description} {rid}'.lower()).strip()
    assert folded == search, (folded, search)
"
}

declare -A RPS P99
{
  echo "# citizen-api read benchmark ($(date -u +%F), $(nproc) cores shared with other work, wrk -t2 -c$CONNECTIONS -d${DURATION}s --latency, pool $POOL, workers $(nproc))"
  echo
  echo "| backend | reports | load s | ceiling rps (p99 ms) | detail rps (p99 ms) | detail / ceiling | default | q | category | status | radius | location |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} | tee "$report"
: > "$plans"

pg_ok=""
if psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then pg_ok=1; fi

for backend in $BACKENDS; do
  if [ "$backend" = postgres ] && [ -z "$pg_ok" ]; then
    echo "| postgres | skipped: PostgreSQL with PostGIS unreachable at $PG_ADMIN | | | | | | | | | | |" | tee -a "$report"
    continue
  fi
  for size in $SIZES; do
    t0=$(date +%s.%N)
    reuse="${BENCH_CITIZEN_REUSE:-0}"
    if [ "$backend" = sqlite ]; then
      file="$PWD/bench-results/citizen-$size.db"
      if [ "$reuse" != 1 ] || [ ! -f "$file" ]; then
        reuse=0; rm -f "$file" "$file-wal" "$file-shm"
        generate_sqlite "$size" "$file"
      fi
      url="sqlite://$file"; target="$file"
    else
      db="bench_citizen_$size"
      url=$(pg_url "$db"); target="$url"
      if [ "$reuse" != 1 ] || ! psql "$url" -Atc "SELECT 1" >/dev/null 2>&1; then
        reuse=0; generate_postgres "$size" "$db"
      else
        # A kept database from an older build: bring it to this build's schema (SQLite
        # migrates on start by itself).
        CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" migrate >/dev/null
      fi
    fi
    load_s=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.0f", a - b }')
    [ "$reuse" = 1 ] && load_s="reused"
    # The load leaves gigabytes of dirty pages (SQLite without fsync, PostgreSQL's shared
    # buffers) that the kernel and the checkpointer would write back during the first minutes of
    # measuring: SQLite's location page at 1 000 000 read 5 900 rps on a fresh city and 6 979 on
    # the same city reused. Written back now, so every run measures the service alone.
    [ "$backend" = postgres ] && psql "$url" -qc "CHECKPOINT" >/dev/null
    sync
    # A kept SQLite city may have left the page cache since (a build between two runs): its
    # warm-up then read from disk, and a run's detail at 1 000 000 was measured with 319 of its
    # 20 000 ids read once. Read back into the cache, as the load left it.
    [ "$backend" = sqlite ] && cat "$file" > /dev/null
    # Likewise PostgreSQL's files (a run's detail at 1 000 000 read 632 rps, p99 1 s, after the
    # SQLite city's read had pushed them out): read into the kernel's cache by pg_prewarm.
    if [ "$backend" = postgres ]; then
      psql "$url" -Atqc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" \
        -c "SELECT count(pg_prewarm(c.oid, 'read')) FROM pg_class c WHERE c.relkind IN ('r', 'i', 't') AND c.relnamespace = 'citizen_api'::regnamespace" >/dev/null
    fi
    check_search "$backend" "$target"

    sql "$backend" "$target" "SELECT id FROM reports ORDER BY random() LIMIT 20000" > "$work/ids"
    sed 's|^|/one/|' "$work/ids" > "$work/one"
    sed 's|^|/api/v1/reports/|' "$work/ids" > "$work/detail"
    echo "/api/v1/reports" > "$work/default"
    printf '/api/v1/reports?q=%s\n' "${q_words[@]}" > "$work/q"
    sed 's|^\(.*\)$|/api/v1/reports?location=\1\&orderBy=location|' "$work/points" > "$work/location"
    # A radius of 500 m around the same points, in the default (date) order.
    sed 's|^\(.*\)$|/api/v1/reports?location=\1,500|' "$work/points" > "$work/radius"
    sql "$backend" "$target" "SELECT '/api/v1/reports?category=' || id FROM report_categories WHERE NOT is_default ORDER BY name" > "$work/category"
    printf '/api/v1/reports?status=%s\n' open accepted resolved duplicate > "$work/status"
    q_share=$(for w in "${q_words[@]}"; do sql "$backend" "$target" "SELECT count(*) FROM reports WHERE search LIKE '%$w%'"; done |
      awk -v n="$size" '{ s += $1 } END { printf "%.1f", 100 * s / NR / n }')

    # Back to back: the ceiling, then the service.
    "$ONE" "$PORT" "$url" "$POOL" & server=$!
    wait_up "http://127.0.0.1:$PORT/one/$(head -1 "$work/ids")"
    # Warm-up: every id once (bench/wrk_each_once.lua), for the ceiling as for the detail.
    WRK_TARGETS="$work/one" wrk -t1 -c4 -d8s -s bench/wrk_each_once.lua "http://127.0.0.1:$PORT" >/dev/null
    read -r ceiling ceiling_p99 < <(measure "$work/one" "http://127.0.0.1:$PORT")
    stop_server
    # The admin list: an officer of the first category (by name) besides the default.
    officer_category=$(sed -n 1p "$work/category" | sed 's/.*=//')
    sql "$backend" "$target" "INSERT INTO category_officers (subject, category_id) VALUES ('bench-officer', '$officer_category') ON CONFLICT DO NOTHING" >/dev/null
    echo "/api/v1/admin/reports" > "$work/admin_default"
    echo "/api/v1/admin/reports?overdue=true" > "$work/admin_overdue"
    sed 's|/api/v1/reports|/api/v1/admin/reports|' "$work/category" > "$work/admin_category"
    echo "/api/v1/admin/reports" > "$work/admin_officer"
    boss=$(token bench-boss cityuser:reports:read cityuser:report-categories:access-all)
    officer=$(token bench-officer cityuser:reports:read)
    CITIZEN_API__DATABASE__URL="$url" CITIZEN_API__DATABASE__MAX_CONNECTIONS=$POOL \
      CITIZEN_API__AUTH__DEV_SECRET="$ADMIN_SECRET" CITIZEN_API__OPEN311__API_KEYS__BENCH="$OPEN311_KEY" \
      CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__TELEMETRY__FILTER=warn "$BIN" serve >> "$work/server.log" 2>&1 & server=$!
    # Ready: the database reachable and its schema current.
    started=$(date +%s.%N)
    wait_up "http://127.0.0.1:$PORT/readyz" 3000
    ready_s=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    WRK_TARGETS="$work/detail" wrk -t1 -c4 -d8s -s bench/wrk_each_once.lua "http://127.0.0.1:$PORT" >/dev/null
    read -r detail detail_p99 < <(measure "$work/detail" "http://127.0.0.1:$PORT")
    cells=""
    for query in $QUERIES; do
      read -r r p < <(measure "$work/$query" "http://127.0.0.1:$PORT")
      RPS["$backend-$size-$query"]=$r; P99["$backend-$size-$query"]=$p
      cells="$cells | $r ($p ms; $(ratio "$r" "$ceiling"))"
    done
    admin_cells=""
    for query in $ADMIN_QUERIES; do
      who="$boss"; [ "$query" = admin_officer ] && who="$officer"
      read -r r p < <(measure "$work/$query" "http://127.0.0.1:$PORT" "$who")
      RPS["$backend-$size-$query"]=$r; P99["$backend-$size-$query"]=$p
      admin_cells="$admin_cells | $r ($p ms; $(ratio "$r" "$ceiling"))"
    done
    echo "| $backend | $size | $detail ($detail_p99)$admin_cells |" >> "$work/admin_rows"
    # orderBy=votes: the public, admin and own lists, each against its date order.
    echo "/api/v1/reports?orderBy=votes" > "$work/votes"
    echo "/api/v1/reports?orderBy=votes&orderDirection=asc" > "$work/votes_asc"
    sed 's|$|\&orderBy=votes|' "$work/category" > "$work/votes_category"
    sed 's|$|\&orderBy=votes|' "$work/status" > "$work/votes_status"
    echo "/api/v1/admin/reports?orderBy=votes" > "$work/admin_votes"
    echo "/api/v1/admin/reports?orderBy=votes&orderDirection=asc" > "$work/admin_votes_asc"
    sed 's|$|\&orderBy=votes|' "$work/admin_category" > "$work/admin_votes_category"
    author=$(sql "$backend" "$target" "SELECT author FROM reports WHERE author IS NOT NULL GROUP BY author ORDER BY count(*) DESC, author LIMIT 1")
    own_reports=$(sql "$backend" "$target" "SELECT count(*) FROM reports WHERE author = '$author'")
    echo "/api/v1/me/reports" > "$work/own"
    echo "/api/v1/me/reports?orderBy=votes" > "$work/own_votes"
    citizen=$(token "$author")
    read -r r p < <(measure "$work/own" "http://127.0.0.1:$PORT" "$citizen")
    RPS["$backend-$size-own"]=$r; P99["$backend-$size-own"]=$p
    votes_cells=""
    for pair in $VOTES_QUERIES; do
      query=${pair%%:*}; reference=${pair##*:}
      who=""; case "$query" in admin_*) who="$boss" ;; own_*) who="$citizen" ;; esac
      read -r r p < <(measure "$work/$query" "http://127.0.0.1:$PORT" "$who")
      RPS["$backend-$size-$query"]=$r; P99["$backend-$size-$query"]=$p
      votes_cells="$votes_cells | $r ($p; $(ratio "$r" "${RPS[$backend-$size-$reference]}"))"
    done
    echo "| $backend | $size | ${RPS[$backend-$size-default]} | ${RPS[$backend-$size-admin_default]} | ${RPS[$backend-$size-own]} ($own_reports reports)$votes_cells |" >> "$work/votes_rows"
    # The officers' figures: the generated city's last month and last year (filed 2023-2025).
    echo "/api/v1/admin/stats?dateFrom=2025-12-01T00:00:00Z&dateTo=2026-01-01T00:00:00Z" > "$work/stats_month"
    echo "/api/v1/admin/stats?dateFrom=2025-01-01T00:00:00Z&dateTo=2026-01-01T00:00:00Z" > "$work/stats_year"
    # One connection: a figures request is an officer's page, not a crowd's, and a year of a
    # large city takes seconds (16 at once would hold the pool past the next measurements).
    stats_note="  - $backend $size, GET /admin/stats as access-all, one connection (rps, p99 ms):"
    for query in stats_month stats_year; do
      read -r r p < <(CONNECTIONS=1 measure "$work/$query" "http://127.0.0.1:$PORT" "$boss")
      stats_note="$stats_note $query $r ($p ms)"
    done
    received=$(curl -fs --retry 5 --retry-all-errors --retry-delay 2 -H "Authorization: Bearer $boss" "http://127.0.0.1:$PORT$(cat "$work/stats_year")" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"]["received"])' || echo "?")
    echo "$stats_note; the year received $received issues" >> "$work/notes"
    # The console's live queue (issue 56): each open queue asks for its page of 50 and the
    # counts per status every second; unchanged, the page is a 304 (If-None-Match).
    queue_page="/api/v1/admin/reports?limit=50"
    echo "$queue_page" > "$work/queue_page"
    echo "/api/v1/admin/reports/status-counts" > "$work/queue_counts"
    queue_etag=$(curl -fsS --retry 5 --retry-all-errors --retry-delay 2 -o /dev/null -D - -H "Authorization: Bearer $boss" "http://127.0.0.1:$PORT$queue_page" | tr -d '\r' | awk 'tolower($1) == "etag:" { print $2 }' || true)
    read -r r_page p_page < <(measure "$work/queue_page" "http://127.0.0.1:$PORT" "$boss")
    read -r r_304 p_304 < <(WRK_ETAG="$queue_etag" measure "$work/queue_page" "http://127.0.0.1:$PORT" "$boss")
    read -r r_counts p_counts < <(measure "$work/queue_counts" "http://127.0.0.1:$PORT" "$boss")
    echo "  - $backend $size, the console's poll as access-all ($CONNECTIONS connections; rps, p99 ms): the queue's page of 50 $r_page ($p_page ms), the same unchanged (304) $r_304 ($p_304 ms), the counts per status $r_counts ($p_counts ms)" >> "$work/notes"
    echo "/api/v1/open311/v2/requests.json?$OPEN311_WINDOW" > "$work/open311_window"
    echo "/api/v1/open311/v2/requests.json?$OPEN311_WINDOW&page_size=20" > "$work/open311_page"
    echo "/api/v1/open311/v2/requests.json?updated_after=2025-12-30T00:00:00Z" > "$work/open311_sync"
    echo "/api/v1/open311/v2/servicerequestupdates.json?api_key=$OPEN311_KEY&start_date=2025-12-01T00:00:00Z&end_date=2025-12-31T23:59:59Z" > "$work/open311_updates"
    open311_cells=""
    for query in $OPEN311_QUERIES; do
      read -r r p < <(measure "$work/$query" "http://127.0.0.1:$PORT")
      open311_cells="$open311_cells | $r ($p ms; $(ratio "$r" "${RPS[$backend-$size-default]}"))"
    done
    # Counted once the measuring's backlog has drained (at 1 000 000 reports the requests wrk
    # left queued hold the pool for seconds after it stops): retried, and "?" if still refused.
    count_rows() { curl -fs --retry 5 --retry-all-errors --retry-delay 2 "http://127.0.0.1:$PORT$(cat "$work/$1")" |
      python3 -c 'import json,sys; print(len(json.load(sys.stdin)))' || echo "?"; }
    rows_window=$(count_rows open311_window)
    rows_sync=$(count_rows open311_sync)
    rows_updates=$(count_rows open311_updates)
    echo "| $backend | $size | ${RPS[$backend-$size-default]} (${P99[$backend-$size-default]})$open311_cells | $rows_window / $rows_sync / $rows_updates |" >> "$work/open311_rows"
    if [ "$size" = "$largest" ] && command -v nginx >/dev/null; then
      # Through the reverse proxy (deploy/proxy/nginx.conf): the default list, micro-cached,
      # against nginx serving the same bytes from a file, same run.
      read -r proxied file_rps < <(bash scripts/bench-citizen-proxy.sh "$PORT" "$work/proxy")
      echo "  - $backend $size through nginx (deploy/proxy): cached default list $proxied rps, the same bytes from a file $file_rps rps: $(ratio "$proxied" "$file_rps")" >> "$work/notes"
    fi
    peak=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
    rss=$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
    anon=$(awk '/RssAnon/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
    stop_server
    if [ "$backend" = postgres ]; then
      # Each list's own statement alone, exactly as the service sends it (pgbench -M prepared,
      # as many clients as the pool), against the list through the service: the service's share.
      statements=""
      for query in default q category status location; do
        t=$(bash scripts/bench-citizen-statements.sh "$url" "$query" "${q_words[0]}" \
          "$(sed -n 1p "$work/category" | sed 's/.*=//')" "$POOL" "$DURATION")
        statements="$statements $query ${RPS[$backend-$size-$query]}/$t=$(ratio "${RPS[$backend-$size-$query]}" "$t")"
      done
      echo "  - $backend $size, list rps / its statement alone (pgbench -M prepared -c $POOL, statements/s):$statements" >> "$work/notes"
    fi
    echo "| $backend | $size | $load_s | $ceiling ($ceiling_p99) | $detail ($detail_p99) | $(ratio "$detail" "$ceiling")$cells |" | tee -a "$report"
    echo "  - $backend $size: q words ${q_words[*]} each match $q_share % of the reports on average; ready after $ready_s s; server after the bench: VmRSS $rss MiB (RssAnon $anon MiB), peak VmHWM $peak MiB" >> "$work/notes"

    if [ "$backend" = postgres ] && [ "$size" = "$largest" ]; then
      bash scripts/bench-citizen-explain.sh "$url" "${q_words[0]}" "$(sed -n 1p "$work/points")" \
        "$(sed -n 1p "$work/category" | sed 's/.*=//')" >> "$plans"
      bash scripts/bench-citizen-admin-explain.sh "$url" "$officer_category" >> "$plans"
    fi
    if [ "${BENCH_CITIZEN_KEEP:-0}" != 1 ]; then
      if [ "$backend" = sqlite ]; then rm -f "$file" "$file-wal" "$file-shm"
      else psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db" >/dev/null; fi
    fi
  done
done

{
  echo
  echo "List cells: rps (p99; ratio to the one-query ceiling of the same run). Goals at the largest size"
  echo "(issue 33): PostgreSQL default >= 0.3, q >= 0.2, location >= 0.07 with p99 <= 50 ms, detail >= 0.6;"
  echo "SQLite default >= 0.2, location >= 0.03; each list >= 0.5 of its statement alone (PostgreSQL);"
  echo "through nginx the cached default list >= 0.7 of the same bytes from a file; RSS <= 120 MB; ready <= 3 s."
  echo
  echo "Admin list (GET /api/v1/admin/reports, same runs; cells: rps (p99; ratio to the ceiling)):"
  echo
  echo "| backend | reports | detail rps (p99 ms) | access-all default | overdue=true | one category | officer of one category |"
  echo "|---|---|---|---|---|---|---|"
  cat "$work/admin_rows" 2>/dev/null || true
  echo
  echo "Open311 (GET /api/v1/open311/v2/requests.json, same runs; cells: rps (p99 ms; ratio to the public"
  echo "default list of 20 rows)); the window is the city's last 90 days, $OPEN311_WINDOW:"
  echo
  echo "| backend | reports | public default list rps (p99 ms) | the window (1 000 requests) | its first 20 | sync (updated_after) | servicerequestupdates (December 2025) | requests in the window / in the sync / updates |"
  echo "|---|---|---|---|---|---|---|---|"
  cat "$work/open311_rows" 2>/dev/null || true
  echo
  echo "orderBy=votes (issue 55; same runs; cells: rps (p99 ms; ratio to the same list's date order, same"
  echo "filter: public default, one category, one status; admin access-all default or one category; own)):"
  echo
  echo "| backend | reports | public by date rps | admin by date rps | own by date rps | public by votes | votes asc | votes, one category | votes, one status | admin by votes | admin votes asc | admin votes, one category | own by votes |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  cat "$work/votes_rows" 2>/dev/null || true
  echo
  cat "$work/notes" 2>/dev/null || true
  for backend in $BACKENDS; do
    line="  - $backend, rate at $largest / rate at $smallest:"
    for query in $QUERIES; do
      a="${RPS[$backend-$largest-$query]:-}"; b="${RPS[$backend-$smallest-$query]:-}"
      [ -n "$a" ] && [ -n "$b" ] && line="$line $query $(ratio "$a" "$b")"
    done
    echo "$line"
  done
  if [ -s "$plans" ]; then echo; echo "PostgreSQL plans at $largest reports: $plans"; fi
} | tee -a "$report"
echo "Written to $report"
