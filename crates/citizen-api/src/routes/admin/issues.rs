//! `GET /admin/reports/{reportId}/issues`: a report's issues with their statements.

use actix_web::web;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;

use super::super::params::ReportPath;
use super::super::AppState;
use super::dto::{AdminIssueItem, AdminStatement, IssueDetail, IssueDetails};
use super::{accessible_report, ReportManager, ReportReader};
use crate::routes::responses::{JsonObjectErrors, ManagerErrors, ReaderErrors};

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
    params(ReportPath),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The issues", body = IssueDetails),
        ReaderErrors,
        (status = 404, description = "`REPORT_NOT_FOUND`: no such report, or none of its issues is in the caller's categories", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "list_admin_report_issues", skip(state, auth))]
pub async fn issues(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    auth: ReportReader,
) -> Result<Json<IssueDetails>, ApiError> {
    let (_, issues) = accessible_report(&state, &auth.0, &path).await?;
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
    params(ReportPath),
    request_body = OpenIssueRequest,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 201, description = "The new open issue", body = AdminIssueItem),
        ManagerErrors,
        (status = 404, description = "`REPORT_NOT_FOUND` (no such report, or none of its issues in the caller's categories), `CATEGORY_NOT_FOUND`", body = service_kit::ErrorBody),
        (status = 409, description = "`CONFLICT`: the report already has an issue in that category", body = service_kit::ErrorBody),
        JsonObjectErrors,
    )
)]
#[tracing::instrument(name = "open_admin_report_issue", skip(state, auth, body))]
pub async fn open(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    auth: ReportManager,
    body: Json<OpenIssueRequest>,
) -> Result<actix_web::HttpResponse, ApiError> {
    let (id, _) = accessible_report(&state, &auth.0, &path).await?;
    let now = state.clock.now();
    let opened = crate::app::workflow::open_issue(
        state.stores.issues.as_ref(),
        id,
        body.0.category_id,
        &auth.0.subject,
        now,
    )
    .await?;
    // The report exists (checked above): a missing row is the category.
    let opened = opened.ok_or_else(super::category_not_found)?;
    let shown = super::duplicates::opened_issue(&state, opened.id).await?;
    Ok(actix_web::HttpResponse::Created().json(shown))
}
