//! Shared test helpers: a real service on port 0, real HTTP over a socket, tokens, MQTT subscribers.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, SubsecRound, TimeDelta, Utc};
use platform_messages::clock::ManualClock;
use platform_messages::notify::{topic, Notice, Notifier};
use platform_messages::scheduler::Scheduler;
use platform_messages::{Application, BuildOptions, Settings, SPEC};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde_json::{json, Value};
use service_kit::auth::{mint_dev_token, DevTokenRequest};

pub const DEV_SECRET: &str = "test-secret-for-platform-messages-0123456789";
pub const MANAGE: &str = "platform:messages:manage";
/// How long a test waits for something that should happen promptly before failing.
pub const WAIT: Duration = Duration::from_secs(10);

/// Which database a test app uses.
#[derive(Debug, Clone)]
pub enum Db {
    Sqlite(String),
    Postgres(String),
}

impl Db {
    /// A fresh SQLite file.
    pub fn sqlite() -> Self {
        let path =
            std::env::temp_dir().join(format!("pm-test-{}.db", uuid::Uuid::new_v4().simple()));
        Db::Sqlite(format!("sqlite://{}", path.display()))
    }

    /// A fresh PostgreSQL database, or `None` (recorded skip) when PostgreSQL is unreachable.
    pub async fn postgres(label: &str) -> Option<Self> {
        test_support::postgres(label)
            .await
            .map(|db| Db::Postgres(db.url))
    }

    pub fn url(&self) -> &str {
        match self {
            Db::Sqlite(u) | Db::Postgres(u) => u,
        }
    }
}

/// Which MQTT broker a test app talks to.
#[derive(Debug, Clone)]
pub enum Broker {
    /// Nothing listens: publishing fails and is retried in the background.
    None,
    /// The external broker of the test environment (Mosquitto, 127.0.0.1:1883).
    External { host: String, port: u16 },
    /// An in-process rumqttd started by the app on this port.
    Embedded { port: u16 },
}

impl Broker {
    /// The test environment's Mosquitto, or `None` (recorded skip) when unreachable.
    pub async fn mosquitto() -> Option<Self> {
        if test_support::mqtt_broker().await {
            let (host, port) = test_support::mqtt_address();
            Some(Broker::External { host, port })
        } else {
            None
        }
    }

    /// A fresh embedded broker on a free port.
    pub fn embedded() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Broker::Embedded { port }
    }

    /// Where subscribers connect.
    pub fn address(&self) -> (String, u16) {
        match self {
            Broker::None => ("127.0.0.1".into(), 9),
            Broker::External { host, port } => (host.clone(), *port),
            Broker::Embedded { port } => ("127.0.0.1".into(), *port),
        }
    }

    /// The same broker for a second app instance (the embedded one is not started twice).
    pub fn shared(&self) -> Self {
        match self {
            Broker::Embedded { port } => Broker::External {
                host: "127.0.0.1".into(),
                port: *port,
            },
            other => other.clone(),
        }
    }
}

pub fn settings(db: &Db, broker: &Broker) -> Settings {
    let mut env = vec![
        ("PLATFORM_MESSAGES__HTTP__PORT", "0".to_string()),
        ("PLATFORM_MESSAGES__DATABASE__URL", db.url().to_string()),
        (
            "PLATFORM_MESSAGES__DATABASE__MIGRATE_ON_START",
            "true".to_string(),
        ),
        (
            "PLATFORM_MESSAGES__DATABASE__MAX_CONNECTIONS",
            "4".to_string(),
        ),
        (
            "PLATFORM_MESSAGES__AUTH__DEV_SECRET",
            DEV_SECRET.to_string(),
        ),
        ("PLATFORM_MESSAGES__MQTT__RETRY_MILLIS", "100".to_string()),
        ("PLATFORM_MESSAGES__MQTT__CLIENT_ID", "pm-test".to_string()),
    ];
    match broker {
        Broker::None => {
            env.push(("PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER", "false".into()));
            env.push(("PLATFORM_MESSAGES__MQTT__URL", "mqtt://127.0.0.1:9".into()));
        }
        Broker::External { host, port } => {
            env.push(("PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER", "false".into()));
            env.push((
                "PLATFORM_MESSAGES__MQTT__URL",
                format!("mqtt://{host}:{port}"),
            ));
        }
        Broker::Embedded { port } => {
            env.push(("PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER", "true".into()));
            env.push((
                "PLATFORM_MESSAGES__MQTT__EMBEDDED_LISTEN",
                format!("127.0.0.1:{port}"),
            ));
        }
    }
    let env = env.into_iter().map(|(k, v)| (k.to_string(), v));
    service_kit::settings::load_from(&SPEC, None, env).expect("test settings")
}

