//! The read cache: own writes at once, another replica's writes within `max_staleness`, window
//! edges from memory, the bound on clients, ETag/304 from memory.

use std::time::{Duration, Instant};

use chrono::{SubsecRound, TimeDelta, Utc};
use reqwest::Method;
use serde_json::{json, Value};
use test_support::Backend;

use crate::helpers::*;

/// A staleness no test outlives: whatever an answer shows comes from memory or a local write.
const LONG_MILLIS: u64 = 3_600_000;
/// A staleness short enough to wait for.
const SHORT_MILLIS: u64 = 50;

async fn spawn_cached(backend: Backend, max_clients: usize, staleness: u64) -> Option<TestApp> {
    let db = fresh_database(backend).await?;
    Some(spawn_replica(db, max_clients, staleness).await)
}

async fn spawn_replica(
    db: std::sync::Arc<test_support::TestDatabase>,
    max_clients: usize,
    staleness: u64,
) -> TestApp {
    let start = Utc::now().trunc_subsecs(0);
    spawn_configured(db, &Broker::None, start, |s| {
        s.cache.max_clients = max_clients;
        s.cache.max_staleness_millis = staleness;
    })
    .await
}

pub async fn spawn_long(backend: Backend) -> Option<TestApp> {
    spawn_cached(backend, 100, LONG_MILLIS).await
}

pub async fn spawn_short(backend: Backend) -> Option<TestApp> {
    spawn_cached(backend, 100, SHORT_MILLIS).await
}

pub async fn spawn_two_clients(backend: Backend) -> Option<TestApp> {
    spawn_cached(backend, 2, LONG_MILLIS).await
}

mod long {
    test_support::on_both_backends!(crate::cache::spawn_long;
        own_writes_are_visible_at_once,
        another_instance_write_may_stay_unseen_within_max_staleness,
        window_edges_change_the_answer_exactly_at_the_edge_from_memory,
        etag_and_304_are_answered_from_memory,
    );
    use super::*;
}

mod short {
    test_support::on_both_backends!(crate::cache::spawn_short;
        another_instance_write_is_seen_within_max_staleness,
    );
    use super::*;
}

mod bounded {
    test_support::on_both_backends!(crate::cache::spawn_two_clients;
        the_cache_holds_at_most_max_clients,
    );
    use super::*;
}

async fn lookups(app: &TestApp, result: &str) -> f64 {
    app.metric(
        "platform_messages_cache_lookups_total",
        &format!("result=\"{result}\""),
    )
    .await
}

async fn patch(app: &TestApp, client: &str, id: &str, body: Value) {
    let response = app
        .as_operator(
            Method::PATCH,
            &format!("/clients/{client}/messages/{id}"),
            Some(&body),
        )
        .await;
    assert_eq!(response.status(), 200);
}

async fn own_writes_are_visible_at_once(app: TestApp) {
    let client = unique_client();
    assert_eq!(app.version(&client).await, "0.0", "cached: unknown client");
    let id = app.create_ok(&client, message("one")).await;
    let created = app.public(&client).await;
    assert_eq!(ids(&created), vec![id.clone()]);
    assert_eq!(created["version"], "1.0");
    patch(&app, &client, &id, json!({"text": "changed"})).await;
    let patched = app.public(&client).await;
    assert_eq!(patched["messages"][0]["text"], "changed");
    assert_eq!(app.me(&client, &[]).await["messages"][0]["text"], "changed");
    patch(&app, &client, &id, json!({"audience": "signed_in"})).await;
    assert_eq!(app.public(&client).await["messages"], json!([]));
    assert_eq!(ids(&app.me(&client, &[]).await), vec![id.clone()]);
    let deleted = app.delete_message(&client, &id).await;
    assert_eq!(deleted.status(), 204);
    assert_eq!(app.me(&client, &[]).await["messages"], json!([]));
    assert_eq!(app.version(&client).await, "4.0");
}

async fn another_instance_write_may_stay_unseen_within_max_staleness(a: TestApp) {
    let b = spawn_replica(a.db.clone(), 100, LONG_MILLIS).await;
    let client = unique_client();
    let id = b.create_ok(&client, message("first")).await;
    let before = a.public(&client).await;
    assert_eq!(before["version"], "1.0", "a first read loads the state");
    patch(&b, &client, &id, json!({"text": "second"})).await;
    assert_eq!(b.version(&client).await, "2.0");
    let misses = lookups(&a, "miss").await;
    assert_eq!(
        a.public(&client).await,
        before,
        "within max_staleness a replica may answer the state before another's write"
    );
    assert_eq!(a.me(&client, &[]).await["version"], "1.0");
    assert_eq!(lookups(&a, "miss").await, misses, "answered from memory");
    assert!(lookups(&a, "hit").await >= 2.0);
}

