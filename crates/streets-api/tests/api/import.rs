//! `streets-api import`: the real binary against the test database; atomic replacement.

use crate::helpers::{number, short_street, spawn_app, Backend, TestApp};
use std::path::Path;
use std::process::Command;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/prague-demo-5514.geojson");

fn import(app: &TestApp, file: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_streets-api"))
        .arg("import")
        .arg(file)
        .args(extra)
        .env("STREETS_API__DATABASE__URL", &app.database_url)
        .env("STREETS_API__DATABASE__MIGRATE_ON_START", "true")
        .env("STREETS_API__TELEMETRY__FORMAT", "pretty")
        .output()
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
    let out = import(&app, Path::new(SAMPLE), &[]);
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
    let out = import(&app, &bad, &[]);
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
    let out = import(&app, Path::new(SAMPLE), &["--source-crs", "EPSG:32633"]);
    assert!(!out.status.success());
    assert_eq!(ids(&app).await, before);

    // Re-importing keeps every street's _id.
    let out = import(&app, Path::new(SAMPLE), &[]);
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
