//! The read model: answers from memory within the staleness bound, follows imports by other
//! processes, is seen at once after an import through the service, gates readiness until the
//! first model exists, and leaves a data set above `cache.max_entries` to the database.

use crate::helpers::{
    assert_error, database_url, short_street, spawn_with, test_settings, Backend, TestApp,
};
use service_kit::db::Database;
use std::sync::Arc;
use std::time::{Duration, Instant};
use streets_api::store::{self, StreetStore};

/// Another process's view of the same database (as `streets-api import` would have).
async fn other_process(app_settings: &streets_api::Settings) -> Arc<dyn StreetStore> {
    let db = Database::connect(&app_settings.database, store::SCHEMA)
        .await
        .unwrap();
    db.migrate(&store::migrations()).await.unwrap();
    store::for_database(&db)
}

async fn name_of(app: &TestApp, number: i64) -> String {
    let (status, body) = app.get(&format!("/streets/{number}")).await;
    assert_eq!(status, 200, "{body}");
    body["properties"]["N_GM_U"].as_str().unwrap().to_string()
}

async fn spawn_with_staleness(url: &str, millis: u64) -> TestApp {
    let mut settings = test_settings(url);
    settings.cache.max_staleness_millis = millis;
    spawn_with(settings, tempfile::tempdir().unwrap()).await
}

async fn imports_by_other_processes_are_seen_within_the_bound(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = database_url(backend, &dir).await else {
        return;
    };
    let other = other_process(&test_settings(&url)).await;
    other
        .replace_all_streets(&[short_street(1, "Stará", 14.4, 50.0)])
        .await
        .unwrap();
    let patient = spawn_with_staleness(&url, 3_600_000).await;
    let eager = spawn_with_staleness(&url, 0).await;
    let bounded = spawn_with_staleness(&url, 300).await;
    for app in [&patient, &eager, &bounded] {
        app.model.build_now().await.unwrap();
        assert_eq!(name_of(app, 1).await, "Stará");
    }
    let generation = patient.model.model_generation().unwrap();

    other
        .replace_all_streets(&[short_street(1, "Nová", 14.4, 50.0)])
        .await
        .unwrap();
    let committed = Instant::now(); // the import committed before this instant
    assert_eq!(
        name_of(&patient, 1).await,
        "Stará",
        "served from the model within max_staleness"
    );
    let q = patient.numbers("/streets?q=stara").await;
    assert_eq!(q, vec![1], "searches too are answered by the model");
    assert_eq!(patient.model.model_generation(), Some(generation));
    assert_eq!(
        name_of(&eager, 1).await,
        "Nová",
        "with max_staleness 0 every read confirms the generation"
    );

    // The bound: a read that starts max_staleness after the commit must see the import. Read
    // until it does; every read that still saw the old street must have started before then.
    let bound = Duration::from_millis(300);
    let deadline = committed + Duration::from_secs(30);
    loop {
        let started = Instant::now();
        let name = name_of(&bounded, 1).await;
        if name == "Nová" {
            break;
        }
        assert!(
            started < committed + bound,
            "the old street was served {:?} after the import",
            started - committed
        );
        assert!(Instant::now() < deadline, "the import was never seen");
    }

    // The id form is answered by the same model.
    let (_, by_number) = patient.get("/streets/1").await;
    let (_, by_id) = patient
        .get(&format!("/streets/{}", by_number["_id"].as_str().unwrap()))
        .await;
    assert_eq!(by_id, by_number);
    assert!(
        patient
            .metric("streets_reads_total{source=\"memory\"")
            .await
            >= 4
    );

    // An import through the service itself is seen at once, from a new model.
    patient
        .store
        .replace_all_streets(&[short_street(1, "Nejnovější", 14.4, 50.0)])
        .await
        .unwrap();
    assert!(patient.model.model_generation().unwrap() > generation);
    assert_eq!(name_of(&patient, 1).await, "Nejnovější");
}

#[tokio::test]
async fn staleness_on_sqlite() {
    imports_by_other_processes_are_seen_within_the_bound(Backend::Sqlite).await;
}

#[tokio::test]
async fn staleness_on_postgres() {
    imports_by_other_processes_are_seen_within_the_bound(Backend::Postgres).await;
}

async fn a_data_set_above_max_entries_is_served_by_the_database(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = database_url(backend, &dir).await else {
        return;
    };
    let mut settings = test_settings(&url);
    settings.cache.max_entries = 2;
    let app = spawn_with(settings, dir).await;
    app.seed(&[
        short_street(1, "Jedna", 14.4, 50.0),
        short_street(2, "Dvě", 14.4, 50.001),
        short_street(3, "Tři", 14.4, 50.002),
    ])
    .await;
    assert_eq!(app.get_root("/readyz").await.status(), 200);
    assert_eq!(app.model.model_generation(), None, "no model held");
    assert_eq!(name_of(&app, 3).await, "Tři");
    assert_eq!(app.numbers("/streets?q=dve").await, vec![2]);
    assert_eq!(
        app.metric("streets_reads_total{source=\"database\"").await,
        2
    );
    assert_eq!(app.metric("streets_read_model_streets").await, 0);

    // Down to the limit: the next import builds a model.
    app.seed(&[short_street(1, "Jedna", 14.4, 50.0)]).await;
    assert!(app.model.model_generation().is_some());
    assert_eq!(app.metric("streets_read_model_streets").await, 1);
    assert_eq!(name_of(&app, 1).await, "Jedna");
    assert_eq!(app.metric("streets_reads_total{source=\"memory\"").await, 1);
}

#[tokio::test]
async fn max_entries_on_sqlite() {
    a_data_set_above_max_entries_is_served_by_the_database(Backend::Sqlite).await;
}

#[tokio::test]
async fn max_entries_on_postgres() {
    a_data_set_above_max_entries_is_served_by_the_database(Backend::Postgres).await;
}

/// A replica whose first model cannot be read yet (the streets table is locked by another
/// transaction) is not ready; it becomes ready, answering from memory, once the model is built.
#[tokio::test]
async fn not_ready_until_the_first_model_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let Some(url) = database_url(Backend::Postgres, &dir).await else {
        return;
    };
    let first = spawn_with(test_settings(&url), dir).await;
    first.seed(&[short_street(1, "Jedna", 14.4, 50.0)]).await;

    let mut locker = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    sqlx::query("BEGIN").execute(&mut locker).await.unwrap();
    sqlx::query("LOCK TABLE streets.streets IN ACCESS EXCLUSIVE MODE")
        .execute(&mut locker)
        .await
        .unwrap();
    let second = spawn_with(test_settings(&url), tempfile::tempdir().unwrap()).await;
    let response = second.get_root("/readyz").await;
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    assert_error(status, &body, 503, "SERVICE_UNAVAILABLE");
    assert_eq!(body["userinfo"], "not ready: streets");
    assert_eq!(second.model.model_generation(), None);

    sqlx::query("ROLLBACK").execute(&mut locker).await.unwrap();
    assert_eq!(second.get_root("/readyz").await.status(), 200);
    assert!(second.model.model_generation().is_some());
    assert_eq!(name_of(&second, 1).await, "Jedna");
    assert_eq!(
        second.metric("streets_reads_total{source=\"memory\"").await,
        1
    );
}
