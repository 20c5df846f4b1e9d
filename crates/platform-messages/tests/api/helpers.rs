//! The test harness: the real service on port 0 (on its own runtime, stopped when the
//! [`TestApp`] is dropped), real HTTP over a socket, dev tokens, a manual clock. Shared by the
//! `api` and `mqtt` suites.
#![allow(dead_code)] // each suite uses part of it

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, SubsecRound, TimeDelta, Utc};
use platform_messages::clock::ManualClock;
use platform_messages::notify::Notifier;
use platform_messages::scheduler::Scheduler;
use platform_messages::{Application, Settings};
use secrecy::SecretString;
use serde_json::{json, Value};
use service_kit::auth::{mint_dev_token, DevTokenRequest};
use service_kit::settings::ServiceSettings;
use test_support::{Backend, TestDatabase};

pub const DEV_SECRET: &str = "test-secret-for-platform-messages-0123456789";
pub const MANAGE: &str = "platform:messages:manage";
/// How long a test waits for something that should happen promptly before failing.
pub const WAIT: Duration = Duration::from_secs(10);

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

/// A fresh database of `backend`; `None` when PostgreSQL is unreachable (the skip is recorded).
pub async fn fresh_database(backend: Backend) -> Option<Arc<TestDatabase>> {
    test_support::database(backend, "messages")
        .await
        .map(Arc::new)
}

/// Production settings with the test database, port 0, the dev secret and `broker`.
pub fn settings(db: &TestDatabase, broker: &Broker) -> Settings {
    let mut s: Settings = service_kit::settings::load_from_pairs(&[]).expect("default settings");
    test_support::under_test(&mut s.http, &mut s.database, &db.url);
    s.auth.dev_secret = Some(SecretString::from(DEV_SECRET));
    s.mqtt.retry_millis = 100;
    s.mqtt.client_id = "pm-test".into();
    match broker {
        Broker::None => {
            s.mqtt.embedded_broker = false;
            s.mqtt.url = "mqtt://127.0.0.1:9".into();
        }
        Broker::External { host, port } => {
            s.mqtt.embedded_broker = false;
            s.mqtt.url = format!("mqtt://{host}:{port}");
        }
        Broker::Embedded { port } => {
            s.mqtt.embedded_broker = true;
            s.mqtt.embedded_listen = format!("127.0.0.1:{port}");
        }
    }
    s.validate().expect("valid test settings");
    s
}

pub struct TestApp {
    pub base: String,
    pub root: String,
    pub http: reqwest::Client,
    pub clock: Arc<ManualClock>,
    pub scheduler: Arc<Scheduler>,
    pub notifier: Notifier,
    pub settings: Settings,
    /// Kept so a second instance can share it, and the SQLite folder lives as long as the app.
    pub db: Arc<TestDatabase>,
    /// Dropping it stops the application (its runtime ends with it).
    _stop: test_support::AppThread,
}

/// What the application thread hands back once the application is built.
struct Started {
    port: u16,
    scheduler: Arc<Scheduler>,
    notifier: Notifier,
}

/// Starts the service on port 0 with a manual clock at `start`. The application runs on its own
/// runtime and thread ([`test_support::spawn_service`]), stopped when the test drops the
/// [`TestApp`].
pub async fn spawn_on(db: Arc<TestDatabase>, broker: &Broker, start: DateTime<Utc>) -> TestApp {
    spawn_configured(db, broker, start, |_| {}).await
}

/// [`spawn_on`] with settings adjusted by `configure` (e.g. the `cache` section).
pub async fn spawn_configured(
    db: Arc<TestDatabase>,
    broker: &Broker,
    start: DateTime<Utc>,
    configure: impl FnOnce(&mut Settings),
) -> TestApp {
    test_support::init_test_log();
    let mut settings = settings(&db, broker);
    configure(&mut settings);
    let clock = Arc::new(ManualClock::new(start));
    let (started, stop) =
        test_support::spawn_service(settings.clone(), clock.clone(), |app: &Application| {
            Started {
                port: app.port(),
                scheduler: app.scheduler(),
                notifier: app.notifier(),
            }
        })
        .await;
    let root = format!("http://127.0.0.1:{}", started.port);
    let base = format!("{root}{}", settings.http.base_path);
    TestApp {
        base,
        root,
        http: reqwest::Client::new(),
        clock,
        scheduler: started.scheduler,
        notifier: started.notifier,
        settings,
        db,
        _stop: stop,
    }
}

