//! `GET open311/v2/requests.{format}` and `requests/{id}.{format}`: the city's reports as
//! service requests (docs/open311.md, "Requests"), newest filed first.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::SecondsFormat;
use domain::issues::IssueStatus;
use domain::open311::{self as rules, RequestStatus};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::format::{self, Format};
use super::{admitted, admitted_query, date_param, given, paging_params, Open311, Refusal};
use crate::media::MediaStore;
use crate::routes::AppState;
use crate::store::open311::{Request, RequestQuery};
use crate::store::{Category, Instant};

/// A service request: a report of the city (docs/open311.md has the mapping). No filer or
/// officer identity is ever part of it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ServiceRequest {
    /// The report's id.
    pub service_request_id: String,
    /// `open` while an issue of the report is open or accepted; `closed` when every issue is
    /// resolved or a duplicate.
    #[schema(value_type = String, example = "open")]
    pub status: &'static str,
    /// The newest public statement of an officer on the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_notes: Option<String>,
    /// The request's service: the category of the report's first issue that is not moved.
    pub service_name: String,
    pub service_code: String,
    /// The report's title and description (the description alone when it starts with the
    /// title, as a filing through the facade's does).
    pub description: String,
    /// The office that handles the service: the category's name.
    pub agency_responsible: String,
    /// When the report was filed.
    pub requested_datetime: String,
    /// The last public change (a status change or a statement); a closed request's, when it
    /// was closed.
    pub updated_datetime: String,
    /// While open, the deadline for the first public statement (the category's
    /// `statement_deadline_days` from when the report was placed in it): what makes the issue
    /// overdue for the officers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_datetime: Option<String>,
    /// The place in words, as the filer gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// WGS84.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long: Option<f64>,
    /// The first photo's public URL (none while an officer has marked the photos unsuitable for
    /// the public); without a photo of its own, the link an integrator filed it with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_url: Option<String>,
}

/// `<service_requests><request>…`.
#[derive(Serialize)]
struct RequestsXml<'a> {
    request: &'a [ServiceRequest],
}

/// A date-time as the standard writes it (W3C, with the zone).
pub(super) fn w3c(at: Instant) -> String {
    at.to_rfc3339_opts(SecondsFormat::AutoSi, false)
}

/// The service request of a stored report, with the categories by id; `None` for a report with
/// only moved issues (never selected).
pub(super) fn service_request(
    request: Request,
    categories: &HashMap<Uuid, Category>,
    media: &MediaStore,
) -> Option<ServiceRequest> {
    let status = RequestStatus::of_report(request.report.status())?;
    let service = request
        .report
        .issues
        .iter()
        .find(|i| i.status != IssueStatus::Moved)?;
    let category = categories.get(&service.category_id);
    let name = category.map(|c| c.name.clone()).unwrap_or_default();
    let expected_datetime = category
        .and_then(|c| c.statement_deadline_days)
        .filter(|_| matches!(service.status, IssueStatus::Open | IssueStatus::Accepted))
        .map(|days| w3c(service.inserted_at + chrono::Duration::days(i64::from(days))));
    let report = request.report.report;
    let updated = match (status, request.closed_at) {
        (RequestStatus::Closed, Some(closed)) => closed,
        _ => request.updated_at,
    };
    let description = if report
        .description
        .trim_start()
        .starts_with(report.title.trim_end_matches('…'))
    {
        report.description
    } else {
        format!("{}\n\n{}", report.title, report.description)
    };
    let own_photo = report
        .media
        .first()
        .filter(|_| !report.explicit)
        .map(|m| media.public_url(m.id));
    let own_media = !report.media.is_empty();
    Some(ServiceRequest {
        service_request_id: report.id.to_string(),
        status: status.as_str(),
        status_notes: request.newest_statement.map(|s| s.text),
        service_code: service.category_id.to_string(),
        agency_responsible: name.clone(),
        service_name: name,
        description,
        requested_datetime: w3c(report.inserted_at),
        updated_datetime: w3c(updated),
        expected_datetime,
        address: report.address,
        lat: report.location.map(|l| l.point.lat),
        long: report.location.map(|l| l.point.lon),
        media_url: if own_media {
            own_photo
        } else {
            request.media_link
        },
    })
}

