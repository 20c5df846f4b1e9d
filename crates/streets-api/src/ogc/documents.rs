//! The JSON documents of the features API: landing page, conformance, collections. The items
//! and feature answers are written from the read model's bytes (`ogc::items`).

use serde::Serialize;
use utoipa::ToSchema;

/// The one collection.
pub const COLLECTION_ID: &str = "streets";
/// WGS 84 longitude, latitude: the only CRS of Part 1.
pub const CRS84: &str = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
/// The conformance classes claimed.
pub const CONFORMANCE: &[&str] = &[
    "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
    "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
    "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
];

pub const GEOJSON: &str = "application/geo+json";
pub const JSON: &str = "application/json";

/// A link (RFC 8288, as OGC API – Common writes it).
#[derive(Debug, Serialize, ToSchema)]
pub struct Link {
    #[schema(
        example = "http://localhost:8082/api/v1/collections/streets/items?limit=10&offset=10"
    )]
    pub href: String,
    #[schema(example = "next")]
    pub rel: &'static str,
    #[serde(rename = "type")]
    #[schema(example = "application/geo+json")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
}

impl Link {
    pub fn new(href: String, rel: &'static str, kind: &'static str) -> Self {
        Self {
            href,
            rel,
            kind,
            title: None,
        }
    }

    pub fn titled(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }
}

/// The landing page.
#[derive(Debug, Serialize, ToSchema)]
pub struct LandingPage {
    pub title: &'static str,
    pub description: &'static str,
    pub links: Vec<Link>,
}

/// The conformance classes the API implements.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conformance {
    pub conforms_to: Vec<&'static str>,
}

/// The collections (there is one).
#[derive(Debug, Serialize, ToSchema)]
pub struct Collections {
    pub links: Vec<Link>,
    pub collections: Vec<Collection>,
}

/// The streets collection.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    #[schema(example = "streets")]
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    #[schema(example = "feature")]
    pub item_type: &'static str,
    pub crs: Vec<&'static str>,
    /// Absent while there is no street.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extent: Option<Extent>,
    pub links: Vec<Link>,
}

/// The collection's extent.
#[derive(Debug, Serialize, ToSchema)]
pub struct Extent {
    pub spatial: SpatialExtent,
}

/// The bounding box of every street, in CRS84.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpatialExtent {
    /// One box: west, south, east, north.
    #[schema(example = json!([[14.22, 49.94, 14.71, 50.18]]))]
    pub bbox: Vec<[f64; 4]>,
    #[schema(example = "http://www.opengis.net/def/crs/OGC/1.3/CRS84")]
    pub crs: &'static str,
}

/// A page of streets as a GeoJSON FeatureCollection (documentation only: the answer is
/// written from the read model's bytes).
#[derive(ToSchema)]
#[allow(dead_code, non_snake_case)] // only documents the shape
pub struct StreetCollection {
    /// Always `FeatureCollection`.
    r#type: String,
    /// Streets the filters select, over every page.
    numberMatched: u64,
    /// Streets in this page.
    numberReturned: u64,
    /// `self`, and `next` / `prev` while there are further / earlier pages.
    links: Vec<Link>,
    features: Vec<StreetItem>,
}

/// A street as the features API serves it: the feature of `/streets` with the street number
/// (`I_GM_U`) as its GeoJSON `id`.
#[derive(ToSchema)]
#[allow(dead_code)] // only documents the shape
pub struct StreetItem {
    /// The street number, `properties.I_GM_U`.
    #[schema(example = 1234)]
    id: i64,
    /// Database id (never all digits).
    #[schema(example = "0f8fad5b-d9cb-469f-a165-70867728950e")]
    _id: String,
    #[schema(inline, value_type = crate::model::FeatureType)]
    r#type: String,
    properties: crate::model::StreetProperties,
    #[schema(value_type = crate::model::MultiLineString)]
    geometry: String,
    /// Only on a single feature: `self` and `collection`.
    links: Option<Vec<Link>>,
}
