//! An erasure racing the writers that fan out to subjects (issue 51, item 1): whatever the
//! interleaving, nothing of the erased subject is left afterwards. The interleavings are forced,
//! not timed: the outbox drain is driven with a `render` callback (it runs after the recipients
//! are read, before each entry is written) that starts `DELETE /me` and waits until it has
//! finished or is observably held back; a digest is written from a candidate read before the
//! erasure, and while an erasure's transaction is open.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use citizen_api::app::notifications::drain_outbox;
use citizen_api::notify::digest::{DigestSettings, DigestWriter};
use citizen_api::store::digests::{DigestCandidate, DigestPeriod, DigestTexts, NewDigest};
use citizen_api::store::notifications::OutboxEvent;
use citizen_api::store::{self, Instant};
use domain::notifications::Interval;
use reqwest::Method;
use serde_json::{json, Value};
use service_kit::clock::Clock;
use service_kit::db::{Database, DatabaseSettings};
use test_support::on_both_backends;

use crate::delivery_helpers::{accepted_report, set_settings, stand_in, subscribe_push};
use crate::erasure::columns_holding;
use crate::helpers::TestApp;
use crate::news_helpers::{category, item, publish, set_subscriptions};
use crate::notifications_helpers::{feed, token_with};

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    an_erasure_during_the_outbox_drain_leaves_nothing_of_the_subject,
    a_digest_of_an_account_erased_after_its_candidates_were_read_is_not_written,
    a_digest_written_during_an_erasure_waits_for_it_and_writes_nothing,
);

const ERASED: &str = "citizen-race-f1";
const ERASED_EMAIL: &str = "race-f1@example.org";

/// What the erasure was seen doing when the drain went on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seen {
    /// It answered (with this status) before the drain committed.
    Finished(u16),
    /// PostgreSQL: it waits for a lock (`pg_stat_activity`).
    Waiting,
    /// SQLite: it was sent; the drain's write lock admits no other writer, so it cannot finish
    /// before the drain commits.
    Sent,
}

/// A connection of its own to `app`'s database, to watch its locks.
async fn observer(app: &TestApp) -> Database {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    Database::connect(&settings, store::SCHEMA).await.unwrap()
}

/// Whether a transaction of the test database waits for a lock.
async fn someone_waits(db: &Database) -> bool {
    let Database::Postgres(pool) = db else {
        return false;
    };
    let waiting: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    waiting > 0
}

/// Sends `DELETE /me` as `subject` from a thread of its own (the test's runtime is held by the
/// drain's callback) once `go` fires; tells `seen` what the erasure did, then answers its status.
fn erase_on_signal(
    app: &TestApp,
    subject: &str,
    go: mpsc::Receiver<()>,
    seen: mpsc::Sender<Seen>,
) -> std::thread::JoinHandle<u16> {
    let url = format!("{}/me", app.base);
    let token = app.token(subject, &[]);
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let db = Database::connect(&settings, store::SCHEMA).await.unwrap();
            let postgres = matches!(db, Database::Postgres(_));
            go.recv().unwrap();
            let http = reqwest::Client::new();
            let body = json!({"confirm": "ERASE"});
            let request =
                test_support::http::send(&http, Method::DELETE, &url, Some(&token), Some(&body));
            tokio::pin!(request);
            if !postgres {
                seen.send(Seen::Sent).unwrap();
                let status = request.await.status().as_u16();
                db.close().await;
                return status;
            }
            loop {
                tokio::select! {
                    response = &mut request => {
                        let status = response.status().as_u16();
                        seen.send(Seen::Finished(status)).unwrap();
                        db.close().await;
                        return status;
                    }
                    // Polling an observable state (not waiting for a guessed time).
                    waits = async {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                        someone_waits(&db).await
                    } => if waits {
                        seen.send(Seen::Waiting).unwrap();
                        let status = request.await.status().as_u16();
                        db.close().await;
                        return status;
                    }
                }
            }
        })
    })
}

