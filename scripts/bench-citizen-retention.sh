#!/usr/bin/env bash
# citizen-api retention sweep benchmark: BENCH_SWEEP_ROWS (default 1000000) feed entries over 10 000
# accounts, all older than `privacy.feed_retain_days`, bulk-inserted into a database the service
# has migrated; the service is started again and its first sweep (at start) deletes them in
# batches of 1 000 rows, one statement each. Reported per backend (SQLite, and PostgreSQL unless
# unreachable): the sweep's time as it logs it (`elapsed_ms`), rows per second, and as the baseline
# of the same run the same rows deleted by one unbatched DELETE (SQLite: on a copy of the file;
# PostgreSQL: inside a transaction rolled back). Results: bench-results/citizen-retention.md (and
# stdout). Knobs: BENCH_SWEEP_ROWS, BENCH_CITIZEN_BIN_DIR (a prebuilt release citizen-api).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS="${BENCH_SWEEP_ROWS:-1000000}"
PORT=18285
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
PG_DB=bench_citizen_retention
# shellcheck source=scripts/bench-citizen-lib.sh
source scripts/bench-citizen-lib.sh
report=bench-results/citizen-retention.md

# The rows: sent 400 days before now (in microseconds since the epoch on SQLite).
old_us=$(( ($(date +%s) - 400 * 86400) * 1000000 ))
sqlite_rows="WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < $ROWS - 1)
INSERT INTO notifications (tag, subject, title, body, sent_at, inserted_at)
SELECT 'sweep-' || i, 'bench-' || (i % 10000), 'Your report has a new status', 'Broken lamp',
       $old_us + i, $old_us + i FROM g;"
pg_rows="INSERT INTO citizen_api.notifications (tag, subject, title, body, sent_at, inserted_at)
SELECT 'sweep-' || i, 'bench-' || (i % 10000), 'Your report has a new status', 'Broken lamp',
       now() - interval '400 days' + i * interval '1 microsecond',
       now() - interval '400 days' + i * interval '1 microsecond'
FROM generate_series(0, $ROWS - 1) i"

serve() { # database-url: runs the service until its first sweep logged; prints elapsed_ms
  CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__DATABASE__URL="$1" \
  CITIZEN_API__DATABASE__MIGRATE_ON_START=true CITIZEN_API__MEDIA__DIR="$work/media" \
  CITIZEN_API__TELEMETRY__FILTER="warn,citizen_api::app::retention=info" \
    "$BIN" serve >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 6000); do
    grep -q 'retention sweep' "$work/server.log" && break
    curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && [ "${2:-}" = ready ] && break
    sleep 0.1
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
  cp "$work/server.log" "$work/last.log"
  { grep -o '"elapsed_ms":"\?[0-9]*' "$work/server.log" || true; } | head -1 | tr -d '"' | cut -d: -f2
}
per_s() { awk -v n="$ROWS" -v ms="$1" 'BEGIN { printf "%.0f", n / (ms / 1000) }'; }

{
  echo "# citizen-api retention sweep benchmark ($(date -u +%F), $(nproc) cores)"
  echo
  echo "$ROWS feed entries past \`privacy.feed_retain_days\`, deleted by the first sweep in batches of 1 000."
  echo
  echo "| backend | sweep s | rows/s | baseline: one unbatched DELETE, s | ratio |"
  echo "|---|---|---|---|---|"
} | tee "$report"

# SQLite.
db="$work/citizen.db"
serve "sqlite://$db" ready >/dev/null
sqlite3 "$db" "$sqlite_rows"
cp "$db" "$work/copy.db"
started=$(date +%s%N)
sqlite3 "$work/copy.db" "DELETE FROM notifications WHERE sent_at < $(( ($(date +%s) - 365 * 86400) * 1000000 ))"
one_ms=$(( ($(date +%s%N) - started) / 1000000 ))
rm -f "$work/copy.db"
ms=$(serve "sqlite://$db")
[ -n "$ms" ] || { echo "no sweep logged:" >&2; cat "$work/last.log" >&2; exit 1; }
left=$(sqlite3 "$db" "SELECT count(*) FROM notifications")
echo "| SQLite | $(awk -v ms="$ms" 'BEGIN { printf "%.2f", ms / 1000 }') | $(per_s "$ms") | $(awk -v ms="$one_ms" 'BEGIN { printf "%.2f", ms / 1000 }') | $(awk -v a="$ms" -v b="$one_ms" 'BEGIN { printf "%.2f", a / b }') |$( [ "$left" = 0 ] || echo " ($left rows left!)")" | tee -a "$report"

# PostgreSQL.
if ! psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then
  echo "| PostgreSQL | skipped: unreachable at $PG_ADMIN | | | |" | tee -a "$report"
  exit 0
fi
psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1
psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null
pg="${PG_ADMIN%/*}/$PG_DB"
serve "$pg" ready >/dev/null
psql "$pg" -qc "$pg_rows" -c "VACUUM ANALYZE citizen_api.notifications" >/dev/null
one_ms=$(psql "$pg" -At -c '\timing on' -c "BEGIN" \
  -c "DELETE FROM citizen_api.notifications WHERE sent_at < now() - interval '365 days'" \
  -c "ROLLBACK" | awk '/^DELETE/ { d = 1; next } d && /^Time:/ && !t { t = $2 } END { printf "%.0f", t }')
ms=$(serve "$pg")
left=$(psql "$pg" -Atc "SELECT count(*) FROM citizen_api.notifications")
echo "| PostgreSQL | $(awk -v ms="$ms" 'BEGIN { printf "%.2f", ms / 1000 }') | $(per_s "$ms") | $(awk -v ms="$one_ms" 'BEGIN { printf "%.2f", ms / 1000 }') | $(awk -v a="$ms" -v b="$one_ms" 'BEGIN { printf "%.2f", a / b }') |$( [ "$left" = 0 ] || echo " ($left rows left!)")" | tee -a "$report"