pub struct TestApp {
    pub base: String,
    pub root: String,
    pub http: reqwest::Client,
    pub clock: Arc<ManualClock>,
    pub scheduler: Arc<Scheduler>,
    pub notifier: Notifier,
    pub settings: Settings,
    _server: tokio::task::JoinHandle<()>,
}

/// Starts the service on port 0 with a manual clock at `start`.
pub async fn spawn_app_at(db: &Db, broker: &Broker, start: DateTime<Utc>) -> TestApp {
    let settings = settings(db, broker);
    let clock = Arc::new(ManualClock::new(start));
    let app = Application::build_with(
        settings.clone(),
        BuildOptions {
            clock: Some(clock.clone()),
        },
    )
    .await
    .expect("build app");
    let root = format!("http://127.0.0.1:{}", app.port());
    let base = format!("{root}{}", settings.http.base_path);
    let scheduler = app.scheduler();
    let notifier = app.notifier();
    let server = tokio::spawn(async move {
        let _ = app.run_until(std::future::pending()).await;
    });
    TestApp {
        base,
        root,
        http: reqwest::Client::new(),
        clock,
        scheduler,
        notifier,
        settings,
        _server: server,
    }
}

pub async fn spawn_app(db: &Db, broker: &Broker) -> TestApp {
    spawn_app_at(db, broker, Utc::now().trunc_subsecs(0)).await
}

pub fn unique_client() -> String {
    format!("app-{}", &uuid::Uuid::new_v4().simple().to_string()[..12])
}

impl TestApp {
    pub fn now(&self) -> DateTime<Utc> {
        use platform_messages::clock::Clock as _;
        self.clock.now()
    }

    pub fn at(&self, seconds: i64) -> DateTime<Utc> {
        self.now() + TimeDelta::seconds(seconds)
    }

    pub fn token(&self, scopes: &[&str], roles: &[&str], client_id: Option<&str>) -> String {
        let request = DevTokenRequest {
            subject: "user-1".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
            roles: roles.iter().map(|s| s.to_string()).collect(),
            client_id: client_id.map(str::to_string),
            ttl: Duration::from_secs(600),
        };
        mint_dev_token(&self.settings.auth, &request).expect("dev token")
    }

    pub fn operator(&self) -> String {
        self.token(&[MANAGE], &[], None)
    }

    /// POST a message as operator; returns (status, body).
    pub async fn create(&self, client: &str, body: Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}/clients/{client}/messages", self.base))
            .bearer_auth(self.operator())
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Creates a message that must succeed; returns its id.
    pub async fn create_ok(&self, client: &str, body: Value) -> String {
        let (status, created) = self.create(client, body).await;
        assert_eq!(status, 201, "{created}");
        created["id"].as_str().unwrap().to_string()
    }

