//! The public detail of a report in one statement (SQLite): the report row with its media, its
//! issues and its active vote tokens gathered by sub-selects.

use serde::Deserialize;
use sqlx::types::Json;
use sqlx::Row;
use uuid::Uuid;

use super::rows::{report, REPORT_COLUMNS};
use super::{instant, micros, SqliteStore};
use crate::store::{status, Instant, Issue, Media, ReportWithIssues, StoreResult};

/// Instants are INTEGER microseconds and flags 0/1 in SQLite.
#[derive(Deserialize)]
struct IssueJson {
    id: Uuid,
    category_id: Uuid,
    status: String,
    parent_id: Option<Uuid>,
    has_possible_duplicates: i64,
    inserted_at: i64,
}

const DETAIL: &str = "SELECT {REPORT_COLUMNS}, \
     (SELECT count(*) FROM vote_tokens v WHERE v.target_id = r.id AND v.revoked_at IS NULL \
        AND (v.expires_at IS NULL OR v.expires_at > ?2)) AS votes_count, \
     (SELECT json_group_array(json_object('id', m.id, 'filename', m.filename, \
        'media_type', m.media_type, 'size_bytes', m.size_bytes) ORDER BY m.position) \
        FROM media m WHERE m.report_id = r.id) AS media, \
     (SELECT json_group_array(json_object('id', i.id, 'category_id', i.category_id, \
        'status', i.status, 'parent_id', i.parent_id, \
        'has_possible_duplicates', i.has_possible_duplicates, 'inserted_at', i.inserted_at) \
        ORDER BY i.inserted_at, i.id) FROM issues i WHERE i.report_id = r.id) AS issues \
     FROM reports r WHERE r.id = ?1";

/// [`DETAIL`] with the report's columns written in, once.
static DETAIL_SQL: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| DETAIL.replace("{REPORT_COLUMNS}", REPORT_COLUMNS));

impl SqliteStore {
    pub(in crate::store) async fn detail(
        &self,
        id: Uuid,
        now: Instant,
    ) -> StoreResult<Option<ReportWithIssues>> {
        let Some(row) = sqlx::query(&DETAIL_SQL)
            .bind(id.to_string())
            .bind(micros(now))
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let mut found = report(&row)?;
        found.votes_count = row.try_get("votes_count")?;
        let Json(media): Json<Vec<Media>> = row.try_get("media")?;
        found.media = media;
        let Json(issues): Json<Vec<IssueJson>> = row.try_get("issues")?;
        let issues = issues
            .into_iter()
            .map(|i| {
                Ok(Issue {
                    id: i.id,
                    report_id: id,
                    category_id: i.category_id,
                    status: status(&i.status)?,
                    parent_id: i.parent_id,
                    has_possible_duplicates: i.has_possible_duplicates != 0,
                    inserted_at: instant(i.inserted_at)?,
                })
            })
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Some(ReportWithIssues {
            report: found,
            issues,
        }))
    }
}
