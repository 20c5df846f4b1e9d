//! The Open311 GeoReport v2 facade (docs/open311.md) under `<base>/open311/v2/`: the city's
//! report categories as services for the standard's clients, in JSON and XML
//! (`open311.enabled`). Its answers and errors are the standard's, not the API's error body.

mod discovery;
mod filing;
mod format;
mod requests;
mod services;
mod updates;

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::OpenApi;

use crate::rate_limit::{RateLimitSettings, RateLimiter};
use crate::settings::open311::Open311Settings;
use format::Format;

/// The formats of the facade's paths (their extension).
#[derive(utoipa::ToSchema)]
#[allow(non_camel_case_types, dead_code)] // the documentation's names of [`Format`]
pub enum FormatName {
    json,
    xml,
}

/// The refusals every read of the facade documents: 400, 404 and 503, each the standard's error
/// array in JSON or its `<errors>` in XML.
pub struct Refusals;

impl utoipa::IntoResponses for Refusals {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        refusals(&[
            (
                "400",
                "A malformed or out-of-range parameter (a date without its zone, a span over 90 \
                 days, a page size over 1 000), or a parameter named twice",
            ),
            (
                "404",
                "Another jurisdiction, a format other than json and xml, no such service_code \
                 or no such request",
            ),
            ("503", "The database does not answer"),
        ])
    }
}

/// The refusals of what needs an integrator's `api_key` (filing, the updates): those of
/// [`Refusals`], 403 and 429.
pub struct KeyedRefusals;

impl utoipa::IntoResponses for KeyedRefusals {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        refusals(&[
            (
                "400",
                "A field missing, malformed or out of range (`REPORT_OUTSIDE_CITY`: the point is \
                 outside the city), or a window over 90 days",
            ),
            ("403", "`api_key` missing or not known"),
            (
                "404",
                "Another jurisdiction, or a format other than json and xml",
            ),
            (
                "429",
                "The key's filings are over `open311.filings_per_hour`",
            ),
            ("503", "The database does not answer"),
        ])
    }
}

/// Each status of `list` answered with the error array, in JSON or XML.
fn refusals(
    list: &[(&str, &str)],
) -> std::collections::BTreeMap<String, utoipa::openapi::RefOr<utoipa::openapi::response::Response>>
{
    use utoipa::openapi::schema::{ArrayBuilder, Object, Type};
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    list.iter()
        .map(|(status, description)| {
            let errors = ArrayBuilder::new().items(Ref::from_schema_name("Open311Error"));
            let response = ResponseBuilder::new()
                .description(*description)
                .content(
                    "application/json",
                    ContentBuilder::new().schema(Some(errors)).build(),
                )
                .content(
                    "text/xml",
                    ContentBuilder::new()
                        .schema(Some(Object::with_type(Type::String)))
                        .build(),
                )
                .build();
            ((*status).to_owned(), response.into())
        })
        .collect()
}

/// What the facade's handlers share beside the service's state.
pub struct Open311 {
    pub settings: Open311Settings,
    /// The endpoint's base URL as `discovery` names it: `<http.public_url>/open311/v2`, or
    /// `<base path>/open311/v2` without a public URL.
    pub endpoint: String,
    /// The filings per integrator (`open311.filings_per_hour`, `open311.filings_burst`).
    filings: RateLimiter,
}

impl Open311 {
    pub fn new(
        settings: Open311Settings,
        http: &service_kit::settings::HttpSettings,
    ) -> anyhow::Result<Self> {
        let base = if http.public_url.is_empty() {
            http.base_path.trim_end_matches('/')
        } else {
            http.public_url.trim_end_matches('/')
        };
        let filings = RateLimiter::new(&RateLimitSettings {
            anonymous_reports_per_hour: settings.filings_per_hour,
            burst: settings.filings_burst,
            trusted_proxy_hops: 0,
            // One per integrator: a handful.
            max_tracked_clients: settings.api_keys.len().max(1),
        })?;
        Ok(Self {
            endpoint: format!("{base}/open311/v2"),
            settings,
            filings,
        })
    }
}

/// The routes (under the base path), when `open311.enabled`.
pub fn configure(cfg: &mut web::ServiceConfig, open311: &Arc<Open311>) {
    if !open311.settings.enabled {
        return;
    }
    cfg.app_data(web::Data::from(open311.clone()))
        .service(
            web::resource("/open311/v2/discovery.{format}")
                .route(web::get().to(discovery::discovery)),
        )
        .service(
            web::resource("/open311/v2/services.{format}").route(web::get().to(services::services)),
        )
        .service(
            web::resource("/open311/v2/services/{service_code}.{format}")
                .route(web::get().to(services::definition)),
        )
        .service(
            web::resource("/open311/v2/requests.{format}")
                .route(web::get().to(requests::list))
                .route(web::post().to(filing::file)),
        )
        .service(
            web::resource("/open311/v2/requests/{service_request_id}.{format}")
                .route(web::get().to(requests::one)),
        )
        .service(
            web::resource("/open311/v2/servicerequestupdates.{format}")
                .route(web::get().to(updates::list))
                .route(web::post().to(updates::comment)),
        );
}

/// A request refused, answered in the standard's form ([`format::error`]).
struct Refusal {
    format: Format,
    status: StatusCode,
    description: std::borrow::Cow<'static, str>,
}

