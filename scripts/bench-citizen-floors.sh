#!/usr/bin/env bash
# Statement floors of the public list on a kept benchmark city (docs/benchmarks.md, "Floors"):
# what the database alone costs for each page the service asks for, and for the pages that an
# index in memory could ask for instead, as statements per second against the one-query
# ceiling's own statement, measured back to back on the same database.
#
# PostgreSQL (pgbench -M prepared, 2 clients, BENCH_DURATION seconds each, random inputs):
#   ceiling       SELECT title FROM reports WHERE id = $1                (one-query ceiling)
#   default       the date walk's 101 row keys                           (GET /reports)
#   q param       the date walk testing `search LIKE $1` (a custom plan per execution, as the
#                 service runs it), and the same with the pattern written in (one generic plan)
#   location      the KNN walk of the geography index, 121 rows with their content
#   rows by id    the same 121 rows named by id (the best any candidate index could do while
#                 the rows are not kept by the replica)
#   keys by id    their keys alone (what is left when every row is kept)
# SQLite (the sqlite3 shell, 300 random points, a fresh process per form): the R*Tree page as
# the service reads it (100 m reach), against the same page's rows named by id.
#
# Usage: bench-citizen-floors.sh SIZE   (needs bench_citizen_SIZE and/or
# bench-results/citizen-SIZE.db from `BENCH_CITIZEN_KEEP=1 scripts/bench-citizen.sh`).
# Knobs: BENCH_DURATION (default 5). Writes bench-results/citizen-floors.md.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:?usage: bench-citizen-floors.sh SIZE}
DURATION="${BENCH_DURATION:-5}"
PG_ADMIN="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
pg="${PG_ADMIN%/*}/bench_citizen_$size"
lite="$PWD/bench-results/citizen-$size.db"
work=$(mktemp -d)
trap 'rm -rf "$work"; psql "$pg" -qc "DROP TABLE IF EXISTS public.bench_floor_ids, public.bench_floor_pages" >/dev/null 2>&1 || true' EXIT
out=bench-results/citizen-floors.md
mkdir -p bench-results
echo "# Statement floors at $size reports ($(date -u +%F), $(nproc) cores)" | tee "$out"

votes="(SELECT count(*) FROM citizen_api.vote_tokens v WHERE v.target_id = i.report_id \
AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > now())) AS votes_count"
keys="i.id AS issue_id, i.row_version, i.longitude, i.latitude, $votes"
content="i.category_id AS issue_category, i.status AS issue_status, i.report_id AS id, i.author, \
i.title, i.description, i.location_radius_m, i.explicit, i.report_inserted_at AS inserted_at, \
i.processed_at, i.media"
from="FROM citizen_api.issues i WHERE i.status <> 'moved'"
by_date="ORDER BY i.report_inserted_at DESC, i.id DESC LIMIT 101"
point="public.ST_SetSRID(public.ST_MakePoint(14.33 + :x / 100000.0, 50.02 + :y / 100000.0), 4326)"
random_point=$'\\set x random(0, 27000)\n\\set y random(0, 11000)'

tps() { # file [pgbench args...]
  local file=$1; shift
  pgbench -n -M prepared -c 2 -j 2 -T "$DURATION" "$@" -f "$file" "$pg" 2>&1 |
    awk '/^tps/ { printf "%d", $3 }'
}
if ! command -v pgbench >/dev/null; then
  echo "PostgreSQL: skipped (pgbench not found: it comes with apt-get install -y postgresql-15)" | tee -a "$out"
elif psql "$pg" -Atc "SELECT 1" >/dev/null 2>&1; then
  # Random inputs, drawn once: report ids for the ceiling, and the 121 nearest issues of 200
  # random points for the pages named by id.
  psql "$pg" -q <<'SQL'
DROP TABLE IF EXISTS public.bench_floor_ids, public.bench_floor_pages;
CREATE TABLE public.bench_floor_ids AS
  SELECT row_number() OVER () AS n, id FROM (SELECT id FROM citizen_api.reports ORDER BY random() LIMIT 20000) r;
ALTER TABLE public.bench_floor_ids ADD PRIMARY KEY (n);
CREATE TABLE public.bench_floor_pages (k int PRIMARY KEY, ids uuid[]);
DO $$
DECLARE k int; p public.geography;
BEGIN
  FOR k IN 1..200 LOOP
    p := public.ST_SetSRID(public.ST_MakePoint(14.33 + random() * 0.27, 50.02 + random() * 0.11), 4326)::public.geography;
    INSERT INTO public.bench_floor_pages SELECT k, array_agg(id) FROM (SELECT i.id FROM citizen_api.issues i
      WHERE i.status <> 'moved' AND i.location IS NOT NULL ORDER BY i.location <-> p LIMIT 121) s;
  END LOOP;
