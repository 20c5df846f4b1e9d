//! A PostgreSQL database that was not migrated (or was migrated by a newer version): the service
//! says so instead of answering 500, and the other commands refuse to run.

use crate::helpers::{assert_error, spawn_with, test_settings};
use serde_json::Value;
use std::process::Command;

fn cli(args: &[&str], url: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_streets-api"))
        .args(args)
        .env("STREETS_API__DATABASE__URL", url)
        .env("STREETS_API__TELEMETRY__FORMAT", "pretty")
        .output()
        .expect("run streets-api")
}

#[tokio::test]
async fn an_unmigrated_database_is_reported_until_migrated() {
    let Some(db) = test_support::postgres("unmigrated").await else {
        return;
    };
    let mut settings = test_settings(&db.url);
    settings.database.migrate_on_start = false;
    let app = spawn_with(settings, tempfile::tempdir().unwrap()).await;

    let r = app.get_root("/readyz").await;
    let (s, b) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert_error(s, &b, 503, "SERVICE_UNAVAILABLE");
    assert_eq!(b["userinfo"], "not ready: schema");
    let (s, b) = app.get("/streets").await;
    assert_error(s, &b, 503, "SERVICE_UNAVAILABLE");
    assert!(
        b["userinfo"]
            .as_str()
            .unwrap()
            .contains("streets-api migrate"),
        "{b}"
    );
    assert_eq!(app.get_root("/healthz").await.status(), 200, "alive");

    // `import` refuses with the same advice and changes nothing.
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/prague-demo-5514.geojson");
    let out = cli(&["import", sample], &db.url);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("streets-api migrate"), "{stderr}");

    // Once migrated, the running service notices at its next readiness check.
    let out = cli(&["migrate"], &db.url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(app.get_root("/readyz").await.status(), 200);
    let (s, b) = app.get("/streets").await;
    assert_eq!(s, 200, "{b}");
}

#[tokio::test]
async fn a_database_migrated_by_a_newer_version_is_refused() {
    let Some(db) = test_support::postgres("ahead").await else {
        return;
    };
    let out = cli(&["migrate"], &db.url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&db.url)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO streets._sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99990101000000, 'from the future', true, '\\x00', 0)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let out = cli(&["serve"], &db.url);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("newer version"), "{stderr}");
}
