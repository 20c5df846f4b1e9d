//! `streets-api import`: the real binary against the test database; atomic replacement.

use crate::helpers::{number, short_street, spawn_app, Backend, TestApp};
use service_kit::startup::ServiceApp;
use std::path::Path;
use tokio::process::Command;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/prague-demo-5514.geojson");

/// Runs the import and waits for it without blocking the test's runtime: the app serving the
/// test runs on it, and its read model may hold `streets` locked in a snapshot the import's swap
/// waits for (a blocking wait here would never let that snapshot finish).
async fn import(app: &TestApp, file: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_streets-api"))
        .arg("import")
        .arg(file)
        .args(extra)
        .env("STREETS_API__DATABASE__URL", &app.database_url)
        .env("STREETS_API__DATABASE__MIGRATE_ON_START", "true")
        .env("STREETS_API__TELEMETRY__FORMAT", "pretty")
        .output()
        .await
        .expect("run streets-api import")
}

async fn ids(app: &TestApp) -> Vec<(i64, String)> {
    let streets = app.streets("/streets?limit=100").await;
    streets
        .iter()
        .map(|f| (number(f), f["_id"].as_str().unwrap().to_string()))
        .collect()
}

fn write_bad_copy(dir: &Path) -> std::path::PathBuf {
    // The sample with its last feature's number duplicated: must be refused as a whole.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SAMPLE).unwrap()).unwrap();
    let features = json["features"].as_array_mut().unwrap();
    let first = features[0]["properties"]["I_GM_U"].clone();
    let last = features.len() - 1;
    features[last]["properties"]["I_GM_U"] = first;
    let path = dir.join("bad.geojson");
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

async fn import_is_atomic_and_keeps_ids(app: TestApp) {
    let out = import(&app, Path::new(SAMPLE), &[]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let before = ids(&app).await;
    assert_eq!(before.len(), 16);
    // Reprojected from S-JTSK: Náměstí Míru lies at about 14.4378 E, 50.0755 N.
    let (_, feature) = app.get("/streets/1001").await;
    let first = &feature["geometry"]["coordinates"][0][1];
    assert!(
        (first[0].as_f64().unwrap() - 14.4378).abs() < 0.0001,
        "{first}"
    );
    assert!(
        (first[1].as_f64().unwrap() - 50.0755).abs() < 0.0001,
        "{first}"
    );

    // A bad file is refused with the feature named, and nothing changes.
    let bad = write_bad_copy(app._dir.path());
    let out = import(&app, &bad, &[]).await;
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("index 15") && stderr.contains("1001"),
        "{stderr}"
    );
    assert_eq!(
        ids(&app).await,
        before,
        "a refused import leaves the data unchanged"
    );

    // A wrong source CRS is refused (coordinates outside UTM's area), nothing changes.
    let out = import(&app, Path::new(SAMPLE), &["--source-crs", "EPSG:32633"]).await;
    assert!(!out.status.success());
    assert_eq!(ids(&app).await, before);

    // Re-importing keeps every street's _id.
    let out = import(&app, Path::new(SAMPLE), &[]).await;
    assert!(out.status.success());
    assert_eq!(ids(&app).await, before, "ids are stable per I_GM_U");
}

async fn a_failing_store_write_rolls_back(app: TestApp) {
    app.seed(&[
        short_street(1, "Jedna", 14.4, 50.0),
        short_street(2, "Dvě", 14.5, 50.0),
    ])
    .await;
    let before = ids(&app).await;
    // Bypass the file validation: the duplicate number fails in the middle of the write.
    let broken = vec![
        short_street(3, "Tři", 14.4, 50.1),
        short_street(4, "Čtyři", 14.4, 50.2),
        short_street(3, "Tři znovu", 14.4, 50.3),
    ];
    assert!(app.store.replace_all_streets(&broken).await.is_err());
    assert_eq!(ids(&app).await, before, "the transaction rolled back");
    assert_eq!(app.store.count_streets().await.unwrap(), 2);
}

#[tokio::test]
async fn import_on_sqlite() {
    import_is_atomic_and_keeps_ids(spawn_app(Backend::Sqlite).await.unwrap()).await;
}

#[tokio::test]
async fn import_on_postgres() {
    if let Some(app) = spawn_app(Backend::Postgres).await {
        import_is_atomic_and_keeps_ids(app).await;
    }
}

#[tokio::test]
async fn rollback_on_sqlite() {
    a_failing_store_write_rolls_back(spawn_app(Backend::Sqlite).await.unwrap()).await;
}

#[tokio::test]
async fn rollback_on_postgres() {
    if let Some(app) = spawn_app(Backend::Postgres).await {
        a_failing_store_write_rolls_back(app).await;
    }
}

#[tokio::test]
async fn demo_data_loads_only_into_an_empty_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = crate::helpers::database_url(Backend::Sqlite, &dir)
        .await
        .unwrap();
    let mut settings = crate::helpers::test_settings(&url);
    settings.demo.load_when_empty = true;
    let app = crate::helpers::spawn_with(settings.clone(), dir).await;
    assert_eq!(app.store.count_streets().await.unwrap(), 16);
    app.seed(&[short_street(1, "Jediná", 14.4, 50.0)]).await;
    // A second start with demo on does not touch existing data.
    let again = streets_api::Application::build(&settings).await.unwrap();
    assert_eq!(again.store().count_streets().await.unwrap(), 1);
}

