//! GeoPackage, Shapefile and FlatGeobuf: made from the demo GeoJSON by ogr2ogr
//! (tests/fixtures/make_fixtures.sh), they must import to the same streets, be refused the same
//! way, and take their CRS from the file unless one is given.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a test failure

use std::path::{Path, PathBuf};

use streets_import::{read_file, FeatureProblem, FileFormat, ImportError, ImportedStreet};

const FORMATS: [&str; 3] = ["gpkg", "shp", "fgb"];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn demo() -> Vec<ImportedStreet> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../streets-api/demo/prague-demo-5514.geojson");
    read_file(&path, None).unwrap()
}

/// Same numbers, names and lines; positions within 1 mm (1e-8 degrees is about 1 mm or less).
fn assert_same(got: &[ImportedStreet], want: &[ImportedStreet], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.number, &g.name), (w.number, &w.name), "{what}");
        assert_eq!(g.lines.len(), w.lines.len(), "{what} {}", g.number);
        for (gl, wl) in g.lines.iter().zip(&w.lines) {
            assert_eq!(gl.len(), wl.len(), "{what} {}", g.number);
            for (gp, wp) in gl.iter().zip(wl) {
                let (dx, dy) = (gp[0] - wp[0], gp[1] - wp[1]);
                assert!(
                    dx.abs() < 1e-8 && dy.abs() < 1e-8,
                    "{what} {}: {gp:?} vs {wp:?}",
                    g.number
                );
            }
        }
    }
}

#[test]
fn every_format_imports_the_same_streets_as_the_geojson() {
    let want = demo();
    assert_eq!(want.len(), 16);
    assert!(want.iter().any(|s| s.lines.len() > 1), "a MultiLineString");
    for ext in FORMATS {
        let got = read_file(&fixture(&format!("streets.{ext}")), None)
            .unwrap_or_else(|e| panic!("{ext}: {e}"));
        assert_same(&got, &want, ext);
    }
}

#[test]
fn the_source_crs_flag_wins_over_the_file() {
    for ext in FORMATS {
        let path = fixture(&format!("streets.{ext}"));
        // The file says EPSG:5514; the same flag changes nothing.
        assert_same(&read_file(&path, Some("EPSG:5514")).unwrap(), &demo(), ext);
        // A different flag is used: S-JTSK coordinates are outside UTM 33N's area.
        let err = read_file(&path, Some("EPSG:32633")).unwrap_err();
        assert!(
            matches!(
                err,
                ImportError::Feature {
                    index: 0,
                    problem: FeatureProblem::OutsideArea { .. },
                    ..
                }
            ),
            "{ext}: {err}"
        );
        // A flag that is no CRS is refused as for GeoJSON.
        let err = read_file(&path, Some("EPSG:9999")).unwrap_err();
        assert!(
            matches!(err, ImportError::UnsupportedCrs(_)),
            "{ext}: {err}"
        );
    }
}

#[test]
fn a_shapefile_without_prj_needs_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["shp", "shx", "dbf", "cpg"] {
        std::fs::copy(
            fixture(&format!("streets.{ext}")),
            dir.path().join(format!("s.{ext}")),
        )
        .unwrap();
    }
    let path = dir.path().join("s.shp");
    let err = read_file(&path, None).unwrap_err();
    assert!(matches!(err, ImportError::MissingCrs { .. }), "{err}");
    assert!(err.to_string().contains(".prj"), "{err}");
    assert_same(
        &read_file(&path, Some("EPSG:5514")).unwrap(),
        &demo(),
        "no .prj",
    );

    // An unknown .prj is named; the flag still wins.
    std::fs::write(
        dir.path().join("s.prj"),
        r#"PROJCS["Mars_Grid",GEOGCS["GCS_Mars_2000"]]"#,
    )
    .unwrap();
    let err = read_file(&path, None).unwrap_err();
    assert!(err.to_string().contains("Mars_Grid"), "{err}");
    assert_eq!(read_file(&path, Some("EPSG:5514")).unwrap().len(), 16);

    // Without its .dbf there are no numbers and names.
    std::fs::remove_file(dir.path().join("s.dbf")).unwrap();
    let err = read_file(&path, Some("EPSG:5514")).unwrap_err();
    assert!(err.to_string().contains(".dbf"), "{err}");
}

#[test]
fn a_duplicate_number_is_refused_naming_the_feature_in_every_format() {
    for ext in FORMATS {
        let err = read_file(&fixture(&format!("broken-duplicate.{ext}")), None).unwrap_err();
        assert!(
            matches!(
                err,
                ImportError::Feature {
                    index: 15,
                    number: Some(1001),
                    problem: FeatureProblem::DuplicateNumber {
                        number: 1001,
                        first_index: 0
                    },
                }
            ),
            "{ext}: {err}"
        );
        assert!(
            err.to_string()
                .starts_with("feature at index 15 (I_GM_U 1001)"),
            "{err}"
        );
    }
}

#[test]
fn a_point_in_a_geopackage_is_refused_naming_the_feature() {
    let err = read_file(&fixture("broken-point.gpkg"), None).unwrap_err();
    assert!(
        matches!(
            err,
            ImportError::Feature { index: 3, number: Some(1004), problem: FeatureProblem::UnsupportedGeometry(ref k) }
                if k == "Point"
        ),
        "{err}"
    );
}

#[test]
fn unknown_formats_are_refused_by_extension() {
    for name in ["streets.kml", "streets.csv", "streets", "streets.gpkg.zip"] {
        let err = read_file(Path::new(name), None).unwrap_err();
        assert!(
            matches!(err, ImportError::UnsupportedFormat(_)),
            "{name}: {err}"
        );
        assert!(err.to_string().contains(".gpkg"), "{err}");
    }
    assert_eq!(
        FileFormat::of(Path::new("A.GEOJSON")).unwrap(),
        FileFormat::GeoJson
    );
    assert_eq!(
        FileFormat::of(Path::new("a.Shp")).unwrap(),
        FileFormat::Shapefile
    );
}

#[test]
fn a_file_that_is_not_what_its_extension_says_is_refused() {
    let geojson = fixture("prague_sample_5514.geojson");
    let dir = tempfile::tempdir().unwrap();
    for ext in FORMATS {
        let path = dir.path().join(format!("wrong.{ext}"));
        std::fs::copy(&geojson, &path).unwrap();
        let err = read_file(&path, Some("EPSG:5514")).unwrap_err();
        assert!(matches!(err, ImportError::Format { .. }), "{ext}: {err}");
    }
    let err = read_file(&dir.path().join("missing.gpkg"), None).unwrap_err();
    assert!(matches!(err, ImportError::Io { .. }), "{err}");
}
