//! Why a file or one of its features was refused.

use std::fmt;
use std::path::PathBuf;

use crate::{Crs, NAME_PROPERTY, NUMBER_PROPERTY, SUPPORTED_CRS};

/// Why a file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("unsupported file format: {0}")]
    UnsupportedFormat(String),
    /// A GeoPackage, Shapefile or FlatGeobuf that cannot be read as a whole.
    #[error("cannot read the {format} file: {reason}")]
    Format {
        format: &'static str,
        reason: String,
    },
    #[error("the {format} file does not say its coordinate reference system ({detail}); give the source CRS")]
    MissingCrs {
        format: &'static str,
        detail: String,
    },
    #[error("the file is not valid JSON: {0}")]
    Json(String),
    #[error("the file is not a GeoJSON FeatureCollection: {0}")]
    NotFeatureCollection(String),
    #[error("unsupported coordinate reference system {0:?} (supported: {SUPPORTED_CRS})")]
    UnsupportedCrs(String),
    /// A CRS whose definition cannot be read or used (a projection proj4rs does not
    /// implement, a datum grid, a WKT that cannot be parsed).
    #[error("cannot read the coordinate reference system {name}: {reason}")]
    UnreadableCrs { name: String, reason: String },
    #[error("the file's \"crs\" member is not understood: {0}")]
    InvalidCrsMember(String),
    #[error("cannot reproject from {crs}: {reason}")]
    Projection { crs: Crs, reason: String },
    /// The [`crate::StreetSink`] stopped the read (its writer failed, or it was cancelled).
    #[error("the import stopped: {0}")]
    Stopped(String),
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
    /// [`ImportError::Io`] of the file at `path`, for `map_err`.
    pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Self + '_ {
        move |source| ImportError::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// [`ImportError::Format`]: the `format` file cannot be read as a whole.
    pub(crate) fn format(format: &'static str, reason: String) -> Self {
        ImportError::Format { format, reason }
    }

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
