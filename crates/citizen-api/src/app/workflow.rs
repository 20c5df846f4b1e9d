//! The officers' steps on issues (spec section 3): accept, resolve, move, mark a duplicate, add
//! a statement. Each runs in one transaction of the store: the issue is locked (after its
//! report), the step is checked with `domain::issues`, the change is recorded with its actor
//! and time, the report is marked processed on its first step, and what follows is written in
//! the same transaction — the notification event (outbox) and, when the report's public status
//! changes, its status event (MQTT).

use domain::issues::{check_duplicate, next_status, report_status, IssueStatus, Transition};
use uuid::Uuid;

use crate::store::{
    Instant, Issue, IssueChange, IssueStore, IssueTx, Media, NewIssue, Statement, StoreError,
    StoreResult, WorkflowError,
};

/// Accept (open → accepted) or resolve (accepted → resolved).
pub async fn change_status(
    issues: &dyn IssueStore,
    issue_id: Uuid,
    transition: Transition,
    actor: &str,
    now: Instant,
) -> Result<Issue, WorkflowError> {
    let (mut tx, current, before) = begin_on(issues, issue_id).await?;
    let next = next_status(current.status, transition)?;
    let updated = set_status(tx.as_mut(), &current, next, None, actor, now).await?;
    commit_told(tx, updated, before, now).await
}

/// Moves the issue to another category: it becomes moved and a new open issue of the same
/// report is opened there (returned).
pub async fn move_issue(
    issues: &dyn IssueStore,
    issue_id: Uuid,
    category_id: Uuid,
    actor: &str,
    now: Instant,
) -> Result<Issue, WorkflowError> {
    let (mut tx, current, before) = begin_on(issues, issue_id).await?;
    next_status(current.status, Transition::Move)?;
    if !tx.category_exists(category_id).await? {
        return Err(WorkflowError::CategoryNotFound);
    }
    set_status(tx.as_mut(), &current, IssueStatus::Moved, None, actor, now).await?;
    let opened = open_in_category(tx.as_mut(), current.report_id, category_id, actor, now).await?;
    commit_step(tx, current.report_id, before, now).await?;
    Ok(opened)
}

/// Marks the issue a duplicate of `parent_id` (clears its duplicate-suggestion flag).
pub async fn mark_duplicate(
    issues: &dyn IssueStore,
    issue_id: Uuid,
    parent_id: Uuid,
    actor: &str,
    now: Instant,
) -> Result<Issue, WorkflowError> {
    let mut tx = issues.begin_step().await?;
    // Both are locked in id order, so two officers marking each other's issues cannot deadlock.
    let (first, second) = if issue_id <= parent_id {
        (issue_id, parent_id)
    } else {
        (parent_id, issue_id)
    };
    let a = lock_issue(tx.as_mut(), first).await?;
    let b = if first == second {
        a.clone()
    } else {
        lock_issue(tx.as_mut(), second).await?
    };
    let (current, parent) = if a.id == issue_id { (a, b) } else { (b, a) };
    let before = public_status(tx.as_mut(), current.report_id).await?;
    check_duplicate(current.status, parent.status, issue_id == parent_id)?;
    let updated = set_status(
        tx.as_mut(),
        &current,
        IssueStatus::Duplicate,
        Some(parent_id),
        actor,
        now,
    )
    .await?;
    commit_told(tx, updated, before, now).await
}

/// Adds a statement (its media already stored).
pub async fn add_statement(
    issues: &dyn IssueStore,
    issue_id: Uuid,
    text: &str,
    final_: bool,
    media: &[Media],
    actor: &str,
    now: Instant,
) -> Result<Statement, WorkflowError> {
    let mut tx = issues.begin_step().await?;
    let current = lock_issue(tx.as_mut(), issue_id).await?;
    let statement = Statement {
        id: Uuid::now_v7(),
        issue_id,
        text: text.to_owned(),
        final_,
        author: actor.to_owned(),
        inserted_at: now,
        media: media.to_vec(),
    };
    tx.insert_statement(&statement).await?;
    tx.mark_processed(current.report_id, now).await?;
    tx.record_notification(current.statement_event(), now)
        .await?;
    tx.commit().await?;
    Ok(statement)
}

