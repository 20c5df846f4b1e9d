//! platform-messages' own binary run for a bounded time (`BROKER_AWAY_SECS`) while its MQTT
//! broker is away or comes and goes, on both backends, with an operator writing messages
//! meanwhile: it must keep answering and exit cleanly on SIGTERM (issue 32: the same paho
//! client crashed citizen-api when its reconnect corrupted the heap).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

use std::time::{Duration, Instant};

use serde_json::json;
use service_kit::auth::{mint_dev_token, AuthSettings, DevTokenRequest};
use test_support::broker_away::{closed_port, run_time, FlappingBroker, ServiceProcess};
use test_support::Backend;

const DEV_SECRET: &str = "broker-away-test-secret-0123456789abcdef";

enum Broker {
    Away,
    Flapping(FlappingBroker),
}

async fn run(backend: Backend, broker: Broker) {
    let Some(db) = test_support::database(backend, "broker_away").await else {
        return;
    };
    let url = match &broker {
        Broker::Away => format!("mqtt://127.0.0.1:{}", closed_port()),
        Broker::Flapping(relay) => relay.url(),
    };
    let env: Vec<(String, String)> = [
        ("DATABASE__URL", db.url.as_str()),
        ("DATABASE__MIGRATE_ON_START", "true"),
        ("AUTH__DEV_SECRET", DEV_SECRET),
        ("MQTT__EMBEDDED_BROKER", "false"),
        ("MQTT__URL", url.as_str()),
        ("MQTT__RETRY_MILLIS", "20"),
        ("MQTT__PUBLISH_TIMEOUT_MILLIS", "500"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("PLATFORM_MESSAGES__{k}"), v.to_owned()))
    .collect();
    let mut service = ServiceProcess::start(
        env!("CARGO_BIN_EXE_platform-messages"),
        "PLATFORM_MESSAGES",
        &env,
    );
    service
        .wait_ready("/healthz", Duration::from_secs(60))
        .await;
    let until = Instant::now() + run_time();
    let writing = write_until(&service.base, until);
    let written = match &broker {
        Broker::Away => writing.await,
        Broker::Flapping(relay) => {
            let (written, ()) = tokio::join!(
                writing,
                relay.flap_until(until, Duration::from_millis(1500))
            );
            written
        }
    };
    service.assert_running("while its broker was away");
    if let Broker::Flapping(_) = broker {
        // It connected, lost the broker and connected again.
        let connects = service.log_count("connected to the MQTT broker");
        assert!(
            connects >= 2,
            "{connects} connections\n{}",
            service.log_tail()
        );
    }
    assert!(
        written > 0,
        "no message was written\n{}",
        service.log_tail()
    );
    service.terminate(Duration::from_secs(30)).await;
}

/// Writes a message for one of three clients every 200 ms until `until` (each one a change
/// notice waiting for the broker); how many were written.
async fn write_until(base: &str, until: Instant) -> usize {
    let auth = AuthSettings {
        dev_secret: Some(DEV_SECRET.to_owned().into()),
        ..AuthSettings::default()
    };
    let token = mint_dev_token(
        &auth,
        &DevTokenRequest {
            subject: "operator".into(),
            scopes: vec!["platform:messages:manage".into()],
            roles: Vec::new(),
            client_id: None,
            email: None,
            locale: None,
            ttl: Duration::from_secs(3600),
        },
    )
    .unwrap();
    let http = reqwest::Client::new();
    let mut written = 0;
    while Instant::now() < until {
        let client = ["web", "mobile", "kiosk"][written % 3];
        let sent = http
            .post(format!("{base}/api/v1/clients/{client}/messages"))
            .bearer_auth(&token)
            .json(&json!({"text": format!("Maintenance window {written}")}))
            .timeout(Duration::from_secs(10))
            .send()
            .await;
        if let Ok(response) = sent {
            assert_eq!(
                response.status().as_u16(),
                201,
                "{:?}",
                response.text().await
            );
            written += 1;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    written
}

#[tokio::test]
async fn sqlite_broker_away() {
    run(Backend::Sqlite, Broker::Away).await;
}

#[tokio::test]
async fn postgres_broker_away() {
    run(Backend::Postgres, Broker::Away).await;
}

#[tokio::test]
async fn sqlite_broker_comes_and_goes() {
    if let Some(relay) = FlappingBroker::start().await {
        run(Backend::Sqlite, Broker::Flapping(relay)).await;
    }
}

#[tokio::test]
async fn postgres_broker_comes_and_goes() {
    if let Some(relay) = FlappingBroker::start().await {
        run(Backend::Postgres, Broker::Flapping(relay)).await;
    }
}
