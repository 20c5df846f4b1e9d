//! The editors' writes (`POST /projects`, `PUT` and `DELETE /projects/{projectId}`) under
//! `cityuser:projects:manage`.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use domain::news::{check_text, TITLE_MAX_CHARS};
use serde::Deserialize;
use service_kit::docs::responses::{InvalidJsonBody, Unauthorized};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;

use super::super::news::deleted;
use super::super::params::EditedProjectPath;
use super::super::scopes::ProjectEditor;
use super::super::AppState;
use super::{project_not_found, ProjectBody};
use crate::app::news::{check_items, check_texts, check_url};
use crate::routes::responses::{EditorErrors, EditorJsonErrors, ProjectNotFound, ScopeForbidden};
use crate::store::projects::{NewProjectMedia, ProjectDraft};

/// A file of a project, addressed by URL (for example the `public_url` of an uploaded file).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectMediaInput {
    /// An `http(s)` address.
    #[schema(max_length = 2048)]
    pub public_url: String,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 256)]
    pub original_filename: Option<String>,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 256)]
    pub media_type: Option<String>,
}

/// A project as an editor writes it (create, and update, which replaces every field).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectInput {
    /// 1–256 characters.
    #[schema(min_length = 1, max_length = 256)]
    pub title: String,
    /// At most 20 000 characters.
    #[serde(default)]
    #[schema(max_length = 20000)]
    pub description: String,
    /// When the project opens to the public; the time of the request when absent.
    #[serde(default)]
    pub open_from: Option<DateTime<Utc>>,
    /// At most 20, in the order to show them.
    #[serde(default)]
    #[schema(max_items = 20)]
    pub media: Vec<ProjectMediaInput>,
}

impl ProjectInput {
    fn into_draft(self, now: DateTime<Utc>) -> Result<ProjectDraft, ApiError> {
        check_texts(&self.title, &self.description)?;
        check_items("media", self.media.len())?;
        let mut media = Vec::with_capacity(self.media.len());
        for m in self.media {
            check_url("public_url", &m.public_url)?;
            for (field, value) in [
                ("original_filename", &m.original_filename),
                ("media_type", &m.media_type),
            ] {
                if let Some(value) = value {
                    check_text(field, value, true, TITLE_MAX_CHARS)
                        .map_err(ApiError::validation)?;
                }
            }
            media.push(NewProjectMedia {
                public_url: m.public_url.trim().to_owned(),
                original_filename: m.original_filename,
                media_type: m.media_type,
            });
        }
        Ok(ProjectDraft {
            title: self.title.trim().to_owned(),
            description: self.description,
            open_from: self.open_from.unwrap_or(now),
            media,
        })
    }
}

/// Create a project.
///
/// Scope `cityuser:projects:manage`.
#[utoipa::path(
    post, path = "/projects", tag = "projects", operation_id = "createProject",
    request_body = ProjectInput, security(("bearer" = ["cityuser:projects:manage"])),
    responses(
        (status = 201, description = "The created project", body = ProjectBody),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (a field empty, too long or malformed)", body = service_kit::ErrorBody),
        Unauthorized,
        ScopeForbidden,
        EditorJsonErrors,
    )
)]
#[tracing::instrument(name = "create_project", skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    _editor: ProjectEditor,
    body: Json<ProjectInput>,
) -> Result<HttpResponse, ApiError> {
    let now = state.clock.now();
    let draft = body.0.into_draft(now)?;
    let project = state.stores.projects.create_project(&draft, now).await?;
    Ok(HttpResponse::Created().json(ProjectBody::from(project)))
}

/// Replace a project.
///
/// Scope `cityuser:projects:manage`. Every field is replaced, the media too.
#[utoipa::path(
    put, path = "/projects/{projectId}", tag = "projects", operation_id = "updateProject",
    params(EditedProjectPath),
    request_body = ProjectInput, security(("bearer" = ["cityuser:projects:manage"])),
    responses(
        (status = 200, description = "The project after the change", body = ProjectBody),
        InvalidJsonBody,
        EditorErrors,
        ProjectNotFound,
        EditorJsonErrors,
    )
)]
#[tracing::instrument(name = "update_project", skip(state, _editor, body))]
pub async fn update(
    path: Path<EditedProjectPath>,
    state: web::Data<AppState>,
    _editor: ProjectEditor,
    body: Json<ProjectInput>,
) -> Result<Json<ProjectBody>, ApiError> {
    let id = path.id()?;
    let now = state.clock.now();
    let draft = body.0.into_draft(now)?;
    let project = state
        .stores
        .projects
        .update_project(id, &draft, now)
        .await?;
    Ok(Json(project.ok_or_else(project_not_found)?.into()))
}

/// Delete a project.
///
/// Scope `cityuser:projects:manage`. Vote tokens placed on it stay in the accounts' lists
/// until revoked or expired; no new ones can be placed.
#[utoipa::path(
    delete, path = "/projects/{projectId}", tag = "projects", operation_id = "deleteProject",
    params(EditedProjectPath),
    security(("bearer" = ["cityuser:projects:manage"])),
    responses(
        (status = 200, description = "Deleted (no body)"),
        EditorErrors,
        ProjectNotFound,
    )
)]
#[tracing::instrument(name = "delete_project", skip(state, _editor))]
pub async fn delete(
    path: Path<EditedProjectPath>,
    state: web::Data<AppState>,
    _editor: ProjectEditor,
) -> Result<HttpResponse, ApiError> {
    let id = path.id()?;
    let found = state
        .stores
        .projects
        .delete_project(id, state.clock.now())
        .await?;
    deleted(found, project_not_found)
}
