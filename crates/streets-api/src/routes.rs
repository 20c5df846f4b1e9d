//! HTTP routes of streets-api (relative to the base path `/api/v1`) and the OpenAPI description:
//! the seed's `/streets` here, the features API beside them (`crate::ogc`).

mod detail;
mod list;

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use service_kit::http::cache::{HttpCache, HttpCacheSettings};
use service_kit::http::links::PublicBase;
use service_kit::http::ConfigureApi;
use service_kit::ErrorBody;
use std::sync::Arc;
use utoipa::OpenApi;

use crate::model::StreetFeature;
use crate::ogc::{self, FeaturesConfig};
use crate::store::StreetStore;

/// The routes under the base path: the seed's `/streets`, and the features API beside them
/// (`crate::ogc`).
pub fn configure(
    store: Arc<dyn StreetStore>,
    features: Arc<FeaturesConfig>,
    cache: HttpCache,
) -> ConfigureApi {
    Arc::new(move |cfg: &mut web::ServiceConfig| {
        let store = store.clone();
        let features = features.clone();
        cfg.service(web::scope("").wrap(cache.clone()).configure(move |cfg| {
            cfg.app_data(web::Data::from(store.clone()))
                .service(web::resource("/streets").route(web::get().to(list::list_streets)))
                .service(
                    web::resource("/streets/{street_id}").route(web::get().to(detail::get_street)),
                );
            crate::ogc::configure(cfg, features.clone());
        }));
    })
}

/// Every read of the API, all public (the streets are open data): browsers and the reverse
/// proxy may keep their answers for `http_cache.max_age_seconds`. The features API negotiates
/// its media type from `Accept`, so answers vary by it too, and by the proxy's headers where
/// its links are built from them (`http.trust_forwarded_headers`).
pub fn http_cache(settings: &HttpCacheSettings, base_path: &str, links: &PublicBase) -> HttpCache {
    let vary = match links.vary() {
        Some(forwarded) => format!("Accept, {forwarded}"),
        None => "Accept".to_owned(),
    };
    HttpCache::new(settings, base_path, PUBLIC_GETS, &[]).varying_also(&vary)
}

/// The route patterns of [`http_cache`] (relative to the base path).
pub const PUBLIC_GETS: &[&str] = &[
    "/streets",
    "/streets/{street_id}",
    "",
    "/",
    "/conformance",
    "/collections",
    "/collections/{collectionId}",
    "/collections/{collectionId}/items",
    "/collections/{collectionId}/items/{featureId}",
];

/// The OpenAPI description (before `service_kit::docs::finalize`).
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Streets API",
        version = "1.0.0",
        description = "Public, read-only street geometries of the city as GeoJSON features in WGS84 \
                       (EPSG:4326, coordinates longitude then latitude). No authentication. \
                       The same streets as an OGC API – Features collection for GIS clients \
                       (QGIS, GDAL, OWSLib): start at the landing page `/`."
    ),
    paths(
        list::list_streets,
        detail::get_street,
        ogc::landing_page,
        ogc::conformance,
        ogc::collections,
        ogc::collection,
        ogc::items,
        ogc::item
    ),
    components(schemas(StreetFeature, ErrorBody)),
    tags(
        (name = "streets", description = "Street geometries"),
        (name = "features", description = "OGC API – Features Part 1: the streets collection")
    )
)]
struct ApiDoc;

/// Error names this service answers with.
pub const ERROR_CODES: &[ErrorCode] = &[
    ErrorCode::ValidationError,
    ErrorCode::NotFound,
    ErrorCode::MethodNotAllowed,
    ErrorCode::RequestTimeout,
    ErrorCode::InternalError,
    ErrorCode::ServiceUnavailable,
    ErrorCode::StreetNotFound,
];

/// The OpenAPI description of this service.
pub fn openapi(base_path: &str) -> utoipa::openapi::OpenApi {
    service_kit::docs::finalize(ApiDoc::openapi(), base_path, ERROR_CODES)
}

/// A 200 answer with an already serialised JSON body.
fn json(body: web::Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(body)
}
