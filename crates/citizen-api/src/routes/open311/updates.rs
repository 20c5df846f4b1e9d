//! mySociety's updates extension, which FixMyStreet reads as an Open311 back end's status
//! changes (docs/open311.md, "Updates"): `GET servicerequestupdates.{format}` with an
//! integrator's key; `POST servicerequestupdates` (a citizen's comment from the client) is
//! refused.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::open311::{self as rules, update_status};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::format;
use super::requests::w3c;
use super::{admitted, admitted_query, date_param, integrator, paging_params, Open311, Refusal};
use crate::routes::AppState;

/// One update of a request: a change of its status, or an officer's statement.
#[derive(Debug, Serialize, ToSchema)]
pub struct RequestUpdate {
    /// The change's or the statement's id.
    pub update_id: String,
    pub service_request_id: String,
    /// The request's status after the update, in FixMyStreet's words: `OPEN`, `IN_PROGRESS`
    /// (accepted), `DUPLICATE`, `FIXED` (resolved).
    #[schema(value_type = String, example = "IN_PROGRESS")]
    pub status: &'static str,
    pub updated_datetime: String,
    /// The statement's text; empty for a status change alone.
    pub description: String,
    /// The statement's first file, from the city's media store (never an integrator's link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_url: Option<String>,
}

/// `<service_requests_updates><request_update>…`.
#[derive(Serialize)]
struct UpdatesXml<'a> {
    request_update: &'a [RequestUpdate],
}

/// The query of `GET servicerequestupdates`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UpdatesParams {
    /// The integrator's key.
    api_key: Option<String>,
    /// From (a W3C date-time with its zone); `start_date` to `end_date` spans at most 90 days,
    /// by default the 90 days up to now.
    start_date: Option<String>,
    /// To, included.
    end_date: Option<String>,
    /// The page, from 1.
    page: Option<String>,
    /// Updates per page, 1 to 1 000 (default 1 000).
    page_size: Option<String>,
}

/// The updates of the requests (mySociety's extension), oldest first.
#[utoipa::path(
    get, path = "/open311/v2/servicerequestupdates.{format}", tag = "open311", operation_id = "open311RequestUpdates",
    params(("format" = super::FormatName, Path, description = "The answer's format"), UpdatesParams, super::Jurisdiction),
    responses(
        (status = 200, description = "The status changes and statements of the window, oldest first", content(([RequestUpdate] = "application/json"), (String = "text/xml"))),
        super::KeyedRefusals,
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    open311: web::Data<Open311>,
    path: web::Path<String>,
    request: HttpRequest,
) -> HttpResponse {
    let run = async {
        let (format, params): (_, UpdatesParams) = admitted_query(&open311, &path, &request)?;
        integrator(&open311, format, params.api_key.as_deref())?;
        let window = rules::window(
            date_param(format, "start_date", &params.start_date)?,
            date_param(format, "end_date", &params.end_date)?,
            state.clock.now(),
        )
        .map_err(|e| Refusal::param(format, &e))?;
        let (offset, limit) = paging_params(format, &params.page, &params.page_size)?;
        let all =
            crate::app::open311::updates(state.stores.requests.as_ref(), window.from, window.to)
                .await
                .map_err(|err| Refusal::store(format, &err))?;
        let page: Vec<RequestUpdate> = all
            .into_iter()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(limit as usize)
            .filter_map(|u| {
                Some(RequestUpdate {
                    update_id: u.id.to_string(),
                    service_request_id: u.report_id.to_string(),
                    status: update_status(u.status)?,
                    updated_datetime: w3c(u.at),
                    description: u.description,
                    media_url: u.media.map(|m| state.media.public_url(m.id)),
                })
            })
            .collect();
        Ok(format::answer(
            format,
            StatusCode::OK,
            &page,
            "service_requests_updates",
            &UpdatesXml {
                request_update: &page,
            },
        ))
    };
    run.await
        .unwrap_or_else(|refused: Refusal| refused.answer())
}

/// A comment on a request from the client (mySociety's `POST servicerequestupdates`): refused
/// with a 400 (docs/open311.md): citizens comment in the city's own app, where officers read
/// them with the report; an integrator's relayed comment would have no author the city could
/// answer.
#[utoipa::path(
    post, path = "/open311/v2/servicerequestupdates.{format}", tag = "open311", operation_id = "open311PostRequestUpdate",
    params(("format" = super::FormatName, Path, description = "The answer's format"), super::Jurisdiction),
    responses(
        super::KeyedRefusals,
    )
)]
pub async fn comment(
    open311: web::Data<Open311>,
    path: web::Path<String>,
    request: HttpRequest,
) -> HttpResponse {
    let refused = match admitted(&open311, &path, &request) {
        Ok(format) => Refusal::bad(
            format,
            "comments on requests are not taken through Open311: the filer writes to the city \
             in its app",
        ),
        Err(refused) => refused,
    };
    refused.answer()
}
