//! `PUT /admin/reports/{reportId}/explicit`: marking a report's media unsuitable for the public.

use actix_web::web;
use serde::{Deserialize, Serialize};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;

use super::super::params::ReportPath;
use super::super::reports::report_not_found;
use super::super::AppState;
use super::{accessible_report, ReportManager};
use crate::routes::responses::{JsonObjectErrors, ManagerErrors};

/// The body and the answer of `PUT /admin/reports/{reportId}/explicit`.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Explicit {
    /// True: the report's own media are hidden from everyone but its author and officers.
    pub explicit: bool,
}

/// Mark (or unmark) a report's media as unsuitable for the public.
///
/// While `explicit` is true the public list and detail show the report without its media (its
/// author and officers still see them). The caller needs an issue of the report in their
/// categories. Recorded in the audit trail.
#[utoipa::path(
    put,
    path = "/admin/reports/{reportId}/explicit",
    tag = "admin",
    operation_id = "setAdminReportExplicit",
    params(ReportPath),
    request_body = Explicit,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The flag as set", body = Explicit),
        ManagerErrors,
        (status = 404, description = "`REPORT_NOT_FOUND`: no such report, or none of its issues in the caller's categories", body = service_kit::ErrorBody),
        JsonObjectErrors,
    )
)]
#[tracing::instrument(name = "set_admin_report_explicit", skip(state, auth, body))]
pub async fn set(
    path: Path<ReportPath>,
    state: web::Data<AppState>,
    auth: ReportManager,
    body: Json<Explicit>,
) -> Result<Json<Explicit>, ApiError> {
    let (id, _) = accessible_report(&state, &auth.0, &path).await?;
    let now = state.clock.now();
    let admin = &state.stores.admin;
    if !admin
        .set_explicit(id, body.0.explicit, &auth.0.subject, now)
        .await?
    {
        return Err(report_not_found());
    }
    Ok(body)
}
