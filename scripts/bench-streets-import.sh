#!/usr/bin/env bash
# streets-api's import against GDAL (called by scripts/bench.sh, i.e. `make bench`): generated
# cities of BENCH_IMPORT_SIZES streets (default 300000 and 1000000, bench/generate_city.py) imported
# with `streets-api import` (release build) into SQLite and into PostgreSQL+PostGIS, and in the same
# run the same file with `ogr2ogr` into PostgreSQL and into a GeoPackage; wall time and peak RSS
# from `/usr/bin/time -f "%e s %M KB"`. Goals: peak RSS <= 100 MB; wall time <= 1.5x ogr2ogr's to
# a GeoPackage (SQLite) and to PostgreSQL (PostgreSQL). Results: bench-results/streets-import.md.
# Knobs: BENCH_IMPORT_SIZES, BENCH_IMPORT_BACKENDS ("sqlite postgres"), TEST_DATABASE_URL.
# Its databases and files are removed on exit, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES="${BENCH_IMPORT_SIZES:-300000 1000000}"
BACKENDS="${BENCH_IMPORT_BACKENDS:-sqlite postgres}"
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
command -v ogr2ogr >/dev/null || { echo "ogr2ogr is needed: apt-get install -y gdal-bin" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed: apt-get install -y time" >&2; exit 1; }
cargo build --release --locked -p streets-api -q
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
BIN="$TARGET_DIR/release/streets-api"
work=$(mktemp -d)
pg_dbs=""
cleanup() {
  rm -rf "$work"
  for db in $pg_dbs; do psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
pg_url() { echo "${PG_ADMIN%/*}/$1"; }
pg_fresh() { # db: an empty database (dropped on exit)
  pg_dbs="$pg_dbs $1"
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" >/dev/null
}
pg_ok=""
if psql "$PG_ADMIN" -Atc "SELECT 1 FROM pg_available_extensions WHERE name='postgis'" 2>/dev/null | grep -q 1; then pg_ok=1; fi
timed() { # command...: prints "<wall> s | <peak> MB"
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; return 1; }
  awk '{printf "%.1f s | %.0f MB", $1, $2 / 1024}' "$work/time"
}
wall() { awk '{print $1}' "$work/time"; }

mkdir -p bench-results
report=bench-results/streets-import.md
echo "# streets-api import against ogr2ogr ($(date -u +%F), $(nproc) cores, $(ogr2ogr --version | cut -d, -f1))" | tee "$report"
echo | tee -a "$report"
echo "| streets | file | import | wall | peak RSS | ratio to ogr2ogr |" | tee -a "$report"
echo "|---|---|---|---|---|---|" | tee -a "$report"
for size in $SIZES; do
  city="$work/city-$size.geojson"
  python3 bench/generate_city.py "$size" "$city"
  mb=$(du -m "$city" | cut -f1)
  for backend in $BACKENDS; do
    if [ "$backend" = postgres ] && [ -z "$pg_ok" ]; then
      echo "| $size | | postgres skipped: PostgreSQL with PostGIS unreachable at $PG_ADMIN | | | |" | tee -a "$report"
      continue
    fi
    if [ "$backend" = sqlite ]; then
      rm -f "$work/gdal.gpkg"
      gdal=$(timed ogr2ogr -f GPKG "$work/gdal.gpkg" "$city"); gdal_s=$(wall)
      echo "| $size | $mb MB | ogr2ogr -f GPKG | $gdal | 1.00 |" | tee -a "$report"
      rm -f "$work/gdal.gpkg"
      url="sqlite://$work/streets-$size.db"
      # A migrated, empty database; the second import replaces the streets of the first.
      STREETS_API__DATABASE__URL="$url" STREETS_API__DATABASE__MIGRATE_ON_START=true "$BIN" migrate >/dev/null
    else
      pg_fresh bench_import_gdal
      # PostGIS in GDAL's database too, else it writes the geometry as bytea without an index.
      psql "$(pg_url bench_import_gdal)" -qc "CREATE EXTENSION postgis" >/dev/null
      # With its own application_name in the URI, GDAL does not append one (which breaks a URI).
      gdal=$(timed ogr2ogr -f PostgreSQL "PG:$(pg_url bench_import_gdal)?application_name=ogr2ogr" "$city"); gdal_s=$(wall)
      echo "| $size | $mb MB | ogr2ogr -f PostgreSQL | $gdal | 1.00 |" | tee -a "$report"
      psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS bench_import_gdal WITH (FORCE)" >/dev/null
      pg_fresh bench_import_streets
      url=$(pg_url bench_import_streets)
      STREETS_API__DATABASE__URL="$url" STREETS_API__DATABASE__MIGRATE_ON_START=true "$BIN" migrate >/dev/null
    fi
    # Both imports' figures: into the empty database, then replacing the same streets (the usual
    # case: ids are looked up and kept).
    export STREETS_API__DATABASE__URL="$url" STREETS_API__TELEMETRY__FILTER=warn
    got=$(timed "$BIN" import "$city"); got_s=$(wall)
    echo "| $size | $mb MB | streets-api import ($backend, into an empty database) | $got | $(awk -v a="$got_s" -v b="$gdal_s" 'BEGIN {printf "%.2f", a/b}') |" | tee -a "$report"
    got=$(timed "$BIN" import "$city"); got_s=$(wall)
    echo "| $size | $mb MB | streets-api import ($backend, replacing the same streets) | $got | $(awk -v a="$got_s" -v b="$gdal_s" 'BEGIN {printf "%.2f", a/b}') |" | tee -a "$report"
    unset STREETS_API__DATABASE__URL
    [ "$backend" = sqlite ] && rm -f "$work/streets-$size.db"*
    [ "$backend" = postgres ] && psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS bench_import_streets WITH (FORCE)" >/dev/null
  done
  rm -f "$city" "$city".*
done
echo "Written to $report"
