//! OGC API – Features Part 1 (Core, GeoJSON, OpenAPI 3.0) beside the seed's `/streets`, under
//! the same base path: `/` (landing page), `/conformance`, `/collections`,
//! `/collections/streets`, `/collections/streets/items` and `/collections/streets/items/{id}`.
//! GIS clients (QGIS, GDAL's OAPIF driver, OWSLib) open the streets from here.
//!
//! Items come from the same store as `/streets` (the replica's read model, else the
//! database), by street number; a feature is the one `/streets` serves with the street
//! number as its GeoJSON `id`. Links are absolute, under `http.public_url` (else the
//! listener's address), never a client's `Forwarded` / `X-Forwarded-*` unless an operator
//! trusts the proxy's (`http.trust_forwarded_headers`; service_kit::http::links).

pub mod documents;
pub mod params;

use actix_web::http::header::ACCEPT;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::docs::{OPENAPI_3_0_MEDIA_TYPE, OPENAPI_3_0_PATH};
use service_kit::extract::Path;
use service_kit::http::links::PublicBase;
use service_kit::{ApiError, ErrorBody};
use std::sync::Arc;
use utoipa::IntoResponses;

use crate::store::StreetStore;
use documents::{
    Collection, Collections, Conformance, Extent, LandingPage, Link, SpatialExtent,
    StreetCollection, StreetItem, COLLECTION_ID, CONFORMANCE, CRS84, GEOJSON, JSON,
};
pub use params::FeaturesSettings;
use params::{FormatParam, ItemsParams};
use service_kit::docs::responses::DatabaseUnavailable;

/// What the handlers need besides the store.
pub struct FeaturesConfig {
    pub settings: FeaturesSettings,
    /// The absolute URL of the base path, which every link starts with.
    pub public: PublicBase,
}

/// Registers the features API's routes (inside the base path's scope).
pub fn configure(cfg: &mut web::ServiceConfig, config: Arc<FeaturesConfig>) {
    cfg.app_data(web::Data::from(config))
        .service(web::resource("").route(web::get().to(landing_page)))
        .service(web::resource("/").route(web::get().to(landing_page)))
        .service(web::resource("/conformance").route(web::get().to(conformance)))
        .service(web::resource("/collections").route(web::get().to(collections)))
        .service(web::resource("/collections/{collectionId}").route(web::get().to(collection)))
        .service(web::resource("/collections/{collectionId}/items").route(web::get().to(items)))
        .service(
            web::resource("/collections/{collectionId}/items/{featureId}")
                .route(web::get().to(item)),
        );
}

/// The absolute URL of the base path ([`PublicBase`]).
fn base_url(req: &HttpRequest, config: &FeaturesConfig) -> String {
    config.public.url(req).into_owned()
}

/// The media type of a feature answer: GeoJSON, or plain JSON for a client that asks for
/// `application/json` and not for GeoJSON.
fn feature_media_type(req: &HttpRequest) -> &'static str {
    let accept = req
        .headers()
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !accept.contains(GEOJSON) && accept.contains(JSON) {
        JSON
    } else {
        GEOJSON
    }
}

/// A 200 answer with a feature or a page of them ([`feature_media_type`]).
fn feature_answer(req: &HttpRequest, body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(feature_media_type(req))
        .body(body)
}

fn json_document(body: &impl serde::Serialize) -> Result<HttpResponse, ApiError> {
    let bytes = serde_json::to_vec(body).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok().content_type(JSON).body(bytes))
}

fn check_collection(id: &str) -> Result<(), ApiError> {
    if id == COLLECTION_ID {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::NotFound,
            Message::new("invalid-path")
                .arg("field", "collectionId")
                .arg(
                    "reason",
                    format!("there is no collection {id:?}; the one collection is streets"),
                ),
        ))
    }
}

/// 400 `VALIDATION_ERROR` of a route whose only parameter is `f`.
#[derive(IntoResponses)]
#[response(
    status = 400,
    description = "`VALIDATION_ERROR`: an unknown parameter or an unsupported `f`"
)]
pub struct UnknownParameter(pub ErrorBody);

/// 404 `NOT_FOUND` of a route under `/collections/{collectionId}` ([`check_collection`]).
#[derive(IntoResponses)]
#[response(status = 404, description = "`NOT_FOUND`: no such collection")]
pub struct NoSuchCollection(pub ErrorBody);