/// The query of `GET requests` (all optional; every value is text, checked by the handler).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RequestsParams {
    /// Request ids, comma-separated (at most 1 000): when given, every other filter is left
    /// out.
    service_request_id: Option<String>,
    /// Service codes, comma-separated; an unknown one is a 404.
    service_code: Option<String>,
    /// Filed at or after (a W3C date-time with its zone). `start_date` to `end_date` spans at
    /// most 90 days (a longer span is a 400); with one of them, the 90 days after the start or
    /// before the end; with neither and no `updated_after`/`updated_before`, the last 90 days.
    start_date: Option<String>,
    /// Filed at or before.
    end_date: Option<String>,
    /// `open`, `closed` or both (`open,closed`).
    status: Option<String>,
    /// The page, from 1 (an extension of the standard).
    page: Option<String>,
    /// Requests per page, 1 to 1 000 (default 1 000).
    page_size: Option<String>,
    /// GeoReport v2.1: the last public change (a status change or a statement) after this
    /// instant; for incremental sync. Without a start or end date, filed at any time.
    updated_after: Option<String>,
    /// The last public change at or before this instant.
    updated_before: Option<String>,
}

/// A comma list's values, trimmed, none empty.
fn items(raw: &str) -> impl Iterator<Item = &str> {
    raw.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// The ids of a comma list of UUIDs, or a 400 naming the parameter.
fn ids(format: Format, name: &str, raw: &str) -> Result<Vec<Uuid>, Refusal> {
    let ids = items(raw)
        .map(|one| {
            Uuid::parse_str(one)
                .map_err(|_| Refusal::bad(format, format!("{name}: {one:?} is not a known id")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if ids.len() > rules::PAGE_SIZE_MAX as usize {
        return Err(Refusal::bad(
            format,
            format!("{name}: at most {} ids", rules::PAGE_SIZE_MAX),
        ));
    }
    Ok(ids)
}

/// `params` as a store query, against the city's `categories` at `now`.
fn query(
    format: Format,
    params: &RequestsParams,
    categories: &HashMap<Uuid, Category>,
    now: Instant,
) -> Result<RequestQuery, Refusal> {
    let bad = |e: rules::ParamError| Refusal::param(format, &e);
    if let Some(raw) = given(&params.service_request_id) {
        let ids = ids(format, "service_request_id", raw)?;
        if !ids.is_empty() {
            return Ok(RequestQuery {
                limit: u32::try_from(ids.len()).unwrap_or(rules::PAGE_SIZE_MAX),
                ids,
                ..RequestQuery::default()
            });
        }
    }
    let mut query = RequestQuery::default();
    if let Some(raw) = given(&params.service_code) {
        for code in items(raw) {
            match Uuid::parse_str(code)
                .ok()
                .filter(|id| categories.contains_key(id))
            {
                Some(id) => query.categories.push(id),
                None => {
                    return Err(Refusal {
                        format,
                        status: StatusCode::NOT_FOUND,
                        description: format!("no such service_code: {code:?}").into(),
                    })
                }
            }
        }
    }
    if let Some(raw) = given(&params.status) {
        query.statuses = rules::parse_statuses(raw).map_err(bad)?;
    }
    let start = date_param(format, "start_date", &params.start_date)?;
    let end = date_param(format, "end_date", &params.end_date)?;
    query.updated_after = date_param(format, "updated_after", &params.updated_after)?;
    query.updated_before = date_param(format, "updated_before", &params.updated_before)?;
    if let (Some(after), Some(before)) = (query.updated_after, query.updated_before) {
        if before < after {
            return Err(bad(rules::ParamError::UpdatedBeforeAfter));
        }
    }
    let syncing = query.updated_after.is_some() || query.updated_before.is_some();
    if start.is_some() || end.is_some() || !syncing {
        let window = rules::window(start, end, now).map_err(bad)?;
        query.filed_from = Some(window.from);
        query.filed_to = Some(window.to);
    }
    let (offset, limit) = paging_params(format, &params.page, &params.page_size)?;
    query.offset = offset;
    query.limit = limit;
    Ok(query)
}

/// The city's categories by id, or the store's refusal.
pub(super) async fn categories(
    state: &AppState,
    format: Format,
) -> Result<HashMap<Uuid, Category>, Refusal> {
    let categories = state
        .stores
        .categories
        .categories()
        .await
        .map_err(|err| Refusal::store(format, &err))?;
    Ok(categories.into_iter().map(|c| (c.id, c)).collect())
}

/// The answer of the requests `query` selects.
async fn answer(
    state: &AppState,
    format: Format,
    query: &RequestQuery,
    categories: &HashMap<Uuid, Category>,
) -> Result<Vec<ServiceRequest>, Refusal> {
    let page = state
        .stores
        .requests
        .requests(query)
        .await
        .map_err(|err| Refusal::store(format, &err))?;
    Ok(page
        .rows
        .into_iter()
        .filter_map(|r| service_request(r, categories, &state.media))
        .collect())
}

fn respond(format: Format, requests: &[ServiceRequest]) -> HttpResponse {
    format::answer(
        format,
        StatusCode::OK,
        &requests,
        "service_requests",
        &RequestsXml { request: requests },
    )
}

/// The service requests (Open311): the city's reports, newest filed first.
#[utoipa::path(
    get, path = "/open311/v2/requests.{format}", tag = "open311", operation_id = "open311Requests",
    params(("format" = super::FormatName, Path, description = "The answer's format"), RequestsParams, super::Jurisdiction),
    responses(
        (status = 200, description = "A page of requests (an empty list when none match)", content(([ServiceRequest] = "application/json"), (String = "text/xml"))),
        super::Refusals,
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    open311: web::Data<Open311>,
    path: web::Path<String>,
    request: HttpRequest,
) -> HttpResponse {
    let run = async {
        let (format, params): (_, RequestsParams) = admitted_query(&open311, &path, &request)?;
        let categories = categories(&state, format).await?;
        let query = query(format, &params, &categories, state.clock.now())?;
        Ok(respond(
            format,
            &answer(&state, format, &query, &categories).await?,
        ))
    };
    run.await
        .unwrap_or_else(|refused: Refusal| refused.answer())
}

/// A service request (Open311): a one-element list.
#[utoipa::path(
    get, path = "/open311/v2/requests/{service_request_id}.{format}", tag = "open311", operation_id = "open311Request",
    params(("service_request_id" = String, Path, description = "A request's id (a report's)"),
           ("format" = super::FormatName, Path, description = "The answer's format"), super::Jurisdiction),
    responses(
        (status = 200, description = "The request, as the one element of a list", content(([ServiceRequest] = "application/json"), (String = "text/xml"))),
        super::Refusals,
    )
)]
pub async fn one(
    state: web::Data<AppState>,
    open311: web::Data<Open311>,
    path: web::Path<(String, String)>,
    request: HttpRequest,
) -> HttpResponse {
    let (id, extension) = path.into_inner();
    let run = async {
        let format = admitted(&open311, &extension, &request)?;
        let not_found = || Refusal {
            format,
            status: StatusCode::NOT_FOUND,
            description: "no such service_request_id".into(),
        };
        let id = Uuid::parse_str(&id).map_err(|_| not_found())?;
        let categories = categories(&state, format).await?;
        let query = RequestQuery {
            ids: vec![id],
            limit: 1,
            ..RequestQuery::default()
        };
        let found = answer(&state, format, &query, &categories).await?;
        if found.is_empty() {
            return Err(not_found());
        }
        Ok(respond(format, &found))
    };
    run.await
        .unwrap_or_else(|refused: Refusal| refused.answer())
}
