#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Real exports in national CRSs (tests/fixtures/national, written by ogr2ogr from
//! make_national.py): GeoPackage, Shapefile, FlatGeobuf and GeoJSON in EPSG:3067 (Finland),
//! 2180 (Poland), 2056 (Switzerland), 27700 (Great Britain) and 2154 (France), each read with
//! the CRS as GDAL wrote it, every vertex within 0.1 m of what PROJ's cs2cs gives
//! (national/reference.json).

use std::path::PathBuf;

use serde_json::Value;
use streets_import::read_file;

const REFERENCE: &str = include_str!("fixtures/national/reference.json");
const CODES: [u32; 5] = [3067, 2180, 2056, 27700, 2154];
const FORMATS: [&str; 4] = ["gpkg", "shp", "fgb", "geojson"];

fn fixture(code: u32, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/national/{code}.{ext}"))
}

/// Distance in metres between two WGS84 positions close to each other (local tangent plane
/// of the ellipsoid: exact to far better than a millimetre at these distances).
fn distance_m(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (a_axis, e2) = (6_378_137.0_f64, 0.006_694_379_990_14_f64);
    let lat = a[1].to_radians();
    let w = (1.0 - e2 * lat.sin().powi(2)).sqrt();
    let north = a_axis * (1.0 - e2) / w.powi(3);
    let east = a_axis / w * lat.cos();
    let dy = (b[1] - a[1]).to_radians() * north;
    let dx = (b[0] - a[0]).to_radians() * east;
    dx.hypot(dy)
}

/// The largest distance from PROJ's answer over every vertex of the export.
fn worst_error_m(code: u32, ext: &str, source_crs: Option<&str>) -> f64 {
    let reference: Value = serde_json::from_str(REFERENCE).unwrap();
    let expected = &reference["crs"][format!("EPSG:{code}")]["streets"];
    let streets = read_file(&fixture(code, ext), source_crs)
        .unwrap_or_else(|e| panic!("EPSG:{code} .{ext}: {e}"));
    assert_eq!(
        streets.len(),
        expected.as_object().unwrap().len(),
        "{code}.{ext}"
    );
    let mut worst: f64 = 0.0;
    let mut vertices = 0;
    for street in &streets {
        let lines = expected[street.number.to_string()].as_array().unwrap();
        assert_eq!(
            street.lines.len(),
            lines.len(),
            "{code}.{ext} {}",
            street.number
        );
        for (got, want) in street.lines.iter().zip(lines) {
            let want = want.as_array().unwrap();
            assert_eq!(got.len(), want.len(), "{code}.{ext} {}", street.number);
            for (g, w) in got.iter().zip(want) {
                let w = [w["lon"].as_f64().unwrap(), w["lat"].as_f64().unwrap()];
                let d = distance_m(*g, w);
                assert!(
                    d < 0.1,
                    "EPSG:{code} .{ext} street {}: {g:?}, PROJ gives {w:?}: {d:.3} m off",
                    street.number
                );
                worst = worst.max(d);
                vertices += 1;
            }
        }
    }
    assert!(vertices >= 48, "{code}.{ext}: only {vertices} vertices");
    worst
}

#[test]
fn every_export_is_within_a_decimetre_of_proj() {
    for code in CODES {
        for ext in FORMATS {
            let worst = worst_error_m(code, ext, None);
            println!("EPSG:{code} .{ext}: worst {worst:.4} m");
        }
    }
}

#[test]
fn the_source_crs_flag_takes_any_epsg_code() {
    for code in CODES {
        let worst = worst_error_m(code, "geojson", Some(&format!("EPSG:{code}")));
        println!("EPSG:{code} by --source-crs: worst {worst:.4} m");
    }
}

#[test]
fn the_reference_comes_from_proj_with_a_datum_shift() {
    // Guards the fixture: for Great Britain and Switzerland PROJ applies a Helmert shift of
    // tens of metres, so a reader that ignored it could not pass the test above.
    let reference: Value = serde_json::from_str(REFERENCE).unwrap();
    for (code, operation) in [
        (27700, "OSGB36 to WGS 84 (6)"),
        (2056, "CH1903+ to WGS 84 (1)"),
    ] {
        let op = reference["crs"][format!("EPSG:{code}")]["operation"]
            .as_str()
            .unwrap();
        assert!(op.contains(operation), "EPSG:{code}: {op}");
    }
    assert!(reference["proj"].as_str().unwrap().starts_with("Rel. "));
}