/// Subscribes `subject` to the news `category`, to e-mail and to web push at `push`.
async fn subscriber(
    app: &TestApp,
    subject: &str,
    email: &str,
    category: &str,
    push: &wiremock::MockServer,
) {
    let token = token_with(subject, Some(email), Some("en"));
    let (status, body) = app
        .send_json(Method::POST, "/me/notifications/email", &token, &json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    set_settings(app, subject, "en", Value::Null).await;
    subscribe_push(app, subject, push, Some("en")).await;
    let subscribe = json!([{"category_id": category, "subscribed": true}]);
    let (status, body) = set_subscriptions(app, &app.token(subject, &[]), &subscribe).await;
    assert_eq!(status, 200, "{body}");
}

async fn an_erasure_during_the_outbox_drain_leaves_nothing_of_the_subject(app: TestApp) {
    let push = stand_in(201).await;
    let news = category(&app, "Roadworks", None).await;
    // Recipients are read by subject: the callback first runs for "a-…", before F's entries.
    for (subject, email) in [
        ("a-neighbour-1", "n1@example.org"),
        (ERASED, ERASED_EMAIL),
        ("z-neighbour-2", "n2@example.org"),
    ] {
        subscriber(&app, subject, email, &news, &push).await;
    }
    for (n, title) in ["Tram line closed", "Bridge repaired"].iter().enumerate() {
        let mut published = item(&app, title, i64::try_from(n).unwrap() + 1);
        published["categories"] = json!([news]);
        publish(&app, published).await;
    }

    let (go, go_rx) = mpsc::channel();
    let (seen_tx, seen_rx) = mpsc::channel();
    let erasure = erase_on_signal(&app, ERASED, go_rx, seen_tx);
    let seen_rx = Mutex::new(seen_rx);
    let started = AtomicBool::new(false);
    let seen = Mutex::new(None);
    let render = |event: &OutboxEvent, _: Option<&str>| {
        if !started.swap(true, Ordering::SeqCst) {
            go.send(()).unwrap();
            *seen.lock().unwrap() = Some(seen_rx.lock().unwrap().recv().unwrap());
        }
        (event.title.clone(), None)
    };
    let drained = drain_outbox(
        app.stores.notifications.as_ref(),
        10,
        &render,
        &citizen_api::app::notifications::Links::none(),
        app.clock.now(),
    )
    .await
    .unwrap();
    assert_eq!(drained, 2);
    let status = tokio::task::spawn_blocking(move || erasure.join().unwrap())
        .await
        .unwrap();
    assert_eq!(status, 204);
    for needle in [ERASED, ERASED_EMAIL] {
        assert_eq!(
            columns_holding(&app, needle).await,
            Default::default(),
            "{needle}"
        );
    }
    let page = feed(&app, ERASED).await;
    assert_eq!(page["notifications"], json!([]), "{page}");
    let seen = seen.into_inner().unwrap();
    assert!(
        matches!(seen, Some(Seen::Waiting | Seen::Sent)),
        "the erasure did not wait for the drain: {seen:?}"
    );
    // The others were told.
    for subject in ["a-neighbour-1", "z-neighbour-2"] {
        let page = feed(&app, subject).await;
        assert_eq!(page["notifications"].as_array().unwrap().len(), 2, "{page}");
    }
}

/// An account with a daily digest due over one entry: its candidate (read now), the period
/// and the digest's texts.
async fn due_digest(app: &TestApp) -> (DigestCandidate, DigestPeriod, DigestTexts) {
    let push = stand_in(201).await;
    subscribe_push(app, ERASED, &push, Some("en")).await;
    set_settings(app, ERASED, "en", json!("daily")).await;
    accepted_report(app, "author-race-1", &[ERASED], 1).await;
    let now: Instant = app.clock.now();
    let period = DigestPeriod {
        interval: Interval::Daily,
        start: now - chrono::TimeDelta::days(1),
        end: now + chrono::TimeDelta::seconds(1),
        earliest: now - chrono::TimeDelta::days(2),
    };
    let mut candidates = app
        .stores
        .digests
        .digest_candidates(&period, 10)
        .await
        .unwrap();
    assert_eq!(candidates.len(), 1, "{candidates:?}");
    let candidate = candidates.remove(0);
    let texts = DigestWriter::from_settings(
        &DigestSettings::default(),
        app.stores.clone(),
        i18n::Locale::En,
    )
    .unwrap()
    .texts(&candidate);
    (candidate, period, texts)
}

async fn a_digest_of_an_account_erased_after_its_candidates_were_read_is_not_written(app: TestApp) {
    let (candidate, period, texts) = due_digest(&app).await;
    let (status, body) = app
        .send_json(
            Method::DELETE,
            "/me",
            &app.token(ERASED, &[]),
            &json!({"confirm": "ERASE"}),
        )
        .await;
    assert_eq!((status, body), (204, Value::Null));
    let digest = NewDigest {
        candidate: &candidate,
        period_end: period.end,
        texts: &texts,
    };
    let written = app
        .stores
        .digests
        .add_digest(digest, app.clock.now())
        .await
        .unwrap();
    assert!(!written, "a digest was written for an erased account");
    assert_eq!(columns_holding(&app, ERASED).await, Default::default());
}

async fn a_digest_written_during_an_erasure_waits_for_it_and_writes_nothing(app: TestApp) {
    let (candidate, period, texts) = due_digest(&app).await;
    // The erasure's transaction as `app::erasure::erase` runs it, held open before its commit.
    let mut erasure = app.stores.privacy.begin_erasure().await.unwrap();
    erasure.delete_votes(ERASED).await.unwrap();
    erasure.delete_channels(ERASED).await.unwrap();
    assert!(erasure.delete_feed(ERASED).await.unwrap() > 0);
    erasure.disown_reports(ERASED).await.unwrap();
    erasure
        .pseudonymise_audit(ERASED, "erased-race")
        .await
        .unwrap();
    let (stores, now) = (app.stores.clone(), app.clock.now());
    let writer = tokio::spawn(async move {
        let digest = NewDigest {
            candidate: &candidate,
            period_end: period.end,
            texts: &texts,
        };
        stores.digests.add_digest(digest, now).await
    });
    let observer = observer(&app).await;
    if matches!(observer, Database::Postgres(_)) {
        // Until the writer waits for a lock (or, without one, has finished).
        while !writer.is_finished() && !someone_waits(&observer).await {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    } else {
        // The writer starts and its `BEGIN IMMEDIATE` waits for the erasure's write lock.
        tokio::task::yield_now().await;
    }
    observer.close().await;
    erasure.commit().await.unwrap();
    let written = writer.await.unwrap().unwrap();
    assert!(!written, "a digest was written beside the erasure");
    assert_eq!(columns_holding(&app, ERASED).await, Default::default());
}
