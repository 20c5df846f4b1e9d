//! `GET /admin/reports/{reportId}/audit`: every recorded change of a report.

use actix_web::web;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;

use super::super::params::ReportPath;
use super::super::reports::report_not_found;
use super::super::AppState;
use super::access;
use super::dto::{AuditItem, AuditTrail};
use crate::routes::responses::{ReaderErrors, ReportNotFound};
use crate::routes::scopes::ReportReader;

/// The audit trail of a report.
///
/// Oldest first: every status change of its issues (the opening on filing, moves, accept,
/// resolve, duplicate) with who made it and when, every statement, dismissed duplicate
/// suggestions and deleted files. An officer sees the entries of the issues of their
/// categories (moved ones included) and those of the report itself; a report without an issue
/// in their categories answers 404.
#[utoipa::path(
    get,
    path = "/admin/reports/{reportId}/audit",
    tag = "admin",
    operation_id = "getAdminReportAudit",
    params(ReportPath),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The entries", body = AuditTrail),
        ReaderErrors,
        ReportNotFound,
    )
)]
#[tracing::instrument(name = "get_admin_report_audit", skip(state, auth))]
pub async fn audit(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    auth: ReportReader,
) -> Result<Json<AuditTrail>, ApiError> {
    let id = path.id()?;
    let access = access(&state, &auth.0).await?;
    let report = state.stores.reports.report(id).await?;
    let report = report.ok_or_else(report_not_found)?;
    let visible: Vec<_> = report
        .issues
        .iter()
        .filter(|i| access.allows(i.category_id))
        .map(|i| i.id)
        .collect();
    let mine = report
        .issues
        .iter()
        .any(|i| access.allows(i.category_id) && i.status != domain::issues::IssueStatus::Moved);
    if !mine && access.categories().is_some() {
        return Err(report_not_found());
    }
    let entries = state.stores.admin.audit(id).await?.unwrap_or_default();
    let entries = entries
        .into_iter()
        .filter(|e| e.issue_id.is_none_or(|issue| visible.contains(&issue)))
        .map(AuditItem::from)
        .collect();
    Ok(Json(AuditTrail { entries }))
}
