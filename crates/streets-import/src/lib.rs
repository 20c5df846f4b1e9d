//! Reads the city's street file and returns validated streets in WGS84.
//!
//! The input is a GeoJSON FeatureCollection of LineString or MultiLineString features
//! whose properties hold `I_GM_U` (the street number, an integer unique in the file)
//! and `N_GM_U` (the street name). Coordinates are reprojected from the source CRS to
//! WGS84 [longitude, latitude] with `proj4rs`, using the same transformation PROJ picks
//! by default (see [`Crs`]). The whole file is refused on the first invalid feature,
//! with an error naming that feature.
//!
//! No database, no HTTP; [`read_file`] reading its file is the only I/O.

mod crs;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::crs::Reprojector;
pub use crate::crs::{parse_crs, Crs, SUPPORTED_CRS};

/// The property holding the street number.
pub const NUMBER_PROPERTY: &str = "I_GM_U";
/// The property holding the street name.
pub const NAME_PROPERTY: &str = "N_GM_U";

/// One street of the file, validated and in WGS84.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedStreet {
    /// Property `I_GM_U`: the street number, unique in the file.
    pub number: i64,
    /// Property `N_GM_U`: the street name, trimmed, never empty.
    pub name: String,
    /// MultiLineString in WGS84 [longitude, latitude]; a LineString becomes one line.
    pub lines: Vec<Vec<[f64; 2]>>,
}

/// Why a file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the file is not GeoJSON ({0}); only GeoJSON is supported")]
    UnsupportedFormat(String),
    #[error("the file is not valid JSON: {0}")]
    Json(String),
    #[error("the file is not a GeoJSON FeatureCollection: {0}")]
    NotFeatureCollection(String),
    #[error("unsupported coordinate reference system {0:?} (supported: {SUPPORTED_CRS})")]
    UnsupportedCrs(String),
    #[error("the file's \"crs\" member is not understood: {0}")]
    InvalidCrsMember(String),
    #[error("cannot reproject from {crs}: {reason}")]
    Projection { crs: Crs, reason: String },
    #[error("{}: {problem}", FeatureRef { index: *index, number: *number })]
    Feature {
        /// Position of the feature in the collection's `features` array, from 0.
        index: usize,
        /// Its `I_GM_U`, when it could be read.
        number: Option<i64>,
        problem: FeatureProblem,
    },
}

impl ImportError {
    /// The index of the offending feature, for errors about one feature.
    pub fn feature_index(&self) -> Option<usize> {
        match self {
            ImportError::Feature { index, .. } => Some(*index),
            _ => None,
        }
    }
}

struct FeatureRef {
    index: usize,
    number: Option<i64>,
}

impl fmt::Display for FeatureRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "feature at index {}", self.index)?;
        if let Some(number) = self.number {
            write!(f, " ({NUMBER_PROPERTY} {number})")?;
        }
        Ok(())
    }
}

/// What is wrong with one feature. Lines and positions are counted from 0.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FeatureProblem {
    #[error("is not a GeoJSON Feature object")]
    NotAFeature,
    #[error("has no property {NUMBER_PROPERTY}")]
    MissingNumber,
    #[error("property {NUMBER_PROPERTY} is not an integer: {0}")]
    InvalidNumber(String),
    #[error("{NUMBER_PROPERTY} {number} is already used by the feature at index {first_index}")]
    DuplicateNumber { number: i64, first_index: usize },
    #[error("has no property {NAME_PROPERTY}")]
    MissingName,
    #[error("property {NAME_PROPERTY} is not a string: {0}")]
    InvalidName(String),
    #[error("property {NAME_PROPERTY} is empty")]
    EmptyName,
    #[error("has no geometry")]
    MissingGeometry,
    #[error("has a {0} geometry; only LineString and MultiLineString are accepted")]
    UnsupportedGeometry(String),
    #[error("has a malformed geometry: {0}")]
    MalformedGeometry(String),
    #[error("has an empty geometry")]
    EmptyGeometry,
    #[error("line {line} has {count} position(s); a line needs at least 2")]
    TooFewPositions { line: usize, count: usize },
    #[error("line {line}, position {position}: coordinate is not a finite number")]
    NonFiniteCoordinate { line: usize, position: usize },
    #[error(
        "line {line}, position {position}: ({x}, {y}) is outside the area of use of {crs} ({area})"
    )]
    OutsideArea {
        line: usize,
        position: usize,
        x: f64,
        y: f64,
        crs: Crs,
        area: String,
    },
    #[error("line {line}, position {position}: cannot reproject ({x}, {y}) from {crs}: {reason}")]
    Reprojection {
        line: usize,
        position: usize,
        x: f64,
        y: f64,
        crs: Crs,
        reason: String,
    },
    #[error("line {line}, position {position}: ({x}, {y}) from {crs} gives longitude {lon}, latitude {lat}, which is not a valid WGS84 position")]
    OutsideWgs84 {
        line: usize,
        position: usize,
        x: f64,
        y: f64,
        crs: Crs,
        lon: f64,
        lat: f64,
    },
}

