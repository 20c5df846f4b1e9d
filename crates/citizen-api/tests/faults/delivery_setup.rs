//! The fault suite's deliveries, set up: the service's delivery settings, citizens with an
//! e-mail address or a browser subscribed, and the delivery rows read from the database
//! (`deliveries.rs`, `replicas.rs`).

use std::future::Future;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use chrono::{DateTime, Utc};
use secrecy::SecretString;
use serde_json::{json, Value};
use service_kit::auth::{mint_dev_token, DevTokenRequest};
use sqlx::{PgConnection, Row as _};
use uuid::Uuid;

use crate::harness::{Api, Platform, DEV_SECRET};
use test_support::push::PushReceiver;
use test_support::smtp::SmtpServer;

/// `notifications.delivery.backoff_base_secs` / `backoff_max_secs` of these cases.
pub const BACKOFF_BASE_SECS: u64 = 1;
pub const BACKOFF_MAX_SECS: u64 = 2;
/// Two attempts of one message are never closer than this (the back-off from the second
/// attempt on is the cap, 2 s; less what one send takes).
pub const MIN_GAP: Duration = Duration::from_millis(1500);
pub const MAX_ATTEMPTS: i32 = 12;

/// A VAPID private key (P-256, base64url): the one of `tests/api/notifications_push.rs`.
pub const VAPID_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
/// The host of `notifications.email.unsubscribe_base_url`, which names the `Message-ID`s.
pub const MAIL_HOST: &str = "city.example";

/// The settings of delivery on this machine: every `poll_millis` the outbox and the delivery
/// worker run; back-off 1 s doubling to 2 s; the lease the shortest allowed (30 s). E-mail to
/// `smtp`, web push (to 127.0.0.1 over http) when `push`.
pub fn delivery_env(
    smtp: Option<&SmtpServer>,
    push: bool,
    poll_millis: u64,
) -> Vec<(&'static str, String)> {
    let mut env = vec![
        ("NOTIFICATIONS__WORKER__POLL_MILLIS", "100".to_owned()),
        ("NOTIFICATIONS__DELIVERY__ENABLED", "true".to_owned()),
        (
            "NOTIFICATIONS__DELIVERY__POLL_MILLIS",
            poll_millis.to_string(),
        ),
        (
            "NOTIFICATIONS__DELIVERY__MAX_ATTEMPTS",
            MAX_ATTEMPTS.to_string(),
        ),
        (
            "NOTIFICATIONS__DELIVERY__BACKOFF_BASE_SECS",
            BACKOFF_BASE_SECS.to_string(),
        ),
        (
            "NOTIFICATIONS__DELIVERY__BACKOFF_MAX_SECS",
            BACKOFF_MAX_SECS.to_string(),
        ),
        ("NOTIFICATIONS__DELIVERY__LEASE_SECS", "30".to_owned()),
        ("NOTIFICATIONS__DIGEST__TIME_ZONE", "UTC".to_owned()),
        (
            "NOTIFICATIONS__EMAIL__UNSUBSCRIBE_BASE_URL",
            format!("https://{MAIL_HOST}/api/v1/notifications/email/unsubscribe"),
        ),
    ];
    if let Some(smtp) = smtp {
        env.push(("NOTIFICATIONS__EMAIL__SMTP_URL", smtp.url()));
    }
    if push {
        env.extend([
            (
                "NOTIFICATIONS__WEBPUSH__VAPID_PRIVATE_KEY",
                VAPID_PRIVATE.to_owned(),
            ),
            ("NOTIFICATIONS__WEBPUSH__ALLOW_HTTP", "true".to_owned()),
            (
                "NOTIFICATIONS__WEBPUSH__ALLOWED_HOSTS",
                "127.0.0.1".to_owned(),
            ),
        ]);
    }
    env
}

/// A citizen's dev token, with an `email` claim when given (and `locale` en), as the service
/// under test accepts them.
pub fn citizen_token(subject: &str, email: Option<&str>) -> String {
    let mut settings: citizen_api::Settings =
        service_kit::settings::load_from_pairs(&[]).expect("default settings");
    settings.auth.dev_secret = Some(SecretString::from(DEV_SECRET));
    let request = DevTokenRequest {
        subject: subject.into(),
        scopes: Vec::new(),
        roles: Vec::new(),
        client_id: None,
        email: email.map(str::to_owned),
        locale: Some("en".into()),
        ttl: Duration::from_secs(3600),
    };
    mint_dev_token(&settings.auth, &request).expect("dev token")
}

/// `subject` subscribes `address` to e-mail (`POST /me/notifications/email`); its token.
pub async fn subscribe_email(api: &Api, subject: &str, address: &str) -> String {
    let bearer = citizen_token(subject, Some(address));
    let request = api
        .http
        .post(format!("{}/me/notifications/email", api.api))
        .bearer_auth(&bearer)
        .json(&json!({}));
    let answer = api.send(format!("subscribe {address}"), request).await;
    assert_eq!(answer.status, Some(201), "{answer:?}");
    bearer
}

/// `PUT /me/notifications/settings {enabled: true, interval}`.
pub async fn save_settings(api: &Api, bearer: &str, interval: Value) {
    let request = api
        .http
        .put(format!("{}/me/notifications/settings", api.api))
        .bearer_auth(bearer)
        .json(&json!({"enabled": true, "interval": interval}));
    let answer = api.send("settings".into(), request).await;
    assert_eq!(answer.status, Some(200), "{answer:?}");
}

/// A test browser subscribed at `receiver`'s endpoint `name`.
pub struct Browser {
    pub name: String,
    pub endpoint: String,
}

