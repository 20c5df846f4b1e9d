//! Projects (`/projects…`, spec 2.9 and 4.2), a file per action: the public list and detail,
//! and the editors' writes under [`PROJECTS_MANAGE_SCOPE`](crate::routes::scopes::PROJECTS_MANAGE_SCOPE).

pub mod admin;
pub mod detail;
pub mod list;

use chrono::{DateTime, Utc};
use serde::Serialize;
use service_kit::instant;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::store::projects::{Project, ProjectMedia};

/// A file of a project.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProjectMediaBody {
    pub media_id: Uuid,
    #[schema(format = "uri")]
    pub public_url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_filename: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
}

impl From<ProjectMedia> for ProjectMediaBody {
    fn from(m: ProjectMedia) -> Self {
        Self {
            media_id: m.id,
            public_url: m.public_url,
            original_filename: m.original_filename,
            media_type: m.media_type,
        }
    }
}

/// A project in the list (spec 2.9).
#[derive(Debug, Serialize, ToSchema)]
pub struct ProjectListItem {
    pub project_id: Uuid,
    pub title: String,
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
    /// When the project opens to the public; the list's order.
    #[serde(serialize_with = "instant::serialize")]
    pub open_from: DateTime<Utc>,
}

/// A project (spec 2.9).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Project)]
pub struct ProjectBody {
    pub project_id: Uuid,
    pub title: String,
    pub description: String,
    pub media: Vec<ProjectMediaBody>,
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
    /// Absent until the project is first changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "instant::option::serialize")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(serialize_with = "instant::serialize")]
    pub open_from: DateTime<Utc>,
}

impl From<Project> for ProjectBody {
    fn from(p: Project) -> Self {
        Self {
            project_id: p.id,
            title: p.title,
            description: p.description,
            media: p.media.into_iter().map(ProjectMediaBody::from).collect(),
            inserted_at: p.inserted_at,
            updated_at: p.updated_at,
            open_from: p.open_from,
        }
    }
}

pub use super::not_found::project_not_found;

/// Registers `/projects` and `/projects/{projectId}`.
pub fn configure(cfg: &mut actix_web::web::ServiceConfig) {
    use super::news::edited_resource;
    use actix_web::web;
    let (list, create) = (web::get().to(list::list), web::post().to(admin::create));
    let detail = web::get().to(detail::detail);
    let (update, delete) = (
        web::put().to(admin::update),
        web::delete().to(admin::delete),
    );
    cfg.service(edited_resource("/projects", [list, create]))
        .service(edited_resource(
            "/projects/{project_id}",
            [detail, update, delete],
        ));
}

/// The OpenAPI description of the projects.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(list::list, detail::detail, admin::create, admin::update, admin::delete),
    components(schemas(
        ProjectBody, ProjectListItem, ProjectMediaBody, list::ProjectPage, admin::ProjectInput,
        admin::ProjectMediaInput
    )),
    tags((name = "projects", description = "The city's projects (reading needs no sign-in; \
        editors need `cityuser:projects:manage`); projects can be voted on like reports"))
)]
pub struct ProjectsApi;