/// The landing page of the features API (OGC API – Features).
///
/// Links to the API description, the conformance declaration and the collections.
#[utoipa::path(
    get,
    path = "/",
    tag = "features",
    operation_id = "getLandingPage",
    params(FormatParam),
    responses(
        (status = 200, description = "The landing page", body = LandingPage),
        UnknownParameter,
    )
)]
pub async fn landing_page(
    req: HttpRequest,
    config: web::Data<FeaturesConfig>,
) -> Result<HttpResponse, ApiError> {
    params::check_common(req.query_string())?;
    let base = base_url(&req, &config);
    json_document(&LandingPage {
        title: "Streets of the city",
        description: "The city's street geometries as open data (OGC API – Features).",
        links: vec![
            Link::new(format!("{base}/"), "self", JSON).titled("This document"),
            // OpenAPI 3.0 (the oas30 class); `/docs/openapi.json` is the same API in 3.1.
            Link::new(
                format!("{base}{OPENAPI_3_0_PATH}"),
                "service-desc",
                OPENAPI_3_0_MEDIA_TYPE,
            )
            .titled("The API definition"),
            Link::new(format!("{base}/docs/"), "service-doc", "text/html")
                .titled("The API documentation"),
            Link::new(format!("{base}/conformance"), "conformance", JSON)
                .titled("Conformance classes implemented"),
            Link::new(format!("{base}/collections"), "data", JSON).titled("The collections"),
        ],
    })
}

/// The conformance classes implemented (Core, GeoJSON, OpenAPI 3.0).
#[utoipa::path(
    get,
    path = "/conformance",
    tag = "features",
    operation_id = "getConformanceDeclaration",
    params(FormatParam),
    responses(
        (status = 200, description = "The conformance classes", body = Conformance),
        UnknownParameter,
    )
)]
pub async fn conformance(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    params::check_common(req.query_string())?;
    json_document(&Conformance {
        conforms_to: CONFORMANCE.to_vec(),
    })
}

/// The streets collection's document, with its extent from the data.
async fn collection_document(
    req: &HttpRequest,
    store: &dyn StreetStore,
    config: &FeaturesConfig,
) -> Result<Collection, ApiError> {
    let extent = store.dataset_extent().await.map_err(ApiError::storage)?;
    let url = format!("{}/collections/{COLLECTION_ID}", base_url(req, config));
    Ok(Collection {
        id: COLLECTION_ID,
        title: "Streets",
        description: "Street centre lines of the city with their number (I_GM_U) and name \
                      (N_GM_U); filter by name with ?name=",
        item_type: "feature",
        crs: vec![CRS84],
        extent: extent.map(|bbox| Extent {
            spatial: SpatialExtent {
                bbox: vec![bbox],
                crs: CRS84,
            },
        }),
        links: vec![
            Link::new(url.clone(), "self", JSON).titled("This collection"),
            Link::new(format!("{url}/items"), "items", GEOJSON).titled("The streets"),
        ],
    })
}

/// The collections: one, the streets.
#[utoipa::path(
    get,
    path = "/collections",
    tag = "features",
    operation_id = "getCollections",
    params(FormatParam),
    responses(
        (status = 200, description = "The collections", body = Collections),
        UnknownParameter,
        DatabaseUnavailable,
    )
)]
pub async fn collections(
    req: HttpRequest,
    store: web::Data<dyn StreetStore>,
    config: web::Data<FeaturesConfig>,
) -> Result<HttpResponse, ApiError> {
    params::check_common(req.query_string())?;
    let streets = collection_document(&req, store.as_ref(), &config).await?;
    json_document(&Collections {
        links: vec![Link::new(
            format!("{}/collections", base_url(&req, &config)),
            "self",
            JSON,
        )],
        collections: vec![streets],
    })
}

/// The streets collection, with its extent from the data.
#[utoipa::path(
    get,
    path = "/collections/{collectionId}",
    tag = "features",
    operation_id = "describeCollection",
    params(("collectionId" = String, Path, description = "`streets`, the one collection", example = "streets"), FormatParam),
    responses(
        (status = 200, description = "The collection", body = Collection),
        UnknownParameter,
        NoSuchCollection,
        DatabaseUnavailable,
    )
)]
pub async fn collection(
    req: HttpRequest,
    collection_id: Path<String>,
    store: web::Data<dyn StreetStore>,
    config: web::Data<FeaturesConfig>,
) -> Result<HttpResponse, ApiError> {
    check_collection(&collection_id)?;
    params::check_common(req.query_string())?;
    json_document(&collection_document(&req, store.as_ref(), &config).await?)
}

