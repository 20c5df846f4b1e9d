//! Real GIS clients against the running service over HTTP: GDAL's OAPIF driver (`ogrinfo`,
//! `ogr2ogr`, Debian's gdal-bin) and OWSLib (PyPI). Where a client is not installed the test
//! is skipped and says so (recorded in target/test-skips.txt like the PostgreSQL skips);
//! with `REQUIRE_GIS_CLIENTS=1` (CI) a missing client fails the test instead.
//!
//! OWSLib, and openapi-spec-validator (PyPI) for the OpenAPI 3.0 description, run in the
//! Python named by `STREETS_GIS_PYTHON`, else `python3`.

use crate::helpers::{extent_bbox, spawn_app, street, Backend, TestApp};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output};
use streets_import::ImportedStreet;

/// Records a skipped test (or fails it when `REQUIRE_GIS_CLIENTS=1`).
fn skip(what: &str, reason: &str) {
    test_support::skip("REQUIRE_GIS_CLIENTS", what, reason);
}

fn run(program: &str, args: &[&str]) -> std::io::Result<Output> {
    Command::new(program).args(args).output()
}

/// Runs a client (`client`, off the runtime) that must succeed; its output.
async fn run_ok(client: impl FnOnce() -> std::io::Result<Output> + Send + 'static) -> Output {
    let out = tokio::task::spawn_blocking(client).await.unwrap().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Whether the GDAL tools with the OAPIF driver are installed (skip recorded if not).
fn gdal_with_oapif() -> bool {
    match run("ogrinfo", &["--formats"]) {
        Ok(out) if String::from_utf8_lossy(&out.stdout).contains("OAPIF") => true,
        Ok(_) => {
            skip(
                "GDAL's OAPIF driver",
                "ogrinfo --formats does not list OAPIF",
            );
            false
        }
        Err(e) => {
            skip(
                "GDAL (ogrinfo, ogr2ogr)",
                &format!("{e}; apt-get install gdal-bin"),
            );
            false
        }
    }
}

/// A Python that imports owslib (skip recorded if none).
fn python_with_owslib() -> Option<String> {
    python_importing("OWSLib", "owslib.ogcapi.features", "owslib")
}

/// A Python that imports `modules` (skip of `what` recorded if none; `pip` names the packages).
fn python_importing(what: &str, modules: &str, pip: &str) -> Option<String> {
    let python = std::env::var("STREETS_GIS_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    match run(&python, &["-c", &format!("import {modules}")]) {
        Ok(out) if out.status.success() => Some(python),
        Ok(out) => {
            skip(
                what,
                &format!(
                    "{python} cannot import {modules} ({}); pip install {pip}, or set STREETS_GIS_PYTHON",
                    String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
                ),
            );
            None
        }
        Err(e) => {
            skip(what, &format!("{python}: {e}"));
            None
        }
    }
}

/// 137 streets of 2 to 4 points with coordinates of full precision, some of two lines.
fn city() -> Vec<ImportedStreet> {
    (1..=137)
        .map(|n: i64| {
            let f = n as f64;
            let (lon, lat) = (
                14.3 + (f * 0.618_033_988_749_894_9) % 0.3,
                50.0 + (f * 0.414_213_562_373_095) % 0.15,
            );
            let mut lines = vec![vec![
                [lon, lat],
                [lon + 0.001_234_567_890_123, lat + 0.000_987_654_321_098_7],
                [lon + 0.002_1, lat - 0.000_333_333_333_333_33],
            ]];
            if n % 5 == 0 {
                lines.push(vec![
                    [lon - 0.01, lat],
                    [lon - 0.011_111_111_111_111, lat + 0.001],
                ]);
            }
            street(n, &format!("Ulice č. {n}"), lines)
        })
        .collect()
}

/// Every feature the service serves, by id, following the `next` links.
async fn served(app: &TestApp) -> Vec<Value> {
    let mut url = app.url("/collections/streets/items?limit=1000");
    let mut out = Vec::new();
    loop {
        let page = test_support::http::get_json(&app.client, &url).await;
        out.extend(page["features"].as_array().unwrap().iter().cloned());
        match page["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["rel"] == "next")
        {
            Some(next) => url = next["href"].as_str().unwrap().to_owned(),
            None => return out,
        }
    }
}

fn lines_of(feature: &Value) -> Vec<Vec<[f64; 2]>> {
    serde_json::from_value(feature["geometry"]["coordinates"].clone()).unwrap()
}

#[tokio::test]
async fn ogrinfo_lists_the_collection_with_its_count_and_extent() {
    if !gdal_with_oapif() {
        return;
    }
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let streets = city();
    app.seed(&streets).await;
    let url = format!("OAPIF:{}", app.url(""));
    let app_url = url.clone();
    let out =
        tokio::task::spawn_blocking(move || run("ogrinfo", &["-ro", "-so", &app_url, "streets"]))
            .await
            .unwrap()
            .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Layer name: streets"), "{text}");
    assert!(
        text.contains(&format!("Feature Count: {}", streets.len())),
        "{text}"
    );
    // Extent: (west, south) - (east, north), as the collection says.
    let (_, collection) = app.get("/collections/streets").await;
    let bbox = extent_bbox(&collection);
    let line = text
        .lines()
        .find(|l| l.starts_with("Extent:"))
        .unwrap_or_else(|| panic!("{text}"));
    let numbers: Vec<f64> = line
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 4, "{line}");
    for (got, want) in numbers.iter().zip(&bbox) {
        assert!((got - want).abs() < 1e-6, "{line} vs {bbox:?}");
    }
}

#[tokio::test]
async fn ogr2ogr_copies_every_street_and_vertex() {
    if !gdal_with_oapif() {
        return;
    }
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    app.seed(&city()).await;
    let dir = tempfile::tempdir().unwrap();
    let gpkg = dir.path().join("out.gpkg");
    let (source, target) = (format!("OAPIF:{}", app.url("")), gpkg.display().to_string());
    run_ok(move || run("ogr2ogr", &["-f", "GPKG", &target, &source, "streets"])).await;
    // The copy read back as a street file (GeoPackage, EPSG:4326): every street, every
    // vertex the f64 served. GDAL 3.6's GeoJSON reader rounds some decimals to a neighbouring
    // double (1 unit in the last place, 2e-15 degrees, a nanometre; 134 of 930 here): allowed,
    // and counted; anything more is a failure.
    let copied = streets_import::read_file(&gpkg, None).unwrap();
    let served = served(&app).await;
    assert_eq!(copied.len(), served.len());
    assert_eq!(served.len(), city().len());
    let (mut exact, mut one_ulp) = (0, 0);
    for feature in &served {
        let number = feature["id"].as_i64().unwrap();
        let copy = copied
            .iter()
            .find(|s| s.number == number)
            .unwrap_or_else(|| panic!("{number} missing"));
        assert_eq!(copy.name, feature["properties"]["N_GM_U"].as_str().unwrap());
        let want = lines_of(feature);
        assert_eq!(copy.lines.len(), want.len(), "street {number}");
        for (got, want) in copy.lines.iter().zip(&want) {
            assert_eq!(got.len(), want.len(), "street {number}");
            for (g, w) in got.iter().flatten().zip(want.iter().flatten()) {
                match g.to_bits().abs_diff(w.to_bits()) {
                    0 => exact += 1,
                    1 => one_ulp += 1,
                    _ => panic!("street {number}: {got:?} copied, {want:?} served"),
                }
            }
        }
    }
    println!("{exact} coordinates copied exactly, {one_ulp} one unit in the last place off");
    assert!(exact > one_ulp, "{exact} exact, {one_ulp} off by one ulp");
}

const OWSLIB_PAGING: &str = r#"
import json, sys
from urllib.parse import parse_qsl, urlparse
from owslib.ogcapi.features import Features

api = Features(sys.argv[1])
assert any(c["id"] == "streets" for c in api.collections()["collections"])
params, pages, features, matched = {"limit": 25}, 0, [], None
while True:
    page = api.collection_items("streets", **params)
    pages += 1
    matched = page["numberMatched"]
    features.extend(page["features"])
    nxt = [l["href"] for l in page["links"] if l["rel"] == "next"]
    if not nxt:
        break
    params = dict(parse_qsl(urlparse(nxt[0]).query))
print(json.dumps({"pages": pages, "matched": matched, "features": features}))
"#;

#[tokio::test]
async fn owslib_pages_through_every_street_by_the_links() {
    let Some(python) = python_with_owslib() else {
        return;
    };
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    app.seed(&city()).await;
    let base = format!("{}/", app.url(""));
    let out = run_ok(move || run(&python, &["-c", OWSLIB_PAGING, &base])).await;
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["pages"], 6, "137 streets, 25 a page");
    assert_eq!(result["matched"], 137);
    let features = result["features"].as_array().unwrap();
    assert_eq!(features, &served(&app).await);
}

