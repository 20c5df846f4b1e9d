#!/usr/bin/env bash
# One public list's statement alone, exactly as citizen-api sends it (store/postgres/reports.rs,
# nearest.rs: the same text, bound parameters and literal page size), under pgbench -M prepared
# (the extended protocol, as sqlx), so the service's rate can be read against what its database
# gives for the same statement in the same run (docs/benchmarks.md).
#
# Usage: bench-citizen-statements.sh URL QUERY Q_WORD CATEGORY_ID CLIENTS SECONDS
#   QUERY: default | q | category | status | location. Prints statements per second.
set -euo pipefail
url=$1 query=$2 word=$3 category=$4 clients=$5 seconds=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# LIST_COLUMNS and push_select of store/postgres/reports.rs.
cols="i.id AS issue_id, i.category_id AS issue_category, i.status AS issue_status, \
i.report_id AS id, i.author, i.title, i.description, i.longitude, i.latitude, \
i.location_radius_m, i.explicit, i.report_inserted_at AS inserted_at, i.processed_at, i.media"
votes="(SELECT count(*) FROM vote_tokens v WHERE v.target_id = i.report_id \
AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > :now)) AS votes_count"
from="FROM issues i WHERE i.status <> 'moved'"
select="SELECT $cols, $votes $from"
by_date="ORDER BY i.report_inserted_at DESC, i.id DESC LIMIT 101"
case "$query" in
  default) echo "$select $by_date;" ;;
  q) echo "$select AND i.search LIKE :pattern $by_date;" ;;
  category) echo "$select AND i.category_id = :category $by_date;" ;;
  status) echo "$select AND i.status = :status $by_date;" ;;
  location)
    # nearest.rs: the KNN walk by distance alone, the page and 20 rows more, ordered by
    # distance and id (the bounded read after a tie does not occur in the generated city).
    point="public.ST_SetSRID(public.ST_MakePoint(:lon, :lat), 4326)::public.geography"
    printf '\\set lon 14.33 + random(0, 27000) / 100000.0\n\\set lat 50.02 + random(0, 11000) / 100000.0\n'
    echo "SELECT * FROM (SELECT $cols, i.location <-> $point AS knn_distance, $votes $from \
AND i.location IS NOT NULL ORDER BY i.location <-> $point LIMIT 121) k \
ORDER BY k.knn_distance, k.issue_id;" ;;
  *) echo "unknown query $query" >&2; exit 2 ;;
esac > "$work/statement.sql"
# The service's pool sets search_path = citizen_api, public on each connection.
PGOPTIONS="-c search_path=citizen_api,public" pgbench -n -M prepared -c "$clients" -j 2 -T "$seconds" \
  -D now="$(date -u '+%Y-%m-%d %H:%M:%S+00')" -D pattern="%$word%" -D category="$category" \
  -D status=accepted -f "$work/statement.sql" "$url" 2>&1 | awk '/^tps/ { printf "%d\n", $3 }'