/// Opens a further issue of a report in another category (the report is handled there too),
/// recorded with its actor. `Ok(None)` when there is no such report or category; a `Conflict`
/// when the report already has an issue there that is not moved. The report's lock serialises
/// two officers opening the same category.
pub async fn open_issue(
    issues: &dyn IssueStore,
    report_id: Uuid,
    category_id: Uuid,
    actor: &str,
    now: Instant,
) -> StoreResult<Option<Issue>> {
    let mut tx = issues.begin_step().await?;
    if !tx.lock_report(report_id).await? || !tx.category_exists(category_id).await? {
        return Ok(None);
    }
    let before = public_status(tx.as_mut(), report_id).await?;
    if tx
        .issue_in_category(report_id, category_id)
        .await?
        .is_some()
    {
        return Err(StoreError::Conflict {
            constraint: Some("one issue per category".into()),
        });
    }
    let opened = open_in_category(tx.as_mut(), report_id, category_id, actor, now).await?;
    commit_step(tx, report_id, before, now).await?;
    Ok(Some(opened))
}

/// A step on one issue begun: its transaction, the issue locked, and the report's public status
/// before the step (to tell whether the step changes it).
async fn begin_on(
    issues: &dyn IssueStore,
    issue_id: Uuid,
) -> Result<(Box<dyn IssueTx>, Issue, Option<IssueStatus>), WorkflowError> {
    let mut tx = issues.begin_step().await?;
    let current = lock_issue(tx.as_mut(), issue_id).await?;
    let before = public_status(tx.as_mut(), current.report_id).await?;
    Ok((tx, current, before))
}

async fn lock_issue(tx: &mut dyn IssueTx, issue_id: Uuid) -> Result<Issue, WorkflowError> {
    tx.lock_issue(issue_id)
        .await?
        .ok_or(WorkflowError::IssueNotFound)
}

/// The report's public status (derived from its issues' states) as the transaction sees it.
async fn public_status(tx: &mut dyn IssueTx, report_id: Uuid) -> StoreResult<Option<IssueStatus>> {
    Ok(report_status(tx.issue_statuses(report_id).await?))
}

/// Sets the issue's state, records the change and marks the report processed.
async fn set_status(
    tx: &mut dyn IssueTx,
    current: &Issue,
    status: IssueStatus,
    parent: Option<Uuid>,
    actor: &str,
    now: Instant,
) -> Result<Issue, WorkflowError> {
    let clear_possible_duplicates = status == IssueStatus::Duplicate;
    let change = IssueChange {
        issue_id: current.id,
        status,
        parent,
        at: now,
    };
    let updated = tx.set_status(&change, clear_possible_duplicates).await?;
    tx.record_change(&change, Some(actor)).await?;
    tx.mark_processed(current.report_id, now).await?;
    Ok(updated)
}

/// Opens a new issue of the report in the category, its opening recorded with its actor.
async fn open_in_category(
    tx: &mut dyn IssueTx,
    report_id: Uuid,
    category_id: Uuid,
    actor: &str,
    now: Instant,
) -> StoreResult<Issue> {
    let opened = tx
        .open_issue(NewIssue::of(report_id, category_id), now)
        .await?;
    tx.record_change(&IssueChange::opened(opened.id, now), Some(actor))
        .await?;
    Ok(opened)
}

/// Ends a step that changed the issue's state to `updated`, of which the report's author is told
/// (the notification event), like [`commit_step`].
async fn commit_told(
    mut tx: Box<dyn IssueTx>,
    updated: Issue,
    before: Option<IssueStatus>,
    now: Instant,
) -> Result<Issue, WorkflowError> {
    tx.record_notification(updated.status_event(), now).await?;
    commit_step(tx, updated.report_id, before, now).await?;
    Ok(updated)
}

/// Ends a step that may change the report's public status: records the status event when it
/// now differs from `before`, then commits.
async fn commit_step(
    mut tx: Box<dyn IssueTx>,
    report_id: Uuid,
    before: Option<IssueStatus>,
    now: Instant,
) -> StoreResult<()> {
    record_status_if_changed(tx.as_mut(), report_id, before, now).await?;
    tx.commit().await
}

/// Records the report's status event when its public status now differs from `before`.
pub(super) async fn record_status_if_changed(
    tx: &mut dyn IssueTx,
    report_id: Uuid,
    before: Option<IssueStatus>,
    now: Instant,
) -> StoreResult<()> {
    let after = public_status(tx, report_id).await?;
    if after != before {
        tx.record_status_event(report_id, before, after, now)
            .await?;
    }
    Ok(())
}
