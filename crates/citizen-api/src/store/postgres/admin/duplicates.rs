//! Duplicate candidates near an issue (PostgreSQL): found through the issues' GiST index,
//! nearest first (`app::duplicates` measures them with the domain rule).

use sqlx::PgPool;

use crate::store::admin::{CandidateSearch, DuplicateSubject};
use crate::store::records::{DuplicateSubjectRecord, DUPLICATE_SUBJECT_COLUMNS};
use crate::store::StoreResult;

/// Open or accepted issues of the subject's category within `radius_m` of it, of reports
/// filed within `filed`, not yet suggested for it.
pub(in crate::store::postgres) async fn duplicate_candidates_near(
    pool: &PgPool,
    search: CandidateSearch<'_>,
) -> StoreResult<Vec<DuplicateSubject>> {
    let of = search.subject;
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
    .bind(search.filed.0)
    .bind(search.filed.1)
    .bind(of.at.lon)
    .bind(of.at.lat)
    .bind(search.radius_m)
    .bind(of.issue_id)
    .bind(i64::from(search.limit))
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(DuplicateSubject::from).collect())
}
