//! Duplicate suggestions (PostgreSQL): candidates found through the issues' GiST index, then
//! distance, time and text checked by the domain rule.

use chrono::TimeDelta;
use domain::duplicates::{similarity, DuplicateRule};
use domain::geo::{distance_m, LonLat};
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::{admin_issue, insert_event, ADMIN_ISSUE_COLUMNS};
use crate::store::admin::{AdminEvent, Opened, Suggestion};
use crate::store::postgres::rows::{issue, ISSUE_COLUMNS};
use crate::store::{Instant, Issue, StoreResult};

/// Most candidates read per opened issue (the nearest within the radius).
const MAX_CANDIDATES: i64 = 200;

const OPENED_COLUMNS: &str = "i.id, i.category_id, i.report_id, r.inserted_at AS filed_at, \
     r.longitude, r.latitude, r.title, r.description";

pub(super) async fn suggest(
    pool: &PgPool,
    opened: Opened,
    rule: &DuplicateRule,
    now: Instant,
) -> StoreResult<usize> {
    let (condition, id) = match opened {
        Opened::Report(id) => ("i.report_id = $1", id),
        Opened::Issue(id) => ("i.id = $1", id),
    };
    let issues = sqlx::query(&format!(
        "SELECT {OPENED_COLUMNS} FROM issues i JOIN reports r ON r.id = i.report_id \
         WHERE {condition} AND i.status = 'open' AND r.longitude IS NOT NULL"
    ))
    .bind(id)
    .fetch_all(pool)
    .await?;
    let window = TimeDelta::seconds(rule.window_seconds);
    let mut recorded = 0;
    for row in &issues {
        let issue_id: Uuid = row.try_get("id")?;
        let filed: Instant = row.try_get("filed_at")?;
        let at = LonLat {
            lon: row.try_get("longitude")?,
            lat: row.try_get("latitude")?,
        };
        let text = format!(
            "{} {}",
            row.try_get::<String, _>("title")?,
            row.try_get::<String, _>("description")?
        );
        let candidates = sqlx::query(&format!(
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
        .bind(row.try_get::<Uuid, _>("category_id")?)
        .bind(row.try_get::<Uuid, _>("report_id")?)
        .bind(filed - window)
        .bind(filed + window)
        .bind(at.lon)
        .bind(at.lat)
        .bind(rule.radius_m)
        .bind(issue_id)
        .bind(MAX_CANDIDATES)
        .fetch_all(pool)
        .await?;
        let mut tx = pool.begin().await?;
        let mut found = 0;
        for candidate in &candidates {
            let other = LonLat {
                lon: candidate.try_get("longitude")?,
                lat: candidate.try_get("latitude")?,
            };
            let other_filed: Instant = candidate.try_get("filed_at")?;
            let other_text = format!(
                "{} {}",
                candidate.try_get::<String, _>("title")?,
                candidate.try_get::<String, _>("description")?
            );
            let distance = distance_m(at, other);
            let sim = similarity(&text, &other_text);
            let apart = (filed - other_filed).num_seconds();
            if !rule.suggests(distance, apart, sim) {
                continue;
            }
            sqlx::query(
                "INSERT INTO duplicate_suggestions (issue_id, candidate_id, distance_m, \
                 similarity, inserted_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            )
            .bind(issue_id)
            .bind(candidate.try_get::<Uuid, _>("id")?)
            .bind(distance)
            .bind(sim)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            found += 1;
        }
        if found > 0 {
            sqlx::query("UPDATE issues SET has_possible_duplicates = TRUE WHERE id = $1")
                .bind(issue_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        recorded += found;
    }
    Ok(recorded)
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
    insert_event(&mut *tx, &event).await?;
    tx.commit().await?;
    Ok(Some(updated))
}
