#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Reading, validation and CRS precedence.

use serde_json::{json, Value};
use streets_import::{parse_crs, read_file, read_geojson, Crs, FeatureProblem, ImportError};

fn collection(features: Vec<Value>) -> Value {
    json!({"type": "FeatureCollection", "features": features})
}

fn street(number: Value, name: Value, geometry: Value) -> Value {
    json!({"type": "Feature", "properties": {"I_GM_U": number, "N_GM_U": name}, "geometry": geometry})
}

fn line(coords: Value) -> Value {
    json!({"type": "LineString", "coordinates": coords})
}

fn ok_line() -> Value {
    line(json!([[14.42, 50.08], [14.43, 50.09]]))
}

fn read(doc: &Value) -> Result<Vec<streets_import::ImportedStreet>, ImportError> {
    read_geojson(doc.to_string().as_bytes(), None)
}

/// A valid first feature, then `bad` at index 1; the error must name index 1.
fn refuse_second(bad: Value) -> (ImportError, String) {
    let doc = collection(vec![street(json!(1), json!("Žitná"), ok_line()), bad]);
    let err = read(&doc).expect_err("the file must be refused");
    let msg = err.to_string();
    assert_eq!(err.feature_index(), Some(1), "{msg}");
    assert!(msg.contains("feature at index 1"), "{msg}");
    (err, msg)
}

fn problem(err: &ImportError) -> &FeatureProblem {
    match err {
        ImportError::Feature { problem, .. } => problem,
        other => panic!("not a feature error: {other}"),
    }
}

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

#[test]
fn refuses_coordinates_outside_the_source_area_of_use() {
    // WGS84: latitude out of range, longitude out of range, and swapped axes.
    for (crs, bad) in [
        (None, [14.4, 95.0]),
        (None, [190.0, 50.0]),
        (Some("EPSG:5514"), [-743_000.0, -800_000.0]),
        (Some("EPSG:5514"), [743_000.0, 1_043_000.0]),
        (Some("EPSG:5514"), [-1_043_000.0, -743_000.0]),
        (Some("EPSG:5514"), [14.4, 50.0]),
        (Some("EPSG:3857"), [20_037_600.0, 0.0]),
        (Some("EPSG:32633"), [50_000.0, 5_500_000.0]),
        (Some("EPSG:32633"), [450_000.0, -10.0]),
        (Some("EPSG:25833"), [950_000.0, 5_500_000.0]),
    ] {
        // Put the bad position second in the line of the second feature.
        let good = match crs {
            None => [14.4, 50.0],
            Some("EPSG:5514") => [-743_000.0, -1_043_000.0],
            Some("EPSG:3857") => [1_600_000.0, 6_400_000.0],
            Some(_) => [450_000.0, 5_500_000.0],
        };
        let doc = collection(vec![
            street(
                json!(1),
                json!("Ok"),
                line(json!([[good[0], good[1]], [good[0], good[1]]])),
            ),
            street(
                json!(2),
                json!("Bad"),
                line(json!([[good[0], good[1]], [bad[0], bad[1]]])),
            ),
        ]);
        let err = read_geojson(doc.to_string().as_bytes(), crs).unwrap_err();
        let msg = err.to_string();
        assert_eq!(err.feature_index(), Some(1), "{msg}");
        assert!(
            matches!(
                problem(&err),
                FeatureProblem::OutsideArea {
                    line: 0,
                    position: 1,
                    ..
                }
            ),
            "{crs:?} {bad:?}: {msg}"
        );
        assert!(
            msg.starts_with("feature at index 1 (I_GM_U 2): line 0, position 1:"),
            "{msg}"
        );
        assert!(msg.contains("outside the area of use"), "{msg}");
    }
}

#[test]
fn refuses_a_result_outside_valid_lon_lat() {
    // Inside the UTM easting/northing box, but so far north that the inverse
    // projection leaves the valid latitude range or fails.
    let doc = collection(vec![street(
        json!(3),
        json!("Polar"),
        line(json!([[500_000.0, 9_990_000.0], [500_000.0, 9_999_000.0]])),
    )]);
    match read_geojson(doc.to_string().as_bytes(), Some("EPSG:32633")) {
        Ok(streets) => {
            // PROJ too gives ~89.9° here; then it must be a valid position.
            let [lon, lat] = streets[0].lines[0][1];
            assert!((-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat));
        }
        Err(err) => {
            assert!(matches!(
                problem(&err),
                FeatureProblem::OutsideWgs84 { .. } | FeatureProblem::Reprojection { .. }
            ));
        }
    }
}

