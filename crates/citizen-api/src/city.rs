//! The city's territory (`city.boundary_file`): read once at start-up, checked by
//! [`domain::territory`], served by `GET /geo/boundary`.
//!
//! The file is GeoJSON in WGS84: a Polygon or MultiPolygon geometry, or a Feature or
//! FeatureCollection of them (every polygon of a collection is part of the territory). The
//! boundary is served as one `MultiPolygon` geometry, whatever the file's shape.

use std::path::Path;

use anyhow::{bail, Context as _};
use domain::geo::LonLat;
use domain::territory::{Rings, Territory};
use serde::Deserialize;
use serde_json::Value;

/// `city.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CitySettings {
    /// GeoJSON file of the city's territory (Polygon, MultiPolygon, or a Feature or
    /// FeatureCollection of them, WGS84). Empty: the bundled demo boundary (a rough outline of
    /// Prague), for local use only.
    pub boundary_file: String,
}

/// The bundled demo boundary.
const DEMO_BOUNDARY: &str = include_str!("../demo/boundary.geojson");

/// The checked territory and its GeoJSON geometry.
#[derive(Debug, Clone)]
pub struct City {
    territory: Territory,
    /// `{"type": "MultiPolygon", "coordinates": …}`, serialised once.
    boundary_json: String,
}

impl City {
    /// Reads `city.boundary_file` (or the demo boundary); the error names the file and the fault.
    pub fn load(settings: &CitySettings) -> anyhow::Result<Self> {
        if settings.boundary_file.is_empty() {
            tracing::warn!("city.boundary_file is empty: using the bundled demo boundary (Prague)");
            return Self::from_geojson(DEMO_BOUNDARY).context("the bundled demo boundary");
        }
        let path = Path::new(&settings.boundary_file);
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("city.boundary_file {}: cannot read it", path.display()))?;
        Self::from_geojson(&text).with_context(|| format!("city.boundary_file {}", path.display()))
    }

    /// Builds the city from GeoJSON text.
    pub fn from_geojson(text: &str) -> anyhow::Result<Self> {
        let value: Value = serde_json::from_str(text).context("not JSON")?;
        let mut polygons = Vec::new();
        collect(&value, &mut polygons)?;
        let territory = Territory::new(&polygons)?;
        let boundary_json = serde_json::json!({
            "type": "MultiPolygon",
            "coordinates": polygons,
        })
        .to_string();
        Ok(Self {
            territory,
            boundary_json,
        })
    }

    /// Whether `point` lies inside the territory (a point on the boundary does).
    pub fn contains(&self, point: LonLat) -> bool {
        self.territory.contains(point)
    }

    /// The territory as a GeoJSON MultiPolygon geometry.
    pub fn boundary_json(&self) -> &str {
        &self.boundary_json
    }
}

/// Appends the polygons of a GeoJSON object.
fn collect(value: &Value, out: &mut Vec<Rings>) -> anyhow::Result<()> {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "FeatureCollection" => {
            let features = value
                .get("features")
                .and_then(Value::as_array)
                .context("a FeatureCollection needs a features array")?;
            for (i, feature) in features.iter().enumerate() {
                collect(feature, out).with_context(|| format!("feature {i}"))?;
            }
        }
        "Feature" => {
            let geometry = value
                .get("geometry")
                .context("a Feature needs a geometry")?;
            collect(geometry, out)?;
        }
        "Polygon" => out.push(rings(coordinates(value)?)?),
        "MultiPolygon" => {
            let polygons = coordinates(value)?
                .as_array()
                .context("MultiPolygon coordinates must be an array of polygons")?;
            for polygon in polygons {
                out.push(rings(polygon)?);
            }
        }
        other => bail!("a {other:?} is not a territory: expected Polygon, MultiPolygon, Feature or FeatureCollection"),
    }
    Ok(())
}

fn coordinates(value: &Value) -> anyhow::Result<&Value> {
    value
        .get("coordinates")
        .context("a geometry needs coordinates")
}

fn rings(polygon: &Value) -> anyhow::Result<Rings> {
    let rings: Rings = serde_json::from_value(polygon.clone())
        .context("polygon coordinates must be arrays of [longitude, latitude] positions")?;
    Ok(rings)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    const SQUARE: &str =
        r#"{"type":"Polygon","coordinates":[[[14,50],[15,50],[15,51],[14,51],[14,50]]]}"#;

    #[test]
    fn every_accepted_shape_gives_the_same_territory() {
        let feature = format!(r#"{{"type":"Feature","properties":{{}},"geometry":{SQUARE}}}"#);
        let collection = format!(r#"{{"type":"FeatureCollection","features":[{feature}]}}"#);
        let multi = r#"{"type":"MultiPolygon","coordinates":[[[[14,50],[15,50],[15,51],[14,51],[14,50]]]]}"#;
        for text in [SQUARE, &feature, &collection, multi] {
            let city = City::from_geojson(text).expect(text);
            assert!(city.contains(LonLat {
                lon: 14.5,
                lat: 50.5
            }));
            assert!(
                city.contains(LonLat {
                    lon: 14.0,
                    lat: 50.5
                }),
                "boundary counts"
            );
            assert!(!city.contains(LonLat {
                lon: 15.5,
                lat: 50.5
            }));
            let served: Value = serde_json::from_str(city.boundary_json()).unwrap();
            assert_eq!(served["type"], "MultiPolygon");
            assert_eq!(
                served["coordinates"][0][0][1],
                serde_json::json!([15.0, 50.0])
            );
        }
    }

    #[test]
    fn bad_files_are_named() {
        for (text, fault) in [
            ("nope", "not JSON"),
            (r#"{"type":"Point","coordinates":[14,50]}"#, "Point"),
            (
                r#"{"type":"FeatureCollection","features":[]}"#,
                "no polygon",
            ),
            (
                r#"{"type":"Polygon","coordinates":[[[14,50],[15,50],[14,50]]]}"#,
                "at least 4",
            ),
            (
                r#"{"type":"Polygon","coordinates":[[["a",50]]]}"#,
                "longitude, latitude",
            ),
        ] {
            let err = format!("{:#}", City::from_geojson(text).unwrap_err());
            assert!(err.contains(fault), "{text}: {err}");
        }
    }

    #[test]
    fn the_demo_boundary_holds_the_old_town_and_not_brno() {
        let city = City::from_geojson(DEMO_BOUNDARY).unwrap();
        assert!(city.contains(LonLat {
            lon: 14.4213,
            lat: 50.0875
        }));
        assert!(!city.contains(LonLat {
            lon: 16.6068,
            lat: 49.1951
        }));
    }
}
