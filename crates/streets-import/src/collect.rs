//! A geozero processor that keeps, for each feature, its `I_GM_U` and `N_GM_U` values and the
//! lines of a LineString or MultiLineString, whatever the file format, and hands each feature
//! as it ends to the [`Pipeline`], which runs the same checks as for GeoJSON (see `validate`).

use geozero::error::{GeozeroError, Result as GzResult};
use geozero::{ColumnValue, FeatureProcessor, GeomProcessor, PropertyProcessor};
use serde_json::Value;

use crate::crs::Reprojector;
use crate::pipeline::Pipeline;
use crate::validate::{check_lines, read_name, read_number, FeatureResult};
use crate::{FeatureProblem, ImportError, ImportedStreet, NAME_PROPERTY, NUMBER_PROPERTY};

/// One feature as read, not yet checked.
#[derive(Debug, Default)]
pub(crate) struct RawFeature {
    pub(crate) number: Option<Value>,
    pub(crate) name: Option<Value>,
    pub(crate) geometry: RawGeometry,
}

#[derive(Debug, Default)]
pub(crate) enum RawGeometry {
    #[default]
    Missing,
    Unsupported(&'static str),
    Malformed(String),
    Lines(Vec<Vec<[f64; 2]>>),
}

/// Collects features from a geozero reader (FlatGeobuf, Shapefile) or, driven by hand through
/// [`Collector::begin`] and [`Collector::end`], from GeoPackage rows; each ended feature goes
/// to the pipeline at once.
pub(crate) struct Collector<'p, 's> {
    pipeline: &'p mut Pipeline<'s>,
    current: RawFeature,
    open: bool,
}

/// What a geozero callback returns when the pipeline refused a feature: the reader stops, and
/// the refusal is kept in the pipeline ([`Pipeline::take_failure`]).
fn stopped() -> GeozeroError {
    GeozeroError::Feature("the import stopped".to_owned())
}

impl<'p, 's> Collector<'p, 's> {
    pub(crate) fn new(pipeline: &'p mut Pipeline<'s>) -> Self {
        Self {
            pipeline,
            current: RawFeature::default(),
            open: false,
        }
    }

    pub(crate) fn begin(&mut self) {
        self.current = RawFeature::default();
        self.open = true;
    }

    /// The feature read is checked and handed on; an error refuses the file.
    pub(crate) fn end(&mut self) -> Result<(), ImportError> {
        let feature = std::mem::take(&mut self.current);
        self.open = false;
        let street = check_feature(feature, self.pipeline.reprojector()?);
        self.pipeline.push(street)
    }

    pub(crate) fn set_property(&mut self, name: &str, value: Option<Value>) {
        if name.eq_ignore_ascii_case(NUMBER_PROPERTY) {
            self.current.number = value;
        } else if name.eq_ignore_ascii_case(NAME_PROPERTY) {
            self.current.name = value;
        }
    }

    /// A reader failed: a refusal the pipeline made is returned as is; else the feature being
    /// read (or the one after the last) is reported as malformed, after any problem of the
    /// features before it.
    pub(crate) fn fail(&mut self, reason: String) -> Result<(), ImportError> {
        if let Some(failure) = self.pipeline.take_failure() {
            return Err(failure);
        }
        if !self.open {
            self.current = RawFeature::default();
        }
        self.current.geometry = RawGeometry::Malformed(reason);
        self.end()
    }

    fn unsupported(&mut self, kind: &'static str) {
        if matches!(self.current.geometry, RawGeometry::Missing) {
            self.current.geometry = RawGeometry::Unsupported(kind);
        }
    }
}

/// A property value as the JSON value GeoJSON would have held.
fn json_value(value: &ColumnValue) -> Value {
    match *value {
        ColumnValue::Byte(v) => Value::from(v),
        ColumnValue::UByte(v) => Value::from(v),
        ColumnValue::Bool(v) => Value::from(v),
        ColumnValue::Short(v) => Value::from(v),
        ColumnValue::UShort(v) => Value::from(v),
        ColumnValue::Int(v) => Value::from(v),
        ColumnValue::UInt(v) => Value::from(v),
        ColumnValue::Long(v) => Value::from(v),
        ColumnValue::ULong(v) => Value::from(v),
        ColumnValue::Float(v) => float_value(f64::from(v)),
        ColumnValue::Double(v) => float_value(v),
        ColumnValue::String(v) | ColumnValue::Json(v) | ColumnValue::DateTime(v) => Value::from(v),
        ColumnValue::Binary(v) => Value::from(format!("<{} bytes of binary data>", v.len())),
    }
}

/// A finite number, or its text (`NaN`, `inf`), which no check accepts.
pub(crate) fn float_value(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or_else(|| Value::from(v.to_string()), Value::Number)
}

impl PropertyProcessor for Collector<'_, '_> {
    fn property(&mut self, _idx: usize, name: &str, value: &ColumnValue) -> GzResult<bool> {
        self.set_property(name, Some(json_value(value)));
        Ok(false)
    }
}

impl FeatureProcessor for Collector<'_, '_> {
    fn feature_begin(&mut self, _idx: u64) -> GzResult<()> {
        self.begin();
        Ok(())
    }

