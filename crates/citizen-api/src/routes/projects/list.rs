//! `GET /projects`: `open_from` newest first, then id descending, paged by a cursor.
//!
//! `pagecursor` is repeated: `?pagecursor=<open_from>&pagecursor=<project_id>` (the spec's two
//! strings); `nextCursor` is the same pair for the page's last project, or null on the last page.

use actix_web::web;
use chrono::{DateTime, SecondsFormat, Utc};
use domain::i18n::Message;
use domain::limits::LimitError;
use serde::{Deserialize, Serialize};
use service_kit::docs::responses::ServiceUnavailable;
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::super::paging::{cursor_pair, instant, next_cursor, page_limit};
use super::super::AppState;
use super::ProjectListItem;

/// A page of projects.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectPage {
    pub projects: Vec<ProjectListItem>,
    /// `[open_from, project_id]` of the page's last project; null on the last page.
    pub next_cursor: Option<[String; 2]>,
}

/// A project's position in the list: `(open_from, id)`.
type Position = (DateTime<Utc>, Uuid);

/// The query parameters of `GET /projects`, as sent.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProjectListParams {
    /// Page size (default 100)
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100)]
    limit: Option<String>,
    /// [open_from, project_id]: a handed-out nextCursor
    #[serde(default)]
    #[param(value_type = Option<Vec<String>>)]
    pagecursor: Vec<String>,
}

impl ProjectListParams {
    /// The page size and the position to continue after.
    fn into_page(self) -> Result<(u32, Option<Position>), LimitError> {
        let limit = page_limit(self.limit.as_deref())?;
        let after = cursor_pair(
            &self.pagecursor,
            |at| instant(at.trim()),
            |id| id.trim().parse::<Uuid>().ok(),
            || LimitError::new("pagecursor", Message::new("project-cursor-invalid")),
        )?;
        Ok((limit, after))
    }
}

/// Projects.
///
/// `open_from` newest first (then id, descending). `pagecursor`: repeat the parameter for each
/// of the two strings of a handed-out `nextCursor`.
#[utoipa::path(
    get, path = "/projects", tag = "projects", operation_id = "listProjects",
    params(ProjectListParams),
    responses(
        (status = 200, description = "A page of projects", body = ProjectPage),
        (status = 400, description = "`VALIDATION_ERROR`: a malformed limit or cursor", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "list_projects", skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    Query(params): Query<ProjectListParams>,
) -> Result<Json<ProjectPage>, ApiError> {
    let (limit, after) = params.into_page()?;
    let mut projects = state.stores.projects.projects(after, limit + 1).await?;
    let next_cursor = next_cursor(&mut projects, limit, |last| {
        [
            last.open_from.to_rfc3339_opts(SecondsFormat::Micros, true),
            last.id.to_string(),
        ]
    });
    Ok(Json(ProjectPage {
        projects: projects
            .into_iter()
            .map(|p| ProjectListItem {
                project_id: p.id,
                title: p.title,
                inserted_at: p.inserted_at,
                open_from: p.open_from,
            })
            .collect(),
        next_cursor,
    }))
}
