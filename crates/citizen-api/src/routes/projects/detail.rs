//! `GET /projects/{projectId}`.

use actix_web::web;
use service_kit::docs::responses::ServiceUnavailable;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;

use super::super::params::ProjectPath;
use super::super::AppState;
use super::{project_not_found, ProjectBody};
use crate::routes::responses::ProjectNotFound;

/// A project with its media.
#[utoipa::path(
    get, path = "/projects/{projectId}", tag = "projects", operation_id = "getProject",
    params(ProjectPath),
    responses(
        (status = 200, description = "The project", body = ProjectBody),
        ProjectNotFound,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "get_project", skip(state))]
pub async fn detail(
    path: Path<ProjectPath>,
    state: web::Data<AppState>,
) -> Result<Json<ProjectBody>, ApiError> {
    let id = path.id()?;
    let project = state.stores.projects.project(id).await?;
    Ok(Json(project.ok_or_else(project_not_found)?.into()))
}
