//! Report status changes on MQTT: only real changes of the report's public status, in order,
//! without personal data, removed once the broker acknowledged them, published again with the
//! same identity after a publisher crashed, and never claimed by two publishers at once. Against
//! the real broker (Mosquitto in CI) on both backends.

use std::time::Duration;

use chrono::TimeDelta;
use citizen_api::notify::status_events::{topic, StatusMessage, StatusPublisher};
use domain::issues::Transition;
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::helpers::{Filing, TestApp};

on_both_backends!(crate::status_events::spawn_with_broker;
    only_changes_of_the_public_status_are_published_in_order,
    a_change_left_by_a_dead_publisher_is_published_after_the_lease_with_its_identity,
    two_publishers_never_claim_the_same_change,
    a_later_change_waits_while_an_earlier_one_of_its_report_is_held,
    changes_are_discarded_when_status_events_are_off,
);

const LEASE_SECS: u32 = 30;

/// The service pointed at the test broker, its publishing loop off: the tests drive it. `None`
/// (a recorded skip) without a broker.
pub async fn spawn_with_broker(backend: test_support::Backend) -> Option<TestApp> {
    if !test_support::mqtt_broker().await {
        return None;
    }
    let db = std::sync::Arc::new(test_support::database(backend, "status").await?);
    let (host, port) = test_support::mqtt_address();
    Some(
        crate::helpers::spawn_on(db, |s| {
            s.status_events.enabled = true;
            s.status_events.publisher_enabled = false;
            s.mqtt.url = format!("mqtt://{host}:{port}");
        })
        .await,
    )
}

/// A connected client made from the service's own `mqtt.*` settings.
async fn connected_client(app: &TestApp) -> paho_mqtt::AsyncClient {
    let (client, options) = app.settings.mqtt.client().expect("client");
    client.connect(options).await.expect("connect");
    client
}

async fn publisher(app: &TestApp) -> StatusPublisher {
    StatusPublisher::new(
        connected_client(app).await,
        app.stores.clone(),
        LEASE_SECS,
        Duration::from_secs(5),
    )
}

/// A subscriber of one report's topic (tests run in parallel on one broker).
struct Subscriber {
    client: paho_mqtt::AsyncClient,
    stream: paho_mqtt::AsyncReceiver<Option<paho_mqtt::Message>>,
}

impl Subscriber {
    async fn new(app: &TestApp, report: uuid::Uuid) -> Self {
        let (mut client, options) = app.settings.mqtt.client().expect("client");
        let stream = client.get_stream(64);
        client.connect(options).await.expect("connect");
        client.subscribe(topic(report), 1).await.expect("subscribe");
        Self { client, stream }
    }

    /// The next message, or `None` when none arrives within two seconds.
    async fn next(&mut self) -> Option<(StatusMessage, bool)> {
        let message = tokio::time::timeout(Duration::from_secs(2), self.stream.recv())
            .await
            .ok()?
            .ok()??;
        let body = serde_json::from_slice(message.payload()).expect("JSON body");
        Some((body, message.retained()))
    }

    /// Every message until none arrives for two seconds.
    async fn drain(&mut self) -> Vec<StatusMessage> {
        let mut all = Vec::new();
        while let Some((body, _)) = self.next().await {
            all.push(body);
        }
        all
    }
}

/// Disconnected subscribers' clients, kept for the life of the test process.
///
/// paho.mqtt.c deadlocks when a client is destroyed on its own receive thread
/// (`MQTTAsync_destroy` waits for the mutex that thread holds), and that is where the
/// disconnect's completion drops its reference to the client. Had the subscriber dropped its own
/// first, that reference would be the last. A parked client is never destroyed.
static PARKED: std::sync::Mutex<Vec<paho_mqtt::AsyncClient>> = std::sync::Mutex::new(Vec::new());

impl Drop for Subscriber {
    fn drop(&mut self) {
        PARKED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(self.client.clone());
        drop(self.client.disconnect(None));
    }
}

fn statuses(messages: &[StatusMessage]) -> Vec<(Option<&str>, Option<&str>)> {
    messages
        .iter()
        .map(|m| (m.previous_status.as_deref(), m.status.as_deref()))
        .collect()
}

