//! `GET /admin/reports/{reportId}`: one report as officers see it, for the console's issue page.

use actix_web::{web, HttpResponse};
use service_kit::extract::Path;
use service_kit::ApiError;

use super::super::params::ReportPath;
use super::super::reports::report_not_found;
use super::super::AppState;
use super::dto::AdminReport;
use super::{accessible_report, ReportReader};
use crate::routes::responses::ReaderErrors;

/// A report as officers see it.
///
/// The row of the admin list for one report: every attachment (also while `explicit`), the
/// issues the caller may see (none moved, oldest first) and the status derived from them. A
/// report without such an issue answers 404 like an unknown one.
#[utoipa::path(
    get,
    path = "/admin/reports/{reportId}",
    tag = "admin",
    operation_id = "getAdminReport",
    params(ReportPath),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The report", body = AdminReport),
        ReaderErrors,
        (status = 404, description = "`REPORT_NOT_FOUND`: no such report, or none of its issues is in the caller's categories", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "get_admin_report", skip(state, auth))]
pub async fn report(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    auth: ReportReader,
) -> Result<HttpResponse, ApiError> {
    let (id, issues) = accessible_report(&state, &auth.0, &path).await?;
    let found = state
        .stores
        .reports
        .report_detail(id)
        .await?
        .ok_or_else(report_not_found)?;
    Ok(HttpResponse::Ok().json(AdminReport::new(found.report, &issues, &state.media, None)))
}
