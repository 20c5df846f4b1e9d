//! ESRI Shapefile: geometries from the `.shp`, `I_GM_U` and `N_GM_U` from the `.dbf` beside it,
//! both read by geozero; the source CRS from the `.prj` WKT beside it.

use std::path::{Path, PathBuf};

use geozero::shp::ShpReader;

use crate::collect::Collector;
use crate::pipeline::{Pipeline, StreetSink};
use crate::prj::crs_from_wkt;
use crate::Source;
use crate::{choose_crs, ImportError};

const FORMAT: &str = "Shapefile";

/// The file beside `path` with this extension (as written, lower or upper case).
fn sidecar(path: &Path, extension: &str) -> Option<PathBuf> {
    [extension.to_owned(), extension.to_ascii_uppercase()]
        .into_iter()
        .map(|e| path.with_extension(e))
        .find(|p| p.is_file())
}

/// Reads the Shapefile's features into `sink`, in the CRS its `.prj` names unless `source_crs`
/// is given; returns how many streets it held.
pub(crate) fn read(source: Source<'_>, sink: &mut dyn StreetSink) -> Result<u64, ImportError> {
    let (path, source_crs, batch_size) = (source.path, source.crs, source.batch_size);
    let format_error = |reason| ImportError::format(FORMAT, reason);
    let dbf = sidecar(path, "dbf").ok_or_else(|| {
        format_error("the .dbf beside it (holding I_GM_U and N_GM_U) is missing".to_owned())
    })?;
    let crs = match sidecar(path, "prj") {
        Some(prj) => match std::fs::read_to_string(&prj) {
            Ok(wkt) => crs_from_wkt(&wkt),
            Err(source) => Err(ImportError::Io { path: prj, source }),
        },
        None => Err(ImportError::MissingCrs {
            format: FORMAT,
            detail: "no .prj beside it".to_owned(),
        }),
    };
    let open = |p: &Path| {
        std::fs::File::open(p)
            .map(std::io::BufReader::new)
            .map_err(ImportError::io(p))
    };
    let mut reader = ShpReader::new(open(path)?).map_err(|e| format_error(e.to_string()))?;
    reader
        .add_dbf_source(open(&dbf)?)
        .map_err(|e| format_error(format!("{}: {e}", dbf.display())))?;
    let mut pipeline = Pipeline::new(choose_crs(source_crs, crs)?, batch_size, sink);
    // The index holds a 100-byte header and 8 bytes a record.
    let count = sidecar(path, "shx")
        .and_then(|shx| std::fs::metadata(shx).ok())
        .map(|m| m.len().saturating_sub(100) / 8);
    pipeline.start(count);
    let mut collector = Collector::new(&mut pipeline);
    let mut failure = None;
    for record in reader
        .iter_features(&mut collector)
        .map_err(|e| format_error(e.to_string()))?
    {
        if let Err(e) = record {
            failure = Some(e.to_string());
            break;
        }
    }
    if let Some(reason) = failure {
        collector.fail(reason)?;
    }
    pipeline.finish()
}
