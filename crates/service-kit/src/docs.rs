//! OpenAPI description and a browsable page under the service's base path.
//!
//! `<base>/docs/openapi.json` serves the utoipa description; `<base>/docs` a Swagger UI whose
//! files are compiled into the binary (utoipa-swagger-ui's `vendored` feature): nothing is
//! fetched from the internet, neither at build time nor when a browser opens the page.

use axum::Router;
use domain::error_code::ErrorCode;
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

/// The docs routes, to be merged at the root (paths include the base path).
pub fn router<S: Clone + Send + Sync + 'static>(api: OpenApi, base_path: &str) -> Router<S> {
    let ui = format!("{base_path}/docs");
    let json = format!("{base_path}/docs/openapi.json");
    Router::new().merge(SwaggerUi::new(ui).url(json, api))
}
