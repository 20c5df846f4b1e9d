//! citizen-api's own binary, notification delivery and status events on, run for a bounded time
//! (`BROKER_AWAY_SECS`) while its MQTT broker is away or comes and goes, on both backends, with
//! citizens filing meanwhile: it must keep answering and exit cleanly on SIGTERM (issue 32: it
//! died with SIGSEGV, paho's automatic reconnect having corrupted the heap).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

use std::time::Instant;

use test_support::broker_away::{run_case, send_until, Broker, Case};
use test_support::Backend;

test_support::broker_away_cases!(run);

async fn run(backend: Backend, broker: Broker) {
    let Some(db) = test_support::database(backend, "broker_away").await else {
        return;
    };
    let media = db.dir.path().join("media");
    let env = [
        ("MEDIA__DIR", media.to_str().unwrap().to_owned()),
        ("RATE_LIMIT__ANONYMOUS_REPORTS_PER_HOUR", "0".into()),
        ("NOTIFICATIONS__WORKER__POLL_MILLIS", "50".into()),
        ("NOTIFICATIONS__DELIVERY__ENABLED", "true".into()),
        ("NOTIFICATIONS__DELIVERY__POLL_MILLIS", "50".into()),
        ("STATUS_EVENTS__ENABLED", "true".into()),
        ("STATUS_EVENTS__POLL_MILLIS", "50".into()),
    ];
    let case = Case {
        binary: env!("CARGO_BIN_EXE_citizen-api"),
        env_prefix: "CITIZEN_API",
    };
    run_case(case, &db, broker, &env, file_until).await;
}

/// Files an anonymous report every 200 ms until `until` (each one is a status event waiting
/// for the broker); how many were filed.
async fn file_until(base: String, until: Instant) -> usize {
    send_until(until, |http, _| {
        let form = reqwest::multipart::Form::new()
            .text("title", "Broken lamp")
            .text("description", "By the school");
        http.post(format!("{base}/api/v1/reports")).multipart(form)
    })
    .await
}
