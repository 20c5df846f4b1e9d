#!/usr/bin/env bash
# citizen-api data export benchmark: a citizen with BENCH_EXPORT_REPORTS (default 1000) reports
# of 2 photos each (BENCH_EXPORT_PHOTO_BYTES, default 250000, each), filed through the API, on
# SQLite and on PostgreSQL (unless unreachable), with the local media folder; then GET of its
# export's archive (the ZIP written while it downloads), twice. Reported per backend: the
# server's resident memory at rest (after a warm-up export of another citizen), its growth to
# the peak (VmHWM, reset before each download) during the first download (the database caches of
# the pool's connections fill as it reads) and during the second (the export's own memory),
# against the goal "less than 20 MB"; the archive's size and entries, the download's time and
# rate, and as the baseline of the same run the time `tar` takes to read the same photos from
# the media folder (the disk's floor for the bytes the archive carries).
# Results: bench-results/citizen-export.md (and stdout). Knobs: BENCH_EXPORT_REPORTS,
# BENCH_EXPORT_PHOTO_BYTES, BENCH_CITIZEN_BIN_DIR (a prebuilt release citizen-api).
set -euo pipefail
cd "$(dirname "$0")/.."
REPORTS="${BENCH_EXPORT_REPORTS:-1000}"
BYTES="${BENCH_EXPORT_PHOTO_BYTES:-250000}"
PORT=18284
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
PG_DB=bench_citizen_export
SECRET=bench-export-dev-secret
# shellcheck source=scripts/bench-citizen-lib.sh
source scripts/bench-citizen-lib.sh
report=bench-results/citizen-export.md
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
status_kib() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$server/status"; }
base="http://127.0.0.1:$PORT/api/v1"

export CITIZEN_API__AUTH__DEV_SECRET=$SECRET
seconds_since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
boundary=$(python3 bench/make_filing_body.py "$work/body" "$BYTES" 2)
token() { "$BIN" dev-token --sub "$1" --ttl-minutes 120; }
citizen=$(token bench-exporter)
warm=$(token bench-warm-up)

measure() { # backend-name database-url: one row of the table
  rm -rf "$work/media"
  CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__HTTP__WORKERS=2 CITIZEN_API__TELEMETRY__FILTER=error \
  CITIZEN_API__DATABASE__URL="$2" CITIZEN_API__DATABASE__MIGRATE_ON_START=true \
  CITIZEN_API__MEDIA__DIR="$work/media" CITIZEN_API__CAPTCHA__ENABLED=false \
    "$BIN" serve >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

  # The citizen's reports, four filings at a time.
  started=$(date +%s%N)
  seq 1 "$REPORTS" | xargs -P 4 -I{} curl -fsS -o /dev/null -X POST "$base/reports" \
    -H "Authorization: Bearer $citizen" -H "Content-Type: multipart/form-data; boundary=$boundary" \
    --data-binary @"$work/body"
  filed_s=$(seconds_since "$started")
  curl -fsS -o /dev/null -X POST "$base/reports" -H "Authorization: Bearer $warm" \
    -H "Content-Type: multipart/form-data; boundary=$boundary" --data-binary @"$work/body"

  link() { curl -fsS -X POST "$base/me/data-export" -H "Authorization: Bearer $1" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["download_url"])'; }
  # Warm-up: one small export through the same code path, then the memory at rest.
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT$(link "$warm")"
  rest=$(status_kib VmRSS)
  download() { # the citizen's archive into $work/export.zip; sets download_s and peak (VmHWM since)
    echo 5 > "/proc/$server/clear_refs"
    local url started
    url="http://127.0.0.1:$PORT$(link "$citizen")"
    started=$(date +%s%N)
    curl -fsS -o "$work/export.zip" "$url"
    download_s=$(seconds_since "$started")
    peak=$(status_kib VmHWM)
}
# The first download: the database's page caches of the pool's connections fill as it reads.
download
first_growth=$((peak - rest))
# The second: the same archive again, the caches warm (the export's own memory).
rest2=$(status_kib VmRSS)
download
growth=$((peak - rest2))
size=$(stat -c %s "$work/export.zip")
entries=$(python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.namelist()))' "$work/export.zip")
started=$(date +%s%N)
tar -C "$work" -cf - media | wc -c >/dev/null
tar_s=$(seconds_since "$started")
goal=$((20 * 1000 * 1000 / 1024))
verdict="19.1 MiB"; [ "$first_growth" -lt "$goal" ] && verdict="$verdict (met)" || verdict="$verdict (NOT met)"
rate=$(awk -v b="$size" -v s="$download_s" 'BEGIN { printf "%.0f", b / 1048576 / s }')
echo "| $1 | $(mib $((size / 1024))) | $entries | $filed_s | $download_s | $rate | $tar_s | $(mib "$rest") | $(mib "$first_growth") | $(mib "$growth") | $verdict |" | tee -a "$report"
kill "$server"; wait "$server" 2>/dev/null || true; server=""
}

{
  echo "# citizen-api data export benchmark ($(date -u +%F), $(nproc) cores, local media folder)"
  echo
  echo "A citizen with $REPORTS reports of 2 photos of $BYTES bytes each; the pool's default 10 connections."
  echo
  echo "| backend | archive MiB | entries | filing s | download s | MiB/s | baseline: tar of the media folder, s | RSS at rest MiB | growth, first download MiB | growth, second download MiB | goal < 20 MB (first) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} | tee "$report"
measure SQLite "sqlite://$work/citizen.db"
if psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB" >/dev/null
  measure PostgreSQL "${PG_ADMIN%/*}/$PG_DB"
else
  echo "| PostgreSQL | skipped: unreachable at $PG_ADMIN |" | tee -a "$report"
fi