impl Refusal {
    fn answer(&self) -> HttpResponse {
        format::error(self.format, self.status, &self.description)
    }

    /// A 400 in `format`.
    fn bad(format: Format, description: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        Self {
            format,
            status: StatusCode::BAD_REQUEST,
            description: description.into(),
        }
    }

    /// A parameter refused by the rules (400).
    fn param(format: Format, err: &domain::open311::ParamError) -> Self {
        Self::bad(format, err.to_string())
    }

    /// The store did not answer: 503.
    fn store(format: Format, err: &crate::store::StoreError) -> Self {
        tracing::warn!(error = %err, "an Open311 request failed in the store");
        Self {
            format,
            status: StatusCode::SERVICE_UNAVAILABLE,
            description: "the service is unavailable; try again later".into(),
        }
    }
}

/// The path's format, else a 404 (in JSON: the format is what is not known).
fn asked_format(extension: &str) -> Result<Format, Refusal> {
    Format::of(extension).ok_or(Refusal {
        format: Format::Json,
        status: StatusCode::NOT_FOUND,
        description: "unknown format: use .json or .xml".into(),
    })
}

/// The request's format (the path's extension), when the request is the city's to answer
/// ([`ours`]); else its refusal.
fn admitted(open311: &Open311, extension: &str, request: &HttpRequest) -> Result<Format, Refusal> {
    let format = asked_format(extension)?;
    ours(open311, format, request)?;
    Ok(format)
}

/// `?jurisdiction_id=`; every other parameter is left to the route (clients send their
/// `api_key` everywhere).
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Jurisdiction {
    /// The city's id, empty or absent; another is a 404.
    jurisdiction_id: Option<String>,
}

/// The request's jurisdiction is the city's (absent, empty or `open311.jurisdiction_id`),
/// else a 404; an unreadable query string is a 400.
fn ours(open311: &Open311, format: Format, request: &HttpRequest) -> Result<(), Refusal> {
    let asked = web::Query::<Jurisdiction>::from_query(request.query_string())
        .map_err(|_| Refusal {
            format,
            status: StatusCode::BAD_REQUEST,
            description: "unreadable query string".into(),
        })?
        .into_inner();
    if open311.settings.is_ours(asked.jurisdiction_id.as_deref()) {
        Ok(())
    } else {
        Err(Refusal {
            format,
            status: StatusCode::NOT_FOUND,
            description: "unknown jurisdiction_id".into(),
        })
    }
}

/// A parameter's value, trimmed, when it is given and not blank.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// The request's format and its query read as `Q` (a 400 when unreadable), when the request is
/// the city's to answer ([`admitted`]).
fn admitted_query<Q: serde::de::DeserializeOwned>(
    open311: &Open311,
    extension: &str,
    request: &HttpRequest,
) -> Result<(Format, Q), Refusal> {
    let format = admitted(open311, extension, request)?;
    let query = web::Query::<Q>::from_query(request.query_string())
        .map_err(|_| Refusal::bad(format, "unreadable query string"))?;
    Ok((format, query.into_inner()))
}

/// A date-time parameter (W3C, with its zone) named `name`, when given.
fn date_param(
    format: Format,
    name: &'static str,
    raw: &Option<String>,
) -> Result<Option<chrono::DateTime<chrono::Utc>>, Refusal> {
    given(raw)
        .map(|r| domain::open311::parse_datetime(name, r))
        .transpose()
        .map_err(|e| Refusal::param(format, &e))
}

/// `page` and `page_size`: the rows to skip and to take.
fn paging_params(
    format: Format,
    page: &Option<String>,
    page_size: &Option<String>,
) -> Result<(u64, u32), Refusal> {
    domain::open311::paging(given(page), given(page_size)).map_err(|e| Refusal::param(format, &e))
}

/// The integrator whose `api_key` the request (its query, or a filing's form) carries, else a
/// 403.
fn integrator<'a>(
    open311: &'a Open311,
    format: Format,
    api_key: Option<&str>,
) -> Result<&'a str, Refusal> {
    api_key
        .and_then(|key| open311.settings.integrator(key))
        .ok_or(Refusal {
            format,
            status: StatusCode::FORBIDDEN,
            description: "api_key missing or not known: ask the city for one".into(),
        })
}

/// The store did not answer: 503 in the request's format.
fn unavailable(format: Format, err: &crate::store::StoreError) -> HttpResponse {
    Refusal::store(format, err).answer()
}

/// The OpenAPI part of the facade, merged into the service's description.
#[derive(OpenApi)]
#[openapi(
    paths(
        discovery::discovery, services::services, services::definition, requests::list,
        requests::one, filing::file, updates::list, updates::comment
    ),
    components(schemas(
        discovery::Discovery, discovery::Endpoint, services::Service, services::ServiceDefinition,
        FormatName, format::Open311Error, requests::ServiceRequest, filing::Filed,
        filing::FilingForm, updates::RequestUpdate
    )),
    tags((name = "open311", description = "Open311 GeoReport v2 (docs/open311.md): the report \
        categories as services, in JSON or XML by the path's extension; errors as \
        `[{code, description}]`"))
)]
pub struct Open311Doc;
