//! The public detail of a report in one statement: the report row with its media, its issues
//! and its active vote tokens gathered by sub-selects, so a detail read is one round trip. The
//! statement is each backend's (`Backend::DETAIL`: `json_agg` on PostgreSQL,
//! `json_group_array` on SQLite); reading its row is the same. The JSON carries each backend's
//! stored forms (an instant as text or as microseconds, a flag as a boolean or 0/1), so the
//! issues' fields accept either.

use std::fmt;

use chrono::{DateTime, FixedOffset, Utc};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use sqlx::types::Json;
use sqlx::Row;
use uuid::Uuid;

use super::DbUuid;
use crate::store::records::{report, REPORT_COLUMNS};
use crate::store::{status, Instant, Issue, Media, ReportWithIssues, StoreResult};

/// An instant inside JSON: PostgreSQL's text, or SQLite's INTEGER microseconds. Read by a
/// visitor, not an untagged enum: that would buffer each value and build an error for the
/// variant that does not fit, on every issue of every detail read.
struct JsonInstant(Instant);

impl<'de> Deserialize<'de> for JsonInstant {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl Visitor<'_> for Either {
            type Value = JsonInstant;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an instant as text or as microseconds")
            }
            fn visit_i64<E: de::Error>(self, micros: i64) -> Result<JsonInstant, E> {
                DateTime::from_timestamp_micros(micros)
                    .map(JsonInstant)
                    .ok_or_else(|| E::custom("stored instant is out of range"))
            }
            fn visit_u64<E: de::Error>(self, micros: u64) -> Result<JsonInstant, E> {
                self.visit_i64(i64::try_from(micros).map_err(E::custom)?)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<JsonInstant, E> {
                let at: DateTime<FixedOffset> = text.parse().map_err(E::custom)?;
                Ok(JsonInstant(at.with_timezone(&Utc)))
            }
        }
        deserializer.deserialize_any(Either)
    }
}

/// A flag inside JSON: PostgreSQL's boolean, or SQLite's 0/1.
struct JsonFlag(bool);

impl<'de> Deserialize<'de> for JsonFlag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl Visitor<'_> for Either {
            type Value = JsonFlag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a flag as a boolean or as 0/1")
            }
            fn visit_bool<E: de::Error>(self, flag: bool) -> Result<JsonFlag, E> {
                Ok(JsonFlag(flag))
            }
            fn visit_i64<E: de::Error>(self, flag: i64) -> Result<JsonFlag, E> {
                Ok(JsonFlag(flag != 0))
            }
            fn visit_u64<E: de::Error>(self, flag: u64) -> Result<JsonFlag, E> {
                Ok(JsonFlag(flag != 0))
            }
        }
        deserializer.deserialize_any(Either)
    }
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
        Ok(Issue {
            id: self.id,
            report_id,
            category_id: self.category_id,
            status: status(&self.status)?,
            parent_id: self.parent_id,
            has_possible_duplicates: self.has_possible_duplicates.0,
            inserted_at: self.inserted_at.0,
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
        ) -> StoreResult<Option<ReportWithIssues>> {
            let Some(row) = sqlx::query(&DETAIL_SQL)
                .bind(DbUuid(id))
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