    fn feature_end(&mut self, _idx: u64) -> GzResult<()> {
        self.end().map_err(|e| {
            self.pipeline.stop(e);
            stopped()
        })
    }
}

/// Geometry callbacks that refuse the feature ([`Collector::unsupported`]), naming the geometry.
macro_rules! unsupported {
    ($($method:ident($($arg:ident: $ty:ty),*) => $kind:literal),* $(,)?) => {$(
        fn $method(&mut self, $($arg: $ty),*) -> GzResult<()> {
            self.unsupported($kind);
            Ok(())
        }
    )*};
}

impl GeomProcessor for Collector<'_, '_> {
    fn xy(&mut self, x: f64, y: f64, _idx: usize) -> GzResult<()> {
        if let RawGeometry::Lines(lines) = &mut self.current.geometry {
            if let Some(line) = lines.last_mut() {
                line.push([x, y]);
            }
        }
        Ok(())
    }

    fn multilinestring_begin(&mut self, size: usize, _idx: usize) -> GzResult<()> {
        if matches!(self.current.geometry, RawGeometry::Missing) {
            self.current.geometry = RawGeometry::Lines(Vec::with_capacity(size));
        }
        Ok(())
    }

    fn linestring_begin(&mut self, tagged: bool, size: usize, _idx: usize) -> GzResult<()> {
        match &mut self.current.geometry {
            RawGeometry::Missing if tagged => {
                self.current.geometry = RawGeometry::Lines(vec![Vec::with_capacity(size)]);
            }
            RawGeometry::Lines(lines) if !tagged => lines.push(Vec::with_capacity(size)),
            _ => {}
        }
        Ok(())
    }

    fn linestring_end(&mut self, tagged: bool, _idx: usize) -> GzResult<()> {
        // An empty LineString is an empty geometry, as in GeoJSON.
        if let RawGeometry::Lines(lines) = &mut self.current.geometry {
            if tagged && lines.len() == 1 && lines[0].is_empty() {
                lines.clear();
            }
        }
        Ok(())
    }

    // Every other geometry: the feature is refused, naming the geometry type.
    unsupported!(
        empty_point(_idx: usize) => "Point",
        point_begin(_idx: usize) => "Point",
        multipoint_begin(_size: usize, _idx: usize) => "MultiPoint",
        polygon_begin(_tagged: bool, _size: usize, _idx: usize) => "Polygon",
        multipolygon_begin(_size: usize, _idx: usize) => "MultiPolygon",
        geometrycollection_begin(_size: usize, _idx: usize) => "GeometryCollection",
        circularstring_begin(_size: usize, _idx: usize) => "CircularString",
        compoundcurve_begin(_size: usize, _idx: usize) => "CompoundCurve",
        curvepolygon_begin(_size: usize, _idx: usize) => "CurvePolygon",
        multicurve_begin(_size: usize, _idx: usize) => "MultiCurve",
        multisurface_begin(_size: usize, _idx: usize) => "MultiSurface",
        triangle_begin(_tagged: bool, _size: usize, _idx: usize) => "Triangle",
        polyhedralsurface_begin(_size: usize, _idx: usize) => "PolyhedralSurface",
        tin_begin(_size: usize, _idx: usize) => "TIN",
    );
}

/// Checks a feature as read (number, name, geometry, as for GeoJSON) and reprojects it.
fn check_feature(feature: RawFeature, reprojector: &Reprojector) -> FeatureResult<ImportedStreet> {
    let number = read_number(feature.number.as_ref()).map_err(|p| (None, p))?;
    let fail = |problem| (Some(number), problem);
    let name = read_name(feature.name.as_ref()).map_err(fail)?;
    let lines = match feature.geometry {
        RawGeometry::Missing => Err(FeatureProblem::MissingGeometry),
        RawGeometry::Unsupported(kind) => Err(FeatureProblem::UnsupportedGeometry(kind.to_owned())),
        RawGeometry::Malformed(reason) => Err(FeatureProblem::MalformedGeometry(reason)),
        RawGeometry::Lines(raw) => check_lines(&raw, reprojector),
    }
    .map_err(fail)?;
    Ok(ImportedStreet {
        number,
        name,
        lines,
    })
}