/// Reads a street file. The format is told by content (only GeoJSON is supported);
/// reading the file is the only I/O. See [`read_geojson`] for `source_crs`.
pub fn read_file(
    path: &Path,
    source_crs: Option<&str>,
) -> Result<Vec<ImportedStreet>, ImportError> {
    let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
        path: path.to_owned(),
        source,
    })?;
    read_geojson(&bytes, source_crs)
}

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
    let reprojector = Reprojector::new(crs)?;

    let mut first_index_of: HashMap<i64, usize> = HashMap::with_capacity(features.len());
    let mut streets = Vec::with_capacity(features.len());
    for (index, feature) in features.iter().enumerate() {
        let street = read_feature(feature, crs, &reprojector).map_err(|(number, problem)| {
            ImportError::Feature {
                index,
                number,
                problem,
            }
        })?;
        if let Some(&first_index) = first_index_of.get(&street.number) {
            return Err(ImportError::Feature {
                index,
                number: Some(street.number),
                problem: FeatureProblem::DuplicateNumber {
                    number: street.number,
                    first_index,
                },
            });
        }
        first_index_of.insert(street.number, index);
        streets.push(street);
    }
    Ok(streets)
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

fn json_kind(v: &Value) -> &'static str {
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

type FeatureResult<T> = Result<T, (Option<i64>, FeatureProblem)>;

fn read_feature(
    feature: &Value,
    crs: Crs,
    reprojector: &Reprojector,
) -> FeatureResult<ImportedStreet> {
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
    let lines = read_lines(feature.get("geometry"), crs, reprojector).map_err(fail)?;
    Ok(ImportedStreet {
        number,
        name,
        lines,
    })
}

/// `I_GM_U`: a JSON integer, an integral number such as `12.0`, or a string of digits.
fn read_number(value: Option<&Value>) -> Result<i64, FeatureProblem> {
    let invalid = |v: &Value| FeatureProblem::InvalidNumber(v.to_string());
    match value {
        None | Some(Value::Null) => Err(FeatureProblem::MissingNumber),
        Some(v @ Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                Ok(i)
            } else if let Some(f) = n.as_f64() {
                // 2^63 as f64; integral values within (-2^63, 2^63) convert exactly.
                const LIMIT: f64 = 9_223_372_036_854_775_808.0;
                if f.is_finite() && f.fract() == 0.0 && f > -LIMIT && f < LIMIT {
                    #[allow(clippy::cast_possible_truncation)]
                    Ok(f as i64)
                } else {
                    Err(invalid(v))
                }
            } else {
                Err(invalid(v))
            }
        }
        Some(v @ Value::String(s)) => {
            let s = s.trim();
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                s.parse::<i64>().map_err(|_| invalid(v))
            } else {
                Err(invalid(v))
            }
        }
        Some(v) => Err(invalid(v)),
    }
}

