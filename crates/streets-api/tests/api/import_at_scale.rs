//! `streets-api import` of large generated files through the real binary: a bad feature far
//! into the file, an import killed half way, and readers during an import (both backends).

use crate::helpers::{short_street, spawn_app, Backend, TestApp};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// A GeoJSON city of `n` streets (numbers 1..=n, one short line each, in Prague), the feature
/// at index `bad_at` without a name.
fn write_city(dir: &Path, n: usize, bad_at: Option<usize>) -> PathBuf {
    let path = dir.join(format!("city-{n}.geojson"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    out.write_all(br#"{"type":"FeatureCollection","features":["#)
        .unwrap();
    for i in 0..n {
        if i > 0 {
            out.write_all(b",").unwrap();
        }
        let (lon, lat) = (
            14.3 + (i % 1000) as f64 * 1e-4,
            50.0 + (i / 1000) as f64 * 1e-4,
        );
        let name = if Some(i) == bad_at {
            String::new()
        } else {
            format!(r#","N_GM_U":"Ulice {}""#, i + 1)
        };
        write!(
            out,
            r#"{{"type":"Feature","properties":{{"I_GM_U":{}{name}}},"geometry":{{"type":"LineString","coordinates":[[{lon:.7},{lat:.7}],[{:.7},{lat:.7}]]}}}}"#,
            i + 1,
            lon + 5e-5
        )
        .unwrap();
    }
    out.write_all(b"]}").unwrap();
    out.flush().unwrap();
    path
}

/// `streets-api import FILE` against the app's database, logging progress after every batch
/// as JSON lines on stdout. Waited for on the test's runtime, never by blocking it: the app
/// serving the test runs there, and its read model may hold `streets` in a snapshot that the
/// import's swap waits for.
fn start_import(app: &TestApp, file: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_streets-api"))
        .arg("import")
        .arg(file)
        .args(["--progress-interval", "0", "--batch-size", "2000"])
        .env("STREETS_API__DATABASE__URL", &app.database_url)
        .env("STREETS_API__DATABASE__MIGRATE_ON_START", "true")
        .env("STREETS_API__TELEMETRY__FORMAT", "json")
        .env("STREETS_API__TELEMETRY__FILTER", "info")
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start streets-api import")
}

/// Three old streets, their ids by number.
async fn seed_old(app: &TestApp) -> Vec<(i64, String)> {
    app.seed(&[
        short_street(900_001, "Stará", 14.4, 50.0),
        short_street(900_002, "Starší", 14.5, 50.0),
        short_street(900_003, "Nejstarší", 14.6, 50.0),
    ])
    .await;
    old_ids(app).await
}

async fn old_ids(app: &TestApp) -> Vec<(i64, String)> {
    // A client of its own: the app's may hold a kept-alive connection the server has closed
    // while the import ran.
    let client = reqwest::Client::new();
    let mut ids = Vec::new();
    for number in [900_001, 900_002, 900_003] {
        let response = client
            .get(app.url(&format!("/streets/{number}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{number}");
        let feature: serde_json::Value = response.json().await.unwrap();
        ids.push((number, feature["_id"].as_str().unwrap().to_owned()));
    }
    ids
}

async fn a_bad_feature_at_250_000_changes_nothing(app: TestApp) {
    let before = seed_old(&app).await;
    let file = write_city(app._dir.path(), 250_001, Some(250_000));
    let out = start_import(&app, &file).wait_with_output().await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("feature at index 250000 (I_GM_U 250001): has no property N_GM_U"),
        "{stderr}"
    );
    assert!(stderr.contains("served data is unchanged"), "{stderr}");
    assert_eq!(app.store.count_streets().await.unwrap(), 3);
    assert_eq!(old_ids(&app).await, before);
}

async fn an_import_killed_half_way_leaves_the_old_streets(app: TestApp) {
    let before = seed_old(&app).await;
    let file = write_city(app._dir.path(), 200_000, None);
    let mut child = start_import(&app, &file);
    // Wait (with a deadline, on the progress lines) until streets are being written.
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let written = loop {
        let line = tokio::time::timeout_at(deadline, lines.next_line())
            .await
            .expect("a progress line before the deadline")
            .unwrap()
            .expect("the import's output ended before a progress line");
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let written = json["written"]
            .as_u64()
            .or(json["fields"]["written"].as_u64());
        if let Some(written) = written.filter(|&w| w > 0) {
            break written;
        }
    };
    child.kill().await.unwrap(); // SIGKILL
    let status = child.wait().await.unwrap();
    assert!(!status.success(), "the import ended before it was killed");
    assert!(written < 200_000, "{written}");

    assert_eq!(app.store.count_streets().await.unwrap(), 3);
    assert_eq!(
        old_ids(&app).await,
        before,
        "the old streets are served whole"
    );
    // Nothing is left locked or half made: the next import goes through.
    let small = write_city(app._dir.path(), 10, None);
    let out = start_import(&app, &small).wait_with_output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(app.store.count_streets().await.unwrap(), 10);
}

async fn readers_during_an_import_see_the_old_or_the_new_streets(app: TestApp) {
    seed_old(&app).await;
    let new = 40_000;
    let file = write_city(app._dir.path(), new, None);
    let mut child = start_import(&app, &file);
    let mut seen = std::collections::BTreeMap::<u64, u32>::new();
    let started = Instant::now();
    loop {
        let exited = child.try_wait().unwrap().is_some();
        let count = app.store.count_streets().await.unwrap();
        *seen.entry(count).or_default() += 1;
        // The read model's snapshot: the generation and every street, read together.
        let snapshot = app.store.dataset_snapshot(10).await.unwrap();
        match snapshot.total {
            3 => assert_eq!(snapshot.streets.len(), 3),
            total => assert_eq!(total, new as u64, "a mix was read: {seen:?}"),
        }
        assert!(
            count == 3 || count == new as u64,
            "a reader saw {count} streets: {seen:?}"
        );
        if exited {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the import hangs"
        );
    }
    let out = child.wait_with_output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(app.store.count_streets().await.unwrap(), new as u64);
    assert!(
        seen.contains_key(&3),
        "the readers ran during the import: {seen:?}"
    );
}

#[tokio::test]
async fn bad_feature_far_into_the_file_on_sqlite() {
    a_bad_feature_at_250_000_changes_nothing(spawn_app(Backend::Sqlite).await.unwrap()).await;
}

#[tokio::test]
async fn bad_feature_far_into_the_file_on_postgres() {
    if let Some(app) = spawn_app(Backend::Postgres).await {
        a_bad_feature_at_250_000_changes_nothing(app).await;
    }
}

#[tokio::test]
async fn killed_import_on_sqlite() {
    an_import_killed_half_way_leaves_the_old_streets(spawn_app(Backend::Sqlite).await.unwrap())
        .await;
}

#[tokio::test]
async fn killed_import_on_postgres() {
    if let Some(app) = spawn_app(Backend::Postgres).await {
        an_import_killed_half_way_leaves_the_old_streets(app).await;
    }
}

#[tokio::test]
async fn readers_during_an_import_on_sqlite() {
    readers_during_an_import_see_the_old_or_the_new_streets(
        spawn_app(Backend::Sqlite).await.unwrap(),
    )
    .await;
}

#[tokio::test]
async fn readers_during_an_import_on_postgres() {
    if let Some(app) = spawn_app(Backend::Postgres).await {
        readers_during_an_import_see_the_old_or_the_new_streets(app).await;
    }
}
