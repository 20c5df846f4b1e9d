//! `GET /reports/{reportId}/status`: the public timeline (rule 1).

use actix_web::web;
use domain::issues::{public_timeline, step_statements};
use service_kit::auth::MaybeAuth;
use service_kit::docs::responses::{InvalidToken, ServiceUnavailable};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;

use super::super::dto::{Statement, StatusStep, StatusSteps};
use super::super::params::ReportPath;
use super::super::AppState;
use super::report_not_found;
use crate::media::MediaStore;
use crate::routes::responses::ReportNotFound;
use crate::store::TimelineData;

/// The public timeline of a report.
///
/// One step per change of an issue into accepted, duplicate or resolved, oldest first (an open
/// issue has no step; a move is internal). Each step carries the statements its issue received
/// from that step until its next one (those made while the issue was still open belong to its
/// first step), newest first; a duplicate's step shows every statement of the issue it
/// duplicates. Statements are shown without their author.
#[utoipa::path(
    get,
    path = "/reports/{reportId}/status",
    tag = "reports",
    operation_id = "getReportStatus",
    params(ReportPath),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The steps", body = StatusSteps),
        InvalidToken,
        ReportNotFound,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "get_report_status", skip(state, _auth))]
pub async fn status(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    _auth: MaybeAuth,
) -> Result<Json<StatusSteps>, ApiError> {
    let id = path.id()?;
    let data = state.stores.reports.timeline(id).await?;
    let data = data.ok_or_else(report_not_found)?;
    Ok(Json(status_steps(&data, &state.media)))
}

/// The public timeline of a report from what the store read.
pub fn status_steps(data: &TimelineData, media: &MediaStore) -> StatusSteps {
    let steps = public_timeline(&data.changes);
    let said: Vec<_> = data
        .statements
        .iter()
        .map(|s| (s.issue_id, s.inserted_at))
        .collect();
    let shown = step_statements(&steps, &said);
    let statuses = steps
        .iter()
        .zip(shown)
        .map(|(step, indexes)| StatusStep {
            issue_id: step.change.issue_id,
            status: step.change.status,
            date: step.change.at,
            category_name: data
                .category_names
                .get(&step.change.issue_id)
                .cloned()
                .unwrap_or_default(),
            statements: indexes
                .into_iter()
                .map(|i| Statement::from_store(&data.statements[i], media))
                .collect(),
        })
        .collect();
    StatusSteps { statuses }
}
