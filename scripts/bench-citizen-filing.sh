#!/usr/bin/env bash
# citizen-api filing benchmark: anonymous POST /api/v1/reports with one 5 MB photo (multipart),
# on SQLite with the local media folder, under wrk at BENCH_FILING_CONNECTIONS (default "4 16")
# concurrent uploads. Reported per concurrency: filings per second, p99 latency, the server's
# resident memory at rest (after start-up and warm-up) and its peak (VmHWM) during the run, the
# growth against the goal "less than 2 x concurrency x 5 MB" (uploads are streamed, not held
# whole) split into the heap (RssAnon) and the mapped database (RssFile), and /healthz of the
# same server in the same run as the trivial baseline.
# Results: bench-results/citizen-filing.md (and stdout). Knobs: BENCH_DURATION (s, default 8),
# BENCH_FILING_CONNECTIONS, BENCH_FILING_BYTES (default 5000000), BENCH_CITIZEN_BIN_DIR (a prebuilt
# release citizen-api instead of building).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_FILING_CONNECTIONS:-4 16}"
BYTES="${BENCH_FILING_BYTES:-5000000}"
PORT=18283
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
# shellcheck source=scripts/bench-citizen-lib.sh
source scripts/bench-citizen-lib.sh
report=bench-results/citizen-filing.md
boundary=$(python3 bench/make_filing_body.py "$work/body" "$BYTES")
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
status_kib() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$server/status"; }
# The highest RssAnon and RssFile (KiB) seen every 50 ms until the file $work/stop appears or
# the server is gone: the kernel keeps a high-water mark of the whole resident set only (VmHWM),
# and its file-backed part here is the SQLite database mapped by every connection (mmap_size),
# not upload buffers.
sample_peaks() {
  local anon=0 file=0 a f
  while [ ! -e "$work/stop" ] && [ -e "/proc/$server" ]; do
    read -r a f < <(awk '$1 == "RssAnon:" { a = $2 } $1 == "RssFile:" { f = $2 } END { print a + 0, f + 0 }' "/proc/$server/status")
    [ "$a" -gt "$anon" ] && anon=$a
    [ "$f" -gt "$file" ] && file=$f
    sleep 0.05
  done
  echo "$anon $file" > "$work/peaks"
}

echo "# citizen-api filing benchmark ($(date -u +%F), $(nproc) cores, wrk -t2 -d${DURATION}s, photo $BYTES bytes, SQLite + local media folder)" | tee "$report"
echo | tee -a "$report"
echo "| concurrency | /healthz rps | filings/s | filing p99 ms | RSS at rest MiB | peak RSS MiB | growth MiB | of it anonymous MiB | of it mapped files MiB | goal < 2 x c x 5 MB, MiB |" | tee -a "$report"
echo "|---|---|---|---|---|---|---|---|---|---|" | tee -a "$report"
for c in $CONNECTIONS; do
  rm -rf "$work/media" "$work/citizen.db"*
  CITIZEN_API__HTTP__PORT=$PORT CITIZEN_API__HTTP__WORKERS=2 CITIZEN_API__TELEMETRY__FILTER=error \
  CITIZEN_API__DATABASE__URL="sqlite://$work/citizen.db" CITIZEN_API__MEDIA__DIR="$work/media" \
  CITIZEN_API__CAPTCHA__ENABLED=false CITIZEN_API__RATE_LIMIT__ANONYMOUS_REPORTS_PER_HOUR=0 \
    "$BIN" serve >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
  trivial=$(wrk -t2 -c"$c" -d"${DURATION}s" "http://127.0.0.1:$PORT/healthz" | awk '/Requests\/sec/ {print int($2)}')
  rest=$(status_kib VmRSS)
  rest_anon=$(status_kib RssAnon)
  rest_file=$(status_kib RssFile)
  rm -f "$work/stop"
  sample_peaks &
  sampler=$!
  out=$(WRK_BODY="$work/body" WRK_CONTENT_TYPE="multipart/form-data; boundary=$boundary" \
    wrk -t2 -c"$c" -d"${DURATION}s" --latency -s bench/wrk_post_body.lua "http://127.0.0.1:$PORT/api/v1/reports")
  rps=$(echo "$out" | awk '/Requests\/sec/ {printf "%.1f", $2}')
  p99=$(echo "$out" | awk '$1 == "99%" { v = $2; if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /us$/) { sub(/us$/, "", v); v = v / 1000 } else if (v ~ /s$/) { sub(/s$/, "", v); v = v * 1000 } printf "%.0f", v }')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  touch "$work/stop"; wait "$sampler"
  read -r peak_anon peak_file < "$work/peaks"
  peak=$(status_kib VmHWM)
  growth=$((peak - rest))
  goal=$((2 * c * BYTES / 1024))
  verdict="$(mib "$goal")"; [ "$growth" -lt "$goal" ] && verdict="$verdict (met)" || verdict="$verdict (NOT met)"
  echo "| $c | $trivial | $rps${non2xx:+ ($non2xx non-2xx)} | $p99 | $(mib "$rest") | $(mib "$peak") | $(mib "$growth") | $(mib $((peak_anon - rest_anon))) | $(mib $((peak_file - rest_file))) | $verdict |" | tee -a "$report"
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