    pub async fn public(&self, client: &str) -> Value {
        let response = self
            .http
            .get(format!("{}/public/clients/{client}/messages", self.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    pub async fn me(&self, client: &str, roles: &[&str]) -> Value {
        let response = self
            .http
            .get(format!("{}/me/messages?client_id={client}", self.base))
            .bearer_auth(self.token(&[], roles, None))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    pub async fn version(&self, client: &str) -> String {
        self.public(client).await["version"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Moves the manual clock and runs the scheduler for the new time.
    pub async fn travel_to(&self, t: DateTime<Utc>) {
        self.clock.set(t);
        self.scheduler.run_due(t).await.expect("scheduler");
    }
}

pub fn message(text: &str) -> Value {
    json!({ "text": text })
}

pub fn ids(body: &Value) -> Vec<String> {
    let mut ids: Vec<String> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

/// An MQTT subscriber on one client's topic.
pub struct Subscriber {
    pub client: AsyncClient,
    rx: tokio::sync::mpsc::UnboundedReceiver<(bool, Vec<u8>)>,
    _task: tokio::task::JoinHandle<()>,
}

impl Subscriber {
    /// Connects and subscribes to `system/messages/<client_id>`; returns once subscribed.
    pub async fn connect(broker: &Broker, client_id: &str) -> Self {
        let (host, port) = broker.address();
        let id = format!("sub-{}", uuid::Uuid::new_v4().simple());
        let mut options = MqttOptions::new(id, host, port);
        options.set_keep_alive(Duration::from_secs(30));
        let (client, mut eventloop) = AsyncClient::new(options, 16);
        client
            .subscribe(topic(client_id), QoS::AtLeastOnce)
            .await
            .unwrap();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let (subscribed_tx, subscribed_rx) = tokio::sync::oneshot::channel();
        let task = tokio::spawn(async move {
            let mut subscribed = Some(subscribed_tx);
            loop {
                match eventloop.poll().await {
                    Ok(Event::Incoming(Packet::SubAck(_))) => {
                        if let Some(s) = subscribed.take() {
                            let _ = s.send(());
                        }
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) => {
                        let _ = tx.send((p.retain, p.payload.to_vec()));
                    }
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
        });
        tokio::time::timeout(WAIT, subscribed_rx)
            .await
            .expect("suback in time")
            .expect("subscribed");
        Self {
            client,
            rx,
            _task: task,
        }
    }

    /// The next notice (skipping empty payloads, which clear a retained message).
    pub async fn next(&mut self) -> (bool, Notice) {
        loop {
            let (retained, payload) = tokio::time::timeout(WAIT, self.rx.recv())
                .await
                .expect("a notice in time")
                .expect("subscriber alive");
            if payload.is_empty() {
                continue;
            }
            return (
                retained,
                serde_json::from_slice(&payload).expect("notice JSON"),
            );
        }
    }

    /// Reads notices until one carries `version`.
    pub async fn until_version(&mut self, version: &str) -> Notice {
        loop {
            let (_, notice) = self.next().await;
            if notice.version == version {
                return notice;
            }
        }
    }
}

/// Publishes an empty retained payload on the client's topic: what a broker restarted without
/// persistence looks like to subscribers.
pub async fn clear_retained(broker: &Broker, client_id: &str) {
    let (host, port) = broker.address();
    let mut options = MqttOptions::new(
        format!("clear-{}", uuid::Uuid::new_v4().simple()),
        host,
        port,
    );
    options.set_keep_alive(Duration::from_secs(30));
    let (client, mut eventloop) = AsyncClient::new(options, 16);
    client
        .publish(topic(client_id), QoS::AtLeastOnce, true, Vec::<u8>::new())
        .await
        .unwrap();
    let acked = async {
        loop {
            if let Event::Incoming(Packet::PubAck(_)) =
                eventloop.poll().await.expect("broker reachable")
            {
                return;
            }
        }
    };
    tokio::time::timeout(WAIT, acked)
        .await
        .expect("puback in time");
}

/// Checks that the broker holds no retained notice for the client: a subscriber's first message
/// must be a probe published after it subscribed (brokers send retained messages first).
pub async fn assert_nothing_retained(broker: &Broker, client_id: &str) {
    let mut sub = Subscriber::connect(broker, client_id).await;
    let probe = serde_json::to_vec(&Notice {
        client_id: client_id.into(),
        version: "probe".into(),
    })
    .unwrap();
    sub.client
        .publish(topic(client_id), QoS::AtLeastOnce, false, probe)
        .await
        .unwrap();
    let (retained, first) = sub.next().await;
    assert_eq!(
        (retained, first.version.as_str()),
        (false, "probe"),
        "the retained notice was cleared"
    );
}
