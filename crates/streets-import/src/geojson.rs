//! GeoJSON: a FeatureCollection parsed as it is read (serde_json over a buffered reader), one
//! feature at a time, so that memory does not grow with the file and every malformed member is
//! still named. A quick pass before the parse (`scan`) counts the features and finds the legacy
//! `crs` member wherever it is in the file.

use std::fmt;
use std::io::{BufRead, BufReader};

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::crs::Reprojector;
use crate::pipeline::{Pipeline, StreetSink};
use crate::scan::{scan, TopLevel};
use crate::validate::{read_name, read_number, reproject_lines, FeatureResult};
use crate::Source;
use crate::{parse_crs, Crs, FeatureProblem, ImportError, ImportedStreet};
use crate::{NAME_PROPERTY, NUMBER_PROPERTY};

/// The read buffer: large enough that reading costs little, small beside a batch.
const BUFFER: usize = 256 * 1024;

/// Reads a GeoJSON FeatureCollection of streets held in memory.
///
/// The source CRS is `source_crs` when given (it overrides the file), else the file's
/// legacy `crs` member, else EPSG:4326. An empty collection gives an empty `Vec`.
pub fn read_geojson(
    bytes: &[u8],
    source_crs: Option<&str>,
) -> Result<Vec<ImportedStreet>, ImportError> {
    let mut streets = crate::Collect::default();
    let top = scan(bytes).map_err(|e| ImportError::Json(e.to_string()))?;
    read_from(bytes, top, source_crs, usize::MAX, &mut streets)?;
    Ok(streets.0)
}

/// Reads the GeoJSON file at `path` into `sink`; returns how many streets it held.
pub(crate) fn read(source: Source<'_>, sink: &mut dyn StreetSink) -> Result<u64, ImportError> {
    let (path, source_crs, batch_size) = (source.path, source.crs, source.batch_size);
    let open = || {
        std::fs::File::open(path)
            .map(|f| BufReader::with_capacity(BUFFER, f))
            .map_err(ImportError::io(path))
    };
    let top = scan(open()?).map_err(ImportError::io(path))?;
    read_from(open()?, top, source_crs, batch_size, sink)
}

fn read_from(
    mut reader: impl BufRead,
    top: TopLevel,
    source_crs: Option<&str>,
    batch_size: usize,
    sink: &mut dyn StreetSink,
) -> Result<u64, ImportError> {
    let io_error = |e: std::io::Error| ImportError::Json(e.to_string());
    let head = reader.fill_buf().map_err(io_error)?;
    if head.starts_with(b"\xEF\xBB\xBF") {
        reader.consume(3);
    }
    let head = reader.fill_buf().map_err(io_error)?;
    if let Some(format) = sniff_other_format(head) {
        return Err(ImportError::UnsupportedFormat(format.to_owned()));
    }
    let crs = match source_crs {
        Some(s) => parse_crs(s),
        // A crs member that is not even JSON: the parse below refuses the file.
        None => match top.crs.as_deref().map(serde_json::from_slice::<Value>) {
            Some(Ok(member)) => crs_member(&member).map(|crs| crs.unwrap_or(Crs::Wgs84)),
            Some(Err(_)) | None => Ok(Crs::Wgs84),
        },
    };
    sink.start(top.features);
    let mut state = State {
        crs: Some(crs),
        sink: Some(sink),
        batch_size,
        pipeline: None,
        failure: None,
        type_seen: false,
        features_seen: false,
    };
    let mut de = serde_json::Deserializer::from_reader(reader);
    let parsed = Root(&mut state)
        .deserialize(&mut de)
        .and_then(|()| de.end());
    if let Some(failure) = state.failure.take() {
        return Err(failure);
    }
    parsed.map_err(|e| ImportError::Json(e.to_string()))?;
    if !state.type_seen {
        return Err(ImportError::NotFeatureCollection(
            "it has no \"type\"".to_owned(),
        ));
    }
    if !state.features_seen {
        return Err(ImportError::NotFeatureCollection(
            "it has no \"features\"".to_owned(),
        ));
    }
    match (state.pipeline, state.crs) {
        (Some(pipeline), _) => pipeline.finish(),
        (None, Some(Err(e))) => Err(e),
        (None, _) => Ok(0),
    }
}

