//! The officers' steps (PostgreSQL): how an issue and its report are locked, and a report's
//! and an issue's location (PostGIS `geography`).

use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::PgStore;
use crate::store::records::{IssueRecord, ISSUE_COLUMNS};
use crate::store::StoreResult;

impl PgStore {
    /// The issue, locked until the transaction ends, after its report's row.
    pub(in crate::store) async fn lock_issue_row(
        tx: &mut Transaction<'_, Postgres>,
        issue_id: Uuid,
    ) -> StoreResult<Option<IssueRecord>> {
        // NO KEY UPDATE: steps on the report's issues wait for each other, while vote
        // placements (whose foreign key takes KEY SHARE on the report) do not wait for them.
        sqlx::query(
            "SELECT 1 FROM reports r JOIN issues i ON i.report_id = r.id WHERE i.id = $1 \
             FOR NO KEY UPDATE OF r",
        )
        .bind(issue_id)
        .execute(&mut **tx)
        .await?;
        Ok(sqlx::query_as(&format!(
            "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = $1 FOR UPDATE"
        ))
        .bind(issue_id)
        .fetch_optional(&mut **tx)
        .await?)
    }

    /// Locks the report's row (`FOR NO KEY UPDATE`); whether it exists.
    pub(in crate::store) async fn lock_report_row(
        tx: &mut Transaction<'_, Postgres>,
        report_id: Uuid,
    ) -> StoreResult<bool> {
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM reports WHERE id = $1 FOR NO KEY UPDATE")
                .bind(report_id)
                .fetch_optional(&mut **tx)
                .await?;
        Ok(found.is_some())
    }

    /// The report's row: `$1` id, `$2` author, `$3` title, `$4` description, `$5` longitude,
    /// `$6` latitude, `$7` radius, `$8` search text, `$9` now; the location as a `geography`
    /// beside the coordinates.
    pub(in crate::store) const INSERT_REPORT: &'static str =
        "INSERT INTO reports (id, author, title, description, longitude, latitude, \
         location_radius_m, location, search, inserted_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $5::float8 IS NULL THEN NULL ELSE \
         public.ST_SetSRID(public.ST_MakePoint($5, $6), 4326)::public.geography END, $8, $9)";

    /// An open issue of report `$4` in category `$2` at `$3`, id `$1`, with the report's
    /// location.
    pub(in crate::store) const INSERT_ISSUE: &'static str =
        "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
         status_changed_at, report_inserted_at, location) \
         SELECT $1, r.id, $2, 'open', $3, $3, r.inserted_at, r.location FROM reports r \
         WHERE r.id = $4";
}
