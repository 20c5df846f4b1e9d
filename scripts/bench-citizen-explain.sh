#!/usr/bin/env bash
# EXPLAIN (ANALYZE, BUFFERS) of each public-list query of the citizen-api benchmark on
# PostgreSQL, as the store issues it (crates/citizen-api/src/store/postgres/reports.rs; the
# parameters written in as literals). Used by scripts/bench-citizen.sh at the largest size.
# Usage: bench-citizen-explain.sh DATABASE_URL Q_WORD LON,LAT CATEGORY_ID
set -euo pipefail
url=$1 word=$2 point=$3 category=$4
# A page by date, category or status reads each row's key (its content comes from the row
# cache, or by id: "rows of a page by id" below); nearest first reads the rows with the page.
votes="(SELECT count(*) FROM vote_tokens v WHERE v.target_id = i.report_id AND v.revoked_at IS NULL \
AND (v.expires_at IS NULL OR v.expires_at > now())) AS votes_count"
keys="i.id AS issue_id, i.row_version, i.longitude, i.latitude, $votes"
cols="i.id AS issue_id, i.row_version, i.longitude, i.latitude, i.category_id AS issue_category, \
i.status AS issue_status, i.report_id AS id, i.author, i.title, i.description, i.location_radius_m, \
i.explicit, i.report_inserted_at AS inserted_at, i.processed_at, i.media, $votes"
from="FROM issues i WHERE i.status <> 'moved'"
by_date="ORDER BY i.report_inserted_at DESC, i.id DESC LIMIT 101 OFFSET 0"
geo="public.ST_SetSRID(public.ST_MakePoint(${point%,*}, ${point#*,}), 4326)::public.geography"
explain() { # title sql
  echo "== $1"
  echo "$2"
  psql "$url" -Atq -c "SET search_path = citizen_api, public" -c "EXPLAIN (ANALYZE, BUFFERS) $2"
  echo
}
explain "default" "SELECT $keys $from $by_date"
explain "q=$word" "SELECT $keys $from AND i.search LIKE '%$word%' $by_date"
planar="public.ST_SetSRID(public.ST_MakePoint(${point%,*}, ${point#*,}), 4326)"
knn="WITH knn AS MATERIALIZED (SELECT k.location <-> $geo AS d FROM (SELECT i.location $from \
AND i.location IS NOT NULL ORDER BY i.location::public.geometry <-> $planar LIMIT 101) k), \
reach AS (SELECT max(d) AS d FROM knn)"
# The located rows only: rows without a location are read by a second statement only when
# these do not fill the page (store/postgres/nearest.rs). First the usual statement: the page
# and 20 rows more by distance alone, ordered by distance and id.
explain "location=$point&orderBy=location (one KNN walk)" "SELECT * FROM (SELECT $cols, \
i.location <-> $geo AS knn_distance $from AND i.location IS NOT NULL \
ORDER BY i.location <-> $geo LIMIT 121) k ORDER BY k.knn_distance, k.issue_id"
# Then the bounded read, taken only when a tie crosses the rows the first one read.
explain "location=$point&orderBy=location (bounded, after a tie)" "$knn SELECT $cols $from AND i.location IS NOT NULL \
AND public.ST_DWithin(i.location, $geo, (SELECT d FROM reach) * 1.001 + 1, false) \
AND i.location <-> $geo <= (SELECT d FROM reach) ORDER BY i.location <-> $geo, i.id LIMIT 101"
explain "category=$category" "SELECT $keys $from AND i.category_id = '$category' $by_date"
explain "status=accepted" "SELECT $keys $from AND i.status = 'accepted' $by_date"
# The rows of a page the replica does not hold, by id (ReportStore::public_rows; the ids of the
# default page written in).
ids=$(psql "$url" -Atq -c "SET search_path = citizen_api, public" \
  -c "SELECT string_agg(id::text, ',') FROM (SELECT i.id $from $by_date) p")
explain "rows of a page by id" "SELECT ${cols%"$votes"} 0::bigint AS votes_count $from \
AND i.id = ANY('{$ids}'::uuid[])"
# The public detail's version and vote count, read before a kept detail is written.
report=$(psql "$url" -Atq -c "SET search_path = citizen_api, public" -c "SELECT id FROM reports LIMIT 1")
explain "detail version" "SELECT coalesce(sum(i.row_version + 1), 0)::bigint AS version, NULL::text \
AS author, (SELECT count(*) FROM vote_tokens v WHERE v.target_id = '$report' AND \
v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > now())) AS votes_count \
FROM issues i WHERE i.report_id = '$report'"
