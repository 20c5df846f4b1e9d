//! HTTP handlers and the OpenAPI description of streets-api.

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::geo::LonLat;
use domain::i18n::Message;
use domain::limits::{self, LimitError, Page, STREETS_RADIUS_DEFAULT_M, STREETS_RADIUS_MAX_M};
use serde::Deserialize;
use service_kit::extract::{Path, Query};
use service_kit::http::cache::{HttpCache, HttpCacheSettings};
use service_kit::http::ConfigureApi;
use service_kit::{ApiError, ErrorBody};
use std::sync::Arc;
use utoipa::{IntoParams, OpenApi};

use crate::model::{Near, StreetFeature, StreetQuery};
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
                .service(web::resource("/streets").route(web::get().to(list_streets)))
                .service(web::resource("/streets/{street_id}").route(web::get().to(get_street)));
            crate::ogc::configure(cfg, features.clone());
        }));
    })
}

/// Every read of the API, all public (the streets are open data): browsers and the reverse
/// proxy may keep their answers for `http_cache.max_age_seconds`. The features API negotiates
/// its media type from `Accept`, so answers vary by it too.
pub fn http_cache(settings: &HttpCacheSettings, base_path: &str) -> HttpCache {
    HttpCache::new(settings, base_path, PUBLIC_GETS, &[]).varying_also("Accept")
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
        list_streets,
        get_street,
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
pub struct ApiDoc;

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

/// Query parameters of `GET /streets`; all optional. Values arrive as text and are validated
/// here so every malformed or out-of-range value gets a 400 naming the parameter.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreetsParams {
    /// Page size.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100, default = 100)]
    limit: Option<String>,
    /// Streets to skip.
    #[param(value_type = Option<i32>, minimum = 0, maximum = 1000, default = 0)]
    offset: Option<String>,
    /// Street name search ignoring case and diacritics; matches the start of the name or of any
    /// word in it. Best matches first: whole name, then name prefix, then word prefix.
    #[param(value_type = Option<String>, min_length = 1, max_length = 200, example = "spel")]
    q: Option<String>,
    /// Longitude (WGS84) of the search point; needs `latitude`.
    #[param(value_type = Option<f64>, minimum = -180, maximum = 180, example = 14.4378)]
    longitude: Option<String>,
    /// Latitude (WGS84) of the search point; needs `longitude`.
    #[param(value_type = Option<f64>, minimum = -90, maximum = 90, example = 50.0755)]
    latitude: Option<String>,
    /// Search radius in metres around the point (true metres on the WGS84 ellipsoid); only with
    /// a point. Streets whose geometry comes within the radius are returned, nearest first.
    #[param(value_type = Option<f64>, exclusive_minimum = 0, maximum = 5000, default = 100)]
    radius: Option<String>,
}

impl StreetsParams {
    fn to_query(&self) -> Result<StreetQuery, LimitError> {
        let page = Page::parse(self.limit.as_deref(), self.offset.as_deref())?;
        let name = limits::parse_q(self.q.as_deref())?.map(domain::text::fold);
        let lon = limits::parse_f64_in("longitude", self.longitude.as_deref(), -180.0, 180.0)?;
        let lat = limits::parse_f64_in("latitude", self.latitude.as_deref(), -90.0, 90.0)?;
        let radius =
            limits::parse_f64_in("radius", self.radius.as_deref(), 0.0, STREETS_RADIUS_MAX_M)?;
        if radius == Some(0.0) {
            return Err(LimitError::new("radius", Message::new("radius-positive")));
        }
        let near = match (lon, lat) {
            (Some(lon), Some(lat)) => {
                let point =
                    LonLat::new(lon, lat).map_err(|e| LimitError::new("longitude", e.message()))?;
                Some(Near {
                    point,
                    radius_m: radius.unwrap_or(STREETS_RADIUS_DEFAULT_M),
                })
            }
            (None, None) if radius.is_some() => {
                return Err(LimitError::new(
                    "radius",
                    Message::new("radius-needs-point"),
                ));
            }
            (None, None) => None,
            (Some(_), None) => {
                return Err(LimitError::new(
                    "latitude",
                    Message::new("longitude-needs-latitude"),
                ))
            }
            (None, Some(_)) => {
                return Err(LimitError::new(
                    "longitude",
                    Message::new("latitude-needs-longitude"),
                ))
            }
        };
        Ok(StreetQuery {
            limit: page.limit,
            offset: page.offset,
            name,
            near,
        })
    }
}

