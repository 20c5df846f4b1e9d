//! The officers' steps (SQLite): the transaction's write lock (`BEGIN IMMEDIATE`) already
//! excludes every other step, so nothing is locked row by row; a location is its coordinates.

use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use super::{micros, SqliteStore};
use crate::store::records::{IssueRecord, ISSUE_COLUMNS, ISSUE_RETURNING};
use crate::store::{search_text, Instant, NewReport, StoreResult};

impl SqliteStore {
    /// The issue (the transaction's write lock already excludes every other step).
    pub(in crate::store) async fn lock_issue_row(
        tx: &mut Transaction<'_, Sqlite>,
        issue_id: Uuid,
    ) -> StoreResult<Option<IssueRecord>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = ?1"
        ))
        .bind(issue_id.to_string())
        .fetch_optional(&mut **tx)
        .await?)
    }

    /// Whether the report exists (the transaction holds the write lock).
    pub(in crate::store) async fn lock_report_row(
        tx: &mut Transaction<'_, Sqlite>,
        report_id: Uuid,
    ) -> StoreResult<bool> {
        Ok(
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM reports WHERE id = ?1)")
                .bind(report_id.to_string())
                .fetch_one(&mut **tx)
                .await?,
        )
    }

    /// The report's row.
    pub(in crate::store) async fn insert_report_row(
        tx: &mut Transaction<'_, Sqlite>,
        new: &NewReport,
        now: Instant,
    ) -> StoreResult<()> {
        let (lon, lat, radius) = match &new.location {
            Some(l) => (Some(l.point.lon), Some(l.point.lat), l.radius_m),
            None => (None, None, None),
        };
        sqlx::query(
            "INSERT INTO reports (id, author, title, description, longitude, latitude, \
             location_radius_m, search, inserted_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )
        .bind(new.id.to_string())
        .bind(&new.author)
        .bind(&new.title)
        .bind(&new.description)
        .bind(lon)
        .bind(lat)
        .bind(radius)
        .bind(search_text(new.id, &new.title, &new.description))
        .bind(micros(now))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// An open issue of the report with its copies of the report's columns.
    pub(in crate::store) async fn insert_issue_row(
        tx: &mut Transaction<'_, Sqlite>,
        issue_id: Uuid,
        report_id: Uuid,
        category_id: Uuid,
        now: Instant,
    ) -> StoreResult<IssueRecord> {
        Ok(sqlx::query_as(&format!(
            "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
             status_changed_at, report_inserted_at, longitude, latitude) \
             SELECT ?1, r.id, ?2, 'open', ?3, ?3, r.inserted_at, r.longitude, r.latitude \
             FROM reports r WHERE r.id = ?4 RETURNING {ISSUE_RETURNING}"
        ))
        .bind(issue_id.to_string())
        .bind(category_id.to_string())
        .bind(micros(now))
        .bind(report_id.to_string())
        .fetch_one(&mut **tx)
        .await?)
    }
}
