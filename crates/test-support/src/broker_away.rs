//! A service binary run for a bounded time while its MQTT broker is away or comes and goes,
//! failing on a crash (issue 32: paho's reconnect corrupted the heap and the process died with
//! SIGSEGV minutes after start).
//!
//! * [`closed_port`]: a port of 127.0.0.1 where nothing listens (a broker that went away).
//! * [`FlappingBroker`]: a TCP relay in front of the machine's broker (`TEST_MQTT_HOST:PORT`), or
//!   of any other, that the test takes down (refusing connections and cutting the open ones)
//!   and brings back.
//! * [`ServiceProcess`] (from [`crate::process`]): the service's own binary, started with the
//!   environment the test gives, then stopped with SIGTERM, which it must survive to exit 0.
//!
//! * [`Broker`] and [`run_case`]: one case of a service's suite, the same for every service;
//!   [`broker_away_cases!`](crate::broker_away_cases) writes its four tests (two backends, away
//!   and coming and going).
//!
//! How long each run lasts: `BROKER_AWAY_SECS` (default 8; CI sets more, and a longer soak is
//! `BROKER_AWAY_SECS=600 cargo test --workspace --test broker_away`).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use crate::lock;

pub use crate::process::{closed_port, ServiceProcess};

/// How long one run lasts (`BROKER_AWAY_SECS`, default 8 s).
pub fn run_time() -> Duration {
    let secs = std::env::var("BROKER_AWAY_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    Duration::from_secs(secs)
}

/// The broker's part in a run.
pub enum Broker {
    /// Nothing listens at the configured port.
    Away,
    /// A relay to the machine's broker, taken down and brought back every 1.5 s.
    Flapping(FlappingBroker),
}

impl Broker {
    /// The broker for a case: away, or a relay to the machine's broker (`None`, with a recorded
    /// skip, when that broker does not answer).
    pub async fn for_case(flapping: bool) -> Option<Self> {
        if flapping {
            FlappingBroker::start().await.map(Self::Flapping)
        } else {
            Some(Self::Away)
        }
    }

    /// The `mqtt://` URL the service is given.
    pub fn url(&self) -> String {
        match self {
            Self::Away => format!("mqtt://127.0.0.1:{}", closed_port()),
            Self::Flapping(relay) => relay.url(),
        }
    }
}

/// What a case needs to know of its service.
pub struct Case<'a> {
    /// The service's binary (`env!("CARGO_BIN_EXE_<name>")`).
    pub binary: &'a str,
    /// Its environment prefix, e.g. `CITIZEN_API`.
    pub env_prefix: &'a str,
}