/// The streets, a page at a time, by street number.
///
/// A GeoJSON FeatureCollection with `numberMatched`, `numberReturned` and `next` / `prev`
/// links that carry the same filters. Unknown parameters are refused.
#[utoipa::path(
    get,
    path = "/collections/{collectionId}/items",
    tag = "features",
    operation_id = "getFeatures",
    params(("collectionId" = String, Path, description = "`streets`, the one collection", example = "streets"), ItemsParams),
    responses(
        (status = 200, description = "A page of streets", content(
            (StreetCollection = "application/geo+json"),
            (StreetCollection = "application/json")
        )),
        (status = 400, description = "`VALIDATION_ERROR`: a parameter is unknown, repeated, malformed or out of range", body = ErrorBody),
        NoSuchCollection,
        DatabaseUnavailable,
    )
)]
pub async fn items(
    req: HttpRequest,
    collection_id: Path<String>,
    store: web::Data<dyn StreetStore>,
    config: web::Data<FeaturesConfig>,
) -> Result<HttpResponse, ApiError> {
    check_collection(&collection_id)?;
    let request = params::items(req.query_string(), config.settings)?;
    let page = store
        .collection_items(&request.query)
        .await
        .map_err(ApiError::storage)?;
    let query = &request.query;
    let url = format!(
        "{}/collections/{COLLECTION_ID}/items",
        base_url(&req, &config)
    );
    let link = |rel: &'static str, offset: u64| -> Result<Link, ApiError> {
        let mut pairs: Vec<(&str, String)> = vec![
            ("limit", query.limit.to_string()),
            ("offset", offset.to_string()),
        ];
        pairs.extend(request.filters.iter().map(|(n, v)| (*n, v.clone())));
        let qs = serde_urlencoded::to_string(&pairs).map_err(ApiError::internal)?;
        Ok(Link::new(format!("{url}?{qs}"), rel, GEOJSON))
    };
    let (offset, limit) = (u64::from(query.offset), u64::from(query.limit));
    let mut links = vec![link("self", offset)?];
    if offset + u64::from(page.returned) < page.matched {
        links.push(link("next", offset + limit)?);
    }
    if offset > 0 {
        links.push(link("prev", offset.saturating_sub(limit))?);
    }
    let links = serde_json::to_vec(&links).map_err(ApiError::internal)?;
    let mut body = Vec::with_capacity(page.features.len() + links.len() + 128);
    body.extend_from_slice(b"{\"type\":\"FeatureCollection\",\"numberMatched\":");
    body.extend_from_slice(page.matched.to_string().as_bytes());
    body.extend_from_slice(b",\"numberReturned\":");
    body.extend_from_slice(page.returned.to_string().as_bytes());
    body.extend_from_slice(b",\"links\":");
    body.extend_from_slice(&links);
    body.extend_from_slice(b",\"features\":[");
    body.extend_from_slice(&page.features);
    body.extend_from_slice(b"]}");
    Ok(feature_answer(&req, body))
}

/// One street by its number (the feature's `id`).
#[utoipa::path(
    get,
    path = "/collections/{collectionId}/items/{featureId}",
    tag = "features",
    operation_id = "getFeature",
    params(
        ("collectionId" = String, Path, description = "`streets`, the one collection", example = "streets"),
        ("featureId" = String, Path, description = "The street number (I_GM_U), the feature's `id`", example = "1001"),
        FormatParam,
    ),
    responses(
        (status = 200, description = "The street, with `self` and `collection` links", content(
            (StreetItem = "application/geo+json"),
            (StreetItem = "application/json")
        )),
        UnknownParameter,
        (status = 404, description = "`NOT_FOUND`: no such collection; `STREET_NOT_FOUND`: no such street", body = ErrorBody),
        DatabaseUnavailable,
    )
)]
pub async fn item(
    req: HttpRequest,
    path: Path<(String, String)>,
    store: web::Data<dyn StreetStore>,
    config: web::Data<FeaturesConfig>,
) -> Result<HttpResponse, ApiError> {
    let (collection_id, feature_id) = path.into_inner();
    check_collection(&collection_id)?;
    params::check_common(req.query_string())?;
    let not_found = || {
        ApiError::new(
            ErrorCode::StreetNotFound,
            Message::new("street-not-found").arg("id", &feature_id),
        )
    };
    let number: i64 = feature_id
        .parse()
        .ok()
        .filter(|_| feature_id.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
        .ok_or_else(not_found)?;
    let feature = store
        .street_by_number(number)
        .await
        .map_err(ApiError::storage)?
        .ok_or_else(not_found)?;
    let collection = format!("{}/collections/{COLLECTION_ID}", base_url(&req, &config));
    let links = serde_json::to_vec(&[
        Link::new(format!("{collection}/items/{number}"), "self", GEOJSON),
        Link::new(collection, "collection", JSON),
    ])
    .map_err(ApiError::internal)?;
    let with_id = feature.with_id(number);
    // `{"id":N,…}` with `"links":[…]` as its last member.
    let mut body = Vec::with_capacity(with_id.len() + links.len() + 16);
    body.extend_from_slice(
        with_id
            .get(..with_id.len().saturating_sub(1))
            .unwrap_or_default(),
    );
    body.extend_from_slice(b",\"links\":");
    body.extend_from_slice(&links);
    body.push(b'}');
    Ok(feature_answer(&req, body))
}
