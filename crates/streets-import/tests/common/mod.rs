//! GeoJSON documents for the validation tests.
#![allow(dead_code)] // each test file uses some of these

use serde_json::{json, Value};
use streets_import::{read_geojson, FeatureProblem, ImportError};

pub fn collection(features: Vec<Value>) -> Value {
    json!({"type": "FeatureCollection", "features": features})
}

pub fn street(number: Value, name: Value, geometry: Value) -> Value {
    json!({"type": "Feature", "properties": {"I_GM_U": number, "N_GM_U": name}, "geometry": geometry})
}

pub fn line(coords: Value) -> Value {
    json!({"type": "LineString", "coordinates": coords})
}

pub fn ok_line() -> Value {
    line(json!([[14.42, 50.08], [14.43, 50.09]]))
}

pub fn read(doc: &Value) -> Result<Vec<streets_import::ImportedStreet>, ImportError> {
    read_geojson(doc.to_string().as_bytes(), None)
}

/// A valid first feature, then `bad` at index 1; the error must name index 1.
pub fn refuse_second(bad: Value) -> (ImportError, String) {
    let doc = collection(vec![street(json!(1), json!("Žitná"), ok_line()), bad]);
    let err = read(&doc).expect_err("the file must be refused");
    let msg = err.to_string();
    assert_eq!(err.feature_index(), Some(1), "{msg}");
    assert!(msg.contains("feature at index 1"), "{msg}");
    (err, msg)
}

pub fn problem(err: &ImportError) -> &FeatureProblem {
    match err {
        ImportError::Feature { problem, .. } => problem,
        other => panic!("not a feature error: {other}"),
    }
}
