//! The issue feed (PostgreSQL, migration 0024): the issues whose `changed_xid` is at or above a
//! reader's position, and the next position, the `xmin` of the same statement's snapshot. The
//! vote feed (migration 0026) is read the same way from `vote_tokens`.

use domain::geo::LonLat;
use futures::TryStreamExt;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use crate::store::{
    status, FeedMark, Instant, IssueSink, IssueState, StoreResult, VoteSink, VoteState,
};

/// The feed from `since` (module docs). The snapshot's `xmin` comes with every row, and alone
/// (the join's one row of NULLs) when nothing changed. Positions are `xid8` values, below 2^63
/// for as long as PostgreSQL can run.
pub(super) async fn issue_changes(
    pool: &PgPool,
    since: i64,
    each: &mut IssueSink<'_>,
) -> StoreResult<Option<FeedMark>> {
    let mut rows = sqlx::query(
        "SELECT h.next, h.categories, i.id, i.report_id, i.category_id, i.status, i.report_inserted_at, \
         i.longitude, i.latitude, i.row_version, i.search, i.inserted_at, \
         i.has_possible_duplicates, i.parent_id \
         FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS next, \
         (SELECT n FROM category_generation) AS categories) h \
         LEFT JOIN issues i ON i.changed_xid >= $1::text::xid8",
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
        let Some(issue_id) = row.try_get::<Option<Uuid>, _>("id")? else {
            continue;
        };
        let lon: Option<f64> = row.try_get("longitude")?;
        let lat: Option<f64> = row.try_get("latitude")?;
        let issue = IssueState {
            issue_id,
            report_id: row.try_get("report_id")?,
            category_id: row.try_get("category_id")?,
            status: status(row.try_get("status")?)?,
            filed_at: row.try_get("report_inserted_at")?,
            point: lon.zip(lat).map(|(lon, lat)| LonLat { lon, lat }),
            version: row.try_get("row_version")?,
            search: row.try_get("search")?,
            placed_at: row.try_get("inserted_at")?,
            has_possible_duplicates: row.try_get("has_possible_duplicates")?,
            parent_id: row.try_get("parent_id")?,
        };
        if !each(issue) {
            return Ok(None);
        }
    }
    Ok(Some(mark))
}

/// The vote feed from `since` (module docs); from 0, only the tokens active at `now`.
pub(super) async fn vote_changes(
    pool: &PgPool,
    since: i64,
    now: Instant,
    each: &mut VoteSink<'_>,
) -> StoreResult<i64> {
    let mut rows = sqlx::query(
        "SELECT h.next, v.id, v.target_id, v.expires_at, v.revoked_at IS NOT NULL AS revoked \
         FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS next) h \
         LEFT JOIN vote_tokens v ON v.changed_xid >= $1::text::xid8 AND ($1 > 0 \
         OR (v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > $2)))",
    )
    .bind(since)
    .bind(now)
    .fetch(pool);
    // Streamed: a read from position 0 holds every active token.
    let mut next = since;
    while let Some(row) = rows.try_next().await? {
        let row = &row;
        next = row.try_get("next")?;
        let Some(token_id) = row.try_get::<Option<Uuid>, _>("id")? else {
            continue;
        };
        each(VoteState {
            token_id,
            target_id: row.try_get("target_id")?,
            expires_at: row.try_get("expires_at")?,
            revoked: row.try_get("revoked")?,
        });
    }
    Ok(next)
}
