//! `cargo bench -p platform-messages --bench notices`
//!
//! 1. Operator write → subscriber receives the notice: median and p99 over `PM_BENCH_CHANGES`
//!    (default 2000) sequential edits of one of the client's three messages, against the broker's own publish → receive time (a plain
//!    retained QoS 1 publish) measured in the same run on the same broker.
//! 2. Public read endpoint requests per second, full answers (200) and `If-None-Match` answers
//!    (304), each as a ratio to the framework ceiling measured in the same run: a bare actix-web
//!    `App` with one trivial JSON handler and no middleware, served with `HttpServer` on port 0
//!    (16 concurrent clients, `PM_BENCH_SECONDS` each, default 3).
//!
//! Broker: Mosquitto at 127.0.0.1:1883 when reachable, else the embedded rumqttd (feature
//! `embedded-broker`, on by default). Database: a fresh SQLite file, and (1a again) a fresh PostgreSQL database from `TEST_DATABASE_URL` when
//! that server is reachable (else the PostgreSQL half is skipped and says so). Subscribers and
//! the baseline publisher are paho-mqtt clients, like the service.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a failure aborts it

use std::time::{Duration, Instant};

use actix_web::{web, App, HttpResponse, HttpServer};
use paho_mqtt::{AsyncClient, AsyncReceiver, Message};
use platform_messages::notify::{topic, Notice};
use platform_messages::{Application, Settings};
use secrecy::SecretString;
use service_kit::settings::ServiceSettings;
use service_kit::startup::ServiceApp;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn client(port: u16, prefix: &str) -> AsyncClient {
    let client = test_support::mqtt::client(&format!("tcp://127.0.0.1:{port}"), prefix);
    let options = test_support::mqtt::options().finalize();
    client.connect(options).await.unwrap();
    client
}

/// A subscribed client and its messages' payloads.
struct Subscriber {
    _client: AsyncClient,
    rx: AsyncReceiver<Option<Message>>,
}

impl Subscriber {
    async fn recv(&mut self) -> Option<Vec<u8>> {
        self.rx
            .recv()
            .await
            .ok()
            .flatten()
            .map(|m| m.payload().to_vec())
    }
}

async fn subscriber(port: u16, topic: String) -> Subscriber {
    let mut client = client(port, "bench-sub").await;
    let rx = client.get_stream(None);
    client.subscribe(topic, 1).await.unwrap();
    Subscriber {
        _client: client,
        rx,
    }
}

