//! The officers' side on both backends: `AdminStore` with the issues of a page of reports,
//! statements, officers, the audit trail, a file's place and its deletion, and recording an
//! officer's change. What each backend writes its own way: the admin list's statement
//! (`admin_report_rows`), candidates near an issue (`duplicate_candidates_near`) and category
//! changes (`admin/`).

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::types::Json;
use sqlx::{QueryBuilder, Row};
use uuid::Uuid;

use super::batches::STATEMENT_COLUMNS;
use super::{DbInstant, DbUuid};
use crate::store::admin::{
    sort_audit, Access, AdminEvent, AdminFilter, AdminIssue, AdminReport, AdminStore, AuditEntry,
    CategoryTx, MediaPlace, StatusCounts,
};
use crate::store::records::{
    admin_issue, AdminIssueRecord, CategoryRecord, ADMIN_ISSUE_COLUMNS, CATEGORY_COLUMNS,
};
use crate::store::{Category, Instant, ListPage, Media, Statement, StoreResult};

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

/// The three sources of a report's audit trail, each with the entry it makes.
const AUDIT_CHANGES: &str = "SELECT ch.issue_id, ch.status, ch.parent_id, ch.actor, ch.at, \
     i.category_id FROM issue_changes ch JOIN issues i ON i.id = ch.issue_id \
     WHERE i.report_id = $1 ORDER BY ch.at, ch.id";
const AUDIT_STATEMENTS: &str = "SELECT s.id, s.issue_id, s.final, s.author, s.inserted_at \
     FROM statements s JOIN issues i ON i.id = s.issue_id WHERE i.report_id = $1 \
     ORDER BY s.inserted_at, s.id";
const AUDIT_EVENTS: &str = "SELECT issue_id, action, actor, detail, at FROM admin_events \
     WHERE report_id = $1 ORDER BY at, id";

impl From<ChangeRecord> for AuditEntry {
    fn from(row: ChangeRecord) -> Self {
        let parent = row.parent_id.map(Uuid::from);
        AuditEntry {
            at: row.at.0,
            actor: row.actor,
            action: format!("status:{}", row.status),
            issue_id: Some(row.issue_id.0),
            detail: serde_json::json!({"category_id": row.category_id.0, "parent_id": parent}),
        }
    }
}

impl From<StatementRecord> for AuditEntry {
    fn from(row: StatementRecord) -> Self {
        AuditEntry {
            at: row.inserted_at.0,
            actor: Some(row.author),
            action: "statement".into(),
            issue_id: Some(row.issue_id.0),
            detail: serde_json::json!({"statement_id": row.id.0, "final": row.final_}),
        }
    }
}

