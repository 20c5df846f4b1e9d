//! Duplicate candidates near an issue (PostgreSQL): found through the issues' GiST index,
//! nearest first (`app::duplicates` measures them with the domain rule).

use crate::store::admin::DuplicateSubject;
use crate::store::postgres::PgStore;
use crate::store::records::{DuplicateSubjectRecord, DUPLICATE_SUBJECT_COLUMNS};
use crate::store::{Instant, StoreResult};

impl PgStore {
    /// Open or accepted issues of the subject's category within `radius_m` of it, of reports
    /// filed within `filed`, not yet suggested for it.
    pub(in crate::store) async fn duplicate_candidates_near(
        &self,
        of: &DuplicateSubject,
        filed: (Instant, Instant),
        radius_m: f64,
        limit: u32,
    ) -> StoreResult<Vec<DuplicateSubject>> {
        let rows: Vec<DuplicateSubjectRecord> = sqlx::query_as(&format!(
            "SELECT {DUPLICATE_SUBJECT_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
             WHERE i.category_id = $1 AND i.status IN ('open', 'accepted') AND i.report_id <> $2 \
             AND i.report_inserted_at BETWEEN $3 AND $4 \
             AND public.ST_DWithin(i.location, public.ST_SetSRID(public.ST_MakePoint($5, $6), \
             4326)::public.geography, $7) \
             AND NOT EXISTS (SELECT 1 FROM duplicate_suggestions d \
             WHERE d.issue_id = $8 AND d.candidate_id = i.id) \
             ORDER BY i.location <-> public.ST_SetSRID(public.ST_MakePoint($5, $6), \
             4326)::public.geography LIMIT $9"
        ))
        .bind(of.category_id)
        .bind(of.report_id)
        .bind(filed.0)
        .bind(filed.1)
        .bind(of.at.lon)
        .bind(of.at.lat)
        .bind(radius_m)
        .bind(of.issue_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(DuplicateSubject::from).collect())
    }
}