/// Operator write → subscriber receives the notice, `changes` times, on a fresh client with three
/// messages (the operator edits one of them again and again).
async fn measure_writes(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    broker_port: u16,
    changes: u64,
) -> anyhow::Result<Vec<Duration>> {
    let client_id = format!("bench-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
    let mut notices = subscriber(broker_port, topic(&client_id)).await;
    let mut write_to_notice = Vec::with_capacity(changes as usize);
    let mut last_version = String::new();
    // The client keeps a realistic few messages: the operator edits one of them again and again.
    let mut message_id = String::new();
    for i in 0..3 {
        let created: serde_json::Value = http
            .post(format!("{base}/clients/{client_id}/messages"))
            .bearer_auth(token)
            .json(&serde_json::json!({ "text": format!("message {i}") }))
            .send()
            .await?
            .json()
            .await?;
        message_id = created["id"].as_str().expect("id").to_string();
    }
    // Let the notices of the set-up arrive before timing anything.
    let current: serde_json::Value = http
        .get(format!("{base}/public/clients/{client_id}/messages"))
        .send()
        .await?
        .json()
        .await?;
    let current = current["version"].as_str().expect("version").to_string();
    while last_version != current {
        let payload = notices.recv().await.expect("subscriber alive");
        last_version = serde_json::from_slice::<Notice>(&payload)?.version;
    }
    for i in 0..changes {
        let started = Instant::now();
        let response = http
            .patch(format!("{base}/clients/{client_id}/messages/{message_id}"))
            .bearer_auth(token)
            .json(&serde_json::json!({ "text": format!("change {i}") }))
            .send()
            .await?;
        assert_eq!(response.status(), 200);
        loop {
            let payload = notices.recv().await.expect("subscriber alive");
            let notice: Notice = serde_json::from_slice(&payload)?;
            if notice.version != last_version {
                last_version = notice.version;
                break;
            }
        }
        write_to_notice.push(started.elapsed());
    }

    Ok(write_to_notice)
}

fn summary(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name:<42} n={:<6} median={:>9.3?} p99={:>9.3?} max={:>9.3?}",
        samples.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// Requests per second of 16 concurrent clients sending GET `url` (with `If-None-Match` when
/// given; the answer must then be 304).
async fn requests_per_second(url: &str, if_none_match: Option<&str>, seconds: u64) -> f64 {
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let http = http.clone();
            let url = url.to_string();
            let tag = if_none_match.map(str::to_string);
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < deadline {
                    let mut request = http.get(&url);
                    if let Some(tag) = &tag {
                        request = request.header("if-none-match", tag);
                    }
                    let response = request.send().await.unwrap();
                    if tag.is_some() {
                        assert_eq!(response.status(), 304);
                    } else {
                        assert!(response.status().is_success());
                    }
                    response.bytes().await.unwrap();
                    n += 1;
                }
                n
            })
        })
        .collect();
    let mut total = 0;
    for task in tasks {
        total += task.await.unwrap();
    }
    total as f64 / seconds as f64
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this binary without it, and
    // then it only checks that the benchmark still works, with tiny sizes.
    let full = std::env::args().any(|a| a == "--bench");
    let changes = if full {
        env_number("PM_BENCH_CHANGES", 2000)
    } else {
        20
    };
    let seconds = if full {
        env_number("PM_BENCH_SECONDS", 3)
    } else {
        1
    };
    let mosquitto = tokio::net::TcpStream::connect("127.0.0.1:1883")
        .await
        .is_ok();
    let embedded_port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let db = std::env::temp_dir().join(format!("pm-bench-{}.db", uuid::Uuid::new_v4().simple()));
    let mut settings = Settings::load(None)?;
    settings.http.port = 0;
    settings.database.url = SecretString::from(format!("sqlite://{}", db.display()));
    settings.auth.dev_secret = Some(SecretString::from("bench-secret-0123456789abcdef"));
    settings.mqtt.embedded_broker = !mosquitto;
    settings.mqtt.embedded_listen = format!("127.0.0.1:{embedded_port}");
    settings.mqtt.url = "mqtt://127.0.0.1:1883".into();
    let broker_port = if mosquitto { 1883 } else { embedded_port };
    println!(
        "broker: {}",
        if mosquitto {
            "Mosquitto 127.0.0.1:1883"
        } else {
            "embedded rumqttd"
        }
    );

    let app = Application::build(&settings).await?;
    let base = format!("http://127.0.0.1:{}{}", app.port(), settings.http.base_path);
    let notifier = app.notifier();
    tokio::spawn(app.run_until(std::future::pending()));
    notifier.wait_connected().await;
    let token = service_kit::auth::mint_dev_token(
        &settings.auth,
        &service_kit::auth::DevTokenRequest {
            subject: "bench".into(),
            scopes: vec!["platform:messages:manage".into()],
            roles: vec![],
            client_id: None,
            email: None,
            locale: None,
            ttl: Duration::from_secs(3600),
        },
    )?;
    let http = reqwest::Client::new();

    // 1a. Operator write → notice, on SQLite, then on PostgreSQL.
    let write_to_notice = measure_writes(&http, &base, &token, broker_port, changes).await?;
    let postgres = match test_support::database(test_support::Backend::Postgres, "bench").await {
        Some(pg) => {
            let mut pg_settings = settings.clone();
            pg_settings.database.url = SecretString::from(pg.url.clone());
            pg_settings.database.migrate_on_start = true;
            pg_settings.mqtt.embedded_broker = false;
            pg_settings.mqtt.url = format!("mqtt://127.0.0.1:{broker_port}");
            let pg_app = Application::build(&pg_settings).await?;
            let pg_base = format!(
                "http://127.0.0.1:{}{}",
                pg_app.port(),
                settings.http.base_path
            );
            let pg_notifier = pg_app.notifier();
            tokio::spawn(pg_app.run_until(std::future::pending()));
            pg_notifier.wait_connected().await;
            let samples = measure_writes(&http, &pg_base, &token, broker_port, changes).await?;
            Some((pg, samples))
        }
        None => {
            println!(
                "PostgreSQL unreachable (TEST_DATABASE_URL): its write -> notice half skipped"
            );
            None
        }
    };
    let client_id = format!("bench-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);

    // 1b. The broker alone: retained QoS 1 publish → receive, same broker, same run.
    let raw_topic = format!("bench/raw/{client_id}");
    let mut raw = subscriber(broker_port, raw_topic.clone()).await;
    let publisher = client(broker_port, "bench-pub").await;
    let mut broker_only = Vec::with_capacity(changes as usize);
    for i in 0..changes {
        let started = Instant::now();
        // Timed up to the subscriber's receipt, not the PUBACK (the token is not awaited).
        let _token = publisher.try_publish(Message::new_retained(
            raw_topic.as_str(),
            format!("{i}").into_bytes(),
            1,
        ))?;
        raw.recv().await.expect("subscriber alive");
        broker_only.push(started.elapsed());
    }
    summary("operator write -> notice (SQLite)", write_to_notice);
    if let Some((_pg, samples)) = postgres {
        summary("operator write -> notice (PostgreSQL)", samples);
    }
    summary("broker publish -> subscriber (baseline)", broker_only);

    // 2. Read throughput against a trivial handler.
    // A realistic client: three current messages.
    let read_client = format!("{client_id}-read");
    for i in 0..3 {
        let response = http
            .post(format!("{base}/clients/{read_client}/messages"))
            .bearer_auth(&token)
            .json(&serde_json::json!({ "text": format!("notice {i}"), "kind": "maintenance" }))
            .send()
            .await?;
        assert_eq!(response.status(), 201);
    }
    let public = format!("{base}/public/clients/{read_client}/messages");
    let trivial = std::net::TcpListener::bind("127.0.0.1:0")?;
    let trivial_url = format!("http://{}/", trivial.local_addr()?);
    let ceiling = HttpServer::new(|| {
        App::new().route(
            "/",
            web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"ok": true})) }),
        )
    })
    .workers(settings.http.effective_workers())
    .disable_signals()
    .listen(trivial)?
    .run();
    let ceiling_handle = ceiling.handle();
    tokio::spawn(ceiling);
    let etag = http
        .get(&public)
        .send()
        .await?
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .expect("etag")
        .to_string();
    // The same run, one after the other, on the same machine and client.
    let ceiling_rps = requests_per_second(&trivial_url, None, seconds).await;
    let public_rps = requests_per_second(&public, None, seconds).await;
    let not_modified_rps = requests_per_second(&public, Some(&etag), seconds).await;
    println!("read throughput, 16 concurrent clients, {seconds} s each, client with 3 messages:");
    for (name, rps) in [
        ("bare actix-web handler (ceiling)", ceiling_rps),
        ("public read 200 (3 messages)", public_rps),
        ("public read 304 (If-None-Match)", not_modified_rps),
    ] {
        println!(
            "{name:<34} {rps:>10.0} req/s  {:>5.2} of the ceiling",
            rps / ceiling_rps
        );
    }
    ceiling_handle.stop(false).await;
    let _ = std::fs::remove_file(db);
    Ok(())
}
