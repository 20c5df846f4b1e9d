//! The notice flows, each against Mosquitto and the embedded broker.

use serde_json::json;
use std::sync::Arc;
use test_support::{Backend, TestDatabase};

use crate::broker::*;
use crate::helpers::*;

/// A fresh SQLite database (always available).
async fn sqlite() -> Arc<TestDatabase> {
    fresh_database(Backend::Sqlite)
        .await
        .expect("SQLite is always available")
}

/// Runs each flow against both brokers: `mosquitto::<name>` and `embedded::<name>`.
macro_rules! on_both_brokers {
    ($($name:ident),* $(,)?) => {
        mod mosquitto {
            $(#[tokio::test] async fn $name() {
                if let Some(broker) = super::Broker::mosquitto().await { super::$name(broker).await }
            })*
        }
        mod embedded {
            $(#[tokio::test] async fn $name() { super::$name(super::Broker::embedded()).await })*
        }
    };
}

on_both_brokers!(
    late_subscriber_gets_the_retained_version_rest_returns,
    window_start_and_end_each_publish_a_new_version,
    republish_repairs_a_broker_that_lost_its_retained_messages,
    instances_writing_in_turn_leave_the_newest_version_retained,
    publishing_failures_do_not_fail_writes,
);

async fn late_subscriber_gets_the_retained_version_rest_returns(broker: Broker) {
    let app = spawn_with_broker(sqlite().await, &broker).await;
    let client = unique_client();
    let mut live = Subscriber::connect(&broker, &client).await;
    app.create_ok(&client, message("outage tonight")).await;
    let version = app.version(&client).await;
    let notice = live.until_version(&version).await;
    assert_eq!(notice.client_id, client);

    let mut late = Subscriber::connect(&broker, &client).await;
    let (retained, notice) = late.next().await;
    assert!(
        retained,
        "a subscriber connecting after the change gets the retained notice"
    );
    assert_eq!(
        notice.version, version,
        "MQTT and REST carry the same version"
    );
    assert_eq!(notice.client_id, client);
}

async fn window_start_and_end_each_publish_a_new_version(broker: Broker) {
    let app = spawn_with_broker(sqlite().await, &broker).await;
    let client = unique_client();
    let t = app.now();
    let mut sub = Subscriber::connect(&broker, &client).await;
    app.create_ok(
        &client,
        json!({"text": "maintenance", "valid_from": app.at(60), "valid_to": app.at(120)}),
    )
    .await;
    let before = app.version(&client).await;
    sub.until_version(&before).await;

    app.travel_to(t + chrono::TimeDelta::seconds(60)).await;
    let (_, started) = sub.next().await;
    let rest = app.public(&client).await;
    assert_ne!(
        started.version, before,
        "window start publishes a new version"
    );
    assert_eq!(started.version, rest["version"].as_str().unwrap());
    assert_eq!(rest["messages"].as_array().unwrap().len(), 1);

    app.travel_to(t + chrono::TimeDelta::seconds(120)).await;
    let (_, ended) = sub.next().await;
    let rest = app.public(&client).await;
    assert_ne!(
        ended.version, started.version,
        "window end publishes a new version"
    );
    assert_eq!(ended.version, rest["version"].as_str().unwrap());
    assert_eq!(rest["messages"].as_array().unwrap().len(), 0);
}

async fn republish_repairs_a_broker_that_lost_its_retained_messages(broker: Broker) {
    let app = spawn_with_broker(sqlite().await, &broker).await;
    let clients = [unique_client(), unique_client()];
    for client in &clients {
        app.create_ok(client, message("hello")).await;
    }
    app.notifier.wait_idle().await;
    let versions = [
        app.version(&clients[0]).await,
        app.version(&clients[1]).await,
    ];

    // A broker restarted without persistence has no retained notices: clear them.
    for client in &clients {
        clear_retained(&broker, client).await;
    }
    // The reconnect path: what the event loop runs on every ConnAck.
    let mut subs = [
        Subscriber::connect(&broker, &clients[0]).await,
        Subscriber::connect(&broker, &clients[1]).await,
    ];
    app.notifier.republish_all();
    for (sub, version) in subs.iter_mut().zip(&versions) {
        assert_eq!(&sub.until_version(version).await.version, version);
    }

    // And a fresh connection (start-up or reconnect) republishes by itself.
    for client in &clients {
        clear_retained(&broker, client).await;
        assert_nothing_retained(&broker, client).await;
    }
    let restarted = spawn_with_broker(app.db.clone(), &broker.shared()).await;
    restarted.notifier.wait_connected().await;
    restarted.notifier.wait_idle().await;
    for (client, version) in clients.iter().zip(&versions) {
        let mut late = Subscriber::connect(&broker, client).await;
        let (retained, notice) = late.next().await;
        assert!(retained);
        assert_eq!(
            &notice.version, version,
            "every client's version is back after the connect"
        );
    }
}

async fn instances_writing_in_turn_leave_the_newest_version_retained(broker: Broker) {
    let db = match fresh_database(Backend::Postgres).await {
        Some(db) => db,
        None => sqlite().await,
    };
    let a = spawn_with_broker(db.clone(), &broker).await;
    let b = spawn_with_broker(db, &broker.shared()).await;
    let client = unique_client();
    let id = a.create_ok(&client, message("v1")).await;
    for (round, app) in [&b, &a, &b, &a, &b].into_iter().enumerate() {
        let response = app
            .http
            .patch(format!("{}/clients/{client}/messages/{id}", app.base))
            .bearer_auth(app.operator())
            .json(&json!({"text": format!("round {round}")}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
    a.notifier.wait_idle().await;
    b.notifier.wait_idle().await;
    let newest = a.version(&client).await;
    assert_eq!(newest, b.version(&client).await);
    let mut late = Subscriber::connect(&broker, &client).await;
    let (retained, notice) = late.next().await;
    assert!(retained);
    assert_eq!(
        notice.version, newest,
        "the newest version is the one retained"
    );
}

async fn publishing_failures_do_not_fail_writes(broker: Broker) {
    // The service starts while the broker is unreachable: the write is stored and answered, and
    // the notice goes out once a connection to a broker is up.
    let offline = spawn_with_broker(sqlite().await, &Broker::None).await;
    let client = unique_client();
    offline
        .create_ok(&client, message("stored without a broker"))
        .await;
    assert!(!offline.notifier.is_connected());
    let ready = offline.readyz().await;
    assert_eq!(ready.status(), 503, "readiness shows the broker is down");
    let version = offline.version(&client).await;

    let online = spawn_with_broker(offline.db.clone(), &broker).await;
    let mut sub = Subscriber::connect(&broker, &client).await;
    assert_eq!(sub.until_version(&version).await.version, version);
    online.notifier.wait_idle().await;
    let ready = online.readyz().await;
    assert_eq!(ready.status(), 200);
}
