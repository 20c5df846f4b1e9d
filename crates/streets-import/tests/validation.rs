#![allow(clippy::unwrap_used, clippy::expect_used)]
// `tests/common/mod.rs` is Cargo's way to share a module among test targets without making
// it one, so the workspace's one module convention (Cargo.toml, mod_module_files) yields here.
#![allow(clippy::mod_module_files)]
//! Reading and validation of features.

mod common;

use common::*;
use serde_json::{json, Value};
use streets_import::{read_geojson, FeatureProblem, ImportError};

#[test]
fn reads_line_string_as_one_line_and_multi_line_string_as_many() {
    let doc = collection(vec![
        street(json!(7), json!("  Náměstí Míru "), ok_line()),
        street(
            json!(8),
            json!("Vinohradská"),
            json!({"type": "MultiLineString", "coordinates": [
                [[14.43, 50.07], [14.44, 50.07]],
                [[14.45, 50.07], [14.46, 50.07], [14.47, 50.07, 230.0]]
            ]}),
        ),
    ]);
    let streets = read(&doc).unwrap();
    assert_eq!(streets.len(), 2);
    assert_eq!(streets[0].number, 7);
    assert_eq!(streets[0].name, "Náměstí Míru");
    assert_eq!(streets[0].lines, vec![vec![[14.42, 50.08], [14.43, 50.09]]]);
    assert_eq!(streets[1].lines.len(), 2);
    assert_eq!(
        streets[1].lines[1],
        vec![[14.45, 50.07], [14.46, 50.07], [14.47, 50.07]]
    );
}

#[test]
fn number_may_be_integer_integral_float_or_digit_string() {
    let doc = collection(vec![
        street(json!(12), json!("A"), ok_line()),
        street(json!(13.0), json!("B"), ok_line()),
        street(json!("14"), json!("C"), ok_line()),
        street(json!(" 15 "), json!("D"), ok_line()),
    ]);
    let numbers: Vec<i64> = read(&doc).unwrap().iter().map(|s| s.number).collect();
    assert_eq!(numbers, vec![12, 13, 14, 15]);
}

