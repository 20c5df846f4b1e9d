#!/usr/bin/env bash
# citizen-api data export benchmark: a citizen with BENCH_EXPORT_REPORTS (default 1000) reports
# of 2 photos each (BENCH_EXPORT_PHOTO_BYTES, default 250000, each), filed through the API on
# SQLite with the local media folder; then GET of its export's archive (the ZIP written while it
# downloads). Reported: the server's resident memory at rest (after a warm-up export of another
# citizen) and its peak (VmHWM, reset before the download) during the download, the growth
# against the goal "less than 20 MB", the archive's size and entries, the download's time and
# rate, and as the baseline of the same run the time `tar` takes to read the same photos from
# the media folder (the disk's floor for the bytes the archive carries).
# Results: bench-results/citizen-export.md (and stdout). Knobs: BENCH_EXPORT_REPORTS,
# BENCH_EXPORT_PHOTO_BYTES, BENCH_CITIZEN_BIN_DIR (a prebuilt release citizen-api).
set -euo pipefail
cd "$(dirname "$0")/.."
REPORTS="${BENCH_EXPORT_REPORTS:-1000}"
BYTES="${BENCH_EXPORT_PHOTO_BYTES:-250000}"
PORT=18284
SECRET=bench-export-dev-secret
if [ -n "${BENCH_CITIZEN_BIN_DIR:-}" ]; then
  BIN="$BENCH_CITIZEN_BIN_DIR/citizen-api"
else
  cargo build --release --locked -p citizen-api -q
  TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
  BIN="$TARGET_DIR/release/citizen-api"
fi
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p bench-results
report=bench-results/citizen-export.md
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
status_kib() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$server/status"; }
base="http://127.0.0.1:$PORT/api/v1"

export CITIZEN_API__AUTH__DEV_SECRET=$SECRET
CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__HTTP__WORKERS=2 CITIZEN_API__TELEMETRY__FILTER=error \
CITIZEN_API__DATABASE__URL="sqlite://$work/citizen.db" CITIZEN_API__DATABASE__MIGRATE_ON_START=true \
CITIZEN_API__MEDIA__DIR="$work/media" CITIZEN_API__CAPTCHA__ENABLED=false \
  "$BIN" serve >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
token() { "$BIN" dev-token --sub "$1" --ttl-minutes 120; }
citizen=$(token bench-exporter)
warm=$(token bench-warm-up)
boundary=$(python3 bench/make_filing_body.py "$work/body" "$BYTES" 2)

# The citizen's reports, four filings at a time.
seconds_since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
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
echo 5 > "/proc/$server/clear_refs" # VmHWM from here on
url="http://127.0.0.1:$PORT$(link "$citizen")"
started=$(date +%s%N)
curl -fsS -o "$work/export.zip" "$url"
download_s=$(seconds_since "$started")
peak=$(status_kib VmHWM)
growth=$((peak - rest))
size=$(stat -c %s "$work/export.zip")
entries=$(python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.namelist()))' "$work/export.zip")
started=$(date +%s%N)
tar -C "$work" -cf - media | wc -c >/dev/null
tar_s=$(seconds_since "$started")
goal=$((20 * 1024))
verdict="20.0"; [ "$growth" -lt "$goal" ] && verdict="$verdict (met)" || verdict="$verdict (NOT met)"
rate=$(awk -v b="$size" -v s="$download_s" 'BEGIN { printf "%.0f", b / 1048576 / s }')

{
  echo "# citizen-api data export benchmark ($(date -u +%F), $(nproc) cores, SQLite + local media folder)"
  echo
  echo "$REPORTS reports of 2 photos of $BYTES bytes each, filed in $filed_s s."
  echo
  echo "| archive MiB | entries | download s | MiB/s | baseline: tar of the media folder, s | RSS at rest MiB | peak RSS MiB | growth MiB | goal < 20 MB |"
  echo "|---|---|---|---|---|---|---|---|---|"
  echo "| $(mib $((size / 1024))) | $entries | $download_s | $rate | $tar_s | $(mib "$rest") | $(mib "$peak") | $(mib "$growth") | $verdict |"
} | tee "$report"
