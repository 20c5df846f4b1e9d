//! Reply templates: an officer adds, changes and deletes the templates of the categories they
//! work (every category with access to all); another category's template, or category, is
//! answered as one that does not exist. A category holds at most
//! [`PER_CATEGORY_MAX`](domain::reply_templates::PER_CATEGORY_MAX) templates: the count and the
//! insert run in one transaction with the category's row locked, so two officers adding at once
//! cannot pass the limit together. The texts are checked before (`domain::reply_templates`).

use domain::reply_templates::{check_room, AppliesOn, TemplateRefusal, Texts};
use uuid::Uuid;

use crate::store::admin::Access;
use crate::store::reply_templates::{ReplyTemplate, ReplyTemplateStore, ReplyTemplateTx};
use crate::store::{Instant, StoreError};

/// A template to add, its fields checked.
#[derive(Debug, Clone)]
pub struct NewTemplate {
    pub category_id: Uuid,
    pub title: String,
    pub texts: Texts,
    pub applies_on: Option<AppliesOn>,
}

/// A change of a template, its fields checked; `None` fields stay as they are (`texts`
/// replaces every language).
#[derive(Debug, Clone, Default)]
pub struct TemplateChange {
    pub title: Option<String>,
    pub texts: Option<Texts>,
    pub applies_on: Option<Option<AppliesOn>>,
}

/// Why a change of templates did not happen.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// No such category, or not one of the caller's.
    #[error("no such category")]
    CategoryNotFound,
    /// No such template, or one of a category that is not the caller's.
    #[error("no such template")]
    NotFound,
    /// The category holds the most templates already.
    #[error(transparent)]
    Refused(TemplateRefusal),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Adds a template to a category the caller works.
pub async fn create(
    store: &dyn ReplyTemplateStore,
    access: &Access,
    new: NewTemplate,
    now: Instant,
) -> Result<ReplyTemplate, TemplateError> {
    if !access.allows(new.category_id) {
        return Err(TemplateError::CategoryNotFound);
    }
    let mut tx = store.begin_template_change().await?;
    if !tx.lock_template_category(new.category_id).await? {
        return Err(TemplateError::CategoryNotFound);
    }
    let existing = tx.count_templates(new.category_id).await?;
    check_room(existing).map_err(TemplateError::Refused)?;
    let template = ReplyTemplate {
        id: Uuid::now_v7(),
        category_id: new.category_id,
        title: new.title,
        texts: new.texts,
        applies_on: new.applies_on,
        inserted_at: now,
        updated_at: now,
    };
    tx.insert_template(&template).await?;
    tx.commit().await?;
    Ok(template)
}

/// Changes a template of a category the caller works; a change of no field changes nothing.
pub async fn update(
    store: &dyn ReplyTemplateStore,
    access: &Access,
    id: Uuid,
    change: TemplateChange,
    now: Instant,
) -> Result<ReplyTemplate, TemplateError> {
    let mut tx = store.begin_template_change().await?;
    let mut template = locked(tx.as_mut(), access, id).await?;
    if change.title.is_none() && change.texts.is_none() && change.applies_on.is_none() {
        return Ok(template);
    }
    if let Some(title) = change.title {
        template.title = title;
    }
    if let Some(texts) = change.texts {
        template.texts = texts;
    }
    if let Some(applies_on) = change.applies_on {
        template.applies_on = applies_on;
    }
    template.updated_at = now;
    tx.update_template(&template).await?;
    tx.commit().await?;
    Ok(template)
}

/// Deletes a template of a category the caller works.
pub async fn delete(
    store: &dyn ReplyTemplateStore,
    access: &Access,
    id: Uuid,
) -> Result<(), TemplateError> {
    let mut tx = store.begin_template_change().await?;
    locked(tx.as_mut(), access, id).await?;
    tx.delete_template(id).await?;
    Ok(tx.commit().await?)
}

/// The template, locked, when the caller works its category.
async fn locked(
    tx: &mut dyn ReplyTemplateTx,
    access: &Access,
    id: Uuid,
) -> Result<ReplyTemplate, TemplateError> {
    match tx.lock_template(id).await? {
        Some(template) if access.allows(template.category_id) => Ok(template),
        _ => Err(TemplateError::NotFound),
    }
}
