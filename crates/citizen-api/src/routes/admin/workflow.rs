//! The status steps on an issue: `POST /admin/issues/{issueId}/accept`, `…/resolve` and
//! `…/move` (spec section 3). Each is refused with 409 `ISSUE_TRANSITION_NOT_ALLOWED` when the
//! issue's state does not allow it, and recorded (actor, time) in the issue's history, which the
//! public timeline and the audit trail read.

use actix_web::web;
use domain::issues::Transition;
use serde::Deserialize;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::params::IssuePath;
use super::super::AppState;
use super::dto::AdminIssueItem;
use super::duplicates::opened_issue;
use super::{accessible_issue, category_not_found, workflow_error, ReportManager};
use crate::routes::responses::{IssueManagerErrors, JsonObjectErrors, ManagerErrors};

async fn step(
    state: &AppState,
    auth: &ReportManager,
    path: &IssuePath,
    transition: Transition,
) -> Result<Json<AdminIssueItem>, ApiError> {
    let (item, _) = accessible_issue(state, &auth.0, path).await?;
    let updated = crate::app::workflow::change_status(
        state.stores.issues.as_ref(),
        item.issue.id,
        transition,
        &auth.0.subject,
        state.clock.now(),
    )
    .await
    .map_err(workflow_error)?;
    Ok(Json(AdminIssueItem::changed(item, updated)))
}

/// Accept an issue (open → accepted).
///
/// The city takes the report on in this category: the citizen's timeline gains an `accepted`
/// step with its date, and the report's status follows (the least advanced issue wins).
#[utoipa::path(
    post,
    path = "/admin/issues/{issueId}/accept",
    tag = "admin",
    operation_id = "acceptIssue",
    params(IssuePath),
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The accepted issue", body = AdminIssueItem),
        IssueManagerErrors,
        (status = 409, description = "`ISSUE_TRANSITION_NOT_ALLOWED`: the issue is not open", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "accept_issue", skip(state, auth))]
pub async fn accept(
    path: Path<IssuePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
) -> Result<Json<AdminIssueItem>, ApiError> {
    step(&state, &auth, &path, Transition::Accept).await
}

/// Resolve an issue (accepted → resolved; terminal).
///
/// The citizen's timeline gains a `resolved` step; the report is resolved once every issue is.
#[utoipa::path(
    post,
    path = "/admin/issues/{issueId}/resolve",
    tag = "admin",
    operation_id = "resolveIssue",
    params(IssuePath),
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The resolved issue", body = AdminIssueItem),
        IssueManagerErrors,
        (status = 409, description = "`ISSUE_TRANSITION_NOT_ALLOWED`: the issue is not accepted", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "resolve_issue", skip(state, auth))]
pub async fn resolve(
    path: Path<IssuePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
) -> Result<Json<AdminIssueItem>, ApiError> {
    step(&state, &auth, &path, Transition::Resolve).await
}

/// `POST /admin/issues/{issueId}/move`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The category the report is handed to (any category).
    pub category_id: Uuid,
}

/// Move an issue to another category.
///
/// The issue becomes `moved` (left out of every list, the status and the timeline) and a new
/// open issue of the same report is opened in the target category, whose officers then see the
/// report; duplicate suggestions are looked for there. Answers the new issue.
#[utoipa::path(
    post,
    path = "/admin/issues/{issueId}/move",
    tag = "admin",
    operation_id = "moveIssue",
    params(IssuePath),
    request_body = MoveRequest,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The new open issue in the target category", body = AdminIssueItem),
        ManagerErrors,
        (status = 404, description = "`ISSUE_NOT_FOUND` (no such issue, or not in the caller's categories), `CATEGORY_NOT_FOUND` (no such target category)", body = service_kit::ErrorBody),
        (status = 409, description = "`ISSUE_TRANSITION_NOT_ALLOWED`: the issue is moved or resolved", body = service_kit::ErrorBody),
        JsonObjectErrors,
    )
)]
#[tracing::instrument(name = "move_issue", skip(state, auth, body))]
pub async fn move_issue(
    path: Path<IssuePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
    body: Json<MoveRequest>,
) -> Result<Json<AdminIssueItem>, ApiError> {
    let (item, _) = accessible_issue(&state, &auth.0, &path).await?;
    let now = state.clock.now();
    let opened = crate::app::workflow::move_issue(
        state.stores.issues.as_ref(),
        item.issue.id,
        body.0.category_id,
        &auth.0.subject,
        now,
    )
    .await
    .map_err(|err| match err {
        crate::store::WorkflowError::CategoryNotFound => category_not_found(),
        other => workflow_error(other),
    })?;
    Ok(Json(opened_issue(&state, opened.id).await?))
}
