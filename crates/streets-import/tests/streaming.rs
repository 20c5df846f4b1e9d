#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `read_streets`: every format handed over in batches of the size asked for, with the feature
//! count up front, the same streets as `read_file`; a GeoJSON `crs` member after the features.

use std::path::PathBuf;

use streets_import::{read_file, read_streets, ImportError, ImportedStreet, StreetSink};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[derive(Default)]
struct Batches {
    count: Option<Option<u64>>,
    sizes: Vec<usize>,
    streets: Vec<ImportedStreet>,
}

impl StreetSink for Batches {
    fn start(&mut self, feature_count: Option<u64>) {
        assert!(self.count.is_none(), "start is called once");
        assert!(self.sizes.is_empty(), "start comes before the batches");
        self.count = Some(feature_count);
    }

    fn batch(&mut self, streets: Vec<ImportedStreet>) -> Result<(), ImportError> {
        self.sizes.push(streets.len());
        self.streets.extend(streets);
        Ok(())
    }
}

#[test]
fn every_format_streams_in_batches_of_the_size_asked_for() {
    for name in [
        "streets.gpkg",
        "streets.shp",
        "streets.fgb",
        "prague_sample_5514.geojson",
    ] {
        let path = fixture(name);
        let mut sink = Batches::default();
        let total = read_streets(&path, None, 5, &mut sink).unwrap();
        assert_eq!(total, 16, "{name}");
        assert_eq!(sink.count, Some(Some(16)), "{name}: the count up front");
        assert_eq!(sink.sizes, [5, 5, 5, 1], "{name}");
        assert_eq!(sink.streets, read_file(&path, None).unwrap(), "{name}");
    }
}

#[test]
fn a_sink_error_stops_the_read() {
    struct Refuse;
    impl StreetSink for Refuse {
        fn batch(&mut self, _: Vec<ImportedStreet>) -> Result<(), ImportError> {
            Err(ImportError::Stopped("the writer failed".to_owned()))
        }
    }
    for name in [
        "streets.gpkg",
        "streets.shp",
        "streets.fgb",
        "prague_sample_5514.geojson",
    ] {
        let err = read_streets(&fixture(name), None, 5, &mut Refuse).unwrap_err();
        assert!(matches!(err, ImportError::Stopped(_)), "{name}: {err}");
    }
}

#[test]
fn a_crs_member_after_the_features_applies_to_them() {
    let sample = std::fs::read_to_string(fixture("prague_sample_5514.geojson")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&sample).unwrap();
    let crs = doc
        .as_object_mut()
        .unwrap()
        .remove("crs")
        .expect("a crs member");
    // serde_json keeps insertion order only with preserve_order; write the members by hand.
    let moved = format!(
        r#"{{"type":"FeatureCollection","features":{},"crs":{crs}}}"#,
        doc["features"]
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crs-last.geojson");
    std::fs::write(&path, moved).unwrap();
    assert_eq!(
        read_file(&path, None).unwrap(),
        read_file(&fixture("prague_sample_5514.geojson"), None).unwrap()
    );
}