/// The service on a fresh database of `backend` without a broker; `None` when the backend is
/// unavailable (for `test_support::on_both_backends!`).
pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    let db = fresh_database(backend).await?;
    Some(spawn_on(db, &Broker::None, Utc::now().trunc_subsecs(0)).await)
}

/// The service on `db` talking to `broker`, with the clock at the current second.
pub async fn spawn_with_broker(db: Arc<TestDatabase>, broker: &Broker) -> TestApp {
    spawn_on(db, broker, Utc::now().trunc_subsecs(0)).await
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
            email: None,
            locale: None,
            ttl: Duration::from_secs(600),
        };
        mint_dev_token(&self.settings.auth, &request).expect("dev token")
    }

    pub fn operator(&self) -> String {
        self.token(&[MANAGE], &[], None)
    }

    /// `method {base}{path}` as the operator, with `body` as JSON when given.
    pub async fn as_operator(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> reqwest::Response {
        let url = format!("{}{path}", self.base);
        test_support::http::send(&self.http, method, &url, Some(&self.operator()), body).await
    }

    /// GET `url` with `If-None-Match: tag`.
    pub async fn get_if_none_match(&self, url: &str, tag: &str) -> reqwest::Response {
        test_support::http::send_if_none_match(self.http.get(url), Some(tag)).await
    }

    /// POST a message as operator; returns (status, body).
    pub async fn create(&self, client: &str, body: Value) -> (u16, Value) {
        let path = format!("/clients/{client}/messages");
        let response = self
            .as_operator(reqwest::Method::POST, &path, Some(&body))
            .await;
        test_support::http::status_and_json(response).await
    }

    /// DELETE a message as operator.
    pub async fn delete_message(&self, client: &str, id: &str) -> reqwest::Response {
        let path = format!("/clients/{client}/messages/{id}");
        self.as_operator(reqwest::Method::DELETE, &path, None).await
    }

    /// Creates a message that must succeed; returns its id.
    pub async fn create_ok(&self, client: &str, body: Value) -> String {
        let (status, created) = self.create(client, body).await;
        assert_eq!(status, 201, "{created}");
        created["id"].as_str().unwrap().to_string()
    }

    /// The URL of `client`'s public messages.
    pub fn public_url(&self, client: &str) -> String {
        format!("{}/public/clients/{client}/messages", self.base)
    }

    /// A new client with one message, "hello".
    pub async fn client_saying_hello(&self) -> String {
        let client = unique_client();
        self.create_ok(&client, message("hello")).await;
        client
    }

    /// GET `url` without a token: the response as it came.
    pub async fn get_url(&self, url: &str) -> reqwest::Response {
        self.http.get(url).send().await.unwrap()
    }

    /// GET `/readyz`.
    pub async fn readyz(&self) -> reqwest::Response {
        self.get_url(&format!("{}/readyz", self.root)).await
    }

    pub async fn public(&self, client: &str) -> Value {
        let response = self.get_url(&self.public_url(client)).await;
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

    /// The value of a metric sample on `/metrics` whose line starts with `name{` and contains
    /// `label` (e.g. `result="miss"`); 0 when absent.
    pub async fn metric(&self, name: &str, label: &str) -> f64 {
        let text = test_support::http::metrics_text(&self.http, &self.root).await;
        text.lines()
            .filter(|l| l.starts_with(&format!("{name}{{")) || l.starts_with(&format!("{name} ")))
            .find(|l| l.contains(label))
            .and_then(|l| l.rsplit(' ').next())
            .map_or(0.0, |v| v.parse().unwrap())
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
