//! Changing and deleting report categories: there is always exactly one default category
//! (making another the default moves it; the default can be neither unmarked nor deleted), and a
//! category that ever held an issue stays. Each runs in one transaction of the store in which the
//! rows it reads are locked, so two officers' changes cannot both pass a check and break it.

use uuid::Uuid;

use crate::store::admin::{AdminStore, CategoryChange, CategoryError};
use crate::store::Category;

/// Changes a category (a taken name is a `Conflict`).
pub async fn update(
    admin: &dyn AdminStore,
    id: Uuid,
    change: &CategoryChange,
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
    tx.commit().await?;
    Ok(updated)
}

/// Deletes a category no issue was ever placed in, with its officer assignments.
pub async fn delete(admin: &dyn AdminStore, id: Uuid) -> Result<(), CategoryError> {
    let mut tx = admin.begin_category_change().await?;
    let current = tx.lock_category(id).await?.ok_or(CategoryError::NotFound)?;
    if current.is_default {
        return Err(CategoryError::DefaultRequired);
    }
    if tx.category_used(id).await? {
        return Err(CategoryError::InUse);
    }
    tx.delete_category(id).await?;
    tx.commit().await?;
    Ok(())
}
