#!/usr/bin/env bash
# EXPLAIN (ANALYZE, BUFFERS) of the admin list (GET /admin/reports) on PostgreSQL as the store
# issues it (crates/citizen-api/src/store/postgres/admin.rs; parameters written in as literals):
# access-all default, overdue=true, and one category (a filter, or an officer of one category). Used by
# scripts/bench-citizen.sh at the largest size.
# Usage: bench-citizen-admin-explain.sh DATABASE_URL CATEGORY_ID
set -euo pipefail
url=$1 category=$2
cols="r.id, r.author, r.title, r.description, r.longitude, r.latitude, r.location_radius_m, \
r.explicit, r.inserted_at, r.processed_at, (SELECT count(*) FROM vote_tokens v WHERE \
v.target_id = r.id AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > now())) \
AS votes_count"
exists="EXISTS (SELECT 1 FROM issues i JOIN report_categories c ON c.id = i.category_id \
WHERE i.report_id = r.id AND i.status <> 'moved'"
overdue="(i.status IN ('open', 'accepted') AND c.statement_deadline_days IS NOT NULL \
AND i.inserted_at + make_interval(days => c.statement_deadline_days) <= now())"
by_date="ORDER BY r.inserted_at DESC, r.id DESC LIMIT 101 OFFSET 0"
explain() { # title sql
  echo "== admin $1"
  echo "$2"
  psql "$url" -Atq -c "SET search_path = citizen_api, public" -c "EXPLAIN (ANALYZE, BUFFERS) $2"
  echo
}
# Access-all without an issue filter: no issue probe (every report has an issue).
explain "default" "SELECT $cols FROM reports r WHERE TRUE $by_date"
explain "overdue=true" "SELECT $cols FROM reports r WHERE TRUE AND $exists AND $overdue) $by_date"
# One category (a filter of one id, or an officer of one category): a walk of its issues
# (store/postgres/admin/one_category.rs).
one="WITH page AS MATERIALIZED (SELECT DISTINCT ON (i.report_inserted_at, i.report_id) \
i.report_id FROM issues i WHERE i.status <> 'moved' AND i.category_id = '$category' \
ORDER BY i.report_inserted_at DESC, i.report_id DESC LIMIT 101) SELECT $cols FROM page p \
JOIN reports r ON r.id = p.report_id ORDER BY r.inserted_at DESC, r.id DESC"
explain "category=$category, or an officer of it" "$one"
# The issues of a page (one query per page).
explain "issues of a page" "SELECT i.id, i.status, c.name FROM issues i JOIN report_categories c \
ON c.id = i.category_id WHERE i.status <> 'moved' AND i.report_id = ANY(ARRAY(SELECT id FROM \
reports ORDER BY inserted_at DESC LIMIT 100)) ORDER BY i.report_id, i.inserted_at, i.id"
