//! `GET /admin/reports/{reportId}/issues`: a report's issues with their statements.

use actix_web::web;
use service_kit::auth::Auth;
use service_kit::docs::responses::InvalidJsonBody;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;

use super::super::reports::{report_id, report_not_found};
use super::super::AppState;
use super::model::{AdminIssueItem, AdminStatement, IssueDetail, IssueDetails};
use super::{access, require_any, MANAGE_SCOPE, READ_SCOPE};
use crate::routes::responses::{JsonObjectErrors, ManagerErrors, ReaderErrors};
use crate::store::admin::Access;

/// The issues of a report the caller may see.
///
/// Every issue of the caller's categories (all categories with
/// `cityuser:report-categories:access-all`) that is not moved, oldest first, each with its
/// statements (newest first, with their author). A report without such an issue answers 404
/// like an unknown one.
#[utoipa::path(
    get,
    path = "/admin/reports/{reportId}/issues",
    tag = "admin",
    operation_id = "listAdminReportIssues",
    params(("reportId" = String, Path, description = "The report id (a UUID)")),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The issues", body = IssueDetails),
        ReaderErrors,
        (status = 404, description = "`REPORT_NOT_FOUND`: no such report, or none of its issues is in the caller's categories", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "list_admin_report_issues", skip(state, auth))]
pub async fn issues(
    path: Path<String>,
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<Json<IssueDetails>, ApiError> {
    require_any(&auth.0, &[READ_SCOPE, MANAGE_SCOPE])?;
    let id = report_id(&path)?;
    let access = access(&state, &auth.0).await?;
    let found = state.stores.admin.report_issues(id, &access).await?;
    let issues = found.ok_or_else(report_not_found)?;
    if issues.is_empty() && access != Access::All {
        return Err(report_not_found());
    }
    let ids: Vec<_> = issues.iter().map(|i| i.issue.id).collect();
    let statements = state.stores.admin.statements(&ids).await?;
    let issues = issues
        .iter()
        .map(|item| IssueDetail {
            issue: AdminIssueItem::from(item),
            statements: statements
                .iter()
                .filter(|s| s.issue_id == item.issue.id)
                .map(|s| AdminStatement::from_store(s, &state.media))
                .collect(),
        })
        .collect();
    Ok(Json(IssueDetails { issues }))
}

/// `POST /admin/reports/{reportId}/issues`.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenIssueRequest {
    /// The further category the report is handled in (any category).
    pub category_id: uuid::Uuid,
}

/// Handle a report in a further category.
///
/// Opens an issue of the report in another category (the report then has one issue per
/// category it is handled in; its status is derived from all of them, the least advanced
/// wins). The caller needs an issue of the report in their categories. Duplicate suggestions
/// are looked for in the new category.
#[utoipa::path(
    post,
    path = "/admin/reports/{reportId}/issues",
    tag = "admin",
    operation_id = "openAdminReportIssue",
    params(("reportId" = String, Path, description = "The report id (a UUID)")),
    request_body = OpenIssueRequest,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 201, description = "The new open issue", body = AdminIssueItem),
        InvalidJsonBody,
        ManagerErrors,
        (status = 404, description = "`REPORT_NOT_FOUND` (no such report, or none of its issues in the caller's categories), `CATEGORY_NOT_FOUND`", body = service_kit::ErrorBody),
        (status = 409, description = "`CONFLICT`: the report already has an issue in that category", body = service_kit::ErrorBody),
        JsonObjectErrors,
    )
)]
#[tracing::instrument(name = "open_admin_report_issue", skip(state, auth, body))]
pub async fn open(
    path: Path<String>,
    state: web::Data<AppState>,
    auth: Auth,
    body: super::JsonObject,
) -> Result<actix_web::HttpResponse, ApiError> {
    auth.0.require_scope(super::MANAGE_SCOPE)?;
    let body: OpenIssueRequest = super::from_object(body)?;
    let id = report_id(&path)?;
    let access = access(&state, &auth.0).await?;
    let found = state.stores.admin.report_issues(id, &access).await?;
    let mine = found.ok_or_else(report_not_found)?;
    if mine.is_empty() && access != Access::All {
        return Err(report_not_found());
    }
    let now = state.clock.now();
    let opened = crate::app::workflow::open_issue(
        state.stores.issues.as_ref(),
        id,
        body.category_id,
        &auth.0.subject,
        now,
    )
    .await?;
    // The report exists (checked above): a missing row is the category.
    let opened = opened.ok_or_else(super::category_not_found)?;
    super::duplicates::suggest(&state, crate::store::admin::Opened::Issue(opened.id)).await;
    let shown = state.stores.admin.issue(opened.id).await?;
    let shown = shown.ok_or_else(super::issue_not_found)?;
    Ok(actix_web::HttpResponse::Created().json(AdminIssueItem::from(&shown)))
}
