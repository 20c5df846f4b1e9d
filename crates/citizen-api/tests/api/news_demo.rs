//! The demo news, categories and projects of `make run` (`demo.load_when_empty`).

use std::sync::Arc;

use test_support::{on_both_backends, Backend};

use crate::helpers::{spawn_on, TestApp};

async fn spawn_demo(backend: Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "demo").await?);
    Some(spawn_on(db, |s| s.demo.load_when_empty = true).await)
}

on_both_backends!(crate::news_demo::spawn_demo;
    the_demo_has_news_categories_and_projects,
);

async fn the_demo_has_news_categories_and_projects(app: TestApp) {
    let news = app.get_ok("/news").await;
    assert_eq!(news["news"].as_array().unwrap().len(), 6);
    let near = app.get_ok("/news?location=14.42,50.08").await;
    assert!(near["news"][0]["distance"].is_number());
    let tree = app.get_ok("/news-categories?view=tree").await;
    let roots = tree["news_categories"].as_array().unwrap();
    assert_eq!(roots.len(), 4);
    assert!(roots
        .iter()
        .any(|c| c["children"].as_array().unwrap().len() == 2));
    let projects = app.get_ok("/projects").await;
    assert_eq!(projects["projects"].as_array().unwrap().len(), 3);
    // Starting again loads nothing twice.
    assert_eq!(app.stores.news.news_categories().await.unwrap().len(), 6);
    let loaded = citizen_api::demo::news::load_when_empty(&app.stores, app.start)
        .await
        .unwrap();
    assert!(!loaded);
}
