//! Report categories and their officers: there is always exactly one default category (making
//! another the default moves it; the default can be neither unmarked nor deleted), a category
//! that ever held an issue stays, and every change is in the audit trail. Each runs in one
//! transaction of the store in which the rows it reads are locked, so two officers' changes
//! cannot both pass a check and break it, and a change is never without its audit entry.

use serde_json::json;
use uuid::Uuid;

use crate::store::admin::{AdminEvent, AdminStore, CategoryChange, CategoryError, CategoryTx};
use crate::store::{Category, Instant, NewCategory};

/// Creates a category; `new.is_default` makes it the default (the former one stops being it).
/// A taken name is a `Conflict`.
pub async fn create(
    admin: &dyn AdminStore,
    new: &NewCategory,
    actor: &str,
    now: Instant,
) -> Result<Category, CategoryError> {
    let mut tx = admin.begin_category_change().await?;
    if new.is_default {
        tx.lock_default().await?;
        tx.clear_default().await?;
    }
    let created = tx.insert_category(Uuid::now_v7(), new, now).await?;
    let detail = category_detail(
        created.id,
        Some(&created.name),
        Some(created.is_default),
        created.statement_deadline_days,
    );
    commit_recorded(tx, "category_created", detail, actor, now).await?;
    Ok(created)
}

/// Changes a category (a taken name is a `Conflict`).
pub async fn update(
    admin: &dyn AdminStore,
    id: Uuid,
    change: &CategoryChange,
    actor: &str,
    now: Instant,
) -> Result<Category, CategoryError> {
    let mut tx = admin.begin_category_change().await?;
    // The default's row first: two requests making two categories the default serialise here.
    tx.lock_default().await?;
    let current = tx.lock_category(id).await?.ok_or(CategoryError::NotFound)?;
    match change.is_default {
        Some(false) if current.is_default => return Err(CategoryError::DefaultRequired),
        Some(true) if !current.is_default => tx.clear_default().await?,
        _ => {}
    }
    let deadline = change
        .statement_deadline_days
        .unwrap_or(current.statement_deadline_days);
    let updated = tx.write_category(id, change, deadline).await?;
    let detail = category_detail(
        id,
        change.name.as_deref(),
        change.is_default,
        change.statement_deadline_days.flatten(),
    );
    commit_recorded(tx, "category_updated", detail, actor, now).await?;
    Ok(updated)
}

/// Deletes a category no issue was ever placed in, with its officer assignments.
pub async fn delete(
    admin: &dyn AdminStore,
    id: Uuid,
    actor: &str,
    now: Instant,
) -> Result<(), CategoryError> {
    let mut tx = admin.begin_category_change().await?;
    let current = tx.lock_category(id).await?.ok_or(CategoryError::NotFound)?;
    if current.is_default {
        return Err(CategoryError::DefaultRequired);
    }
    if tx.category_used(id).await? {
        return Err(CategoryError::InUse);
    }
    tx.delete_category(id).await?;
    commit_recorded(
        tx,
        "category_deleted",
        json!({"category_id": id}),
        actor,
        now,
    )
    .await
}

/// An officer (a token subject) to let work in a category (`assigned`) or to take off it.
#[derive(Debug, Clone, Copy)]
pub struct OfficerChange<'a> {
    pub category_id: Uuid,
    pub subject: &'a str,
    pub assigned: bool,
}

/// Assigns the officer to the category or takes them off it. Idempotent: the audit trail records
/// a change only (an assignment that exists, or a removal of one that does not, is not
/// recorded).
pub async fn change_officer(
    admin: &dyn AdminStore,
    change: OfficerChange<'_>,
    actor: &str,
    now: Instant,
) -> Result<(), CategoryError> {
    let (id, subject) = (change.category_id, change.subject);
    let mut tx = admin.begin_category_change().await?;
    tx.lock_category(id).await?.ok_or(CategoryError::NotFound)?;
    let (changed, action) = if change.assigned {
        (tx.assign_officer(subject, id).await?, "officer_assigned")
    } else {
        (tx.remove_officer(subject, id).await?, "officer_removed")
    };
    if changed {
        record(tx.as_mut(), action, officer_detail(id, subject), actor, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The audit entry's detail of a category written (absent fields of a change are `null`).
fn category_detail(
    id: Uuid,
    name: Option<&str>,
    is_default: Option<bool>,
    statement_deadline_days: Option<u32>,
) -> serde_json::Value {
    json!({"category_id": id, "name": name, "is_default": is_default,
        "statement_deadline_days": statement_deadline_days})
}

/// The audit entry's detail of an officer assigned to or taken off a category.
fn officer_detail(id: Uuid, subject: &str) -> serde_json::Value {
    json!({"category_id": id, "officer": subject})
}

/// Records the change in the audit trail and commits it with its entry.
async fn commit_recorded(
    mut tx: Box<dyn CategoryTx>,
    action: &'static str,
    detail: serde_json::Value,
    actor: &str,
    now: Instant,
) -> Result<(), CategoryError> {
    record(tx.as_mut(), action, detail, actor, now).await?;
    Ok(tx.commit().await?)
}

async fn record(
    tx: &mut dyn CategoryTx,
    action: &'static str,
    detail: serde_json::Value,
    actor: &str,
    now: Instant,
) -> Result<(), CategoryError> {
    let event = AdminEvent {
        report_id: None,
        issue_id: None,
        action,
        actor: actor.to_owned(),
        detail,
        at: now,
    };
    Ok(tx.record_event(&event).await?)
}
