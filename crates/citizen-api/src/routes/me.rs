//! `/me/reports` and `/me/reports-categories`: a signed-in citizen's or officer's own view.

use actix_web::{web, HttpRequest};
use domain::reports::accepted;
use service_kit::auth::Auth;
use service_kit::extract::Json;
use service_kit::ApiError;

use super::model::{Categories, Category, Report, ReportList, View};
use super::params::RawListParams;
use super::{AppState, ACCESS_ALL_SCOPE};

/// The parameters `GET /me/reports` reads (documentation).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read by utoipa only
pub struct OwnListParams {
    #[param(minimum = 1, maximum = 100, default = 100)]
    limit: Option<i32>,
    #[param(minimum = 0, maximum = 1000, default = 0)]
    offset: Option<i32>,
    /// `longitude,latitude[,radius_m]`: adds `distance`; with a radius, only reports within it.
    location: Option<String>,
    /// `date` (default), `location` (needs `location`) or `votes`.
    #[param(rename = "orderBy", pattern = "^(date|location|votes)$")]
    order_by: Option<String>,
    /// `asc` or `desc`; default `desc`, but `asc` (nearest first) for `orderBy=location`.
    #[param(rename = "orderDirection", pattern = "^(asc|desc)$")]
    order_direction: Option<String>,
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
        (status = 200, description = "A page of the caller's reports", body = ReportList),
        (status = 400, description = "`VALIDATION_ERROR`", body = service_kit::ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`", body = service_kit::ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "list_own_reports", skip_all)]
pub async fn reports(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<Json<ReportList>, ApiError> {
    let filter = RawListParams::parse(req.query_string())?
        .own_list_only()
        .to_filter()?;
    let page = state
        .stores
        .reports
        .own_reports(&auth.0.subject, &filter, state.clock.now())
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
            report.accepted = Some(accepted(status));
            report
        })
        .collect();
    Ok(Json(ReportList::new(reports, page.has_next, filter.page)))
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
        (status = 401, description = "`UNAUTHORIZED`", body = service_kit::ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`", body = service_kit::ErrorBody),
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
