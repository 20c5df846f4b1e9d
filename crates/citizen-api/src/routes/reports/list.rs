//! `GET /reports`: the public list, one row per issue.

use actix_web::{web, HttpResponse};
use service_kit::auth::MaybeAuth;
use service_kit::docs::responses::{InvalidToken, ServiceUnavailable};
use service_kit::extract::Query;
use service_kit::ApiError;

use super::super::dto::{ReportList, ReportRow};
use super::super::params::ListParams;
use super::super::AppState;

/// The public report list.
///
/// One row per issue (a report handled in two categories shows twice), issues that were moved
/// left out; each row carries its issue's id, category and state. Anonymous or signed in.
#[utoipa::path(
    get,
    path = "/reports",
    tag = "reports",
    operation_id = "listReports",
    params(ListParams),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of rows", body = ReportList),
        (status = 400, description = "`VALIDATION_ERROR`: a parameter is malformed, out of range or repeated; `orderBy=location` without `location`", body = service_kit::ErrorBody),
        InvalidToken,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "list_reports", skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    _auth: MaybeAuth,
    Query(params): Query<ListParams>,
) -> Result<HttpResponse, ApiError> {
    let filter = params.into_filter()?;
    let page = state.stores.reports.public_reports(&filter).await?;
    let reports = page
        .rows
        .into_iter()
        .map(|row| ReportRow::new(row, &state.media, filter.near.as_ref()))
        .collect();
    Ok(HttpResponse::Ok().json(ReportList {
        reports,
        has_next_offset: page.has_next,
        offset: filter.page.offset,
        limit: filter.page.limit,
    }))
}
