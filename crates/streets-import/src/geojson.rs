//! GeoJSON: a FeatureCollection read with serde_json, so that every malformed member is named.

use serde_json::{Map, Value};

use crate::crs::Reprojector;
use crate::validate::{read_name, read_number, reproject_lines, FeatureResult, Streets};
use crate::{parse_crs, Crs, FeatureProblem, ImportError, ImportedStreet};
use crate::{NAME_PROPERTY, NUMBER_PROPERTY};

/// Reads a GeoJSON FeatureCollection of streets.
///
/// The source CRS is `source_crs` when given (it overrides the file), else the file's
/// legacy `crs` member, else EPSG:4326. An empty collection gives an empty `Vec`.
pub fn read_geojson(
    bytes: &[u8],
    source_crs: Option<&str>,
) -> Result<Vec<ImportedStreet>, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(format) = sniff_other_format(bytes) {
        return Err(ImportError::UnsupportedFormat(format.to_owned()));
    }
    let root: Value =
        serde_json::from_slice(bytes).map_err(|e| ImportError::Json(e.to_string()))?;
    let Value::Object(root) = root else {
        return Err(ImportError::NotFeatureCollection(format!(
            "the top level is {}, not an object",
            json_kind(&root)
        )));
    };
    match root.get("type") {
        Some(Value::String(t)) if t == "FeatureCollection" => {}
        Some(Value::String(t)) => {
            return Err(ImportError::NotFeatureCollection(format!(
                "its type is {t:?}"
            )))
        }
        _ => {
            return Err(ImportError::NotFeatureCollection(
                "it has no \"type\"".to_owned(),
            ))
        }
    }
    let features = match root.get("features") {
        Some(Value::Array(features)) => features,
        Some(other) => {
            return Err(ImportError::NotFeatureCollection(format!(
                "\"features\" is {}, not an array",
                json_kind(other)
            )))
        }
        None => {
            return Err(ImportError::NotFeatureCollection(
                "it has no \"features\"".to_owned(),
            ))
        }
    };

    let crs = match source_crs {
        Some(s) => parse_crs(s)?,
        None => match crs_member(&root)? {
            Some(crs) => crs,
            None => Crs::Wgs84,
        },
    };
    if features.is_empty() {
        return Ok(Vec::new());
    }
    let reprojector = Reprojector::new(&crs)?;

    let mut streets = Streets::with_capacity(features.len());
    for (index, feature) in features.iter().enumerate() {
        let street = read_feature(feature, &reprojector).map_err(|(number, problem)| {
            ImportError::Feature {
                index,
                number,
                problem,
            }
        })?;
        streets.push(index, street)?;
    }
    Ok(streets.into_vec())
}

/// Names a known non-GeoJSON format by its first bytes.
fn sniff_other_format(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"SQLite format 3\0") {
        Some("a SQLite database, perhaps a GeoPackage")
    } else if bytes.starts_with(&[0x00, 0x00, 0x27, 0x0A]) {
        Some("an ESRI Shapefile")
    } else if bytes.starts_with(b"PK\x03\x04") {
        Some("a ZIP archive")
    } else {
        None
    }
}

pub(crate) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The legacy (GeoJSON 2008) `crs` member: `{"type":"name","properties":{"name":...}}`
/// or `{"type":"EPSG","properties":{"code":5514}}`.
fn crs_member(root: &Map<String, Value>) -> Result<Option<Crs>, ImportError> {
    let member = match root.get("crs") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(member)) => member,
        Some(other) => {
            return Err(ImportError::InvalidCrsMember(format!(
                "it is {}, not an object",
                json_kind(other)
            )))
        }
    };
    let properties = member.get("properties").and_then(Value::as_object);
    match (member.get("type").and_then(Value::as_str), properties) {
        (Some(t), Some(props)) if t.eq_ignore_ascii_case("name") => match props.get("name") {
            Some(Value::String(name)) => parse_crs(name).map(Some),
            _ => Err(ImportError::InvalidCrsMember(
                "it has no properties.name string".to_owned(),
            )),
        },
        (Some(t), Some(props)) if t.eq_ignore_ascii_case("EPSG") => match props.get("code") {
            Some(Value::Number(code)) => parse_crs(&code.to_string()).map(Some),
            Some(Value::String(code)) => parse_crs(code).map(Some),
            _ => Err(ImportError::InvalidCrsMember(
                "it has no properties.code".to_owned(),
            )),
        },
        (Some(t), _) => Err(ImportError::InvalidCrsMember(format!(
            "type {t:?} with properties {}",
            properties.map_or_else(
                || "missing".to_owned(),
                |p| Value::Object(p.clone()).to_string()
            )
        ))),
        (None, _) => Err(ImportError::InvalidCrsMember(
            "it has no \"type\"".to_owned(),
        )),
    }
}

