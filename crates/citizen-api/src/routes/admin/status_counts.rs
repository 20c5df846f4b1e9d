//! `GET /admin/reports/status-counts`: how many reports the admin list holds per status under
//! the list's own filters (the console's tabs over its queue), a conditional answer
//! ([`conditional`]) polled with the list.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use service_kit::extract::Query;
use service_kit::ApiError;
use utoipa::ToSchema;

use super::super::params::ListParams;
use super::super::AppState;
use super::conditional;
use super::list::{admin_filter, AdminListParams};
use crate::routes::responses::ReaderErrors;
use crate::routes::scopes::ReportReader;
use crate::store::admin::StatusCounts;

/// Per status, how many reports `GET /admin/reports` with the same filters and that `status`
/// lists in all its pages.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountsByStatus {
    pub open: u64,
    pub accepted: u64,
    pub resolved: u64,
    pub duplicate: u64,
}

/// `GET /admin/reports/status-counts`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportStatusCounts {
    pub counts: CountsByStatus,
    /// How many reports the list without a `status` filter lists in all its pages. A report
    /// with issues in two states counts under both, so the counts may add up to more.
    pub total: u64,
}

impl From<StatusCounts> for ReportStatusCounts {
    fn from(c: StatusCounts) -> Self {
        Self {
            counts: CountsByStatus {
                open: c.open,
                accepted: c.accepted,
                resolved: c.resolved,
                duplicate: c.duplicate,
            },
            total: c.total,
        }
    }
}

/// The admin list's counts per status.
///
/// Takes the parameters of `GET /admin/reports` and answers, for `open`, `accepted`, `resolved`
/// and `duplicate`, how many reports that list with the same filters and `status=<that state>`
/// lists in all its pages (reports with an issue the caller may see in that state that matches
/// the other filters on the same issue), and in `total` how many it lists without a `status`
/// filter. `status`, `limit`, `offset`, `orderBy` and `orderDirection` are checked as the list
/// checks them (so a query the list refuses is refused here too) and otherwise ignored: the
/// console sends its list's query as it is.
///
/// A conditional read for polling, as the list: a strong `ETag` of the body, `Cache-Control:
/// private, no-cache`, and 304 without a body while `If-None-Match` names the current tag.
#[utoipa::path(
    get,
    path = "/admin/reports/status-counts",
    tag = "admin",
    operation_id = "countAdminReportsByStatus",
    params(
        ListParams, AdminListParams,
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` of an earlier answer: 304 while the answer is still the same"),
    ),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The counts", body = ReportStatusCounts,
            headers(("ETag" = String, description = "A strong tag of the body"), ("Cache-Control" = String, description = "`private, no-cache`"))),
        (status = 304, description = "Not modified: `If-None-Match` names the answer's current tag (no body)",
            headers(("ETag" = String, description = "The current tag"), ("Cache-Control" = String, description = "`private, no-cache`"))),
        (status = 400, description = "`VALIDATION_ERROR`: a parameter is malformed, out of range or repeated (as the list checks it)", body = service_kit::ErrorBody),
        ReaderErrors,
    )
)]
#[tracing::instrument(name = "count_admin_reports_by_status", skip_all)]
pub async fn status_counts(
    request: HttpRequest,
    state: web::Data<AppState>,
    auth: ReportReader,
    Query(list): Query<ListParams>,
    Query(admin): Query<AdminListParams>,
) -> Result<HttpResponse, ApiError> {
    let filter = admin_filter(&state, &auth, list, admin).await?;
    let counts = state.stores.admin.status_counts(&filter).await?;
    conditional::json(&request, &ReportStatusCounts::from(counts))
}