/// A 200 answer with an already serialised JSON body.
fn json(body: actix_web::web::Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(body)
}

/// List or search streets.
///
/// Without parameters: every street, ordered by street number. With `q`: streets whose name
/// (ignoring case and diacritics) starts with `q` or has a word starting with `q`. With
/// `longitude` and `latitude`: streets within `radius` metres of the point, nearest first. The
/// filters combine.
#[utoipa::path(
    get,
    path = "/streets",
    tag = "streets",
    operation_id = "listStreets",
    params(StreetsParams),
    responses(
        (status = 200, description = "Street features (possibly none)", body = [StreetFeature]),
        (status = 400, description = "`VALIDATION_ERROR`: a parameter is malformed or out of range, or only one of longitude/latitude", body = ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`: the database cannot be reached", body = ErrorBody),
    )
)]
#[tracing::instrument(name = "list_streets", skip_all)]
pub async fn list_streets(
    store: web::Data<dyn StreetStore>,
    Query(params): Query<StreetsParams>,
) -> Result<HttpResponse, ApiError> {
    let query = params.to_query()?;
    let body = store
        .find_streets_json(&query)
        .await
        .map_err(ApiError::storage)?;
    Ok(json(body))
}

/// One street by database id or street number.
///
/// An all-digit `streetId` is the street number (`I_GM_U`); anything else is the database id
/// (`_id`).
#[utoipa::path(
    get,
    path = "/streets/{streetId}",
    tag = "streets",
    operation_id = "getStreet",
    params(("streetId" = String, Path, description = "Database id, or street number (I_GM_U) when all digits", min_length = 1, max_length = 100)),
    responses(
        (status = 200, description = "The street", body = StreetFeature),
        (status = 404, description = "`STREET_NOT_FOUND`", body = ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`: the database cannot be reached", body = ErrorBody),
    )
)]
#[tracing::instrument(name = "get_street", skip(store))]
pub async fn get_street(
    store: web::Data<dyn StreetStore>,
    street_id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let street_id = street_id.into_inner();
    let not_found = || {
        ApiError::new(
            ErrorCode::StreetNotFound,
            Message::new("street-not-found").arg("id", &street_id),
        )
    };
    let found = if !street_id.is_empty() && street_id.bytes().all(|b| b.is_ascii_digit()) {
        match street_id.parse::<i64>() {
            Ok(number) => store.street_by_number(number).await,
            Err(_) => return Err(not_found()),
        }
    } else {
        store.street_by_id(&street_id).await
    };
    let street = found.map_err(ApiError::storage)?.ok_or_else(not_found)?;
    Ok(json(street.into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> StreetsParams {
        let qs = serde_urlencoded::to_string(pairs).unwrap();
        serde_urlencoded::from_str(&qs).unwrap()
    }

    #[test]
    fn point_needs_both_coordinates_and_radius_needs_a_point() {
        assert_eq!(
            params(&[("longitude", "14")])
                .to_query()
                .unwrap_err()
                .parameter,
            "latitude"
        );
        assert_eq!(
            params(&[("latitude", "50")])
                .to_query()
                .unwrap_err()
                .parameter,
            "longitude"
        );
        assert_eq!(
            params(&[("radius", "10")])
                .to_query()
                .unwrap_err()
                .parameter,
            "radius"
        );
        let q = params(&[("longitude", "14"), ("latitude", "50")])
            .to_query()
            .unwrap();
        assert_eq!(q.near.unwrap().radius_m, 100.0);
    }

    #[test]
    fn radius_edges() {
        let at =
            |r: &str| params(&[("longitude", "14"), ("latitude", "50"), ("radius", r)]).to_query();
        assert_eq!(at("5000").unwrap().near.unwrap().radius_m, 5000.0);
        assert!(at("0.001").is_ok());
        assert_eq!(at("0").unwrap_err().parameter, "radius");
        assert_eq!(at("5000.0001").unwrap_err().parameter, "radius");
        assert_eq!(at("-1").unwrap_err().parameter, "radius");
    }

    #[test]
    fn q_is_folded() {
        let q = params(&[("q", "SPÉL")]).to_query().unwrap();
        assert_eq!(q.name.as_deref(), Some("spel"));
        assert_eq!(params(&[("q", "")]).to_query().unwrap_err().parameter, "q");
    }
}
