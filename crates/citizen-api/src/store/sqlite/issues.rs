//! The officers' steps (SQLite): the transaction's write lock (`BEGIN IMMEDIATE`) already
//! excludes every other step, so nothing is locked row by row; a location is its coordinates.

use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use super::SqliteStore;
use crate::store::records::{IssueRecord, ISSUE_COLUMNS};
use crate::store::StoreResult;

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

    /// The report's row: `$1` id, `$2` author, `$3` title, `$4` description, `$5` longitude,
    /// `$6` latitude, `$7` radius, `$8` search text, `$9` now.
    pub(in crate::store) const INSERT_REPORT: &'static str =
        "INSERT INTO reports (id, author, title, description, longitude, latitude, \
         location_radius_m, search, inserted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

    /// An open issue of report `$4` in category `$2` at `$3`, id `$1`, with the report's
    /// coordinates.
    pub(in crate::store) const INSERT_ISSUE: &'static str =
        "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
         status_changed_at, report_inserted_at, longitude, latitude) \
         SELECT $1, r.id, $2, 'open', $3, $3, r.inserted_at, r.longitude, r.latitude \
         FROM reports r WHERE r.id = $4";
}
