//! Reads the city's street file and returns validated streets in WGS84.
//!
//! The input is a GeoJSON FeatureCollection, a GeoPackage, an ESRI Shapefile or a FlatGeobuf
//! file (told by its extension, see [`FileFormat`]) of LineString or MultiLineString features
//! whose properties hold `I_GM_U` (the street number, an integer unique in the file)
//! and `N_GM_U` (the street name). Coordinates are reprojected from the source CRS to
//! WGS84 [longitude, latitude] with `proj4rs`: any EPSG code of the EPSG table
//! (`crs-definitions`, with the datum shift PROJ uses by default) or the file's own WKT
//! definition (see [`Crs`]). The whole file is refused on the first invalid feature,
//! with an error naming that feature.
//!
//! [`read_streets`] streams: it hands the streets to a [`StreetSink`] in batches as it reads,
//! in memory bounded by the batch size and independent of the file's size (plus 8 bytes a
//! street for the uniqueness check); [`read_file`] collects them all.
//!
//! Every format goes through the same checks (`validate`, `pipeline`); GeoJSON is parsed
//! with serde_json as it is read, the others through geozero. No database, no HTTP; reading
//! the file (a GeoPackage through SQLite, read-only) is the only I/O.

mod collect;
mod crs;
mod error;
mod fgb;
mod geojson;
mod gpkg;
mod pipeline;
mod prj;
mod scan;
mod shp;
mod validate;

use std::path::Path;

pub use crate::crs::{parse_crs, Crs, WktCrs, SUPPORTED_CRS};
pub use crate::error::{FeatureProblem, ImportError};
pub use crate::geojson::read_geojson;
pub use crate::pipeline::StreetSink;

/// The batch size [`read_streets`] callers use unless told otherwise: a few MB of streets.
pub const DEFAULT_BATCH_SIZE: usize = 5_000;

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

/// The file formats [`read_file`] reads, told by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// `.geojson`, `.json`: a FeatureCollection; CRS from the legacy `crs` member, else WGS84.
    GeoJson,
    /// `.gpkg`: its one feature table; CRS from the table's `srs_id`.
    GeoPackage,
    /// `.shp` with its `.dbf` (and `.shx`); CRS from the `.prj` beside it.
    Shapefile,
    /// `.fgb`; CRS from the header.
    FlatGeobuf,
}

impl FileFormat {
    /// The format for the file's extension (any case).
    pub fn of(path: &Path) -> Result<Self, ImportError> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("geojson" | "json") => Ok(Self::GeoJson),
            Some("gpkg") => Ok(Self::GeoPackage),
            Some("shp") => Ok(Self::Shapefile),
            Some("fgb") => Ok(Self::FlatGeobuf),
            other => Err(ImportError::UnsupportedFormat(format!(
                "{} (supported: .geojson or .json, .gpkg, .shp, .fgb)",
                other.map_or_else(
                    || "the file name has no extension".to_owned(),
                    |e| format!("extension .{e}")
                )
            ))),
        }
    }
}

/// Reads a street file in the format its extension names, all streets at once (see
/// [`read_streets`], which streams).
///
/// The source CRS is `source_crs` when given (it overrides the file), else what the file
/// declares (see [`FileFormat`]); a GeoPackage, Shapefile or FlatGeobuf that declares none
/// is refused without `source_crs`. The whole file is refused on its first invalid feature.
pub fn read_file(
    path: &Path,
    source_crs: Option<&str>,
) -> Result<Vec<ImportedStreet>, ImportError> {
    let mut streets = Collect::default();
    read_streets(path, source_crs, usize::MAX, &mut streets)?;
    Ok(streets.0)
}

/// Reads a street file in the format its extension names into `sink`, `batch_size` streets at
/// a time, and returns how many streets it held; CRS as for [`read_file`].
///
/// The sink gets batches before the whole file has been checked: only an `Ok` result means the
/// file is valid (its first invalid feature refuses it, named as by [`read_file`]).
pub fn read_streets(
    path: &Path,
    source_crs: Option<&str>,
    batch_size: usize,
    sink: &mut dyn StreetSink,
) -> Result<u64, ImportError> {
    let source = Source {
        path,
        crs: source_crs,
        batch_size,
    };
    match FileFormat::of(path)? {
        FileFormat::GeoJson => geojson::read(source, sink),
        FileFormat::GeoPackage => gpkg::read(source, sink),
        FileFormat::Shapefile => shp::read(source, sink),
        FileFormat::FlatGeobuf => fgb::read(source, sink),
    }
}

/// What each format's reader is asked to read: the file, the CRS that overrides the file's
/// own (`None`: the file's), and how many streets go to the sink at a time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub path: &'a Path,
    pub crs: Option<&'a str>,
    pub batch_size: usize,
}

/// `source_crs` when given, else the file's own (or why it has none).
pub(crate) fn choose_crs(
    source_crs: Option<&str>,
    file_crs: Result<Crs, ImportError>,
) -> Result<Crs, ImportError> {
    match source_crs {
        Some(s) => parse_crs(s),
        None => file_crs,
    }
}

/// A sink that keeps every street.
#[derive(Default)]
pub(crate) struct Collect(pub(crate) Vec<ImportedStreet>);

impl StreetSink for Collect {
    fn batch(&mut self, mut streets: Vec<ImportedStreet>) -> Result<(), ImportError> {
        if self.0.is_empty() {
            self.0 = streets;
        } else {
            self.0.append(&mut streets);
        }
        Ok(())
    }
}
