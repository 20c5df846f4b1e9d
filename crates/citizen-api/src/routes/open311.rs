//! The Open311 GeoReport v2 facade (docs/open311.md) under `<base>/open311/v2/`: the city's
//! report categories as services for the standard's clients, in JSON and XML
//! (`open311.enabled`). Its answers and errors are the standard's, not the API's error body.

mod discovery;
mod format;
mod services;

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::OpenApi;

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
        use utoipa::openapi::schema::{ArrayBuilder, Object, Type};
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let refusal = |description: &str| {
            let errors = ArrayBuilder::new().items(Ref::from_schema_name("Open311Error"));
            ResponseBuilder::new()
                .description(description)
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
                .build()
                .into()
        };
        [
            (
                "400",
                refusal("An unreadable query (a parameter named twice)"),
            ),
            (
                "404",
                refusal(
                    "Another jurisdiction, a format other than json and xml, or no such \
                     service_code",
                ),
            ),
            ("503", refusal("The database does not answer")),
        ]
        .into_iter()
        .map(|(status, response)| (status.to_owned(), response))
        .collect()
    }
}

/// What the facade's handlers share beside the service's state.
pub struct Open311 {
    pub settings: Open311Settings,
    /// The endpoint's base URL as `discovery` names it: `<http.public_url>/open311/v2`, or
    /// `<base path>/open311/v2` without a public URL.
    pub endpoint: String,
}

impl Open311 {
    pub fn new(settings: Open311Settings, http: &service_kit::settings::HttpSettings) -> Self {
        let base = if http.public_url.is_empty() {
            http.base_path.trim_end_matches('/')
        } else {
            http.public_url.trim_end_matches('/')
        };
        Self {
            endpoint: format!("{base}/open311/v2"),
            settings,
        }
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
        );
}

/// A request refused before any work, answered in the standard's form ([`format::error`]).
struct Refusal {
    format: Format,
    status: StatusCode,
    description: &'static str,
}

impl Refusal {
    fn answer(&self) -> HttpResponse {
        format::error(self.format, self.status, self.description)
    }
}

/// The path's format, else a 404 (in JSON: the format is what is not known).
fn asked_format(extension: &str) -> Result<Format, Refusal> {
    Format::of(extension).ok_or(Refusal {
        format: Format::Json,
        status: StatusCode::NOT_FOUND,
        description: "unknown format: use .json or .xml",
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
            description: "unreadable query string",
        })?
        .into_inner();
    if open311.settings.is_ours(asked.jurisdiction_id.as_deref()) {
        Ok(())
    } else {
        Err(Refusal {
            format,
            status: StatusCode::NOT_FOUND,
            description: "unknown jurisdiction_id",
        })
    }
}

/// The store did not answer: 503 in the request's format.
fn unavailable(format: Format, err: &crate::store::StoreError) -> HttpResponse {
    tracing::warn!(error = %err, "an Open311 read failed");
    format::error(
        format,
        StatusCode::SERVICE_UNAVAILABLE,
        "the service is unavailable; try again later",
    )
}

/// The OpenAPI part of the facade, merged into the service's description.
#[derive(OpenApi)]
#[openapi(
    paths(discovery::discovery, services::services, services::definition),
    components(schemas(
        discovery::Discovery, discovery::Endpoint, services::Service, services::ServiceDefinition,
        FormatName, format::Open311Error
    )),
    tags((name = "open311", description = "Open311 GeoReport v2 (docs/open311.md): the report \
        categories as services, in JSON or XML by the path's extension; errors as \
        `[{code, description}]`"))
)]
pub struct Open311Doc;
