//! `GET /reports/{reportId}`: one report with the status derived from all its issues.

use actix_web::{web, HttpResponse};
use service_kit::auth::MaybeAuth;
use service_kit::docs::responses::{InvalidToken, ServiceUnavailable};
use service_kit::extract::Path;
use service_kit::ApiError;

use super::super::dto::{Report, View};
use super::super::params::ReportPath;
use super::super::AppState;
use super::report_not_found;
use crate::routes::responses::ReportNotFound;

/// A report.
///
/// The status is derived from all its issues: the least advanced wins (open, then accepted,
/// then duplicate, then resolved); moved issues do not count, and a report with only moved
/// issues has no status. While `explicit` is set, the media are hidden from everyone but the
/// report's author.
#[utoipa::path(
    get,
    path = "/reports/{reportId}",
    tag = "reports",
    operation_id = "getReport",
    params(ReportPath),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The report", body = Report),
        InvalidToken,
        ReportNotFound,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "get_report", skip(state, auth))]
pub async fn detail(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    auth: MaybeAuth,
) -> Result<HttpResponse, ApiError> {
    let id = path.id()?;
    let found = state
        .stores
        .reports
        .report_detail(id)
        .await?
        .ok_or_else(report_not_found)?;
    let own = match (&auth.0, &found.report.author) {
        (Some(principal), Some(author)) => principal.subject == *author,
        _ => false,
    };
    let status = found.status();
    let view = if own { View::Trusted } else { View::Public };
    let mut report = Report::from_store(found.report, &state.media, view, None);
    report.status = status;
    Ok(HttpResponse::Ok().json(report))
}
