//! `/me/reports` and `/me/reports-categories`: a signed-in citizen's or officer's own view.

use actix_web::web;
use domain::limits::LimitError;
use domain::reports::accepted;
use serde::Deserialize;
use service_kit::auth::Auth;
use service_kit::docs::responses::{ServiceUnavailable, Unauthorized};
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::IntoParams;

use super::dto::{Categories, Category, OwnReport, OwnReportList, Report, View};
use super::params::ListParams;
use super::{AppState, ACCESS_ALL_SCOPE};
use crate::store::ReportFilter;

/// The parameters `GET /me/reports` reads; the report lists' others (`q`, `category`, `status`,
/// `dateFrom`, `dateTo`) are ignored there like any unknown parameter, neither checked nor
/// applied.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OwnListParams {
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100, default = 100)]
    limit: Option<String>,
    #[param(value_type = Option<i32>, minimum = 0, maximum = 1000, default = 0)]
    offset: Option<String>,
    /// `longitude,latitude[,radius_m]`: adds `distance`; with a radius, only reports within it.
    location: Option<String>,
    /// `date` (default), `location` (needs `location`) or `votes`.
    #[serde(rename = "orderBy")]
    #[param(pattern = "^(date|location|votes)$")]
    order_by: Option<String>,
    /// `asc` or `desc`; default `desc`, but `asc` (nearest first) for `orderBy=location`.
    #[serde(rename = "orderDirection")]
    #[param(pattern = "^(asc|desc)$")]
    order_direction: Option<String>,
}

impl OwnListParams {
    /// Validates every parameter into a filter, as the public list does.
    fn into_filter(self) -> Result<ReportFilter, LimitError> {
        ListParams {
            limit: self.limit,
            offset: self.offset,
            location: self.location,
            order_by: self.order_by,
            order_direction: self.order_direction,
            ..ListParams::default()
        }
        .into_filter()
    }
}

/// The caller's own reports.
///
/// One row per report (not per issue), with the status derived from all its issues and
/// `accepted` (true once the city took the report on: status accepted, duplicate or resolved).
/// Only `limit`, `offset`, `location`, `orderBy` and `orderDirection` apply.
#[utoipa::path(
    get,
    path = "/me/reports",
    tag = "me",
    operation_id = "listOwnReports",
    params(OwnListParams),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of the caller's reports", body = OwnReportList),
        (status = 400, description = "`VALIDATION_ERROR`", body = service_kit::ErrorBody),
        Unauthorized,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "list_own_reports", skip_all)]
pub async fn reports(
    state: web::Data<AppState>,
    auth: Auth,
    Query(params): Query<OwnListParams>,
) -> Result<Json<OwnReportList>, ApiError> {
    let filter = params.into_filter()?;
    let page = state
        .stores
        .reports
        .own_reports(&auth.0.subject, &filter)
        .await?;
    let reports = page
        .rows
        .into_iter()
        .map(|row| {
            let status = row.status();
            let mut report = Report::from_store(
                row.report,
                &state.media,
                View::Trusted,
                filter.near.as_ref(),
            );
            report.status = status;
            OwnReport {
                report,
                accepted: accepted(status),
            }
        })
        .collect();
    Ok(Json(OwnReportList {
        reports,
        has_next_offset: page.has_next,
        offset: filter.page.offset,
        limit: filter.page.limit,
    }))
}

/// The report categories the caller works in.
///
/// An officer's categories; every category with the scope
/// `cityuser:report-categories:access-all`; none for a citizen. By name, the default category
/// last.
#[utoipa::path(
    get,
    path = "/me/reports-categories",
    tag = "me",
    operation_id = "listOwnReportCategories",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The categories", body = Categories),
        Unauthorized,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "list_own_report_categories", skip_all)]
pub async fn report_categories(
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<Json<Categories>, ApiError> {
    let categories = if auth.0.has_scope(ACCESS_ALL_SCOPE) {
        state.stores.categories.categories().await?
    } else {
        state
            .stores
            .categories
            .officer_categories(&auth.0.subject)
            .await?
    };
    Ok(Json(Categories {
        categories: categories.into_iter().map(Category::from).collect(),
    }))
}
