//! The news read model through the API: a replica answers from memory what the database
//! answers (item for item, cursors included), sees a change made through another replica
//! within `news.cache.max_staleness_millis`, and sees a change made through itself at once.

use std::time::{Duration, Instant};

use serde_json::Value;
use test_support::on_both_backends;

use crate::helpers::{spawn_on, TestApp};
use crate::news_helpers::{category, ids, item, point, publish, walk};

on_both_backends!(crate::helpers::spawn_app;
    memory_pages_equal_the_database_pages,
    a_change_through_another_replica_is_seen_within_the_bound,
);

/// A replica of `app`'s database with the given staleness bound (`max_items` 0: no model).
async fn replica(app: &TestApp, max_items: usize, staleness_millis: u64) -> TestApp {
    let replica = spawn_on(app.db.clone(), |s| {
        s.news.cache.max_items = max_items;
        s.news.cache.max_staleness_millis = staleness_millis;
    })
    .await;
    // Ready once the first model is built.
    let ready = replica.get_url(&format!("{}/readyz", replica.root)).await;
    assert_eq!(ready.status(), 200);
    replica
}

async fn memory_reads(app: &TestApp) -> u64 {
    app.metric("news_reads_total{source=\"memory\"").await as u64
}

/// Ids and distances of a walk.
fn rows(pages: &[Vec<Value>]) -> Vec<(String, Option<f64>)> {
    pages
        .iter()
        .flatten()
        .map(|r| (r["id"].as_str().unwrap().to_owned(), r["distance"].as_f64()))
        .collect()
}

/// The same items in the same order at the same distances (to a micrometre: PostgreSQL and the
/// model compute the same geodesic, possibly not to the last bit).
fn assert_same(got: &[Vec<Value>], want: &[Vec<Value>], query: &str) {
    let (got, want) = (rows(got), rows(want));
    let ids = |rows: &[(String, Option<f64>)]| rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&got), ids(&want), "{query}");
    for ((id, a), (_, b)) in got.iter().zip(&want) {
        match (a, b) {
            (Some(a), Some(b)) => assert!((a - b).abs() < 1e-6, "{query}: {id} at {a} and {b}"),
            (a, b) => assert_eq!(a, b, "{query}: {id}"),
        }
    }
}

async fn memory_pages_equal_the_database_pages(app: TestApp) {
    let parent = category(&app, "Doprava", None).await;
    let child = category(&app, "Tramvaje", Some(&parent)).await;
    let other = category(&app, "Kultura", None).await;
    // Ties: four dates shared, three items on one spot, items without a location.
    for k in 0..24 {
        let mut news = item(&app, &format!("n{k}"), k % 4);
        match k % 3 {
            0 => news["location"] = point(14.42, 50.08),
            1 => news["location"] = point(14.40 + k as f64 * 0.003, 50.07),
            _ => {}
        }
        news["categories"] = match k % 4 {
            0 => serde_json::json!([parent]),
            1 => serde_json::json!([child]),
            2 => serde_json::json!([other]),
            _ => serde_json::json!([]),
        };
        publish(&app, news).await;
    }
    let database = replica(&app, 0, 0).await;
    let memory = replica(&app, 1_000, 3_600_000).await;
    let before = memory_reads(&memory).await;
    let queries = [
        String::new(),
        format!("category={parent}"),
        format!("category={child}&category={other}"),
        "location=14.42,50.08".to_owned(),
        "location=14.41,50.075,900".to_owned(),
        format!("location=14.43,50.07&category={parent}"),
    ];
    for query in &queries {
        for limit in [1, 2, 5, 100] {
            let query = format!("limit={limit}&{query}");
            let want = walk(&database, "/news", &query, "news").await;
            let got = walk(&memory, "/news", &query, "news").await;
            assert_same(&got, &want, &query);
            assert!(!want.is_empty());
        }
    }
    for row in walk(&database, "/news", "limit=100", "news").await.concat() {
        let id = row["id"].as_str().unwrap();
        let path = format!("/news/{id}");
        assert_eq!(memory.get_ok(&path).await, database.get_ok(&path).await);
    }
    let tree = "/news-categories?view=tree";
    assert_eq!(memory.get_ok(tree).await, database.get_ok(tree).await);
    assert!(
        memory_reads(&memory).await > before + 40,
        "answered from memory"
    );
    assert_eq!(memory_reads(&database).await, 0, "max_items 0: no model");
}

async fn titles(app: &TestApp) -> Vec<String> {
    let body = app.get_ok("/news?limit=100").await;
    ids(body["news"].as_array().unwrap(), "title")
}

async fn a_change_through_another_replica_is_seen_within_the_bound(app: TestApp) {
    publish(&app, item(&app, "first", 1)).await;
    let patient = replica(&app, 1_000, 3_600_000).await;
    let eager = replica(&app, 1_000, 0).await;
    let bounded = replica(&app, 1_000, 300).await;
    for r in [&patient, &eager, &bounded] {
        assert_eq!(titles(r).await, ["first"]);
    }

    publish(&app, item(&app, "second", 2)).await;
    let committed = Instant::now(); // the write committed before this instant
    assert_eq!(
        titles(&app).await,
        ["second", "first"],
        "the writing replica sees its write at once"
    );
    assert_eq!(
        titles(&patient).await,
        ["first"],
        "served from the model within max_staleness"
    );
    assert_eq!(
        titles(&eager).await,
        ["second", "first"],
        "with max_staleness 0 every read confirms the generation"
    );
    // The bound: a read that starts max_staleness after the commit must see the write. Read
    // until it does; every read that still missed it must have started before then.
    let bound = Duration::from_millis(300);
    let deadline = committed + Duration::from_secs(30);
    loop {
        let started = Instant::now();
        if titles(&bounded).await == ["second", "first"] {
            break;
        }
        assert!(
            started < committed + bound,
            "the old list was served {:?} after the write",
            started - committed
        );
        assert!(Instant::now() < deadline, "the write was never seen");
    }
    assert!(memory_reads(&patient).await >= 2);
}
