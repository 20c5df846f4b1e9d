//! The street as stored and as served.

use actix_web::web::Bytes;
use domain::text::Search;
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::store::bbox::BoxFilter;

/// A street as read from the database for the read model: everything a replica serves and
/// searches by.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredStreet {
    /// Database id (`_id`), a UUID.
    pub id: String,
    /// `I_GM_U`.
    pub number: i64,
    /// `N_GM_U`.
    pub name: String,
    /// The name folded for search (`domain::text::fold`).
    pub name_folded: String,
    /// The geometry: lines of `[lon, lat]` in WGS84.
    pub lines: Vec<Vec<[f64; 2]>>,
}

/// A street as the API serves it: its GeoJSON feature, serialised once. A list answer is the
/// concatenation of its features.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature(Bytes);

impl Feature {
    /// The feature of a street whose geometry is given as lines.
    pub fn from_lines(
        id: &str,
        number: i64,
        name: &str,
        lines: &[Vec<[f64; 2]>],
    ) -> Result<Self, serde_json::Error> {
        let mut out = Vec::with_capacity(160 + lines.iter().map(Vec::len).sum::<usize>() * 40);
        write_feature(&mut out, id, number, name, lines)?;
        Ok(Self(out.into()))
    }

    /// The feature of a street whose geometry is stored as GeoJSON text.
    pub fn from_geojson(
        id: &str,
        number: i64,
        name: &str,
        geojson: &str,
    ) -> Result<Self, serde_json::Error> {
        let geometry: &RawValue = serde_json::from_str(geojson)?;
        let mut out = Vec::with_capacity(160 + geojson.len());
        serde_json::to_writer(&mut out, &FeatureOut::new(id, number, name, geometry))?;
        Ok(Self(out.into()))
    }

    /// A feature already serialised (a slice of the read model's buffer).
    pub(crate) fn from_bytes(bytes: Bytes) -> Self {
        Self(bytes)
    }

    /// The JSON text.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The JSON text, without copying.
    pub fn into_bytes(self) -> Bytes {
        self.0
    }

    /// The feature as the features API serves it: the same object with the street number as
    /// its GeoJSON `id` in front (`{"id":N,` followed by the rest of the object).
    pub fn with_id(&self, number: i64) -> Bytes {
        let mut out = Vec::with_capacity(self.0.len() + 24);
        write_with_id(&mut out, number, &self.0);
        out.into()
    }

    /// A JSON array of features, as one buffer.
    pub fn array(features: &[Feature]) -> Bytes {
        let len = features.iter().map(|f| f.0.len() + 1).sum::<usize>() + 2;
        let mut out = Vec::with_capacity(len);
        out.push(b'[');
        for (i, feature) in features.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&feature.0);
        }
        out.push(b']');
        out.into()
    }
}

/// Appends a street's feature to `out`: the same JSON as [`StreetFeature`] serialises to.
pub(crate) fn write_feature(
    out: &mut Vec<u8>,
    id: &str,
    number: i64,
    name: &str,
    lines: &[Vec<[f64; 2]>],
) -> Result<(), serde_json::Error> {
    let geometry = GeometryOut {
        coordinates: lines,
        kind: "MultiLineString",
    };
    serde_json::to_writer(out, &FeatureOut::new(id, number, name, geometry))
}

/// Appends a feature's JSON (`{"_id":…}`) to `out` with `"id":number` as its first member.
pub(crate) fn write_with_id(out: &mut Vec<u8>, number: i64, feature: &[u8]) {
    out.extend_from_slice(b"{\"id\":");
    out.extend_from_slice(number.to_string().as_bytes());
    out.push(b',');
    out.extend_from_slice(feature.get(1..).unwrap_or_default());
}

/// A feature borrowed from its parts, serialised in the field order of [`StreetFeature`].
#[derive(Serialize)]
struct FeatureOut<'a, G> {
    _id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    properties: PropertiesOut<'a>,
    geometry: G,
}

