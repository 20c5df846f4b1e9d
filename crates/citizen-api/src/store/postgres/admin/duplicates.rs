//! Duplicate suggestions (PostgreSQL): candidates found through the issues' GiST index
//! (`app::duplicates` measures them with the domain rule), recorded, read and dismissed.

use domain::geo::LonLat;
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::{admin_issue, ADMIN_ISSUE_COLUMNS};
use crate::store::admin::{AdminEvent, DuplicateSubject, NewSuggestion, Opened, Suggestion};
use crate::store::postgres::rows::{issue, ISSUE_COLUMNS};
use crate::store::{Instant, Issue, StoreResult};

const OPENED_COLUMNS: &str = "i.id, i.category_id, i.report_id, r.inserted_at AS filed_at, \
     r.longitude, r.latitude, r.title, r.description";

fn subject(row: &PgRow) -> StoreResult<DuplicateSubject> {
    Ok(DuplicateSubject {
        issue_id: row.try_get("id")?,
        category_id: row.try_get("category_id")?,
        report_id: row.try_get("report_id")?,
        filed_at: row.try_get("filed_at")?,
        at: LonLat {
            lon: row.try_get("longitude")?,
            lat: row.try_get("latitude")?,
        },
        title: row.try_get("title")?,
        description: row.try_get("description")?,
    })
}

pub(super) async fn subjects(pool: &PgPool, opened: Opened) -> StoreResult<Vec<DuplicateSubject>> {
    let (condition, id) = match opened {
        Opened::Report(id) => ("i.report_id = $1", id),
        Opened::Issue(id) => ("i.id = $1", id),
    };
    let rows = sqlx::query(&format!(
        "SELECT {OPENED_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
         WHERE {condition} AND i.status = 'open' AND r.longitude IS NOT NULL"
    ))
    .bind(id)
    .fetch_all(pool)
    .await?;
    rows.iter().map(subject).collect()
}

pub(super) async fn candidates(
    pool: &PgPool,
    of: &DuplicateSubject,
    filed: (Instant, Instant),
    radius_m: f64,
    limit: u32,
) -> StoreResult<Vec<DuplicateSubject>> {
    let rows = sqlx::query(&format!(
        "SELECT {OPENED_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
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
    .fetch_all(pool)
    .await?;
    rows.iter().map(subject).collect()
}

pub(super) async fn record(
    pool: &PgPool,
    issue_id: Uuid,
    suggestions: &[NewSuggestion],
    now: Instant,
) -> StoreResult<()> {
    let mut tx = pool.begin().await?;
    for s in suggestions {
        sqlx::query(
            "INSERT INTO duplicate_suggestions (issue_id, candidate_id, distance_m, \
             similarity, inserted_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(issue_id)
        .bind(s.candidate_id)
        .bind(s.distance_m)
        .bind(s.similarity)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE issues SET has_possible_duplicates = TRUE WHERE id = $1")
        .bind(issue_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

pub(super) async fn suggestions(pool: &PgPool, issue_id: Uuid) -> StoreResult<Vec<Suggestion>> {
    let rows = sqlx::query(&format!(
        "SELECT {ADMIN_ISSUE_COLUMNS}, r.title AS report_title, d.distance_m, d.similarity, \
         d.inserted_at AS suggested_at FROM duplicate_suggestions d \
         JOIN issues i ON i.id = d.candidate_id JOIN report_categories c ON c.id = i.category_id \
         JOIN reports r ON r.id = i.report_id \
         WHERE d.issue_id = $1 AND d.dismissed_at IS NULL \
         ORDER BY d.similarity DESC, d.distance_m, i.id"
    ))
    .bind(issue_id)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(Suggestion {
            candidate: admin_issue(row)?,
            report_title: row.try_get("report_title")?,
            distance_m: row.try_get("distance_m")?,
            similarity: row.try_get("similarity")?,
            inserted_at: row.try_get("suggested_at")?,
        });
    }
    Ok(out)
}

pub(super) async fn dismiss(
    pool: &PgPool,
    issue_id: Uuid,
    actor: &str,
    now: Instant,
) -> StoreResult<Option<Issue>> {
    let mut tx = pool.begin().await?;
    let row = sqlx::query(&format!(
        "UPDATE issues i SET has_possible_duplicates = FALSE WHERE i.id = $1 \
         RETURNING {ISSUE_COLUMNS}"
    ))
    .bind(issue_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let updated = issue(&row)?;
    let dismissed = sqlx::query(
        "UPDATE duplicate_suggestions SET dismissed_at = $2 \
         WHERE issue_id = $1 AND dismissed_at IS NULL",
    )
    .bind(issue_id)
    .bind(now)
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
    crate::store::postgres::PgStore::insert_event(&mut *tx, &event).await?;
    tx.commit().await?;
    Ok(Some(updated))
}
