#![allow(clippy::unwrap_used, clippy::expect_used)]
// `tests/common/mod.rs` is Cargo's way to share a module among test targets without making
// it one, so the workspace's one module convention (Cargo.toml, mod_module_files) yields here.
#![allow(clippy::mod_module_files)]
//! Source areas, CRS precedence and CRS names; reading the sample file.

mod common;

use common::*;
use serde_json::json;
use streets_import::{parse_crs, read_file, read_geojson, Crs, FeatureProblem, ImportError};

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
    let err = read_geojson(doc.to_string().as_bytes(), Some("EPSG:9999")).unwrap_err();
    assert!(
        matches!(err, ImportError::UnsupportedCrs(ref s) if s == "EPSG:9999"),
        "{err}"
    );
    assert!(err.to_string().contains("\"EPSG:9999\""), "{err}");

    let doc = json!({"type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::32600"}},
        "features": [street(json!(1), json!("A"), ok_line())]});
    let err = read(&doc).unwrap_err();
    assert!(
        err.to_string().contains("urn:ogc:def:crs:EPSG::32600"),
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
        ("epsg:3857", Crs::Epsg(3857)),
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
        ("EPSG:32633", Crs::Epsg(32633)),
        ("EPSG:32756", Crs::Epsg(32756)),
        ("EPSG:25832", Crs::Epsg(25832)),
        ("EPSG:3067", Crs::Epsg(3067)),
        ("EPSG:2065", Crs::Epsg(2065)),
        ("urn:ogc:def:crs:EPSG::31467", Crs::Epsg(31467)),
    ] {
        assert_eq!(parse_crs(s).unwrap(), crs, "{s}");
    }
    for bad in [
        "",
        "EPSG:",
        "EPSG:5514x",
        "EPSG:32600",
        "EPSG:25827",
        "EPSG:70000",
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
    assert_eq!(Crs::Epsg(32707).to_string(), "EPSG:32707");
    assert_eq!(Crs::Crs84.to_string(), "OGC:CRS84");
    assert_eq!("epsg:25833".parse::<Crs>().unwrap(), Crs::Epsg(25833));
}

#[test]
fn a_crs_whose_projection_cannot_be_used_is_refused_with_its_name() {
    // EPSG:3068, DHDN / Soldner Berlin: a Cassini-Soldner projection, which proj4rs does not
    // implement; EPSG:4978 is geocentric.
    for code in ["EPSG:3068", "EPSG:4978"] {
        let err = parse_crs(code).unwrap_err();
        assert!(
            matches!(err, ImportError::UnreadableCrs { ref name, .. } if name == code),
            "{code}: {err}"
        );
        assert!(err.to_string().contains(code), "{err}");
    }
    let doc = collection(vec![street(json!(1), json!("A"), ok_line())]);
    let err = read_geojson(doc.to_string().as_bytes(), Some("EPSG:3068")).unwrap_err();
    assert!(err.to_string().contains("EPSG:3068"), "{err}");
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