/// The parse's state, shared by the visitors.
struct State<'s> {
    /// The source CRS (or why it is unusable), until the first feature needs it.
    crs: Option<Result<Crs, ImportError>>,
    /// Until the first feature, which makes the pipeline.
    sink: Option<&'s mut dyn StreetSink>,
    batch_size: usize,
    pipeline: Option<Pipeline<'s>>,
    /// Why the parse was stopped, when a visitor stopped it (not a JSON error).
    failure: Option<ImportError>,
    type_seen: bool,
    features_seen: bool,
}

impl State<'_> {
    /// Stops the parse with `error`.
    fn fail<E: serde::de::Error>(&mut self, error: ImportError) -> E {
        self.failure = Some(error);
        E::custom("the import stopped")
    }

    fn feature(&mut self, feature: &Value) -> Result<(), ImportError> {
        if self.pipeline.is_none() {
            let crs = self.crs.take().unwrap_or(Ok(Crs::Wgs84))?;
            let sink = self
                .sink
                .take()
                .ok_or_else(|| ImportError::Json("the features array appears twice".to_owned()))?;
            self.pipeline = Some(Pipeline::new(crs, self.batch_size, sink));
        }
        let Some(pipeline) = self.pipeline.as_mut() else {
            return Ok(());
        };
        let street = read_feature(feature, pipeline.reprojector()?);
        pipeline.push(street)
    }
}

/// The top-level object.
struct Root<'a, 's>(&'a mut State<'s>);

impl<'de> DeserializeSeed<'de> for Root<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The value's kind for the messages, from a visitor's callback.
macro_rules! refuse_kinds {
    ($refuse:ident) => {
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
            self.$refuse("a boolean")
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
            self.$refuse("a number")
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
            self.$refuse("a number")
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
            self.$refuse("a number")
        }
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
            self.$refuse("a string")
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
            self.$refuse("null")
        }
    };
}

impl Root<'_, '_> {
    fn refuse<E: serde::de::Error>(self, kind: &str) -> Result<(), E> {
        Err(self.0.fail(ImportError::NotFeatureCollection(format!(
            "the top level is {kind}, not an object"
        ))))
    }
}

impl<'de> Visitor<'de> for Root<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a GeoJSON FeatureCollection")
    }

    refuse_kinds!(refuse);

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.refuse("an array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let state = self.0;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "type" => {
                    let value: Value = map.next_value()?;
                    state.type_seen = true;
                    match value {
                        Value::String(t) if t == "FeatureCollection" => {}
                        Value::String(t) => {
                            return Err(state.fail(ImportError::NotFeatureCollection(format!(
                                "its type is {t:?}"
                            ))))
                        }
                        _ => {
                            return Err(state.fail(ImportError::NotFeatureCollection(
                                "it has no \"type\"".to_owned(),
                            )))
                        }
                    }
                }
                "features" => {
                    state.features_seen = true;
                    map.next_value_seed(Features(&mut *state))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The `features` array, each element handed to the pipeline as soon as it is parsed.
struct Features<'a, 's>(&'a mut State<'s>);

impl<'de> DeserializeSeed<'de> for Features<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Features<'_, '_> {
    fn refuse<E: serde::de::Error>(self, kind: &str) -> Result<(), E> {
        Err(self.0.fail(ImportError::NotFeatureCollection(format!(
            "\"features\" is {kind}, not an array"
        ))))
    }
}

impl<'de> Visitor<'de> for Features<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of features")
    }

    refuse_kinds!(refuse);

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.refuse("an object")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(feature) = seq.next_element::<Value>()? {
            if let Err(e) = self.0.feature(&feature) {
                return Err(self.0.fail(e));
            }
        }
        Ok(())
    }
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
fn crs_member(member: &Value) -> Result<Option<Crs>, ImportError> {
    let member = match Some(member) {
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
