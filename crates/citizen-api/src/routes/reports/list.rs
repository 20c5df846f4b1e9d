//! `GET /reports`: the public list, one row per issue.

use std::sync::Arc;

use actix_web::http::header::ContentType;
use actix_web::{web, HttpRequest, HttpResponse};
use service_kit::auth::MaybeAuth;
use service_kit::ApiError;
use uuid::Uuid;

use super::super::model::ReportList;
use super::super::params::RawListParams;
use super::super::AppState;
use super::rows;
use crate::list_index::IndexRow;
use crate::store::{IssueRowKey, ListPage, ListRead, ListRow};
use domain::reports::OrderBy;

/// The list parameters (documentation; the handler reads the raw query string because
/// `category` and `status` repeat).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read by utoipa only
pub struct ListParams {
    /// Page size.
    #[param(minimum = 1, maximum = 100, default = 100)]
    limit: Option<i32>,
    /// Rows to skip.
    #[param(minimum = 0, maximum = 1000, default = 0)]
    offset: Option<i32>,
    /// `longitude,latitude[,radius_m]` (WGS84): adds `distance` to each row; with a radius, only
    /// reports within it.
    #[param(example = "14.4213,50.0875,500")]
    location: Option<String>,
    /// Category ids (repeat the parameter for several); a row matches any of them.
    category: Option<Vec<uuid::Uuid>>,
    /// Issue states: open, moved, accepted, duplicate, resolved (repeat the parameter for
    /// several; moved issues are never listed).
    status: Option<Vec<String>>,
    /// Search in title, description and report id, ignoring case and diacritics.
    #[param(min_length = 1, max_length = 200)]
    q: Option<String>,
    /// `date` (filing time, the default), `location` (needs `location`; rows without a location
    /// last) or `votes`.
    #[param(rename = "orderBy", pattern = "^(date|location|votes)$")]
    order_by: Option<String>,
    /// `asc` or `desc`; default `desc`, but `asc` (nearest first) for `orderBy=location`. Ties
    /// are ordered by id in the same direction.
    #[param(rename = "orderDirection", pattern = "^(asc|desc)$")]
    order_direction: Option<String>,
    /// Only reports filed at or after this instant (RFC 3339).
    #[param(rename = "dateFrom")]
    date_from: Option<chrono::DateTime<chrono::Utc>>,
    /// Only reports filed at or before this instant (RFC 3339).
    #[param(rename = "dateTo")]
    date_to: Option<chrono::DateTime<chrono::Utc>>,
}

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
        (status = 401, description = "`UNAUTHORIZED`: a token was sent but is invalid", body = service_kit::ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "list_reports", skip_all)]
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    _auth: MaybeAuth,
) -> Result<HttpResponse, ApiError> {
    let filter = RawListParams::parse(req.query_string())?.to_filter()?;
    let reports = &state.stores.reports;
    let now = state.clock.now();
    let indexed = match &state.list_index {
        Some(index) => index.page(&filter, now).await,
        None => None,
    };
    // A page from the list index names its rows, which the row cache holds or are read by id
    // (rows.rs). From the database, nearest first from a point anywhere reads its rows with
    // the page (a random place's rows are rarely kept); every other page reads its rows' keys.
    let (page, read, from_index) = match indexed {
        Some(found) => {
            let (page, heads) = keyed(found);
            (page, ListRead::Keys, Some(heads))
        }
        None => {
            let read = match filter.order.by {
                OrderBy::Location => ListRead::Rows,
                OrderBy::Date | OrderBy::Votes => ListRead::Keys,
            };
            (
                reports.public_reports(&filter, now, read).await?,
                read,
                None,
            )
        }
    };
    let (keys, contents): (Vec<_>, Vec<_>) = page
        .rows
        .into_iter()
        .map(|row| (row.key, row.content))
        .unzip();
    let kept = &state.list_rows;
    // Heads the row cache held for rows of an index page whose entries did not.
    let mut for_index = Vec::new();
    let heads = match read {
        ListRead::Rows => rows::written(kept, contents, &state.media),
        ListRead::Keys => {
            let heads = match from_index {
                Some(held) => {
                    let (heads, found) = rows::kept_heads_beside(kept, &keys, held);
                    for_index = found;
                    heads
                }
                None => rows::kept_heads(kept, &keys),
            };
            let missing: Vec<Uuid> = keys
                .iter()
                .zip(&heads)
                .filter(|(_, head)| head.is_none())
                .map(|(key, _)| key.issue_id)
                .collect();
            if !missing.is_empty() {
                let read = reports.public_rows(&missing).await?;
                rows::fill(kept, &keys, heads, read, &state.media)
            } else {
                Ok(heads)
            }
        }
    }
    .map_err(ApiError::internal)?;
    if let Some(index) = state.list_index.as_ref().filter(|_| !for_index.is_empty()) {
        // What the index's entries did not hold but the row cache did goes to them for the
        // next page (a row read from the database is kept there once the row cache has it).
        index.keep_heads(for_index).await;
    }
    let body = rows::page_body(
        &keys,
        &heads,
        filter.near.as_ref(),
        page.has_next,
        filter.page,
    )
    .map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

/// A page from the list index as the page's statement would have read it: each row's key with
/// its report's vote count (counted by the index at the request's instant); beside it, the
/// heads the index held for the rows.
fn keyed(found: ListPage<IndexRow>) -> (ListPage<ListRow>, Vec<Option<Arc<str>>>) {
    let (rows, heads) = found
        .rows
        .into_iter()
        .map(|row| {
            let key = IssueRowKey {
                issue_id: row.issue_id,
                version: row.version,
                votes_count: row.votes_count,
                point: row.point,
            };
            (ListRow { key, content: None }, row.head)
        })
        .unzip();
    let page = ListPage {
        rows,
        has_next: found.has_next,
    };
    (page, heads)
}