#[test]
fn crs_flag_overrides_file_member_which_overrides_default() {
    let prague_5514 = [-743_000.0, -1_043_000.0];
    let prague_3857 = [1_605_000.0, 6_461_000.0];
    let with_member = |coords: [f64; 2], name: &str| {
        json!({"type": "FeatureCollection",
            "crs": {"type": "name", "properties": {"name": name}},
            "features": [street(json!(1), json!("A"), line(json!([coords, coords])))]})
    };

    // File member used when there is no flag.
    let doc = with_member(prague_5514, "urn:ogc:def:crs:EPSG::5514");
    let got = read_geojson(doc.to_string().as_bytes(), None).unwrap()[0].lines[0][0];
    assert!(
        (14.3..14.6).contains(&got[0]) && (50.0..50.2).contains(&got[1]),
        "{got:?}"
    );

    // The flag wins over the file member (and a wrong file member is then not read).
    let doc = with_member(prague_3857, "urn:ogc:def:crs:EPSG::5514");
    let got = read_geojson(doc.to_string().as_bytes(), Some("EPSG:3857")).unwrap()[0].lines[0][0];
    assert!(
        (14.3..14.6).contains(&got[0]) && (50.0..50.2).contains(&got[1]),
        "{got:?}"
    );
    let doc = with_member(prague_3857, "EPSG:999999");
    assert!(read_geojson(doc.to_string().as_bytes(), Some("EPSG:3857")).is_ok());

    // No flag, no member: WGS84, so Krovak coordinates are out of range.
    let doc = collection(vec![street(
        json!(1),
        json!("A"),
        line(json!([prague_5514, prague_5514])),
    )]);
    let err = read_geojson(doc.to_string().as_bytes(), None).unwrap_err();
    assert!(err.to_string().contains("EPSG:4326"), "{err}");
    let doc = collection(vec![street(
        json!(1),
        json!("A"),
        line(json!([[14.42, 50.08], [14.42, 50.08]])),
    )]);
    assert_eq!(
        read_geojson(doc.to_string().as_bytes(), None).unwrap()[0].lines[0][0],
        [14.42, 50.08]
    );

    // Legacy {"type":"EPSG"} member.
    let doc = json!({"type": "FeatureCollection", "crs": {"type": "EPSG", "properties": {"code": 5514}},
        "features": [street(json!(1), json!("A"), line(json!([prague_5514, prague_5514])))]});
    assert!(read(&doc).is_ok());
}

#[test]
fn refuses_unknown_crs_naming_it() {
    let doc = collection(vec![street(json!(1), json!("A"), ok_line())]);
    let err = read_geojson(doc.to_string().as_bytes(), Some("EPSG:2065")).unwrap_err();
    assert!(
        matches!(err, ImportError::UnsupportedCrs(ref s) if s == "EPSG:2065"),
        "{err}"
    );
    assert!(err.to_string().contains("\"EPSG:2065\""), "{err}");

    let doc = json!({"type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::31467"}},
        "features": [street(json!(1), json!("A"), ok_line())]});
    let err = read(&doc).unwrap_err();
    assert!(
        err.to_string().contains("urn:ogc:def:crs:EPSG::31467"),
        "{err}"
    );

    let doc = json!({"type": "FeatureCollection", "crs": {"type": "link", "properties": {"href": "x"}},
        "features": [street(json!(1), json!("A"), ok_line())]});
    assert!(matches!(
        read(&doc).unwrap_err(),
        ImportError::InvalidCrsMember(_)
    ));
}

#[test]
fn crs_string_forms() {
    for (s, crs) in [
        ("EPSG:5514", Crs::SJtskKrovakEastNorth),
        ("epsg:3857", Crs::WebMercator),
        ("urn:ogc:def:crs:EPSG::5514", Crs::SJtskKrovakEastNorth),
        ("urn:ogc:def:crs:EPSG:9.9.1:5514", Crs::SJtskKrovakEastNorth),
        (
            "http://www.opengis.net/def/crs/EPSG/0/5514",
            Crs::SJtskKrovakEastNorth,
        ),
        ("urn:ogc:def:crs:OGC:1.3:CRS84", Crs::Crs84),
        ("OGC:CRS84", Crs::Crs84),
        ("EPSG:4326", Crs::Wgs84),
        ("5514", Crs::SJtskKrovakEastNorth),
        (" 4326 ", Crs::Wgs84),
        (
            "EPSG:32633",
            Crs::WgsUtm {
                zone: 33,
                north: true,
            },
        ),
        (
            "EPSG:32756",
            Crs::WgsUtm {
                zone: 56,
                north: false,
            },
        ),
        ("EPSG:25832", Crs::EtrsUtm { zone: 32 }),
    ] {
        assert_eq!(parse_crs(s).unwrap(), crs, "{s}");
    }
    for bad in [
        "",
        "EPSG:",
        "EPSG:5514x",
        "EPSG:32600",
        "EPSG:32661",
        "EPSG:25827",
        "ESRI:102067",
        "WGS84",
        "urn:ogc:def:crs:EPSG:5514",
        "-5514",
    ] {
        let err = parse_crs(bad).unwrap_err();
        assert!(
            matches!(err, ImportError::UnsupportedCrs(ref s) if s == bad),
            "{bad}: {err}"
        );
    }
    assert_eq!(Crs::SJtskKrovakEastNorth.to_string(), "EPSG:5514");
    assert_eq!(
        Crs::WgsUtm {
            zone: 7,
            north: false
        }
        .to_string(),
        "EPSG:32707"
    );
    assert_eq!(Crs::Crs84.to_string(), "OGC:CRS84");
    assert_eq!(
        "epsg:25833".parse::<Crs>().unwrap(),
        Crs::EtrsUtm { zone: 33 }
    );
}

#[test]
fn reads_the_prague_sample_file() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/prague_sample_5514.geojson");
    let streets = read_file(&path, None).unwrap();
    assert!((10..=20).contains(&streets.len()));
    let mir = streets.iter().find(|s| s.name == "Náměstí Míru").unwrap();
    let [lon, lat] = mir.lines[0][0];
    assert!(
        (14.43..14.44).contains(&lon) && (50.07..50.08).contains(&lat),
        "{lon} {lat}"
    );
    assert!(streets.iter().any(|s| s.lines.len() > 1));
    for s in &streets {
        for p in s.lines.iter().flatten() {
            assert!(
                (14.2..14.7).contains(&p[0]) && (49.9..50.2).contains(&p[1]),
                "{} {p:?}",
                s.name
            );
        }
    }
}

#[test]
fn read_file_reports_io_errors_with_the_path() {
    let err = read_file(std::path::Path::new("/nonexistent/streets.geojson"), None).unwrap_err();
    assert!(matches!(err, ImportError::Io { .. }));
    assert!(
        err.to_string().contains("/nonexistent/streets.geojson"),
        "{err}"
    );
}
