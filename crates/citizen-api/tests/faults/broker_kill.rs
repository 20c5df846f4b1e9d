//! The broker hanging (SIGSTOP) for 1.5 s, then killed (SIGKILL, nothing kept), while officers
//! accept and resolve reports, and started again 2 s later: every status event of an acknowledged step reaches
//! `citizen/reports/<id>/status` after the broker returns, at least once, in order per report.
//!
//! citizen-api reaches the broker through a relay that the case opens again only once the
//! test's subscriber has subscribed on the new broker: a broker that comes back empty has no
//! subscriptions, and what is published before a subscriber returns is, by MQTT's rules, for
//! nobody. The dashboards this serves subscribe again on reconnect the same way.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use citizen_api::notify::status_events::StatusMessage;
use paho_mqtt::{AsyncClient, ConnectOptionsBuilder, CreateOptionsBuilder};
use test_support::broker_away::FlappingBroker;
use uuid::Uuid;

use crate::harness::{one_case_at_a_time, token, Platform, Tally, MANAGER};

const CASE: &str = "broker killed";
const REPORTS: usize = 10;
/// Every status of a report in the order its steps make them.
const STATUSES: [&str; 3] = ["open", "accepted", "resolved"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_status_event_of_an_acknowledged_step_arrives_in_order() {
    let _one = one_case_at_a_time().await;
    let Some(mut platform) = Platform::start("brokerkill", true).await else {
        return;
    };
    let mut broker = platform.broker.take().expect("a broker");
    let relay = FlappingBroker::to(broker.address()).await;
    let received = Received::default();
    let mut subscribers = vec![received.subscribe(&broker.url()).await];
    let api = platform.citizen_api(Some(relay.url()), &[]).await;
    let citizen = token("citizen-1", &[]);
    let officer = token("officer-1", MANAGER);
    let mut reports = Vec::new();
    for i in 0..REPORTS {
        let filed = api.file(&citizen, &format!("Broken lamp {i}")).await;
        assert_eq!(filed.status, Some(201), "{filed:?}");
        reports.push(filed.id());
    }
    let mut issues = Vec::new();
    for &report in &reports {
        issues.push(api.issue_of(&officer, report).await);
    }

    // The officers' steps, one every 150 ms, while the broker hangs, is killed and comes back.
    let steps = async {
        let mut answers = Vec::new();
        for step in ["accept", "resolve"] {
            for &issue in &issues {
                answers.push(api.step(&officer, issue, step).await);
                tokio::time::sleep(Duration::from_millis(150)).await;
            }
        }
        answers
    };
    let fault = async {
        tokio::time::sleep(Duration::from_millis(800)).await;
        // It hangs first: publishes under way get no acknowledgement and time out.
        broker.freeze();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        broker.kill().await;
        relay.down();
        tokio::time::sleep(Duration::from_secs(2)).await;
        broker.start_again().await;
        let subscriber = received.subscribe(&broker.url()).await;
        relay.up().await;
        subscriber
    };
    let (answers, subscriber) = tokio::join!(steps, fault);
    subscribers.push(subscriber);
    for answer in &answers {
        assert_eq!(answer.status, Some(200), "{answer:?}");
    }

    // Every report's three statuses arrive (bounded: the publisher's lease and retries).
    let deadline = Instant::now() + Duration::from_secs(30);
    while !received.complete(&reports) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut tally = Tally {
        sent: REPORTS * STATUSES.len(),
        acknowledged: REPORTS + answers.len(),
        ..Tally::default()
    };
    let by_report = received.by_report();
    for report in &reports {
        let messages = by_report.get(report).cloned().unwrap_or_default();
        let mut seen: Vec<(String, Option<String>)> = Vec::new();
        for m in &messages {
            if seen.iter().any(|(id, _)| *id == m.event_id) {
                tally.twice += 1;
            } else {
                seen.push((m.event_id.clone(), m.status.clone()));
            }
        }
        let statuses: Vec<&str> = seen
            .iter()
            .map(|(_, s)| s.as_deref().unwrap_or("none"))
            .collect();
        tally.found += statuses.len();
        tally.lost += STATUSES.len().saturating_sub(statuses.len());
        assert_eq!(statuses, STATUSES, "the events of report {report}");
    }
    tally.report(
        CASE,
        "status events (sent: expected; acknowledged: filings and steps)",
    );
    assert_eq!(tally.lost, 0);
    assert!(
        api.process.log_count("connected to the MQTT broker") >= 2,
        "citizen-api did not connect again:\n{}",
        api.process.log_tail()
    );
    api.process.terminate(Duration::from_secs(30)).await;
    drop(subscribers);
}

/// The messages the test's subscribers received, in arrival order.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<StatusMessage>>>);

impl Received {
    /// A client of the broker at `url` subscribed to every report's status topic, whose
    /// messages are added here.
    async fn subscribe(&self, url: &str) -> AsyncClient {
        let mut client = CreateOptionsBuilder::new_v3()
            .server_uri(url.replace("mqtt://", "tcp://"))
            .client_id(format!("fault-suite-{}", Uuid::new_v4().simple()))
            .persistence(paho_mqtt::PersistenceType::None)
            .create_client()
            .expect("an MQTT client");
        let stream = client.get_stream(1024);
        let options = ConnectOptionsBuilder::with_mqtt_version(paho_mqtt::MQTT_VERSION_3_1_1)
            .clean_session(true)
            .finalize();
        client
            .connect(options)
            .await
            .expect("connect the subscriber");
        client
            .subscribe("citizen/reports/+/status", 1)
            .await
            .expect("subscribe");
        let into = self.0.clone();
        tokio::spawn(async move {
            // `None` marks a lost connection; the stream ends with the client.
            while let Ok(message) = stream.recv().await {
                if let Some(message) = message {
                    let body: StatusMessage =
                        serde_json::from_slice(message.payload()).expect("a status message");
                    into.lock().expect("lock").push(body);
                }
            }
        });
        client
    }

    fn by_report(&self) -> BTreeMap<Uuid, Vec<StatusMessage>> {
        let mut out: BTreeMap<Uuid, Vec<StatusMessage>> = BTreeMap::new();
        for m in self.0.lock().expect("lock").iter() {
            let report = m.report_id.parse().expect("a report id");
            out.entry(report).or_default().push(m.clone());
        }
        out
    }

    /// Every report has its last status.
    fn complete(&self, reports: &[Uuid]) -> bool {
        let by_report = self.by_report();
        reports.iter().all(|r| {
            by_report
                .get(r)
                .is_some_and(|ms| ms.iter().any(|m| m.status.as_deref() == Some("resolved")))
        })
    }
}
