//! The street as stored and as served.

use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

/// A street row: what the store returns.
#[derive(Debug, Clone)]
pub struct Street {
    /// Database id (`_id`), a UUID.
    pub id: String,
    /// `I_GM_U`.
    pub number: i64,
    /// `N_GM_U`.
    pub name: String,
    /// The GeoJSON MultiLineString, serialised once at import.
    pub geojson: String,
}

/// What a street search asks for (already validated).
#[derive(Debug, Clone, PartialEq)]
pub struct StreetQuery {
    pub limit: u32,
    pub offset: u32,
    /// The folded name query (see `domain::text::fold`); `Some("")` matches nothing.
    pub name: Option<String>,
    /// Point and radius in metres.
    pub near: Option<Near>,
}

/// A radius search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    pub point: domain::geo::LonLat,
    pub radius_m: f64,
}

/// A street as the API serves it (spec 2.11).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Street)]
pub struct StreetFeature {
    /// Unique database id (never all digits).
    #[schema(example = "0f8fad5b-d9cb-469f-a165-70867728950e")]
    pub _id: String,
    /// Always `Feature`.
    #[serde(rename = "type")]
    #[schema(inline, value_type = FeatureType)]
    pub kind: &'static str,
    pub properties: StreetProperties,
    #[schema(value_type = MultiLineString)]
    pub geometry: Box<RawValue>,
}

/// The GeoJSON feature type.
#[derive(ToSchema)]
#[allow(dead_code)] // only documents the value
pub enum FeatureType {
    Feature,
}

/// Street properties.
#[derive(Debug, Serialize, ToSchema)]
#[allow(non_snake_case)] // the spec's property names
pub struct StreetProperties {
    /// Street number, unique.
    #[schema(example = 1234)]
    pub I_GM_U: i64,
    /// Street name.
    #[schema(example = "Vinohradská")]
    pub N_GM_U: String,
}

/// A GeoJSON MultiLineString in WGS84: lines of `[longitude, latitude]` positions.
#[derive(ToSchema)]
#[allow(dead_code)] // only documents the shape
pub struct MultiLineString {
    #[schema(inline, value_type = MultiLineStringType)]
    r#type: String,
    #[schema(value_type = Vec<Vec<Vec<f64>>>, example = json!([[[14.4378, 50.0755], [14.4412, 50.0761]]]))]
    coordinates: Vec<Vec<[f64; 2]>>,
}

/// The GeoJSON geometry type.
#[derive(ToSchema)]
#[allow(dead_code)] // only documents the value
pub enum MultiLineStringType {
    MultiLineString,
}

impl StreetFeature {
    /// Builds the served feature; fails only if the stored geometry is not JSON.
    pub fn from_street(street: Street) -> Result<Self, serde_json::Error> {
        Ok(Self {
            _id: street.id,
            kind: "Feature",
            properties: StreetProperties {
                I_GM_U: street.number,
                N_GM_U: street.name,
            },
            geometry: RawValue::from_string(street.geojson)?,
        })
    }
}

/// The GeoJSON text of a MultiLineString.
pub fn multilinestring_json(lines: &[Vec<[f64; 2]>]) -> String {
    serde_json::json!({ "type": "MultiLineString", "coordinates": lines }).to_string()
}