fn read_name(value: Option<&Value>) -> Result<String, FeatureProblem> {
    match value {
        None | Some(Value::Null) => Err(FeatureProblem::MissingName),
        Some(Value::String(s)) => {
            let s = s.trim();
            if s.is_empty() {
                Err(FeatureProblem::EmptyName)
            } else {
                Ok(s.to_owned())
            }
        }
        Some(v) => Err(FeatureProblem::InvalidName(v.to_string())),
    }
}

fn read_lines(
    geometry: Option<&Value>,
    crs: Crs,
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

    raw_lines
        .into_iter()
        .enumerate()
        .map(|(line, positions)| {
            if positions.len() < 2 {
                return Err(FeatureProblem::TooFewPositions {
                    line,
                    count: positions.len(),
                });
            }
            positions
                .iter()
                .enumerate()
                .map(|(position, value)| {
                    let (x, y) = read_position(value, line, position)?;
                    reproject(x, y, crs, reprojector, line, position)
                })
                .collect()
        })
        .collect()
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

/// Checks a source position and brings it to WGS84 [longitude, latitude].
fn reproject(
    x: f64,
    y: f64,
    crs: Crs,
    reprojector: &Reprojector,
    line: usize,
    position: usize,
) -> Result<[f64; 2], FeatureProblem> {
    if !x.is_finite() || !y.is_finite() {
        return Err(FeatureProblem::NonFiniteCoordinate { line, position });
    }
    if !crs.contains(x, y) {
        return Err(FeatureProblem::OutsideArea {
            line,
            position,
            x,
            y,
            crs,
            area: crs.area_description(),
        });
    }
    let [lon, lat] = reprojector
        .to_wgs84(x, y)
        .map_err(|reason| FeatureProblem::Reprojection {
            line,
            position,
            x,
            y,
            crs,
            reason,
        })?;
    if !(lon.is_finite()
        && lat.is_finite()
        && (-180.0..=180.0).contains(&lon)
        && (-90.0..=90.0).contains(&lat))
    {
        return Err(FeatureProblem::OutsideWgs84 {
            line,
            position,
            x,
            y,
            crs,
            lon,
            lat,
        });
    }
    Ok([lon, lat])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn non_finite_coordinates_are_refused() {
        // JSON cannot carry NaN or infinity, so this check is reached only here.
        let identity = Reprojector::new(Crs::Wgs84).unwrap();
        for (x, y) in [
            (f64::NAN, 50.0),
            (14.0, f64::INFINITY),
            (f64::NEG_INFINITY, 0.0),
        ] {
            let err = reproject(x, y, Crs::Wgs84, &identity, 2, 5).unwrap_err();
            assert_eq!(
                err,
                FeatureProblem::NonFiniteCoordinate {
                    line: 2,
                    position: 5
                }
            );
        }
        let err = ImportError::Feature {
            index: 4,
            number: Some(77),
            problem: FeatureProblem::NonFiniteCoordinate {
                line: 2,
                position: 5,
            },
        };
        assert_eq!(
            err.to_string(),
            "feature at index 4 (I_GM_U 77): line 2, position 5: coordinate is not a finite number"
        );
    }

    #[test]
    fn results_outside_valid_lon_lat_are_refused() {
        // A UTM position that passes the area check, run through an identity
        // reprojection, stands in for a projection that misbehaves.
        let identity = Reprojector::new(Crs::Wgs84).unwrap();
        let utm = Crs::WgsUtm {
            zone: 33,
            north: true,
        };
        let err = reproject(500_000.0, 5_000_000.0, utm, &identity, 0, 1).unwrap_err();
        assert!(
            matches!(
                err,
                FeatureProblem::OutsideWgs84 {
                    line: 0,
                    position: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("not a valid WGS84 position"),
            "{err}"
        );
    }

    #[test]
    fn feature_without_readable_number_is_named_by_index_only() {
        let err = ImportError::Feature {
            index: 3,
            number: None,
            problem: FeatureProblem::MissingNumber,
        };
        assert_eq!(
            err.to_string(),
            "feature at index 3: has no property I_GM_U"
        );
    }
}
