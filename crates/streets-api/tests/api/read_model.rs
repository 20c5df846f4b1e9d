//! The lookup cache: served from memory, dropped when another process imports.

use crate::helpers::{database_url, short_street, spawn_with, test_settings, Backend, TestApp};
use service_kit::db::Database;
use std::sync::Arc;
use streets_api::store::{self, StreetStore};

/// Another process's view of the same database (as `streets-api import` would have).
async fn other_process(app_settings: &streets_api::Settings) -> Arc<dyn StreetStore> {
    let db = Database::connect(&app_settings.database, store::SCHEMA)
        .await
        .unwrap();
    store::for_database(&db)
}

async fn name_of(app: &TestApp, number: i64) -> String {
    let (status, body) = app.get(&format!("/streets/{number}")).await;
    assert_eq!(status, 200, "{body}");
    body["properties"]["N_GM_U"].as_str().unwrap().to_string()
}

async fn cache_follows_imports_by_other_processes(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = database_url(backend, &dir).await else {
        return;
    };
    let mut patient = test_settings(&url);
    patient.cache.max_staleness_millis = 3_600_000;
    let patient = spawn_with(patient, dir).await;
    let mut eager = test_settings(&url);
    eager.cache.max_staleness_millis = 0;
    let eager = spawn_with(eager, tempfile::tempdir().unwrap()).await;
    let other = other_process(&test_settings(&url)).await;

    other
        .replace_all_streets(&[short_street(1, "Stará", 14.4, 50.0)])
        .await
        .unwrap();
    assert_eq!(name_of(&patient, 1).await, "Stará");
    assert_eq!(name_of(&eager, 1).await, "Stará");

    other
        .replace_all_streets(&[short_street(1, "Nová", 14.4, 50.0)])
        .await
        .unwrap();
    assert_eq!(
        name_of(&patient, 1).await,
        "Stará",
        "served from the cache within max_staleness"
    );
    assert_eq!(
        name_of(&eager, 1).await,
        "Nová",
        "with max_staleness 0 every lookup revalidates"
    );
    // The id form shares the cache entry.
    let (_, by_number) = patient.get("/streets/1").await;
    let (_, by_id) = patient
        .get(&format!("/streets/{}", by_number["_id"].as_str().unwrap()))
        .await;
    assert_eq!(by_id, by_number);

    let metrics = patient.metrics().await;
    let hits = metrics
        .lines()
        .find(|l| l.starts_with("streets_cache_lookups_total{result=\"hit\""))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap();
    assert!(hits >= 3, "{metrics}");

    // An import through the service itself invalidates at once.
    patient
        .store
        .replace_all_streets(&[short_street(1, "Nejnovější", 14.4, 50.0)])
        .await
        .unwrap();
    assert_eq!(name_of(&patient, 1).await, "Nejnovější");
}

#[tokio::test]
async fn cache_on_sqlite() {
    cache_follows_imports_by_other_processes(Backend::Sqlite).await;
}

#[tokio::test]
async fn cache_on_postgres() {
    cache_follows_imports_by_other_processes(Backend::Postgres).await;
}
