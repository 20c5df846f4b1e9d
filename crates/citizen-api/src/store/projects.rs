//! Storage of projects (spec 2.9): public listings with a title, a description and media.

use async_trait::async_trait;
use uuid::Uuid;

use service_kit::codec::{DbInstant, DbOption, DbUuid};

use super::{Instant, StoreResult};

/// A file of a project, addressed by URL.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ProjectMedia {
    #[sqlx(try_from = "DbUuid")]
    pub id: Uuid,
    pub public_url: String,
    pub original_filename: Option<String>,
    pub media_type: Option<String>,
}

/// A project. The list reads it without media.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Project {
    #[sqlx(try_from = "DbUuid")]
    pub id: Uuid,
    pub title: String,
    pub description: String,
    /// When the project opens to the public (votes, comments); the list's order.
    #[sqlx(try_from = "DbInstant")]
    pub open_from: Instant,
    #[sqlx(try_from = "DbInstant")]
    pub inserted_at: Instant,
    #[sqlx(try_from = "DbOption<DbInstant>")]
    pub updated_at: Option<Instant>,
    /// Read separately (`project_media`).
    #[sqlx(skip)]
    pub media: Vec<ProjectMedia>,
}

/// A file to attach to a project.
#[derive(Debug, Clone, PartialEq)]
pub struct NewProjectMedia {
    pub public_url: String,
    pub original_filename: Option<String>,
    pub media_type: Option<String>,
}

/// What an editor sends for a project (create, and update which replaces every field).
#[derive(Debug, Clone)]
pub struct ProjectDraft {
    pub title: String,
    pub description: String,
    pub open_from: Instant,
    pub media: Vec<NewProjectMedia>,
}

/// Projects.
#[async_trait]
pub trait ProjectStore: Send + Sync + 'static {
    /// A page of projects: `open_from` newest first, then id descending, after `after`.
    async fn projects(
        &self,
        after: Option<(Instant, Uuid)>,
        limit: u32,
    ) -> StoreResult<Vec<Project>>;

    /// One project with its media.
    async fn project(&self, id: Uuid) -> StoreResult<Option<Project>>;

    /// Creates a project with its media.
    async fn create_project(&self, draft: &ProjectDraft, now: Instant) -> StoreResult<Project>;

    /// Replaces a project's fields and media; `None` when there is no such project.
    async fn update_project(
        &self,
        id: Uuid,
        draft: &ProjectDraft,
        now: Instant,
    ) -> StoreResult<Option<Project>>;

    /// Deletes a project; `false` when there was none. The active vote tokens on it are revoked
    /// at `now` in the same transaction (they return to their accounts' pools; the tokens stay
    /// in the accounts' lists as revoked).
    async fn delete_project(&self, id: Uuid, now: Instant) -> StoreResult<bool>;
}
