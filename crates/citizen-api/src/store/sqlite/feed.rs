//! The issue feed (SQLite, migration 0024): the issues whose `change_seq` is at or above a
//! reader's position, and one more than the largest in the same statement's snapshot as the
//! next position. Rows written before the migration hold 0, so position 0 reads them too. The
//! vote feed (migration 0026) is read the same way from `vote_tokens`; both at once in one
//! statement (`UNION ALL`, one snapshot), the read before a page from the list index.

use std::sync::LazyLock;

use domain::geo::LonLat;
use futures::TryStreamExt;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection, SqlitePool};

use super::{get_instant, get_opt_instant, get_opt_uuid, get_uuid, micros};
use crate::store::feeds::{split_feeds, FeedRow};
use crate::store::{
    status, FeedChanges, FeedMark, FeedPositions, Instant, IssueSink, IssueState, StoreResult,
    VoteSink, VoteState,
};

/// The issue feed from parameter `?{since}`, its rows marked `feed` 0: the next position comes
/// with every row, and alone (the join's one row of NULLs) when nothing changed. The vote
/// columns are NULL, so it unites with [`votes_sql`].
fn issues_sql(since: u8) -> String {
    format!(
        "SELECT 0 AS feed, h.next, h.categories, i.id, i.report_id, i.category_id, i.status, \
         i.report_inserted_at, i.longitude, i.latitude, i.row_version, i.search, i.inserted_at, \
         i.has_possible_duplicates, i.parent_id, NULL AS target_id, NULL AS expires_at, \
         NULL AS revoked \
         FROM (SELECT coalesce((SELECT max(change_seq) FROM issues), 0) + 1 AS next, \
         (SELECT n FROM category_generation) AS categories) h \
         LEFT JOIN issues i ON i.change_seq >= ?{since}"
    )
}

/// The vote feed from `?{since}`, its rows marked `feed` 1, in the columns of [`issues_sql`];
/// from 0, only the tokens active at `?{now}`.
fn votes_sql(since: u8, now: u8) -> String {
    format!(
        "SELECT 1 AS feed, h.next AS next, NULL AS categories, v.id AS id, NULL, NULL, NULL, \
         NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, v.target_id AS target_id, \
         v.expires_at AS expires_at, v.revoked_at IS NOT NULL AS revoked \
         FROM (SELECT coalesce((SELECT max(change_seq) FROM vote_tokens), 0) + 1 AS next) h \
         LEFT JOIN vote_tokens v ON v.change_seq >= ?{since} AND (?{since} > 0 OR \
         (v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > ?{now})))"
    )
}

static ISSUES: LazyLock<String> = LazyLock::new(|| issues_sql(1));
static VOTES: LazyLock<String> = LazyLock::new(|| votes_sql(1, 2));
static BOTH: LazyLock<String> =
    LazyLock::new(|| format!("{} UNION ALL {}", issues_sql(1), votes_sql(2, 3)));

/// The issue feed from `since` (module docs).
pub(super) async fn issue_changes(
    pool: &SqlitePool,
    since: i64,
    each: &mut IssueSink<'_>,
) -> StoreResult<Option<FeedMark>> {
    let mut rows = sqlx::query(&ISSUES).bind(since).fetch(pool);
    // Streamed: a read from position 0 holds every issue, decoded as it arrives.
    let mut mark = FeedMark {
        next: since,
        categories: 0,
    };
    while let Some(row) = rows.try_next().await? {
        mark = feed_mark(&row)?;
        if let Some(issue) = issue(&row)? {
            if !each(issue) {
                return Ok(None);
            }
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
    let mut rows = sqlx::query(&VOTES)
        .bind(since)
        .bind(micros(now))
        .fetch(pool);
    // Streamed: a read from position 0 holds every active token.
    let mut next = since;
    while let Some(row) = rows.try_next().await? {
        next = row.try_get("next")?;
        if let Some(token) = vote(&row)? {
            each(token);
        }
    }
    Ok(next)
}

/// Both feeds from `since` in one statement (module docs).
pub(super) async fn feed_changes(
    conn: &mut SqliteConnection,
    since: FeedPositions,
    now: Instant,
) -> StoreResult<FeedChanges> {
    let rows = sqlx::query(&BOTH)
        .bind(since.issues)
        .bind(since.votes)
        .bind(micros(now))
        .fetch_all(conn)
        .await?;
    split_feeds(&rows, since, |row| {
        Ok(if row.try_get::<i64, _>("feed")? == 0 {
            FeedRow::Issues(feed_mark(row)?, issue(row)?)
        } else {
            FeedRow::Votes(row.try_get("next")?, vote(row)?)
        })
    })
}

fn feed_mark(row: &SqliteRow) -> StoreResult<FeedMark> {
    Ok(FeedMark {
        next: row.try_get("next")?,
        categories: row.try_get("categories")?,
    })
}

/// The issue of a row of the issue feed; `None` on the row of the position alone.
fn issue(row: &SqliteRow) -> StoreResult<Option<IssueState>> {
    if row.try_get::<Option<String>, _>("id")?.is_none() {
        return Ok(None);
    }
    let lon: Option<f64> = row.try_get("longitude")?;
    let lat: Option<f64> = row.try_get("latitude")?;
    Ok(Some(IssueState {
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
    }))
}

/// The token of a row of the vote feed; `None` on the row of the position alone.
fn vote(row: &SqliteRow) -> StoreResult<Option<VoteState>> {
    if row.try_get::<Option<String>, _>("id")?.is_none() {
        return Ok(None);
    }
    Ok(Some(VoteState {
        token_id: get_uuid(row, "id")?,
        target_id: get_uuid(row, "target_id")?,
        expires_at: get_opt_instant(row, "expires_at")?,
        revoked: row.try_get("revoked")?,
    }))
}
