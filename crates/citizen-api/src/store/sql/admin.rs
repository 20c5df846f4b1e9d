//! The officers' side, where both backends run the same statements: the audit trail, a file's
//! place and its deletion, and recording an officer's change. The lists stay each backend's
//! (`admin.rs`, `admin/`).

use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::admin::{sort_audit, AdminEvent, AuditEntry, MediaPlace};
use crate::store::{Instant, StoreResult};

/// A change of an issue's state as the audit trail reads it.
#[derive(sqlx::FromRow)]
struct ChangeRecord {
    issue_id: DbUuid,
    status: String,
    parent_id: Option<DbUuid>,
    actor: Option<String>,
    at: DbInstant,
    category_id: DbUuid,
}

/// A statement as the audit trail reads it.
#[derive(sqlx::FromRow)]
struct StatementRecord {
    id: DbUuid,
    issue_id: DbUuid,
    #[sqlx(rename = "final")]
    final_: bool,
    author: String,
    inserted_at: DbInstant,
}

/// An officer's recorded change as the audit trail reads it.
#[derive(sqlx::FromRow)]
struct EventRecord {
    issue_id: Option<DbUuid>,
    action: String,
    actor: String,
    detail: String,
    at: DbInstant,
}

both_backends! {
    impl Backend {
        /// Records an officer's change (in a transaction or on the pool).
        pub(in crate::store) async fn insert_event<'c, E>(
            executor: E,
            event: &AdminEvent,
        ) -> StoreResult<()>
        where
            E: sqlx::Executor<'c, Database = Db>,
        {
            sqlx::query(
                "INSERT INTO admin_events (id, report_id, issue_id, action, actor, detail, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(DbUuid(Uuid::now_v7()))
            .bind(event.report_id.map(DbUuid))
            .bind(event.issue_id.map(DbUuid))
            .bind(event.action)
            .bind(&event.actor)
            .bind(event.detail.to_string())
            .bind(DbInstant(event.at))
            .execute(executor)
            .await?;
            Ok(())
        }

        /// Whether the report exists.
        pub(in crate::store) async fn report_exists(&self, report_id: Uuid) -> StoreResult<bool> {
            let found: Option<DbUuid> =
                sqlx::query_scalar("SELECT id FROM reports WHERE id = $1")
                    .bind(DbUuid(report_id))
                    .fetch_optional(&self.pool)
                    .await?;
            Ok(found.is_some())
        }

        /// Where a file of the report is: a statement's (with its issue's category) or the
        /// report's own (with the categories of its issues that are not moved).
        pub(in crate::store) async fn media_place_of(
            &self,
            report_id: Uuid,
            media_id: Uuid,
        ) -> StoreResult<Option<MediaPlace>> {
            let row: Option<(Option<DbUuid>, Option<DbUuid>)> = sqlx::query_as(
                "SELECT m.statement_id, si.category_id FROM media m \
                 LEFT JOIN statements s ON s.id = m.statement_id \
                 LEFT JOIN issues si ON si.id = s.issue_id \
                 WHERE m.id = $1 AND (m.report_id = $2 OR si.report_id = $2)",
            )
            .bind(DbUuid(media_id))
            .bind(DbUuid(report_id))
            .fetch_optional(&self.pool)
            .await?;
            let Some((statement_id, category)) = row else {
                return Ok(None);
            };
            let categories = match (statement_id, category) {
                (Some(_), Some(category)) => vec![category.0],
                _ => {
                    let ids: Vec<DbUuid> = sqlx::query_scalar(
                        "SELECT DISTINCT category_id FROM issues \
                         WHERE report_id = $1 AND status <> 'moved'",
                    )
                    .bind(DbUuid(report_id))
                    .fetch_all(&self.pool)
                    .await?;
                    ids.into_iter().map(Uuid::from).collect()
                }
            };
            Ok(Some(MediaPlace {
                statement_id: statement_id.map(Uuid::from),
                categories,
            }))
        }

        /// Deletes a file of the report (its own or a statement's) and records who did.
        pub(in crate::store) async fn delete_media_of(
            &self,
            report_id: Uuid,
            media_id: Uuid,
            actor: &str,
            now: Instant,
        ) -> StoreResult<bool> {
            let mut tx = self.begin_write().await?;
            // The report's row before the issues' rows the media trigger rewrites (the lock
            // order of the officers' steps).
            Backend::lock_report_row(&mut tx, report_id).await?;
            let deleted: Option<(Option<DbUuid>,)> = sqlx::query_as(
                "DELETE FROM media WHERE id = $1 AND (report_id = $2 OR statement_id IN \
                 (SELECT s.id FROM statements s JOIN issues i ON i.id = s.issue_id \
                 WHERE i.report_id = $2)) RETURNING statement_id",
            )
            .bind(DbUuid(media_id))
            .bind(DbUuid(report_id))
            .fetch_optional(&mut *tx)
            .await?;
            let Some((statement_id,)) = deleted else {
                return Ok(false);
            };
            let statement_id = statement_id.map(Uuid::from);
            let event = AdminEvent {
                report_id: Some(report_id),
                issue_id: None,
                action: "media_deleted",
                actor: actor.to_owned(),
                detail: serde_json::json!({"media_id": media_id, "statement_id": statement_id}),
                at: now,
            };
            Backend::insert_event(&mut *tx, &event).await?;
            tx.commit().await?;
            Ok(true)
        }

        /// The report's audit trail: state changes, statements and officers' recorded changes.
        pub(in crate::store) async fn audit_of(
            &self,
            report_id: Uuid,
        ) -> StoreResult<Option<Vec<AuditEntry>>> {
            if !self.report_exists(report_id).await? {
                return Ok(None);
            }
            let mut out = Vec::new();
            let changes: Vec<ChangeRecord> = sqlx::query_as(
                "SELECT ch.issue_id, ch.status, ch.parent_id, ch.actor, ch.at, i.category_id \
                 FROM issue_changes ch JOIN issues i ON i.id = ch.issue_id \
                 WHERE i.report_id = $1 ORDER BY ch.at, ch.id",
            )
            .bind(DbUuid(report_id))
            .fetch_all(&self.pool)
            .await?;
            for row in changes {
                let parent = row.parent_id.map(Uuid::from);
                out.push(AuditEntry {
                    at: row.at.0,
                    actor: row.actor,
                    action: format!("status:{}", row.status),
                    issue_id: Some(row.issue_id.0),
                    detail: serde_json::json!({"category_id": row.category_id.0, "parent_id": parent}),
                });
            }
            let statements: Vec<StatementRecord> = sqlx::query_as(
                "SELECT s.id, s.issue_id, s.final, s.author, s.inserted_at FROM statements s \
                 JOIN issues i ON i.id = s.issue_id WHERE i.report_id = $1 \
                 ORDER BY s.inserted_at, s.id",
            )
            .bind(DbUuid(report_id))
            .fetch_all(&self.pool)
            .await?;
            for row in statements {
                out.push(AuditEntry {
                    at: row.inserted_at.0,
                    actor: Some(row.author),
                    action: "statement".into(),
                    issue_id: Some(row.issue_id.0),
                    detail: serde_json::json!({"statement_id": row.id.0, "final": row.final_}),
                });
            }
            let events: Vec<EventRecord> = sqlx::query_as(
                "SELECT issue_id, action, actor, detail, at FROM admin_events \
                 WHERE report_id = $1 ORDER BY at, id",
            )
            .bind(DbUuid(report_id))
            .fetch_all(&self.pool)
            .await?;
            for row in events {
                out.push(AuditEntry {
                    at: row.at.0,
                    actor: Some(row.actor),
                    action: row.action,
                    issue_id: row.issue_id.map(Uuid::from),
                    detail: serde_json::from_str(&row.detail).unwrap_or(serde_json::Value::Null),
                });
            }
            sort_audit(&mut out);
            Ok(Some(out))
        }
    }
}
