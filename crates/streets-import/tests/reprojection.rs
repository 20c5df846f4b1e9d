#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Reprojection accuracy against PROJ's own results (tests/fixtures/reference_points.json,
//! written by tests/fixtures/make_reference.py with pyproj).

use std::collections::BTreeMap;

use serde_json::{json, Value};
use streets_import::read_geojson;

const FIXTURE: &str = include_str!("fixtures/reference_points.json");

/// Great-circle distance in metres (mean Earth radius).
fn haversine_m(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (lon1, lat1) = (a[0].to_radians(), a[1].to_radians());
    let (lon2, lat2) = (b[0].to_radians(), b[1].to_radians());
    let h = ((lat2 - lat1) / 2.0).sin().powi(2)
        + lat1.cos() * lat2.cos() * ((lon2 - lon1) / 2.0).sin().powi(2);
    2.0 * 6_371_008.8 * h.sqrt().asin()
}

struct Reference {
    crs: String,
    place: String,
    x: f64,
    y: f64,
    lon: f64,
    lat: f64,
    operation: String,
}

fn references() -> Vec<Reference> {
    let doc: Value = serde_json::from_str(FIXTURE).unwrap();
    doc["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| Reference {
            crs: p["crs"].as_str().unwrap().to_owned(),
            place: p["place"].as_str().unwrap().to_owned(),
            x: p["x"].as_f64().unwrap(),
            y: p["y"].as_f64().unwrap(),
            lon: p["lon"].as_f64().unwrap(),
            lat: p["lat"].as_f64().unwrap(),
            operation: p["operation"].as_str().unwrap().to_owned(),
        })
        .collect()
}

/// Runs every reference point of one CRS through `read_geojson` (one feature per point,
/// a two-position line from the point to itself) and returns the max error in metres.
fn max_error_m(refs: &[&Reference], crs: &str) -> f64 {
    let features: Vec<Value> = refs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "type": "Feature",
                "properties": {"I_GM_U": i, "N_GM_U": r.place},
                "geometry": {"type": "LineString", "coordinates": [[r.x, r.y], [r.x, r.y]]}
            })
        })
        .collect();
    let doc = json!({"type": "FeatureCollection", "features": features});
    let streets = read_geojson(doc.to_string().as_bytes(), Some(crs))
        .unwrap_or_else(|e| panic!("{crs}: {e}"));
    assert_eq!(streets.len(), refs.len());
    let mut worst: f64 = 0.0;
    for (street, r) in streets.iter().zip(refs) {
        let got = street.lines[0][0];
        let err = haversine_m(got, [r.lon, r.lat]);
        assert!(
            err < 1.0,
            "{crs} {} ({}, {}): got {got:?}, PROJ gives [{}, {}] via {:?}: {err:.3} m off",
            r.place,
            r.x,
            r.y,
            r.lon,
            r.lat,
            r.operation
        );
        worst = worst.max(err);
    }
    worst
}

fn by_crs() -> BTreeMap<String, Vec<Reference>> {
    let mut map: BTreeMap<String, Vec<Reference>> = BTreeMap::new();
    for r in references() {
        map.entry(r.crs.clone()).or_default().push(r);
    }
    map
}

fn check(filter: impl Fn(&str) -> bool, min_points: usize) {
    let mut checked = 0;
    for (crs, refs) in by_crs() {
        if !filter(&crs) {
            continue;
        }
        let refs: Vec<&Reference> = refs.iter().collect();
        let worst = max_error_m(&refs, &crs);
        println!("{crs}: {} points, max error {worst:.6} m", refs.len());
        checked += refs.len();
    }
    assert!(
        checked >= min_points,
        "only {checked} reference points checked"
    );
}

#[test]
fn sjtsk_krovak_matches_proj_within_a_metre() {
    check(|c| c == "EPSG:5514", 50);
}

#[test]
fn sjtsk_uses_each_of_projs_transformations() {
    // The fixture covers all three operations PROJ picks from, so the per-point
    // choice is exercised, not just the Czech one.
    let refs = references();
    for op in [
        "S-JTSK to WGS 84 (3)",
        "S-JTSK to WGS 84 (4)",
        "S-JTSK to WGS 84 (5)",
    ] {
        assert!(
            refs.iter()
                .any(|r| r.crs == "EPSG:5514" && r.operation.contains(op)),
            "no reference point for {op}"
        );
    }
    // Prague uses EPSG:5239, the 7-parameter Czech transformation.
    let prague = refs
        .iter()
        .find(|r| r.crs == "EPSG:5514" && r.place.starts_with("Praha"))
        .unwrap();
    assert!(prague.operation.contains("S-JTSK to WGS 84 (5)"));
}

#[test]
fn sjtsk_three_parameter_shift_would_be_metres_off() {
    // Guards the fixture and the test itself: Prague with the 3-parameter shift
    // (EPSG:1623, as in PROJ's "S-JTSK to WGS 84 (3)") lands several metres away.
    let refs = references();
    let prague = refs
        .iter()
        .find(|r| r.crs == "EPSG:5514" && r.place == "Praha, Václavské náměstí")
        .unwrap();
    let src = proj4rs::proj::Proj::from_proj_string(
        "+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 \
         +x_0=0 +y_0=0 +ellps=bessel +towgs84=589,76,480,0,0,0,0 +units=m +no_defs",
    )
    .unwrap();
    let dst = proj4rs::proj::Proj::from_proj_string("+proj=longlat +datum=WGS84 +no_defs").unwrap();
    let mut p = (prague.x, prague.y, 0.0);
    proj4rs::transform::transform(&src, &dst, &mut p).unwrap();
    let err = haversine_m(
        [p.0.to_degrees(), p.1.to_degrees()],
        [prague.lon, prague.lat],
    );
    println!("3-parameter shift at Prague: {err:.2} m off");
    assert!(err > 3.0, "3-parameter shift is only {err:.2} m off");
}

#[test]
fn web_mercator_matches_proj_within_a_metre() {
    check(|c| c == "EPSG:3857", 5);
}

#[test]
fn wgs84_utm_north_and_south_match_proj_within_a_metre() {
    check(|c| c.starts_with("EPSG:326"), 3);
    check(|c| c.starts_with("EPSG:327"), 3);
}

#[test]
fn etrs89_utm_matches_proj_within_a_metre() {
    check(|c| c.starts_with("EPSG:258"), 5);
}

#[test]
fn wgs84_and_crs84_pass_through() {
    check(|c| c == "EPSG:4326" || c == "OGC:CRS84", 10);
}

#[test]
fn krovak_axes_are_east_north_with_negative_values() {
    // Prague is about (-743000, -1043000); moving east (x grows toward 0) increases
    // the longitude, moving north (y grows toward 0) increases the latitude.
    let at = |x: f64, y: f64| {
        let doc = json!({"type": "FeatureCollection", "features": [{
            "type": "Feature", "properties": {"I_GM_U": 1, "N_GM_U": "A"},
            "geometry": {"type": "LineString", "coordinates": [[x, y], [x, y]]}}]});
        read_geojson(doc.to_string().as_bytes(), Some("EPSG:5514")).unwrap()[0].lines[0][0]
    };
    let base = at(-743_000.0, -1_043_000.0);
    assert!(
        (14.3..14.6).contains(&base[0]) && (50.0..50.2).contains(&base[1]),
        "{base:?}"
    );
    let east = at(-742_000.0, -1_043_000.0);
    let north = at(-743_000.0, -1_042_000.0);
    assert!(east[0] > base[0]);
    assert!(north[1] > base[1]);
}
