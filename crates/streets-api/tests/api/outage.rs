//! A PostgreSQL restart under load: every answer is 200 or 503 (never 500), and the service
//! serves again once the database is back.
//!
//! The test runs its own PostgreSQL cluster (`test_support::PrivatePostgres`), so stopping it
//! disturbs no other test. The lookup cache is off, so every request reaches the database.

use crate::helpers::{short_street, spawn_with, test_settings, TestApp};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use test_support::PrivatePostgres;

const WORKERS: usize = 8;
const STREETS: i64 = 40;

/// Where the test stands when a request starts.
const WARMING: u8 = 0;
const STOPPING: u8 = 1;
const RESTARTED: u8 = 2;

#[derive(Default)]
struct Tally {
    /// 200 answers by the phase in which their request started.
    ok: [AtomicU64; 3],
    /// 503 answers with the expected error body.
    unavailable: AtomicU64,
    /// Anything else: status and body, or the transport error.
    unexpected: Mutex<Vec<String>>,
}

impl Tally {
    fn ok_in(&self, phase: u8) -> u64 {
        self.ok[usize::from(phase)].load(Ordering::Relaxed)
    }

    fn unavailable(&self) -> u64 {
        self.unavailable.load(Ordering::Relaxed)
    }

    fn total(&self) -> u64 {
        self.ok
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum::<u64>()
            + self.unavailable()
            + self.unexpected.lock().unwrap().len() as u64
    }
}

fn is_unavailable_body(body: &Value) -> bool {
    body["statusCode"] == 503
        && body["name"] == "SERVICE_UNAVAILABLE"
        && body["userinfo"].as_str().is_some_and(|s| !s.is_empty())
}

/// Requests one street by number, and radius searches, in turn, until told to stop.
async fn load(
    app: Arc<TestApp>,
    worker: usize,
    phase: Arc<AtomicU8>,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) {
    let mut i = worker as i64;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let path = if i % 2 == 0 {
            format!("/streets/{}", 1 + i % STREETS)
        } else {
            let lon = 14.40 + (i % STREETS) as f64 * 0.001;
            format!("/streets?longitude={lon}&latitude=50.08&radius=300")
        };
        let started_in = phase.load(Ordering::SeqCst);
        let sent = app
            .client
            .get(app.url(&path))
            .timeout(Duration::from_secs(15))
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(err) => {
                tally
                    .unexpected
                    .lock()
                    .unwrap()
                    .push(format!("{path}: {err}"));
                continue;
            }
        };
        let status = response.status().as_u16();
        let body = response.json::<Value>().await.unwrap_or(Value::Null);
        match status {
            200 => {
                tally.ok[usize::from(started_in)].fetch_add(1, Ordering::Relaxed);
            }
            503 if is_unavailable_body(&body) => {
                tally.unavailable.fetch_add(1, Ordering::Relaxed);
            }
            _ => tally
                .unexpected
                .lock()
                .unwrap()
                .push(format!("{path}: {status} {body}")),
        }
    }
}

/// Polls `condition` until it holds; panics with `what` after `limit`.
async fn wait_for(what: &str, limit: Duration, condition: impl Fn() -> bool) {
    tokio::time::timeout(limit, async {
        while !condition() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("timed out after {limit:?} waiting for {what}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_postgres_restart_under_load_answers_503_never_500() {
    let Some(pg) = PrivatePostgres::start("outage").await else {
        return;
    };
    let began = Instant::now();
    let mut settings = test_settings(&pg.url());
    settings.cache.max_entries = 0; // every request reaches the database
    settings.database.acquire_timeout_seconds = 1; // a request waits 1 s for a connection
    let app = Arc::new(spawn_with(settings, tempfile::tempdir().unwrap()).await);
    let streets: Vec<_> = (1..=STREETS)
        .map(|n| short_street(n, &format!("Ulice {n}"), 14.40 + n as f64 * 0.001, 50.08))
        .collect();
    app.seed(&streets).await;

    let phase = Arc::new(AtomicU8::new(WARMING));
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            tokio::spawn(load(
                app.clone(),
                w,
                phase.clone(),
                stop.clone(),
                tally.clone(),
            ))
        })
        .collect();
    let limit = Duration::from_secs(20);

    wait_for("answers before the stop", limit, || {
        tally.ok_in(WARMING) >= 100
    })
    .await;
    phase.store(STOPPING, Ordering::SeqCst);
    let stopped_at = Instant::now();
    pg.stop().await;
    wait_for("503 answers while PostgreSQL is down", limit, || {
        tally.unavailable() >= 8
    })
    .await;
    pg.start_server().await;
    let outage = stopped_at.elapsed();
    phase.store(RESTARTED, Ordering::SeqCst);
    wait_for("200 answers after the restart", limit, || {
        tally.ok_in(RESTARTED) >= 100
    })
    .await;
    stop.store(true, Ordering::SeqCst);
    for worker in workers {
        worker.await.unwrap();
    }

    let unexpected = tally.unexpected.lock().unwrap().clone();
    eprintln!(
        "outage test: {} answers ({} × 200 before the stop, {} × 200 during it, {} × 200 after \
         the restart, {} × 503, {} other) in {:.1} s; PostgreSQL down for {:.1} s",
        tally.total(),
        tally.ok_in(WARMING),
        tally.ok_in(STOPPING),
        tally.ok_in(RESTARTED),
        tally.unavailable(),
        unexpected.len(),
        began.elapsed().as_secs_f64(),
        outage.as_secs_f64(),
    );
    assert!(
        unexpected.is_empty(),
        "every answer must be 200 or 503 with the error body, never 500, got:\n{}",
        unexpected.join("\n")
    );
    assert!(tally.unavailable() >= 1);
    assert!(tally.ok_in(RESTARTED) >= 100);
}