END $$;
SQL
  ids=$(psql "$pg" -Atc "SELECT count(*) FROM public.bench_floor_ids")
  page=$'\\set k random(1, 200)'
  printf '\\set n random(1, %s)\nSELECT title FROM citizen_api.reports WHERE id = (SELECT id FROM public.bench_floor_ids WHERE n = :n);\n' "$ids" > "$work/ceiling.sql"
  echo "SELECT $keys $from $by_date;" > "$work/default.sql"
  echo "SELECT $keys $from AND i.search LIKE :pattern $by_date;" > "$work/q_param.sql"
  echo "SELECT $keys $from AND i.search LIKE '%hoho%' $by_date;" > "$work/q_literal.sql"
  printf '%s\nSELECT * FROM (SELECT %s, %s, i.location <-> %s::public.geography AS knn_distance %s AND i.location IS NOT NULL ORDER BY i.location <-> %s::public.geography LIMIT 121) k ORDER BY k.knn_distance, k.issue_id;\n' \
    "$random_point" "$keys" "$content" "$point" "$from" "$point" > "$work/location.sql"
  printf '%s\nSELECT %s, %s %s AND i.id = ANY((SELECT ids FROM public.bench_floor_pages WHERE k = :k)::uuid[]);\n' \
    "$page" "$keys" "$content" "$from" > "$work/rows_by_id.sql"
  printf '%s\nSELECT %s %s AND i.id = ANY((SELECT ids FROM public.bench_floor_pages WHERE k = :k)::uuid[]);\n' \
    "$page" "$keys" "$from" > "$work/keys_by_id.sql"
  ceiling=$(tps "$work/ceiling.sql")
  {
    echo
    echo "PostgreSQL (pgbench -M prepared -c 2, ${DURATION} s each; statements/s, ratio to the ceiling's):"
    echo
    echo "| statement | statements/s | / ceiling |"
    echo "|---|---|---|"
    echo "| ceiling: SELECT title FROM reports WHERE id = \$1 | $ceiling | 1.00 |"
  } | tee -a "$out"
  for form in default q_param q_literal location rows_by_id keys_by_id; do
    args=()
    [ "$form" = q_param ] && args=(-D "pattern=%hoho%")
    t=$(tps "$work/$form.sql" "${args[@]}")
    echo "| $form | $t | $(awk -v a="$t" -v b="$ceiling" 'BEGIN { printf "%.2f", a / b }') |" | tee -a "$out"
  done
else
  echo "PostgreSQL: skipped (no bench_citizen_$size at $pg)" | tee -a "$out"
fi

if [ -f "$lite" ] && command -v sqlite3 >/dev/null; then
  # The nearest page as SQLite's store reads it in its first step (a box of 100 m around the
  # point, rows and content read through the R*Tree, ordered by the local-plane distance), and
  # the same point's 101 rows named by id.
  python3 - "$lite" "$work" <<'PY'
import math, random, sqlite3, sys
db, work = sys.argv[1], sys.argv[2]
A, E2 = 6378137.0, 0.00669437999014
def per_degree(lat):
    phi = math.radians(lat); w = 1 - E2 * math.sin(phi) ** 2
    k = math.pi / 180
    return A / math.sqrt(w) * math.cos(phi) * k, A * (1 - E2) / w ** 1.5 * k
votes = ("(SELECT count(*) FROM vote_tokens v WHERE v.target_id = i.report_id AND v.revoked_at IS NULL "
         "AND (v.expires_at IS NULL OR v.expires_at > 0)) AS votes_count")
cols = ("i.id AS issue_id, i.row_version, i.longitude, i.latitude, i.category_id, i.status, i.report_id, "
        "i.author, i.title, i.description, i.location_radius_m, i.explicit, i.report_inserted_at, "
        "i.processed_at, i.media, " + votes)
con = sqlite3.connect(db)
r = random.Random(8)
nearest, by_id = [], []
for _ in range(300):
    lon, lat = 14.33 + r.random() * 0.27, 50.02 + r.random() * 0.11
    kx, ky = per_degree(lat)
    d2 = (f"((i.longitude - {lon}) * {kx}) * ((i.longitude - {lon}) * {kx}) + "
          f"((i.latitude - {lat}) * {ky}) * ((i.latitude - {lat}) * {ky})")
    box = (f"l.max_lon >= {lon - 100 / kx} AND l.min_lon <= {lon + 100 / kx} "
           f"AND l.max_lat >= {lat - 100 / ky} AND l.min_lat <= {lat + 100 / ky}")
    where = (f"FROM issue_locations l JOIN issues i ON i.id = l.issue_id WHERE i.status <> 'moved' "
             f"AND {box} AND ({d2}) <= 10000.0")
    sql = f"SELECT {cols} {where} ORDER BY ({d2}), i.id LIMIT 101"
    nearest.append(f"SELECT count(*) FROM ({sql});")
    ids = ",".join(f"'{row[0]}'" for row in con.execute(sql))
    by_id.append(f"SELECT count(*) FROM (SELECT {cols} FROM issues i WHERE i.status <> 'moved' AND i.id IN ({ids}));")
open(f"{work}/nearest.sql", "w").write("\n".join(nearest))
open(f"{work}/by_id.sql", "w").write("\n".join(by_id))
PY
  run() { # file -> seconds for its 300 statements (the best of three)
    for _ in 1 2 3; do
      /usr/bin/time -f "%e" sqlite3 -cmd "PRAGMA mmap_size=68719476736" "$lite" < "$1" 2>&1 >/dev/null | tail -1
    done | sort -n | head -1
  }
  a=$(run "$work/nearest.sql"); b=$(run "$work/by_id.sql")
  {
    echo
    echo "SQLite (the sqlite3 shell, 300 random points, best of three runs):"
    echo
    echo "| statement | ms a page |"
    echo "|---|---|"
    echo "| nearest page through the R*Tree (100 m reach, rows and content) | $(awk -v s="$a" 'BEGIN { printf "%.2f", s * 1000 / 300 }') |"
    echo "| the same 101 rows named by id | $(awk -v s="$b" 'BEGIN { printf "%.2f", s * 1000 / 300 }') |"
  } | tee -a "$out"
else
  echo "SQLite: skipped (no $lite)" | tee -a "$out"
fi
echo "Written to $out"