// --- Other formats through the real binary (fixtures: crates/streets-import/tests/fixtures) ---

fn import_fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../streets-import/tests/fixtures")
        .join(name)
}

async fn geometries(app: &TestApp) -> Vec<(i64, serde_json::Value)> {
    let streets = app.streets("/streets?limit=100").await;
    streets
        .iter()
        .map(|f| (number(f), f["geometry"].clone()))
        .collect()
}

async fn other_formats_import_like_geojson_and_a_bad_geopackage_changes_nothing(app: &TestApp) {
    let out = import(app, Path::new(SAMPLE), &[]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_geojson = geometries(app).await;
    let before = ids(app).await;

    for file in ["streets.gpkg", "streets.shp", "streets.fgb"] {
        let out = import(app, &import_fixture(file), &[]).await;
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(ids(app).await, before, "{file}: same streets, same ids");
        for ((n, got), (_, want)) in geometries(app).await.iter().zip(&from_geojson) {
            let got = got["coordinates"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|l| l.as_array().unwrap());
            let want = want["coordinates"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|l| l.as_array().unwrap());
            for (g, w) in got.zip(want) {
                for axis in 0..2 {
                    let d = g[axis].as_f64().unwrap() - w[axis].as_f64().unwrap();
                    assert!(d.abs() < 1e-8, "{file} street {n}: {g} vs {w}");
                }
            }
        }
    }

    // A GeoPackage with a duplicate number is refused naming the feature; nothing changes.
    let served = geometries(app).await;
    let out = import(app, &import_fixture("broken-duplicate.gpkg"), &[]).await;
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("index 15") && stderr.contains("I_GM_U 1001"),
        "{stderr}"
    );
    assert!(stderr.contains("served data is unchanged"), "{stderr}");
    assert_eq!(ids(app).await, before);
    assert_eq!(geometries(app).await, served);

    // So is one holding a Point, and a file of an unknown format.
    let out = import(app, &import_fixture("broken-point.gpkg"), &[]).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("index 3"));
    let unknown = app._dir.path().join("streets.kml");
    std::fs::write(&unknown, "<kml/>").unwrap();
    let out = import(app, &unknown, &[]).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported file format"));
    assert_eq!(ids(app).await, before);
    assert_eq!(geometries(app).await, served);
}

#[tokio::test]
async fn formats_on_sqlite() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    other_formats_import_like_geojson_and_a_bad_geopackage_changes_nothing(&app).await;
}

#[tokio::test]
async fn formats_on_postgres() {
    let Some(app) = spawn_app(Backend::Postgres).await else {
        return;
    };
    other_formats_import_like_geojson_and_a_bad_geopackage_changes_nothing(&app).await;
    // The geography PostGIS holds, read back as WKB and decoded by geozero, is exactly what
    // is served (the WKB written on import keeps every bit; no GeoJSON text is stored).
    let pool = sqlx::PgPool::connect(&app.database_url).await.unwrap();
    let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(
        "SELECT number, ST_AsBinary(geog::geometry) FROM streets.streets ORDER BY number",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), 16);
    for (number, wkb) in rows {
        let lines = streets_api::store::wkb::lines_from_wkb(&wkb)
            .unwrap()
            .unwrap();
        // Compared as text: serde_json's default float parsing may be one ulp off.
        let served = app
            .client
            .get(app.url(&format!("/streets/{number}")))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let coordinates = format!("\"coordinates\":{}", serde_json::to_string(&lines).unwrap());
        assert!(served.contains(&coordinates), "{number}: {served}");
    }
    let columns: Vec<String> = sqlx::query_scalar(
        "SELECT column_name::text FROM information_schema.columns
         WHERE table_schema = 'streets' AND table_name = 'streets' ORDER BY column_name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(columns, ["geog", "id", "name", "name_folded", "number"]);
}
