#!/usr/bin/env bash
# EXPLAIN (ANALYZE, BUFFERS) of each public-list statement of the citizen-api benchmark on
# PostgreSQL, as the store issues it (crates/citizen-api/src/store/postgres/reports.rs and
# nearest.rs; the parameters written in as literals). Used by scripts/bench-citizen.sh at the
# largest size.
# Usage: bench-citizen-explain.sh DATABASE_URL Q_WORD LON,LAT CATEGORY_ID
set -euo pipefail
url=$1 word=$2 point=$3 category=$4
cols="i.id AS issue_id, i.category_id AS issue_category, i.status AS issue_status, \
i.report_id AS id, i.author, i.title, i.description, i.longitude, i.latitude, \
i.location_radius_m, i.explicit, i.report_inserted_at AS inserted_at, i.processed_at, i.media, \
(SELECT count(*) FROM vote_tokens v WHERE v.target_id = i.report_id AND v.revoked_at IS NULL \
AND (v.expires_at IS NULL OR v.expires_at > now())) AS votes_count"
from="FROM issues i WHERE i.status <> 'moved'"
by_date="ORDER BY i.report_inserted_at DESC, i.id DESC LIMIT 101"
geo="public.ST_SetSRID(public.ST_MakePoint(${point%,*}, ${point#*,}), 4326)::public.geography"
explain() { # title sql
  echo "== $1"
  echo "$2"
  psql "$url" -Atq -c "SET search_path = citizen_api, public" -c "EXPLAIN (ANALYZE, BUFFERS) $2"
  echo
}
explain "default" "SELECT $cols $from $by_date"
explain "q=$word" "SELECT $cols $from AND i.search LIKE '%$word%' $by_date"
# The located rows only: rows without a location are read by a second statement only when
# these do not fill the page (store/postgres/nearest.rs).
explain "location=$point&orderBy=location (KNN walk: the page and 20 more by distance, then by id)" \
  "SELECT * FROM (SELECT $cols, i.location <-> $geo AS knn_distance $from AND i.location IS NOT NULL \
ORDER BY i.location <-> $geo LIMIT 121) k ORDER BY k.knn_distance, k.issue_id"
explain "category=$category" "SELECT $cols $from AND i.category_id = '$category' $by_date"
explain "status=accepted" "SELECT $cols $from AND i.status = 'accepted' $by_date"
