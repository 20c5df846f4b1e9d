#!/usr/bin/env bash
# streets-api's OGC API - Features (/collections/streets/items) against tipg, the OGC API -
# Features server a city would otherwise put in front of the same PostGIS table: same run, same
# machine, same table (schema `streets` of one database, imported by `streets-api import`).
#
# Data: a generated city (bench/generate_city.py) of BENCH_SIZE streets (default 100000).
# tipg: from PyPI (TIPG_VERSION, default 1.6.1) in a venv, under uvicorn with as many workers as
# streets-api has (BENCH_WORKERS, default the core count), reading the table `streets.streets`.
# streets-api: release build, PostgreSQL backend, answering from its read model.
# Requests (wrk -t2 -cBENCH_CONNECTIONS -dBENCH_DURATION s with the request-list script, each
# request a different target drawn at random):
#   - page:  items?limit=100&offset=K, K uniform over the whole city (a client paging through;
#            tipg with sortby=number, the order streets-api pages in);
#   - first: the same with K uniform in 0..900 (the first pages only);
#   - bbox:  items?limit=100&bbox=… a 300 m x 300 m box around 2 000 random points;
#   - one:   items/{id} for 20 000 random streets (streets-api by number, tipg by its key).
# Results: bench-results/streets-tipg.md (and stdout), requests per second and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${BENCH_DURATION:-8}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
SIZE="${BENCH_SIZE:-100000}"
WORKERS="${BENCH_WORKERS:-$(nproc)}"
TIPG_VERSION="${TIPG_VERSION:-1.6.1}"
PORT=18285
TIPG_PORT=18286
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
DB=bench_streets_tipg
VENV="${BENCH_TIPG_VENV:-$HOME/.cache/streets-tipg-venv}"
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" | grep -q 1 \
  || { echo "PostgreSQL with PostGIS is needed at $PG_ADMIN" >&2; exit 1; }
if ! "$VENV/bin/python" -c "import tipg, uvicorn" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "tipg==$TIPG_VERSION" uvicorn
fi
cargo build --release --locked -p streets-api -q
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
BIN="$TARGET_DIR/release/streets-api"
work=$(mktemp -d)
pids=()
cleanup() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
wait_for() { # url
  for _ in $(seq 1 300); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "$1 did not answer" >&2; return 1
}

python3 bench/generate_city.py "$SIZE" "$work/city.geojson"
psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
url="${PG_ADMIN%/*}/$DB"
export STREETS_API__DATABASE__URL="$url" STREETS_API__DATABASE__MIGRATE_ON_START=true \
  STREETS_API__HTTP__PORT=$PORT STREETS_API__HTTP__HOST=127.0.0.1 STREETS_API__HTTP__WORKERS=$WORKERS \
  STREETS_API__TELEMETRY__FILTER=warn
"$BIN" migrate >/dev/null
"$BIN" import "$work/city.geojson" >/dev/null
psql "$url" -qc "VACUUM ANALYZE streets.streets" >/dev/null

"$BIN" serve > "$work/streets-api.log" 2>&1 & pids+=($!)
wait_for "http://127.0.0.1:$PORT/readyz"
DATABASE_URL="postgresql://${url#postgres://}" TIPG_DB_SCHEMAS='["streets"]' TIPG_DB_TABLES='["streets.streets"]' \
  "$VENV/bin/uvicorn" tipg.main:app --host 127.0.0.1 --port "$TIPG_PORT" --workers "$WORKERS" \
  --log-level warning > "$work/tipg.log" 2>&1 & pids+=($!)
wait_for "http://127.0.0.1:$TIPG_PORT/collections/streets.streets"

# The same requests for both servers: offsets, boxes and streets drawn once.
psql "$url" -Atc "SELECT number || ' ' || id FROM streets.streets" > "$work/ids"
python3 - "$work" "$SIZE" <<'PY'
import math, random, sys
work, size = sys.argv[1], int(sys.argv[2])
r = random.Random(20261127)
ours, tipg = "/api/v1/collections/streets/items", "/collections/streets.streets/items"
def write(name, pairs):
    with open(f"{work}/{name}-ours", "w") as a, open(f"{work}/{name}-tipg", "w") as b:
        for x, y in pairs:
            a.write(ours + x + "\n"); b.write(tipg + y + "\n")
offsets = [r.randint(0, max(0, size - 100)) for _ in range(2000)]
write("page", [(f"?limit=100&offset={k}", f"?limit=100&offset={k}&sortby=number") for k in offsets])
first = [r.randint(0, min(900, max(0, size - 100))) for _ in range(2000)]
write("first", [(f"?limit=100&offset={k}", f"?limit=100&offset={k}&sortby=number") for k in first])
boxes = []
for line in open(f"{work}/city.geojson.points.txt"):
    lon, lat = map(float, line.split()[:2])
    dlat = 150 / 111_250.0
    dlon = 150 / (111_320.0 * math.cos(math.radians(lat)))
    q = f"?limit=100&bbox={lon - dlon:.7f},{lat - dlat:.7f},{lon + dlon:.7f},{lat + dlat:.7f}"
    boxes.append((q, q))
write("bbox", boxes)
ids = [l.split() for l in open(f"{work}/ids")]
write("one", [(f"/{n}", f"/{i}") for n, i in (r.choice(ids) for _ in range(20000))])
PY
# Both answer the same streets (checked on a few requests, not timed).
check() { # kind line
  local a b
  a=$(curl -fs "http://127.0.0.1:$PORT$(sed -n "$2p" "$work/$1-ours")" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(f["properties"]["I_GM_U"] if "properties" in f else 0 for f in d.get("features", [d])))')
  b=$(curl -fs -H 'Accept: application/geo+json' "http://127.0.0.1:$TIPG_PORT$(sed -n "$2p" "$work/$1-tipg")" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(f["properties"]["number"] if "properties" in f else 0 for f in d.get("features", [d])))')
  [ "$a" = "$b" ] || { echo "streets-api and tipg differ on $1 line $2: $a vs $b" >&2; exit 1; }
}
for kind in page first bbox one; do for line in 1 2 3; do check "$kind" "$line"; done; done

# A 30 s timeout: wrk's default (2 s) would drop tipg's slow answers from its count.
rps() { # port list
  WRK_TARGETS="$2" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s -s bench/wrk_requests.lua \
    "http://127.0.0.1:$1" > "$work/wrk.out"
  if grep -q "Socket errors" "$work/wrk.out"; then grep "Socket errors" "$work/wrk.out" >&2; fi
  awk '/Requests\/sec/ {print $2}' "$work/wrk.out"
}
mkdir -p bench-results
report=bench-results/streets-tipg.md
{
  echo "# streets-api vs tipg $TIPG_VERSION ($(date -u +%F), $(nproc) cores, PostgreSQL, $SIZE streets, $WORKERS workers each, wrk -t2 -c$CONNECTIONS -d${DURATION}s)"
  echo
  echo "| request | streets-api rps | tipg rps | ratio |"
  echo "|---|---|---|---|"
} | tee "$report"
for kind in page first bbox one; do
  ours=$(rps "$PORT" "$work/$kind-ours")
  theirs=$(rps "$TIPG_PORT" "$work/$kind-tipg")
  ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN {printf "%.0f", (b > 0 ? a / b : 0)}')
  label=$(case $kind in page) echo "page of 100, offset anywhere";; first) echo "page of 100, offset < 1 000";; bbox) echo "300 m bbox, limit 100";; one) echo "one feature";; esac)
  echo "| $label | ${ours%.*} | ${theirs%.*} | ${ratio} x |" | tee -a "$report"
done