async fn only_changes_of_the_public_status_are_published_in_order(app: TestApp) {
    let filed = app
        .file(Filing::new("Broken lamp on the corner", 1).by("author-1"))
        .await;
    let mut subscriber = Subscriber::new(&app, filed.report).await;
    let other = app.category("Lighting", None).await;
    // The officers' steps come after the filing (at second 1).
    let now = app.time(10);
    // Moving leaves the report open (a new open issue replaces the moved one): no change.
    let moved = app.desk().move_to(filed.issue, other.id, now).await;
    app.accept(moved.id, now).await;
    // A statement is not a status change.
    app.add_statement(moved.id, "We are on it.", now).await;
    app.desk().status(moved.id, Transition::Resolve, now).await;

    let published = publisher(&app)
        .await
        .run_once(app.clock.now())
        .await
        .unwrap();
    assert_eq!(published, 3, "filed, accepted, resolved");
    let (first, retained) = subscriber.next().await.expect("a message");
    assert!(!retained, "status events are not retained");
    let mut messages = vec![first];
    messages.extend(subscriber.drain().await);
    assert_eq!(
        statuses(&messages),
        vec![
            (None, Some("open")),
            (Some("open"), Some("accepted")),
            (Some("accepted"), Some("resolved")),
        ]
    );
    for m in &messages {
        assert_eq!(m.report_id, filed.report.to_string());
        let raw = serde_json::to_value(m).unwrap();
        let mut keys: Vec<_> = raw.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(
            keys,
            vec![
                "changed_at",
                "event_id",
                "previous_status",
                "report_id",
                "status"
            ],
            "no title, author or location"
        );
    }
    let ids: std::collections::HashSet<_> = messages.iter().map(|m| &m.event_id).collect();
    assert_eq!(ids.len(), 3);
    // Published changes are gone: the next round publishes nothing.
    assert_eq!(
        publisher(&app)
            .await
            .run_once(app.clock.now())
            .await
            .unwrap(),
        0
    );
}

async fn a_change_left_by_a_dead_publisher_is_published_after_the_lease_with_its_identity(
    app: TestApp,
) {
    let filed = app.file(Filing::new("Pothole", 1).by("author-2")).await;
    let mut subscriber = Subscriber::new(&app, filed.report).await;
    let now = app.clock.now();
    // A publisher claims the change, then dies before publishing or removing it.
    let claimed = app
        .stores
        .status_events
        .claim_status_events(100, LEASE_SECS, now)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1);
    // Within the lease nobody else takes it.
    let publisher = publisher(&app).await;
    assert_eq!(publisher.run_once(now).await.unwrap(), 0);
    assert!(subscriber.next().await.is_none());
    // After the lease it is published, with the identity it was recorded with.
    let later = now + TimeDelta::seconds(i64::from(LEASE_SECS));
    assert_eq!(publisher.run_once(later).await.unwrap(), 1);
    let (message, _) = subscriber.next().await.expect("published after the lease");
    assert_eq!(message.event_id, claimed[0].id.to_string());
    assert_eq!(message.status.as_deref(), Some("open"));
}

async fn two_publishers_never_claim_the_same_change(app: TestApp) {
    for second in 0..40 {
        app.file(Filing::new("Graffiti on the wall", second)).await;
    }
    let now = app.clock.now();
    let store = &app.stores.status_events;
    let (a, b) = tokio::join!(
        store.claim_status_events(25, LEASE_SECS, now),
        store.claim_status_events(25, LEASE_SECS, now)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.len() + b.len(), 40, "every change claimed once");
    let mut ids: Vec<_> = a.iter().chain(&b).map(|e| e.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 40, "no change claimed twice");
    assert!(store
        .claim_status_events(25, LEASE_SECS, now)
        .await
        .unwrap()
        .is_empty());
}

async fn a_later_change_waits_while_an_earlier_one_of_its_report_is_held(app: TestApp) {
    let filed = app.file(Filing::new("Pothole", 1).by("author-3")).await;
    app.file(Filing::new("Broken bench", 2)).await;
    let store = &app.stores.status_events;
    let now = app.clock.now();
    // A publisher claims both reports' first changes, then dies (or its broker does).
    let held = store
        .claim_status_events(100, LEASE_SECS, now)
        .await
        .unwrap();
    assert_eq!(held.len(), 2);
    // The first report changes again.
    app.accept(filed.issue, app.time(10)).await;
    // Within the lease its later change is not claimed: it would go out first.
    let within = now + TimeDelta::seconds(1);
    let claimed = store
        .claim_status_events(100, LEASE_SECS, within)
        .await
        .unwrap();
    assert!(claimed.is_empty(), "{claimed:?}");
    // A change given back (its publish not acknowledged) is claimed again at once, before the
    // later one; the other report's change stays held.
    let first = held.iter().find(|e| e.report_id == filed.report).unwrap();
    store.release_status_events(&[first.id]).await.unwrap();
    let again = store
        .claim_status_events(100, LEASE_SECS, within)
        .await
        .unwrap();
    let statuses: Vec<_> = again
        .iter()
        .map(|e| (e.report_id, e.status.map(|s| s.as_str())))
        .collect();
    assert_eq!(
        statuses,
        [
            (filed.report, Some("open")),
            (filed.report, Some("accepted"))
        ]
    );
    assert_eq!(again[0].id, first.id);
}

async fn changes_are_discarded_when_status_events_are_off(app: TestApp) {
    app.file(Filing::new("Fallen tree", 1)).await;
    app.file(Filing::new("Fallen sign", 2)).await;
    let store = &app.stores.status_events;
    assert_eq!(store.discard_status_events().await.unwrap(), 2);
    assert!(store
        .claim_status_events(100, LEASE_SECS, app.clock.now())
        .await
        .unwrap()
        .is_empty());
}
