//! Helpers of the delivery suites: the service with the workers off and web push allowed to a
//! local stand-in, push subscriptions of test browsers, events that reach a recipient, and a
//! deliverer driven with the injected clock.

use std::sync::Arc;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use citizen_api::notify::deliver::Deliverer;
use citizen_api::notify::mail::Mailer;
use citizen_api::notify::push_send::PushSender;
use citizen_api::notify::worker::Worker;
use citizen_api::notify::{DeliverySettings, EmailSettings};
use reqwest::Method;
use secrecy::SecretString;
use serde_json::{json, Value};
use service_kit::clock::Clock;
use uuid::Uuid;
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::helpers::{Filed, Filing, TestApp};
use crate::notifications_helpers::{browser_keys, links, token_with};
use crate::notifications_push::VAPID_PRIVATE;

/// The service with both workers off (the tests drive them) and http endpoints on 127.0.0.1
/// allowed.
pub async fn spawn_delivery(backend: test_support::Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "deliver").await?);
    Some(
        crate::helpers::spawn_on(db, |s| {
            s.notifications.worker.enabled = false;
            s.notifications.webpush.allow_http = true;
            s.notifications.webpush.allowed_hosts = vec!["127.0.0.1".into()];
        })
        .await,
    )
}

/// Retries: 3 attempts, 30 s doubling up to 100 s, a lease of 120 s.
pub fn delivery_settings() -> DeliverySettings {
    DeliverySettings {
        enabled: true,
        max_attempts: 3,
        backoff_base_secs: 30,
        backoff_max_secs: 100,
        lease_secs: 120,
        poll_millis: 1000,
        retain_days: 30,
        max_age_hours: 72,
    }
}

pub fn push_sender() -> PushSender {
    PushSender::new(VAPID_PRIVATE, "mailto:ops@example.org", 3600).unwrap()
}

pub fn mailer(smtp_url: &str) -> Mailer {
    let settings = EmailSettings {
        smtp_url: Some(SecretString::from(smtp_url.to_owned())),
        from: "Město <noreply@city.example>".into(),
        unsubscribe_base_url: "https://city.example/api/v1/notifications/email/unsubscribe".into(),
    };
    Mailer::new(&settings, i18n::Locale::En).unwrap().unwrap()
}

pub fn deliverer(app: &TestApp, push: bool, mail: Option<&str>) -> Deliverer {
    Deliverer::new(
        app.stores.clone(),
        push.then(push_sender),
        mail.map(mailer),
        delivery_settings(),
    )
}

/// One round of a [`deliverer`] at the clock's now.
pub async fn deliver_now(
    app: &TestApp,
    push: bool,
    mail: Option<&str>,
) -> citizen_api::notify::deliver::Round {
    deliverer(app, push, mail)
        .run_once(app.clock.now())
        .await
        .unwrap()
}

/// A stand-in push service answering `status` to every POST under `/push/`.
pub async fn stand_in(status: u16) -> MockServer {
    stand_in_at(status, path_regex("^/push/")).await
}

/// A stand-in push service answering `status` to every POST whose request `matcher` matches.
pub async fn stand_in_at(status: u16, matcher: impl wiremock::Match + 'static) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(matcher)
        .respond_with(ResponseTemplate::new(status))
        .mount(&server)
        .await;
    server
}

/// A test browser: its push endpoint on the stand-in and the keys to read what it gets.
pub struct Browser {
    pub endpoint: String,
    pub secret: p256::SecretKey,
    pub auth: Vec<u8>,
}

impl Browser {
    /// The payload of a request the stand-in received for this browser, as JSON.
    pub fn read(&self, request: &wiremock::Request) -> Value {
        serde_json::from_slice(&test_support::webpush::decrypt(
            &request.body,
            &self.secret,
            &self.auth,
        ))
        .unwrap()
    }
}

/// Subscribes `subject` to web push at a new endpoint of `server` (with the token's `locale`).
pub async fn subscribe_push(
    app: &TestApp,
    subject: &str,
    server: &MockServer,
    locale: Option<&str>,
) -> Browser {
    let (secret, keys) = browser_keys();
    let endpoint = format!("{}/push/{}", server.uri(), Uuid::new_v4().simple());
    let (status, body) = app
        .send_json(
            Method::POST,
            "/me/notifications/webpush",
            &token_with(subject, None, locale),
            &json!({"endpoint": endpoint, "keys": keys}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    Browser {
        endpoint,
        secret,
        auth: URL_SAFE_NO_PAD
            .decode(keys["auth"].as_str().unwrap())
            .unwrap(),
    }
}

/// Sets `subject`'s settings with a token carrying `locale`.
pub async fn set_settings(app: &TestApp, subject: &str, locale: &str, interval: Value) {
    let (status, body) = app
        .save_settings(&token_with(subject, None, Some(locale)), true, interval)
        .await;
    assert_eq!(status, 200, "{body}");
}

/// Files a report by `author` (voted on by each of `voters`) and accepts it: one event; then
/// drains the outbox (feed entries and delivery rows). The report and its issue.
pub async fn accepted_report(app: &TestApp, author: &str, voters: &[&str], second: i64) -> Filed {
    let filed = app
        .file(Filing::new("Broken lamp", second).by(author))
        .await;
    for voter in voters {
        let (status, body) = app
            .vote(&app.token(voter, &[]), &filed.report.to_string(), 1)
            .await;
        assert_eq!(status, 200, "{body}");
    }
    app.accept(filed.issue, app.clock.now()).await;
    drain(app).await;
    filed
}

/// Runs the outbox worker once.
pub async fn drain(app: &TestApp) -> usize {
    Worker::new(app.stores.clone(), i18n::Locale::En, links())
        .run_once(app.clock.now())
        .await
        .unwrap()
}

/// The `Topic` headers the stand-in received, in order.
pub async fn topics(server: &MockServer) -> Vec<String> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.headers.get("topic").unwrap().to_str().unwrap().to_owned())
        .collect()
}

/// The tags of `subject`'s feed, newest first.
pub async fn feed_tags(app: &TestApp, subject: &str) -> Vec<String> {
    let body = crate::notifications_helpers::feed(app, subject).await;
    crate::notifications_helpers::fields(&body, "tag")
}