/// Subscribes the citizen of `bearer` to web push at `receiver`'s endpoint `name`, with a new
/// P-256 key pair and secret of a browser.
pub async fn subscribe_push(
    api: &Api,
    bearer: &str,
    receiver: &PushReceiver,
    name: &str,
) -> Browser {
    let secret = p256::SecretKey::from_slice(&random_scalar()).expect("a P-256 key");
    let point =
        p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&secret.public_key(), false);
    let keys = json!({
        "p256dh": URL_SAFE_NO_PAD.encode(point.as_bytes()),
        "auth": URL_SAFE_NO_PAD.encode(Uuid::new_v4().as_bytes()),
    });
    let endpoint = receiver.endpoint(name);
    let request = api
        .http
        .post(format!("{}/me/notifications/webpush", api.api))
        .bearer_auth(bearer)
        .json(&json!({"endpoint": endpoint, "keys": keys}));
    let answer = api.send(format!("subscribe {endpoint}"), request).await;
    assert_eq!(answer.status, Some(201), "{answer:?}");
    Browser {
        name: name.to_owned(),
        endpoint,
    }
}

fn random_scalar() -> [u8; 32] {
    let mut scalar = [0u8; 32];
    scalar[..16].copy_from_slice(Uuid::new_v4().as_bytes());
    scalar[16..].copy_from_slice(Uuid::new_v4().as_bytes());
    scalar[0] &= 0x7f; // below the group order
    scalar
}

/// The citizen of `bearer` files a report and `officer` accepts its issue: one event for the
/// citizen (and the report's voters). The issue.
pub async fn accepted_report(api: &Api, officer: &str, bearer: &str, title: &str) -> Uuid {
    let filed = api.file(bearer, title).await;
    assert_eq!(filed.status, Some(201), "{filed:?}");
    let issue = api.issue_of(officer, filed.id()).await;
    let step = api.step(officer, issue, "accept").await;
    assert_eq!(step.status, Some(200), "{step:?}");
    issue
}

/// Polls `check` every 100 ms until it holds or `within` has passed; whether it held.
pub async fn eventually<F, Fut>(within: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + within;
    loop {
        if check().await {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

// ---------------------------------------------------------------------------------------------
// The database, read directly
// ---------------------------------------------------------------------------------------------

/// One row of `notification_deliveries` with its entry's subject.
#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub tag: String,
    pub target: String,
    pub subject: String,
    pub attempts: i32,
    pub claimed_until: Option<DateTime<Utc>>,
    pub done_at: Option<DateTime<Utc>>,
    pub failed_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// A connection to the case's cluster.
pub struct Db(tokio::sync::Mutex<PgConnection>);

impl Db {
    pub async fn open(platform: &Platform) -> Self {
        Self(tokio::sync::Mutex::new(platform.sql().await))
    }

    /// The delivery rows of `channel`, by tag.
    pub async fn deliveries(&self, channel: &str) -> Vec<DeliveryRow> {
        let mut conn = self.0.lock().await;
        sqlx::query(
            "SELECT d.tag, d.target, n.subject, d.attempts, d.claimed_until, d.done_at, \
               d.failed_at, d.last_error \
             FROM notification_deliveries d JOIN notifications n ON n.tag = d.tag \
             WHERE d.channel = $1 ORDER BY d.tag, d.target",
        )
        .bind(channel)
        .fetch_all(&mut *conn)
        .await
        .expect("delivery rows")
        .iter()
        .map(|r| DeliveryRow {
            tag: r.get("tag"),
            target: r.get("target"),
            subject: r.get("subject"),
            attempts: r.get("attempts"),
            claimed_until: r.get("claimed_until"),
            done_at: r.get("done_at"),
            failed_at: r.get("failed_at"),
            last_error: r.get("last_error"),
        })
        .collect()
    }

    /// Every feed entry: (tag, subject).
    pub async fn entries(&self) -> Vec<(String, String)> {
        let mut conn = self.0.lock().await;
        sqlx::query("SELECT tag, subject FROM notifications ORDER BY tag")
            .fetch_all(&mut *conn)
            .await
            .expect("feed entries")
            .iter()
            .map(|r| (r.get("tag"), r.get("subject")))
            .collect()
    }

    /// When `subject`'s newest entry was written.
    pub async fn newest_entry(&self, subject: &str) -> DateTime<Utc> {
        let mut conn = self.0.lock().await;
        sqlx::query_scalar("SELECT max(inserted_at) FROM notifications WHERE subject = $1")
            .bind(subject)
            .fetch_one(&mut *conn)
            .await
            .expect("newest entry")
    }

    /// The tag of `subject`'s newest entry (the feed's order).
    pub async fn newest_tag(&self, subject: &str) -> String {
        let mut conn = self.0.lock().await;
        sqlx::query_scalar(
            "SELECT tag FROM notifications WHERE subject = $1 \
             ORDER BY sent_at DESC, inserted_at DESC LIMIT 1",
        )
        .bind(subject)
        .fetch_one(&mut *conn)
        .await
        .expect("newest tag")
    }

    /// Every digest written: (subject, period end).
    pub async fn digests(&self) -> Vec<(String, DateTime<Utc>)> {
        let mut conn = self.0.lock().await;
        sqlx::query("SELECT subject, period_end FROM notification_digests ORDER BY subject")
            .fetch_all(&mut *conn)
            .await
            .expect("digests")
            .iter()
            .map(|r| (r.get("subject"), r.get("period_end")))
            .collect()
    }

    pub async fn push_subscribed(&self, endpoint: &str) -> bool {
        let mut conn = self.0.lock().await;
        sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM webpush_subscriptions WHERE endpoint = $1)",
        )
        .bind(endpoint)
        .fetch_one(&mut *conn)
        .await
        .expect("subscription")
    }
}
