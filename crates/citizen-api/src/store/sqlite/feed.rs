//! The issue feed (SQLite, migration 0024): the issues whose `change_seq` is at or above a
//! reader's position, and one more than the largest in the same statement's snapshot as the
//! next position. Rows written before the migration hold 0, so position 0 reads them too. The
//! vote feed (migration 0026) is read the same way from `vote_tokens`.

use domain::geo::LonLat;
use futures::TryStreamExt;
use sqlx::{Row, SqlitePool};

use super::{get_instant, get_opt_instant, get_opt_uuid, get_uuid, micros};
use crate::store::{
    status, FeedMark, Instant, IssueSink, IssueState, StoreResult, VoteSink, VoteState,
};

/// The feed from `since` (module docs). The next position comes with every row, and alone (the
/// join's one row of NULLs) when nothing changed.
pub(super) async fn issue_changes(
    pool: &SqlitePool,
    since: i64,
    each: &mut IssueSink<'_>,
) -> StoreResult<Option<FeedMark>> {
    let mut rows = sqlx::query(
        "SELECT h.next, h.categories, i.id, i.report_id, i.category_id, i.status, i.report_inserted_at, \
         i.longitude, i.latitude, i.row_version, i.search, i.inserted_at, \
         i.has_possible_duplicates, i.parent_id \
         FROM (SELECT coalesce((SELECT max(change_seq) FROM issues), 0) + 1 AS next, \
         (SELECT n FROM category_generation) AS categories) h \
         LEFT JOIN issues i ON i.change_seq >= ?1",
    )
    .bind(since)
    .fetch(pool);
    // Streamed: a read from position 0 holds every issue, decoded as it arrives.
    let mut mark = FeedMark {
        next: since,
        categories: 0,
    };
    while let Some(row) = rows.try_next().await? {
        let row = &row;
        mark = FeedMark {
            next: row.try_get("next")?,
            categories: row.try_get("categories")?,
        };
        if row.try_get::<Option<String>, _>("id")?.is_none() {
            continue;
        }
        let lon: Option<f64> = row.try_get("longitude")?;
        let lat: Option<f64> = row.try_get("latitude")?;
        let issue = IssueState {
            issue_id: get_uuid(row, "id")?,
            report_id: get_uuid(row, "report_id")?,
            category_id: get_uuid(row, "category_id")?,
            status: status(row.try_get("status")?)?,
            filed_at: get_instant(row, "report_inserted_at")?,
            point: lon.zip(lat).map(|(lon, lat)| LonLat { lon, lat }),
            version: row.try_get("row_version")?,
            search: row.try_get("search")?,
            placed_at: get_instant(row, "inserted_at")?,
            has_possible_duplicates: row.try_get("has_possible_duplicates")?,
            parent_id: get_opt_uuid(row, "parent_id")?,
        };
        if !each(issue) {
            return Ok(None);
        }
    }
    Ok(Some(mark))
}

/// The vote feed from `since` (module docs); from 0, only the tokens active at `now`.
pub(super) async fn vote_changes(
    pool: &SqlitePool,
    since: i64,
    now: Instant,
    each: &mut VoteSink<'_>,
) -> StoreResult<i64> {
    let mut rows = sqlx::query(
        "SELECT h.next, v.id, v.target_id, v.expires_at, v.revoked_at IS NOT NULL AS revoked \
         FROM (SELECT coalesce((SELECT max(change_seq) FROM vote_tokens), 0) + 1 AS next) h \
         LEFT JOIN vote_tokens v ON v.change_seq >= ?1 AND (?1 > 0 OR (v.revoked_at IS NULL \
         AND (v.expires_at IS NULL OR v.expires_at > ?2)))",
    )
    .bind(since)
    .bind(micros(now))
    .fetch(pool);
    // Streamed: a read from position 0 holds every active token.
    let mut next = since;
    while let Some(row) = rows.try_next().await? {
        let row = &row;
        next = row.try_get("next")?;
        if row.try_get::<Option<String>, _>("id")?.is_none() {
            continue;
        }
        each(VoteState {
            token_id: get_uuid(row, "id")?,
            target_id: get_uuid(row, "target_id")?,
            expires_at: get_opt_instant(row, "expires_at")?,
            revoked: row.try_get("revoked")?,
        });
    }
    Ok(next)
}