impl From<EventRecord> for AuditEntry {
    fn from(row: EventRecord) -> Self {
        AuditEntry {
            at: row.at.0,
            actor: Some(row.actor),
            action: row.action,
            issue_id: row.issue_id.map(Uuid::from),
            detail: serde_json::from_str(&row.detail).unwrap_or(serde_json::Value::Null),
        }
    }
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
            let found: Option<DbUuid> = sqlx::query_scalar("SELECT id FROM reports WHERE id = $1")
                .bind(DbUuid(report_id))
                .fetch_optional(&self.pool)
                .await?;
            Ok(found.is_some())
        }

        /// The rows `sql` selects for the report `$1`.
        async fn audit_rows<R>(&self, sql: &str, report_id: Uuid) -> StoreResult<Vec<R>>
        where
            R: for<'r> sqlx::FromRow<'r, <Db as sqlx::Database>::Row> + Send + Unpin,
        {
            Ok(sqlx::query_as(sql)
                .bind(DbUuid(report_id))
                .fetch_all(&self.pool)
                .await?)
        }
    }
    impl Backend {
        /// The issues of each of `reports` that `access` shows (oldest first, moved ones left
        /// out), with the report's media, which every issue carries a copy of (migration 0014):
        /// one statement for a page of reports. The issues are found by their reports
        /// (`ISSUES_BY_REPORT`).
        async fn admin_issues_of(
            &self,
            reports: &[Uuid],
            access: &Access,
        ) -> StoreResult<HashMap<Uuid, (Vec<AdminIssue>, Vec<Media>)>> {
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {ADMIN_ISSUE_COLUMNS}, i.media FROM {} \
                 JOIN report_categories c ON c.id = i.category_id \
                 WHERE i.status <> 'moved' AND i.report_id",
                Backend::ISSUES_BY_REPORT
            ));
            Backend::push_ids(&mut q, reports);
            if let Some(ids) = access.categories() {
                q.push(" AND i.category_id");
                Backend::push_ids(&mut q, ids);
            }
            q.push(" ORDER BY i.report_id, i.inserted_at, i.id");
            let mut out: HashMap<Uuid, (Vec<AdminIssue>, Vec<Media>)> = HashMap::new();
            for row in &q.build().fetch_all(&self.pool).await? {
                let item = admin_issue(row)?;
                let (issues, media) = out.entry(item.issue.report_id).or_default();
                if issues.is_empty() {
                    let Json(copy): Json<Vec<Media>> = row.try_get("media")?;
                    *media = copy;
                }
                issues.push(item);
            }
            Ok(out)
        }
    }

    #[async_trait]
    impl AdminStore for Backend {
        async fn admin_reports(&self, filter: &AdminFilter) -> StoreResult<ListPage<AdminReport>> {
            let reports = self.admin_report_rows(filter).await?;
            let page = ListPage::from_overfetch(reports, filter.list.page.limit);
            let ids: Vec<Uuid> = page.rows.iter().map(|r| r.id).collect();
            let mut issues = self.admin_issues_of(&ids, &filter.access).await?;
            let rows = page
                .rows
                .into_iter()
                .map(|mut report| {
                    let (issues, media) = issues.remove(&report.id).unwrap_or_default();
                    report.media = media;
                    AdminReport { issues, report }
                })
                .collect();
            Ok(ListPage {
                rows,
                has_next: page.has_next,
            })
        }

        async fn status_counts(&self, filter: &AdminFilter) -> StoreResult<StatusCounts> {
            self.status_counts_of(filter).await
        }

        async fn report_issues(
            &self,
            report_id: Uuid,
            access: &Access,
        ) -> StoreResult<Option<Vec<AdminIssue>>> {
            if !self.report_exists(report_id).await? {
                return Ok(None);
            }
            let mut issues = self.admin_issues_of(&[report_id], access).await?;
            Ok(Some(issues.remove(&report_id).unwrap_or_default().0))
        }

        async fn issue(&self, issue_id: Uuid) -> StoreResult<Option<AdminIssue>> {
            let row: Option<AdminIssueRecord> = sqlx::query_as(&format!(
                "SELECT {ADMIN_ISSUE_COLUMNS} FROM issues i JOIN report_categories c \
                 ON c.id = i.category_id WHERE i.id = $1"
            ))
            .bind(DbUuid(issue_id))
            .fetch_optional(&self.pool)
            .await?;
            Ok(row.map(AdminIssue::try_from).transpose()?)
        }

        async fn statements(&self, issue_ids: &[Uuid]) -> StoreResult<Vec<Statement>> {
            if issue_ids.is_empty() {
                return Ok(Vec::new());
            }
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {STATEMENT_COLUMNS} FROM statements s WHERE s.issue_id"
            ));
            Backend::push_ids(&mut q, issue_ids);
            q.push(" ORDER BY s.inserted_at DESC, s.id DESC");
            self.statements_of(q).await
        }

        /// Where a file of the report is: a statement's (with its issue's category) or the
        /// report's own (with the categories of its issues that are not moved).
        async fn media_place(
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
        async fn delete_media(
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

        /// State changes, statements and officers' recorded changes.
        async fn audit(&self, report_id: Uuid) -> StoreResult<Option<Vec<AuditEntry>>> {
            if !self.report_exists(report_id).await? {
                return Ok(None);
            }
            let mut out = Vec::new();
            let changes = self
                .audit_rows::<ChangeRecord>(AUDIT_CHANGES, report_id)
                .await?;
            out.extend(changes.into_iter().map(AuditEntry::from));
            let statements = self
                .audit_rows::<StatementRecord>(AUDIT_STATEMENTS, report_id)
                .await?;
            out.extend(statements.into_iter().map(AuditEntry::from));
            let events = self
                .audit_rows::<EventRecord>(AUDIT_EVENTS, report_id)
                .await?;
            out.extend(events.into_iter().map(AuditEntry::from));
            sort_audit(&mut out);
            Ok(Some(out))
        }

        async fn set_explicit(
            &self,
            report_id: Uuid,
            explicit: bool,
            actor: &str,
            now: Instant,
        ) -> StoreResult<bool> {
            let mut tx = self.begin_write().await?;
            let done = sqlx::query("UPDATE reports SET explicit = $2 WHERE id = $1")
                .bind(DbUuid(report_id))
                .bind(explicit)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            let event = AdminEvent {
                report_id: Some(report_id),
                issue_id: None,
                action: "explicit_set",
                actor: actor.to_owned(),
                detail: serde_json::json!({ "explicit": explicit }),
                at: now,
            };
            Backend::insert_event(&mut *tx, &event).await?;
            tx.commit().await?;
            Ok(true)
        }

        async fn category(&self, id: Uuid) -> StoreResult<Option<Category>> {
            let row: Option<CategoryRecord> = sqlx::query_as(&format!(
                "SELECT {CATEGORY_COLUMNS} FROM report_categories c WHERE c.id = $1"
            ))
            .bind(DbUuid(id))
            .fetch_optional(&self.pool)
            .await?;
            Ok(row.map(Category::try_from).transpose()?)
        }

        async fn begin_category_change(&self) -> StoreResult<Box<dyn CategoryTx>> {
            self.begin_category_change_tx().await
        }

        async fn category_officers(&self, id: Uuid) -> StoreResult<Vec<String>> {
            Ok(sqlx::query_scalar(
                "SELECT subject FROM category_officers WHERE category_id = $1 ORDER BY subject",
            )
            .bind(DbUuid(id))
            .fetch_all(&self.pool)
            .await?)
        }
    }
}
