//! The public detail of a report in one statement (SQLite): the report row with its media, its
//! issues and its active vote tokens gathered by sub-selects.

use serde::Deserialize;
use sqlx::types::Json;
use sqlx::Row;
use uuid::Uuid;

use super::rows::{report, REPORT_COLUMNS};
use super::{instant, micros, SqliteStore};
use crate::store::{
    status, DetailKey, Instant, Issue, Media, ReportDetail, ReportWithIssues, StoreResult,
};

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
        ORDER BY i.inserted_at, i.id) FROM issues i WHERE i.report_id = r.id) AS issues, \
     (SELECT coalesce(sum(i.row_version + 1), 0) FROM issues i \
        WHERE i.report_id = r.id) AS version \
     FROM reports r WHERE r.id = ?1";

/// The content's version of a detail and its vote count (`DetailKey`): from the index of issues
/// by report and the vote tokens' index alone (migration 0022). No issue row: no such report
/// (every report has one).
const DETAIL_KEY: &str = "SELECT coalesce(sum(i.row_version + 1), 0) AS version, \
     NULL AS author, \
     (SELECT count(*) FROM vote_tokens v WHERE v.target_id = ?1 AND v.revoked_at IS NULL \
        AND (v.expires_at IS NULL OR v.expires_at > ?2)) AS votes_count \
     FROM issues i WHERE i.report_id = ?1";

/// [`DETAIL_KEY`] with the report's author (a signed-in caller may be the author, who sees
/// media an officer hid from the public).
const DETAIL_KEY_AUTHOR: &str = "SELECT r.author, \
     (SELECT count(*) FROM vote_tokens v WHERE v.target_id = r.id AND v.revoked_at IS NULL \
        AND (v.expires_at IS NULL OR v.expires_at > ?2)) AS votes_count, \
     (SELECT coalesce(sum(i.row_version + 1), 0) FROM issues i \
        WHERE i.report_id = r.id) AS version \
     FROM reports r WHERE r.id = ?1";

impl SqliteStore {
    pub(super) async fn detail_key(
        &self,
        id: Uuid,
        now: Instant,
        with_author: bool,
    ) -> StoreResult<Option<DetailKey>> {
        let sql = if with_author {
            DETAIL_KEY_AUTHOR
        } else {
            DETAIL_KEY
        };
        let Some(row) = sqlx::query(sql)
            .bind(id.to_string())
            .bind(micros(now))
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let version: i64 = row.try_get("version")?;
        if version == 0 {
            return Ok(None);
        }
        Ok(Some(DetailKey {
            version,
            author: row.try_get("author")?,
            votes_count: row.try_get("votes_count")?,
        }))
    }

    pub(super) async fn detail(&self, id: Uuid, now: Instant) -> StoreResult<Option<ReportDetail>> {
        let sql = DETAIL.replace("{REPORT_COLUMNS}", REPORT_COLUMNS);
        let Some(row) = sqlx::query(&sql)
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
        let key = DetailKey {
            version: row.try_get("version")?,
            author: found.author.clone(),
            votes_count: found.votes_count,
        };
        Ok(Some(ReportDetail {
            key,
            found: ReportWithIssues {
                report: found,
                issues,
            },
        }))
    }
}
