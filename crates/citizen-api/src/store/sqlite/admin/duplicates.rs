//! Duplicate candidates near an issue (SQLite): within the bounding box of the radius
//! (`app::duplicates` measures them with the domain rule and keeps those within the radius).

use domain::geo::bbox_around;
use sqlx::SqlitePool;

use crate::store::admin::{CandidateSearch, DuplicateSubject};
use crate::store::records::{DuplicateSubjectRecord, DUPLICATE_SUBJECT_COLUMNS};
use crate::store::sqlite::micros;
use crate::store::StoreResult;

/// Open or accepted issues of the subject's category within the box around it, of reports
/// filed within `filed`, not yet suggested for it.
pub(in crate::store::sqlite) async fn duplicate_candidates_near(
    pool: &SqlitePool,
    search: CandidateSearch<'_>,
) -> StoreResult<Vec<DuplicateSubject>> {
    let of = search.subject;
    let [min_lon, min_lat, max_lon, max_lat] = bbox_around(of.at, search.radius_m);
    let rows: Vec<DuplicateSubjectRecord> = sqlx::query_as(&format!(
        "SELECT {DUPLICATE_SUBJECT_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
         WHERE i.category_id = ?1 AND i.status IN ('open', 'accepted') AND i.report_id <> ?2 \
         AND i.report_inserted_at BETWEEN ?3 AND ?4 \
         AND r.longitude BETWEEN ?5 AND ?6 AND r.latitude BETWEEN ?7 AND ?8 \
         AND NOT EXISTS (SELECT 1 FROM duplicate_suggestions d \
         WHERE d.issue_id = ?9 AND d.candidate_id = i.id) LIMIT ?10"
    ))
    .bind(of.category_id.to_string())
    .bind(of.report_id.to_string())
    .bind(micros(search.filed.0))
    .bind(micros(search.filed.1))
    .bind(min_lon)
    .bind(max_lon)
    .bind(min_lat)
    .bind(max_lat)
    .bind(of.issue_id.to_string())
    .bind(i64::from(search.limit))
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(DuplicateSubject::from).collect())
}
