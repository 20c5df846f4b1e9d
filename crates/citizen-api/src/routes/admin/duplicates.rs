//! Duplicates: `POST /admin/issues/{issueId}/duplicate-of` marks an issue a duplicate of a
//! parent issue; `GET …/duplicate-suggestions` reads the possible duplicates found when the
//! issue was opened and `DELETE …/duplicate-suggestions` dismisses them.

use actix_web::web;
use serde::Deserialize;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::params::IssuePath;
use super::super::AppState;
use super::dto::{AdminIssueItem, SuggestionItem, Suggestions};
use super::{accessible_issue, issue_not_found, workflow_error, ReportManager, ReportReader};
use crate::app;
use crate::routes::responses::{
    IssueManagerErrors, IssueNotFound, JsonObjectErrors, ManagerErrors, ReaderErrors,
};
use crate::store::admin::Opened;

/// Looks for possible duplicates of a just opened issue. Suggestions are advisory: a failure is
/// logged and the request that opened the issue still succeeds.
pub async fn suggest(state: &AppState, opened: Opened) {
    let Some(rule) = state.duplicates else { return };
    let found = app::duplicates::suggest(
        state.stores.duplicates.as_ref(),
        opened,
        &rule,
        state.clock.now(),
    )
    .await;
    match found {
        Ok(count) if count > 0 => tracing::info!(count, "possible duplicates recorded"),
        Ok(_) => {}
        Err(err) => tracing::warn!(error = %err, "could not look for possible duplicates"),
    }
}

/// An issue just opened (by a move or in a further category) as answered: its possible
/// duplicates are looked for first, then it is read back with their flag.
pub async fn opened_issue(state: &AppState, id: Uuid) -> Result<AdminIssueItem, ApiError> {
    suggest(state, Opened::Issue(id)).await;
    let shown = state.stores.admin.issue(id).await?;
    let shown = shown.ok_or_else(issue_not_found)?;
    Ok(AdminIssueItem::from(&shown))
}

/// `POST /admin/issues/{issueId}/duplicate-of`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DuplicateRequest {
    /// The original issue (open, accepted or resolved; in the caller's categories).
    pub parent_id: Uuid,
}

/// Mark an issue a duplicate of another.
///
/// The issue becomes `duplicate` of the parent (its suggestion flag is cleared): the citizen's
/// timeline gains a `duplicate` step that shows the parent's statements, and the issue counts
/// as duplicate in the report's status.
#[utoipa::path(
    post,
    path = "/admin/issues/{issueId}/duplicate-of",
    tag = "admin",
    operation_id = "markIssueDuplicate",
    params(IssuePath),
    request_body = DuplicateRequest,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The duplicate", body = AdminIssueItem),
        ManagerErrors,
        (status = 404, description = "`ISSUE_NOT_FOUND`: the issue or the parent does not exist or is not in the caller's categories", body = service_kit::ErrorBody),
        (status = 409, description = "`ISSUE_TRANSITION_NOT_ALLOWED`: the issue is moved, is its own parent, or the parent is moved or a duplicate", body = service_kit::ErrorBody),
        JsonObjectErrors,
    )
)]
#[tracing::instrument(name = "mark_issue_duplicate", skip(state, auth, body))]
pub async fn mark_duplicate(
    path: Path<IssuePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
    body: Json<DuplicateRequest>,
) -> Result<Json<AdminIssueItem>, ApiError> {
    let (item, access) = accessible_issue(&state, &auth.0, &path).await?;
    let parent = state.stores.admin.issue(body.0.parent_id).await?;
    match parent {
        Some(p) if access.allows(p.issue.category_id) => {}
        _ => return Err(issue_not_found()),
    }
    let updated = crate::app::workflow::mark_duplicate(
        state.stores.issues.as_ref(),
        item.issue.id,
        body.0.parent_id,
        &auth.0.subject,
        state.clock.now(),
    )
    .await
    .map_err(workflow_error)?;
    Ok(Json(AdminIssueItem::changed(item, updated)))
}

/// The possible duplicates of an issue.
///
/// Open or accepted issues of the same category, near, filed within the configured window and
/// worded alike, found when this issue was opened (`duplicates.*` settings); most similar
/// first. Dismissed suggestions are not listed. Candidates are shown whatever their category
/// access, as they are always of this issue's category.
#[utoipa::path(
    get,
    path = "/admin/issues/{issueId}/duplicate-suggestions",
    tag = "admin",
    operation_id = "listDuplicateSuggestions",
    params(IssuePath),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The suggestions", body = Suggestions),
        ReaderErrors,
        IssueNotFound,
    )
)]
#[tracing::instrument(name = "list_duplicate_suggestions", skip(state, auth))]
pub async fn suggestions(
    path: Path<IssuePath>,
    state: web::Data<AppState>,
    auth: ReportReader,
) -> Result<Json<Suggestions>, ApiError> {
    let (item, _) = accessible_issue(&state, &auth.0, &path).await?;
    let found = state.stores.duplicates.suggestions(item.issue.id).await?;
    Ok(Json(Suggestions {
        suggestions: found.iter().map(SuggestionItem::from).collect(),
    }))
}

/// Dismiss the duplicate suggestions of an issue.
///
/// Clears `has_possible_duplicates`; the dismissed candidates are never suggested for this
/// issue again. Recorded in the audit trail. Citizens see no change.
#[utoipa::path(
    delete,
    path = "/admin/issues/{issueId}/duplicate-suggestions",
    tag = "admin",
    operation_id = "dismissDuplicateSuggestions",
    params(IssuePath),
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The issue, its flag cleared", body = AdminIssueItem),
        IssueManagerErrors,
    )
)]
#[tracing::instrument(name = "dismiss_duplicate_suggestions", skip(state, auth))]
pub async fn dismiss(
    path: Path<IssuePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
) -> Result<Json<AdminIssueItem>, ApiError> {
    let (item, _) = accessible_issue(&state, &auth.0, &path).await?;
    let updated = state
        .stores
        .duplicates
        .dismiss_duplicates(item.issue.id, &auth.0.subject, state.clock.now())
        .await?;
    let updated = updated.ok_or_else(issue_not_found)?;
    Ok(Json(AdminIssueItem::changed(item, updated)))
}
