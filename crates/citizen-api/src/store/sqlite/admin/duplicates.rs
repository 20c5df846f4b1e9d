//! Duplicate suggestions (SQLite): candidates within the bounding box of the radius
//! (`app::duplicates` measures them with the domain rule), recorded, read and dismissed.

use domain::geo::{bbox_around, LonLat};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};
use uuid::Uuid;

use super::{admin_issue, ADMIN_ISSUE_COLUMNS};
use crate::store::admin::{AdminEvent, DuplicateSubject, NewSuggestion, Opened, Suggestion};
use crate::store::sqlite::rows::issue;
use crate::store::sqlite::{get_instant, get_uuid, micros};
use crate::store::{Instant, Issue, StoreResult};

/// The issue columns after RETURNING (SQLite does not qualify them).
const ISSUE_RETURNING: &str =
    "id, report_id, category_id, status, parent_id, has_possible_duplicates, inserted_at";

const OPENED_COLUMNS: &str = "i.id, i.category_id, i.report_id, r.inserted_at AS filed_at, \
     r.longitude, r.latitude, r.title, r.description";

fn subject(row: &SqliteRow) -> StoreResult<DuplicateSubject> {
    Ok(DuplicateSubject {
        issue_id: get_uuid(row, "id")?,
        category_id: get_uuid(row, "category_id")?,
        report_id: get_uuid(row, "report_id")?,
        filed_at: get_instant(row, "filed_at")?,
        at: LonLat {
            lon: row.try_get("longitude")?,
            lat: row.try_get("latitude")?,
        },
        title: row.try_get("title")?,
        description: row.try_get("description")?,
    })
}

pub(super) async fn subjects(
    pool: &SqlitePool,
    opened: Opened,
) -> StoreResult<Vec<DuplicateSubject>> {
    let (condition, id) = match opened {
        Opened::Report(id) => ("i.report_id = ?1", id),
        Opened::Issue(id) => ("i.id = ?1", id),
    };
    let rows = sqlx::query(&format!(
        "SELECT {OPENED_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
         WHERE {condition} AND i.status = 'open' AND r.longitude IS NOT NULL"
    ))
    .bind(id.to_string())
    .fetch_all(pool)
    .await?;
    rows.iter().map(subject).collect()
}

pub(super) async fn candidates(
    pool: &SqlitePool,
    of: &DuplicateSubject,
    filed: (Instant, Instant),
    radius_m: f64,
    limit: u32,
) -> StoreResult<Vec<DuplicateSubject>> {
    let [min_lon, min_lat, max_lon, max_lat] = bbox_around(of.at, radius_m);
    let rows = sqlx::query(&format!(
        "SELECT {OPENED_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
         WHERE i.category_id = ?1 AND i.status IN ('open', 'accepted') AND i.report_id <> ?2 \
         AND i.report_inserted_at BETWEEN ?3 AND ?4 \
         AND r.longitude BETWEEN ?5 AND ?6 AND r.latitude BETWEEN ?7 AND ?8 \
         AND NOT EXISTS (SELECT 1 FROM duplicate_suggestions d \
         WHERE d.issue_id = ?9 AND d.candidate_id = i.id) LIMIT ?10"
    ))
    .bind(of.category_id.to_string())
    .bind(of.report_id.to_string())
    .bind(micros(filed.0))
    .bind(micros(filed.1))
    .bind(min_lon)
    .bind(max_lon)
    .bind(min_lat)
    .bind(max_lat)
    .bind(of.issue_id.to_string())
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await?;
    rows.iter().map(subject).collect()
}

pub(super) async fn record(
    pool: &SqlitePool,
    issue_id: Uuid,
    suggestions: &[NewSuggestion],
    now: Instant,
) -> StoreResult<()> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for s in suggestions {
        sqlx::query(
            "INSERT INTO duplicate_suggestions (issue_id, candidate_id, distance_m, \
             similarity, inserted_at) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
        )
        .bind(issue_id.to_string())
        .bind(s.candidate_id.to_string())
        .bind(s.distance_m)
        .bind(s.similarity)
        .bind(micros(now))
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE issues SET has_possible_duplicates = 1 WHERE id = ?1")
        .bind(issue_id.to_string())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

pub(super) async fn suggestions(pool: &SqlitePool, issue_id: Uuid) -> StoreResult<Vec<Suggestion>> {
    let rows = sqlx::query(&format!(
        "SELECT {ADMIN_ISSUE_COLUMNS}, r.title AS report_title, d.distance_m, d.similarity, \
         d.inserted_at AS suggested_at FROM duplicate_suggestions d \
         JOIN issues i ON i.id = d.candidate_id JOIN report_categories c ON c.id = i.category_id \
         JOIN reports r ON r.id = i.report_id \
         WHERE d.issue_id = ?1 AND d.dismissed_at IS NULL \
         ORDER BY d.similarity DESC, d.distance_m, i.id"
    ))
    .bind(issue_id.to_string())
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(Suggestion {
            candidate: admin_issue(row)?,
            report_title: row.try_get("report_title")?,
            distance_m: row.try_get("distance_m")?,
            similarity: row.try_get("similarity")?,
            inserted_at: get_instant(row, "suggested_at")?,
        });
    }
    Ok(out)
}

pub(super) async fn dismiss(
    pool: &SqlitePool,
    issue_id: Uuid,
    actor: &str,
    now: Instant,
) -> StoreResult<Option<Issue>> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let row = sqlx::query(&format!(
        "UPDATE issues SET has_possible_duplicates = 0 WHERE id = ?1 RETURNING {ISSUE_RETURNING}"
    ))
    .bind(issue_id.to_string())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let updated = issue(&row)?;
    let dismissed = sqlx::query(
        "UPDATE duplicate_suggestions SET dismissed_at = ?2 \
         WHERE issue_id = ?1 AND dismissed_at IS NULL",
    )
    .bind(issue_id.to_string())
    .bind(micros(now))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let event = AdminEvent {
        report_id: Some(updated.report_id),
        issue_id: Some(issue_id),
        action: "duplicates_dismissed",
        actor: actor.to_owned(),
        detail: serde_json::json!({ "dismissed": dismissed }),
        at: now,
    };
    crate::store::sqlite::SqliteStore::insert_event(&mut *tx, &event).await?;
    tx.commit().await?;
    Ok(Some(updated))
}