#[test]
fn empty_collection_gives_no_streets() {
    assert!(read(&collection(vec![])).unwrap().is_empty());
    // Even with a file CRS member.
    let doc = json!({"type": "FeatureCollection", "features": [],
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::5514"}}});
    assert!(read(&doc).unwrap().is_empty());
}

#[test]
fn refuses_unreadable_json() {
    let err = read_geojson(b"{\"type\": \"FeatureCollection\", \"features\": [", None).unwrap_err();
    assert!(matches!(err, ImportError::Json(_)), "{err}");
    assert!(err.to_string().contains("not valid JSON"), "{err}");
    let err = read_geojson(b"", None).unwrap_err();
    assert!(matches!(err, ImportError::Json(_)), "{err}");
    // JSON cannot carry NaN or infinity; overflowing numbers are refused by the parser.
    let err = read_geojson(
        b"{\"type\":\"FeatureCollection\",\"features\":[1e999]}",
        None,
    )
    .unwrap_err();
    assert!(matches!(err, ImportError::Json(_)), "{err}");
}

#[test]
fn refuses_what_is_not_a_feature_collection() {
    for doc in [
        json!([]),
        json!({"type": "Feature", "properties": {}, "geometry": null}),
        json!({"features": []}),
        json!({"type": "FeatureCollection"}),
        json!({"type": "FeatureCollection", "features": {}}),
    ] {
        let err = read(&doc).unwrap_err();
        assert!(
            matches!(err, ImportError::NotFeatureCollection(_)),
            "{doc}: {err}"
        );
        assert!(
            err.to_string().contains("not a GeoJSON FeatureCollection"),
            "{err}"
        );
    }
}

#[test]
fn refuses_other_formats_by_content() {
    let err = read_geojson(b"SQLite format 3\0rest", None).unwrap_err();
    assert!(matches!(err, ImportError::UnsupportedFormat(_)), "{err}");
    assert!(err.to_string().contains("GeoPackage"), "{err}");
    let err = read_geojson(&[0, 0, 0x27, 0x0A, 0, 0], None).unwrap_err();
    assert!(err.to_string().contains("Shapefile"), "{err}");
}

#[test]
fn accepts_a_byte_order_mark() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(
        collection(vec![street(json!(1), json!("A"), ok_line())])
            .to_string()
            .bytes(),
    );
    assert_eq!(read_geojson(&bytes, None).unwrap().len(), 1);
}

#[test]
fn refuses_a_non_feature() {
    let (err, _) = refuse_second(json!({"type": "Point", "coordinates": [1, 2]}));
    assert_eq!(problem(&err), &FeatureProblem::NotAFeature);
    let (err, _) = refuse_second(json!("x"));
    assert_eq!(problem(&err), &FeatureProblem::NotAFeature);
}

#[test]
fn refuses_missing_number() {
    let (err, msg) = refuse_second(
        json!({"type": "Feature", "properties": {"N_GM_U": "Ječná"}, "geometry": ok_line()}),
    );
    assert_eq!(problem(&err), &FeatureProblem::MissingNumber);
    assert!(msg.contains("I_GM_U"), "{msg}");
    let (err, _) = refuse_second(street(Value::Null, json!("Ječná"), ok_line()));
    assert_eq!(problem(&err), &FeatureProblem::MissingNumber);
    let (err, _) =
        refuse_second(json!({"type": "Feature", "properties": null, "geometry": ok_line()}));
    assert_eq!(problem(&err), &FeatureProblem::MissingNumber);
}

#[test]
fn refuses_non_integer_number() {
    for bad in [
        json!(12.5),
        json!("12a"),
        json!("-"),
        json!(""),
        json!(true),
        json!([1]),
        json!(1e30),
    ] {
        let (err, msg) = refuse_second(street(bad.clone(), json!("Ječná"), ok_line()));
        assert!(
            matches!(problem(&err), FeatureProblem::InvalidNumber(_)),
            "{bad}: {msg}"
        );
        assert!(msg.contains("I_GM_U is not an integer"), "{msg}");
    }
}

#[test]
fn refuses_duplicate_number_naming_both_features() {
    let doc = collection(vec![
        street(json!(5), json!("A"), ok_line()),
        street(json!(6), json!("B"), ok_line()),
        street(json!("5"), json!("C"), ok_line()),
    ]);
    let err = read(&doc).unwrap_err();
    let msg = err.to_string();
    assert_eq!(err.feature_index(), Some(2));
    assert_eq!(
        msg,
        "feature at index 2 (I_GM_U 5): I_GM_U 5 is already used by the feature at index 0"
    );
}

#[test]
fn refuses_missing_or_empty_name() {
    let (err, msg) = refuse_second(
        json!({"type": "Feature", "properties": {"I_GM_U": 9}, "geometry": ok_line()}),
    );
    assert_eq!(problem(&err), &FeatureProblem::MissingName);
    assert!(msg.starts_with("feature at index 1 (I_GM_U 9): "), "{msg}");
    assert!(msg.contains("N_GM_U"), "{msg}");
    let (err, _) = refuse_second(street(json!(9), Value::Null, ok_line()));
    assert_eq!(problem(&err), &FeatureProblem::MissingName);
    for empty in ["", "   ", "\t\n"] {
        let (err, msg) = refuse_second(street(json!(9), json!(empty), ok_line()));
        assert_eq!(problem(&err), &FeatureProblem::EmptyName, "{msg}");
        assert!(msg.contains("N_GM_U is empty"), "{msg}");
    }
    let (err, _) = refuse_second(street(json!(9), json!(42), ok_line()));
    assert!(matches!(problem(&err), FeatureProblem::InvalidName(_)));
}

#[test]
fn refuses_missing_geometry() {
    let (err, msg) =
        refuse_second(json!({"type": "Feature", "properties": {"I_GM_U": 9, "N_GM_U": "X"}}));
    assert_eq!(problem(&err), &FeatureProblem::MissingGeometry);
    assert_eq!(msg, "feature at index 1 (I_GM_U 9): has no geometry");
    let (err, _) = refuse_second(street(json!(9), json!("X"), Value::Null));
    assert_eq!(problem(&err), &FeatureProblem::MissingGeometry);
}

#[test]
fn refuses_empty_geometry() {
    let (err, _) = refuse_second(street(json!(9), json!("X"), line(json!([]))));
    assert_eq!(problem(&err), &FeatureProblem::EmptyGeometry);
    let (err, _) = refuse_second(street(
        json!(9),
        json!("X"),
        json!({"type": "MultiLineString", "coordinates": []}),
    ));
    assert_eq!(problem(&err), &FeatureProblem::EmptyGeometry);
}

#[test]
fn refuses_non_line_geometry() {
    for kind in [
        "Point",
        "MultiPoint",
        "Polygon",
        "MultiPolygon",
        "GeometryCollection",
    ] {
        let (err, msg) = refuse_second(street(
            json!(9),
            json!("X"),
            json!({"type": kind, "coordinates": [14.4, 50.0]}),
        ));
        assert_eq!(
            problem(&err),
            &FeatureProblem::UnsupportedGeometry(kind.to_owned())
        );
        assert!(msg.contains(kind), "{msg}");
    }
}

#[test]
fn refuses_malformed_geometry() {
    for geometry in [
        json!("LINESTRING(0 0, 1 1)"),
        json!({"coordinates": [[14.4, 50.0], [14.5, 50.0]]}),
        json!({"type": "LineString"}),
        json!({"type": "LineString", "coordinates": [[14.4, 50.0], "x"]}),
        json!({"type": "LineString", "coordinates": [[14.4, 50.0], [14.5]]}),
        json!({"type": "LineString", "coordinates": [[14.4, 50.0], [14.5, "50"]]}),
        json!({"type": "MultiLineString", "coordinates": [[14.4, 50.0], [14.5, 50.0]]}),
    ] {
        let (err, msg) = refuse_second(street(json!(9), json!("X"), geometry.clone()));
        assert!(
            matches!(problem(&err), FeatureProblem::MalformedGeometry(_)),
            "{geometry}: {msg}"
        );
    }
}

#[test]
fn refuses_a_line_with_fewer_than_two_positions() {
    let (err, msg) = refuse_second(street(json!(9), json!("X"), line(json!([[14.4, 50.0]]))));
    assert_eq!(
        problem(&err),
        &FeatureProblem::TooFewPositions { line: 0, count: 1 }
    );
    assert!(msg.contains("line 0 has 1 position"), "{msg}");
    let multi =
        json!({"type": "MultiLineString", "coordinates": [[[14.4, 50.0], [14.5, 50.0]], []]});
    let (err, _) = refuse_second(street(json!(9), json!("X"), multi));
    assert_eq!(
        problem(&err),
        &FeatureProblem::TooFewPositions { line: 1, count: 0 }
    );
}
