//! Reply templates (`/admin/reply-templates`): texts per report category in the city's
//! languages that an officer starts a statement from. The rules are
//! `domain::reply_templates`; a change runs in one transaction (`app::reply_templates`).

use async_trait::async_trait;
use domain::reply_templates::{AppliesOn, Texts};
use uuid::Uuid;

use super::{Instant, StoreResult};

/// A template as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyTemplate {
    pub id: Uuid,
    pub category_id: Uuid,
    /// Trimmed, 1–200 characters.
    pub title: String,
    /// At least one language.
    pub texts: Texts,
    /// The status change the console pre-fills the template on.
    pub applies_on: Option<AppliesOn>,
    pub inserted_at: Instant,
    /// The last change (`inserted_at` until the first).
    pub updated_at: Instant,
}

/// Reply templates.
#[async_trait]
pub trait ReplyTemplateStore: Send + Sync + 'static {
    /// The templates of `categories` (`None`: of every category), ordered by their category's
    /// name (then its id), then by title (then id).
    async fn reply_templates(&self, categories: Option<&[Uuid]>)
        -> StoreResult<Vec<ReplyTemplate>>;

    /// Starts a change of templates (`app::reply_templates` runs it).
    async fn begin_template_change(&self) -> StoreResult<Box<dyn ReplyTemplateTx>>;
}

/// A change of reply templates in one transaction: the rows it locks stay locked until it
/// commits (PostgreSQL: `FOR UPDATE`; SQLite: the write lock of `BEGIN IMMEDIATE`), so two
/// officers adding templates to one category cannot both pass its limit.
#[async_trait]
pub trait ReplyTemplateTx: super::WriteTx {
    /// Locks the category's row; `false` when there is no such category.
    async fn lock_template_category(&mut self, category_id: Uuid) -> StoreResult<bool>;

    /// How many templates the category holds.
    async fn count_templates(&mut self, category_id: Uuid) -> StoreResult<u64>;

    /// The template, locked; `None` when there is none.
    async fn lock_template(&mut self, id: Uuid) -> StoreResult<Option<ReplyTemplate>>;

    /// Inserts a template.
    async fn insert_template(&mut self, template: &ReplyTemplate) -> StoreResult<()>;

    /// Rewrites a template's title, texts, `applies_on` and `updated_at`.
    async fn update_template(&mut self, template: &ReplyTemplate) -> StoreResult<()>;

    /// Deletes a template.
    async fn delete_template(&mut self, id: Uuid) -> StoreResult<()>;
}
