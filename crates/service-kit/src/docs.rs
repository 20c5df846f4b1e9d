//! OpenAPI description and a browsable page under the service's base path.
//!
//! `<base>/docs/openapi.json` serves the utoipa description; `<base>/docs/` a Swagger UI whose
//! files are compiled into the binary (utoipa-swagger-ui's `vendored` feature): nothing is
//! fetched from the internet, neither at build time nor when a browser opens the page. Debug
//! builds embed them too (`debug-embed`): without it they read the files at run time from the
//! build folder named at compile time, so a moved checkout or a target directory shared between
//! clones answered the page 404 (streets-api's `tests/api/docs_page.rs`).
//! `<base>/docs` itself answers the JSON description to a client that asks for
//! `application/json`, and the same page as `<base>/docs/` to anyone else (a browser, `curl`).
//! A service that asks for it ([`crate::http::AppParts::openapi_3_0`]) also serves an OpenAPI
//! 3.0.3 rendition at `<base>/docs/openapi-3.0.json` ([`oas30`]), for clients that read only 3.0
//! (OGC API – Features' OpenAPI 3.0 conformance class: GDAL, QGIS, OWSLib).
//! The error responses routes share are types in [`responses`], to list in `responses(…)`.

pub mod oas30;
pub mod responses;

use actix_web::http::header::ACCEPT;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use std::sync::Arc;
use utoipa::openapi::server::Server;
use utoipa::openapi::OpenApi;
use utoipa::PartialSchema;
use utoipa_swagger_ui::SwaggerUi;

use crate::error::ErrorBody;

/// Adds what every service's description shares: the server URL (the base path), the error
/// body schema and the table of error names in the description.
pub fn finalize(mut api: OpenApi, base_path: &str, codes: &[ErrorCode]) -> OpenApi {
    api.servers = Some(vec![Server::new(base_path)]);
    let components = api.components.get_or_insert_with(Default::default);
    components
        .schemas
        .insert("ErrorBody".to_string(), ErrorBody::schema());
    let mut table = String::from(
        "\n\n## Errors\n\nEvery error response has the body `{statusCode, name, userinfo}`. \
         `name` is one of these stable codes:\n\n| status | name |\n|---|---|\n",
    );
    for code in codes {
        table.push_str(&format!("| {} | `{}` |\n", code.status(), code.as_str()));
    }
    let description = api.info.description.get_or_insert_with(String::new);
    description.push_str(&table);
    api
}

/// The media type of the OpenAPI 3.0 rendition (OGC API – Features, /req/oas30).
pub const OPENAPI_3_0_MEDIA_TYPE: &str = "application/vnd.oai.openapi+json;version=3.0";

/// Where the OpenAPI 3.0 rendition is served, after the base path.
pub const OPENAPI_3_0_PATH: &str = "/docs/openapi-3.0.json";

/// The OpenAPI 3.0.3 rendition of `api`, as served (JSON bytes), made once at start-up.
pub fn openapi_3_0_json(api: &OpenApi) -> web::Bytes {
    serde_json::to_value(api)
        .map(|doc| oas30::openapi_3_0(&doc))
        .and_then(|doc| serde_json::to_vec(&doc))
        .unwrap_or_default()
        .into()
}

/// Registers `<base>/docs`, `<base>/docs/` (and its files) and `<base>/docs/openapi.json`, and
/// `<base>/docs/openapi-3.0.json` when given its bytes ([`openapi_3_0_json`]).
/// Must be registered before the API's `web::scope(base)`, which would swallow these paths.
pub fn configure(
    cfg: &mut web::ServiceConfig,
    api: OpenApi,
    base_path: &str,
    openapi_3_0: Option<web::Bytes>,
) {
    let json_url = format!("{base_path}/docs/openapi.json");
    let page = Arc::new(DocsPage {
        json: serde_json::to_vec(&api).unwrap_or_default(),
        html: index_html(base_path, &json_url),
    });
    if let Some(bytes) = openapi_3_0 {
        // Before the Swagger UI's `<base>/docs/{file}`, which would answer this path.
        cfg.service(
            web::resource(format!("{base_path}{OPENAPI_3_0_PATH}")).route(web::get().to(
                move || {
                    let bytes = bytes.clone();
                    async move {
                        HttpResponse::Ok()
                            .content_type(OPENAPI_3_0_MEDIA_TYPE)
                            .body(bytes)
                    }
                },
            )),
        );
    }
    cfg.service(
        web::resource(format!("{base_path}/docs"))
            .app_data(web::Data::from(page))
            .route(web::get().to(docs_root)),
    );
    cfg.service(SwaggerUi::new(format!("{base_path}/docs/{{_:.*}}")).url(json_url, api));
}

struct DocsPage {
    json: Vec<u8>,
    html: String,
}

/// The Swagger UI page with a `<base>` element, so its relative links resolve from `<base>/docs`.
fn index_html(base_path: &str, json_url: &str) -> String {
    let config = Arc::new(utoipa_swagger_ui::Config::from(json_url.to_owned()));
    let page = match utoipa_swagger_ui::serve("index.html", config) {
        Ok(Some(file)) => String::from_utf8_lossy(&file.bytes).into_owned(),
        _ => String::new(),
    };
    page.replacen(
        "<head>",
        &format!("<head>\n    <base href=\"{base_path}/docs/\">"),
        1,
    )
}

async fn docs_root(req: HttpRequest, page: web::Data<DocsPage>) -> HttpResponse {
    if wants_json(&req) {
        HttpResponse::Ok()
            .content_type("application/json")
            .body(page.json.clone())
    } else {
        HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .body(page.html.clone())
    }
}

/// `Accept` lists `application/json` (or `*/json`) and does not prefer HTML.
fn wants_json(req: &HttpRequest) -> bool {
    let accept = req
        .headers()
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let html = accept.find("text/html");
    let json = accept.find("/json");
    match (json, html) {
        (Some(_), None) => true,
        (Some(j), Some(h)) => j < h,
        _ => false,
    }
}

/// The `bearer` security scheme (HTTP bearer, JWT) the services' `security(("bearer" = []))`
/// annotations refer to: add it with `modifiers(&service_kit::docs::BearerScheme)`.
pub struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, openapi: &mut OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}