/// OWSLib's `api()` follows the landing page's `service-desc` link the way a client does (it
/// takes only the OpenAPI 3.0 JSON media type); openapi-spec-validator checks the document
/// against the OpenAPI 3.0 schema and rules. The 3.1 description (stdin), merely relabelled
/// 3.0.3, must fail the same check: it shows the check sees the constructs converted.
const OPENAPI_3_0_VALIDATION: &str = r#"
import json, sys
from owslib.ogcapi.features import Features
from openapi_spec_validator import OpenAPIV30SpecValidator

def errors(doc):
    return [
        "/".join(map(str, getattr(e, "absolute_path", []))) + ": " + getattr(e, "message", str(e))[:300]
        for e in OpenAPIV30SpecValidator(doc).iter_errors()
    ]

api = Features(sys.argv[1]).api()
print(json.dumps({
    "openapi": api.get("openapi"),
    "paths": sorted(api["paths"]),
    "errors": errors(api),
    "errors_of_3_1": errors(dict(json.loads(sys.stdin.read()), openapi="3.0.3")),
}))
"#;

#[tokio::test]
async fn openapi_spec_validator_accepts_the_service_desc_as_openapi_3_0() {
    let Some(python) = python_importing(
        "OWSLib and openapi-spec-validator",
        "owslib.ogcapi.features, openapi_spec_validator",
        "owslib openapi-spec-validator",
    ) else {
        return;
    };
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let (_, v31) = app.get("/docs/openapi.json").await;
    let v31_text = v31.to_string();
    let base = format!("{}/", app.url(""));
    let out = run_ok(move || {
        let mut child = Command::new(&python)
            .args(["-c", OPENAPI_3_0_VALIDATION, &base])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(v31_text.as_bytes())?;
        }
        child.wait_with_output()
    })
    .await;
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["openapi"], "3.0.3");
    assert_eq!(result["errors"], serde_json::json!([]), "{result:#}");
    println!(
        "3.0 rendition valid; the 3.1 description as 3.0: {} errors",
        result["errors_of_3_1"].as_array().map_or(0, Vec::len)
    );
    let paths: Vec<&String> = v31["paths"].as_object().unwrap().keys().collect();
    assert_eq!(result["paths"], serde_json::json!(paths));
    assert!(
        !result["errors_of_3_1"].as_array().unwrap().is_empty(),
        "the check refuses the 3.1 description's constructs: {result:#}"
    );
}
