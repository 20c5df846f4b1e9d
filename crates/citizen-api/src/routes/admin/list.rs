//! `GET /admin/reports`: the officers' report list (spec 4.5), a conditional answer
//! ([`conditional`]) the console polls.

use actix_web::{web, HttpRequest, HttpResponse};
use domain::i18n::Message;
use domain::limits::LimitError;
use serde::Deserialize;
use service_kit::extract::{parse_bool, Query};
use service_kit::ApiError;
use utoipa::IntoParams;

use super::super::params::ListParams;
use super::super::AppState;
use super::dto::{AdminReport, AdminReportList};
use super::{access, conditional};
use crate::routes::responses::ReaderErrors;
use crate::routes::scopes::ReportReader;
use crate::store::admin::AdminFilter;

/// The parameters of `GET /admin/reports` beyond the public list's ([`ListParams`], read from
/// the same query string, so every filter of the public list is the officers' too).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdminListParams {
    /// `true`: reports with an accessible issue past its category's statement deadline (open
    /// or accepted, placed in the category at least the deadline ago); `false`: reports with an
    /// accessible issue that is not (within the deadline, no deadline, or resolved/duplicate).
    #[param(value_type = Option<bool>)]
    overdue: Option<String>,
}

impl AdminListParams {
    /// `overdue`: `true` or `false`.
    fn overdue(&self) -> Result<Option<bool>, LimitError> {
        self.overdue
            .as_deref()
            .map(|v| {
                parse_bool(v)
                    .ok_or_else(|| LimitError::new("overdue", Message::new("overdue-invalid")))
            })
            .transpose()
    }
}

/// The filter of the list's parameters for the caller (the list and its status counts).
pub(super) async fn admin_filter(
    state: &AppState,
    auth: &ReportReader,
    list: ListParams,
    admin: AdminListParams,
) -> Result<AdminFilter, ApiError> {
    Ok(AdminFilter {
        list: list.into_filter()?,
        overdue: admin.overdue()?,
        access: access(state, &auth.0).await?,
        now: state.clock.now(),
    })
}

/// The admin report list.
///
/// One row per report with the `issues` the caller may see (never moved ones; every category
/// with `cityuser:report-categories:access-all`, else the caller's categories) and the status
/// derived from them. `category`, `status` and `overdue` select reports having at least one
/// accessible issue that matches all three; the `issues` array still holds every accessible
/// issue. Reports without an accessible issue are never listed. `votes_count` counts the
/// active tokens (an expired one until the next expiry sweep, `votes.expiry_sweep_seconds`).
///
/// A conditional read for polling: the answer carries a strong `ETag` of its body and
/// `Cache-Control: private, no-cache`; a request whose `If-None-Match` names the current tag
/// gets 304 without a body.
#[utoipa::path(
    get,
    path = "/admin/reports",
    tag = "admin",
    operation_id = "listAdminReports",
    params(
        ListParams, AdminListParams,
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` of an earlier answer: 304 while the answer is still the same"),
    ),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "A page of reports", body = AdminReportList,
            headers(("ETag" = String, description = "A strong tag of the body"), ("Cache-Control" = String, description = "`private, no-cache`"))),
        (status = 304, description = "Not modified: `If-None-Match` names the answer's current tag (no body)",
            headers(("ETag" = String, description = "The current tag"), ("Cache-Control" = String, description = "`private, no-cache`"))),
        (status = 400, description = "`VALIDATION_ERROR`: a parameter is malformed, out of range or repeated", body = service_kit::ErrorBody),
        ReaderErrors,
    )
)]
#[tracing::instrument(name = "list_admin_reports", skip_all)]
pub async fn list(
    request: HttpRequest,
    state: web::Data<AppState>,
    auth: ReportReader,
    Query(list): Query<ListParams>,
    Query(admin): Query<AdminListParams>,
) -> Result<HttpResponse, ApiError> {
    let filter = admin_filter(&state, &auth, list, admin).await?;
    let page = state.stores.admin.admin_reports(&filter).await?;
    let reports = page
        .rows
        .into_iter()
        .map(|row| {
            AdminReport::new(
                row.report,
                &row.issues,
                &state.media,
                filter.list.near.as_ref(),
            )
        })
        .collect();
    let answer = AdminReportList {
        reports,
        has_next_offset: page.has_next,
        offset: filter.list.page.offset,
        limit: filter.list.page.limit,
    };
    conditional::json(&request, &answer)
}
