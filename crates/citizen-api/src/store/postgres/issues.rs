//! The officers' steps on issues (PostgreSQL): each in one transaction that locks the issue row.

use async_trait::async_trait;
use domain::issues::{IssueStatus, Transition};
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::rows::{issue, ISSUE_COLUMNS};
use super::PgStore;
use crate::store::{
    checked_next, Instant, Issue, IssueStore, Media, Statement, StoreResult, WorkflowError,
};

/// Records a change of an issue's state (the timeline and the audit trail read these).
pub(super) async fn record_change(
    tx: &mut Transaction<'_, Postgres>,
    issue_id: Uuid,
    status: IssueStatus,
    parent: Option<Uuid>,
    actor: Option<&str>,
    at: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO issue_changes (id, issue_id, status, parent_id, actor, at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(Uuid::now_v7())
    .bind(issue_id)
    .bind(status.as_str())
    .bind(parent)
    .bind(actor)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The issue, locked until the transaction ends, after its report.
///
/// Report first, then issue: changing `explicit` or `processed_at` on a report rewrites the
/// copies on all of its issues (migration 0014's triggers) while holding the report's row, so a
/// step that held its issue and then waited for the report could deadlock with it. Every
/// transaction that locks issue rows of a report takes the report's row first.
async fn lock_issue(
    tx: &mut Transaction<'_, Postgres>,
    issue_id: Uuid,
) -> Result<Issue, WorkflowError> {
    sqlx::query(
        "SELECT 1 FROM reports r JOIN issues i ON i.report_id = r.id WHERE i.id = $1 \
         FOR NO KEY UPDATE OF r",
    )
    .bind(issue_id)
    .execute(&mut **tx)
    .await?;
    let row = sqlx::query(&format!(
        "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = $1 FOR UPDATE"
    ))
    .bind(issue_id)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => Ok(issue(&row)?),
        None => Err(WorkflowError::IssueNotFound),
    }
}

/// Sets the issue's state, records the change and marks the report processed.
async fn set_status(
    tx: &mut Transaction<'_, Postgres>,
    issue_id: Uuid,
    status: IssueStatus,
    parent: Option<Uuid>,
    actor: &str,
    now: Instant,
) -> StoreResult<Issue> {
    let row = sqlx::query(&format!(
        "UPDATE issues i SET status = $2, parent_id = $3, status_changed_at = $4, \
         has_possible_duplicates = CASE WHEN $2 = 'duplicate' THEN FALSE \
         ELSE has_possible_duplicates END WHERE i.id = $1 RETURNING {ISSUE_COLUMNS}"
    ))
    .bind(issue_id)
    .bind(status.as_str())
    .bind(parent)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    let updated = issue(&row)?;
    record_change(tx, issue_id, status, parent, Some(actor), now).await?;
    mark_processed(tx, updated.report_id, now).await?;
    Ok(updated)
}

async fn mark_processed(
    tx: &mut Transaction<'_, Postgres>,
    report_id: Uuid,
    now: Instant,
) -> StoreResult<()> {
    sqlx::query("UPDATE reports SET processed_at = $2 WHERE id = $1 AND processed_at IS NULL")
        .bind(report_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[async_trait]
impl IssueStore for PgStore {
    async fn change_status(
        &self,
        issue_id: Uuid,
        transition: Transition,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError> {
        let mut tx = self.pool.begin().await?;
        let current = lock_issue(&mut tx, issue_id).await?;
        let before = super::status_events::lock_report_status(&mut tx, current.report_id).await?;
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
        let mut tx = self.pool.begin().await?;
        let current = lock_issue(&mut tx, issue_id).await?;
        let before = super::status_events::lock_report_status(&mut tx, current.report_id).await?;
        checked_next(current.status, Transition::Move)?;
        let exists: Option<Uuid> =
            sqlx::query_scalar("SELECT id FROM report_categories WHERE id = $1")
                .bind(category_id)
                .fetch_optional(&mut *tx)
                .await?;
        if exists.is_none() {
            return Err(WorkflowError::CategoryNotFound);
        }
        set_status(&mut tx, issue_id, IssueStatus::Moved, None, actor, now).await?;
        let new_id = Uuid::now_v7();
        let row = sqlx::query(&format!(
            "INSERT INTO issues AS i (id, report_id, category_id, status, inserted_at, \
             status_changed_at, report_inserted_at, location) \
             SELECT $1, o.report_id, $2, 'open', $3, $3, o.report_inserted_at, o.location \
             FROM issues o WHERE o.id = $4 RETURNING {ISSUE_COLUMNS}"
        ))
        .bind(new_id)
        .bind(category_id)
        .bind(now)
        .bind(issue_id)
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
        let mut tx = self.pool.begin().await?;
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
        let before = super::status_events::lock_report_status(&mut tx, current.report_id).await?;
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
        let mut tx = self.pool.begin().await?;
        let current = lock_issue(&mut tx, issue_id).await?;
        let id = Uuid::now_v7();
        sqlx::query(
            "INSERT INTO statements (id, issue_id, text, final, author, inserted_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(issue_id)
        .bind(text)
        .bind(final_)
        .bind(actor)
        .bind(now)
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