/// One case: starts the service on `db` (migrated at start) with `env` (keys without the
/// prefix; the broker's URL is added as `MQTT__URL`, with quick reconnects), runs `work` (the
/// service's users, given the base URL and the end instant; it answers how many requests
/// succeeded, see [`send_until`]) for [`run_time`] while the broker does its part, then checks
/// the service stayed up, connected again after each loss (flapping) and exits 0 on SIGTERM.
pub async fn run_case<W, F>(
    case: Case<'_>,
    db: &crate::TestDatabase,
    broker: Broker,
    env: &[(&str, String)],
    work: W,
) where
    W: FnOnce(String, Instant) -> F,
    F: std::future::Future<Output = usize>,
{
    let common = [
        ("DATABASE__URL", db.url.clone()),
        ("DATABASE__MIGRATE_ON_START", "true".into()),
        ("MQTT__URL", broker.url()),
        // Many more connect attempts than the default's one a second: a crash comes sooner.
        ("MQTT__RETRY_MILLIS", "20".into()),
        ("MQTT__PUBLISH_TIMEOUT_MILLIS", "500".into()),
    ];
    let vars: Vec<(String, String)> = common
        .iter()
        .chain(env)
        .map(|(k, v)| (format!("{}__{k}", case.env_prefix), v.clone()))
        .collect();
    let mut service = ServiceProcess::start(case.binary, case.env_prefix, &vars);
    service
        .wait_ready("/healthz", Duration::from_secs(60))
        .await;
    let until = Instant::now() + run_time();
    let working = work(service.base.clone(), until);
    let done = match &broker {
        Broker::Away => working.await,
        Broker::Flapping(relay) => {
            let (done, ()) = tokio::join!(
                working,
                relay.flap_until(until, Duration::from_millis(1500))
            );
            done
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
    assert!(done > 0, "no request succeeded\n{}", service.log_tail());
    service.terminate(Duration::from_secs(30)).await;
}

/// The users of a case: sends `request(http, sent)` (`sent`: how many were answered so far)
/// every 200 ms until `until`, each with 10 s to answer; every answer must be 201. How many
/// were answered.
pub async fn send_until(
    until: Instant,
    request: impl Fn(&reqwest::Client, usize) -> reqwest::RequestBuilder,
) -> usize {
    let http = reqwest::Client::new();
    let mut sent = 0;
    while Instant::now() < until {
        let answer = request(&http, sent)
            .timeout(Duration::from_secs(10))
            .send()
            .await;
        if let Ok(response) = answer {
            assert_eq!(
                response.status().as_u16(),
                201,
                "{:?}",
                response.text().await
            );
            sent += 1;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    sent
}

/// The four tests of a service's broker-away suite, each calling
/// `$run(backend: Backend, broker: Broker)`.
#[macro_export]
macro_rules! broker_away_cases {
    ($run:path) => {
        $crate::broker_away_cases!(@case $run, sqlite_broker_away, Sqlite, false);
        $crate::broker_away_cases!(@case $run, postgres_broker_away, Postgres, false);
        $crate::broker_away_cases!(@case $run, sqlite_broker_comes_and_goes, Sqlite, true);
        $crate::broker_away_cases!(@case $run, postgres_broker_comes_and_goes, Postgres, true);
    };
    // One test: `$run` on `$backend` with a broker that stays away, or comes and goes.
    (@case $run:path, $name:ident, $backend:ident, $flapping:literal) => {
        #[tokio::test]
        async fn $name() {
            if let Some(broker) = $crate::broker_away::Broker::for_case($flapping).await {
                $run($crate::Backend::$backend, broker).await;
            }
        }
    };
}

/// A relay on a port of its own to the machine's MQTT broker, taken down and brought back by
/// the test: down, the port refuses connections and every relayed connection is cut.
pub struct FlappingBroker {
    port: u16,
    target: (String, u16),
    serving: Mutex<Option<JoinHandle<()>>>,
    relays: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl FlappingBroker {
    /// A relay to `TEST_MQTT_HOST:TEST_MQTT_PORT`, up; `None` (with a recorded skip) when no
    /// broker answers there.
    pub async fn start() -> Option<Self> {
        if !crate::mqtt_broker().await {
            return None;
        }
        Some(Self::to(crate::mqtt_address()).await)
    }

    /// A relay to the broker at `target`, up.
    pub async fn to(target: (String, u16)) -> Self {
        let broker = Self {
            port: closed_port(),
            target,
            serving: Mutex::new(None),
            relays: Arc::new(Mutex::new(Vec::new())),
        };
        broker.up().await;
        broker
    }

    /// The relay's `mqtt://` URL.
    pub fn url(&self) -> String {
        format!("mqtt://127.0.0.1:{}", self.port)
    }

    /// Listens again (a broker that came back).
    pub async fn up(&self) {
        let addr = SocketAddr::from(([127, 0, 0, 1], self.port));
        let listener = TcpListener::bind(addr).await.expect("bind the relay port");
        let target = self.target.clone();
        let relays = self.relays.clone();
        let serving = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let target = target.clone();
                let relay = tokio::spawn(async move {
                    if let Ok(mut broker) = TcpStream::connect((target.0.as_str(), target.1)).await
                    {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut broker).await;
                    }
                });
                lock(&relays).push(relay);
            }
        });
        *lock(&self.serving) = Some(serving);
    }

    /// Stops listening and cuts every relayed connection (a broker that went away).
    pub fn down(&self) {
        if let Some(serving) = lock(&self.serving).take() {
            serving.abort();
        }
        for relay in lock(&self.relays).drain(..) {
            relay.abort();
        }
    }

    /// Takes the broker down and brings it back every `period` until `until`.
    pub async fn flap_until(&self, until: Instant, period: Duration) {
        let mut up = true;
        while Instant::now() < until {
            tokio::time::sleep(period.min(until.saturating_duration_since(Instant::now()))).await;
            if up {
                self.down();
            } else {
                self.up().await;
            }
            up = !up;
        }
    }
}

impl Drop for FlappingBroker {
    fn drop(&mut self) {
        self.down();
    }
}
