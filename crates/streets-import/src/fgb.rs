//! FlatGeobuf: features and properties read by the flatgeobuf crate into geozero; the source
//! CRS from the header (its EPSG code, else its WKT).

use flatgeobuf::FgbReader;

use crate::collect::Collector;
use crate::pipeline::{Pipeline, StreetSink};
use crate::prj::crs_from_wkt;
use crate::Source;
use crate::{choose_crs, parse_crs, Crs, ImportError};

const FORMAT: &str = "FlatGeobuf";

/// Reads the FlatGeobuf file's features into `sink`, in the CRS its header declares unless
/// `source_crs` is given; returns how many streets it held.
pub(crate) fn read(source: Source<'_>, sink: &mut dyn StreetSink) -> Result<u64, ImportError> {
    let (path, source_crs, batch_size) = (source.path, source.crs, source.batch_size);
    let format_error = |reason| ImportError::format(FORMAT, reason);
    let file = std::fs::File::open(path).map_err(ImportError::io(path))?;
    let reader =
        FgbReader::open(std::io::BufReader::new(file)).map_err(|e| format_error(e.to_string()))?;
    let header = reader.header();
    // 0 when the writer did not know it.
    let count = Some(header.features_count()).filter(|&n| n > 0);
    let crs = match header.crs() {
        Some(crs)
            if crs.code() > 0
                && crs.org().is_none_or(|o| o.eq_ignore_ascii_case("EPSG"))
                && (crs.wkt().is_none()
                    || u32::try_from(crs.code())
                        .ok()
                        .and_then(Crs::from_epsg)
                        .is_some()) =>
        {
            parse_crs(&format!("EPSG:{}", crs.code()))
        }
        Some(crs) => match crs.wkt() {
            Some(wkt) => crs_from_wkt(wkt),
            None => Err(ImportError::UnsupportedCrs(format!(
                "{}:{}",
                crs.org().unwrap_or("EPSG"),
                crs.code()
            ))),
        },
        None => Err(ImportError::MissingCrs {
            format: FORMAT,
            detail: "the header has no crs".to_owned(),
        }),
    };
    let mut pipeline = Pipeline::new(choose_crs(source_crs, crs)?, batch_size, sink);
    let mut features = reader
        .select_all()
        .map_err(|e| format_error(e.to_string()))?;
    pipeline.start(count);
    let mut collector = Collector::new(&mut pipeline);
    if let Err(e) = features.process_features(&mut collector) {
        collector.fail(e.to_string())?;
    }
    pipeline.finish()
}
