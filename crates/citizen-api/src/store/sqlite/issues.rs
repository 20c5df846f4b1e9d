//! The officers' steps on issues (SQLite): each in one `BEGIN IMMEDIATE` transaction, which
//! holds the database's write lock from its start.

use async_trait::async_trait;
use domain::issues::{IssueStatus, Transition};
use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use super::rows::{issue, ISSUE_COLUMNS};

/// The issue columns after RETURNING (SQLite does not qualify them).
const ISSUE_RETURNING: &str =
    "id, report_id, category_id, status, parent_id, has_possible_duplicates, inserted_at";
use super::{micros, SqliteStore};
use crate::store::{
    checked_next, Instant, Issue, IssueStore, Media, Statement, StoreResult, WorkflowError,
};

/// Records a change of an issue's state (the timeline and the audit trail read these).
pub(super) async fn record_change(
    tx: &mut Transaction<'_, Sqlite>,
    issue_id: Uuid,
    status: IssueStatus,
    parent: Option<Uuid>,
    actor: Option<&str>,
    at: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO issue_changes (id, issue_id, status, parent_id, actor, at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .bind(Uuid::now_v7().to_string())
    .bind(issue_id.to_string())
    .bind(status.as_str())
    .bind(parent.map(|p| p.to_string()))
    .bind(actor)
    .bind(micros(at))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The issue, locked until the transaction ends.
async fn lock_issue(
    tx: &mut Transaction<'_, Sqlite>,
    issue_id: Uuid,
) -> Result<Issue, WorkflowError> {
    let row = sqlx::query(&format!(
        "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = ?1"
    ))
    .bind(issue_id.to_string())
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => Ok(issue(&row)?),
        None => Err(WorkflowError::IssueNotFound),
    }
}

/// Sets the issue's state, records the change and marks the report processed.
async fn set_status(
    tx: &mut Transaction<'_, Sqlite>,
    issue_id: Uuid,
    status: IssueStatus,
    parent: Option<Uuid>,
    actor: &str,
    now: Instant,
) -> StoreResult<Issue> {
    let row = sqlx::query(&format!(
        "UPDATE issues SET status = ?2, parent_id = ?3, status_changed_at = ?4, \
         has_possible_duplicates = CASE WHEN ?2 = 'duplicate' THEN 0 \
         ELSE has_possible_duplicates END WHERE id = ?1 RETURNING {ISSUE_RETURNING}"
    ))
    .bind(issue_id.to_string())
    .bind(status.as_str())
    .bind(parent.map(|p| p.to_string()))
    .bind(micros(now))
    .fetch_one(&mut **tx)
    .await?;
    let updated = issue(&row)?;
    record_change(tx, issue_id, status, parent, Some(actor), now).await?;
    mark_processed(tx, updated.report_id, now).await?;
    Ok(updated)
}

async fn mark_processed(
    tx: &mut Transaction<'_, Sqlite>,
    report_id: Uuid,
    now: Instant,
) -> StoreResult<()> {
    sqlx::query("UPDATE reports SET processed_at = ?2 WHERE id = ?1 AND processed_at IS NULL")
        .bind(report_id.to_string())
        .bind(micros(now))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[async_trait]
impl IssueStore for SqliteStore {
    async fn change_status(
        &self,
        issue_id: Uuid,
        transition: Transition,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let current = lock_issue(&mut tx, issue_id).await?;
        let before = super::status_events::report_status_now(&mut tx, current.report_id).await?;
        let next = checked_next(current.status, transition)?;
        let updated = set_status(&mut tx, issue_id, next, None, actor, now).await?;
        super::outbox::record_event(&mut tx, updated.status_event(), now).await?;
        super::status_events::record_if_changed(&mut tx, current.report_id, before, now).await?;
        tx.commit().await?;
        Ok(updated)
    }

    async fn move_issue(
        &self,
        issue_id: Uuid,
        category_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let current = lock_issue(&mut tx, issue_id).await?;
        let before = super::status_events::report_status_now(&mut tx, current.report_id).await?;
        checked_next(current.status, Transition::Move)?;
        let exists: Option<String> =
            sqlx::query_scalar("SELECT id FROM report_categories WHERE id = ?1")
                .bind(category_id.to_string())
                .fetch_optional(&mut *tx)
                .await?;
        if exists.is_none() {
            return Err(WorkflowError::CategoryNotFound);
        }
        set_status(&mut tx, issue_id, IssueStatus::Moved, None, actor, now).await?;
        let new_id = Uuid::now_v7();
        let row = sqlx::query(&format!(
            "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
             status_changed_at, report_inserted_at, longitude, latitude) \
             SELECT ?1, o.report_id, ?2, 'open', ?3, ?3, o.report_inserted_at, o.longitude, o.latitude \
             FROM issues o WHERE o.id = ?4 RETURNING {ISSUE_RETURNING}"
        ))
        .bind(new_id.to_string())
        .bind(category_id.to_string())
        .bind(micros(now))
        .bind(issue_id.to_string())
        .fetch_one(&mut *tx)
        .await?;
        let opened = issue(&row)?;
        record_change(&mut tx, new_id, IssueStatus::Open, None, Some(actor), now).await?;
        super::status_events::record_if_changed(&mut tx, current.report_id, before, now).await?;
        tx.commit().await?;
        Ok(opened)
    }

    async fn mark_duplicate(
        &self,
        issue_id: Uuid,
        parent_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        // Lock both in id order so two officers marking each other's issues cannot deadlock.
        let (first, second) = if issue_id <= parent_id {
            (issue_id, parent_id)
        } else {
            (parent_id, issue_id)
        };
        let a = lock_issue(&mut tx, first).await?;
        let b = if first == second {
            a.clone()
        } else {
            lock_issue(&mut tx, second).await?
        };
        let (current, parent) = if a.id == issue_id { (a, b) } else { (b, a) };
        let before = super::status_events::report_status_now(&mut tx, current.report_id).await?;
        domain::issues::check_duplicate(current.status, parent.status, issue_id == parent_id)?;
        let updated = set_status(
            &mut tx,
            issue_id,
            IssueStatus::Duplicate,
            Some(parent_id),
            actor,
            now,
        )
        .await?;
        super::outbox::record_event(&mut tx, updated.status_event(), now).await?;
        super::status_events::record_if_changed(&mut tx, current.report_id, before, now).await?;
        tx.commit().await?;
        Ok(updated)
    }

    async fn add_statement(
        &self,
        issue_id: Uuid,
        text: &str,
        final_: bool,
        media: &[Media],
        actor: &str,
        now: Instant,
    ) -> Result<Statement, WorkflowError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let current = lock_issue(&mut tx, issue_id).await?;
        let id = Uuid::now_v7();
        sqlx::query(
            "INSERT INTO statements (id, issue_id, text, final, author, inserted_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(id.to_string())
        .bind(issue_id.to_string())
        .bind(text)
        .bind(final_)
        .bind(actor)
        .bind(micros(now))
        .execute(&mut *tx)
        .await?;
        super::rows::insert_media(&mut tx, "statement_id", id, media, now).await?;
        mark_processed(&mut tx, current.report_id, now).await?;
        super::outbox::record_event(&mut tx, current.statement_event(), now).await?;
        tx.commit().await?;
        Ok(Statement {
            id,
            issue_id,
            text: text.to_owned(),
            final_,
            author: actor.to_owned(),
            inserted_at: now,
            media: media.to_vec(),
        })
    }
}
