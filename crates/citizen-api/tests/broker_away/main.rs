//! citizen-api's own binary, notification delivery and status events on, run for a bounded time
//! (`BROKER_AWAY_SECS`) while its MQTT broker is away or comes and goes, on both backends, with
//! citizens filing meanwhile: it must keep answering and exit cleanly on SIGTERM (issue 32: it
//! died with SIGSEGV, paho's automatic reconnect having corrupted the heap).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

use std::time::{Duration, Instant};

use test_support::broker_away::{closed_port, run_time, FlappingBroker, ServiceProcess};
use test_support::Backend;

/// The broker's part in a run.
enum Broker {
    /// Nothing listens at the configured port.
    Away,
    /// A relay to the machine's broker, taken down and brought back every 1.5 s.
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
    let media = db.dir.path().join("media");
    let env: Vec<(String, String)> = [
        ("DATABASE__URL", db.url.as_str()),
        ("DATABASE__MIGRATE_ON_START", "true"),
        ("MEDIA__DIR", media.to_str().unwrap()),
        ("RATE_LIMIT__ANONYMOUS_REPORTS_PER_HOUR", "0"),
        ("NOTIFICATIONS__WORKER__POLL_MILLIS", "50"),
        ("NOTIFICATIONS__DELIVERY__ENABLED", "true"),
        ("NOTIFICATIONS__DELIVERY__POLL_MILLIS", "50"),
        ("STATUS_EVENTS__ENABLED", "true"),
        ("STATUS_EVENTS__POLL_MILLIS", "50"),
        ("MQTT__URL", url.as_str()),
        // Many more connect attempts than the default's one a second: a crash comes sooner.
        ("MQTT__RETRY_MILLIS", "20"),
        ("MQTT__PUBLISH_TIMEOUT_MILLIS", "500"),
    ]
    .into_iter()
    .map(|(k, v)| (format!("CITIZEN_API__{k}"), v.to_owned()))
    .collect();
    let mut service = ServiceProcess::start(env!("CARGO_BIN_EXE_citizen-api"), "CITIZEN_API", &env);
    service
        .wait_ready("/healthz", Duration::from_secs(60))
        .await;
    let until = Instant::now() + run_time();
    let filing = file_until(&service.base, until);
    let filed = match &broker {
        Broker::Away => filing.await,
        Broker::Flapping(relay) => {
            let (filed, ()) =
                tokio::join!(filing, relay.flap_until(until, Duration::from_millis(1500)));
            filed
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
    assert!(filed > 0, "no report was filed\n{}", service.log_tail());
    service.terminate(Duration::from_secs(30)).await;
}

/// Files an anonymous report every 200 ms until `until` (each one is a status event waiting
/// for the broker); how many were filed.
async fn file_until(base: &str, until: Instant) -> usize {
    let http = reqwest::Client::new();
    let mut filed = 0;
    while Instant::now() < until {
        let form = reqwest::multipart::Form::new()
            .text("title", "Broken lamp")
            .text("description", "By the school");
        let sent = http
            .post(format!("{base}/api/v1/reports"))
            .multipart(form)
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
            filed += 1;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    filed
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
