//! platform-messages' own binary run for a bounded time (`BROKER_AWAY_SECS`) while its MQTT
//! broker is away or comes and goes, on both backends, with an operator writing messages
//! meanwhile: it must keep answering and exit cleanly on SIGTERM (issue 32: the same paho
//! client crashed citizen-api when its reconnect corrupted the heap).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

use std::time::{Duration, Instant};

use serde_json::json;
use service_kit::auth::{mint_dev_token, AuthSettings, DevTokenRequest};
use test_support::broker_away::{run_case, send_until, Broker, Case};
use test_support::Backend;

const DEV_SECRET: &str = "broker-away-test-secret-0123456789abcdef";

test_support::broker_away_cases!(run);

async fn run(backend: Backend, broker: Broker) {
    let Some(db) = test_support::database(backend, "broker_away").await else {
        return;
    };
    let env = [
        ("AUTH__DEV_SECRET", DEV_SECRET.into()),
        ("MQTT__EMBEDDED_BROKER", "false".into()),
    ];
    let case = Case {
        binary: env!("CARGO_BIN_EXE_platform-messages"),
        env_prefix: "PLATFORM_MESSAGES",
    };
    run_case(case, &db, broker, &env, write_until).await;
}

/// Writes a message for one of three clients every 200 ms until `until` (each one a change
/// notice waiting for the broker); how many were written.
async fn write_until(base: String, until: Instant) -> usize {
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
    send_until(until, |http, written| {
        let client = ["web", "mobile", "kiosk"][written % 3];
        http.post(format!("{base}/api/v1/clients/{client}/messages"))
            .bearer_auth(&token)
            .json(&json!({"text": format!("Maintenance window {written}")}))
    })
    .await
}
