//! The public detail of a report in one statement: the report row with its media, its issues
//! and its active vote tokens gathered by sub-selects, so a detail read is one round trip. The
//! statement is each backend's (`Backend::DETAIL`: `json_agg` on PostgreSQL,
//! `json_group_array` on SQLite); reading its row is the same. The JSON carries each backend's
//! stored forms (an instant as text or as microseconds, a flag as a boolean or 0/1), so the
//! issues' fields accept either.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use sqlx::types::Json;
use sqlx::Row;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::records::{report, REPORT_COLUMNS};
use crate::store::{status, Instant, Issue, Media, ReportWithIssues, StoreError, StoreResult};

/// An instant inside JSON: PostgreSQL's text, or SQLite's microseconds.
#[derive(Deserialize)]
#[serde(untagged)]
enum JsonInstant {
    Text(DateTime<Utc>),
    Micros(i64),
}

/// A flag inside JSON: PostgreSQL's boolean, or SQLite's 0/1.
#[derive(Deserialize)]
#[serde(untagged)]
enum JsonFlag {
    Bool(bool),
    Int(i64),
}

#[derive(Deserialize)]
struct IssueJson {
    id: Uuid,
    category_id: Uuid,
    status: String,
    parent_id: Option<Uuid>,
    has_possible_duplicates: JsonFlag,
    inserted_at: JsonInstant,
}

impl IssueJson {
    fn into_issue(self, report_id: Uuid) -> StoreResult<Issue> {
        let inserted_at = match self.inserted_at {
            JsonInstant::Text(at) => at,
            JsonInstant::Micros(micros) => {
                DateTime::from_timestamp_micros(micros).ok_or_else(|| {
                    StoreError::Other(anyhow::anyhow!("stored instant is out of range"))
                })?
            }
        };
        Ok(Issue {
            id: self.id,
            report_id,
            category_id: self.category_id,
            status: status(&self.status)?,
            parent_id: self.parent_id,
            has_possible_duplicates: match self.has_possible_duplicates {
                JsonFlag::Bool(flag) => flag,
                JsonFlag::Int(flag) => flag != 0,
            },
            inserted_at,
        })
    }
}

both_backends! {
    /// The backend's statement with the report's columns written in, once.
    static DETAIL_SQL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| Backend::DETAIL.replace("{REPORT_COLUMNS}", REPORT_COLUMNS));

    impl Backend {
        pub(in crate::store) async fn detail(
            &self,
            id: Uuid,
            now: Instant,
        ) -> StoreResult<Option<ReportWithIssues>> {
            let Some(row) = sqlx::query(&DETAIL_SQL)
                .bind(DbUuid(id))
                .bind(DbInstant(now))
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
                .map(|i| i.into_issue(id))
                .collect::<StoreResult<Vec<_>>>()?;
            Ok(Some(ReportWithIssues {
                report: found,
                issues,
            }))
        }
    }
}