#[derive(Serialize)]
#[allow(non_snake_case)] // the spec's property names
struct PropertiesOut<'a> {
    I_GM_U: i64,
    N_GM_U: &'a str,
}

/// The geometry, keys in the order of the GeoJSON text SQLite stores (serde_json's sorted map),
/// so both forms of a feature are the same bytes.
#[derive(Serialize)]
struct GeometryOut<'a> {
    coordinates: &'a [Vec<[f64; 2]>],
    #[serde(rename = "type")]
    kind: &'static str,
}

impl<'a, G> FeatureOut<'a, G> {
    fn new(id: &'a str, number: i64, name: &'a str, geometry: G) -> Self {
        Self {
            _id: id,
            kind: "Feature",
            properties: PropertiesOut {
                I_GM_U: number,
                N_GM_U: name,
            },
            geometry,
        }
    }
}

/// What a street search asks for (already validated).
#[derive(Debug, Clone, PartialEq)]
pub struct StreetQuery {
    pub limit: u32,
    pub offset: u32,
    /// The name query (`q`), folded; [`Search::Nothing`] matches no street.
    pub name: Option<Search>,
    /// Point and radius in metres.
    pub near: Option<Near>,
}

impl StreetQuery {
    /// Whether the name query folded to nothing, so that no street matches.
    pub fn matches_nothing(&self) -> bool {
        matches!(self.name, Some(Search::Nothing))
    }

    /// The folded name to filter on, if any.
    pub fn name_text(&self) -> Option<&str> {
        self.name.as_ref().and_then(Search::folded)
    }
}

/// What a features API items request asks for (already validated): streets by number,
/// `offset` skipped, at most `limit`, filtered by box and by folded name.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemsQuery {
    pub limit: u32,
    pub offset: u32,
    pub bbox: Option<BoxFilter>,
    /// Streets whose folded name equals this.
    pub name: Option<String>,
}

/// One page of a features API items answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemsPage {
    /// How many streets the filters select, over every page.
    pub matched: u64,
    /// How many features `features` holds.
    pub returned: u32,
    /// The features of the page as the features API serves them ([`Feature::with_id`]),
    /// separated by commas: the inside of a JSON array.
    pub features: Vec<u8>,
}

impl ItemsPage {
    /// Appends a street's feature to the page.
    pub(crate) fn push(&mut self, number: i64, feature: &[u8]) {
        if self.returned > 0 {
            self.features.push(b',');
        }
        write_with_id(&mut self.features, number, feature);
        self.returned += 1;
    }
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

/// The GeoJSON text of a MultiLineString.
pub fn multilinestring_json(lines: &[Vec<[f64; 2]>]) -> String {
    serde_json::json!({ "type": "MultiLineString", "coordinates": lines }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_is_the_spec_shape_in_either_form() {
        let lines = vec![vec![[14.42, 50.07], [14.43, 50.071]]];
        let from_lines = Feature::from_lines("a-b", 11, "Žitná \"x\"", &lines).unwrap();
        let text = multilinestring_json(&lines);
        let from_text = Feature::from_geojson("a-b", 11, "Žitná \"x\"", &text).unwrap();
        assert_eq!(from_lines, from_text);
        let value: serde_json::Value = serde_json::from_slice(from_lines.as_bytes()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"_id": "a-b", "type": "Feature",
                "properties": {"I_GM_U": 11, "N_GM_U": "Žitná \"x\""},
                "geometry": {"type": "MultiLineString", "coordinates": [[[14.42, 50.07], [14.43, 50.071]]]}})
        );
        let array = Feature::array(&[from_lines.clone(), from_lines]);
        let value: serde_json::Value = serde_json::from_slice(&array).unwrap();
        assert_eq!(value.as_array().unwrap().len(), 2);
        assert_eq!(&Feature::array(&[])[..], b"[]");
    }
}
