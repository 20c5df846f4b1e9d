//! Crashes and races: a worker that sent but did not record leaves its rows to be claimed again
//! after the lease, and the repeat carries the same identity (push `Topic`, e-mail
//! `Message-ID`) while the feed keeps one entry per recipient and event; two workers racing on
//! either backend never send one row twice within a lease.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::json;
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::delivery_helpers::{
    accepted_report, deliverer, drain, feed_tags, stand_in, subscribe_push, topics,
};
use crate::helpers::TestApp;
use crate::notifications_helpers::token_with;
use citizen_api::notify::push_send::topic;
use test_support::smtp::{header, SmtpServer};

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    a_repeat_after_a_crash_has_the_same_identity,
    two_workers_never_send_a_row_twice,
);

async fn a_repeat_after_a_crash_has_the_same_identity(app: TestApp) {
    let server = stand_in(201).await;
    let smtp = SmtpServer::start().await;
    subscribe_push(&app, "author-1", &server, None).await;
    subscribe_push(&app, "voter-1", &server, None).await;
    let (status, _) = app
        .send_json(
            Method::POST,
            "/me/notifications/email",
            &token_with("voter-1", Some("voter@example.org"), None),
            &json!({}),
        )
        .await;
    assert_eq!(status, 201);
    accepted_report(&app, "author-1", &["voter-1"], 1).await;
    let d = deliverer(&app, true, Some(&smtp.url()));
    let t0 = app.clock.now();

    // The crash: claimed and sent, never recorded.
    let claimed = d.claim_due(100, t0).await.unwrap();
    assert_eq!(claimed.len(), 3);
    let mut sent = Vec::new();
    for delivery in &claimed {
        sent.push(d.send(delivery, t0).await);
    }
    // Within the lease nobody takes the rows again.
    let round = d.run_once(t0 + TimeDelta::seconds(119)).await.unwrap();
    assert_eq!(round.total(), 0);
    // After it, they are sent again, with the same identity.
    let round = d.run_once(t0 + TimeDelta::seconds(120)).await.unwrap();
    assert_eq!(round.delivered, 3, "{round:?}");
    // The stalled worker comes back and records what it sent: its lease ran out and the rows
    // were claimed again since, so its late outcome changes nothing.
    for (delivery, sent) in claimed.iter().zip(&sent) {
        let late = d.record(delivery, sent, t0 + TimeDelta::seconds(121));
        assert!(!late.await.unwrap(), "a late record is refused");
    }
    // And the outbox drained again adds nothing.
    assert_eq!(drain(&app).await, 0);

    let author_tags = feed_tags(&app, "author-1").await;
    let voter_tags = feed_tags(&app, "voter-1").await;
    assert_eq!((author_tags.len(), voter_tags.len()), (1, 1));
    let mut got = topics(&server).await;
    got.sort();
    let mut want = vec![
        topic(&author_tags[0]),
        topic(&author_tags[0]),
        topic(&voter_tags[0]),
        topic(&voter_tags[0]),
    ];
    want.sort();
    assert_eq!(got, want);
    let ids: Vec<String> = smtp
        .messages()
        .iter()
        .map(|m| header(m, "Message-ID").unwrap())
        .collect();
    let id = format!("<{}@city.example>", voter_tags[0]);
    assert_eq!(ids, vec![id.clone(), id]);
    assert_eq!(
        d.run_once(t0 + TimeDelta::days(1)).await.unwrap().total(),
        0
    );
}

/// Two workers over their own pools claim at the same instant (PostgreSQL: SKIP LOCKED; SQLite:
/// the write lock); every row is sent exactly once.
async fn two_workers_never_send_a_row_twice(app: TestApp) {
    let server = stand_in(201).await;
    let browsers = 4;
    for _ in 0..browsers {
        subscribe_push(&app, "author-1", &server, None).await;
    }
    let issue = accepted_report(&app, "author-1", &[], 1).await.issue;
    let statements = 30;
    for i in 0..statements {
        app.add_statement(issue, &format!("Update {i}"), app.clock.now())
            .await;
    }
    drain(&app).await;
    let rows = browsers * (statements + 1);
    let first = deliverer(&app, true, None);
    let other_pool = service_kit::db::Database::connect(
        &service_kit::db::DatabaseSettings {
            max_connections: 4,
            ..app.settings.database.clone()
        },
        citizen_api::store::SCHEMA,
    )
    .await
    .unwrap();
    let second = citizen_api::notify::deliver::Deliverer::new(
        citizen_api::store::composition::for_database(&other_pool),
        Some(crate::delivery_helpers::push_sender()),
        None,
        crate::delivery_helpers::delivery_settings(),
    );
    let now = app.clock.now();
    let (a, b) = tokio::join!(first.run_once(now), second.run_once(now));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.delivered + b.delivered, rows, "{a:?} {b:?}");
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), rows);
    let mut sent: Vec<(String, String)> = requests
        .iter()
        .map(|r| {
            (
                r.url.path().to_owned(),
                r.headers.get("topic").unwrap().to_str().unwrap().to_owned(),
            )
        })
        .collect();
    sent.sort();
    sent.dedup();
    assert_eq!(sent.len(), rows, "a row was sent twice");
}