fn read_feature(feature: &Value, reprojector: &Reprojector) -> FeatureResult<ImportedStreet> {
    let Some(feature) = feature.as_object() else {
        return Err((None, FeatureProblem::NotAFeature));
    };
    if feature.get("type").and_then(Value::as_str) != Some("Feature") {
        return Err((None, FeatureProblem::NotAFeature));
    }
    let properties = feature.get("properties").and_then(Value::as_object);
    let number =
        read_number(properties.and_then(|p| p.get(NUMBER_PROPERTY))).map_err(|p| (None, p))?;
    let fail = |problem| (Some(number), problem);
    let name = read_name(properties.and_then(|p| p.get(NAME_PROPERTY))).map_err(fail)?;
    let lines = read_lines(feature.get("geometry"), reprojector).map_err(fail)?;
    Ok(ImportedStreet {
        number,
        name,
        lines,
    })
}

fn read_lines(
    geometry: Option<&Value>,
    reprojector: &Reprojector,
) -> Result<Vec<Vec<[f64; 2]>>, FeatureProblem> {
    let geometry = match geometry {
        None | Some(Value::Null) => return Err(FeatureProblem::MissingGeometry),
        Some(Value::Object(g)) => g,
        Some(other) => {
            return Err(FeatureProblem::MalformedGeometry(format!(
                "it is {}, not an object",
                json_kind(other)
            )))
        }
    };
    let kind = match geometry.get("type") {
        Some(Value::String(t)) => t.as_str(),
        _ => {
            return Err(FeatureProblem::MalformedGeometry(
                "it has no \"type\"".to_owned(),
            ))
        }
    };
    let coordinates = geometry.get("coordinates");
    let raw_lines: Vec<&Vec<Value>> = match kind {
        "LineString" => match coordinates {
            Some(Value::Array(positions)) if positions.is_empty() => {
                return Err(FeatureProblem::EmptyGeometry)
            }
            Some(Value::Array(positions)) => vec![positions],
            _ => return Err(malformed_coordinates(kind)),
        },
        "MultiLineString" => match coordinates {
            Some(Value::Array(lines)) if lines.is_empty() => {
                return Err(FeatureProblem::EmptyGeometry)
            }
            Some(Value::Array(lines)) => lines
                .iter()
                .map(|line| line.as_array().ok_or_else(|| malformed_coordinates(kind)))
                .collect::<Result<_, _>>()?,
            _ => return Err(malformed_coordinates(kind)),
        },
        other => return Err(FeatureProblem::UnsupportedGeometry(other.to_owned())),
    };

    reproject_lines(
        raw_lines.into_iter().map(Vec::as_slice),
        reprojector,
        read_position,
    )
}

fn malformed_coordinates(kind: &str) -> FeatureProblem {
    let expected = if kind == "LineString" {
        "an array of positions"
    } else {
        "an array of arrays of positions"
    };
    FeatureProblem::MalformedGeometry(format!("{kind} coordinates are not {expected}"))
}

fn read_position(
    value: &Value,
    line: usize,
    position: usize,
) -> Result<(f64, f64), FeatureProblem> {
    let malformed = || {
        FeatureProblem::MalformedGeometry(format!(
            "line {line}, position {position} is not an array of 2 or 3 numbers: {value}"
        ))
    };
    let Some(items) = value.as_array() else {
        return Err(malformed());
    };
    if !(2..=4).contains(&items.len()) {
        return Err(malformed());
    }
    let mut xy = [0.0; 2];
    for (slot, item) in xy.iter_mut().zip(items) {
        *slot = item.as_f64().ok_or_else(malformed)?;
    }
    Ok((xy[0], xy[1]))
}
