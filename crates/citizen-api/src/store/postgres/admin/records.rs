//! Media deletion and the audit trail.

use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::insert_event;
use crate::store::admin::{AdminEvent, AuditEntry, MediaPlace};
use crate::store::{Instant, StoreResult};

pub(super) async fn media_place(
    pool: &PgPool,
    report_id: Uuid,
    media_id: Uuid,
) -> StoreResult<Option<MediaPlace>> {
    let row = sqlx::query(
        "SELECT m.statement_id, si.category_id FROM media m \
         LEFT JOIN statements s ON s.id = m.statement_id \
         LEFT JOIN issues si ON si.id = s.issue_id \
         WHERE m.id = $1 AND (m.report_id = $2 OR si.report_id = $2)",
    )
    .bind(media_id)
    .bind(report_id)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let statement_id: Option<Uuid> = row.try_get("statement_id")?;
    let categories = match statement_id {
        Some(_) => vec![row.try_get("category_id")?],
        None => {
            sqlx::query_scalar(
                "SELECT DISTINCT category_id FROM issues \
                 WHERE report_id = $1 AND status <> 'moved'",
            )
            .bind(report_id)
            .fetch_all(pool)
            .await?
        }
    };
    Ok(Some(MediaPlace {
        statement_id,
        categories,
    }))
}

pub(super) async fn delete_media(
    pool: &PgPool,
    report_id: Uuid,
    media_id: Uuid,
    actor: &str,
    now: Instant,
) -> StoreResult<bool> {
    let mut tx = pool.begin().await?;
    // The report's row before the issues' rows the media trigger rewrites (lock order:
    // `issues::lock_issue`).
    sqlx::query("SELECT 1 FROM reports WHERE id = $1 FOR NO KEY UPDATE")
        .bind(report_id)
        .execute(&mut *tx)
        .await?;
    let deleted: Option<Option<Uuid>> = sqlx::query_scalar(
        "DELETE FROM media m WHERE m.id = $1 AND (m.report_id = $2 OR m.statement_id IN \
         (SELECT s.id FROM statements s JOIN issues i ON i.id = s.issue_id \
         WHERE i.report_id = $2)) RETURNING m.statement_id",
    )
    .bind(media_id)
    .bind(report_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(statement_id) = deleted else {
        return Ok(false);
    };
    let event = AdminEvent {
        report_id: Some(report_id),
        issue_id: None,
        action: "media_deleted",
        actor: actor.to_owned(),
        detail: serde_json::json!({"media_id": media_id, "statement_id": statement_id}),
        at: now,
    };
    insert_event(&mut *tx, &event).await?;
    tx.commit().await?;
    Ok(true)
}

pub(super) async fn audit(pool: &PgPool, report_id: Uuid) -> StoreResult<Option<Vec<AuditEntry>>> {
    let exists: Option<Uuid> = sqlx::query_scalar("SELECT id FROM reports WHERE id = $1")
        .bind(report_id)
        .fetch_optional(pool)
        .await?;
    if exists.is_none() {
        return Ok(None);
    }
    let mut out = Vec::new();
    let changes = sqlx::query(
        "SELECT ch.issue_id, ch.status, ch.parent_id, ch.actor, ch.at, i.category_id \
         FROM issue_changes ch JOIN issues i ON i.id = ch.issue_id \
         WHERE i.report_id = $1 ORDER BY ch.at, ch.id",
    )
    .bind(report_id)
    .fetch_all(pool)
    .await?;
    for row in &changes {
        let status: String = row.try_get("status")?;
        let parent: Option<Uuid> = row.try_get("parent_id")?;
        let category: Uuid = row.try_get("category_id")?;
        out.push(AuditEntry {
            at: row.try_get("at")?,
            actor: row.try_get("actor")?,
            action: format!("status:{status}"),
            issue_id: Some(row.try_get("issue_id")?),
            detail: serde_json::json!({"category_id": category, "parent_id": parent}),
        });
    }
    let statements = sqlx::query(
        "SELECT s.id, s.issue_id, s.final, s.author, s.inserted_at FROM statements s \
         JOIN issues i ON i.id = s.issue_id WHERE i.report_id = $1 \
         ORDER BY s.inserted_at, s.id",
    )
    .bind(report_id)
    .fetch_all(pool)
    .await?;
    for row in &statements {
        let id: Uuid = row.try_get("id")?;
        let final_: bool = row.try_get("final")?;
        out.push(AuditEntry {
            at: row.try_get("inserted_at")?,
            actor: Some(row.try_get("author")?),
            action: "statement".into(),
            issue_id: Some(row.try_get("issue_id")?),
            detail: serde_json::json!({"statement_id": id, "final": final_}),
        });
    }
    let events = sqlx::query(
        "SELECT issue_id, action, actor, detail, at FROM admin_events WHERE report_id = $1 \
         ORDER BY at, id",
    )
    .bind(report_id)
    .fetch_all(pool)
    .await?;
    for row in &events {
        let detail: String = row.try_get("detail")?;
        out.push(AuditEntry {
            at: row.try_get("at")?,
            actor: Some(row.try_get("actor")?),
            action: row.try_get("action")?,
            issue_id: row.try_get("issue_id")?,
            detail: serde_json::from_str(&detail).unwrap_or(serde_json::Value::Null),
        });
    }
    crate::store::admin::sort_audit(&mut out);
    Ok(Some(out))
}
