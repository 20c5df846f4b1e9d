//! `citizen-api import-news`: a batch of items from a JSON file.

use citizen_api::news_import::{import_file, ImportSummary};
use serde_json::json;
use test_support::on_both_backends;

use std::sync::Arc;

use crate::helpers::{spawn_on, TestApp};
use crate::news_helpers::{category, point};

on_both_backends!(crate::news_import::spawn_eager;
    a_file_is_imported_and_imported_again,
    one_bad_item_imports_nothing,
);

/// The app on a fresh database, confirming the news generation on every read: the import runs
/// as another process does (through its own store), which the app otherwise sees within
/// `news.cache.max_staleness_millis` (tests/api/news_model.rs).
async fn spawn_eager(backend: test_support::Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "citizen").await?);
    Some(spawn_on(db, |s| s.news.cache.max_staleness_millis = 0).await)
}

fn write(dir: &tempfile::TempDir, value: &serde_json::Value) -> std::path::PathBuf {
    let path = dir.path().join("news.json");
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path
}

async fn a_file_is_imported_and_imported_again(app: TestApp) {
    let cat = category(&app, "Kultura", None).await;
    let id = uuid::Uuid::now_v7();
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        &json!([
            {"id": id, "title": "Koncert", "date": app.time(5).to_rfc3339(), "categories": [cat],
             "location": point(14.4, 50.1), "image": "https://example.org/k.jpg"},
            {"title": "Výstava", "description": "V galerii"}
        ]),
    );
    let summary = import_file(&app.stores, &file, app.time(10)).await.unwrap();
    assert_eq!(
        summary,
        ImportSummary {
            created: 2,
            replaced: 0
        }
    );
    let found = app.get_ok(&format!("/news/{id}")).await;
    assert_eq!(found["categories"], json!([{"id": cat, "name": "Kultura"}]));
    assert_eq!(found["location"], point(14.4, 50.1));
    // Again: the item with an id is replaced, not doubled.
    let file = write(&dir, &json!([{"id": id, "title": "Koncert v parku"}]));
    let summary = import_file(&app.stores, &file, app.time(10)).await.unwrap();
    assert_eq!(
        summary,
        ImportSummary {
            created: 0,
            replaced: 1
        }
    );
    assert_eq!(
        app.get_ok(&format!("/news/{id}")).await["title"],
        "Koncert v parku"
    );
    assert_eq!(
        app.get_ok("/news").await["news"].as_array().unwrap().len(),
        2
    );
}

async fn one_bad_item_imports_nothing(app: TestApp) {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        json!([{"title": "ok"}, {"title": ""}]),
        json!([{"title": "ok"}, {"title": "t", "image": "ftp://x"}]),
        json!({"title": "not an array"}),
        json!([{"title": "ok"}, {"title": "t", "categories": [uuid::Uuid::now_v7()]}]),
    ] {
        let file = write(&dir, &bad);
        let err = import_file(&app.stores, &file, app.time(0))
            .await
            .unwrap_err();
        assert!(!err.to_string().is_empty());
    }
    let missing = dir.path().join("missing.json");
    assert!(import_file(&app.stores, &missing, app.time(0))
        .await
        .is_err());
    assert_eq!(
        app.get_ok("/news").await["news"].as_array().unwrap().len(),
        0
    );
}