async fn another_instance_write_is_seen_within_max_staleness(a: TestApp) {
    let b = spawn_replica(a.db.clone(), 100, SHORT_MILLIS).await;
    let staleness = Duration::from_millis(SHORT_MILLIS);
    let client = unique_client();
    let id = b.create_ok(&client, message("first")).await;
    assert_eq!(a.version(&client).await, "1.0");
    patch(&b, &client, &id, json!({"text": "second"})).await;
    // The write committed before its answer arrived: every request sent from now on plus
    // max_staleness must see it; one sent earlier may still show the state before it.
    let deadline = Instant::now() + staleness;
    let mut stale = 0;
    loop {
        let sent = Instant::now();
        let public = a.public(&client).await;
        if public["version"] == "2.0" {
            assert_eq!(public["messages"][0]["text"], "second");
            assert_eq!(a.me(&client, &[]).await["version"], "2.0", "never back");
            break;
        }
        assert_eq!(
            public["version"], "1.0",
            "only the previous state may be served"
        );
        assert!(
            sent < deadline,
            "a stale answer to a request sent {:?} after the write's answer (max {staleness:?})",
            sent.duration_since(deadline) + staleness
        );
        stale += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    println!("stale answers before the new state: {stale}");
}

async fn window_edges_change_the_answer_exactly_at_the_edge_from_memory(app: TestApp) {
    let client = unique_client();
    let (from, to) = (app.at(10), app.at(20));
    let id = app
        .create_ok(
            &client,
            json!({"text": "window", "valid_from": from, "valid_to": to}),
        )
        .await;
    let url = app.public_url(&client);
    let before = app.public(&client).await;
    assert_eq!(before["version"], "1.0");
    let loaded = (lookups(&app, "miss").await, lookups(&app, "checked").await);

    app.travel_to(from - TimeDelta::microseconds(1)).await;
    assert_eq!(app.public(&client).await, before, "one microsecond before");
    app.travel_to(from).await;
    let started = app.public(&client).await;
    assert_eq!(started["version"], "1.1", "exactly at valid_from");
    assert_eq!(ids(&started), vec![id.clone()]);
    assert_eq!(started["next_change_at"], json!(to));
    let stale_tag = app.get_if_none_match(&url, "\"1.0\"").await;
    assert_eq!(stale_tag.status(), 200, "the old ETag no longer matches");
    assert_eq!(stale_tag.headers()["etag"], "\"1.1\"");
    app.travel_to(to - TimeDelta::microseconds(1)).await;
    assert_eq!(app.version(&client).await, "1.1");
    app.travel_to(to).await;
    let ended = app.public(&client).await;
    assert_eq!(ended["version"], "1.2", "exactly at valid_to");
    assert_eq!(ended["messages"], json!([]));
    assert_eq!(app.me(&client, &[]).await["version"], "1.2");
    assert_eq!(
        (lookups(&app, "miss").await, lookups(&app, "checked").await),
        loaded,
        "no database access for the edges"
    );
}

async fn etag_and_304_are_answered_from_memory(app: TestApp) {
    let client = app.client_saying_hello().await;
    let url = app.public_url(&client);
    let first = app.get_url(&url).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(etag, "\"1.0\"");
    let misses = lookups(&app, "miss").await;
    for candidate in [etag.clone(), format!("W/{etag}"), "\"0.0\", \"1.0\"".into()] {
        let again = app.get_if_none_match(&url, &candidate).await;
        assert_eq!(again.status(), 304, "{candidate}");
        assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
        assert_eq!(again.headers()["cache-control"], "no-cache");
        assert!(again.bytes().await.unwrap().is_empty());
    }
    assert_eq!(lookups(&app, "miss").await, misses, "304s from memory");
    app.create_ok(&client, message("second")).await;
    let changed = app.get_if_none_match(&url, &etag).await;
    assert_eq!(
        changed.status(),
        200,
        "an own write makes the old ETag stale"
    );
    assert_eq!(changed.headers()["etag"], "\"2.0\"");
}

async fn the_cache_holds_at_most_max_clients(app: TestApp) {
    let clients: Vec<String> = (0..5).map(|_| unique_client()).collect();
    let mut created = Vec::new();
    for client in &clients {
        created.push(app.create_ok(client, message(client)).await);
    }
    for _ in 0..2 {
        for (client, id) in clients.iter().zip(&created) {
            let body = app.public(client).await;
            assert_eq!(ids(&body), vec![id.clone()], "{client}");
            assert_eq!(body["version"], "1.0");
            let held = app.metric("platform_messages_cache_clients", "").await;
            assert!((1.0..=2.0).contains(&held), "{held} clients held");
        }
    }
    let misses = lookups(&app, "miss").await;
    assert!(misses >= 8.0, "evicted clients are loaded again: {misses}");
}
